"""Contact preferences: channels and constraints."""
from __future__ import annotations

import re

from layers.formation.extractor.rules_en.common import _f
from layers.formation.extractor.rules_en.languages import _LANGS
from layers.formation.extractor.text import tidy_value

_CHANNELS = (r"e-?mail|emails|texts?|texting|sms|phone\s+calls?|calls?|calling|voice\s+notes?|voice\s+messages?|voice\s+memos?|voicemail|whatsapp|"
             r"wechat|telegram|signal|slack|teams|imessage|messenger|line|discord|zoom|dms?|instagram\s+dms?|"
             r"push\s+notifications?|calendar\s+invites?|messages?|face[- ]to[- ]face|in\s+person|linkedin|gmail|outlook|landline|facetime|skype|viber|kakaotalk|"
             r"wechat|snapchat|twitter\s+dms?|facebook\s+messenger")


# One wording per constraint, so "avoid calling me on Sundays" and "don't call me on Sundays"
# are the same memory: "no calls on Sundays".
_REFUSAL = re.compile(r"(?i)^(?:please\s+|pls\s+)?(?:don't|dont|do\s+not|never|avoid|no)\s+"
                      r"(?P<what>phone\s+calls|call(?:ing|s)?|ring(?:ing)?|phon(?:e|ing)|text(?:ing|s)?|messag(?:e|ing|es)|email(?:ing|s)?)"
                      r"(?:\s+me)?\b")
_REFUSAL_NOUN = {"c": "calls", "r": "calls", "p": "calls", "t": "texts", "m": "messages", "e": "emails"}


class _Picked:
    """A match whose value is the group a rule of several alternatives picked, read as `v` by `_b_contact`."""

    def __init__(self, match, value):
        self.string, self._match, self._value = match.string, match, value

    def group(self, name=0):
        return self._value if name == "v" else self._match.group(name)

    def start(self, *args):
        return self._match.start(*args)


def _b_contact(m, clause):
    # "whatsapp me, i don't use sms": a channel refused before the verb is none the user prefers.
    if re.search(r"(?i)\b(?:don't|dont|do\s+not|never|rarely|hardly(?:\s+ever)?|no\s+longer|can't|cannot|won't|not)\s+(?:\w+\s+)?$", m.string[:m.start()]):
        return []
    value = re.sub(r"(?i)\s+(?:please|pls|plz|thanks|thx)$", "", tidy_value(m.group("v")))
    refusal = _REFUSAL.match(value)
    # "no phone calls" is kept as written; "don't call me", "avoid calling" take its one wording ("no calls").
    if refusal and not re.match(r"(?i)no\s", value):
        value = f"no {_REFUSAL_NOUN[refusal.group('what')[0].lower()]}{value[refusal.end():]}"
    return [_f("user.contact_preference", value)] if value else []


_CLOCK = r"(?:(?i:\d{1,2}(?::\d{2})?\s*(?:am|pm)?|noon|midnight))"


# Fact rules: a predicate pattern and its builder (the subject is checked by the caller).
_VERB_TO_CHANNEL = {"emailed": "email", "texted": "text", "called": "call", "rang": "call", "messaged": "message",
                    "phoned": "call", "whatsapped": "WhatsApp", "dmed": "DM", "dm'd": "DM"}


def _b_channel_verb(m, clause):
    return [_f("user.contact_preference", _VERB_TO_CHANNEL[m.group("v").lower()])]


FACT_RULES: list[tuple[re.Pattern, object]] = [
    # "I'm on WhatsApp, that's easiest": where the user is, said to be the way to reach them.
    (re.compile(rf"(?i:i'm|im|i\s+am)\s+(?:(?i:always|mostly|usually)\s+)?(?i:on)\s+(?P<v>(?i:{_CHANNELS}))\b(?=\s*[,;—–-]\s*(?i:that's|thats|it's|its|which\s+is)\s+(?:(?i:the\s+)?)(?i:easiest|best|quickest|fastest|simplest))"), _b_contact),
    # "please use my work email for anything official", "try my cell first": the address or number the user asks for.
    (re.compile(r"(?i:use|try|reach\s+me\s+on|write\s+to)\s+(?i:my)\s+(?P<v>(?:(?i:work|personal|private|home|office|uni|school)\s+)?(?i:email|e-mail|email\s+address|number|cell|mobile|landline|gmail|outlook|inbox))\b"), _b_contact),
    # "I'd appreciate emails over texts", "I like calls better than texts": the channel ranked first.
    (re.compile(rf"(?i:appreciate|like|love|want|favou?r)\s+(?P<v>(?i:{_CHANNELS}))\s+(?i:over|better\s+than|more\s+than|rather\s+than|instead\s+of)\s+(?i:{_CHANNELS})\b"), _b_contact),
    # "I respond fastest on Telegram", "you'll get a faster answer on WhatsApp", "Teams chat is where I'm most responsive":
    # the channel on which the user answers best.
    (re.compile(rf"(?i:respond|reply|answer|get\s+back|react)\s+(?:(?i:to\s+\w+\s+)?)(?i:fastest|quickest|faster|quicker|best|soonest|most)\s+(?i:on|via|over|through|by)\s+(?P<v>(?i:{_CHANNELS}))\b"
                rf"|(?i:faster|quicker|quickest|fastest|better|best)\s+(?i:answer|reply|response)s?\s+(?i:on|via|over|through|by)\s+(?P<w>(?i:{_CHANNELS}))\b"
                rf"|(?:^|(?<=[\s,]))(?P<x>(?i:{_CHANNELS}))(?:\s+(?i:chat|messages?|dms?))?\s+(?i:is|are|'s)\s+(?i:where)\s+(?i:i'm|im|i\s+am)\s+(?i:most\s+responsive|quickest|fastest|easiest\s+to\s+reach|always|around|active)"),
     lambda m, c: _b_contact(_Picked(m, m.group("v") or m.group("w") or m.group("x")), c)),
    # "keep it to email", "LinkedIn messages are the way", "send stuff to my gmail": the one channel asked for.
    (re.compile(rf"(?i:keep\s+it\s+to|stick\s+to|stick\s+with)\s+(?P<v>(?i:{_CHANNELS}))\b"
                rf"|(?P<w>(?i:{_CHANNELS}))(?:\s+(?i:messages?|dms?|chat))?\s+(?i:is|are|'s)\s+(?i:the\s+way)(?!\s+(?i:to\s+go\s+for\s+(?:him|her|them)))\b"
                rf"|(?i:send|forward|email)\s+(?:(?i:stuff|things|it|everything|anything|docs|files|invoices|them)\s+)?(?i:to)\s+(?i:my)\s+(?P<x>(?:(?i:work|personal|private|home)\s+)?(?i:gmail|outlook|email|e-mail|inbox|address|email\s+address))\b"),
     lambda m, c: _b_contact(_Picked(m, m.group("v") or m.group("w") or m.group("x")), c)),
    # "calls after 8pm are a no-go for me", "texts before 7 are off limits": a channel refused in some hours, in one wording.
    (re.compile(r"(?P<ch>(?i:calls|phone\s+calls|texts|messages|emails|pings|voice\s+notes))\s+(?P<when>(?i:after|before|during|on|past)\s+[\w: ]{1,20}?)\s+(?i:are|is)\s+(?:(?i:a\s+no-go|a\s+no\s+go|off\s+limits|not\s+ok|not\s+okay|a\s+no|out|banned|forbidden))"),
     lambda m, c: [_f("user.contact_preference", f"no {tidy_value(m.group('ch')).lower()} {tidy_value(m.group('when'))}")]),
    # "ping me on Slack", "message me via Signal", "catch me over WhatsApp": the verb of reaching names no channel
    # when one follows it; the one that follows is the preference.
    (re.compile(rf"(?i:ping|message|msg|text|dm|call|ring|reach|contact|find|catch|hit|buzz|poke|nudge|tag)\s+(?i:me)(?:\s+(?i:up))?\s+(?i:on|via|over|through|in)\s+(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    # "WeChat reaches me fastest", "email gets to me quicker", "signal is the only app i actually see": a channel as the
    # subject of reaching the user.
    (re.compile(rf"(?:^|(?<=[\s,:]))(?P<v>(?i:{_CHANNELS}))\s+(?:(?i:always|usually|actually|definitely)\s+)?(?:(?i:reaches|gets\s+to|finds|gets\s+hold\s+of)\s+(?i:me)|"
                r"(?i:is|'s)\s+(?i:the\s+only)\s+(?:(?i:app|thing|place|channel|one)\s+)?(?:(?i:whose|that|where|i)\b))"), _b_contact),
    # "no voice notes pls", "no emails on weekends": a channel refused, as said.
    (re.compile(rf"^(?P<v>(?i:no)\s+(?i:{_CHANNELS})(?:\s+(?i:on|after|before|during)\s+[\w: ]{{1,20}}?)?)(?=\s*$|\s*[,.;!]|\s+(?i:pls|please|plz|thx|thanks|ever)\b)"), _b_contact),
    # "quick thing: text me, don't call", "…, so text me": the channel asked for after a colon or a "so".
    (re.compile(r"(?:(?<=:\s)|(?<=\bso\s)|(?<=\bjust\s))(?P<v>(?i:text|email|e-mail|message|dm|whatsapp|slack|signal))\s+(?i:me)(?=\s*$|\s*[,.;!]|\s+(?i:instead|please|pls|plz)\b)"), _b_contact),
    # "email's the way to go", "voice notes are easier for me than typing", "texting works better for me": a
    # channel as the subject of a verdict that it suits the user.
    (re.compile(rf"(?:^|(?<=\s))(?P<v>(?i:{_CHANNELS}))(?:'s|\s+(?i:is|are|works?|would\s+be))\s+(?:(?i:honestly|just|always|usually|much|way|definitely|probably)\s+)?"
                r"(?i:the\s+way\s+to\s+go|the\s+way\s+to\s+reach\s+me|my\s+go-to|my\s+preference|preferred|ideal|easier|quicker|simpler|faster|more\s+convenient|"
                r"best\s+for\s+me|better\s+for\s+me|easiest\s+for\s+me)\b"), _b_contact),
    # "I'm much better over email than on the phone", "easier to reach on WhatsApp": the channel the user does best on.
    (re.compile(rf"(?i:better|best|easier|easiest|quicker|faster|more\s+responsive)\s+(?i:over|on|by|via|through|with)\s+(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    # "texts are way better", "email is much better": a channel judged better, said of itself.
    (re.compile(rf"(?:^|(?<=\s))(?P<v>(?i:{_CHANNELS}))\s+(?i:is|are|'re|work|works)\s+(?i:way|much|so\s+much|a\s+lot|far)\s+(?i:better|easier)\b"), _b_contact),
    # "send me voice notes instead of long texts", "send me an email": the channel asked for.
    (re.compile(rf"(?i:send|drop|shoot)\s+(?i:me)\s+(?:(?i:an?)\s+)?(?:(?i:quick|short)\s+)?(?P<v>(?i:{_CHANNELS}))\s+(?i:instead|rather|not|over)\b"), _b_contact),
    # "for work stuff slack me", "anything urgent text me": the channel for a kind of matter.
    (re.compile(r"(?i:stuff|things|work|urgent|anything|emergencies|questions)\s+(?P<v>(?i:slack|text|email|whatsapp|dm|message|ping|call|ring))\s+(?i:me)\b"), _b_contact),
    # "I'm always on WhatsApp", "I live on Slack": where the user can be found.
    (re.compile(rf"(?:(?i:i'm|im|i\s+am)\s+(?i:always|usually|mostly|constantly|basically)\s+on|(?i:i\s+live\s+on))\s+(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    # "reach out by email if you need anything", "get in touch over WhatsApp".
    (re.compile(rf"(?i:reach\s+out|get\s+in\s+touch|get\s+hold\s+of\s+me|contact\s+me)\s+(?:(?i:to\s+me)\s+)?(?i:by|via|on|over|through)\s+(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    # "I'm more likely to answer a text", "I'll see an email faster": the channel the user answers.
    (re.compile(rf"(?i:more\s+likely\s+to|quicker\s+to|faster\s+to|likelier\s+to)\s+(?i:answer|reply\s+to|see|read|respond\s+to|pick\s+up|notice)\s+(?:(?i:a|an|your)\s+)?(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    # "email is fine for anything non-urgent", "iMessage works", "WhatsApp is good": a channel said to do.
    (re.compile(rf"(?:^|(?<=[\s,]))(?P<v>(?i:{_CHANNELS})(?:\s+(?i:msgs?|messages?|dms?|texts?|calls?))?)\s+(?:(?i:is|are|'s)\s+(?:(?i:totally|perfectly|always|usually)\s+)?(?i:fine|ok|okay|good|great|best)|(?i:works|work\s+best|works\s+best))(?=\s*$|\s*[,.;!]|\s+(?i:for|too|though|by\s+me|with\s+me)\b)"), _b_contact),
    # "for anything urgent just call", "if it's urgent, text": a channel for a kind of matter.
    (re.compile(r"(?i:for\s+(?:anything|everything|stuff|things|something)?\s*|if\s+(?:it's|it\s+is|something's|something\s+is|anything's)\s+(?:really\s+)?|when\s+it's\s+)(?P<what>(?i:urgent|important|quick|personal|work|serious|time-sensitive))\b[^,.;!?]{0,15}?[\s,]+(?:(?i:just|please|pls)\s+)?(?P<v>(?i:call|text|email|message|ping|ring|whatsapp|dm))(?:\s+(?i:me))?(?=\s*$|\s*[,.;!])"),
     lambda m, c: [_f("user.contact_preference", f"{m.group('v').lower()} if {m.group('what').lower()}")]),
    # "slack is the quickest way to get an answer from me", "WhatsApp's the surest bet", "texting is way more reliable":
    # a channel as the subject of a verdict, whatever superlative or comparative says it suits the user.
    (re.compile(rf"(?:^|(?<=[\s,]))(?P<v>(?i:{_CHANNELS}))(?:'s|\s+(?i:is|are|has\s+been))\s+(?:(?i:honestly|just|always|usually|definitely|probably|by\s+far)\s+)?"
                r"(?:(?i:the\s+(?:quickest|fastest|best|easiest|surest|safest|most\s+reliable|only)\s+(?:way|bet|option|place|route|channel))|"
                r"(?:(?i:way|much|far|a\s+lot|so\s+much)\s+)?(?i:more\s+reliable|more\s+dependable|more\s+likely\s+to\s+reach\s+me))\b"), _b_contact),
    # "weekday mornings are when I'm easiest to reach", "evenings are when I'm around": when the user can be reached.
    (re.compile(r"(?P<v>(?i:(?:weekday\s+|weekend\s+|early\s+|late\s+)?(?:mornings?|evenings?|afternoons?|weekends?|weekdays|lunchtimes?|nights?)|after\s+\d{1,2}(?::\d{2})?\s*(?:am|pm)?|before\s+\d{1,2}(?::\d{2})?\s*(?:am|pm)?))"
                r"\s+(?i:are|is)\s+(?i:when|the\s+time)\s+(?i:i'm|im|i\s+am)\s+(?i:easiest\s+to\s+reach|easiest\s+to\s+get\s+hold\s+of|reachable|available|around|free|online|best\s+reached)\b"), _b_contact),
    # "only email after 6", "text before 9 please", "calls only in the afternoon": a channel with the hours it is for.
    (re.compile(r"(?:^|(?<=\b(?i:only|just)\s))(?P<v>(?i:only\s+)?(?i:email|e-mail|text|message|call|ring|dm|whatsapp|ping|calls|texts|emails|messages)\s+(?i:only\s+)?"
                r"(?i:after|before|between|during|in\s+the|on)\s+(?:(?i:the\s+)?[\w:]+(?:\s+(?i:and|to|-)\s+[\w:]+)?))(?=\s*$|\s*[,.;!]|\s+(?i:please|pls|thanks|though)\b)"), _b_contact),
    # "calls are fine but only in the afternoon": a channel allowed, then narrowed to its hours.
    (re.compile(rf"(?P<ch>(?i:{_CHANNELS}))\s+(?i:are|is|'s)\s+(?i:fine|ok|okay|good)\s*,?\s+(?i:but)\s+(?P<when>(?i:only\s+)?(?i:in\s+the|after|before|between|on|during)\s+[\w: ]{{1,25}})"),
     lambda m, c: [_f("user.contact_preference", f"{tidy_value(m.group('ch')).lower()} {tidy_value(m.group('when'))}")]),
    # "I'm on do not disturb from 9pm", "my phone's on silent after 10": the hours the user cannot be reached.
    (re.compile(rf"(?i:on|use|have|turn\s+on|switch\s+on|set)\s+(?:(?i:my\s+phone\s+(?:to|on)|the|my)\s+)?(?P<v>(?i:do\s+not\s+disturb|dnd|focus\s+mode|silent|airplane\s+mode|sleep\s+mode)\s+(?i:from|after|between|until|till|before|at)\s+{_CLOCK}(?:\s+(?i:to|and|until|till|-)\s+{_CLOCK})?)"), _b_contact),
    # "leave a voicemail", "leave me a voice note": the channel the user asks for instead of a live call.
    (re.compile(r"(?i:leave)\s+(?:(?i:me)\s+)?(?i:a)\s+(?P<v>(?i:voicemail|voice\s*mail|voice\s+note|voice\s+message|message|text))\b"), _b_contact),
    # "mornings are the best time to reach me", "after 6 is best to call": when, as said.
    (re.compile(r"(?P<v>(?i:(?:early\s+|late\s+)?(?:mornings?|evenings?|afternoons?|weekends?|weekdays|lunchtimes?|nights?)|after\s+\d{1,2}(?::\d{2})?\s*(?:am|pm)?|before\s+\d{1,2}(?::\d{2})?\s*(?:am|pm)?))\s+(?i:are|is)\s+(?:(?i:the)\s+)?(?i:best|easiest|ideal)(?:\s+(?i:time))?\s+(?i:to)\s+(?i:reach|call|contact|catch|message|text|ring|get\s+hold\s+of)\s+(?i:me)\b"), _b_contact),
    # "I'd prefer a weekly summary instead of daily pings": how often, and in what form, the user is told.
    (re.compile(r"(?i:prefer|rather\s+have|rather\s+get|like)\s+(?i:a|an|one)\s+(?P<v>(?i:(?:daily|weekly|monthly|single|short|quick)\s+(?:summary|digest|email|update|roundup|round-up|reminder|recap)))\b"), _b_contact),
    # "please reply in English", "talk to me in Spanish": the language the user is written to in.
    (re.compile(rf"(?i:reply|respond|answer|write|talk|speak|message|text)\s+(?:(?i:to\s+me|me)\s+)?(?i:in)\s+(?P<v>(?-i:{_LANGS}))\b"), _b_contact),
    # "discord is where I hang out, ping me there": the channel where the user is.
    (re.compile(rf"(?P<v>(?i:{_CHANNELS}))\s+(?i:is|'s)\s+(?i:where)\s+(?i:i|you\s+(?:can|will|'ll))\b"), _b_contact),
    # "I only check Telegram these days", "I mostly use Signal": the one channel the user reads.
    (re.compile(rf"(?i:only|mostly|mainly|just)\s+(?i:check|use|read|answer|look\s+at|reply\s+on|respond\s+on)\s+(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    # "text > calls for me", "email >> phone": one channel ranked over another.
    (re.compile(rf"(?:^|(?<=\s))(?P<v>(?i:{_CHANNELS}))\s*(?:>+|(?i:beats|over|before))\s*(?i:{_CHANNELS})\b"), _b_contact),
    # "my preferred contact method is email", "my preference is text", "preferred channel: WhatsApp".
    (re.compile(rf"(?i:preferred\s+(?:contact\s+method|method\s+of\s+contact|way\s+to\s+be\s+contacted|channel|contact|way\s+to\s+reach\s+me|method)|my\s+preference)"
                rf"\s*(?:(?i:is|=|:)\s*|\s+)(?:(?i:via|by|on)\s+)?(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    # "best to text", "better to email": the channel as the advice, said on its own.
    (re.compile(r"(?i:best|better|easiest|safest)\s+(?i:to|is\s+to)\s+(?P<v>(?i:text|email|e-mail|message|dm|whatsapp|call|ring))(?:\s+(?i:me))?(?=\s*(?:$|[,.;!?])|\s+(?i:though|tbh|honestly)\b)"), _b_contact),
    # "I don't take calls before 10am", "I never answer the phone", "I don't pick up unknown numbers": calls refused, with when.
    (re.compile(r"(?i:don't|dont|do\s+not|never|can't|cant|won't|rarely)\s+(?i:take|answer|pick\s+up|accept|do)\s+(?:(?i:phone|voice|work|any)\s+)?(?i:calls|the\s+phone|my\s+phone)"
                r"(?P<when>\s+(?i:before|after|during|on|at|past|while|from)\s+[\w: ]{1,25}?)?(?=\s*$|\s*[,.;!?]|\s+(?i:so|because|cause|but|and|unless|from|with)\b)"),
     lambda m, c: [_f("user.contact_preference", "no calls" + (tidy_value(m.group("when")) and " " + tidy_value(m.group("when")) if m.group("when") else ""))]),
    # "hit me up on telegram", "hmu on insta": the channel offered in slang.
    (re.compile(rf"(?i:hit\s+me\s+up|hmu|find\s+me|catch\s+me|holla\s+at\s+me)\s+(?i:on|via|over|through)\s+(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    # "I'd rather you emailed me than called": the past-tense verb names the channel.
    (re.compile(r"(?i:rather|prefer\s+it\s+if|prefer\s+that)\s+(?i:you|people|they)\s+(?P<v>(?i:emailed|texted|called|rang|messaged|phoned|whatsapped|dmed|dm'd))(?:\s+(?i:me))?\b"), _b_channel_verb),
    # "I'm more of a texter than a caller": the kind of person says the channel.
    (re.compile(r"(?i:more\s+of\s+an?|i'm\s+an?|im\s+an?)\s+(?P<v>(?i:texter|emailer|caller|phone\s+person|text\s+person|email\s+person))\b"),
     lambda m, c: [_f("user.contact_preference", "text" if re.match(r"(?i)text", m.group("v")) else "email" if re.match(r"(?i)email", m.group("v")) else "call")]),
    # "please send updates by email": the channel for what the user is sent.
    (re.compile(rf"(?i:send|give)\s+(?:(?i:me)\s+)?(?:(?i:updates|the\s+\w+|stuff|things|it|info|details|everything|reminders|notifications))\s+(?i:by|via|over|through|on)\s+(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    # "don't bother calling": calls refused.
    (re.compile(r"(?i:don't|dont|no\s+point)\s+(?i:bother)\s+(?i:calling|ringing|phoning)"), lambda m, c: [_f("user.contact_preference", "no calls")]),
    # "reach me at work on Teams": where the user is reached, with where between.
    (re.compile(rf"(?i:reach|contact|get\s+hold\s+of|catch)\s+(?i:me)\s+(?i:at\s+work|during\s+the\s+day|in\s+the\s+day|at\s+home)\s+(?i:on|via|by|through)\s+(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    # "I'm only reachable after 5", "available between 9 and 5": when the user can be reached.
    (re.compile(r"(?P<v>(?i:only\s+)?(?i:reachable|contactable|available\s+to\s+talk|free\s+to\s+talk)\s+(?i:after|before|between|on|during)\s+[\w: ]{1,25})"), _b_contact),
    # "you can text me anytime", "feel free to email me": the channel offered.
    (re.compile(r"(?i:you\s+can|feel\s+free\s+to|happy\s+for\s+you\s+to|always\s+fine\s+to)\s+(?P<v>(?i:text|email|e-mail|call|message|whatsapp|dm|ring))\s+(?i:me)\b(?!\s+(?:[A-Z]|(?i:by|as)\b))"), _b_contact),
    # "I check WhatsApp more than email": the channel the user reads first.
    (re.compile(rf"(?i:check|use|read|answer)\s+(?P<v>(?i:{_CHANNELS}))\s+(?:(?i:way|much|a\s+lot|far)\s+)?(?i:more|faster|quicker|sooner|often|more\s+often)\s+(?i:than)\b"), _b_contact),
    # "best to message me in the evenings": how and when, as said.
    (re.compile(r"(?i:best|easiest)\s+(?:(?i:way\s+)?(?i:is\s+)?(?i:to)\s+)(?P<v>(?i:text|message|call|email|ring|reach)\s+(?i:me)\s+(?i:in\s+the|on|after|before|during|between)\s+[\w: ]{1,25})"), _b_contact),
    # "I can't do phone calls", "I don't do calls": a channel refused outright.
    (re.compile(r"(?i:can't|cant|cannot|don't|dont)\s+(?i:do|handle|stand)\s+(?:(?i:phone|voice)\s+)?(?i:calls)\b"), lambda m, c: [_f("user.contact_preference", "no calls")]),
    # "…, text me instead", "email me instead": the channel asked for after another refused.
    (re.compile(r"(?:^|(?<=,)\s*|(?<=;)\s*)(?P<v>(?i:text|email|e-mail|message|dm|whatsapp|ping))\s+(?i:me)\s+(?i:instead|please|pls)\b"), _b_contact),
    # "drop me a text", "shoot me an email", "give me a call": the channel asked for.
    (re.compile(rf"(?i:drop|shoot|send|give|flick|fire)\s+(?i:me)\s+(?i:a|an)\s+(?:(?i:quick)\s+)?(?P<v>(?i:{_CHANNELS}|line|message|dm|ring|buzz))\b"), _b_contact),
    (re.compile(rf"(?i:contacted|reached|reachable|contactable|available)\s+(?i:by|via|on|through|over)\s+(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    (re.compile(rf"(?:(?i:you\s+can|you\s+could|u\s+can)\s+)?(?i:reach|contact|get\s+hold\s+of|catch|get)\s+(?i:me)\s+(?i:by|on|via|over|through)\s+(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    # "please only contact me on weekdays", "reach me between 9 and 5": when, not how.
    (re.compile(r"(?P<v>(?:(?i:don't|dont|do\s+not|never|please\s+don't)\s+)?(?i:only\s+)?(?i:contact|reach|call|text|message|email)\s+(?i:me)\s+(?i:on|during|between|after|before)\s+[\w: ]{1,30})"), _b_contact),
    (re.compile(rf"(?i:prefer\s+(?:a|an)(?:\s+(?:quick|short))?|prefer|rather\s+get|rather|use|reach\s+me\s+(?:on|via|by)|contact\s+me\s+(?:on|via|by)|get\s+me\s+(?:on|via)|message\s+me\s+on|text\s+me\s+on|ping\s+me\s+on)\s+(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    (re.compile(rf"(?:^|(?<=,)\s*)(?P<v>(?i:{_CHANNELS}))(?:\s+(?i:for\s+[a-z ]+|please|only|pls))"), _b_contact),
    (re.compile(rf"(?P<v>(?i:{_CHANNELS}))(?:'s|\s+(?:(?i:on\s+\w+\s+)?)(?i:are|is|work|works))\s+(?:(?i:the\s+)?(?:fastest|best|easiest|better))"), _b_contact),
    (re.compile(r"(?i:please|pls|just)\s+(?P<v>(?i:email|text|call|message|dm|whatsapp))\s+(?i:me)\b(?!\s+(?:[A-Z]|(?i:by|as)\b))"), _b_contact),
    (re.compile(r"(?P<v>(?i:no\s+(?:phone\s+)?calls|don't\s+call\s+me|avoid\s+calling\s+me|no\s+texts|don't\s+text\s+me|don't\s+ring\s+me)(?:\s+(?:on|after|before|during)\s+[\w ]+)?)"), _b_contact),
    (re.compile(r"(?i:a|the)\s+(?P<v>(?i:phone\s+call|call|email|text))\s+(?i:beats|is\s+better|works\s+better)"), _b_contact),
    (re.compile(r"(?P<v>(?i:messages|texts?|sms|e-?mails?|whatsapp|signal|telegram|slack|dms?|imessage)\s+only)"), _b_contact),
    # "nothing before 8 in the morning please" (about a buzz or a ping), "nothing on weekends": the hours kept free of contact.
    (re.compile(r"(?:^|(?<=\band\s))(?P<v>(?i:nothing|no\s+(?:pings|notifications|buzzing|messages|calls|texts|emails|reminders))\s+(?i:before|after|on|during|past|between)\s+[\w:]+(?:\s+(?i:in\s+the\s+(?:morning|evening)|am|pm|and\s+[\w:]+))?)"),
     lambda m, c: _b_contact(m, c) if re.match(r"(?i)no\s", m.group("v")) or re.search(r"(?i)\b(?:please|pls|plz|buzz|ping|call|text|message|notif|remind|email|ring|disturb|phone|contact)", c) else []),
    # "keep the notifications to a daily digest", "limit reminders to one a day": how often the user is told.
    (re.compile(r"(?i:keep|limit|cap|batch)\s+(?:(?i:the|my|all)\s+)?(?i:notifications|updates|pings|reminders|emails|alerts|messages)\s+(?i:to|into)\s+(?:(?i:a|an|one)\s+)?(?P<v>(?i:(?:daily|weekly|single|morning|evening)\s+(?:digest|summary|email|roundup|recap)|one\s+a\s+day|once\s+a\s+day))\b"), _b_contact),
    # "I prefer short bullet-point messages over paragraphs", "bullet points help me a lot": the form messages take.
    (re.compile(r"(?i:prefer|rather\s+have|rather\s+get|like|want)\s+(?P<v>(?i:(?:short|brief|quick|concise)\s+)?(?:bullet[- ]?points?|bullet[- ]point\s+(?:messages|lists|summaries)|bullets|short\s+(?:messages|replies|answers|summaries)|tl;?drs?|summaries|voice\s+notes))(?=\s+(?i:over|to|than|instead|rather)\b|\s*$|\s*[,.;!])"), _b_contact),
    (re.compile(r"(?:^|(?<=\bso\s))(?P<v>(?i:bullet[- ]?points|short\s+messages|summaries|written\s+instructions))\s+(?i:help|work|are\s+easier|are\s+better)\b"), _b_contact),
    (re.compile(r"(?i:prefer|rather)\s+(?:(?i:you|it\s+if\s+you|that\s+you|people)\s+)?(?P<v>(?i:email|text|call|message|dm|whatsapp|ping))\s+(?i:me)\b"), _b_contact),
    (re.compile(r"(?i:just|only)\s+(?P<v>(?i:text|email|message|dm))(?:\s+(?i:me))?(?=\s*$|[,.;!?])"), _b_contact),
    (re.compile(r"^(?i:pls|please|plz|just)\s+(?P<v>(?i:text|email|message|dm|whatsapp|call))\b(?!\s+me\s+[A-Z])(?!\s+(?:me\s+)?(?:by|as)\b)"), _b_contact),
    (re.compile(r"(?P<v>(?i:don't|dont|do\s+not|never)\s+(?i:call|ring|phone)(?:\s+(?i:me))?)(?=\s*$|[,.;!?]|\s*[\u4e00-\u9fff])"), _b_contact),
    # "ping me at 4 so I don't forget", "text me in 10 min": a reminder asked for, no standing preference.
    (re.compile(r"^(?P<v>(?i:text|email|e-mail|call|message|dm|ping|whatsapp|slack|signal))\s+(?i:me)\b(?!\s+(?:[A-Z]|(?i:by|as|at\s+\d|in\s+(?:\d|an?\s|half)|tomorrow|tonight|later|so\s+i|to\s+remind|when\s+it's\s+time|about)\b))"), _b_contact),
    (re.compile(rf"(?i:best|easiest|fastest|quickest)\s+(?i:way\s+)?(?i:to\s+)?(?i:reach|contact|get\s+hold\s+of|get)\s+(?i:me)\s+(?i:is)\s+(?:(?i:via|on|by|through)\s+)?(?P<v>(?i:{_CHANNELS}))\b"), _b_contact),
    (re.compile(r"(?P<v>(?i:don't|do\s+not|never|no|please\s+don't|pls\s+don't)\s+(?i:call|text|ring|message|email|ping|calls|texts|messages|phone\s+calls)(?:\s+(?i:me))?\s+(?i:before|after|on|during|at|past|between|from|until|till)\s+[\w: ]+)"), _b_contact),
    (re.compile(r"(?i:rather\s+get)\s+(?P<v>[^,.;!?]+?)\s+(?i:than)"), _b_contact),
    # "I prefer a quick call over long email chains", "rather have a text than a call": the channel preferred.
    (re.compile(rf"(?i:prefer|rather\s+have|rather\s+get|rather)\s+(?:(?i:a|an)\s+)?(?:(?i:quick|short|simple|brief)\s+)?(?P<v>(?i:{_CHANNELS}))\s+(?i:over|to|than|rather\s+than|instead\s+of)\b"), _b_contact),
    (re.compile(rf"(?P<v>(?i:{_CHANNELS}))\s+(?i:are|is)\s+(?:(?i:totally|perfectly|always)\s+)?(?i:fine|ok|okay|great|perfect)\s+(?i:for\s+me|by\s+me|with\s+me)?(?=.*\bI\b|\s*$|,)"), _b_contact),
]
