"""Places: home city, work city, hometown; the gazetteer of cities and provinces."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_en.common import value_rule
from layers.formation.extractor.rules_zh.common import _ADV, _zc
from layers.formation.extractor.text import has_question_word_zh, tidy_value

CITIES = (
    "北京 上海 天津 重庆 广州 深圳 杭州 南京 苏州 成都 武汉 西安 长沙 郑州 济南 青岛 大连 沈阳 哈尔滨 长春 "
    "厦门 福州 合肥 南昌 昆明 贵阳 南宁 海口 三亚 兰州 西宁 银川 乌鲁木齐 拉萨 呼和浩特 石家庄 太原 宁波 "
    "无锡 佛山 东莞 珠海 温州 绍兴 嘉兴 常州 徐州 烟台 潍坊 洛阳 桂林 丽江 大理 香港 澳门 台北 高雄 "
    "纽约 伦敦 巴黎 柏林 东京 大阪 首尔 新加坡 悉尼 墨尔本 多伦多 温哥华 洛杉矶 旧金山 西雅图 芝加哥 波士顿 "
    "慕尼黑 法兰克福 阿姆斯特丹 罗马 米兰 马德里 巴塞罗那 莫斯科 迪拜 曼谷 吉隆坡 雅加达 河内 奥克兰"
).split()


PROVINCES = ("河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东 河南 湖北 湖南 广东 海南 四川 贵州 云南 陕西 "
             "甘肃 青海 台湾 内蒙古 广西 西藏 宁夏 新疆").split()


_PROVINCE_ALT = "|".join(sorted(PROVINCES, key=len, reverse=True))
_CITY_ALT = "|".join(sorted(CITIES + PROVINCES, key=len, reverse=True))


_COUNTRIES_ZH = ("日本|韩国|美国|英国|法国|德国|泰国|澳洲|澳大利亚|加拿大|意大利|西班牙|欧洲|冰岛|新西兰|越南|马来西亚|"
                 "印尼|巴厘岛|云南|西藏|新疆|海南|青海湖|九寨沟|张家界|黄山|泰山|迪士尼|北海道")


_PLACE_BLOCK = {"一起", "一块", "一块儿", "家", "家里", "这里", "那里", "这儿", "那儿", "公司", "单位", "学校", "附近", "楼下", "国外", "外地", "老家", "乡下", "农村", "郊区", "市区", "城里", "里面", "这边", "那边", "公司里", "外面"}


# Where someone sleeps tonight is not their home city.
_NOT_A_CITY = re.compile(r"酒店|宾馆|民宿|旅馆|宿舍|公寓|小区|医院|朋友家|亲戚家|家里|楼上|楼下|隔壁|这|那|哪")


def _place(raw: str) -> str | None:
    # "家住在东莞", "现在在大理远程办公": a 在 or 于 a cue left before the place is no part of it.
    raw = re.sub(r"^(?:在|于)(?=[\u4e00-\u9fffA-Za-z]{2})", "", tidy_value(raw))
    # "湖南长沙" / "四川南充": the city, not the province.
    province = re.match("(?:" + "|".join(PROVINCES) + r")(?:省)?(?=[\u4e00-\u9fff]{2})", raw)
    if province and not re.match(r"(?:人|的|省|这|那)", raw[province.end():]):
        raw = raw[province.end():]
    known = re.match(_CITY_ALT, raw)
    if known:
        return known.group()
    value = re.sub(r"(?:了|啦|呀|去|住|这边|那边|附近|一带)+$", "", raw)
    value = re.sub(r"市$", "", value)
    # A Latin name counts as one word ("Vancouver" is one place, not nine characters).
    if not value or value in _PLACE_BLOCK or has_question_word_zh(value) or not (2 <= len(re.sub(r"[A-Za-z]+", "xx", value)) <= 8) \
            or (value.isascii() and not re.fullmatch(r"[A-Za-z]+(?: [A-Za-z]+){0,2}", value)):
        return None
    if _NOT_A_CITY.search(value):
        return None
    if re.search(r"[不没]", value):
        return None
    return value


def _known_employer(value: str) -> bool:
    from layers.formation.extractor.rules_zh.employment import KNOWN_EMPLOYER  # employment imports this module

    return KNOWN_EMPLOYER.fullmatch(value) is not None


def _zb_place(key):
    def build(m, clause):
        value = _place(m.group("v"))
        # "在华为待了五年": a stay at an employer is a job, read by rules_zh.employment.
        if not value or _known_employer(value):
            return []
        # "我年底要搬去广州": a move still to come is a plan (FACTS.md), not where one lives.
        if key == "user.home_city" and re.search(r"(?:要|会|想|打算|准备|计划|将|快)$", m.string[:m.start()]):
            return []
        # "我住在天河区，广州": a district, then the city it is in.
        city_after = re.search(rf"{re.escape(value)}[，,]\s*(?P<c>{_CITY_ALT})(?=$|[，,。])", clause)
        if re.search(r"[区县镇]$", value) and city_after:
            value = city_after.group("c")
        return [_zc(key, value)]
    return build


def _zb_hometown_person(m, clause):
    raw = m.group("v")
    value = re.sub(r"^(?:土生土长的|地道的|正宗的|纯正的)", "", raw)
    if not re.search(_CITY_ALT, value) and value not in ("东北", "广东", "北方", "南方"):
        return []
    return [_zc("user.hometown", value)]


_legacy_home = value_rule("user.home_city", _place)
_legacy_moved = value_rule("user.home_city", _place, correction=True)
_legacy_hometown = value_rule("user.hometown", _place)


# Sentence rules: 我 as the subject, harmless adverbs, the verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"我{_ADV}(?:住在|住|定居在|定居|家在|生活在|居住在)(?P<v>[^，,。.!！?？;；的]+)"), _legacy_home),
    (re.compile(rf"我{_ADV}在(?P<v>[^，,。.!！?？;；的]+?)(?:定居|居住|生活|安家)"), _legacy_home),
    (re.compile(rf"我{_ADV}(?:从[^，,。.!！?？;；]{{1,10}}?)?(?:搬到|搬去|搬家到|搬来|搬回|搬回了|搬到了|搬去了)(?:了)?(?P<v>[^，,。.!！?？;；的]+)"), _legacy_moved),
    (re.compile(rf"我{_ADV}是(?P<v>{_CITY_ALT})人"), _legacy_hometown),
    (re.compile(rf"我{_ADV}(?:来自|老家是|老家在)(?P<v>[^，,。.!！?？;；的]+)"), _legacy_hometown),
    (re.compile(rf"我{_ADV}(?:从小|小时候)?(?:是)?在(?P<v>[^，,。.!！?？;；]+?)长大"), _legacy_hometown),
]


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(r"(?:住在|住|定居在|定居|家住|家在|base在|(?i:based\s*in\s*)|生活在|居住在|落户)(?P<v>[^，,。.!！?？;；的]+)"), _zb_place("user.home_city")),
    (re.compile(r"在(?P<v>[^，,。.!！?？;；的在]{2,8}?)(?:住|定居|安家|生活|漂|待了)"), _zb_place("user.home_city")),
    # "我现在人在深圳", "base北京": where the user is based.
    (re.compile(rf"(?:人在|base\s*|坐标\s*)(?P<v>{_CITY_ALT}|[A-Z][A-Za-z]+)(?=$|[，,。!！]|了|呢|啦)"), _zb_place("user.home_city")),
    # "春节回老家哈尔滨过年": 老家 names the hometown wherever it is said.
    (re.compile(r"(?:现居|现居住在|现住|常住|常驻)(?:在|于)?(?P<v>[^，,。.!！?？;；的]+)"), _zb_place("user.home_city")),
    (re.compile(r"(?:搬到|搬去|搬家到|搬来|搬回|留在)(?:了)?(?P<v>[^，,。.!！?？;；的]+)"), _zb_place("user.home_city")),
    # "房子买在廊坊了", "在嘉兴买了房": where the user bought a home is where they live.
    (re.compile(r"(?:房子|房|家)(?:买|安|置)在(?P<v>[^，,。.!！?？;；的]{2,8}?)(?=$|[，,。!！]|了|啦)"), _zb_place("user.home_city")),
    (re.compile(rf"(?<![现正还])在(?P<v>{_CITY_ALT}|[\u4e00-\u9fff]{{2,4}}?[市区县])(?:买了?房|买了?房子|安了家|置业)"), _zb_place("user.home_city")),
    # "现在在大理远程办公": working from a place that is no office is living there.
    (re.compile(rf"在(?P<v>{_CITY_ALT}|[\u4e00-\u9fff]{{2,4}}?)(?:远程办公|远程工作|居家办公|远程上班|当数字游民)"), _zb_place("user.home_city")),
    (re.compile(rf"(?:单位在|公司在|办公室在|上班在)(?P<v>{_CITY_ALT})"), _zb_place("user.work_city")),
    (re.compile(rf"去(?P<v>{_CITY_ALT})(?:公司|总部|办公室)?(?:上班|坐班|打卡)"), _zb_place("user.work_city")),
    (re.compile(r"(?:老家是|老家在|来自|老家)(?P<v>[^，,。.!！?？;；的]+)"), _zb_place("user.hometown")),
    # "春节回老家哈尔滨过年": 老家 names the hometown wherever it is said (after the rule above, so
    # "老家江西赣州的" reads the city, not the province).
    (re.compile(rf"(?:回|从)?老家(?P<v>{_CITY_ALT})"), _zb_place("user.hometown")),
    (re.compile(r"(?:从小|小时候)?在(?P<v>[^，,。.!！?？;；]+?)长大"), _zb_place("user.hometown")),
    (re.compile(r"在(?P<v>[^，,。.!！?？;；的]{2,8}?)(?:出生|出世)"), _zb_place("user.hometown")),
    (re.compile(r"出生在(?P<v>[^，,。.!！?？;；的]{2,8})"), _zb_place("user.hometown")),
    (re.compile(r"是(?P<v>[A-Z][A-Za-z ]+?)长大的"), lambda m, c: [_zc("user.hometown", m.group("v").strip())]),
    # "我是广东潮汕人": a province, then the place within it.
    (re.compile(rf"是(?P<v>(?:{_PROVINCE_ALT})(?:省)?[\u4e00-\u9fff]{{2,3}}?)人(?=$|[，,。!！]|啊|呀|哦|的)"), _zb_hometown_person),
    (re.compile(rf"是(?P<v>(?:土生土长的|地道的|正宗的)?(?:[\u4e00-\u9fff]{{0,3}}?(?:{_CITY_ALT})|东北|广东))(?:人|崽儿?|娃|妹子|姑娘|小伙|伢子|土著)"), _zb_hometown_person),
    (re.compile(rf"是(?:东北|北方|南方)人[，,]\s*(?P<v>{_CITY_ALT})的"), _zb_place("user.hometown")),
    # "我是东北人，哈尔滨的": the city said after the region is the hometown.
    (re.compile(rf"^(?P<v>{_CITY_ALT})的$"), _zb_place("user.hometown")),
    (re.compile(rf"^(?:我)?是(?P<v>{_CITY_ALT})的(?=$|[，,。])"), _zb_place("user.hometown")),
    # "俺是黑龙江鹤岗的", "我是四川南充的": a province and a place within it, the 的 of where one is from.
    (re.compile(rf"是(?P<v>(?:{_PROVINCE_ALT})(?:省)?[\u4e00-\u9fff]{{2,3}}?)的(?=$|[，,。!！])"), _zb_hometown_person),
    # "我叫陈浩，湖南人，现在定居长沙": a part that is only where the user is from.
    (re.compile(rf"^(?P<v>(?:土生土长的|地道的)?(?:{_CITY_ALT})(?:省|市)?[\u4e00-\u9fff]{{0,3}}?)人$"), _zb_hometown_person),
]
