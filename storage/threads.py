"""Thread conversations: the question a Slack thread is about, and how it got there.

An @mention starts a thread on a question; each follow-up ("what about H200?")
is an edit that stores the question before and after, so "undo" can step back
one edit at a time and the thread can show its history. Undos are recorded as
edits too (text ``UNDO``), so the history tells the whole story. "start over"
clears a thread: it keeps no question and no history but stays on record, so the
next message in it (mention or not) starts a new question there.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from core.questions import Question, kind_of
from storage.atomic import atomic
from storage.clock import Clock, from_db, to_utc, utc_now
from storage.errors import Conflict, NotFound, StorageError
from storage.fields import checked_id, max_length
from storage.models import ThreadConversation, ThreadEdit
from storage.questions import decode_question, encode_question

UNDO = "undo"
"""The text of an edit made by ``undo``; replaying the history pops one edit for each."""


@dataclass(frozen=True)
class ThreadKey:
    """Where a conversation lives: a thread is its parent message's ts in a channel."""

    workspace_id: str
    channel_id: str
    thread_ts: str


@dataclass(frozen=True)
class Edit:
    """One step of a thread's history, with both questions as the core's types."""

    seq: int
    text: str
    before: Question
    after: Question
    created_at: dt.datetime

    @property
    def is_undo(self) -> bool:
        return self.text == UNDO


def current(session: Session, key: ThreadKey) -> Question | None:
    """The question the thread is discussing; None if no thread is on record, or it was
    cleared (``on_record`` tells the two apart)."""
    row = _find(session, key)
    if row is None or row.cleared_at is not None:
        return None
    return decode_question(row.kind, row.question, where=_where(key))


def on_record(session: Session, key: ThreadKey) -> bool:
    """Whether the thread is one leasewise answers in: it has a question, or it was
    cleared and waits for the next one."""
    return _find(session, key) is not None


def start(session: Session, key: ThreadKey, question: Question, *, clock: Clock = utc_now) -> None:
    """Start the thread on a question, or replace its question and forget its history.

    A new question in the same thread is a new conversation: undo does not step
    back across it.
    """
    kind, data, _ = encode_question(question)
    now = to_utc(clock())
    row = _find(session, key, for_update=True)
    if row is None:
        row = ThreadConversation(
            workspace_id=checked_id(
                key.workspace_id, column=ThreadConversation.workspace_id, field="workspace_id"
            ),
            channel_id=checked_id(
                key.channel_id, column=ThreadConversation.channel_id, field="channel_id"
            ),
            thread_ts=checked_id(
                key.thread_ts, column=ThreadConversation.thread_ts, field="thread_ts"
            ),
            created_at=now,
        )
    with atomic(session, conflict=_busy(key)):
        row.kind = kind
        row.question = data
        row.last_activity_at = now
        row.cleared_at = None
        row.edits.clear()
        session.add(row)


def apply_edit(
    session: Session, key: ThreadKey, *, after: Question, text: str, clock: Clock = utc_now
) -> Edit:
    """Move the thread to ``after``, recording the follow-up ``text`` that asked for it.

    Raises:
        NotFound: the thread has no question on record (start it first).
        StorageError: ``after`` is invalid, or of another kind than the thread's
            (a sizing thread stays a sizing thread; start a new one instead).
    """
    if text == UNDO:
        raise ValueError(f"an edit's text may not be {UNDO!r}; call undo() instead")
    row = _require(session, key)
    kind, data, after = encode_question(after)
    if kind != row.kind:
        raise StorageError(
            f"this thread is about a {row.kind}, and the edit makes it a {kind}",
            field="question",
            hint="ask the new question in a new thread",
        )
    before = decode_question(row.kind, row.question, where=_where(key))
    return _record(session, row, key, text=text, before=before, after=after, clock=clock)


def undo(session: Session, key: ThreadKey, *, clock: Clock = utc_now) -> Question:
    """Step back one edit (repeatedly: each undo undoes the edit before); the question now.

    Raises:
        NotFound: no thread on record, or nothing left to undo.
    """
    row = _require(session, key)
    undoable = _undoable(history(session, key))
    if not undoable:
        raise NotFound(
            "there is nothing to undo in this thread",
            hint="undo steps back through the follow-ups asked in this thread",
        )
    current_question = decode_question(row.kind, row.question, where=_where(key))
    restored = undoable[-1].before
    _record(session, row, key, text=UNDO, before=current_question, after=restored, clock=clock)
    return restored


def clear(session: Session, key: ThreadKey, *, clock: Clock = utc_now) -> bool:
    """Clear the thread ("start over"): its question and history go, the thread stays.

    The thread is still leasewise's, so the next message in it starts a new question
    there (``start``); until then ``current`` is None. Whether it had a question. (The
    row keeps its last question, as the column is not null; nothing reads it.)
    """
    row = _find(session, key, for_update=True)
    if row is None or row.cleared_at is not None:
        return False
    now = to_utc(clock())
    with atomic(session, conflict=_busy(key)):
        row.cleared_at = now
        row.last_activity_at = now
        row.edits.clear()
    return True


def history(session: Session, key: ThreadKey) -> list[Edit]:
    """The thread's edits, oldest first (empty if there is no thread, or it was cleared)."""
    row = _find(session, key)
    if row is None or row.cleared_at is not None:
        return []
    where = _where(key)
    return [
        Edit(
            seq=edit.seq,
            text=edit.text,
            before=decode_question(row.kind, edit.before, where=f"{where}, edit {edit.seq}"),
            after=decode_question(row.kind, edit.after, where=f"{where}, edit {edit.seq}"),
            created_at=from_db(edit.created_at),
        )
        for edit in session.scalars(
            select(ThreadEdit).where(ThreadEdit.thread_id == row.id).order_by(ThreadEdit.seq)
        )
    ]


def expire_idle(session: Session, *, days: int, clock: Clock = utc_now) -> int:
    """Forget threads nobody has touched for more than ``days`` days; how many went."""
    if days < 0:
        raise ValueError(f"days must not be negative, not {days}")
    cutoff = to_utc(clock()) - dt.timedelta(days=days)
    idle = select(ThreadConversation.id).where(ThreadConversation.last_activity_at < cutoff)
    # Edits first: do not rely on the database honouring ON DELETE CASCADE.
    session.execute(delete(ThreadEdit).where(ThreadEdit.thread_id.in_(idle)))
    gone = session.execute(
        delete(ThreadConversation)
        .where(ThreadConversation.id.in_(idle))
        .returning(ThreadConversation.id)
    ).all()
    return len(gone)


def _undoable(edits: list[Edit]) -> list[Edit]:
    """Replay the history: an edit pushes, an undo pops; what is left can be undone."""
    stack: list[Edit] = []
    for edit in edits:
        if edit.is_undo:
            if stack:
                stack.pop()
        else:
            stack.append(edit)
    return stack


def _record(
    session: Session,
    row: ThreadConversation,
    key: ThreadKey,
    *,
    text: str,
    before: Question,
    after: Question,
    clock: Clock,
) -> Edit:
    now = to_utc(clock())
    seq = (
        session.scalar(select(func.max(ThreadEdit.seq)).where(ThreadEdit.thread_id == row.id)) or 0
    ) + 1
    limit = max_length(ThreadEdit.text)
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    with atomic(session, conflict=_busy(key)):
        session.add(
            ThreadEdit(
                thread_id=row.id,
                seq=seq,
                text=text,
                before=before.model_dump(mode="json"),
                after=after.model_dump(mode="json"),
                created_at=now,
            )
        )
        row.kind = kind_of(after)
        row.question = after.model_dump(mode="json")
        row.last_activity_at = now
    return Edit(seq=seq, text=text, before=before, after=after, created_at=now)


def _find(
    session: Session, key: ThreadKey, *, for_update: bool = False
) -> ThreadConversation | None:
    statement = select(ThreadConversation).where(
        ThreadConversation.workspace_id == key.workspace_id,
        ThreadConversation.channel_id == key.channel_id,
        ThreadConversation.thread_ts == key.thread_ts,
    )
    if for_update:
        # Two follow-ups at once: the second waits, then edits the first one's result.
        statement = statement.with_for_update()
    return session.scalars(statement).one_or_none()


def _require(session: Session, key: ThreadKey) -> ThreadConversation:
    row = _find(session, key, for_update=True)
    if row is None:
        raise NotFound(
            "this thread has no question on record (it may have expired)",
            hint="@mention leasewise with the question to start again",
        )
    if row.cleared_at is not None:
        raise NotFound(
            "this thread was started over and has no question yet",
            hint="ask the new question in the thread",
        )
    return row


def _where(key: ThreadKey) -> str:
    return f"thread {key.channel_id}/{key.thread_ts}"


def _busy(key: ThreadKey) -> Conflict:
    return Conflict(
        f"{_where(key)} was changed by another message at the same moment",
        hint="send your message again",
    )
