"""Drive the real ``leasewise`` CLI in-process, as a terminal or a pipe would."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from bot.cli.app import build_cli


@pytest.fixture(scope="session")
def cli() -> typer.Typer:
    return build_cli()


@pytest.fixture
def run(cli: typer.Typer) -> Callable[..., Result]:
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
    """The write-up's 16 GPUs at $5, batch 64, before vLLM's decode path: $9.98 per M tokens."""
    return {
        "model": "kimi-k3",
        "gpu": "b300",
        "gpus": 16,
        "concurrency": 64,
        "price_per_gpu_hour": 5,
        "as_of": "2026-10-15",
    }


@pytest.fixture
def before_decode_path_flags() -> list[str]:
    """The same scenario as command-line flags."""
    return [
        *("--model", "kimi-k3", "--gpu", "b300", "--gpus", "16", "--concurrency", "64"),
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
