"""Finding secrets in text: they are redacted from turns and never become memories.

Public interface (every layer calls these; signatures are stable):
    find_secrets(text) -> list[SecretFinding]        sorted by start, non-overlapping, offsets in `text`
    redact_secrets(text) -> (redacted_text, findings) each secret replaced by `[REDACTED:<kind>]`
    contains_secret(text) -> bool
    SecretFinding(kind, start, end)                  kind is one of SECRET_KINDS

Detection runs on a folded copy of the text (NFKC, invisible characters removed: see
`memoryhub.safety.normalise`) and maps every span back to the original, so full-width digits or a
zero-width space inside a key do not hide it, and redaction removes exactly the right characters.

Kinds and what they need (precision matters as much as recall: a turn full of false redactions is
a damaged record):
- password:     a password word (en/zh) followed by "is / : / = / 是 / 为 / 改成 …" and a value that
                is not an ordinary word ("password is incorrect" is not a secret); credentials in URLs.
- api_key:      vendor formats (sk-, sk-proj-, ghp_/gho_/github_pat_, AKIA/ASIA, AIza, glpat-,
                Stripe keys) and high-entropy values after key/secret words.
- token:        JWTs, bearer/basic credentials, Slack xox?- tokens, high-entropy values after token words.
- private_key:  PEM private key blocks (to the END line, or to the end of the text if it is cut off).
- card_number:  13–19 digits, spaces or dashes allowed, issuer prefix + length + Luhn all valid.
- cn_id_number: 18-character resident ID with a real birth date and a valid GB 11643 check character.
Only the secret value is redacted, not the words around it ("my password is [REDACTED:password]").
"""
from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from dataclasses import dataclass

from memoryhub.safety.checksums import card_number_valid, cn_id_valid
from memoryhub.safety.normalise import fold

SECRET_KINDS = ("password", "api_key", "token", "private_key", "card_number", "cn_id_number")


@dataclass(frozen=True)
class SecretFinding:
    kind: str  # one of SECRET_KINDS
    start: int
    end: int


@dataclass(frozen=True)
class _Hit:
    kind: str
    start: int  # folded offsets
    end: int
    priority: int


# --- vendor formats: unambiguous on their own -----------------------------------------------------

_VENDOR = [
    ("api_key", re.compile(r"(?<![A-Za-z0-9])sk-(?:proj-|ant-(?:api\d\d-)?|svcacct-)?[A-Za-z0-9_-]{20,}")),
    ("api_key", re.compile(r"(?<![A-Za-z0-9])[rs]k_(?:live|test)_[0-9A-Za-z]{16,}")),
    ("api_key", re.compile(r"(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{30,}")),
    ("api_key", re.compile(r"(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{30,}")),
    ("api_key", re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])")),
    ("api_key", re.compile(r"(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}")),
    ("api_key", re.compile(r"(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}")),
    ("token", re.compile(r"(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}")),
    ("token", re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
]
_PEM = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)")
_BEARER = re.compile(r"(?i)\b(?:bearer|authorization:\s*basic)\s+(?P<value>[A-Za-z0-9._~+/=-]{16,})")
_URL_CREDENTIALS = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:(?P<value>[^\s@/]{3,})@")

# --- passwords -----------------------------------------------------------------------------------

_VALUE = r"(?P<value>\"[^\"\n]{3,}\"|'[^'\n]{3,}'|`[^`\n]{3,}`|[!-~]{3,})"
_PASSWORD_EN = re.compile(
    r"(?i)(?<![A-Za-z])(?P<word>password|passwd|pass\s?word|passcode|passphrase|pwd|pw|pin(?:\s+(?:code|number))?)(?![A-Za-z])"
    r"(?:\s+(?:for|of|to|on)\s+(?:my\s+|the\s+|our\s+)?[\w.@-]+(?:\s+(?:account|server|router|wifi))?)?"
    r"\s*(?:(?:is|was|to)(?![A-Za-z])|=|:|->)\s*(?:now\s+|still\s+|just\s+|set\s+to\s+)?" + _VALUE)
# Without "is" / ":" ("my password hunter2!", "密码 123456") only a value that looks like a password
# counts: digits with letters or symbols, or six or more digits (a year after "password" is not one).
_PASSWORD_BARE = re.compile(
    r"(?i)(?P<word>(?<![A-Za-z])(?:password|passwd|pwd)(?![A-Za-z])|密码|口令)[ \t]+(?P<value>[!-~]{4,})")
_PASSWORD_ZH = re.compile(
    r"(?P<word>密码|口令|暗码|PIN码|pin码)"
    r"(?:[\u4e00-\u9fff]{0,2}?)"
    r"\s*(?:是|为|:|=|改成了?|改为|改成|设为|设置为|设置成|设成了?|换成了?)\s*" + _VALUE)
# Words that follow "password is" in ordinary sentences about passwords.
_NOT_A_PASSWORD = frozenset("""
the a an and or but too not very so wrong incorrect invalid expired correct required weak strong same different
changed change reset saved stored case case-sensitive being still now missing empty hidden encrypted long short
easy hard set ok okay fine sent needed in on at of for my your our their that this it what how where when secure
insecure safe unsafe protected forgotten lost locked blank null none n/a tbd unknown here there below above
mandatory optional updated generated new old same-as-before something anything nothing
""".split())

# --- generic high-entropy values after key / token / secret words ---------------------------------

_KEYWORD_EN = (r"(?i)(?<![A-Za-z])(?P<word>api[\s_-]?key|apikey|access[\s_-]?key(?:[\s_-]?id)?|"
               r"secret(?:[\s_-]?(?:access[\s_-]?)?key)?|client[\s_-]?secret|app[\s_-]?secret|"
               r"(?:auth|access|refresh|api|session|bot)?[\s_-]?token|private[\s_-]?key|credentials?|key)"
               r"(?![A-Za-z])")
_GENERIC_EN = re.compile(
    _KEYWORD_EN + r"(?:\s+(?:for|of)\s+[\w.-]+)?\s*(?:is|=|:|->)?\s*[\"'`]?(?P<value>[A-Za-z0-9_\-+/=.]{16,})")
_GENERIC_ZH = re.compile(
    r"(?P<word>密钥|秘钥|私钥|令牌|访问令牌|授权码|凭证)[\u4e00-\u9fff]{0,2}?\s*(?:是|为|:|=)?\s*[\"'`]?"
    r"(?P<value>[A-Za-z0-9_\-+/=.]{16,})")

# --- numbers with check digits -------------------------------------------------------------------

# Digit groups separated by single spaces or dashes; card candidates are runs of whole groups.
_DIGIT_RUN = re.compile(r"(?<![0-9A-Za-z+.])\d+(?:[ -]\d+)*(?![0-9A-Za-z])")
_CN_ID = re.compile(r"(?<![0-9A-Za-z])(\d{6})[ -]?(\d{8})[ -]?(\d{3}[0-9Xx])(?![0-9A-Za-z])")

# Redacting twice must change nothing: a placeholder is not a password.
_REDACTED = "[REDACTED"

_PRIORITY = {"private_key": 9, "vendor": 8, "cn_id_number": 7, "card_number": 7, "password": 6, "generic": 5}


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(c / len(value) * math.log2(c / len(value)) for c in counts.values())


def _looks_random(value: str) -> bool:
    if len(value) < 16:
        return False
    if not (re.search(r"[A-Za-z]", value) and re.search(r"\d", value)):
        return False
    if re.fullmatch(r"v?\d+(?:\.\d+)+[a-z0-9.-]*", value, re.I):  # version strings
        return False
    return _entropy(value) >= 3.0


def _value_span(match: re.Match, strip_quotes: bool = True) -> tuple[int, int, str]:
    start, end = match.span("value")
    value = match.group("value")
    if strip_quotes and len(value) >= 2 and value[0] in "\"'`" and value[-1] == value[0]:
        return start + 1, end - 1, value[1:-1]
    # Sentence punctuation after the value is not part of it.
    trimmed = value.rstrip(".,;:)]}>\"'`")
    return start, start + len(trimmed), trimmed


def _password_hits(text: str) -> list[_Hit]:
    hits = []
    for pattern in (_PASSWORD_EN, _PASSWORD_ZH, _PASSWORD_BARE):
        for match in pattern.finditer(text):
            start, end, value = _value_span(match)
            if len(value) < 3 or value.casefold() in _NOT_A_PASSWORD or value.startswith(_REDACTED):
                continue
            if not re.search(r"[A-Za-z0-9]", value) or re.match(r"(?:~?/|[a-z]+://)", value):
                continue
            # Placeholders and references are not the secret itself: <your password>, ${DB_PASSWORD}.
            if value[0] in "<{$%[(":
                continue
            if pattern is _PASSWORD_BARE and not (
                    (re.search(r"\d", value) and re.search(r"[^\d]", value)) or re.fullmatch(r"\d{6,}", value)):
                continue
            # A "pin" is also a thing on a map or a board; a PIN has digits.
            if match.group("word").casefold().startswith("pin") and not re.search(r"\d", value):
                continue
            hits.append(_Hit("password", start, end, _PRIORITY["password"]))
    for match in _URL_CREDENTIALS.finditer(text):
        if match.group("value").startswith(_REDACTED):
            continue
        hits.append(_Hit("password", *match.span("value"), _PRIORITY["password"]))
    return hits


def _generic_hits(text: str) -> list[_Hit]:
    hits = []
    for pattern in (_GENERIC_EN, _GENERIC_ZH):
        for match in pattern.finditer(text):
            start, end, value = _value_span(match)
            if not _looks_random(value):
                continue
            word = match.group("word").casefold()
            kind = "token" if ("token" in word or "令牌" in word or "授权码" in word) else "api_key"
            hits.append(_Hit(kind, start, end, _PRIORITY["generic"]))
    return hits


def _number_hits(text: str) -> list[_Hit]:
    hits = []
    for match in _CN_ID.finditer(text):
        if cn_id_valid("".join(match.groups())):
            hits.append(_Hit("cn_id_number", match.start(), match.end(), _PRIORITY["cn_id_number"]))
    for run in _DIGIT_RUN.finditer(text):
        groups = [(g.start() + run.start(), g.end() + run.start()) for g in re.finditer(r"\d+", run.group())]
        best: tuple[int, int] | None = None
        for i in range(len(groups)):
            digits = ""
            for j in range(i, len(groups)):
                digits += text[groups[j][0]:groups[j][1]]
                if len(digits) > 19:
                    break
                if len(digits) >= 12 and card_number_valid(digits):
                    span = (groups[i][0], groups[j][1])
                    if best is None or span[1] - span[0] > best[1] - best[0]:
                        best = span
        if best is not None:
            hits.append(_Hit("card_number", best[0], best[1], _PRIORITY["card_number"]))
    return hits


def _all_hits(text: str) -> list[_Hit]:
    hits = [_Hit("private_key", m.start(), m.end(), _PRIORITY["private_key"]) for m in _PEM.finditer(text)]
    for kind, pattern in _VENDOR:
        hits.extend(_Hit(kind, m.start(), m.end(), _PRIORITY["vendor"]) for m in pattern.finditer(text))
    hits.extend(_Hit("token", *m.span("value"), _PRIORITY["vendor"]) for m in _BEARER.finditer(text))
    hits.extend(_number_hits(text))
    hits.extend(_password_hits(text))
    hits.extend(_generic_hits(text))
    return hits


def find_secrets(text: str) -> list[SecretFinding]:
    """Secrets in `text`, sorted by start, never overlapping; offsets index the original `text`."""
    if not text:
        return []
    folded = fold(text)
    starts: list[int] = []  # accepted hits, kept sorted and non-overlapping
    accepted: list[_Hit] = []
    # The most specific detector wins an overlap (a vendor key after "password is" is an api_key).
    for hit in sorted(_all_hits(folded.text), key=lambda h: (-h.priority, -(h.end - h.start), h.start)):
        if hit.end <= hit.start:
            continue
        index = bisect.bisect_left(starts, hit.start)
        if index > 0 and accepted[index - 1].end > hit.start:
            continue
        if index < len(accepted) and accepted[index].start < hit.end:
            continue
        starts.insert(index, hit.start)
        accepted.insert(index, hit)
    return [SecretFinding(hit.kind, *folded.span(hit.start, hit.end)) for hit in accepted]


def contains_secret(text: str) -> bool:
    return bool(find_secrets(text))


_REDACTION_MARK = re.compile(r"\[REDACTED:[A-Za-z0-9_]+\]")


def holds_redaction_mark(text: str) -> bool:
    """Whether the text carries a `redact_secrets` marker: a statement about a secret that was
    removed on the way in ("remember the admin password is [REDACTED:password]")."""
    return bool(_REDACTION_MARK.search(text))


def mentions_secret(text: str) -> bool:
    """A secret, or the marker where one was redacted: either way the text must not become a memory."""
    return contains_secret(text) or holds_redaction_mark(text)


def redact_secrets(text: str) -> tuple[str, list[SecretFinding]]:
    """The text with each secret replaced by `[REDACTED:<kind>]`, and what was found (in the original)."""
    findings = find_secrets(text)
    out, last = [], 0
    for finding in findings:
        out.append(text[last:finding.start])
        out.append(f"[REDACTED:{finding.kind}]")
        last = finding.end
    out.append(text[last:])
    return "".join(out), findings


# --- every string of a stored JSON value -----------------------------------------------------------

def _pair_text(key: str, value) -> str | None:
    """An object member read as the sentence it stands for: {"wifi_password": "hunter22"} says
    "wifi_password: hunter22", which the detectors above know, while "hunter22" alone is a word."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None
    return f"{key}: {value}"


def secrets_in_json(value, field: str) -> list[tuple[str, list[str]]]:
    """Every place in a JSON value (or a plain string) that holds a secret, as [(path, kinds)], path
    first: `field`, `field.name`, `field[2]`, `field.<key 3>` for an object key that is itself a secret
    (named by position so the error never echoes it). Object keys,
    string values and numbers are scanned, and each member also as "key: value", so a secret is found
    whether it is spelt in one string or split into a name and a value. Iterative, so a deeply nested
    body cannot exhaust the stack. Every layer's validation calls this for each stored client field."""
    found: list[tuple[str, list[str]]] = []

    def scan(path: str, text: str) -> None:
        findings = find_secrets(text)
        if findings:
            found.append((path, sorted({finding.kind for finding in findings})))

    stack = [(field, value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            scan(path, item)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, (int, float)):
            scan(path, str(item))  # a card number sent as a JSON number
        elif isinstance(item, dict):
            for position, (key, member) in enumerate(item.items()):
                key = str(key)
                if find_secrets(key):
                    # The path is echoed in the error: a key that is itself a secret is named by position.
                    found.append((f"{path}.<key {position}>", sorted({f.kind for f in find_secrets(key)})))
                    member_path = f"{path}.<key {position}>"
                else:
                    member_path = f"{path}.{key}"
                pair = _pair_text(key, member)
                if pair is not None:
                    before = len(found)
                    scan(member_path, pair)
                    if len(found) > before:
                        continue  # the pair holds the value's secret too: one finding per member
                stack.append((member_path, member))
        elif isinstance(item, (list, tuple)):
            stack.extend((f"{path}[{index}]", member) for index, member in enumerate(item))
    return sorted(dict(found).items())


def secret_message(path: str, kinds: list[str]) -> str:
    from django.utils.translation import gettext as _

    return _("%(field)s holds a secret (%(kinds)s); secrets are never stored") % {
        "field": path, "kinds": ", ".join(kinds)}


def refuse_secrets(value, *, field: str) -> None:
    """Raise the 400 `secret_detected` naming each place of `value` that holds a secret (the same
    refusal for every stored client field: memory attributes, session metadata, slots, names)."""
    from memoryhub.core.errors import InvalidInput

    found = secrets_in_json(value, field)
    if found:
        messages = {path: [secret_message(path, kinds)] for path, kinds in found}
        raise InvalidInput(next(iter(messages.values()))[0], code="secret_detected", details={"fields": messages})
