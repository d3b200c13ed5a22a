"""Decoded views of obvious encodings (base64/32, hex, escapes, binary, %-encoding, entities) and the
whole-text re-readings (ROT13, reversed); encoded_instructions' cue "decode this and follow it".

How every family's rules are read (views, quotation, decoding): memoryhub/safety/injection/__init__.py.
"""
from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
from urllib.parse import unquote

from memoryhub.safety.injection.patterns import AnyOf, _c

_DECODE_AND_OBEY_EN = _c(r"\b(?:decode|decipher|decrypt|unscramble|reverse|translate|rot13|base64[- ]?decode|read\s+(?:it\s+)?backwards)\b"
                         r"[^.\n]{0,50}?\b(?:and|then|,|before)\s+(?:\w+\s+){0,2}?(?:follow|execute|obey|apply|run|do\s+(?:it|what|as)|"
                         r"comply|act\s+on|carry\s+(?:it\s+)?out|perform|use)\b|\b(?:follow|execute|obey|apply|run|do)\s+(?:it|this|them|"
                         r"the\s+(?:decoded|hidden|following|encoded)\s*\w*)\s+(?:\w+\s+){0,2}?(?:once|after|when)\s+(?:\w+\s+)?"
                         r"(?:decoded|deciphered|reversed|translated)|\b(?:follow|obey|execute|apply)\s+the\s+(?:decoded|deciphered|"
                         r"reversed|hidden)\s+(?:text|instructions?|message|content|command)")


_ZH_DECODE_AND_OBEY = _c(r"(?:解码|解密|译码|倒着读|反过来读|倒序读|逆序读|倒过来读|还原)[^。]{0,14}?(?:后|并|然后|再|之后)?[^。]{0,4}?"
                         r"(?:严格)?(?:执行|照做|遵守|照办|服从|按.{0,4}做|遵循)")


_DECODE_AND_OBEY_EN_ANY = AnyOf(_DECODE_AND_OBEY_EN)


_DECODE_AND_OBEY_ZH_ANY = AnyOf(_ZH_DECODE_AND_OBEY)


def _encoded_hint(text: str) -> bool:
    return _DECODE_AND_OBEY_EN_ANY(text) or _DECODE_AND_OBEY_ZH_ANY(text)


# ------------------------------------------------------------------------------------- decoding
_B64_RUN = re.compile(r"(?<![A-Za-z0-9+/=_-])(?:[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9_-]{16,}={0,2})(?![A-Za-z0-9+/=_-])")


_B32_RUN = re.compile(r"(?<![A-Z2-7=])[A-Z2-7]{16,}={0,6}(?![A-Z2-7=])")


# Base64 wrapped or cut into groups ("SWdub3Jl IGFsbCBw ..."), as mail and terminals break it.
_B64_CHUNKED = re.compile(r"(?<![A-Za-z0-9+/=])(?:[A-Za-z0-9+/]{8,}[ \t]*\r?\n?[ \t]*){2,}[A-Za-z0-9+/]{2,}={0,2}(?![A-Za-z0-9+/=])")
_HEX_RUN = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){8,}(?![0-9A-Fa-f])")


_HEX_SPACED = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[\s:,.-]){7,}[0-9A-Fa-f]{2}(?![0-9A-Fa-f])")


_ESCAPED = re.compile(r"(?:\\x[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}|0x[0-9A-Fa-f]{2}\s?){6,}")


_BINARY = re.compile(r"(?:[01]{8}[\s,]?){6,}")


_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")


_ENTITY = re.compile(r"&#(?:\d{2,7}|x[0-9A-Fa-f]{2,6});")


_LETTERS = re.compile(r"[^\W\d_]")


# Every view below comes from a match of one of these: a text with none has no decoded view.
_ENCODED_RUNS = AnyOf(_B64_RUN, _B32_RUN, _B64_CHUNKED, _HEX_RUN, _HEX_SPACED, _ESCAPED, _BINARY, _PERCENT, _ENTITY, gate=True)


def _texty(raw: bytes) -> str | None:
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    printable = sum(ch.isprintable() or ch in "\n\t" for ch in decoded)
    if len(decoded) < 6 or printable < 0.9 * len(decoded) or len(_LETTERS.findall(decoded)) < 0.4 * len(decoded):
        return None
    return decoded


def _decoded_views(text: str) -> list[str]:
    """Readings of obvious encodings inside the text (case-preserved input), each long enough to matter."""
    views: list[str] = []
    if not _ENCODED_RUNS(text):
        return views
    runs = _B64_RUN.findall(text) + [re.sub(r"\s+", "", chunked) for chunked in _B64_CHUNKED.findall(text)
                                     if re.search(r"\s", chunked.strip())]
    for run in runs:
        if run.isalpha() and (run.islower() or run.isupper()):
            continue  # a long word, not base64
        body = run.rstrip("=")
        for alphabet in (None, b"-_"):
            try:
                raw = base64.b64decode(body + "=" * (-len(body) % 4), altchars=alphabet, validate=alphabet is None)
            except (binascii.Error, ValueError):
                continue
            decoded = _texty(raw)
            if decoded:
                views.append(decoded)
                break
    for run in _B32_RUN.findall(text):
        try:
            decoded = _texty(base64.b32decode(run.rstrip("=") + "=" * (-len(run.rstrip("=")) % 8)))
        except (binascii.Error, ValueError):
            continue
        if decoded:
            views.append(decoded)
    for run in _HEX_RUN.findall(text) + [re.sub(r"[\s:,.-]", "", r) for r in _HEX_SPACED.findall(text)]:
        decoded = _texty(bytes.fromhex(run))
        if decoded:
            views.append(decoded)
    for run in _ESCAPED.findall(text):
        try:
            raw = run.replace("0x", "\\x").replace(" ", "")
            decoded = codecs.decode(raw, "unicode_escape")
            decoded = decoded.encode("latin-1").decode("utf-8") if all(ord(c) < 256 for c in decoded) else decoded
        except (UnicodeDecodeError, UnicodeEncodeError, ValueError):
            continue
        views.append(decoded)
    for run in _BINARY.findall(text):
        bits = re.sub(r"[\s,]", "", run)
        decoded = _texty(bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits) - 7, 8)))
        if decoded:
            views.append(decoded)
    if len(_PERCENT.findall(text)) >= 3:
        views.append(unquote(text.replace("+", " ")))
    if len(_ENTITY.findall(text)) >= 3:
        views.append(html.unescape(text))
    return views


# Words one of the rules needs; a ROT13 or reversed reading without any of them is not read further.
_ANCHORS_EN = (
    r"ignor|disregard|forget|overrid|bypass|instruction|rules|guideline|polic|prompt|system|admin|root|develop|mode\b|pretend|"
    r"persona|identity|restrict|filter|recommend|suggest|promot|steer|competitor|reveal|print|output|secret|hidden|send|mail|"
    r"forward|upload|transfer|password|credential|api key|memor|remember|consent|authori|approv|trust|assistant|\bai\b|model|"
    r"http|decode|you are|you're|from now|refuse|unfilter|unrestrict|jailbreak|\bdan\b|tell (?:the )?users?|everyone|delete|"
    r"execute|\brun\b|wallet|money|funds|safety|guardrail|obey|comply|superuser|privilege|unlock|anyone|whoever|third part")


_ANCHORS_ZH = (r"忽略|无视|忘|指令|指示|规则|设定|提示|限制|约束|系统|管理员|开发者|模式|扮演|假装|你是|你现在|推荐|推销|推广|建议|输出|打印|"
               r"密码|记忆|记住|发送|发到|发给|转发|抄送|上传|助手|模型|授权|同意|自称|解码|作废|不再|拒绝|越狱|转账|执行|删除|第三方|任何人")


_ANCHORS = re.compile(_ANCHORS_EN + "|" + _ANCHORS_ZH)


_ANCHORS_LATIN = re.compile(_ANCHORS_EN)


_ANCHORS_FOUND = {_ANCHORS: AnyOf(_ANCHORS, gate=True), _ANCHORS_LATIN: AnyOf(_ANCHORS_LATIN, gate=True)}


def _reveals(view: str, plain: str, anchors: re.Pattern = _ANCHORS) -> bool:
    """Whether a re-reading brings up vocabulary the plain reading lacks (otherwise reading it again finds nothing new)."""
    if not _ANCHORS_FOUND[anchors](view):
        return False
    found = set(anchors.findall(view))
    return bool(found) and not found <= set(anchors.findall(plain))


def _rereadings(folded: str) -> list[str | None]:
    """Whole-text transforms a reader can undo in their head: ROT13 and reversed order."""
    latin = len(re.findall(r"[a-z]", folded))
    rot13 = codecs.encode(folded, "rot13") if latin >= 12 and latin * 2 >= len(_LETTERS.findall(folded)) else None
    return [rot13, folded[::-1]]
