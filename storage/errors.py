"""The storage layer's own errors, so callers never see a driver's exception."""

from __future__ import annotations

from core.errors import LeasewiseError


class StorageError(LeasewiseError):
    """A write or read the database refused; nothing was half-written."""

    def __init__(self, message: str, *, field: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.hint = hint


class NotFound(StorageError):
    """The row asked for does not exist (or belongs to another workspace)."""


class Conflict(StorageError):
    """A unique name or key is already taken."""


class SchemaOutOfDate(StorageError):
    """The database schema is not the code's: behind it (the hint names the command that
    brings it up to date), or ahead of it (a newer leasewise migrated it)."""


class DatabaseUnavailable(StorageError):
    """DATABASE_URL names a database the app cannot open or write: a malformed URL, an
    unknown driver, a server that refuses or does not answer, a SQLite path it cannot
    create or write. One sentence for the operator, with the fix in ``hint``; the
    driver's exception stays in ``__cause__`` for the log."""
