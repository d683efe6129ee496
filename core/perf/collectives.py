"""Collectives as message size over link bandwidth plus latency per step.

The alpha-beta model the field writes (llm-analysis, NCCL's own tuning notes): moving
``m`` bytes over a link of bandwidth ``B`` in ``s`` steps of latency ``a`` takes
``s x a + m / B``. Two links matter: the NVLink (or other scale-up) domain, whose
bandwidth is one direction of the GPU's catalog figure, and the scale-out network
between domains, one direction of each GPU's NIC. Each reaches a share of its
datasheet (``LinkPrior.efficiency``, from engine.yaml); what a step costs is the same
file's latency. A collective spanning several domains is hierarchical: inside each
domain first, then across domains over the NICs, as NCCL and DeepEP route it.

Every function is linear in the message: ``Cost`` keeps the fixed part and the part
per byte apart, so a replica's costs are worked out once and scaled by its batch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from core.catalog import Gpu
from core.catalog.entries import EngineConstants
from core.units import gb_per_s_to_bytes_per_s, us_to_s


@dataclass(frozen=True)
class Link:
    """One fabric as collectives see it: achievable bytes/s one way, seconds a step."""

    bytes_per_s: float
    step_s: float


@dataclass(frozen=True)
class Fabric:
    """The links a GPU's system gives it: its NVLink domain and the network beyond."""

    domain_gpus: int
    scale_up: Link
    scale_out: Link


@dataclass(frozen=True)
class Cost:
    """Seconds of a collective as ``fixed_s + per_byte_s x message bytes``."""

    fixed_s: float = 0.0
    per_byte_s: float = 0.0

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.fixed_s + other.fixed_s, self.per_byte_s + other.per_byte_s)

    def times(self, n: float) -> Cost:
        return Cost(self.fixed_s * n, self.per_byte_s * n)

    def seconds(self, message_bytes: float) -> float:
        return self.fixed_s + self.per_byte_s * message_bytes


NONE = Cost()


def fabric_of(gpu: Gpu, engine: EngineConstants) -> Fabric:
    """A GPU's links at the efficiency and latency engine.yaml gives each fabric."""
    up, out = engine.scale_up_link, engine.scale_out_link
    return Fabric(
        domain_gpus=gpu.scale_up_domain_gpus,
        scale_up=Link(
            # the catalog's scale-up figure is bidirectional: half of it flows each way
            bytes_per_s=gb_per_s_to_bytes_per_s(gpu.scale_up_bandwidth_gb_per_s / 2)
            * up.efficiency,
            step_s=us_to_s(up.latency_us),
        ),
        scale_out=Link(
            bytes_per_s=gb_per_s_to_bytes_per_s(gpu.scale_out_bandwidth_gb_per_s) * out.efficiency,
            step_s=us_to_s(out.latency_us),
        ),
    )


def span(gpus: int, fabric: Fabric) -> tuple[int, int]:
    """(GPUs of the group in each domain, domains the group spans), placed contiguously."""
    inside = min(gpus, fabric.domain_gpus)
    return inside, math.ceil(gpus / inside)


def all_reduce(gpus: int, fabric: Fabric) -> Cost:
    """An all-reduce of a message every GPU holds, over ``gpus`` GPUs.

    Inside a domain, two-shot (reduce-scatter then all-gather: 2 steps, each GPU
    sending 2(n-1)/n of the message), the way NVSwitch systems' custom all-reduce
    kernels run; across k domains, after the domain's reduce-scatter each GPU holds
    1/n of the message and rings it with its peers in the other domains
    (2(k-1) steps, 2(k-1)/k of that share each), then the domain all-gathers.
    """
    if gpus <= 1:
        return NONE
    inside, domains = span(gpus, fabric)
    cost = NONE
    if inside > 1:
        cost += Cost(
            2 * fabric.scale_up.step_s,
            2 * (inside - 1) / inside / fabric.scale_up.bytes_per_s,
        )
    if domains > 1:
        cost += Cost(
            2 * (domains - 1) * fabric.scale_out.step_s,
            2 * (domains - 1) / domains / inside / fabric.scale_out.bytes_per_s,
        )
    return cost


def all_to_all(gpus: int, fabric: Fabric) -> Cost:
    """One all-to-all over ``gpus`` GPUs, per byte each GPU sends spread evenly over all
    of them (its own share stays put): one step, the NVLink and network parts in
    parallel, so the slower of the two sets the time (DeepEP's dispatch and combine)."""
    if gpus <= 1:
        return NONE
    inside, domains = span(gpus, fabric)
    over_nvlink = (inside - 1) / gpus / fabric.scale_up.bytes_per_s
    over_network = (gpus - inside) / gpus / fabric.scale_out.bytes_per_s
    step = fabric.scale_out.step_s if domains > 1 else fabric.scale_up.step_s
    return Cost(step, max(over_nvlink, over_network))


def send(crosses_domains: bool, fabric: Fabric) -> Cost:
    """One point-to-point send (a pipeline stage handing its activations on)."""
    link = fabric.scale_out if crosses_domains else fabric.scale_up
    return Cost(link.step_s, 1.0 / link.bytes_per_s)
