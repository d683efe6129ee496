"""Bad input becomes one friendly line (or one JSON object) and exit code 2, never a traceback."""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NoReturn

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape

from core.errors import CatalogError, InputError
from core.scenario import Scenario

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
}
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
"""Names people reach for that are not Scenario fields, and the field they mean."""
JSON_EXAMPLE = '{"model": "kimi-k3", "gpu": "b300", "gpus": 16, "concurrency": 64}'


class BadInput(Exception):
    """Input the CLI itself rejects (unreadable file, malformed JSON)."""

    def __init__(self, message: str, *, field: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.message, self.field, self.hint = message, field, hint


def closest_field(name: str) -> str | None:
    """The Scenario field a mistyped or borrowed name most likely meant."""
    if name in FIELD_SYNONYMS:
        return FIELD_SYNONYMS[name]
    close = difflib.get_close_matches(name, list(Scenario.model_fields), n=1)
    return close[0] if close else None


def from_validation(exc: ValidationError) -> BadInput:
    """The first problem pydantic found, in words a sales engineer can act on.

    A misspelt field shows up twice (unknown under the typed name, missing under the
    right one); the unknown name is what the user typed, so it is the one reported.
    """
    first = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")[0]
    field = ".".join(str(p) for p in first["loc"]) or None
    kind = first["type"]
    if kind == "missing":
        message = f"{field} is required"
    elif kind == "extra_forbidden":
        close = closest_field(field or "")
        suggestion = f"did you mean {close}? " if close else ""
        return BadInput(
            f"unknown field {field!r}",
            field=field,
            hint=f"{suggestion}fields: {', '.join(Scenario.model_fields)}",
        )
    else:
        given = first.get("input")
        message = f"{field}: {first['msg'].lower()}" + (
            f" (got {given!r})" if given is not None and not isinstance(given, dict) else ""
        )
    example = EXAMPLES.get(field or "")
    return BadInput(message, field=field, hint=f"e.g. {example}" if example else None)


def fail(problem: BadInput | InputError, *, as_json: bool, console: Console) -> NoReturn:
    if as_json:
        typer.echo(
            json.dumps({"error": problem.message, "field": problem.field, "hint": problem.hint})
        )
    else:
        # The user's own text is echoed back: escape it, and keep it on one line.
        hint = f" ({problem.hint})" if problem.hint else ""
        console.print(
            f"[bold red]Error:[/] {escape(problem.message + hint)}",
            highlight=False,
            soft_wrap=True,
        )
    raise typer.Exit(EXIT_BAD_INPUT)


@contextmanager
def friendly_errors(as_json: Callable[[], bool], console: Console) -> Iterator[None]:
    """Turn the product's own errors into exit 2; anything else is a bug and stays loud."""
    try:
        yield
    except ValidationError as exc:
        fail(from_validation(exc), as_json=as_json(), console=console)
    except (InputError, BadInput) as exc:
        fail(exc, as_json=as_json(), console=console)
    except CatalogError as exc:
        fail(
            BadInput(str(exc), field=exc.field, hint="fix the data file named above"),
            as_json=as_json(),
            console=console,
        )
