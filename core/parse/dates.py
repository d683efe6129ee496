"""Dates in prose: an "as of" date is the question's date; any other date is not a number.

"prices as of 2026-09-30" sets ``as_of``; "call on Oct 2, 2026" sets nothing. Either
way the date's digits are blanked before the tokenizer sees them, so "2026" is never
read as a count, a volume or a term.
"""

from __future__ import annotations

import datetime as dt
import re

from core.parse import stretches

_MONTHS = (
    "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    "|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_DATE = re.compile(
    r"(?P<iso>\b(?P<y>20\d\d)[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})\b)"
    rf"|(?P<mdy>\b(?P<mon>{_MONTHS})\.?\s+(?P<md>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<my>20\d\d)\b)"
    rf"|(?P<dmy>\b(?P<dd>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<dmon>{_MONTHS})\.?,?\s+(?P<dy>20\d\d)\b)"
    r"|(?P<dotted>\b(?P<td>\d{1,2})\.(?P<tm>\d{1,2})\.(?P<ty>20\d\d)\b)"
    r"|(?P<slashed>\b(?P<sa>\d{1,2})[/-](?P<sb>\d{1,2})[/-](?P<sy>20\d\d)\b)",
    re.IGNORECASE,
)
_DAY_FIRST = re.compile(
    r"\b(?:al|au|am|zum|del|do|da|le|du|el|em|ao|vigentes?|precios|prezzi|preços|tarifs|preise"
    r"|stand)\b[^\d\n]{0,12}$",
    re.IGNORECASE,
)
"""Words before a slashed date that make it day first ("precios al 30/09/2026"); an
English one is month first ("as of 9/30/2026") unless its first part cannot be a month."""
_YEAR = re.compile(r"20\d\d")
_YEAR_AT = re.compile(r"2(?=0\d\d)")
"""Where each year begins (overlapping ones too: "202020" holds two)."""
_SHORT = re.compile(r"\d{1,2}/\d{1,2}(?![/\d])")
"""A day with no year after "on" or "by" ("on 12/09"): blanked, never an as-of date."""


def _blank_short(text: str) -> str:
    """``text`` with each "on 12/09" or "by 04/30" day blanked, found by its words first
    (a regex that opens on a lookbehind tries every position of a 10 KB message)."""
    chars: list[str] | None = None
    for word in (" on ", " by "):
        at = text.find(word)
        while at != -1:
            day = _SHORT.match(text, at + 4)
            if day is not None:
                chars = chars if chars is not None else list(text)
                chars[day.start() : day.end()] = " " * (day.end() - day.start())
            at = text.find(word, at + 4)
    return "".join(chars) if chars is not None else text
_AS_OF = re.compile(
    r"\b(?:as[\s-]+of|effective|dated|valid\s+(?:from|on|at|as\s+of)|au|stand|zum"
    r"|geldig\s+(?:op|vanaf|per)|gültig\s+(?:ab|am)|valable\s+(?:au|le|à\s+partir\s+du)"
    r"|v[aá]lid[oa]s?\s+(?:a\s+partir\s+de|desde|al|em)|vigentes?\s+(?:al|desde)"
    r"|(?:precios|prezzi|preços|tarifs|preise|prices|pricing|rates)\s+(?:al|au|am|zum|del|do|em"
    r"|at|from))\s*:?\s*$",
    re.IGNORECASE,
)
"""Before an "as of" date, in English, French ("prix au"), German ("Stand", "zum",
"gültig ab"), Dutch ("geldig op"), Spanish and Portuguese ("válido desde")."""
_PRICES_DATED = re.compile(
    r"^\s*(?:rate[\s-]+card|price[\s-]+(?:list|book|sheet)|pricing|list\s+prices?)\b",
    re.IGNORECASE,
)
"""After a date, the prices it dates: "the 2026-04-01 rate card"."""
_AS_OF_THEN = re.compile(
    r"^[^.;!?\n]*\b(?:(?:prices?|pricing|rates?)\s+(?:as\s+of|from|at)\s+(?:then|that\s+date)"
    r"|as\s+of\s+(?:then|that\s+date))\b",
    re.IGNORECASE,
)
"""A date named first and pointed back to: "starts 1 February 2027, so use prices as of then"."""
_MONTH_NUMBER = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}


def dates(text: str) -> tuple[str, list[tuple[dt.date, str]]]:
    """The text with its dates blanked, and each "as of" date with the words it came from."""
    found: list[tuple[dt.date, str]] = []
    if "/" in text and (" on " in text or " by " in text):
        text = _blank_short(text)  # "on 12/09": no quantity
    if _YEAR.search(text) is None:
        return text, found  # every other date form names its year: most messages have none

    def blank(m: re.Match[str]) -> str:
        if text[max(0, m.start() - 3) : m.start()].rstrip().endswith("="):
            return m.group()  # as_of=2026-09-30 is a key=value pair's, read as such
        day = _date(m)
        after = text[m.end() : m.end() + 60]
        if day is not None and (
            _AS_OF.search(text[max(0, m.start() - 24) : m.start()])
            or _AS_OF_THEN.search(after)
            or _PRICES_DATED.match(after)
        ):
            found.append((day, m.group()))
        return " " * len(m.group())

    return stretches.sub(_DATE, blank, text, _around_years(text)), found


def _around_years(text: str) -> list[tuple[int, int]]:
    r"""The stretches of ``text`` that may hold a date (see ``core.parse.stretches``): every
    date names its year. A date ends at most ten characters after its year begins
    (``2026-09-30``), and begins at most two runs of words and whitespace before it
    ("September.  30th,  2026": at most 11 characters, whitespace, 10 more, whitespace);
    each stretch ends two characters past that, for the ``\b`` after it."""
    spans: list[tuple[int, int]] = []
    for m in _YEAR_AT.finditer(text):
        at = m.start()
        while at > 0 and text[at - 1].isspace():
            at -= 1  # the whitespace right before the year
        at -= 11  # the day and its suffix and comma, or the month with its dot and comma
        while at > 0 and text[at - 1].isspace():
            at -= 1  # the whitespace between day and month
        spans.append((max(0, at - 11), min(len(text), m.start() + 12)))
    return stretches.merged(spans)


def _date(m: re.Match[str]) -> dt.date | None:
    try:
        if m.group("iso"):
            return dt.date(int(m["y"]), int(m["m"]), int(m["d"]))
        if m.group("dotted"):  # "30.09.2026": day first, as every dotted date is written
            return dt.date(int(m["ty"]), int(m["tm"]), int(m["td"]))
        if m.group("slashed"):
            a, b, year = int(m["sa"]), int(m["sb"]), int(m["sy"])
            before = m.string[max(0, m.start() - 24) : m.start()]
            day_first = a > 12 or (b <= 12 and _DAY_FIRST.search(before) is not None)
            return dt.date(year, b, a) if day_first else dt.date(year, a, b)
        if m.group("mdy"):
            return dt.date(int(m["my"]), _MONTH_NUMBER[m["mon"][:3].lower()], int(m["md"]))
        return dt.date(int(m["dy"]), _MONTH_NUMBER[m["dmon"][:3].lower()], int(m["dd"]))
    except ValueError:
        return None
