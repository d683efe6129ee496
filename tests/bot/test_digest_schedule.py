"""Weekly digests a team can trust: on time in its own zone, once per week, whatever happens.

Time is a clock the test moves (``Clock``), Slack is the local FakeSlack, and the
digest's content is a stub: what is under test is when and how often it is posted.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from apscheduler.schedulers.background import BackgroundScheduler
from slack_sdk import WebClient
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler

from bot.digests.runs import Compose, Period, RunOutcome, period_of, run_digest
from bot.digests.schedule import DigestScheduler, due
from bot.render.renderer import Message
from bot.services import Services
from bot.settings import Settings
from storage import digests
from storage.digests import Subscription
from storage.schema import upgrade
from tests.bot.people import ADMIN
from tests.fakes.slack_api import FakeSlack
from tests.storage.conftest import postgres_url  # noqa: F401 - the fixture, shared

MONDAY = datetime(2026, 11, 30, tzinfo=UTC)  # ISO week 2026-W49; Berlin is UTC+1
NINE_BERLIN = MONDAY.replace(hour=8)
WEEK = timedelta(weeks=1)


class Clock:
    """What ``services.clock()`` says; tests move it."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def say(quiet: frozenset[str] = frozenset()) -> Compose:
    """A composer stub: "digest <week>", or None (nothing material) for the ``quiet`` weeks."""

    def compose(services: Services, sub: Subscription, period: Period) -> Message | None:
        if period.key in quiet:
            return None
        block = {"type": "section", "text": {"type": "mrkdwn", "text": f"digest {period.key}"}}
        return Message(text=f"digest {period.key}", blocks=[block])

    return compose


def subscribe(services: Services, channel: str = "C0DEALS", **overrides: object) -> int:
    fields: dict = {"day_of_week": 0, "hour": 9, "timezone": "Europe/Berlin"}
    fields.update(overrides)
    with services.sessions.begin() as s:
        return digests.subscribe(
            s,
            workspace_id="T0001",
            channel_id=channel,
            threshold_pct=5.0,
            threshold_usd=500.0,
            created_by=ADMIN,
            now=MONDAY,
            **fields,
        ).id


def runs(services: Services, subscription_id: int) -> list[digests.RunRecord]:
    with services.sessions() as s:
        return digests.runs_for(s, subscription_id, limit=50)


def posted(slack: FakeSlack) -> list[str]:
    return [c.body["text"] for c in slack.calls_to("chat.postMessage")]


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        yield fake


@pytest.fixture
def client(slack: FakeSlack) -> WebClient:
    web = WebClient(token="xoxb-test", base_url=slack.api_url)
    web.retry_handlers.append(RateLimitErrorRetryHandler(max_retry_count=1))
    return web


@pytest.fixture
def clock() -> Clock:
    return Clock(NINE_BERLIN + timedelta(minutes=1))


@pytest.fixture
def services(desk: Services, clock: Clock) -> Services:
    return replace(desk, clock=clock)


@pytest.fixture
def sub(services: Services) -> int:
    return subscribe(services)


@pytest.fixture
def make_scheduler(services: Services, client: WebClient) -> Callable[..., DigestScheduler]:
    """A DigestScheduler over an APScheduler that is never started: jobs are inspected,
    and runs are driven by ``catch_up`` or by calling a job's function."""

    def _make(compose: Compose | None = None) -> DigestScheduler:
        idle = BackgroundScheduler(timezone=UTC)
        return DigestScheduler(services, client, compose or say(), scheduler=idle)

    return _make


@pytest.fixture
def run(services: Services, client: WebClient, sub: int) -> Callable[..., RunOutcome]:
    """``run()``: this week's digest, run once by ``run_digest``."""
    return lambda: run_digest(services, client, sub, NINE_BERLIN, say())


def subscription(services: Services, subscription_id: int) -> Subscription:
    with services.sessions() as s:
        found = digests.subscription(s, subscription_id)
    assert found is not None
    return found


# --- when ------------------------------------------------------------------------------


def test_a_period_is_the_local_iso_week_and_covers_the_week_since_the_last_digest(services, sub):
    period = period_of(subscription(services, sub), NINE_BERLIN)
    assert period == Period("2026-W49", NINE_BERLIN, date(2026, 11, 23), date(2026, 11, 30))


def test_nine_in_berlin_is_eight_utc_in_winter_and_seven_after_the_march_dst_change(services, sub):
    berlin = subscription(services, sub)  # clocks go forward on Sunday 28 March 2027
    fires = [due(berlin, datetime(2027, 3, day, 12, tzinfo=UTC)) for day in (22, 28, 29, 30)]
    assert [f and f.isoformat() for f in fires] == [
        "2027-03-22T08:00:00+00:00",
        "2027-03-22T08:00:00+00:00",
        "2027-03-29T07:00:00+00:00",
        "2027-03-29T07:00:00+00:00",
    ]


def test_due_is_the_previous_week_until_the_local_hour_strikes(services, sub):
    berlin, nine_cest = subscription(services, sub), datetime(2027, 3, 29, 7, tzinfo=UTC)
    assert due(berlin, nine_cest - timedelta(minutes=1)) == datetime(2027, 3, 22, 8, tzinfo=UTC)
    assert due(berlin, nine_cest) == nine_cest


# --- exactly once ----------------------------------------------------------------------


def counting(compose: Compose, calls: list[str]) -> Compose:
    def _compose(services: Services, sub: Subscription, period: Period) -> Message | None:
        calls.append(period.key)
        return compose(services, sub, period)

    return _compose


def test_six_weeks_of_catch_ups_post_once_a_week_and_leave_a_quiet_week_done(
    services, sub, clock, slack, make_scheduler
):
    composed: list[str] = []
    scheduler = make_scheduler(counting(say(frozenset({"2026-W51"})), composed))
    clock.now = MONDAY
    while clock.now < MONDAY + 6 * WEEK:
        scheduler.catch_up(clock.now)
        scheduler.catch_up(clock.now)  # twice at the same instant
        clock.now += timedelta(hours=5, minutes=13)
    weeks = ["2026-W49", "2026-W50", "2026-W51", "2026-W52", "2026-W53", "2027-W01"]
    assert composed == weeks, "each week composed once; the quiet W51 is not retried"
    assert posted(slack) == [f"digest {w}" for w in weeks if w != "2026-W51"]
    done = {r.period_key: (r.status, r.message_ts) for r in runs(services, sub)}
    assert done["2026-W51"] == ("posted", "")


def test_a_restart_twenty_minutes_after_nine_sends_that_weeks_digest_once(
    sub, slack, make_scheduler
):
    scheduler = make_scheduler()
    assert scheduler.catch_up(NINE_BERLIN + timedelta(minutes=20)) == {sub: "posted"}
    assert scheduler.catch_up(NINE_BERLIN + timedelta(minutes=25)) == {}
    assert posted(slack) == ["digest 2026-W49"]


def test_a_three_week_outage_sends_only_the_latest_weeks_digest(sub, slack, make_scheduler):
    scheduler = make_scheduler()
    scheduler.catch_up(NINE_BERLIN + timedelta(minutes=5))
    scheduler.catch_up(NINE_BERLIN + 3 * WEEK + timedelta(minutes=30))
    assert posted(slack) == ["digest 2026-W49", "digest 2026-W52"]


def test_a_period_older_than_the_misfire_grace_is_skipped(sub, slack, make_scheduler):
    assert make_scheduler().catch_up(NINE_BERLIN + timedelta(hours=13)) == {}
    assert posted(slack) == []


def test_the_cron_job_posts_the_period_whose_firing_woke_it(sub, slack, make_scheduler):
    scheduler = make_scheduler()
    scheduler.sync()
    job = scheduler.scheduler.get_job(f"digest-{sub}")
    assert job.func(*job.args) == "posted"
    assert posted(slack) == ["digest 2026-W49"]


def test_a_claim_left_by_a_crash_is_taken_until_the_lease_ends_then_posted_once(
    services, sub, clock, slack, run
):
    with services.sessions.begin() as s:  # a replica claims and commits, then dies
        digests.claim(s, subscription_id=sub, period_key="2026-W49", now=clock())
    assert run() == "taken"
    clock.now += digests.DEFAULT_LEASE
    assert [run(), run()] == ["posted", "taken"]
    assert posted(slack) == ["digest 2026-W49"]


def race(url: str, make_services: Callable[[Settings], Services], slack: FakeSlack) -> None:
    """Two replicas, each with its own engine and sessions, run each of 20 weeks at once."""
    clock = Clock(NINE_BERLIN)
    replicas = [replace(make_services(Settings(database_url=url)), clock=clock) for _ in range(2)]
    sub = subscribe(replicas[0], channel="C0RACE")
    clients = [WebClient(token="xoxb-test", base_url=slack.api_url) for _ in replicas]
    with ThreadPoolExecutor(max_workers=2) as pool:
        for week in range(20):
            fire, start = NINE_BERLIN + week * WEEK, threading.Barrier(2)
            clock.now = fire + timedelta(seconds=1)

            def replica(i: int, fire: datetime = fire, start: threading.Barrier = start) -> str:
                start.wait()
                return run_digest(replicas[i], clients[i], sub, fire, say())

            outcomes = sorted(pool.map(replica, range(2)))
            assert outcomes == ["posted", "taken"], f"week {week}: {outcomes}"
    assert len(set(posted(slack))) == len(posted(slack)) == 20


@pytest.mark.postgres
def test_two_replicas_on_postgres_post_each_week_once(postgres_url, make_services, slack):  # noqa: F811
    upgrade(postgres_url)
    race(postgres_url, make_services, slack)


def test_two_replicas_on_a_sqlite_file_post_each_week_once(db_url, make_services, slack):
    race(db_url, make_services, slack)


# --- when Slack says no ----------------------------------------------------------------


def test_a_rate_limited_post_waits_and_is_posted_once(services, sub, slack, run):
    slack.rate_limit_next("chat.postMessage", retry_after=1)
    assert run() == "posted"
    assert len(slack.calls_to("chat.postMessage")) == 2, "the 429, then the one post"
    assert [r.status for r in runs(services, sub)] == ["posted"]


def test_a_vanished_channel_fails_the_run_and_pauses_the_subscription(services, sub, slack, run):
    slack.fail_next("chat.postMessage", "channel_not_found")
    assert run() == "paused"
    (last,) = runs(services, sub)
    assert (last.status, last.error) == ("failed", "channel_not_found")
    assert "channel_not_found" in (subscription(services, sub).pause_reason or "")


def test_a_composer_error_fails_the_run_with_a_reference_and_does_not_raise(
    services, client, sub, slack
):
    def broken(*_: object) -> Message | None:
        raise RuntimeError("secret internals")

    assert run_digest(services, client, sub, NINE_BERLIN, broken) == "failed"
    assert (runs(services, sub)[0].error or "").startswith("RuntimeError (reference ")
    assert posted(slack) == []


def test_a_digest_unsubscribed_before_its_run_is_gone(services, client):
    assert run_digest(services, client, 999, NINE_BERLIN, say()) == "gone"


# --- the jobs --------------------------------------------------------------------------


def job_ids(scheduler: DigestScheduler) -> list[str]:
    return [job.id for job in scheduler.scheduler.get_jobs()]


def test_sync_adds_a_job_on_subscribe_and_removes_it_on_unsubscribe(services, sub, make_scheduler):
    scheduler = make_scheduler()
    scheduler.sync()
    assert job_ids(scheduler) == [f"digest-{sub}"]
    with services.sessions.begin() as s:
        digests.unsubscribe(s, workspace_id="T0001", channel_id="C0DEALS")
    scheduler.sync()
    assert job_ids(scheduler) == []


def test_sync_moves_the_trigger_when_the_hour_or_time_zone_changes(services, sub, make_scheduler):
    scheduler = make_scheduler()
    scheduler.sync()
    subscribe(services, hour=17, timezone="America/New_York")
    scheduler.sync()
    (job,) = scheduler.scheduler.get_jobs()
    assert (str(job.trigger), str(job.trigger.timezone)) == (
        "cron[day_of_week='0', hour='17', minute='0']",
        "America/New_York",
    )


def test_a_paused_subscription_has_no_job(services, sub, make_scheduler):
    with services.sessions.begin() as s:
        digests.pause(s, sub, reason="channel_not_found")
    scheduler = make_scheduler()
    scheduler.sync()
    assert job_ids(scheduler) == []


def test_a_started_scheduler_has_each_digest_due_in_its_own_zone(services, sub, client, clock):
    clock.now = MONDAY + timedelta(days=2)  # nothing due: the first catch-up posts nothing
    scheduler = DigestScheduler(services, client, say())
    scheduler.start()
    try:
        job = scheduler.scheduler.get_job(f"digest-{sub}")
        assert (job.next_run_time.tzinfo, job.next_run_time.hour) == (ZoneInfo("Europe/Berlin"), 9)
        assert scheduler.scheduler.get_job("digests-maintenance") is not None
    finally:
        scheduler.shutdown()


KILLED_AFTER_CLAIM = """
import datetime as dt, os, sys
from slack_sdk import WebClient
from bot.digests.runs import run_digest
from bot.services import Services
from bot.settings import Settings
from storage.schema import open_database

url, sub, api = sys.argv[1], int(sys.argv[2]), sys.argv[4]
fire = dt.datetime.fromisoformat(sys.argv[3])
_, sessions = open_database(url)
services = Services(Settings(database_url=url), None, sessions, None, clock=lambda: fire)

def die_before_posting(*args):
    os._exit(9)  # the claim is committed; the process dies as a kill -9 would

run_digest(services, WebClient(token="x", base_url=api), sub, fire, die_before_posting)
"""


def test_a_process_killed_between_claim_and_post_leads_to_exactly_one_post(
    services, sub, clock, slack, run, db_url
):
    killed = subprocess.run(
        [
            sys.executable,
            "-c",
            KILLED_AFTER_CLAIM,
            db_url,
            str(sub),
            NINE_BERLIN.isoformat(),
            slack.api_url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert killed.returncode == 9, killed.stderr
    assert [r.status for r in runs(services, sub)] == ["claimed"]
    assert run() == "taken"  # its lease still runs
    clock.now += digests.DEFAULT_LEASE
    assert [run(), run()] == ["posted", "taken"]
    assert posted(slack) == ["digest 2026-W49"]


def test_each_workspace_posts_with_its_own_client_and_an_uninstalled_one_waits(
    services, sub, client, slack
):
    idle = BackgroundScheduler(timezone=UTC)
    uninstalled = DigestScheduler(services, lambda workspace: None, say(), scheduler=idle)
    assert uninstalled.catch_up(NINE_BERLIN + timedelta(minutes=1)) == {}
    assert runs(services, sub) == []  # nothing claimed: a reinstall within grace still posts
    per_workspace = {"T0001": client}
    installed = DigestScheduler(services, per_workspace.get, say(), scheduler=idle)
    assert installed.catch_up(NINE_BERLIN + timedelta(minutes=2)) == {sub: "posted"}
