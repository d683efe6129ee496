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
    """The database schema is behind the code; says which command brings it up to date."""
