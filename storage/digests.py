"""Weekly digests: which channels get one, and posting each period exactly once.

Subscriptions are plain rows, one per (workspace, channel). Runs are the
exactly-once part: several bot replicas may wake for the same digest, so each
must *claim* the (subscription, period) run before posting, and only the holder
of the current claim may record it as posted or failed. Claims expire after a
lease, so a replica that died mid-post does not silence the digest for good.

Every decision is made by the database in one statement: an INSERT that does
nothing on conflict, or an UPDATE whose WHERE is a compare-and-set on what was
read, so a stale read can only make a claimer lose. That holds across processes
on SQLite and PostgreSQL alike, and since losing is a result rather than an
error, nothing here needs a savepoint. Times come in as ``now`` parameters, so
tests pass a clock; replicas' clocks need only agree to well within the lease.
"""

from __future__ import annotations

import math
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import CursorResult, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from storage.clock import from_db, to_utc
from storage.errors import NotFound, StorageError
from storage.fields import checked_id
from storage.models import DigestRun, DigestSubscription
from storage.upsert import insert_for

CLAIMED, POSTED, FAILED = "claimed", "posted", "failed"

DEFAULT_LEASE = timedelta(minutes=10)
"""How long a claim is honoured: far longer than rendering a digest and posting it
(slack_sdk's 30 s timeout, with its retries), so a live claimant is never overtaken."""

DEFAULT_MAX_ATTEMPTS = 5
"""Claims per run, takeovers included: a digest that keeps failing (or keeps killing its
process) stops being retried and stays visible in ``/lease digest list`` with its error."""

MAX_ERROR_CHARS = 2_000
"""Errors are for a person reading the digest list, not a full traceback."""

TIMEZONE_HINT = "use an IANA time zone name, e.g. Europe/Berlin, America/New_York or UTC"


# --- subscriptions -------------------------------------------------------------------


@dataclass(frozen=True)
class Subscription:
    """A channel's weekly digest as the app reads it: when, in which zone, what counts.

    A frozen copy of the row, so callers can keep it past the session that read it.
    """

    id: int
    workspace_id: str
    channel_id: str
    day_of_week: int
    """0 is Monday."""
    hour: int
    timezone: str
    threshold_pct: float
    threshold_usd: float
    weekly_no_change: bool
    paused: bool
    pause_reason: str | None
    created_by: str
    created_at: datetime


def _subscription(row: DigestSubscription) -> Subscription:
    return Subscription(
        id=row.id,
        workspace_id=row.workspace_id,
        channel_id=row.channel_id,
        day_of_week=row.day_of_week,
        hour=row.hour,
        timezone=row.timezone,
        threshold_pct=row.threshold_pct,
        threshold_usd=row.threshold_usd,
        weekly_no_change=bool(row.weekly_no_change),
        paused=bool(row.paused),
        pause_reason=row.pause_reason,
        created_by=row.created_by,
        created_at=from_db(row.created_at),
    )


def subscribe(
    session: Session,
    *,
    workspace_id: str,
    channel_id: str,
    day_of_week: int,
    hour: int,
    timezone: str,
    threshold_pct: float,
    threshold_usd: float,
    created_by: str,
    now: datetime,
    weekly_no_change: bool = False,
) -> Subscription:
    """Subscribe a channel, or change its subscription: a channel has at most one.

    Subscribing again replaces the schedule and thresholds and resumes a paused
    digest (re-subscribing is how a channel says "we fixed it"); the original
    creator and creation time are kept.

    Raises:
        StorageError: naming the field, if the day, hour, time zone or a threshold is invalid.
    """
    _check_schedule(day_of_week, hour, timezone)
    _check_threshold("threshold_pct", threshold_pct)
    _check_threshold("threshold_usd", threshold_usd)
    settings: dict[str, Any] = {
        "day_of_week": day_of_week,
        "hour": hour,
        "timezone": timezone,
        "threshold_pct": threshold_pct,
        "threshold_usd": threshold_usd,
        "weekly_no_change": weekly_no_change,
        "paused": False,
        "pause_reason": None,
    }
    # One upsert, so two people subscribing the same channel at once both succeed and
    # the later one's settings stand.
    statement = (
        insert_for(session, DigestSubscription)
        .values(
            workspace_id=checked_id(
                workspace_id, column=DigestSubscription.workspace_id, field="workspace_id"
            ),
            channel_id=checked_id(
                channel_id, column=DigestSubscription.channel_id, field="channel_id"
            ),
            created_by=checked_id(
                created_by, column=DigestSubscription.created_by, field="created_by"
            ),
            created_at=to_utc(now),
            **settings,
        )
        .on_conflict_do_update(index_elements=["workspace_id", "channel_id"], set_=settings)
        .returning(DigestSubscription)
    )
    row = session.scalars(statement, execution_options={"populate_existing": True}).one()
    return _subscription(row)


def unsubscribe(session: Session, *, workspace_id: str, channel_id: str) -> bool:
    """Stop a channel's digest; its run history goes with it. False if there was none."""
    result = session.execute(
        delete(DigestSubscription).where(
            DigestSubscription.workspace_id == workspace_id,
            DigestSubscription.channel_id == channel_id,
        ),
        execution_options={"synchronize_session": "fetch"},
    )
    return _rowcount(result) > 0


def subscription(session: Session, subscription_id: int) -> Subscription | None:
    """One subscription by id, paused or not; None once it is gone."""
    row = session.get(DigestSubscription, subscription_id)
    return None if row is None else _subscription(row)


def subscription_for(
    session: Session, *, workspace_id: str, channel_id: str
) -> Subscription | None:
    row = session.scalars(
        select(DigestSubscription).where(
            DigestSubscription.workspace_id == workspace_id,
            DigestSubscription.channel_id == channel_id,
        )
    ).one_or_none()
    return None if row is None else _subscription(row)


def subscriptions_for_workspace(session: Session, workspace_id: str) -> list[Subscription]:
    """A workspace's digests, paused ones included (an admin wants to see why)."""
    rows = session.scalars(
        select(DigestSubscription)
        .where(DigestSubscription.workspace_id == workspace_id)
        .order_by(DigestSubscription.channel_id)
    )
    return [_subscription(row) for row in rows]


def active_subscriptions(session: Session) -> list[Subscription]:
    """Every digest the scheduler should consider, across workspaces (paused ones skipped)."""
    rows = session.scalars(
        select(DigestSubscription)
        .where(DigestSubscription.paused.is_(False))
        .order_by(DigestSubscription.id)
    )
    return [_subscription(row) for row in rows]


def pause(session: Session, subscription_id: int, *, reason: str) -> bool:
    """Stop scheduling a digest that cannot be delivered (e.g. ``channel_not_found``).

    Retrying would fail the same way every week, so the reason is kept for the
    digest list and the digest waits until someone subscribes the channel again.
    """
    result = session.execute(
        update(DigestSubscription)
        .where(DigestSubscription.id == subscription_id)
        .values(paused=True, pause_reason=reason[:200]),
        execution_options={"synchronize_session": "fetch"},
    )
    return _rowcount(result) > 0


# --- runs ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """The right to post one digest period, held until posted, failed, or the lease ends."""

    run_id: int
    subscription_id: int
    period_key: str
    token: str
    attempt: int
    claimed_at: datetime


@dataclass(frozen=True)
class RunRecord:
    """One run as ``/lease digest list`` shows it; times are always timezone-aware UTC."""

    period_key: str
    status: str
    attempts: int
    claimed_at: datetime
    posted_at: datetime | None
    message_ts: str | None
    error: str | None


def claim(
    session: Session,
    *,
    subscription_id: int,
    period_key: str,
    now: datetime,
    lease: timedelta = DEFAULT_LEASE,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
) -> Claim | None:
    """Claim the right to post a subscription's digest for one period, or None if taken.

    A first claim inserts the run. An existing run is taken over only if its claim
    has outlived ``lease`` (its process presumably died) or it failed, and it has
    had fewer than ``max_attempts`` claims; a posted run is never taken over.
    Either way one statement decides, so of any number of concurrent claimers at
    most one gets a Claim. The caller must commit before posting, so that others
    see the claim.

    Raises:
        NotFound: if the subscription does not exist (e.g. it was just removed); as
            after any error, roll the transaction back (PostgreSQL has aborted it).
    """
    now = to_utc(now)
    token = str(uuid.uuid4())
    run_id = _insert_run(session, subscription_id, period_key, token, now)
    if run_id is not None:
        return Claim(run_id, subscription_id, period_key, token, 1, now)
    return _take_over(session, subscription_id, period_key, now, lease, max_attempts)


def mark_posted(session: Session, claim: Claim, *, message_ts: str, now: datetime) -> bool:
    """Record the digest as posted, if ``claim`` is still the run's current claim.

    False means another process took the run over (this claim's lease ran out), so
    the caller must not report success; the run can then only be posted by the
    claim that holds it, never a second time. A claim whose lease ran out but
    which nobody took over still succeeds: its message is in Slack, and refusing
    would invite a retry that posts it again.
    """
    return _finish(
        session,
        claim,
        status=POSTED,
        posted_at=to_utc(now),
        message_ts=message_ts,
    )


def mark_failed(session: Session, claim: Claim, *, error: str) -> bool:
    """Record why this attempt failed, if ``claim`` still holds the run; it may be retried.

    The run keeps the time the attempt was claimed; there is no failure time to
    record (the schema has no column for it).
    """
    return _finish(session, claim, status=FAILED, error=error[:MAX_ERROR_CHARS])


def runs_for(session: Session, subscription_id: int, *, limit: int = 10) -> list[RunRecord]:
    """A subscription's most recent runs, newest first, with the last error of each.

    A posted run keeps the error of an earlier failed attempt, so the list can say
    why it took more than one.
    """
    rows = session.scalars(
        select(DigestRun)
        .where(DigestRun.subscription_id == subscription_id)
        .order_by(DigestRun.id.desc())
        .limit(limit)
    )
    return [
        RunRecord(
            period_key=run.period_key,
            status=run.status,
            attempts=run.attempts,
            claimed_at=from_db(run.claimed_at),
            posted_at=None if run.posted_at is None else from_db(run.posted_at),
            message_ts=run.message_ts,
            error=run.error,
        )
        for run in rows
    ]


# --- helpers -------------------------------------------------------------------------


def _insert_run(
    session: Session, subscription_id: int, period_key: str, token: str, now: datetime
) -> int | None:
    """Insert a fresh claimed run; its id, or None if the period already has a run."""
    values = {
        "subscription_id": subscription_id,
        "period_key": period_key,
        "status": CLAIMED,
        "attempts": 1,
        "claim_token": token,
        "claimed_at": now,
    }
    # ON CONFLICT DO NOTHING, not a check-then-insert: the database picks one winner.
    statement = (
        insert_for(session, DigestRun)
        .values(values)
        .on_conflict_do_nothing(index_elements=["subscription_id", "period_key"])
        .returning(DigestRun.id)
    )
    try:
        run_id: int | None = session.execute(statement).scalar_one_or_none()
    except IntegrityError as exc:  # only the foreign key can fail
        raise NotFound(
            f"digest subscription {subscription_id} does not exist", field="subscription_id"
        ) from exc
    return run_id


def _take_over(
    session: Session,
    subscription_id: int,
    period_key: str,
    now: datetime,
    lease: timedelta,
    max_attempts: int,
) -> Claim | None:
    seen = session.execute(
        select(DigestRun.id, DigestRun.status, DigestRun.claim_token, DigestRun.claimed_at).where(
            DigestRun.subscription_id == subscription_id, DigestRun.period_key == period_key
        )
    ).one_or_none()
    if seen is None:
        return None  # removed between our insert and this read (unsubscribed)
    stale = seen.status == CLAIMED and from_db(seen.claimed_at) <= now - lease
    if not (stale or seen.status == FAILED):
        return None
    token = str(uuid.uuid4())
    # Compare-and-set: the row must still be exactly as we saw it. Every transition
    # changes the status or the token, so a concurrent claimer, or the old claimant
    # finishing after all, makes this match nothing.
    result = session.execute(
        update(DigestRun)
        .where(
            DigestRun.id == seen.id,
            DigestRun.status == seen.status,
            DigestRun.claim_token == seen.claim_token,
            DigestRun.attempts < max_attempts,
        )
        .values(
            status=CLAIMED,
            claim_token=token,
            claimed_at=now,
            attempts=DigestRun.attempts + 1,
        )
        .returning(DigestRun.attempts),
        execution_options={"synchronize_session": "fetch"},
    )
    attempt = result.scalar_one_or_none()
    if attempt is None:
        return None
    return Claim(seen.id, subscription_id, period_key, token, attempt, now)


def _finish(session: Session, claim: Claim, **values: Any) -> bool:
    result = session.execute(
        update(DigestRun)
        .where(
            DigestRun.id == claim.run_id,
            DigestRun.status == CLAIMED,
            DigestRun.claim_token == claim.token,
        )
        .values(**values),
        execution_options={"synchronize_session": "fetch"},
    )
    return _rowcount(result) == 1


def _check_schedule(day_of_week: int, hour: int, timezone: str) -> None:
    if not 0 <= day_of_week <= 6:
        raise StorageError(
            f"day of week {day_of_week} is not 0 (Monday) to 6 (Sunday)",
            field="day_of_week",
            hint="use 0 for Monday through 6 for Sunday",
        )
    if not 0 <= hour <= 23:
        raise StorageError(
            f"hour {hour} is not 0 to 23", field="hour", hint="use 24-hour time, e.g. 9 or 17"
        )
    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise StorageError(
            f"unknown time zone {timezone!r}", field="timezone", hint=TIMEZONE_HINT
        ) from exc


def _check_threshold(field: str, value: float) -> None:
    if not (math.isfinite(value) and value >= 0):
        raise StorageError(
            f"{field.replace('_', ' ')} must be zero or more, got {value}",
            field=field,
            hint="0 reports every change; e.g. 5 (%) or 1000 ($) reports only larger ones",
        )


def _rowcount(result: Any) -> int:
    count: int = result.rowcount if isinstance(result, CursorResult) else 0
    return count
