"""The search's second stage (layers/long_term/selectors/rerank.py): a memory whose subject (provenance
speaker or subject) the query names and the query's concepts a memory holds together lift it; explain
shows both stages, the factors still multiply to the score, min_score cuts the final score, and policy
turns the stage off."""
import pytest

from layers.long_term.selectors import memory_search
from layers.long_term.selectors.rerank import query_names, speaker_of, subjects_of
from permanent.services import change_request_approve, change_request_propose

pytestmark = pytest.mark.django_db


def _transcript(remember):
    # Both speakers say "hiking"; the question is about Caroline's.
    mel = remember("[8 May, 2023] Melanie: we went hiking near the lake, the kids loved it", kind="episode")
    car = remember("[8 May, 2023] Caroline: hiking always clears my head", kind="episode")
    remember("[8 May, 2023] Melanie: Caroline, you should come next time", kind="episode")
    return mel, car


def _product(explain):
    return (explain["relevance"] * explain["recency"] * explain["scene"] * explain["confidence"]
            * explain["feedback_weight"])


def test_speaker_labels():
    assert speaker_of("[1:56 pm on 8 May, 2023] Caroline: hi") == "caroline"
    assert speaker_of("Ana María: hola") == "ana maría"
    assert speaker_of("user: my wife is Anna") is None  # the user is the query's "I", not a named speaker
    assert speaker_of("User's diet: vegetarian.") is None  # a keyed fact's template is not a transcript line
    assert speaker_of("用户让记住：车钥匙在抽屉里") is None


def test_subjects_come_from_provenance_first():
    assert subjects_of({"content": "went hiking at dawn", "attributes": {"speaker": "Caroline"}}) == ["caroline"]
    assert subjects_of({"content": "Ana: hola", "attributes": '{"subject": "Ana"}'}) == ["ana"]
    assert subjects_of({"content": "user: my wife is Anna", "attributes": {"speaker": "user"}}) == []


def test_query_names_are_people_places_and_organisations():
    assert query_names("What did Caroline say about the LGBTQ support group?") == ["caroline", "lgbtq"]
    # a longer name is not its first word: the speaker John is not named by an author John Greene
    assert query_names("Would Tim enjoy reading books by C. S. Lewis or John Greene?") == [
        "tim", "c s lewis", "john greene"]
    assert query_names("When did John's team win in March?") == ["john"]
    assert query_names("what's the weather like on Monday?") == []
    assert query_names("下个月我要去上海见张伟") == ["上海", "张伟"]
    assert query_names("我老公叫什么？") == []  # a role with a zh/en bridge is not a name


def test_a_named_speakers_own_line_comes_first(tenant, remember):
    mel, car = _transcript(remember)
    results = memory_search(tenant=tenant, user_id="u1", query="When did Caroline go hiking?", min_score=0,
                            explain=True)
    assert results[0].memory.pk == car.pk
    stage = results[0].explain["rerank"]
    assert stage["features"]["subject"] == 1.0 and stage["subjects"] == ["caroline"]
    assert results[0].explain["relevance"] == pytest.approx(
        1 - (1 - stage["first_stage_relevance"]) * (1 - stage["boost"]))
    assert stage["relevance"] > stage["first_stage_relevance"]
    for scored in results:
        assert scored.score == pytest.approx(_product(scored.explain), rel=1e-9)
    other = next(scored for scored in results if scored.memory.pk == mel.pk)
    assert other.explain["rerank"]["features"]["subject"] == 0.0


def test_a_subject_from_provenance_and_a_query_without_capitals(tenant, remember):
    # no transcript label: the importer recorded who said it
    said = remember("went hiking at dawn, the lake was frozen", kind="episode", attributes={"speaker": "Caroline"})
    other = remember("hiking boots are on sale", kind="episode")
    for query in ("When did Caroline go hiking?", "when did caroline go hiking"):
        results = memory_search(tenant=tenant, user_id="u1", query=query, min_score=0, explain=True)
        by_id = {scored.memory.pk: scored for scored in results}
        assert results[0].memory.pk == said.pk, query
        assert by_id[said.pk].explain["rerank"]["features"]["subject"] == 1.0
        assert by_id[other.pk].explain["rerank"]["features"]["subject"] == 0.0


def test_a_name_inside_a_longer_name_is_not_the_subject(tenant, remember):
    john = remember("[8 May, 2023] John: I read a lot of fantasy books lately", kind="episode")
    results = memory_search(tenant=tenant, user_id="u1", query="Would Tim enjoy books by John Greene?", min_score=0,
                            explain=True)
    by_id = {scored.memory.pk: scored for scored in results}
    assert by_id[john.pk].explain["rerank"]["features"]["subject"] == 0.0


def test_min_score_cuts_the_final_score(tenant, remember):
    _transcript(remember)
    everything = memory_search(tenant=tenant, user_id="u1", query="When did Caroline go hiking?", min_score=0)
    cutoff = (everything[0].score + everything[-1].score) / 2
    kept = memory_search(tenant=tenant, user_id="u1", query="When did Caroline go hiking?", min_score=cutoff)
    assert kept and all(scored.score >= cutoff for scored in kept)
    assert [s.memory.pk for s in kept] == [s.memory.pk for s in everything if s.score >= cutoff]
    assert len(memory_search(tenant=tenant, user_id="u1", query="When did Caroline go hiking?", min_score=0,
                             top_k=1)) == 1


def test_co_coverage_lifts_a_memory_holding_several_query_concepts(tenant, remember):
    both = remember("user: the peanut sauce at the Thai place made my throat itch", kind="episode")
    remember("user: Thai food is my favourite on Fridays", kind="episode")
    results = memory_search(tenant=tenant, user_id="u1", query="peanut thai", min_score=0, explain=True)
    by_id = {scored.memory.pk: scored for scored in results}
    assert by_id[both.pk].explain["rerank"]["features"]["coverage"] == pytest.approx(1.0)
    assert all(s.explain["rerank"]["features"]["coverage"] == 0.0 for pk, s in by_id.items() if pk != both.pk)


def test_policy_turns_the_second_stage_off(tenant, remember, make_staff):
    _mel, car = _transcript(remember)
    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")
    request = change_request_propose(tenant=tenant, key="policy.long_term.rerank", action="create", value=False,
                                     proposer_user=editor)
    change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)
    results = memory_search(tenant=tenant, user_id="u1", query="When did Caroline go hiking?", min_score=0,
                            explain=True)
    assert results and all(scored.explain["rerank"] is None for scored in results)
    for scored in results:
        assert scored.score == pytest.approx(_product(scored.explain), rel=1e-9)


def test_explain_over_http_shows_both_stages(api, remember):
    _mel, car = _transcript(remember)
    response = api.post_json("/api/v1/memories/search", {"user_id": "u1", "query": "When did Caroline go hiking?",
                                                          "min_score": 0, "explain": True})
    assert response.status_code == 200, response.content
    top = response.json()["results"][0]
    assert top["id"] == car.pk
    stage = top["explain"]["rerank"]
    assert stage["features"]["subject"] == 1.0 and stage["first_stage_relevance"] < top["explain"]["relevance"]


def test_a_memory_naming_the_person_a_role_means(tenant, remember):
    remember("User's wife is Anna.", memory_key="user.relationship.wife")
    chess = remember("user: we've been married eight years now, Anna still beats me at chess", kind="episode")
    other = remember("user: chess club moved to Thursdays", kind="episode")
    results = memory_search(tenant=tenant, user_id="u1", query="what's my wife called again?", min_score=0,
                            explain=True)
    by_id = {scored.memory.pk: scored for scored in results}
    stage = by_id[chess.pk].explain["rerank"]
    assert stage["linked_names"] == ["Anna"] and stage["features"]["person"] == 1.0
    assert stage["relevance"] > stage["first_stage_relevance"]
    assert other.pk not in by_id or by_id[other.pk].explain["rerank"]["features"]["person"] == 0.0
    for scored in results:
        assert scored.score == pytest.approx(_product(scored.explain), rel=1e-9)
    # a query that uses no role word reads no relationship fact
    plain = memory_search(tenant=tenant, user_id="u1", query="chess", min_score=0, explain=True)
    assert all(scored.explain["rerank"]["features"]["person"] == 0.0 for scored in plain)


def test_a_taste_bears_on_the_scene_it_is_about(tenant, remember):
    from layers.long_term.policy import Policy

    movies = remember("User dislikes horror movies.", kind="preference", memory_key="user.dislikes")
    cilantro = remember("User dislikes cilantro.", kind="preference", memory_key="user.dislikes")
    served = {s.memory.pk for s in memory_search(tenant=tenant, user_id="u1", query="any good spots for dinner tonight?")}
    assert cilantro.pk in served and movies.pk not in served
    everything = memory_search(tenant=tenant, user_id="u1", query="any good spots for dinner tonight?", min_score=0,
                               explain=True)
    stage = next(s for s in everything if s.memory.pk == movies.pk).explain
    rerank = stage["rerank"]
    assert (rerank["query_scene"], rerank["memory_scene"]) == ("dining", "entertainment")
    assert rerank["misfit_factor"] == Policy().rerank_taste_misfit_factor
    assert stage["relevance"] == pytest.approx(
        (1 - (1 - rerank["first_stage_relevance"]) * (1 - rerank["boost"])) * rerank["misfit_factor"])
    assert next(s for s in everything if s.memory.pk == movies.pk).score == pytest.approx(_product(stage))
    # the same taste is what a film night is about
    film = memory_search(tenant=tenant, user_id="u1", query="pick a film for movie night", min_score=0, explain=True)
    fit = next(s for s in film if s.memory.pk == movies.pk).explain["rerank"]
    assert fit["features"]["taste_fit"] == 1.0 and fit["misfit_factor"] == 1.0


def test_a_fact_of_another_key_is_a_near_miss_for_a_question_topic(tenant, remember):
    job = remember("User works as a backend developer.", memory_key="user.occupation")
    employer = remember("User works at Zalando.", memory_key="user.employer")
    served = [s.memory.pk for s in memory_search(tenant=tenant, user_id="u1", query="where do I work?")]
    assert served == [employer.pk]
    everything = memory_search(tenant=tenant, user_id="u1", query="where do I work?", min_score=0, explain=True)
    stage = next(s for s in everything if s.memory.pk == job.pk).explain
    assert stage["rerank"]["other_key"] is True and stage["rerank"]["misfit_factor"] < 1
    assert stage["relevance"] == pytest.approx(
        (1 - (1 - stage["rerank"]["first_stage_relevance"]) * (1 - stage["rerank"]["boost"]))
        * stage["rerank"]["misfit_factor"])
    # the topic that asks for the occupation serves it
    living = [s.memory.pk for s in memory_search(tenant=tenant, user_id="u1", query="what do I do for a living?")]
    assert job.pk in living


def test_an_allergy_bears_on_the_scene_of_its_allergen(tenant, remember):
    peanuts = remember("User is allergic to peanuts.", memory_key="user.allergies")
    sulfa = remember("User is allergic to sulfa drugs.", memory_key="user.allergies")
    dinner = {s.memory.pk for s in memory_search(tenant=tenant, user_id="u1", query="dinner ideas")}
    assert peanuts.pk in dinner and sulfa.pk not in dinner
    # a question that asks for allergies by topic gets both
    asked = {s.memory.pk for s in memory_search(tenant=tenant, user_id="u1", query="what am I allergic to?")}
    assert {peanuts.pk, sulfa.pk} <= asked
    stage = next(s for s in memory_search(tenant=tenant, user_id="u1", query="dinner ideas", min_score=0,
                                          explain=True) if s.memory.pk == sulfa.pk).explain["rerank"]
    assert (stage["scene_bound"], stage["memory_scene"], stage["query_scene"]) == ("allergy", "medical", "dining")


def test_a_weather_question_that_names_its_place_needs_no_home_city(tenant, remember):
    home = remember("User lives in Chicago.", memory_key="user.home_city")
    named = memory_search(tenant=tenant, user_id="u1", query="what's the weather like in Chicago this weekend?",
                          min_score=0, explain=True)
    stage = next(s for s in named if s.memory.pk == home.pk).explain["rerank"]
    assert stage["supplied"] is True and stage["misfit_factor"] < 1
    assert home.pk not in {s.memory.pk for s in memory_search(
        tenant=tenant, user_id="u1", query="what's the weather like in Chicago this weekend?")}
    # without a place the home city is what the question needs
    assert home.pk in {s.memory.pk for s in memory_search(tenant=tenant, user_id="u1",
                                                          query="do I need an umbrella tomorrow?")}


def test_chinese_names_are_also_found_by_their_short_forms():
    from layers.long_term.selectors.rerank import name_variants

    assert name_variants("马小燕") == ["马小燕", "小燕"]
    assert name_variants("高丽") == ["高丽", "丽丽", "小丽", "阿丽"]
    assert name_variants("Anna") == ["Anna"]


def test_a_memory_naming_the_person_answers_a_question_about_them_more_than_their_name(tenant, remember):
    from layers.long_term.policy import Policy

    remember("用户的女儿叫高丽。", memory_key="user.relationship.daughter")
    shanghai = remember("user: 丽丽在上海做设计，外孙女今年上幼儿园了", kind="episode")
    remember("user: 上周去公园散步了", kind="episode")

    def stage(query):
        results = memory_search(tenant=tenant, user_id="u1", query=query, min_score=0, explain=True)
        scored = next(s for s in results if s.memory.pk == shanghai.pk)
        assert scored.score == pytest.approx(_product(scored.explain), rel=1e-9)
        return scored.explain["rerank"]

    policy = Policy()

    def expected_boost(stage, person_share):
        features = stage["features"]
        remaining = ((1 - policy.rerank_subject_share * features["subject"]) * (1 - person_share * features["person"])
                     * (1 - policy.rerank_coverage_share * features["coverage"])
                     * (1 - policy.rerank_taste_fit_share * features["taste_fit"]))
        return 1 - remaining

    where = stage("where does my daughter live?")  # the short form 丽丽 names her
    assert where["features"]["person"] == 1.0
    assert where["boost"] == pytest.approx(expected_boost(where, policy.rerank_person_answer_share))
    name = stage("我女儿叫什么名字？")  # the fact answers a name question; the line only names her
    assert name["features"]["person"] == 1.0
    assert name["boost"] == pytest.approx(expected_boost(name, policy.rerank_person_share))
    assert policy.rerank_person_answer_share > policy.rerank_person_share
