"""The audit log: who changed the admin data, what, and when.

Written by the admin repository in the same savepoint as the change itself, so
there is never a change without its entry, nor an entry for a change that failed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from storage.clock import from_db
from storage.fields import checked_id
from storage.models import AuditEntry


@dataclass(frozen=True)
class AuditRecord:
    actor: str
    action: str
    target: str
    detail: dict[str, Any]
    at: dt.datetime


def record(
    session: Session,
    *,
    actor: str,
    action: str,
    target: str,
    detail: dict[str, Any],
    at: dt.datetime,
) -> None:
    """Add an entry to the caller's transaction (the caller holds the savepoint)."""
    session.add(
        AuditEntry(
            actor=checked_id(actor, column=AuditEntry.actor, field="actor"),
            action=action,
            target=target,
            detail=detail,
            at=at,
        )
    )


def recent(session: Session, *, limit: int = 50) -> list[AuditRecord]:
    """The latest entries, newest first."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    rows = session.scalars(
        select(AuditEntry).order_by(AuditEntry.at.desc(), AuditEntry.id.desc()).limit(limit)
    )
    return [
        AuditRecord(
            actor=row.actor,
            action=row.action,
            target=row.target,
            detail=row.detail,
            at=from_db(row.at),
        )
        for row in rows
    ]
