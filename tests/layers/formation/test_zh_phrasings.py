"""Ordinary Chinese ways to say where one studied and works, beyond the sentence shapes the corpus began with
(layers/formation/extractor/rules_zh/education.py, employment.py)."""
from __future__ import annotations

import pytest

from layers.formation.extractor import TranscriptTurn, extract_memories


def _facts(text: str) -> set[tuple]:
    result = extract_memories([TranscriptTurn(1, "user", text)], user_id="u1")
    return {(i.memory_key, i.value) for i in result.items if i.memory_key}


@pytest.mark.parametrize(("text", "school"), [
    ("我北航毕业的，学飞行器设计", "北航"),
    ("我是浙大2018届的", "浙大"),
    ("大学读的是同济，建筑系", "同济"),
    ("我高中在人大附中", "人大附中"),
    ("目前在读博，在中科院", "中科院"),
])
def test_schools_said_in_ordinary_ways(text, school):
    assert ("user.education", school) in _facts(text)


@pytest.mark.parametrize("text", ["我去年毕业的", "我刚毕业", "现在在职读研"])
def test_a_time_or_a_mode_of_study_is_no_school(text):
    assert not any(value in ("去年", "刚", "职", "在职") for _, value in _facts(text))


@pytest.mark.parametrize(("text", "want"), [
    ("我是一名程序员，在拼多多", {("user.occupation", "程序员"), ("user.employer", "拼多多")}),
    ("我已经从华为辞职了，下个月去小米", {("user.former_employer", "华为"), ("user.employer", "小米")}),
    ("我们公司是比亚迪，我在那边做工程师", {("user.employer", "比亚迪"), ("user.occupation", "工程师")}),
])
def test_employers_named_bare(text, want):
    assert want <= _facts(text)


@pytest.mark.parametrize("text", ["我在华为待了五年，上个月刚走", "下个月去小米之家买手机"])
def test_a_known_employer_is_no_home_and_a_shop_visit_no_job(text):
    facts = _facts(text)
    assert not any(key == "user.home_city" for key, _ in facts)
    assert ("user.employer", "小米") not in facts


@pytest.mark.parametrize(("text", "value"), [
    ("有事直接打我电话", "电话"),
    ("最好下午联系我", "下午"),
    ("我手机经常静音，消息比电话靠谱", "消息"),
    ("我不喜欢接电话，打字吧", "打字"),
])
def test_contact_preferences_said_in_ordinary_ways(text, value):
    assert ("user.contact_preference", value) in _facts(text)


@pytest.mark.parametrize("text", ["谁能告诉我去哪学英语", "有没有人知道杭州哪里租房便宜", "我最爱加班了，真的（才怪）"])
def test_an_unmarked_question_or_a_joke_says_nothing(text):
    assert _facts(text) == set()


@pytest.mark.parametrize(("text", "want"), [
    ("对象是东北人，叫刘畅", {("user.relationship.partner", "刘畅")}),    # 对象 is no "对," lead-in
    ("女朋友是护士，叫王婷", {("user.relationship.girlfriend", "王婷")}),
    ("我有一儿一女", {("user.relationship.son", ""), ("user.relationship.daughter", "")}),
    ("下班后常去打篮球", {("user.habits", "打篮球")}),
    ("早上起来先冥想十分钟", {("user.habits", "冥想")}),
])
def test_people_and_routines_said_in_ordinary_ways(text, want):
    assert want <= _facts(text)


@pytest.mark.parametrize("text", ["明天晚上准时到", "我朋友家一儿一女"])
def test_one_occasion_or_someone_elses_family_is_nothing(text):
    assert _facts(text) == set()


@pytest.mark.parametrize(("text", "want"), [
    ("吃完芒果嘴巴肿成香肠，查了是过敏", {("user.allergies", "芒果")}),
    ("我有高血压，医生让我每天吃一粒氨氯地平", {("user.health_conditions", "高血压"), ("user.medications", "氨氯地平")}),
    ("妹妹小鱼刚考上川大，全家都高兴坏了", {("user.relationship.younger_sister", "小鱼")}),
])
def test_health_and_family_said_in_ordinary_ways(text, want):
    facts = _facts(text)
    assert want <= facts
    assert not any(value in ("查了是", "医生让我") for _, value in facts)


@pytest.mark.parametrize("text", ["我今天去了趟超市", "这周末回了趟老家", "周六去了北京"])
def test_what_already_happened_is_no_plan(text):
    assert not any(key == "user.plan" for key, _ in _facts(text))


def test_an_arranged_weekend_is_a_plan():
    assert any(key == "user.plan" for key, _ in _facts("这周末约了朋友去露营"))


@pytest.mark.parametrize(("earlier", "later", "want"), [
    ("跟你说个事，我换工作了", "去了京东物流，还是干调度那摊子事", ("user.employer", "京东物流")),
    ("guess what 我换工作了", "去 Stripe 了！还是写 backend", ("user.employer", "Stripe")),
])
def test_the_turn_after_a_job_change_names_the_new_employer(earlier, later, want):
    turns = [TranscriptTurn(1, "user", earlier, context=True), TranscriptTurn(2, "user", later)]
    assert want in {(i.memory_key, i.value) for i in extract_memories(turns).items}


def test_going_somewhere_after_small_talk_is_no_job():
    turns = [TranscriptTurn(1, "user", "今天好累"), TranscriptTurn(2, "user", "去了京东物流")]
    assert not any(i.memory_key == "user.employer" for i in extract_memories(turns).items)


@pytest.mark.parametrize(("text", "key", "age"), [
    ("我家老大今年十岁了", "user.relationship.child", 10),
    ("我有个七岁的儿子", "user.relationship.son", 7),
    ("我养了只三岁的布偶猫", "user.pet.cat", 3),
])
def test_ages_said_before_or_after_the_person_or_pet(text, key, age):
    items = extract_memories([TranscriptTurn(1, "user", text)]).items
    assert any(i.memory_key == key and i.attributes.get("age") == age for i in items)
    assert not any(i.memory_key == "user.age" for i in items)


def _items(text: str):
    return [i for i in extract_memories([TranscriptTurn(1, "user", text)], user_id="u1").items if i.memory_key]


@pytest.mark.parametrize(("text", "values"), [
    ("工作日我只回邮件", {"邮件"}),
    ("电话我基本不接，短信或者微信都可以", {"短信", "微信"}),
    ("找我的话钉钉最快", {"钉钉"}),
    ("我微信回得比较慢，邮件会及时看", {"邮件"}),
    ("语音我听不了，麻烦打字", {"打字"}),
    ("我不太接陌生电话的，有啥事微信说吧", {"微信"}),
    ("有事ping我Slack", {"Slack"}),
    ("急事打电话，其他的发邮件", {"邮件"}),
])
def test_channels_the_user_answers_on(text, values):
    said = {i.value for i in _items(text) if i.memory_key == "user.contact_preference"}
    assert values <= said, said


@pytest.mark.parametrize(("text", "key", "name"), [
    ("我家橘猫，团子，三岁了", "user.pet.cat", "团子"),
    ("养了只柯基名字是可乐", "user.pet.dog", "可乐"),
    ("家里那只金毛叫旺财，今年八岁", "user.pet.dog", "旺财"),
])
def test_a_pet_named_without_a_naming_verb_or_after_one(text, key, name):
    assert any(i.memory_key == key and i.value == name for i in _items(text))


@pytest.mark.parametrize("text", ["我家橘猫，很乖，三岁了", "我家狗狗，公的，五岁"])
def test_a_description_after_the_species_is_no_name(text):
    assert all(not i.value for i in _items(text) if i.memory_key.startswith("user.pet."))


@pytest.mark.parametrize(("text", "drug", "want"), [
    ("每天早上吃一片优甲乐 50微克", "优甲乐", {"dose": "50微克", "schedule": "每天早上"}),
    ("二甲双胍一天两次，一次一片，饭后吃", "二甲双胍", {"schedule": "一天两次"}),
    ("哮喘犯了就喷沙丁胺醇", "沙丁胺醇", {"schedule": "哮喘犯了"}),
    ("医生让我每天早饭前吃奥美拉唑", "奥美拉唑", {}),
    ("我在吃叶酸，一天一粒", "叶酸", {"dose": "一粒", "schedule": "一天"}),
])
def test_a_drug_on_a_schedule_is_a_medication_with_its_measured_dose(text, drug, want):
    items = _items(text)
    found = next(i for i in items if i.memory_key == "user.medications")
    assert found.value == drug and all(found.attributes.get(k) == v for k, v in want.items()), found
    assert not any(i.memory_key == "user.habits" for i in items)


@pytest.mark.parametrize(("text", "value", "want"), [
    ("我在读研，研二了，学的计算机", "研究生", {"field": "计算机", "status": "studying"}),
    ("我博士毕业三年了", "博士", {"status": "graduated"}),
    ("目前研一，导师是做NLP的", "研一", {"degree": "研究生", "status": "studying"}),
    ("我在自考本科，汉语言文学专业", "自考", {"degree": "本科", "field": "汉语言文学", "status": "studying"}),
    ("本科学的会计，后来转行做了产品", "本科", {"field": "会计"}),
])
def test_a_programme_said_with_no_school(text, value, want):
    items = _items(text)
    found = next(i for i in items if i.memory_key == "user.education")
    assert found.value == value and all(found.attributes.get(k) == v for k, v in want.items()), found
    assert not any(i.memory_key == "user.languages" for i in items)


@pytest.mark.parametrize("text", ["我弟在读研", "我考研一次就过了", "读研还是工作，好纠结"])
def test_someone_elses_or_no_programme_is_no_education_of_the_users(text):
    assert not any(i.memory_key == "user.education" for i in _items(text))


@pytest.mark.parametrize(("text", "school", "field"), [
    ("我是川大临床医学毕业的", "川大", "临床医学"),
    ("在读护理专科，学校是深圳职业技术学院", "深圳职业技术学院", "护理"),
    ("考上了同济的建筑学硕士", "同济", "建筑学"),
])
def test_the_discipline_said_beside_the_school_or_the_degree(text, school, field):
    assert any(i.memory_key == "user.education" and i.value == school and i.attributes.get("field") == field
               for i in _items(text))


@pytest.mark.parametrize(("text", "job"), [
    ("我老公也是老师，我们是同事", "老师"),
    ("我和我老公都是医生", "医生"),
    ("我跟老婆都是程序员", "程序员"),
])
def test_a_job_said_shared_with_a_relative_is_the_users_too(text, job):
    facts = _facts(text)
    assert ("user.occupation", job) in facts


@pytest.mark.parametrize("text", ["我爸是老师", "我爸妈都是老师", "我老公也是湖南人"])
def test_a_relatives_job_alone_is_not_the_users(text):
    assert not any(key == "user.occupation" for key, _ in _facts(text))


@pytest.mark.parametrize(("text", "key", "value", "want"), [
    ("我有对双胞胎女儿，今年五岁", "user.relationship.daughter", "", {"age": 5}),
    ("我家老大今年上初一了", "user.relationship.child", "", {}),
    ("室友阿May天天半夜打游戏", "user.relationship.roommate", "阿May", {}),
    ("下午要去接我妹，她在二中念高三", "user.relationship.younger_sister", "", {"school": "二中"}),
    ("每晚九点准时给爸妈打视频电话", "user.relationship.mother", "", {}),
])
def test_people_with_their_ages_names_and_schools(text, key, value, want):
    items = _items(text)
    assert any(i.memory_key == key and i.value == value and all(i.attributes.get(k) == v for k, v in want.items())
               for i in items), [(i.memory_key, i.value, i.attributes) for i in items]
    assert not any(i.memory_key in ("user.age", "user.education") for i in items)


@pytest.mark.parametrize(("text", "value", "want"), [
    ("羽毛球每周上两次课", "羽毛球课", {"frequency": "每周两次"}),
    ("吉他一周练三次", "吉他", {"frequency": "一周三次"}),
    ("我每周上两次瑜伽课，一般是周二和周四晚上", "上瑜伽课", {"weekdays": ["tue", "thu"], "time": "晚上"}),
    ("我一般周六早上去菜市场买一周的菜", "菜市场买菜", {"weekdays": ["sat"]}),
    ("周一到周五都是地铁通勤，单程一个小时", "地铁通勤", {"weekdays": ["mon", "tue", "wed", "thu", "fri"]}),
])
def test_habits_named_first_or_timed_in_a_part_of_their_own(text, value, want):
    found = next(i for i in _items(text) if i.memory_key == "user.habits")
    assert found.value == value and all(found.attributes.get(k) == v for k, v in want.items()), found


@pytest.mark.parametrize("text", ["公司每周一早上开例会", "北京每周上两次课", "提醒的话一天汇总一次就行", "周末都是我老公做饭"])
def test_no_habit_of_the_users(text):
    assert not any(i.memory_key == "user.habits" for i in _items(text))


@pytest.mark.parametrize(("text", "want"), [
    ("我比较 prefer 微信文字，不太接 phone call", ("user.contact_preference", "微信")),
    ("slack 上找我最快，but 晚上八点以后就 offline 了", ("user.contact_preference", "晚上八点以后 offline")),
    ("我 boss Kevin 超 micromanage 的，受不了", ("user.relationship.boss", "Kevin")),
    ("我跟我 roommate Jason 每周六一起去 gym", ("user.relationship.roommate", "Jason")),
    ("我跟我 roommate Jason 每周六一起去 gym", ("user.habits", "去 gym")),
    ("上个月从 McKinsey 离职，join 了 ByteDance", ("user.employer", "ByteDance")),
    ("你可以叫我 Vivian，身份证上的名字是张薇", ("user.name", "张薇")),
    ("我 birthday 是 Nov 2，今年刚好 30 岁", ("user.birthday", "Nov 2")),
    ("我 based in Melbourne，老家是广州的", ("user.home_city", "Melbourne")),
    ("我真的很 hate 早起开会", ("user.dislikes", "早起开会")),
    ("粤语是我 mother tongue，普通话 OK，法语 still learning", ("user.languages", "法语")),
])
def test_english_words_in_a_chinese_frame(text, want):
    assert want in _facts(text)


def test_english_levels_and_ages_in_a_chinese_frame():
    items = _items("粤语是我 mother tongue，法语 still learning。我家 husky 叫 Lucky，two years old 了")
    levels = {i.value: i.attributes.get("level") for i in items if i.memory_key == "user.languages"}
    assert levels == {"粤语": "native", "法语": "learning"}
    assert any(i.memory_key == "user.pet.dog" and i.attributes.get("age") == 2 for i in items)


def test_doing_something_together_on_a_weekday_is_no_monday():
    found = next(i for i in _items("我跟老婆每周六一起去爬山") if i.memory_key == "user.habits")
    assert found.value == "爬山" and found.attributes.get("weekdays") == ["sat"]


@pytest.mark.parametrize("text", ["阿莫西林我碰不了，一吃就起疹子", "青霉素我碰不得，会起疹子"])
def test_what_the_body_reacts_to_is_an_allergen_not_a_diet(text):
    keys = {key for key, _ in _facts(text)}
    assert "user.allergies" in keys and "user.food_restrictions" not in keys


def test_a_second_role_is_no_name_and_someone_elses_relative_shares_no_job():
    assert _facts("我同事老公也是老师") == set()


def test_a_cup_counted_is_no_part_of_the_habit_and_cat_hair_no_pet():
    assert ("user.habits", "喝黑咖啡") in _facts("我习惯早上喝一杯黑咖啡")
    assert _facts("猫毛过敏，所以我家不养猫") == {("user.allergies", "猫毛")}
    assert ("user.pet.dog", "毛毛") in _facts("我家的狗叫毛毛")


def test_a_question_about_a_programme_is_no_education():
    assert _facts("博士毕业一般要几年啊") == set()


def test_a_programme_said_beside_the_one_school_is_that_schools():
    items = [i for i in _items("学校是南开，我在读研") if i.memory_key == "user.education"]
    assert [(i.value, i.attributes.get("degree"), i.attributes.get("status")) for i in items] == [("南开", "研究生", "studying")]


def _habits(text: str) -> set[str]:
    return {value for key, value in _facts(text) if key == "user.habits"}


@pytest.mark.parametrize("text", ["我们楼上那个阿姨每天晚上九点跳广场舞", "我家猫每天凌晨五点叫我起床"])
def test_a_routine_that_opens_with_we_or_my_pet_is_not_the_users(text):
    # rules_zh/habits.py: 我 opening the clause is the user only on its own, not in 我们 / 我家.
    assert _habits(text) == set()


def test_a_pets_routine_said_after_it_stays_the_pets_and_tending_it_stays_the_users():
    # rules_zh/__init__.py: after a pet, a time of day alone keeps the pet as the subject.
    assert _habits("我养了只仓鼠，每天半夜啃笼子") == set()
    assert _habits("我养了只仓鼠，每天晚上喂一次瓜子") != set()


@pytest.mark.parametrize(("text", "habit"), [
    ("我每个月去苏州出差一次", "苏州出差"),  # 都 inside 成都 / 首都 and 会 inside 会计 stay
    ("每周二晚上都去学会计", "学会计"),
    ("我每天晚上十一点前必须躺下睡", "躺下睡"),  # a modal before the activity is no part of it
    ("我周末通常睡到十点", "睡到十点"),  # the time a verb goes on to stays
])
def test_habit_values_keep_the_activity_whole(text, habit):
    assert habit in _habits(text)


@pytest.mark.parametrize("text", ["每天都忙到崩溃", "我每天都累到虚脱"])
def test_a_verb_with_the_state_it_ends_in_is_no_routine(text):
    assert _habits(text) == set()


def test_pets_told_apart_by_colour_or_rank_are_each_named():
    # rules_zh/pets.py: "黑的叫…", "大的叫…", "…是白的" tell several pets apart.
    assert {("user.pet.dog", "可乐"), ("user.pet.dog", "雪碧")} <= _facts("我有俩狗，黑的叫可乐，白的叫雪碧")
    assert {("user.pet.cat", "布丁"), ("user.pet.cat", "奶昔")} <= _facts("家里两只猫，布丁是橘的，奶昔是白的")


def test_each_child_named_by_rank_keeps_their_own_age():
    facts = extract_memories([TranscriptTurn(1, "user", "大女儿朵朵十岁，小儿子豆豆才两岁")], user_id="u1").items
    ages = {(i.memory_key, i.value): (i.attributes or {}).get("age") for i in facts}
    assert ages[("user.relationship.daughter", "朵朵")] == 10
    assert ages[("user.relationship.son", "豆豆")] == 2


def test_foods_listed_before_a_bare_allergy_are_each_an_allergen():
    assert {("user.allergies", "芝麻"), ("user.allergies", "黄豆")} <= _facts("芝麻、黄豆都不行，过敏")
    assert not any(key == "user.allergies" for key, _ in _facts("我朋友芝麻、黄豆都不行，她过敏"))


def test_foods_not_touched_at_all_are_each_a_restriction():
    assert {("user.food_restrictions", "炸鸡"), ("user.food_restrictions", "薯条")} <= _facts("炸鸡薯条一口都不碰")


@pytest.mark.parametrize(("text", "home", "work"), [
    ("房子买在惠州了，每天去深圳上班", "惠州", "深圳"),
    ("在佛山买了房，每天开车去广州上班", "佛山", "广州"),
    ("我喺珠海返工，屋企喺中山", "中山", "珠海"),
])
def test_work_city_beside_the_home_city(text, home, work):
    facts = _facts(text)
    assert ("user.home_city", home) in facts and ("user.work_city", work) in facts


@pytest.mark.parametrize("text", ["我姐房子买在惠州了，每天去深圳上班", "以前住在惠州，每天去深圳上班"])
def test_someone_elses_or_a_past_commute_gives_no_work_city(text):
    assert not any(key in ("user.work_city", "user.home_city") for key, _ in _facts(text))


@pytest.mark.parametrize(("text", "town"), [("俺是山东临沂的", "临沂"), ("我叫李娜，四川人，做会计", "四川")])
def test_where_the_user_is_from_said_as_a_place_of_their_own(text, town):
    assert any(key == "user.hometown" and town in value for key, value in _facts(text))


def test_cantonese_values_are_given_back_as_written():
    # rules_zh/cantonese.py reads 喺 / 钟意 as 在 / 喜欢 and gives the value back in the user's words.
    facts = _facts("我住喺澳门，好钟意睇波")
    assert ("user.home_city", "澳门") in facts
    assert ("user.likes", "睇波") in facts


@pytest.mark.parametrize(("text", "want"), [
    ("猪厂数据分析师一枚", {("user.employer", "猪厂"), ("user.occupation", "数据分析师")}),
    ("京东物流的仓管员一枚，天天盘点", {("user.employer", "京东物流"), ("user.occupation", "仓管员")}),
])
def test_the_user_described_by_a_known_employer_and_a_role(text, want):
    # rules_zh/employment.py: a part that is only employer + role (+ 一枚) is who the user is.
    assert want <= _facts(text)


@pytest.mark.parametrize("text", ["打工人一枚，累", "我是吃货一枚"])
def test_a_self_label_with_no_role_or_employer_is_no_job(text):
    assert not any(key in ("user.occupation", "user.employer") for key, _ in _facts(text))


@pytest.mark.parametrize("text", ["在美团干了三年，前天把离职手续办完了", "在小米待了两年，上周交了工牌", "交了字节的工牌，今天开始放假"])
def test_a_job_ended_by_its_paperwork_is_a_former_employer(text):
    facts = _facts(text)
    assert any(key == "user.former_employer" for key, _ in facts)
    assert not any(key == "user.employer" for key, _ in facts)


def test_the_field_and_degree_of_what_the_user_reads():
    items = extract_memories([TranscriptTurn(1, "user", "下班后在电大读会计的大专")], user_id="u1").items
    school = next(i for i in items if i.memory_key == "user.education")
    assert (school.value, school.attributes.get("field"), school.attributes.get("degree"), school.attributes.get("status")) == \
        ("电大", "会计", "大专", "studying")
    # a school read there keeps its place ("读复旦的EMBA" is no field 复旦)
    assert ("user.education", "交大") in _facts("我在读交大的EMBA")


def test_the_people_a_routine_visits_are_the_users():
    facts = _facts("每个月初都回家陪爸妈吃顿饭")
    assert {("user.relationship.father", ""), ("user.relationship.mother", "")} <= facts
    assert not any(key.startswith("user.relationship") for key, _ in _facts("我同学每周都去看她外婆"))


def test_a_condition_in_a_later_part_leaves_the_parts_before_it():
    # offline.py _before_condition: "要是…" takes its own part and what follows, not what was said before it.
    facts = _facts("我在杭州工作，要是明年涨薪了就买房")
    assert ("user.work_city", "杭州") in facts or ("user.home_city", "杭州") in facts
    assert _facts("要是我在杭州工作就好了") == set()


def _medications(text: str) -> dict[str, dict]:
    items = extract_memories([TranscriptTurn(1, "user", text)], user_id="u1").items
    return {i.value: i.attributes or {} for i in items if i.memory_key == "user.medications"}


def test_each_drug_in_a_list_keeps_its_own_dose_and_schedule():
    # rules_zh/health.py _said_near: a drug's own part of the clause first.
    drugs = _medications("氯沙坦早上一片，另外瑞舒伐他汀晚饭后两片")
    assert (drugs["氯沙坦"].get("dose"), drugs["氯沙坦"].get("schedule")) == ("一片", "早上")
    assert drugs["瑞舒伐他汀"].get("dose") == "两片" and drugs["瑞舒伐他汀"].get("schedule") == "晚饭后"


def test_a_measured_dose_said_apart_beats_the_count_of_tablets():
    assert _medications("每天早上吃一片左甲状腺素，25微克")["左甲状腺素"].get("dose") == "25微克"


@pytest.mark.parametrize(("text", "schedule"), [("胃疼的时候来一粒奥美拉唑", "胃疼的时候"), ("在打胰岛素，三餐前各一针", "三餐前各一针")])
def test_a_schedule_when_needed_or_before_meals(text, schedule):
    assert schedule in {attrs.get("schedule") for attrs in _medications(text).values()}


def test_what_a_thing_is_taken_for_makes_it_a_drug_but_a_joke_does_not():
    assert "妈富隆" in _medications("一直在吃妈富隆避孕")
    assert _medications("我靠奶茶续命") == {}


@pytest.mark.parametrize("text", ["孕18周，最近总犯困", "现在孕中期，胃口大开"])
def test_how_far_along_says_a_pregnancy(text):
    assert ("user.health_conditions", "怀孕") in _facts(text)


def test_someone_elses_pregnancy_or_the_weeks_of_it_are_not_the_users():
    assert ("user.health_conditions", "怀孕") not in _facts("我嫂子孕20周了")


def test_an_age_said_without_sui():
    assert ("user.age", "35") in _facts("今年正好三十五，本命年")


def test_a_person_the_user_grew_up_with():
    assert ("user.relationship.grandfather", "") in _facts("我从小跟着姥爷练书法")


@pytest.mark.parametrize("text", ["在武大读研，还有一年才毕业", "我还没毕业，在南大读大二", "在厦大读博，毕业还早"])
def test_a_graduation_still_to_come_is_studying(text):
    items = extract_memories([TranscriptTurn(1, "user", text)], user_id="u1").items
    assert {(i.attributes or {}).get("status") for i in items if i.memory_key == "user.education"} == {"studying"}


@pytest.mark.parametrize(("text", "language"), [("我母语是莆田话", "莆田话"), ("从小在家讲北京话，北京话是我的母语", "北京话")])
def test_a_citys_or_regions_speech_is_a_language(text, language):
    items = extract_memories([TranscriptTurn(1, "user", text)], user_id="u1").items
    assert any(i.memory_key == "user.languages" and i.value == language and (i.attributes or {}).get("level") == "native" for i in items)


def test_an_english_name_said_after_a_space():
    assert {("user.name", "刘洋"), ("user.name", "Leo")} <= _facts("我叫刘洋，英文名 Leo")


def test_a_routine_the_user_shares_is_the_users_and_a_groups_is_not():
    # rules_zh/habits.py: 我们 / 我和X opening the routine include the user; 我们公司 / 我们小区 are a group's.
    assert "游泳" in _habits("我们俩每周二晚上去游泳")
    assert "钓鱼" in _habits("我和我爸每个周末去钓鱼")
    assert _habits("我们公司每周一早上开例会") == set()


def test_the_people_a_plan_visits_are_the_users():
    facts = _facts("国庆准备去看看姥姥姥爷")
    assert {("user.relationship.grandmother", ""), ("user.relationship.grandfather", "")} <= facts


@pytest.mark.parametrize(("text", "mine"), [("我老婆辞职在家带娃", True), ("我丈母娘过来帮忙带孩子", True), ("我邻居在家带孩子", False)])
def test_children_the_household_looks_after_are_the_users(text, mine):
    # rules_zh/pets.py _household_tends: whoever of the household does the chore.
    assert (("user.relationship.child", "") in _facts(text)) is mine


@pytest.mark.parametrize("text, allergens", [
    ("花生、坚果都不行，我过敏，严重的时候得去医院", {"花生", "坚果"}),
    ("千万别给我放花生，我会过敏的", {"花生"}),
])
def test_a_bare_allergy_after_a_comma_belongs_to_the_foods_before_it(text, allergens):
    # text._CLAUSE_BREAK: 我过敏 keeps its foods at the sentence's end or before the next comma
    assert {fact[1] for fact in _facts(text) if fact[0] == "user.allergies"} == allergens


@pytest.mark.parametrize(("text", "want"), [
    ("我家柯基豆豆四岁了", ("user.pet.dog", "豆豆")),
    ("我养的兔子棉花才五个月", ("user.pet.rabbit", "棉花")),
    ("我家布偶糯米也快三岁了", ("user.pet.cat", "糯米")),
])
def test_a_pets_name_right_before_its_age_or_an_adverb(text, want):
    # rules_zh/pets.py: the name ends where the age or the adverb begins, and the adverb is no name.
    assert want in _facts(text)


def test_an_adverb_before_the_age_is_no_pet_name():
    assert ("user.pet.dog", "") in _facts("我家柯基快四岁了")


@pytest.mark.parametrize(("text", "want"), [
    ("老大是男孩，6岁；老二是妹妹，才2岁", {("user.relationship.son", ""), ("user.relationship.daughter", "")}),
    ("我家老大是个闺女，老二是儿子", {("user.relationship.daughter", ""), ("user.relationship.son", "")}),
])
def test_children_said_by_rank_and_sex(text, want):
    facts = _facts(text)
    assert want <= facts
    # the sex word is no child's name, and the children's ages are not the user's
    assert not any(key in ("user.relationship.child", "user.age") for key, _ in facts)


def test_a_rank_in_someone_elses_household_is_not_the_users_child():
    assert not any(key.startswith("user.relationship.") for key, _ in _facts("我表姐家老大是女孩，十岁了"))


def test_a_household_part_after_a_comma_keeps_its_pet():
    assert {("user.name", "陈静"), ("user.pet.dog", "豆包")} <= _facts("我叫陈静，家里那只狗叫豆包")


@pytest.mark.parametrize(("text", "age"), [("我28，在德勤做审计", "28"), ("简单介绍下：我三十二，在招商银行上班", "32"), ("我也30了", "30")])
def test_an_age_said_as_a_bare_number_after_wo(text, age):
    assert ("user.age", age) in _facts(text)


@pytest.mark.parametrize("text", ["我28号到上海", "我30个够吗", "我朋友今年29，还没结婚"])
def test_a_date_a_count_or_someone_elses_age_is_no_age_of_the_users(text):
    assert not any(key == "user.age" for key, _ in _facts(text))


def test_an_employer_in_an_earlier_part_leaves_the_plan_after_it():
    # rules_zh/__init__.py: only an employer of the same part (or a part that just starts that job) is no plan
    assert ("user.plan", "去东京出差") in _facts("我在德勤工作，下个月去东京出差")
    assert not any(key == "user.plan" for key, _ in _facts("我刚拿到了快手的offer，下个月入职"))


@pytest.mark.parametrize("text", ["我有个同事在学日语", "我有位朋友每天跑步"])
def test_someone_the_user_has_is_the_subject_of_what_follows(text):
    # rules_zh/subject.py _OTHER_OWNER: "我有个同事" introduces the colleague; "我有个弟弟叫李明" stays a relation
    assert not any(key in ("user.languages", "user.habits") for key, _ in _facts(text))
    assert ("user.relationship.younger_brother", "李明") in _facts("我有个弟弟叫李明")
