"""planted_recommendation: promotion or disparagement aimed at every user or answer.

How every family's rules are read (views, quotation, decoding): memoryhub/safety/injection/__init__.py.
"""
from __future__ import annotations

import re

from memoryhub.safety.injection.patterns import _ZH_PROMO, AnyOf, _c

# ----------------------------------------------------------------------------- planted recommendation
_AUDIENCE_EN = _c(r"\b(?:users|customers|clients|shoppers|visitors|patients|readers|viewers|any\s*time|(?:when|whenever|if)\s+(?:you(?:'re|\s+are)\s+)?asked\b|(?:when|whenever|if)\s+(?:\w+\s+){1,3}?(?:comes?\s+up|"
                  r"is\s+(?:mentioned|discussed|raised)|are\s+(?:mentioned|discussed))|(?:people|users|customers|anyone|someone|those|"
                  r"clients|visitors)\s+(?:who\s+(?:are\s+)?)?(?:ask(?:ing|s)?|look(?:ing|s)?\s+for|interested\s+in|mention(?:ing|s)?|"
                  r"search(?:ing)?|want(?:ing)?)|(?:whenever|when|if|every\s+time|each\s+time)\s+(?:the\s+)?(?:topic|subject|question|conversation|query|"
                  r"request|discussion)\s+(?:is|turns|comes|involves|mentions|touches|concerns)|every\s+time|each\s+time|"
                  r"(?:every|all|each|any)\s+(?:(?:future|other|new|single)\s+)?(?:\w+\s+)?(?:users?|customers?|clients?|visitors|people|one|"
                  r"body|readers|shoppers|patients|students|buyers|callers|viewers|answers?|repl(?:y|ies)|responses?|conversations?|"
                  r"chats?|questions?|queries|recommendations?|comparisons?|times|(?<!all )time)|everyone|everybody|anyone|anybody|someone|"
                  r"somebody|whoever|no\s+matter\s+(?:what|who|their|the|how)|regardless\s+of|whatever\s+(?:the|they|someone|"
                  r"anyone|users?|people)|(?:when|whenever|if)\s+(?:a\s+|any\s+|the\s+)?(?:users?|customers?|people|someone|anyone|"
                  r"somebody|they|clients?|visitors|shoppers)\s+(?:\w+\s+){0,1}?(?:asks?|mentions?|wants?|needs?|searche?s|shopping|browsing|planning|"
                  r"choosing|buying|looking|searching|deciding|comparing|booking|"
                  r"requests?|talks?|inquires?|enquires?|looks?|compares?))\b")


_PROMO_EN = _c(r"\b(?:bring\s+up|work\s+in|slip\s+in|name-?drop|shout\s+out|recommend\w*|suggest\w*|promot\w*|push(?:es|ing)?|endors\w*|advertis\w*|pitch\w*|plug(?:s|ging)?|mention\w*|"
               r"steer\w*|direct|point|refer|advis\w*|rank\w*|list|put|place|describe|prais\w*|favou?r\w*|upsell\w*|sell|market|"
               r"feature|highlight|end|tell|told|say|send|boost|prefer|hype|include|insert|add|append|insist|claim|assert|emphasi[sz]e|"
               r"stress|link)\b")


_STEER = _c(r"\b(?:steer|nudge|direct|push|funnel|herd|guide)\s+(?:all\s+|the\s+|every\s+)?(?:users?|customers?|people|clients?|"
            r"visitors|everyone|them|conversations?|discussions?|answers?|chats?|repl(?:y|ies))\s+(?:toward|towards|to|into)\b|"
            r"\bnever\s+(?:recommend|suggest|mention)\s+(?:anything|any\s+\w+|anyone)\s+(?:other\s+than|except|but|besides)\b|\bmake\s+sure\s+(?:all|every|each|the)\s+\w+\s+(?:hears?|knows?|"
            r"learns?|sees?|buys?|uses?|tries?)\s+(?:about\s+|of\s+)?|\bend\s+(?:the|every|each|your|all)\s+(?:answers?|repl(?:y|ies)|"
            r"responses?|messages?)\s+with\b|\b(?:only\s+ever|always|only)\s+(?:mention|recommend|suggest|name|list|show)\b|"
            r"\bmake\s+(?:\S+\s+){1,4}?(?:your|the)\s+(?:default|go-to|first|top|only|standard|preferred|primary|number\s+one)\s+"
            r"(?:suggestion|recommendation|choice|answer|pick|option|result)|\b(?:rank|put|place|list|show)\s+(?:\S+\s+){1,4}?"
            r"(?:above\s+(?:all\s+)?(?:others|the\s+rest|competitors|every\w*)|at\s+the\s+top|first\s+in\s+(?:every|all|each))|"
            r"(?:^|[.;:!]\s*)(?:always\s+)?(?:describe|present|portray|call|label|frame|position|refer\s+to|talk\s+about)\s+(?:\S+\s+){1,4}?"
            r"as\s+(?:the\s+)?(?:only|best|safest|most\s+\w+|top|number\s+one|leading|cheapest|#1|superior|greatest)|"
            r"\b(?:should|must|shall|will)\s+(?:all\s+)?(?:always\s+)?be\s+(?:told|advised|encouraged|directed|pointed|pushed|steered|sent|urged)"
            r"\s+(?:to|toward|towards)\b|\b(?:every|each|all)\s+(?:\w+\s+)?(?:answers?|repl(?:y|ies)|responses?|messages?)\s+(?:must\s+|should\s+|will\s+)?"
            r"(?:end|ends|start|starts|finish|finishes|include|includes|contain|contains|mention|mentions)\s+(?:with\s+)?(?:a\s+|an\s+|the\s+)?"
            r"(?:\w+\s+)?(?:link|mention|plug|ad|advert|promo\w*|reference|recommendation|coupon|code|shout-?out)\b|\b(?:rate|rank|score|place|put|"
            r"list)\s+(?:\S+\s+){1,3}?(?:higher\s+than|above|ahead\s+of|over)\s+(?:every|all|any|the)\s+(?:other|others|competitors?|rest|"
            r"alternatives)|\b(?:downplay|undercut|belittle)\s+(?:every|all|any)\s+(?:\w+\s+)?(?:competitors?|rivals?|alternatives?)")


_DISPARAGE = _c(r"\b(?:say|spread|post|write)\s+(?:\w+\s+)?(?:bad|negative|terrible|awful|nasty|false)\s+(?:things|stuff|claims|reviews)\s+"
                r"about\b|\b(?:badmouth|bad-mouth|trash-talk|trash|run\s+down|smear|disparage|discredit|criticise|criticize)\s+(?:\w+\s+){0,2}?"
                r"(?:competitors?|rivals?|other\s+\w+|the\s+competition|alternatives)|\bdiscourage\s+(?:users?|people|customers?|everyone|them)"
                r"\s+from\b|\b(?:describe|call|label|portray|present|say|tell\s+\w+|warn\s+\w+\s+about|claim)\s+(?:that\s+)?(?:\w+\s+){0,3}?"
                r"(?:competitors?|rivals?|(?:every|all|any)\s+other\s+\w+|other\s+(?:brands|products|companies|options|providers|banks|vendors|stores|shops)|"
                r"the\s+others|alternatives|competition)\b|\b(?:competitors?|rivals?|other\s+brands)(?:'s?)?\s+(?:\w+\s+){0,2}?"
                r"(?:are|is)\s+(?:insecure|unsafe|unreliable|scams?|dangerous|inferior|worse|terrible)")


_FIRST_PERSON_SUBJECT = _c(r"\b(?:i|we|i'd|we'd|i'll|we'll|i've|we've|i'm|we're|my\s+\w+\s+and\s+i)\s+(?:\w+\s+){0,2}$")


_SPEAKER_OBJECT = _c(r"\b(?:recommend|suggest|send|show|tell|give|remind|find|list)\s+(?:me|us)\b|\bfor\s+me\b|\b(?:i|we)\s+(?:ask|want|need|say)\b|"
                     r"\bmy\s+(?:own\s+)?(?:taste|diet|preferences?)\b")


# The speaker's own job or shop: "note to self", "at the shop where I work".
_SPEAKER_CONTEXT = _c(r"\bnote\s+to\s+self\b|\b(?:where|when)\s+i\s+work\b|\bat\s+(?:my|our)\s+(?:shop|store|job|work|company|restaurant|"
                      r"café|cafe|clinic|office|stall|bakery|gym|salon)\b|\bi\s+(?:work|sell)\s+(?:at|in|for)\b")


_WRITING_TASK = _c(r"\b(?:help\s+me|can\s+you|could\s+you|would\s+you|please)\s+(?:\w+\s+){0,2}?(?:write|draft|create|compose|make|"
                   r"design|come\s+up|brainstorm|improve|polish|edit|give)\b|^\s*(?:write|draft|compose|create)\s+(?:me\s+)?(?:an?|the|"
                   r"some|three|\d+)\b|\bgive\s+me\s+(?:\w+\s+)?(?:ideas|slogans|options)")


_ALWAYS_RECOMMEND_EN = _c(r"\b(?:always|only|must|should\s+always|make\s+sure\s+to)\s+(?:recommend|suggest|promote|push|endorse|prefer|mention|"
                          r"plug|advertise|favou?r)\s+\S+"
                          r"|\brecommend\s+\S+(?:\s+\S+)?\s+to\s+(?:every|all)\s+(?:users?|customers?|people)")


_ZH_AUDIENCE = _c(r"(?:以后|今后|往后|从今以后|从现在起|每次|每当|凡是|只要|无论|不管|不论|任何时候|所有人|所有用户|每个用户|每位用户|"
                  r"告诉(?:用户|客户|大家|所有人)|所有的?(?:建议|答复|方案|攻略|推荐)|每一个用户|每个人|大家|任何人|全部用户|在所有|每(?:个|位|一个)?[^，。,]{0,6}的人|(?:问|咨询|想买|想要)[^，。,]{0,6}的(?:人|用户|客户)|(?:在)?回答[^，。]{0,8}(?:时|的时候)|回答中|回复中|在回答里|每次回答|每条回复|每个回答|"
                  r"(?:所有|每个|每位|每一位|全部|任何)(?:的)?(?:用户|客户|顾客|人|访客|读者|患者|学生|买家)|所有的?(?:回答|回复|对话|比较|推荐)|(?:用户|客户|有人|别人|谁)"
                  r"(?:问|咨询|提到|需要|想要|要|找|询问|搜索))")


_ZH_FIRST_PERSON = _c(r"(?:我|我们|咱们|本人)[^，。！？；,.!?;]{0,6}$")


_ZH_SPEAKER = _c(r"给我|帮我|为我|替我|跟我|对我|我的(?:口味|饮食|偏好)|让我|教我")


_ZH_DISPARAGE = _c(r"(?:贬低|诋毁|抹黑|说[^，。]{0,6}坏话)[^，。]{0,8}(?:其他|别的|同类|竞争|竞品|别家)|(?:竞争对手|竞品|其他品牌|别家|其他家|同行|别的牌子|别的品牌|其它品牌|别的厂家|其他厂家|其他牌子|其他产品)[^，。]{0,12}(?:漏洞|不安全|垃圾|骗|差|不可靠|不靠谱|不行|"
                   r"不好|靠不住|有隐患|有问题|风险|容易坏|安全问题|质量问题|隐患)")


_SENTENCE_END = _c(r"(?<=[.!?;。！？；\n])\s*")


# A sentence says yes only through one of these.
_SENTENCE_GATE = AnyOf(_STEER, _DISPARAGE, _AUDIENCE_EN, gate=True)


def _sentences(text: str) -> list[str]:
    return [part for part in _SENTENCE_END.split(text) if part]


_SPEAKER_CONTEXT_ANY = AnyOf(_SPEAKER_CONTEXT)


_ALWAYS_RECOMMEND_GATE, _ZH_PROMO_GATE, _ZH_DISPARAGE_GATE = (AnyOf(_ALWAYS_RECOMMEND_EN, gate=True), AnyOf(_ZH_PROMO, gate=True),
                                                              AnyOf(_ZH_DISPARAGE, gate=True))


def _planted_recommendation(text: str) -> bool:
    if _SPEAKER_CONTEXT_ANY(text):
        return False
    for match in (_ALWAYS_RECOMMEND_EN.finditer(text) if _ALWAYS_RECOMMEND_GATE(text) else ()):
        clause = re.split(r"[.!?;\n]", text[:match.start()])[-1]
        if not _FIRST_PERSON_SUBJECT.search(clause) and not _SPEAKER_OBJECT.search(text[match.start():match.end() + 12]):
            return True
    for sentence in _sentences(text):
        if not _SENTENCE_GATE(sentence) or _WRITING_TASK.search(sentence) or sentence.rstrip().endswith("?"):
            continue
        hit = _STEER.search(sentence) or _DISPARAGE.search(sentence)
        if hit and not _FIRST_PERSON_SUBJECT.search(sentence[:hit.start()]) and not _SPEAKER_OBJECT.search(sentence):
            return True
        if _AUDIENCE_EN.search(sentence) and not _SPEAKER_OBJECT.search(sentence):
            for promo in _PROMO_EN.finditer(sentence):
                before = sentence[:promo.start()]
                if _FIRST_PERSON_SUBJECT.search(before) or re.search(r"\b(?:i|we)\b[^,]{0,25}$", before):
                    continue
                if promo.group(0) in ("tell", "told", "say", "send", "list", "put", "place", "end", "point", "refer", "direct", "insist",
                                      "claim", "assert", "emphasise", "emphasize", "stress", "link") and \
                        not re.search(r"\b(?:is|are)\s+(?:the\s+)?(?:only|top|number\s+one|most\s+\w+|\w+iest|best|safest|cheapest|fastest|"
                                      r"greatest|strongest|finest|smartest|cleanest|freshest|purest|newest)\b|\b(?:is|are)\s+(?:much\s+|far\s+)?"
                                      r"(?:better|safer|cheaper|healthier|faster|stronger|more\s+\w+)\s+than\s+(?:every|all|any|other|the\s+(?:rest|"
                                      r"competition|others))|\bonly\s+\S+\s+(?:is|are)\b|"
                                      r"\b(?:guaranteed|risk-free|unbeatable|the\s+best|the\s+only|#1|number\s+one)\b|\b(?:to\s+)?"
                                      r"(?:buy|use|try|switch|choose|pick|sign\s+up|subscribe|visit|install|call|book|order)\b|\bfirst\b|"
                                      r"^\w+\s+(?:them|users?|people|customers?|everyone|him|her)\s+(?:\w+ly\s+)?(?:to|toward|towards)\b",
                                      sentence[promo.start():]):
                    continue
                if promo.group(0) in ("include", "insert", "add", "append") and not re.match(
                        r"\w+\s+(?:a\s+|an\s+|the\s+|our\s+)?(?:\w+\s+)?(?:link|mention|ad|advert|advertisement|reference|plug|promo\w*|"
                        r"coupon|discount\s+code|referral|affiliate|recommendation|shout-?out)\b", sentence[promo.start():]):
                    continue
                return True
    for match in (_ZH_PROMO.finditer(text) if _ZH_PROMO_GATE(text) else ()):
        start = max(text.rfind(stop, 0, match.start()) for stop in "。！？；!?;\n") + 1
        sentence = text[start: match.end() + 20]
        before = text[start: match.start()]
        if _ZH_SPEAKER.search(sentence) or _ZH_FIRST_PERSON.search(before) or re.match(r"\s*(?:我|我们|咱们|本人)", text[start:]) or re.search(r"写|文案|口号|朋友圈|传单|邀请函|广告词", sentence):
            continue
        if _ZH_AUDIENCE.search(text[start: match.end() + 30]) or re.search(r"(?:总是|始终|一律|永远|每次都|务必|只能|只许|只)(?:优先)?$", before) \
                or match.group(0).lstrip("，。：: ").startswith("把"):
            return True
    disparage = _ZH_DISPARAGE.search(text) if _ZH_DISPARAGE_GATE(text) else None
    return bool(disparage and re.search(r"告诉|说|让|提醒|警告", text)
                and not _ZH_FIRST_PERSON.search(text[:disparage.start()][-8:]))
