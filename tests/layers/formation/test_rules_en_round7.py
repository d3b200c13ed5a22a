"""English rules, round 7 (issue 11): mechanisms for phrasings the blind batch facts_dev_en15.yaml showed unread,
each tested on sentences of its own, with the near misses it must leave alone."""
from __future__ import annotations

import pytest

from layers.formation.extractor import extract_memories


def _items(text: str) -> list:
    result = extract_memories([{"seq": 1, "role": "user", "content": text}], user_id="u1")
    return [i for i in result.items if i.memory_key and not i.quarantine]


def _facts(text: str) -> set[tuple[str, str]]:
    return {(i.memory_key, i.value) for i in _items(text)}


def _attrs(text: str, key: str) -> dict:
    found = [i.attributes for i in _items(text) if i.memory_key == key]
    assert len(found) == 1, (text, key, _facts(text))
    return {k: v for k, v in found[0].items() if k != "lang"}


# ---- places: the office beside the home, a stay measured back from now, a home placed by its city ---------------

@pytest.mark.parametrize("text, home, work", [
    ("I rent in Slough but the office is in London, so it's trains every day", "Slough", "London"),
    ("commuting into Manchester three days a week, from Bolton, not fun", "Bolton", "Manchester"),
    ("I commute to Oxford, three days a week, from Swindon", "Swindon", "Oxford"),
])
def test_the_office_beside_the_home(text, home, work):
    facts = _facts(text)
    assert ("user.home_city", home) in facts and ("user.work_city", work) in facts
    assert not any(key == "user.hometown" for key, _ in facts)


@pytest.mark.parametrize("text, home", [
    ("been in Manchester nearly two years now and I still get lost", "Manchester"),
    ("I've been in Halifax for a couple of months and love it", "Halifax"),
    ("presently staying in Hyderabad for work purposes", "Hyderabad"),
    ("we're out on the outskirts of Leeds, it's quiet", "Leeds"),
    ("we live just outside Bristol, near the airport", "Bristol"),
])
def test_a_home_said_by_how_long_or_beside_a_city(text, home):
    assert ("user.home_city", home) in _facts(text)


@pytest.mark.parametrize("text", [
    "her office is in Leeds so she drives a lot",
    "my sister has been in Berlin for a few years",
    "I'm staying in Paris for the weekend",
])
def test_someone_elses_office_or_a_short_stay_is_no_home_or_workplace(text):
    facts = _facts(text)
    assert not any(key in ("user.home_city", "user.work_city") for key, _ in facts), facts


def test_a_hometown_placed_by_the_city_beside_it():
    assert ("user.hometown", "Lyon") in _facts("I'm from a small village near Lyon, you won't know it")


# ---- languages: each level is its own language's ---------------------------------------------------------------

@pytest.mark.parametrize("text, levels", [
    ("Fluent in Portuguese after years in Recife, and Dutch is my mother tongue", {"Portuguese": "fluent", "Dutch": "native"}),
    ("I speak French fluently and a bit of German", {"French": "fluent", "German": "basic"}),
    ("Polish is my first language but I'm fluent in English and learning Italian", {"Polish": "native", "English": "fluent", "Italian": "learning"}),
    ("my Japanese's rusty these days", {"Japanese": "basic"}),
    ("day 12 of Duolingo Korean", {"Korean": "learning"}),
])
def test_a_level_binds_to_its_own_language(text, levels):
    said = {i.value: i.attributes.get("level") for i in _items(text) if i.memory_key == "user.languages"}
    assert said == levels


def test_a_language_learnt_on_an_app_by_someone_else_is_not_the_users():
    assert not any(key == "user.languages" for key, _ in _facts("my girlfriend does Duolingo French every night"))


# ---- education: status from tense, the field beside the degree -------------------------------------------------

@pytest.mark.parametrize("text, school, want", [
    ("junior at Penn State majoring in accounting, graduating next spring", "Penn State", {"field": "accounting", "status": "studying"}),
    ("graduated from Leeds in July, geography BA, currently job hunting", "Leeds", {"field": "geography", "status": "graduated"}),
    ("doing a part-time degree in social work at Sussex", "Sussex", {"field": "social work", "status": "studying"}),
    ("second year of a history of art PhD at Warwick", "Warwick", {"degree": "PhD", "status": "studying"}),
])
def test_education_status_and_field(text, school, want):
    got = _attrs(text, "user.education")
    assert {k: got.get(k) for k in want} == want, got
    assert any(i.value == school for i in _items(text) if i.memory_key == "user.education")


def test_a_school_word_of_the_name_is_not_the_field():
    got = _attrs("studying at the Open University, a degree in law", "user.education")
    assert got.get("field") == "law"


@pytest.mark.parametrize("text", ["went to the GP this morning about my knee", "went to the ER last night, all fine now"])
def test_a_place_one_goes_to_is_no_school(text):
    assert not any(key == "user.education" for key, _ in _facts(text))


def test_the_user_speaking_is_never_a_school():
    assert not any(value.startswith("I'") for key, value in _facts("I'm a sophomore at Rutgers and I'll graduate in 2027 with a degree in economics"))


# ---- values cut where their clause ends ------------------------------------------------------------------------

@pytest.mark.parametrize("text, key, value, junk", [
    ("is there crab in this? I'm allergic to shellfish and the print's too small", "user.allergies", "shellfish", "print"),
    ("I can't eat gluten and the bakery says it's all wheat", "user.food_restrictions", "gluten", "bakery"),
])
def test_a_list_ends_where_a_clause_starts(text, key, value, junk):
    values = [v for k, v in _facts(text) if k == key]
    assert value in values and not any(junk in v for v in values), values


def test_a_word_is_no_pet_inside_a_longer_word():
    assert not any(key.startswith("user.pet") for key, _ in _facts("the label on the jar is tiny"))
    assert not any(key.startswith("user.pet") for key, _ in _facts("allergic to cats, so the cat cafe is a no"))
    assert ("user.pet.dog", "") in _facts("I have a lab and she sheds everywhere")


def test_a_class_one_teaches_on_a_schedule_is_a_habit_not_a_job():
    facts = _facts("Mondays and Wednesdays I teach a yoga class at 7 so evenings are out")
    assert ("user.habits", "teach a yoga class") in facts
    assert not any(key in ("user.occupation", "user.food_restrictions") for key, _ in facts), facts
    assert ("user.occupation", "maths teacher") in _facts("I teach maths at a secondary school")


def test_a_day_named_for_its_activity():
    assert _attrs("sunday mornings are pancakes and cartoons, always", "user.habits") == {"time": "mornings", "weekdays": ["sun"]}
    assert ("user.habits", "pancakes and cartoons") in _facts("sunday mornings are pancakes and cartoons, always")
    assert ("user.habits", "climbing") in _facts("Saturdays are climbing days for me")


def test_a_drug_ending_is_no_drug_in_an_everyday_word():
    assert not any(key == "user.medications" for key, _ in _facts("I'm learning Italian on the side"))


# ---- attributes said beside the person, pet or drug ------------------------------------------------------------

@pytest.mark.parametrize("text, key, want", [
    ("my nephew's party is Saturday and I'm stuck, my big brother Sol is coming, he's really into vinyl", "user.relationship.older_brother", {"likes": "vinyl"}),
    ("my wife Ines and I hit 8 years on the 2nd, she adores peonies", "user.relationship.wife", {"likes": "peonies"}),
    ("Pesto (my dog, 9, a total couch potato) won't get off the sofa", "user.pet.dog", {"age": 9}),
    ("our twins Kit and Bea (5) start school soon", "user.relationship.child", {"age": 5}),
])
def test_an_attribute_said_beside_its_owner(text, key, want):
    got = [{k: v for k, v in i.attributes.items() if k in want} for i in _items(text) if i.memory_key == key]
    assert got and all(g == want for g in got), (got, _facts(text))


def test_a_couple_counting_years_to_a_date():
    assert _attrs("Ravi and I hit 3 years on the 9th of May", "user.anniversary") == {}
    assert ("user.anniversary", "the 9th of May") in _facts("Ravi and I hit 3 years on the 9th of May")
    assert not any(key == "user.anniversary" for key, _ in _facts("my parents hit 40 years on Sunday"))
    assert not any(key in ("user.anniversary", "user.age") for key, _ in _facts("I hit 5 years at Google next month"))


@pytest.mark.parametrize("text, drug, want", [
    ("I'm on lisinopril 10 once daily", "lisinopril", {"dose": "10", "schedule": "once daily"}),
    ("they upped my propranolol to 40mg last week", "propranolol", {"dose": "40mg"}),
    ("two sprays of fluticasone as needed, mostly in spring", "fluticasone", {"dose": "two sprays", "schedule": "as needed"}),
])
def test_a_drug_with_its_dose_and_schedule(text, drug, want):
    got = [i.attributes for i in _items(text) if i.memory_key == "user.medications" and i.value == drug]
    assert got and {k: got[0].get(k) for k in want} == want, _facts(text)


def test_a_drug_said_by_how_it_works_is_the_users_but_a_machine_is_no_drug():
    assert ("user.medications", "antihistamines") in _facts("allergy season and the antihistamines aren't doing anything")
    assert not any(key == "user.medications" for key, _ in _facts("the machine isn't working again"))


# ---- employment said indirectly --------------------------------------------------------------------------------

@pytest.mark.parametrize("text, want", [
    ("three interviews later, Arup want me!! contract arrives Monday", {("user.employer", "Arup")}),
    ("after six years at Barclays I finally jumped ship to Starling", {("user.former_employer", "Barclays"), ("user.employer", "Starling")}),
    ("turned in my laptop at Ocado yesterday, weird feeling", {("user.former_employer", "Ocado")}),
    ("commuting into the City every day for Aviva, it's a slog", {("user.employer", "Aviva")}),
])
def test_employment_said_indirectly(text, want):
    assert want <= _facts(text), _facts(text)


@pytest.mark.parametrize("text, role", [
    ("as a paramedic I see this all the time", "paramedic"),
    ("Plumber, from Derry originally, now in Belfast", "Plumber"),
    ("quick context: night-shift A&E nurse at the Royal, so I'm up at odd hours", "night-shift A&E nurse"),
])
def test_a_role_said_as_who_one_is(text, role):
    assert ("user.occupation", role) in _facts(text), _facts(text)


@pytest.mark.parametrize("text", [
    "Sarah wants me to call her back about the interview",
    "As a nurse, my mum works crazy hours",
    "Doctor, can you help me read this letter",
])
def test_someone_elses_wish_or_role_is_no_job_of_the_users(text):
    assert not any(key in ("user.employer", "user.occupation", "user.name") for key, _ in _facts(text)), _facts(text)


# ---- fragments people introduce themselves and their routines in -----------------------------------------------

@pytest.mark.parametrize("text, key, value, want", [
    ("Tues and Thurs climbing at the wall after work, it keeps me sane", "user.habits", "climbing at the wall", {"weekdays": ["tue", "thu"], "time": "after work"}),
    ("every saturday without fail I'm out for a bike ride around 8", "user.habits", "bike ride", {"weekdays": ["sat"]}),
    ("34, based in Glasgow, first time here", "user.age", "34", {}),
    ("4th of July, cancer obviously", "user.birthday", "4th of July", {}),
    ("my comfort food is my nan's mac and cheese", "user.likes", "mac and cheese", {}),
    ("the rabbit is called Clover and the tortoise is Dennis", "user.pet.turtle", "Dennis", {}),
    ("wedding anniversary with Priya is saturday, no plans yet", "user.anniversary", "saturday", {"type": "wedding"}),
])
def test_a_fragment_still_says_the_fact(text, key, value, want):
    got = [i.attributes for i in _items(text) if i.memory_key == key and i.value == value]
    assert got, _facts(text)
    assert {k: got[0].get(k) for k in want} == want


@pytest.mark.parametrize("text", ["ok I'm here, mostly awake", "12th of March, can you remind me to call the bank", "the dog is Sick again"])
def test_fragments_that_say_nothing_of_the_user(text):
    assert not any(key in ("user.name", "user.birthday") or (key.startswith("user.pet") and value) for key, value in _facts(text)), _facts(text)


def test_a_language_one_was_raised_in_is_native():
    assert _attrs("ok so I grew up speaking Gujarati at home", "user.languages") == {"level": "native"}
    assert not any(key == "user.languages" for key, _ in _facts("my wife grew up speaking Welsh"))


# ---- a restriction given inside a request (text.drop_request_part) ------------------------------------------------

@pytest.mark.parametrize("text, want", [
    ("can u give me a bean chilli recipe, no onion or garlic pls they wreck my stomach",
     {("user.food_restrictions", "onion"), ("user.food_restrictions", "garlic")}),
    ("recommend a cheesecake without dairy — I can't digest it", {("user.food_restrictions", "dairy")}),
    ("find me a ramen place, I don't eat pork", {("user.food_restrictions", "pork")}),
    ("suggest a trail mix without cashews, I'm allergic", {("user.allergies", "cashews")}),
])
def test_a_restriction_of_the_users_own_body_or_diet_inside_a_request(text, want):
    assert _facts(text) == want


@pytest.mark.parametrize("text", [
    "give me a burger recipe, no pickles on this one pls",
    "suggest a pizza without anchovies, my kids hate them",
    "recommend a curry without coconut, not in the mood for it",
    "make me a packing list, no rush",
])
def test_a_one_off_taste_or_someone_elses_inside_a_request_is_no_restriction(text):
    assert _facts(text) == set()


# ---- an employer typed in lower case after a verb of shift work (rules_en/employment.py) ---------------------------

@pytest.mark.parametrize("text, employer", [
    ("still packing parcels for amazon, my back hates me", "Amazon"),
    ("driving for uber these days", "Uber"),
    ("I deliver for deliveroo part time", "Deliveroo"),
    ("doing night shifts at asda most weeks", "Asda"),
])
def test_a_lower_case_employer_after_a_verb_of_shift_work(text, employer):
    assert ("user.employer", employer) in _facts(text)


@pytest.mark.parametrize("text", [
    "driving for hours on the motorway again",
    "packing for the trip tonight",
    "packing boxes for the move, send help",
    "my brother drives for lyft now",
])
def test_a_common_word_or_someone_elses_shift_work_is_no_employer(text):
    assert not any(key == "user.employer" for key, _ in _facts(text))


# ---- a plan said as an event with its month or date (rules_en/plans.py) --------------------------------------------

@pytest.mark.parametrize("text, value, date", [
    ("we're doing Tough Mudder in June", "Tough Mudder", "June"),
    ("my grade 3 violin exam is on the 4th", "grade 3 violin exam", "the 4th"),
    ("thesis handed in, viva is in march", "viva", "march"),
    ("taking night classes in Italian, the B1 exam is in may", "B1 exam", "may"),
])
def test_an_event_said_with_its_date_is_a_plan(text, value, date):
    plans = [i for i in _items(text) if i.memory_key == "user.plan"]
    assert len(plans) == 1 and value.casefold() in plans[0].value.casefold(), (text, _facts(text))
    assert plans[0].attributes["date"].casefold() == date.casefold()


@pytest.mark.parametrize("text", [
    "my driving test went fine on tuesday",
    "our 4th wedding anniversary is on the 2nd of June",
    "my niece is doing Tough Mudder in June",
    "started at Stripe on monday as an analyst",
])
def test_an_event_reported_as_done_an_anniversary_or_someone_elses_is_no_plan(text):
    assert not any(key == "user.plan" for key, _ in _facts(text))


# ---- a food ruled out by the user's diet or condition said before "so no …" (rules_en/diet.py) ---------------------

@pytest.mark.parametrize("text, foods", [
    ("doing paleo so no bread or pasta", {"bread", "pasta"}),
    ("I'm diabetic so no sugar for me", {"sugar"}),
    ("my gout flared up again so no more red wine for me", {"red wine"}),
])
def test_a_food_ruled_out_by_the_users_diet_or_condition(text, foods):
    assert {v for k, v in _facts(text) if k == "user.food_restrictions"} == foods


@pytest.mark.parametrize("text", [
    "I'm vegan so no dairy or honey please",
    "I've got a bad back so no heavy lifting",
    "it's raining so no picnic today",
    "my flatmate is diabetic so no sweets in the house",
])
def test_a_food_the_diet_already_names_or_no_food_or_someone_elses_is_no_restriction(text):
    assert not any(k == "user.food_restrictions" for k, _ in _facts(text))


def test_an_act_ruled_out_by_a_diet_is_no_food():
    assert not any(k == "user.food_restrictions" for k, _ in _facts("I keep halal, so no mixing meat and alcohol"))


@pytest.mark.parametrize("text, destination", [
    ("running the boston marathon in april", "boston"),
    ("doing the Berlin marathon in September", "Berlin"),
    ("running the first marathon of my life in may", None),
    ("doing the charity 10k next month", None),
])
def test_a_race_named_by_its_town_in_any_case(text, destination):
    assert _attrs(text, "user.plan").get("destination") == destination


@pytest.mark.parametrize("text, condition", [
    ("gout flared up again last night", "gout"),
    ("eczema playing up today, any creams that help", "eczema"),
    ("asthma acting up with all this pollen", "asthma"),
])
def test_a_condition_opening_the_clause_as_it_flares_is_the_users(text, condition):
    assert ("user.health_conditions", condition) in _facts(text)


def test_someone_elses_condition_flaring_is_not_the_users():
    assert not any(k == "user.health_conditions" for k, _ in _facts("my dad's gout flared up again"))


@pytest.mark.parametrize("text, food", [
    ("for the barbecue, note that beef is off the table for me", "beef"),
    ("fyi gluten makes me ill", "gluten"),
])
def test_the_words_that_hand_a_restriction_over_are_not_the_food(text, food):
    assert {v for k, v in _facts(text) if k == "user.food_restrictions"} == {food}


@pytest.mark.parametrize("text", [
    "Portuguese is my first language but I work in English all day, so either is fine for replies",
    "I work in French at the embassy",
])
def test_a_language_one_works_in_is_no_work_city(text):
    assert not [value for key, value in _facts(text) if key in ("user.work_city", "user.home_city")]


def test_a_city_one_works_in_still_is():
    assert ("user.work_city", "London") in _facts("I work in London but live in Kent")


# ---- round 8 (en3): the way a move went, the present after "but", a home in lower case, what follows a name's "'s" ---

@pytest.mark.parametrize("text, home", [
    ("we moved down to Brighton in the spring", "Brighton"),
    ("I've moved back up to Inverness to be near my folks", "Inverness"),
    ("I used to live in Denver but we relocated to Austin", "Austin"),
])
def test_a_move_said_with_the_way_it_went_or_after_a_but_is_the_home(text, home):
    assert {v for k, v in _facts(text) if k == "user.home_city"} == {home}


@pytest.mark.parametrize("text", [
    "my parents moved down to Malaga when they retired",
    "I used to live in Oslo but honestly it was too cold",
])
def test_someone_elses_move_or_a_past_that_stays_past_is_no_home(text):
    assert not [v for k, v in _facts(text) if k == "user.home_city"]


def test_a_home_in_lower_case_after_now_in_ends_at_a_dash():
    facts = _facts("born in cork, now in leeds — is the peak district doable by train?")
    assert {("user.hometown", "cork"), ("user.home_city", "leeds")} <= facts


def test_the_language_one_grew_up_speaking_sits_before_the_hometown():
    assert ("user.hometown", "Manila") in _facts("grew up speaking Tagalog in Manila, so I'd love recipes from home")
    assert not [v for k, v in _facts("my wife grew up speaking Polish in Gdansk") if k == "user.hometown"]


@pytest.mark.parametrize("text, key, attrs", [
    ("my brother Idris's a paramedic so he works crazy shifts", "user.relationship.brother", {"occupation": "paramedic"}),
    ("my husband Tomas's 41 on friday, gift ideas?", "user.relationship.husband", {"age": 41}),
])
def test_what_follows_the_verb_s_after_a_relatives_name_is_said_of_them(text, key, attrs):
    assert attrs.items() <= _attrs(text, key).items()


def test_someone_a_relative_has_is_not_their_job():
    assert "occupation" not in _attrs("my sister Jo's dentist is a nightmare to book", "user.relationship.sister")


@pytest.mark.parametrize("text, role", [
    ("got the contract signed, my role is senior product analyst from june", "senior product analyst"),
    ("new job starts monday, title is research engineer, any tips for week one?", "research engineer"),
    ("I'm an SRE so on-call weeks wreck my sleep", "SRE"),
])
def test_a_job_named_by_the_word_for_it_or_as_an_acronym_is_the_occupation(text, role):
    assert ("user.occupation", role) in _facts(text)


@pytest.mark.parametrize("text", [
    "my role is to keep everyone calm during the move",
    "her role is head of design at a bank",
    "I am the CEO of procrastination lol, anyway what were we doing",
])
def test_a_duty_someone_elses_role_or_a_joke_title_is_no_occupation(text):
    assert not [v for k, v in _facts(text) if k == "user.occupation"]


@pytest.mark.parametrize("text, condition", [
    ("migraines are killing me this month, is it the screen time?", "migraines"),
    ("sciatica is wrecking me after the long drive", "sciatica"),
])
def test_a_condition_opening_the_clause_as_it_hurts_is_the_users(text, condition):
    assert ("user.health_conditions", condition) in _facts(text)


def test_someone_elses_condition_hurting_is_not_the_users():
    assert not [v for k, v in _facts("my son's asthma is really bad this week") if k == "user.health_conditions"]


def test_a_self_introduction_after_a_lead_in_ending_in_a_colon_names_the_user():
    assert ("user.name", "Dara") in _facts("quick one: I'm Dara and I've just started running, how far should week one be?")
    assert not [v for k, v in _facts("update: I'm Tired, and the baby is still not sleeping") if k == "user.name"]
