"""The worked example the README's first command prints: Kimi K3 before and after.

The write-up's figures on the 16 GB300s it measured (exact), then the same 16 GPUs as
the B300s that are leased (estimated from those measurements, with their band). The
figures are the engine's; ``cli_demo.text.j2`` says them, with the comparison table
and sentences ``/lease compare`` uses.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.perf.engine import PerfEngine

BEFORE = dt.date(2026, 10, 15)
AFTER = dt.date(2026, 10, 17)
BATCHES = (1, 16, 64)
LEASED_BATCHES = (16, 64)
MEASURED_GPU, LEASED_GPU, GPUS = "gb300", "b300", 16


def scenes(engine: PerfEngine) -> dict[str, Any]:
    """The demo's context: the write-up's deployment before and after at three batches,
    the leased B300 estimated from it, and the community benchmark's cheap hours that
    make dear tokens."""
    from core.caveats import rank_caveats
    from core.compare import price_contrasts
    from core.estimate import estimate
    from core.scenario import Estimate, Scenario

    def before_after(gpu: str, batch: int) -> list[Estimate]:
        return [
            estimate(
                Scenario(
                    model="kimi-k3",
                    gpu=gpu,
                    gpus=GPUS,
                    concurrency=batch,
                    price_per_gpu_hour=5.0,
                    as_of=day,
                ),
                engine,
            )
            for day in (BEFORE, AFTER)
        ]

    pairs = [(batch, before_after(MEASURED_GPU, batch)) for batch in BATCHES]
    leased = [(batch, before_after(LEASED_GPU, batch)) for batch in LEASED_BATCHES]
    single = [
        estimate(
            Scenario(model="kimi-k3", gpu="b300", gpus=8, stack="vllm", price_per_gpu_hour=7.87),
            engine,
        ),
        estimate(
            Scenario(
                model="kimi-k3",
                gpu="a100-80gb",
                gpus=8,
                precision="gguf-ud-iq1_s",
                price_per_gpu_hour=2.51,
            ),
            engine,
        ),
    ]
    answers = [*(e for _, pair in (*pairs, *leased) for e in pair), *single]
    caveats = rank_caveats(c for e in answers for c in e.caveats)  # one of each, ranked
    return {
        "before": BEFORE,
        "after": AFTER,
        "pairs": pairs,
        "leased": leased,
        "gpus": GPUS,
        "leased_domain": engine.catalog.gpus.entries[LEASED_GPU].scale_up_domain_gpus,
        "single": single,
        "contrasts": price_contrasts(single),
        "caveats": caveats,
    }
