"""Running one weekly digest: claim its period, compose, post, record, and never post twice.

Several replicas (and, on one replica, the cron job and the catch-up) may try the
same digest at once, so the database decides who posts: the run is claimed and the
claim COMMITTED before anything reaches Slack, and it is recorded as posted in a
second transaction afterwards. Everything else follows from what a team would
rather see: a digest missing for a week is recoverable, the same digest twice is
not. Hence a message already in the channel is always recorded as posted (even if
its thread overflow failed), a quiet week counts as done, and a channel that can no
longer receive digests pauses the subscription instead of failing every week.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.render.renderer import Message
from bot.services import Services
from storage import digests
from storage.clock import to_utc
from storage.digests import Subscription
from storage.errors import NotFound

log = logging.getLogger("leasewise.digests")

RunOutcome = Literal["posted", "nothing_to_post", "taken", "failed", "paused", "gone"]
"""``taken``: another replica holds or posted the period. ``paused``: the subscription was
paused already, or is now, because Slack said the channel cannot receive it."""

PAUSING_ERRORS = frozenset(
    {"channel_not_found", "not_in_channel", "is_archived", "account_inactive", "invalid_auth"}
)
"""Slack errors that will recur every week until a person acts (invite the bot, unarchive,
reinstall): retrying would only fill the digest list with the same failure."""


@dataclass(frozen=True)
class Period:
    """The week one digest covers; ``key`` is what makes a run unique (e.g. "2026-W49")."""

    key: str
    scheduled_for: datetime
    since: date
    until: date


Compose = Callable[[Services, Subscription, Period], Message | None]
"""Builds the digest; None when nothing material changed and no "no change" line is wanted."""


@dataclass(frozen=True)
class _Run:
    subscription: Subscription
    period: Period
    claim: digests.Claim


def period_of(subscription: Subscription, fire_time: datetime) -> Period:
    """The period a fire time belongs to, keyed by the ISO week *in the channel's zone*.

    A weekly schedule fires once per local ISO week, so the key is the same for every
    replica whatever its clock skew, and the same for both firings of an hour that a
    DST change repeats.
    """
    local = to_utc(fire_time).astimezone(ZoneInfo(subscription.timezone))
    year, week, _ = local.isocalendar()
    until = local.date()
    return Period(
        key=f"{year}-W{week:02d}",
        scheduled_for=local.astimezone(UTC),
        since=until - timedelta(days=7),
        until=until,
    )


def run_digest(
    services: Services,
    client: WebClient,
    subscription_id: int,
    fire_time: datetime,
    compose: Compose,
) -> RunOutcome:
    """Post one subscription's digest for the period of ``fire_time``, at most once.

    Never raises: it runs on a scheduler thread, where an exception would only be
    logged by APScheduler without the run being marked; failures are recorded on the
    run (for ``/lease digest list``) and logged with a reference id.
    """
    run: _Run | RunOutcome | None = None
    try:
        run = _claim(services, subscription_id, fire_time)
        if isinstance(run, str):
            return run
        return _deliver(services, client, run, compose)
    except Exception as exc:  # noqa: BLE001 - a scheduler thread must survive any failure
        reference = _log_failure(exc, subscription_id, "run")
        if isinstance(run, _Run):
            _fail(services, run, f"{type(exc).__name__} (reference {reference})")
        return "failed"


def _claim(services: Services, subscription_id: int, fire_time: datetime) -> _Run | RunOutcome:
    """Claim the period and commit, so that every other replica sees the claim first."""
    try:
        with services.sessions.begin() as session:
            subscription = digests.subscription(session, subscription_id)
            if subscription is None:
                return "gone"
            if subscription.paused:
                return "paused"
            period = period_of(subscription, fire_time)
            claim = digests.claim(
                session,
                subscription_id=subscription_id,
                period_key=period.key,
                now=services.clock(),
            )
    except NotFound:  # unsubscribed between the read and the claim
        return "gone"
    return "taken" if claim is None else _Run(subscription, period, claim)


def _deliver(services: Services, client: WebClient, run: _Run, compose: Compose) -> RunOutcome:
    try:
        message = compose(services, run.subscription, run.period)
        ts = "" if message is None else _post(client, message, run.subscription.channel_id)
    except SlackApiError as exc:
        return _slack_refused(services, run, exc)
    try:
        with services.sessions.begin() as session:
            # "" for a quiet week: the period is complete and must not be retried.
            recorded = digests.mark_posted(session, run.claim, message_ts=ts, now=services.clock())
    except Exception as exc:  # noqa: BLE001 - never mark it failed: it is in the channel
        _log_failure(exc, run.subscription.id, f"recording {run.period.key} as posted (ts {ts!r})")
        return "failed"
    if not recorded:
        log.warning(
            "digest %s %s: the claim was taken over before it was recorded (ts %r)",
            run.subscription.id,
            run.period.key,
            ts,
        )
        return "taken"
    return "nothing_to_post" if message is None else "posted"


def _post(client: WebClient, message: Message, channel: str) -> str:
    """Post top-level, overflow in its thread; the first message's ts.

    Once the first message is in the channel the digest has been delivered: a failed
    overflow reply is logged, not raised, because a retry would post the digest twice.
    """
    first = client.chat_postMessage(channel=channel, text=message.text, blocks=message.blocks)
    ts = str(first["ts"])
    for more in message.overflow:
        try:
            client.chat_postMessage(
                channel=channel, thread_ts=ts, text=more.text, blocks=more.blocks
            )
        except Exception as exc:  # noqa: BLE001 - the digest itself is already delivered
            _log_failure(exc, None, f"overflow of message {ts} in {channel}")
            break
    for chart in message.charts:
        try:
            client.files_upload_v2(
                channel=channel,
                thread_ts=ts,
                content=chart.png,
                filename="leasewise-digest.png",
                title=chart.title,
            )
        except Exception as exc:  # noqa: BLE001 - likewise: the digest is delivered
            _log_failure(exc, None, f"chart for message {ts} in {channel}")
    return ts


def _slack_refused(services: Services, run: _Run, exc: SlackApiError) -> RunOutcome:
    """Record Slack's error code on the run; pause the subscription if it will recur.

    Anything else (a 429 the client's retry handler could not wait out, a 5xx) is
    left failed: the next run may claim the period again.
    """
    error = str(exc.response.get("error") or f"HTTP {exc.response.status_code}")
    pausing = error in PAUSING_ERRORS
    log.warning("digest %s %s: Slack said %s", run.subscription.id, run.period.key, error)
    with services.sessions.begin() as session:
        digests.mark_failed(session, run.claim, error=error)
        if pausing:
            reason = f"Slack said {error} when posting the {run.period.key} digest"
            digests.pause(session, run.subscription.id, reason=reason)
    return "paused" if pausing else "failed"


def _fail(services: Services, run: _Run, error: str) -> None:
    try:
        with services.sessions.begin() as session:
            digests.mark_failed(session, run.claim, error=error)
    except Exception as exc:  # noqa: BLE001 - the lease will free the run instead
        _log_failure(exc, run.subscription.id, "recording a failed run")


def _log_failure(exc: BaseException, subscription_id: int | None, what: str) -> str:
    """Log ``exc`` under a fresh reference id, the id a person sees in the digest list."""
    reference = uuid.uuid4().hex[:8]
    log.error("reference %s: digest %s: %s failed", reference, subscription_id, what, exc_info=exc)
    return reference
