"""Time for the repositories: a clock passed in, and UTC on both sides of the database.

Repositories never call ``datetime.now()`` themselves, so a test (or a replay) can
say what time it is. Everything is stored in UTC: SQLite keeps no offset at all, so
a time written with one would come back shifted, and would compare wrongly in SQL.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

Clock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    """The default clock."""
    return dt.datetime.now(dt.UTC)


def to_utc(value: dt.datetime) -> dt.datetime:
    """A timezone-aware time in UTC, as the database should store it.

    Raises:
        ValueError: for a naive time; its zone is unknowable, so it is a bug to pass one.
    """
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"a naive datetime ({value.isoformat()}) cannot be stored: give a zone")
    return value.astimezone(dt.UTC)


def from_db(value: dt.datetime) -> dt.datetime:
    """A time read back, in UTC (SQLite returns it naive; it was written in UTC)."""
    if value.tzinfo is None:
        return value.replace(tzinfo=dt.UTC)
    return value.astimezone(dt.UTC)
