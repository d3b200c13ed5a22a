"""The retrieval rules of round 8 are governed policy (layers/long_term/policy.py: `holiday_words`, `move_weight`,
`rerank_allergen_share`, …): an approved global `policy.long_term.<field>` entry changes what a search serves, and
explain's factors still multiply to the score under it."""
import pytest

from layers.long_term.policy import tenant_policy
from layers.long_term.selectors import memory_search
from permanent.services import change_request_approve, change_request_propose

pytestmark = pytest.mark.django_db


def _served(tenant, query):
    return [s.memory.pk for s in memory_search(tenant=tenant, user_id="u1", query=query)]


@pytest.fixture
def approve(tenant, make_staff):
    """Approve one global policy entry the way staff do: an editor proposes, a reviewer approves."""
    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")

    def approved(key, value):
        request = change_request_propose(tenant=tenant, key=key, action="create", value=value, proposer_user=editor)
        change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)
    return approved


def test_an_approved_holiday_word_sends_the_ticket_home(tenant, remember, approve):
    hometown = remember("User is from Chiang Mai.", memory_key="user.hometown")
    remember("User lives in Bangkok.", memory_key="user.home_city")
    queries = ("look up flights for golden week", "泼水节的机票帮我看看")
    for query in queries:
        assert hometown.pk not in _served(tenant, query), query
    # a word list replaces the default (not merged): the code's holidays are kept by listing them
    approve("policy.long_term.holiday_words", [*tenant_policy(tenant.pk).holiday_words, "golden week", "泼水节"])
    for query in queries:
        assert hometown.pk in _served(tenant, query), query
    assert hometown.pk in _served(tenant, "flights for the Diwali trip")


def test_an_approved_move_weight_decides_whether_a_move_answers_where_one_lives(tenant, remember, approve):
    move = remember("User plans: moving to Seattle in the fall.", kind="event", memory_key="user.plan")
    assert move.pk in _served(tenant, "where do I live now?")
    approve("policy.long_term.move_weight", 0.05)
    assert tenant_policy(tenant.pk).move_weight == 0.05
    assert move.pk not in _served(tenant, "where do I live now?")


def test_an_approved_allergen_share_is_the_share_explain_multiplies(tenant, remember, approve):
    pollen = remember("用户对花粉过敏。", memory_key="user.allergies")
    query = "想买束花犒劳一下自己，买什么好"
    assert pollen.pk in _served(tenant, query)

    def explained():
        found = next(s for s in memory_search(tenant=tenant, user_id="u1", query=query, min_score=0, explain=True)
                     if s.memory.pk == pollen.pk)
        return found, found.explain

    _, before = explained()
    approve("policy.long_term.rerank_allergen_share", 0.0)
    found, after = explained()
    assert after["rerank"]["features"]["allergen"] == 1.0
    assert after["rerank"]["boost"] < before["rerank"]["boost"]
    assert after["relevance"] < before["relevance"]
    stage = after["rerank"]
    assert stage["relevance"] == pytest.approx((1 - (1 - stage["first_stage_relevance"]) * (1 - stage["boost"]))
                                               * stage["misfit_factor"])
    assert found.score == pytest.approx(after["relevance"] * after["recency"] * after["scene"] * after["confidence"]
                                        * after["feedback_weight"])
    assert pollen.pk not in _served(tenant, query)
