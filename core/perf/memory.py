"""Does a replica fit: weights + KV/state for the batch + the runtime's reserve, per GPU.

Checked per GPU rather than in total because replicated state (MLA's latent on
every tensor-parallel rank) makes the sum misleading: eight GPUs with room in
total can still each run out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import replace

from core.perf.roofline import (
    Hardware,
    Workload,
    always_read_bytes_per_gpu,
    kv_shards,
    max_context_tokens,
    weight_bytes,
)
from core.scenario import MemoryFit
from core.units import bytes_to_gb, gib_to_bytes

MAX_GPUS_SEARCHED = 4096
NODE_GPUS = 8
"""Past one node, replicas grow by whole 8-GPU nodes (tensor x pipeline parallel)."""


def deployable_counts(start: int = 1) -> Iterator[int]:
    """GPU counts a replica can use: 1, 2, 4, then whole nodes of 8.

    Tensor parallelism splits attention heads and experts evenly, so a replica
    inside a node is a power of two; beyond it, pipeline stages add nodes.
    """
    for n in (1, 2, 4):
        if n >= start:
            yield n
    first_node = max(NODE_GPUS, math.ceil(start / NODE_GPUS) * NODE_GPUS)
    yield from range(first_node, MAX_GPUS_SEARCHED + 1, NODE_GPUS)


def per_gpu_need_bytes(hw: Hardware, *, concurrency: int, max_context_tokens: int) -> float:
    model, n = hw.model, hw.gpus
    weights = weight_bytes(model, hw.precision)
    routed = weights * model.routed_weight_fraction if model.is_moe else 0.0
    held = always_read_bytes_per_gpu(hw) + routed / n
    kv = concurrency * max_context_tokens * hw.kv_bytes_per_token
    state = concurrency * model.state_bytes_per_sequence / n
    return held + kv / kv_shards(hw) + state


def per_gpu_available_bytes(hw: Hardware, reserve_fraction: float) -> float:
    return gib_to_bytes(hw.gpu.hbm_usable_gib) * (1.0 - reserve_fraction)


def fits(
    hw: Hardware, *, concurrency: int, max_context_tokens: int, reserve_fraction: float
) -> bool:
    need = per_gpu_need_bytes(hw, concurrency=concurrency, max_context_tokens=max_context_tokens)
    return need <= per_gpu_available_bytes(hw, reserve_fraction)


def min_gpus(
    hw: Hardware, *, concurrency: int, max_context_tokens: int, reserve_fraction: float
) -> int | None:
    """Smallest deployable GPU count that holds this batch, or None if no count does.

    Starts from the weights-only bound and walks up; replicated KV can make every
    count fail, which is reported rather than searched forever.
    """
    available = per_gpu_available_bytes(hw, reserve_fraction)
    start = max(1, math.ceil(weight_bytes(hw.model, hw.precision) / available))
    for n in deployable_counts(start):
        if fits(
            replace(hw, gpus=n),
            concurrency=concurrency,
            max_context_tokens=max_context_tokens,
            reserve_fraction=reserve_fraction,
        ):
            return n
    return None


def largest_batch(ok: Callable[[int], bool], upper: int) -> int:
    """The largest b in [1, upper] with ok(b), for ok true up to a point and false after;
    0 when even one sequence fails. Memory, speed and TTFT all fall that way with b."""
    if upper < 1 or not ok(1):
        return 0
    lo, hi = 1, upper
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def admit(hw: Hardware, wl: Workload, reserve_fraction: float) -> Workload:
    """The workload as the server runs it: no more sequences decode than the KV cache
    holds; the rest queue for a slot (``Workload.queued``)."""
    longest = max_context_tokens(mean_context=wl.context_tokens, output_tokens=wl.output_tokens)

    def room(batch: int) -> bool:
        return fits(
            hw, concurrency=batch, max_context_tokens=longest, reserve_fraction=reserve_fraction
        )

    if room(wl.concurrency):
        return wl
    admitted = largest_batch(room, wl.concurrency)
    if admitted == 0:
        return wl
    return replace(wl, concurrency=admitted, queued=wl.concurrency - admitted)


def memory_fit(
    hw: Hardware, *, concurrency: int, max_context_tokens: int, reserve_fraction: float
) -> MemoryFit:
    need = per_gpu_need_bytes(hw, concurrency=concurrency, max_context_tokens=max_context_tokens)
    available = per_gpu_available_bytes(hw, reserve_fraction)
    weights = weight_bytes(hw.model, hw.precision)
    held = always_read_bytes_per_gpu(hw) * hw.gpus + (
        weights * hw.model.routed_weight_fraction if hw.model.is_moe else 0.0
    )
    usable_total = gib_to_bytes(hw.gpu.hbm_usable_gib) * hw.gpus
    ok = need <= available
    return MemoryFit(
        weights_gb=round(bytes_to_gb(weights), 1),
        kv_and_state_gb=round(bytes_to_gb(need * hw.gpus - held), 1),
        reserve_gb=round(bytes_to_gb(usable_total * reserve_fraction), 1),
        needed_gb=round(bytes_to_gb(need * hw.gpus + usable_total * reserve_fraction), 1),
        available_gb=round(bytes_to_gb(usable_total), 1),
        per_gpu_needed_gb=round(bytes_to_gb(need), 1),
        per_gpu_available_gb=round(bytes_to_gb(available), 1),
        fits=ok,
        min_gpus=min_gpus(
            hw,
            concurrency=concurrency,
            max_context_tokens=max_context_tokens,
            reserve_fraction=reserve_fraction,
        ),
    )
