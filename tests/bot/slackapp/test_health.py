"""``/healthz`` on the running app tells the truth about the database: 200 while it reads
and takes writes (a busy SQLite writer included), 503 when it cannot, and an answer
within the deadline even from a PostgreSQL that never replies; the body says what was
checked and carries no secret."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import Result

from bot.engine.source import EngineSource
from bot.render.renderer import Renderer
from bot.services import Services
from bot.settings import Settings
from core.perf.engine import PerfEngine
from storage.database import make_engine, make_session_factory
from tests.bot.slackapp.conftest import SECRET, Running
from tests.fakes.databases import silent_server, write_lock_held

CLIENT_TIMEOUT_S = 4.5
"""Under the app's 5 s SQLite busy timeout: an answer that waited a lock out misses it."""
HUNG_CLIENT_TIMEOUT_S = 15.0
"""Far above the probe's 3 s deadline, so a slow machine is not taken for a hang."""


def healthz(server: Running, timeout: float = CLIENT_TIMEOUT_S) -> httpx.Response:
    return httpx.get(server.url + "/healthz", timeout=timeout)


def sqlite_path(db_url: str) -> Path:
    return Path(db_url.removeprefix("sqlite:///"))


def test_health_says_what_it_checked(server: Running) -> None:
    response = healthz(server)
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["database"] == "ok"
    checked = body["checks"]["database"]
    assert checked["reachable"] is True and checked["writable"] is True
    assert checked["busy"] is False and checked["latency_ms"] > 0
    assert SECRET not in response.text and "xoxb-test-token" not in response.text
    assert "leasewise.db" not in response.text  # no path on a public endpoint


def test_a_busy_sqlite_writer_is_not_an_outage(server: Running, db_url: str) -> None:
    with write_lock_held(sqlite_path(db_url)) as holder:
        response = healthz(server)
        assert holder.poll() is None  # answered while the other process held the lock
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["database"] == "busy"
    assert body["checks"]["database"]["busy"] is True


def test_a_deleted_sqlite_file_is_an_outage(server: Running, db_url: str) -> None:
    assert healthz(server).status_code == 200
    sqlite_path(db_url).unlink()
    response = healthz(server)
    assert response.status_code == 503
    assert response.json()["status"] == "unhealthy"
    assert response.json()["database"] == "unreachable"


def test_a_sqlite_file_replaced_by_a_directory_is_an_outage(server: Running, db_url: str) -> None:
    """What a chmod cannot do to root, a directory in the file's place can."""
    path = sqlite_path(db_url)
    path.unlink()
    path.mkdir()
    response = healthz(server)
    assert response.status_code == 503 and response.json()["database"] == "unreachable"


class TestAPostgresThatNeverAnswers:
    """The app's database is a server that accepts connections and says nothing."""

    @pytest.fixture
    def services(self, settings: Settings, engine: PerfEngine) -> Iterator[Services]:
        with silent_server() as port:
            url = f"postgresql+psycopg://leasewise:hunter2-secret@127.0.0.1:{port}/leasewise"
            database = make_engine(url)
            sessions = make_session_factory(database)
            source = EngineSource(engine, sessions)
            yield Services(
                settings=settings.model_copy(update={"database_url": url}),
                engines=source,
                sessions=sessions,
                renderer=Renderer(),
            )
            source.stop()
            database.dispose()

    def test_health_answers_503_instead_of_hanging(self, server: Running) -> None:
        response = healthz(server, timeout=HUNG_CLIENT_TIMEOUT_S)
        assert response.status_code == 503
        body = response.json()
        assert body["database"] == "unreachable"
        assert body["checks"]["database"]["reachable"] is False
        assert "hunter2" not in response.text and "127.0.0.1" not in response.text

    def test_health_keeps_answering_while_the_server_stays_silent(self, server: Running) -> None:
        statuses = [healthz(server, timeout=HUNG_CLIENT_TIMEOUT_S).status_code for _ in range(3)]
        assert statuses == [503, 503, 503]


def test_leasewise_health_passes_on_200_and_fails_on_503(
    server: Running, db_url: str, run: Callable[..., Result]
) -> None:
    """The image's HEALTHCHECK: exit 0 with the server's answer, exit 1 once it says 503."""
    healthy = run("health", "--url", server.url + "/healthz")
    assert healthy.exit_code == 0 and '"database":"ok"' in healthy.output
    sqlite_path(db_url).unlink()
    unhealthy = run("health", "--url", server.url + "/healthz")
    assert unhealthy.exit_code == 1
    assert "unhealthy" in unhealthy.output and "503" in unhealthy.output
