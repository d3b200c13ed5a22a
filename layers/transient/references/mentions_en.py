"""en mentions: noun phrases around a head noun, capitalised names typed by a cue before them, a place
word or head noun inside or after them, a given name, or a guess; kin words and titles ("Dr. Patel")."""
from __future__ import annotations

import re

from layers.transient.references import lexicon as lx
from layers.transient.references.mention import Mention, _add, _han

# Latin letters with their accents ("Belém", "Zürich", "Café de Flore") are letters of a word too.
_EN_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ][A-Za-zÀ-ÖØ-öø-ÿ0-9'’.\-]*[A-Za-zÀ-ÖØ-öø-ÿ0-9]|[A-Za-z]|#?\d[A-Za-z0-9\-.]*|\$\d[\d,.]*")


_EN_STOP = set("""
a an the my your his her our their its this that these those some any all both each every no one ones two three
i you he she it we they me him us them mine yours
is are was were be been being am do does did have has had will would can could should may might must shall
and or but so if then than as of on in at to for from with by about into over under near after before up down
out off again also just only very too not yes no ok okay please thanks thank hi hello hey sure great nice good
what which who whom whose when where why how there here now today tomorrow yesterday tonight next last
turn open close play add send put pull show find check get give make set start stop let call text email tell ask
book cancel move switch pause queue compare order buy return rename export download upload summarize
new old same other another more most less few many much own right left
""".split())


_EN_HEAD_TYPE = {word: kind for kind, words in lx.EN_HEADS.items() for word in words}


_EN_CITIES = lx.EN_CITIES


def _en_head(word: str) -> str | None:
    low = word.lower().strip(".'’")
    if low in _EN_HEAD_TYPE:
        return _EN_HEAD_TYPE[low]
    for suffix in ("es", "s"):
        if low.endswith(suffix) and low[: -len(suffix)] in _EN_HEAD_TYPE:
            return _EN_HEAD_TYPE[low[: -len(suffix)]]
    return None


def _capitalised(word: str) -> bool:
    return bool(re.match(r"[A-Z]|[a-z]+[A-Z]", word)) or bool(re.match(r"#?\d", word)) and len(word) < 12


def _inner_capital(tokens: list, index: int) -> bool:
    """"Veracruz All Natural": a capitalised stop word between two capitalised words is part of the name."""
    word = tokens[index][0]
    return word[:1].isupper() and word not in ("I", "And", "Or", "But") and index + 1 < len(tokens) \
        and tokens[index + 1][0][:1].isupper() and tokens[index + 1][1] == tokens[index][2] + 1


def _en_names(text: str, tokens: list, used: list[bool], initial, found: list[Mention]) -> None:
    """Capitalised names ("Blue Bottle on 3rd St", "Alvarez NDA", "Henderson contract"), typed by a cue
    before them, a place word or head noun inside or right after them, a given name, or a guess (weak)."""
    dining, travel, lodging = bool(_DINING.search(text)), bool(_TRAVEL.search(text)), bool(_LODGING.search(text))
    index = 0
    while index < len(tokens):
        word, start, end = tokens[index]
        low = word.lower().strip(".")
        if used[index] or not _capitalised(word) or re.match(r"#?\d", word) or low in _EN_STOP or len(word) < 2 \
                or low in _EN_CALENDAR or low in lx.EN_PEOPLE or "'" in word and word.split("'")[0].lower() in _EN_STOP:
            index += 1
            continue
        if low in lx.EN_PERSON_TITLES and index + 1 < len(tokens) and tokens[index + 1][0][:1].isupper() \
                and text[tokens[index][2]:tokens[index + 1][1]] in (" ", ". "):
            # "Dr. Patel", "Mrs. Lin": a title and the name after it are one person.
            _add(found, text[start:tokens[index + 1][2]], lx.PERSON, start, gender=lx.EN_PERSON_TITLES[low])
            used[index] = used[index + 1] = True
            index += 2
            continue
        if initial(index) and (re.search(r"(ed|ing)$", word) or low in _EN_COMMON) and index + 1 < len(tokens):
            index += 1  # "Playing Bohemian Rhapsody": the verb is not part of the name
            continue
        last = index

        def joined(nxt: int) -> bool:
            gap = text[tokens[nxt - 1][2]:tokens[nxt][1]]
            # "Spoke & Wheel" is one name; "AirPods Pro 1899元" ends before its price.
            return gap == " " or gap == " & " and _capitalised(tokens[nxt][0])

        while last + 1 < len(tokens) and not used[last + 1] and joined(last + 1) \
                and (_capitalised(tokens[last + 1][0]) or tokens[last + 1][0].lower() in ("on", "of", "de", "la"))\
                and (tokens[last + 1][0].lower() not in _EN_STOP - {"on", "of"} or _inner_capital(tokens, last + 1)) \
                and tokens[last + 1][0].lower().strip(".") not in _EN_CALENDAR \
                and not (re.match(r"\d", tokens[last + 1][0]) and _PRICE_AFTER.match(text, tokens[last + 1][2])):
            last += 1
        while last > index and tokens[last][0].lower() in ("on", "of", "de", "la"):
            last -= 1
        if last == index and initial(index) and _name_gender(word) is None and not _en_head(word) \
                and _NOT_A_NAME_AFTER.match(text, tokens[index][2]):
            index += 1  # "Sunny with a high of 75", "Fun!", "Inflatable ones": a capital, not a name
            continue
        words = [t[0] for t in tokens[index:last + 1]]
        if last == index and (_en_head(word) or initial(index) and (
                re.search(r"(ed|ing|ly)$", word) or low in _EN_COMMON)):
            index += 1
            continue
        trailing = None
        if last + 1 < len(tokens) and tokens[last + 1][1] == tokens[last][2] + 1 and text[tokens[last][2]] == " " \
                and tokens[last + 1][0].islower() and _en_head(tokens[last + 1][0]):
            trailing = _en_head(tokens[last + 1][0])
            last += 1
        name = text[start:tokens[last][2]]
        gender = _name_gender(words[0])
        prev = tokens[index - 1][0].lower() if index else ""
        lows = [w.lower().strip(".") for w in words]
        if prev in ("play", "playing", "queue", "up", "watch", "watching", "stream", "listen") or \
                re.match(r"\s*(by|-)\s", text[tokens[last][2]:]):
            _add(found, name, lx.MEDIA, start)
        elif trailing:
            _add(found, name, trailing, start)
        elif any(w in _EN_CITIES or w in _EN_PLACE_WORDS for w in lows):
            _add(found, name, lx.PLACE, start)
        elif len(words) > 1 and (lows[-1] in lx.EN_RESTAURANT_NAME_ENDS or lows[0] in lx.EN_RESTAURANT_NAME_ENDS
                                 or dining and prev not in _PERSON_CUES and gender is not None):
            _add(found, name, lx.RESTAURANT, start)
        elif len(words) > 1 and (_en_head(words[-1]) or _en_head(words[0])):
            _add(found, name, _en_head(words[-1]) or _en_head(words[0]), start)
        elif gender is not None and len(words) <= 2 and not (prev in ("in", "near") and not dining):
            # "a weekend in Savannah", "near Florence": a given name after "in" is a place (below)
            _add(found, name, lx.PERSON, start, gender=gender)
        elif any(re.search(r"\d", w) for w in words):
            _add(found, name, lx.PRODUCT, start, weak=True)
        elif prev == "by":
            _add(found, name, lx.PERSON, start, weak=True)  # "Hotel California by Eagles": the artist
        elif dining and prev in ("at", "to", "try", "from", "visit", "and", "or", "go", "like"):
            _add(found, name, lx.RESTAURANT, start, weak=True)  # "dinner at Nobu", "let's try Ippudo"
        elif prev in ("at", "in", "near", "visit", "to") and travel or prev in ("at", "in", "near") or lodging:
            _add(found, name, lx.PLACE, start, weak=True)
        elif prev in ("with", "and", "tell", "text", "call", "ask", "email", "to", "from", "invite", "meet"):
            _add(found, name, lx.PERSON, start, weak=True)
        else:
            _add(found, name, lx.OTHER, start, weak=True)
        for k in range(index, last + 1):
            used[k] = True
        index = last + 1


_EN_FOOD_PLACE = re.compile(r"\b(?:taco|tacos|pizza|sushi|ramen|burger|burgers|bbq|barbecue|noodle|noodles|dumpling|"
                            r"pho|curry|thai|italian|mexican|chinese|indian|korean|japanese|french|greek|vegan|"
                            r"brunch|breakfast|coffee|tea|bagel|donut|dessert|seafood|steak|wine|cocktail|dim sum)"
                            r"\s+(?:place|spot|joint|shop|truck|bar)\b", re.I)


def _en_mentions(text: str, role: str) -> list[Mention]:
    found: list[Mention] = []
    for match in _EN_FOOD_PLACE.finditer(text):
        _add(found, match.group(0), lx.RESTAURANT, match.start())  # "the taco place", "that BBQ spot"
    tokens = [(m.group(0), m.start(), m.end()) for m in _EN_WORD.finditer(text)]
    sentence_starts = {0} | {m.end() for m in re.finditer(r"[.!?:;]\s+|[\n，。！？：；]\s*", text)}

    def initial(index: int) -> bool:
        start = tokens[index][1]
        lead = text[:start].rstrip(" '\"(")
        return not lead or start in sentence_starts or lead[-1] in ".!?:;，。！？：；\n" or _han(lead[-1])

    used = [False] * len(tokens)
    # Codes: tickets, orders, flights.
    for match in re.finditer(r"#\s?\d{3,}", text):
        _add(found, match.group(0), lx.ORDER, match.start())
    # "order 4417", "Order #A-2210", "ticket number 88": the record with its number.
    for match in re.finditer(r"\b(?:order|ticket|case|claim|booking|reservation)\s+(?:number\s+|no\.?\s*|#\s?)?"
                             r"[A-Z]{0,3}-?\d[\dA-Z-]{2,}\b", text, re.I):
        _add(found, match.group(0), lx.ORDER, match.start())
    # Flight numbers: "UA 455", "DL1180"; with three letters or fewer digits ("ANA 7", "JAL 5") only where the
    # turn talks of flying, so "PS 5" or "GPT 4" elsewhere is no flight.
    flying = bool(_FLYING.search(text))
    for match in re.finditer(r"(?<![A-Za-z0-9])([A-Z]{2,3})\s?(\d{1,4})(?![A-Za-z0-9])", text):
        if (len(match.group(1)) == 2 and len(match.group(2)) >= 3) or flying:
            _add(found, match.group(0), lx.VEHICLE, match.start())
    # "next door", "door to door": where, not a door
    for match in re.finditer(r"\bnext\s+door\b|\bdoor\s+to\s+door\b", text, re.I):
        used_span = (match.start(), match.end())
        for index, (word, start, end) in enumerate(tokens):
            if used_span[0] <= start < used_span[1]:
                used[index] = True
    _en_names(text, tokens, used, initial, found)
    for index, (word, start, end) in enumerate(tokens):
        if used[index]:
            continue
        kind = _en_head(word)
        low = word.lower()
        owner = re.match(r"(.+)['’]s$", low)
        if owner and owner.group(1) in lx.EN_PEOPLE:
            # "my mom's birthday": the mother is mentioned too, not only her birthday.
            _add(found, word[:len(owner.group(1))], lx.PERSON, start, gender=lx.EN_PEOPLE[owner.group(1)])
            used[index] = True
            continue
        if low in lx.EN_PEOPLE and not (index + 1 < len(tokens) and tokens[index + 1][1] == end + 1
                                        and _en_head(tokens[index + 1][0]) in (lx.EVENT, lx.DOCUMENT, lx.ORDER)):
            # ("client call", "team meeting" are events, not the client)
            first = index
            if index > 0 and tokens[index - 1][0].lower() in ("my", "our", "your"):
                first = index
            name_after = index + 1 < len(tokens) and tokens[index + 1][0][:1].isupper() and \
                tokens[index + 1][1] == end + 1 and tokens[index + 1][0].lower() not in _EN_STOP and \
                tokens[index + 1][0].lower().strip(".") not in _EN_CALENDAR and not low.endswith("s")
            last = index + 1 if name_after else index
            gender = lx.EN_PEOPLE[low] or _name_gender(tokens[last][0])
            _add(found, text[tokens[first][1]:tokens[last][2]], lx.PERSON, tokens[first][1], gender=gender,
                 plural=low in ("parents", "kids", "children", "grandparents", "twins"))
            for k in range(first, last + 1):
                used[k] = True
            continue
        if kind is None:
            continue
        after_subject = index > 0 and tokens[index - 1][0].lower() in _VERB_SLOT
        if (initial(index) or after_subject) and low in ("book", "order", "return", "call", "plan", "review", "file",
                                                         "show", "case", "switch", "lock", "record", "check", "set",
                                                         "play", "stream", "text", "park", "email", "ship"):
            continue  # "Book a table", "Order more paper": the imperative, not the noun
        if index + 1 < len(tokens) and tokens[index + 1][1] == end + 1 and (
                tokens[index + 1][0].lower() in _EN_AFTER_MODIFIER or (_en_head(tokens[index + 1][0]) and
                                                                       not tokens[index + 1][0][:1].isupper())):
            continue
        # Extend left over modifiers (capitalised names, numbers, plain nouns and adjectives).
        first = index
        while first > 0 and index - first < 4:
            prev, pstart, pend = tokens[first - 1]
            if used[first - 1] or text[pend:tokens[first][1]].strip() not in ("", "-"):
                break
            if prev.lower() in _EN_STOP and prev.lower() not in ("left", "right", "new", "old"):
                break
            if prev[:1].isupper() and initial(first - 1) and prev.lower() in _EN_STOP | {"next", "now"}:
                break
            first -= 1
        if first == index and low in ("case", "version", "model", "session", "review", "call", "order",
                                      "return", "plan", "form", "policy", "sheet", "game", "show", "track",
                                      "care", "center", "centre", "kitchen", "grill", "bar", "item", "items",
                                      "garage", "office", "house", "city", "town", "trip", "dinner", "lunch"):
            if not (index > 0 and tokens[index - 1][0].lower() in ("the", "my", "a", "an", "this", "that")):
                continue
        plural = low.endswith("s") and not low.endswith("ss") and _en_head(low) and low not in _EN_HEAD_TYPE
        plural = plural or low in ("lights", "blinds", "items", "cabins", "batteries")
        _add(found, text[tokens[first][1]:end], kind, tokens[first][1], plural=bool(plural))
        for k in range(first, index + 1):
            used[k] = True
    return found


_NOT_A_NAME_AFTER = re.compile(r"!|\s+(?!(?:is|was|has|had|will|would|can|could|does|did|are|were|opens|closes|offers|"
                               r"says|said|and|or|on|in|at)\b)[a-z]")


_PRICE_AFTER = re.compile(r"\s?(?:元|块|美元|dollars?\b|[%％])")


# After these a word like "book" or "order" is the verb ("Can you book it", "I'll order one").
_VERB_SLOT = {"you", "i", "we", "they", "to", "can", "could", "will", "would", "please", "let's", "lets", "don't",
              "should", "must", "i'll", "we'll", "you'll", "also", "then", "just", "and"}


_PERSON_CUES = ("with", "tell", "text", "call", "ask", "email", "meet", "invite", "to", "from")


_DINING = re.compile(r"\b(eat|ate|dinner|lunch|brunch|breakfast|restaurants?|table|reservation|menu|food|ramen|"
                     r"italian|chinese|thai|mexican|japanese|indian|korean|french|vegan|vegetarian|"
                     r"sushi|pizza|tacos?|burgers?|noodles?|coffee|drinks?|brunch|dessert|takeout|delivery)\b", re.I)


_FLYING = re.compile(r"\b(?:flights?|fly|flying|flew|lands?|landing|departs?|departing|arrives?|gate|airport|"
                     r"terminal|boarding|airlines?|layover|nonstop|direct)\b|航班|起飞|降落|机场", re.I)


_TRAVEL = re.compile(r"\b(trip|travel|fly|flying|flight|visit|hotel|stay|vacation|moved?|drive|road|going)\b", re.I)


_LODGING = re.compile(r"\b(room|rooms|nights?|suite|check-?in|checkout|check-out|lobby)\b", re.I)


_EN_CALENDAR = {*lx.EN_MONTHS, *lx.EN_WEEKDAYS, *lx.EN_CALENDAR_ABBREVIATIONS, *lx.EN_HOLIDAYS}


_EN_PLACE_WORDS = {"st", "st.", "street", "ave", "avenue", "blvd", "road", "rd", "lane", "drive", "plaza", "square",
                   "park", "bay", "beach", "lake", "mountain", "valley", "island", "heights", "village"}


# Nouns that, right after a head noun, make it a modifier ("battery life", "phone number").
_EN_AFTER_MODIFIER = {"life", "level", "status", "settings", "size", "price", "number", "time", "mode", "case",
                      "cover", "label", "cable", "port", "screen", "app", "account", "password", "bill"}


_EN_COMMON = set("""
want need try would could should let's lets maybe good

sounds sure great nice perfect happy exciting wonderful sorry sent saved noted got done okay hmm well actually
also maybe first then finally hi hey welcome traffic both your it's i'm i'll let's don't that's there's here's
what's who's yeah yep nope good cool awesome thanks thank
""".split())


def _name_gender(word: str) -> str | None:
    low = re.sub(r"['’]s$", "", word.lower())
    if low in lx.EN_FEMALE_NAMES:
        return "f"
    if low in lx.EN_MALE_NAMES:
        return "m"
    return None
