"""The throughput/interactivity frontier of one deployment across batch sizes.

Each point trades per-user speed for tokens per GPU; sizing picks the point the
SLA allows. Shown so a sales engineer can see why a faster-feeling service costs
more per token. Each point is the engine's answer an estimate gives at that batch:
with no acceptance asked, the speculative-decoding acceptance a measurement at that
batch assumed (``PerfEngine.default_acceptance``), so a measured batch reads as
``cost`` and ``estimate`` say it.
"""

from __future__ import annotations

from dataclasses import replace

from pydantic import BaseModel, ConfigDict

from core.perf.engine import PerfEngine, PerfQuery
from core.scenario import Basis

DEFAULT_BATCHES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)


class FrontierPoint(BaseModel):
    """One batch size. ``fits_memory`` false: the replica cannot hold the model, and
    the point has no throughput. ``queued_requests``: the part of the batch the KV
    cache cannot hold, waiting for a slot while the rest decode."""

    model_config = ConfigDict(frozen=True)

    concurrency: int
    output_tokens_per_s: float | None
    output_tokens_per_s_per_gpu: float | None
    per_user_tokens_per_s: float | None
    ttft_s: float | None
    fits_memory: bool
    queued_requests: int = 0
    basis: Basis
    error_band: float | None
    estimated_from: str | None = None
    spec_decode_acceptance: float = 1.0


def frontier(
    engine: PerfEngine,
    query: PerfQuery,
    batches: tuple[int, ...] = DEFAULT_BATCHES,
    *,
    acceptance: float | None = None,
) -> list[FrontierPoint]:
    """Tokens/s per GPU against tokens/s per user at each batch size of ``query``.

    ``acceptance``: the speculative-decoding acceptance asked for, at every batch; None
    takes each batch's default as an estimate does (measured, else 1).
    """
    points = []
    for batch in batches:
        q = replace(query, concurrency=batch)
        a = acceptance if acceptance is not None else engine.default_acceptance(q)
        q = replace(q, spec_decode_acceptance=a)
        t = engine.throughput(q)
        serves = t.holds_model
        points.append(
            FrontierPoint(
                concurrency=batch,
                output_tokens_per_s=t.output_tokens_per_s if serves else None,
                output_tokens_per_s_per_gpu=t.output_tokens_per_s / query.gpus if serves else None,
                per_user_tokens_per_s=t.per_user_tokens_per_s if serves else None,
                ttft_s=t.ttft_s if serves else None,
                fits_memory=serves,
                queued_requests=t.queued if serves else 0,
                basis=t.basis,
                error_band=t.error_band if serves else None,
                estimated_from=t.estimated_from,
                spec_decode_acceptance=a,
            )
        )
    return points
