"""Questions that name what they ask by its other words (layers/long_term/policy.py question_forms,
key_lexicon, form_keys; the second stage's detail feature and kept-question factor in
layers/long_term/selectors/rerank.py): a job asked as a title, a role or a company one is with, home as a
neighbourhood, a habit by what it is and when, the fuller of two facts of one key first, and an episode's
kept assistant question weighing less than the user's own words."""
import pytest

from layers.long_term.selectors import memory_search
from layers.long_term.selectors.rerank import detail_count, kept_question_only
from memoryhub.providers.keywords import query_concepts

pytestmark = pytest.mark.django_db


def _served(tenant, query):
    return [s.memory.pk for s in memory_search(tenant=tenant, user_id="u1", query=query)]


def test_a_job_asked_by_its_other_names(tenant, remember):
    job = remember("User works as design lead.", memory_key="user.occupation")
    firm = remember("User works at Shopify.", memory_key="user.employer")
    remember("User lives in Toronto.", memory_key="user.home_city")
    for query in ("what's my role?", "what's my current job title?", "what position do I hold now?",
                  "我的职位是什么？", "我现在是什么岗位", "我是做什么工作的"):
        assert job.pk in _served(tenant, query), query
    for query in ("which company am I with?", "what organisation am I at these days?", "我现在在哪上班",
                  "我在哪家公司"):
        assert _served(tenant, query)[0] == firm.pk, query
    # the same words about no one asks nothing of the user's job
    assert job.pk not in _served(tenant, "what is the role of vitamin D in the body?")


def test_home_asked_as_a_neighbourhood_or_by_home(tenant, remember):
    home = remember("User lives in Toronto.", memory_key="user.home_city")
    remember("User works at Shopify.", memory_key="user.employer")
    for query in ("where's home for me?", "what neighborhood or city is my home in?", "which area do I live in?",
                  "where do I stay?", "我家住哪", "我家在哪个区？"):
        assert _served(tenant, query)[:1] == [home.pk], query
    assert home.pk not in _served(tenant, "what neighbourhood is the Louvre in?")


def test_a_habit_asked_by_what_it_is_and_when(tenant, remember):
    tutor = remember("User's habit: a tutor (at 7, tue, every Tuesday)", kind="habit", memory_key="habit.see.tutor")
    coffee = remember("User's habit: morning coffee (8:30, every day)", kind="habit",
                      memory_key="habit.drink.coffee")
    for query in ("when's my lesson?", "what time is my class on tuesday?", "我几点上课？"):
        served = _served(tenant, query)
        assert served[:1] == [tutor.pk] and coffee.pk not in served, query
    for query in ("what time do I usually get my morning coffee?", "我一般几点喝咖啡"):
        served = _served(tenant, query)
        assert served[:1] == [coffee.pk] and tutor.pk not in served, query
    # the hour of something else asks for no habit
    assert _served(tenant, "what time does the pharmacy close?") == []


def test_a_habit_question_lifts_only_the_habit_it_names(tenant, remember):
    gym = remember("User's habit: gym (at 6pm, mon, wed)", kind="habit", memory_key="habit.go.gym")
    swim = remember("User's habit: swimming (every Saturday)", kind="habit", memory_key="habit.go.swimming")
    run = remember("用户的习惯：跑步（早上6点，每天）", kind="habit", memory_key="habit.go.running")
    piano = remember("User's habit: piano lesson (thu, at 5)", kind="habit", memory_key="habit.take.piano")
    for query, habit in (("how often do I swim?", swim), ("when do I usually go to the gym?", gym),
                         ("我平时几点跑步", run), ("what time do I normally go running?", run),
                         ("我每周什么时候上钢琴课", piano), ("我啥时候上钢琴课来着", piano)):
        results = memory_search(tenant=tenant, user_id="u1", query=query, explain=True)
        assert results[0].memory.pk == habit.pk, query
        assert results[0].explain["rerank"]["features"]["time_form"] == 1.0
        assert all(r.explain["rerank"]["features"]["time_form"] == 0.0 for r in results[1:]), query


def test_details_in_brackets_are_counted_without_the_kept_question():
    assert detail_count("用户的狗叫旺财（3岁，柯基）。") == 2
    assert detail_count("User's habit: a tutor (at 7, tue, every Tuesday)") == 3
    assert detail_count("用户养了狗。") == 0
    assert detail_count("我吃素三年了（回答：今天过得怎么样？）") == 0
    assert detail_count('I finished the report (answering "how was your day?")') == 0


def test_the_fuller_of_two_facts_of_one_key_comes_first(tenant, remember):
    full = remember("用户的狗叫旺财（3岁，柯基）。", memory_key="user.pet")
    bare = remember("用户养了狗。", memory_key="user.pet")
    for query in ("我养的是什么品种", "what breed is my dog?", "tell me about my dog"):
        results = memory_search(tenant=tenant, user_id="u1", query=query, explain=True)
        assert [r.memory.pk for r in results][:2] == [full.pk, bare.pk], query
        first, second = results[0].explain, results[1].explain
        assert (first["rerank"]["details"], second["rerank"]["details"]) == (2, 0)
        assert second["rerank"]["fewer_details_than"] == pytest.approx(results[0].score, abs=1e-3)
        assert results[1].score < results[0].score
        assert second["relevance"] == pytest.approx(
            (1 - (1 - second["rerank"]["first_stage_relevance"]) * (1 - second["rerank"]["boost"]))
            * second["rerank"]["misfit_factor"])


def test_the_kept_question_is_only_context_for_keyword_matches():
    concepts = query_concepts("明天天气怎么样")
    assert kept_question_only("我吃素三年了，最近在研究新菜谱（回答：今天过得怎么样？）", query_concepts("今天天气怎么样"))
    assert not kept_question_only("我吃素三年了，最近在研究新菜谱（回答：今天过得怎么样？）", query_concepts("新菜谱"))
    assert not kept_question_only("今天下雨了（回答：今天过得怎么样？）", query_concepts("今天天气怎么样"))
    assert not kept_question_only("我吃素三年了", concepts)
    assert kept_question_only('I finally sent the report (answering "how was your day today?")',
                              query_concepts("what's the weather today?"))


def test_a_weather_question_is_not_answered_by_the_question_a_span_kept(tenant, remember):
    span = remember("我吃素三年了，最近在研究新菜谱（回答：今天过得怎么样？）", kind="episode")
    en = remember('I finally sent the quarterly report (answering "how was your day today?")', kind="episode")
    for query in ("今天天气怎么样", "今天会下雨吗"):
        assert span.pk not in _served(tenant, query), query
    for query in ("what's the weather today?", "will it rain today?"):
        assert en.pk not in _served(tenant, query), query
    everything = memory_search(tenant=tenant, user_id="u1", query="今天天气怎么样", min_score=0, explain=True)
    stage = next(r for r in everything if r.memory.pk == span.pk).explain["rerank"]
    assert stage["kept_question_only"] is True
    # the user's own words still find it
    assert span.pk in _served(tenant, "我最近在研究什么菜谱？")
    assert en.pk in _served(tenant, "did I send the quarterly report?")
