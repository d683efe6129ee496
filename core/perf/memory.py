"""Does a replica fit: weights + KV/state for the batch + the runtime's reserve, per GPU.

Checked on the busiest GPU of a layout rather than in total, because what is
replicated makes the sum misleading: MLA's latent sits on every tensor-parallel rank,
and data-parallel attention keeps the whole of the attention and shared weights on
every rank. Eight GPUs with room in total can still each run out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from core.catalog.entries import LayoutKind
from core.perf.layouts import Layout, replica_layouts
from core.perf.roofline import (
    Hardware,
    Workload,
    batch_per_replica,
    kv_split,
    max_context_tokens,
    routed_bytes,
    weight_bytes,
)
from core.scenario import MemoryFit
from core.units import bytes_to_gb, gib_to_bytes

MAX_GPUS_SEARCHED = 4096
NODE_GPUS = 8
"""Past one node, replicas grow by whole 8-GPU nodes."""


def deployable_counts(start: int = 1) -> Iterator[int]:
    """GPU counts a replica can use: 1, 2, 4, then whole nodes of 8.

    Tensor parallelism splits attention heads and experts evenly, so a replica
    inside a node is a power of two; beyond it, stages and ranks add whole nodes.
    """
    for n in (1, 2, 4):
        if n >= start:
            yield n
    first_node = max(NODE_GPUS, math.ceil(start / NODE_GPUS) * NODE_GPUS)
    yield from range(first_node, MAX_GPUS_SEARCHED + 1, NODE_GPUS)


def _shares(hw: Hardware, layout: Layout) -> tuple[int, int, int]:
    """(tensor width, stage GPUs, attention ranks) a GPU's memory is split by."""
    if layout.split_layers:
        return 1, 1, 1
    return layout.tp, layout.stage_gpus, layout.dp


def held_bytes_per_gpu(hw: Hardware, layout: Layout) -> float:
    """Weights the busiest GPU holds: its tensor share of the always-read weights, its
    share of the experts."""
    tp, stage, _ = _shares(hw, layout)
    routed = routed_bytes(hw.model, hw.precision)
    dense = weight_bytes(hw.model, hw.precision) - routed
    return (dense / tp + routed / stage) / layout.pp


def sequence_bytes_per_gpu(hw: Hardware, layout: Layout, max_context_tokens: int) -> float:
    """What one sequence on a GPU's attention rank costs it: KV and recurrent state."""
    tp, _, _ = _shares(hw, layout)
    kv = max_context_tokens * hw.kv_bytes_per_token / kv_split(hw.model, layout)
    return (kv + hw.model.state_bytes_per_sequence / tp) / layout.pp


def per_gpu_need_bytes(
    hw: Hardware, layout: Layout, *, concurrency: int, max_context_tokens: int
) -> float:
    """Bytes the busiest GPU needs for ``concurrency`` sequences over the deployment."""
    _, _, ranks = _shares(hw, layout)
    on_rank = -(-batch_per_replica(concurrency, layout) // ranks)
    return held_bytes_per_gpu(hw, layout) + on_rank * sequence_bytes_per_gpu(
        hw, layout, max_context_tokens
    )


def per_gpu_available_bytes(hw: Hardware, reserve_fraction: float) -> float:
    return gib_to_bytes(hw.gpu.hbm_usable_gib) * (1.0 - reserve_fraction)


def fits(
    hw: Hardware,
    layout: Layout,
    *,
    concurrency: int,
    max_context_tokens: int,
    reserve_fraction: float,
) -> bool:
    need = per_gpu_need_bytes(
        hw, layout, concurrency=concurrency, max_context_tokens=max_context_tokens
    )
    return need <= per_gpu_available_bytes(hw, reserve_fraction)


def room(hw: Hardware, layout: Layout, *, max_context_tokens: int, reserve_fraction: float) -> int:
    """The most sequences the deployment holds at once (0: not even the weights fit)."""
    _, _, ranks = _shares(hw, layout)
    spare = per_gpu_available_bytes(hw, reserve_fraction) - held_bytes_per_gpu(hw, layout)
    each = sequence_bytes_per_gpu(hw, layout, max_context_tokens)
    if spare < each:
        return 0
    per_rank = int(spare // each) if each > 0 else 1 << 30
    return per_rank * ranks * layout.replicas


def min_gpus(
    hw: Hardware,
    kinds: Iterable[LayoutKind],
    *,
    concurrency: int,
    max_context_tokens: int,
    reserve_fraction: float,
) -> int | None:
    """Smallest deployable GPU count some layout of ``kinds`` holds this batch in, or
    None if no count does.

    Starts from the weights-only bound and walks up; replicated KV can make every
    count fail, which is reported rather than searched forever.
    """
    kinds = tuple(kinds)
    available = per_gpu_available_bytes(hw, reserve_fraction)
    start = max(1, math.ceil(weight_bytes(hw.model, hw.precision) / available))
    for n in deployable_counts(start):
        sized = replace(hw, gpus=n)
        for layout in replica_layouts(kinds, n, hw.gpu.scale_up_domain_gpus):
            if fits(
                sized,
                layout,
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


def admit(hw: Hardware, layout: Layout, wl: Workload, reserve_fraction: float) -> Workload:
    """The workload as the server runs it: no more sequences decode than the KV cache
    holds; the rest queue for a slot (``Workload.queued``)."""
    longest = max_context_tokens(mean_context=wl.context_tokens, output_tokens=wl.output_tokens)
    held = room(hw, layout, max_context_tokens=longest, reserve_fraction=reserve_fraction)
    if held >= wl.concurrency or held == 0:
        return wl
    return replace(wl, concurrency=held, queued=wl.concurrency - held)


def memory_fit(
    hw: Hardware,
    layout: Layout,
    *,
    concurrency: int,
    max_context_tokens: int,
    reserve_fraction: float,
    kinds: Iterable[LayoutKind],
) -> MemoryFit:
    """The memory a deployment needs against what it has, on its busiest GPU and in all;
    ``min_gpus`` is the smallest count any of the stack's layouts holds the batch in."""
    need = per_gpu_need_bytes(
        hw, layout, concurrency=concurrency, max_context_tokens=max_context_tokens
    )
    available = per_gpu_available_bytes(hw, reserve_fraction)
    gpus = layout.gpus
    weights = weight_bytes(hw.model, hw.precision)
    held = held_bytes_per_gpu(hw, layout)
    usable_total = gib_to_bytes(hw.gpu.hbm_usable_gib) * hw.gpus
    return MemoryFit(
        weights_gb=round(bytes_to_gb(weights), 1),
        kv_and_state_gb=round(bytes_to_gb((need - held) * gpus), 1),
        reserve_gb=round(bytes_to_gb(usable_total * reserve_fraction), 1),
        needed_gb=round(bytes_to_gb(need * gpus + usable_total * reserve_fraction), 1),
        available_gb=round(bytes_to_gb(usable_total), 1),
        per_gpu_needed_gb=round(bytes_to_gb(need), 1),
        per_gpu_available_gb=round(bytes_to_gb(available), 1),
        fits=need <= available,
        min_gpus=min_gpus(
            hw,
            kinds,
            concurrency=concurrency,
            max_context_tokens=max_context_tokens,
            reserve_fraction=reserve_fraction,
        ),
    )
