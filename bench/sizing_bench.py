"""How fast sizing sweeps the catalog, and how that grows with the catalog.

Run with ``python bench/sizing_bench.py`` (or ``make bench``). The catalog is
scaled 2x and 4x by adding copies of every GPU under new ids, so the sweep has
that many more GPU types to search; the target is under 50 ms median at 1x and
cost growing about linearly.
"""

from __future__ import annotations

import statistics
import time

from core.catalog import Catalog, load_catalog
from core.perf.validation import build_engine
from core.sizing import size
from core.traffic import Traffic

TRAFFIC = Traffic(
    model="kimi-k3",
    output_tokens_per_day=2e9,
    output_tokens=400,
    input_tokens=800,
    peak_to_average=3,
    min_per_user_tokens_per_s=30,
    monthly_growth=0.1,
)


def scaled(catalog: Catalog, factor: int) -> Catalog:
    gpus = {}
    for copy in range(factor):
        for g in catalog.gpus:
            gid = g.id if copy == 0 else f"{g.id}-copy{copy}"
            gpus[gid] = g.model_copy(update={"id": gid, "name": f"{g.name} #{copy}", "aliases": ()})
    stacks = {
        s.id: s.model_copy(
            update={"gpus": tuple(gid for gid in gpus if gid.split("-copy")[0] in s.gpus)}
            if s.gpus
            else {}
        )
        for s in catalog.stacks
    }
    return Catalog(
        engine=catalog.engine,
        precisions=catalog.precisions.entries,
        gpus=gpus,
        models=catalog.models.entries,
        stacks=stacks,
        measurements={m.id: m for m in catalog.measurements},
        prices={p.id: p for p in catalog.prices},
    )


def main() -> None:
    base = load_catalog()
    medians = {}
    for factor in (1, 2, 4):
        engine = build_engine(scaled(base, factor))
        # every GPU type, not only the offer the price book leases: the whole catalog swept
        traffic = TRAFFIC.model_copy(update={"gpus": tuple(g.id for g in engine.catalog.gpus)})
        size(traffic, engine)  # warm
        samples = []
        for _ in range(15):
            start = time.perf_counter()
            result = size(traffic, engine)
            samples.append(time.perf_counter() - start)
        medians[factor] = statistics.median(samples)
        print(
            f"sizing sweep, catalog x{factor} ({len(engine.catalog.gpus)} GPU types, "
            f"{len(result.options)} options): median {medians[factor] * 1e3:7.1f} ms"
        )
    print(
        f"growth: x2 catalog -> {medians[2] / medians[1]:.2f}x time, "
        f"x4 catalog -> {medians[4] / medians[1]:.2f}x time"
    )


if __name__ == "__main__":
    main()
