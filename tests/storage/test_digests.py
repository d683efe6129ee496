"""Digest subscriptions, and each digest period posted exactly once across replicas.

Every test runs on SQLite and on PostgreSQL. Time is a value passed in, never
the wall clock: leases expire because the test says a later ``now``.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy.orm import Session, sessionmaker

from storage import digests
from storage.database import make_engine, make_session_factory
from storage.errors import NotFound, StorageError

MONDAY_9AM = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
LEASE = timedelta(minutes=10)
WEEK = "2026-W49"


def subscribe(session: Session, channel: str = "C1", **overrides: object):
    fields: dict = {
        "workspace_id": "T1",
        "channel_id": channel,
        "day_of_week": 0,
        "hour": 9,
        "timezone": "Europe/Berlin",
        "threshold_pct": 5.0,
        "threshold_usd": 1000.0,
        "created_by": "U1",
        "now": MONDAY_9AM,
    }
    fields.update(overrides)
    return digests.subscribe(session, **fields)


def claim(session: Session, subscription_id: int, now: datetime = MONDAY_9AM, **kw):
    return digests.claim(
        session, subscription_id=subscription_id, period_key=WEEK, now=now, lease=LEASE, **kw
    )


@pytest.fixture
def subscription_id(session_factory: sessionmaker[Session]) -> int:
    with session_factory.begin() as s:
        return subscribe(s).id


# --- subscriptions --------------------------------------------------------------------


def test_a_subscription_keeps_its_schedule_time_zone_and_thresholds(session):
    sub = subscribe(session, hour=17, timezone="America/New_York", threshold_usd=250.0)

    (listed,) = digests.subscriptions_for_workspace(session, "T1")
    assert listed.id == sub.id
    assert (listed.day_of_week, listed.hour, listed.timezone) == (0, 17, "America/New_York")
    assert (listed.threshold_pct, listed.threshold_usd) == (5.0, 250.0)
    assert listed.created_by == "U1"
    assert not listed.paused


def test_subscribing_a_channel_again_updates_its_one_subscription(session):
    first = subscribe(session, created_by="U1")
    again = subscribe(session, day_of_week=4, hour=8, threshold_pct=2.5, created_by="U2")

    assert again.id == first.id
    (only,) = digests.subscriptions_for_workspace(session, "T1")
    assert (only.day_of_week, only.hour, only.threshold_pct) == (4, 8, 2.5)
    assert only.created_by == "U1", "the creator is who first subscribed the channel"


def test_a_workspace_lists_only_its_own_channels_in_channel_order(session):
    subscribe(session, "C2")
    subscribe(session, "C1")
    subscribe(session, "C9", workspace_id="T2")

    assert [s.channel_id for s in digests.subscriptions_for_workspace(session, "T1")] == [
        "C1",
        "C2",
    ]


def test_unsubscribing_removes_the_subscription_and_its_runs(session):
    sub = subscribe(session)
    assert claim(session, sub.id) is not None

    assert digests.unsubscribe(session, workspace_id="T1", channel_id="C1") is True
    assert digests.subscriptions_for_workspace(session, "T1") == []
    assert digests.runs_for(session, sub.id) == []
    assert digests.unsubscribe(session, workspace_id="T1", channel_id="C1") is False


def test_a_paused_digest_is_not_active_and_subscribing_again_resumes_it(session):
    kept, lost = subscribe(session, "C1"), subscribe(session, "C2")

    assert digests.pause(session, lost.id, reason="channel_not_found") is True
    assert [s.id for s in digests.active_subscriptions(session)] == [kept.id]
    (paused,) = [s for s in digests.subscriptions_for_workspace(session, "T1") if s.paused]
    assert paused.pause_reason == "channel_not_found"

    subscribe(session, "C2")
    assert {s.id for s in digests.active_subscriptions(session)} == {kept.id, lost.id}


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "CET+1", "", "../etc/passwd"])
def test_an_unknown_time_zone_is_refused_naming_the_timezone_field(session, zone):
    with pytest.raises(StorageError) as info:
        subscribe(session, timezone=zone)
    assert info.value.field == "timezone"
    assert "Europe/Berlin" in (info.value.hint or "")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("day_of_week", 7),
        ("day_of_week", -1),
        ("hour", 24),
        ("threshold_pct", -1.0),
        ("threshold_usd", float("nan")),
    ],
)
def test_an_impossible_schedule_or_threshold_is_refused_naming_its_field(session, field, value):
    with pytest.raises(StorageError) as info:
        subscribe(session, **{field: value})
    assert info.value.field == field
    assert digests.subscriptions_for_workspace(session, "T1") == []


# --- claiming and posting runs --------------------------------------------------------


def test_a_period_is_claimed_once_and_not_again_while_the_lease_holds(
    session_factory, subscription_id
):
    with session_factory.begin() as s:
        first = claim(s, subscription_id)
    with session_factory.begin() as s:
        second = claim(s, subscription_id, MONDAY_9AM + LEASE - timedelta(seconds=1))

    assert first is not None and first.attempt == 1
    assert second is None


def test_a_claim_whose_process_died_is_retried_after_the_lease_and_posted_only_once(
    session_factory, subscription_id
):
    with session_factory.begin() as s:
        dead = claim(s, subscription_id)
    with session_factory.begin() as s:
        retry = claim(s, subscription_id, MONDAY_9AM + LEASE)
    assert dead is not None and retry is not None
    assert retry.attempt == 2 and retry.token != dead.token

    with session_factory.begin() as s:
        assert digests.mark_posted(s, dead, message_ts="1.1", now=MONDAY_9AM + LEASE) is False
        assert digests.mark_failed(s, dead, error="woke up late") is False
    with session_factory.begin() as s:
        assert digests.mark_posted(s, retry, message_ts="2.2", now=MONDAY_9AM + LEASE) is True
        assert digests.mark_posted(s, dead, message_ts="1.1", now=MONDAY_9AM + LEASE) is False
        assert digests.mark_posted(s, retry, message_ts="3.3", now=MONDAY_9AM + LEASE) is False

    with session_factory.begin() as s:
        (run,) = digests.runs_for(s, subscription_id)
    assert (run.status, run.attempts, run.message_ts, run.error) == ("posted", 2, "2.2", None)


def test_a_posted_run_is_never_claimed_again(session_factory, subscription_id):
    with session_factory.begin() as s:
        held = claim(s, subscription_id)
        assert held is not None
        assert digests.mark_posted(s, held, message_ts="1.1", now=MONDAY_9AM) is True

    for later in (LEASE, timedelta(days=30)):
        with session_factory.begin() as s:
            assert claim(s, subscription_id, MONDAY_9AM + later) is None


def test_a_claim_past_its_lease_that_nobody_took_over_may_still_post(session, subscription_id):
    held = claim(session, subscription_id)
    assert held is not None

    late = MONDAY_9AM + 3 * LEASE
    assert digests.mark_posted(session, held, message_ts="1.1", now=late) is True
    assert claim(session, subscription_id, late) is None


def test_a_failed_run_is_retried_at_once_and_records_the_error(session, subscription_id):
    first = claim(session, subscription_id)
    assert first is not None
    assert digests.mark_failed(session, first, error="ratelimited") is True
    (failed,) = digests.runs_for(session, subscription_id)
    assert (failed.status, failed.error) == ("failed", "ratelimited")

    retry = claim(session, subscription_id, MONDAY_9AM + timedelta(minutes=1))
    assert retry is not None and retry.attempt == 2
    assert digests.mark_posted(session, retry, message_ts="2.2", now=MONDAY_9AM) is True

    (posted,) = digests.runs_for(session, subscription_id)
    assert (posted.status, posted.attempts) == ("posted", 2)
    assert posted.error == "ratelimited", "the list can say why it took two attempts"


def test_a_run_is_abandoned_after_its_maximum_attempts(session, subscription_id):
    now = MONDAY_9AM
    for attempt in (1, 2, 3):
        held = claim(session, subscription_id, now, max_attempts=3)
        assert held is not None and held.attempt == attempt
        digests.mark_failed(session, held, error=f"boom {attempt}")
        now += timedelta(minutes=5)

    assert claim(session, subscription_id, now, max_attempts=3) is None
    (run,) = digests.runs_for(session, subscription_id)
    assert (run.status, run.attempts, run.error) == ("failed", 3, "boom 3")


def test_runs_are_listed_latest_first_with_aware_utc_times(session, subscription_id):
    berlin = timezone(timedelta(hours=1))
    for week in ("2026-W47", "2026-W48", "2026-W49"):
        digests.claim(
            session,
            subscription_id=subscription_id,
            period_key=week,
            now=datetime(2026, 11, 30, 10, 0, tzinfo=berlin),
        )

    runs = digests.runs_for(session, subscription_id, limit=2)
    assert [r.period_key for r in runs] == ["2026-W49", "2026-W48"]
    assert runs[0].claimed_at == MONDAY_9AM
    assert runs[0].claimed_at.tzinfo is not None
    assert runs[0].claimed_at.utcoffset() == timedelta(0)


def test_claiming_for_a_removed_subscription_is_not_found(session_factory):
    with pytest.raises(NotFound), session_factory.begin() as s:
        claim(s, 999_999)


def test_a_claim_belongs_to_the_callers_transaction_and_rolls_back_with_it(
    session_factory, subscription_id
):
    with session_factory() as s:
        assert claim(s, subscription_id) is not None
        subscribe(s, "C2")
        s.rollback()

    with session_factory.begin() as s:
        assert digests.runs_for(s, subscription_id) == []
        assert [x.channel_id for x in digests.subscriptions_for_workspace(s, "T1")] == ["C1"]
        assert claim(s, subscription_id) is not None


def test_a_naive_clock_is_refused(session, subscription_id):
    with pytest.raises(ValueError, match="naive"):
        claim(session, subscription_id, datetime(2026, 11, 30, 9, 0))


# --- concurrency: separate engines, separate transactions, started together -------------
# On PostgreSQL the two transactions really overlap and the rows decide; on SQLite the
# file's write lock makes them take turns, which must give the same answer.


DEADLINE_S = 60.0
"""Bounds a stuck contender; a healthy race ends as soon as both are done."""


def race(url: str, attempt) -> list:
    """Run ``attempt(session)`` in two threads, each on its own engine and transaction."""
    engines = [make_engine(url) for _ in range(2)]
    barrier = threading.Barrier(2)
    results: list = [None, None]
    errors: list[BaseException] = []

    def contender(i: int) -> None:
        try:
            with make_session_factory(engines[i]).begin() as s:
                barrier.wait(timeout=DEADLINE_S)
                results[i] = attempt(s)
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=contender, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=DEADLINE_S)
    assert not any(t.is_alive() for t in threads), "a contender is stuck"
    for engine in engines:
        engine.dispose()
    assert not errors, errors
    return results


def test_of_two_concurrent_claimers_of_a_new_period_exactly_one_wins(
    database_url, session_factory, subscription_id
):
    for round_ in range(20):
        period = f"race-{round_}"
        results = race(
            database_url,
            lambda s, p=period: digests.claim(
                s, subscription_id=subscription_id, period_key=p, now=MONDAY_9AM
            ),
        )
        assert sum(r is not None for r in results) == 1, (round_, results)


def test_of_two_concurrent_takers_of_a_stale_claim_exactly_one_wins(
    database_url, session_factory, subscription_id
):
    later = MONDAY_9AM + LEASE
    for round_ in range(20):
        period = f"stale-{round_}"
        with session_factory.begin() as s:
            dead = digests.claim(
                s, subscription_id=subscription_id, period_key=period, now=MONDAY_9AM
            )
        results = race(
            database_url,
            lambda s, p=period: digests.claim(
                s, subscription_id=subscription_id, period_key=p, now=later, lease=LEASE
            ),
        )
        winners = [r for r in results if r is not None]
        assert len(winners) == 1, (round_, results)
        assert winners[0].attempt == 2
        with session_factory.begin() as s:
            assert digests.mark_posted(s, dead, message_ts="1.1", now=later) is False
            assert digests.mark_posted(s, winners[0], message_ts="2.2", now=later) is True


def test_two_people_subscribing_one_channel_at_once_leave_one_subscription(
    database_url, session_factory
):
    for round_ in range(10):
        channel = f"C-race-{round_}"
        results = race(
            database_url,
            lambda s, c=channel: subscribe(s, c).id,
        )
        assert results[0] == results[1]
    with session_factory.begin() as s:
        assert len(digests.subscriptions_for_workspace(s, "T1")) == 10
