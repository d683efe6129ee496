"""How fast the engine answers: catalog load, calibration, and one estimate in-process.

Run with ``make bench`` (or ``python bench/estimate_bench.py``). Prints medians;
targets live here, not in timed tests: one estimate well under 1 ms.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from core.catalog import load_catalog
from core.estimate import estimate
from core.perf.validation import build_engine
from core.scenario import Scenario

SCENARIOS = {
    "measured (16x GB300, batch 64)": Scenario(
        model="kimi-k3",
        gpu="gb300",
        gpus=16,
        concurrency=64,
        price_per_gpu_hour=5,
        as_of="2026-10-15",
    ),
    "from GB300 (16x B300, batch 64)": Scenario(
        model="kimi-k3",
        gpu="b300",
        gpus=16,
        concurrency=64,
        price_per_gpu_hour=5,
        as_of="2026-10-15",
    ),
    "interpolated (GB300, batch 32)": Scenario(
        model="kimi-k3",
        gpu="gb300",
        gpus=16,
        concurrency=32,
        price_per_gpu_hour=5,
        as_of="2026-10-15",
    ),
    "estimated (8x B300, e2e)": Scenario(
        model="kimi-k3",
        gpu="b300",
        gpus=8,
        concurrency=32,
        input_tokens=800,
        output_tokens=400,
        api_price_per_million_output=15,
        api_price_per_million_input=3,
    ),
    "roofline only (DeepSeek-V3 on H200)": Scenario(
        model="deepseek-v3",
        gpu="h200",
        gpus=8,
        concurrency=64,
    ),
}


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


def report(name: str, samples: list[float], unit: str = "us") -> None:
    scale = 1e6 if unit == "us" else 1e3
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    print(
        f"{name:42s} median {statistics.median(samples) * scale:9.1f} {unit}"
        f"   p95 {p95 * scale:9.1f} {unit}   (n={len(samples)})"
    )


def main() -> None:
    report("load catalog", timed(load_catalog, 10), "ms")
    catalog = load_catalog()
    report("build engine (fit + validation bands)", timed(lambda: build_engine(catalog), 5), "ms")
    engine = build_engine(catalog)
    for name, scenario in SCENARIOS.items():
        estimate(scenario, engine)  # warm
        report(f"estimate: {name}", timed(lambda s=scenario: estimate(s, engine), 2000))


if __name__ == "__main__":
    main()
