"""Conditional preferences about topics the lexicon does not name, read from the frame of the sentence.

"Aisle seat for me, except on long-haul flights where I'd rather have the window", "空调平时开26度就行，家里有
老人来的时候调到28度", "Reply in English by default, but if I write to you in Chinese, answer in Chinese": a
general clause and a condition frame (unless / except / only when / but if / when / otherwise, 除非 / 除了 /
只有…才 / …的时候 / …的话 / 其他时候 / …以内就…) whatever the topic. Each clause is cut into what the condition
says and what the preference says; the values and the condition's words are read from the clause as said
(fillers, the frame's own words and the topic's noun taken off). The topic names the key: a word of
`lexicon.GENERIC_TOPICS` when one is said, else the general clause's own noun.

Used by parser.py for a sentence in which no lexicon topic says a value. It yields nothing for a sentence
about someone else ("My sister always takes the window seat unless…"), a prediction or a threat ("除非堵车，
不然我十分钟就到", "I'll be in the big room"), or one that asks nothing of the assistant ("除非下雨，我都去跑步").
"""
from __future__ import annotations

import re

from layers.long_term.conditions.lexicon import (
    GENERIC_CONDITION_KINDS,
    GENERIC_TOPIC_NAMES,
    GENERIC_TOPIC_SAID,
    LANGUAGE_CODES,
)
from layers.long_term.conditions.reading import dimensions_heard

GENERAL, EXCEPT, ONLY, WHEN, OTHERWISE = "general", "except", "only", "when", "otherwise"

_CUT = re.compile(r"[,，;；、]")
_OTHER_PERSON = re.compile(r"^\s*(?:my\s+(?:sister|brother|mom|mum|mother|dad|father|wife|husband|son|daughter|friend|"
                           r"boss|kids?|partner|colleague|parents)|he|she|they|his|her|their)\b"
                           r"|^\s*(?:我(?:妈|爸|姐|妹|哥|弟|老婆|老公|朋友|同事|儿子|女儿)|他|她|他们|她们)", re.I)
_PREDICTION = re.compile(r"\b(?:i'll|i will|i'm going to|we'll|we will)\s+(?:be|arrive|get|come|leave|complain|call)\b"
                         r"|\bnext\s+time\b|下次|就到|就来了|就直接|投诉", re.I)
# What asks the assistant for something (a request or a stated preference), in the clauses of the frame.
_ASKS = re.compile(r"\b(?:for\s+me|give\s+me|make\s+it|book|reply|answer|respond|use|i'd\s+rather|i\s+would\s+rather|"
                   r"i\s+(?:prefer|want|like|love|need)|i'd\s+like|should|my\s+usual|by\s+default|"
                   r"(?:are|is)\s+(?:fine|ok(?:ay)?)|please|set|turn|order|send|get\s+me|take\s+me|put|keep|always|usually|"
                   r"make\s+them|let\s+me|wake\s+me|show|display|pick|choose|play|tip)\b"
                   r"|要|给我|帮我|订|用|调|开|刷|别|不要|就行|尽量|默认|一般|坐|骑|打车|推送|放|换成|改成|改用|来一?[杯份碗]"
                   r"|推荐|选|叫|留|剪|买|点|可以|送|转", re.I)
# "I always run in the morning": what the user does, not what the assistant is asked to do
_HABIT = re.compile(r"^\s*i\s+(?:always|usually|often|normally|generally)\s+(?!want|like|prefer|need|tip|take\s+my)"
                    r"|^\s*我(?:都|每天|经常|一般都)(?:去|会)", re.I)
# A condition said at the end of a clause ("Wake me at 7 on weekdays", "closed after sunset"): times and seasons.
_TRAILING_WHEN = re.compile(r"\s(?P<cond>(?:on|in|at|during|after|before)\s+(?:the\s+)?(?:weekdays?|weekends?|mornings?|"
                            r"afternoons?|evenings?|nights?|sunset|sunrise|dark|winter|summer|spring|autumn|fall|"
                            r"holidays?|workdays?|\d{1,2}\s*(?:am|pm)))\s*$", re.I)

_ZH_EXCEPT = re.compile(r"^(?:但是|但|不过|可是)?(?:除非是?|除了)")
_ZH_ONLY = re.compile(r"^(?:但是|但|不过|可是)?(?:只有|只在|仅在|仅当)")
_ZH_IF = re.compile(r"^(?:但是|但|不过|可是)?(?:如果是?|要是|假如|万一)")
_ZH_OTHERWISE = re.compile(r"^(?:其他时候|其余时候|别的时候|其它时候|否则|不然|其他情况)")
_ZH_THEN = re.compile(r"的时候|时候|的话|(?<=以内|以上|以下|之前|之后|以后)就|才")
_ZH_BUT = re.compile(r"^(?:但是|但|不过|可是)")
_EN_EXCEPT = re.compile(r"^(?:but\s+)?(?:unless|except(?:\s+(?:when|if|for|on|during|in|at))?|other\s+than|apart\s+from)\b",
                        re.I)
_EN_ONLY = re.compile(r"^(?:but\s+)?only\s+(?:when|if|on|for|during|in|at|after|before)\b", re.I)
_EN_IF = re.compile(r"^(?:but\s+|and\s+)?(?:if|when(?:ever)?|while|during|after|before|on|in)\b|^but\s+for\b", re.I)
_EN_OTHERWISE = re.compile(r"^(?:otherwise|other\s+times|the\s+rest\s+of\s+the\s+time|any\s+other\s+time|else)\b", re.I)
_EN_BUT = re.compile(r"^(?:but|though|however)\b\s*", re.I)
_EN_MID = re.compile(r"\s(?P<marker>unless|except(?:\s+(?:when|if|for|on))?|only\s+(?:when|if)|if|when(?:ever)?)\s", re.I)
# Where the condition stops and what it asks for begins, inside one English clause.
_EN_SPLIT = re.compile(r"\s(?:where|then|in\s+which\s+case|so)\s|\s(?=(?:make|give|book|get|answer|reply|use|take|send|"
                       r"order|put|set|turn|switch|i'd|i\s+would|i\s+want|i\s+prefer|please)\b)", re.I)
_EN_THEN = re.compile(r"^(?:then|so|and)\b\s*", re.I)

_EN_FILLER = re.compile(r"\b(?:my\s+usual\s+is|let\s+me|wake\s+me|me|my|i\s+(?:like|love|need|always|usually)|should(?:\s+be)?|always|usually|"
                        r"then|so|i'd\s+rather(?:\s+have)?|i\s+would\s+rather(?:\s+have)?|i\s+prefer|i\s+want|"
                        r"give\s+me|make\s+it|book(?:\s+me)?|answer|reply|respond|for\s+me|for\s+my\s+\S+|"
                        r"by\s+default|(?:are|is)\s+(?:fine|ok(?:ay)?)|please|the|an?|one|use|get|order|it's|it\s+is|"
                        r"in)\b", re.I)
_COND_EN_FILLER = re.compile(r"^(?:(?:on|in|at|for|during|it's|it\s+is|i'm|i\s+am|i|the|a|an|when|if|there\s+are|"
                             r"there's)\s+)+|\s+(?:flights?|trips?|days?|times?|people\s+are\s+coming|are\s+coming|"
                             r"is\s+coming|people)$", re.I)
_COND_ZH_FILLER = re.compile(r"^(?:是|在|去|家里有|家里|有|带着?|我)|(?:来|的|出去玩|出门)$")


def _lang(text: str) -> str:
    return "zh" if re.search(r"[\u4e00-\u9fff]", text) else "en"


def _piece(text: str) -> tuple[str, str, str] | list[tuple[str, str, str]]:
    """(kind, what the condition says, what the preference says) of one clause; two of them for "X unless C"."""
    text = text.strip().rstrip(".!。！")
    if _lang(text) == "zh":
        for kind, marker in ((EXCEPT, _ZH_EXCEPT), (ONLY, _ZH_ONLY), (WHEN, _ZH_IF), (OTHERWISE, _ZH_OTHERWISE)):
            found = marker.match(text)
            if found:
                rest = text[found.end():]
                if kind == OTHERWISE:
                    return kind, "", rest
                then = _ZH_THEN.search(rest)
                return (kind, rest[:then.start()], rest[then.end():]) if then else (kind, rest, "")
        then = _ZH_THEN.search(text)
        if then and then.start() > 0:
            return WHEN, _ZH_BUT.sub("", text[:then.start()]), text[then.end():]
        return GENERAL, "", _ZH_BUT.sub("", text)
    for kind, marker in ((EXCEPT, _EN_EXCEPT), (ONLY, _EN_ONLY), (OTHERWISE, _EN_OTHERWISE), (WHEN, _EN_IF)):
        found = marker.match(text)
        if found:
            if kind == WHEN:
                # "if I write to you in Chinese": the marker goes; "after 3pm", "on weekends": it is the condition
                rest = re.sub(r"^(?:but|and)\s+", "", text, flags=re.I)
                rest = re.sub(r"^(?:if|when(?:ever)?|while|for)\s+", "", rest, flags=re.I)
            else:
                rest = text[found.end():].strip()
            if kind == OTHERWISE:
                return kind, "", rest
            split = _EN_SPLIT.search(rest)
            return (kind, rest[:split.start()], rest[split.end():]) if split else (kind, rest, "")
    bare = _EN_BUT.sub("", text)
    mid = _EN_MID.search(bare)
    if mid:
        marker, before = mid.group("marker").lower(), bare[:mid.start()]
        if marker.startswith(("unless", "except")):
            # "I always take the stairs unless it's above the 5th floor": the rule, then its exception
            return [(GENERAL, "", before), (EXCEPT, bare[mid.end():], "")]
        only = marker.startswith("only") or re.match(r"\s*only\b", before, re.I)
        return [(ONLY if only else WHEN, bare[mid.end():], re.sub(r"^\s*only\s+", "", before, flags=re.I))]
    return GENERAL, "", bare


_ZH_ASK_VERB = re.compile(r"调到|调成|换成|改成|推荐|要|用|订|开|刷|坐|选|叫|买|点|留|剪|是")
_ZH_EDGE = re.compile(r"^(?:我|一般|平时|默认|尽量|给我|帮我|都|就|也|还是)+|(?:就行|就好|就可以|吧|了|的|呢)+$")


def _value(text: str, topic_words: re.Pattern | None) -> str:
    """What a clause asks for, as said: after its verb ("我一般要冰美式" → 冰美式, "刷信用卡" → 信用卡, "开26度就行"
    → 26), without its fillers and the topic's own noun ("Aisle seat for me" → aisle)."""
    if _lang(text) == "zh":
        number = re.search(r"(\d+(?:\.\d+)?)\s*度", text)
        if number:
            return number.group(1)
        text = re.sub(r"[^\u4e00-\u9fffA-Za-z0-9]", "", text)
        if topic_words is not None:
            text = re.sub(rf"^(?:{topic_words.pattern})", "", text)
        # after the last verb that leaves a word of its own ("信用卡" keeps its 用)
        cut = [m.end() for m in _ZH_ASK_VERB.finditer(text) if len(text) - m.end() >= 2]
        if cut and not re.search(r"别|不要|不", text):
            text = text[cut[-1]:]
        previous = None
        while previous != text:
            previous, text = text, _ZH_EDGE.sub("", text)
        # the topic's head noun at the end only ("高楼层" → 高; "支付宝" keeps its 支付)
        stripped = re.sub(rf"(?:{topic_words.pattern})$", "", text) if topic_words else text
        return stripped if len(stripped) >= 2 or re.fullmatch(r"[高低大小冷热暖白]", stripped) else text
    words = _EN_FILLER.sub(" ", text)
    stripped = topic_words.sub(" ", words) if topic_words is not None else words
    tidy = [re.sub(r"\s+", " ", re.sub(r"[^\w\s'-]", " ", t)).strip().lower() for t in (stripped, words)]
    value = tidy[0] or tidy[1]
    return LANGUAGE_CODES.get(value, value)  # a language is stored as its code ("answer in Chinese" → zh)


def _condition_value(text: str) -> str:
    text = text.strip()
    if _lang(text) == "zh":
        previous = None
        while previous != text:
            previous, text = text, _COND_ZH_FILLER.sub("", text)
        return text
    previous = None
    while previous != text:
        previous, text = text, _COND_EN_FILLER.sub("", text).strip()
    return text


def _condition(text: str, topic_words: re.Pattern | None) -> dict | None:
    """{dimension: [value]}: the condition's own words, the dimension named by what they are about (a time, a
    season, the company, …; `context` when nothing says), else the lexicon's dimensions ("on weekends")."""
    if topic_words is not None:
        text = topic_words.sub("", text) if _lang(text) == "zh" else topic_words.sub(" ", text)
    language = re.search(r"\bin\s+(" + "|".join(n for n in LANGUAGE_CODES if n.isascii()) + r")\b|用(中文|英文|英语|日语)",
                         text, re.I)
    kind = next((name for name, pattern in GENERIC_CONDITION_KINDS if pattern.search(text)), None)
    if language:
        return {"input_language": [LANGUAGE_CODES[(language.group(1) or language.group(2)).lower()]]}
    known = dimensions_heard(text)
    if known and kind is None:
        return {d: sorted(v) for d, v in known.items()}
    value = _condition_value(text)
    return {kind or "context": [value]} if value else None


def _topic(sentence: str, general: str, values: tuple[str, ...] = ()) -> tuple[str | None, re.Pattern | None]:
    # The topic's own noun first ("Aisle seat", "空调"), then what it is about ("坐高铁…靠窗", "骑车…地铁").
    # The general clause's topic before one named only in an exception ("早餐一般要豆浆油条…周末要咖啡").
    for table in (GENERIC_TOPIC_NAMES, GENERIC_TOPIC_SAID):
        for text in (general, sentence):
            for slug, pattern in table.items():
                if pattern.search(text):
                    return f"user.preference.{slug}", GENERIC_TOPIC_NAMES[slug]
    subject = re.match(r"\s*(?:my\s+|the\s+)?([a-z][a-z-]{2,})\s+(?:should|are|is|must)\b", general, re.I)
    liked = re.search(r"\b(?:like|love|want|need|prefer)\s+(?:my|the|a|an)\s+([a-z][a-z-]{2,})\b", general, re.I)
    words = [w for w in re.findall(r"[a-z][a-z-]{2,}", general.lower()) if not _EN_FILLER.fullmatch(w)]
    noun = (subject or liked).group(1).lower() if (subject or liked) else words[-1] if words else None
    if noun:
        slug = re.sub(r"(?<=[a-z]{3})(?:ies)$", "y", noun)
        slug = re.sub(r"(?<=[a-z]{3})s$", "", slug)
        return f"user.preference.{slug}", re.compile(rf"\b{re.escape(noun)}\b", re.I)
    # zh: the topic said first ("我喝茶一般要绿茶", "牛排我一般要…")
    for clause in (general, *values):
        topical = re.match(r"^(?:我(?:喝|吃|用|坐|听|看|穿))?([^给帮请让把我你他她\W\d]{1,3}?)(?:我|平时|一般|默认|都|尽量|就)",
                           clause)
        if topical and re.fullmatch(r"[\u4e00-\u9fff]+", topical.group(1)):
            return f"user.preference.{topical.group(1)}", re.compile(re.escape(topical.group(1)))
    # zh: the object of the clause's verb, its last two characters the head noun ("推荐电影" → 电影, "订五星级酒店" → 酒店)
    obj = re.search(r"(?:推荐|买|订|要|用|叫|选|喝|吃|看|听|穿)([\u4e00-\u9fff]{2,6}?)(?=[，,。；;的]|一般|$)", sentence)
    if obj:
        return f"user.preference.{obj.group(1)[-2:]}", re.compile(re.escape(obj.group(1)[-2:]) + "$")
    return None, None  # no noun to name it: left to the LLM extractor


def _for_split(text: str) -> tuple[str, str]:
    """"for work calls use Zoom" → ("work calls", "use Zoom"); "for family calls" → ("family calls", "")."""
    rest = re.sub(r"^\s*for\s+", "", text, flags=re.I)
    split = _EN_SPLIT.search(rest)
    return (rest[:split.start()], rest[split.end():]) if split else (rest, "")


def frame_variants(sentence: str) -> list[tuple[str, str, dict | None]]:
    """(memory_key, value, condition or None) of the general preference and its exceptions that `sentence`
    states in a condition frame, or [] (see the module's docstring for what yields nothing)."""
    if _OTHER_PERSON.search(sentence) or _PREDICTION.search(sentence):
        return []
    pieces = []
    for part in _CUT.split(sentence):
        if part and part.strip():
            read = _piece(part)
            pieces += read if isinstance(read, list) else [read]
    # "For work calls use Zoom; for family calls, FaceTime": parallel "for …" clauses are conditions.
    if sum(bool(re.match(r"\s*for\s+\w", p[2], re.I)) for p in pieces if p[0] == GENERAL) >= 2:
        pieces = [(WHEN, *_for_split(value)) if kind == GENERAL and re.match(r"\s*for\s+\w", value, re.I)
                  else (kind, cond, value) for kind, cond, value in pieces]
    # A time at the end of a clause is its condition only where no exception or "otherwise" frames the rule
    # ("Send me the summary at 8 am, except on Mondays…": 8 am is what the rule says).
    if len(pieces) >= 2 and not any(kind in (EXCEPT, ONLY, OTHERWISE) for kind, _, _ in pieces):
        for index, (kind, cond, value) in enumerate(pieces):
            trailing = _TRAILING_WHEN.search(" " + value) if kind == GENERAL else None
            if trailing:  # "Wake me at 7 on weekdays, but let me sleep until 9 on weekends"
                pieces[index] = (WHEN, trailing.group("cond"), (" " + value)[:trailing.start()].strip())
    if not any(kind != GENERAL and cond.strip() for kind, cond, _ in pieces):
        return []
    general_text = ""
    conditional: list[list] = []  # [kind, condition text, value text]
    for kind, cond, value in pieces:
        if kind == OTHERWISE:
            general_text = general_text or value
            continue
        if kind != GENERAL:
            conditional.append([kind, cond, value])
            continue
        pending = conditional[-1] if conditional and not conditional[-1][2].strip() else None
        if pending is not None:
            said_again = pending[1].strip()[-2:] in value
            consequence = bool(_EN_THEN.match(value)) or value.startswith(("就", "那就", "那"))
            if consequence or said_again or pending[0] != EXCEPT or general_text:
                # "除非是冬天，冬天要热的", "unless …, then the big one", "if I write in Chinese, answer in Chinese"
                pending[2] = _EN_THEN.sub("", value)
                pending.append(consequence)
                continue
            if _ASKS.search(value):
                general_text = value  # "除了快递的通知，晚上八点以后都别给我推送": the rule the exception is from
        elif not general_text and _ASKS.search(value):
            general_text = value  # what asks for something; a reason ("我青霉素过敏", "方便进出") does not
    # Each exception asks for something itself ("给我订靠过道的", "make it decaf"), follows "then" / 就, or
    # allows what the general rule forbids; "我开车的时候多" asks nothing.
    # A clause parallel to one that asks ("for work calls use Zoom; for family calls, FaceTime") asks the same.
    parallel = len(conditional) >= 2 and any(_ASKS.search(c[2]) for c in conditional)
    conditional = [c for c in conditional if _ASKS.search(c[2]) or c[3:] == [True]
                   or (parallel and c[0] == WHEN and c[2].strip())
                   or (c[0] == EXCEPT and not c[2].strip() and general_text and not _HABIT.search(general_text))]
    # A preference with an exception, or two conditions set against each other ("三公里以内就骑车，再远的话坐地铁");
    # one "when" alone ("开药的时候记得避开头孢") is an instruction, not a conditional preference.
    if not conditional or (not general_text and len(conditional) < 2 and conditional[0][0] != ONLY):
        return []
    key, topic_words = _topic(sentence, general_text or conditional[0][2], tuple(c[2] for c in conditional))
    if key is None:
        return []
    out: list[tuple[str, str, dict | None]] = []
    general = _value(general_text, topic_words) if general_text else ""
    for kind, cond, value_text, *_ in conditional:
        condition = _condition(cond, topic_words)
        if not condition:
            continue
        value = _value(value_text, topic_words) if value_text.strip() else ""
        if not value and kind == EXCEPT and general:
            # "除了快递的通知，晚上八点以后都别给我推送": what the general rule forbids is allowed; what it asks for is
            # not ("… unless it's above the 5th floor")
            negative = re.search(r"\b(?:no|not|never|don'?t|avoid)\b|别|不", general_text, re.I)
            value = "allowed" if negative else (f"not {general}" if _lang(general) == "en" else f"不{general}")
        if value and kind == ONLY and not general:
            general = f"not {value}" if _lang(value) == "en" else f"不{value}"
        if value:
            out.append((key, value, condition))
    if not out:
        return []
    if general and general not in {v for _, v, _ in out}:
        out.insert(0, (key, general, None))
    return out
