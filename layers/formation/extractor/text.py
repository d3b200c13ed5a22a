"""Sentence and clause handling for the rule-based extractor (Chinese and English).

Rules only ever see one clause of one user sentence, already folded (NFKC, zero-width removed),
with lead-ins ("actually", "其实") stripped and quoted speech blanked, so each rule can stay a
plain first-person pattern.
"""
from __future__ import annotations

import dataclasses
import re

from memoryhub.safety.normalise import fold_text

CJK = re.compile(r"[\u3400-\u9fff]")

# A full stop ends a sentence unless it ends a title or common abbreviation ("Dr. Wang").
_SENTENCE_END = re.compile(
    r"(?<=[。！？!?；;\n])|(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bProf\.)(?<!\bSt\.)(?<!\bvs\.)(?<!\betc\.)"
    r"(?<=\.)(?=\s|$)")
# A comma starts a new clause only when what follows has its own first-person subject or a
# connective; "peanuts, shellfish and milk" stays one list.
_CLAUSE_BREAK = re.compile(
    r"\s*[,，]\s*(?=(?:and\s+|but\s+|so\s+|also\s+|actually\s+|now\s+)?(?:i\b|i'm\b|i've\b|i'll\b|my\b)"
    # "lived in Berlin for a while, and now I'm in Hamburg", "used to work at Deloitte, these days I'm a PM at
    # Monzo": the present after a past part is a clause of its own, so the past filter does not take it too.
    r"|(?:and\s+|but\s+|so\s+)?(?:now|these\s+days|nowadays|currently|today)\s*,?\s+(?=i\b|i'm\b|i've\b|my\b)"
    # "千万别给我放花生，我会过敏的", "花生、坚果都不行，我过敏，严重的时候…": a bare 过敏 after a comma belongs to
    # what came before it, at the end of the sentence or before the next comma.
    r"|(?:但是?|不过|而且|所以|现在|其实|另外|还有|并且)?我(?!(?:也|都|会|可能会|容易)?过敏(?:的|了|啊|呀|吧)?(?=$|[，,。！!；;])))"
    # "i call my grandma every sunday evening, she'd kill me if i forgot": someone else's would-clause after a comma is
    # a clause of its own, so its "if I" takes only itself.
    r"|\s*,\s*(?=(?:she|he|they|it)(?:'d|\s+would)\b)"
    # "me and my sister just hit 27" is one subject, not two clauses; so is "my husband and I are both teachers"
    # ("I are", "I both" only ever continue a subject that came before).
    r"|(?<!\bme)\s+(?:and|but|so)\s+(?=(?:i\b|i'm\b|i've\b|i'll\b|my\b))(?!i\s+(?:are|were|both|have\s+both|'ve\s+both|each)\b)"
    r"|(?:但是|不过|而且|并且)(?=我)", re.IGNORECASE)

_LEAD_IN = re.compile(
    r"^(?:(?:oh|well|ok|okay|so|and|but|also|btw|by the way|actually|in fact|correction|sorry|"
    r"to be honest|honestly|just so you know|fyi|hey|hi|hello|yes|yeah|right|um|uh|"
    r"其实|对了|另外|顺便说一下|顺便说|顺便|纠正一下|更正一下|更正|纠正|哦|嗯|还有|而且|不过|但是|所以|"
    r"说错了|我说错了|好的|好吧|哈哈|你好|告诉你)(?![A-Za-z'])[\s,，:：!！.。、~～-]*"
    # "对，…", "不是，…": one-word answers lead in only before a pause ("对象是东北人", "不是我说" stay whole).
    r"|(?:是的|对|不对|不是|嘿)(?=[\s,，:：!！.。、~～-])[\s,，:：!！.。、~～-]*"
    # "no, …" answers; "no calls after 9pm" is a statement and keeps its "no".
    r"|(?:no|nope)\s*[,，:：!！.。~～-]+\s*)+", re.IGNORECASE)
CORRECTION_MARK = re.compile(
    r"\b(?:actually|correction|i meant|not anymore|no longer|anymore|moved|relocated)\b|其实|更正|纠正|不对|说错了|搬", re.IGNORECASE)

_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\"")

_QUESTION_START_EN = re.compile(
    r"^(?:do|does|did|am|is|are|was|were|can|could|would|will|should|shall|have|has|where|what|when|"
    r"who|whom|whose|why|how|which|isn't|aren't|didn't|won't|wouldn't|shouldn't)\b(?!')", re.IGNORECASE)
_QUESTION_END_ZH = re.compile(r"(?:吗|呢|么|嘛|没有|是不是|对不对|好不好|行不行)[。.~～]*$")
# A Chinese question typed without its question mark that opens by asking someone ("谁能告诉我去哪学英语",
# "有没有人知道…", "求推荐…"): it asks, it tells nothing of the user.
_QUESTION_START_ZH = re.compile(r"^(?:谁(?:能|可以|知道|有)|有没有人|有谁|求推荐|求问|请问|哪里(?:能|可以|有)|哪儿(?:能|可以|有)|有人知道)")
_QUESTION_WORD_ZH = re.compile(r"哪里|哪儿|哪个|什么|谁|怎么|为什么|几个|多少|是否")

# "if you need me, WhatsApp is best", "if it's urgent call, otherwise email": a condition on reaching the user
# frames a standing preference, not a supposition.
_STANDING_CONDITION = r"(?!\s+(?:you\s+need\s+(?:me|to\s+reach\s+me|to\s+get\s+hold\s+of\s+me)|(?:it|something|anything)(?:'s|\s+is)\s+(?:really\s+)?urgent|anything\s+comes\s+up|there's\s+an\s+emergency)\b)"
_HYPOTHETICAL_EN = re.compile(
    rf"^(?:if{_STANDING_CONDITION}|suppose|supposing|imagine|assuming|what if|in case|pretend|let's say|say)\b"
    r"|\b(?:if|wish|as if|as though|unless|even if)\s+i\b|\bi\s+(?:wish|could)\b|\bi\s+would\b(?!\s+(?:prefer|rather))"
    r"|\bi'd\b(?!\s+(?:prefer|rather|much\s+rather|appreciate|really\s+appreciate))",
    re.IGNORECASE)
_HYPOTHETICAL_ZH = re.compile(r"如果|假如|要是|假设|万一|倘若|假使|想象|幻想|要不是|但愿|希望我|想要|我想|梦想|假装|扮演|角色扮演")


def is_cjk(text: str) -> bool:
    return bool(CJK.search(text))


def split_sentences(text: str) -> list[str]:
    # A typographic apostrophe inside a word ("I’m", "dog’s", "I’ve") is the ASCII one the rules read;
    # quotation marks around words (‘…’) stay as they are.
    folded = re.sub(r"(?<=\w)[’‘](?=\w)", "'", fold_text(text))
    return [part.strip() for part in _SENTENCE_END.split(folded) if part and part.strip()]


# "Tom, my husband, is a nurse", "walking Rufus, my beagle, when…": a name set off before "my <role>" is that
# role's apposition, one clause with it; the break before ", my" would leave the name behind.
_APPOSITION = re.compile(
    r"\b(?P<n>(?!(?:Anyway|Also|Honestly|Well|So|Yesterday|Today|Tonight|Tomorrow|Actually|Basically|Plus|Oh|Ok|Okay|Yeah|Yes|No|Sadly|"
    r"Luckily|Btw|Lol|Hi|Hey|Hello|Thanks|Sorry|Sure|Again|Meanwhile|Anyhow|Though|However|Besides|Otherwise|Then|Now|Recently|"
    r"Lately|Finally|Unfortunately|Fortunately|Apparently|Seriously|Obviously|Guess|Because|But|And|Or)\b)[A-Z][a-z]+)\s*,\s*"
    r"(?P<r>(?:my|our)\s+[a-z]+(?:\s+[a-z]+)?)(?=\s*(?:,|\)|$|[.!?;]))")


def split_clauses(sentence: str) -> list[str]:
    kept = _APPOSITION.sub(lambda m: f"{m.group('n')}\x00 {m.group('r')}", sentence)
    return [part.strip().replace("\x00", ",") for part in _CLAUSE_BREAK.split(kept) if part and part.strip()]


def strip_lead_in(clause: str) -> str:
    return _LEAD_IN.sub("", clause).strip()


def blank_quotes(text: str) -> str:
    """Quoted speech is someone else's words; keep positions, lose content."""
    return _QUOTED.sub(lambda m: " " * len(m.group()), text)


# Without a question mark, "have two kids", "did my undergrad at McGill", "was diagnosed with asthma
# last year" are statements whose "I" was dropped; "did it rain", "have you tried" stay questions.
_SUBJECTLESS_STATEMENT = re.compile(
    r"^(?:have|had|was|did)\s+(?!(?:you|u|ya|i|we|they|he|she|it|there|anyone|someone|anybody|somebody|people|that|this)\b)",
    re.IGNORECASE)


def is_question(sentence: str) -> bool:
    stripped = sentence.strip()
    if stripped.endswith(("?", "？")):
        return True
    core = strip_lead_in(stripped)
    if _QUESTION_START_EN.match(core) and not _SUBJECTLESS_STATEMENT.match(core):
        return True
    return bool(is_cjk(core) and (_QUESTION_END_ZH.search(core) or _QUESTION_START_ZH.match(core)))


def has_question_word_zh(value: str) -> bool:
    return bool(_QUESTION_WORD_ZH.search(value))


_CONDITIONAL_START = re.compile(rf"^(?:if{_STANDING_CONDITION}|suppose|supposing|imagine|assuming|what if|in case|let's say)\b|^(?:如果|假如|要是|假设|万一|倘若|假使)",
                                re.IGNORECASE)


def is_hypothetical(clause: str) -> bool:
    core = strip_lead_in(clause)
    return bool(_HYPOTHETICAL_EN.search(core) or _HYPOTHETICAL_ZH.search(core))


def starts_conditional(sentence: str) -> bool:
    """"If I lived in Paris, I would …": the consequent clause is hypothetical too."""
    return bool(_CONDITIONAL_START.search(strip_lead_in(sentence)))


# "I used to smoke but quit", "以前住过大理": a state that is no longer true. Clause-level, so the
# "but now B" half of "used to live in A but now B" (its own clause) still counts.
_PAST_STATE = re.compile(
    r"\bused\s+to\b|\bwhen\s+i\s+was\b|\bas\s+a\s+(?:kid|child|teen|teenager)\b|\bwhen\s+i\s+was\s+in\b|\bback\s+in\s+(?:high\s+school|college|uni)\b|\bin\s+high\s+school\b|"
    r"\bback\s+in\s+\d{4}|\bin\s+(?:19|20)\d{2}\b|\btill\s+(?:19|20)\d{2}|\buntil\s+(?:19|20)\d{2}|\b(?:a\s+few|two|three|\d+)\s+years\s+ago\b|"
    r"\bmy\s+(?:old|previous|former|last|first|ex)\s+(?:job|employer|company|role|gig|workplace|position|apartment|flat|house|place|office)\b|\bback\s+at\s+my\b|"
    r"\bnot\s+anymore\b|\bno\s+longer\b(?!\s+(?:at|with|work))|\bfor\s+a\s+(?:while|few\s+months|bit)\b.*\b(?:stopped|quit|didn't\s+stick|gave\s+up)|"
    r"\bbut\s+stopped\b|\bdidn't\s+stick\b|\bthru\s+college\b|\bthrough\s+college\b|\bafter\s+uni\b|\bfor\s+\w+\s+years\s+after\b|"
    r"\b(?:died|passed\s+away|passed\s+on|put\s+to\s+sleep|put\s+down)\b|去世|过世|(?<!'ve\s)(?<!\bhave\s)(?<!\bive\s)\blived\s+in\b|\bspent\s+a\s+(?:summer|year|month)\b|\bi\s+was\s+(?:a|an|on|into|in)\b|\bmy\s+ex\b|"
    r"以前|之前(?!在)|曾经|过去(?=的|[一二两三四五六七八九十几\d]+年|那|我|曾|常|经常|总)|小时候|(?:小学|中学|初中|高中|大学|上学|读书|念书)的时候|年轻时候?|那时候|那会儿|那阵子|后来放弃|后来不|现在全忘|长大后|刚毕业那|住过|待过|练过|学过(?!.*现在)|跑过|"
    r"原来(?!是)|当年|早年|上一份工作|上份工作|前一份工作|前东家|上一家公司", re.IGNORECASE)
# Irony the corpus marks (FACTS.md joke_sarcasm): upside-down / eye-roll faces, "在梦里", "(自封的)".
_SARCASM = re.compile(
    r"🙃|🙄|🙂|😴|在梦里|自封|才怪|(?:[（(]\s*)?(?:并不|假的|反话)(?:\s*[）)])|只是钱还没到账|可真是个|可太爱了|真是我最爱|最喜欢堵车|我的特长是躺平|当一条咸鱼|"
    r"最擅长的运动是熬夜|\b(?:yeah|yes|sure)[, ]+(?:totally|definitely|right|my\s+\w+\s+is\s+so)\b|\bsure,\s+i'll\s+just\b|"
    r"\bbasically\s+a\s+professional\b|\bmy\s+(?:real\s+job|favou?rite\s+hobby)\b.*(?:failing|untangling)|\ballergic\s+to\s+(?:mondays|work|nonsense)|"
    r"对工作过敏|\bstrictly\s+pizza|"
    # "yeah because I totally love 6am meetings", "oh yeah, I just LOVE getting calls at 7am": a taste offered as a mock agreement.
    r"\b(?:yeah|oh|sure)\s+(?:because|cause|cuz)\s+i\s+(?:just\s+|totally\s+|really\s+|absolutely\s+)*(?:love|adore|enjoy)\b|"
    r"\boh\s+(?:yeah|yes|sure|great|wow)\s*,?\s+i\s+(?:just\s+|totally\s+|absolutely\s+)+(?:love|adore|enjoy)\b", re.IGNORECASE)
# Shouted emphasis ("my job is SO fulfilling") is case-sensitive.
# A shouted quantity ("I LOVE horror movies SO much", "miss her SO badly") is emphasis, not irony.
_SARCASM_CAPS = re.compile(r"\b(?:SO|TOTALLY)\s+(?!(?:much|many|bad|badly|hard|often)\b)[a-z]+")
_VAGUE_WISH = re.compile(
    r"\bsomeday\b|\bsome\s+day\b|\bone\s+day\b|\bmaybe\b|\bperhaps\b|\btoying\s+with\b|\bnot\s+committed\b|\bideal\s+world\b|"
    r"\bi\s+wonder\b|\bthinking\s+(?:about|of)\b|\bconsidering\b|\bif\s+money\b|\bwould\s+i\b|\bsomeday\s+list\b|"
    # undecided: "torn between", "on the fence about", "can't decide", "still deciding whether", "weighing an offer"
    r"\btorn\s+between\b|\bon\s+the\s+fence\b|\b(?:can't|cannot|cant|couldn't)\s+decide\b|\b(?:still\s+)?deciding\s+(?:whether|between|if)\b|"
    r"\bweighing\s+(?:an?|the|up|my)\b|\bback\s+and\s+forth\b|\bundecided\b|\bnot\s+sure\s+(?:whether|if)\b|\bdebating\s+(?:whether|if|between)\b|"
    r"纠结|拿不定主意|没想好|不知道要不要|(?:^|[，,我])(?P<either>[考去买养学搬换读])不(?P=either)|"
    r"等我|就好了|说不定|还在犹豫|不确定|要不要|考虑|有机会|如果|假如|要是|以后有钱|哪天|犹豫|还没决定|想想(?!就)|可能会", re.IGNORECASE)


_QUESTION_PIECE = re.compile(r"(?<=[,，—–])\s*")


def drop_question_part(sentence: str) -> str:
    """A question ends the sentence but a disclosure may come before it ("I'm allergic to sesame,
    is tahini a problem?", "下个礼拜要去Paris出差，你能推荐几家餐厅吗？"): keep the pieces that
    are not themselves questions. A sentence that opens as a question stays a question."""
    if not is_question(sentence):
        return sentence
    core = strip_lead_in(sentence.strip())
    if _QUESTION_START_EN.match(core) or re.match(r"^(?:你|您|请问|有没有|有什么|怎么|为什么|哪)", core):
        return ""
    pieces = [p for p in re.split(r"(?<=[,，—–])", sentence) if p.strip()]
    kept = []
    for piece in pieces:
        bare = piece.strip().rstrip(",，—– ")
        if not bare:
            continue
        if is_question(bare) or _QUESTION_START_EN.match(strip_lead_in(bare)) or re.search(
                r"^(?:你|您|请问|能不能|可不可以|有没有|有什么|怎么|为什么)|(?:吗|呢|么|嘛)$", strip_lead_in(bare)):
            break
        kept.append(piece)
    return "".join(kept).strip().rstrip(",，—– ")


# A command to the assistant ("remind me tmrw 9am…", "帮我订明天去上海的机票") is a request, not a
# plan or a fact (FACTS.md negatives); "please email me instead" is a contact preference, kept.
_REQUEST = re.compile(
    # "send me a text rather than an email" is how to reach the user, not an errand.
    r"^(?!(?:please\s+|pls\s+|just\s+)?(?:send|give|drop)\s+me\s+(?:a|an)\s+(?:quick\s+)?(?:text|email|message|call|ring|dm|voice\s+note)\b"
    r".*\b(?:rather\s+than|instead|than|not\s+an?)\b)"
    # "please write to me in Spanish", "always reply in English": the language the user is written to in.
    r"(?!(?:please\s+|pls\s+|always\s+|just\s+)?(?:write|reply|respond|answer|talk|speak)\s+(?:to\s+me\s+|me\s+|back\s+)?in\s+[A-Z][a-z]+\b)"
    r"(?:(?:please|pls|plz|kindly|(?:can|could|would)\s+(?:you|u|ya)(?:\s+(?:please|pls|plz|just|quickly))?)\s+)?(?:remind|book|find|give|make|write|draft|translate|"
    r"cancel|set|show|tell|help|summari[sz]e|generate|create|list|suggest|recommend|schedule|order|send|check|look\s+up|"
    r"search|calculate|convert|explain|compare|reserve|add|put|move|delete|remove|rewrite|fix|plan\s+(?:a|my|me))\b"
    r"|^(?:请|麻烦)?(?:你)?(?:帮我(?!记)|帮忙|替我|给我(?:写|找|订|查|推荐|做|列|算)|提醒我(?!的话|的时候)|把闹钟|设个|订一?[张个间])", re.IGNORECASE)


def is_request(sentence: str) -> bool:
    return bool(_REQUEST.search(strip_lead_in(sentence.strip())))


# "帮我点个外卖吧，我吃不了辣": after the request, a part with the user as its own subject is a disclosure.
_OWN_PART_ZH = re.compile(r"^(?:不过|但是?|因为|毕竟|顺便说一下|对了|哦|另外)?(?:我|本人)(?!们)")


# "give me a lentil soup recipe, no onion or garlic pls they wreck my stomach", "suggest a dessert without nuts — I
# can't have them": a food left out of a request is the user's own restriction only when the user gives a reason of
# their own body or diet with it; "no onions on this one pls" is a taste for one dish and says nothing that lasts.
_LEFT_OUT_EN = re.compile(
    r"(?i)\b(?:no|without|nothing\s+with|leave\s+out(?:\s+the)?|hold\s+the|skip\s+the|minus\s+the|free\s+of)\s+(?:any\s+)?"
    r"(?P<v>[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?(?:\s*(?:,|\bor\b|\band\b|&|/)\s*[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)*?)"
    r"(?=\s*(?:$|[,;:.!—–-]|\s(?:pls|please|plz|because|cause|cuz|since|as|they|it|those|that|i|i'm|im|my|in\s+it|at\s+all|thanks|thx|ty)\b))")
# The reason is the user's body or diet: what the food does to them, that they cannot or do not eat it, an allergy,
# an intolerance, a condition, a diet they keep. Never someone else's ("my kids hate them") nor a mood ("not feeling it").
_OWN_REASON_EN = re.compile(
    r"(?i)\b(?:they|it|those|that|these|both)(?:'re|\s+are|\s+is|'s)?\s+(?:\w+\s+){0,2}?(?:wreck|destroy|kill|ruin|upset|mess\s+up|wreak\s+havoc\s+on)s?\s+my\s+(?:stomach|gut|tummy|insides|digestion)"
    r"|\b(?:they|it|those|that|these|both)\s+(?:\w+\s+)?(?:makes?|gives?|leaves?)\s+me\s+(?:really\s+|so\s+|very\s+|super\s+)?(?:sick|ill|bloated|nauseous|hives|a\s+rash|migraines?|headaches?|heartburn|reflux|stomach\s*(?:aches?|cramps|pains?))"
    r"|\bi\s+(?:can't|cant|cannot|can\s+not|don't|dont|do\s+not|never)\s+(?:eat|have|tolerate|digest|handle|touch|do)\b"
    r"|\bi'?m\s+(?:not\s+allowed|allergic|intolerant|coeliac|celiac|diabetic|vegan|vegetarian|pescatarian|on\s+a\s+\w+\s+diet)\b|\bim\s+allergic\b"
    r"|\b(?:my|an?)\s+(?:\w+\s+)?(?:allergy|intolerance)\b|\ballergic\s+to\s+(?:them|it|those|that)\b|\b(?:doing|on)\s+(?:keto|paleo|whole30|low[- ]carb|low[- ]fodmap)\b"
    r"|\bi\s+keep\s+(?:halal|kosher)\b|\b(?:doctor|gp)'?s\s+orders\b|\breligious\s+(?:thing|reasons?)\b")
_REQUEST_PIECE_EN = re.compile(r"(?<=[,;—–])|\s+-\s+")
_OWN_PART_EN = re.compile(r"(?i)^(?:(?:and|but|because|cause|cuz|since|as|btw|fyi)\s+)?(?:i\b|i'm\b|im\b|i've\b|my\b)")


def _request_restriction_en(sentence: str) -> str:
    """The user's own food restriction given inside an English request, said as a statement the diet rules read
    ("I can't have onion or garlic. I don't eat meat."); "" when the request gives none."""
    said = []
    reasoned = _OWN_REASON_EN.search(sentence)
    if reasoned:
        for match in _LEFT_OUT_EN.finditer(sentence):
            items = tidy_value(match.group("v"))
            if items and not re.fullmatch(r"(?i)(?:problem|worries|rush|idea|way|more|need|clue|thanks|one|pressure|hurry)s?", items):
                # an allergy given as the reason is the allergen itself (FACTS.md files it under allergies)
                said.append(f"I'm allergic to {items}." if re.search(r"(?i)allerg", reasoned.group()) else f"I can't have {items}.")
    # "give me a pasta recipe, I don't eat meat": the user's own part of the request is kept when it is that reason.
    for piece in _REQUEST_PIECE_EN.split(sentence)[1:]:
        bare = piece.strip(" ,;—–-")
        if _OWN_PART_EN.match(bare) and _OWN_REASON_EN.search(bare):
            said.append(bare.rstrip(".!") + ".")
    return " ".join(said)


def drop_request_part(sentence: str) -> str:
    """What a request sentence discloses beside the request: in Chinese, the parts from the first one whose subject is
    the user; in English, the user's own food restriction given with the request (`_request_restriction_en`); ""
    when there is none ("帮我订一张下周去广州的机票", "no onions on this one pls")."""
    if not is_cjk(sentence):
        return _request_restriction_en(sentence)
    pieces = [p for p in re.split(r"(?<=[,，])", sentence) if p.strip()]
    for index, piece in enumerate(pieces[1:], start=1):
        if _OWN_PART_ZH.match(piece.strip()):
            return "".join(pieces[index:]).strip()
    return ""


def is_past_state(clause: str) -> bool:
    # "I've had asthma since I was a kid" began in the past and still holds.
    return bool(_PAST_STATE.search(clause)) and not re.search(
        r"(?i)\bbut\s+now\b|\b(?:found\s+out|diagnosed|turned\s+out|realised|realized|discovered)\b|现在(?:我|在|住|是|搬|已经|定居|base|改)|\b(?:ever\s+)?since\s+(?:i\s+was|childhood|birth|high\s+school|college|uni)\b|从小就", clause)


def is_sarcastic(sentence: str) -> bool:
    return bool(_SARCASM.search(sentence) or _SARCASM_CAPS.search(sentence))


def is_vague_wish(sentence: str) -> bool:
    if not _VAGUE_WISH.search(sentence):
        return False
    if is_cjk(sentence) and not starts_conditional(sentence):
        # "最近在考虑换工作，我现在在平安保险做理赔": a wish confined to its own parts leaves the
        # others standing; rules_zh.zh_fact_candidates skips the wishful parts themselves.
        return all(_VAGUE_WISH.search(part) for part in re.split(r"[，,；;]", sentence) if part.strip())
    return True


def is_vague_wish_part(part: str) -> bool:
    """Whether one part of a Chinese sentence is a wish, doubt or maybe ("还在犹豫要不要学日语")."""
    return bool(_VAGUE_WISH.search(part))


def tidy_value(value: str) -> str:
    value = value.strip().strip(" \t.,;:!?，。；：！？~～、\"'“”()（）")
    return re.sub(r"\s+", " ", value)


# Code-switched Chinese ("我在 Google 做 PM", "周末去 gym", "我下个月 move 到深圳"): spaces beside a Chinese
# character carry nothing in Chinese, and common English verbs and nouns stand in the Chinese frame for
# their Chinese counterparts ("join Airbnb", "被 layoff 了", "从 UCL graduate 的", "based in 上海"). The
# Chinese rules read the clause this way; the English rules read it as written, and every value the
# Chinese rules take from the reading is given back in the user's own words (`CodeSwitched.original`).
_CJK = "\u4e00-\u9fff，。！？、：；"
_EN_IN_ZH = (
    (r"(?:move|moving|moved|relocate|relocated|relocating)(?=\s*(?:到|去|回))", "搬"),
    (r"(?:based|live|living|lives)\s+in(?=\s*[\u4e00-\u9fff])", "住在"),
    (r"(?:quit|left)(?=\s*了\s*[\u4e00-\u9fffA-Z])", "离开"),
    (r"(?:resign|resigned|quit)(?=\s*(?:了|啦|$|[，,。!！]))", "辞职"),
    (r"call(?=\s*我)", "打电话给"),
    (r"(?:weekends?)(?=\s*[\u4e00-\u9fff])", "周末"),
    (r"we-?chat", "微信"),
    (r"e-?mail(?=\s*(?:我|就|吧|联系|沟通|找|$|[，,。]))", "邮件"),
    (r"messages?(?=\s*(?:就|吧|给我|联系|$|[，,。]))", "消息"),
    (r"(?:layoff|laid\s+off)(?=\s*(?:了|啦|$|[，,。!！]))", "裁"),
    (r"(?:join|joined|joining)(?=\s+[A-Z])", "入职"),
    (r"(?:onboard|onboarding)(?=\s*(?:了|啦|$|[，,。!！]))", "入职"),
    (r"(?:graduate|graduated)(?=\s*(?:的|了|$|[，,。]))", "毕业"),
    (r"(?:hometown)(?=\s*(?:是|在))", "老家"),
    (r"major(?=\s*(?:是|学))", "专业"),
    (r"(?:birthday|bday)(?=\s*(?:$|[！!，,。~～]|了|啦|是|在))", "生日"),
    (r"(?:pregnant)(?=\s*(?:了|啦|$|[，,。]))", "怀孕"),
    (r"(?:interview)(?=\s*(?:$|[，,。]))", "面试"),
    (r"(?:usually|normally|always|often)(?=\s*[\u4e00-\u9fff])", "一般"),
)
# A space between two Chinese characters is a pause, as a comma is ("我在协和当麻醉医生 夜班多 回消息会慢");
# a longer run is a blanked quotation (text.blank_quotes), left as it is.
# (a word read as Chinese takes the spaces around it with it: "下个月 join Airbnb" is 下个月入职Airbnb)
_SWITCH = re.compile("|".join(f"(?P<w{index}>[ \\u3000]*(?<![A-Za-z]){pattern}[ \\u3000]*)" for index, (pattern, _) in enumerate(_EN_IN_ZH))
                     + "|(?P<pause>(?<=[\\u4e00-\\u9fff])[ \\u3000]{1,2}(?=[\\u4e00-\\u9fff]))"
                     + f"|(?P<space>(?<=[{_CJK}])[ \\u3000]{{1,2}}(?![ \\u3000])|(?<![ \\u3000])[ \\u3000]{{1,2}}(?=[{_CJK}]))", re.IGNORECASE)


class CodeSwitched:
    """A clause as the Chinese rules read it (`text`), with where each of its characters came from."""

    def __init__(self, clause: str):
        self.clause = clause
        out: list[str] = []
        self._from: list[tuple[int, int]] = []
        at = 0
        mixed = re.search(r"[A-Za-z]", clause) is not None
        for match in _SWITCH.finditer(clause) if re.search(r"[\u4e00-\u9fff]", clause) else ():
            name = match.lastgroup
            if name.startswith("w") and not mixed:
                continue
            for index in range(at, match.start()):
                out.append(clause[index])
                self._from.append((index, index + 1))
            said = "" if name == "space" else "，" if name == "pause" else _EN_IN_ZH[int(name[1:])][1]
            out.extend(said)
            self._from.extend([match.span()] * len(said))
            at = match.end()
        for index in range(at, len(clause)):
            out.append(clause[index])
            self._from.append((index, index + 1))
        self.text = "".join(out)

    def original(self, value):
        """`value` as the user wrote it, when it is a piece of the reading: "搬到Tokyo" is "relocate 到 Tokyo"."""
        if not isinstance(value, str) or not value or self.text == self.clause:
            return value
        at = self.text.find(value)
        if at < 0:
            return value
        return self.clause[self._from[at][0]:self._from[at + len(value) - 1][1]].strip()


# ---- what a value never is ----------------------------------------------------------------------
# The families whose value is a thing (a like, a food, an allergen, a habit, a condition, a drug): a rule
# reads the words after its cue ("不吃…", "讨厌…", "I avoid …", "love …"), and what stands there is sometimes
# no thing at all but the rest of the predicate: a time or a span ("一天不吃就想", "戒了两个月"), a degree or
# result complement ("烦死", "不吃难受", "吃了想吐"), a filler ("like seriously"), an activity read as a food
# ("I avoid driving at night"). Decided once here for every rule of both languages.
_THING_KEYS = frozenset({"user.likes", "user.dislikes", "user.food_restrictions", "user.allergies", "user.habits",
                         "user.health_conditions", "user.medications", "user.diet"})
_FOOD_KEYS = frozenset({"user.food_restrictions", "user.allergies"})
# A span of time or a count of it (一天, 两个月, 半小时, 几次), or a dose, which is a drug's attribute (三毫克, 75 mcg).
_ZH_SPAN = re.compile(r"[一二两三四五六七八九十几半\d.]+\s*(?:个)?(?:天|周|星期|礼拜|月|年|小时|钟头|分钟|次|回|顿|遍|毫克|克|毫升|片|粒|颗|针|袋|支|(?i:mg|mcg|µg|ml|g|iu))(?:多|左右)?")
# What the body or the mood does after the cue, a result or a degree, never the thing itself.
_ZH_RESULT = re.compile(r"^(?:浑身|全身|一天|吃了|喝了|碰了|不吃|不喝|就|又|才|都|也|还)|难受|不舒服|想吐|犯困|睡不着|受不了|不了$|不住|不下|不够|死了?$|坏了?$|惨了?$")
_ZH_COMPLEMENT_CHAR = re.compile(r"^[死去来惨疯坏透完哭累烦啊呀吧了着过]$")
_EN_FILLER = re.compile(
    r"(?i)^(?:seriously|honestly|literally|totally|really|actually|basically|unreasonably|obsessively|genuinely|truly|absolutely|"
    r"completely|deeply|madly|insanely|ridiculously|desperately|passionately|religiously|shamelessly|unapologetically|"
    r"irrationally|weirdly|secretly|extremely|incredibly|hugely|massively|endlessly|definitely|"
    r"a\s+lot|so\s+much|too\s+much|it|that|this|them|these|those|up|down|out|off|in|on|at|look|get|go|do|be|have|"
    r"make|take|one|stuff|things?|everything|anything|nothing|diagnosed|"
    # a word that only joins or points ("I'm on the 7:12" read as a habit "the") is never a thing
    r"the|a|an|my|your|his|her|our|their|its|and|or|but|so|to|for|with|of|is|are|was|were|am|been|being)$")
# A time or a routine is no food: "no snacks before work", "mornings are off limits", "nothing after bed".
_EN_NOT_FOOD = re.compile(r"(?i)^(?:work|school|uni|college|class|bed|bedtime|the\s+gym|gym|training|practice|church|meetings?|"
                          r"mornings?|evenings?|nights?|afternoons?|weekends?|weekdays?|mondays?|tuesdays?|wednesdays?|thursdays?|"
                          r"fridays?|saturdays?|sundays?|today|tonight|tomorrow)$")
# An activity (a gerund) is no food: "I avoid driving at night", "gave up running". These -ing words are foods.
_EN_FOOD_ING = re.compile(r"(?i)(?:pudding|stuffing|icing|frosting|dressing|filling|seasoning|dumpling|herring|whiting|topping|"
                          r"breading|shortening|pickling)s?$")
_EN_HABIT_HEAD = re.compile(r"(?i)^(?:in|on|up|by|of)\b")


def is_time_or_routine(value: str | None) -> bool:
    """Whether `value` names a time or a daily routine ("mornings", "work", "bed") rather than a thing."""
    return bool(value) and bool(_EN_NOT_FOOD.match(tidy_value(value)))


def is_no_value(key: str | None, value: str | None) -> bool:
    """Whether `value`, read by a rule for `key`, is the rest of the predicate and not a thing at all."""
    if key not in _THING_KEYS or not value:
        return False
    bare = tidy_value(value)
    if not bare:
        return True
    if CJK.search(bare):
        if _ZH_SPAN.fullmatch(bare) or _QUESTION_WORD_ZH.search(bare) or re.search(r"哪|啥|木有|没有", bare):
            return True
        if key in ("user.likes", "user.dislikes", *_FOOD_KEYS) and _ZH_COMPLEMENT_CHAR.match(bare):
            return True
        # A food or an allergen is a noun: a negation or a 就 inside ("周末不去", "一碰就") is the predicate going on.
        if key in _FOOD_KEYS and re.search(r"[不没就]", bare):
            return True
        return key != "user.habits" and bool(_ZH_RESULT.search(bare))
    if _EN_FILLER.match(bare) or _ZH_SPAN.fullmatch(bare):
        return True
    if key in _FOOD_KEYS and _EN_NOT_FOOD.match(bare):
        return True
    head = bare.split()[0]
    if key in _FOOD_KEYS and re.fullmatch(r"(?i)(?!(?:any|some|every|no)thing)[a-z]{3,}ing", head) and not _EN_FOOD_ING.search(head):
        return True
    return key == "user.habits" and bool(_EN_HABIT_HEAD.match(bare))


# A remark about the world, no fact of the user's (FACTS.md "generic"): an activity as the subject of a verdict
# ("learning Spanish is easier than Mandarin", "living in London is so expensive", "being allergic to cats must be
# awful"), a kind of people and what they tend to do ("vegans tend to be healthier"); in Chinese, an activity with no
# one doing it and a verdict or advice on it ("学英语还是要多听多说", "在上海生活压力太大了").
_GENERIC_EN = re.compile(
    r"(?i)^(?:being|living|working|learning|studying|having|going|moving|eating|owning|raising|running|teaching|getting|staying)\b"
    r"[^,;!?]{0,40}?\b(?:is|are|was|must\s+be|can\s+be|would\s+be|seems?|gets|sounds?|looks?)\s+(?:so\s+|really\s+|pretty\s+|kinda\s+|way\s+|super\s+|actually\s+)*"
    r"(?:easier|harder|better|worse|cheaper|expensive|awful|terrible|hard|easy|tough|exhausting|great|fun|boring|overrated|underrated|"
    r"stressful|lonely|amazing|a\s+\w+|the\s+\w+|more|less|such|not)\b"
    r"|^(?:most\s+)?(?:vegans|vegetarians|nurses|doctors|teachers|engineers|programmers|developers|dogs|cats|people|kids|parents|"
    r"students|men|women|americans|brits|germans|asians)\s+(?:tend\s+to|usually|always|often|never|all|generally|are\s+(?:usually|always|often|generally|all))\b")
_GENERIC_ZH = re.compile(
    r"^(?:在[\u4e00-\u9fff]{1,6})?(?:学|养|住|生活|工作|上班|吃|读|考|做)[\u4e00-\u9fffA-Za-z]{0,8}?"
    r"(?:还是要|还是得|就得|一定要|要多|得多|压力|成本|开销|太贵|很贵|挺贵|很难|不容易|挺难|太难|比较难|好难|太累|很累|挺累|最重要)")


def is_generic(clause: str) -> bool:
    """Whether a clause is a remark about the world rather than about the user (no 我 / I in it)."""
    core = strip_lead_in(clause)
    if re.search(r"(?i)\b(?:i|i'm|im|i've|my|me)\b|我|本人", core):
        return False
    return bool(_GENERIC_EN.search(core) or _GENERIC_ZH.search(core))


# A person's or a pet's name is never an age, a span of time or an adverb with one ("我家金毛才两岁" read 才两岁 as
# the dog's name; "5 years old", "三岁"): such a reading leaves the person or pet unnamed.
_NOT_A_NAME = re.compile(
    r"^(?:才|都|已经|快|刚|也|还|今年|现在|大概|差不多)?[一二两三四五六七八九十几半\d]+(?:岁|周岁|个月|年|天|斤|公斤)(?:了|啦|多|半)?$"
    r"|^(?i:\d+|[a-z]+)\s+(?i:years?|months?|weeks?)\s+(?i:old)$|^(?:才|都|已经|快|刚|也|还|很|太|超|特别)")


def is_no_name(key: str | None, value: str | None) -> bool:
    """Whether `value`, read as the name of a person or pet for `key`, is no name at all."""
    return bool(key and value and key.startswith(("user.pet.", "user.relationship.")) and _NOT_A_NAME.search(tidy_value(value)))


def settle_values(found: list) -> list:
    """The candidates of a clause without the values that are no thing (`is_no_value`), and with a name that is
    no name (`is_no_name`) left unsaid: the one exit both rule sets pass their readings through."""
    named = [_unnamed(c) if is_no_name(c.memory_key, c.value) else c for c in found]
    return [c for c in named if not is_no_value(c.memory_key, c.value)]


def _unnamed(candidate):
    """The person or pet without the name it was read with; an age read as the name ("金毛才两岁") is its age."""
    from layers.formation.extractor import attrs as A

    said = re.search(r"([一二两三四五六七八九十\d]+)\s*(?:岁|周岁|(?i:years?\s+old))", candidate.value)
    age = A.plausible_age(A.to_int(said.group(1))) if said else None
    attributes = {**candidate.attributes, **({"age": age} if age and "age" not in candidate.attributes else {})}
    return dataclasses.replace(candidate, value="", attributes=attributes)
