"""Fitting the roofline's three parameters per serving stack from measurements.

Two stages, so a stack with one measurement still gets a sensible answer: a
global fit over every calibration measurement (robust loss, priors from
engine.yaml), then one fit per stack whose prior is the global fit. It is a
maximum a posteriori estimate in log space: residuals are log(predicted /
measured), priors are log-normal.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from core.catalog import Catalog, Measurement
from core.catalog.entries import Prior
from core.perf.memory import admit
from core.perf.roofline import (
    Hardware,
    StackParams,
    Workload,
    mean_context_tokens,
    scaled,
    tokens_per_s,
    ttft_s,
)
from core.units import ms_to_s

# Physical limits on the parameters (log-space bounds for the optimiser): an
# efficiency cannot exceed 1, a per-layer overhead lies between 0.1 us and 10 ms.
_LOWER = np.log([1e-7, 0.01, 0.01, 0.01, 1e-8])
_UPPER = np.log([1e-2, 1.0, 1.0, 1.0, 1e-2])
KV_BYTES = {"bf16": 2.0, "fp8": 1.0}
N_PARAMS = 5
MIN_TTFT_OVERHEAD_S = 0.005
MIN_FOR_GLOBAL = 3
WARM_TOLERANCE = 1e-6
"""Where a search started next to a solution (a validation refit from the full fit) it
stops once cost and step change by less than this, not SciPy's 1e-8: predictions move
by under a tenth of a point of error, and validation takes a third less time."""
MIN_FOR_MODEL_FIT = 2
"""A model earns its own parameters on a stack once measured there this many times:
model-specific kernels (MLA vs GQA attention, MoE routing) differ within one stack."""
"""Fewer tensor-parallel measurements than this and the global fit uses them all."""


@dataclass(frozen=True)
class Observation:
    """A measurement as the roofline sees it: the hardware, the workload, the figure."""

    measurement: Measurement
    hardware: Hardware
    workload: Workload

    @property
    def tokens_per_s(self) -> float:
        return self.measurement.tokens_per_s


@dataclass(frozen=True)
class Calibration:
    global_params: StackParams
    per_stack: dict[str, StackParams]
    vendor_factors: dict[str, float] = field(default_factory=dict)
    per_model: dict[tuple[str, str], StackParams] = field(default_factory=dict)
    ttft_overhead_s: dict[tuple[str, str], float] = field(default_factory=dict)
    """Fixed time to first token by (stack, model), (stack, "") and ("", "")."""

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
        params = self.per_model.get(
            (stack, model or ""), self.per_stack.get(stack, self.global_params)
        )
        return scaled(params, self.vendor_factors.get(vendor or "", 1.0))


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
    """The replica a stack would run; a dense model has no experts to spread, so an
    expert-parallel stack runs it tensor-parallel."""
    m = catalog.models.entries[model]
    parallelism = catalog.stacks.entries[stack].parallelism
    if parallelism == "expert" and not m.is_moe:
        parallelism = "tensor"
    scale = KV_BYTES[kv_precision or m.kv_precision] / KV_BYTES[m.kv_precision]
    return Hardware(
        model=m,
        gpu=catalog.gpus.entries[gpu],
        gpus=gpus,
        precision=catalog.precisions.entries[precision],
        parallelism=parallelism,
        kv_bytes_per_token=m.kv_bytes_per_token * scale,
    )


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
    return Observation(measurement=m, hardware=hw, workload=workload)


def _params(x: Sequence[float] | np.ndarray) -> StackParams:
    return StackParams(
        per_layer_step_overhead_s=math.exp(x[0]),
        bandwidth_efficiency=math.exp(x[1]),
        compute_efficiency=math.exp(x[2]),
        prefill_efficiency=math.exp(x[3]),
        per_layer_collective_s=math.exp(x[4]),
    )


def fit(
    observations: Sequence[Observation],
    *,
    prior: StackParams,
    log_sigma: tuple[float, float, float, float, float],
    measurement_log_sigma: float,
    vendor_factors: dict[str, float],
    fit_vendors: Prior | None = None,
    robust: bool = False,
    start: tuple[StackParams, dict[str, float]] | None = None,
) -> tuple[StackParams, dict[str, float]]:
    """MAP fit of one parameter set, and with ``fit_vendors`` of the vendor factors too.

    With no observations it returns the prior. Vendors not fitted keep the factors
    given (the reference vendor is 1 by definition). ``start`` is where the search
    begins (a nearby solution makes leave-one-out refits quick); the prior stays.
    """
    if not observations:
        return prior, vendor_factors
    vendors = (
        sorted({o.hardware.gpu.vendor for o in observations} - set(vendor_factors))
        if fit_vendors is not None
        else []
    )
    x0 = np.concatenate(
        [
            np.log(prior.as_vector()),
            np.log([fit_vendors.value if fit_vendors else 1.0] * len(vendors)),
        ]
    )
    sigma = np.asarray(
        [*log_sigma, *([fit_vendors.log_sigma if fit_vendors else 1.0] * len(vendors))]
    )
    targets = np.log([o.tokens_per_s for o in observations])

    def factors(x: np.ndarray) -> dict[str, float]:
        return {**vendor_factors, **{v: math.exp(x[N_PARAMS + i]) for i, v in enumerate(vendors)}}

    def residuals(x: np.ndarray) -> np.ndarray:
        p, f = _params(x), factors(x)
        predicted = np.log(
            [
                tokens_per_s(o.hardware, o.workload, scaled(p, f.get(o.hardware.gpu.vendor, 1.0)))
                for o in observations
            ]
        )
        return np.concatenate([(predicted - targets) / measurement_log_sigma, (x - x0) / sigma])

    lower = np.concatenate([_LOWER, np.log([0.1] * len(vendors))])
    upper = np.concatenate([_UPPER, np.log([1.5] * len(vendors))])
    begin = x0
    if start is not None:
        params, known = start
        begin = np.concatenate(
            [np.log(params.as_vector()), [math.log(known.get(v, 1.0)) for v in vendors]]
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
    return _params(result.x), factors(result.x)


def calibrate(
    catalog: Catalog,
    *,
    exclude: Iterable[str] = (),
    stacks: Iterable[str] | None = None,
    models: Iterable[str] | None = None,
    warm: Calibration | None = None,
) -> Calibration:
    """Fit the global and per-stack parameters, leaving out measurements by id.

    ``stacks`` limits the per-stack fits (the others fall back to the global fit) and
    ``models`` the per-model fits on those stacks, which is all a validation refit
    needs to predict what it left out; ``warm`` (the fit on everything) is where each
    search starts, and the global fit itself when nothing left out informed it.
    """

    def begin(params: StackParams | None) -> tuple[StackParams, dict[str, float]] | None:
        if warm is None or params is None:
            return None
        return params, warm.vendor_factors

    wanted = None if stacks is None else set(stacks)
    wanted_models = None if models is None else set(models)
    left_out = set(exclude)
    engine = catalog.engine
    observations = [
        observe(catalog, m)
        for m in catalog.measurements
        if m.role == "calibration" and m.id not in left_out
    ]
    prior = StackParams(
        per_layer_step_overhead_s=ms_to_s(engine.per_layer_step_overhead_us.value / 1000),
        bandwidth_efficiency=engine.bandwidth_efficiency.value,
        compute_efficiency=engine.compute_efficiency.value,
        prefill_efficiency=engine.prefill_efficiency.value,
        per_layer_collective_s=ms_to_s(engine.per_layer_collective_us.value / 1000),
    )
    sigma = (
        engine.per_layer_step_overhead_us.log_sigma,
        engine.bandwidth_efficiency.log_sigma,
        engine.compute_efficiency.log_sigma,
        engine.prefill_efficiency.log_sigma,
        engine.per_layer_collective_us.log_sigma,
    )
    noise = engine.measurement_log_sigma
    # Wide expert parallelism pays all-to-all costs single-node stacks never see; it
    # informs its own stacks, not the prior every other stack starts from.
    single_node = [o for o in observations if o.hardware.parallelism != "expert"]
    dropped = [
        observe(catalog, m)
        for m in catalog.measurements
        if m.role == "calibration" and m.id in left_out
    ]
    if (
        warm is not None
        and len(single_node) >= MIN_FOR_GLOBAL
        and all(o.hardware.parallelism == "expert" for o in dropped)
    ):
        # what was left out never informed the global fit: it is the full fit's, exactly
        global_params, vendor_factors = warm.global_params, warm.vendor_factors
    else:
        global_params, vendor_factors = fit(
            single_node if len(single_node) >= MIN_FOR_GLOBAL else observations,
            prior=prior,
            log_sigma=sigma,
            measurement_log_sigma=noise,
            vendor_factors={engine.reference_vendor: 1.0},
            fit_vendors=engine.vendor_software_factor,
            robust=True,
            start=begin(warm.global_params if warm else None),
        )
    per_stack = {
        stack.id: fit(
            [o for o in observations if o.measurement.stack == stack.id],
            prior=global_params,
            log_sigma=sigma,
            measurement_log_sigma=noise,
            vendor_factors=vendor_factors,
            start=begin(warm.per_stack.get(stack.id) if warm else None),
        )[0]
        for stack in catalog.stacks
        if wanted is None or stack.id in wanted
    }
    groups: dict[tuple[str, str], list[Observation]] = {}
    for o in observations:
        groups.setdefault((o.measurement.stack, o.measurement.model), []).append(o)
    per_model = {
        key: fit(
            group,
            prior=per_stack.get(key[0], global_params),
            log_sigma=sigma,
            measurement_log_sigma=noise,
            vendor_factors=vendor_factors,
            start=begin(warm.per_model.get(key) if warm else None),
        )[0]
        for key, group in groups.items()
        if len(group) >= MIN_FOR_MODEL_FIT
        and (wanted is None or key[0] in wanted)
        and (wanted_models is None or key[1] in wanted_models)
    }
    calibration = Calibration(
        global_params=global_params,
        per_stack=per_stack,
        vendor_factors=vendor_factors,
        per_model=per_model,
    )
    overheads = _ttft_overheads(observations, calibration, engine.runtime_reserve_fraction)
    return replace(calibration, ttft_overhead_s=overheads)


def _ttft_overheads(
    observations: Sequence[Observation], calibration: Calibration, reserve_fraction: float
) -> dict[tuple[str, str], float]:
    """The part of each measured TTFT the roofline does not explain (HTTP, tokenizing,
    scheduling), as a median by (stack, model), by stack and overall. Waiting for
    KV-cache room is modelled (``admit``), so the minutes some published TTFTs spend
    queueing do not inflate the overhead."""
    residuals: dict[tuple[str, str], list[float]] = {}
    for o in observations:
        m = o.measurement
        if m.ttft_s is None:
            continue
        params = calibration.params_for(m.stack, o.hardware.gpu.vendor, m.model)
        admitted = admit(o.hardware, o.workload, reserve_fraction)
        modelled = ttft_s(o.hardware, admitted, params, 0.0)
        residual = max(MIN_TTFT_OVERHEAD_S, sum(m.ttft_s) / 2 - modelled)
        for key in ((m.stack, m.model), (m.stack, ""), ("", "")):
            residuals.setdefault(key, []).append(residual)
    return {key: statistics.median(values) for key, values in residuals.items()}
