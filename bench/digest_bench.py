"""How long a weekly digest takes over a workspace's saved quotes, and what it holds.

Run with ``python bench/digest_bench.py``. 10,000 saved quotes drawn from ~200
distinct questions (Kimi K3 on Blackwell at several batches, other models and GPUs,
and sized traffic) against the 2026-10-16 Kimi K3 decode path
(since 2026-10-01, until 2026-11-30). Targets: under 10 s, and peak memory that
does not grow with the number of quotes. Then 10,000 distinct questions, run if
the per-question cost says it finishes within a couple of minutes.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
import time
import tracemalloc
from collections.abc import Iterator

from core.catalog import load_catalog
from core.changes import QuoteRef, changes_between, digest_for
from core.perf.engine import PerfEngine
from core.perf.validation import build_engine
from core.scenario import Scenario
from core.traffic import Traffic

SINCE, UNTIL = dt.date(2026, 10, 1), dt.date(2026, 11, 30)
QUOTES = 10_000
DISTINCT = 200
BUDGET_S = 120.0
QUIET = dt.date(2026, 11, 20), dt.date(2026, 11, 27)

Question = Scenario | Traffic


def questions(rng: random.Random) -> Iterator[Question]:
    """An endless, varied stream of the questions sales engineers save."""
    for n in itertools.count():
        price = round(rng.choice((3.5, 4.0, 5.0, 6.0, 7.87)) + n * 0.0001, 4)
        pick = rng.random()
        if pick < 0.45:
            yield Scenario(
                model="kimi-k3",
                gpu=rng.choice(("b300", "b200", "gb300")),
                gpus=rng.choice((8, 16, 32)),
                concurrency=rng.choice((1, 4, 16, 32, 64, 128)),
                price_per_gpu_hour=price,
                utilization=rng.choice((1.0, 0.7, 0.5)),
                api_price_per_million_output=rng.choice((None, 15.0)),
            )
        elif pick < 0.75:
            yield Scenario(
                model=rng.choice(("deepseek-v3", "kimi-k2", "qwen3-235b-a22b", "gpt-oss-120b")),
                gpu=rng.choice(("h200", "b200", "b300", "mi300x")),
                gpus=8,
                concurrency=rng.choice((1, 16, 64)),
                price_per_gpu_hour=price,
            )
        else:
            yield Traffic(
                model=rng.choice(("kimi-k3", "kimi-k3", "deepseek-v3")),
                output_tokens_per_day=rng.choice((2e8, 1e9, 2e9, 5e9)),
                peak_to_average=rng.choice((1.5, 3.0)),
                monthly_growth=rng.choice((0.0, 0.05, 0.1)),
                gpus=rng.choice((("b300",), ("b300", "b200"), ("h200", "b300"))),
                price_per_gpu_hour=price,
            )


def quotes(
    pool: list[Question], count: int, rng: random.Random
) -> Iterator[tuple[QuoteRef, Question]]:
    """Streamed, as storage streams rows: never a list of every quote. A pool as large
    as the count is taken in order (every quote distinct); a smaller one is sampled."""
    for n in range(count):
        question = pool[n] if count <= len(pool) else rng.choice(pool)
        yield QuoteRef(id=n, name=f"quote-{n}", customer=f"customer-{n % 700}"), question


def run(
    engine: PerfEngine,
    pool: list[Question],
    count: int,
    *,
    traced: bool,
    period: tuple[dt.date, dt.date] = (SINCE, UNTIL),
) -> tuple[float, int, int, int]:
    """Seconds, peak traced bytes (0 untraced), material moves, errors."""
    rng = random.Random(7)
    if traced:
        tracemalloc.start()
    start = time.perf_counter()
    digest = digest_for(
        quotes(pool, count, rng),
        engine,
        since=period[0],
        until=period[1],
        threshold_pct=5.0,
        threshold_usd=500.0,
    )
    seconds = time.perf_counter() - start
    peak = 0
    if traced:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert digest.quotes_checked == count
    return seconds, peak, len(digest.moves), digest.errors


def main() -> None:
    engine = build_engine(load_catalog())
    rng = random.Random(2026)
    stream = questions(rng)
    pool = list(itertools.islice(stream, DISTINCT))
    changes = changes_between(engine.catalog, SINCE, UNTIL)
    print(f"period {SINCE} .. {UNTIL}: {len(changes)} catalog changes")
    kinds = sum(isinstance(q, Traffic) for q in pool)
    print(f"{DISTINCT} distinct questions ({kinds} traffic, {DISTINCT - kinds} scenarios)")

    seconds, _, material, errors = run(engine, pool, QUOTES, traced=False)
    print(
        f"{QUOTES:,} quotes over {DISTINCT} questions: {seconds:.2f} s "
        f"({material:,} material, {errors:,} unpriceable)"
    )
    _, peak, _, _ = run(engine, pool, QUOTES, traced=True)
    _, small_peak, _, _ = run(engine, pool, QUOTES // 10, traced=True)
    _, quiet_peak, _, _ = run(engine, pool, QUOTES, traced=True, period=QUIET)
    print(
        f"peak traced memory: {peak / 1e6:.1f} MB for {QUOTES:,} quotes, "
        f"{small_peak / 1e6:.1f} MB for {QUOTES // 10:,}; a quiet week "
        f"({QUIET[0]} .. {QUIET[1]}, nothing material): {quiet_peak / 1e6:.1f} MB "
        "(memory follows the material moves kept, not the quotes read)"
    )

    sample = list(itertools.islice(stream, DISTINCT))
    seconds, _, _, _ = run(engine, sample, len(sample), traced=False)
    per_question = seconds / len(sample)
    print(
        f"distinct questions: {per_question * 1e3:.2f} ms each "
        f"({QUOTES:,} would take ~{per_question * QUOTES:.0f} s)"
    )
    if per_question * QUOTES <= BUDGET_S:
        distinct = list(itertools.islice(stream, QUOTES))
        seconds, _, material, errors = run(engine, distinct, QUOTES, traced=False)
        print(
            f"{QUOTES:,} distinct questions: {seconds:.1f} s "
            f"({material:,} material, {errors:,} unpriceable)"
        )
        _, peak, _, _ = run(engine, distinct, QUOTES, traced=True, period=QUIET)
        print(
            f"peak traced memory, {QUOTES:,} distinct questions in a quiet week: "
            f"{peak / 1e6:.1f} MB (the repricing memo is capped)"
        )


if __name__ == "__main__":
    main()
