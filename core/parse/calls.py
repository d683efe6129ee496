"""Voice agents and open sessions: requests from calls, minutes and turns.

A voice line counts calls and their minutes, the model counts turns: "2,500 calls a
day, average call 3.5 minutes, about five LLM turns per minute" is 43,750 requests a day.
Sessions open at once, each at a rate, are the request rate too: "1,100 concurrent calls
at ~4 turns/min each"; said at the peak, it is divided by the peak-to-average.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse import numbers
from core.parse.context import around
from core.parse.numbers import compact
from core.parse.openings import words_opening
from core.parse.products import PERIODS
from core.parse.units import SMALL_WORDS

if TYPE_CHECKING:
    from core.parse.facts import Reading

_MINUTES_PER_CALL = re.compile(
    r"\b(?:average|avg)\s+call\s+(?:is\s+|of\s+|lasts\s+)?(?:about\s+|~\s*)?"
    r"(?P<a>\d+(?:\.\d+)?)\s*min(?:ute)?s?\b"
    r"|\b(?P<b>\d+(?:\.\d+)?)\s*min(?:ute)?s?\s+(?:average|avg|on\s+average|per\s+call|a\s+call)\b"
    r"|\b(?:average|avg)\s+(?:of\s+)?(?:about\s+|~\s*)?(?P<c>\d+(?:\.\d+)?)\s*min(?:ute)?s?\b",
    re.IGNORECASE,
)
_MINUTES = re.compile(r"\d+(?:\.\d+)?\s*min(?:ute)?s?\b")
"""The minutes of a call, whose "not read as a latency" note the product answers."""
_TURNS_PER_MINUTE = re.compile(
    "(?P<n>"
    + words_opening((r"\d\d*(?:\.\d+)?", *SMALL_WORDS.split("|")), ignorecase=True)
    + r")(?i:\s+(?:llm\s+)?(?:turns?|times)\s+(?:per|a|each)\s+minute\b)"
)


_CALL_MINUTES = re.compile(
    r"(?P<n>\d[\d,.]*)\s*(?P<scale>[kKmMbB])?\s+(?:call\s+)?minutes\s+(?:per|a|each)\s+"
    r"(?P<per>day|week|month|year)\b",
    re.IGNORECASE,
)


def call_minutes(reading: Reading) -> None:
    """Voice agents count calls and minutes, the model counts turns: "2,500 calls a day,
    average call 3.5 minutes, about five LLM turns per minute" is 43,750 requests a day
    (and "five turns per minute" is no rate of its own)."""
    if "minute" not in reading.lower:
        return
    lower = reading.lower
    if reading.text.isascii() and "turn" not in lower and "times" not in lower:
        return  # no turns said: on ASCII text the cue words rule the regex out exactly
    turns = _TURNS_PER_MINUTE.search(reading.text)
    if turns is None:
        return
    per_minute = float(numbers.words([turns["n"].lower()]) or turns["n"])
    calls = [
        (value, reading.said(m))
        for name, value, m in reading.quantities
        if name == "requests_per_day" and "call" in reading.said(m).lower()
    ]
    minutes = _MINUTES_PER_CALL.search(reading.text)
    spent = _CALL_MINUTES.search(reading.text)
    if calls and minutes is not None:
        value, said = calls[-1]
        per_call = float(minutes["a"] or minutes["b"] or minutes["c"])
        rate = value * per_call * per_minute
        said = f"{said}' × '{' '.join(minutes.group().split())}"
    elif spent is not None:  # "5.4M call minutes per month"
        total = numbers.digits(spent["n"])
        if total is None:
            return
        total *= numbers.SCALES.get((spent["scale"] or "").lower(), 1.0)
        rate = total / PERIODS[spent["per"].lower()] * per_minute
        said = " ".join(spent.group().split())
    else:
        return
    reading.withdraw("requests_per_day")
    peak = reading.sources.get("peak_to_average")
    if peak and f"{turns['n']} times" in peak:
        reading.withdraw("peak_to_average")  # "speaks about 4 times a minute": no peak
    used = ("two values for requests_per_day", *(f"'{m}" for m in _MINUTES.findall(said)))
    reading.ambiguities[:] = [a for a in reading.ambiguities if not a.startswith(used)]
    ends = tuple(f"← '{c}'" for _, c in calls)  # the calls, said again with their turns
    reading.understood[:] = [u for u in reading.understood if not u.endswith(ends)]
    reading.match = None
    words = " ".join(turns.group().split())
    reading.put("requests_per_day", rate, f"{compact(rate)} requests/day", f"{said}' × '{words}")


_CONCURRENT_TURNS = re.compile(
    r"(?P<c>\d[\d,]*)\s+(?:concurrent|simultaneous|parallel)\s+(?:calls|sessions|conversations"
    r"|users|streams|agents|chats)\s+(?:at|each\s+(?:at|doing|making|sending))?\s*(?:about\s+|~\s*)?"
    r"(?P<n>\d+(?:\.\d+)?)\s+(?:turns|requests|calls|messages)\s*(?:/|per\s+|an?\s+)"
    r"(?P<unit>s|sec|second|min|minute|h|hr|hour)\b(?:\s+each)?",
    re.IGNORECASE,
)
"""Sessions open at once, each asking at a rate: "1,100 concurrent calls at ~4 turns/min each"."""
_AT_PEAK_BEFORE = re.compile(r"\b(?:at|during)\s+(?:the\s+)?peak\b[^.;!?\n]*$", re.IGNORECASE)
_UNIT_PER_DAY = {"s": 86400, "sec": 86400, "second": 86400, "min": 1440, "minute": 1440}
_UNIT_PER_DAY |= {"h": 24, "hr": 24, "hour": 24}


def _quotes_part(line: str, said: str) -> bool:
    """Whether a say-back line quotes a piece of ``said`` ("'4 turns/min' is the peak")."""
    quoted = re.findall(r"'([^']+)'", line)
    return bool(quoted) and quoted[0] in said and "peak" in line


def concurrent_turns(reading: Reading) -> None:
    """Sessions open at once times each one's rate is the request rate ("at peak they run
    1,100 concurrent calls at ~4 turns/min each": 4,400 turns a minute), said; the
    sessions are the load, not a batch to price."""
    words = ("concurrent", "simultaneous", "parallel")
    found = next(around(_CONCURRENT_TURNS, reading.text, reading.lower, words, 12, 80), None)
    if found is None:
        return
    sessions = numbers.digits(found["c"])
    if not sessions:
        return
    rate = sessions * float(found["n"]) * _UNIT_PER_DAY[found["unit"].lower()]
    said = " ".join(found.group().split())
    reading.withdraw("requests_per_day")
    reading.withdraw("concurrency")
    reading.match = None
    reading.understood[:] = [u for u in reading.understood if not _quotes_part(u, said)]
    ratio = reading.values.get("peak_to_average")
    at_peak = _AT_PEAK_BEFORE.search(reading.text, max(0, found.start() - 30), found.start())
    if at_peak is not None and isinstance(ratio, float) and ratio > 1:
        reading.put("requests_per_day", rate / ratio, f"{compact(rate / ratio)} requests/day", said)
        reading.assume(f"'{said}' is the peak: ÷ {ratio:g} (peak to average)")
        return
    reading.put("requests_per_day", rate, f"{compact(rate)} requests/day", said)
