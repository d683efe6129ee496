"""Lines a mail client wrapped, joined back into their sentences.

E-mail and pasted text break lines at ~72 columns, wherever a word ends: "1.5M" on
one line, "requests/day" on the next. Read apart, the number loses its unit. A line
break is a wrap when the line before stops mid-sentence (no full stop, colon or
semicolon; an abbreviation's period does not count: "2,5 Mio." then "requests") and the
next line goes on: it starts with a word, a number or a price, neither line is a
numbered or lettered item, and it starts in capitals only after a long line (a short
line before a capital is a heading, a greeting or a list of its own). A table's rows
and a form's "label: value" lines are records, never joined, as are a breakdown's parts
("US-East 60").
"""

from __future__ import annotations

import re

from core.parse.breakdowns import part_line
from core.parse.references import POSTED_LINE
from core.parse.tables import separator

WRAP_WIDTH = 40
"""A line this long or longer that stops mid-sentence was wrapped by a mail client."""
ABBREVIATIONS = frozenset(
    {"mio", "mrd", "tsd", "ca", "approx", "appr", "avg", "est", "incl", "excl", "vs", "resp"}
    | {"max", "min", "nos", "tys", "mln", "mld", "mind", "mín", "máx", "env"}
)
"""Abbreviations whose period ends no sentence ("2,5 Mio. requests", "ca. 1.200", "6 tys.
zapytań")."""
_ALSO_UNITS = frozenset({"min", "max"})
"""Abbreviations that are also a sentence's last word ("2k/min. Input 2,500"): their period
ends it when a capital follows."""
_QUOTED = re.compile(r"(?:[ \t]*>)*[ \t]*")
_NUMBERED = re.compile(r"\d+[.)]\s|\d{1,3}(?:\.\d{1,3})+\.?\s+[A-Z]")
"""A numbered item or clause ("2.", "3)", "4.2.1 The Service", "2.5 Planned"): never joined."""
_LABEL = re.compile(r"[^\n:]{1,30}:\s")
_ITEM = re.compile(r"[ \t>*•-]*(?:\([a-e1-9]\)|[a-e1-9]\))\s", re.IGNORECASE)
"""A lettered or numbered item ("(a) chat: …", "2) batch"): a record of its own."""
_TRAILING_WORD = re.compile(r"[A-Za-z]{1,7}$")
_LEADERS = re.compile(r"\S\s*\.{3,}\s*\S")
"""Dot leaders between a form's label and its value ("Target model ...... GLM-5")."""
_GOES_ON = frozenset("(~$€£")
_POSTED = re.compile(POSTED_LINE)


def unwrap(text: str) -> str:
    """``text`` with its wrapped lines joined and its abbreviations' periods dropped."""
    text = _abbreviations(text)
    if "\n" not in text:
        return text
    lines = text.split("\n")
    out = [lines[0]]
    last = lines[0]  # the line as written, for the checks (out[-1] may be joined lines)
    for line in lines[1:]:
        rest = line[_QUOTED.match(line).end() :]  # type: ignore[union-attr]
        kept = _wrapped(last, rest)
        if kept is None:
            out.append(line)
        else:
            out[-1] = out[-1][: len(out[-1]) - len(last)] + kept + " " + rest
        last = line if kept is None else rest
    return "\n".join(out)


def _abbreviations(text: str) -> str:
    """Text without its abbreviations' periods ("ca. 1.200" -> "ca 1.200"): they end no
    sentence, and a period is where a fact stops being read."""
    cut: list[int] = []
    at = text.find(".")
    while at != -1:
        if at + 1 < len(text) and text[at + 1].isspace():
            word = _TRAILING_WORD.search(text, max(0, at - 7), at)
            if word is not None and word.group().lower() in ABBREVIATIONS:
                follows = text[at + 1 :].lstrip()[:1]
                if not (word.group().lower() in _ALSO_UNITS and follows.isupper()):
                    cut.append(at)
        at = text.find(".", at + 1)
    if not cut:
        return text
    pieces, start = [], 0
    for at in cut:
        pieces.append(text[start:at])
        start = at + 1
    pieces.append(text[start:])
    return "".join(pieces)


def _wrapped(before: str, after: str) -> str | None:
    """``before`` as it joins ``after`` (its abbreviation's period dropped), or None."""
    line = before.rstrip(" \t")
    if not line or not after:
        return None
    if line[-1] == ".":
        word = _TRAILING_WORD.search(line, max(0, len(line) - 8), len(line) - 1)
        if word is None or word.group().lower() not in ABBREVIATIONS:
            return None
        line = line[:-1]
    elif line[-1] in "!?:;":
        return None
    first = after[0]
    if not (first.isalnum() or first in _GOES_ON) or _NUMBERED.match(after):
        return None
    if line[-1].isdigit() and first.isdigit():
        return None  # "peak 40 rps, p2a 4" then "300 in / 60 out": joined, one figure of two
    if separator(before) or separator(after) or _ITEM.match(before) or _ITEM.match(after):
        return None
    if _POSTED.fullmatch(before) or _POSTED.fullmatch(after):
        return None  # "Hana Okafor  10:12 AM": a thread's header, a record of its own
    if part_line(before) or part_line(after):
        return None  # "US-East 60" then "EU-West 25": a breakdown's parts
    if ":" in before and _LABEL.match(after):
        return None  # "Requests per second: 65" then "input tokens: 1800": a form
    if _LEADERS.search(before) and _LEADERS.search(after):
        return None  # "Average daily output .... 1.1B tokens" then "Context window ….": a form
    if first.isupper() and len(before) < WRAP_WIDTH:
        return None
    return line
