"""Text checked against its column before the database sees it.

PostgreSQL refuses an over-long string with a driver error and SQLite stores it
anyway; checking first gives both databases the same behaviour and the user a
message that names the field and its limit.
"""

from __future__ import annotations

from sqlalchemy import String
from sqlalchemy.orm import InstrumentedAttribute

from storage.errors import StorageError


def max_length(column: InstrumentedAttribute[str] | InstrumentedAttribute[str | None]) -> int:
    """The declared length of a string column, so limits live in one place (the model)."""
    column_type = column.type
    if not isinstance(column_type, String) or column_type.length is None:
        raise TypeError(f"{column} is not a string column with a length")
    return column_type.length


def checked_text(
    value: str,
    *,
    column: InstrumentedAttribute[str] | InstrumentedAttribute[str | None],
    field: str,
    hint: str,
) -> str:
    """The value without surrounding blanks, refused if empty or longer than its column.

    Raises:
        StorageError: naming ``field``, with ``hint`` saying what would work.
    """
    text = value.strip()
    if not text:
        raise StorageError(f"{field} is empty", field=field, hint=hint)
    limit = max_length(column)
    if len(text) > limit:
        raise StorageError(
            f"{field} is {len(text):,} characters long; the limit is {limit}",
            field=field,
            hint=hint,
        )
    return text


def checked_id(
    value: str,
    *,
    column: InstrumentedAttribute[str] | InstrumentedAttribute[str | None],
    field: str,
) -> str:
    """A Slack id (workspace, channel, user, ts): present and no longer than its column."""
    return checked_text(
        value, column=column, field=field, hint="pass the id Slack sent with the request"
    )
