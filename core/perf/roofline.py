"""The MoE-aware decode roofline over a parallel layout: physical terms, a few fitted ones.

A decode step of one replica (``core.perf.layouts``) reads, on each GPU, its share of
the always-read weights, the routed experts the step's tokens touch, and the KV cache
and recurrent state of the sequences its attention rank holds; it computes its share
of the tokens' matrix products and attention; it all-reduces activations across its
tensor-parallel group, dispatches tokens to experts and combines them back by an
all-to-all when attention is data parallel, and hands activations to the next
pipeline stage. Collectives cost message size over link bandwidth plus latency
(``core.perf.collectives``). Prompts share steps with decoding (chunked prefill):
their FLOPs add to the step's compute and the experts their chunks touch to its
reads. A step pays a fixed cost per layer (kernel launches, scheduling).

``terms`` works out those physical parts in seconds at full efficiency, once per
question; ``period_s`` combines them with the five parameters calibration fits per
serving stack. The combination takes floats or numpy arrays alike, so calibration
evaluates thousands of observations in one call while answers stay scalar.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

from core.catalog import Gpu, Model, Precision
from core.perf import collectives
from core.perf.collectives import Cost, Fabric
from core.perf.layouts import Layout
from core.units import billions, gb_to_bytes, tb_per_s_to_bytes_per_s, tflops_to_flops

Parallelism = str  # "tensor" | "expert" | "layer_split", as on catalog stacks
Array = npt.NDArray[np.float64]
V = TypeVar("V", float, Array)

DISPATCH_BYTES = 1.0
"""Bytes per element a token is dispatched to its experts in (FP8, DeepEP's default)."""
COMBINE_BYTES = 2.0
"""Bytes per element expert outputs are combined back in (BF16)."""
ACTIVATION_BYTES = 2.0
"""Bytes per element of activations all-reduced or sent between stages (BF16)."""
ALL_REDUCES_PER_LAYER = 2
"""Tensor parallelism all-reduces after attention and after the MLP or MoE block."""
MLA_PREFILL_ATTENTION_SHARE = (128 + 64 + 128) / (2 * 512 + 64)
"""What a prompt token's attention costs per context token under MLA, as a share of a
decoding token's. Decoding runs MLA absorbed (each query head scores the 512-wide
latent and its 64 RoPE dimensions and sums the latent back: 2 x 512 + 64 per head);
prefill, where the context is the prompt itself, decompresses keys and values and
runs ordinary attention over 128 + 64 key and 128 value dimensions a head (vLLM's and
SGLang's MLA backends, FlashMLA's prefill path). Every MLA model the catalog holds
(DeepSeek-V3 and R1, Kimi K2, K2.5 and K3's MLA layers) has that head geometry, per
their configs in core/data/field/model_configs. Sparse MLA (DeepSeek Sparse Attention,
GLM-5) stays absorbed in prefill too: its kernels run MLA's MQA form for both."""
MLA_DENSE = ("mla", "kda-mla-hybrid")


@dataclass(frozen=True)
class StackParams:
    """What calibration fits per serving stack (see ``core.perf.calibration``)."""

    per_layer_step_overhead_s: float
    bandwidth_efficiency: float
    compute_efficiency: float
    prefill_efficiency: float
    exposed_communication: float
    """Share of expert-parallel all-to-all time not hidden behind compute (0..1)."""
    prompt_wave_share: float
    """How far a benchmark's prompts arrive together (1: every client's next prompt in
    one wave, each waiting for half the others; towards 0: a steady stream)."""
    per_sequence_step_overhead_s: float
    """What the scheduler spends on each sequence of its batch every step (input
    preparation, sampling, detokenising), beside the GPU's work."""

    def as_vector(self) -> tuple[float, float, float, float, float, float, float]:
        return (
            self.per_layer_step_overhead_s,
            self.bandwidth_efficiency,
            self.compute_efficiency,
            self.prefill_efficiency,
            self.exposed_communication,
            self.prompt_wave_share,
            self.per_sequence_step_overhead_s,
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
        exposed_communication=params.exposed_communication,
        prompt_wave_share=params.prompt_wave_share,
        per_sequence_step_overhead_s=params.per_sequence_step_overhead_s / software_factor,
    )


@dataclass(frozen=True)
class Hardware:
    """A deployment: one model at one precision on ``gpus`` GPUs of one kind.

    ``kv_bytes_per_token`` is the model's KV footprint at the KV-cache precision this
    deployment runs (FP8 KV halves a BF16 cache). ``parallelism`` is the stack's
    declared default, kept for reports; the layout the roofline runs is a ``Layout``.
    ``prefill_chunk_tokens`` is how many prompt tokens one scheduler step takes.
    """

    model: Model
    gpu: Gpu
    gpus: int
    precision: Precision
    parallelism: Parallelism
    kv_bytes_per_token: float
    fabric: Fabric
    prefill_chunk_tokens: int


@dataclass(frozen=True)
class Workload:
    """The traffic shape a deployment sees.

    ``context_tokens`` is the mean KV length per sequence while decoding.
    ``input_tokens``/``output_tokens`` are per request; with ``input_tokens`` unset the
    throughput is decode-only (prefill elsewhere, as in phase-isolated benchmarks).
    ``output_tokens`` counts reasoning tokens too: they are decoded like any other.
    With speculative decoding a step verifies ``draft_tokens`` + 1 tokens a sequence
    and keeps ``spec_decode_acceptance`` of them on average.
    """

    concurrency: int
    context_tokens: int
    spec_decode_acceptance: float = 1.0
    input_tokens: int | None = None
    output_tokens: int | None = None
    queued: int = 0
    """Requests beyond what the KV cache admits: they wait for a slot, not decode."""
    draft_tokens: int = 0
    """Draft tokens verified a step (0: no speculative decoding)."""

    @property
    def end_to_end(self) -> bool:
        return self.input_tokens is not None and self.output_tokens is not None

    @property
    def verified_tokens(self) -> int:
        """Tokens a step runs through the model per sequence: 1, or drafts + 1."""
        return self.draft_tokens + 1 if self.spec_decode_acceptance > 1 else 1


def weight_bytes(model: Model, precision: Precision) -> float:
    """Checkpoint size as published where known, else parameters x bits."""
    if precision.id in model.checkpoint_gb:
        return gb_to_bytes(model.checkpoint_gb[precision.id])
    return billions(model.total_params_b) * precision.bits_per_weight / 8


def routed_bytes(model: Model, precision: Precision) -> float:
    if not model.is_moe:
        return 0.0
    return weight_bytes(model, precision) * model.routed_weight_fraction


def kv_split(model: Model, layout: Layout) -> int:
    """Over how many GPUs of a tensor-parallel group one sequence's KV is split: MLA's
    latent is replicated on every rank; GQA splits by KV head."""
    if model.kv_heads is None or layout.split_layers:
        return 1
    return min(layout.tp, model.kv_heads)


@dataclass(frozen=True)
class Replica:
    """One replica's constants per GPU and stage pass, which a step's terms scale.

    Seconds are at full efficiency: bytes over HBM bandwidth, FLOPs over dense peak.
    """

    hw: Hardware
    layout: Layout
    dense_read_s: float
    """Always-read weights a GPU holds for its stage (attention, shared experts, dense
    layers, embeddings): a tensor-parallel share, whole on every attention rank."""
    routed_read_s: float
    """Every routed expert the GPU holds for its stage."""
    expert_miss: float
    """1 - k/E: the chance one token leaves a given expert alone."""
    kv_read_s: float
    """Per sequence on the GPU's attention rank, per context token."""
    state_read_s: float
    """Per sequence: recurrent state read and written back."""
    dense_flops_s: float
    """Per token on the GPU's attention rank: always-active matrix products."""
    routed_flops_s: float
    """Per token of the stage's micro-batch: the GPU's share of routed experts' work."""
    attention_flops_s: float
    """Per token on the rank, per context token it attends to."""
    prompt_attention_flops_s: float
    """The same for a prompt token (MLA prefills unabsorbed, at a fraction of it)."""
    all_reduce: Cost
    """Every all-reduce of one stage pass, per byte of one token's activations."""
    exposed: Cost
    """Every all-to-all of one stage pass, per token dispatched from the GPU."""
    send: Cost
    """The hand-over to the next pipeline stage, per token of the micro-batch."""
    stage_layers: float

    @property
    def stages(self) -> int:
        return self.layout.pp


def replica(hw: Hardware, layout: Layout) -> Replica:
    """The constants of one replica of ``layout`` (its ``replicas`` count is ignored)."""
    model, gpu = hw.model, hw.gpu
    tp, pp, stage = layout.tp, layout.pp, layout.stage_gpus
    hbm = tb_per_s_to_bytes_per_s(gpu.hbm_bandwidth_tb_per_s)
    linear_peak = tflops_to_flops(gpu.tflops_for(hw.precision.compute))
    attention_peak = tflops_to_flops(gpu.tflops_for("bf16"))
    routed = routed_bytes(model, hw.precision)
    dense = weight_bytes(model, hw.precision) - routed
    routed_active = billions(model.routed_active_params_b)
    dense_active = billions(model.active_params_b) - routed_active
    width = model.width
    fabric = hw.fabric
    if layout.split_layers:
        # stages work in turn: one GPU at a time holds the step, nothing is exchanged
        # but the activations at each stage boundary
        tp = stage = 1
    attention_flops_s = model.attention_flops_per_context_token / (tp * pp) / attention_peak
    all_reduce = collectives.NONE
    if tp > 1:
        per_layer = collectives.all_reduce(tp, fabric).times(ALL_REDUCES_PER_LAYER)
        all_reduce = per_layer.times(model.layers / pp)
    exposed = collectives.NONE
    if model.is_moe and layout.dp > 1 and not layout.split_layers:
        moe_layers = model.routed_layers / pp
        if layout.ep > 1:
            # each token travels to k experts, each cut in moe_tp slices, and back:
            # FP8 out, BF16 back (DeepEP's dispatch and combine)
            copies = model.experts_per_token * layout.moe_tp
            moe_width = model.moe_hidden_size or width
            a2a = collectives.all_to_all(stage, fabric)
            exposed = Cost(
                2 * a2a.fixed_s * moe_layers,
                a2a.per_byte_s * copies * moe_width * (DISPATCH_BYTES + COMBINE_BYTES) * moe_layers,
            )
        else:
            # experts tensor-sliced over the data-parallel ranks: the ranks gather their
            # tokens and reduce-scatter the outputs, an all-reduce's worth of traffic
            all_reduce = all_reduce + collectives.all_reduce(stage, fabric).times(moe_layers)
    send = collectives.NONE
    if pp > 1:
        send = collectives.send(layout.replica_gpus > fabric.domain_gpus, fabric)
    return Replica(
        hw=hw,
        layout=layout,
        dense_read_s=dense / (tp * pp) / hbm,
        routed_read_s=routed / (stage * pp) / hbm,
        expert_miss=1.0 - model.experts_per_token / model.experts if model.is_moe else 1.0,
        kv_read_s=hw.kv_bytes_per_token / (kv_split(model, layout) * pp) / hbm,
        state_read_s=2 * model.state_bytes_per_sequence / (tp * pp) / hbm,
        dense_flops_s=2 * dense_active / (tp * pp) / linear_peak,
        routed_flops_s=2 * routed_active / (stage * pp) / linear_peak,
        attention_flops_s=attention_flops_s,
        prompt_attention_flops_s=attention_flops_s
        * (MLA_PREFILL_ATTENTION_SHARE if model.attention in MLA_DENSE else 1.0),
        all_reduce=Cost(all_reduce.fixed_s, all_reduce.per_byte_s * width * ACTIVATION_BYTES),
        exposed=exposed,
        send=Cost(send.fixed_s, send.per_byte_s * width * ACTIVATION_BYTES),
        stage_layers=model.layers / pp,
    )


@dataclass(frozen=True)
class Terms(Generic[V]):
    """One token period of a replica (every stage once), in seconds at full efficiency.

    ``period_s`` turns them into seconds with a stack's parameters: a fixed cost per
    layer, the slower of memory and compute for the matrix multiplies (prompts'
    compute at prefill efficiency) plus the same for attention, the all-to-all a
    stack overlaps with that work except for a share, and the collectives it cannot
    hide.
    """

    layers: V
    sequences: V
    """Sequences the busiest scheduler steps each period (a rank's batch, every stage)."""
    memory_s: V
    """Weight reads (and the prompt's KV written once)."""
    compute_s: V
    """Matrix multiplies of the decoding tokens, at dense peak."""
    prefill_s: V
    exposed_s: V
    serial_s: V
    attention_memory_s: V
    """KV-cache and state reads of the decoding sequences' attention."""
    attention_compute_s: V
    """The decoding tokens' attention FLOPs over their context, at dense peak."""


def _larger(a: V, b: V) -> V:
    if isinstance(a, float) and isinstance(b, float):
        return a if a >= b else b
    return np.maximum(a, b)


def _smaller(a: V, b: V) -> V:
    if isinstance(a, float) and isinstance(b, float):
        return a if a <= b else b
    return np.minimum(a, b)


def _combined(a: V, b: V) -> V:
    """Memory and compute time of one step together: sqrt(a^2 + b^2). Each hides the
    other when it dominates, neither near the ridge where they match. Fitted to the
    field's 3,000 aggregated runs it matches max(a, b) on time per output token (median
    error 12.9 vs 12.9% vLLM, 14.1 vs 15.2% TensorRT-LLM, 16.7 vs 15.9% SGLang) and,
    unlike max or the plain sum, leaves vLLM's and TensorRT-LLM's compute efficiency
    where decode kernels run (0.54-0.57 of dense peak, not at the 0.15 or 1.0 bounds
    the other two drive it to)."""
    if isinstance(a, float) and isinstance(b, float):
        return math.hypot(a, b)
    return np.hypot(a, b)


def period_s(
    t: Terms[V],
    overhead_s: V,
    bandwidth: V,
    compute: V,
    prefill: V,
    exposed: V,
    per_sequence_s: V,
) -> V:
    """Seconds for every sequence of a replica to advance one step.

    A step's kernels run one after another, each bound by its own resource: the
    matrix multiplies by reading the weights or by their FLOPs, attention by reading
    the KV cache or by its FLOPs over the context. Each pair is combined on its own
    and the two added, so a large batch's KV reads never hide behind the weights'
    GEMMs (the aggregate of all four under one roofline did: leave-one-source-out 14%
    -> 12% median, holdouts 10% -> 5%; the field unchanged)."""
    work = _combined(
        t.memory_s / bandwidth, t.compute_s / compute + t.prefill_s / prefill
    ) + _combined(t.attention_memory_s / bandwidth, t.attention_compute_s / compute)
    overlapped = _larger(work, t.exposed_s) + exposed * _smaller(work, t.exposed_s)
    return t.layers * overhead_s + t.sequences * per_sequence_s + overlapped + t.serial_s


def period_with(t: Terms[float], params: StackParams) -> float:
    return period_s(
        t,
        params.per_layer_step_overhead_s,
        params.bandwidth_efficiency,
        params.compute_efficiency,
        params.prefill_efficiency,
        params.exposed_communication,
        params.per_sequence_step_overhead_s,
    )


@dataclass(frozen=True)
class Prompts:
    """Prompt work a step carries beside its decoding: on the busiest attention rank and
    over the stage's micro-batch, the mean context a prompt token attends to, and the
    experts the chunks touch on average (a chunk comes with a share of the steps)."""

    rank_tokens: float = 0.0
    stage_tokens: float = 0.0
    attended: float = 0.0
    chunk_tokens: float = 0.0
    chunk_share: float = 0.0


NO_PROMPTS = Prompts()


def batch_per_replica(concurrency: int, layout: Layout) -> int:
    """Sequences the busiest replica decodes: the batch spread over the replicas."""
    return -(-concurrency // layout.replicas)


def _micro_batches(rep: Replica, batch: int) -> int:
    return 1 if rep.layout.split_layers else max(1, min(rep.stages, batch))


def terms(rep: Replica, batch: int, wl: Workload, prompts: Prompts = NO_PROMPTS) -> Terms[float]:
    """The physics of one token period of a replica decoding ``batch`` sequences."""
    model, layout = rep.hw.model, rep.layout
    micro = _micro_batches(rep, batch)
    stage_batch = -(-batch // micro)
    # each rank holds its share of the batch on average (continuous batching keeps the
    # ranks level over time), as the prompts below do: a ceiling would let 49 sequences
    # over 8 ranks decode slower in aggregate than 44
    rank_batch = stage_batch / layout.dp if not layout.split_layers else stage_batch
    verified = wl.verified_tokens
    rank_tokens = rank_batch * verified
    stage_tokens = stage_batch * verified
    ctx = wl.context_tokens
    attended = model.attended_tokens(ctx)
    touched = 0.0
    if model.is_moe:
        alone = 1.0 - rep.expert_miss**stage_tokens
        touched = alone
        if prompts.chunk_share > 0:
            with_chunk = 1.0 - rep.expert_miss ** (stage_tokens + prompts.chunk_tokens)
            touched = alone + prompts.chunk_share * (with_chunk - alone)
    memory = (
        rep.dense_read_s
        + rep.routed_read_s * touched
        + prompts.rank_tokens * rep.kv_read_s  # the prompt's KV, written once
    )
    compute = rep.dense_flops_s * rank_tokens + rep.routed_flops_s * stage_tokens
    attention_memory = rank_batch * (ctx * rep.kv_read_s + rep.state_read_s)
    attention_compute = rep.attention_flops_s * rank_tokens * attended
    prefill = (
        rep.dense_flops_s * prompts.rank_tokens
        + rep.routed_flops_s * prompts.stage_tokens
        + rep.prompt_attention_flops_s * prompts.rank_tokens * prompts.attended
    )
    moved = rank_tokens + prompts.rank_tokens
    dispatched = (stage_tokens + prompts.stage_tokens) / layout.stage_gpus
    handed = stage_tokens + prompts.stage_tokens
    stages = float(rep.stages)
    return Terms(
        layers=model.layers + (wl.draft_tokens if verified > 1 else 0),
        sequences=stages * rank_batch,
        memory_s=stages * memory,
        compute_s=stages * compute,
        prefill_s=stages * prefill,
        exposed_s=stages * (rep.exposed.seconds(dispatched) + rep.all_reduce.seconds(moved)),
        serial_s=stages * rep.send.seconds(handed),
        attention_memory_s=stages * attention_memory,
        attention_compute_s=stages * attention_compute,
    )


def steady_prompts(rep: Replica, batch: int, wl: Workload) -> Prompts:
    """The prompts a sequence's decode steps carry while ``batch`` sequences decode end to
    end: the others' (its own was prefilled before it decoded), as many starting each
    step as finish, acceptance / output tokens of each.

    Their FLOPs fill compute a memory-bound step leaves idle. The experts their chunks
    touch are not added to the step's reads: on the field's 3,000 aggregated runs that
    changes no engine's median error by more than 0.2 points, and it would move the
    write-up's decode figures by 4-8% for 800-token prompts, where the issue holds them
    to 2%; the chunks a prompt's own first token waits for do read their experts
    (``chunk_prompts``)."""
    if not wl.end_to_end or batch <= 1:
        return NO_PROMPTS
    assert wl.input_tokens is not None and wl.output_tokens is not None
    if wl.input_tokens == 0:
        return NO_PROMPTS
    per_step = (batch - 1) * wl.spec_decode_acceptance * wl.input_tokens / wl.output_tokens
    micro = _micro_batches(rep, batch)
    dp = 1 if rep.layout.split_layers else rep.layout.dp
    stage = per_step / micro
    return Prompts(
        rank_tokens=stage / dp,
        stage_tokens=stage,
        attended=_prompt_attention(rep.hw.model, wl.input_tokens),
    )


def _prompt_attention(model: Model, input_tokens: int) -> float:
    """Mean context a prompt token attends to: half the prompt (causal), or the sparse
    top k where that is less."""
    return float(model.attended_tokens(max(1, input_tokens // 2)))


def chunk_prompts(rep: Replica, wl: Workload) -> tuple[int, Prompts]:
    """A prompt's chunks (how many, and one chunk as the step it rides sees it: all on
    the request's own attention rank, its experts touched in that step)."""
    assert wl.input_tokens is not None
    chunks = max(1, math.ceil(wl.input_tokens / rep.hw.prefill_chunk_tokens))
    size = wl.input_tokens / chunks
    return chunks, Prompts(
        rank_tokens=size,
        stage_tokens=size,
        attended=_prompt_attention(rep.hw.model, wl.input_tokens),
        chunk_tokens=size,
        chunk_share=1.0,
    )


@dataclass(frozen=True)
class Step:
    """A replica decoding its batch: the period's terms and what it yields."""

    rep: Replica
    batch: int
    workload: Workload
    decode: Terms[float]
    decode_only: Terms[float]

    def period_s(self, params: StackParams) -> float:
        return period_with(self.decode, params)

    def tokens_per_s(self, params: StackParams) -> float:
        """The deployment's output tokens/s: every admitted sequence at the busiest
        replica's pace, ``acceptance`` tokens a period."""
        return self.workload.concurrency * self.per_user_tokens_per_s(params)

    def per_user_tokens_per_s(self, params: StackParams) -> float:
        return self.workload.spec_decode_acceptance / self.period_s(params)

    def prefill_share(self, params: StackParams) -> float:
        """Share of the period prompts take (0 for decode-only workloads)."""
        if not self.workload.end_to_end:
            return 0.0
        return 1.0 - period_with(self.decode_only, params) / self.period_s(params)


def step(hw: Hardware, layout: Layout, wl: Workload, rep: Replica | None = None) -> Step:
    """The decode step of ``layout`` for ``wl`` (``rep``: the replica's constants, when
    the caller keeps them)."""
    rep = rep or replica(hw, layout)
    batch = batch_per_replica(wl.concurrency, layout)
    decode_only = terms(rep, batch, wl)
    prompts = steady_prompts(rep, batch, wl)
    decode = decode_only if prompts is NO_PROMPTS else terms(rep, batch, wl, prompts)
    return Step(rep=rep, batch=batch, workload=wl, decode=decode, decode_only=decode_only)


def full_chunk_prompts(rep: Replica, wl: Workload, batch: int = 1) -> Prompts:
    """A step that takes a whole chunk budget of prompt tokens (several short prompts or
    part of a long one) on every attention rank that has a queue: what each token of a
    queue of prompts costs the replica in turn.

    A wave of prompts lands on every attention rank at once (each has its share of the
    clients), so with data-parallel attention every rank prefills a chunk in the same
    step and the experts, spread over all of them, run every rank's chunk: a step of
    the queue is ``dp`` chunks through the routed experts, not one."""
    assert wl.input_tokens is not None
    size = float(rep.hw.prefill_chunk_tokens)
    ranks = 1 if rep.layout.split_layers else max(1, min(rep.layout.dp, batch))
    return Prompts(
        rank_tokens=size,
        stage_tokens=size * ranks,
        attended=_prompt_attention(rep.hw.model, wl.input_tokens),
        chunk_tokens=size * ranks,
        chunk_share=1.0,
    )


def prompts_ahead(rep: Replica, batch: int) -> float:
    """Prompts ahead of a new one on its attention rank, on average, were they to arrive
    in one wave.

    A benchmark's clients (and every figure the catalog holds) send a request, wait for
    the whole answer and send the next: with requests alike in length they stay in step,
    so each round's prompts arrive together and are prefilled in turn, first come first
    served, and the average prompt waits for half of the others on its rank. How far a
    harness keeps its clients in step is ``StackParams.prompt_wave_share``."""
    ranks = 1 if rep.layout.split_layers else rep.layout.dp
    on_rank = -(-batch // ranks)
    return (on_rank - 1) / 2


@dataclass(frozen=True)
class FirstToken:
    """What time to first token is made of, as step terms and how many of each step: the
    prompt's own chunks, and the chunk budgets the prompts ahead of it take."""

    own_chunks: float
    own: Terms[float]
    ahead_chunks: float
    ahead: Terms[float]


def first_token(s: Step) -> FirstToken | None:
    wl = s.workload
    if not wl.input_tokens:
        return None
    chunks, chunk = chunk_prompts(s.rep, wl)
    full = full_chunk_prompts(s.rep, wl, s.batch)
    ahead = prompts_ahead(s.rep, s.batch) * wl.input_tokens / full.rank_tokens
    return FirstToken(
        own_chunks=float(chunks),
        own=terms(s.rep, s.batch, wl, chunk),
        ahead_chunks=ahead,
        ahead=terms(s.rep, s.batch, wl, full),
    )


def ttft_s(s: Step, params: StackParams, overhead_s: float) -> float:
    """Time to first token: the stack's fixed overhead, the wait for KV-cache room, the
    prompts ahead in the chunk budget, and the prompt's own chunks, each a step shared
    with the batch decoding meanwhile."""
    parts = first_token(s)
    wait = overhead_s + _slot_wait_s(s, params)
    if parts is None:
        return wait
    return (
        wait
        + parts.own_chunks * period_with(parts.own, params)
        + params.prompt_wave_share * parts.ahead_chunks * period_with(parts.ahead, params)
    )


def _slot_wait_s(s: Step, params: StackParams) -> float:
    """Waiting for KV-cache room: slots free up as admitted requests finish."""
    wl = s.workload
    if not wl.queued or wl.output_tokens is None:
        return 0.0
    duration = wl.output_tokens / s.per_user_tokens_per_s(params)
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
