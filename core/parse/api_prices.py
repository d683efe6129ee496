"""API prices said in words: one price both ways, and input that costs nothing.

"$0.88 per million tokens in and out (same price both ways)", "$0.88/M blended" and
"input free on their promo" are prices the break-even needs for both directions; the
grammar reads a price for one direction at a time. With an API price already read for
one side, these fill the other and say so.
"""

from __future__ import annotations

import re
from typing import Any

_BOTH = re.compile(
    r"\b(?:in\s+(?:and|&)\s+out|input\s+(?:and|&)\s+output|both\s+ways|either\s+way"
    r"|same\s+price\s+(?:both|for\s+both|in\b)|blended)\b",
    re.IGNORECASE,
)
_FREE_INPUT = re.compile(
    r"\b(?:input|prompt)s?(?:\s+tokens)?\s+(?:is\s+|are\s+)?(?:free|at\s+no\s+cost|\$0(?:\.0+)?\b)"
    r"|\bfree\s+(?:input|prompt)s?\b",
    re.IGNORECASE,
)
_IN, _OUT = "api_price_per_million_input", "api_price_per_million_output"


def both_sides(fields: dict[str, Any], text: str, said: dict[str, str]) -> list[str]:
    """Fill the API price's other side from words that name both, or a free input."""
    notes: list[str] = []
    have_in, have_out = fields.get(_IN), fields.get(_OUT)
    if (have_in is None) != (have_out is None):
        one = have_in if have_in is not None else have_out
        source = said.get(_IN if have_in is not None else _OUT, "")
        at = max(0, text.find(source.split()[0])) if source else -1
        both = _BOTH.search(text, at, at + 160) if at >= 0 else None
        if both is not None:
            fields[_IN] = fields[_OUT] = one
            notes.append(f"API at ${one:g}/M both ways ('{both.group()}')")
    if fields.get(_OUT) is not None and fields.get(_IN) is None and "free" in text.lower():
        free = _FREE_INPUT.search(text)
        if free is not None:
            fields[_IN] = 0.0
            notes.append(f"API input at $0/M ← '{' '.join(free.group().split())}'")
    return notes
