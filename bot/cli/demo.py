"""The worked example the README's first command prints: Kimi K3 before and after."""

from __future__ import annotations

import datetime as dt

from rich.console import Console
from rich.markup import escape

from bot.cli.render import comparison_table, contrast_sentence
from core.compare import price_contrasts
from core.estimate import estimate
from core.perf.engine import PerfEngine
from core.scenario import Scenario

BEFORE = dt.date(2026, 10, 15)
AFTER = dt.date(2026, 10, 17)


def run(console: Console, engine: PerfEngine) -> None:
    shown = []
    console.print(
        "[bold]Kimi K3 on 16 B300s at $5/GPU-hour, before and after vLLM's decode path[/]"
    )
    for batch in (1, 16, 64):
        pair = [
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
        ]
        console.print(comparison_table(pair, f"batch {batch}: as of {BEFORE} vs {AFTER}"))
        shown.extend(pair)
        before, after = pair
        change = after.usd_per_million_output_tokens / before.usd_per_million_output_tokens - 1
        console.print(
            f"  {after.output_tokens_per_s / before.output_tokens_per_s:.2f}x tokens/s, "
            f"{change:+.0%} cost per M output tokens",
            highlight=False,
        )
    console.print()
    console.print("[bold]Cheap hours, dear tokens: single-stream Kimi K3[/]")
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
    console.print(
        comparison_table(single, "8x B300 (vLLM, MXFP4) vs 8x A100-80GB (llama.cpp, 1-bit)")
    )
    shown.extend(single)
    for contrast in price_contrasts(single):
        console.print(contrast_sentence(contrast), highlight=False)
    console.print()
    console.print("[bold]Caveats carried by these numbers:[/]")
    seen: list[str] = []
    for e in shown:
        seen.extend(c for c in e.caveats if c not in seen)
    for caveat in seen:
        console.print(f"  - {escape(caveat)}", highlight=False)
