"""Of the lines of the person a query names, the second stage lifts the ones that speak of themselves and the
ones that report what happened to them (layers/long_term/selectors/rerank.py `first_person_share`,
`reports_event`; policy `rerank_first_person_share`, `rerank_event_share`): "what exercises has John done?" is
answered by "John: I started a weekend yoga class", not by "John: Yeah, Maria, keep it up!"."""
import dataclasses

import pytest

from layers.long_term.policy import Policy
from layers.long_term.selectors import memory_search
from layers.long_term.selectors.rerank import first_person_share, reports_event

pytestmark = pytest.mark.django_db


def test_first_person_share_counts_pronouns():
    assert first_person_share("John: I started a yoga class with my colleague") == 1.0
    assert first_person_share("John: Yeah, Maria, keep it up! You are doing great for your team") == 0.0
    assert first_person_share("John: I think you should try it") == 0.5
    assert first_person_share("John: Sounds great!") == 0.5  # no pronoun: half
    assert first_person_share("小王：我上周去了杭州，你呢？") == 0.5
    assert first_person_share("小王：我和我老婆去了杭州") == 1.0
    # a span's kept question is the assistant's words, not the user's
    assert first_person_share('user: Purdue (answering "where did you study?")') == 0.5


def test_reports_event_reads_past_reports():
    for line in ("Tim: I went to a castle in the UK", "Nate: We adopted a turtle", "John: Last week I scored 40 points",
                 "Maria: something happened yesterday", "Jon: I've finally opened the studio", "小王：我上周去了杭州",
                 "Gina: a couple of weeks ago the store got busy"):
        assert reports_event(line), line
    for line in ("John: Yeah, Maria, keep it up!", "Caroline: I love reading", "Tim: Have you been to Paris?",
                 "Melanie: I will call you tomorrow", "小王：你最近怎么样", "John: Thanks, glad you liked it"):
        assert not reports_event(line), line


def _ranked(tenant, query, policy=None):
    return memory_search(tenant=tenant, user_id="u1", query=query, min_score=0, explain=True,
                         **({"policy": policy} if policy else {}))


@pytest.fixture
def transcript(remember):
    return {
        "cheer": remember("[8 May, 2023] John: Yeah, Maria, keep up the exercise, your class sounds great!",
                          kind="episode").pk,
        "yoga": remember("[9 May, 2023] John: I started a weekend yoga class for exercise with a colleague",
                         kind="episode").pk,
        "maria": remember("[9 May, 2023] Maria: I started a spin class for exercise last week", kind="episode").pk,
    }


def test_the_named_persons_own_report_comes_first(tenant, transcript):
    results = _ranked(tenant, "What exercise has John done?")
    order = [r.memory.pk for r in results]
    assert order.index(transcript["yoga"]) < order.index(transcript["cheer"]), order
    stages = {r.memory.pk: r.explain["rerank"] for r in results}
    assert stages[transcript["yoga"]]["features"]["event"] == 1.0
    assert stages[transcript["yoga"]]["features"]["first_person"] == 1.0
    assert stages[transcript["cheer"]]["features"]["first_person"] == 0.0
    assert stages[transcript["cheer"]]["features"]["event"] == 0.0
    # Maria's report is not John's: neither feature is read for a speaker the query does not name
    assert stages[transcript["maria"]]["features"]["event"] == 0.0
    assert stages[transcript["maria"]]["features"]["first_person"] == 0.0
    # the factors still multiply to the score
    for r in results:
        e = r.explain
        assert r.score == pytest.approx(e["relevance"] * e["recency"] * e["scene"] * e["confidence"]
                                        * e["feedback_weight"], rel=1e-6)


def test_the_shares_are_policy(tenant, transcript):
    off = dataclasses.replace(Policy(), rerank_first_person_share=0.0, rerank_event_share=0.0)
    default = {r.memory.pk: r for r in _ranked(tenant, "What exercise has John done?")}
    without = {r.memory.pk: r for r in _ranked(tenant, "What exercise has John done?", off)}
    yoga, cheer = transcript["yoga"], transcript["cheer"]
    assert without[yoga].explain["rerank"]["boost"] < default[yoga].explain["rerank"]["boost"]
    assert default[yoga].score > without[yoga].score
    # the cheer has no first person and no report: its boost is the subject's alone either way
    assert without[cheer].explain["rerank"]["boost"] == pytest.approx(default[cheer].explain["rerank"]["boost"])
