"""Saved quotes: a named question, the economics computed when it was saved, and when.

Names are unique within a workspace, so ``quote show NAME`` finds one quote. Every
lookup is scoped to a workspace: a quote id from another workspace is not found.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.questions import Economics, Question
from storage.atomic import atomic
from storage.clock import Clock, from_db, to_utc, utc_now
from storage.errors import Conflict, NotFound, StorageError
from storage.fields import checked_id, checked_text
from storage.models import Quote
from storage.questions import (
    decode_economics,
    decode_question,
    encode_economics,
    encode_question,
)

STREAM_BATCH = 500
"""Rows fetched per round trip by ``stream_all``: memory stays flat however many quotes."""

NAME_HINT = "give a short name, e.g. `quote save acme-q3`"


@dataclass(frozen=True)
class StoredQuote:
    """A quote as read back: the question and economics as the core's own types."""

    id: int
    workspace_id: str
    channel_id: str | None
    owner_user_id: str
    name: str
    customer: str
    question: Question
    economics: Economics
    as_of: dt.date
    created_at: dt.datetime
    updated_at: dt.datetime


def save(
    session: Session,
    *,
    workspace_id: str,
    channel_id: str | None,
    owner_user_id: str,
    name: str,
    customer: str,
    question: Question,
    economics: Economics,
    as_of: dt.date,
    clock: Clock = utc_now,
) -> StoredQuote:
    """Save a new quote.

    Raises:
        StorageError: a field is empty, too long or invalid (``field`` names it).
        Conflict: the workspace already has a quote of that name; nothing was written,
            and the caller's transaction is intact.
    """
    name = checked_text(name, column=Quote.name, field="name", hint=NAME_HINT)
    kind, question_json, question = encode_question(question)
    economics_json, economics = encode_economics(economics, kind=kind)
    now = to_utc(clock())
    row = Quote(
        workspace_id=checked_id(workspace_id, column=Quote.workspace_id, field="workspace_id"),
        channel_id=(
            None
            if channel_id is None
            else checked_id(channel_id, column=Quote.channel_id, field="channel_id")
        ),
        owner_user_id=checked_id(owner_user_id, column=Quote.owner_user_id, field="owner_user_id"),
        name=name,
        customer=checked_text(
            customer, column=Quote.customer, field="customer", hint="e.g. customer=Acme"
        ),
        kind=kind,
        question=question_json,
        economics=economics_json,
        as_of=as_of,
        created_at=now,
        updated_at=now,
    )
    with atomic(session, conflict=_name_taken(name)):
        session.add(row)
    return _stored(row, question=question, economics=economics)


def update(
    session: Session,
    quote_id: int,
    *,
    workspace_id: str,
    question: Question,
    economics: Economics,
    as_of: dt.date,
    clock: Clock = utc_now,
) -> StoredQuote:
    """Re-save a quote's question and economics (recomputed as of ``as_of``).

    Raises:
        NotFound: no such quote in this workspace.
        StorageError: the question or economics are invalid; the quote is unchanged.
    """
    kind, question_json, question = encode_question(question)
    economics_json, economics = encode_economics(economics, kind=kind)
    row = _row(session, quote_id, workspace_id=workspace_id)
    with atomic(session):
        row.kind = kind
        row.question = question_json
        row.economics = economics_json
        row.as_of = as_of
        row.updated_at = to_utc(clock())
    return _stored(row, question=question, economics=economics)


def get(session: Session, *, workspace_id: str, name: str) -> StoredQuote:
    """The workspace's quote of that name.

    Raises:
        NotFound: no quote of that name in this workspace.
        StorageError: the stored row no longer validates (the message names it).
    """
    row = session.scalars(
        select(Quote).where(Quote.workspace_id == workspace_id, Quote.name == name.strip())
    ).one_or_none()
    if row is None:
        raise NotFound(
            f"no quote named {name.strip()!r} in this workspace",
            field="name",
            hint="`quote list` shows the saved quotes",
        )
    return _stored(row)


def get_by_id(session: Session, quote_id: int, *, workspace_id: str) -> StoredQuote:
    """The quote with that id, if it belongs to the workspace.

    Raises:
        NotFound: no such quote in this workspace.
    """
    return _stored(_row(session, quote_id, workspace_id=workspace_id))


def recent(session: Session, *, workspace_id: str, limit: int = 20) -> list[StoredQuote]:
    """The workspace's quotes, newest first."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    rows = session.scalars(
        select(Quote)
        .where(Quote.workspace_id == workspace_id)
        .order_by(Quote.created_at.desc(), Quote.id.desc())
        .limit(limit)
    )
    return [_stored(row) for row in rows]


def delete(session: Session, quote_id: int, *, workspace_id: str) -> StoredQuote:
    """Delete a quote and return it as it was (so the reply can say what went).

    Raises:
        NotFound: no such quote in this workspace.
    """
    row = _row(session, quote_id, workspace_id=workspace_id)
    gone = _stored(row)
    session.delete(row)
    session.flush()
    return gone


def names(session: Session, *, workspace_id: str | None = None) -> list[str]:
    """The saved quotes' names (of one workspace, or all), newest first, each once.

    Only the names are read, no question is decoded: what a "did you mean" needs.
    """
    query = select(Quote.name).order_by(Quote.created_at.desc(), Quote.id.desc())
    if workspace_id is not None:
        query = query.where(Quote.workspace_id == workspace_id)
    return list(dict.fromkeys(session.scalars(query)))


def workspaces(session: Session) -> list[str]:
    """Every workspace with a saved quote (operators preview digests workspace by workspace)."""
    return list(session.scalars(select(Quote.workspace_id).distinct().order_by(Quote.workspace_id)))


def stream_all(
    session: Session,
    *,
    workspace_id: str | None = None,
    on_invalid: Callable[[StorageError], None] | None = None,
) -> Iterator[StoredQuote]:
    """Every quote (of one workspace, or all), oldest first, in bounded memory.

    Rows arrive ``STREAM_BATCH`` at a time (a server-side cursor on PostgreSQL), so
    the digest can walk tens of thousands of quotes without holding them all.
    Iterate inside the caller's transaction.

    Args:
        on_invalid: if given, a row that no longer validates is reported to it and
            skipped, so one stale quote does not stop a digest for everyone else;
            if not, its StorageError ends the iteration.
    """
    statement = select(Quote).order_by(Quote.id).execution_options(yield_per=STREAM_BATCH)
    if workspace_id is not None:
        statement = statement.where(Quote.workspace_id == workspace_id)
    for row in session.scalars(statement):
        try:
            quote = _stored(row)
        except StorageError as exc:
            if on_invalid is None:
                raise
            on_invalid(exc)
            continue
        yield quote


def _row(session: Session, quote_id: int, *, workspace_id: str) -> Quote:
    row = session.get(Quote, quote_id)
    if row is None or row.workspace_id != workspace_id:
        raise NotFound(
            f"no quote with id {quote_id} in this workspace",
            hint="`quote list` shows the saved quotes",
        )
    return row


def _stored(
    row: Quote, *, question: Question | None = None, economics: Economics | None = None
) -> StoredQuote:
    where = f"quote {row.name!r} (id {row.id})"
    return StoredQuote(
        id=row.id,
        workspace_id=row.workspace_id,
        channel_id=row.channel_id,
        owner_user_id=row.owner_user_id,
        name=row.name,
        customer=row.customer,
        question=(
            decode_question(row.kind, row.question, where=where) if question is None else question
        ),
        economics=(
            decode_economics(row.kind, row.economics, where=where)
            if economics is None
            else economics
        ),
        as_of=row.as_of,
        created_at=from_db(row.created_at),
        updated_at=from_db(row.updated_at),
    )


def _name_taken(name: str) -> Conflict:
    return Conflict(
        f"a quote named {name!r} already exists in this workspace",
        field="name",
        hint=f"choose another name or `quote show {name}`",
    )
