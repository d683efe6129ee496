"""A volume given as its history: "last 4 months (req/day): 200k → 240k → 288k → 346k",
or a usage report pasted as a table of months.

The latest figure is the volume to size; the series says how fast it grows. Growth is
the series' compounded rate per step (per month when the steps are months), and is
used only when the message says the trend goes on ("expect the same trend", "growth
continuing as is"); otherwise it is said back, to be confirmed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.parse.numbers import amount, compact
from core.parse.openings import words_opening
from core.parse.peaks import UNITS
from core.parse.timeunits import per_day

if TYPE_CHECKING:
    from core.parse.facts import Reading

_NUMBER = r"[~≈]?\d[\d.,]*(?:\s?[kKmMbB]\b)?"
_SERIES = re.compile(rf"(?:{_NUMBER}\s*(?:→|->|=>|➝|, then|then|, )\s*){{2,}}{_NUMBER}")
_MONTH = re.compile(
    r"^\s*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*(?:20\d\d)?\s*$"
    r"|^\s*20\d\d[-/]\d{1,2}\s*$",
    re.IGNORECASE,
)
_ANY_MONTH = re.compile(r"(?m)^\s*(?:[A-Z][a-z]{2}|20\d\d[-/])")
"""A line that starts like a month ("Jan 2026", "2026-01"): the table is looked at only then."""
_LISTED_OVER_TIME = re.compile(
    words_opening(
        (
            *(
                w + r"\s+\d+\s+(?:months|quarters|weeks|years)\b"
                for w in ("last", "past", "previous")
            ),
            r"trend\b",
            *(w + r"\s+(?:month|quarter|week)\s*:" for w in ("by", "per", "each")),
            r"month\s+over\s+month\b",
        ),
        ignorecase=False,
    )
)
"""A comma-separated list is a history only when the message says it runs over time."""
_GOES_ON = re.compile(
    r"\b(?:same\s+(?:trend|rate|pace)|trend\s+continu\w*|continu\w*\s+(?:as\s+is|like\s+this)"
    r"|growth\s+continu\w*|keeps?\s+growing|as\s+is\b|like\s+before)",
    re.IGNORECASE,
)
_REQUESTS = re.compile(r"\b(?:req|reqs|requests?|calls|conversations|queries)\b", re.IGNORECASE)
_TOKENS = re.compile(r"\btok(?:en)?s?\b", re.IGNORECASE)
_PER = re.compile(
    r"(?:/|\bper\s+|\ba\s+)(?P<unit>day|month|week|hour)\b|\b(?P<adv>daily|monthly)\b", re.I
)
_STEPS = re.compile(
    r"\b(?P<unit>month|quarter|week|year)s?\b|\b(?P<adv>monthly|quarterly|weekly)\b", re.I
)
MIN_VOLUME = 1000.0
"""A day's (or month's) volume is at least this; smaller series count something else."""
_STEP_MONTHS = {"month": 1.0, "quarter": 3.0, "week": 7 / 30, "year": 12.0}
_ADVERBS = {"daily": "day", "monthly": "month", "quarterly": "quarter", "weekly": "week"}


@dataclass(frozen=True)
class Series:
    values: list[float]
    said: str
    context: str
    """The words around the series that say what it counts and per what."""
    months: bool
    """Whether its steps are labelled as months (a pasted usage table)."""


def trend(reading: Reading) -> None:
    """Read a series' latest value as the volume, and its growth when told it goes on."""
    series = _series(reading.text)
    if series is None or len(series.values) < 3 or min(series.values) <= 0:
        return
    if series.values[-1] < MIN_VOLUME:
        return  # "batch 8, 16, 32": sizes tried, not a volume's history
    kind = "requests_per_day" if _REQUESTS.search(series.context) else None
    if kind is None and _TOKENS.search(series.context):
        kind = "output_tokens_per_day"
    if kind is None or reading.values.get(kind) is not None:
        return
    per = _PER.search(series.context)
    unit = (per["unit"] or _ADVERBS[per["adv"].lower()]) if per else "day"
    latest = per_day(series.values[-1], unit.lower())
    what = UNITS[kind]
    reading.values[kind] = latest
    reading.understood.append(f"{compact(latest)} {what}: the latest of '{series.said}'")
    steps = _STEPS.search(series.context)
    step = "month" if series.months else None
    if steps:
        step = (steps["unit"] or _ADVERBS.get((steps["adv"] or "").lower(), "month")).lower()
    if step is None or reading.values.get("monthly_growth") is not None:
        return
    per_step = (series.values[-1] / series.values[0]) ** (1 / (len(series.values) - 1)) - 1
    monthly = (1 + per_step) ** (1 / _STEP_MONTHS[step]) - 1
    if _GOES_ON.search(reading.text):
        reading.values["monthly_growth"] = monthly
        reading.understood.append(
            f"growth {monthly:.1%}/month: the series' compounded rate per {step}, "
            "as the trend goes on"
        )
    else:
        reading.assume(
            f"'{series.said}' grew {monthly:.1%} a month; say 'grows {monthly:.0%} a month' "
            "to size for the trend"
        )


def _series(text: str) -> Series | None:
    arrows = any(a in text for a in ("→", "->", "=>", "➝"))
    lower = text.lower()
    steps = any(w in lower for w in ("month", "quarter", "week", "year")) and (
        arrows or _LISTED_OVER_TIME.search(lower) is not None
    )
    found = _line_series(text, arrows, steps)
    if found is not None and (arrows or "," not in found.group() or steps):
        values = [
            amount(v.strip("~≈ ")) for v in re.split(r"→|->|=>|➝|, then|then|, ", found.group())
        ]
        if all(v is not None for v in values):
            start = text.rfind("\n", 0, found.start()) + 1
            before = text.rfind("\n", 0, max(0, start - 1)) + 1
            end = text.find("\n", found.end())
            context = text[before : end if end != -1 else len(text)]
            return Series(
                [v for v in values if v is not None],
                " ".join(found.group().split()),
                context,
                False,
            )
    return _table(text)


def _line_series(text: str, arrows: bool, steps: bool) -> re.Match[str] | None:
    """The first series, looked for only on lines that can hold one (a regex over every
    line of 10 KB costs more than the rest of this module)."""
    if not arrows and not steps:
        return None
    at = 0
    for line in text.split("\n"):
        listed = line.count(", ") >= 2 and sum(p[:1].isdigit() for p in line.split(", ")) >= 2
        if listed or (arrows and any(a in line for a in ("→", "->", "=>", "➝"))):
            found = _SERIES.search(text, at, at + len(line))
            if found is not None:
                return found
        at += len(line) + 1
    return None


def _table(text: str) -> Series | None:
    """Rows of "<month> | <figure>" (tab, pipe or comma separated), three or more."""
    if not _ANY_MONTH.search(text):
        return None
    lines = text.splitlines()
    rows: list[tuple[int, float]] = []
    for k, line in enumerate(lines):
        cells = [c.strip() for c in re.split(r"\t|\||,(?=\s*\d)", line) if c.strip()]
        if len(cells) == 2 and _MONTH.match(cells[0]):
            value = amount(cells[1])
            if value is not None:
                rows.append((k, value))
    if len(rows) < 3 or rows[-1][0] - rows[0][0] != len(rows) - 1:
        return None
    first = rows[0][0]
    context = "\n".join(lines[max(0, first - 3) : first])
    said = f"{lines[rows[0][0]].strip()} … {lines[rows[-1][0]].strip()}"
    return Series([v for _, v in rows], " ".join(said.split()), context, True)
