"""Round 6 of the relevance work (docs/benchmarks.md, "Retrieval (issue 12)"): a free-slot question finds what
fills that weekday (selectors/days.py, the second stage's slot feature), a request for a kind of pastime finds
the tastes of that kind (policy `pastime_kinds`, `pastime_query_cues`), a question topic reads its key more
narrowly than form and lexicon, and zh/en words for a spouse, a job, a landlord and a pharmacy."""
import pytest

from layers.long_term.policy import Policy
from layers.long_term.selectors import memory_search
from layers.long_term.selectors.days import days_named
from layers.long_term.selectors.scenes import pastimes_asked, query_read

pytestmark = pytest.mark.django_db


def _served(tenant, query):
    return [s.memory.pk for s in memory_search(tenant=tenant, user_id="u1", query=query)]


def test_days_named_in_english_and_chinese():
    assert days_named("every Tuesday and Thursday at 8") == {1, 3}
    assert days_named("closing shifts Wednesdays and Fridays") == {2, 4}
    assert days_named("每周二、周四晚上八点打篮球") == {1, 3}
    assert days_named("每周一三五早上去游泳") == {0, 2, 4}
    assert days_named("周一到周五都要加班") == {0, 1, 2, 3, 4}
    assert days_named("crosses the border every weekday at 7:30") == {0, 1, 2, 3, 4}
    assert days_named("周末在奶茶店兼职") == {5, 6}
    assert days_named("星期天去教堂") == {6}
    assert days_named("User's habit: gym (at 6pm, mon, wed)") == {0, 2}
    # counts, verbs and the sun are no days
    assert days_named("一周三次") == set()
    assert days_named("we sat in the sun on the mon-ster ride") == set()


def test_a_free_slot_question_finds_what_fills_that_day(tenant, remember):
    games = remember("user: 每周二、周四晚上八点打篮球，雷打不动", kind="episode")
    meeting = remember("user: the team standup moved to Wednesdays at 9, can't miss it", kind="episode")
    remember("User lives in Shenzhen.", memory_key="user.home_city")
    assert games.pk in _served(tenant, "周二晚上有空一起吃饭吗")
    assert games.pk in _served(tenant, "can I do drinks after work on Thursday?")
    assert meeting.pk in _served(tenant, "could I book a 9am dentist appointment on Wednesday?")
    # another day's commitment does not fill the slot, and a question for an hour is no slot question
    assert games.pk not in _served(tenant, "can I do drinks after work on Monday?")
    explained = memory_search(tenant=tenant, user_id="u1", query="周二晚上有空一起吃饭吗", min_score=0, explain=True)
    stage = next(s for s in explained if s.memory.pk == games.pk).explain
    assert stage["rerank"]["features"]["slot"] == 1.0
    assert stage["relevance"] == pytest.approx(
        (1 - (1 - stage["rerank"]["first_stage_relevance"]) * (1 - stage["rerank"]["boost"]))
        * stage["rerank"]["misfit_factor"])


def test_a_request_for_a_kind_of_pastime_finds_tastes_of_that_kind(tenant, remember):
    dramas = remember("User likes K-dramas.", kind="preference", memory_key="user.likes")
    climbing = remember("User likes bouldering.", kind="preference", memory_key="user.likes")
    fishing = remember("用户喜欢钓鱼。", kind="preference", memory_key="user.likes")
    chess = remember("用户喜欢下象棋。", kind="preference", memory_key="user.likes")
    watch = _served(tenant, "something to watch tonight?")
    assert dramas.pk in watch and climbing.pk not in watch
    open_request = _served(tenant, "周末有什么好玩的")
    assert {climbing.pk, fishing.pk, chess.pk} <= set(open_request)
    # a request that names its pastime asks for that one, not the others
    named = _served(tenant, "周末去哪钓鱼好？")
    assert fishing.pk in named and chess.pk not in named
    policy = Policy()
    assert pastimes_asked("bored, got a film for me?", policy) == {"screen", "any"}
    assert pastimes_asked("any Peking opera shows this weekend?", policy) == set()


def test_a_question_topic_reads_its_key_more_narrowly_than_the_form(tenant, remember):
    policy = Policy()
    assert "user.home_city" not in query_read("where's my hometown", policy).key_weights
    assert "user.occupation" not in query_read("what company do I work for", policy).key_weights
    town = remember("用户来自成都。", memory_key="user.hometown")
    home = remember("用户住在杭州。", memory_key="user.home_city")
    served = _served(tenant, "where's my hometown")
    assert town.pk in served and home.pk not in served


def test_words_for_a_spouse_a_job_a_landlord_and_a_pharmacy(tenant, remember):
    husband = remember("User's husband is Arjun.", memory_key="user.relationship.husband")
    employer = remember("User works at Laynes Espresso.", memory_key="user.employer")
    landlord = remember("用户让记住：房东的微信号是 fangdong88")
    asthma = remember("User has asthma.", memory_key="user.health_conditions")
    assert _served(tenant, "我先生叫什么来着")[:1] == [husband.pk]
    assert _served(tenant, "我在哪打工")[:1] == [employer.pk]
    assert landlord.pk in _served(tenant, "what's my landlord's WeChat")
    assert asthma.pk in _served(tenant, "what do I need to pick up from the pharmacy?")
    assert query_read("王先生什么时候到？", Policy()).topics == ()  # Mr Wang is nobody's husband


def test_a_question_for_ones_allergies_asks_no_other_medical_needs(tenant, remember):
    dust = remember("用户对尘螨过敏。", memory_key="user.allergies")
    migraine = remember("用户患有偏头痛。", memory_key="user.health_conditions")
    pills = remember("User takes sumatriptan when a migraine starts.", memory_key="user.medications")
    served = _served(tenant, "我对什么过敏")
    assert dust.pk in served and migraine.pk not in served and pills.pk not in served
    assert set(query_read("我对什么药过敏？", Policy()).key_weights) == {"user.allergies"}
    # a medical request still needs the conditions and the medicines
    served = _served(tenant, "头疼能吃布洛芬吗")
    assert migraine.pk in served and pills.pk in served
