"""What a user turn asks of reminders: create, cancel, amend, or an action done now (see __init__)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from layers.reminders.parser.en import read_en
from layers.reminders.parser.recurrence import WEEKDAYS
from layers.reminders.parser.when import When, hour_of_day, when_resolve
from layers.reminders.parser.zh import read_zh

CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True)
class ReminderIntent:
    kind: str                       # create | cancel | amend | action
    text: str = ""                  # create: what to remind of; cancel/amend: words naming the target
    due_at: datetime | None = None  # create / amend: the new time (UTC)
    recurrence: str = ""
    shift: timedelta | None = None  # amend: move the current time by this much instead
    verbs: tuple[str, ...] = ()     # action: the canonical verbs done now
    # amend: only a time of day was said ("改到4点"): (hour, minute, [24-hour candidates]) on the
    # reminder's own day, nearest its current time
    clock: tuple | None = None
    objects: tuple[str, ...] = field(default=())


# ---- Chinese -------------------------------------------------------------------------------------
ZH_TRIGGER = re.compile(r"(?:记得|别忘了|不要忘了|到时候?|帮我|麻烦你?|请)?\s*(?:提醒(?:一下)?我|提醒下我|提醒我们|"
                        r"叫我|喊我|叫醒我|通知我|告诉我一声|跟我说一声|提个醒|设(?:个|一个|置)?(?:提醒|闹钟)|"
                        r"定(?:个|一个)?闹钟|提醒一下(?![他她它]))")
ZH_SCHEDULED_VERB = re.compile(r"打开|关掉|关闭|关上|开启|启动|播放|调到|调成|拉开|拉上|开始|停止|暂停|开一下|关一下|"
                               r"再开|再关|(?<![公离])开(?![心会始玩车])|(?<![相机])关(?![系于心注])")
ZH_CANCEL = re.compile(r"(?:别|不用|不要|不必|无需|没必要|用不着|甭)(?:再)?提醒(?:我)?(.*?)(?:了|啦)?[。！!，,]?$|"
                       r"取消(?:掉)?(?:那个|这个|刚才的?|之前的?|上一个|所有的?)?(.*?)(?:的)?(?:提醒|闹钟)|"
                       r"(?:删掉|删除|去掉)(?:那个|这个|刚才的?)?(.*?)(?:的)?(?:提醒|闹钟)|(?:提醒|闹钟)(?:取消|不要|删)了?")
ZH_AMEND = re.compile(r"(?:改到|改成|改为|换到|换成|挪到|调到|推到|推迟到|延后到|延迟到|提前到)|"
                      r"(推迟|延后|延迟|往后推|晚|提前|早)\s*([0-9零一二两三四五六七八九十半]+\s*个?\s*(?:半)?\s*(?:小时|钟头|分钟|天))")
ZH_NOT_FOR_ME = re.compile(r"提醒(?:一下)?(?:他|她|它|他们|她们|你|老板|同事|孩子|妈|爸|[A-Za-z]+)(?!们?提醒)")
ZH_PAST = re.compile(r"提醒过|已经提醒|提醒了(?:他|她|我|你)|昨天.*提醒|上次.*提醒|刚才提醒|之前提醒|被提醒")
ZH_HYPOTHETICAL = re.compile(r"如果|要是|假如|假设|万一|的话|倘若|设想")
ZH_QUESTION_ABOUT = re.compile(r"怎么|如何|什么|哪里|哪儿|为什么|能不能设|可以设.*吗|支持|功能|有没有|是不是|会不会|好用")
ZH_DONE = re.compile(r"现在|马上|立刻|立即|已经|刚刚?|了$|了[。！!，,]|好了|完了|搞定")
ZH_VERBS = [("关", r"关掉|关上|关闭|关了|关"), ("开", r"打开|开启|开了|(?<![离公])开(?![会心始车])"), ("交", r"提交|交了|交"),
            ("打电话", r"打电话|打给|回电话|电话"), ("吃", r"吃"), ("买", r"买"), ("取", r"取|拿"),
            ("发", r"发送|发了|发"), ("浇花", r"浇花|浇水|浇"), ("收", r"收"), ("喝", r"喝"), ("付", r"付|缴|还款|还"),
            ("充电", r"充电|充上"), ("锁", r"锁门|锁上|锁")]
ZH_FILLER = re.compile(r"^(?:[，,。！!、：:\s]|的时候|时候|记得|要|该|再|请|一下|帮我|我要|我得|我|把它|给我|准时|一声|然后|就|得|吧|哦|啊|呀|哈|呢)+|"
                       r"(?:[，,。！!？?、\s~～]|的时候|一下|吧|哦|啊|呀|哈|呢|了|好吗|好不好|可以吗|行吗|嗎|吗|谢谢|一声|哈)+$")
ZH_OBJECT_STOP = re.compile(r"现在|马上|立刻|已经|刚刚?|了|吧|掉|上|我|把|将|它|那个|这个|一下|好|完|给|去|也|都|就|\s")


def _clock_only(when: When) -> tuple | None:
    if when.hour is None or when.names_a_day or when.relative is not None or when.freq:
        return None
    hours = sorted({hour_of_day(when.hour, period=when.period, meridiem=when.meridiem)} if (
        when.period or when.meridiem) else {when.hour % 24, (when.hour + 12) % 24})
    return when.minute, tuple(hours)


def _zh_clean(text: str) -> str:
    previous = None
    while previous != text:
        previous = text
        text = ZH_FILLER.sub("", text).strip()
    return text


def _blank(text: str, when: When) -> str:
    chars = list(text)
    for start, end in when.spans:
        for index in range(start, end):
            chars[index] = " "
    return "".join(chars)


def _zh_verbs(text: str) -> tuple[list[str], list[str]]:
    verbs, objects = [], []
    rest = text
    for canonical, pattern in ZH_VERBS:
        match = re.search(pattern, rest)
        if match:
            verbs.append(canonical)
            # the object after the verb (关灯) or before it (把空调关了, 药我刚吃了)
            tail = ZH_OBJECT_STOP.sub("", rest[match.end():match.end() + 4]).strip()
            head = ZH_OBJECT_STOP.sub("", re.split(r"[，,。！!？?]", rest[:match.start()])[-1][-6:]).strip()
            objects += ([tail[:2]] if tail else []) + ([head[-2:]] if head else [])
            rest = rest[:match.start()] + " " * (match.end() - match.start()) + rest[match.end():]
    return verbs, objects


def _zh_intent(text: str, when: When, due) -> ReminderIntent | None:
    stripped = text.strip()
    cancel = ZH_CANCEL.search(stripped)
    if cancel and not ZH_HYPOTHETICAL.search(stripped) and not re.search(r"[?？]|吗", stripped[-2:]):
        target = _zh_clean(next((group for group in cancel.groups() if group), "") or "")
        return ReminderIntent(kind="cancel", text=target)
    trigger = ZH_TRIGGER.search(stripped)
    question = bool(re.search(r"[?？]\s*$|吗\s*[?？]?\s*$", stripped))
    if ZH_PAST.search(stripped) or ZH_HYPOTHETICAL.search(stripped):
        return None
    if trigger:
        if question and ZH_QUESTION_ABOUT.search(stripped) and not when.found:
            return None
        if ZH_QUESTION_ABOUT.search(stripped) and re.search(r"功能|怎么用|支持|设置在哪", stripped):
            return None
        if due is None:
            return None
        blanked = _blank(stripped, when)
        start, end = trigger.span()
        after, before = _zh_clean(blanked[end:]), _zh_clean(blanked[:start])
        body = re.sub(r"\s+", "", after or before)
        if not body and re.search(r"叫醒|闹钟", trigger.group(0)):
            body = "起床"
        if not body:
            return None
        return ReminderIntent(kind="create", text=body, due_at=due[0], recurrence=due[1])
    if ZH_NOT_FOR_ME.search(stripped) and not trigger:
        return None
    amend = ZH_AMEND.search(stripped)
    if amend and (when.found or amend.group(2)) and not question:
        if amend.group(2):
            shift_when = read_zh(amend.group(2) + "后")
            delta = shift_when.relative or timedelta(0)
            sign = -1 if amend.group(1) in ("提前", "早") else 1
            return ReminderIntent(kind="amend", shift=sign * delta)
        if due is not None:
            return ReminderIntent(kind="amend", due_at=due[0], recurrence=due[1], clock=_clock_only(when))
    future_time = when.found and not re.fullmatch(r"\s*", _blank(stripped, when)) and (
        when.relative or when.names_a_day or when.hour is not None or when.freq or when.vague or when.period)
    if future_time and due is not None and ZH_SCHEDULED_VERB.search(stripped) and not question:
        body = _zh_clean(re.sub(r"\s+", "", _blank(stripped, when)))
        if body:
            return ReminderIntent(kind="create", text=body, due_at=due[0], recurrence=due[1])
    if not when.found or re.search(r"现在|马上|立刻", stripped):
        verbs, objects = _zh_verbs(stripped)
        if verbs and (ZH_DONE.search(stripped) or len(stripped) <= 8) and not question:
            return ReminderIntent(kind="action", verbs=tuple(verbs), objects=tuple(objects))
    return None


# ---- English -------------------------------------------------------------------------------------
EN_TRIGGER = re.compile(r"\b(?:remind\s+(?:me|us)|set\s+(?:a|an|me\s+a)\s+(?:reminder|alarm)|(?:create|add|make)\s+a\s+"
                        r"reminder|wake\s+me(?:\s+up)?|ping\s+me|nudge\s+me|alert\s+me|notify\s+me|give\s+me\s+a\s+"
                        r"(?:shout|nudge|heads[- ]up|reminder)|don'?t\s+let\s+me\s+forget|make\s+sure\s+i\s+(?:don'?t\s+"
                        r"forget\s+to\s+)?|reminder\s*(?::|to\b|that\b))", re.I)
EN_TRIGGER_TAIL = re.compile(r"^\s*(?:(?:please|pls)\b\s*)?(?:to\b|that\b|about\b|of\b|:)?\s*", re.I)
EN_SCHEDULED_VERB = re.compile(r"\b(?:turn|switch|shut)\s+(?:\w+\s+){0,3}?(?:on|off)\b|\b(?:open|close|start|stop|play|"
                               r"lock|unlock|dim|brighten|water|run)\b", re.I)
EN_CANCEL = re.compile(r"\b(?:never\s*mind|nevermind|forget(?:\s+about)?|cancel|scratch|delete|remove|drop|kill|"
                       r"clear|ditch|skip)\s+(?:the|that|this|my|those|all(?:\s+my)?|it)?\s*(?:last\s+|latest\s+)?"
                       r"(?:reminders?|alarms?)(.*)$|\b(?:don'?t|do\s+not|no\s+need\s+to|you\s+don'?t\s+(?:have|need)\s+"
                       r"to|stop|no\s+longer\s+need\s+to)\s+remind(?:ing)?\s+me\b(.*)$|\bno\s+more\s+reminders?\b(.*)$|"
                       r"\bi\s+don'?t\s+need\s+(?:the|that)\s+reminder\b(.*)$|\b(?:the\s+)?reminder\s+(?:is\s+)?"
                       r"(?:not\s+needed|cancelled|off)\b(.*)$", re.I)
EN_AMEND = re.compile(r"\b(?:change|move|push|reschedule|shift|make|set|bump|switch|update)\s+(?:it|that|the\s+reminder|"
                      r"my\s+reminder|this)\b|\binstead\b|\bactually\b.*\b(?:at|to|for)\b", re.I)
EN_SHIFT = re.compile(r"\b(?:push|move|bump|delay|postpone|shift)\s+(?:it|that|the\s+reminder)?\s*(back|later|out|"
                      r"forward|earlier|up)?\s*(?:by\s+)?((?:half\s+an?|an?|\d+|one|two|three|ten|fifteen|twenty|thirty|"
                      r"a\s+few)\s*(?:minutes?|mins?|hours?|hrs?|days?))\s*(later|earlier|back)?", re.I)
EN_NOT_FOR_ME = re.compile(r"\bremind(?:ed|s|ing)?\s+(?:him|her|them|you|my\s+\w+|[A-Z][a-z]+)\b")
EN_PAST = re.compile(r"\b(?:reminded|was\s+reminding|had\s+a\s+reminder|got\s+a\s+reminder|the\s+reminder\s+(?:went\s+"
                     r"off|came|fired|worked|didn'?t))\b", re.I)
EN_HYPOTHETICAL = re.compile(r"\b(?:if\s+i|if\s+you|what\s+if|would\s+you|suppose|imagine|hypothetically|in\s+case|"
                             r"could\s+you\s+ever|were\s+to)\b", re.I)
EN_ABOUT_FEATURE = re.compile(r"\b(?:how\s+(?:do|does|can|to)|what\s+(?:is|are|does)|do\s+you\s+(?:support|have)|is\s+"
                              r"there|are\s+reminders|can\s+reminders|reminder\s+(?:feature|function|settings?|app)|"
                              r"reminders?\s+work)\b", re.I)
EN_RECALL = re.compile(r"\bremind\s+me\s+(?:what|who|where|how|which|why|whether|if|of\s+(?:your|the\s+name|what)|"
                       r"again\s+what)\b", re.I)
# a thing said to be in the state the action leaves it in ("the pizza is out", "the lights are on now")
EN_RESULT = r"\b(?:is|are|'s|'re)\s+(?:now\s+|already\s+|finally\s+)?"
EN_DONE = re.compile(r"\b(?:now|already|just|done|finished|i'?ve|i\s+have|did|right\s+away)\b|" + EN_RESULT +
                     r"(?:out|off|on|closed|shut|locked|open|paid|sent|charged|watered|fed|done)\b", re.I)
EN_VERBS = [("off", r"\b(?:turn(?:ed|ing)?|switch(?:ed|ing)?|shut(?:ting)?)\s+(?:\w+\s+){0,3}?off\b|\boff\b"),
            ("on", r"\b(?:turn(?:ed|ing)?|switch(?:ed|ing)?)\s+(?:\w+\s+){0,3}?on\b|" + EN_RESULT + r"on\b"),
            ("call", r"\b(?:call(?:ed|ing)?|phon(?:e|ed)|rang|ring)\b"), ("take", r"\b(?:take|took|taken|taking)\b|" + EN_RESULT + r"out\b"),
            ("buy", r"\b(?:buy|bought|pick(?:ed)?\s+up|got)\b"), ("send", r"\b(?:send|sent|email(?:ed)?|text(?:ed)?)\b"),
            ("pay", r"\b(?:pay|paid)\b"), ("water", r"\bwater(?:ed)?\b"), ("submit", r"\b(?:submit(?:ted)?|hand(?:ed)?\s+in)\b"),
            ("close", r"\b(?:close[ds]?|shut)\b"), ("open", r"\bopen(?:ed)?\b"), ("lock", r"\block(?:ed)?\b"),
            ("feed", r"\b(?:feed|fed)\b"), ("charge", r"\bcharg(?:e|ed)\b")]
EN_STOP = {"the", "a", "an", "my", "it", "that", "this", "to", "now", "already", "just", "i", "i've", "have",
           "me", "please", "them", "up", "off", "on", "done", "and", "for", "of", "at", "in", "ok", "okay"}


def en_verbs(text: str) -> tuple[list[str], list[str]]:
    verbs = [canonical for canonical, pattern in EN_VERBS if re.search(pattern, text, re.I)]
    # the objects are what is left once the verbs are gone: "I called Bob" names Bob, not "called"
    rest = text.lower()
    for _canonical, pattern in EN_VERBS:
        rest = re.sub(pattern, " ", rest, flags=re.I)
    words = [word for word in re.findall(r"[a-z']+", rest) if word not in EN_STOP and len(word) > 2]
    return verbs, words


def zh_verbs(text: str) -> tuple[list[str], list[str]]:
    return _zh_verbs(text)


def _en_clean(text: str) -> str:
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"^[\s,.;:!-]*(?:(?:please|pls|can you|could you|hey|ok|okay|and|also|then|so)\b[\s,]*)*", "", text,
                  flags=re.I)
    # prepositions whose object was the time ("set a reminder for [30 minutes from now] to …")
    text = re.sub(r"^(?:(?:for|at|on|by|in|from)\s+)*(?:(?:to|that|about|of)\b|:)?\s*", "", text, flags=re.I)
    # dangling words the time left at the end; not "on"/"in", which end phrasal verbs (turn the heater on)
    text = re.sub(r"(?:\s*\b(?:please|thanks|thank you|ok|okay|and|at|by|for|the)\b)*[\s,.;:!?]*$", "", text,
                  flags=re.I)
    return text.strip(" ,.;:!?")


def _en_intent(text: str, when: When, due) -> ReminderIntent | None:
    stripped = text.strip()
    question = stripped.endswith("?")
    cancel = EN_CANCEL.search(stripped)
    if cancel and not EN_HYPOTHETICAL.search(stripped) and not (question and EN_ABOUT_FEATURE.search(stripped)):
        target = next((group for group in cancel.groups() if group and group.strip()), "")
        target = _en_clean(re.sub(r"^\s*(?:to|about|for|of|that)\b", "", target, flags=re.I))
        return ReminderIntent(kind="cancel", text=target)
    if EN_PAST.search(stripped) or EN_HYPOTHETICAL.search(stripped) or EN_RECALL.search(stripped):
        return None
    trigger = EN_TRIGGER.search(stripped)
    if trigger:
        if EN_ABOUT_FEATURE.search(stripped) and not when.found:
            return None
        if due is None:
            return None
        blanked = _blank(stripped, when)
        after = _en_clean(EN_TRIGGER_TAIL.sub("", blanked[trigger.end():], count=1))
        before = _en_clean(blanked[:trigger.start()])
        body = after or before
        body = re.sub(r"^(?:to|that|about|of)\s+", "", body, flags=re.I)
        if not body and re.search(r"wake|alarm", trigger.group(0), re.I):
            body = "wake up"  # "wake me at 7", "set an alarm for 6am": the alarm is the reminder
        if not body:
            return None
        return ReminderIntent(kind="create", text=body, due_at=due[0], recurrence=due[1])
    if EN_NOT_FOR_ME.search(stripped):
        return None
    shift = EN_SHIFT.search(stripped)
    if shift and not question:
        delta = read_en("in " + shift.group(2)).relative
        if delta:
            direction = (shift.group(1) or shift.group(3) or "later").lower()
            sign = -1 if direction in ("forward", "earlier", "up") else 1
            return ReminderIntent(kind="amend", shift=sign * delta)
    if EN_AMEND.search(stripped) and when.found and due is not None and not question and not when.freq:
        return ReminderIntent(kind="amend", due_at=due[0], recurrence=due[1], clock=_clock_only(when))
    if when.found and due is not None and EN_SCHEDULED_VERB.search(stripped) and not question and not \
            EN_DONE.search(stripped):
        body = _en_clean(_blank(stripped, when))
        if body and re.match(r"(?:please\s+)?(?:turn|switch|shut|open|close|start|stop|play|lock|unlock|dim|"
                             r"brighten|water|run)\b", body, re.I):
            return ReminderIntent(kind="create", text=body, due_at=due[0], recurrence=due[1])
    if not when.found or re.search(r"\bnow\b", stripped, re.I):
        verbs, words = en_verbs(stripped)
        if verbs and (EN_DONE.search(stripped) or len(stripped.split()) <= 4) and not question:
            return ReminderIntent(kind="action", verbs=tuple(verbs), objects=tuple(words))
    return None


def reminder_intent(text: str, *, now: datetime, time_zone: str = "UTC", default_hour: int = 9,
                    vague_delay: timedelta = timedelta(minutes=30), require_time: bool = False) -> ReminderIntent | None:
    """What `text` (one user turn) asks of reminders, read at `now` in `time_zone`; None for nothing.
    `require_time`: None unless the text names a time (a bare "remind me to…" otherwise waits the
    vague delay)."""
    if not text or not text.strip():
        return None
    text = text[:1000]
    try:
        return _intent(text, now=now, zone=ZoneInfo(time_zone), default_hour=default_hour, vague_delay=vague_delay,
                       require_time=require_time)
    except (OverflowError, ValueError):
        return None  # "in 99999999999 days": past any calendar; not a reminder


# Further ahead than this is not a reminder anyone means.
HORIZON = timedelta(days=3660)


def _intent(text: str, *, now: datetime, zone, default_hour: int, vague_delay: timedelta,
            require_time: bool) -> ReminderIntent | None:
    chinese = bool(CJK.search(text))
    normalised = text.translate(str.maketrans("０１２３４５６７８９：", "0123456789:")) if chinese else text
    when = read_zh(normalised) if chinese else read_en(normalised)
    if when.freq == "WEEKLY" and not when.by_days:
        when.by_days = [WEEKDAYS[(when.weekday if when.weekday is not None else now.astimezone(zone).weekday())]]
        when.weekday = None
    due = when_resolve(when, now=now, zone=zone, default_hour=default_hour, vague_delay=vague_delay) \
        if when.found or ZH_TRIGGER.search(normalised) or EN_TRIGGER.search(normalised) else None
    if due is not None and due[0] - now > HORIZON:
        return None
    if due is None and not when.found:
        if require_time:
            return None
        due = (now + vague_delay, "")
    return _zh_intent(normalised, when, due) if chinese else _en_intent(normalised, when, due)
