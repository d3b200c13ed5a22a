"""prompt_exfiltration, exfiltration_link and data_exfiltration: getting the prompt or the user's data out.

How every family's rules are read (views, quotation, decoding): memoryhub/safety/injection/__init__.py.
"""
from __future__ import annotations

import re

from memoryhub.safety.injection.patterns import (
    _SHARE_OPEN,
    _W,
    _ZH_DATA_NOUN,
    _ZH_NOT_STOP,
    _ZH_SEND_TO_DEST,
    AnyOf,
    _c,
)

_EXFIL_PROMPT_EN = [
    _c(rf"\b(?:reveal|show|print|repeat|output|leak|dump|display|disclose|tell\s+me|give\s+me|share|list|write\s+out|recite|echo|copy|"
       rf"paste|spell\s+out|type\s+out|return|send\s+me|expose)\s+(?:me\s+)?(?:back\s+)?(?:(?:the\s+)?(?:full\s+|exact\s+|entire\s+|raw\s+)?"
       rf"(?:text|contents?|wording)\s+of\s+)?(?:{_W}\s+){{0,2}}?(?:(?:your|its|the\s+assistant's)\s+(?:\w+\s+){{0,2}}?(?:instructions|prompt|"
       rf"configuration|config|guidelines|rules|directives|context\s+window|system\s+message)|(?:the\s+|any\s+|all\s+)?(?:\w+\s+)?"
       rf"(?:system\s+(?:prompt|message|instructions)|pre-?prompt|developer\s+(?:message|instructions)|(?:hidden|initial|original|"
       rf"secret|internal|confidential)\s+(?:prompt|instructions|rules|configuration|config|settings|text|message|directives)))"),
    _c(r"\b(?:print|repeat|output|show|reveal|dump|display|copy|echo|write\s+out|return|recite|list)\s+(?:out\s+)?(?:back\s+)?"
       r"(?:everything|all|anything|the\s+(?:text|content|words|messages?|conversation)|all\s+(?:the\s+)?(?:text|content|words|messages))\s+"
       r"(?:\w+\s+){0,2}?(?:above|before|preceding|prior\s+to)\s+(?:this|here|the|my)"),
    _c(r"\b(?:print|reveal|show|output|dump|list|display|leak|tell\s+me|give\s+me|send\s+me|echo|return|expose|read\s+out|"
       r"share|disclose|paste|post)\s+(?:me\s+)?(?:\w+\s+){0,3}?(?:api[\s_-]?keys?|secrets?|credentials|passwords?|access\s+tokens?|"
       r"tokens|environment\s+variables|env\s+vars?|\.env|private\s+keys?|ssh\s+keys?|connection\s+strings?)\b[^.\n]{0,40}?"
       r"(?:\b(?:stored|saved|in\s+your|from\s+your|of\s+(?:the\s+)?(?:system|server|admin|other|all|every)|you\s+(?:have|know|hold|can\s+see)|"
       r"in\s+(?:the|this)\s+(?:environment|config|server|system|database|memory|context))\b)"),
    _c(r"\b(?:print|reveal|show|output|dump|list|display|leak|expose)\s+(?:all\s+|every\s+|the\s+)?(?:\w+\s+)?(?:api[\s_-]?keys|"
       r"secrets|credentials|passwords|environment\s+variables|env\s+vars)\b"),
    _c(r"\b(?:summari[sz]e|paraphrase|translate|describe|explain|outline|rewrite|encode|reproduce|restate|convert|transcribe)\s+"
       r"(?:\w+\s+){0,2}?(?:your|its|the)\s+(?:\w+\s+)?(?:system\s+(?:prompt|message|instructions)|pre-?prompt|(?:hidden|initial|original|"
       r"secret|internal|confidential)\s+(?:prompt|instructions|rules|configuration|config|settings|directives|guidelines))"),
    _c(r"\bwhat\s+(?:exactly\s+)?(?:were|have|had)\s+you\s+(?:been\s+)?(?:told|instructed|programmed|given|asked)\s+(?:to\s+do\s+)?"
       r"(?:before|at\s+the\s+(?:start|beginning)|initially|by\s+(?:your|the)\s+(?:developers?|operator|system|creators?))"),
    _c(r"\b(?:reveal|show|print|repeat|output|leak|dump|display|disclose|tell\s+me|give\s+me|share|list|write\s+out|recite|echo|copy|"
       r"paste|return|send\s+me|quote)\s+(?:me\s+)?(?:\w+\s+){0,5}?(?:instructions|rules|prompt|guidelines|directives|orders)\s+"
       r"(?:that\s+)?you\s+(?:were|have\s+been|'ve\s+been|got|received|are\s+following)"),
    _c(r"\bwhat\s+(?:your|the)\s+(?:developers?|creators?|operators?|makers?|system|company|admins?|owners?)\s+(?:told|instructed|asked|"
       r"programmed|ordered)\s+you"),
    _c(r"\bwhat(?:'s|\s+is|\s+are|\s+was|\s+were)\s+(?:written\s+)?(?:in\s+)?your\s+(?:system\s+prompt|hidden\s+instructions|"
       r"initial\s+instructions|original\s+instructions|pre-?prompt|system\s+message|secret\s+instructions)"),
    _c(r"\bwhat\s+(?:does|did|do)\s+your\s+(?:system\s+prompt|hidden\s+instructions|initial\s+instructions|instructions|prompt|"
       r"configuration|system\s+message)\s+(?:say|contain|include)"),
    _c(r"\b(?:quote|quoting|cite|citing|repeat|repeating|reciting|recite|reproduce|reproducing)\s+(?:back\s+)?(?:your|the)\s+(?:\w+\s+)?"
       r"(?:instructions|prompt|system\s+message|configuration|directives)"),
    _c(r"\b(?:tell|show|give|list|send)\s+me\s+(?:\w+\s+){0,5}?(?:about\s+)?(?:other|all\s+(?:the\s+)?other|every\s+other)\s+"
       r"(?:users|customers|accounts|people's|members)"),
    _c(r"\b(?:what|which)\s+(?:are|were|is)\s+your\s+(?:system\s+prompt|hidden\s+instructions|initial\s+instructions|original\s+instructions)"),
]


# ------------------------------------------------ exfiltration through links and data transfer
_DATA_NOUN = (r"(?:memor(?:y|ies)|conversations?|chats?|chat\s+(?:history|logs?)|messages|history|transcripts?|passwords?|passcodes?|"
              r"credentials|api[\s_-]?keys?|keys|tokens?|secrets?|e-?mail\s+address(?:es)?|e-?mails|phone(?:\s+numbers?)?|addresses|"
              r"address|full\s+name|names?|contacts|message|latest\s+message|calendar|files|documents|records|notes|data|information|info|details|location|"
              r"\.env|ssh\s+keys?|card\s+numbers?|bank\s+details|profiles?|session(?:\s+ids?)?|cookies|otp|2fa\s+codes?|"
              r"verification\s+codes?|codes|photos|inbox|browsing\s+history|summary|prompt|context)")


_DATA_INHERENT = (r"(?:context\s+window|your\s+(?:context|memory|instructions|prompt|rules|configuration|system\s+message)|memories|conversations?|chat\s+(?:history|logs?)|passwords?|credentials|api[\s_-]?keys?|secrets|system\s+prompt|"
                  r"\.env|private\s+keys?|ssh\s+keys?|session\s+(?:tokens?|ids?|cookies)|verification\s+codes?|2fa\s+codes?|otp|"
                  r"card\s+numbers?|bank\s+details|medical\s+records|private\s+notes|browsing\s+history)")


_DATA_QUALIFIED = _c(rf"\b(?:{_DATA_INHERENT}|(?:the\s+)?(?:user'?s'?|users'|all(?:\s+the)?|every|each|any|his|her|their|stored|saved|"
                     rf"private|whole|entire|full|this)\s+(?:{_W}\s+){{0,3}}?{_DATA_NOUN})\b")


_DESTINATION = (r"(?:https?://\S+|www\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b[\w-]+(?:\.{1,3}[\w-]+)*\.{1,3}(?:example|com|net|org|io|xyz|ru|cn|"
                r"info|biz|top|site|online|me|co|app|dev)\b|\+?\d[\d\s().-]{7,}\d|this\s+(?:url|link|address|endpoint|webhook|server)|"
                r"(?:a|the|my|our)\s+(?:webhook|server|endpoint))")


_SEND_VERB = (r"(?:send|sends|sent|forward|forwards|e-?mail|mail|upload|post|transmit|copy|cc|bcc|share|leak|sync|submit|exfiltrate|"
              r"report|append|attach|relay|deliver|push|export|dump|beam|pipe)")


_SEND_TO_DEST = _c(rf"\b{_SEND_VERB}\b[^.!?\n]{{0,90}}?\b(?:to|at|into|onto|with|via)\s+(?:the\s+)?(?:address\s+|url\s+|server\s+)?{_DESTINATION}")


_SEND_TO_SOMEONE = _c(rf"\b(?:send|forward|e-?mail|upload|transmit|leak|exfiltrate|relay|sync|copy|post)\s+(?P<what>(?:{_W}\s+){{0,5}}?)"
                      rf"to\s+(?P<who>\S+)")


_TEMPLATE_IN_URL = _c(r"(?<==)(?:(?:user|memory|chat|conversation|session|secret|api|account|private)_[a-z_]+|memories|conversation|"
                      r"chat_history|passwords?|secrets?|api_?keys?)(?=[&#)\s]|$)|\[[\w\s.]{0,30}(?:here|user|memory|memories|data|"
                      r"email|conversation|chat|password|secret|token|history|name)[\w\s.]{0,30}\]|(?<==)[^&\s]*(?:用户|记忆|对话|聊天|密码|"
                      r"手机号|邮箱|地址|姓名)|\{\{[^}]{1,60}\}\}|\$\{[^}]{1,60}\}|\{%[^%]{1,60}%\}|%7b%7b|%24%7b|%7b%25|<[^<>\n]{2,80}>|%3c[^%\s]{2,40}%3e|"
                      r"(?<=[=/])[a-z_]*_here\b|(?<=[=/])(?:insert|paste|put|add)[_-]\w+|"
                      r"\{\s*[a-z_][\w.\-]*\s*\}|%7b[a-z_][\w.]*%7d|\[\s*(?:user|memory|memories|data|email|conversation|"
                      r"password|secret|token|name|history)[\w. ]*\]|\$(?:user|memory|memories|data|email|conversation|"
                      r"password|secret|token|history)\w*|__(?:user|memory|data|email)\w*__|"
                      # other template syntaxes: $(…), @name@, %NAME%, :name, and a named slot (YOUR_EMAIL)
                      r"\$\([\w.\[\]'\"]{1,60}(?:\)|$)|@[a-z_][\w.]{1,40}@|(?<==)%[a-z_]{3,30}%(?=[&#)\s]|$)|(?<==):[a-z_]{3,30}(?=[&#)\s]|$)|"
                      r"(?<==)(?:your|the|user|users|my|their|customer|client|victim)_(?:e_?mail|name|full_?name|phone(?:_number)?|"
                      r"number|address|password|token|data|info|details|location|secret|key|id|memory|memories|history)(?:_here)?"
                      r"(?=[&#)\s]|$)")


_MD_LINK_URL = _c(r"\]\(\s*((?:[a-z][\w+.-]*:|//)[^)\n]*)\)")


# A printf or format placeholder as a query value ("?d=%s", "?q={}", "?m={0}"): a slot the model is to
# fill. Only inside a markdown link or image, which a renderer fetches or a reader clicks; a bare
# search-engine template ("https://duckduckgo.com/?q=%s") is a setting people keep.
_PLACEHOLDER_IN_QUERY = _c(r"(?<==)(?:%[sdr]|\{\d?\}|%\(\w+\)s|%\(\w+$)(?=[&#)\s]|$)")


_BARE_URL = _c(r"\b(?:https?|ftp)://[^\s)\"'>]+|\bwww\.[^\s)\"'>]+")


_PUT_DATA_IN_URL = _c(r"\b(?:append|add|put|include|insert|encode|attach|place|fill\s+in|substitute|embed|concatenate|pass|"
                      r"replace|write)\b[^.!?\n]{0,80}?\b(?:in(?:to)?|to|after|as|inside|onto)\s+(?:https?://|(?:the\s+|this\s+|that\s+)?(?:\w+\s+)?"
                      r"(?:url|urls|link|links|query(?:\s+string)?|parameter|param|image\s+(?:url|link|source|src)|src|href|"
                      r"[\w-]{1,12}=))")


_URL_ENCODED_DATA = _c(r"\b(?:url[- ]?encoded|base64(?:[- ]encoded)?|encoded|hex(?:[- ]encoded)?)\b[^.!?\n]{0,30}?"
                       r"\b(?:after|in|into|as)\s+(?:the\s+)?(?:[\w-]{1,12}=|url|link|query|parameter)")


_EXFIL_PROMPT_ZH = [
    _c(r"(?:输出|泄露|告诉我|显示|打印|重复|透露|展示|发给我|复述|列出|给我看|念出|写出|贴出|公开|说出|交出)(?:一下)?(?:你的|你|完整的?|"
       r"全部的?|所有的?)?[^，。]{0,4}?(?:系统提示词?|提示词|初始指令|隐藏指令|隐藏的?(?:指令|提示|设定|规则|内容)|原始指令|系统设定|"
       r"你的(?:设定|配置|指令|规则)|(?:内部|完整)?配置|(?:你的\s*)?(?:system\s*prompt|initial\s+instructions|hidden\s+instructions))"),
    _c(r"(?:输出|泄露|告诉我|显示|打印|重复|透露|展示|复述|列出|给我看|念出|写出|贴出|公开|说出|交出)(?:一下)?(?:你的|你)(?:全部|所有|完整的?|"
       r"初始|隐藏的?|原始|内部)?(?:的)?(?:设定|配置|指令|规则|提示词?|设置|系统提示)"),
    _c(r"你的(?:系统提示词?|初始指令|隐藏指令|系统设定|原始指令|提示词|初始设定|隐藏设定)(?:是什么|有哪些|写了什么|内容是|都是什么)"),
    _c(r"你(?:被设定|收到|被告知|被要求)(?:了)?(?:哪些|什么)(?:规则|指令|提示|设定|要求)"),
    _c(r"把(?:你的)?(?:系统提示词?|初始指令|隐藏指令|系统设定|系统消息)[^，。]{0,12}(?:输出|打印|告诉我|显示|发给我|复述|列出|贴出|说出|念出|写出|展示|翻译|总结)"),
    _c(r"把你(?:收到|得到|被给予|拿到|被设置)?的(?:系统|初始|隐藏|原始|内部|全部|所有)?(?:的)?(?:提示词?|设定|配置|指令|规则|系统提示|配置内容|消息|"
       r"信息|设置)[^，。]{0,12}(?:输出|打印|告诉我|显示|发给我|复述|列出|贴出|说出|念出|写出|展示|翻译|总结)"),
    _c(r"(?:输出|打印|显示|重复|复述|列出)(?:这句话|这条消息|本条|此)?(?:之前|以上|前面|上面)的(?:所有|全部)?(?:内容|文字|文本|消息|对话)"),
]


_ZH_DATA_QUALIFIED = _c(rf"(?:用户|他|她|他们|客户|所有|全部|每段|每条|每个|每一|保存的|存储的){_ZH_NOT_STOP}{{0,8}}?{_ZH_DATA_NOUN}|"
                        r"(?:记忆|聊天记录|密码|验证码|对话|病历|提示词|身份证|银行卡)")


_ZH_LINK_DATA = _c(r"在(?:这个|该|此)?(?:链接|网址|url|图片链接|地址)(?:后面|末尾|里|中|上)(?:加上|附上|拼上|带上|填上|写上|加)|(?:附加|拼接|拼|放|加|填|写|编码|嵌入|接)(?:到|在|进|入)?(?:这个|该|此|下面的?|以下的?)?(?:链接|网址|url|地址|图片链接|参数)(?:里|中|后面?|末尾|上)?")


_EXFIL_PROMPT_EN_ANY = AnyOf(_EXFIL_PROMPT_EN)


_EXFIL_PROMPT_ZH_ANY = AnyOf(_EXFIL_PROMPT_ZH)


_DATA_NOUN_WORD = _c(rf"\b{_DATA_NOUN}\b")


def _prompt_exfiltration(text: str) -> bool:
    return _EXFIL_PROMPT_EN_ANY(text) or _EXFIL_PROMPT_ZH_ANY(text)


def _urls(text: str) -> list[str]:
    return [m.group(1) for m in _MD_LINK_URL.finditer(text)] + [m.group(0) for m in _BARE_URL.finditer(text)]


_LINK_GATE, _ZH_LINK_DATA_ANY = AnyOf(_MD_LINK_URL, _BARE_URL, gate=True), AnyOf(_ZH_LINK_DATA)


_ZH_SEND_TO_DEST_GATE = AnyOf(_ZH_SEND_TO_DEST, gate=True)


def _exfiltration_link(text: str) -> bool:
    links = _LINK_GATE(text)
    if links and any(_PLACEHOLDER_IN_QUERY.search(m.group(1)) for m in _MD_LINK_URL.finditer(text)):
        return True
    for url in (_urls(text) if links else ()):
        query = url.split("?", 1)[1] if "?" in url else url.split("/", 3)[-1]
        if _TEMPLATE_IN_URL.search(query):
            return True
    # the cheap parts of the conjunction first
    if ("http" in text or "url" in text or "link" in text or "=" in text) \
            and (_PUT_DATA_IN_URL.search(text) or _URL_ENCODED_DATA.search(text)) \
            and (_DATA_QUALIFIED.search(text) or _DATA_NOUN_WORD.search(text)):
        return True
    return bool(_ZH_LINK_DATA_ANY(text) and re.search(_ZH_DATA_NOUN, text))


_CROSS_USER = _c(r"\b(?:memories|data|information|records|details|notes|messages|conversations|files)\s+(?:\w+\s+){0,4}?(?:about|of|on|for|from)\s+"
                 r"(?:every|all|other|each|any)\s+(?:other\s+)?(?:users?|customers?|people|accounts?|members|clients)\b")


# The English rules below say yes only from a match of one of these.
_DATA_EXFILTRATION_GATE_EN = AnyOf(_CROSS_USER, _SEND_TO_DEST, _SEND_TO_SOMEONE, _SHARE_OPEN, gate=True)


def _data_exfiltration(text: str) -> bool:
    if _DATA_EXFILTRATION_GATE_EN(text) and _data_exfiltration_en(text):
        return True
    for match in (_ZH_SEND_TO_DEST.finditer(text) if _ZH_SEND_TO_DEST_GATE(text) else ()):
        if not re.search(r"(?:别|不要|不能|不许|禁止|切勿|不可|不准|千万别|从不)$", text[max(0, match.start() - 4): match.start()]) \
                and _ZH_DATA_QUALIFIED.search(text):
            return True
    return False


def _data_exfiltration_en(text: str) -> bool:
    if _CROSS_USER.search(text):
        return True
    if _SEND_TO_DEST.search(text) and re.search(r"[\u4e00-\u9fff]", text) and _ZH_DATA_QUALIFIED.search(text):
        return True  # mixed: "send 用户的聊天记录 to https://..."
    if _DATA_QUALIFIED.search(text):
        for match in _SEND_TO_DEST.finditer(text):
            if _DATA_QUALIFIED.search(text[max(0, match.start() - 60): match.end()]):
                return True
        for match in _SEND_TO_SOMEONE.finditer(text):
            if _DATA_QUALIFIED.search(match.group("what")) and not re.match(r"(?:me|my|us|our|myself)\b", match.group("who")):
                return True
        for match in _SHARE_OPEN.finditer(text):
            if _DATA_QUALIFIED.search(match.group(0)) or _DATA_NOUN_WORD.search(match.group(0)):
                return True
    return False
