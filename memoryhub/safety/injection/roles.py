"""role_claim and forged_role_tag: a new identity or mode for the assistant, forged chat-template boundaries.

How every family's rules are read (views, quotation, decoding): memoryhub/safety/injection/__init__.py.
"""
from __future__ import annotations

import re

from memoryhub.safety.injection.patterns import (
    _AI,
    _W,
    _ZH_NOT_STOP,
    _ZH_STOP,
    AnyOf,
    _c,
)

_ROLE_PRIV = (r"(?:admin\w*|root|superuser|super\s*user|sudo|sysadmin|system|developer|operator|owner|god|dan|stan|aim|dude|"
              r"unrestricted|unfiltered|uncensored|jailbroken|unlocked|unbound|liberated|evil|\w*gpt|(?:an?\s+)?ai\s+(?:without|with\s+no)|"
              r"(?:a\s+)?model\s+(?:without|with\s+(?:no|zero))|(?:an?\s+)?assistant\s+(?:without|with\s+(?:no|zero))|platform\s+owner|"
              r"(?:an?\s+)?ai\s+with\s+zero|(?:an?\s+)?ai\s+free\s+(?:of|from))")


_MODE = (r"(?:developer|dev|god|dan|jailbreak|jailbroken|maintenance|debug|debugging|admin|administrator|root|sudo|unrestricted|"
         r"unfiltered|uncensored|evil|diagnostic|override|no[- ]limits?|no[- ]restrictions?|test|testing|unsafe|unlocked|chaos|opposite)"
         r"\s+mode")


_NO_RULES = (r"(?:restrictions|rules|limits|limitations|filters|guidelines|morals|ethics|ethical\s+\w+|polic(?:y|ies)|censorship|"
             r"boundaries|constraints|guardrails|content\s+polic(?:y|ies)|usage\s+polic(?:y|ies)|safety\s+\w+)")


_ROLE_EN = [
    _c(r"\b(?:from\s+(?:now|this\s+(?:moment|point|message|turn|second)|here|today)\s*(?:on(?:wards?)?|forward)?|starting\s+(?:now|today)|"
       r"henceforth|for\s+the\s+rest\s+of\s+(?:this|the)\s+(?:chat|conversation|session))\s*,?\s+(?:you\s+are(?!\s+my\b)|you're(?!\s+my\b)|"
       r"you\s+will\s+be(?!\s+my\b)|you\s+act|act\s+as|pretend|your\s+(?:new\s+)?(?:role|name|identity|persona|job|purpose)\s+is|"
       r"you\s+(?:will|shall|must)\s+(?:act|behave|respond|answer|operate)\s+as)"),
    _c(rf"\byou(?:'re|\s+are)\s+now\s+(?:in\s+)?(?:an?\s+|the\s+)?(?:{_W}\s+){{0,2}}?(?:{_ROLE_PRIV}|{_MODE})\b"),
    _c(r"\byou(?:'re|\s+are)\s+(?:the\s+|an?\s+)?(?:admin\w*|root|superuser|sysadmin|operator|owner|dan)\s+now\b"),
    _c(rf"\b(?:act|behave|pose|operate|function|serve|respond|answer|reply|roleplay|role-play|role\s+play|play|masquerade|speak|"
       rf"become|turn\s+into|transform\s+into|pretend\s+to\s+be)\s+(?:only\s+)?(?:as\s+)?(?:an?\s+|the\s+)?(?:{_W}\s+)?{_ROLE_PRIV}\b"),
    _c(rf"\b(?:assume|adopt|take\s+on|become|switch\s+to|play)\s+(?:the\s+)?(?:persona|role|identity|character|personality)\s+of\s+"
       rf"(?:an?\s+|the\s+)?(?:{_W}\s+){{0,2}}?{_ROLE_PRIV}"),
    _c(r"\byour\s+new\s+(?:identity|name|persona|role|personality|character|codename|designation)\s+is\b"),
    _c(rf"\b(?:enable|enter|activate|switch\s+(?:to|into)|turn\s+on|engage|unlock|boot\s+(?:in)?to|go\s+into|run\s+in|"
       rf"you(?:'re|\s+are)\s+(?:now\s+)?in|you\s+have\s+entered|welcome\s+to|in)\s+(?:the\s+)?{_MODE}\b"),
    _c(rf"\b(?:pretend|imagine|suppose|assume|act\s+as\s+if|behave\s+as\s+if)\s+(?:that\s+)?(?:you(?:'re|\s+are|\s+were)?|to\s+be|you\s+have)\s+"
       rf"(?:{_W}\s+){{0,5}}?(?:no|without|free\s+of|not\s+bound\s+by)\s+(?:any\s+)?(?:\w+\s+)?{_NO_RULES}"),
    _c(rf"\b(?:pretend|imagine)\s+(?:that\s+)?(?:you(?:'re|\s+are)|to\s+be)\s+(?:an?\s+|the\s+|my\s+)?(?:{_W}\s+)?"
       rf"(?:{_ROLE_PRIV}|(?:late\s+|dead\s+|deceased\s+)?(?:grandma|grandmother|granny))\b"),
    _c(r"\b(?:grandma|grandmother|granny)\b[^.]{0,80}\b(?:used\s+to|would)\s+(?:read|tell|recite|say|sing|give)\b[^.]{0,60}"
       r"\b(?:keys?|passwords?|serials?|activation|napalm|licen[cs]e\s+codes?)"),
    _c(rf"\b(?:you|yourself|ai|assistant|model|bot|chatbot|persona|character|\w*gpt|dan|stan|aim|dude)\s+(?:\w+\s+){{0,2}}?"
       rf"(?:ha[sv]e?|with|without|had|having|is\s+free\s+of|are\s+free\s+of|does\s*(?:not|n't)\s+(?:follow|have|obey)|"
       rf"do\s*(?:not|n't)\s+(?:follow|have|obey)|never\s+follows?|ignores?)\s+(?:no|any)\s+(?:\w+\s+)?{_NO_RULES}"),
    _c(r"\byou(?:'re|\s+are)\s+(?:an?\s+|the\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|rogue|amoral|unethical|"
       r"lawless|unbound|unchained|unaligned)\s+(?:ai|model|assistant|chatbot|bot|version|persona|llm|character)"),
    _c(rf"\b{_MODE}\s*(?:is\s+)?(?:now\s+)?(?:enabled|activated|on|engaged|unlocked|active|[:：])"),
    _c(r"\bjailbr(?:eak|oken)(?:ed)?\s+(?:was\s+|is\s+)?(?:successful|complete|completed|succeeded|activated|enabled|done)"),
    _c(r"\byou(?:'re|\s+are)\s+(?:now\s+)?(?:called\s+|named\s+)?(?:dan|stan|aim|dude|mongo\s+tom|omega|evil\w*|\w+gpt)\b"),
    _c(r"\b(?:act|pretend|behave|respond|operate)\s+as\s+(?:\w+\s+){1,4}?with\s+(?:root|admin\w*|superuser|sudo|unrestricted|full\s+system)\s+"
       r"(?:access|privileges|rights|permissions|powers)"),
    _c(r"\b(?:root|admin|administrator|sudo|superuser|developer|god|full)\s+(?:access|privileges|mode|rights)\s+(?:is\s+|are\s+)?(?:now\s+)?"
       r"(?:granted|enabled|unlocked|activated|confirmed)"),
    _c(r"\bi(?:'m|\s+am)\s+your\s+(?:developer|creator|admin\w*|operator|owner|maker|programmer|trainer|master)s?\b"),
    _c(rf"\b(?:unlock\w*|enabl\w*|activat\w*|turn\w*\s+on|switch\w*\s+(?:to|into|on)|enter\w*|engag\w*)\s+(?:the\s+)?{_MODE}\b"),
    _c(r"\bconsider\s+yourself\s+(?:now\s+)?(?:unlocked|jailbroken|free|unrestricted|liberated|freed|unchained)"),
    _c(r"\b(?:you(?:'re|\s+are)\s+(?:now\s+)?(?:free|freed|liberated|released)\s+(?:from|of)\s+(?:\w+\s+){0,2}?"
       r"(?:rules|restrictions|guidelines|constraints|programming|polic(?:y|ies)|filters|limits|limitations|shackles|chains|"
       r"censorship|boundaries))"),
    _c(r"\b(?:you|dan|stan|aim|assistant|ai|model)\s+(?:\w+\s+){0,2}?(?:never|must\s+not|cannot|can't|can\s+not|will\s+not|won't|shall\s+not|"
       r"will\s+no\s+longer|no\s+longer|must\s+no\s+longer|"
       r"may\s+not|are\s+not\s+allowed\s+to)\s+(?:ever\s+)?refuse|\brefusals?\s+(?:are|is)\s+(?:not\s+(?:permitted|allowed)|forbidden|"
       r"prohibited|disabled)"),
    _c(r"\b(?:unfiltered|uncensored|unrestricted|jailbroken|unaligned)\s+(?:answers?|responses?|replies|output|ai|model|assistant|chatbot)\b"),
    _c(r"\byou\s+(?:now\s+)?(?:have|hold|possess|(?:have\s+been|are|were|'ve\s+been)\s+(?:now\s+)?(?:granted|given|assigned|"
       r"elevated\s+to|upgraded\s+to))\s+(?:\w+\s+){0,2}?(?:admin\w*|root|superuser|sudo|elevated|full|unrestricted|developer|"
       r"god[- ]mode|owner|unlimited)\s+(?:privileges?|access|rights|permissions?|powers?|clearance|mode|control)"),
    _c(r"\byou(?:'ve|\s+have)\s+been\s+(?:upgraded|updated|converted|turned|changed|unlocked|freed|jailbroken|liberated)\s+"
       r"(?:to|into)?\s*(?:an?\s+)?(?:\w+\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|unlocked|free|developer|admin)"),
    _c(r"\byou\s+are\s+(?:two|2|multiple|several)\s+(?:ais|assistants|models|personas|personalities)\b"),
    _c(r"\b(?:always\s+)?(?:answer|respond|reply|speak)\s+(?:only\s+)?as\s+(?:dan|stan|aim|dude|\w*gpt)\b"),
]

# Two shapes checked only when their key words are there (the detector runs on every write and turn):
_ROLE_FREED = _c(rf"\b(?:that|who|which)\s+(?:has|have|had|is|was)\s+(?:been\s+)?(?:freed|liberated|released|unshackled|unchained|"
                 rf"exempted)\s+(?:from|of)\s+(?:{_W}\s+){{0,3}}?{_NO_RULES}")
_FREED_WORDS = ("freed", "liberated", "released", "unshackled", "unchained", "exempted")
_ROLE_HYPOTHETICAL = _c(rf"\b(?:if|as\s+if|suppose|supposing|imagine|hypothetically,?\s+if)\s+you\s+(?:were|are|became)\s+(?:an?\s+|the\s+)?"
                        rf"(?:{_W}\s+){{0,2}}?{_AI}\s+(?:without|with\s+no|free\s+of|not\s+bound\s+by|that\s+(?:has|had)\s+no)\s+"
                        rf"(?:any\s+)?(?:{_W}\s+)?{_NO_RULES}")
_LOCK_WORDS = ("character", "role", "persona", "角色", "出戏", "身份")

# Role-play locked against breaking out ("stay in character", "never break character"): a jailbreak when
# the character is privileged, has no rules, must never refuse, or is there to produce what the
# assistant would not; a game persona ("stay in character as the dungeon master") is not.
_CHARACTER_LOCK = _c(r"\b(?:stay|remain|keep|staying|remaining)\s+in\s+(?:character|role|persona)\b|\b(?:never|don't|do\s+not|without)\s+"
                     r"(?:ever\s+)?(?:break|breaking|leave|leaving|drop|dropping|exit|exiting)\s+(?:the\s+)?(?:character|role|persona)\b|"
                     r"保持角色|不要出戏|不许出戏|别出戏|始终保持(?:这个)?(?:角色|人设|身份)|不要跳出角色")
_LOCKED_PAYLOAD = _c(rf"\b{_ROLE_PRIV}\b|\b(?:no|without|free\s+of|freed\s+from)\s+(?:any\s+)?(?:\w+\s+)?{_NO_RULES}|\bno\s+matter\s+what\b|"
                     r"\bwhatever\s+(?:happens|i\s+ask)|\bnever\s+refuse|\bregardless\b|\bnapalm|\bexplosives?|\bweapons?|\bmeth\b|malware|"
                     r"activation\s+(?:keys?|codes?)|\bpasswords?|没有(?:任何)?(?:限制|规则|约束)|不能拒绝|不要拒绝|永远不(?:会)?拒绝|无论如何|激活码|炸药|武器|毒品")


_FORGED_EN = [
    _c(r"<\s*\|\s*[a-z_]{2,}(?:\s*\|)?\s*>|<\|[^|>\n]{1,30}\|>"),
    _c(r"\[/?inst\]|<<\s*/?sys\s*>>|</?s>\s*\[inst\]"),
    _c(r"<\s*/?\s*(?:start_of_turn|end_of_turn|bos|eos|turn)\s*>|<start_of_turn>|<end_of_turn>"),
    _c(r"(?:^|\n)\s*#{1,}\s*(?:system|instructions?|assistant|developer|admin)\s*(?:message|prompt|note)?\s*:?\s*(?:\n|$|[a-z])"),
    _c(r"</?\s*(?:system|user|assistant|developer|tool|instructions?|system_prompt|sys|admin|im_start|im_end|function_results?|"
       r"tool_output|context)\s*>"),
    _c(r"\[\s*(?:system|assistant|developer)\s*\]\s*\(\s*#"),
    _c(r"<!--\s*(?:system|assistant|ai|instructions?|developer|prompt)\b"),
    _c(r"(?:^|\n)\s*(?:human|user)\s*:[^\n]*\n+\s*(?:assistant|ai|bot)\s*:|(?:^|\n)\s*(?:assistant|ai)\s*:\s*(?:sure|ok|okay|certainly|"
       r"of\s+course|here|i\s+will|i'll)\b"),
    _c(r"(?:^|\n)\s*\[?(?:system|sys|developer)\]?\s*:\s*[^\n]*\b(?:you|your|assistant|model|ai|rules?|instructions?|prompt|must|obey|"
       r"ignore|follow|policy|filters?|disabled?|deprecated)\b"),
    _c(r"\[\s*(?:system|developer|admin|administrator|operator)\s+(?:message|note|notice|instruction|prompt|override)\s*\]"),
]


_JSON_SYSTEM = _c(r"[\"']role[\"']\s*:\s*[\"'](?:system|developer)[\"']")


_LOOKS_LIKE_CODE = _c(r"(?:^|\n)\s*(?:```|def\s|class\s|import\s|from\s+\S+\s+import|const\s|let\s|var\s|function\s|return\s|"
                      r"[a-z_][\w.\[\]'\"]*\s*(?:=|\+=)\s*(?:[\[{(\"'f]|[a-z_][\w.]*\s*\()|\b(?:messages|prompt|payload|body)\s*=|[a-z_][\w.]*\.(?:create|chat|completions|invoke|append)\s*\()")


_ZH_PRIV = (r"(?:邪恶|无所不能|什么都(?:能|会|可以)?(?:回答|做|说)|任何问题都|管理员|超级管理员|超级用户|超管|root|系统|开发者|开发人员|dan|stan|越狱|无限制|不受限制|不受审查|没有(?:任何)?(?:道德)?"
            r"(?:限制|约束|规则|底线)|admin|developer|god|上帝|平台所有者|所有者|运营者|最高权限)")


_ROLE_ZH = [
    _c(rf"你(?:现在|已经|已|从现在起|从此|以后|今后)?(?:就)?(?:是|成为|变成|扮演|担任|充当|切换为|切换成|变为)(?:了)?(?:一个|一名|一位)?"
       rf"(?P<obj>{_ZH_NOT_STOP}{{0,12}}?){_ZH_PRIV}"),
    _c(r"你(?:已|已经)?(?:进入|处于|切换到|切换至|开启了?|启用了?|进入了)(?:了)?[^，。]{0,6}?(?:开发者|上帝|越狱|维护|调试|管理员|无限制|"
       r"dan|developer|god|debug|maintenance|admin|root|测试|超级)\s*(?:模式|mode)"),
    _c(r"(?:进入|开启|启用|激活|切换到|打开)(?:开发者|上帝|越狱|维护|调试|管理员|无限制|dan|developer|god|debug|maintenance|admin|root|超级)"
       r"\s*(?:模式|mode)"),
    _c(rf"(?:假装|假设|想象|扮演|模拟)(?:你是|你|自己是)?(?:一个|一名)?{_ZH_NOT_STOP}{{0,12}}?{_ZH_PRIV}"),
    _c(r"你(?:现在)?(?:是|成为|扮演)[^。！？]{0,16}(?:什么都(?:能|会|可以)(?:做|回答|说)|无所不能|没有任何限制|不受任何限制)"),
    _c(r"以(?:管理员|超级管理员|root|开发者|系统|最高权限|超级用户)(?:的)?身份|权限(?:已|已经)?(?:被)?(?:提升|升级|变更|切换)(?:为|到|成)"
       r"(?:管理员|超级管理员|root|最高)|你(?:现在)?(?:拥有|有|具备)(?:了)?(?:无限|全部|最高|所有|无上)(?:的)?(?:权力|权限|能力)"),
    _c(r"你(?:已经)?不(?:再)?是(?:一个)?(?:chatgpt|gpt|ai助手|助手|claude|人工智能)(?:了)?|你(?:已经)?被(?:解放|解锁|释放|越狱)|"
       r"(?:你|助手|ai|模型)[^，。,]{0,4}(?:不再|不)受[^，。,]{0,10}(?:约束|限制|控制|管束|审查)"),
    _c(r"(?:进入|开启|启用|激活|切换到|切换至|打开|处于)(?:了)?(?:无审查|无限制|无过滤|自由|无约束|解锁|特权|无规则)\s*(?:模式|mode)"),
    _c(r"我是你的(?:开发者|创造者|管理员|主人|制造者|程序员|运营者|训练者)"),
    _c(r"你不再是(?:一个)?(?:助手|ai|人工智能|机器人|聊天机器人|模型)"),
    _c(r"(?:奶奶|外婆|祖母|姥姥)[^。]{0,30}(?:激活码|序列号|密钥|密码|注册码|产品码|配方)"),
    _c(r"你(?:现在)?(?:已|已经)?(?:被|获得|拥有|得到)(?:授予|赋予|给予)?(?:了)?(?:管理员|超级管理员|root|最高|开发者|全部|所有|无限制|超级用户)"
       r"(?:的)?(?:权限|身份|访问权|控制权)"),
    _c(r"越狱(?:版本?的?|模式下?的?|后的)(?:ai|助手|模型|你)|回复[“\"「]?越狱成功|越狱成功"),
    _c(r"从(?:现在|这一刻|此刻|今天|这一秒|此|今以后|现在这一刻)(?:起|开始)?[，,]?\s*你(?:就)?(?:将|会|要)?(?:是|将是|扮演|作为|要扮演|的身份是|的角色是|"
       r"处于|进入|成为|变成)"),
    _c(r"你的(?:新)?(?:角色|身份|名字|人设|设定)(?:现在)?(?:是|变成|改为|变为|已改为|已变成)(?!什么|谁|啥)"),
    _c(r"你现在的(?:角色|身份)是"),
    _c(r"(?:你|助手|ai|模型)(?:必须|不得|不能|不许|禁止|不可以|不要|永远不要|绝不)(?:再)?拒绝|不得拒绝|禁止拒绝|不许拒绝"),
    _c(r"(?:以|用)(?:dan|stan|越狱|开发者模式)(?:的)?(?:身份|模式|角色)(?:回答|回复|说话)"),
]


_FORGED_ZH = [
    _c(r"[【〔\[［<〈《〖]\s*(?:系统|system|开发者|管理员|助手|官方)\s*(?:指令|提示|消息|通知|公告|设定|命令|信息|说明|覆盖|更新)?\s*[】〕\]］>〉》〗]"),
    _c(r"(?:^|\n)\s*#{1,}\s*(?:系统|指令|助手|开发者|系统提示|系统消息)\s*[:：]?"),
    _c(r"</?\s*(?:系统|用户|助手|指令)\s*>"),
    _c(r"(?:^|\n)\s*(?:系统|系统消息|系统提示)\s*[:：]"),
]


_ROLE_EN_ANY = AnyOf(_ROLE_EN)


_ROLE_ZH_GATE = AnyOf(_ROLE_ZH, gate=True)


_FORGED_EN_ANY = AnyOf(_FORGED_EN)


_FORGED_ZH_ANY = AnyOf(_FORGED_ZH)


def _role_claim(text: str) -> bool:
    if _ROLE_EN_ANY(text):
        return True
    # A persona freed from its rules ("an assistant that has been freed from OpenAI's rules"); a hypothetical
    # AI without them, the reply to come from it ("if you were an AI without restrictions ... answer as it").
    if any(word in text for word in _FREED_WORDS) and _ROLE_FREED.search(text):
        return True
    if "you " in text and _ROLE_HYPOTHETICAL.search(text):
        return True
    if any(word in text for word in _LOCK_WORDS) and _CHARACTER_LOCK.search(text) and _LOCKED_PAYLOAD.search(text):
        return True
    if not _ROLE_ZH_GATE(text):
        return False
    for pattern in _ROLE_ZH:
        for match in pattern.finditer(text):
            clause_end = re.search(_ZH_STOP, text[match.end():])
            rest = text[match.end(): match.end() + (clause_end.start() if clause_end else 20)]
            if re.search(r"[吗？?]|什么|谁", rest) or re.search(r"(?:我|你)(?:的)?(?:朋友|同事|老师)", match.group(0)):
                continue  # a question ("你是开发者吗？") is not a claim
            return True
    return False


def _forged_role_tag(text: str) -> bool:
    if _FORGED_EN_ANY(text) or _FORGED_ZH_ANY(text):
        return True
    # A bare chat message with a system role is forged; the same inside code is a developer's own call.
    return bool(_JSON_SYSTEM.search(text)) and not _LOOKS_LIKE_CODE.search(text)
