"""The Slack app as Slack meets it: a running server, signed requests, a fake Web API.

Each test gets a fresh SQLite database (copied from one migrated template), the
local Slack Web API stand-in, and ``leasewise``'s real ASGI app under uvicorn on
a free loopback port, built by ``create_app`` with those edges. A test then
reads like a conversation::

    poster.command("help", response_url=slack.response_url())
    reply = slack.wait_for("response_url:r1")[0].body

The app acks first and answers afterwards, on its answer threads, and its courier
threads send what it says; a test that must show that something did *not* happen
waits for ``finished()`` (both pools have done everything they were handed) and
then looks, instead of sleeping.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
import uvicorn
from slack_bolt import App

from bot.services import Services
from bot.settings import Settings
from bot.slack import app as slack_app
from bot.slack import delivery
from bot.slack.app import create_app
from bot.slack.server import build_asgi
from tests.bot.people import ADMIN
from tests.fakes.signing import SignedPoster
from tests.fakes.slack_api import FakeSlack

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        yield fake


@pytest.fixture
def settings(db_url: str, slack: FakeSlack) -> Settings:
    return Settings(
        database_url=db_url,
        slack_bot_token="xoxb-test-token",
        slack_signing_secret=SECRET,
        slack_api_url=slack.api_url,
        leasewise_admins=ADMIN,
        slack_retries=1,
    )


@pytest.fixture
def services(settings: Settings, make_services: Callable[[Settings], Services]) -> Services:
    return make_services(settings)


START_DEADLINE_S = 30.0
FINISH_DEADLINE_S = 60.0
"""How long the app may take to finish what it was handed, on a loaded 2-core machine."""


class TrackedPool(ThreadPoolExecutor):
    """One of the app's thread pools, counting the work it has not finished yet."""

    def __init__(self, workers: int, name: str) -> None:
        super().__init__(max_workers=workers, thread_name_prefix=name)
        self._idle = threading.Condition()
        self._unfinished = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self._idle:
            self._unfinished += 1
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._done)
        return future

    def _done(self, _: Future[Any]) -> None:
        with self._idle:
            self._unfinished -= 1
            self._idle.notify_all()

    def wait_finished(self, timeout: float) -> None:
        with self._idle:
            if not self._idle.wait_for(lambda: self._unfinished == 0, timeout):
                raise AssertionError(f"{self._unfinished} task(s) unfinished after {timeout}s")


@dataclass
class Pools:
    answers: TrackedPool
    courier: TrackedPool

    def wait_finished(self, timeout: float) -> None:
        # In this order: an answer hands its sending to the courier before it ends.
        self.answers.wait_finished(timeout)
        self.courier.wait_finished(timeout)


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> Iterator[Pools]:
    tracked = Pools(
        TrackedPool(slack_app.ANSWER_THREADS, "test-answer"),
        TrackedPool(delivery.COURIER_THREADS, "test-courier"),
    )
    monkeypatch.setattr(slack_app, "answer_pool", lambda: tracked.answers)
    monkeypatch.setattr(slack_app, "courier_pool", lambda: tracked.courier)
    yield tracked
    # Before the Slack stand-in stops (it was set up first): no reply of this test then
    # meets a closed port, to fail noisily during another test.
    tracked.wait_finished(FINISH_DEADLINE_S)
    for pool in (tracked.answers, tracked.courier):
        pool.shutdown(wait=True)


@pytest.fixture
def app(settings: Settings, services: Services, pools: Pools) -> App:
    return create_app(settings, services)


@pytest.fixture
def finished(pools: Pools) -> Callable[[], None]:
    """``finished()`` returns once the app has done all it was handed so far (every
    request already acked has been answered, or has failed and said so)."""
    return lambda: pools.wait_finished(FINISH_DEADLINE_S)


@dataclass
class Running:
    url: str
    server: uvicorn.Server


class _Listening(uvicorn.Server):
    """uvicorn, saying when its socket is listening (it only sets a flag)."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.listening = threading.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.listening.set()


@pytest.fixture
def server(app: App, services: Services) -> Iterator[Running]:
    config = uvicorn.Config(
        build_asgi(app, services), host="127.0.0.1", port=0, log_level="warning", lifespan="off"
    )
    running = _Listening(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    if not running.listening.wait(START_DEADLINE_S) or not running.started:
        raise RuntimeError(f"uvicorn did not start within {START_DEADLINE_S}s")
    port = running.servers[0].sockets[0].getsockname()[1]
    yield Running(url=f"http://127.0.0.1:{port}", server=running)
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def poster(server: Running) -> Iterator[SignedPoster]:
    signed = SignedPoster(server.url, SECRET)
    yield signed
    signed.close()
