"""One-shot commands import only what they use (the seconds are ``bench/startup_bench.py``'s).

Each check runs a fresh interpreter, drives the real CLI in it and reports which
heavy packages ended up in ``sys.modules``: a module-level import anywhere on the
path (a command module, a package it reaches) shows up here, whatever the clock
says on a busy machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine.cache import store_engine
from core.perf.engine import PerfEngine

HEAVY = ["scipy", "matplotlib", "slack_bolt", "slack_sdk", "sqlalchemy", "alembic", "pint"]
"""Packages that cost a tenth of a second or more to import, which no one-shot command
below needs."""

DRIVER = """
import gc, json, sys
argv, watched = json.loads(sys.argv[1]), json.loads(sys.argv[2])
from bot.cli import main
sys.argv = ["leasewise", *argv]
try:
    main()
    code = 0
except SystemExit as exc:
    code = exc.code or 0
loaded = sorted(w for w in watched if any(m == w or m.startswith(w + ".") for m in sys.modules))
print("\\n" + json.dumps({"code": code, "loaded": loaded, "collecting": gc.isenabled()}))
"""


def report(args: list[str], watched: list[str], cache: Path, **env: str) -> dict[str, object]:
    """What ``leasewise <args>`` (the console script's ``main``) did in a fresh process:
    its exit code, which of ``watched`` (packages or modules) it imported, and whether
    the garbage collector was on when it finished."""
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(args), json.dumps(watched)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        stdin=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "HOME": str(cache), "XDG_CACHE_HOME": str(cache), **env},
    )
    lines = done.stdout.strip().splitlines()
    assert lines, done.stderr
    found: dict[str, object] = json.loads(lines[-1])
    return found


def run_cli(args: list[str], watched: list[str], cache: Path) -> tuple[object, object]:
    """Exit code of ``leasewise <args>`` in a fresh process, and which of ``watched`` it
    imported."""
    found = report(args, watched, cache)
    return found["code"], found["loaded"]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache directory of the tests' own, so the engine cache starts empty."""
    return tmp_path_factory.mktemp("xdg-cache")


def test_importing_the_cli_loads_no_heavy_package() -> None:
    probe = "import sys, bot.cli.app; print(sorted({m.split('.')[0] for m in sys.modules}))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout.replace("'", '"'))) & set(HEAVY) == set()


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--version"], 0),
        (["--help"], 0),
        (["parse", "--json", "2B output tokens a day of Kimi K3, peaks 3x"], 0),
        (["health", "--url", "http://127.0.0.1:9/healthz"], 1),  # nothing listens there
    ],
    ids=["version", "help", "parse", "health"],
)
def test_one_shot_commands_load_no_heavy_package(args: list[str], code: int, cache: Path) -> None:
    assert run_cli(args, HEAVY, cache) == (code, [])


def test_parse_reads_the_catalog_without_the_calibrated_engine(cache: Path) -> None:
    """Parsing needs names and aliases, not calibration: the engine and numpy stay out."""
    args = ["parse", "--json", "Kimi K3 on 16x B300, batch 64"]
    assert run_cli(args, ["core.perf", "numpy", "jinja2"], cache) == (0, [])


def test_estimate_json_on_a_warm_cache_loads_neither_scipy_nor_the_slack_stack(
    cache: Path, engine: PerfEngine
) -> None:
    """The engine comes from the cache: fitting (scipy) is for calibration only."""
    store_engine(engine, cache / "leasewise")  # as a first run leaves it
    args = ["estimate", "--json", "--model", "kimi-k3", "--gpu", "b300", "--gpus", "16"]
    assert run_cli(args, [*HEAVY, "jinja2"], cache) == (0, [])


def test_a_one_shot_command_starts_without_the_garbage_collector_and_the_chat_with_it(
    cache: Path, tmp_path: Path
) -> None:
    """Start-up allocates what lives as long as the process; a command that keeps running
    collects garbage as usual."""
    assert report(["--version"], [], cache)["collecting"] is False
    chat = report(["chat"], [], cache, DATABASE_URL=f"sqlite:///{tmp_path / 'chat.db'}")
    assert (chat["code"], chat["collecting"]) == (0, True)
