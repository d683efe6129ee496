"""Rich output for ``leasewise size`` and ``leasewise frontier``: tables and sentences."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bot.cli.render import band, money, notes
from core.frontier import FrontierPoint
from core.sizing import Infeasible, Sizing, SizingOption

CONSTRAINT_WORDS = {
    "memory": "memory",
    "per_user_speed": "per-user speed",
    "ttft": "time to first token",
    "scale": "scale (GPUs one quote can lease)",
    "no_stack": "no serving stack",
}


def dollars(x: float) -> str:
    return f"${x:,.0f}"


def deployment(o: SizingOption) -> str:
    return f"{o.replicas} x {o.gpus_per_replica} {o.gpu}"


def traffic_line(s: Sizing) -> str:
    """The traffic as the search resolved it, so a wrong assumption shows up first."""
    per_request = f"{s.output_tokens_per_request:,} visible"
    if s.reasoning_tokens_per_request:
        per_request += f" + {s.reasoning_tokens_per_request:,} reasoning"
    sla = f"at least {s.min_per_user_tokens_per_s:g} tokens/s per user"
    if s.max_ttft_s is not None:
        sla += f", first token within {s.max_ttft_s:g} s"
    growth = f"; growing {s.monthly_growth:.0%} a month" if s.monthly_growth else ""
    return (
        f"{s.model}: {s.requests_per_day:,.0f} requests/day x ({per_request}) tokens = "
        f"{s.output_tokens_per_day:,.0f} output tokens/day incl. reasoning; "
        f"peak {s.peak_output_tokens_per_s:,.0f} tokens/s{growth}. "
        f"SLA: {sla}; peak planned at {s.planned_utilization:.0%} of capacity."
    )


def options_table(options: Sequence[SizingOption], *, total: int) -> Table:
    t = Table(title=f"{len(options)} of {total} options, cheapest first")
    columns = (
        "#",
        "GPUs",
        "stack",
        "batch",
        "tok/s per user",
        "util peak/avg",
        "$/month",
        "$/M tokens",
        "headroom months",
        "next step $/month",
        "basis",
    )
    for col in columns:
        # A narrow terminal folds a long name over two lines rather than cutting it.
        t.add_column(
            col, justify="left" if col in ("GPUs", "stack", "basis") else "right", overflow="fold"
        )
    for rank, o in enumerate(options, 1):
        headroom = "—" if o.months_of_headroom is None else f"{o.months_of_headroom:,.1f}"
        t.add_row(
            str(rank),
            deployment(o),
            o.stack,
            f"{o.concurrency:,}",
            f"{o.per_user_tokens_per_s:,.1f}",
            f"{o.peak_utilization:.0%} / {o.average_utilization:.0%}",
            dollars(o.usd_per_month),
            money(o.usd_per_million_output_tokens),
            headroom,
            f"+{dollars(o.next_step_usd_per_month)}",
            f"{o.basis} {band(o)}",
        )
    return t


def print_infeasible(console: Console, infeasible: Infeasible) -> None:
    words = CONSTRAINT_WORDS.get(infeasible.binding_constraint, infeasible.binding_constraint)
    console.print(
        f"[bold]No option meets this ask.[/] Binding constraint: {escape(words)}: "
        f"{escape(infeasible.explanation)}.",
        highlight=False,
        soft_wrap=True,
    )
    console.print(
        f"Nearest ask that works: {escape(infeasible.nearest_feasible_ask)}",
        highlight=False,
        soft_wrap=True,
    )


def print_sizing(console: Console, s: Sizing, *, top: int) -> None:
    # Sentences are not wrapped by Rich: the terminal wraps them, a pipe or a file keeps them whole.
    console.print(escape(traffic_line(s)), highlight=False, soft_wrap=True)
    if s.infeasible is not None:
        print_infeasible(console, s.infeasible)
        notes(console, "Assumed", s.assumptions)
        return
    shown = s.options[:top]
    console.print(options_table(shown, total=len(s.options)))
    for rank, o in enumerate(shown, 1):
        if o.why_not:
            console.print(
                f"  #{rank} {escape(deployment(o))}: {escape(o.why_not)}",
                highlight=False,
                soft_wrap=True,
            )
    if s.api is not None:
        console.print(escape(s.api.verdict), highlight=False, soft_wrap=True)
    else:
        console.print(
            "No API price known for this model: give --api-price-per-million-output to compare.",
            highlight=False,
            soft_wrap=True,
        )
    notes(console, "Assumed", s.assumptions)
    if shown:
        notes(console, f"Caveats of #1 ({deployment(shown[0])})", shown[0].caveats)


def frontier_table(points: Sequence[FrontierPoint], title: str) -> Table:
    t = Table(title=title)
    columns = (
        "batch",
        "tokens/s",
        "tokens/s per GPU",
        "tokens/s per user",
        "TTFT",
        "fits memory",
        "basis",
    )
    for col in columns:
        t.add_column(col, justify="left" if col == "basis" else "right")
    for p in points:
        t.add_row(
            f"{p.concurrency:,}",
            f"{p.output_tokens_per_s:,.1f}",
            f"{p.output_tokens_per_s_per_gpu:,.1f}",
            f"{p.per_user_tokens_per_s:,.1f}",
            "—" if p.ttft_s is None else f"{p.ttft_s:.2f} s",
            "yes" if p.fits_memory else "no",
            f"{p.basis} {band(p)}",
        )
    return t
