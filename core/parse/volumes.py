"""A volume said like a request's length: "we generate 700 million output tokens a day".

The grammar reads "generated 700 million" as one request's output when a word before
the number names the direction, and the time after it is left over. No request answers
with 700 million tokens (``core.parse.plausible`` bounds it), so such a figure, with a
time said right after it ("a day", "per month", "in year one") or right before it
("annual volume: 20 billion output tokens"), is the traffic's volume over that time.
With no time in sight it stays implausible, and is asked about.
"""

from __future__ import annotations

import re

_AFTER = re.compile(
    r"[\s~]*(?:output\s+|generated\s+)?(?:tokens?\s+|toks?\s+)?(?:of\s+output\s+)?"
    r"(?:(?:a|per|/|each|every)\s*(?P<unit>day|week|month|year)\b"
    r"|(?P<adverb>daily|weekly|monthly|yearly|annually)\b"
    r"|in\s+(?:year\s+one|the\s+first\s+year|a\s+year)\b)",
    re.IGNORECASE,
)
_BEFORE = re.compile(
    r"\b(?P<adverb>annual|yearly|monthly|daily|weekly)\s+(?:\w+\s+){0,2}?"
    r"(?:volume|usage|output|traffic|demand)\s*(?:is|of|:|=|~|≈)?\s*"
    r"(?:about|around|roughly|~)?\s*$",
    re.IGNORECASE,
)
_ADVERBS = {
    "daily": "day",
    "weekly": "week",
    "monthly": "month",
    "yearly": "year",
    "annually": "year",
    "annual": "year",
}


def time_beside(text: str, start: int, end: int) -> str | None:
    """The unit of time said right after ``text[start:end]`` or right before it, or None."""
    after = _AFTER.match(text, end)
    if after:
        return after["unit"] or _ADVERBS.get((after["adverb"] or "").lower(), "year")
    before = _BEFORE.search(text[max(0, start - 60) : start])
    return _ADVERBS[before["adverb"].lower()] if before else None
