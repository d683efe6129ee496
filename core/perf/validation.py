"""How wrong the engine is on figures it did not see, and the bands that follows.

Three ways of not seeing, each predicted through the cascade a user's question goes
through: leave-one-out (one figure, its deployment's others still measured: the case
of an interpolated or anchored answer), leave-deployment-out (the whole deployment:
a roofline answer) and leave-one-source-out (every figure one publication or dataset
gave, the way the field validates a performance model: a source shares a harness and
a way of counting, so figures from it flatter each other). Their errors set the bands
answers carry; each check keeps the band it would have been given had its source
never been published, which is what a test holds to 85% coverage. Holdouts never
enter calibration nor set a band.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from core.catalog import Catalog, Measurement
from core.perf.accuracy import source_key
from core.perf.calibration import Calibration, calibrate, fit_field
from core.perf.engine import Check, ErrorBands, FirstTokenCheck, PerfEngine, query_for

__all__ = [
    "CHECKS",
    "Check",
    "Refits",
    "build_engine",
    "checks_of",
    "ttft_bands_from",
    "with_ttft_bands",
    "holdout",
    "leave_deployment_out",
    "leave_one_out",
    "leave_source_out",
    "query_for",
]

NO_BANDS = ErrorBands(interpolated=0.0, anchored=0.0, model=0.0)


@dataclass
class Refits:
    """Calibrations with figures left out, each fitted once, starting from the full fit.

    Leave-one-out, leave-deployment-out and leave-one-source-out often leave out the
    same figures (a deployment measured once, a source that published one
    deployment): each set is fitted once. A refit fits only the stacks and models of
    the figures it will predict, which is all their answers read.
    """

    catalog: Catalog
    full: Calibration
    _fitted: dict[tuple[frozenset[str], ...], Calibration] = field(
        default_factory=dict, init=False, repr=False
    )

    def without(self, left_out: frozenset[str], *, predicting: Sequence[Measurement]) -> PerfEngine:
        """The engine that never saw the figures ``left_out`` (ids), fitted as far as
        predicting ``predicting`` needs."""
        if not left_out:
            return PerfEngine(catalog=self.catalog, calibration=self.full, bands=NO_BANDS)
        stacks = frozenset(m.stack for m in predicting)
        models = frozenset(m.model for m in predicting)
        key = (left_out, stacks, models)
        if key not in self._fitted:
            self._fitted[key] = calibrate(
                self.catalog, exclude=left_out, stacks=stacks, models=models, warm=self.full
            )
        return PerfEngine(
            catalog=self.catalog, calibration=self._fitted[key], bands=NO_BANDS, excluded=left_out
        )


def _check(engine: PerfEngine, m: Measurement) -> Check:
    t = engine.throughput(query_for(m))
    return Check(m, t.output_tokens_per_s, t.method, 0.0, t.closeness)


def leave_one_out(refits: Refits) -> list[Check]:
    """Each calibration figure predicted from the rest, its own deployment's other
    figures included: the case an interpolated or anchored answer is in.

    An interpolation reads only the measured figures around it, not the fitted
    parameters, so a figure the rest interpolate needs no refit.
    """
    catalog = refits.catalog
    checks = []
    for m in catalog.measurements:
        if m.role != "calibration":
            continue
        alone = frozenset({m.id})
        unfitted = PerfEngine(
            catalog=catalog, calibration=refits.full, bands=NO_BANDS, excluded=alone
        )
        check = _check(unfitted, m)
        if check.method != "interpolated":
            check = _check(refits.without(alone, predicting=[m]), m)
        checks.append(check)
    return checks


def leave_deployment_out(refits: Refits) -> list[Check]:
    """Each deployment's measurements predicted with the whole deployment left out.

    This is the case a roofline estimate answers (nobody measured this
    deployment), so its errors, not leave-one-out's, set the roofline bands.
    """
    groups: dict[tuple[str, ...], list[Measurement]] = defaultdict(list)
    for m in refits.catalog.measurements:
        if m.role == "calibration":
            groups[(m.model, m.gpu, str(m.gpus), m.precision, m.stack)].append(m)
    checks = []
    for group in groups.values():
        engine = refits.without(frozenset(m.id for m in group), predicting=group)
        checks += [_check(engine, m) for m in group]
    return checks


def leave_source_out(
    refits: Refits, measurements: Iterable[Measurement] | None = None
) -> list[Check]:
    """Each source's figures predicted with every figure it published left out.

    A source is a publication or dataset (``source_key``): its figures share a
    harness, a tuning and a way of counting, so predicting them from its other
    figures flatters the engine. ``measurements`` are the figures to predict, the
    catalog's by default (holdouts included); figures from outside the catalog (a
    field dataset) are predicted without their source's catalog figures, if any.
    Their models, GPUs, precisions and stacks must be the catalog's.
    """
    catalog = refits.catalog
    published: dict[str, set[str]] = defaultdict(set)
    for m in catalog.measurements:
        if m.role == "calibration":
            published[source_key(m)].add(m.id)
    figures: dict[str, list[Measurement]] = defaultdict(list)
    for m in catalog.measurements if measurements is None else measurements:
        figures[source_key(m)].append(m)
    checks = []
    for key, group in figures.items():
        engine = refits.without(frozenset(published.get(key, ())), predicting=group)
        checks += [_check(engine, m) for m in group]
    return checks


def bands_from(
    one_out: Sequence[Check],
    deployment_out: Sequence[Check],
    source_out: Sequence[Check] = (),
    *,
    quantile: float,
    floor: float,
) -> ErrorBands:
    """Bands that hold ``quantile`` of figures like the checks', from calibration figures.

    Interpolated and anchored bands come from every check answered that way
    (leave-one-out mostly; a source left out whose deployment another source
    measured); the roofline's from every check the roofline answered
    (leave-deployment-out, leave-one-source-out), one band over every stack: bands
    per stack were narrower on their own checks but held fewer figures of the sources
    they had not seen. A figure two kinds of check predicted alike counts once.
    Holdouts never set a band: they stay a check of the bands.
    """

    def band(checks: Iterable[Check]) -> float | None:
        found = _conformal([abs(c.relative_error) for c in checks], quantile)
        return None if found is None else max(floor, found)

    near = [
        c
        for c in _distinct(c for c in (*one_out, *source_out) if c.method != "model")
        if c.measurement.role == "calibration"
    ]
    roofline = [
        c
        for c in _distinct(c for c in (*deployment_out, *source_out) if c.method == "model")
        if c.measurement.role == "calibration"
    ]
    model = band(roofline) or floor
    anchored_checks = [c for c in near if c.method == "anchored"]
    anchored = band(anchored_checks) or model
    interpolated = band(c for c in near if c.method == "interpolated") or min(anchored, model)
    return ErrorBands(
        interpolated=interpolated,
        anchored=anchored,
        model=model,
        floor=floor,
        anchored_per_log=_per_log(anchored_checks, quantile=quantile),
    )


def ttft_bands_from(
    checks: Iterable[FirstTokenCheck], *, quantile: float, floor: float
) -> ErrorBands:
    """The TTFT bands that hold ``quantile`` of first-token times like the checks': one
    per serving engine, at the split-conformal quantile of its checks' errors, and one
    over every engine for the rest (only the TTFT fields of the result are set)."""
    found = list(checks)
    by_engine: dict[str, list[float]] = defaultdict(list)
    for c in found:
        by_engine[c.serving_engine].append(abs(c.relative_error))
    overall = _conformal([abs(c.relative_error) for c in found], quantile)
    per_engine = {
        name: max(floor, band)
        for name, errors in sorted(by_engine.items())
        if (band := _conformal(errors, quantile)) is not None
    }
    return replace(
        NO_BANDS,
        ttft=None if overall is None else max(floor, overall),
        ttft_by_engine=per_engine,
    )


def _conformal(errors: Sequence[float], quantile: float) -> float | None:
    """The error a new figure stays under with probability ``quantile``: the
    ceil((n + 1) q)-th smallest of n (split conformal prediction), which a plain
    sample quantile undershoots on few checks. None when n is too small for that."""
    rank = math.ceil((len(errors) + 1) * quantile)
    if not errors or rank > len(errors):
        return None
    return sorted(errors)[rank - 1]


def _per_log(anchored: Sequence[Check], *, quantile: float) -> float | None:
    """Anchored error per unit of the roofline's log-scaling, at a quantile: an answer
    the roofline barely scaled from its measurement is barely wrong."""
    rates = [
        abs(c.relative_error) / c.closeness.scaled_log
        for c in anchored
        if c.closeness.scaled_log > 0 and not c.closeness.prompts_changed
    ]
    return _conformal(rates, quantile)


def _distinct(checks: Iterable[Check]) -> list[Check]:
    """Checks less repeats: the same figure predicted the same way by two kinds of check."""
    seen: dict[tuple[str, str, float], Check] = {}
    for c in checks:
        seen.setdefault((c.measurement.id, c.method, round(c.predicted_tokens_per_s, 6)), c)
    return list(seen.values())


def cross_validated(
    one_out: Sequence[Check],
    deployment_out: Sequence[Check],
    source_out: Sequence[Check],
    *,
    quantile: float,
    floor: float,
) -> tuple[list[Check], list[Check], list[Check]]:
    """The checks, each with the band its answer would have reported had its source
    never been published: bands set from every other source's checks.

    A band set from checks that include the figure it is judged on is right about
    that figure by construction; this is the honest version of "inside the band".
    """
    by_source: dict[str, ErrorBands] = {}
    for key in {source_key(c.measurement) for c in (*one_out, *deployment_out, *source_out)}:

        def others(checks: Sequence[Check], key: str = key) -> list[Check]:
            return [c for c in checks if source_key(c.measurement) != key]

        by_source[key] = bands_from(
            others(one_out),
            others(deployment_out),
            others(source_out),
            quantile=quantile,
            floor=floor,
        )

    def banded(checks: Sequence[Check]) -> list[Check]:
        return [
            replace(
                c,
                error_band=by_source[source_key(c.measurement)].for_answer(
                    c.method, c.measurement.stack, c.closeness
                ),
            )
            for c in checks
        ]

    return banded(one_out), banded(deployment_out), banded(source_out)


def build_engine(catalog: Catalog) -> PerfEngine:
    """Calibrate on every calibration figure, with bands from what the engine gets
    wrong when a figure, its deployment or its whole source is left out, and the TTFT
    bands the catalog holds (the held-out field check set them; it costs several builds,
    so it runs when they are rewritten, not here)."""
    constants = catalog.engine
    full = calibrate(catalog)
    refits = Refits(catalog, full)
    checks = (leave_one_out(refits), leave_deployment_out(refits), leave_source_out(refits))
    quantile, floor = constants.error_band_quantile, constants.error_band_floor
    one_out, deployment_out, source_out = cross_validated(*checks, quantile=quantile, floor=floor)
    return PerfEngine(
        catalog=catalog,
        calibration=full,
        bands=with_ttft_bands(bands_from(*checks, quantile=quantile, floor=floor), catalog),
        one_out=tuple(one_out),
        deployment_out=tuple(deployment_out),
        source_out=tuple(source_out),
    )


def with_ttft_bands(bands: ErrorBands, catalog: Catalog) -> ErrorBands:
    """``bands`` with the catalog's TTFT bands (unchanged when it holds none: an answer's
    first token then carries its throughput band)."""
    found = catalog.ttft_bands
    if found is None:
        return bands
    by_engine = {name: b.band for name, b in found.by_serving_engine.items()}
    return replace(bands, ttft=found.overall.band, ttft_by_engine=by_engine)


def without_field_rows(engine: PerfEngine, rows: Iterable[str]) -> PerfEngine:
    """``engine`` refitted as if the field had never measured ``rows`` (ids): the field's
    fits without them, the catalog's stacks re-tethered to those fits, the same bands.
    The catalog's figures never inform the field's fits, so nothing else moves."""
    catalog = engine.catalog
    full = engine.calibration
    field_fit = fit_field(catalog, exclude=frozenset(rows), warm=full.field_fit)
    return PerfEngine(
        catalog=catalog,
        calibration=calibrate(catalog, warm=full, field_fit=field_fit),
        bands=engine.bands,
        excluded=engine.excluded,
    )


CHECKS = ("leave-one-source-out", "leave-deployment-out", "leave-one-out", "holdout")
"""The kinds of check, hardest first: a whole source unseen, a whole deployment, one
figure; holdouts are answered by the engine as it stands."""


def checks_of(engine: PerfEngine) -> dict[str, list[Check]]:
    """Every kind of check, each figure with the band its answer would have reported:
    the checks the engine kept from its build, else worked out now."""
    kept: tuple[Sequence[Check], ...] = (engine.one_out, engine.deployment_out, engine.source_out)
    if not all(kept):
        refits = Refits(engine.catalog, engine.calibration)
        kept = cross_validated(
            leave_one_out(refits),
            leave_deployment_out(refits),
            leave_source_out(refits),
            quantile=engine.catalog.engine.error_band_quantile,
            floor=engine.catalog.engine.error_band_floor,
        )
    one_out, deployment_out, source_out = kept
    found = (source_out, deployment_out, one_out, holdout(engine))
    return {name: list(checks) for name, checks in zip(CHECKS, found, strict=True)}


def holdout(engine: PerfEngine) -> list[Check]:
    checks = []
    for m in engine.catalog.measurements:
        if m.role != "holdout":
            continue
        t = engine.throughput(query_for(m))
        checks.append(Check(m, t.output_tokens_per_s, t.method, t.error_band, t.closeness))
    return checks
