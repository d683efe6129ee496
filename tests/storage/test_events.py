"""Slack event deduplication: each event and each posted message handled once.

Every test runs on SQLite and on PostgreSQL, the races included: on both, a
second marker of the same key waits for the first's transaction to end.
"""

from __future__ import annotations

import datetime as dt
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session, sessionmaker

from storage import events
from storage.errors import StorageError
from storage.events import event_key, mark_processed, message_key
from storage.models import ProcessedEvent

NOW = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
EXPIRES = NOW + dt.timedelta(hours=24)


def keys(session: Session) -> list[str]:
    return list(session.scalars(select(ProcessedEvent.event_key).order_by(ProcessedEvent.id)))


def test_the_same_event_id_twice_is_processed_once(session):
    assert mark_processed(session, event_key("Ev01"), EXPIRES) is True
    assert mark_processed(session, event_key("Ev01"), EXPIRES) is False
    assert mark_processed(session, event_key("Ev02"), EXPIRES) is True


def test_a_mention_and_the_message_event_for_the_same_post_share_one_key(session):
    mention = {"type": "app_mention", "event_id": "Ev01", "channel": "C1", "ts": "1764493200.1"}
    message = {"type": "message", "event_id": "Ev02", "channel": "C1", "ts": "1764493200.1"}

    first = message_key(mention["channel"], mention["ts"])
    second = message_key(message["channel"], message["ts"])

    assert first == second
    assert mark_processed(session, first, EXPIRES) is True
    assert mark_processed(session, second, EXPIRES) is False
    assert mark_processed(session, message_key("C1", "1764493200.2"), EXPIRES) is True
    assert mark_processed(session, message_key("C2", "1764493200.1"), EXPIRES) is True


def test_event_and_message_keys_never_collide(session):
    assert event_key("C1:1.0") != message_key("C1", "1.0")


def test_a_duplicate_is_recognised_in_a_later_transaction(session_factory):
    with session_factory.begin() as session:
        assert mark_processed(session, event_key("Ev01"), EXPIRES) is True
    with session_factory.begin() as session:
        assert mark_processed(session, event_key("Ev01"), EXPIRES) is False


def test_a_duplicate_leaves_the_callers_transaction_usable(session_factory):
    with session_factory.begin() as session:
        mark_processed(session, event_key("Ev01"), EXPIRES)
        assert mark_processed(session, event_key("Ev01"), EXPIRES) is False
        mark_processed(session, event_key("Ev02"), EXPIRES)

    with session_factory() as session:
        assert keys(session) == [event_key("Ev01"), event_key("Ev02")]


def test_a_rolled_back_mark_does_not_count(session_factory):
    with pytest.raises(RuntimeError), session_factory.begin() as session:
        mark_processed(session, event_key("Ev01"), EXPIRES)
        raise RuntimeError("the handler failed before replying")

    with session_factory.begin() as session:
        assert mark_processed(session, event_key("Ev01"), EXPIRES) is True


def test_purging_forgets_expired_keys_and_keeps_the_rest(session):
    mark_processed(session, event_key("old"), NOW - dt.timedelta(seconds=1))
    mark_processed(session, event_key("due"), NOW)
    mark_processed(session, event_key("fresh"), EXPIRES)

    assert events.purge_expired(session, NOW) == 2

    assert keys(session) == [event_key("fresh")]
    assert mark_processed(session, event_key("old"), EXPIRES) is True


def test_expiry_times_in_any_zone_are_compared_in_utc(session):
    berlin = dt.timezone(dt.timedelta(hours=1))
    mark_processed(session, event_key("Ev01"), dt.datetime(2026, 11, 30, 9, 30, tzinfo=berlin))

    assert events.purge_expired(session, NOW) == 1  # 09:30 in Berlin is 08:30 UTC


def test_an_over_long_key_is_refused_plainly(session):
    with pytest.raises(StorageError) as info:
        mark_processed(session, "k" * 201, EXPIRES)

    assert info.value.field == "event_key"
    assert keys(session) == []


# --- races: two replicas receive the same event ----------------------------------------


DEADLINE_S = 60.0
"""Waits end when their condition holds; this only bounds a failure on a loaded machine."""


def mark_in_thread(
    session_factory: sessionmaker[Session], key: str
) -> tuple[threading.Thread, list[bool], threading.Event]:
    """The marker in a thread of its own; the event is set once it has sent its first
    statement (SQLite's BEGIN IMMEDIATE, PostgreSQL's INSERT), where it must then wait."""
    result: list[bool] = []
    sent = threading.Event()
    engine = session_factory.kw["bind"]

    def run() -> None:
        me = threading.get_ident()

        def sending(*_: object) -> None:
            if threading.get_ident() == me:
                sent.set()

        event.listen(engine, "before_cursor_execute", sending)
        try:
            with session_factory.begin() as session:
                result.append(mark_processed(session, key, EXPIRES))
        finally:
            event.remove(engine, "before_cursor_execute", sending)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, result, sent


@pytest.mark.parametrize(("first_commits", "second_gets"), [(True, False), (False, True)])
def test_a_racing_second_marker_waits_for_the_first_and_follows_its_outcome(
    session_factory, first_commits, second_gets
):
    first = session_factory()
    first.begin()
    assert mark_processed(first, event_key("Ev01"), EXPIRES) is True

    thread, second, sent = mark_in_thread(session_factory, event_key("Ev01"))
    assert sent.wait(DEADLINE_S), "the second marker never reached the database"
    thread.join(timeout=0.5)  # it is at the database: still there, as the first holds on
    assert thread.is_alive(), "the second marker should wait for the first's transaction"

    if first_commits:
        first.commit()
    else:
        first.rollback()
    first.close()
    thread.join(timeout=DEADLINE_S)
    assert second == [second_gets]


def test_of_many_concurrent_markers_exactly_one_wins(session_factory):
    racers = 8
    start = threading.Barrier(racers)

    def race(_: int) -> bool:
        start.wait(timeout=DEADLINE_S)
        with session_factory.begin() as session:
            return mark_processed(session, message_key("C1", "1764493200.1"), EXPIRES)

    with ThreadPoolExecutor(max_workers=racers) as pool:
        results = list(pool.map(race, range(racers)))

    assert sorted(results) == [False] * (racers - 1) + [True]
    with session_factory() as session:
        assert session.scalar(select(func.count()).select_from(ProcessedEvent)) == 1
