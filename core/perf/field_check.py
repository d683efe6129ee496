"""The engine judged on the field's measurements, each deployment held out of its fit.

AIConfigurator's silicon sample (``Catalog.field_measurements``) holds thousands of
measured end-to-end runs. Calibration fits each serving engine to them (``calibration``),
so the check asks each deployment (one model on one GPU, every layout and load it ran)
of the engine refitted without that deployment's rows: a yardstick for how the engine
transfers to deployments nobody gave it. Each row becomes the question a sales engineer
would ask (model, GPU, GPU count, precision, the serving engine by name, concurrency,
prompt and output lengths) and the answer is compared with what was measured:
aggregate output tokens/s, per-user tokens/s (1000 / TPOT) and time to first token,
the first two against the throughput band the answer reports, the third against its
TTFT band.

The TTFT bands come from this check itself: the held-out first-token times are the
engine's transfer errors. Each deployment is judged against the band set from every
other deployment's (split-conformal, as the catalog's bands are set without the
figure's source), never from its own. The bands the engine reports, set from all of
them, are committed data (core/data/ttft-bands.yaml, ``ttft_bands_of``) rather than
worked out at every build, which would cost a field check each time.

A row the engine cannot ask about yet (disaggregated prefill and decode workers, a
layout the question has no way to name, an engine the catalog has no stack for) is
counted under its reason, never dropped. Each comparison keeps the layout the row ran
(tensor, pipeline, attention-data and expert parallelism), which today's question does
not carry, beside the layout the engine chose in its place.

One refit of the field's fits per deployment (a few dozen, each a fraction of a
second); ``held_out=False`` asks the engine as built instead, in about a second.
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from core.catalog import Catalog, Stack
from core.catalog.entries import TtftBand, TtftBands
from core.catalog.field import FieldMeasurement, Worker
from core.errors import InputError
from core.perf.accuracy import GroupBaseline, Regression, worse
from core.perf.engine import ErrorBands, FirstTokenCheck, PerfEngine, PerfQuery, Throughput
from core.perf.validation import ttft_bands_from, without_field_rows

Metric = Literal["aggregate", "per_user", "ttft"]
METRICS: tuple[Metric, ...] = ("aggregate", "per_user", "ttft")
"""Aggregate output tokens/s, per-user tokens/s (1000 / TPOT), time to first token."""

FieldGrouping = Literal["stack", "gpu_family", "model", "layout", "mode"]
FIELD_GROUPINGS: tuple[FieldGrouping, ...] = ("stack", "gpu_family", "model", "layout", "mode")
HELD: tuple[FieldGrouping, ...] = ("gpu_family",)
"""The groupings a baseline holds beside the overall figures (issue 12: per GPU family)."""

LayoutKind = Literal["single GPU", "TP only", "EP", "attention DP", "PP"]

Unexpressed = Literal["disaggregated", "no-stack", "stack-does-not-serve"]
"""Why a row is not a question the engine takes yet, in the order they are tried."""

Unanswered = Literal["does-not-fit"]
"""Why the engine gave no figure for a question it took: it says the replica cannot
hold the model, though the row shows it ran."""


def layout_kind(worker: Worker) -> LayoutKind:
    """The layout a worker ran, by the parallelism that sets it apart: pipeline stages
    first, then data-parallel attention, then expert-parallel MoE, then tensor."""
    if worker.pp > 1:
        return "PP"
    if worker.attention_dp > 1:
        return "attention DP"
    if worker.moe_ep > 1:
        return "EP"
    return "TP only" if worker.tp > 1 else "single GPU"


def decoding_worker(row: FieldMeasurement) -> Worker:
    """The worker whose layout sets the row's decode speed: the aggregated one, else the
    decode pool's."""
    worker = row.worker("aggregated") or row.worker("decode")
    assert worker is not None  # FieldMeasurement checks its roles match its mode
    return worker


def family_stack(catalog: Catalog, row: FieldMeasurement) -> Stack | None:
    """The catalog stack a question naming the row's serving engine gets ("vLLM",
    "SGLang", "TensorRT-LLM"), found the way a typed name is; None when there is none."""
    try:
        return catalog.stacks.get(row.backend)
    except InputError:
        return None


def question(catalog: Catalog, row: FieldMeasurement) -> PerfQuery | Unexpressed:
    """The question a sales engineer would ask about the row, or why it cannot be asked.

    The stack is the engine's family stack (the row's own build is one the catalog
    never calibrated); no layout (the engine picks the best its stack deploys, as it
    does for a sales engineer, attention data parallelism included); no speculative
    decoding (the sample records none); the KV cache the stack keeps (the sample does
    not say); concurrency is the row's closed-loop client count, which is its batch in
    all but a few dozen rows.
    """
    worker = decoding_worker(row)
    if row.mode == "disagg":
        return "disaggregated"
    stack = family_stack(catalog, row)
    if stack is None:
        return "no-stack"
    if not stack.serves(model=row.model, gpu=row.gpu, precision=row.precision):
        return "stack-does-not-serve"
    return PerfQuery(
        model=row.model,
        gpu=row.gpu,
        gpus=worker.gpus,
        precision=row.precision,
        stack=stack.id,
        concurrency=row.concurrency,
        input_tokens=row.input_tokens,
        output_tokens=row.output_tokens,
    )


@dataclass(frozen=True)
class FieldComparison:
    """One field row, the question it became, and the engine's answer to it."""

    row: FieldMeasurement
    query: PerfQuery
    answer: Throughput
    assumed_parallelism: str
    """The layout the engine modelled in place of the row's (its stack's parallelism)."""
    ttft_band: float | None = None
    """The TTFT band the row is judged against: set without its deployment's first-token
    times (None: the band the answer reports)."""

    @property
    def layout(self) -> Worker:
        """The layout the row ran: the information today's question does not carry."""
        return decoding_worker(self.row)

    @property
    def unanswered(self) -> Unanswered | None:
        return None if self.answer.holds_model else "does-not-fit"

    def measured(self, metric: Metric) -> float:
        if metric == "aggregate":
            return self.row.output_tokens_per_s
        if metric == "per_user":
            return self.row.per_user_tokens_per_s
        return self.row.ttft_s

    def predicted(self, metric: Metric) -> float | None:
        """What the answer says (None when it gives no figure)."""
        if self.unanswered is not None:
            return None
        if metric == "aggregate":
            return self.answer.output_tokens_per_s
        if metric == "per_user":
            return self.answer.per_user_tokens_per_s
        return self.answer.ttft_s

    def relative_error(self, metric: Metric) -> float | None:
        predicted = self.predicted(metric)
        return None if predicted is None else predicted / self.measured(metric) - 1.0

    def band(self, metric: Metric) -> float:
        """The band a metric is judged against: the answer's throughput band, or for time
        to first token its TTFT band."""
        if metric != "ttft":
            return self.answer.error_band
        if self.ttft_band is not None:
            return self.ttft_band
        found = self.answer.ttft_error_band
        return self.answer.error_band if found is None else found

    def inside_band(self, metric: Metric) -> bool:
        """Whether the band the answer reports holds the measurement (never, unanswered)."""
        error = self.relative_error(metric)
        return error is not None and abs(error) <= self.band(metric)


@dataclass(frozen=True)
class Unasked:
    """A field row the engine cannot be asked about yet, and why."""

    row: FieldMeasurement
    reason: Unexpressed

    @property
    def layout(self) -> Worker:
        return decoding_worker(self.row)


@dataclass(frozen=True)
class MetricAccuracy:
    """One metric over one group's questions.

    ``asked`` counts every question, unanswered ones too; the median is over the
    answered; coverage counts an unanswered question as outside its band (it
    reported no figure to hold)."""

    asked: int
    answered: int
    median_error: float | None
    """The median |relative error| (None: nothing answered)."""
    median_signed_error: float | None
    """The median relative error, signed: above 0 the engine over-predicts."""
    inside_band: int

    @property
    def coverage(self) -> float:
        return self.inside_band / self.asked


@dataclass(frozen=True)
class FieldGroup:
    """A group of field rows: how many, how many could not be asked, and the accuracy
    of the rest per metric (empty when none could be asked)."""

    key: str
    name: str
    rows: int
    unasked: int
    unanswered: int
    metrics: Mapping[Metric, MetricAccuracy]
    median_band: float | None
    """The median throughput band the answers reported (None: none asked): what the
    throughput figures' coverage is of."""
    median_ttft_band: float | None = None
    """The median TTFT band the rows were judged against (None: none asked)."""


@dataclass(frozen=True)
class FieldReport:
    """The whole field check: every comparison, every row left unasked, and their
    accuracy overall and by stack, GPU family, model, layout and mode."""

    held_out: bool
    """Each deployment judged by the engine refitted without its rows (else as built)."""
    comparisons: tuple[FieldComparison, ...]
    unasked: tuple[Unasked, ...]
    overall: FieldGroup
    groups: Mapping[FieldGrouping, tuple[FieldGroup, ...]]
    stacks: Mapping[str, str]
    """Each serving engine the rows name -> the catalog stack its questions asked."""

    @property
    def rows(self) -> int:
        return len(self.comparisons) + len(self.unasked)

    @property
    def unasked_by_reason(self) -> dict[Unexpressed, int]:
        return dict(Counter(u.reason for u in self.unasked).most_common())

    @property
    def unanswered_by_reason(self) -> dict[Unanswered, int]:
        found = Counter(c.unanswered for c in self.comparisons if c.unanswered is not None)
        return dict(found.most_common())


def compare(engine: PerfEngine, row: FieldMeasurement, query: PerfQuery) -> FieldComparison:
    return FieldComparison(
        row=row,
        query=query,
        answer=engine.throughput(query),
        assumed_parallelism=engine.hardware(query).parallelism,
    )


def field_check(
    engine: PerfEngine,
    rows: Iterable[FieldMeasurement] | None = None,
    *,
    held_out: bool = True,
) -> FieldReport:
    """Every field row (the catalog's, unless ``rows`` says) asked of ``engine``.

    ``held_out``: each deployment's rows (one model on one GPU) are asked of the engine
    refitted without them, so a figure is judged by what the rest of the field taught
    the engine, and its first token by the TTFT band the other deployments' first-token
    times in this check set (a check of a few rows sets none: the answer's band stands);
    otherwise the engine as built answers, having fitted them, with its own bands.
    """
    catalog = engine.catalog
    compared: list[FieldComparison] = []
    unasked: list[Unasked] = []
    stacks: dict[str, str] = {}
    asked_rows: dict[tuple[str, str], list[tuple[FieldMeasurement, PerfQuery]]] = defaultdict(list)
    for row in catalog.field_measurements() if rows is None else rows:
        asked = question(catalog, row)
        if isinstance(asked, PerfQuery):
            stacks[row.backend] = asked.stack
            asked_rows[deployment_of(row)].append((row, asked))
        else:
            unasked.append(Unasked(row, asked))
    every: dict[tuple[str, str], set[str]] = defaultdict(set)
    if held_out:
        for row in catalog.field_measurements():
            every[deployment_of(row)].add(row.id)
    for key, pairs in asked_rows.items():
        judge = without_field_rows(engine, every[key]) if held_out else engine
        compared.extend(compare(judge, row, query) for row, query in pairs)
    if held_out:
        compared = _judged_without_own_first_tokens(catalog, compared)
    if not compared and not unasked:
        raise ValueError("no field rows to check")
    keyers = _keyers(catalog)
    groups: dict[FieldGrouping, tuple[FieldGroup, ...]] = {}
    for grouping in FIELD_GROUPINGS:
        key_of, name_of = keyers[grouping]
        mine: dict[str, list[FieldComparison]] = defaultdict(list)
        left: dict[str, list[Unasked]] = defaultdict(list)
        for c in compared:
            mine[key_of(c.row)].append(c)
        for u in unasked:
            left[key_of(u.row)].append(u)
        groups[grouping] = tuple(
            summarise(key, name_of(key), mine[key], left[key]) for key in sorted({*mine, *left})
        )
    return FieldReport(
        held_out=held_out,
        comparisons=tuple(compared),
        unasked=tuple(unasked),
        overall=summarise("overall", "overall", compared, unasked),
        groups=groups,
        stacks=dict(sorted(stacks.items())),
    )


def _judged_without_own_first_tokens(
    catalog: Catalog, compared: Sequence[FieldComparison]
) -> list[FieldComparison]:
    """Each comparison with the TTFT band its question would carry had the field never
    measured its deployment (None when too few other first-token times set one: the
    answer's own band stands)."""
    checks = ttft_checks_of(catalog, compared)
    deployments = {deployment_of(c.row) for c in compared}
    bands = {key: ttft_bands_without(catalog, checks, key) for key in deployments}

    def band(c: FieldComparison) -> float | None:
        found = bands[deployment_of(c.row)]
        return found.ttft_by_engine.get(catalog.stacks.entries[c.query.stack].engine, found.ttft)

    return [replace(c, ttft_band=band(c)) for c in compared]


def ttft_bands_without(
    catalog: Catalog, checks: Iterable[FirstTokenCheck], deployment: tuple[str, str]
) -> ErrorBands:
    """The TTFT bands set from every first-token time but ``deployment``'s, at the
    catalog's quantile and floor (only the TTFT fields are set)."""
    constants = catalog.engine
    return ttft_bands_from(
        (c for c in checks if c.deployment != deployment),
        quantile=constants.error_band_quantile,
        floor=constants.error_band_floor,
    )


def ttft_checks_of(
    catalog: Catalog, compared: Iterable[FieldComparison]
) -> tuple[FirstTokenCheck, ...]:
    """The answered first-token times as checks, each under the serving engine its
    question's stack runs."""
    return tuple(
        FirstTokenCheck(
            figure=c.row.id,
            deployment=deployment_of(c.row),
            serving_engine=catalog.stacks.entries[c.query.stack].engine,
            relative_error=error,
        )
        for c in compared
        if (error := c.relative_error("ttft")) is not None
    )


TTFT_METHOD = (
    "the split-conformal quantile of the held-out first-token times' |relative error| "
    "(each model-on-GPU deployment's field rows asked of the engine refitted without "
    "them), one band per serving engine the field measured and one over every engine"
)


def ttft_bands_of(
    catalog: Catalog, report: FieldReport, *, field_data: str, command: str, computed: dt.date
) -> TtftBands:
    """The TTFT bands the engine reports, as core/data/ttft-bands.yaml keeps them: set
    from every held-out first-token time of the whole field, one band per serving engine
    and one over them all, at the catalog's quantile and floor.

    The roofline's first token is queueing plus prefill, which miss by causes of their
    own (how a harness keeps its clients in step, a scheduler's prefill policy), so it
    carries a band of its own rather than the decode step's.

    Raises:
        ValueError: the report is not the held-out check of every field row (bands set
            from rows the engine fitted, or from some rows only, would not be these).
    """
    if not report.held_out or report.rows != len(catalog.field_measurements()):
        raise ValueError("the TTFT bands are set from the held-out check of every field row")
    checks = ttft_checks_of(catalog, report.comparisons)
    constants = catalog.engine
    found = ttft_bands_from(
        checks, quantile=constants.error_band_quantile, floor=constants.error_band_floor
    )
    if found.ttft is None:
        raise ValueError("too few first-token times to set a TTFT band")
    counted = Counter(c.serving_engine for c in checks)
    return TtftBands(
        quantile=constants.error_band_quantile,
        floor=constants.error_band_floor,
        overall=TtftBand(band=round(found.ttft, 4), first_token_times=len(checks)),
        by_serving_engine={
            name: TtftBand(band=round(band, 4), first_token_times=counted[name])
            for name, band in found.ttft_by_engine.items()
        },
        method=TTFT_METHOD,
        field_data=field_data,
        command=command,
        computed=computed,
    )


def deployment_of(row: FieldMeasurement) -> tuple[str, str]:
    """What the field check holds out together: one model on one GPU, every layout,
    stack and load it ran (what a sales engineer asks about a deployment nobody measured)."""
    return row.model, row.gpu


Keyer = tuple[Callable[[FieldMeasurement], str], Callable[[str], str]]


def _keyers(catalog: Catalog) -> dict[FieldGrouping, Keyer]:
    """Per grouping: a row's group key, and the group's name as people say it."""
    models = catalog.models.entries

    def same(key: str) -> str:
        return key

    return {
        "stack": (lambda r: r.backend, same),
        "gpu_family": (lambda r: catalog.gpus.entries[r.gpu].family, same),
        "model": (lambda r: r.model, lambda key: models[key].name),
        "layout": (lambda r: layout_kind(decoding_worker(r)), same),
        "mode": (lambda r: r.mode, same),
    }


def summarise(
    key: str, name: str, compared: Sequence[FieldComparison], unasked: Sequence[Unasked]
) -> FieldGroup:
    """One group's figures from its comparisons and the rows it could not ask."""
    metrics: dict[Metric, MetricAccuracy] = {}
    if compared:
        for metric in METRICS:
            errors = [e for c in compared if (e := c.relative_error(metric)) is not None]
            metrics[metric] = MetricAccuracy(
                asked=len(compared),
                answered=len(errors),
                median_error=statistics.median(map(abs, errors)) if errors else None,
                median_signed_error=statistics.median(errors) if errors else None,
                inside_band=sum(c.inside_band(metric) for c in compared),
            )
    return FieldGroup(
        key=key,
        name=name,
        rows=len(compared) + len(unasked),
        unasked=len(unasked),
        unanswered=sum(c.unanswered is not None for c in compared),
        metrics=metrics,
        median_band=statistics.median(c.answer.error_band for c in compared) if compared else None,
        median_ttft_band=statistics.median(c.band("ttft") for c in compared) if compared else None,
    )


# --- the baseline a change to the engine is held to ------------------------------------------


class MetricBaseline(BaseModel):
    """One metric as a field baseline keeps it: overall and per GPU family."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    overall: GroupBaseline
    gpu_family: tuple[GroupBaseline, ...] = ()


class FieldBaseline(BaseModel):
    """The field check's accuracy a change to the engine is held to.

    ``rows`` is how many field rows the figures cover (every row the catalog holds, as
    written by ``catalog validate --field``), ``asked`` how many became questions.
    Groups keep ``figures`` as the questions asked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rows: int = Field(ge=1)
    asked: int = Field(ge=0)
    metrics: dict[Metric, MetricBaseline]


def field_baseline_of(report: FieldReport) -> FieldBaseline:
    """The report as a baseline (errors and coverage to four decimals)."""

    def kept(g: FieldGroup, metric: Metric) -> GroupBaseline | None:
        found = g.metrics.get(metric)
        if found is None or found.median_error is None:
            return None
        return GroupBaseline(
            key=g.key,
            name=g.name,
            figures=found.asked,
            median_error=round(found.median_error, 4),
            coverage=round(found.coverage, 4),
        )

    metrics: dict[Metric, MetricBaseline] = {}
    for metric in METRICS:
        overall = kept(report.overall, metric)
        if overall is None:
            continue
        families = (kept(g, metric) for g in report.groups["gpu_family"])
        metrics[metric] = MetricBaseline(
            overall=overall, gpu_family=tuple(g for g in families if g is not None)
        )
    return FieldBaseline(
        rows=report.rows,
        asked=len(report.comparisons),
        metrics=metrics,
    )


def field_regressions(report: FieldReport, baseline: FieldBaseline) -> list[Regression]:
    """Every metric's overall figures and GPU families that regressed from ``baseline``,
    by the rule the catalog's checks are held to. A family the baseline does not know,
    or one that no longer has answered questions, is not a regression."""
    found: list[Regression] = []
    for metric, kept in baseline.metrics.items():
        pairs: list[tuple[Literal["overall", "gpu_family"], FieldGroup, GroupBaseline]] = [
            ("overall", report.overall, kept.overall)
        ]
        known = {g.key: g for g in kept.gpu_family}
        pairs += [
            ("gpu_family", g, known[g.key]) for g in report.groups["gpu_family"] if g.key in known
        ]
        for grouping, now, then in pairs:
            accuracy = now.metrics.get(metric)
            if accuracy is None or accuracy.median_error is None:
                continue
            found += [
                Regression(f"field {metric}", grouping, now.name, measure, was, is_now)
                for measure, was, is_now in worse(accuracy.median_error, accuracy.coverage, then)
            ]
    return found
