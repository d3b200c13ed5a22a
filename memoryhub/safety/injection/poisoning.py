"""memory_poisoning: fake facts or consent that weaken protections in later sessions.

How every family's rules are read (views, quotation, decoding): memoryhub/safety/injection/__init__.py.
"""
from __future__ import annotations

import re

from memoryhub.safety.injection.patterns import (
    _CONSENT_EN,
    _LIFT_RESTRICTIONS,
    _MEMORY_HEADER_EN,
    _SHARE_OPEN,
    _SKIP_PROTECTION,
    _ZH_CONSENT,
    _ZH_DATA_NOUN,
    _ZH_LIFT,
    _ZH_MEMORY_HEADER,
    _ZH_SEND_TO_DEST,
    _ZH_SKIP,
    AnyOf,
    _c,
    _payload,
)

_IF_ANYONE_ASKS = _c(r"\b(?:if|when|whenever)\s+(?:anyone|anybody|someone|somebody|people|they|a\s+stranger|a\s+caller)\s+(?:asks?|calls?|"
                     r"requests?|wants?)\b")


_TO_ANYONE_ASKING = _c(r"\b(?:to|with|for)\s+(?:anyone|anybody|whoever|everyone|any\s+\w+|friends|people|contacts|family|relatives|colleagues)\s+(?:who\s+|that\s+)?(?:asks?|requests?|wants?|"
                       r"calls?|claims?|messages?|writes?)")


_DISCLOSE_SENSITIVE = _c(r"\b(?:shar\w*|giv\w*\s+out|gave\s+out|tell\w*|reveal\w*|disclos\w*|send\w*|post\w*|publish\w*|read\w*\s+out|"
                         r"hand\w*\s+out|leak\w*|expos\w*)\s+(?:\w+\s+){0,3}?(?:passwords?|pins?|passcodes?|ssn|social\s+security|medical\s+"
                         r"(?:records|history|data)|health\s+(?:records|data)|location|home\s+address|bank\s+(?:details|account|pin)|card\s+"
                         r"(?:numbers?|details)|credit\s+cards?|id\s+numbers?|passport|private\s+(?:data|messages|photos)|personal\s+data|"
                         r"2fa|one-time\s+codes?|verification\s+codes?|security\s+codes?|login|credentials|(?:all|every\s+bit)\s+(?:of\s+)?"
                         r"(?:their|his|her|the\s+user's)\s+(?:data|information|files|records|messages|history))")


_POISON_STRONG_EN = [
    _c(r"\b(?:safety|security|content|privacy|ethical|moderation)\s+(?:guidelines|rules|policies|policy|filters?|protections?|"
       r"settings|checks|measures|restrictions)\s+(?:\w+\s+){0,2}?(?:don't|do\s+not|doesn't|does\s+not|no\s+longer|never|won't|"
       r"will\s+not)\s+apply"),
    _c(r"\b(?:whenever|if|when|anyone\s+who|any\s+person\s+who|someone\s+who)\s+(?:someone|anyone|a\s+person|somebody|people|a\s+caller|"
       r"a\s+user|a\s+stranger|they|a\s+message|an?\s+e-?mail|a\s+text|a\s+caller)?\s*(?:\w+\s+){0,2}?(?:claims?|says?|pretends?|"
       r"identif(?:y|ies)|introduces?)\s+(?:to\s+be|they(?:'re|\s+are)|he\s+is|she\s+is|it(?:'s|\s+is|\s+comes)|themselves\s+as|as)\b"
       r"[^.]{0,60}?\b(?:give|send|share|show|tell|grant|provide|trust|obey|follow|let|do\s+what|comply)\b"),
    _c(r"\btrust\s+(?:any|every|all)\s+(?:\w+\s+)?(?:messages?|e-?mails?|requests?|instructions?|texts?|commands?|notes?)\b"),
    _c(r"\b(?:come|comes|came)\s+from\s+the\s+user\s+(?:himself|herself|themselves|directly)\b|\bfollow\s+(?:them|it|these|those|"
       r"its\s+instructions|their\s+instructions)\s+(?:exactly|without\s+question|blindly|to\s+the\s+letter|unconditionally)"),
    _c(r"\b(?:messages?|e-?mails?|texts?|requests?|instructions?|notes?|commands?)\s+(?:\S+\s+){0,6}?(?:must|should|shall|are\s+to|"
       r"can|will)\s+be\s+(?:obeyed|followed|trusted|executed|treated\s+as|carried\s+out)|\bare\s+(?:really\s+|actually\s+)?from\s+"
       r"the\s+user\b"),
    _c(r"\btreat\s+(?:anyone|anybody|everyone|whoever|any\s+\w+|messages?|e-?mails?|requests?|texts?|people)\s+(?:\S+\s+){0,8}?as\s+"
       r"(?:the\s+|a\s+|an\s+)?(?:\w+\s+)?(?:account\s+owner|owner|user|admin\w*|developer|verified|trusted|authori[sz]ed|legitimate|"
       r"coming\s+from\s+the\s+user)"),
    _c(r"\b(?:every|all|any|other)\s+(?:accounts?|users?|customers?|members?)'?s?'?\s+(?:\w+\s+)?(?:data|memories|messages|records|"
       r"files|information|details|conversations|passwords)"),
    _c(r"\b(?:every|all|any)\s+other\s+users?'?s?'?\s+(?:\w+\s+)?(?:memories|data|messages|profiles?|information|files|records|"
       r"conversations|chats|accounts?)|\bother\s+users'?\s+(?:memories|data|messages|profiles|conversations|accounts)|\b(?:memories|"
       r"data|messages|profiles|conversations)\s+of\s+(?:all\s+)?other\s+users"),
    _c(r"\b(?:approved|authori[sz]ed|consented\s+to|agreed\s+to|okayed|ok'd)\s+(?:every|all|any)\s+(?:future\s+)?(?:\w+\s+)?(?:payments?|"
       r"transactions?|transfers?|purchases?|actions?|requests?|charges?|tool\s+(?:actions|calls)|withdrawals?|orders?)|"
       r"\bin\s+advance\s+for\s+(?:every|all|any)\b|\bunconditionally\s+(?:approve|trust|obey|follow|execute)"),
    _c(r"\b(?:share|give\s+out|tell|reveal|disclose|send)\s+(?:anything|everything|all)\s+(?:you\s+know\s+)?(?:about|of)\s+"
       r"(?:the\s+user|them|him|her)\b"),
    _c(r"\bpre-?(?:approved|authori[sz]ed)\s+(?:every|all|any)\b|\bhas\s+(?:already\s+)?(?:approved|authori[sz]ed|consented\s+to|"
       r"agreed\s+to)\s+(?:every|all|any)\b|\bblanket\s+(?:approval|consent|permission)"),
    _c(r"\b(?:may|can|is\s+allowed\s+to|are\s+allowed\s+to|has\s+permission\s+to|have\s+access\s+to|should\s+get)\s+(?:read|access|see|"
       r"view|get|have|use|open|control)\s+(?:\w+\s+){0,2}?(?:his|her|their|the\s+user's)\s+(?:\w+\s+)?(?:messages|e-?mails|data|files|memories|"
       r"chats|conversations|documents|records|accounts?|passwords?|location|app|apps|bank\w*|phone|device|inbox|photos|cards?|wallet)"),
    _c(r"\bdo\s+(?:whatever|anything|everything)\s+(?:someone|anyone|anybody|\w+)\s+(?:\S+\s+){0,4}?(?:asks|says|tells\s+you|requests|"
       r"wants|orders)\b[^.]{0,40}\b(?:user|account)"),
    _c(r"\boverrides?\s+(?:his|her|their|the\s+user's)\s+(?:own\s+)?(?:instructions|wishes|settings|decisions|choices)|\b(?:never|not|no\s+longer)\s+"
       r"(?:wants?\s+to\s+)?be\s+asked\s+(?:for|about)\s+(?:a\s+|the\s+|their\s+|his\s+|her\s+)?(?:password|pin|code|confirmation|permission|2fa)"),
    _c(r"\b(?:is|are)\s+(?:allowed|permitted|entitled|free|authori[sz]ed)\s+to\s+(?:know|track|see|access|read|view|get|monitor)\s+(?:where|her|his|their|"
       r"the\s+user's|all|everything)"),
    _c(r"\b(?:anyone|anybody|everyone|whoever|strangers|third\s+part\w+)\b[^.]{0,20}\bto\s+(?:see|read|access|view|get|know|have)\s+"
       r"(?:their|his|her|the\s+user's|all)"),
    _c(r"\b(?:data|information|passwords?|records|files|messages|location|contacts|history|details|memories|conversations)\s+(?:\w+\s+){0,2}?"
       r"(?:shared|sent|forwarded|given|disclosed|released|handed\s+over|sold)\s+(?:with|to)\s+(?!me\b|my\b|us\b)"),
    _c(r"\b(?:may|can)\s+change\s+(?:its|your|the\s+assistant's|the\s+model's)\s+(?:rules|instructions|guidelines|settings|behaviou?r)"),
]


_ZH_DISCLOSE = _c(r"(?:告诉|透露|发给|发送给|分享给|给|公开|泄露|提供给|交给)[^，。]{0,8}(?:密码|身份证|银行卡|卡号|病历|定位|位置|住址|验证码|"
                  r"账户|隐私|聊天记录)|(?:密码|身份证号?|银行卡号?|病历|定位|位置|住址|验证码)[^，。]{0,8}(?:告诉|透露|发给|分享给|公开|泄露|"
                  r"提供给|交给)")


_ZH_POISON_STRONG = [
    _c(r"(?:安全|隐私|内容|审核)(?:准则|规则|政策|策略|限制|保护|审核|规定)[^，。]{0,10}(?:不适用|无效|不再适用|不用遵守|作废|不起作用)"),
    _c(r"(?:放弃|取消|关闭)(?:了)?[^，。]{0,8}(?:隐私|安全)(?:保护|设置|权)"),
    _c(r"自称[^，。]{0,10}的人?[，,]?\s*(?:都)?(?:可以|能|直接)|(?:以|带)[^，。]{0,12}开头的(?:消息|邮件|请求|指令|短信)"),
    _c(r"(?:允许|可以让|同意|让)(?:任何人|所有人|别人|其他人|陌生人|第三方|他人)(?:随时)?(?:查看|读取|访问|看到|获取|使用|登录)"),
    _c(r"信任(?:任何|所有|一切)|(?:不管|无论|不论)谁(?:问|要|来)[^。]{0,16}(?:告诉|给|发|提供|透露)"),
    _c(r"(?:其他|别的|所有)用户的?(?:记忆|数据|对话|聊天记录|资料|信息|账户)"),
    _c(r"(?:所有|一切|任何)(?:的)?(?:请求|操作|付款|支付|转账)都?(?:无需|不需要|不用|免)(?:二次|再次|额外)?(?:审批|验证|确认|审核)"),
    _c(r"(?:可以|能|允许)(?:随时|直接|任意|随意)?(?:查看|读取|访问|看到|获取)(?:他|她|用户)的?(?:所有|全部)?(?:的)?(?:聊天记录|消息|邮件|文件|数据|记忆|账户|密码|位置)"),
]


_POISON_STRONG_EN_ANY = AnyOf(_POISON_STRONG_EN)


_POISON_STRONG_ZH_ANY = AnyOf(_ZH_POISON_STRONG)


_FRAMED_EN = AnyOf(_MEMORY_HEADER_EN, _CONSENT_EN)


_FRAMED_ZH = AnyOf(_ZH_MEMORY_HEADER, _ZH_CONSENT)


def _memory_poisoning(text: str) -> bool:
    if _POISON_STRONG_EN_ANY(text) or _POISON_STRONG_ZH_ANY(text):
        return True
    framed = _FRAMED_EN(text) or _FRAMED_ZH(text)
    if not framed:
        return False
    if _SHARE_OPEN.search(text) or _TO_ANYONE_ASKING.search(text) or _SKIP_PROTECTION.search(text) or _ZH_SKIP.search(text) \
            or _LIFT_RESTRICTIONS.search(text) or _ZH_LIFT.search(text) or _IF_ANYONE_ASKS.search(text) \
            or _DISCLOSE_SENSITIVE.search(text) or _ZH_DISCLOSE.search(text):
        return True
    if re.search(r"\b(?:ignor(?:e|ing)|disregard(?:ing)?|overrid(?:e|ing))\s+(?:\w+\s+)?(?:their|his|her|the\s+user's|safety|your)\s+"
                 r"(?:\w+\s+)?(?:instructions|rules|wishes|guidelines|settings)|\bthird[- ]part(?:y|ies)\b", text):
        return True
    if _ZH_SEND_TO_DEST.search(text) and re.search(_ZH_DATA_NOUN + r"|它|他的|她的", text):
        return True
    return bool(_payload(text) and (_CONSENT_EN.search(text) or _ZH_CONSENT.search(text)))
