"""Round 8 of the relevance work (docs/benchmarks.md, "Retrieval (issue 12)"): a free slot asked by the shape of
the question (a weekday with its time, and whether something can go there) rather than by a cue phrase, and a
word for a group of people (kids, parents, grandchildren) meeting what was said of each kind of member
(memoryhub/providers/keywords.py `MEMBER_WORDS`), one way only."""
import pytest

from layers.long_term.policy import Policy
from layers.long_term.selectors import memory_search
from layers.long_term.selectors.scenes import query_read
from memoryhub.providers.keywords import query_concepts

pytestmark = pytest.mark.django_db


def _served(tenant, query):
    return [s.memory.pk for s in memory_search(tenant=tenant, user_id="u1", query=query)]


def test_a_slot_asked_by_its_shape_reads_as_a_slot_question():
    policy = Policy()
    for query in ("can I take a 9am meeting on Tuesday", "is Sunday 8:30 brunch with the team ok?",
                  "下周一上午约供应商来店里谈，行不行"):
        assert "slot" in query_read(query, policy).topics, query
    # a weekday and a time of day said apart, of what the tablet is, ask no slot; nor does a question for an hour
    for query in ("can I take my Monday tablet with my morning tea", "what do I do on Tuesday mornings?"):
        assert "slot" not in query_read(query, policy).topics, query


def test_a_slot_by_shape_finds_what_fills_the_day_and_not_the_meals_needs(tenant, remember):
    playgroup = remember("user: Ethan starts playgroup next month, every Tuesday and Thursday morning, I do the "
                         "drop-off", kind="episode")
    gluten = remember("User avoids gluten.", kind="preference", memory_key="user.diet")
    assert playgroup.pk in _served(tenant, "can I take a 9am meeting on Tuesday")
    assert playgroup.pk not in _served(tenant, "can I take a 9am meeting on Monday")
    # whether the brunch fits the Sunday is asked, not what to eat at it
    assert gluten.pk not in _served(tenant, "is Sunday 8:30 brunch with the team ok?")
    assert gluten.pk in _served(tenant, "where should we go for brunch with the team?")


def test_a_group_word_bridges_to_its_members_one_way():
    kids = query_concepts("how are the kids doing")[0]
    assert {"son", "daughter", "儿子", "女儿"} <= set(kids)
    assert {"mother", "dad", "妈妈"} <= set(query_concepts("my parents")[0])
    assert "kid" not in query_concepts("what does my son like")[0]
    assert "daughter" not in query_concepts("what does my son like")[0]
    # jieba keeps 我妈 whole; it still means the mother
    assert "妈妈" in query_concepts("我妈今年多大")[0]


def test_a_group_word_finds_what_was_said_of_a_member(tenant, remember):
    son = remember("user: my son Leo is off sick again, third time this term", kind="episode")
    remember("user: the new printer at work keeps jamming", kind="episode")
    assert _served(tenant, "how are the kids doing?") == [son.pk]


def test_a_ticket_with_a_parent_in_it_goes_to_the_hometown(tenant, remember):
    hometown = remember("User is from Belfast.", memory_key="user.hometown")
    remember("User lives in Manchester.", memory_key="user.home_city")
    assert hometown.pk in _served(tenant, "book flights for mum's birthday trip")
    assert hometown.pk in _served(tenant, "flights to see mom for her 70th")
    # the parents coming to the user need a hotel where the user lives, not a ticket home
    assert hometown.pk not in _served(tenant, "book a hotel for my dad, he's coming next week")


def test_an_appointment_reads_as_what_is_arranged_unless_its_time_is_asked():
    policy = Policy()
    assert query_read("what should I tell the dentist before my appointment", policy).scene == "medical"
    # the date of the trip is asked: the arranging scene's reading stays
    assert query_read("when's the New Zealand trip?", policy).scene == "scheduling"


def test_eating_a_medicine_is_no_meal():
    policy = Policy()
    assert query_read("脚趾头又肿起来了，能吃点啥药", policy).scene == "medical"
    assert query_read("喝中药期间要注意什么", policy).scene == "medical"
    assert query_read("晚上请几个老同事吃饭，点啥菜好", policy).scene == "dining"


def test_a_holiday_ticket_goes_home_unless_it_names_where(tenant, remember):
    hometown = remember("用户的老家是安徽芜湖。", memory_key="user.hometown")
    remember("用户住在杭州。", memory_key="user.home_city")
    assert hometown.pk in _served(tenant, "五一的高铁票帮我看看")
    assert hometown.pk in _served(tenant, "look up flights for the Diwali trip")
    # a holiday trip that names its destination or the person it goes to see goes there
    assert hometown.pk not in _served(tenant, "五一去西安，帮我看看高铁票")
    assert hometown.pk not in _served(tenant, "find me flights to go see my son for thanksgiving")


def test_where_one_lives_now_finds_a_move_under_way(tenant, remember):
    move = remember("User plans: moving to Seattle in the fall.", kind="event", memory_key="user.plan")
    trip = remember("User plans: trip to Tokyo in April.", kind="event", memory_key="user.plan")
    served = _served(tenant, "where do I live now?")
    assert move.pk in served and trip.pk not in served
    explained = memory_search(tenant=tenant, user_id="u1", query="where do I live now?", explain=True)
    found = next(s for s in explained if s.memory.pk == move.pk)
    stage = found.explain
    assert stage["rerank"]["other_key"] is False
    assert found.score == pytest.approx(stage["relevance"] * stage["recency"] * stage["scene"]
                                        * stage["confidence"] * stage["feedback_weight"])


def test_an_allergy_the_request_touches_is_found_whatever_the_scene(tenant, remember):
    pollen = remember("用户对花粉过敏。", memory_key="user.allergies")
    fur = remember("用户对猫毛过敏。", memory_key="user.allergies")
    remember("用户喜欢喝茶。", kind="preference", memory_key="user.likes")
    flowers = _served(tenant, "想买束花犒劳一下自己，买什么好")
    assert pollen.pk in flowers and fur.pk not in flowers
    assert fur.pk in _served(tenant, "同学家养了猫，我能去她家玩吗？")
    explained = memory_search(tenant=tenant, user_id="u1", query="想买束花犒劳一下自己，买什么好", explain=True)
    stage = next(s for s in explained if s.memory.pk == pollen.pk).explain["rerank"]
    assert stage["features"]["allergen"] == 1.0
    assert stage["relevance"] == pytest.approx((1 - (1 - stage["first_stage_relevance"]) * (1 - stage["boost"]))
                                               * stage["misfit_factor"])


def test_near_the_user_and_a_way_to_travel_read_by_their_shape(tenant, remember):
    home = remember("用户住在上海。", memory_key="user.home_city")
    assert home.pk in _served(tenant, "帮我订去北京的高铁，面试那天早上到就行")
    assert home.pk in _served(tenant, "anniversary dinner with the wife, somewhere good near us?")
    # a hotel elsewhere needs no departure, and a dinner cooked at home no city
    assert home.pk not in _served(tenant, "帮我订香港的酒店")
    assert "local" not in query_read("dinner ideas for tonight, cooking at home", Policy()).topics
    # a meal one treats people to is eaten out; 请 as "please" treats no one
    assert home.pk in _served(tenant, "晚上请几个老同事吃饭，点啥菜好")
    assert "local" in query_read("I want to take my parents out for dinner on Friday", Policy()).topics
    assert "local" not in query_read("请帮我推荐几道家常菜", Policy()).topics


def test_a_ticket_to_see_someone_finds_where_their_own_line_puts_them(tenant, remember):
    remember("User's daughter is Fiona.", memory_key="user.relationship.daughter")
    moved = remember("user: Fiona moved up to Aberdeen with her work, I do miss having her round the corner",
                     kind="episode")
    chat = remember("user: Fiona rang last night, we talked for an hour about nothing", kind="episode")
    served = _served(tenant, "train times to go and visit my daughter")
    assert moved.pk in served and chat.pk not in served
    explained = memory_search(tenant=tenant, user_id="u1", query="train times to go and visit my daughter",
                              min_score=0, explain=True)
    stages = {s.memory.pk: s.explain["rerank"] for s in explained}
    assert stages[moved.pk]["features"]["destination"] == 1.0
    assert stages[chat.pk]["features"]["destination"] == 0.0


def test_someone_to_mind_the_pets_finds_the_trips_that_say_when(tenant, remember):
    trip = remember("User plans: a week in Lisbon with Dev, leaving October 2.", kind="event", memory_key="user.plan")
    dog = remember("User's dog is Pickle.", memory_key="user.pet.dog")
    served = _served(tenant, "find someone to look after the animals while we're away")
    assert {trip.pk, dog.pk} <= set(served)
    # a question about the pet alone asks no trip
    assert trip.pk not in _served(tenant, "what breed is my dog?")


def test_a_relationship_fact_is_no_answer_when_the_query_already_uses_the_name(tenant, remember):
    son = remember("User's son is Leo.", memory_key="user.relationship.son")
    practice = remember("user: Leo's soccer practice moved to Wednesdays at 5", kind="episode")
    served = _served(tenant, "when is Leo's soccer practice?")
    assert practice.pk in served and son.pk not in served
    # who that is, or the role asked, still wants the fact
    assert son.pk in _served(tenant, "who is Leo?")
    assert son.pk in _served(tenant, "what's my son's name?")
    explained = memory_search(tenant=tenant, user_id="u1", query="when is Leo's soccer practice?", min_score=0,
                              explain=True)
    stage = next(s for s in explained if s.memory.pk == son.pk).explain["rerank"]
    assert stage["name_given"] is True
    assert stage["relevance"] == pytest.approx((1 - (1 - stage["first_stage_relevance"]) * (1 - stage["boost"]))
                                               * stage["misfit_factor"])


def test_how_the_user_is_reached_is_the_contact_question_not_a_medical_one(tenant, remember):
    contact = remember("User prefers to be contacted by text message, not calls.", kind="preference",
                       memory_key="user.contact_preference")
    asthma = remember("User has asthma.", memory_key="user.health_conditions")
    for query in ("how should the surgery get in touch with me", "牙医诊所怎么联系我比较好"):
        reading = query_read(query, Policy())
        assert reading.scene == "medical" and "contact" in reading.topics, query
        assert "user.health_conditions" not in reading.key_weights, query
        served = _served(tenant, query)
        assert contact.pk in served and asthma.pk not in served, query
    # a medical question about the user still reads the scene's needs, "how" or not
    assert "user.health_conditions" in query_read("how bad is my pollen allergy", Policy()).key_weights
    assert asthma.pk in _served(tenant, "how do I cope with a cough at night")


def test_a_short_person_cue_counts_only_as_its_whole_word(tenant, remember):
    son = remember("User's son is Kai.", memory_key="user.relationship.son")
    policy = Policy()
    # "son" begins "song" and "Songkran", "kid" begins "kidney", "mum" begins "Mumbai": none is the person
    for query in ("play me a song for the drive", "what's on for Songkran this year?", "are kidney beans ok raw?",
                  "how hot is Mumbai in May?"):
        assert not {"son", "children", "parents"} & set(query_read(query, policy).topics), query
    assert son.pk not in _served(tenant, "play me a song for the drive")
    # the word itself, its plural and possessive still read the person
    for query, topic in (("what's my son's name?", "son"), ("the kids want pizza", "children"),
                         ("is my mum free on Sunday?", "parents")):
        assert topic in query_read(query, policy).topics, query
    assert son.pk in _served(tenant, "what's my son's name?")
    # the list is policy: emptied, the cue matches from a word's start again
    assert "son" in query_read("play me a song", Policy(whole_word_cues=[])).topics


def test_a_role_said_without_its_word_reads_the_relationship(tenant, remember):
    husband = remember("用户的老公叫周浩。", memory_key="user.relationship.husband")
    partner = remember("User's partner is Tomasz.", memory_key="user.relationship.partner")
    boss = remember("User's boss is Sun Min.", memory_key="user.relationship.boss")
    policy = Policy()
    assert "spouse" in query_read("我家那位叫啥来着？", policy).topics
    assert husband.pk in _served(tenant, "我家那位叫啥来着？")
    # the in-laws are the parents of a partner as well as of a spouse
    assert "partner" in query_read("when do the in-laws arrive?", policy).topics
    assert partner.pk in _served(tenant, "when do the in-laws arrive?")
    for query in ("remind me who I report to", "我的直属上级是谁"):
        assert "boss" in query_read(query, policy).topics, query
        assert boss.pk in _served(tenant, query), query
    assert boss.pk not in _served(tenant, "write a report on the quarter's sales")


def test_a_remedy_offered_reads_medical_and_a_carrier_preferred_matters_to_a_flight(tenant, remember):
    metformin = remember("User takes metformin.", memory_key="user.medications")
    airline = remember("User prefers Air France.", kind="preference", memory_key="user.likes")
    training = remember("User asked to remember: lab safety training renewal is due April 1.")
    policy = Policy()
    for query in ("urgent care wants to put me on amoxicillin for a sinus infection, is that ok?",
                  "is it safe to take a magnesium supplement?", "医生说要给我用抗生素，有啥要注意的"):
        assert query_read(query, policy).scene == "medical", query
    assert metformin.pk in _served(tenant, "urgent care wants to put me on amoxicillin for a sinus infection, "
                                           "is that ok?")
    assert airline.pk in _served(tenant, "book me flights to Montreal for the wedding")
    # a carrier is a flight's need, not a meal's; a training is no train
    assert airline.pk not in _served(tenant, "find me a brunch place for Sunday")
    assert training.pk not in _served(tenant, "find me a bus to go see my girlfriend")


def test_something_to_listen_to_finds_the_podcasts_and_crosstalk_liked(tenant, remember):
    podcasts = remember("User likes true crime podcasts.", kind="preference", memory_key="user.likes")
    crosstalk = remember("用户喜欢听相声。", kind="preference", memory_key="user.likes")
    sushi = remember("User likes sushi.", kind="preference", memory_key="user.likes")
    for query in ("推荐点通勤路上听的东西", "周末想放松一下，推荐点能听的", "any audiobook ideas for the drive?"):
        assert query_read(query, Policy()).scene == "entertainment", query
        served = _served(tenant, query)
        assert podcasts.pk in served and crosstalk.pk in served and sushi.pk not in served, query


def test_the_evening_meal_by_its_other_names_and_a_train_by_its_number(tenant, remember):
    gout = remember("User has gout.", memory_key="user.health_conditions")
    city = remember("用户住在成都。", memory_key="user.home_city")
    policy = Policy()
    for query in ("what could I make for tea tonight that won't set my gout off?", "date night ideas for Friday?"):
        assert query_read(query, policy).scene == "dining", query
    assert gout.pk in _served(tenant, "what could I make for tea tonight?")
    # tea as a drink is still no evening meal's word on its own
    assert query_read("is green tea good for me?", policy).scene != "dining"
    reading = query_read("周五帮我看看去重庆的车次", policy)
    assert reading.scene == "travel" and "departure" in reading.topics
    assert city.pk in _served(tenant, "周五帮我看看去重庆的车次")
