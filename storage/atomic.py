"""One write, all or nothing, without disturbing the caller's transaction.

A unique-constraint violation aborts a whole PostgreSQL transaction, so a
repository that let one escape would also lose the caller's earlier writes in the
same unit of work. Each write therefore runs inside a SAVEPOINT: on failure only
the savepoint is rolled back, and the driver's exception becomes the storage
layer's own error.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import DataError, IntegrityError
from sqlalchemy.orm import Session

from storage.errors import Conflict, StorageError


@contextmanager
def atomic(session: Session, *, conflict: Conflict | None = None) -> Iterator[None]:
    """Run the block's writes in a savepoint, flushed on exit.

    Args:
        session: the caller's session; its transaction stays usable whatever happens.
        conflict: the error to raise for a unique-constraint violation (the only
            integrity error a repository leaves to the database: a name that is
            taken, or two writers racing); a generic "try again" if not given.

    Raises:
        Conflict: ``conflict``, when a unique key is taken.
        StorageError: when the database refuses a value outright.
    """
    try:
        with session.begin_nested():
            yield
    except IntegrityError as exc:
        raise conflict or Conflict(
            "someone else saved a clashing change at the same moment; nothing was saved",
            hint="try again",
        ) from exc
    except DataError as exc:
        raise StorageError(
            "the database refused a value as too long or malformed; nothing was saved",
            hint="shorten the text fields and try again",
        ) from exc
