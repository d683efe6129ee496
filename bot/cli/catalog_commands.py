"""``leasewise catalog``: what the engine knows, and how well it predicts it."""

from __future__ import annotations

import dataclasses
import json
import statistics
from collections.abc import Callable

import typer
from rich.table import Table

from bot.cli.terminal import make_console
from core.catalog import load_catalog
from core.perf.engine import PerfEngine
from core.perf.validation import Check, holdout, leave_deployment_out, leave_one_out


def build(load_engine: Callable[[], PerfEngine]) -> typer.Typer:
    group = typer.Typer(
        help="List the catalog, or validate the engine against it.", no_args_is_help=True
    )
    as_json_opt = typer.Option(False, "--json", help="Print JSON.")

    @group.command("models")
    def models(as_json: bool = as_json_opt) -> None:
        """Models with their architecture figures."""
        rows = [m.model_dump(mode="json") for m in load_catalog().models]
        columns = (
            "id",
            "name",
            "total_params_b",
            "active_params_b",
            "experts",
            "experts_per_token",
            "attention",
            "kv_bytes_per_token",
            "context_window_tokens",
            "thinking",
        )
        _print(rows, columns, "Models", as_json)

    @group.command("gpus")
    def gpus(as_json: bool = as_json_opt) -> None:
        """GPUs with memory, bandwidth, FLOPS and a default price."""
        rows = [g.model_dump(mode="json") for g in load_catalog().gpus]
        columns = (
            "id",
            "name",
            "hbm_gib",
            "hbm_bandwidth_tb_per_s",
            "dense_tflops",
            "scale_up_domain_gpus",
            "usd_per_gpu_hour",
        )
        _print(rows, columns, "GPUs", as_json)

    @group.command("stacks")
    def stacks(as_json: bool = as_json_opt) -> None:
        """Serving stacks and their release dates."""
        rows = [s.model_dump(mode="json") for s in load_catalog().stacks]
        _print(rows, ("id", "name", "engine", "released", "models", "gpus"), "Stacks", as_json)

    @group.command("measurements")
    def measurements(as_json: bool = as_json_opt) -> None:
        """Published measurements, as reported, with the tokens/s they imply."""
        rows = [
            {**m.model_dump(mode="json"), "tokens_per_s": round(m.tokens_per_s, 1)}
            for m in load_catalog().measurements
        ]
        columns = (
            "id",
            "model",
            "gpu",
            "gpus",
            "stack",
            "concurrency",
            "phase",
            "tokens_per_s",
            "role",
        )
        _print(rows, columns, "Measurements", as_json)

    @group.command("validate")
    def validate(as_json: bool = as_json_opt) -> None:
        """Leave-one-out errors over the calibration set, and errors on the holdouts."""
        engine = load_engine()
        loo = leave_one_out(engine.catalog)
        ldo = leave_deployment_out(engine.catalog)
        held = holdout(engine)
        if as_json:
            report = {
                "leave_one_out": _dump(loo),
                "leave_deployment_out": _dump(ldo),
                "holdout": _dump(held),
                "bands": dataclasses.asdict(engine.bands),
            }
            typer.echo(json.dumps(report, indent=2))
            return
        console = make_console()
        console.print(_checks_table("Leave-one-out (each predicted from the rest)", loo))
        console.print(_summary("leave-one-out", loo, banded=False))
        console.print(
            _checks_table("Leave-deployment-out (each deployment unmeasured, roofline only)", ldo)
        )
        console.print(_summary("leave-deployment-out", ldo, banded=False))
        console.print(_checks_table("Holdout (never used in calibration)", held))
        console.print(_summary("holdout", held, banded=True))
        b = engine.bands
        per_stack = "".join(
            f"; {stack} roofline ±{v:.0%}" for stack, v in sorted(b.model_by_stack.items())
        )
        console.print(
            f"Error bands in use: interpolated ±{b.interpolated:.0%}, anchored ±{b.anchored:.0%}, "
            f"roofline ±{b.model:.0%}{per_stack}"
        )

    return group


def _print(
    rows: list[dict[str, object]], columns: tuple[str, ...], title: str, as_json: bool
) -> None:
    if as_json:
        typer.echo(json.dumps(rows, indent=2, default=str))
        return
    table = Table(title=title)
    for c in columns:
        table.add_column(c)
    for r in rows:
        table.add_row(*(_cell(r.get(c)) for c in columns))
    make_console().print(table)


def _cell(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "any"
    return "" if value is None else str(value)


def _dump(checks: list[Check]) -> list[dict[str, object]]:
    return [
        {
            "measurement": c.measurement.id,
            "measured_tokens_per_s": round(c.measurement.tokens_per_s, 2),
            "predicted_tokens_per_s": round(c.predicted_tokens_per_s, 2),
            "relative_error": round(c.relative_error, 4),
            "method": c.method,
            "error_band": round(c.error_band, 4),
        }
        for c in checks
    ]


def _checks_table(title: str, checks: list[Check]) -> Table:
    table = Table(title=title)
    for col in ("measurement", "measured tok/s", "predicted", "error", "method"):
        table.add_column(col, justify="left" if col in ("measurement", "method") else "right")
    for c in checks:
        table.add_row(
            c.measurement.id,
            f"{c.measurement.tokens_per_s:,.1f}",
            f"{c.predicted_tokens_per_s:,.1f}",
            f"{c.relative_error:+.0%}",
            c.method,
        )
    return table


def _summary(name: str, checks: list[Check], *, banded: bool) -> str:
    if not checks:
        return f"{name}: no measurements"
    errors = [abs(c.relative_error) for c in checks]
    line = (
        f"{name}: {len(checks)} measurements, median |error| {statistics.median(errors):.0%}, "
        f"max {max(errors):.0%}"
    )
    if banded:
        inside = sum(c.within_band for c in checks)
        line += f"; inside the reported band: {inside}/{len(checks)}"
    return line
