"""The worked example the README's first command prints: Kimi K3 before and after.

The figures are the engine's; ``cli_demo.text.j2`` says them, with the comparison
table and sentences ``/lease compare`` uses.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.perf.engine import PerfEngine

BEFORE = dt.date(2026, 10, 15)
AFTER = dt.date(2026, 10, 17)
BATCHES = (1, 16, 64)


def scenes(engine: PerfEngine) -> dict[str, Any]:
    """The demo's context: the write-up's deployment before and after at three batches,
    and the community benchmark's cheap hours that make dear tokens."""
    from core.compare import price_contrasts
    from core.estimate import estimate
    from core.scenario import Scenario

    pairs = [
        (
            batch,
            [
                estimate(
                    Scenario(
                        model="kimi-k3",
                        gpu="b300",
                        gpus=16,
                        concurrency=batch,
                        price_per_gpu_hour=5.0,
                        as_of=day,
                    ),
                    engine,
                )
                for day in (BEFORE, AFTER)
            ],
        )
        for batch in BATCHES
    ]
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
    caveats: list[str] = []
    for e in [*(e for _, pair in pairs for e in pair), *single]:
        caveats.extend(c for c in e.caveats if c not in caveats)
    return {
        "before": BEFORE,
        "after": AFTER,
        "pairs": pairs,
        "single": single,
        "contrasts": price_contrasts(single),
        "caveats": caveats,
    }
