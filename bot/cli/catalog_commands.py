"""``leasewise catalog``: what the engine knows, and how well it predicts it."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import typer

if TYPE_CHECKING:
    from pydantic import BaseModel

    from core.catalog.field import Worker
    from core.perf.accuracy import AccuracyReport, GroupAccuracy
    from core.perf.engine import PerfEngine
    from core.perf.field_check import FieldComparison, FieldGroup, FieldReport
    from core.perf.validation import Check

B = TypeVar("B", bound="BaseModel")

BASELINE_EXAMPLE = (
    "e.g. leasewise catalog validate --write-baseline tests/data/validation-baseline.yaml"
)
FIELD_BASELINE_EXAMPLE = (
    "e.g. leasewise catalog validate --field --write-baseline tests/data/field-baseline.yaml"
)
TTFT_BANDS_COMMAND = "leasewise catalog validate --field --write-ttft-bands"


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
        field: bool = typer.Option(
            False,
            "--field",
            help="Judge the engine on the field's measurements instead, each deployment held out.",
        ),
        write_ttft_bands: Path | None = typer.Option(  # noqa: B008
            None,
            "--write-ttft-bands",
            help="With --field: write the TTFT bands the held-out first-token times set "
            "(core/data/ttft-bands.yaml is the packaged file the engine reports).",
            dir_okay=False,
        ),
    ) -> None:
        """How well the engine predicts figures it did not see: by source, GPU family and
        model class, for whole sources, whole deployments and single figures left out.
        With --field: on the field's measured runs, by stack, GPU family, model, layout
        and mode (--baseline and --write-baseline then mean the field's baseline)."""
        from bot.cli.errors import BadInput, friendly_errors

        with friendly_errors(lambda: as_json):
            if not field:
                if write_ttft_bands is not None:
                    raise BadInput(
                        "--write-ttft-bands needs --field: the field's held-out first-token "
                        "times set them",
                        hint=f"e.g. {TTFT_BANDS_COMMAND} core/data/ttft-bands.yaml",
                    )
                _validate(load_engine(), as_json=as_json, baseline=baseline, write=write_baseline)
                return
            _validate_field(
                load_engine(),
                as_json=as_json,
                baseline=baseline,
                write=write_baseline,
                write_ttft_bands=write_ttft_bands,
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


def _validate(
    engine: PerfEngine, *, as_json: bool, baseline: Path | None, write: Path | None
) -> None:
    from core.perf.accuracy import accuracy, baseline_of, regressions
    from core.perf.validation import checks_of

    checks = checks_of(engine)
    reports = [accuracy(engine.catalog, name, found) for name, found in checks.items()]
    from core.perf.accuracy import Baseline

    kept = None if baseline is None else _read_baseline(baseline, Baseline, BASELINE_EXAMPLE)
    found = None if kept is None else regressions(reports, kept)
    if write is not None:
        _write_baseline(write, baseline_of(reports), template="cli_validate_baseline")
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


def _validate_field(
    engine: PerfEngine,
    *,
    as_json: bool,
    baseline: Path | None,
    write: Path | None,
    write_ttft_bands: Path | None = None,
) -> None:
    """The engine on every field row, each deployment asked of the engine refitted without it."""
    from core.perf.field_check import (
        METRICS,
        FieldBaseline,
        field_baseline_of,
        field_check,
        field_regressions,
        ttft_bands_of,
    )

    report = field_check(engine)
    kept = (
        None
        if baseline is None
        else _read_baseline(baseline, FieldBaseline, FIELD_BASELINE_EXAMPLE)
    )
    found = None if kept is None else field_regressions(report, kept)
    written = field_baseline_of(report)
    if write is not None:
        _write_baseline(write, written, template="cli_validate_field_baseline")
    bands = None
    if write_ttft_bands is not None:
        import datetime as dt

        bands = ttft_bands_of(
            engine.catalog,
            report,
            field_data=_field_data_said(engine),
            command=f"{TTFT_BANDS_COMMAND} {write_ttft_bands}",
            computed=dt.date.today(),
        )
        _write_baseline(
            write_ttft_bands,
            bands,
            template="cli_validate_ttft_bands",
            section="ttft_bands",
            what="the TTFT bands",
        )
    if as_json:
        out = _dump_field(engine, report)
        if found is not None:
            out["regressions"] = [dataclasses.asdict(r) for r in found]
        typer.echo(json.dumps(out, indent=2))
    else:
        from bot.cli.printing import say

        say(
            "cli_validate_field",
            report=report,
            metrics=METRICS,
            regressions=found,
            baseline=str(baseline) if baseline else None,
        )
        if write is not None:
            groups = sum(1 + len(m.gpu_family) for m in written.metrics.values())
            checks = [f"field {metric}" for metric in written.metrics]
            say("cli_validate_written", path=str(write), groups=groups, checks=checks)
        if bands is not None:
            say("cli_validate_ttft_bands_written", path=str(write_ttft_bands), bands=bands)
    if found:
        raise typer.Exit(1)


def _field_data_said(engine: PerfEngine) -> str:
    """The field data as their provenance file names them (package, version, date),
    else the folder they were read from."""
    import yaml

    folder = engine.catalog.field_data
    if folder is None:
        return "no field data"
    try:
        source = yaml.safe_load((folder / "provenance.yaml").read_text(encoding="utf-8"))["source"]
        return f"{source['package']} {source['version']} ({source['date']})"
    except (OSError, KeyError, TypeError, yaml.YAMLError):
        return f"{folder.name}/"


def _dump_field(engine: PerfEngine, report: FieldReport) -> dict[str, object]:
    """The field check as JSON: the counts, every group's figures, every comparison with
    the layout the row ran, and every row not asked with its reason."""
    from core.perf.field_check import FIELD_GROUPINGS, METRICS, layout_kind

    families = engine.catalog.gpus.entries

    def worker(w: Worker) -> dict[str, object]:
        return {**w.model_dump(mode="json", exclude={"role"}), "kind": layout_kind(w)}

    def row(c: FieldComparison) -> dict[str, object]:
        r = c.row
        return {
            "id": r.id,
            "model": r.model,
            "gpu": r.gpu,
            "gpu_family": families[r.gpu].family,
            "gpus": c.query.gpus,
            "precision": r.precision,
            "backend": r.backend,
            "stack_asked": c.query.stack,
            "mode": r.mode,
            "input_tokens": r.input_tokens,
            "output_tokens": r.output_tokens,
            "concurrency": r.concurrency,
            "layout": worker(c.layout),
            "assumed_parallelism": c.assumed_parallelism,
            "method": c.answer.method,
            "error_band": round(c.answer.error_band, 4),
            "ttft_error_band": _rounded(c.answer.ttft_error_band),
            "ttft_band_judged": round(c.band("ttft"), 4),
            "unanswered": c.unanswered,
            **{
                metric: {
                    "measured": round(c.measured(metric), 4),
                    "predicted": _rounded(c.predicted(metric)),
                    "relative_error": _rounded(c.relative_error(metric)),
                    "inside_band": c.inside_band(metric),
                }
                for metric in METRICS
            },
        }

    summary: dict[str, object] = {"overall": _field_group(report.overall)}
    summary |= {g: [_field_group(x) for x in report.groups[g]] for g in FIELD_GROUPINGS}
    return {
        "held_out": report.held_out,
        "rows": report.rows,
        "asked": len(report.comparisons),
        "stacks": dict(report.stacks),
        "not_asked": report.unasked_by_reason,
        "unanswered": report.unanswered_by_reason,
        "summary": summary,
        "comparisons": [row(c) for c in report.comparisons],
        "not_asked_rows": [
            {
                "id": u.row.id,
                "reason": u.reason,
                "model": u.row.model,
                "gpu": u.row.gpu,
                "gpus": u.row.gpus,
                "backend": u.row.backend,
                "mode": u.row.mode,
                "layout": worker(u.layout),
                "workers": [{"role": w.role, **worker(w)} for w in u.row.workers],
            }
            for u in report.unasked
        ],
    }


def _field_group(g: FieldGroup) -> dict[str, object]:
    return {
        "key": g.key,
        "name": g.name,
        "rows": g.rows,
        "not_asked": g.unasked,
        "unanswered": g.unanswered,
        "median_band": _rounded(g.median_band),
        "median_ttft_band": _rounded(g.median_ttft_band),
        **{
            metric: {
                "asked": m.asked,
                "answered": m.answered,
                "median_error": _rounded(m.median_error),
                "median_signed_error": _rounded(m.median_signed_error),
                "inside_band": m.inside_band,
                "coverage": round(m.coverage, 4),
            }
            for metric, m in g.metrics.items()
        },
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _read_baseline(path: Path, kind: type[B], example: str) -> B:
    """A baseline file, or a friendly refusal naming what is wrong with it."""
    import yaml
    from pydantic import ValidationError

    from bot.cli.errors import BadInput

    try:
        return kind.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except OSError as exc:
        raise BadInput(f"cannot read the baseline {path}: {exc.strerror}", hint=example) from exc
    except (yaml.YAMLError, ValidationError) as exc:
        first = str(exc).strip().splitlines()[0]
        raise BadInput(f"{path} is not a baseline file: {first}", hint=example) from exc


def _write_baseline(
    path: Path,
    kept: BaseModel,
    *,
    template: str,
    section: str | None = None,
    what: str = "the baseline",
) -> None:
    """Written whole to a temporary file and renamed, so a failed write leaves the old one;
    ``template`` words the comment that heads it, ``section`` names the mapping it is
    kept under (a catalog data file's section)."""
    import os

    import yaml

    from bot.cli.errors import BadInput
    from bot.cli.printing import renderer

    header = renderer().text(template, path=str(path))
    document = kept.model_dump(mode="json")
    body = yaml.safe_dump(
        document if section is None else {section: document},
        sort_keys=False,
        allow_unicode=True,
        width=200,
    )
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(f"{header}\n{body}", encoding="utf-8")
        temporary.replace(path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise BadInput(
            f"cannot write {what} to {path}: {exc.strerror}",
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
