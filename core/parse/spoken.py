"""Catalog names said aloud: "Llama three point one seventy B", "eight MI three-twenty-five Xs".

Voice notes and call transcripts spell a name's digits as words. Names are keyed with
their spaces dropped ("Llama 3.1 70B" is ``llama3.170b``), so a spoken name is the
head word followed by the digits its number words stand for, joined: "three point one
seventy B" gives 3 . 1 70 b. A run of number words can be grouped more than one way
("three-twenty-five" is 3 and 25, or 325 said whole; "two hundred" is 200, not 2 and
100), so every grouping is tried, pruned by the catalog's name prefixes, and the
longest catalog name wins. Words left over ("Kimi K three thirty-two GPUs": 32 GPUs)
stay for the rest of the reading.

A single capital letter ("A", "B", "H") is a GPU's head only when it is written as a
capital and the name is not followed by a unit: "A ten percent discount" is no A10.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.parse import numbers
from core.parse.lexicon import Lexicon

if TYPE_CHECKING:
    from core.parse.tokens import Raw

_POINT = frozenset({"point", "dot"})
_ZERO = frozenset({"oh", "o"})
"""A zero said as a letter inside a number ("four oh five B"), after another digit."""
_PLURAL_SCALES = {"hundreds": "hundred", "thousands": "thousand"}
_NOT_LEADING = frozenset({"hundred", "thousand", "million", "billion", "trillion", "dozen"})
"""A group never starts with a scale word: "A hundred requests" is no A100."""
_UNITS_AFTER = frozenset(
    {"percent", "%", "per", "times", "tokens", "token", "requests", "request", "x"}
    | {"seconds", "second", "minutes", "minute", "hours", "hour", "days", "day", "page"}
    | {"pages", "months", "month", "years", "year", "weeks", "week", "million", "k"}
)
_SCALE_LETTERS = frozenset("kmbt")
"""After a number these letters are its scale (thousand, million, billion, trillion)."""
_MAX_PIECES = 12
_MAX_GROUP = 4


def spoken_name(
    raws: list[Raw], i: int, lexicon: Lexicon, beyond: int
) -> tuple[str, str, int] | None:
    """(terminal, id, end) of a name said with number words from ``raws[i]``, or None.

    Only a match that ends past ``beyond`` (where the written-name match ended) and
    consumes a number word is returned: anything shorter the exact reader already had.
    """
    head = raws[i]
    if head.kind != "word" or head.key not in lexicon.name_prefixes:
        return None
    if len(head.key) <= 2 and not head.text.isupper() and not _spoken_letter(raws, i):
        return None
    pieces = _pieces(raws, i + 1)
    if not any(p.lower in numbers.NUMBER_WORDS for _, p in pieces[:3]):
        return None
    best: tuple[int, str] | None = None

    def walk(k: int, key: str, spoke: bool) -> None:
        nonlocal best
        if spoke and k > 0:
            end = pieces[k - 1][0] + 1
            hit = key if key in lexicon.names else None
            if hit is None and key.endswith("s") and key[:-1] in lexicon.names:
                hit = key[:-1]
            if hit is not None and end > beyond and (best is None or end > best[0]):
                best = (end, hit)
        if k == len(pieces):
            return
        piece = pieces[k][1]
        lower = _PLURAL_SCALES.get(piece.lower, piece.lower)
        if lower in _POINT:
            if key + "." in lexicon.name_prefixes:
                walk(k + 1, key + ".", spoke)
            return
        if lower in _ZERO and spoke:
            if key + "0" in lexicon.name_prefixes:
                walk(k + 1, key + "0", True)
            return
        if lower not in numbers.NUMBER_WORDS:
            grown = key + piece.key
            if grown in lexicon.name_prefixes or _plural(grown, lexicon):
                walk(k + 1, grown, spoke)
            return
        if lower in _NOT_LEADING:
            return
        run: list[str] = []
        for m in range(k, min(k + _MAX_GROUP, len(pieces))):
            word = _PLURAL_SCALES.get(pieces[m][1].lower, pieces[m][1].lower)
            if word not in numbers.NUMBER_WORDS:
                break
            run.append(word)
            value = numbers.words(run)
            if value is None or value != int(value):
                continue
            grown = key + str(int(value))
            if grown in lexicon.name_prefixes:
                walk(m + 1, grown, True)

    walk(0, head.key, False)
    if best is None:
        return None
    end, key = best
    terminal, rid = lexicon.names[key]
    if len(head.key) <= 2 and _unit_follows(raws, end):
        return None
    return terminal, rid, end


def _spoken_letter(raws: list[Raw], i: int) -> bool:
    """A transcript writes "h two hundreds" and "f p eight" in lower case: a lone letter
    heads a name there too, but never "a" ("a hundred"), and a scale letter after a number
    only when number words follow it ("sixteen b two hundreds", but "two b tokens")."""
    head = raws[i]
    if len(head.key) != 1 or head.key == "a":
        return False
    if head.key not in _SCALE_LETTERS or i == 0:
        return True
    before, after = raws[i - 1], raws[i + 1] if i + 1 < len(raws) else None
    counted = before.kind == "num" or before.lower in numbers.NUMBER_WORDS
    return not counted or (after is not None and after.lower in numbers.NUMBER_WORDS)


def _pieces(raws: list[Raw], j: int) -> list[tuple[int, Raw]]:
    """The words after a head, with their indexes; hyphens skipped, anything else ends."""
    out: list[tuple[int, Raw]] = []
    while j < len(raws) and len(out) < _MAX_PIECES:
        r = raws[j]
        if r.kind in ("word", "num"):
            out.append((j, r))
        elif not (r.kind == "sym" and r.text == "-"):
            break
        j += 1
    return out


def _plural(key: str, lexicon: Lexicon) -> bool:
    return key.endswith("s") and key[:-1] in lexicon.names


def _unit_follows(raws: list[Raw], end: int) -> bool:
    while end < len(raws) and raws[end].kind == "sym" and raws[end].text == "-":
        end += 1
    return end < len(raws) and raws[end].lower in _UNITS_AFTER
