"""Self-corrections: "16x H100 … correction: it's 24x, not 16", "$7.87, sorry, $7.50".

People correct themselves in the same message rather than edit it. Read naively, the
retracted figure and its replacement are two values for one field, or the retracted
one wins because it stands next to its unit. Three forms are read, between terminals
of one kind (numbers with numbers, prices with prices, names with names):

- *old, marker, new* ("sixteen, no sorry, thirty-two"; "$7.87 — actually $7.50"):
  the new value takes the old one's place, so it keeps the old one's unit and fact;
- *new, not old* ("it's 24x, not 16"): the old value, wherever it was said earlier,
  becomes the new one, and the phrase itself is no fact;
- *not old but new* ("not 16 but 24"): the old value is dropped.

A correction is said back ("'24x, not 16': read as a correction, 24 in place of 16"),
since a reader can misjudge one as easily as a person can.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse.lexicon import BREAK

if TYPE_CHECKING:
    from core.parse.tokens import Tok

_KINDS = {"NUM": "n", "MULT": "n", "XNUM": "n", "MONEY": "$", "PCT": "%"}
_NAMES = frozenset({"MODEL", "GPU"})
_MARKER = re.compile(
    r"^[\s,.;:!…—–-]*(?:(?:no|nope|sorry|oops|wait|actually|correction|rather|er|uh|um"
    r"|i\s+mean|i\s+meant|make\s+(?:that|it)|scratch\s+that|it'?s|it\s+is|should\s+be"
    r"|let'?s\s+say|my\s+bad|typo)\b[\s,.;:!…—–-]*)+$",
    re.IGNORECASE,
)
_UNIT_THEN_MARKER = re.compile(r"^(?:\s*/?\s*[^\W\d][\w-]*){1,2}?\s*[,;:!…—–-]")
"""A unit between a figure and a correction ("$7.87/hr, sorry, $7.50"): skipped."""
_SPACES = re.compile(r"^\s*$")
_STRONG = re.compile(
    r"\b(?:no|nope|sorry|oops|wait|actually|correction|i\s+meant?|make\s+(?:that|it)"
    r"|scratch\s+that|should\s+be|rather|my\s+bad|typo)\b",
    re.IGNORECASE,
)
_NOT = re.compile(r"^\s*,?\s*(?:and\s+)?not\s*$", re.IGNORECASE)
_BUT = re.compile(r"^\s*,?\s*but\s*$", re.IGNORECASE)
_NOT_BEFORE = re.compile(r"\bnot\s*$", re.IGNORECASE)
MAX_GAP = 60
"""Characters between a figure and its correction: further apart, they are two figures."""


def corrected(toks: list[Tok], text: str) -> list[Tok]:
    """``toks`` with corrections applied (retracted terminals become breaks)."""
    figures = [k for k, t in enumerate(toks) if _kind(t)]
    pairs = list(zip(figures, figures[1:], strict=False))
    retracting = {a for a, b in pairs if _NOT.match(text[toks[a].end : toks[b].start])}
    for a, b in pairs:
        first, second = toks[a], toks[b]
        if first.type == BREAK or second.type == BREAK:
            continue
        if _kind(first) != _kind(second) and _kind(first) != "name":
            continue
        between = text[first.end : second.start]
        if len(between) > MAX_GAP:
            continue
        if _NOT.match(between):
            if _kind(first) == _kind(second) != "name":
                _retract(toks, a, b, text)  # "it's 24x, not 16"
        elif _marked(between) and b not in retracting:
            owner: int | None = a
            if _kind(first) != _kind(second):  # "sixteen H200s, no, thirty-two"
                owner = _owner(toks, a, _kind(second), text)
            if owner is not None:
                _replace(toks, owner, b, text[toks[owner].start : second.end])
        elif _BUT.match(between) and _NOT_BEFORE.search(
            text[max(0, first.start - 8) : first.start]
        ):
            said = _short(text[first.start - 4 : second.end])
            second.note = f"'{said}': read as a correction, {second.text} in place of {first.text}"
            _drop(toks, a)  # "not 16 but 24"
    return toks


def _marked(between: str) -> bool:
    """Whether the words between two figures retract the first."""
    if not _STRONG.search(between):
        return False
    if _MARKER.match(between):
        return True
    unit = _UNIT_THEN_MARKER.match(between)
    return unit is not None and _MARKER.match(between[unit.end() - 1 :]) is not None


def _owner(toks: list[Tok], a: int, kind: str | None, text: str) -> int | None:
    """The figure of ``kind`` said right before the name at ``a`` ("sixteen H200s")."""
    k = a - 1
    while k >= 0 and toks[k].type == BREAK and _SPACES.match(text[toks[k].end : toks[k + 1].start]):
        k -= 1
    if k >= 0 and _kind(toks[k]) == kind and _SPACES.match(text[toks[k].end : toks[a].start]):
        return k
    return None


def _kind(t: Tok) -> str | None:
    if t.type in _NAMES:
        return "name"
    return _KINDS.get(t.type)


def _replace(toks: list[Tok], a: int, b: int, said: str) -> None:
    """Old, marker, new: the new value in the old one's place (names: the old dropped)."""
    old, new = toks[a], toks[b]
    if _kind(old) == "name":
        _drop(toks, a)
        return
    old.value = new.value
    old.note = f"'{_short(said)}': read as a correction, {new.text} in place of {old.text}"
    _drop(toks, b)


def _retract(toks: list[Tok], a: int, b: int, text: str) -> None:
    """New, not old: the old value said earlier becomes the new one."""
    new, old = toks[a], toks[b]
    said = _short(text[new.start : old.end])
    earlier = [k for k in range(a) if _kind(toks[k]) == _kind(old) and toks[k].value == old.value]
    if earlier:
        target = toks[earlier[-1]]
        target.note = f"'{said}': read as a correction, {new.text} in place of {target.text}"
        target.value = new.value
        _drop(toks, a)
    _drop(toks, b)


def _drop(toks: list[Tok], k: int) -> None:
    t = toks[k]
    toks[k] = type(t)(BREAK, t.text, None, t.start, t.end)


def _short(said: str) -> str:
    said = " ".join(said.split())
    return said if len(said) <= 60 else said[:57] + "…"
