"""INSERT ... ON CONFLICT in the dialect of the database at hand.

Race-safe "insert unless present" is one statement on both databases we run on,
but each dialect has its own construct; this picks it, once, for every repository.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from storage.errors import StorageError


def insert_for(session: Session, model: Any) -> postgresql.Insert | sqlite.Insert:
    """An INSERT into ``model``'s table that can say ON CONFLICT."""
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        return postgresql.insert(model)
    if dialect == "sqlite":
        return sqlite.insert(model)
    raise StorageError(f"leasewise stores its data in SQLite or PostgreSQL, not {dialect}")
