"""Reading a question (a Scenario or a Traffic) from a JSON file, standard input, or flags.

Flags win over the file, field by field. Both commands read the same way, so both
fail the same way: a bad file or value is a ``BadInput`` or a pydantic
``ValidationError``, which ``errors.friendly_errors`` turns into exit code 2.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from bot.cli.errors import BadInput
from core.scenario import Scenario
from core.traffic import Traffic

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Shape:
    """What one kind of question looks like, for the hints of a bad or missing one."""

    name: str
    noun: str
    json_example: str
    flags_example: str


SCENARIO = Shape(
    "a Scenario",
    "scenario",
    '{"model": "kimi-k3", "gpu": "b300", "gpus": 16, "concurrency": 64}',
    "--model kimi-k3 --gpu b300 --gpus 16",
)
TRAFFIC = Shape(
    "a Traffic",
    "traffic",
    '{"model": "kimi-k3", "output_tokens_per_day": 2e9, "peak_to_average": 3}',
    "--model kimi-k3 --output-tokens-per-day 2e9 --peak-to-average 3",
)
SHAPES: dict[type[BaseModel], Shape] = {Scenario: SCENARIO, Traffic: TRAFFIC}

JSON_EXAMPLE = SCENARIO.json_example


def read_json_value(file: Path, shape: Shape = SCENARIO) -> Any:
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
            hint=f"{shape.name} looks like {shape.json_example}",
        ) from exc


def read_json(file: Path | None, shape: Shape = SCENARIO) -> dict[str, Any]:
    """The JSON object in ``file``; empty when there is none."""
    data = None if file is None else read_json_value(file, shape)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise BadInput(
            f"{shape.name} is a JSON object", field=None, hint=f"e.g. {shape.json_example}"
        )
    return data


def question_from(kind: type[M], file: Path | None, flags: dict[str, Any]) -> M:
    """Merge file fields with the flags given (None means not given); standard input is
    read when nothing else is and it is not a terminal. Raises ValidationError for bad
    values."""
    shape = SHAPES[kind]
    given = {k: v for k, v in flags.items() if v is not None}
    if file is None and not given and not sys.stdin.isatty():
        file = Path("-")
    fields = read_json(file, shape)
    fields.update(given)
    if not fields:
        raise BadInput(
            f"no {shape.noun} given",
            field="model",
            hint=f"e.g. {shape.flags_example}, or --file {shape.noun}.json",
        )
    return kind.model_validate(fields)


def fields_of(kind: type[BaseModel], values: dict[str, Any]) -> dict[str, Any]:
    """The command's parameters that are fields of ``kind`` (a flag is named as its field);
    anything else in ``values`` (other options, names the command imported) is left out."""
    return {k: v for k, v in values.items() if k in kind.model_fields}


def scenario_from(file: Path | None, flags: dict[str, Any]) -> Scenario:
    return question_from(Scenario, file, flags)


def traffic_from(file: Path | None, flags: dict[str, Any]) -> Traffic:
    return question_from(Traffic, file, flags)


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
