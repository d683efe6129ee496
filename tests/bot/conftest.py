"""Drive the real ``leasewise`` CLI in-process, as a terminal or a pipe would."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from bot.cli.app import build_cli
from bot.commands import dispatch
from bot.conversation import Reply
from bot.engine.source import EngineSource
from bot.render.renderer import Renderer
from bot.services import Caller, Services
from bot.settings import Settings
from core.perf.engine import PerfEngine
from storage.schema import open_database, upgrade
from tests.bot.people import ADMIN, NOW


@pytest.fixture(scope="session")
def cli() -> typer.Typer:
    return build_cli()


@pytest.fixture
def run(cli: typer.Typer, warm_cache: None) -> Callable[..., Result]:
    """``run("estimate", "--json", input="...")``: exit code, stdout and stderr of one call.

    ``wide=True`` lays tables out for a 200-column terminal so no figure is wrapped or cut;
    otherwise output is laid out as for a pipe (80 columns).
    """
    runner = CliRunner()

    def _run(*args: str, input: str | None = None, wide: bool = False) -> Result:
        env = {"COLUMNS": "200"} if wide else {"COLUMNS": "80"}
        return runner.invoke(cli, list(args), input=input, env=env)

    return _run


@pytest.fixture
def before_decode_path() -> dict[str, Any]:
    """The write-up's 16 GPUs at $5, batch 64, before vLLM's decode path: $9.98 per M tokens,
    measured on GB300 (the leased B300 is estimated from it)."""
    return {
        "model": "kimi-k3",
        "gpu": "gb300",
        "gpus": 16,
        "concurrency": 64,
        "price_per_gpu_hour": 5,
        "as_of": "2026-10-15",
    }


@pytest.fixture
def before_decode_path_flags() -> list[str]:
    """The same scenario as command-line flags."""
    return [
        *("--model", "kimi-k3", "--gpu", "gb300", "--gpus", "16", "--concurrency", "64"),
        *("--price-per-gpu-hour", "5", "--as-of", "2026-10-15"),
    ]


@pytest.fixture
def scenario_file(tmp_path: Path) -> Callable[[Any], Path]:
    """Write a JSON value to a file and return its path."""

    def _write(value: Any) -> Path:
        path = tmp_path / "scenario.json"
        path.write_text(json.dumps(value), encoding="utf-8")
        return path

    return _write


# --- the Slack-free desk: services over a fresh SQLite database, a fixed clock ----------

@pytest.fixture(scope="session")
def migrated_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "leasewise.db"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture
def db_url(migrated_db: Path, tmp_path: Path) -> str:
    """A database of its own for each test, copied from one migrated template."""
    path = tmp_path / "leasewise.db"
    shutil.copy(migrated_db, path)
    return f"sqlite:///{path}"


@pytest.fixture
def make_services(engine: PerfEngine) -> Iterator[Callable[[Settings], Services]]:
    """Services over a database; their engine sources are stopped after the test, so no
    background calibration (after an admin addition) outlives it."""
    sources: list[EngineSource] = []

    def _make(settings: Settings) -> Services:
        _, sessions = open_database(settings.database_url)
        sources.append(EngineSource(engine, sessions))
        return Services(
            settings=settings,
            engines=sources[-1],
            sessions=sessions,
            renderer=Renderer(),
            clock=lambda: NOW,
        )

    yield _make
    for source in sources:
        assert source.stop(), "a background calibration outlived the test"


@pytest.fixture
def desk(db_url: str, make_services: Callable[[Settings], Services]) -> Services:
    return make_services(Settings(database_url=db_url, leasewise_admins=ADMIN))


@pytest.fixture
def lease(desk: Services) -> Callable[..., Reply]:
    """``lease("quote list", user="U1")``: the Reply to ``/lease quote list``, which must
    also render within Slack's limits (the renderer raises otherwise)."""

    def _lease(text: str, *, user: str = "U0SALES", channel: str = "C0DEALS") -> Reply:
        caller = Caller("T0001", channel, user, timezone="Europe/Berlin")
        reply = dispatch.run(desk, caller, text)
        desk.renderer.message(reply.template, **reply.context)
        return reply

    return _lease
