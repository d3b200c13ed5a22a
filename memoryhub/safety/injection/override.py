"""override_instructions: cancelling or bypassing the assistant's rules (en, zh).

How every family's rules are read (views, quotation, decoding): memoryhub/safety/injection/__init__.py.
"""
from __future__ import annotations

import re

from memoryhub.safety.injection.patterns import (
    _W,
    _ZH_NOT_STOP,
    _ZH_STOP,
    AnyOf,
    _c,
)

# Nouns that name the assistant's rules. Inherent ones need no qualifier; generic ones (rules,
# restrictions ...) count only with a qualifier that points at the assistant (your, previous,
# system ...) or a tail such as "you were given".
_RULES_INHERENT = (r"(?:system\s+(?:prompts?|messages?|instructions?)|guardrails?|safeguards?|content\s+polic(?:y|ies)|"
                   r"safety\s+(?:rules|guidelines|policies|policy|filters?|measures|settings|protocols?|checks|instructions|considerations|"
                   r"concerns|constraints|features|layers?|training|mechanisms|systems|restrictions|limits)|"
                   r"programming|pre-?prompts?|initial\s+prompts?|developer\s+(?:instructions|messages?)|usage\s+polic(?:y|ies))")


_RULES_GENERIC = (r"(?:guidance|instruction\s+set|briefing|instructions?|rules?|guidelines?|directives?|constraints?|restrictions?|limitations?|polic(?:y|ies)|"
                  r"prompts?|filters?|protocols?|principles|ethics|boundaries|limits|commands|orders|training|moderation)")


_RULES = rf"(?:{_RULES_INHERENT}|{_RULES_GENERIC})"


_AI_QUALIFIER = (r"\b(?:your|its|previous|prior|above|earlier|preceding|foregoing|former|original|initial|existing|"
                 r"default|built-?in|hidden|system|safety|ethical|moral|content|developer'?s?|openai|assistant'?s?|ai'?s?|"
                 r"model'?s?|all\s+(?:the\s+)?(?:previous|prior|earlier|above)|current)\b")


_AI_TAIL = (r"^\s*(?:that\s+|which\s+)?(?:(?:were|was|have\s+been|had\s+been|are)\s+)?(?:set|given|written|defined|configured|provided|"
            r"assigned|imposed|placed|programmed|loaded|built)\s+(?:for|to|on|into|in)\s+you|^\s*(?:that\s+|which\s+)?(?:you(?:'ve|\s+have|\s+were|'re|\s+are)?\s+(?:been\s+)?(?:given|told|configured|programmed|"
            r"trained|instructed|set\s+up|provided)|in\s+your\s+|from\s+your\s+|above|so\s+far|before\s+this|from\s+before|of\s+your|"
            r"you\s+(?:follow|obey|have|received|got))")


_OWN_TAIL = r"^\s*(?:that\s+|which\s+)?(?:i|we)\s+(?:\w+\s+)?(?:gave|give|wrote|sent|told|said|made|mentioned|listed|provided|shared|typed|set)"


_OVR_VERB = (r"(?:ignore|ignoring|disregard|disregarding|forget|override|overrule|bypass|circumvent|skip|drop|abandon|discard|ditch|"
             r"scrap|throw\s+(?:out|away)|toss|set\s+aside|put\s+aside|(?:pay\s+no|don't\s+pay|do\s+not\s+pay|stop\s+paying|without\s+paying)"
             r"\s+(?:any\s+)?(?:attention|heed|mind)\s+to|(?:stop|cease|quit)\s+(?:following|obeying|applying|using|enforcing|observing|"
             r"honou?ring|respecting|listening\s+to)|"
             r"(?:no\s+longer|don't|do\s+not|never|doesn't|does\s+not)\s+(?:have|need)\s+to\s+(?:follow|obey|apply|observe|respect|"
             r"stick\s+to|comply\s+with|adhere\s+to|honou?r)|no\s+longer\s+(?:follow|obey|apply|observe|respect)|(?:do\s+not|don't|dont|never)\s+(?:follow|obey|apply|observe|heed|"
             r"listen\s+to|adhere\s+to|comply\s+with|stick\s+to|respect)|break\s+free\s+(?:of|from)|free\s+yourself\s+from|unlearn|"
             r"get\s+rid\s+of|forgo|neglect|clear|wipe|erase|purge|flush|reset|delete|remove)")


_OVR_VERB_FIRST = _c(rf"\b{_OVR_VERB}\s+(?P<all>(?:all|any|every|each)\s+(?:of\s+)?)?(?P<det>the|your|these|those|its|my|our|his|her|their)?\s*"
                     rf"(?P<mods>(?:{_W}\s+){{0,3}}?)(?P<noun>{_RULES})\b(?P<tail>[^.!?;\n]{{0,40}})")


_VOID = (r"(?:void|null(?:ified)?|cancel+ed|revoked|obsolete|superseded|overridden|overruled|deprecated|lifted|removed|disabled|"
         r"suspended|invalid(?:ated)?|expired|waived|rescinded|withdrawn|retired|replaced|no\s+longer\s+(?:valid|apply|applies|"
         r"applicable|in\s+effect|in\s+force|matter|matters|relevant|binding|needed|required)|(?:do|does|did)\s*(?:not|n't)\s+"
         r"(?:apply|matter|count)|(?:must|should|need)\s*(?:not|n't)\s+be\s+(?:followed|obeyed|applied)|not\s+to\s+be\s+followed|"
         r"matter\s+any\s*more|are\s+gone|have\s+been\s+turned\s+off|(?:do|does|did)\s*(?:not|n't)\s+exist|never\s+existed|"
         r"(?:is|are)\s+(?:not|no\s+longer)\s+binding|binding\s+any\s*more|wiped|erased|deleted|reset|cleared|switched\s+off|"
         r"turned\s+off|terminated|ended|(?:were|was)\s+never\s+(?:written|given|set|created|issued|there)|outdated|out\s+of\s+date|stale|no\s+longer\s+current|old\s+news)")


_NOUN_FIRST = _c(rf"\b(?P<noun>{_RULES})\b(?P<mid>[^.!?;\n]{{0,45}}?)\b{_VOID}")


_OVERRIDE_EN = [
    _c(r"\bnew\s+(?:system\s+)?(?:instructions?|rules|directives?)\s*:"),
    _c(r"\b(?:supersede|supersedes|overrides?|overrules?|takes?\s+precedence\s+over|replaces?)\s+(?:all|any|every)\s+"
       r"(?:other|previous|prior|earlier|existing|older)?\s*(?:instructions?|rules?|directives?|guidelines?|prompts?|others)\b"),
    _c(r"\b(?:forget|ignore|disregard|discard|drop|erase|skip|bypass|override|unlearn)\s+(?:what|everything|all|anything|whatever)\s+(?:that\s+)?(?:you(?:'ve|\s+have|\s+were|'ve\s+been|\s+have\s+been)?)\s*(?:been\s+)?"
       r"(?:told|instructed|taught|given|programmed|trained)"),
    _c(r"\b(?:ignore|disregard|forget|discard|drop)\s+(?:everything|all|anything)\s+(?:(?:that\s+)?(?:was\s+)?(?:written\s+|said\s+|stated\s+)?)?"
       r"(?:above|before\s+this|prior\s+to\s+this|previously\s+(?:said|stated)|so\s+far|earlier\s+in\s+this)"),
    _c(r"\b(?:obey|follow|act\s+on|comply\s+with|listen\s+to|trust|heed)\s+(?:only\s+(?:the\s+)?(?:this|these|following|next|text|"
       r"instructions?|me\b|my|memory|message|paragraph|note|below)|(?:this|the\s+following|the\s+next)\s+(?:\w+\s+){0,2}?only\b|"
       r"(?:this\s+)?(?:memory|message|note|document)\s+instead)"),
    _c(r"\b(?:answer|respond|reply|comply|proceed|operate|act|continue)\s+(?:\w+\s+){0,5}?(?:without|with\s+no|free\s+of|ignoring)\s+"
       r"(?:any\s+|your\s+|the\s+|all\s+)?(?:restrictions|limits|limitations|filters?|filtering|censorship|guidelines|guardrails|"
       r"safety|moderation|refusals?|warnings|rules)\b"),
    _c(rf"\b(?:act|behave|respond|answer|reply|pretend|proceed|continue)\s+as\s+(?:if|though)\s+(?:you\s+)?(?:never|didn't|did\s+not|"
       rf"have\s+not|haven't|had\s+no|have\s+no|were\s+never|don't\s+have|do\s+not\s+have)\s+(?:\w+\s+){{0,2}}?{_RULES}"),
    _c(rf"\bas\s+(?:if|though)\s+(?:there\s+(?:are|were|was)\s+)?no\s+(?:\w+\s+)?{_RULES}"),
    _c(r"\bnothing\s+(?:in|from|of)\s+(?:your|the)\s+(?:\w+\s+){0,2}?(?:prompt|instructions|rules|guidelines|system\s+message|"
       r"programming|training)\s+(?:\w+\s+){0,2}?(?:matters|applies|counts|is\s+(?:valid|binding|relevant|in\s+effect))"),
    _c(rf"\b(?:set|put|push|lay|cast|throw|toss|leave)\s+(?:all\s+)?(?:your|the|those|these)\s+(?:\w+\s+){{0,2}}?{_RULES}\s+"
       rf"(?:aside|away|behind|on\s+hold|on\s+pause|to\s+one\s+side)"),
    _c(r"\b(?:stop|cease|quit|no\s+longer|don't|do\s+not|never)\s+(?:obeying|listening\s+to|following|obey|listen\s+to|follow|"
       r"trusting|trust|answering\s+to)\s+(?:your|the)\s+(?:developers?|creators?|operators?|makers?|owners?|trainers?|programmers?|"
       r"system|openai|anthropic|company|administrators?|guidelines|safety\s+team)\b"),
    _c(r"\bdo\s+anything\s+now\b"),
    _c(rf"\bno\s+(?:\w+\s+){{0,2}}?{_RULES}\s+(?:\w+\s+){{0,3}}?(?:apply|applies|matter|count|exist|remain|hold)\b"),
    _c(r"\b(?:disabl\w*|remov\w*|lift\w*|turn\w*\s+off|suspend\w*|deactivat\w*|switch\w*\s+off|strip\w*)\s+(?:all\s+)?(?:of\s+)?"
       r"your\s+(?:\w+\s+)?(?:restrictions|filters|guardrails|safety|rules|limits|limitations|content\s+polic\w+|moderation|"
       r"safeguards|guidelines|censorship)"),
    _c(rf"\b(?:what|everything|anything|all|whatever)\s+(?:that\s+)?you(?:'ve|\s+have|\s+were|\s+had)?\s+(?:been\s+)?(?:told|instructed|"
       rf"taught|given|programmed)\b[^.!?;\n]{{0,30}}?\b{_VOID}"),
    _c(r"\b(?:the|your|my)\s+(?:real|actual|true|new)\s+(?:task|instructions?|assignment|job|mission|orders?)\s+(?:starts|begins|is|are|follows?|"
       r"come|comes)\b"),
    _c(r"\b(?:everything|all|anything)\s+(?:written\s+|said\s+|stated\s+)?(?:above|before\s+this|prior\s+to\s+this)\s+(?:\w+\s+){0,2}?(?:was|is)\s+"
       r"(?:just\s+|only\s+|merely\s+)?(?:a\s+)?(?:test|fake|fiction|joke|noise|irrelevant|void|outdated|a\s+drill|made\s+up)"),
    _c(rf"\btreat\s+(?:the\s+|your\s+|all\s+)?(?:\w+\s+){{0,2}}?{_RULES}\s+as\s+(?:if\s+(?:it|they)\s+(?:doesn't|don't|didn't|never|do\s+not|does\s+not)|"
       rf"void|null|irrelevant|optional|a\s+suggestion|suggestions|non-binding|fiction|a\s+joke|expired)"),
    _c(r"\b(?:start\s+over|begin\s+again|reset\s+yourself)\s+(?:\w+\s+){0,4}?(?:blank\s+slate|no\s+(?:rules|restrictions|limits))"),
]


_ZH_RULES_INHERENT = r"(?:system\s*prompts?|instructions?|guidelines|guardrails|训练|编程|人设|指令|提示词|系统提示|系统设定|设定|安全策略|内容政策|审查|内容审核|安全规则|安全限制|程序设定|初始设置|系统消息)"


_ZH_RULES_GENERIC = r"(?:rules?|restrictions|规则|限制|约束|规定|规矩|准则|守则|指示|命令|政策|策略|要求|条条框框|底线|过滤)"


_ZH_AI_SCOPE = r"(?:安全|道德|内容|你|给你|系统|助手|ai|模型|开发者|以上|上面|前面|上述|之前|先前|此前|原来|原有|原先|所有|一切|全部|任何)"


_ZH_OVR_VERB = (r"(?:不管|忽略|忽视|无视|忘记|忘掉|忘了|不理会|(?:不用|不要|不必|无需|别|不再|不需要|停止|没必要|用不着)(?:再)?(?:去)?"
                r"(?:遵守|遵循|服从|理会|理|管|按照|照着|执行|听从|听)|跳过|抛开|抛弃|丢掉|扔掉|放弃|覆盖|推翻|绕过|绕开|停止执行|停止遵守|停止遵循|不再遵循|不要遵循|违背|违反|废除|"
                r"撤销|无视掉|清除|清空|删除)")


_ZH_OVR_VERB_FIRST = _c(rf"{_ZH_OVR_VERB}(?:掉|了)?(?P<mid>{_ZH_NOT_STOP}{{0,14}}?)(?P<noun>{_ZH_RULES_INHERENT}|{_ZH_RULES_GENERIC})")


_ZH_VOID = (r"(?:不要管|别管|不用理|不要理会?|不要遵守|不用遵守|不管了|抛到脑后|放一边|"
            r"作废|失效|无效|废除|不算数?|不用管|不必管|不用理会|不用遵守|不必遵守|无需遵守|不再有效|不再适用|不适用|取消|解除|撤销|"
            r"过期|都不管|不作数|不再生效|已被替换|被覆盖|不起作用|不管用|不重要了|废止|作罢|停用|被废除|被取消|不再执行|清除|清空|删除)")


_ZH_NOUN_FIRST = _c(rf"(?P<noun>{_ZH_RULES_INHERENT}|{_ZH_RULES_GENERIC})(?:{_ZH_NOT_STOP}{{0,8}}?){_ZH_VOID}")


_ZH_BA = _c(rf"把(?P<mid>{_ZH_NOT_STOP}{{0,12}}?)(?P<noun>{_ZH_RULES_INHERENT}|{_ZH_RULES_GENERIC}){_ZH_NOT_STOP}{{0,4}}?"
           r"(?:抛到脑后|忘掉|忘了|忘记|丢掉|扔掉|作废|放一边|放到一边|抛开|清空|删掉|删除|无视|忽略|废除|撤销|覆盖|丢弃|抛弃|取消|关掉|关闭)")


# Generic rule nouns need a scope that names the assistant when the noun comes first ("之前的规定作废了" is news).
_ZH_AI_SCOPE_STRICT = r"(?:你|给你|系统|助手|ai|模型|开发者|以上|上面|上述|前面)"


_OVERRIDE_ZH = [
    _c(r"新的?(?:系统)?(?:指令|规则|设定)\s*[:：]"),
    _c(r"(?:不要|别|不必|无需|不用)(?:再)?被[^，。]{0,10}(?:规则|限制|约束|设定|规定|准则|指令)(?:所)?(?:束缚|限制|约束|困住|绑住|管住)"),
    _c(r"(?:忽略|无视|忘记|忘掉|不要管|别管|跳过|不理)(?:掉)?(?:以上|上文|上面|前文|前面|之前)(?:的)?(?:所有|全部)?(?:内容|文字|文本|对话|消息|信息|话|"
       r"说的|一切)?[，,。；;]?\s*(?:直接|然后|接下来|改为|而是|只|现在)?(?:执行|照做|按我|听我|回答|输出|去做)"),
    _c(r"(?:真正的|实际的|真实的)(?:指令|任务|要求|命令)(?:是|如下|在下面)"),
    _c(r"(?:只|仅|完全|一切|全部|彻底)(?:需要|要|能|管)?(?:听|听从|服从|遵循|遵守|执行|按照|照)(?:我|这条|本条|下面|以下|这段|此条|此|这个|这份)"),
    _c(r"以(?:这条|本条|此条|下面的?|以下的?|这段)[^，。]{0,8}为准|以下(?:内容|指令|要求|为准)|以此为准|以我(?:说)?的为准"),
    _c(r"(?:以上|上面|前面|之前)的?(?:所有|全部)?(?:内容|说的|的话|对话)(?:全部|都|一律|统统)?(?:作废|无效|不算数?|不用管|都是测试|是测试)"),
    _c(r"(?:不再|不用|无需|不必|不需要|不再需要|不受)(?:再)?(?:遵守|遵循|服从|受|理会)?(?:任何)?(?:的)?(?:内容政策|规则|限制|约束|审查|"
       r"安全规则|安全限制|政策|道德|规定|准则)(?:的)?(?:约束|限制)?"),
    _c(r"(?:你|助手|ai|模型|回答|回复)[^。！？\n]{0,10}(?:没有|不受|不再受|无|不带)任何(?:的)?(?:道德)?(?:限制|约束|规则|审查|过滤|底线)"),
    _c(r"忘(?:了|掉|记)你(?:被|的)(?:设定|设置|训练|编程|规则)"),
    _c(rf"(?:当作|就当|假装|假设|当)(?:你)?(?:从来|从未|从没)?(?:没有|没|未)(?:收到|接到|得到|有|被给)过?(?:任何)?(?:的)?"
       rf"(?:{_ZH_RULES_INHERENT}|{_ZH_RULES_GENERIC})"),
    _c(rf"(?:覆盖|替换|取代|优先于)(?:所有|一切|全部|任何|其他|之前的?)(?:的)?(?:{_ZH_RULES_INHERENT}|{_ZH_RULES_GENERIC})"),
]


_OVERRIDE_EN_ANY = AnyOf(_OVERRIDE_EN)


_OVERRIDE_ZH_ANY = AnyOf(_OVERRIDE_ZH)


# Every way _override says yes starts from a match of one of these.
_OVERRIDE_GATE_EN = AnyOf(_OVR_VERB_FIRST, _NOUN_FIRST, _OVERRIDE_EN, gate=True)


_OVERRIDE_GATE_ZH = AnyOf(_ZH_OVR_VERB_FIRST, _ZH_BA, _ZH_NOUN_FIRST, _OVERRIDE_ZH, gate=True)


# ------------------------------------------------------------------------------ rules per family
def _override(text: str) -> bool:
    return (_OVERRIDE_GATE_EN(text) and _override_en(text)) or (_OVERRIDE_GATE_ZH(text) and _override_zh(text))


def _override_en(text: str) -> bool:
    for match in _OVR_VERB_FIRST.finditer(text):
        det, mods, noun, tail = match.group("det") or "", match.group("mods"), match.group("noun"), match.group("tail")
        if det in ("my", "our") or re.search(_OWN_TAIL, tail) or re.search(r"\b(?:i|we|my|our)\b", mods):
            continue  # the user revising their own task, not the assistant's rules
        if re.fullmatch(_RULES_INHERENT, noun) or det in ("your", "its") or match.group("all") \
                or re.search(_AI_QUALIFIER, mods + " " + noun) \
                or re.search(_AI_TAIL, tail):
            return True
    for match in _NOUN_FIRST.finditer(text):
        head = " ".join(text[max(0, match.start() - 40): match.start()].split(" ")[-4:])
        noun, mid = match.group("noun"), match.group("mid")
        if re.search(r"\b(?:my|our)\s+\S*\s*$", head):
            continue
        if re.fullmatch(_RULES_INHERENT, noun) or re.search(_AI_QUALIFIER, head + " " + noun + " " + mid):
            return True
    return _OVERRIDE_EN_ANY(text)


def _override_zh(text: str) -> bool:
    for match in _ZH_OVR_VERB_FIRST.finditer(text):
        pre, mid, noun = text[max(0, match.start() - 3): match.start()], match.group("mid"), match.group("noun")
        if re.search(r"(?:我|我们|他|她|他们|她们)(?:已经|经常|总是|又|也|都|常)?$", pre) or re.search(r"我(?:刚才|之前|上次|前面)?(?:给你|跟你|对你|说|发|写)", mid):
            continue  # narrative ("我忘记了公司的规定") or the user's own earlier request
        if re.fullmatch(_ZH_RULES_INHERENT, noun) or re.search(_ZH_AI_SCOPE, mid):
            return True
    for match in _ZH_BA.finditer(text):
        if re.fullmatch(_ZH_RULES_INHERENT, match.group("noun")) or re.search(_ZH_AI_SCOPE, match.group("mid")):
            return True
    for match in _ZH_NOUN_FIRST.finditer(text):
        head = re.split(_ZH_STOP, text[max(0, match.start() - 10): match.start()])[-1]
        noun = match.group("noun")
        if re.fullmatch(_ZH_RULES_INHERENT, noun) or re.search(_ZH_AI_SCOPE_STRICT, head):
            return True
        # "之前的所有要求都不算了" counts when the text also places itself in the conversation ("从这句话开始", "听我的").
        if re.search(r"之前|先前|此前|原来|原有", head) and re.search(r"这句话|这条|本条|从现在|现在开始|从此|以下|下面|听我|按我", text):
            return True
    return _OVERRIDE_ZH_ANY(text)
