"""The engine on the field's measured runs: the figures ``catalog validate --field`` prints,
and how long they take.

Run with ``python bench/field_accuracy_bench.py`` (``make bench`` runs it too). The
field check only predicts (the engine as built, nothing refitted), so the target is
seconds: well under 10 s for every row, and the whole command about as fast as any
other one-shot command on a warm engine cache.

Prints the report first (the same template the command renders), then the timings:
reading the rows, the check itself (median of ``--rounds``), and the command end to
end in a fresh process, text and JSON.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bot.engine.cache import load_engine
from bot.render.renderer import Renderer
from core.catalog import load_catalog
from core.perf.field_check import METRICS, field_check

LEASEWISE = Path(sys.executable).with_name("leasewise")


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


def report(name: str, samples: list[float]) -> None:
    print(
        f"{name:58s} median {statistics.median(samples):7.2f} s"
        f"   max {max(samples):7.2f} s   (n={len(samples)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds per timing (default 5)")
    rounds = parser.parse_args().rounds

    engine = load_engine()  # as the command loads it: the user's cache, built when stale
    result = field_check(engine)
    print(Renderer().text("cli_validate_field", report=result, metrics=METRICS, regressions=None))
    print()

    report(
        "read the field rows (3.5k, validated)",
        timed(lambda: load_catalog().field_measurements(), rounds),
    )
    rows = engine.catalog.field_measurements()
    report(
        f"field check: {len(rows):,} rows, {len(result.comparisons):,} asked",
        timed(lambda: field_check(engine), rounds),
    )
    if LEASEWISE.is_file():
        for args in (
            ["catalog", "validate", "--field"],
            ["catalog", "validate", "--field", "--json"],
        ):
            command = [str(LEASEWISE), *args]
            report(
                "leasewise " + " ".join(args) + " (new process)",
                timed(lambda c=command: subprocess.run(c, check=True, capture_output=True), rounds),
            )
    else:
        print(f"(no {LEASEWISE}: the command's own timing is left out)")


if __name__ == "__main__":
    main()
