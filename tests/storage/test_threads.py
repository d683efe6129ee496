"""Thread conversations: a thread's question, its follow-up edits, and undo.

Every test runs on SQLite and on PostgreSQL. Time comes from a clock the test holds.
"""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select

from core.scenario import Scenario
from core.traffic import Traffic
from storage import threads
from storage.errors import NotFound, StorageError
from storage.models import ThreadEdit
from storage.threads import ThreadKey

STARTED = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
THREAD = ThreadKey(workspace_id="T1", channel_id="C1", thread_ts="1764493200.000100")
B300 = Scenario(model="kimi-k3", gpu="b300", gpus=16)
H200 = B300.model_copy(update={"gpu": "h200"})
H200_24 = H200.model_copy(update={"term_months": 24})


class Clock:
    """A clock that moves only when the test says so."""

    def __init__(self, now: dt.datetime = STARTED) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_a_thread_has_no_question_until_started(session):
    assert threads.current(session, THREAD) is None
    assert threads.history(session, THREAD) == []


def test_a_started_thread_is_about_its_question(session, clock):
    threads.start(session, THREAD, B300, clock=clock)

    assert threads.current(session, THREAD) == B300
    other = ThreadKey(workspace_id="T1", channel_id="C1", thread_ts="1764493200.000200")
    assert threads.current(session, other) is None


def test_an_edit_moves_the_question_and_is_recorded_with_its_text(session, clock):
    threads.start(session, THREAD, B300, clock=clock)
    clock.advance(minutes=5)

    edit = threads.apply_edit(session, THREAD, after=H200, text="what about H200?", clock=clock)

    assert threads.current(session, THREAD) == H200
    assert (edit.seq, edit.text, edit.before, edit.after) == (1, "what about H200?", B300, H200)
    assert threads.history(session, THREAD) == [edit]
    assert edit.created_at == STARTED + dt.timedelta(minutes=5)


def test_undo_steps_back_one_edit_at_a_time_and_is_recorded(session, clock):
    threads.start(session, THREAD, B300, clock=clock)
    threads.apply_edit(session, THREAD, after=H200, text="what about H200?", clock=clock)
    threads.apply_edit(session, THREAD, after=H200_24, text="make it 24 months", clock=clock)

    assert threads.undo(session, THREAD, clock=clock) == H200
    assert threads.current(session, THREAD) == H200
    assert threads.undo(session, THREAD, clock=clock) == B300
    assert threads.current(session, THREAD) == B300

    history = threads.history(session, THREAD)
    assert [(e.seq, e.text, e.is_undo) for e in history] == [
        (1, "what about H200?", False),
        (2, "make it 24 months", False),
        (3, threads.UNDO, True),
        (4, threads.UNDO, True),
    ]
    assert (history[2].before, history[2].after) == (H200_24, H200)
    with pytest.raises(NotFound) as info:
        threads.undo(session, THREAD, clock=clock)
    assert "nothing to undo" in info.value.message


def test_an_edit_after_an_undo_is_undone_before_the_undone_edits(session, clock):
    threads.start(session, THREAD, B300, clock=clock)
    threads.apply_edit(session, THREAD, after=H200, text="what about H200?", clock=clock)
    threads.undo(session, THREAD, clock=clock)
    threads.apply_edit(session, THREAD, after=H200_24, text="24 months on H200", clock=clock)

    assert threads.undo(session, THREAD, clock=clock) == B300
    with pytest.raises(NotFound):
        threads.undo(session, THREAD, clock=clock)


def test_starting_again_replaces_the_question_and_forgets_the_history(session, clock):
    threads.start(session, THREAD, B300, clock=clock)
    threads.apply_edit(session, THREAD, after=H200, text="what about H200?", clock=clock)

    threads.start(session, THREAD, H200_24, clock=clock)

    assert threads.current(session, THREAD) == H200_24
    assert threads.history(session, THREAD) == []
    assert session.scalar(select(func.count()).select_from(ThreadEdit)) == 0


def test_editing_or_undoing_an_unknown_thread_is_not_found(session, clock):
    with pytest.raises(NotFound):
        threads.apply_edit(session, THREAD, after=H200, text="what about H200?", clock=clock)
    with pytest.raises(NotFound):
        threads.undo(session, THREAD, clock=clock)


def test_an_edit_keeps_the_threads_kind_of_question(session, clock):
    threads.start(session, THREAD, B300, clock=clock)
    traffic = Traffic(model="kimi-k3", output_tokens_per_day=2e9)

    with pytest.raises(StorageError) as info:
        threads.apply_edit(session, THREAD, after=traffic, text="size it for 2B a day", clock=clock)

    assert info.value.field == "question"
    assert threads.current(session, THREAD) == B300
    assert threads.history(session, THREAD) == []


def test_a_very_long_follow_up_is_kept_shortened(session, clock):
    threads.start(session, THREAD, B300, clock=clock)

    edit = threads.apply_edit(session, THREAD, after=H200, text="h200 " * 1_000, clock=clock)

    assert len(edit.text) == 4_000 and edit.text.endswith("…")
    assert threads.history(session, THREAD)[0].text == edit.text


def test_threads_idle_longer_than_the_limit_expire_with_their_edits(session, clock):
    quiet = ThreadKey(workspace_id="T1", channel_id="C1", thread_ts="1.0")
    threads.start(session, quiet, B300, clock=clock)
    threads.apply_edit(session, quiet, after=H200, text="what about H200?", clock=clock)
    threads.start(session, THREAD, B300, clock=clock)
    clock.advance(days=6)
    threads.apply_edit(session, THREAD, after=H200, text="what about H200?", clock=clock)
    clock.advance(days=2)  # quiet: idle 8 days; THREAD: idle 2 days

    assert threads.expire_idle(session, days=7, clock=clock) == 1

    assert threads.current(session, quiet) is None
    assert threads.current(session, THREAD) == H200
    assert session.scalar(select(func.count()).select_from(ThreadEdit)) == 1


def test_clearing_a_thread_drops_its_question_and_history_but_keeps_it_on_record(
    session, clock
):
    threads.start(session, THREAD, B300, clock=clock)
    threads.apply_edit(session, THREAD, after=H200, text="what about H200?", clock=clock)

    assert threads.clear(session, THREAD, clock=clock) is True

    assert threads.current(session, THREAD) is None
    assert threads.on_record(session, THREAD)
    assert threads.history(session, THREAD) == []
    assert session.scalar(select(func.count()).select_from(ThreadEdit)) == 0
    assert threads.clear(session, THREAD, clock=clock) is False  # nothing left to clear
    with pytest.raises(NotFound, match="started over"):
        threads.apply_edit(session, THREAD, after=H200_24, text="make it 24 months", clock=clock)
    with pytest.raises(NotFound, match="started over"):
        threads.undo(session, THREAD, clock=clock)
    threads.start(session, THREAD, H200, clock=clock)  # the next question starts it again
    assert threads.current(session, THREAD) == H200


def test_a_thread_never_started_is_not_on_record_and_cannot_be_cleared(session, clock):
    assert not threads.on_record(session, THREAD)
    assert threads.clear(session, THREAD, clock=clock) is False


def test_a_cleared_thread_left_idle_expires_like_any_other(session, clock):
    threads.start(session, THREAD, B300, clock=clock)
    clock.advance(days=3)
    threads.clear(session, THREAD, clock=clock)  # clearing is activity
    clock.advance(days=5)
    assert threads.expire_idle(session, days=7, clock=clock) == 0
    clock.advance(days=3)
    assert threads.expire_idle(session, days=7, clock=clock) == 1
    assert not threads.on_record(session, THREAD)
