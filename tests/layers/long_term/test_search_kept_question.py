"""The question a span kept (layers/formation/spans.py) cuts a match only when it is small talk for the query
(layers/long_term/selectors/rerank.py `kept_question_small_talk`, policy `rerank_kept_question_factor` and
`rerank_kept_question_generic_words`): a short reply's meaning sits in the question it answers, so a query that
shares a topical word with that question is answered by the reply; a query whose topical words the question
lacks, sharing only its "today" or "how was", is not."""
import dataclasses

import pytest

from layers.long_term.policy import Policy
from layers.long_term.selectors import memory_search
from layers.long_term.selectors.rerank import kept_question_only, kept_question_small_talk
from memoryhub.providers.keywords import query_concepts

pytestmark = pytest.mark.django_db
GENERIC = Policy().rerank_kept_question_generic_words

PURDUE = 'user: Purdue, class of 2016 (answering "Where did you study?")'
CAT = "user: 养了一只橘猫，叫年糕（回答：你现在养宠物吗？）"
RECIPE = "user: 我吃素三年了，最近在研究新菜谱（回答：今天过得怎么样？）"
REPORT = 'user: I finally sent the quarterly report (answering "how was your day today?")'
WEEKEND = 'user: Mostly sleeping in. (answering "How was your weekend?")'


def _small_talk(content, query):
    return kept_question_small_talk(content, query_concepts(query), GENERIC)


def test_a_question_sharing_the_querys_topic_is_not_small_talk():
    for content, query in ((PURDUE, "where did I study?"), (CAT, "我有宠物吗"), (CAT, "do I have a pet?"),
                           ('user: Yes, so empowering! (answering "Did you go to the pride parade last weekend?")',
                            "When did Caroline go to the LGBTQ pride parade?"),
                           ('user: Acme, as a product designer (answering "Where do you work these days?")',
                            "where do I work now?")):
        assert kept_question_only(content, query_concepts(query)), query  # the match is in the question only
        assert not _small_talk(content, query), query


def test_a_question_sharing_only_chat_words_is_small_talk():
    for content, query in ((RECIPE, "今天天气怎么样"), (RECIPE, "今天会下雨吗"), (REPORT, "what's the weather today?"),
                           (REPORT, "will it rain today?"), (WEEKEND, "what should I cook this weekend?")):
        assert kept_question_only(content, query_concepts(query)), query
        assert _small_talk(content, query), query


def test_a_query_with_no_topical_word_is_answered_by_the_question_it_repeats():
    # "how was my weekend?" has nothing but the weekend: the reply to "how was your weekend?" answers it
    assert not _small_talk(WEEKEND, "how was my weekend?")
    assert not _small_talk(RECIPE, "我今天过得怎么样")


def test_no_kept_question_is_no_small_talk():
    assert not _small_talk("user: I finally sent the quarterly report", "what's the weather today?")


def _stage(tenant, query, pk, policy=None):
    results = memory_search(tenant=tenant, user_id="u1", query=query, min_score=0, explain=True,
                            **({"policy": policy} if policy else {}))
    return next(r for r in results if r.memory.pk == pk)


def test_the_reply_keeps_its_score_when_its_question_is_the_topic(tenant, remember):
    span = remember(PURDUE, kind="episode")
    remember("user: I walk the dog every morning before work", kind="episode")
    scored = _stage(tenant, "where did I study?", span.pk)
    stage = scored.explain["rerank"]
    assert stage["kept_question_only"] is True and stage["kept_question_small_talk"] is False
    assert stage["misfit_factor"] == pytest.approx(1.0)
    assert span.pk in [s.memory.pk for s in memory_search(tenant=tenant, user_id="u1", query="where did I study?")]


def test_small_talk_still_cuts_and_the_cut_is_policy(tenant, remember):
    span = remember(REPORT, kind="episode")
    cut = _stage(tenant, "what's the weather today?", span.pk)
    assert cut.explain["rerank"]["kept_question_small_talk"] is True
    assert cut.explain["rerank"]["misfit_factor"] == pytest.approx(Policy().rerank_kept_question_factor)
    assert span.pk not in [s.memory.pk for s in memory_search(tenant=tenant, user_id="u1",
                                                                   query="what's the weather today?")]
    # the factor is policy: at 1.0 nothing is cut
    uncut = _stage(tenant, "what's the weather today?", span.pk,
                   dataclasses.replace(Policy(), rerank_kept_question_factor=1.0))
    assert uncut.explain["rerank"]["misfit_factor"] == pytest.approx(1.0)
    assert uncut.score > cut.score
    # the chat words are policy: counting "study" as one leaves "rain" the query's only topical word, which the
    # kept question lacks
    purdue = remember(PURDUE, kind="episode")
    policy = dataclasses.replace(Policy(), rerank_kept_question_generic_words=[*GENERIC, "study"])
    assert _stage(tenant, "where did I study in the rain?", purdue.pk, policy).explain["rerank"][
        "kept_question_small_talk"] is True
    assert _stage(tenant, "where did I study in the rain?", purdue.pk).explain["rerank"][
        "kept_question_small_talk"] is False
