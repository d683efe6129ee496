"""The throughput/interactivity frontier of one deployment across batch sizes.

Each point trades per-user speed for tokens per GPU; sizing picks the point the
SLA allows. Shown so a sales engineer can see why a faster-feeling service costs
more per token.
"""

from __future__ import annotations

from dataclasses import replace

from pydantic import BaseModel, ConfigDict

from core.perf.engine import PerfEngine, PerfQuery
from core.perf.memory import fits
from core.perf.roofline import max_context_tokens, mean_context_tokens
from core.scenario import Basis

DEFAULT_BATCHES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)


class FrontierPoint(BaseModel):
    model_config = ConfigDict(frozen=True)

    concurrency: int
    output_tokens_per_s: float
    output_tokens_per_s_per_gpu: float
    per_user_tokens_per_s: float
    ttft_s: float | None
    fits_memory: bool
    basis: Basis
    error_band: float


def frontier(
    engine: PerfEngine, query: PerfQuery, batches: tuple[int, ...] = DEFAULT_BATCHES
) -> list[FrontierPoint]:
    """Tokens/s per GPU against tokens/s per user at each batch size of ``query``."""
    hw = engine.hardware(query)
    mean_ctx = mean_context_tokens(
        context_tokens=query.context_tokens,
        input_tokens=query.input_tokens,
        output_tokens=query.output_tokens,
        default=engine.catalog.engine.default_context_tokens,
    )
    max_ctx = max_context_tokens(mean_context=mean_ctx, output_tokens=query.output_tokens)
    points = []
    for batch in batches:
        q = replace(query, concurrency=batch)
        t = engine.throughput(q)
        points.append(
            FrontierPoint(
                concurrency=batch,
                output_tokens_per_s=t.output_tokens_per_s,
                output_tokens_per_s_per_gpu=t.output_tokens_per_s / query.gpus,
                per_user_tokens_per_s=t.per_user_tokens_per_s,
                ttft_s=t.ttft_s,
                fits_memory=fits(
                    hw,
                    concurrency=batch,
                    max_context_tokens=max_ctx,
                    reserve_fraction=engine.catalog.engine.runtime_reserve_fraction,
                ),
                basis=t.basis,
                error_band=t.error_band,
            )
        )
    return points
