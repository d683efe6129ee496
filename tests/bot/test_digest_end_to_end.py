"""A serving change published mid-week reaches Monday's digest, once, with its figures.

The real composer (core.changes over the saved quotes), the real scheduler's
catch-up, the local Slack stand-in; only the clock is the test's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import replace
from zoneinfo import ZoneInfo

import pytest
from apscheduler.schedulers.background import BackgroundScheduler
from slack_sdk import WebClient

from bot.commands import dispatch
from bot.digests.compose import compose
from bot.digests.schedule import DigestScheduler
from bot.services import Caller, Services
from tests.fakes.slack_api import FakeSlack

BERLIN = ZoneInfo("Europe/Berlin")
DECODE_PATH_MONDAY = dt.datetime(2026, 10, 19, 9, 5, tzinfo=BERLIN)  # the stack: Fri 2026-10-16


class Clock:
    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        yield fake


@pytest.fixture
def clock() -> Clock:
    return Clock(DECODE_PATH_MONDAY)


@pytest.fixture
def team(desk: Services, clock: Clock) -> Services:
    services = replace(desk, clock=clock)
    caller = Caller("T0001", "C0DEALS", "U0SALES", timezone="Europe/Berlin")
    for name, batch in (("acme-b16", 16), ("globex-b64", 64)):
        text = f"quote save {name} customer=Acme Kimi K3 on 16x GB300, batch {batch}, $5/GPU-hour"
        assert dispatch.run(services, caller, text).template == "quote_saved"
    assert dispatch.run(services, caller, "digest subscribe monday 9am").template == (
        "digest_subscribed"
    )
    return services


@pytest.fixture
def scheduler(team: Services, slack: FakeSlack) -> DigestScheduler:
    client = WebClient(token="xoxb-test", base_url=slack.api_url)
    return DigestScheduler(team, client, compose, scheduler=BackgroundScheduler(timezone=dt.UTC))


def digests_posted(slack: FakeSlack) -> list[str]:
    return [c.body["text"] for c in slack.calls_to("chat.postMessage") if "thread_ts" not in c.body]


def test_mondays_digest_shows_the_seed_figures_once(
    scheduler: DigestScheduler, slack: FakeSlack, clock: Clock
) -> None:
    scheduler.catch_up(clock())
    scheduler.catch_up(clock() + dt.timedelta(minutes=5))
    (text,) = digests_posted(slack)
    blocks = str(slack.calls_to("chat.postMessage")[0].body["blocks"])
    assert "$21.61 → $12.64" in blocks and "$9.98 → $6.16" in blocks
    assert "decode path" in text


def test_the_digest_brings_its_before_after_chart_into_the_thread(
    scheduler: DigestScheduler, slack: FakeSlack, clock: Clock
) -> None:
    scheduler.catch_up(clock())
    upload = slack.wait_for("files.completeUploadExternal")[0].body
    assert upload["thread_ts"] and upload["channel_id"] == "C0DEALS"
    assert next(iter(slack.uploads.values())).startswith(b"\x89PNG")


def test_the_next_quiet_monday_posts_nothing(
    scheduler: DigestScheduler, slack: FakeSlack, clock: Clock
) -> None:
    scheduler.catch_up(clock())
    clock.now = DECODE_PATH_MONDAY + dt.timedelta(days=7)
    scheduler.catch_up(clock())
    assert len(digests_posted(slack)) == 1


def test_monday_before_nine_berlin_time_posts_nothing_yet(
    scheduler: DigestScheduler, slack: FakeSlack, clock: Clock
) -> None:
    clock.now = dt.datetime(2026, 10, 19, 8, 55, tzinfo=BERLIN)  # 06:55 UTC; Berlin is UTC+2
    scheduler.catch_up(clock())
    assert digests_posted(slack) == []
