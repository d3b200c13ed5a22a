"""Personal facts and dates: name, age, birthday, anniversary."""
from __future__ import annotations

import re

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_en.common import (
    _IM,
    _NAME,
    _NOT_NAMES,
    _f,
    _proper,
    value_rule,
)
from layers.formation.extractor.rules_en.diet import _DIETS_EN
from layers.formation.extractor.rules_en.health import _CONDITIONS_EN
from layers.formation.extractor.rules_en.languages import _LANGS
from layers.formation.extractor.text import tidy_value


_ZODIAC = r"aries|taurus|gemini|cancer|leo|virgo|libra|scorpio|sagittarius|capricorn|aquarius|pisces"


def _b_age(m, clause):
    age = A.plausible_age(A.en_int(m.group("v")), low=5)
    return [_f("user.age", str(age))] if age else []


# Days people name a birthday or anniversary by, which A.en_date does not read as dates.
_HOLIDAYS = (r"(?:halloween|christmas\s+(?:eve|day)|christmas|new\s+year'?s\s+(?:eve|day)|valentine'?s(?:\s+day)?|"
             r"st\.?\s+patrick'?s\s+day|boxing\s+day|easter(?:\s+sunday)?|thanksgiving|leap\s+day|bonfire\s+night|"
             # festivals of other calendars are dates people keep too ("falls on Diwali this year")
             r"diwali|holi|eid(?:\s+al-\w+)?|hanukkah|chanukah|lunar\s+new\s+year|chinese\s+new\s+year|onam|pongal|navratri|"
             r"midsummer|may\s+day|guy\s+fawkes\s+night)(?:,?\s+\d{4})?")
_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# One date as said: "October 12 2019", "the 5th of May", "2 January 1990", "7/14", "Christmas Eve".
DATE_SPAN = (rf"(?:(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+{_MONTHS}(?:,?\s+\d{{4}})?|"
             rf"{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?|{_MONTHS}\s+\d{{4}}|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?|"
             rf"the\s+\d{{1,2}}(?:st|nd|rd|th)|{_HOLIDAYS})")
_RELATIVE_DAY = r"(?:today|tomorrow|tonight|yesterday|(?:next|this)\s+(?:week|month|\w+day)|on\s+\w+day)"


def _b_date(key, **fixed):
    def build(m, clause):
        value = tidy_value(m.group("v"))
        # "married on a rainy Saturday, October 12 2019": the date, not the description before it.
        full = re.search(rf"(?i)\b{DATE_SPAN}", value)
        if full and not A.en_date(value) == value:
            value = tidy_value(full.group())
        if not value or not (A.en_date(value) or re.search(r"\d", value) or re.fullmatch(rf"(?i){_HOLIDAYS}", value)):
            return []
        extra = dict(fixed)
        if key == "user.anniversary" and "type" not in extra:
            kind = re.search(r"(?i)(wedding|married|tied\s+the\s+knot|got\s+hitched)|(first\s+date)|(engagement|engaged)", clause)
            if kind:
                extra["type"] = "wedding" if kind.group(1) else "first date" if kind.group(2) else "engagement"
        return [_f(key, value, **extra)]
    return build


# An anniversary is a couple's ("our tenth wedding anniversary on Friday", "me and Jess have been dating
# since…"), so it is checked with subject._no_one_else rather than a leading "I" (rules_en/__init__.py).
_b_anniversary = _b_date("user.anniversary")


def _b_years_married(m, clause):
    """"we're 10 years married today", "celebrating 20 years of marriage on Saturday", "the anniversary of our
    wedding is June 8": the day the years are counted to."""
    value = re.sub(r"(?i)^on\s+", "", tidy_value(m.group("v")))
    kind = (m.groupdict().get("t") or "").lower()
    return [_f("user.anniversary", value, type="first date" if "date" in kind else "engagement" if "engage" in kind
               else None if re.search(r"(?i)together|dating", m.group()) else "wedding")] if value else []


def _b_couple_years(m, clause):
    """"Chloe and I hit 2 years on the 18th": the couple is the subject ("X and I", "we"), so the caller's subject
    check is this one (rules_en/__init__.py _EN_SUBJECT_FREE); "my parents hit 40 years" is theirs."""
    before = clause[:m.start()]
    # A bare "I hit 2 years on the 18th" is what text.split_clauses leaves of "Chloe and I hit …"; the date must follow
    # the years straight away ("I hit 2 years sober / at Google on Friday" is no couple's).
    if not re.search(r"(?i)(?:\band\s+(?:i|me)|^(?:so\s+|and\s+)?(?:we|we're|we\s+are|we've|we\s+will|we'll|i|i'm|i\s+am))\s+(?:(?:are|will|just|finally|both|officially)\s+)*$", before):
        return []
    married = re.search(r"(?i)married|marriage|wedding|husband|wife|hubby", clause)
    return [_f("user.anniversary", re.sub(r"(?i)^on\s+", "", tidy_value(m.group("v"))), type="wedding" if married else None)]


def _b_together(m, clause):
    return [_f("user.anniversary", tidy_value(m.group("v")), type="wedding" if re.search(r"(?i)married", clause) else None)]


# What follows "I'm" with a capital that is not a name: nationalities, faiths, states of mind.
_NOT_A_NAME = (r"(?i)american|canadian|british|english|scottish|irish|welsh|australian|chinese|japanese|korean|indian|"
               r"german|french|italian|spanish|mexican|brazilian|dutch|swedish|russian|polish|turkish|greek|"
               r"vietnamese|thai|filipino|nigerian|kenyan|egyptian|pakistani|iranian|israeli|jewish|muslim|christian|"
               r"catholic|buddhist|hindu|asian|european|african|latino|latina|hispanic|vegan|vegetarian|fine|good|"
               r"great|okay|ok|sorry|back|home|here|done|ready|sure|tired|new|single|married|pregnant|retired|"
               r"busy|free|sick|ill|bored|happy|sad|excited|nervous|confused|lost|late|early|allergic|diabetic")


def _b_called_name(m, clause):
    """"everyone calls me Dee": "me" names the subject, whatever stands before it."""
    return _b_name(m, clause)


def _b_name(m, clause):
    value = _proper(m.group("v"))
    # "Pescatarian here: …", "Coeliac here": a diet or a condition said in the name's place.
    # ("ok I'm here": the user speaking, "I'm", "I'll", is never a name.)
    if not value or value in _NOT_NAMES or re.match(_LANGS, value) or re.fullmatch(_NOT_A_NAME, value) \
            or re.fullmatch(rf"(?i:{_DIETS_EN}|{_CONDITIONS_EN})", value) or re.match(r"I['’]", value):
        return []
    return [_f("user.name", value)]


_legacy_name = value_rule("user.name", _proper)


# Sentence rules: a first-person subject, a verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"(?:^|\b)(?i:my\s+name\s+is|my\s+name's|call\s+me|you\s+can\s+call\s+me|i\s+go\s+by)\s+(?:(?i:actually|spelled|spelt|really|just)\s+)*{_NAME}"), _legacy_name),
    (re.compile(rf"{_IM}\s+(?i:called)\s+{_NAME}"), _legacy_name),
]


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"(?:\d{{1,2}}|(?i:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty))\s+(?i:years?)\s+(?i:married|of\s+marriage|together)\s+(?P<v>(?i:today|tomorrow|this\s+\w+|next\s+\w+|on\s+\w+day|(?:on\s+)?{DATE_SPAN}))"), _b_years_married),
    # "Chloe and I hit 2 years on the 18th", "we're celebrating five years together next Friday": the day a couple's
    # years are counted to (married if said so, else no type).
    (re.compile(rf"(?i:hit|hitting|hits|celebrate|celebrating|reach|reaching|mark|marking|turn|turning)\s+(?:\d{{1,2}}|(?i:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty))\s+(?i:years?|yrs?)"
                rf"(?:\s+(?i:married|together|of\s+marriage|of\s+dating))?\s+(?P<v>(?i:today|tomorrow|this\s+\w+|next\s+\w+|on\s+\w+day|(?:on\s+)?{DATE_SPAN}))"),
     _b_couple_years),
    (re.compile(rf"(?i:anniversary)\s+(?i:of)\s+(?i:our|my)\s+(?P<t>(?i:wedding|marriage|first\s+date|engagement))\s+(?i:is|'s|falls\s+on)\s+(?:(?i:on)\s+)?(?P<v>(?i:{DATE_SPAN}|today|tomorrow|next\s+\w+|this\s+\w+))"), _b_years_married),
    # "23rd of feb, pisces obviously", "a Leo, born August 9th": a date said beside a star sign is the birthday.
    (re.compile(rf"^(?P<v>(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+(?i:{_MONTHS})|(?i:{_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?)(?=\s*[,—–-]\s*(?:(?i:so|a|an|total|typical|proper|classic)\s+)?(?i:{_ZODIAC})\b)"), _b_date("user.birthday")),
    (re.compile(r"(?i:i\s+was\s+born|born)\s+(?i:on)\s+(?P<v>[A-Za-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?(?:\s+of)?\s+[A-Za-z]+|\d{1,2}/\d{1,2})"), _b_date("user.birthday")),
    # "I'm Sarah, nice to meet you", "hey, I'm Tom here": a self-introduction. A few words ending in a colon
    # may lead in ("long story but: I'm Hana, …", "quick q: I'm Dev and …"): the introduction still opens what follows.
    (re.compile(r"^(?:[\w' ]{1,25}:\s*)?(?:(?i:hi|hey|hello|hiya)[,!\s]+(?:(?i:there|all|everyone)[,!\s]+)?)?(?i:i'm|im|i\s+am)\s+(?P<v>[A-Z][a-zà-ÿ'-]+)(?=\s*(?:[,!.]|$|\s+(?i:here|btw|by\s+the\s+way|and)\b))"), _b_name),
    (re.compile(rf"(?i:just\s+turned|i\s+turned|turned)\s+(?P<v>{A.EN_NUMBER})\b(?!\s*(?i:min|mins|minutes|hours|%|am|pm|degrees|km|miles))"), _b_age),
    (re.compile(rf"(?i:i'm|im|i\s+am)\s+(?P<v>{A.EN_NUMBER})(?=\s*(?:,|$|\.|!|\s+and\b|\s+(?i:years?|yrs?|y/o|yo)\b|\s+(?i:now|this\s+year|today|btw|tbh|lol|fyi|haha|if\s+that|in\s+case|by\s+the\s+way)\b))"), _b_age),
    # "everyone calls me Dee", "my friends call me Jojo", "I go by Sam": the name the user is known by.
    (re.compile(r"(?i:everyone|everybody|people|friends|my\s+friends|most\s+people|folks)\s+(?:(?i:just)\s+)?(?i:calls?)\s+(?i:me)\s+(?P<v>[A-Z][a-zà-ÿ'-]+)"), _b_called_name),
    (re.compile(r"(?i:i\s+go\s+by|i\s+prefer\s+to\s+be\s+called|please\s+call\s+me|pls\s+call\s+me|you\s+can\s+call\s+me|just\s+call\s+me)\s+(?P<v>[A-Z][a-zà-ÿ'-]+)"), _b_name),
    # "it's Deirdre on paper", "Deirdre officially": the name on documents.
    (re.compile(r"^(?i:it's|its)\s+(?P<v>[A-Z][a-zà-ÿ'-]+)\s+(?i:on\s+paper|officially|on\s+my\s+passport|legally)\b"), _b_name),
    (re.compile(rf"(?:^|,\s*)(?P<v>\d{{1,2}}|(?i:{A.EN_NUMBER}))\s+(?i:years?\s+(?:old|young)|yrs?\s+old|y/o)"), _b_age),
    # "29, living in Bristol, new here", "41, based in Leeds": an age opening a self-introduction, where one lives after it.
    (re.compile(r"^(?P<v>[1-9]\d)\s*,\s*(?=(?i:living|based|from|originally|currently|married|single|recently|newly|mum|mom|dad|mother|father|male|female|m|f|he/him|she/her|they/them)\b)"), _b_age),
    (re.compile(r"(?i:birthday|b-day|bday)(?:'s|\s+is|\s*:)?\s*(?:(?i:on)\s+)?(?P<v>(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?(?:\s+of)?\s+[A-Za-z]+|[A-Za-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}/\d{1,2})"), _b_date("user.birthday")),
    # "my birthday是10月3号": a code-switched copula before a Chinese date.
    (re.compile(r"(?i:my\s+(?:birthday|bday|b-day))\s*(?:是|在)\s*(?P<v>(?:\d{1,2}|[一二三四五六七八九十]{1,3})月(?:\d{1,2}|[一二三四五六七八九十]{1,3})(?:号|日)|农历[^，。,.]{2,8})"), lambda m, c: [_f("user.birthday", m.group("v"))]),
    (re.compile(r"(?i:my\s+birthday)\s+(?P<v>(?i:today|tomorrow))|(?i:it's\s+(?:actually\s+)?my\s+birthday)\s+(?P<w>(?i:today))"), lambda m, c: [_f("user.birthday", (m.group("v") or m.group("w")).lower())]),
    (re.compile(r"(?:(?i:our|my)\s+(?:\d+(?:st|nd|rd|th)\s+)?(?:(?i:wedding|dating|engagement)\s+)?)?(?i:anniversary)\s+(?i:is|'s|:)\s+(?:(?i:on)\s+)?(?P<v>[^,.;!?]+?)(?=\s*(?:,|$|\.|!|\s+(?:so|and|dont|don't|if)\b))"), _b_anniversary),
    (re.compile(r"(?i:i'm|im|i\s+am)\s+(?P<v>[A-Z][a-zà-ÿ'-]+(?:\s+[A-Z][a-zà-ÿ'-]+)?)(?=\s*,\s*\d)"), _b_name),
    # A self-introduction as a list ("Aisha, 32, accountant, London", "I'm Tomás, 31, from …"):
    # a capitalised name, then an age, each between commas.
    (re.compile(r"^(?P<v>[A-Z][a-zà-ÿ'-]+(?:\s+[A-Z][a-zà-ÿ'-]+)?)(?=\s*,\s*\d{1,2}\s*(?:,|$))"), _b_name),
    (re.compile(r"(?:^|(?<=\s)(?i:i'm|im|i\s+am)\s+|^(?i:i'm|im|i\s+am)\s+)[A-Z][a-zà-ÿ'-]+(?:\s+[A-Z][a-zà-ÿ'-]+)?\s*,\s*(?P<v>\d{1,2})(?=\s*(?:,|$|\.))"), _b_age),
    (re.compile(r"(?i:birthday|bday|b-day)\b[^,]{0,20},\s*(?P<v>\d{1,2})(?!\s*(?:st|nd|rd|th|/|:|am|pm))\b"), _b_age),
    # "Nadia here", "hi, Tom here!": a name and "here" open the turn.
    (re.compile(r"^(?:(?i:hi|hey|hello|hiya|ok|okay)[,!\s]+)?(?P<v>[A-Z][a-zà-ÿ'-]+)\s+(?i:here)\b(?!\s+(?:is|are|in|at))"), _b_name),
    # Turning an age is a birthday when it is dated: "turning 41 next week", "just hit 27 yesterday".
    (re.compile(rf"(?i:turning|turn|turned|hit|hitting|hits)\s+(?P<n>{A.EN_NUMBER})\s+(?P<v>(?i:{_RELATIVE_DAY}|{DATE_SPAN}))\b"),
     lambda m, c: [_f("user.birthday", tidy_value(m.group("v")))]),
    (re.compile(rf"(?i:turning|hit|hitting|just\s+hit|about\s+to\s+turn|gonna\s+turn|going\s+to\s+turn)\s+(?P<v>{A.EN_NUMBER})\b(?!\s*(?i:min|mins|minutes|hours|%|am|pm|degrees|km|miles|k\b|followers|subs|days|weeks|steps|months|(?:years?|yrs?)\s+(?:at|in|with|of|sober|clean|together|married|on|since)\b))"), _b_age),
    (re.compile(r"(?i:as\s+an?|i'm\s+an?|im\s+an?|i\s+am\s+an?)\s+(?P<v>\d{1,2})[- ](?i:year|yr)s?[- ](?i:old)"), _b_age),
    (re.compile(rf"(?i:born)\s+(?i:on)\s+(?P<v>(?i:{_HOLIDAYS}))"), _b_date("user.birthday")),
    (re.compile(r"(?i:my|it's\s+my|its\s+my)\s+(?i:bday|b-day|birthday)\s+(?P<v>(?i:today|tomorrow))"), lambda m, c: [_f("user.birthday", m.group("v").lower())]),
    (re.compile(r"(?i:for\s+my|on\s+my)\s+(?i:bday|b-day|birthday)\s+(?P<v>(?i:next\s+\w+|this\s+\w+|tomorrow|today|on\s+\w+day))\b"), lambda m, c: [_f("user.birthday", tidy_value(m.group("v")))]),
    # "we're 10 years married today", "we met on 14 Feb 2016, so that's our anniversary".
    (re.compile(r"(?:\w+\s+)(?i:years?|months?)\s+(?i:married|together)\s+(?P<v>(?i:today|tomorrow|this\s+\w+|next\s+\w+|on\s+\w+day))\b"),
     lambda m, c: [_f("user.anniversary", tidy_value(re.sub(r"(?i)^on\s+", "", m.group("v"))), type="wedding" if re.search(r"(?i)married", m.group()) else None)]),
    (re.compile(rf"(?i:met|got\s+together|started\s+dating|first\s+date\s+was)\s+(?i:on)\s+(?P<v>(?i:{DATE_SPAN}))(?=[^.;!?]*\b(?i:anniversary)\b)"), _b_anniversary),
    (re.compile(r"(?i:my)\s+(?i:bday|b-day|birthday)(?:'s|\s+is|\s+falls)\s+(?:(?i:on)\s+)?(?P<v>(?i:today|tomorrow|next\s+\w+|this\s+\w+|on\s+\w+day|\w+day))\b"), lambda m, c: [_f("user.birthday", tidy_value(m.group("v")))]),
    (re.compile(rf"(?i:birthday|bday|b-day)(?:'s|\s+is|\s+falls)?\s+(?:(?i:on)\s+)?(?P<v>(?i:{DATE_SPAN}))"), _b_date("user.birthday")),
    # "celebrate our anniversary on the 5th of May", "anniversary falls on Christmas Eve".
    (re.compile(rf"(?i:anniversary)(?:\s+(?i:with|w/)\s*[A-Z][a-z]+)?(?:\s*(?i:'s)|\s+(?i:is|falls|lands|was))?(?:\s+(?i:coming\s+up|coming))?\s+(?:(?i:on)\s+)?(?P<v>(?i:{DATE_SPAN}|today|tomorrow|next\s+\w+|this\s+\w+|(?<=on\s)(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?<=is\s)(?:mon|tues|wednes|thurs|fri|satur|sun)day))"), _b_anniversary),
    (re.compile(rf"(?i:got\s+married|were\s+married|married|tied\s+the\s+knot|got\s+hitched)\s+(?i:on|in|since)\s+(?P<v>[^.;!?]{{0,30}}?(?i:{DATE_SPAN}))"), _b_date("user.anniversary", type="wedding")),
    # "been together since Valentine's Day 2017", "dating since last October": the day a couple counts from.
    (re.compile(rf"(?i:together|dating|going\s+out|a\s+couple|an\s+item|seeing\s+each\s+other)\s+(?i:since)\s+(?P<v>(?i:{DATE_SPAN}|(?:last|this)\s+(?:{_MONTHS}|spring|summer|autumn|fall|winter)|{_MONTHS}\s+\d{{4}}|\d{{4}}))"), _b_together),
    # "celebrating 20 years of marriage on Saturday", "celebrate 5 years together tomorrow".
    (re.compile(rf"(?i:celebrat\w*)\s+(?:\w+\s+){{1,2}}(?i:years?|months?)\s+(?i:of\s+marriage|married|together|of\s+dating)\s+(?:(?i:on)\s+)?(?P<v>(?i:{DATE_SPAN}|today|tomorrow|next\s+\w+|this\s+\w+|\w+day))\b"),
     lambda m, c: [_f("user.anniversary", tidy_value(m.group("v")), type="wedding" if re.search(r"(?i)marri", m.group()) else None)]),
    # "tomorrow is 3 years since my husband and I started dating": the date the span is counted from.
    (re.compile(r"(?P<v>(?i:today|tomorrow|next\s+\w+day|this\s+\w+day))\s+(?i:is|marks|will\s+be)\s+(?:\w+\s+){1,2}(?i:years?|months?)\s+(?i:since)\s+.{0,40}?(?:(?i:started\s+dating|got\s+married|got\s+together|met|first\s+date)|(?i:we|my\s+(?:husband|wife|partner|girlfriend|boyfriend|fianc[eé]e?))\s*$)"),
     lambda m, c: [_f("user.anniversary", m.group("v").lower(), type="wedding" if re.search(r"(?i)married", m.group()) else None)]),
    (re.compile(r"^(?i:name\s+is|name's|the\s+name's)\s+(?P<v>[A-Z][a-zà-ÿ'-]+)"), _b_name),
    # "hey it's Chloe again", "this is Sam here": the user names themself to open a turn.
    (re.compile(r"^(?:(?i:hi|hey|hello|hiya|ok|okay)[,!\s]+)?(?i:it's|its|this\s+is)\s+(?P<v>[A-Z][a-zà-ÿ'-]+)\s+(?i:again|here)\b(?!\s+(?:is|are|in|at))"), _b_name),
    # "English name's Jason, 中文名字是王杰", "my Chinese name is 陈美琳", "full name's Ravindra": each name said
    # with its kind is a name of its own (FACTS.md: an English and a Chinese name are two facts).
    (re.compile(rf"(?:^|(?<=\s))(?:(?i:my|the)\s+)?(?i:english|chinese|mandarin|cantonese|korean|japanese|hindi|tamil|arabic|hebrew|"
                rf"christian|given|first|full|real|legal|birth|proper|baptismal)\s+(?i:name)(?:'s|\s+(?i:is)|\s*:)\s+(?:(?i:actually|just)\s+)?{_NAME}"), _b_name),
]
