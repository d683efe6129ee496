"""The core's error hierarchy: one root, so every edge catches one thing.

Each error names the field that was wrong and a hint with an example that works,
because the people reading them are sales engineers, not Python programmers.
"""

from __future__ import annotations


class LeasewiseError(Exception):
    """Root of every error the product raises on purpose."""


class InputError(LeasewiseError):
    """A question the engine cannot answer as asked (bad or missing input)."""

    def __init__(self, message: str, *, field: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.hint = hint


class CatalogError(LeasewiseError):
    """A packaged or imported data file is broken; names file, entry and field."""

    def __init__(self, message: str, *, file: str, entry: str | None, field: str | None):
        where = file if entry is None else f"{file}: entry {entry!r}"
        if field:
            where += f", field {field!r}"
        super().__init__(f"{where}: {message}")
        self.file = file
        self.entry = entry
        self.field = field
