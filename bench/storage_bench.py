"""How fast storage answers a Slack handler, and how much memory the digest's walk takes.

Run with ``python bench/storage_bench.py`` (or ``make bench``). On a SQLite file in
a temporary directory, and on PostgreSQL too when LEASEWISE_TEST_DATABASE_URL
names a server (a throwaway database is created there and dropped at the end),
it prints medians for:

(a) saving a quote: one transaction with ``quotes.save``, committed;
(b) loading a thread's scenario: one transaction with ``threads.current``;
(c) peak Python memory (tracemalloc) walking 1,000 and 10,000 quotes with
    ``quotes.stream_all``, against holding them all in a list.

Each sample is a whole unit of work, commit included, because that is what a
handler pays. tracemalloc sees Python allocations only, not the driver's C
buffers. The rows for (c) are seeded with one bulk INSERT of copies of a quote
saved in (a) (seeding is not what is measured).
"""

from __future__ import annotations

import datetime as dt
import gc
import os
import statistics
import tempfile
import time
import tracemalloc
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, insert, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from core.catalog import load_catalog
from core.estimate import estimate
from core.perf.validation import build_engine
from core.scenario import Estimate, Scenario
from storage import quotes, threads
from storage.database import make_engine, make_session_factory
from storage.models import Quote
from storage.schema import upgrade

PG_ENV = "LEASEWISE_TEST_DATABASE_URL"
NOW = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
STREAMED_QUOTES = 10_000
SAVES = 200
LOADS = 500

SCENARIO = Scenario(
    model="kimi-k3",
    gpu="b300",
    gpus=16,
    concurrency=64,
    price_per_gpu_hour=5,
    as_of="2026-10-15",
)


def clock() -> dt.datetime:
    return NOW


def timed(fn: Callable[[], object], repeat: int, warm: int = 5) -> list[float]:
    for _ in range(warm):
        fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


def report(name: str, samples: list[float]) -> None:
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    print(
        f"  {name:40s} median {statistics.median(samples) * 1e3:7.2f} ms"
        f"   p95 {p95 * 1e3:7.2f} ms   (n={len(samples)})"
    )


def bench_saving_a_quote(factory: sessionmaker[Session], answer: Estimate) -> None:
    names = (f"bench-{i}" for i in range(10**9))

    def save_one() -> None:
        with factory.begin() as session:
            quotes.save(
                session,
                workspace_id="TBENCH",
                channel_id="CBENCH",
                owner_user_id="UBENCH",
                name=next(names),
                customer="Acme",
                question=SCENARIO,
                economics=answer,
                as_of=dt.date(2026, 10, 15),
                clock=clock,
            )

    report("(a) save a quote (own transaction)", timed(save_one, SAVES))


def bench_loading_a_thread(factory: sessionmaker[Session]) -> None:
    key = threads.ThreadKey(workspace_id="TBENCH", channel_id="CBENCH", thread_ts="1.000001")
    with factory.begin() as session:
        threads.start(session, key, SCENARIO, clock=clock)

    def load_one() -> None:
        with factory.begin() as session:
            assert threads.current(session, key) is not None

    report("(b) load a thread's scenario", timed(load_one, LOADS))


def bench_streaming_memory(factory: sessionmaker[Session]) -> None:
    """Streaming should stay flat as the quotes grow tenfold; the list grows with them."""
    for count in (STREAMED_QUOTES // 10, STREAMED_QUOTES):
        workspace = f"TSTREAM{count}"
        seed_quotes(factory, count, workspace_id=workspace)

        def stream(workspace: str = workspace) -> int:
            with factory.begin() as session:
                return sum(1 for _ in quotes.stream_all(session, workspace_id=workspace))

        def materialise(workspace: str = workspace) -> int:
            with factory.begin() as session:
                return len(list(quotes.stream_all(session, workspace_id=workspace)))

        walks = ((f"batches of {quotes.STREAM_BATCH}", stream), ("one list", materialise))
        for name, walk in walks:
            peak, walked, seconds = peak_memory(walk)
            assert walked == count, (walked, count)
            print(
                f"  (c) {walked:6,} quotes, {name:16s} peak {peak / 2**20:6.1f} MiB"
                f"   ({seconds:.2f} s under tracemalloc)"
            )


def seed_quotes(factory: sessionmaker[Session], count: int, *, workspace_id: str) -> None:
    """Copies of one saved quote's row, under new names, in one bulk INSERT."""
    with factory.begin() as session:
        template = session.scalars(select(Quote).limit(1)).one()
        row = {
            column: getattr(template, column)
            for column in (
                "channel_id",
                "owner_user_id",
                "customer",
                "kind",
                "question",
                "economics",
                "as_of",
            )
        }
        session.execute(
            insert(Quote),
            [
                row
                | {"workspace_id": workspace_id, "name": f"stream-{i}"}
                | {"created_at": NOW, "updated_at": NOW}
                for i in range(count)
            ],
        )


def peak_memory(walk: Callable[[], int]) -> tuple[int, int, float]:
    """Peak traced bytes above the starting point while ``walk`` runs."""
    gc.collect()
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        start = time.perf_counter()
        count = walk()
        seconds = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - base, count, seconds


def bench(label: str, url: str, answer: Estimate) -> None:
    print(f"{label}:")
    upgrade(url)
    engine = make_engine(url)
    try:
        factory = make_session_factory(engine)
        bench_saving_a_quote(factory, answer)
        bench_loading_a_thread(factory)
        bench_streaming_memory(factory)
    finally:
        engine.dispose()


@contextmanager
def sqlite_database() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as directory:
        yield f"sqlite:///{Path(directory) / 'bench.db'}"


@contextmanager
def throwaway_postgres(server: str) -> Iterator[str]:
    """A fresh database on the server, dropped afterwards (as tests/storage/conftest.py does)."""
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    name = f"leasewise_bench_{uuid.uuid4().hex[:10]}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(
                text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n"),
                {"n": name},
            )
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        admin.dispose()


def main() -> None:
    answer = estimate(SCENARIO, build_engine(load_catalog()))
    with sqlite_database() as url:
        bench("SQLite (temporary file)", url, answer)
    server = os.environ.get(PG_ENV)
    if not server:
        print(f"PostgreSQL: skipped (set {PG_ENV} to a server URL to include it)")
        return
    with throwaway_postgres(server) as url:
        bench("PostgreSQL (throwaway database)", url, answer)


if __name__ == "__main__":
    main()
