"""Habits: recurring activities with their time, weekdays and frequency."""
from __future__ import annotations

import re

from layers.formation.extractor import attrs as A
from layers.formation.extractor.rules_en.common import (
    _I,
    _OBJ,
    Candidate,
    _c,
    _f,
    _object,
)
from layers.formation.extractor.text import tidy_value


_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
# "monday wednesday and friday", "mon wed fri": days listed with spaces only, which the weekday reader takes
# one by one; a comma between them lets it read the list.
# ("mon and wed" the reader takes as it is).
_BARE_DAY_LIST = re.compile(rf"(?i)\b({_DAY}|mon|tue|wed|thu|fri|sat|sun)\s+(?=(?:{_DAY}|mon|tue|wed|thu|fri|sat|sun)\b)")


def _days(clause: str) -> list[str] | None:
    # "every weekday I'm up at 5:30": one weekday each time is all five of them.
    clause = re.sub(r"(?i)\b(?:every|each)\s+weekday\b", "weekdays", clause)
    return A.weekdays(_BARE_DAY_LIST.sub(r"\1, ", clause))


# "I swim laps every morning before work, usually around 6": a clock time said is the habit's time,
# before a part of the day ("before work", "morning").
_CLOCK = re.compile(r"(?i)\b(?:at|around|by|about|from|till|until)\s+(?P<t>(?:1[0-2]|0?[1-9])(?::[0-5]\d)?(?:\s*[ap]\.?m\.?)?|(?:1[3-9]|2[0-3]):[0-5]\d)\b"
                    r"(?!\s*(?:%|kg|km|k\b|miles|mph|years?|yrs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|people|times|laps|reps|sets|pages|percent))")


def _habit_time(clause: str) -> str | None:
    said = A.time_of_day(clause)
    if not said and re.search(r"(?i)\b(?:at|during|over|on\s+my)\s+lunch(?:\s*time|\s+break|\s+hour)?\b|\blunchtimes?\b", clause):
        return "lunch"
    if said and re.search(r"\d", said):
        return said
    clock = _CLOCK.search(clause)
    return clock.group("t") if clock else said


def _b_habit(m, clause):
    activity = tidy_value(m.group("v"))
    activity = re.sub(r"(?i)^(?:i\s+|usually\s+|always\s+|go\s+to\s+|go\s+|do\s+|have\s+|=\s*)", "", activity)
    activity = A.EN_FREQ.sub("", activity)
    # "every sunday without fail I'm out for a long run": how faithfully is no part of what.
    activity = re.sub(r"(?i)\b(?:without\s+fail|like\s+clockwork|no\s+matter\s+what|rain\s+or\s+shine|come\s+rain\s+or\s+shine|religiously)\b", " ", activity)
    activity = A.EN_TIME.sub("", activity)
    # The time read for the attribute leaves the value too ("run every morning at 6" -> "run").
    said_time = A.time_of_day(clause)
    if said_time:
        activity = activity.replace(said_time, " ")
    activity = re.sub(r"(?i)\b(?:i've\s+been|i\s+have\s+been|been)\s+|\bfor\s+(?:a|one|two|three|\d+)\s+(?:years?|months?|weeks?)\b", " ", activity)
    activity = re.sub(r"(?i)\b(?:every(?:\s+other)?|on|most|pretty\s+much|always|usually|each|=)\b", " ", activity)
    activity = re.sub(r"(?i)\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\bweekends?\b|\bweekdays?\b|\b(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)(?:/\w+)*\b", " ", activity)
    activity = re.sub(r"(?i)\b(?:for\s+)?(?:half\s+an\s+hour|an\s+hour|\d+\s*(?:min(?:ute)?s?|hours?|hrs?))\b", " ", activity)
    activity = tidy_value(re.sub(r"\s+", " ", activity))
    activity = re.sub(r"(?i)^(?:and|or|&)\s+(?=[a-z]+ing\b)", "", activity)  # "Tues and Thurs climbing": the days' "and"
    activity = re.sub(r"(?i)^(?:are|is)\s+(?:for|my)\s+", "", activity)  # "Sunday evenings are for ringing my grandma"
    # "friday nights are pizza and film night": the day is named as the activity's, the copula is no part of it.
    named_day = re.match(r"(?i)(?:are|is|=)\s+(?:always\s+|usually\s+|strictly\s+)?(?=[a-z])", activity)
    if named_day:
        # "Saturdays are climbing days": the day's name for itself is no part of the activity.
        activity = re.sub(r"(?i)\s+(?:days?|nights?)$", "", re.sub(r"(?i)\s+for\s+(?:me|us)$", "", activity[named_day.end():])) or activity
    activity = re.sub(r"(?i)^(?:(?:and|or|&)\s+)?(?:i've\s+got\s+|i\s+have\s+|i\s+|have\s+|we\s+do\s+(?:an?\s+)?|we\s+have\s+(?:an?\s+)?|we\s+)", "", activity)  # "Tuesdays I have pottery"
    # The activity ends where another clause starts: "… at 6:30 before work so mornings are off limits".
    activity = re.split(r"(?i)\s+(?:with|before|after|lol|haha|so|because|cos|cuz|but|which|since|though)\b|,", activity)[0].strip() or activity
    activity = re.sub(r"(?i)(?:\s+(?:and|or|at|on|&|right|just|straight))+$", "", activity).strip()
    # "call my mum", "go for a run": the activity in the corpus's words, without possessives or light verbs.
    activity = re.sub(r"(?i)^(?:try\s+to|tend\s+to|like\s+to|always|usually)\s+", "", activity)
    activity = re.sub(r"(?i)^(?:go\s+for\s+an?|go\s+to\s+the|go\s+to|have\s+an?|do\s+some|do\s+an?|do(?=\s+[a-z]+$))\s+", "", activity)
    activity = re.sub(r"(?i)\b(?:my|our)\s+", "", activity).strip()
    # "every weekday I'm up at 5:30 to swim before work" -> "swim".
    activity = re.sub(r"(?i)^(?:weekdays?\s+|weekends?\s+)?(?:(?:i'm|im|i\s+am|i\s+get)\s+up\s+(?:early\s+)?)?(?:to\s+)?", "", activity).strip()
    # "I'm up at 5", "I'm at the gym by 6": being somewhere at a time is the habit of going there.
    # "I'm out for a long run", "I'm off for a swim": going out for it is doing it.
    activity = re.sub(r"(?i)^(?:i'm|im|i\s+am)\s+(?:out|off)\s+(?:for\s+(?:an?|my)\s+|(?=[a-z]+ing\b))", "", activity).strip() or activity
    activity = re.sub(r"(?i)^(?:i'm|im|i\s+am)\s+(?:at\s+(?:the\s+)?)?", "", activity).strip() or activity
    if re.search(r"(?i)\b(?:i'm|im|i\s+am)\s+up\b", clause) and activity.lower() == "up":
        activity = "get up"
    elif re.search(r"(?i)\bgo\s+to\s+bed\b", clause) and activity.lower() == "bed":
        activity = "go to bed"
    # "I just love Mondays": a feeling about the day is no activity done on it.
    if re.match(r"(?i)(?:just\s+|really\s+|totally\s+)?(?:love|like|hate|adore|enjoy|dread|miss)\b", activity):
        return []
    # "I check it daily": the pronoun stands for something said before, no activity of its own.
    # "I go there every day at 8:30": a place word that points back (there, here, that place) is none either.
    if re.fullmatch(r"(?i)ugh|lol|ok|okay|yay|meh|oh|hmm|nobody\s+\w+|everyone\s+\w+|[a-z]+\s+(?:it|them|this|that|those|these)", activity) or \
            re.fullmatch(r"(?i)(?:(?:go|head|come|walk|drive|get)\s+)?(?:there|here|it|that|this|that\s+place|this\s+place|the\s+place)", activity):
        return []
    # "take the dog out for a walk": articles do not count towards the length of an activity.
    if not activity or len([w for w in activity.split() if w.lower() not in ("a", "an", "the")]) > 6:
        return []
    return [_f("user.habits", activity, time=_habit_time(clause), weekdays=_days(clause), frequency=A.frequency(clause))]


_PAST_VERBS = {"woke", "went", "got", "came", "left", "ate", "took", "made", "had", "saw", "was", "did", "ran", "slept",
               "sat", "met", "felt", "found", "told", "said", "bought", "brought", "thought", "caught", "flew", "drove",
               "wrote", "spoke", "gave", "lost", "won", "began", "paid", "sent", "spent", "kept", "heard", "fell", "put"}


def _is_habit_clause(clause: str) -> bool:
    # "Mon Wed Fri swimming at the leisure centre 7am": a clause that opens with several weekdays and then an
    # activity (a gerund) names what is done on them, with no date said.
    if re.match(rf"(?i)^(?:(?:{_DAY}|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)s?\s*[,/&]?\s*(?:and\s+)?){{2,}}[a-z]+ing\b", clause) \
            and not re.search(r"(?i)\b(?:tomorrow|tonight|today|yesterday|next|this|last|coming)\b", clause):
        return True
    # "I really should start meditating daily", "I want to start running every morning": a resolution, not a habit.
    if re.search(r"(?i)\b(?:should|ought\s+to|wanna|wish|hope\s+to|(?:want|need|going|plan|planning|trying)\s+to\s+(?:start|get\s+back|begin|try))\b", clause):
        return False
    if re.search(r"(?i)\b(?:on|at|most|every)\s+weekends\b|\bweekend\s+mornings\b|\b(?:every|each)\s+(?:morning|afternoon|evening|night)\b", clause):
        return True
    # "every other weekend I visit my parents", "every other Sunday", "every two weeks", "for 30 minutes a day".
    if re.search(rf"(?i)\bevery\s+other\s+(?:day|week|weekend|month|{_DAY})\b|\bevery\s+(?:two|three|four|couple\s+of|few|\d+)\s+(?:days|weeks|months)\b|"
                 r"\b(?:minutes|an\s+hour|hours)\s+a\s+day\b", clause):
        return True
    # "I try to meditate for 10 minutes before bed": trying to keep a routine is doing it (a resolution to start is not, above).
    usual = re.search(r"(?i)\b(?:usually|normally|typically|always|generally|tend\s+to|religiously|every\s+single|try\s+to)\b", clause)
    # "I always have a coffee at 10", "I usually go to bed around 11": a bare hour after a usual.
    if usual and (A.EN_TIME.search(clause) or A.weekdays(clause) or re.search(r"(?i)\blunch\s*time\b|\bat\s+lunch\b|\bafter\s+work\b|\bbefore\s+(?:work|bed)\b", clause) or re.search(r"(?i)\b(?:at|around|by)\s+(?:1[0-2]|[1-9])(?::[0-5]\d)?\b(?!\s*(?:%|kg|km|mph|years?|minutes?|days?))", clause)):
        return True
    # "I walk the dog at 7am": a first-person present-tense verb at a clock time, with no date said,
    # is what the user does at that time (a dated one is a plan, "I land at 7am tomorrow").
    verb = re.match(r"(?i)^i\s+(?!am\b|'m|will\b|was\b|had\b|have\s+(?:a|an|to)\b|need\b|want\b|think\b|hope\b|wish\b|guess\b)([a-z]+)\b", clause)
    if verb and not re.search(r"ed$", verb.group(1).lower()) and verb.group(1).lower() not in _PAST_VERBS \
            and re.search(r"(?i)\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b", clause) and not A.en_date(clause) \
            and not re.search(r"(?i)\b(?:tomorrow|tonight|today|yesterday|next|this|last)\b", clause):
        return True
    # "I hit the gym monday wednesday and friday": several weekdays with a first-person present verb and no
    # date ("I'm off Monday and Tuesday next week" is a plan).
    if re.search(rf"(?i)\b(?:{_DAY}|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\s*[,/]?\s*(?:and\s+|&\s+)?(?:{_DAY}|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b", clause) and verb and not re.search(r"ed$", verb.group(1).lower()) \
            and verb.group(1).lower() not in _PAST_VERBS and not re.search(r"(?i)\b(?:tomorrow|tonight|today|yesterday|next|this|last|coming)\b", clause):
        return True
    # "Tuesdays and Thursdays I have pottery": a weekday in the plural recurs.
    return bool(A.EN_FREQ.search(clause) or re.search(
        r"(?i)\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|\b(?:every|each)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\bon\s+(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|"
        r"\b(?:mon|tue|wed|thu|fri|sat|sun)/(?:mon|tue|wed|thu|fri|sat|sun)|\bmost\s+weekends\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:mornings|evenings|nights|afternoons)\b|"
        r"\bon\s+weekdays\b|\bevery\s+weekday\b|\bweekday\s+(?:mornings|evenings|nights)\b|"
        r"\bi\s+(?:cycle|bike|walk|run|jog|swim)\s+to\s+work\b|\bevery\s+(?:saturday|sunday|monday|tuesday|wednesday|thursday|friday)\b", clause))


_HABIT_EN = re.compile(
    r"(?P<v>(?:(?i:i)\s+)?(?:(?i:usually|always|normally|try\s+to|like\s+to)\s+)?(?:[a-z]+(?:\s+[a-z']+){0,4}))")


def _legacy_habit(match: re.Match) -> list[Candidate]:
    # "I usually order the pad thai": a taste shown by a habit, kept as a like with lower confidence.
    value = _object(match.group("v"))
    # "I usually read before bed": when, not what.
    if value and re.match(r"(?i)(?:before|after|at|in|on|every|each|during|when|while|with|for|until|till|around|first|late|early)\b", value):
        return []
    return [_c("user.likes", value, 0.7, inferred="habit")] if value else []


# Sentence rules: a first-person subject, a verb, the value.
SENTENCE_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"{_I}\s+(?i:usually|often|always|normally|mostly)\s+(?i:order|eat|drink|buy|watch|listen\s+to|read|play)\s+{_OBJ}"), _legacy_habit),
]


def _b_ritual(m, clause):
    """"my saturday morning ritual is the farmers market": the routine named, with the day and time said before it."""
    activity = re.sub(r"(?i)^(?:the|a|an|my|our)\s+", "", tidy_value(m.group("v")))
    when = m.group("when") or ""
    # "my skincare routine is a mess": a routine without its day or time is no habit said.
    if not activity or len(activity.split()) > 6 or not (_days(when) or _habit_time(when)):
        return []
    return [_f("user.habits", activity, time=_habit_time(when), weekdays=_days(when), frequency=A.frequency(clause))]


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
FACT_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(r"(?i:my|our)\s+(?P<when>(?:[a-z]+\s+){0,3}?)(?i:ritual|routine|tradition)\s+(?i:is|=|:)\s+(?P<v>[^,.;!?]+)"), _b_ritual),
]
