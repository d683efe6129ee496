"""A volume broken down under a header, one part a line: the parts add up.

    Traffic by region (avg req/day):
    US-East 2.4M · EU-West 1.3M · AP-South 600k

    Per-region output tokens/hour:
      us-west-2        14M
      eu-central-1      9M

The header says what is counted and per what time; each part under it is a name and a
figure, with no unit of its own (so the grammar reads none of them). The parts are one
fleet's load: their sum is the volume, said with every part. A header without a unit,
or parts with their own units, are left to the rest of the reader. Parts listed after a
rate ("tenant A 100k req/day, B 250k, C 50k", or a bullet a line) are its unit's, and
summed when the message says they go together ("size the combined load").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.parse.numbers import SCALES, amount, compact, digits
from core.parse.openings import words_opening
from core.parse.timeunits import per_day

_PARTED_BY = (
    r"[\s-]+(?:region|team|app|application|product|tenant|customer|site"
    r"|cluster|service|use[\s-]case|country|market|zone|datacenter)s?\b"
)
_HEADER = re.compile(
    words_opening(
        ("by" + _PARTED_BY, "per" + _PARTED_BY, r"regional\b", r"breakdown\b", r"split\b"),
        ignorecase=False,
    )
)
"""A header's words (looked for in the lower-cased text; the header is their line)."""
_UNIT = re.compile(
    r"\b(?P<what>req(?:uest)?s?|calls?|rps|qps|rpm|(?P<out>output\s+)?tok(?:en)?s?)"
    r"(?:\s*(?:/|per\s+|a\s+)(?P<per>s|sec|second|min|minute|h|hr|hour|d|day|wk|week|mo|month))?\b",
    re.IGNORECASE,
)
_NAME = r"[A-Za-z][\w.-]{0,24}(?:[ \t][A-Za-z][\w.-]{0,24})?"
_FIGURE = r"\d[\d,.]*"
_SCALE = r"[kKmMbB]|bn|mn"
_PART = re.compile(
    rf"(?P<name>{_NAME})[ \t]*[:=]?[ \t]+~?(?P<n>{_FIGURE})[ \t]*(?P<scale>{_SCALE})?(?![\w/%$])"
)
_SEPARATOR = r"[ \t]*(?:·|•|\||;|,(?=\s))[ \t]*"
_SEPARATORS = re.compile(_SEPARATOR)
_ONE_PART = rf"{_NAME}[ \t]*[:=]?[ \t]+~?{_FIGURE}[ \t]*(?:{_SCALE})?(?![\w/%$])"
_PART_LINE = re.compile(rf"[ \t]*{_ONE_PART}(?:{_SEPARATOR}{_ONE_PART})*[ \t]*")
"""A whole line of parts, matched at once (the wrapped-line check asks it of every line)."""
_PERIODS = {"s": "second", "sec": "second", "min": "minute", "h": "hour", "hr": "hour"} | {
    "d": "day",
    "wk": "week",
    "mo": "month",
}
_RATE_WORDS = {"rps": "second", "qps": "second", "rpm": "minute"}


@dataclass(frozen=True)
class Breakdown:
    field: str  # requests_per_day | output_tokens_per_day
    total: float  # a day's
    said: str  # the parts, as written


def breakdown(text: str, lower: str | None = None) -> Breakdown | None:
    """The parts under the first header that names a unit, summed per day (or None);
    ``lower`` is the text lower-cased, when the caller has it already."""
    if "\n" not in text:
        return None
    lower = text.lower() if lower is None else lower
    for word in _HEADER.finditer(lower):
        start = lower.rfind("\n", 0, word.start()) + 1
        end = lower.find("\n", word.end())
        end = len(text) if end == -1 else end
        unit = _UNIT.search(text, start, end)
        if unit is None:
            continue
        what = unit["what"].lower()
        per = _RATE_WORDS.get(what) or _PERIODS.get((unit["per"] or "").lower(), unit["per"])
        if not per:
            continue
        field = "output_tokens_per_day" if "tok" in what else "requests_per_day"
        if field == "output_tokens_per_day" and not unit["out"]:
            continue  # tokens without a side: the reader asks about those
        parts = _parts(text, end)
        if len(parts) < 2:
            continue
        total = per_day(sum(v for _, v in parts), per.lower())
        said = " + ".join(f"{name} {compact(v)}" for name, v in parts)
        return Breakdown(field, total, said)
    return None


def part_line(line: str) -> bool:
    """Whether ``line`` is a breakdown's line of parts ("US-East 60", "eu 1.3M · apac 600k"):
    a record of its own, never a wrapped sentence."""
    return _PART_LINE.fullmatch(line) is not None


def _parts(text: str, start: int) -> list[tuple[str, float]]:
    """The name-and-figure parts on the lines right after a header, until one that is not."""
    parts: list[tuple[str, float]] = []
    for line in text[start:].lstrip("\n").split("\n"):
        items = [i for i in _SEPARATORS.split(line.strip()) if i]
        found = [_PART.fullmatch(i.strip()) for i in items]
        if not items or not all(found):
            break
        for m in found:
            assert m is not None
            value = digits(m["n"])
            if value is None:
                return []
            scale = SCALES.get((m["scale"] or "").lower(), 1.0)
            parts.append((m["name"].strip(), value * scale))
    return parts


_MORE_PARTS = re.compile(
    r"(?:[ \t]*,[ \t]*(?:and[ \t]+)?(?P<name>[A-Za-z][\w-]{0,15}(?:[ \t]+[A-Za-z][\w-]{0,15}){0,2})"
    r"[ \t]+~?(?P<n>\d[\d,.]*)(?![,.]\d)"
    r"[ \t]*(?P<scale>[kKmMbB])?(?=[ \t]*(?:[,.;)\n]|and\b|$)))"
)
_MORE_LINES = re.compile(
    r"[ \t]*\n[ \t]*(?:[•*·-][ \t]*)?(?P<name>[A-Za-z][\w -]{0,30}?)[ \t]*:[ \t]*~?"
    r"(?P<n>\d[\d,.]*)[ \t]*(?P<scale>[kKmMbB])?[ \t]*(?=\n|$)"
)
"""A bulleted part on a line of its own, after the rate's line: "• email drafting: 150k"."""
_TOGETHER = re.compile(
    r"\b(?:combined|together|in\s+all|altogether|total|sum|add\s+(?:them|those|these|it\s+all)\s+up"
    r"|adds?\s+up)\b",
    re.IGNORECASE,
)


def listed(text: str, said: str, value: float) -> tuple[float, str] | None:
    """ "tenant A 100k req/day, B 250k, C 50k … size the combined load": the parts listed
    after a rate, in its unit, summed when the message says they go together; the day's
    total and the parts as said, or None."""
    at = text.find(said)
    if at == -1:
        return None
    figure = amount(said.split()[0])
    if not figure:
        return None
    parts, end = [], at + len(said)
    while (more := _MORE_PARTS.match(text, end) or _MORE_LINES.match(text, end)) is not None:
        number = digits(more["n"])
        if number is None:
            return None
        parts.append((more["name"], number * SCALES.get((more["scale"] or "").lower(), 1.0)))
        end = more.end()
    if not parts or not (
        _TOGETHER.search(text, end, end + 200) or _TOGETHER.search(text, max(0, at - 200), at)
    ):
        return None  # parts, and "size the combined load" before or after them
    per_figure = value / figure  # the rate's unit, as a day's
    total = value + sum(v for _, v in parts) * per_figure
    return total, " + ".join([said, *(f"{name} {compact(v)}" for name, v in parts)])
