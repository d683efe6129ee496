"""Volumes that add up: "chat 120M out tokens/day, summarization 45M/day, code review
35M/day. Total peak about 2.5x average".

Several day volumes of one kind, each for a different app or team, are one fleet's
load. Read one after another they are "two values" for one field, and the last would
win. When the message says they add up ("total", "combined", "in all", "plus", "on top")
they are summed, and the sum said with its parts. Without such a word they stay two
values, asked about: a peak and an average, or a figure and its correction, were
already told apart before this runs (``core.parse.peaks``, ``core.parse.corrections``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse.numbers import compact, count
from core.parse.openings import words_opening
from core.parse.peaks import UNITS
from core.parse.products import EACH_AFTER

if TYPE_CHECKING:
    from core.parse.facts import Reading
    from core.parse.grammar import Match

_SEVERAL = (
    r"\s+(?:apps|products|teams|workloads|services|use\s+cases|regions|tenants|clusters|sites"
    r"|data\s*centers)"
)
_PART_CUES = (
    "plus",
    r"on\s+top",
    r"in\s+addition",
    *(n + _SEVERAL for n in ("two", "three", "four", "five", "several")),
)
_ADDS_UP = re.compile(
    words_opening(
        (
            "total",
            "totals",
            "combined",
            r"in\s+all",
            "altogether",
            r"all\s+together",
            "sum",
            "summed",
            *_PART_CUES,
        ),
        ignorecase=True,
    )
    + r"\b"
)
_PARTS = re.compile(words_opening(_PART_CUES, ignorecase=True) + r"\b")
"""Words that count parts out: figures alike are then parts, not one figure said twice."""
_PART_WORDS = frozenset(
    {"plus", "on top", "addition", "apps", "products", "teams", "workloads", "services"}
    | {"use case", "regions", "tenants", "clusters", "sites", "center"}
)
"""Looked for before ``_PARTS``: most messages count no parts."""
_TO_USE = re.compile(
    r"\b(?:use|using|plan\s+(?:for|on|with)|size\s+(?:for|on|with)|go\s+with)\s+"
    r"(?:the\s+|a\s+)?(?:~\s*|about\s+|roughly\s+)?$",
    re.IGNORECASE,
)
"""Words before a volume that make it the one to size, not one more part."""
_SIDED = re.compile(r"\b(?:out|output|outputs|completions?|generated)\b", re.IGNORECASE)
_SIDES = re.compile(
    words_opening(
        ("peaks?", "average", "avg", "mean", "busiest", "typical", "normal"), ignorecase=True
    )
    + r"\b"
)
_AVERAGE = frozenset({"average", "avg", "mean", "typical", "normal"})
_VOLUMES = ("output_tokens_per_day", "requests_per_day")


def add_up(reading: Reading) -> None:
    said_of: dict[bool, bool] = {}  # each cue looked for once, when needed

    def said_anywhere(parts_only: bool) -> bool:
        if parts_only not in said_of:
            lower = reading.lower
            if parts_only and not any(w in lower for w in _PART_WORDS):
                said_of[parts_only] = False  # most messages count no parts: no regex needed
            else:
                cue = _PARTS if parts_only else _ADDS_UP
                said_of[parts_only] = cue.search(reading.text) is not None
        return said_of[parts_only]

    for name in _VOLUMES:
        unit = UNITS[name]
        twice = f"two values for {name}"
        flagged = [a for a in reading.ambiguities if a.startswith(twice)]
        said = reading.history.get(name, [])
        if len(said) < 2 or not said_anywhere(parts_only=not flagged):
            continue  # the same figure twice is one volume, unless parts are counted out
        if _peak_or_average_among(reading, [m for _, m in said]):
            continue  # "each ~250 req/s at its own peak … global average 600 req/s"
        chosen = [(v, m) for v, m in said if m is not None and _TO_USE.search(
            reading.text, max(0, m.toks[0].start - 30), m.toks[0].start
        )]
        if len(chosen) == 1:  # "Ken's number was total tokens. For planning use 500M/day"
            value, m = chosen[0]
            assert m is not None
            words = " ".join(reading.text[m.toks[0].start : m.toks[-1].end].split())
            share = reading.output_share if not _SIDED.search(words) else None
            if name == "output_tokens_per_day" and share is not None:
                value *= share  # "… 3:1 input to output" … "use 500M tokens/day total, same ratio"
                reading.understood[:] = [u for u in reading.understood if f"← '{words}'" not in u]
                reading.understood.append(
                    f"{compact(value)} {unit}: {share:.0%} of '{words}', split as the tokens "
                    "said before it"
                )
            reading.values[name] = value
            reading.ambiguities[:] = [a for a in reading.ambiguities if not a.startswith(twice)]
            reading.assume(f"'{words}' is said to be the one to use: the other {unit} not added")
            continue
        members = [_members(reading, m) for _, m in said]
        values = [v * n for (v, _), n in zip(said, members, strict=True)]
        shown = [
            f"{n} × {compact(v)}" if n > 1 else compact(v)
            for (v, _), n in zip(said, members, strict=True)
        ]
        if len(values) > 2 and abs(sum(values[:-1]) - values[-1]) <= values[-1] / 100:
            values, shown = values[:-1], shown[:-1]  # "2.5M chat + 500k evals = 3M/day total"
        total = sum(values)
        reading.values[name] = total
        reading.ambiguities[:] = [a for a in reading.ambiguities if not a.startswith(twice)]
        parts = " + ".join(shown)
        reading.understood.append(f"{compact(total)} {unit} in all: {parts}")


_MEMBERS = re.compile(
    r"\b(?P<n>\d{1,4}|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+(?:[a-z-]+\s+)?"
    r"[a-z]{3,}s\s+(?:at|doing|with|running|of)?\s*(?:about\s+|around\s+|roughly\s+|~\s*)?$",
    re.IGNORECASE,
)

def _members(reading: Reading, m: Match | None) -> int:
    """How many members a part is said of, each ("3 apps at ~200k req/day each"), else 1."""
    if m is None or not EACH_AFTER.match(reading.text, m.toks[-1].end):
        return 1
    found = _MEMBERS.search(reading.text, max(0, m.toks[0].start - 40), m.toks[0].start)
    members = count(found["n"]) if found is not None else None
    return int(members) if members else 1


def _peak_or_average_among(reading: Reading, facts: list[Match | None]) -> bool:
    """Whether a peak or average word stands among the values (they are then two sides
    of one volume, not parts of a sum), unless every part is an average of its own ("us
    120 rps avg, eu 80 rps avg": the sum of averages)."""
    spans = [(m.toks[0].start, m.toks[-1].end) for m in facts if m is not None]
    if len(spans) < 2:
        return True
    start, end = min(s for s, _ in spans), max(e for _, e in spans) + 8
    sides = [w.lower() for w in _SIDES.findall(reading.text, start, end)]
    return bool(sides) and not (len(sides) >= len(spans) and set(sides) <= _AVERAGE)
