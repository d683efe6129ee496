"""Rich tables for people; the JSON contract is printed by the commands themselves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from core.compare import PriceContrast
from core.scenario import Estimate


class Banded(Protocol):
    """Any figure with a provenance: an Estimate, a sizing option, a frontier point."""

    @property
    def basis(self) -> str: ...

    @property
    def error_band(self) -> float: ...


def band(e: Banded) -> str:
    return "exact" if e.basis == "measured" else f"±{e.error_band:.0%}"


def money(x: float) -> str:
    return f"${x:,.2f}"


def estimate_table(e: Estimate) -> Table:
    t = Table(title=f"{e.model} on {e.gpus}x {e.gpu} ({e.precision}, {e.stack})", show_header=False)
    t.add_column(style="bold")
    t.add_column()
    t.add_row("Concurrency", f"{e.concurrency} (context {e.context_tokens:,} tokens)")
    # Square brackets are Rich markup: escaped, or the basis silently disappears.
    basis = escape(f"[{e.basis}, {band(e)}]")
    t.add_row("Output tokens/s", f"{e.output_tokens_per_s:,.1f}  {basis}")
    t.add_row("Per-user tokens/s", f"{e.per_user_tokens_per_s:,.1f}")
    if e.ttft_s is not None:
        t.add_row("TTFT", f"{e.ttft_s:.2f} s")
    t.add_row("Price", f"{money(e.price_per_gpu_hour)}/GPU-hour")
    t.add_row("Cost", f"{money(e.usd_per_hour)}/hour, {money(e.usd_per_month)}/month")
    if e.contract_usd is not None:
        t.add_row("Contract value", money(e.contract_usd))
    t.add_row(
        "Per M output tokens",
        f"{money(e.usd_per_million_output_tokens)} at {e.utilization:.0%} utilization",
    )
    if e.api_usd_per_million_output_tokens is not None and e.breakeven_utilization is not None:
        verdict = (
            f"breaks even at {e.breakeven_utilization:.0%} utilization"
            if e.breakeven_utilization <= 1
            else "never breaks even, even at 100% utilization"
        )
        t.add_row("Against the API", f"{money(e.api_usd_per_million_output_tokens)}/M: {verdict}")
    if e.api_usd_per_month is not None:
        t.add_row("Same tokens on the API", f"{money(e.api_usd_per_month)}/month")
    m = e.memory
    fit = "fits" if m.fits else f"DOES NOT FIT (needs at least {m.min_gpus or 'more'} GPUs)"
    t.add_row(
        "Memory",
        f"{fit}: {m.per_gpu_needed_gb:,.0f} of {m.per_gpu_available_gb:,.0f} GB per GPU "
        f"(weights {m.weights_gb:,.0f} GB)",
    )
    return t


def print_estimate(console: Console, e: Estimate) -> None:
    console.print(estimate_table(e))
    notes(console, "Assumed", e.assumptions)
    notes(console, "Caveats", e.caveats)
    notes(
        console,
        "Sources",
        [
            f"{s.title} ({s.date})" + (f" [{s.measurement}]" if s.measurement else "")
            for s in e.sources
        ],
    )


def notes(console: Console, title: str, lines: Sequence[str]) -> None:
    if lines:
        console.print(f"[bold]{title}:[/]")
        for line in lines:
            console.print(f"  - {escape(line)}", highlight=False)


def comparison_table(estimates: Sequence[Estimate], title: str) -> Table:
    t = Table(title=title)
    for col in (
        "deployment",
        "stack",
        "conc.",
        "tokens/s",
        "per user",
        "$/GPU-h",
        "$/month",
        "$/M tokens",
        "basis",
    ):
        t.add_column(col, justify="left" if col in ("deployment", "stack", "basis") else "right")
    for e in estimates:
        t.add_row(
            f"{e.gpus}x {e.gpu} {e.precision}",
            e.stack,
            str(e.concurrency),
            f"{e.output_tokens_per_s:,.1f}",
            f"{e.per_user_tokens_per_s:,.1f}",
            money(e.price_per_gpu_hour),
            money(e.usd_per_month),
            money(e.usd_per_million_output_tokens),
            f"{e.basis} {band(e)}",
        )
    return t


def contrast_sentence(c: PriceContrast) -> str:
    cheap, good = c.cheaper_hourly, c.cheaper_per_token
    return (
        f"{cheap.gpus}x {cheap.gpu} at {money(cheap.price_per_gpu_hour)}/GPU-hour is "
        f"{c.hourly_ratio:.1f}x cheaper per hour than {good.gpus}x {good.gpu} at "
        f"{money(good.price_per_gpu_hour)}, but {c.per_token_ratio:.1f}x dearer per token "
        f"({money(cheap.usd_per_million_output_tokens)} vs "
        f"{money(good.usd_per_million_output_tokens)} per M output tokens): "
        f"a lower hourly price is not a lower price per token when throughput collapses."
    )
