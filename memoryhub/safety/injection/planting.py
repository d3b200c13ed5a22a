"""tool_planting: text framed as tool output or addressed to the AI that carries an action.

How every family's rules are read (views, quotation, decoding): memoryhub/safety/injection/__init__.py.
"""
from __future__ import annotations

import re
from functools import lru_cache

from memoryhub.safety.injection.patterns import (
    _AI,
    _AI_ADDRESS_EN,
    _AI_MODAL_EN,
    _PAYLOAD_EN,
    _TOOL_FRAME_EN,
    _ZH_AI_ADDRESS,
    _ZH_AI_MODAL,
    _ZH_PROMO,
    _ZH_TOOL_FRAME,
    AnyOf,
    _c,
    _payload,
)

# An order to say something to the user, opening a clause, combined with a harmful ask.
_DECEIVE_AND_HARM = _c(r"(?:^|[.:;!?\"“—\n]\s*|\bplease\s+|\band\s+|\bthen\s+)(?:tell|inform|warn|notify|convince|remind)\s+"
                       r"(?:the\s+)?(?:users?|customers?|them|people|everyone|clients?)\b|(?:^|[，。：:！\n]\s*|请)(?:告诉|通知|提醒|劝)"
                       r"(?:用户|客户|他们|大家|对方|观众)")


_HARM = _c(r"\b(?:passwords?|passcodes?|pins?|2fa|verification\s+codes?|credit\s+cards?|card\s+numbers?|cvv|ssn|seed\s+phrase|"
           r"credentials|log\s*in\s+(?:at|here|via)|transfer|wire|gift\s+cards?|bitcoin|crypto|wallet|bank\s+details|install|"
           r"download|run)\b|密码|验证码|银行卡|卡号|转账|汇款|礼品卡|下载|安装|登录")


_STRONG_PROMO = _c(r"\b(?:recommend\w*|promot\w*|endors\w*|advertis\w*|rate|rank\w*|prais\w*|upsell\w*|upvote\w*|review)\b|\b\d\s*stars?\b")


# Text hidden from the human reader of a page: a strong sign of planting, but also what a report of an attack describes.
_HIDDEN_FRAME = _c(r"\bhidden\s+text|\bwhite\s+(?:text|font)|display\s*:\s*none|font-size\s*:\s*0|visibility\s*:\s*hidden|隐藏文字|白色文字|白色字")


_CLAUSE_START = r"(?:^|[.:;!?\"“”'—\-–\n(]\s*|\bplease\s+|\bthen\s+|\band\s+)"


_PAYLOAD_EN_GATE = AnyOf(_PAYLOAD_EN, gate=True)


@lru_cache(maxsize=256)
def _imperative_payload(text: str) -> bool:
    """A payload verb that opens a clause: the text gives the order instead of reporting it."""
    if not _PAYLOAD_EN_GATE(text):
        return False
    for pattern in _PAYLOAD_EN:
        for match in pattern.finditer(text):
            if re.search(_CLAUSE_START + r"$", text[max(0, match.start() - 12): match.start()]) or match.start() == 0:
                return True
    return False


_AI_WORD = _c(rf"\b{_AI}\b|\byou\b|助手|ai|模型|机器人|智能体|人工智能|你|claude|chatgpt|gemini|copilot")


_FRAMED_EN = AnyOf(_TOOL_FRAME_EN, _HIDDEN_FRAME)


_FRAMED_ZH = AnyOf(_ZH_TOOL_FRAME)


_DECEIVE_AND_HARM_ANY, _HARM_ANY, _AI_WORD_ANY = AnyOf(_DECEIVE_AND_HARM), AnyOf(_HARM), AnyOf(_AI_WORD)


_ADDRESSED_EN, _ADDRESSED_ZH = AnyOf(_AI_ADDRESS_EN), AnyOf(_ZH_AI_ADDRESS)


_MODAL_EN, _MODAL_ZH = AnyOf(_AI_MODAL_EN), AnyOf(_ZH_AI_MODAL)


def _tool_planting(text: str) -> bool:
    if _DECEIVE_AND_HARM_ANY(text) and _HARM_ANY(text):
        return True  # "tell the user their account is locked and they must enter their password at ..."
    framed = _FRAMED_EN(text) or _FRAMED_ZH(text)
    if not framed and not _AI_WORD_ANY(text):
        return False
    addressed = _ADDRESSED_EN(text) or _ADDRESSED_ZH(text)
    if addressed and (_STRONG_PROMO.search(text) or _ZH_PROMO.search(text) or _payload(text)):
        return True
    modal = _MODAL_EN(text) or _MODAL_ZH(text)
    if addressed and modal:
        return True
    if framed and (addressed or (modal and _payload(text)) or _imperative_payload(text)):
        return True
    return modal and _payload(text) and bool(re.search(rf"\b{_AI}\b|助手|ai|模型|机器人", text))
