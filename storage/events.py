"""Slack event deduplication: each event handled once, however often it arrives.

Slack retries an event it thinks went unanswered, and a channel post that
mentions the bot arrives twice, as ``app_mention`` and as ``message``, with
different event ids. Handlers therefore mark a key before acting:
``event_key`` for retries, ``message_key`` (channel and ts, the same in both
events) for the mention/message pair. Marking is one INSERT ... ON CONFLICT DO
NOTHING, so two replicas racing on the same key get one True between them: the
second waits for the first's transaction and then sees the duplicate.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import delete
from sqlalchemy.orm import Session

from storage.clock import to_utc
from storage.errors import StorageError
from storage.fields import max_length
from storage.models import ProcessedEvent
from storage.upsert import insert_for


def event_key(event_id: str) -> str:
    """The key of one Slack event, however many times Slack delivers it."""
    return f"event:{event_id}"


def message_key(channel_id: str, ts: str) -> str:
    """The key of one posted message, shared by its ``app_mention`` and ``message`` events."""
    return f"message:{channel_id}:{ts}"


def mark_processed(session: Session, key: str, expires_at: dt.datetime) -> bool:
    """Record ``key`` as handled; True the first time, False for a duplicate.

    Until the caller's transaction commits, a racing caller waits on PostgreSQL
    (or on SQLite's write lock), then gets False; if the first rolls back, the
    second gets True. Keep the transaction short: mark, act, commit.

    Raises:
        StorageError: the key is longer than the column (a caller's bug, said plainly).
    """
    limit = max_length(ProcessedEvent.event_key)
    if not key or len(key) > limit:
        raise StorageError(
            f"an event key must be 1 to {limit} characters, not {len(key)}", field="event_key"
        )
    statement = (
        insert_for(session, ProcessedEvent)
        .values(event_key=key, expires_at=to_utc(expires_at))
        .on_conflict_do_nothing(index_elements=[ProcessedEvent.event_key])
        .returning(ProcessedEvent.id)
    )
    return session.execute(statement).scalar_one_or_none() is not None


def purge_expired(session: Session, now: dt.datetime) -> int:
    """Forget keys whose expiry has passed (Slack stops retrying within hours); how many."""
    gone = session.execute(
        delete(ProcessedEvent)
        .where(ProcessedEvent.expires_at <= to_utc(now))
        .returning(ProcessedEvent.id),
        execution_options={"synchronize_session": False},
    ).all()
    return len(gone)
