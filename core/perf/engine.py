"""Throughput of one replica with provenance: measured > interpolated > estimated.

The cascade, in order of trust:

1. ``measured``: a calibration measurement of this very deployment (GPU included)
   under the same conditions and concurrency: returned as published, to the digit.
2. ``interpolated``: between two measured concurrencies of the same deployment
   and conditions, a power law in concurrency (straight in log-log), which keeps
   aggregate tokens/s rising and per-user tokens/s falling as the batch grows.
3. ``estimated`` from an anchor: the deployment was measured, but not like this
   (another concurrency, context, acceptance or prompt length). The nearest
   measurement is scaled by the roofline's ratio between the two conditions.
4. ``estimated`` from a stand-in (``carried``): the deployment was never measured,
   but the same model, count and stack were on a GPU the catalog says it stands in
   for (GB300 for B300: the same silicon on another fabric). The answer on the
   measured deployment is scaled by the roofline's ratio between the two
   deployments, so the fabric the leased GPU runs on is paid for, not assumed away.
5. ``estimated`` from the roofline alone, with the stack's fitted parameters,
   transferred to this GPU by its bandwidth and FLOPS.

Every answer says how close it lies to the measurement it rests on (``Closeness``);
its error band narrows with that closeness (``ErrorBands.for_answer``).

A batch the KV cache cannot hold decodes as many sequences as fit; the rest queue
for a slot (their wait is part of time to first token). A measurement at or above
the batch is evidence that the server held it, and overrules the memory model.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

from core.catalog import Catalog, Measurement
from core.perf.calibration import Calibration, hardware_for, observe
from core.perf.memory import admit, fits
from core.perf.roofline import (
    Hardware,
    Workload,
    decode_tokens_per_s,
    log_distance,
    max_context_tokens,
    mean_context_tokens,
    prefill_share,
    tokens_per_s,
    ttft_s,
)
from core.scenario import Basis

Method = Literal["measured", "interpolated", "anchored", "carried", "model"]
"""How an answer was reached; anchored, carried and roofline answers are all ``estimated``."""

BASIS: dict[Method, Basis] = {
    "measured": "measured",
    "interpolated": "interpolated",
    "anchored": "estimated",
    "carried": "estimated",
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
class Closeness:
    """How far an answer lies from the measurement it rests on: what its band narrows with.

    Distances are natural logs of ratios, so 0 is "as measured" and ln 2 is a factor
    of two either way.
    """

    measurement: str | None = None
    """The measurement the answer is nearest to (None: the roofline alone)."""
    concurrency_log: float = 0.0
    """|ln(asked / measured)| concurrency, to the nearer measured batch."""
    bracket_log: float = 0.0
    """For an interpolation, ln(upper / lower) of the measured batches around the answer."""
    context_log: float = 0.0
    """|ln(asked / measured)| mean context per sequence."""
    scaled_log: float = 0.0
    """|ln| of the roofline's ratio applied to the measurement, over what it covered."""
    prefill_share: float = 0.0
    """Share of replica time on prompts the measurement did not cover (decode-only)."""
    prompts_changed: bool = False
    """The measurement ran other prompt lengths or another speculative-decoding
    acceptance than asked: the scaling is not one validation's checks narrow."""
    base: Method = "measured"
    """For a carried answer, how the measured deployment itself was answered."""
    measured_on: str | None = None
    """For a carried answer, the GPU that was measured in place of the one asked."""
    carried_ratio: float = 1.0
    """For a carried answer, the roofline's throughput here over the measured deployment's."""

    @property
    def carried_log(self) -> float:
        return abs(math.log(self.carried_ratio))


NOT_MEASURED = Closeness()


@dataclass(frozen=True)
class ErrorBands:
    """Fractional error bands, from validation, and how they narrow with closeness.

    ``interpolated``, ``anchored`` and ``model`` are the bands validation found for
    each method at the closeness its checks had; ``for_answer`` narrows them for an
    answer nearer its measurement. ``floor`` is the least any unmeasured answer
    carries. ``anchored_per_log`` is the anchored error per unit of the roofline's
    log-scaling (None: anchored answers keep the whole anchored band).
    ``carried`` is the band for carrying a deployment's answer to the GPU it stands
    in for (None: the anchored band, since no catalog pair validates a fabric change).
    """

    interpolated: float
    anchored: float
    model: float
    model_by_stack: dict[str, float] = field(default_factory=dict)
    floor: float = 0.0
    anchored_per_log: float | None = None
    carried: float | None = None

    def for_method(self, method: Method, stack: str) -> float:
        """A method's band at the closeness its validation checks had.

        A roofline estimate on a stack with enough measurements of its own carries
        that stack's band; elsewhere the band over every stack."""
        if method == "model":
            return self.model_by_stack.get(stack, self.model)
        if method == "measured":
            return 0.0
        if method == "interpolated":
            return self.interpolated
        if method == "carried":
            return min(self.for_method("model", stack), self.anchored + self._carrying())
        return self.anchored

    def for_answer(self, method: Method, stack: str, near: Closeness) -> float:
        """The band of one answer, narrowed by how close it lies to its measurement."""
        roofline = self.for_method("model", stack)
        if method in ("measured", "model"):
            return self.for_method(method, stack)
        if method == "interpolated":
            # zero error at either measured end, the validated band mid-way between them
            half = near.bracket_log / 2
            position = min(1.0, near.concurrency_log / half) if half > 0 else 1.0
            return max(self.floor, self.interpolated * position)
        if method == "anchored":
            return self._anchored(near, roofline)
        base = self.for_answer(near.base, stack, near)
        return min(roofline, base + self._carrying())

    def _anchored(self, near: Closeness, roofline: float) -> float:
        """The covered part narrows with the scaling; prompts no measurement covered
        carry the roofline's band, in proportion to the time they take."""
        covered = self.anchored
        if self.anchored_per_log is not None and not near.prompts_changed:
            covered = min(self.anchored, max(self.floor, self.anchored_per_log * near.scaled_log))
        share = near.prefill_share
        return (1 - share) * covered + share * roofline

    def _carrying(self) -> float:
        return self.anchored if self.carried is None else self.carried


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
    closeness: Closeness = NOT_MEASURED
    decoding: int = 0
    """Sequences that decode at once (fewer than asked when the KV cache is full)."""
    queued: int = 0
    """Requests of the batch waiting for KV-cache room instead of decoding."""
    holds_model: bool = True
    """False when the replica cannot hold the model and one sequence: no real throughput."""

    @property
    def estimated_from(self) -> str | None:
        """The measurement an estimate scales (None for measured, interpolated, roofline)."""
        return self.closeness.measurement if self.method in ("anchored", "carried") else None


@dataclass(frozen=True)
class Check:
    """One measurement predicted without having seen it."""

    measurement: Measurement
    predicted_tokens_per_s: float
    method: Method
    error_band: float
    closeness: Closeness = NOT_MEASURED

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
    source_out: tuple[Check, ...] = ()
    """The leave-one-out, leave-deployment-out and leave-one-source-out checks ``bands``
    were set from, each with the band it would have been given (``validation``), kept
    so a report of the engine's accuracy shows the very checks behind its bands."""

    def deployment_measurements(self, q: PerfQuery) -> list[Measurement]:
        """Measurements of this deployment, and of the GPUs measured in its place."""
        return [
            m
            for m in self.catalog.measurements_for(
                model=q.model, gpu=q.gpu, gpus=q.gpus, precision=q.precision, stack=q.stack
            )
            if m.id not in self.excluded and m.kv_offload == "none"
        ]

    def default_acceptance(self, q: PerfQuery) -> float:
        """The speculative-decoding acceptance a measurement at this concurrency assumed
        (of this GPU first, else of its stand-in), else 1."""
        pool = sorted(self.deployment_measurements(q), key=lambda m: m.gpu != q.gpu)
        for m in pool:
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
        pool = self.deployment_measurements(q)
        own = [m for m in pool if m.gpu == q.gpu]
        stand_ins = [m for m in pool if m.gpu != q.gpu]
        if not own and stand_ins:
            return self._carried(q, stand_ins)
        return self._answer(q, own)

    def _answer(self, q: PerfQuery, pool: list[Measurement]) -> Throughput:
        """The cascade over measurements of this very deployment."""
        hw, asked = self.hardware(q), self.workload(q)
        params = self.calibration.params_for(q.stack, hw.gpu.vendor, q.model)
        alike = sorted((m for m in pool if _same_conditions(m, q)), key=lambda m: m.concurrency)

        exact = [m for m in alike if m.concurrency == q.concurrency]
        if exact:
            m = exact[0]
            ttft = sum(m.ttft_s) / 2 if m.ttft_s else self._ttft(hw, asked, q)
            return self._result(
                m.tokens_per_s, q, ttft, "measured", (m,), Closeness(measurement=m.id), asked
            )

        below = [m for m in alike if m.concurrency < q.concurrency]
        above = [m for m in alike if m.concurrency > q.concurrency]
        if below and above:
            lo, hi = below[-1], above[0]
            slope = math.log(hi.tokens_per_s / lo.tokens_per_s) / math.log(
                hi.concurrency / lo.concurrency
            )
            tps = lo.tokens_per_s * (q.concurrency / lo.concurrency) ** slope
            to_lo = log_distance(lo.concurrency, q.concurrency)
            to_hi = log_distance(hi.concurrency, q.concurrency)
            near = Closeness(
                measurement=(lo if to_lo <= to_hi else hi).id,
                concurrency_log=min(to_lo, to_hi),
                bracket_log=log_distance(lo.concurrency, hi.concurrency),
            )
            # the upper measurement ran a bigger batch: the server held this one
            return self._result(
                tps, q, self._ttft(hw, asked, q), "interpolated", (lo, hi), near, asked
            )

        held = any(m.concurrency >= q.concurrency for m in alike)
        wl, holds = (asked, True) if held else self._admitted(hw, asked)
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
            decode_only = not seen.workload.end_to_end
            covered = (
                decode_tokens_per_s(hw, wl, params)
                / decode_tokens_per_s(seen.hardware, seen.workload, anchor_params)
                if decode_only
                else ratio
            )
            near = Closeness(
                measurement=anchor.id,
                concurrency_log=log_distance(anchor.concurrency, q.concurrency),
                context_log=log_distance(seen.workload.context_tokens, asked.context_tokens),
                scaled_log=abs(math.log(covered)),
                prefill_share=(
                    prefill_share(hw, wl, decode_tokens_per_s(hw, wl, params), params)
                    if decode_only
                    else 0.0
                ),
                prompts_changed=anchor.spec_decode_acceptance != q.spec_decode_acceptance
                or not (decode_only or _same_conditions(anchor, q)),
            )
            return self._result(
                anchor.tokens_per_s * ratio,
                q,
                self._ttft(hw, asked, q),
                "anchored",
                (anchor,),
                near,
                wl,
                holds_model=holds,
            )

        fitted_on = tuple(
            m
            for m in self.catalog.measurements
            if m.stack == q.stack and m.role == "calibration" and m.id not in self.excluded
        )
        result = self._result(
            tokens_per_s(hw, wl, params),
            q,
            self._ttft(hw, asked, q),
            "model",
            (m for m in fitted_on if m.model == q.model),
            NOT_MEASURED,
            wl,
            holds_model=holds,
        )
        return replace(result, fitted_on=fitted_on)

    def _carried(self, q: PerfQuery, stand_ins: list[Measurement]) -> Throughput:
        """The measured stand-in's answer, scaled by the roofline from its deployment to
        this one (the same count of another GPU: its own fabric, memory and clocks)."""
        nearest = min(
            stand_ins,
            key=lambda m: (not _same_conditions(m, q), log_distance(m.concurrency, q.concurrency)),
        )
        there = replace(q, gpu=nearest.gpu)
        source = self._answer(there, [m for m in stand_ins if m.gpu == nearest.gpu])
        src_hw = self.hardware(there)
        src_wl = replace(self.workload(there), concurrency=source.decoding, queued=source.queued)
        src_params = self.calibration.params_for(q.stack, src_hw.gpu.vendor, q.model)
        hw, asked = self.hardware(q), self.workload(q)
        params = self.calibration.params_for(q.stack, hw.gpu.vendor, q.model)
        wl, holds = self._admitted(hw, asked)
        ratio = tokens_per_s(hw, wl, params) / tokens_per_s(src_hw, src_wl, src_params)
        near = replace(
            source.closeness,
            base=source.method,
            measured_on=nearest.gpu,
            carried_ratio=ratio,
        )
        return self._result(
            source.output_tokens_per_s * ratio,
            q,
            self._ttft(hw, asked, q),
            "carried",
            source.measurements,
            near,
            wl,
            holds_model=holds,
        )

    def _admitted(self, hw: Hardware, wl: Workload) -> tuple[Workload, bool]:
        """The batch as the KV cache admits it, and whether even one sequence fits."""
        reserve = self.catalog.engine.runtime_reserve_fraction
        longest = max_context_tokens(mean_context=wl.context_tokens, output_tokens=wl.output_tokens)
        one = fits(hw, concurrency=1, max_context_tokens=longest, reserve_fraction=reserve)
        return (admit(hw, wl, reserve), True) if one else (wl, False)

    def _ttft(self, hw: Hardware, wl: Workload, q: PerfQuery) -> float | None:
        if q.input_tokens is None:
            return None
        params = self.calibration.params_for(q.stack, hw.gpu.vendor, q.model)
        overhead = self.calibration.ttft_overhead_for(
            q.stack, q.model, self.catalog.engine.scheduling_overhead_s
        )
        # the first token waits for KV room: a queued request's wait is part of it
        admitted = admit(hw, wl, self.catalog.engine.runtime_reserve_fraction)
        return ttft_s(hw, admitted, params, overhead)

    def _result(
        self,
        tps: float,
        q: PerfQuery,
        ttft: float | None,
        method: Method,
        rests_on: Iterable[Measurement],
        near: Closeness,
        decoding: Workload,
        *,
        holds_model: bool = True,
    ) -> Throughput:
        """``decoding``: the workload as it runs (the KV cache may admit fewer than
        asked); each decoding sequence gets tps / its concurrency."""
        rests = tuple(rests_on)
        caveats: list[str] = []
        for m in rests:
            for c in m.caveats:
                if c not in caveats:
                    caveats.append(c)
        return Throughput(
            output_tokens_per_s=tps,
            per_user_tokens_per_s=tps / decoding.concurrency,
            ttft_s=ttft,
            basis=BASIS[method],
            method=method,
            error_band=self.bands.for_answer(method, q.stack, near),
            measurements=rests,
            caveats=tuple(caveats),
            closeness=near,
            decoding=decoding.concurrency,
            queued=decoding.queued,
            holds_model=holds_model,
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
