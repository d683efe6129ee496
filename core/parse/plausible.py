"""Values no lease question means: named back, never used.

A number that lands in a field far outside anything a customer could mean (a
$2,000,000 GPU-hour, a 5-million-token answer to one request) is a misreading or a
typo; sizing on it would be confidently wrong. Each bound is wide on purpose: it
catches the impossible, not the unusual.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple


class Bound(NamedTuple):
    low: float
    high: float
    what: str
    example: str


BOUNDS: dict[str, Bound] = {
    "price_per_gpu_hour": Bound(0.05, 100.0, "a price per GPU-hour", "'$5/GPU-hour'"),
    "api_price_per_million_output": Bound(0.005, 1000.0, "an API price per million", "'$15/M'"),
    "api_price_per_million_input": Bound(0.0, 1000.0, "an API price per million", "'$3/M input'"),
    "min_per_user_tokens_per_s": Bound(0.5, 5000.0, "a speed per user", "'30 tokens/s per user'"),
    "max_ttft_s": Bound(0.005, 600.0, "a time to first token", "'TTFT under 2 s'"),
    "peak_to_average": Bound(1.0, 50.0, "a peak-to-average ratio", "'peaks 3x the average'"),
    "monthly_growth": Bound(0.0, 3.0, "a monthly growth", "'grows 10% a month'"),
    "output_tokens": Bound(1, 500_000, "output tokens of one request", "'400 output tokens'"),
    "reasoning_tokens": Bound(0, 500_000, "reasoning tokens of one request", "'2k thinking'"),
    "input_tokens": Bound(0, 10_000_000, "input tokens of one request", "'800 input tokens'"),
    "context_tokens": Bound(1, 100_000_000, "a context length", "'128k context'"),
    "concurrency": Bound(1, 1_000_000, "a batch", "'batch 64'"),
    "term_months": Bound(0, 120, "a lease term", "'36-month term'"),
    "utilization": Bound(0.005, 1.0, "a utilization", "'utilization 60%'"),
    "planned_utilization": Bound(0.005, 1.0, "a utilization", "'utilization 60%'"),
    "requests_per_day": Bound(1e-3, 1e12, "requests a day", "'2M requests a day'"),
    "output_tokens_per_day": Bound(1.0, 1e15, "output tokens a day", "'2B output tokens a day'"),
}


def implausible(
    fields: dict[str, Any],
    sources: dict[str, str],
    history: Mapping[str, Sequence[tuple[Any, object]]] | None = None,
) -> list[str]:
    """Drop each field read from prose (``sources``: field -> its words) that is outside
    its bound; say what was dropped and why. A ``key=value`` is meant as written. When the
    field was given a plausible value before (``history``: every value said, in order), that
    one stands: "500 in / 200 out … the 3.2 1b/3b models" keeps 500 and 200."""
    notes: list[str] = []
    for name, said in sources.items():
        bound, value = BOUNDS.get(name), fields.get(name)
        if bound is None or not isinstance(value, int | float):
            continue
        if bound.low <= value <= bound.high:
            continue
        del fields[name]
        earlier = [
            v
            for v, _ in (history or {}).get(name, ())
            if isinstance(v, int | float) and bound.low <= v <= bound.high
        ]
        kept = f"; {_shown(earlier[-1])} said before stands" if earlier else ""
        if earlier:
            fields[name] = earlier[-1]
        notes.append(
            f"'{said}' is not plausible as {bound.what}: not used (e.g. {bound.example}){kept}"
        )
    return notes


def _shown(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:g}"
