"""Reading a Scenario from a JSON file, standard input, or flags (flags win)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from bot.cli.errors import JSON_EXAMPLE, BadInput
from core.scenario import Scenario


def read_json_value(file: Path) -> Any:
    """Parsed JSON from ``file`` ("-" for stdin); None when it is empty."""
    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInput(
            f"cannot read {file}: {exc.strerror}", field="file", hint="check the path"
        ) from exc
    if not text.strip():
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(
            f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
            field=None,
            hint=f"a Scenario looks like {JSON_EXAMPLE}",
        ) from exc


def read_json(file: Path | None) -> dict[str, Any]:
    """The JSON object in ``file``; empty when there is none."""
    data = None if file is None else read_json_value(file)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise BadInput("a Scenario is a JSON object", field=None, hint=f"e.g. {JSON_EXAMPLE}")
    return data


def scenario_from(file: Path | None, flags: dict[str, Any]) -> Scenario:
    """Merge file fields with the flags given; raises ValidationError for bad values."""
    if file is None and not any(v is not None for v in flags.values()) and not sys.stdin.isatty():
        file = Path("-")
    fields = read_json(file)
    fields.update({k: v for k, v in flags.items() if v is not None})
    if not fields:
        raise BadInput(
            "no scenario given",
            field="model",
            hint="e.g. --model kimi-k3 --gpu b300 --gpus 16, or --file scenario.json",
        )
    return Scenario.model_validate(fields)


def scenarios_from(file: Path) -> list[Scenario]:
    """A JSON list of Scenarios (a single object counts as a list of one)."""
    data = read_json_value(file)
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not data or not all(isinstance(d, dict) for d in data):
        raise BadInput(
            "expected a non-empty JSON list of Scenario objects",
            hint=f"e.g. [{JSON_EXAMPLE}, ...]",
        )
    return [Scenario.model_validate(item) for item in data]
