"""Bad input becomes one friendly line (or one JSON object) and exit code 2, never a traceback."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, NoReturn

import typer
from pydantic import BaseModel, ValidationError

from core.errors import CatalogError, InputError
from core.scenario import Scenario
from core.traffic import Traffic
from storage.errors import StorageError

if TYPE_CHECKING:
    from rich.console import Console

EXIT_BAD_INPUT = 2

EXAMPLES: dict[str, str] = {
    "model": "--model kimi-k3",
    "gpu": "--gpu b300",
    "gpus": "--gpus 16",
    "precision": "--precision mxfp4",
    "stack": "--stack vllm-k3-decode",
    "as_of": "--as-of 2026-10-17",
    "concurrency": "--concurrency 64",
    "input_tokens": "--input-tokens 800",
    "output_tokens": "--output-tokens 400",
    "reasoning_tokens": "--reasoning-tokens 2000",
    "context_tokens": "--context-tokens 32000",
    "spec_decode_acceptance": "--spec-decode-acceptance 1.5",
    "price_per_gpu_hour": "--price-per-gpu-hour 5",
    "utilization": "--utilization 0.6 (a fraction in (0, 1])",
    "api_price_per_million_output": "--api-price-per-million-output 15",
    "api_price_per_million_input": "--api-price-per-million-input 3",
    "term_months": "--term-months 36",
    "output_tokens_per_day": "--output-tokens-per-day 2e9",
    "requests_per_day": "--requests-per-day 100000 --output-tokens 500",
    "requests_per_hour": "--requests-per-hour 5000 --output-tokens 500",
    "requests_per_minute": "--requests-per-minute 80 --output-tokens 500",
    "peak_to_average": "--peak-to-average 3 (peak over average, at least 1)",
    "min_per_user_tokens_per_s": "--min-per-user-tokens-per-s 30",
    "max_ttft_s": "--max-ttft-s 2 --input-tokens 800",
    "monthly_growth": "--monthly-growth 0.1 (10% a month)",
    "prices": "--price b300=5 --price h200=3.5",
    "planned_utilization": "--planned-utilization 0.8 (a fraction in (0, 1])",
}
EXAMPLES_BY_INPUT: dict[str, dict[str, str]] = {
    "Traffic": {
        "gpus": "--gpu b300 --gpu h200",
        "term_months": "--term-months 36 (0, 12, 24 or 36)",
    },
}
"""Where a field reads differently in one kind of input (Traffic's gpus are names, not a count)."""
FIELD_SYNONYMS: dict[str, str] = {
    "gpu_count": "gpus",
    "num_gpus": "gpus",
    "n_gpus": "gpus",
    "gpu_type": "gpu",
    "batch": "concurrency",
    "batch_size": "concurrency",
    "price": "price_per_gpu_hour",
    "usd_per_gpu_hour": "price_per_gpu_hour",
    "quantization": "precision",
    "date": "as_of",
}
"""Names people reach for that are not input fields, and the field they mean."""
INPUTS: dict[str, type[BaseModel]] = {"Scenario": Scenario, "Traffic": Traffic}
"""The inputs the CLI validates, by the name pydantic gives their errors."""


class BadInput(Exception):
    """Input the CLI itself rejects (unreadable file, malformed JSON)."""

    def __init__(self, message: str, *, field: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.message, self.field, self.hint = message, field, hint


def closest_field(name: str, fields: list[str] | None = None) -> str | None:
    """The field (of Scenario unless ``fields`` says otherwise) a mistyped or borrowed
    name most likely meant."""
    fields = list(Scenario.model_fields) if fields is None else fields
    if FIELD_SYNONYMS.get(name) in fields:
        return FIELD_SYNONYMS[name]
    close = difflib.get_close_matches(name, fields, n=1)
    return close[0] if close else None


def named_field(message: str, fields: list[str]) -> str | None:
    """The first field a sentence names ("requests_per_day" or "requests per day"):
    a check across fields has no location of its own, but its message names the culprit."""
    alternatives = "|".join(f.replace("_", "[_ ]") for f in sorted(fields, key=len, reverse=True))
    found = re.search(rf"(?<!\w)({alternatives})(?!\w)", message)
    return found.group(1).replace(" ", "_") if found else None


def from_validation(exc: ValidationError) -> BadInput:
    """The first problem pydantic found, in words a sales engineer can act on.

    A misspelt field shows up twice (unknown under the typed name, missing under the
    right one); the unknown name is what the user typed, so it is the one reported.
    """
    fields = list(INPUTS.get(exc.title, Scenario).model_fields)
    first = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")[0]
    field = ".".join(str(p) for p in first["loc"]) or None
    kind = first["type"]
    if kind == "missing":
        message = f"{field} is required"
    elif kind == "extra_forbidden":
        close = closest_field(field or "", fields)
        suggestion = f"did you mean {close}? " if close else ""
        return BadInput(
            f"unknown field {field!r}",
            field=field,
            hint=f"{suggestion}fields: {', '.join(fields)}",
        )
    elif field is None:
        message = str(first["msg"]).removeprefix("Value error, ")
        field = named_field(message, fields)
    else:
        given = first.get("input")
        message = f"{field}: {first['msg'].lower()}" + (
            f" (got {given!r})" if given is not None and not isinstance(given, dict) else ""
        )
    top = (field or "").split(".")[0]  # prices.b300 -> prices
    example = EXAMPLES_BY_INPUT.get(exc.title, {}).get(top) or EXAMPLES.get(top)
    return BadInput(message, field=field, hint=f"e.g. {example}" if example else None)


def fail(
    problem: BadInput | InputError | StorageError,
    *,
    as_json: bool,
    console: Console | None = None,
) -> NoReturn:
    """One JSON object, or one line from ``cli_error.text.j2``; then exit 2.

    ``console`` is accepted for callers that still print with Rich; the line is
    plain text either way, the user's own text echoed verbatim on one line.
    """
    if as_json:
        typer.echo(
            json.dumps({"error": problem.message, "field": problem.field, "hint": problem.hint})
        )
    else:
        from bot.cli.printing import say

        say("cli_error", message=problem.message, hint=problem.hint)
    raise typer.Exit(EXIT_BAD_INPUT)


@contextmanager
def friendly_errors(
    as_json: Callable[[], bool], console: Console | None = None
) -> Iterator[None]:
    """Turn the product's own errors into exit 2; anything else is a bug and stays loud."""
    try:
        yield
    except ValidationError as exc:
        fail(from_validation(exc), as_json=as_json(), console=console)
    except (InputError, BadInput, StorageError) as exc:
        fail(exc, as_json=as_json(), console=console)
    except CatalogError as exc:
        fail(
            BadInput(str(exc), field=exc.field, hint="fix the data file named above"),
            as_json=as_json(),
            console=console,
        )
