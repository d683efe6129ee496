"""The MoE-aware decode roofline: a few physical terms, a few fitted parameters.

A decode step reads the always-read weights, the routed experts the batch's
tokens touch, and every sequence's KV cache and recurrent state; it pays a fixed
per-layer cost (kernel launches, collectives) that fused paths shrink. Compute
bounds the step from below at large batches. Prefill is compute-bound.

Every function here is a formula of its arguments; figures come from the
catalog and from the stack parameters that ``calibration`` fits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from core.catalog import Gpu, Model, Precision
from core.units import billions, gb_to_bytes, tb_per_s_to_bytes_per_s, tflops_to_flops

Parallelism = str  # "tensor" | "expert" | "layer_split", as on catalog stacks


@dataclass(frozen=True)
class StackParams:
    """What calibration fits per serving stack (see ``core.perf.calibration``)."""

    per_layer_step_overhead_s: float
    bandwidth_efficiency: float
    compute_efficiency: float
    prefill_efficiency: float
    per_layer_collective_s: float

    def as_vector(self) -> tuple[float, float, float, float, float]:
        return (
            self.per_layer_step_overhead_s,
            self.bandwidth_efficiency,
            self.compute_efficiency,
            self.prefill_efficiency,
            self.per_layer_collective_s,
        )


def scaled(params: StackParams, software_factor: float) -> StackParams:
    """The same stack on a platform whose kernels reach ``software_factor`` of the
    reference vendor's efficiency (and pay its fixed costs 1/factor times)."""
    if software_factor == 1.0:
        return params
    return StackParams(
        per_layer_step_overhead_s=params.per_layer_step_overhead_s / software_factor,
        bandwidth_efficiency=min(1.0, params.bandwidth_efficiency * software_factor),
        compute_efficiency=min(1.0, params.compute_efficiency * software_factor),
        prefill_efficiency=min(1.0, params.prefill_efficiency * software_factor),
        per_layer_collective_s=params.per_layer_collective_s / software_factor,
    )


@dataclass(frozen=True)
class Hardware:
    """A replica: one model at one precision on ``gpus`` GPUs of one kind.

    ``kv_bytes_per_token`` is the model's KV footprint at the KV-cache precision
    this deployment runs (FP8 KV halves a BF16 cache).
    """

    model: Model
    gpu: Gpu
    gpus: int
    precision: Precision
    parallelism: Parallelism
    kv_bytes_per_token: float


@dataclass(frozen=True)
class Workload:
    """The traffic shape a replica sees.

    ``context_tokens`` is the mean KV length per sequence while decoding.
    ``input_tokens``/``output_tokens`` are per request; with ``input_tokens``
    unset the throughput is decode-only (prefill assumed free, as in
    phase-isolated benchmarks). ``output_tokens`` counts reasoning tokens too:
    they are decoded like any other.
    """

    concurrency: int
    context_tokens: int
    spec_decode_acceptance: float = 1.0
    input_tokens: int | None = None
    output_tokens: int | None = None
    queued: int = 0
    """Requests beyond what the KV cache admits: they wait for a slot, not decode."""

    @property
    def end_to_end(self) -> bool:
        return self.input_tokens is not None and self.output_tokens is not None


def weight_bytes(model: Model, precision: Precision) -> float:
    """Checkpoint size as published where known, else parameters x bits."""
    if precision.id in model.checkpoint_gb:
        return gb_to_bytes(model.checkpoint_gb[precision.id])
    return billions(model.total_params_b) * precision.bits_per_weight / 8


def experts_touched_fraction(model: Model, tokens: int) -> float:
    """Expected share of routed experts a step's tokens select: 1 - (1 - k/E)^tokens."""
    if not model.is_moe:
        return 0.0
    miss = 1.0 - model.experts_per_token / model.experts
    return 1.0 - miss**tokens


def pipeline_stages(hw: Hardware) -> int:
    """A tensor-parallel replica larger than one NVLink domain is split into pipeline
    stages, one domain each: tensor-parallel collectives do not cross the network."""
    if hw.parallelism != "tensor":
        return 1
    return math.ceil(hw.gpus / hw.gpu.scale_up_domain_gpus)


def kv_shards(hw: Hardware) -> int:
    """Across how many GPUs one sequence's KV is split.

    MLA's latent is replicated on every tensor-parallel rank of a stage; GQA splits
    by KV head; pipeline stages each hold their own layers; data-parallel attention
    (wide expert parallelism) and layer split each keep a sequence's KV in one place,
    so the batch's KV spreads over all GPUs.
    """
    if hw.parallelism in ("expert", "layer_split"):
        return hw.gpus
    stages = pipeline_stages(hw)
    per_stage = hw.gpus // stages
    if hw.model.kv_heads is None:
        return stages
    return min(per_stage, hw.model.kv_heads) * stages


def _bandwidth_gpus(hw: Hardware) -> int:
    """GPUs whose bandwidth adds up for a step: all of them, unless layers run in turn."""
    return 1 if hw.parallelism == "layer_split" else hw.gpus


def _collective_gpus(hw: Hardware) -> int:
    """GPUs in one tensor-parallel all-reduce: one stage's worth."""
    return _bandwidth_gpus(hw) // pipeline_stages(hw)


def always_read_bytes_per_gpu(hw: Hardware) -> float:
    """Dense weights each GPU holds: sharded under tensor parallelism, whole on every
    GPU under wide expert parallelism (data-parallel attention keeps a full copy)."""
    weights = weight_bytes(hw.model, hw.precision)
    routed = weights * hw.model.routed_weight_fraction if hw.model.is_moe else 0.0
    dense = weights - routed
    return dense if hw.parallelism == "expert" else dense / hw.gpus


def step_bytes_per_gpu(hw: Hardware, wl: Workload) -> float:
    """Bytes one GPU reads from HBM in one decode step.

    With k pipeline stages the batch moves as k micro-batches, so each stage reads
    its weights once per micro-batch (k times a step) for the experts a micro-batch
    touches: pipelining keeps every GPU busy but amortises weights over fewer tokens.
    """
    model, n = hw.model, hw.gpus
    weights = weight_bytes(model, hw.precision)
    routed = weights * model.routed_weight_fraction if model.is_moe else 0.0
    kv = wl.concurrency * wl.context_tokens * hw.kv_bytes_per_token
    state = 2 * wl.concurrency * model.state_bytes_per_sequence  # read and written back
    if hw.parallelism == "layer_split":
        touched = routed * experts_touched_fraction(model, wl.concurrency)
        return weights - routed + touched + kv + state
    stages = pipeline_stages(hw)
    micro_batch = max(1, math.ceil(wl.concurrency / stages))
    touched = routed * experts_touched_fraction(model, micro_batch)
    return stages * (always_read_bytes_per_gpu(hw) + touched / n) + state / n + kv / kv_shards(hw)


def step_time_s(hw: Hardware, wl: Workload, params: StackParams) -> float:
    """Seconds per decode step of the whole batch."""
    bandwidth = tb_per_s_to_bytes_per_s(hw.gpu.hbm_bandwidth_tb_per_s) * params.bandwidth_efficiency
    memory_s = step_bytes_per_gpu(hw, wl) / bandwidth
    compute_s = _compute_s(
        hw,
        linear_flops=2 * billions(hw.model.active_params_b) * wl.concurrency,
        attention_flops=hw.model.attention_flops_per_context_token
        * wl.context_tokens
        * wl.concurrency,
        efficiency=params.compute_efficiency,
    )
    fixed_s = hw.model.layers * (
        params.per_layer_step_overhead_s
        + params.per_layer_collective_s * math.log2(_collective_gpus(hw))
    )
    return fixed_s + max(memory_s, compute_s)


def prefill_time_s(hw: Hardware, input_tokens: int, params: StackParams) -> float:
    """Seconds of the replica's compute that one request's prompt takes."""
    if input_tokens == 0:
        return 0.0
    return _compute_s(
        hw,
        linear_flops=2 * billions(hw.model.active_params_b) * input_tokens,
        # causal attention: token i attends to i earlier tokens, n^2/2 in all
        attention_flops=hw.model.attention_flops_per_context_token * input_tokens**2 / 2,
        efficiency=params.prefill_efficiency,
    )


def _compute_s(
    hw: Hardware, *, linear_flops: float, attention_flops: float, efficiency: float
) -> float:
    """Weight GEMMs run at the weights' tensor-core class; attention runs in BF16."""
    gpus = _bandwidth_gpus(hw)
    linear_peak = tflops_to_flops(hw.gpu.tflops_for(hw.precision.compute)) * gpus
    attention_peak = tflops_to_flops(hw.gpu.tflops_for("bf16")) * gpus
    return (linear_flops / linear_peak + attention_flops / attention_peak) / efficiency


def decode_tokens_per_s(hw: Hardware, wl: Workload, params: StackParams) -> float:
    """Aggregate decode tokens/s: b x acceptance / t_step."""
    return wl.concurrency * wl.spec_decode_acceptance / step_time_s(hw, wl, params)


def compose_end_to_end(decode_tps: float, hw: Hardware, wl: Workload, params: StackParams) -> float:
    """Aggregate output tokens/s once each request's prefill takes its share of the GPUs.

    Per output token the replica spends 1/decode_tps on decoding plus
    t_prefill / output_tokens on the prompt that produced it.
    """
    if not wl.end_to_end:
        return decode_tps
    assert wl.input_tokens is not None and wl.output_tokens is not None
    prefill_s = prefill_time_s(hw, wl.input_tokens, params)
    per_token_s = 1.0 / decode_tps + prefill_s / wl.output_tokens
    return 1.0 / per_token_s


def tokens_per_s(hw: Hardware, wl: Workload, params: StackParams) -> float:
    """The model's aggregate output tokens/s for this workload (decode or end to end)."""
    return compose_end_to_end(decode_tokens_per_s(hw, wl, params), hw, wl, params)


def prefill_share(hw: Hardware, wl: Workload, decode_tps: float, params: StackParams) -> float:
    """Fraction of replica time spent on prefill (0 for decode-only workloads)."""
    if not wl.end_to_end:
        return 0.0
    assert wl.input_tokens is not None and wl.output_tokens is not None
    prefill = prefill_time_s(hw, wl.input_tokens, params) / wl.output_tokens
    return prefill / (prefill + 1.0 / decode_tps)


MAX_PREFILL_SHARE = 0.95
"""Past this share of time on prompts the queue never drains; TTFT is capped there."""


def ttft_s(hw: Hardware, wl: Workload, params: StackParams, overhead_s: float) -> float:
    """Time to first token: the stack's overhead, the wait for other prompts ahead, the
    prompt itself and one decode step.

    Prompts queue for the compute they share with decoding. With a fraction rho of
    the replica's time spent on prompts, a new prompt waits rho / (2 (1 - rho))
    prompt-times on average (a queue served at a fixed pace, M/D/1).
    """
    prompt = prefill_time_s(hw, wl.input_tokens or 0, params)
    rho = min(
        MAX_PREFILL_SHARE,
        prefill_share(hw, wl, decode_tokens_per_s(hw, wl, params), params),
    )
    wait = prompt * rho / (2 * (1 - rho))
    return overhead_s + _slot_wait_s(hw, wl, params) + wait + prompt + step_time_s(hw, wl, params)


def _slot_wait_s(hw: Hardware, wl: Workload, params: StackParams) -> float:
    """Waiting for KV-cache room: slots free up at concurrency / request duration."""
    if not wl.queued or wl.output_tokens is None:
        return 0.0
    duration = wl.output_tokens * wl.concurrency / tokens_per_s(hw, wl, params)
    return wl.queued * duration / wl.concurrency


def log_distance(a: float, b: float) -> float:
    return abs(math.log(a) - math.log(b))


def mean_context_tokens(
    *, context_tokens: int | None, input_tokens: int | None, output_tokens: int | None, default: int
) -> int:
    """Mean KV length while decoding: stated, else prompt plus half the output, else a chat turn."""
    if context_tokens is not None:
        return context_tokens
    if input_tokens is not None or output_tokens is not None:
        return max(1, (input_tokens or 0) + (output_tokens or 0) // 2)
    return default


def max_context_tokens(*, mean_context: int, output_tokens: int | None) -> int:
    """Longest KV a sequence reaches: its mean plus the other half of its output."""
    return mean_context + (output_tokens or 0) - (output_tokens or 0) // 2
