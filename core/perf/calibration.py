"""Fitting the roofline's five parameters per serving stack from measurements.

Four levels, so a stack with one measurement still gets a sensible answer:

1. ``field``: per serving engine (TensorRT-LLM, vLLM, SGLang), a fit to the field's
   public measurements of that engine (AIConfigurator's silicon sample: measured time
   per output token and time to first token, each row with its own layout), priors
   from engine.yaml; and per (field stack, model) a fit whose prior is its engine's.
   The field is one source: no catalog figure informs these fits, so leaving catalog
   figures out never refits them.
2. ``global``: a fit over every single-node calibration figure of the catalog (robust
   loss, priors from engine.yaml), with the software factor of each non-reference GPU
   vendor.
3. per stack: the stack's own observations, its prior its engine's field fit where
   the field measured that engine, else the global fit.
4. per (stack, model), once measured there twice: model-specific kernels (MLA vs GQA
   attention, MoE routing) differ within one stack.

Each is a maximum a posteriori estimate in log space: residuals are log(predicted /
measured), priors are log-normal. The roofline's combination runs over numpy arrays
(``roofline.period_s``), so every observation's physics is worked out once and a fit
evaluates them all in one call. A figure published without its layout is predicted by
the best layout its stack deploys on those GPUs.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from core.catalog import Catalog, Measurement, Stack
from core.catalog.entries import EngineConstants, Prior
from core.perf.collectives import fabric_of
from core.perf.layouts import Layout, layout_kinds, system_layouts
from core.perf.memory import admit, deployable_counts, fits
from core.perf.roofline import (
    Array,
    Hardware,
    StackParams,
    Step,
    Terms,
    Workload,
    first_token,
    mean_context_tokens,
    period_s,
    scaled,
    step,
    ttft_s,
)
from core.units import ms_to_s

if TYPE_CHECKING:
    from core.catalog.field import FieldMeasurement

KV_BYTES = {"bf16": 2.0, "fp8": 1.0}
N_PARAMS = 7
MIN_TTFT_OVERHEAD_S = 0.005
MIN_FOR_GLOBAL = 3
WARM_TOLERANCE = 1e-6
"""Where a search started next to a solution (a validation refit from the full fit) it
stops once cost and step change by less than this, not SciPy's 1e-8: predictions move
by under a tenth of a point of error, and validation takes a third less time."""
TETHERED = (0, 1, 2, 3, 5, 6)
"""The parameters a field-measured engine's stacks keep near the field's fit: all but
the exposed share of collectives, which the field's mostly single-node runs barely
inform (their all-reduces are a few percent of a step)."""
SCHEDULER_TETHERED = (5, 6)
"""What a field-measured engine keeps near the field's fit for a model the field never
ran on it: its scheduler and harness (how prompts arrive, the work per sequence), the
engine's whatever the model. The rest (fixed cost per layer, the share of bandwidth
and peak its kernels reach) is the model's own kernels on that engine (Kimi K3's KDA
layers and 896-expert MXFP4 MoE, say), which the field's other models do not measure."""
MIN_FOR_MODEL_FIT = 2
"""A model earns its own parameters on a stack once measured there this many times."""
MAX_FIELD_TENSOR_WIDTH = 16
"""The widest tensor-parallel attention a field row calibrates with (SGLang's TP16 over
two 8-GPU nodes is a documented DeepSeek deployment; wider is not)."""
MLA_FAMILY = ("mla", "mla-sparse", "kda-mla-hybrid")
"""Attention kinds built on MLA's latent KV (one cache every query head reads)."""
QUANTISED_BITS = 8.0
"""Checkpoints at this many bits a weight or fewer are the ones stacks pair with FP8 KV."""
LAYOUT_TEMPERATURE = 1e-2
"""How near (in log figure) the layouts of a figure published without its layout must be
for a fit to count more than the best (``best_of``): a percent. A hard maximum puts a
crease in the fit's cost wherever the best layout changes, and a fit that wants that
figure lower settles on the crease (Kimi K2 on 96 H200s: DEP16 x 6 and TP2 x DEP4 x 12
within 1e-6 of each other in the SGLang large-EP fit), where SciPy's differenced
Jacobian zig-zags and stops wherever rounding had taken it: left-out figures of that
stack moved by 2.0% and 0.5% between OpenBLAS's Haswell and SkylakeX kernels, and by
up to 0.3% for starts a billionth apart. At a tenth of this the crease is still sharp
enough to slow the fits (two thirds more evaluations); at this, validation's headline
figures are as they were (12% and 87/95, 20% and 41/47) and no figure moves by more
than 0.8%. Engines still answer with the best layout itself."""


@dataclass(frozen=True)
class Observation:
    """A figure as the roofline sees it: the deployment, the workload, the layouts it may
    have run in (one when the figure says), and what was measured.

    A catalog measurement is an aggregate tokens/s; a field row is a time per output
    token (as per-user tokens/s) and a time to first token.
    """

    hardware: Hardware
    workload: Workload
    layouts: tuple[Layout, ...]
    stack: str
    model: str
    measurement: Measurement | None = None
    row: FieldMeasurement | None = None
    reserve_fraction: float = 0.0
    """The HBM the runtime keeps back (engine.yaml), for what the KV cache admits."""

    @property
    def tokens_per_s(self) -> float:
        assert self.measurement is not None
        return self.measurement.tokens_per_s


@dataclass(frozen=True)
class Calibration:
    global_params: StackParams
    per_stack: dict[str, StackParams]
    vendor_factors: dict[str, float] = field(default_factory=dict)
    per_model: dict[tuple[str, str], StackParams] = field(default_factory=dict)
    ttft_overhead_s: dict[tuple[str, str], float] = field(default_factory=dict)
    """Fixed time to first token by (stack, model), (stack, "") and ("", "")."""
    per_engine: dict[str, StackParams] = field(default_factory=dict)
    """The field's fit per serving engine (the prior of that engine's stacks)."""
    field_fit: FieldFit | None = None
    """The field's fits this calibration started from (reused by validation's refits,
    which never leave field rows out)."""
    borrowed: dict[tuple[str, str], StackParams] = field(default_factory=dict)
    """A model on a stack the catalog never measured it on, where the field measured it
    on the stack's engine: the field's fit of that model, moved as far as the stack's
    own measurements moved the stack from its engine's field fit."""

    def ttft_overhead_for(self, stack: str, model: str, default: float) -> float:
        for key in ((stack, model), (stack, ""), ("", "")):
            if key in self.ttft_overhead_s:
                return self.ttft_overhead_s[key]
        return default

    def params_for(
        self, stack: str, vendor: str | None = None, model: str | None = None
    ) -> StackParams:
        """The most specific fit there is: this model on this stack, else the stack,
        else the global prior; on the reference vendor's GPUs unless ``vendor`` says."""
        key = (stack, model or "")
        params = self.per_model.get(key) or self.borrowed.get(key)
        if params is None:
            params = self.per_stack.get(stack, self.global_params)
        return scaled(params, self.vendor_factors.get(vendor or "", 1.0))


# --- deployments as the stacks run them -------------------------------------------------------


def kv_precision_for(catalog: Catalog, stack: Stack, precision: str, model_kv: str) -> str:
    """The KV cache a stack keeps: its own for quantised checkpoints, else its engine's,
    else the model's own precision."""
    quantised = catalog.precisions.entries[precision].bits_per_weight <= QUANTISED_BITS
    if quantised and stack.kv_precision is not None:
        return stack.kv_precision
    defaults = catalog.engine.serving_engines.get(stack.engine)
    if quantised and defaults is not None and defaults.kv_precision is not None:
        return defaults.kv_precision
    return model_kv


def hardware_for(
    catalog: Catalog,
    *,
    model: str,
    gpu: str,
    gpus: int,
    precision: str,
    stack: str,
    kv_precision: str | None = None,
) -> Hardware:
    """The deployment a stack would run: its KV cache, its chunk size, the GPU's links."""
    m = catalog.models.entries[model]
    s = catalog.stacks.entries[stack]
    parallelism = s.parallelism
    if parallelism == "expert" and not m.is_moe:
        parallelism = "tensor"
    kv = kv_precision or kv_precision_for(catalog, s, precision, m.kv_precision)
    scale = KV_BYTES[kv] / KV_BYTES[m.kv_precision]
    g = catalog.gpus.entries[gpu]
    return Hardware(
        model=m,
        gpu=g,
        gpus=gpus,
        precision=catalog.precisions.entries[precision],
        parallelism=parallelism,
        kv_bytes_per_token=m.kv_bytes_per_token * scale,
        fabric=fabric_of(g, catalog.engine),
        prefill_chunk_tokens=s.prefill_chunk_tokens or catalog.engine.prefill_chunk_tokens,
    )


def replica_sizes(gpus: int, domain_gpus: int) -> list[int]:
    """Replica sizes worth trying on ``gpus`` GPUs: the counts a replica can use that are
    a power of two, three times one, the NVLink domain, or every GPU asked for."""

    def tidy(n: int) -> bool:
        odd = n
        while odd % 2 == 0:
            odd //= 2
        return odd in (1, 3) or n in (domain_gpus, gpus)

    return [n for n in deployable_counts() if n <= gpus and tidy(n)] or [gpus]


def candidate_layouts(
    catalog: Catalog, hw: Hardware, stack: str, *, concurrency: int = 1, max_context: int = 1
) -> tuple[Layout, ...]:
    """The layouts of the deployment's GPUs its stack deploys that hold the weights and
    one sequence (several replicas of a smaller layout included)."""
    kinds = layout_kinds(catalog.stacks.entries[stack], catalog.engine, hw.model)
    domain = hw.gpu.scale_up_domain_gpus
    reserve = catalog.engine.runtime_reserve_fraction
    found = []
    for layout in system_layouts(kinds, hw.gpus, domain, iter(replica_sizes(hw.gpus, domain))):
        if fits(
            hw,
            layout,
            concurrency=min(concurrency, layout.replicas),
            max_context_tokens=max_context,
            reserve_fraction=reserve,
        ):
            found.append(layout)
    return tuple(found)


def draft_tokens_for(engine: EngineConstants, acceptance: float) -> int:
    """Draft tokens a step verifies at this acceptance: the default, or as many as the
    acceptance needs (a step keeps at most drafts + 1 tokens); 0 without speculation."""
    if acceptance <= 1.0:
        return 0
    return max(engine.spec_decode_draft_tokens, math.ceil(acceptance) - 1)


def observe(catalog: Catalog, m: Measurement) -> Observation:
    e2e = m.phase == "end_to_end"
    inp = m.input_tokens if e2e else None
    out = m.output_tokens if e2e else None
    workload = Workload(
        concurrency=m.concurrency,
        context_tokens=mean_context_tokens(
            context_tokens=m.context_tokens,
            input_tokens=m.input_tokens,
            output_tokens=m.output_tokens,
            default=catalog.engine.default_context_tokens,
        ),
        spec_decode_acceptance=m.spec_decode_acceptance,
        input_tokens=inp if out is not None else None,
        output_tokens=out if inp is not None else None,
        draft_tokens=draft_tokens_for(catalog.engine, m.spec_decode_acceptance),
    )
    hw = hardware_for(
        catalog,
        model=m.model,
        gpu=m.gpu,
        gpus=m.gpus,
        precision=m.precision,
        stack=m.stack,
        kv_precision=m.kv_precision,
    )
    layouts = candidate_layouts(catalog, hw, m.stack) or (Layout(tp=1, pp=m.gpus),)
    return Observation(
        hardware=hw,
        workload=workload,
        layouts=layouts,
        stack=m.stack,
        model=m.model,
        measurement=m,
        reserve_fraction=catalog.engine.runtime_reserve_fraction,
    )


FieldSkip = str
"""Why a field row does not calibrate: "disaggregated", "tensor parallel across domains",
"queued beyond its batch"."""


def observe_field(catalog: Catalog, row: FieldMeasurement) -> Observation | FieldSkip:
    """A field row as the roofline sees it (its decoding worker's layout and batch), or
    why it does not calibrate.

    Kept: aggregated rows whose clients all decode at once, in a layout the stacks run.
    Left out: disaggregated rows (their decode and prefill pools are another model),
    rows whose tensor-parallel attention is wider than a stack deploys (the sample's
    GB200 rows written TP20 to TP72 with ``ep1`` decode thousands of MLA sequences at
    once, which only data-parallel attention holds: the layout columns are not what
    ran; the squared TP64 rows are put right on import), and rows with more clients
    than batch slots (what the server did with the rest is unknown).
    """
    if row.mode != "agg":
        return "disaggregated"
    worker = row.workers[0]
    domain = catalog.gpus.entries[row.gpu].scale_up_domain_gpus
    if worker.tp > 2 * domain or worker.tp > MAX_FIELD_TENSOR_WIDTH:
        return "tensor parallel across domains"
    if row.concurrency > worker.batch_per_worker:
        return "queued beyond its batch"
    layout = Layout(
        tp=worker.tp, pp=worker.pp, dp=worker.attention_dp, ep=worker.moe_ep, replicas=1
    )
    hw = hardware_for(
        catalog,
        model=row.model,
        gpu=row.gpu,
        gpus=worker.gpus,
        precision=row.precision,
        stack=row.stack,
    )
    workload = Workload(
        concurrency=row.concurrency,
        context_tokens=mean_context_tokens(
            context_tokens=None,
            input_tokens=row.input_tokens,
            output_tokens=row.output_tokens,
            default=catalog.engine.default_context_tokens,
        ),
        input_tokens=row.input_tokens,
        output_tokens=row.output_tokens,
    )
    return Observation(
        hardware=hw,
        workload=workload,
        layouts=(layout,),
        stack=row.stack,
        model=row.model,
        row=row,
        reserve_fraction=catalog.engine.runtime_reserve_fraction,
    )


# --- observations as arrays -------------------------------------------------------------------


def _stack_terms(rows: Sequence[Terms[float]]) -> Terms[Array]:
    def column(name: str) -> Array:
        return np.fromiter((getattr(t, name) for t in rows), dtype=np.float64, count=len(rows))

    return Terms(
        layers=column("layers"),
        sequences=column("sequences"),
        memory_s=column("memory_s"),
        compute_s=column("compute_s"),
        prefill_s=column("prefill_s"),
        exposed_s=column("exposed_s"),
        serial_s=column("serial_s"),
        attention_memory_s=column("attention_memory_s"),
        attention_compute_s=column("attention_compute_s"),
    )


@dataclass(frozen=True)
class Design:
    """Observations as arrays, one row per (observation, candidate layout).

    ``first`` is where each observation's rows start (``np.maximum.reduceat``: a figure
    published without its layout is predicted by its best one); per observation,
    ``target`` holds log tokens/s (catalog figures) or log per-user tokens/s and
    ``ttft_target`` log TTFT (field rows, NaN elsewhere).
    """

    observations: tuple[Observation, ...]
    decode: Terms[Array]
    chunk: Terms[Array]
    chunks: Array
    """Chunks a prompt takes (0 without prompts)."""
    ahead: Terms[Array]
    ahead_chunks: Array
    """Chunk budgets the prompts ahead of a new one take."""
    scale: Array
    """Tokens a period yields per deployment (aggregate) or per sequence (per user)."""
    vendor: Array
    first: npt.NDArray[np.int64]
    target: Array
    ttft_target: Array
    slot_wait_periods: Array
    """Periods a queued request waits for KV room (0 when none queue)."""
    closed: Array
    """Rows predicted as a closed-loop benchmark counts: clients x output tokens over
    the time each waits for its answer, first token included (catalog end-to-end
    figures); elsewhere the replica's decoding capacity."""
    clients: Array
    outputs: Array
    acceptance: Array

    @property
    def has_prompts(self) -> bool:
        return bool(np.any(self.chunks))

    def subset(self, keep: Sequence[int]) -> Design:
        """The design of observations ``keep`` (indices), rows in the same order."""
        bounds = [*self.first.tolist(), len(self.scale)]
        rows = (
            np.concatenate([np.arange(bounds[i], bounds[i + 1]) for i in keep])
            if keep
            else np.arange(0)
        )
        lengths = [bounds[i + 1] - bounds[i] for i in keep]
        first = np.cumsum([0, *lengths[:-1]]) if keep else np.arange(0)
        pick = np.asarray(list(keep), dtype=np.int64)

        def rows_of(t: Terms[Array]) -> Terms[Array]:
            return Terms(
                t.layers[rows],
                t.sequences[rows],
                t.memory_s[rows],
                t.compute_s[rows],
                t.prefill_s[rows],
                t.exposed_s[rows],
                t.serial_s[rows],
                t.attention_memory_s[rows],
                t.attention_compute_s[rows],
            )

        return Design(
            observations=tuple(self.observations[i] for i in keep),
            decode=rows_of(self.decode),
            chunk=rows_of(self.chunk),
            chunks=self.chunks[rows],
            ahead=rows_of(self.ahead),
            ahead_chunks=self.ahead_chunks[rows],
            scale=self.scale[rows],
            vendor=self.vendor[rows],
            first=np.asarray(first, dtype=np.int64),
            target=self.target[pick],
            ttft_target=self.ttft_target[pick],
            slot_wait_periods=self.slot_wait_periods[rows],
            closed=self.closed[rows],
            clients=self.clients[rows],
            outputs=self.outputs[rows],
            acceptance=self.acceptance[rows],
        )


VENDORS: tuple[str, ...] = ("NVIDIA", "AMD", "Intel", "Google", "other")


def _vendor_index(vendor: str) -> int:
    return VENDORS.index(vendor) if vendor in VENDORS else len(VENDORS) - 1


def _as_served(o: Observation, layout: Layout) -> Workload:
    """The workload as the server ran it: an end-to-end benchmark's clients beyond what
    the KV cache holds queued for a slot (their wait is in its TTFT and its throughput);
    a phase-isolated decode figure ran the batch it names."""
    if not o.workload.end_to_end:
        return o.workload
    return admit(o.hardware, layout, o.workload, o.reserve_fraction)


def design_of(observations: Sequence[Observation]) -> Design:
    decode: list[Terms[float]] = []
    chunk: list[Terms[float]] = []
    chunks: list[float] = []
    ahead: list[Terms[float]] = []
    ahead_chunks: list[float] = []
    scale: list[float] = []
    vendor: list[int] = []
    first: list[int] = []
    target: list[float] = []
    ttft_target: list[float] = []
    slot: list[float] = []
    closed: list[bool] = []
    clients: list[float] = []
    outputs: list[float] = []
    acceptance: list[float] = []
    for o in observations:
        first.append(len(scale))
        for layout in o.layouts:
            wl = _as_served(o, layout)
            s = step(o.hardware, layout, wl)
            decode.append(s.decode)
            parts = first_token(s)
            if parts is not None:
                chunk.append(parts.own)
                chunks.append(parts.own_chunks)
                ahead.append(parts.ahead)
                ahead_chunks.append(parts.ahead_chunks)
            else:
                chunk.append(s.decode)
                chunks.append(0.0)
                ahead.append(s.decode)
                ahead_chunks.append(0.0)
            per_user = o.row is not None
            accepted = wl.spec_decode_acceptance
            scale.append(accepted if per_user else wl.concurrency * accepted)
            vendor.append(_vendor_index(o.hardware.gpu.vendor))
            waits = 0.0
            if wl.queued and wl.output_tokens is not None:
                # a queued request waits queued / concurrency request-durations
                waits = wl.queued * wl.output_tokens / accepted / wl.concurrency
            slot.append(waits)
            closed.append(o.row is None and o.workload.end_to_end)
            clients.append(float(o.workload.concurrency))
            outputs.append(float(o.workload.output_tokens or 1))
            acceptance.append(accepted)
        if o.row is not None:
            target.append(math.log(o.row.per_user_tokens_per_s))
            ttft_target.append(math.log(o.row.ttft_s))
        else:
            target.append(math.log(o.tokens_per_s))
            ttft_target.append(math.nan)
    return Design(
        observations=tuple(observations),
        decode=_stack_terms(decode),
        chunk=_stack_terms(chunk),
        chunks=np.asarray(chunks),
        ahead=_stack_terms(ahead),
        ahead_chunks=np.asarray(ahead_chunks),
        scale=np.asarray(scale),
        vendor=np.asarray(vendor, dtype=np.int64),
        first=np.asarray(first, dtype=np.int64),
        target=np.asarray(target),
        ttft_target=np.asarray(ttft_target),
        slot_wait_periods=np.asarray(slot),
        closed=np.asarray(closed, dtype=bool),
        clients=np.asarray(clients),
        outputs=np.asarray(outputs),
        acceptance=np.asarray(acceptance),
    )


def _row_params(
    x: Array, factors: Array, vendor: Array
) -> tuple[Array, Array, Array, Array, Array, float, Array]:
    """Each row's parameters: the fit's, scaled by its GPU vendor's software factor."""
    f = factors[vendor]
    o, eb, ec, ep, xc, wave, seq = np.exp(x[:N_PARAMS])
    return (
        o / f,
        np.minimum(1.0, eb * f),
        np.minimum(1.0, ec * f),
        np.minimum(1.0, ep * f),
        np.full_like(f, xc),
        float(wave),
        seq / f,
    )


def best_of(values: Array, first: npt.NDArray[np.int64]) -> Array:
    """Each segment's maximum (segments start at ``first``), smoothed where its best
    values lie within ``LAYOUT_TEMPERATURE`` of each other: a log-sum-exp at that
    temperature. A single value is itself exactly; a runner-up 20% behind adds under
    1e-10, an exact tie log(2) x 1%. Smooth, so a fit has one minimum to converge to
    however near two layouts come, not a crease rounding decides where it stops on."""
    if len(first) == len(values):
        return values  # one layout each (the field's rows)
    top = np.maximum.reduceat(values, first)
    lengths = np.diff(np.append(first, len(values)))
    spread = np.exp((values - np.repeat(top, lengths)) / LAYOUT_TEMPERATURE)
    return top + LAYOUT_TEMPERATURE * np.log(np.add.reduceat(spread, first))


def predict(d: Design, x: Array, factors: Array, ttft_overhead_s: float) -> tuple[Array, Array]:
    """Log of each observation's predicted figure (its best layout's, ``best_of``) and
    log TTFT."""
    o, eb, ec, ep, xc, wave, seq = _row_params(x, factors, d.vendor)
    period = period_s(d.decode, o, eb, ec, ep, xc, seq)
    if not d.has_prompts:
        figure = best_of(np.log(d.scale / period), d.first)
        return figure, np.full(len(d.first), np.nan)
    own = d.chunks * period_s(d.chunk, o, eb, ec, ep, xc, seq)
    ahead = wave * d.ahead_chunks * period_s(d.ahead, o, eb, ec, ep, xc, seq)
    ttft = ttft_overhead_s + own + ahead + d.slot_wait_periods * period
    capacity = d.scale / period
    if d.closed.any():
        per_token = period / d.acceptance
        benchmark = d.clients * d.outputs / (ttft + (d.outputs - 1) * per_token)
        capacity = np.where(d.closed, benchmark, capacity)
    figure = best_of(np.log(capacity), d.first)
    return figure, np.log(np.minimum.reduceat(ttft, d.first))


# --- fitting ----------------------------------------------------------------------------------


def _bounds(engine: EngineConstants) -> tuple[Array, Array]:
    """Physical limits (log space): an efficiency cannot exceed 1, a per-layer overhead
    lies between 0.1 us and 10 ms, prefill stays within engine.yaml's range, at least a
    twentieth of the all-to-all is exposed, and prompts arrive between a steady stream
    and one wave."""
    low, high = engine.prefill_efficiency_range
    return (
        np.log([1e-7, 0.01, 0.01, low, 0.05, 0.02, 1e-8]),
        np.log([1e-2, 1.0, 1.0, high, 1.0, 1.0, 1e-3]),
    )


def _params(x: Sequence[float] | Array) -> StackParams:
    return StackParams(
        per_layer_step_overhead_s=math.exp(x[0]),
        bandwidth_efficiency=math.exp(x[1]),
        compute_efficiency=math.exp(x[2]),
        prefill_efficiency=math.exp(x[3]),
        exposed_communication=math.exp(x[4]),
        prompt_wave_share=math.exp(x[5]),
        per_sequence_step_overhead_s=math.exp(x[6]),
    )


@dataclass(frozen=True)
class Priors:
    """Where a fit starts and how far each parameter may stray from it."""

    params: StackParams
    log_sigma: tuple[float, float, float, float, float, float, float]
    measurement_log_sigma: float
    ttft_overhead_s: float
    engine: EngineConstants

    def around(self, params: StackParams) -> Priors:
        return replace(self, params=params)


@dataclass(frozen=True)
class Fitted:
    params: StackParams
    vendor_factors: dict[str, float]
    ttft_overhead_s: float | None = None
    """The fixed part of time to first token, when the fit had TTFTs to fit it to."""


def fit(
    d: Design,
    *,
    priors: Priors,
    vendor_factors: dict[str, float],
    fit_vendors: Prior | None = None,
    robust: bool = False,
    start: tuple[StackParams, dict[str, float]] | None = None,
) -> Fitted:
    """MAP fit of one parameter set, and with ``fit_vendors`` of the vendor factors too;
    with measured TTFTs among the observations, of the fixed part of TTFT as well.

    With no observations it returns the prior. Vendors not fitted keep the factors
    given (the reference vendor is 1 by definition). ``start`` is where the search
    begins (a nearby solution makes leave-one-out refits quick); the prior stays.
    """
    if not d.observations:
        return Fitted(priors.params, vendor_factors)
    present = {o.hardware.gpu.vendor for o in d.observations}
    vendors = sorted(present - set(vendor_factors)) if fit_vendors is not None else []
    has_ttft = ~np.isnan(d.ttft_target)
    ttft_target = d.ttft_target[has_ttft]
    fits_overhead = bool(ttft_target.size)
    engine = priors.engine
    x0 = np.concatenate(
        [
            np.log(priors.params.as_vector()),
            np.log([fit_vendors.value if fit_vendors else 1.0] * len(vendors)),
            np.log([priors.ttft_overhead_s] * fits_overhead),
        ]
    )
    sigma = np.asarray(
        [
            *priors.log_sigma,
            *([fit_vendors.log_sigma if fit_vendors else 1.0] * len(vendors)),
            *([engine.scheduling_overhead_log_sigma] * fits_overhead),
        ]
    )
    known = np.ones(len(VENDORS))
    for name, value in vendor_factors.items():
        known[_vendor_index(name)] = value
    fitted_at = [_vendor_index(v) for v in vendors]
    vendor_slice = slice(N_PARAMS, N_PARAMS + len(vendors))
    noise = priors.measurement_log_sigma

    def factors_of(x: Array) -> Array:
        if not fitted_at:
            return known
        out = known.copy()
        out[fitted_at] = np.exp(x[vendor_slice])
        return out

    def overhead_of(x: Array) -> float:
        return math.exp(x[-1]) if fits_overhead else priors.ttft_overhead_s

    def residuals(x: Array) -> Array:
        figure, ttft = predict(d, x, factors_of(x), overhead_of(x))
        parts = [(figure - d.target) / noise]
        if fits_overhead:
            parts.append((ttft[has_ttft] - ttft_target) / noise)
        parts.append((x - x0) / sigma)
        return np.concatenate(parts)

    low, high = _bounds(engine)
    lower = np.concatenate(
        [low, np.log([0.1] * len(vendors)), np.log([MIN_TTFT_OVERHEAD_S] * fits_overhead)]
    )
    upper = np.concatenate(
        [high, np.log([1.5] * len(vendors)), np.log([engine.ttft_overhead_max_s] * fits_overhead)]
    )
    begin = x0
    if start is not None:
        params, given = start
        begin = np.concatenate(
            [
                np.log(params.as_vector()),
                [math.log(given.get(v, 1.0)) for v in vendors],
                x0[len(x0) - fits_overhead :],
            ]
        )
    # Imported here: scipy costs half a second, and only calibration (not answering
    # from a cached engine) fits anything.
    from scipy.optimize import least_squares

    result = least_squares(
        residuals,
        np.clip(begin, lower + 1e-9, upper - 1e-9),
        bounds=(lower, upper),
        loss="soft_l1" if robust else "linear",
        f_scale=3.0,
        **({} if start is None else {"ftol": WARM_TOLERANCE, "xtol": WARM_TOLERANCE}),
    )
    fitted = {
        **vendor_factors,
        **{v: math.exp(result.x[N_PARAMS + i]) for i, v in enumerate(vendors)},
    }
    return Fitted(_params(result.x), fitted, overhead_of(result.x) if fits_overhead else None)


def priors_of(engine: EngineConstants) -> Priors:
    return Priors(
        params=StackParams(
            per_layer_step_overhead_s=ms_to_s(engine.per_layer_step_overhead_us.value / 1000),
            bandwidth_efficiency=engine.bandwidth_efficiency.value,
            compute_efficiency=engine.compute_efficiency.value,
            prefill_efficiency=engine.prefill_efficiency.value,
            exposed_communication=engine.exposed_communication.value,
            prompt_wave_share=engine.prompt_wave_share.value,
            per_sequence_step_overhead_s=engine.per_sequence_step_overhead_us.value / 1e6,
        ),
        log_sigma=(
            engine.per_layer_step_overhead_us.log_sigma,
            engine.bandwidth_efficiency.log_sigma,
            engine.compute_efficiency.log_sigma,
            engine.prefill_efficiency.log_sigma,
            engine.exposed_communication.log_sigma,
            engine.prompt_wave_share.log_sigma,
            engine.per_sequence_step_overhead_us.log_sigma,
        ),
        measurement_log_sigma=engine.measurement_log_sigma,
        ttft_overhead_s=engine.scheduling_overhead_s,
        engine=engine,
    )


@dataclass(frozen=True)
class FieldFit:
    """What the field's measurements say, fitted once per catalog: per serving engine and
    per (field stack, model), and the TTFT overhead residuals they leave."""

    per_engine: dict[str, StackParams]
    per_stack: dict[str, StackParams]
    per_model: dict[tuple[str, str], StackParams]
    ttft_overhead_s: dict[tuple[str, str], float]


NO_FIELD = FieldFit({}, {}, {}, {})


def field_observations(catalog: Catalog, exclude: Collection[str] = ()) -> list[Observation]:
    found = []
    for row in catalog.field_measurements():
        if row.id in exclude:
            continue
        o = observe_field(catalog, row)
        if isinstance(o, Observation):
            found.append(o)
    return found


def _mla_data_parallel(o: Observation) -> bool:
    """A row of an MLA model run with data-parallel attention: the DeepSeek code path.

    MLA's latent KV cannot be split across a tensor-parallel group (``kv_split``), so
    the stacks serve DeepSeek-class models with attention data parallel: each rank its
    own latent cache, batch and queue of prompts, the absorbed MLA kernels at that
    rank's batch, the experts' all-to-all, every MoE layer waiting for the slowest
    rank. That path informs its models' own fits, not the engine's, which every model
    of the engine without rows of its own takes (as wide expert parallelism stays out
    of the catalog's global fit): its rows are the ones the roofline explains least
    (DeepSeek-R1's first tokens on TensorRT-LLM come out at a half to a third of
    measured), and with them in, how MLA prompts
    and data-parallel prefill are costed moved TensorRT-LLM's compute efficiency from
    1.0 to 0.63 and every dense model's figures with it (Llama 2 70B on 8 H200s -7% ->
    -16%). Data-parallel rows of GQA models stay: their engine's fit barely moved."""
    return o.hardware.model.attention in MLA_FAMILY and any(layout.dp > 1 for layout in o.layouts)


def fit_field(
    catalog: Catalog, *, exclude: Collection[str] = (), warm: FieldFit | None = None
) -> FieldFit:
    """The field's fits: each serving engine's rows from engine.yaml's priors (MLA
    models' rows with data-parallel attention left to their models' fits), then each
    (stack, model) of them from its engine's fit.

    ``exclude`` leaves field rows out by id (the field check's held-out deployments);
    ``warm`` (the fit on every row) is where each search starts.
    """
    observations = field_observations(catalog, exclude)
    if not observations:
        return NO_FIELD

    def begin(params: StackParams | None) -> tuple[StackParams, dict[str, float]] | None:
        return None if params is None else (params, reference)

    priors = priors_of(catalog.engine)
    design = design_of(observations)
    by_engine: dict[str, list[int]] = {}
    by_model: dict[tuple[str, str], list[int]] = {}
    by_stack: dict[str, list[int]] = {}
    own_path: dict[str, list[int]] = {}
    for i, o in enumerate(observations):
        named = catalog.stacks.entries[o.stack].engine
        (own_path if _mla_data_parallel(o) else by_engine).setdefault(named, []).append(i)
        by_stack.setdefault(o.stack, []).append(i)
        by_model.setdefault((o.stack, o.model), []).append(i)
    for name, rows in own_path.items():
        by_engine.setdefault(name, rows)
    reference = {catalog.engine.reference_vendor: 1.0}
    overheads: dict[tuple[str, str], float] = {}
    per_engine: dict[str, StackParams] = {}
    for name, rows in sorted(by_engine.items()):
        found = fit(
            design.subset(rows),
            priors=priors,
            vendor_factors=reference,
            robust=True,
            start=begin(warm.per_engine.get(name) if warm else None),
        )
        per_engine[name] = found.params
        for stack in (s for s in by_stack if catalog.stacks.entries[s].engine == name):
            overheads[(stack, "")] = found.ttft_overhead_s or priors.ttft_overhead_s
    per_stack = {stack: per_engine[catalog.stacks.entries[stack].engine] for stack in by_stack}
    per_model: dict[tuple[str, str], StackParams] = {}
    for key, rows in sorted(by_model.items()):
        if len(rows) < MIN_FOR_MODEL_FIT:
            continue
        found = fit(
            design.subset(rows),
            priors=replace(
                priors.around(per_stack[key[0]]), ttft_overhead_s=overheads[(key[0], "")]
            ),
            vendor_factors=reference,
            robust=True,
            start=begin(warm.per_model.get(key) if warm else None),
        )
        per_model[key] = found.params
        overheads[key] = found.ttft_overhead_s or overheads[(key[0], "")]
    return FieldFit(per_engine, per_stack, per_model, overheads)


def calibrate(
    catalog: Catalog,
    *,
    exclude: Iterable[str] = (),
    stacks: Iterable[str] | None = None,
    models: Iterable[str] | None = None,
    warm: Calibration | None = None,
    field_fit: FieldFit | None = None,
) -> Calibration:
    """Fit the global and per-stack parameters, leaving out measurements by id.

    ``stacks`` limits the per-stack fits (the others fall back to the global fit) and
    ``models`` the per-model fits on those stacks, which is all a validation refit
    needs to predict what it left out; ``warm`` (the fit on everything) is where each
    search starts, and the global fit itself when nothing left out informed it.
    ``field_fit`` is the field's fits (worked out here when not given; ``NO_FIELD``
    for an engine that never saw the field).
    """
    if field_fit is None:
        field_fit = warm.field_fit if warm is not None and warm.field_fit else fit_field(catalog)

    def begin(params: StackParams | None) -> tuple[StackParams, dict[str, float]] | None:
        if warm is None or params is None:
            return None
        return params, warm.vendor_factors

    wanted = None if stacks is None else set(stacks)
    wanted_models = None if models is None else set(models)
    left_out = set(exclude)
    engine = catalog.engine
    priors = priors_of(engine)
    calibrating = [m for m in catalog.measurements if m.role == "calibration"]
    observations = [observe(catalog, m) for m in calibrating if m.id not in left_out]
    design = design_of(observations)
    # Wide expert parallelism pays all-to-all costs single-node stacks never see; it
    # informs its own stacks, not the prior every other stack starts from.
    single = [i for i, o in enumerate(observations) if o.hardware.parallelism != "expert"]
    dropped_expert_only = all(
        catalog.stacks.entries[m.stack].parallelism == "expert"
        for m in calibrating
        if m.id in left_out
    )
    if warm is not None and len(single) >= MIN_FOR_GLOBAL and dropped_expert_only:
        # what was left out never informed the global fit: it is the full fit's, exactly
        global_params, vendor_factors = warm.global_params, warm.vendor_factors
    else:
        pool = single if len(single) >= MIN_FOR_GLOBAL else list(range(len(observations)))
        found = fit(
            design.subset(pool),
            priors=priors,
            vendor_factors={engine.reference_vendor: 1.0},
            fit_vendors=engine.vendor_software_factor,
            robust=True,
            start=begin(warm.global_params if warm else None),
        )
        global_params, vendor_factors = found.params, found.vendor_factors

    def prior_of(stack: str) -> StackParams:
        entry = catalog.stacks.entries[stack]
        if stack in field_fit.per_stack:
            found = field_fit.per_stack[stack]
        else:
            found = field_fit.per_engine.get(entry.engine, global_params)
        if entry.overlaps_communication:
            found = replace(
                found, exposed_communication=engine.exposed_communication_overlapped.value
            )
        if entry.kernels_per_layer_share != 1.0:
            found = replace(
                found,
                per_layer_step_overhead_s=found.per_layer_step_overhead_s
                * entry.kernels_per_layer_share,
            )
        return found

    def tethered(stack: str, params: StackParams, kept: tuple[int, ...] = TETHERED) -> Priors:
        """Priors around ``params``; a stack whose engine the field measured keeps its
        ``kept`` parameters near that evidence (thousands of runs outweigh a catalog
        stack's handful)."""
        around = priors.around(params)
        entry = catalog.stacks.entries[stack]
        if entry.overlaps_communication:
            sigma = list(around.log_sigma)
            sigma[4] = engine.exposed_communication_overlapped.log_sigma
            around = replace(around, log_sigma=tuple(sigma))  # type: ignore[arg-type]
        if entry.specialised or entry.engine not in field_fit.per_engine:
            return around
        spread = engine.field_prior_log_sigma
        sigma = list(around.log_sigma)
        for i in kept:
            sigma[i] = spread
        return replace(around, log_sigma=tuple(sigma))  # type: ignore[arg-type]

    by_stack: dict[str, list[int]] = {}
    by_model: dict[tuple[str, str], list[int]] = {}
    for i, o in enumerate(observations):
        by_stack.setdefault(o.stack, []).append(i)
        by_model.setdefault((o.stack, o.model), []).append(i)
    field_engine_models: dict[str, dict[str, StackParams]] = {}
    for (field_stack, model), params in field_fit.per_model.items():
        named = catalog.stacks.entries[field_stack].engine
        field_engine_models.setdefault(named, {})[model] = params
    per_stack = {
        stack.id: fit(
            design.subset(by_stack.get(stack.id, [])),
            priors=tethered(stack.id, prior_of(stack.id)),
            vendor_factors=vendor_factors,
            start=begin(warm.per_stack.get(stack.id) if warm else None),
        ).params
        for stack in catalog.stacks
        if wanted is None or stack.id in wanted
    }
    borrowed: dict[tuple[str, str], StackParams] = {}
    for stack_id, params in per_stack.items():
        named = catalog.stacks.entries[stack_id].engine
        if named not in field_fit.per_engine:
            continue
        for model, measured in field_engine_models.get(named, {}).items():
            borrowed[(stack_id, model)] = _moved(
                measured, field_fit.per_engine[named], params, engine
            )
    per_model = {
        key: fit(
            design.subset(rows),
            priors=tethered(
                key[0],
                borrowed.get(key) or per_stack.get(key[0], global_params),
                TETHERED if key in borrowed else SCHEDULER_TETHERED,
            ),
            vendor_factors=vendor_factors,
            start=begin(warm.per_model.get(key) if warm else None),
        ).params
        for key, rows in by_model.items()
        if len(rows) >= MIN_FOR_MODEL_FIT
        and (wanted is None or key[0] in wanted)
        and (wanted_models is None or key[1] in wanted_models)
    }
    for key, params in field_fit.per_model.items():
        per_model.setdefault(key, params)
    calibration = Calibration(
        global_params=global_params,
        per_stack=per_stack,
        vendor_factors=vendor_factors,
        per_model=per_model,
        per_engine=dict(field_fit.per_engine),
        field_fit=field_fit,
        borrowed=borrowed,
    )
    overheads = _ttft_residuals(
        observations,
        lambda o: calibration.params_for(o.stack, o.hardware.gpu.vendor, o.model),
        lambda o: (
            sum(o.measurement.ttft_s) / 2
            if o.measurement is not None and o.measurement.ttft_s
            else None
        ),
        engine,
    )
    # A stack of an engine the field measured takes the field's fixed TTFT: the catalog's
    # few first-token times are mostly queueing the overhead should not absorb.
    field_stacks = {catalog.stacks.entries[s].engine: s for s, _ in field_fit.ttft_overhead_s}
    inherited: dict[tuple[str, str], float] = {}
    for stack in catalog.stacks:
        source = field_stacks.get(stack.engine)
        if source is None or stack.id == source:
            continue
        overheads = {k: v for k, v in overheads.items() if k[0] != stack.id}
        for (field_stack, model), value in field_fit.ttft_overhead_s.items():
            if field_stack == source:
                inherited[(stack.id, model)] = value
    return replace(
        calibration, ttft_overhead_s={**field_fit.ttft_overhead_s, **inherited, **overheads}
    )


def _moved(
    model: StackParams, engine_fit: StackParams, stack: StackParams, engine: EngineConstants
) -> StackParams:
    """``model``'s parameters moved by the stack's departure from its engine's fit (each
    a ratio, so log-additive), kept within the fits' physical bounds."""
    low, high = _bounds(engine)
    moved = np.log(model.as_vector()) + np.log(stack.as_vector()) - np.log(engine_fit.as_vector())
    return _params(np.clip(moved, low, high))


def _ttft_residuals(
    observations: Sequence[Observation],
    params_of: Callable[[Observation], StackParams],
    measured_of: Callable[[Observation], float | None],
    engine: EngineConstants,
) -> dict[tuple[str, str], float]:
    """The part of each measured TTFT the roofline does not explain (HTTP, tokenizing,
    scheduling), as a median by (stack, model), by stack and overall, kept under
    engine.yaml's ceiling. Waiting for KV-cache room is modelled (``admit``), so the
    minutes some published TTFTs spend queueing do not inflate the overhead."""
    residuals: dict[tuple[str, str], list[float]] = {}
    for o in observations:
        measured = measured_of(o)
        if measured is None or not o.workload.input_tokens:
            continue
        params = params_of(o)
        layout = _best(o, params)
        admitted = admit(o.hardware, layout, o.workload, engine.runtime_reserve_fraction)
        modelled = ttft_s(step(o.hardware, layout, admitted), params, 0.0)
        residual = min(engine.ttft_overhead_max_s, max(MIN_TTFT_OVERHEAD_S, measured - modelled))
        for key in ((o.stack, o.model), (o.stack, ""), ("", "")):
            residuals.setdefault(key, []).append(residual)
    return {key: statistics.median(values) for key, values in residuals.items()}


def _best(o: Observation, params: StackParams) -> Layout:
    """The layout of an observation that yields most under ``params``."""
    if len(o.layouts) == 1:
        return o.layouts[0]
    return max(
        o.layouts, key=lambda layout: step(o.hardware, layout, o.workload).tokens_per_s(params)
    )


def best_step(o: Observation, params: StackParams) -> Step:
    return step(o.hardware, _best(o, params), o.workload)
