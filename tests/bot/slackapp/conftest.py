"""The Slack app as Slack meets it: a running server, signed requests, a fake Web API.

Each test gets a fresh SQLite database (copied from one migrated template), the
local Slack Web API stand-in, and ``leasewise``'s real ASGI app under uvicorn on
a free loopback port, built by ``create_app`` with those edges. A test then
reads like a conversation::

    poster.command("help", response_url=slack.response_url())
    reply = slack.wait_for("response_url:r1")[0].body
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
import uvicorn
from slack_bolt import App

from bot.services import Services
from bot.settings import Settings
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


@pytest.fixture
def app(settings: Settings, services: Services) -> App:
    return create_app(settings, services)


@dataclass
class Running:
    url: str
    server: uvicorn.Server


@pytest.fixture
def server(app: App, services: Services) -> Iterator[Running]:
    config = uvicorn.Config(
        build_asgi(app, services), host="127.0.0.1", port=0, log_level="warning", lifespan="off"
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not running.started:
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    port = running.servers[0].sockets[0].getsockname()[1]
    yield Running(url=f"http://127.0.0.1:{port}", server=running)
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def poster(server: Running) -> SignedPoster:
    return SignedPoster(server.url, SECRET)
