"""How wrong the engine is, measured on its own data: leave-one-out and holdouts.

Leave-one-out removes each calibration measurement in turn, refits, and predicts
it through the same cascade a user's question goes through; the errors by
method (interpolated, anchored, roofline) become the error bands estimates
carry. Holdout measurements never enter calibration; predicting them is the
check that the bands are honest for configurations nobody fitted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

import numpy as np

from core.catalog import Catalog, Measurement
from core.perf.calibration import Calibration, calibrate
from core.perf.engine import Check, ErrorBands, PerfEngine, PerfQuery

__all__ = ["Check", "build_engine", "holdout", "leave_deployment_out", "leave_one_out"]

NO_BANDS = ErrorBands(interpolated=0.0, anchored=0.0, model=0.0)
MIN_CHECKS_FOR_STACK_BAND = 10
"""A stack earns its own roofline band after this many leave-deployment-out checks: fewer
samples cannot place a 90th percentile."""




def query_for(m: Measurement) -> PerfQuery:
    e2e = m.phase == "end_to_end" and m.input_tokens is not None and m.output_tokens is not None
    return PerfQuery(
        model=m.model,
        gpu=m.gpu,
        gpus=m.gpus,
        precision=m.precision,
        stack=m.stack,
        concurrency=m.concurrency,
        spec_decode_acceptance=m.spec_decode_acceptance,
        context_tokens=m.context_tokens,
        input_tokens=m.input_tokens if e2e else None,
        output_tokens=m.output_tokens if e2e else None,
        kv_precision=m.kv_precision,
    )


def leave_one_out(catalog: Catalog, warm: Calibration | None = None) -> list[Check]:
    checks = []
    for m in catalog.measurements:
        if m.role != "calibration":
            continue
        engine = PerfEngine(
            catalog=catalog,
            calibration=calibrate(catalog, exclude=[m.id], stacks=[m.stack], warm=warm),
            bands=NO_BANDS,
            excluded=frozenset({m.id}),
        )
        t = engine.throughput(query_for(m))
        checks.append(Check(m, t.output_tokens_per_s, t.method, 0.0))
    return checks


def leave_deployment_out(catalog: Catalog, warm: Calibration | None = None) -> list[Check]:
    """Each deployment's measurements predicted with the whole deployment left out.

    This is the case a roofline estimate answers (nobody measured this
    deployment), so its errors, not leave-one-out's, set the roofline bands.
    """
    groups: dict[tuple[str, ...], list[Measurement]] = defaultdict(list)
    for m in catalog.measurements:
        if m.role == "calibration":
            groups[(m.model, m.gpu, str(m.gpus), m.precision, m.stack)].append(m)
    checks = []
    for group in groups.values():
        ids = frozenset(m.id for m in group)
        engine = PerfEngine(
            catalog=catalog,
            calibration=calibrate(catalog, exclude=ids, stacks=[group[0].stack], warm=warm),
            bands=NO_BANDS,
            excluded=ids,
        )
        for m in group:
            t = engine.throughput(query_for(m))
            checks.append(Check(m, t.output_tokens_per_s, t.method, 0.0))
    return checks


def bands_from(
    one_out: Sequence[Check],
    deployment_out: Sequence[Check],
    *,
    quantile: float,
    floor: float,
) -> ErrorBands:
    """Bands at a quantile of |error|: interpolated and anchored from leave-one-out,
    the roofline's (overall and per stack) from leave-deployment-out."""

    def band(checks: Iterable[Check]) -> float | None:
        errors = [abs(c.relative_error) for c in checks]
        if not errors:
            return None
        return max(floor, float(np.quantile(errors, quantile)))

    model = band(deployment_out) or floor
    anchored = band(c for c in one_out if c.method == "anchored") or model
    interpolated = band(c for c in one_out if c.method == "interpolated") or min(anchored, model)
    by_stack: dict[str, float] = {}
    for stack in {c.measurement.stack for c in deployment_out}:
        mine = [c for c in deployment_out if c.measurement.stack == stack]
        if len(mine) >= MIN_CHECKS_FOR_STACK_BAND:
            by_stack[stack] = band(mine) or model
    return ErrorBands(
        interpolated=interpolated, anchored=anchored, model=model, model_by_stack=by_stack
    )


def build_engine(catalog: Catalog) -> PerfEngine:
    """Calibrate on every calibration measurement, with bands from leave-one-out."""
    constants = catalog.engine
    full = calibrate(catalog)
    one_out = leave_one_out(catalog, full)
    deployment_out = leave_deployment_out(catalog, full)
    bands = bands_from(
        one_out,
        deployment_out,
        quantile=constants.error_band_quantile,
        floor=constants.error_band_floor,
    )
    return PerfEngine(
        catalog=catalog,
        calibration=full,
        bands=bands,
        one_out=tuple(one_out),
        deployment_out=tuple(deployment_out),
    )


def holdout(engine: PerfEngine) -> list[Check]:
    checks = []
    for m in engine.catalog.measurements:
        if m.role != "holdout":
            continue
        t = engine.throughput(query_for(m))
        checks.append(Check(m, t.output_tokens_per_s, t.method, t.error_band))
    return checks
