"""The catalog's nouns: frozen records with their units in their field names.

Every record carries where its figures came from. Unknown fields are rejected,
which is how a unit slip (``hbm_bandwidth_gb_per_s`` where TB/s is expected) is
caught at load time instead of silently read as zero.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.errors import InputError
from core.units import SECONDS_PER_HOUR, TOKENS_PER_MILLION

ComputeClass = Literal["bf16", "fp8", "fp4"]
LayoutKind = Literal["tp", "pp", "dep", "tep", "layer_split"]
"""How a stack lays one replica over its GPUs: tensor parallel inside an NVLink domain
(tp), tensor parallel stages in a pipeline across domains (pp), expert parallel MoE
with data-parallel attention (dep), tensor-parallel attention groups inside that (tep),
or layers split across GPUs that work in turn (layer_split)."""
"""Tensor-core throughput classes a GPU datasheet quotes dense TFLOPS for."""

COMPUTE_FALLBACK: dict[str, tuple[ComputeClass, ...]] = {
    "fp4": ("fp4", "fp8", "bf16"),
    "fp8": ("fp8", "bf16"),
    "bf16": ("bf16",),
}
"""A GPU without native FP4 still runs MXFP4 weights, dequantised to the next class."""


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Source(Record):
    title: str = Field(min_length=3)
    url: str | None = None
    date: dt.date


class Precision(Record):
    """A weight format: how many bits a parameter costs and which units compute it."""

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    bits_per_weight: float = Field(gt=0, le=32)
    compute: ComputeClass
    notes: str = ""


class Gpu(Record):
    """A GPU as the roofline sees it, inside its usual system.

    Two fabrics: ``scale_up_*`` is the NVLink (or Infinity Fabric, PCIe) domain,
    its bandwidth the vendors' bidirectional aggregate per GPU (H100's 900 GB/s is
    450 GB/s each way); ``scale_out_*`` is the network between domains, one
    direction of the NIC each GPU has in the vendor's reference system (a
    ConnectX-7 at 400 Gb/s moves 50 GB/s each way). Expert-parallel all-to-all
    across nodes runs at the second.
    """

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    vendor: str
    family: str = Field(min_length=3)
    """The architecture generation (Hopper, Blackwell Ultra, AMD CDNA, ...): what a
    report of the engine's accuracy groups GPUs by, since transfer errors follow it."""
    hbm_gib: float = Field(gt=0)
    hbm_usable_gib: float = Field(gt=0)
    hbm_bandwidth_tb_per_s: float = Field(gt=0)
    dense_tflops: dict[ComputeClass, float]
    scale_up_domain_gpus: int = Field(ge=1)
    scale_up_bandwidth_gb_per_s: float = Field(gt=0)
    scale_out_nic: str = Field(min_length=3)
    scale_out_bandwidth_gb_per_s: float = Field(gt=0)
    usd_per_gpu_hour: float = Field(gt=0)
    price_source: Source
    sources: tuple[Source, ...] = Field(min_length=1)
    notes: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> Gpu:
        if self.hbm_usable_gib > self.hbm_gib:
            raise ValueError("hbm_usable_gib cannot exceed hbm_gib")
        if "bf16" not in self.dense_tflops:
            raise ValueError("dense_tflops needs at least bf16")
        if any(v <= 0 for v in self.dense_tflops.values()):
            raise ValueError("dense_tflops values must be positive")
        if self.scale_out_bandwidth_gb_per_s > self.scale_up_bandwidth_gb_per_s / 2:
            # The NIC hangs off the same PCIe or NVLink fabric, so it cannot outrun one
            # direction of it; a figure above that is Gb/s written where GB/s belongs.
            raise ValueError(
                "scale_out_bandwidth_gb_per_s (one direction, GB/s) exceeds one direction "
                "of scale_up_bandwidth_gb_per_s; a NIC's 400 Gb/s is 50 GB/s"
            )
        return self

    def tflops_for(self, compute: ComputeClass) -> float:
        """Dense TFLOPS for a precision class, falling back to the next one the GPU has."""
        for cls in COMPUTE_FALLBACK[compute]:
            if cls in self.dense_tflops:
                return self.dense_tflops[cls]
        return self.dense_tflops["bf16"]


class Model(Record):
    """An open-weights LLM as the decode roofline sees it.

    ``routed_expert_params_b`` is the part of the weights a token reads only when
    its router picks that expert; everything else is read on every step.
    ``attention_flops_per_context_token`` is what one new token's attention costs
    per token already in its context, over all layers (QK and AV): 4 x query
    width per full-attention layer for GQA, 2 x heads x (2 x latent + rope) per
    layer for MLA run absorbed. With sparse attention (DeepSeek Sparse Attention,
    as in GLM-5) a token reads at most ``sparse_attention_top_k_tokens`` of its
    context, which ``attended_tokens`` applies. Hybrids keep a KV cache only in
    their full-attention layers (``kv_layers``); their linear-attention layers
    (Kimi Delta Attention, Gated DeltaNet) keep ``state_bytes_per_sequence``
    instead, whatever the context.
    """

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    vendor: str
    total_params_b: float = Field(gt=0)
    active_params_b: float = Field(gt=0)
    routed_expert_params_b: float = Field(ge=0, default=0)
    routed_expert_weight_fraction: float | None = Field(default=None, gt=0, lt=1)
    layers: int = Field(ge=1)
    experts: int = Field(ge=0, default=0)
    experts_per_token: int = Field(ge=0, default=0)
    shared_experts: int = Field(ge=0, default=0)
    attention: Literal[
        "mha", "gqa", "mla", "mla-sparse", "kda-mla-hybrid", "gdn-gqa-hybrid", "sliding-gqa"
    ]
    kv_layers: int = Field(ge=0)
    kv_heads: int | None = Field(default=None, ge=1)
    kv_bytes_per_token: float = Field(ge=0)
    kv_precision: Literal["bf16", "fp8"]
    state_bytes_per_sequence: float = Field(ge=0, default=0)
    attention_flops_per_context_token: float = Field(ge=0)
    sparse_attention_top_k_tokens: int | None = Field(default=None, ge=1)
    hidden_size: int | None = Field(default=None, ge=1)
    """The residual stream's width: what a tensor-parallel all-reduce and a pipeline
    send move per token (None: estimated from the parameters, see ``width``)."""
    moe_layers: int | None = Field(default=None, ge=1)
    """Layers with routed experts (None: every layer of a MoE model)."""
    moe_hidden_size: int | None = Field(default=None, ge=1)
    """The width tokens are dispatched to experts at, when narrower than
    ``hidden_size`` (a latent MoE such as Kimi K3's); None: ``hidden_size``."""
    native_precisions: tuple[str, ...] = Field(min_length=1)
    checkpoint_gb: dict[str, float] = {}
    context_window_tokens: int = Field(ge=1)
    thinking: Literal["none", "optional", "mandatory"]
    reasoning_tokens_default: int = Field(ge=0)
    vendor_min_production_gpus: int | None = Field(default=None, ge=1)
    hosted_api: dict[str, float] = {}
    estimated_fields: tuple[str, ...] = ()
    estimate_notes: str = ""
    sources: tuple[Source, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> Model:
        if self.active_params_b > self.total_params_b:
            raise ValueError("active_params_b cannot exceed total_params_b")
        if self.routed_expert_params_b > self.total_params_b:
            raise ValueError("routed_expert_params_b cannot exceed total_params_b")
        if self.experts_per_token > self.experts:
            raise ValueError("experts_per_token cannot exceed experts")
        if (self.experts == 0) != (self.routed_expert_params_b == 0):
            raise ValueError("a MoE model needs both experts and routed_expert_params_b")
        if self.moe_layers is not None and (self.moe_layers > self.layers or not self.experts):
            raise ValueError("moe_layers needs experts and cannot exceed layers")
        if (self.attention == "mla-sparse") != (self.sparse_attention_top_k_tokens is not None):
            raise ValueError("sparse_attention_top_k_tokens goes with attention: mla-sparse")
        unknown = set(self.estimated_fields) - set(type(self).model_fields)
        if unknown:
            raise ValueError(f"estimated_fields names unknown fields {sorted(unknown)}")
        if any(v <= 0 for v in self.checkpoint_gb.values()):
            raise ValueError("checkpoint_gb values must be positive")
        unknown_api = set(self.hosted_api) - {
            "usd_per_million_input",
            "usd_per_million_output",
            "usd_per_million_cached_input",
        }
        if unknown_api:
            raise ValueError(f"hosted_api has unknown keys {sorted(unknown_api)}")
        return self

    @property
    def is_moe(self) -> bool:
        return self.experts > 0

    def attended_tokens(self, context_tokens: int) -> int:
        """Context tokens one new token's attention reads: all, or sparse attention's top k."""
        if self.sparse_attention_top_k_tokens is None:
            return context_tokens
        return min(context_tokens, self.sparse_attention_top_k_tokens)

    def require_context(self, tokens: int) -> None:
        """Refuse a sequence longer than the model can attend to."""
        if tokens > self.context_window_tokens:
            raise InputError(
                f"a context of {tokens:,} tokens exceeds {self.name}'s "
                f"{self.context_window_tokens:,}-token window",
                field="context_tokens",
                hint=f"keep input plus output under {self.context_window_tokens:,} tokens",
            )

    @property
    def width(self) -> int:
        """``hidden_size``, else the width a transformer of this many always-active
        parameters per layer has (about 12 x width^2 a layer): close enough for message
        sizes, which only matter once they are large."""
        if self.hidden_size is not None:
            return self.hidden_size
        dense = self.active_params_b - self.routed_expert_params_b * (
            self.experts_per_token / self.experts if self.experts else 0.0
        )
        return max(1, int(round(math.sqrt(dense * 1e9 / (12 * self.layers)))))

    @property
    def routed_layers(self) -> int:
        """Layers that dispatch tokens to routed experts (0 for a dense model)."""
        if not self.is_moe:
            return 0
        return self.moe_layers if self.moe_layers is not None else self.layers

    @property
    def routed_active_params_b(self) -> float:
        """Routed-expert parameters one token runs through: k of E experts' share."""
        if not self.is_moe:
            return 0.0
        return self.routed_expert_params_b * self.experts_per_token / self.experts

    @property
    def routed_weight_fraction(self) -> float:
        """Share of checkpoint bytes in routed experts.

        Published when known (dense parts are often kept at higher precision than the
        experts, so bytes and parameters split differently); else the parameter share.
        """
        if self.routed_expert_weight_fraction is not None:
            return self.routed_expert_weight_fraction
        return self.routed_expert_params_b / self.total_params_b


class Stack(Record):
    """A serving stack (engine + version + code path) as of its release date."""

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    engine: str
    released: dt.date
    models: tuple[str, ...] = ()
    gpus: tuple[str, ...] = ()
    precisions: tuple[str, ...] = ()
    supersedes: str | None = None
    parallelism: Literal["tensor", "expert", "layer_split"] = "tensor"
    layouts: tuple[LayoutKind, ...] = ()
    """The parallel layouts the stack deploys a replica in (empty: what its
    ``parallelism`` implies, see ``core.perf.layouts``)."""
    kv_precision: Literal["bf16", "fp8"] | None = None
    """The KV cache the stack runs for quantised checkpoints (None: its engine's
    default in engine.yaml, else the model's own)."""
    prefill_chunk_tokens: int | None = Field(default=None, ge=64)
    """Prompt tokens one scheduler step takes (chunked prefill; None: engine.yaml's)."""
    overlaps_communication: bool = False
    """Its collectives run behind compute and weight loading (two-batch or dual-batch
    overlap, a fused path that loads weights during communication): its exposed share
    of collectives starts from engine.yaml's ``exposed_communication_overlapped``."""
    kernels_per_layer_share: float = Field(default=1.0, gt=0.0, le=1.0)
    """Kernels a layer runs on this path as a share of its engine's general releases (a
    fused decode path that merges a layer's kernels: ~0.5). A step's fixed cost per
    layer is its kernels' launches and gaps, so the stack's starts from this share of
    its engine's."""
    specialised: bool = False
    """A code path its engine's general releases do not run (a model's own fused decode
    path, a large-scale expert-parallel deployment): its own figures may move it far
    from what the field measured of its engine."""
    description: str = ""
    caveats: tuple[str, ...] = ()
    sources: tuple[Source, ...] = Field(min_length=1)

    def serves(self, *, model: str, gpu: str, precision: str) -> bool:
        return (
            (not self.models or model in self.models)
            and (not self.gpus or gpu in self.gpus)
            and (not self.precisions or precision in self.precisions)
        )


class Measurement(Record):
    """One published benchmark figure, as reported, with what it ran on.

    A figure published as $/M tokens at a stated hourly price is kept as reported
    and converted to tokens/s here, so the engine reproduces the quoted number
    exactly when asked the same question.
    """

    id: str
    model: str
    gpu: str
    gpus: int = Field(ge=1)
    precision: str
    stack: str
    concurrency: int = Field(ge=1)
    phase: Literal["decode", "end_to_end"]
    input_tokens: int | None = Field(default=None, ge=0)
    output_tokens: int | None = Field(default=None, ge=1)
    context_tokens: int | None = Field(default=None, ge=0)
    spec_decode_acceptance: float = Field(default=1.0, ge=1.0)
    kv_precision: Literal["bf16", "fp8"] | None = None
    kv_offload: Literal["none", "host_dram"] = "none"
    output_tokens_per_s: float | None = Field(default=None, gt=0)
    usd_per_million_output_tokens: float | None = Field(default=None, gt=0)
    at_usd_per_gpu_hour: float | None = Field(default=None, gt=0)
    ttft_s: tuple[float, float] | None = None
    applies_to_gpus: tuple[str, ...] = ()
    role: Literal["calibration", "holdout"] = "calibration"
    date: dt.date
    source: Source
    caveats: tuple[str, ...] = ()
    notes: str = ""

    @model_validator(mode="after")
    def _one_figure(self) -> Measurement:
        by_cost = self.usd_per_million_output_tokens is not None
        if by_cost != (self.at_usd_per_gpu_hour is not None):
            raise ValueError(
                "usd_per_million_output_tokens needs at_usd_per_gpu_hour (the price it assumed)"
            )
        if by_cost == (self.output_tokens_per_s is not None):
            raise ValueError(
                "give exactly one of output_tokens_per_s or usd_per_million_output_tokens"
            )
        if self.ttft_s is not None and not 0 < self.ttft_s[0] <= self.ttft_s[1]:
            raise ValueError("ttft_s is [low, high] seconds with 0 < low <= high")
        return self

    @property
    def tokens_per_s(self) -> float:
        """Aggregate output tokens/s of the deployment, derived when quoted as $/M."""
        if self.output_tokens_per_s is not None:
            return self.output_tokens_per_s
        assert self.usd_per_million_output_tokens and self.at_usd_per_gpu_hour
        usd_per_hour = self.gpus * self.at_usd_per_gpu_hour
        return (
            usd_per_hour / self.usd_per_million_output_tokens * TOKENS_PER_MILLION
        ) / SECONDS_PER_HOUR

    def runs_as(self, gpu: str) -> bool:
        """True for the GPU it ran on and for the GPUs it stands in for (with caveats)."""
        return gpu == self.gpu or gpu in self.applies_to_gpus


class LeasePrice(Record):
    """One line of the price book: a GPU at a commitment term (0 months: on demand),
    valid from ``valid_from`` through ``valid_until`` (None: until withdrawn)."""

    id: str
    gpu: str
    term_months: int = Field(ge=0, le=120)
    usd_per_gpu_hour: float = Field(gt=0)
    valid_from: dt.date
    valid_until: dt.date | None = None
    source: Source
    notes: str = ""

    @model_validator(mode="after")
    def _valid_period(self) -> LeasePrice:
        if self.valid_until is not None and self.valid_until < self.valid_from:
            raise ValueError("valid_until is before valid_from")
        return self

    def valid_on(self, day: dt.date) -> bool:
        """True while the line may be quoted: from valid_from through valid_until."""
        return self.valid_from <= day and (self.valid_until is None or day <= self.valid_until)


class PriceBookTerms(Record):
    """The price book's own settings: the term a question with none is priced at."""

    default_term_months: int = Field(ge=0, le=120)


class Prior(Record):
    """A calibration parameter's starting belief: a value and how far to trust it."""

    value: float = Field(gt=0)
    log_sigma: float = Field(gt=0)


class LinkPrior(Record):
    """What collectives achieve over one fabric: a share of its datasheet bandwidth
    (one direction) and the latency of one step (a send, or one phase of a collective)."""

    efficiency: float = Field(gt=0, le=1)
    latency_us: float = Field(gt=0)


class ServingEngineDefaults(Record):
    """What a serving engine runs unless its stack entry says otherwise."""

    kv_precision: Literal["bf16", "fp8"] | None = None
    """The KV cache it keeps for quantised (8-bit or narrower) checkpoints."""
    layouts: tuple[LayoutKind, ...] = ()


class EngineConstants(Record):
    """The roofline's fixed assumptions and its calibration priors, with their reasons.

    Kept as data so that every number the engine uses has a stated source; code
    holds only the formulas.
    """

    per_layer_step_overhead_us: Prior
    per_sequence_step_overhead_us: Prior
    exposed_communication: Prior
    exposed_communication_overlapped: Prior
    prompt_wave_share: Prior
    bandwidth_efficiency: Prior
    compute_efficiency: Prior
    prefill_efficiency: Prior
    prefill_efficiency_range: tuple[float, float]
    scale_up_link: LinkPrior
    scale_out_link: LinkPrior
    prefill_chunk_tokens: int = Field(ge=64)
    spec_decode_draft_tokens: int = Field(ge=1)
    ttft_overhead_max_s: float = Field(gt=0)
    serving_engines: dict[str, ServingEngineDefaults] = {}
    reference_vendor: str
    vendor_software_factor: Prior
    measurement_log_sigma: float = Field(gt=0)
    field_prior_log_sigma: float = Field(gt=0)
    scheduling_overhead_s: float = Field(ge=0)
    scheduling_overhead_log_sigma: float = Field(gt=0)
    runtime_reserve_fraction: float = Field(ge=0, lt=1)
    default_context_tokens: int = Field(ge=1)
    default_min_per_user_tokens_per_s: float = Field(gt=0)
    default_output_tokens_per_request: int = Field(ge=1)
    planned_utilization: float = Field(gt=0, le=1)
    max_replica_nodes: int = Field(ge=1)
    max_gpus_per_quote: int = Field(ge=1)
    error_band_quantile: float = Field(gt=0.5, lt=1)
    error_band_floor: float = Field(ge=0, lt=1)
    rationale: str
    sources: tuple[Source, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _ranges(self) -> EngineConstants:
        low, high = self.prefill_efficiency_range
        if not 0 < low <= self.prefill_efficiency.value <= high <= 1:
            raise ValueError("prefill_efficiency_range must hold the prior within (0, 1]")
        return self


class TtftBand(Record):
    """One band of a worked-out time to first token, and how many held-out first-token
    times it was set from."""

    band: float = Field(gt=0)
    first_token_times: int = Field(ge=1)


class TtftBands(Record):
    """The bands of a time to first token the roofline works out, as the held-out field
    check set them (core/data/ttft-bands.yaml).

    Kept as data rather than set when the engine is built: setting them asks every field
    row of the engine refitted without its deployment, which costs several times the
    build itself. A test recomputes them and fails when the file is stale.
    """

    quantile: float = Field(gt=0.5, lt=1)
    """The split-conformal quantile they were set at (engine.yaml's error_band_quantile)."""
    floor: float = Field(ge=0, lt=1)
    """The floor no band goes under (engine.yaml's error_band_floor)."""
    overall: TtftBand
    """Over every serving engine: for an engine the field did not measure."""
    by_serving_engine: dict[str, TtftBand] = Field(min_length=1)
    method: str = Field(min_length=10)
    field_data: str = Field(min_length=3)
    """What the first-token times were measured in (the field data's package and version)."""
    command: str = Field(min_length=3)
    """The command that rewrites this file."""
    computed: dt.date

    @model_validator(mode="after")
    def _consistent(self) -> TtftBands:
        for name, b in (("overall", self.overall), *self.by_serving_engine.items()):
            if b.band < self.floor:
                raise ValueError(f"the {name} band {b.band} is under the floor {self.floor}")
        counted = sum(b.first_token_times for b in self.by_serving_engine.values())
        if counted > self.overall.first_token_times:
            raise ValueError(
                f"the serving engines' first-token times add up to {counted}, "
                f"more than the {self.overall.first_token_times} of the overall band"
            )
        return self
