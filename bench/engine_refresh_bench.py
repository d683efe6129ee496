"""What a request pays while an admin's addition recalibrates the engine in the background.

Run with ``python bench/engine_refresh_bench.py``. On a fresh SQLite database it adds
a stack the way ``/lease admin add`` does, then has four threads ask for the engine
every 20 ms (as concurrent requests would) until the background build serves the new
one, and the same with no build under way. Calibration runs in a child process (what
``leasewise serve`` does) and, for comparison, on a thread of this process. Prints
each build's duration and the requests' latency; the target is that no request waits
for a build: p99 during a rebuild close to p99 with none (tens of ms, not seconds).
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from bot.engine.cache import load_engine
from bot.engine.isolated import calibrate_in_child
from bot.engine.source import EngineSource
from core.catalog import Catalog
from core.perf.engine import PerfEngine
from core.perf.validation import build_engine
from storage import admin
from storage.schema import open_database

STACK = {
    "id": "sglang-bench",
    "name": "SGLang bench (single node)",
    "engine": "sglang",
    "precisions": ["fp8", "mxfp4"],
    "released": "2027-01-10",
    "parallelism": "tensor",
    "description": "a later release, as an admin would add it",
    "sources": [{"title": "release notes", "date": "2027-01-10"}],
}
REQUESTERS = 4
PAUSE_S = 0.02
QUIET_S = 5.0


def requests_until(source: EngineSource, done: Callable[[PerfEngine], bool]) -> list[float]:
    """Latencies of REQUESTERS threads asking every PAUSE_S until ``done`` holds."""
    latencies: list[float] = []
    finished = threading.Event()

    def request() -> None:
        while not finished.is_set():
            asked = time.perf_counter()
            engine = source.current()
            latencies.append(time.perf_counter() - asked)
            if done(engine):
                finished.set()
            time.sleep(PAUSE_S)

    threads = [threading.Thread(target=request) for _ in range(REQUESTERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies


def report(label: str, latencies: list[float]) -> None:
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(
        f"{label}: {len(ordered)} answers, median {statistics.median(ordered) * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms"
    )


def rebuild(label: str, calibrate: Callable[[Catalog], PerfEngine]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        _, sessions = open_database(f"sqlite:///{Path(directory) / 'bench.db'}")
        source = EngineSource(load_engine(), sessions, calibrate=calibrate)
        source.current()
        with sessions.begin() as session:
            admin.add_catalog_entry(session, kind="stack", body=STACK, actor="bench")
        started = time.perf_counter()
        source.changed()
        latencies = requests_until(source, lambda e: STACK["id"] in e.catalog.stacks)
        print(f"{label}: rebuilt and served in {time.perf_counter() - started:.1f} s")
        report(f"  requests during it ({REQUESTERS} threads)", latencies)
        source.stop()


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        _, sessions = open_database(f"sqlite:///{Path(directory) / 'bench.db'}")
        source = EngineSource(load_engine(), sessions)
        deadline = time.monotonic() + QUIET_S
        report(
            f"no rebuild ({REQUESTERS} threads, {QUIET_S:g} s)",
            requests_until(source, lambda _: time.monotonic() > deadline),
        )
    rebuild("calibration in a child process", calibrate_in_child)
    rebuild("calibration on a thread of this process", build_engine)


if __name__ == "__main__":
    main()
