"""Numbers as people write them: ``2B``, ``150M``, ``40k``, ``1,200``, ``2.5 million``, ``eight``.

Digits are read with ``float``; scale words and suffixes multiply; number words
("eight", "two thousand", "forty-eight hundred") are read by ``words``, the usual
left-to-right reading (word2number, used before, read "forty eight hundred" as 148 and
"two eight" as ten). Anything beyond
``MAX_VALUE`` (a 400-digit paste, an overflow) is refused, never turned into ``inf``.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

MAX_VALUE = 1e15
"""No quantity in a lease question is larger (a quadrillion tokens a day)."""

MAX_DIGITS = 24
_DECIMAL_COMMA = re.compile(r"\d+,\d{1,2}")
"""``2,5 million``: a comma before one or two digits is a decimal comma (the tokenizer
only reads it so before a scale word)."""

SCALES: dict[str, float] = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mm": 1e6,
    "mn": 1e6,
    "mil": 1e6,
    "millones": 1e6,
    "millón": 1e6,
    "millon": 1e6,
    "millions": 1e6,
    "万": 1e4,
    "만": 1e4,  # Korean "70만": seven hundred thousand
    "억": 1e8,
    "億": 1e8,
    "亿": 1e8,
    "mio": 1e6,
    "mln": 1e6,  # Polish, Dutch, Italian shorthand
    "million": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "bil": 1e9,  # "5 bil tokens/mo"
    "bln": 1e9,
    "billion": 1e9,
    "billions": 1e9,
    "t": 1e12,
    "tn": 1e12,
    "trillion": 1e12,
    "hundred": 1e2,
    "lakh": 1e5,
    "lakhs": 1e5,
    "lac": 1e5,
    "crore": 1e7,
    "crores": 1e7,
    "mrd": 1e9,
    "miliardi": 1e9,
    "milyar": 1e9,
    "milhões": 1e6,
    "milhão": 1e6,
    "milhoes": 1e6,
    "bilhões": 1e9,
    "bilhão": 1e9,
    "miliard": 1e9,
    "miliardów": 1e9,
    "milyon": 1e6,
    "milion": 1e6,
    "milionów": 1e6,
    "miljoen": 1e6,
    "miljard": 1e9,
    "bin": 1e3,
    "tys": 1e3,
    "tysięcy": 1e3,
    "mila": 1e3,
    "miliardo": 1e9,
    "mld": 1e9,
    "milliard": 1e9,
    "milliards": 1e9,
    "milliarden": 1e9,
    "milioni": 1e6,
    "milione": 1e6,
    "tsd": 1e3,
}

_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen"
_TEENS = "fourteen fifteen sixteen seventeen eighteen nineteen"
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million billion"
NUMBER_WORDS = frozenset(f"{_UNITS} {_TEENS} {_TENS} trillion dozen".split(" "))
"""Words ``words`` reads; ``and`` joins them ("one hundred and twenty")."""


@lru_cache(maxsize=4096)
def digits(text: str) -> float | None:
    """``'1,200'`` -> 1200.0, ``'1 500'`` -> 1500.0, ``'1,5'`` (a decimal comma) -> 1.5;
    ``None`` when the digits are out of range.

    Cached: a message says the same few figures over and over, and every number the
    tokenizer reads comes through here."""
    plain = text
    if "," in text and "." in text and text.rfind(",") > text.rfind("."):
        plain = text.replace(".", "").replace(",", ".")  # "1.606,00": dots group, comma decimal
    elif "," in text:
        plain = text.replace(",", ".") if _DECIMAL_COMMA.fullmatch(text) else text.replace(",", "")
    if plain.count(".") > 1:  # "1.500.000": dots group thousands (German, Spanish)
        plain = plain.replace(".", "")
    if " " in plain or "\u202f" in plain:
        plain = plain.replace(" ", "").replace("\u202f", "")
    if len(plain.split(".")[0].lstrip("0")) > MAX_DIGITS:
        return None
    try:
        value = float(plain)
    except ValueError:
        return None
    return value if math.isfinite(value) and abs(value) <= MAX_VALUE else None


_SMALL = {w: float(i) for i, w in enumerate(f"{_UNITS} {_TEENS}".split(" "))}
_TENS_VALUE = {w: 10.0 * i for i, w in enumerate(_TENS.split(" ")[:8], 2)}
_LARGE = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


def words(run: list[str]) -> float | None:
    """``['two', 'thousand']`` -> 2000.0, ``['forty', 'eight', 'hundred']`` -> 4800.0,
    ``['one', 'point', 'two']`` -> 1.2; ``None`` if the words do not make one number.

    The usual left-to-right reading: units and tens add up, ``hundred`` multiplies
    what came before it (or one), a larger scale closes a group. Two units in a row
    ("two eight") are two numbers, not ten.
    """
    total = current = 0.0
    last = ""
    decimals: list[str] | None = None
    for w in run:
        if w == "and":
            continue
        if decimals is not None:
            if w in _LARGE and decimals:  # "one point two billion"
                total += (current + float("0." + "".join(decimals))) * _LARGE[w]
                current, decimals, last = 0.0, None, "large"
                continue
            if w not in _SMALL or _SMALL[w] > 9:
                return None
            decimals.append(str(int(_SMALL[w])))
            continue
        if w == "point":
            decimals = []
        elif w in _SMALL:
            if last == "small" and current < 10 and _SMALL[w] > 9:  # "two ten": spoken
                current = current * 100 + _SMALL[w]
                last = "teen"
                continue
            if last in ("small", "teen") or (last == "tens" and _SMALL[w] > 9):
                return None
            current += _SMALL[w]
            last = "teen" if _SMALL[w] > 9 else "small"
        elif w in _TENS_VALUE:
            if last == "small" and current < 10:  # "one twenty-eight", "two fifty": spoken
                current = current * 100 + _TENS_VALUE[w]
            elif last in ("small", "teen", "tens"):
                return None
            else:
                current += _TENS_VALUE[w]
            last = "tens"
        elif w == "dozen":
            current = (current or 1.0) * 12
            last = "hundred"
        elif w == "hundred":
            current = (current or 1.0) * 100
            last = "hundred"
        elif w in _LARGE:
            total += (current or 1.0) * _LARGE[w]
            current, last = 0.0, "large"
        else:
            return None
    if decimals is not None:
        if not decimals:
            return None
        current += float("0." + "".join(decimals))
    return total + current


def dollars_and_cents(said: str) -> float | None:
    """A price said the short way: ``'two fifty'`` -> 2.50, ``'one ninety'`` -> 1.90, ``'four
    twenty-five'`` -> 4.25; ``None`` unless it is dollars (1-9) then cents (10-99)."""
    run = said.lower().replace("-", " ").split()
    if len(run) < 2 or run[0] not in _SMALL or not 1 <= _SMALL[run[0]] <= 9:
        return None
    cents = words(run[1:])
    if cents is None or not 10 <= cents <= 99 or cents != int(cents):
        return None
    return _SMALL[run[0]] + cents / 100


def extends(run: list[str], word: str) -> bool:
    """Whether ``word`` continues the number in ``run`` ("two" "eight" are two numbers)."""
    if any(w in FRACTIONS for w in (*run, word)):
        return True
    return words([w for w in (*run, word) if w]) is not None


FRACTIONS: dict[str, float] = {
    "half": 1 / 2,
    "halves": 1 / 2,
    "quarter": 1 / 4,
    "quarters": 1 / 4,
    "third": 1 / 3,
    "thirds": 1 / 3,
}
"""Fractions people say inside numbers: "half a million", "two and a half", "three quarters"."""
_SCALE_WORDS = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_JOINS = ("a", "an", "and", "of")


def spoken(run: list[str]) -> float | None:
    """Number words with a fraction in them, or ``None`` if they do not make a number.

    ``half a million`` 500,000; ``a quarter of a million`` 250,000; ``two and a half
    million`` 2.5M; ``a million and a half`` 1.5M; ``three quarters`` 0.75.
    """
    at = next((k for k, w in enumerate(run) if w in FRACTIONS), None)
    if at is None:
        return words(run)
    fraction = FRACTIONS[run[at]]
    before, after = list(run[:at]), [w for w in run[at + 1 :] if w not in _JOINS]
    scale = 1.0
    for w in after:
        if w not in _SCALE_WORDS:
            return None
        scale *= _SCALE_WORDS[w]
    joined = False
    while before and before[-1] in _JOINS:
        joined = joined or before[-1] == "and"
        before.pop()
    if before and before[0] in ("a", "an"):
        before = before[1:] if len(before) > 1 else []
    if not before:
        return fraction * scale
    whole = words(before)
    if whole is None:
        return None
    if not joined:
        return whole * fraction * scale  # "three quarters of a million"
    if after:
        return (whole + fraction) * scale  # "two and a half million"
    if before[-1] in _SCALE_WORDS:
        return whole + fraction * _SCALE_WORDS[before[-1]]  # "a million and a half"
    return whole + fraction  # "two and a half"


def count(said: str) -> float | None:
    """A count said as a figure or a word: "2", "two", "twelve"."""
    return digits(said) or words([said.strip().lower()])


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
    if abs(value) >= 1000:
        return f"{value:,.0f}"  # 3,014, not 3.01e+03
    return f"{value:.3g}"
