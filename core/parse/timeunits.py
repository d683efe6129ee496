"""Units of time for rates and terms: a fixed table, built on ``datetime.timedelta``.

A month of traffic is read as 30 days and a year as 365 (said back as an
assumption); a lease term in years is 12 months a year. The parser only ever
converts these nine units, so a table is the whole job: a units library (pint
was used before) cost half a second of import and registry building for one
message, more than everything else ``leasewise parse`` does.
"""

from __future__ import annotations

import calendar
from datetime import timedelta

SECONDS: dict[str, float] = {
    "millisecond": timedelta(milliseconds=1).total_seconds(),
    "second": timedelta(seconds=1).total_seconds(),
    "minute": timedelta(minutes=1).total_seconds(),
    "hour": timedelta(hours=1).total_seconds(),
    "day": timedelta(days=1).total_seconds(),
    "week": timedelta(weeks=1).total_seconds(),
    "month": timedelta(days=30).total_seconds(),
    "quarter": timedelta(days=90).total_seconds(),
    "year": timedelta(days=365).total_seconds(),
}
"""Seconds in one of each unit the parser reads (a traffic month is 30 days)."""

TERM_MONTHS: dict[str, int] = {"month": 1, "quarter": 3, "year": 12}
"""Calendar months in one unit of a lease term: terms are said in months or years."""

UNITS = tuple(SECONDS)
MONTH_NAMES = frozenset(
    m.lower() for m in (*calendar.month_name[1:], *calendar.month_abbr[1:], "Sept")
)
"""A month by name after a volume is the month it was counted over ("612k chats in
September"): read so only after "in" or "during" and capitalised ("in May")."""

ASSUMED: dict[str, str] = {
    "month": "a month read as 30 days",
    "quarter": "a quarter read as 90 days",
    "year": "a year read as 365 days",
}


def seconds(unit: str) -> float:
    """Seconds in one ``unit`` (one of ``UNITS``)."""
    return SECONDS[unit]


def months(unit: str) -> float:
    """Calendar months in one ``unit`` of a lease term (year -> 12)."""
    return TERM_MONTHS[unit]


def per_day(value: float, unit: str) -> float:
    """A rate per ``unit`` as a rate per day."""
    return value * SECONDS["day"] / SECONDS[unit]


def per_second(value: float, unit: str) -> float:
    return value / SECONDS[unit]
