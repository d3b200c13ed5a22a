"""Nouns the lexicon does not know, taken from how they are said ("bought a kayak", "my wok",
"买了一台筋膜枪", "把 Q4 roadmap 发给…"), and the nouns a session taught found again in later turns."""
from __future__ import annotations

import re

from layers.transient.references import lexicon as lx
from layers.transient.references.mention import Mention, _add, _find_all, _han
from layers.transient.references.mentions_en import _EN_STOP
from layers.transient.references.mentions_zh import _ZH_STOP, _zh_extend_left

# Nouns the lexicon does not know are still things when said as one: owned ("my treadmill"), got, bought,
# wanted or returned ("buying a kayak", "买了一台筋膜枪", "放了一个鱼缸"). They are typed by the classifier
# in zh and as `other` in en, weak either way; a known span over them wins.
_EN_HAVE = (r"(?:buy|buying|bought|got|get|getting|have|has|had|own|owns|ordered|order|want|wants|need|needs|"
            r"returned|return|returning|use|using|fix|fixing|broke|sold|rent|rented|borrowed|received|gave|give|"
            r"found|lost|picked up|set up|installed|assembled|cleaned|clean|add|added|adding)")


_EN_GUESS = re.compile(rf"\b(?:(?:{_EN_HAVE})\s+(?:a|an|the|my|our|this|that|some)|my|our)\s+"
                       r"(?:new\s+|old\s+|little\s+|big\s+)?(?P<noun>[a-z][a-z-]+(?:\s+[a-z][a-z-]+)?)", re.I)


_EN_GUESS_END = set("""for to with is was are were from in at on that which who and or but by of as has have had
will would can could should does did do just still keep need needs making makes made looks seems since last
too also instead now today tonight tomorrow here there please""".split())


_ZH_GUESS = re.compile(r"(?:买|入手|订|放|装|送|收到|拿到|换|租|借|养|挑|选|有)了?(?:一|两|几|个)?"
                       r"(?P<cl>[台部个款件条双把张套盒瓶支块盆只本辆])(?P<noun>[\u4e00-\u9fff]{2,5}|[A-Za-z][A-Za-z -]{1,24}[A-Za-z])")


_ZH_GUESS_TYPE = {"台": lx.DEVICE, "部": lx.DEVICE, "辆": lx.VEHICLE, "盆": lx.OTHER, "只": lx.OTHER, "个": lx.OTHER}


# "把 Q4 roadmap 发给张总": what 把 takes is a thing handled, whatever the word for it.
_ZH_BA = re.compile(r"把\s*(?P<noun>[^，,。？?！!\s它他她这那我你][^，,。？?！!]{1,20}?)\s*(?=发给|发到|转给|抄送|给|调到|调成|"
                    r"关掉|关了|打开|放到|放进|加到|加入|改成|改为|删掉|删了|移到|存到|设为|设成|打印|导出|拿)")


def _guessed_nouns(text: str) -> list[Mention]:
    found: list[Mention] = []
    for match in _ZH_BA.finditer(text):
        noun = match.group("noun").strip()
        if len(noun) >= 2:
            _add(found, noun, lx.OTHER, match.start("noun"), weak=True, guess=True)
    for match in _EN_GUESS.finditer(text):
        words = match.group("noun").split()
        while words and (words[-1].lower() in _EN_GUESS_END or words[-1].lower() in _EN_STOP):
            words.pop()
        if words and words[0].lower() in _EN_GUESS_END | _EN_STOP:
            continue
        if words and not (words[-1].endswith(("ly", "ing", "ed")) and len(words) == 1):
            _add(found, " ".join(words), lx.OTHER, match.start("noun"), weak=True, guess=True)
    for match in _ZH_GUESS.finditer(text):
        noun = match.group("noun").strip()
        if _han(noun[0]):
            cut = next((i for i, ch in enumerate(noun) if ch in _ZH_STOP), len(noun))
            noun = noun[:cut]
            if len(noun) < 2:
                continue
        _add(found, noun, _ZH_GUESS_TYPE.get(match.group("cl"), lx.PRODUCT), match.start("noun"), weak=True,
             guess=True)
    return found


def _learned_nouns(text: str, learned: dict[str, str]) -> list[Mention]:
    """A noun this session taught ("按摩椅" from "买一把按摩椅") found again, with its brand in front
    ("奥佳华按摩椅8999元")."""
    found: list[Mention] = []
    for noun, kind in learned.items():
        for match in _find_all(text, noun):
            start = match.start()
            if _han(noun[0]):
                start = _zh_extend_left(text, start, names=True)
            _add(found, text[start:match.end()], kind, start)
    return found
