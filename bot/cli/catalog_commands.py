"""``leasewise catalog``: what the engine knows, and how well it predicts it."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from core.perf.engine import PerfEngine
    from core.perf.validation import Check


def build(load_engine: Callable[[], PerfEngine]) -> typer.Typer:
    group = typer.Typer(
        help="List the catalog, or validate the engine against it.", no_args_is_help=True
    )
    as_json_opt = typer.Option(False, "--json", help="Print JSON.")

    @group.command("models")
    def models(as_json: bool = as_json_opt) -> None:
        """Models with their architecture figures."""
        from core.catalog import load_catalog

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
        from core.catalog import load_catalog

        rows = [g.model_dump(mode="json") for g in load_catalog().gpus]
        columns = (
            "id",
            "name",
            "family",
            "hbm_gib",
            "hbm_bandwidth_tb_per_s",
            "dense_tflops",
            "scale_up_domain_gpus",
            "scale_out_bandwidth_gb_per_s",
            "usd_per_gpu_hour",
        )
        _print(rows, columns, "GPUs", as_json)

    @group.command("stacks")
    def stacks(as_json: bool = as_json_opt) -> None:
        """Serving stacks and their release dates."""
        from core.catalog import load_catalog

        rows = [s.model_dump(mode="json") for s in load_catalog().stacks]
        _print(rows, ("id", "name", "engine", "released", "models", "gpus"), "Stacks", as_json)

    @group.command("measurements")
    def measurements(as_json: bool = as_json_opt) -> None:
        """Published measurements, as reported, with the tokens/s they imply."""
        from core.catalog import load_catalog

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
        from core.perf.validation import holdout, leave_deployment_out, leave_one_out

        engine = load_engine()
        loo = list(engine.one_out) or leave_one_out(engine.catalog)
        ldo = list(engine.deployment_out) or leave_deployment_out(engine.catalog)
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
        from bot.cli.printing import say

        say(
            "cli_validate",
            checks=[
                _summary("leave-one-out", "each predicted from the rest", loo, banded=False),
                _summary(
                    "leave-deployment-out",
                    "each deployment unmeasured, roofline only",
                    ldo,
                    banded=False,
                ),
                _summary("holdout", "never used in calibration", held, banded=True),
            ],
            bands=engine.bands,
        )

    return group


def _print(
    rows: list[dict[str, object]], columns: tuple[str, ...], title: str, as_json: bool
) -> None:
    if as_json:
        typer.echo(json.dumps(rows, indent=2, default=str))
        return
    from bot.cli.printing import say

    say("cli_catalog", title=title, columns=columns, rows=rows)


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


@dataclasses.dataclass(frozen=True)
class Summary:
    """One validation method's checks and the figures ``cli_validate.text.j2`` words."""

    name: str
    how: str
    checks: list[Check]
    median_error: float | None
    max_error: float | None
    inside_band: int | None
    """Checks whose measurement fell inside the band reported; None where no band applies."""


def _summary(name: str, how: str, checks: list[Check], *, banded: bool) -> Summary:
    import statistics

    errors = [abs(c.relative_error) for c in checks]
    return Summary(
        name=name,
        how=how,
        checks=checks,
        median_error=statistics.median(errors) if errors else None,
        max_error=max(errors) if errors else None,
        inside_band=sum(c.within_band for c in checks) if banded else None,
    )
