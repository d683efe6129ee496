"""Numbers as people write them: ``2B``, ``150M``, ``40k``, ``1,200``, ``2.5 million``, ``eight``.

Digits are read with ``float``; scale words and suffixes multiply; number words
("eight", "two thousand") are read by ``word2number``. Anything beyond
``MAX_VALUE`` (a 400-digit paste, an overflow) is refused, never turned into ``inf``.
"""

from __future__ import annotations

import math

from word2number import w2n

MAX_VALUE = 1e15
"""No quantity in a lease question is larger (a quadrillion tokens a day)."""

MAX_DIGITS = 24

SCALES: dict[str, float] = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mm": 1e6,
    "mn": 1e6,
    "mil": 1e6,
    "mio": 1e6,
    "million": 1e6,
    "millions": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
    "billions": 1e9,
    "t": 1e12,
    "tn": 1e12,
    "trillion": 1e12,
}

_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen"
_TEENS = "fourteen fifteen sixteen seventeen eighteen nineteen"
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million billion"
NUMBER_WORDS = frozenset(f"{_UNITS} {_TEENS} {_TENS}".split(" "))
"""Words ``word2number`` reads; ``and`` joins them ("one hundred and twenty")."""


def digits(text: str) -> float | None:
    """``'1,200'`` -> 1200.0; ``None`` when the digits are out of range."""
    plain = text.replace(",", "")
    if len(plain.split(".")[0].lstrip("0")) > MAX_DIGITS:
        return None
    try:
        value = float(plain)
    except ValueError:
        return None
    return value if math.isfinite(value) and abs(value) <= MAX_VALUE else None


def words(run: list[str]) -> float | None:
    """``['two', 'thousand']`` -> 2000.0, or ``None`` if word2number cannot read it."""
    try:
        value = w2n.word_to_num(" ".join(run))
    except (ValueError, IndexError, KeyError):
        return None
    return float(value) if isinstance(value, int | float) else None


def in_range(value: float) -> float | None:
    return value if math.isfinite(value) and abs(value) <= MAX_VALUE else None


def amount(text: str) -> float | None:
    """A ``key=value`` value: ``2e9``, ``2B``, ``1,200``, ``$4.50``, ``1.5M``, ``60%`` (-> 0.6)."""
    s = text.strip().lower().lstrip("$").rstrip(".")
    scale = 1.0
    if s.endswith("%"):
        s, scale = s[:-1], 0.01
    else:
        for suffix in sorted(SCALES, key=len, reverse=True):
            if s.endswith(suffix) and s[: -len(suffix)][-1:].isdigit():
                s, scale = s[: -len(suffix)], SCALES[suffix]
                break
    value = digits(s)
    return None if value is None else in_range(value * scale)


def compact(value: float) -> str:
    """2e9 -> '2B', 150e6 -> '150M', 40000 -> '40k', 1200 -> '1,200', 2.5 -> '2.5'."""
    for size, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= size and (size > 1e3 or abs(value) >= 1e4):  # 1,200 stays 1,200
            return f"{value / size:.3g}{suffix}"
    if value == int(value):
        return f"{int(value):,}"
    return f"{value:.3g}"
