"""Throughput of one replica with provenance: measured > interpolated > estimated.

The cascade, in order of trust:

1. ``measured``: a calibration measurement of this deployment under the same
   conditions and concurrency: returned as published, to the last digit.
2. ``interpolated``: between two measured concurrencies of the same deployment
   and conditions, a power law in concurrency (straight in log-log), which keeps
   aggregate tokens/s rising and per-user tokens/s falling as the batch grows.
3. ``estimated`` from an anchor: the deployment was measured, but not like this
   (another concurrency, context, acceptance or prompt length). The nearest
   measurement is scaled by the roofline's ratio between the two conditions.
4. ``estimated`` from the roofline alone, with the stack's fitted parameters,
   transferred to this GPU by its bandwidth and FLOPS.

Each estimate carries the error band leave-one-out validation found for its kind.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

from core.catalog import Catalog, Measurement
from core.perf.calibration import Calibration, hardware_for, observe
from core.perf.memory import admit
from core.perf.roofline import (
    Hardware,
    StackParams,
    Workload,
    decode_tokens_per_s,
    log_distance,
    mean_context_tokens,
    prefill_share,
    tokens_per_s,
    ttft_s,
)
from core.scenario import Basis

Method = Literal["measured", "interpolated", "anchored", "model"]
"""How an answer was reached; anchored and roofline answers are both ``estimated``."""

BASIS: dict[Method, Basis] = {
    "measured": "measured",
    "interpolated": "interpolated",
    "anchored": "estimated",
    "model": "estimated",
}


@dataclass(frozen=True)
class PerfQuery:
    """A fully resolved question about one replica (names are catalog ids)."""

    model: str
    gpu: str
    gpus: int
    precision: str
    stack: str
    concurrency: int
    spec_decode_acceptance: float = 1.0
    context_tokens: int | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    kv_precision: str | None = None


@dataclass(frozen=True)
class ErrorBands:
    """Fractional error bands by method, from leave-one-out validation."""

    interpolated: float
    anchored: float
    model: float
    model_by_stack: dict[str, float] = field(default_factory=dict)

    def for_method(self, method: Method, stack: str) -> float:
        """A roofline estimate on a stack with enough measurements of its own carries
        that stack's band; elsewhere the band over every stack."""
        if method == "model":
            return self.model_by_stack.get(stack, self.model)
        return {"measured": 0.0, "interpolated": self.interpolated}.get(method, self.anchored)


@dataclass(frozen=True)
class Throughput:
    output_tokens_per_s: float
    per_user_tokens_per_s: float
    ttft_s: float | None
    basis: Basis
    method: Method
    error_band: float
    measurements: tuple[Measurement, ...]
    caveats: tuple[str, ...] = field(default=())
    fitted_on: tuple[Measurement, ...] = field(default=())
    """For a roofline estimate, every measurement its stack's parameters were fitted on."""


@dataclass(frozen=True)
class Check:
    """One measurement predicted without having seen it."""

    measurement: Measurement
    predicted_tokens_per_s: float
    method: Method
    error_band: float

    @property
    def relative_error(self) -> float:
        return self.predicted_tokens_per_s / self.measurement.tokens_per_s - 1.0

    @property
    def within_band(self) -> bool:
        return abs(self.relative_error) <= self.error_band


@dataclass(frozen=True)
class PerfEngine:
    catalog: Catalog
    calibration: Calibration
    bands: ErrorBands
    excluded: frozenset[str] = frozenset()
    one_out: tuple[Check, ...] = ()
    deployment_out: tuple[Check, ...] = ()
    """The leave-one-out and leave-deployment-out checks ``bands`` were set from, kept so
    a report of the engine's accuracy shows the very checks behind its bands."""

    def deployment_measurements(self, q: PerfQuery) -> list[Measurement]:
        return [
            m
            for m in self.catalog.measurements_for(
                model=q.model, gpu=q.gpu, gpus=q.gpus, precision=q.precision, stack=q.stack
            )
            if m.id not in self.excluded and m.kv_offload == "none"
        ]

    def default_acceptance(self, q: PerfQuery) -> float:
        """The speculative-decoding acceptance a measurement at this concurrency assumed, else 1."""
        for m in self.deployment_measurements(q):
            if m.concurrency == q.concurrency:
                return m.spec_decode_acceptance
        return 1.0

    def hardware(self, q: PerfQuery) -> Hardware:
        return hardware_for(
            self.catalog,
            model=q.model,
            gpu=q.gpu,
            gpus=q.gpus,
            precision=q.precision,
            stack=q.stack,
            kv_precision=q.kv_precision,
        )

    def workload(self, q: PerfQuery) -> Workload:
        e2e = q.input_tokens is not None and q.output_tokens is not None
        return Workload(
            concurrency=q.concurrency,
            context_tokens=mean_context_tokens(
                context_tokens=q.context_tokens,
                input_tokens=q.input_tokens,
                output_tokens=q.output_tokens,
                default=self.catalog.engine.default_context_tokens,
            ),
            spec_decode_acceptance=q.spec_decode_acceptance,
            input_tokens=q.input_tokens if e2e else None,
            output_tokens=q.output_tokens if e2e else None,
        )

    def throughput(self, q: PerfQuery) -> Throughput:
        hw, wl = self.hardware(q), self.workload(q)
        params = self.calibration.params_for(q.stack, hw.gpu.vendor, q.model)
        pool = self.deployment_measurements(q)
        alike = sorted((m for m in pool if _same_conditions(m, q)), key=lambda m: m.concurrency)

        exact = [m for m in alike if m.concurrency == q.concurrency]
        if exact:
            m = exact[0]
            ttft = sum(m.ttft_s) / 2 if m.ttft_s else self._ttft(hw, wl, q)
            return self._result(m.tokens_per_s, q, ttft, "measured", (m,), decoding=wl.concurrency)

        below = [m for m in alike if m.concurrency < q.concurrency]
        above = [m for m in alike if m.concurrency > q.concurrency]
        if below and above:
            lo, hi = below[-1], above[0]
            slope = math.log(hi.tokens_per_s / lo.tokens_per_s) / math.log(
                hi.concurrency / lo.concurrency
            )
            tps = lo.tokens_per_s * (q.concurrency / lo.concurrency) ** slope
            return self._result(
                tps, q, self._ttft(hw, wl, q), "interpolated", (lo, hi), decoding=wl.concurrency
            )

        if pool:
            anchor = min(
                pool,
                key=lambda m: (
                    m.spec_decode_acceptance != q.spec_decode_acceptance,
                    not _same_conditions(m, q),
                    log_distance(m.concurrency, q.concurrency),
                ),
            )
            seen = observe(self.catalog, anchor)
            anchor_params = self.calibration.params_for(q.stack, seen.hardware.gpu.vendor, q.model)
            ratio = tokens_per_s(hw, wl, params) / tokens_per_s(
                seen.hardware, seen.workload, anchor_params
            )
            band = self._blend_band(q, hw, wl, params)
            return self._result(
                anchor.tokens_per_s * ratio,
                q,
                self._ttft(hw, wl, q),
                "anchored",
                (anchor,),
                band,
                decoding=wl.concurrency,
            )

        fitted_on = tuple(
            m
            for m in self.catalog.measurements
            if m.stack == q.stack and m.role == "calibration" and m.id not in self.excluded
        )
        result = self._result(
            tokens_per_s(hw, wl, params),
            q,
            self._ttft(hw, wl, q),
            "model",
            (m for m in fitted_on if m.model == q.model),
            decoding=wl.concurrency,
        )
        return replace(result, fitted_on=fitted_on)

    def _ttft(self, hw: Hardware, wl: Workload, q: PerfQuery) -> float | None:
        if q.input_tokens is None:
            return None
        params = self.calibration.params_for(q.stack, hw.gpu.vendor, q.model)
        overhead = self.calibration.ttft_overhead_for(
            q.stack, q.model, self.catalog.engine.scheduling_overhead_s
        )
        # throughput runs the concurrency asked (published servers keep more in flight
        # than a static KV estimate admits); the first token still waits for KV room
        admitted = admit(hw, wl, self.catalog.engine.runtime_reserve_fraction)
        return ttft_s(hw, admitted, params, overhead)

    def _blend_band(self, q: PerfQuery, hw: Hardware, wl: Workload, params: StackParams) -> float:
        """An anchored end-to-end estimate is only as good as its prefill share allows."""
        share = prefill_share(hw, wl, decode_tokens_per_s(hw, wl, params), params)
        anchored = self.bands.for_method("anchored", q.stack)
        return (1 - share) * anchored + share * self.bands.for_method("model", q.stack)

    def _result(
        self,
        tps: float,
        q: PerfQuery,
        ttft: float | None,
        method: Method,
        rests_on: Iterable[Measurement],
        band: float | None = None,
        *,
        decoding: int,
    ) -> Throughput:
        """``decoding``: the sequences that decode at once (the KV cache may admit fewer
        than asked); each gets tps / decoding."""
        rests = tuple(rests_on)
        caveats: list[str] = []
        for m in rests:
            for c in m.caveats:
                if c not in caveats:
                    caveats.append(c)
        return Throughput(
            output_tokens_per_s=tps,
            per_user_tokens_per_s=tps / decoding,
            ttft_s=ttft,
            basis=BASIS[method],
            method=method,
            error_band=self.bands.for_method(method, q.stack) if band is None else band,
            measurements=rests,
            caveats=tuple(caveats),
        )


def _same_conditions(m: Measurement, q: PerfQuery) -> bool:
    """Whether a measurement answers the question as asked, apart from concurrency."""
    if m.spec_decode_acceptance != q.spec_decode_acceptance:
        return False
    if q.kv_precision is not None and q.kv_precision != m.kv_precision:
        return False
    if q.context_tokens is not None and q.context_tokens != m.context_tokens:
        return False
    if m.phase == "decode":
        return q.input_tokens is None
    return (q.input_tokens, q.output_tokens) == (m.input_tokens, m.output_tokens)
