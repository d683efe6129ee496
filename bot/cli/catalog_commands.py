"""``leasewise catalog``: what the engine knows, and how well it predicts it."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from core.perf.accuracy import AccuracyReport, Baseline, GroupAccuracy
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
    def validate(
        as_json: bool = as_json_opt,
        baseline: Path | None = typer.Option(  # noqa: B008 - typer reads options from defaults
            None,
            "--baseline",
            help="Compare with a baseline file; exit 1 when a group regressed.",
            dir_okay=False,
        ),
        write_baseline: Path | None = typer.Option(  # noqa: B008
            None,
            "--write-baseline",
            help="Write today's figures as the baseline file the accuracy test holds.",
            dir_okay=False,
        ),
    ) -> None:
        """How well the engine predicts figures it did not see: by source, GPU family and
        model class, for whole sources, whole deployments and single figures left out."""
        from bot.cli.errors import friendly_errors

        with friendly_errors(lambda: as_json):
            _validate(load_engine(), as_json=as_json, baseline=baseline, write=write_baseline)

    return group


def _print(
    rows: list[dict[str, object]], columns: tuple[str, ...], title: str, as_json: bool
) -> None:
    if as_json:
        typer.echo(json.dumps(rows, indent=2, default=str))
        return
    from bot.cli.printing import say

    say("cli_catalog", title=title, columns=columns, rows=rows)


def _validate(
    engine: PerfEngine, *, as_json: bool, baseline: Path | None, write: Path | None
) -> None:
    from core.perf.accuracy import accuracy, baseline_of, regressions
    from core.perf.validation import checks_of

    checks = checks_of(engine)
    reports = [accuracy(engine.catalog, name, found) for name, found in checks.items()]
    found = None if baseline is None else regressions(reports, _read_baseline(baseline))
    if write is not None:
        _write_baseline(write, baseline_of(reports))
    if as_json:
        report: dict[str, object] = {
            name.replace("-", "_"): _dump(engine, found_checks)
            for name, found_checks in checks.items()
        }
        report["summary"] = {r.check.replace("-", "_"): _summarised(r) for r in reports}
        report["bands"] = dataclasses.asdict(engine.bands)
        if found is not None:
            report["regressions"] = [dataclasses.asdict(r) for r in found]
        typer.echo(json.dumps(report, indent=2))
    else:
        from bot.cli.printing import say

        say(
            "cli_validate",
            sections=[Section(name=r.check, checks=checks[r.check], report=r) for r in reports],
            bands=engine.bands,
            regressions=found,
            baseline=str(baseline) if baseline else None,
        )
        if write is not None:
            groups = sum(1 + sum(map(len, r.groups.values())) for r in reports)
            say("cli_validate_written", path=str(write), groups=groups, checks=list(checks))
    if found:
        raise typer.Exit(1)


def _read_baseline(path: Path) -> Baseline:
    """A baseline file, or a friendly refusal naming what is wrong with it."""
    import yaml
    from pydantic import ValidationError

    from bot.cli.errors import BadInput
    from core.perf.accuracy import Baseline

    example = "e.g. leasewise catalog validate --write-baseline tests/data/validation-baseline.yaml"
    try:
        return Baseline.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except OSError as exc:
        raise BadInput(f"cannot read the baseline {path}: {exc.strerror}", hint=example) from exc
    except (yaml.YAMLError, ValidationError) as exc:
        first = str(exc).strip().splitlines()[0]
        raise BadInput(f"{path} is not a baseline file: {first}", hint=example) from exc


def _write_baseline(path: Path, kept: Baseline) -> None:
    """Written whole to a temporary file and renamed, so a failed write leaves the old one."""
    import os

    import yaml

    from bot.cli.errors import BadInput
    from bot.cli.printing import renderer

    header = renderer().text("cli_validate_baseline", path=str(path))
    body = yaml.safe_dump(
        kept.model_dump(mode="json"), sort_keys=False, allow_unicode=True, width=200
    )
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(f"{header}\n{body}", encoding="utf-8")
        temporary.replace(path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise BadInput(
            f"cannot write the baseline {path}: {exc.strerror}",
            hint="give a path in a directory you can write",
        ) from exc


def _dump(engine: PerfEngine, checks: list[Check]) -> list[dict[str, object]]:
    from core.perf.accuracy import model_class, source_key

    catalog = engine.catalog
    return [
        {
            "measurement": c.measurement.id,
            "source": source_key(c.measurement),
            "gpu_family": catalog.gpus.entries[c.measurement.gpu].family,
            "model_class": model_class(catalog.models.entries[c.measurement.model]),
            "measured_tokens_per_s": round(c.measurement.tokens_per_s, 2),
            "predicted_tokens_per_s": round(c.predicted_tokens_per_s, 2),
            "relative_error": round(c.relative_error, 4),
            "method": c.method,
            "error_band": round(c.error_band, 4),
            "inside_band": c.within_band,
        }
        for c in checks
    ]


def _summarised(report: AccuracyReport) -> dict[str, object]:
    def group(g: GroupAccuracy) -> dict[str, object]:
        return {
            "key": g.key,
            "name": g.name,
            "figures": g.figures,
            "median_error": round(g.median_error, 4),
            "inside_band": g.inside_band,
            "coverage": round(g.coverage, 4),
        }

    return {
        "overall": group(report.overall),
        **{grouping: [group(g) for g in groups] for grouping, groups in report.groups.items()},
    }


@dataclasses.dataclass(frozen=True)
class Section:
    """One kind of check as ``cli_validate.text.j2`` prints it: its figures and summary."""

    name: str
    checks: list[Check]
    report: AccuracyReport
