"""When digests run: one APScheduler cron job per subscription, plus a catch-up.

Every replica runs the same jobs; ``run_digest``'s claim makes sure only one of
them posts. The scheduler only has to make sure *someone* tries soon after each
scheduled time, which is why there are two ways in: the cron job (on time), and a
catch-up every few minutes and at start (after a restart, a missed firing, or a
run that failed and may be claimed again). Both ask the same question, "what is
the latest scheduled time at or before now, and is it recent enough?", so they
agree on the period whichever fires first.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger
from slack_sdk import WebClient

from bot.digests.runs import Compose, RunOutcome, period_of, run_digest
from bot.services import Services
from storage import digests
from storage.clock import to_utc
from storage.digests import Subscription

log = logging.getLogger("leasewise.digests")
JOB_PREFIX = "digest-"
MAINTENANCE_JOB = "digests-maintenance"
MAINTENANCE_EVERY = timedelta(minutes=5)
"""How soon replicas converge after a subscribe elsewhere, and how soon a failed run is retried."""

LOOKBACK = timedelta(days=8)
"""Far enough back to find the previous firing of a weekly schedule, DST shifts included."""

_JOB_ID = re.compile(rf"^{JOB_PREFIX}(\d+)$")


ClientFor = Callable[[str], WebClient | None]
"""A workspace's Web API client (OAuth installs: one bot token per workspace), or None
when the workspace has uninstalled the app."""


def job_id(subscription_id: int) -> str:
    return f"{JOB_PREFIX}{subscription_id}"


def trigger_for(subscription: Subscription) -> CronTrigger:
    """The weekly firing at ``hour``:00 local time; APScheduler's day_of_week 0 is Monday too."""
    return CronTrigger(
        day_of_week=subscription.day_of_week,
        hour=subscription.hour,
        minute=0,
        timezone=ZoneInfo(subscription.timezone),
    )


def due(subscription: Subscription, now: datetime) -> datetime | None:
    """The latest scheduled time at or before ``now``, in UTC.

    APScheduler 3 can only step forward, so this starts a little over a week back and
    steps to ``now``; the trigger does the local-time arithmetic, so the firing stays
    at the local hour across DST changes.
    """
    now = to_utc(now)
    trigger = trigger_for(subscription)
    fire = trigger.get_next_fire_time(None, now - LOOKBACK)
    latest: datetime | None = None
    while fire is not None and fire <= now:
        latest = fire
        fire = trigger.get_next_fire_time(fire, now)
    return None if latest is None else latest.astimezone(UTC)


class DigestScheduler:
    """The digest jobs of one replica; ``sync()`` after a subscription changes here."""

    def __init__(
        self,
        services: Services,
        client: WebClient | ClientFor,
        compose: Compose,
        *,
        scheduler: BaseScheduler | None = None,
        misfire_grace: timedelta = timedelta(hours=12),
    ) -> None:
        self.scheduler = scheduler or BackgroundScheduler(timezone=UTC)
        self._services = services
        self._client = client
        self._compose = compose
        self._grace = misfire_grace
        self._lock = threading.Lock()  # guards every job change; see shutdown()
        self._stopping = False

    def start(self) -> None:
        """Schedule every active digest and start; the first catch-up runs at once.

        The catch-up runs as the maintenance job's first firing rather than in this
        call, so a backlog of digests to post never delays the bot's start (Slack wants
        its acks within 3 seconds).
        """
        self.sync()
        self.scheduler.add_job(
            self._maintain,
            IntervalTrigger(seconds=MAINTENANCE_EVERY.total_seconds(), timezone=UTC),
            id=MAINTENANCE_JOB,
            next_run_time=datetime.now(UTC),
            coalesce=True,
            max_instances=1,
            replace_existing=True,
        )
        if not self.scheduler.running:
            self.scheduler.start()

    def shutdown(self, *, wait: bool = True) -> None:
        """Stop; ``wait`` lets a digest being posted finish, so its run is recorded.

        APScheduler 3 holds its job-store lock while it waits for running jobs, so a job
        that added or removed a job then (the maintenance job's sync) would deadlock
        it. Every job change happens under ``_lock`` and checks ``_stopping`` first.
        """
        with self._lock:
            self._stopping = True
        if self.scheduler.running:
            self.scheduler.shutdown(wait=wait)

    def sync(self) -> None:
        """Make the jobs match the table: add new digests, move changed ones, drop the rest.

        A job is replaced only when its schedule changed: replacing it every few minutes
        would be harmless but would hide a real change in the scheduler's log.
        """
        with self._services.sessions() as session:
            wanted = {s.id: trigger_for(s) for s in digests.active_subscriptions(session)}
        with self._lock:
            if self._stopping:
                return
            for job in self.scheduler.get_jobs():
                match = _JOB_ID.match(job.id)
                if match is None:
                    continue
                subscription_id = int(match.group(1))
                trigger = wanted.get(subscription_id)
                if trigger is not None and _same(job.trigger, trigger):
                    del wanted[subscription_id]
                else:
                    self.scheduler.remove_job(job.id)  # gone, paused, or rescheduled
            for subscription_id, trigger in wanted.items():
                self._add(subscription_id, trigger)

    def catch_up(self, now: datetime) -> dict[int, RunOutcome]:
        """Run each digest whose latest scheduled time is within the grace and not posted.

        Only the latest period is considered, so a long outage sends one digest, not a
        backlog of stale ones. Returns what each attempted run did, by subscription id.
        """
        with self._services.sessions() as session:
            subscriptions = digests.active_subscriptions(session)
        outcomes: dict[int, RunOutcome] = {}
        for subscription in subscriptions:
            if self._stopping:
                break
            outcome = self._run_if_due(subscription, now)
            if outcome is not None:
                outcomes[subscription.id] = outcome
        return outcomes

    # --- jobs -----------------------------------------------------------------------------

    def _add(self, subscription_id: int, trigger: CronTrigger) -> None:
        self.scheduler.add_job(
            self._fire,
            trigger,
            args=[subscription_id],
            id=job_id(subscription_id),
            name=f"weekly digest {subscription_id}",
            coalesce=True,
            misfire_grace_time=int(self._grace.total_seconds()),
            max_instances=1,
            replace_existing=True,
        )

    def _fire(self, subscription_id: int) -> RunOutcome | None:
        """The cron job: post the period of the firing that woke it.

        APScheduler 3 does not tell a job its scheduled time, so the job asks ``due()``
        at the current time, from the subscription as it is in the table now. That
        is the firing that woke it: a job runs within the misfire grace, far less
        than a week, and a coalesced backlog runs once, for its latest firing. It is
        also what every other replica computes (an event listener would see only this
        replica's scheduler, and its view of a schedule changed elsewhere but not yet
        synced), and what ``catch_up`` computes, so both name the same period.
        """
        with self._services.sessions() as session:
            subscription = digests.subscription(session, subscription_id)
        if subscription is None or subscription.paused:
            return None  # the next sync() drops the job
        return self._run_if_due(subscription, self._services.clock())

    def _maintain(self) -> None:
        self.sync()
        self.catch_up(self._services.clock())

    def _run_if_due(self, subscription: Subscription, now: datetime) -> RunOutcome | None:
        fire = due(subscription, now)
        if fire is None or to_utc(now) - fire > self._grace:
            return None
        if _posted(self._services, subscription.id, period_of(subscription, fire).key):
            return None  # a read, so a restart loop does not open write transactions
        client = self._client_for(subscription.workspace_id)
        if client is None:
            log.warning(
                "digest %s: no bot token for workspace %s (uninstalled?)",
                subscription.id,
                subscription.workspace_id,
            )
            return None
        outcome = run_digest(self._services, client, subscription.id, fire, self._compose)
        if outcome in ("paused", "gone"):
            self._drop(subscription.id)
        return outcome

    def _client_for(self, workspace_id: str) -> WebClient | None:
        if isinstance(self._client, WebClient):
            return self._client
        return self._client(workspace_id)

    def _drop(self, subscription_id: int) -> None:
        with self._lock:
            if not self._stopping and self.scheduler.get_job(job_id(subscription_id)):
                self.scheduler.remove_job(job_id(subscription_id))


def _posted(services: Services, subscription_id: int, period_key: str) -> bool:
    with services.sessions() as session:
        runs = digests.runs_for(session, subscription_id, limit=5)
    return any(r.period_key == period_key and r.status == digests.POSTED for r in runs)


def _same(current: Any, wanted: CronTrigger) -> bool:
    """Same weekly time in the same zone (CronTrigger has no equality of its own)."""
    return bool(str(current) == str(wanted) and str(current.timezone) == str(wanted.timezone))
