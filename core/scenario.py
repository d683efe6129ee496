"""The public contract: what a question looks like and what an answer carries.

Field names are snake_case with units in the name, as the public JSON contract fixes them;
programs read ``leasewise estimate --json`` by these names.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer, model_validator

Basis = Literal["measured", "interpolated", "estimated"]


class Scenario(BaseModel):
    """One deployment under one lease, as a sales engineer describes it.

    Optional fields left out are filled from the catalog (precision, stack, price)
    and reported back as assumptions, never silently.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    model: str = Field(min_length=1)
    gpu: str = Field(min_length=1)
    gpus: int | None = Field(default=None, ge=1, le=4096)
    precision: str | None = None
    stack: str | None = None
    as_of: dt.date | None = None
    concurrency: int = Field(default=1, ge=1, le=100_000)
    input_tokens: int | None = Field(default=None, ge=0, le=10_000_000)
    output_tokens: int | None = Field(default=None, ge=1, le=10_000_000)
    reasoning_tokens: int | None = Field(default=None, ge=0, le=10_000_000)
    context_tokens: int | None = Field(default=None, ge=1, le=100_000_000)
    spec_decode_acceptance: float | None = Field(default=None, ge=1.0, le=16.0)
    kv_precision: Literal["bf16", "fp8"] | None = None
    price_per_gpu_hour: float | None = Field(default=None, gt=0, le=1000)
    utilization: float = Field(default=1.0, gt=0, le=1)
    api_price_per_million_output: float | None = Field(default=None, gt=0)
    api_price_per_million_input: float | None = Field(default=None, ge=0)
    term_months: int | None = Field(default=None, ge=1, le=120)

    @model_validator(mode="after")
    def _api_input_needs_output(self) -> Scenario:
        if (
            self.api_price_per_million_input is not None
            and self.api_price_per_million_output is None
        ):
            raise ValueError(
                "api_price_per_million_input needs api_price_per_million_output as well"
            )
        return self


class SourceRef(BaseModel):
    """Where a number came from: a catalog measurement, stack or price entry."""

    model_config = ConfigDict(frozen=True)

    title: str
    url: str | None = None
    date: dt.date
    measurement: str | None = None
    """The measurement's id in the catalog, for programs; answers say ``measured``."""
    measured: str | None = None
    """What the measurement measured, in words: "Kimi K3 on 16x GB300 at batch 64"."""


class MemoryFit(BaseModel):
    model_config = ConfigDict(frozen=True)

    weights_gb: float
    kv_and_state_gb: float
    reserve_gb: float
    needed_gb: float
    available_gb: float
    per_gpu_needed_gb: float
    per_gpu_available_gb: float
    fits: bool
    min_gpus: int | None


class Estimate(BaseModel):
    """Throughput, latency and lease economics of one deployment, with provenance.

    A deployment that cannot hold the model (``fits_memory`` false) has no throughput:
    its throughput, per-token and breakeven fields are None, and its caveats say how
    many GPUs it needs. A batch larger than the KV cache holds still runs: as many
    sequences decode as fit and ``queued_requests`` wait for a slot (time to first
    token includes that wait). ``estimated_from`` names the measurement an estimate
    scales, whether of this deployment or of the GPU measured in its place.
    """

    model_config = ConfigDict(frozen=True)

    model: str
    gpu: str
    gpus: int
    precision: str
    stack: str
    as_of: dt.date | None
    concurrency: int
    context_tokens: int
    spec_decode_acceptance: float
    kv_precision: str
    layout: str | None = None
    """The parallel layout the answer runs (TP8, TP8 x PP2, DEP16, TP8, 2 replicas);
    None when nothing holds the model."""
    layout_domains: int | None = None
    """NVLink domains one replica of that layout spans (2: across two 8-GPU nodes)."""
    layout_domain_gpus: int | None = None
    """GPUs in one NVLink domain of this GPU's system (8 for HGX, 72 for NVL72)."""
    output_tokens_per_s: float | None
    per_user_tokens_per_s: float | None
    ttft_s: float | None
    price_per_gpu_hour: float
    price_basis: Literal["stated", "book", "list"] | None = None
    """Where the price came from: stated in the question, the price book's line for
    the term, or the GPU's on-demand list price (None: an answer saved before)."""
    price_source: str | None = None
    """The price's provenance as the answer says it (as a sizing option's is):
    "36-month book price", "as stated in the question", "on-demand list price, not in
    our offer — <its source>"."""
    offered: bool = True
    """The GPU is in the company's price book (False: "not in our offer")."""
    price_said: str | None = None
    """The price as the answer says it back: "$5.00/GPU-hour, 36-month book price"."""
    utilization: float
    usd_per_hour: float
    usd_per_month: float
    usd_per_million_output_tokens: float | None
    contract_usd: float | None
    api_usd_per_million_output_tokens: float | None
    api_usd_per_month: float | None
    breakeven_utilization: float | None
    fits_memory: bool
    queued_requests: int = 0
    memory: MemoryFit
    basis: Basis
    error_band: float | None
    """The band of the throughput figures (aggregate and per user)."""
    ttft_error_band: float | None = None
    """The band of ``ttft_s``: first-token times miss by their own causes (queueing,
    prefill), so they carry their own band (None when there is no TTFT)."""
    estimated_from: str | None = None
    estimated_from_said: str | None = None
    """That measurement as an answer names it: its publication and what it measured
    (``core.provenance``), never its id."""
    sources: list[SourceRef]
    caveats: list[str]
    assumptions: list[str]

    @field_serializer("*", when_used="json")
    def _significant(self, value: object) -> object:
        """JSON carries six significant digits: 21.61, not 21.610000000000003."""
        if isinstance(value, float) and value != 0 and math.isfinite(value):
            return float(f"{value:.6g}")
        return value
