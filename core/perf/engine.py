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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Literal, TypeVar, cast

from core.catalog import Catalog, Measurement
from core.perf.calibration import (
    Calibration,
    Observation,
    candidate_layouts,
    draft_tokens_for,
    hardware_for,
    observe,
)
from core.perf.layouts import Layout
from core.perf.memory import admit, fits
from core.perf.roofline import (
    Hardware,
    Replica,
    StackParams,
    Step,
    Workload,
    log_distance,
    max_context_tokens,
    mean_context_tokens,
    replica,
    step,
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

T = TypeVar("T")


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
    layout: Layout | None = None
    """The parallel layout asked for (None: the best one the stack deploys)."""
    closed_loop: bool = False
    """Answer end-to-end throughput as a closed-loop benchmark counts it (each of
    ``concurrency`` clients waits for its whole answer, first token included, before it
    sends the next), not as the decoding capacity of the deployment."""


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
    ttft: float | None = None
    """The band of a time to first token the roofline worked out, set from the field's
    held-out first-token times (core/data/ttft-bands.yaml; None: no such evidence, the
    answer's throughput band stands in)."""
    ttft_by_engine: dict[str, float] = field(default_factory=dict)
    """The same per serving engine, for the engines the field measured."""

    def for_ttft(self, serving_engine: str, *, measured: bool, throughput_band: float) -> float:
        """The band of an answer's time to first token: none when it was measured, else
        its serving engine's band (first-token times miss by their own causes, queueing
        and prefill, not by the decode step's), else the band over every engine."""
        if measured:
            return 0.0
        found = self.ttft_by_engine.get(serving_engine, self.ttft)
        return throughput_band if found is None else found

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
        """The covered part follows the scaling: narrower the less the roofline scaled the
        measurement, and wider the more, up to the roofline's own band (a figure scaled
        6.7x is no surer than the roofline that scaled it); prompts no measurement covered
        carry the roofline's band, in proportion to the time they take."""
        covered = self.anchored
        if self.anchored_per_log is not None and not near.prompts_changed:
            covered = min(
                max(self.anchored, roofline) if roofline else self.anchored,
                max(self.floor, self.anchored_per_log * near.scaled_log),
            )
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
    """The band of the throughput figures (aggregate and per user)."""
    measurements: tuple[Measurement, ...]
    caveats: tuple[str, ...] = field(default=())
    ttft_error_band: float | None = None
    """The band of ``ttft_s`` (None when there is no time to first token)."""
    fitted_on: tuple[Measurement, ...] = field(default=())
    """For a roofline estimate, every measurement its stack's parameters were fitted on."""
    closeness: Closeness = NOT_MEASURED
    decoding: int = 0
    """Sequences that decode at once (fewer than asked when the KV cache is full)."""
    queued: int = 0
    """Requests of the batch waiting for KV-cache room instead of decoding."""
    holds_model: bool = True
    """False when the replica cannot hold the model and one sequence: no real throughput."""
    layout: Layout | None = None
    """The parallel layout the answer runs (None when nothing holds the model)."""

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
class FirstTokenCheck:
    """One measured time to first token predicted by the engine refitted without its
    deployment's figures: what the TTFT bands are set from."""

    figure: str
    deployment: tuple[str, str]
    """What was held out with it (one model on one GPU)."""
    serving_engine: str
    relative_error: float


@dataclass(frozen=True)
class Deployed:
    """A deployment as the roofline runs it: the layout chosen, the batch as the KV
    cache admits it, and whether even one sequence fits."""

    layout: Layout
    step: Step
    holds_model: bool

    @property
    def workload(self) -> Workload:
        return self.step.workload


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
    _memo: dict[object, object] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    """Hardware, layouts and replica constants by question, worked out once each."""

    def __getstate__(self) -> dict[str, object]:
        """Pickled (the engine cache) without what it worked out for questions."""
        return {**self.__dict__, "_memo": {}}

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
        (of this GPU first, else of its stand-in), else 1: none unless measured."""
        pool = sorted(self.deployment_measurements(q), key=lambda m: m.gpu != q.gpu)
        for m in pool:
            if m.concurrency == q.concurrency:
                return m.spec_decode_acceptance
        return 1.0

    def _remembered(self, key: tuple[object, ...], make: Callable[[], T]) -> T:
        """What ``make`` returns for ``key``, worked out once per engine."""
        if key not in self._memo:
            self._memo[key] = make()
        return cast(T, self._memo[key])

    def hardware(self, q: PerfQuery) -> Hardware:
        return self._remembered(
            ("hw", *_deployment(q)),
            lambda: hardware_for(
                self.catalog,
                model=q.model,
                gpu=q.gpu,
                gpus=q.gpus,
                precision=q.precision,
                stack=q.stack,
                kv_precision=q.kv_precision,
            ),
        )

    def layouts(self, q: PerfQuery) -> tuple[Layout, ...]:
        """The layouts the answer may run: the one asked, else those the stack deploys on
        these GPUs that hold the model and one sequence."""
        if q.layout is not None:
            return (q.layout,)
        return self._remembered(
            ("layouts", *_deployment(q)),
            lambda: candidate_layouts(self.catalog, self.hardware(q), q.stack),
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
            draft_tokens=draft_tokens_for(self.catalog.engine, q.spec_decode_acceptance),
        )

    def params(self, q: PerfQuery, hw: Hardware) -> StackParams:
        return self.calibration.params_for(q.stack, hw.gpu.vendor, q.model)

    def deployed(
        self, q: PerfQuery, wl: Workload | None = None, *, admit_all: bool = False
    ) -> Deployed:
        """The best layout for the question (most tokens/s from the sequences the KV cache
        admits), with its step. ``admit_all``: the batch is known to fit (a measurement
        at or above it ran), so none queue."""
        hw = self.hardware(q)
        wl = wl or self.workload(q)
        params = self.params(q, hw)
        reserve = self.catalog.engine.runtime_reserve_fraction
        longest = max_context_tokens(mean_context=wl.context_tokens, output_tokens=wl.output_tokens)
        best: Deployed | None = None
        best_tps = -1.0
        for layout in self.layouts(q):
            one = admit_all or self._holds_one(q, hw, layout, longest)
            admitted = wl if admit_all or not one else admit(hw, layout, wl, reserve)
            s = step(hw, layout, admitted, self._replica(q, hw, layout))
            tps = s.tokens_per_s(params) if one else 0.0
            if tps > best_tps:
                best, best_tps = Deployed(layout, s, one), tps
        if best is None:
            # nothing the stack deploys holds the model: the plainest layout, unserved
            # unless a measurement says the server ran it
            layout = Layout(tp=1, pp=hw.gpus)
            best = Deployed(layout, step(hw, layout, wl), admit_all)
        return best

    def _holds_one(self, q: PerfQuery, hw: Hardware, layout: Layout, longest: int) -> bool:
        """Whether one replica of ``layout`` holds the weights and one sequence this long."""
        return self._remembered(
            ("one", *_deployment(q), layout, longest),
            lambda: fits(
                hw,
                layout,
                concurrency=1,
                max_context_tokens=longest,
                reserve_fraction=self.catalog.engine.runtime_reserve_fraction,
            ),
        )

    def _replica(self, q: PerfQuery, hw: Hardware, layout: Layout) -> Replica:
        return self._remembered(("replica", *_deployment(q), layout), lambda: replica(hw, layout))

    def observed(self, m: Measurement) -> tuple[Observation, Deployed]:
        """A measurement's deployment as the roofline ran it: its best layout, the batch
        it measured held (worked out once per measurement: anchoring asks it often)."""
        return self._remembered(("observed", m.id), lambda: self._observe(m))

    def _observe(self, m: Measurement) -> tuple[Observation, Deployed]:
        seen = observe(self.catalog, m)
        # the measurement's deployment; its load is the observation's, not the question's
        q = replace(
            query_for(m), context_tokens=None, input_tokens=None, output_tokens=None,
            closed_loop=False,
        )
        # a phase-isolated decode figure ran the batch it names; an end-to-end one's
        # clients beyond the KV cache queued, as calibration has it
        return seen, self.deployed(q, seen.workload, admit_all=not seen.workload.end_to_end)

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
        params = self.params(q, hw)
        alike = sorted((m for m in pool if _same_conditions(m, q)), key=lambda m: m.concurrency)

        exact = [m for m in alike if m.concurrency == q.concurrency]
        if exact:
            m = exact[0]
            here = self.deployed(q, asked, admit_all=True)
            ttft = sum(m.ttft_s) / 2 if m.ttft_s else self._ttft(here, q)
            return self._result(
                m.tokens_per_s,
                q,
                ttft,
                "measured",
                (m,),
                Closeness(measurement=m.id),
                here,
                ttft_measured=bool(m.ttft_s),
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
            here = self.deployed(q, asked, admit_all=True)
            return self._result(tps, q, self._ttft(here, q), "interpolated", (lo, hi), near, here)

        held = any(m.concurrency >= q.concurrency for m in alike)
        here = self.deployed(q, asked, admit_all=held)
        if pool:
            anchor = min(
                pool,
                key=lambda m: (
                    m.spec_decode_acceptance != q.spec_decode_acceptance,
                    not _same_conditions(m, q),
                    log_distance(m.concurrency, q.concurrency),
                ),
            )
            seen, there = self.observed(anchor)
            anchor_params = self.calibration.params_for(q.stack, seen.hardware.gpu.vendor, q.model)
            decode_only = not seen.workload.end_to_end
            # a benchmark's figure scales by figures counted its way: a closed loop's by
            # closed-loop figures, a decode-only one by decoding capacity
            as_measured = query_for(anchor)
            ratio = self._figure(here, replace(q, closed_loop=not decode_only), params) / (
                self._figure(there, as_measured, anchor_params)
            )
            covered = ratio
            if decode_only:
                covered = _decode_tokens_per_s(here.step, params) / _decode_tokens_per_s(
                    there.step, anchor_params
                )
            near = Closeness(
                measurement=anchor.id,
                concurrency_log=log_distance(anchor.concurrency, q.concurrency),
                context_log=log_distance(seen.workload.context_tokens, asked.context_tokens),
                scaled_log=abs(math.log(covered)),
                prefill_share=here.step.prefill_share(params) if decode_only else 0.0,
                prompts_changed=anchor.spec_decode_acceptance != q.spec_decode_acceptance
                or not (decode_only or _same_conditions(anchor, q)),
            )
            return self._result(
                anchor.tokens_per_s * ratio,
                q,
                self._ttft(here, q),
                "anchored",
                (anchor,),
                near,
                here,
            )

        fitted_on = self._fitted_on(q.stack)
        result = self._result(
            self._figure(here, q, params),
            q,
            self._ttft(here, q),
            "model",
            (m for m in fitted_on if m.model == q.model),
            NOT_MEASURED,
            here,
        )
        return replace(result, fitted_on=fitted_on)

    def _fitted_on(self, stack: str) -> tuple[Measurement, ...]:
        """The calibration measurements a stack's fit saw (once per stack)."""
        return self._remembered(
            ("fitted_on", stack),
            lambda: tuple(
                m
                for m in self.catalog.measurements
                if m.stack == stack and m.role == "calibration" and m.id not in self.excluded
            ),
        )

    def _carried(self, q: PerfQuery, stand_ins: list[Measurement]) -> Throughput:
        """The measured stand-in's answer, scaled by the roofline from its deployment to
        this one (the same count of another GPU: its own fabric, memory and clocks, and
        the layout the stack would run on each)."""
        nearest = min(
            stand_ins,
            key=lambda m: (not _same_conditions(m, q), log_distance(m.concurrency, q.concurrency)),
        )
        there_q = replace(q, gpu=nearest.gpu)
        source = self._answer(there_q, [m for m in stand_ins if m.gpu == nearest.gpu])
        src_hw = self.hardware(there_q)
        src_wl = replace(self.workload(there_q), concurrency=source.decoding, queued=source.queued)
        src_params = self.params(there_q, src_hw)
        there = self.deployed(there_q, src_wl, admit_all=True)
        hw = self.hardware(q)
        params = self.params(q, hw)
        here = self.deployed(q, self.workload(q))
        ratio = self._figure(here, q, params) / self._figure(there, there_q, src_params)
        near = replace(
            source.closeness,
            base=source.method,
            measured_on=nearest.gpu,
            carried_ratio=ratio,
        )
        return self._result(
            source.output_tokens_per_s * ratio,
            q,
            self._ttft(here, q),
            "carried",
            source.measurements,
            near,
            here,
        )

    def _figure(self, here: Deployed, q: PerfQuery, params: StackParams) -> float:
        """What the deployment yields for ``q``: its decoding capacity, or with
        ``closed_loop`` the clients' answers over the time each waits for them."""
        capacity = here.step.tokens_per_s(params)
        wl = self.workload(q)
        if not (q.closed_loop and wl.end_to_end) or not here.holds_model:
            return capacity
        assert wl.output_tokens is not None
        ttft = self._ttft(here, q) or 0.0
        per_token = 1.0 / here.step.per_user_tokens_per_s(params)
        return wl.concurrency * wl.output_tokens / (ttft + (wl.output_tokens - 1) * per_token)

    def _ttft(self, here: Deployed, q: PerfQuery) -> float | None:
        if q.input_tokens is None or not here.holds_model:
            return None
        hw = here.step.rep.hw
        params = self.params(q, hw)
        overhead = self.calibration.ttft_overhead_for(
            q.stack, q.model, self.catalog.engine.scheduling_overhead_s
        )
        # the first token waits for KV room: a queued request's wait is part of it
        wl = self.workload(q)
        admitted = admit(hw, here.layout, wl, self.catalog.engine.runtime_reserve_fraction)
        s = (
            here.step
            if admitted == here.workload
            else step(hw, here.layout, admitted, here.step.rep)
        )
        return ttft_s(s, params, overhead)

    def _result(
        self,
        tps: float,
        q: PerfQuery,
        ttft: float | None,
        method: Method,
        rests_on: Iterable[Measurement],
        near: Closeness,
        here: Deployed,
        *,
        ttft_measured: bool = False,
    ) -> Throughput:
        """``here``: the deployment as it runs (the KV cache may admit fewer than asked);
        each decoding sequence gets tps / its concurrency."""
        rests = tuple(rests_on)
        caveats: list[str] = []
        for m in rests:
            for c in m.caveats:
                if c not in caveats:
                    caveats.append(c)
        decoding = here.workload
        per_user = tps / decoding.concurrency
        if q.closed_loop and q.input_tokens is not None and here.holds_model:
            # a closed loop's figure counts the clients' waits; per user is decode speed
            params = self.params(q, here.step.rep.hw)
            per_user *= here.step.tokens_per_s(params) / self._figure(here, q, params)
        band = self.bands.for_answer(method, q.stack, near)
        ttft_band = None
        if ttft is not None:
            ttft_band = self.bands.for_ttft(
                self.catalog.stacks.entries[q.stack].engine,
                measured=ttft_measured,
                throughput_band=band,
            )
        return Throughput(
            output_tokens_per_s=tps,
            per_user_tokens_per_s=per_user,
            ttft_s=ttft,
            basis=BASIS[method],
            method=method,
            error_band=band,
            ttft_error_band=ttft_band,
            measurements=rests,
            caveats=tuple(caveats),
            closeness=near,
            decoding=decoding.concurrency,
            queued=decoding.queued,
            holds_model=here.holds_model,
            layout=here.layout if here.holds_model else None,
        )


def _decode_tokens_per_s(s: Step, params: StackParams) -> float:
    """The deployment's tokens/s were its prompts prefilled elsewhere."""
    from core.perf.roofline import period_with

    wl = s.workload
    return wl.concurrency * wl.spec_decode_acceptance / period_with(s.decode_only, params)


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


def query_for(m: Measurement) -> PerfQuery:
    """A measurement as the question it answers (a closed loop's, end to end)."""
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
        closed_loop=e2e,
    )


def _deployment(q: PerfQuery) -> tuple[object, ...]:
    """What a question's hardware, layouts and replicas depend on (not its load)."""
    return (q.model, q.gpu, q.gpus, q.precision, q.stack, q.kv_precision)
