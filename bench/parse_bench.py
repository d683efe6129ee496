"""How long ``core.parse.parse`` takes on a 10 KB message (median and p95).

Three inputs: four sales messages repeated to 10 KB; the parse corpus's messages
(tests/core/parse_corpus, every voice) joined to 10 KB; and 10 KB of random text
(letters, digits, punctuation, emoji). The catalog is loaded once. The target is a
median under 10 ms for the realistic inputs.
Run: ``python bench/parse_bench.py``. On a busy machine absolute figures drift; ``--against
REV`` times the realistic message on this checkout's reader and on the reader of git
revision REV (``git archive``'d into a temporary folder), in alternating fresh processes,
and prints each side's medians and their ratio: the figure that survives a noisy machine.
"""

from __future__ import annotations

import gc
import itertools
import os
import random
import statistics
import string
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from parse_corpus import load_corpus

from core.catalog import Catalog, load_catalog
from core.parse import parse
from core.parse.grammar import _shape

SIZE = 10_000
RUNS = 200

SALES = [
    "<@U0LEASE> customer (Acme) serves about 2 B output tokens a day of Kimi K3, peaks are 3x "
    "the average, users want 30 tokens/s. They'd take a 36-month term at $5/hr on 16x B300.",
    "Follow-up from the call: 5k requests per minute, 800 in / 400 out, TTFT under 1.5 s, "
    "grows 10% a month, utilization around 60%, API at $15/M output. *Need a quote by Friday*",
    "deepseek r1 in FP8 on eight H200 vs 8x B300 MXFP4, batch 64, 2k thinking tokens, "
    "128k context; they pay $4.20 per GPU-hour on-demand today &amp; want 3 years.",
    "Can we do llama 405b 4-bit on a100 80gb x8? ~40k tok/s total, 64 concurrent users :rocket:",
]


def realistic() -> str:
    out: list[str] = []
    while sum(len(s) + 1 for s in out) < SIZE:
        out.append(SALES[len(out) % len(SALES)])
    return "\n".join(out)[:SIZE]


def corpus() -> str:
    """The corpus's messages taken a voice at a time, in turn, joined and cut at 10 KB."""
    by_voice: dict[str, list[str]] = {}
    for message in load_corpus():
        by_voice.setdefault(message.voice, []).append(message.text)
    in_turn = [t for row in itertools.zip_longest(*by_voice.values()) for t in row if t]
    out: list[str] = []
    for text in in_turn:
        if sum(len(s) + 2 for s in out) >= SIZE:
            break
        out.append(text)
    return "\n\n".join(out)[:SIZE]


def noise(seed: int = 7) -> str:
    rnd = random.Random(seed)
    alphabet = string.ascii_letters + string.digits + string.punctuation + "  \n" + "🚀éß∞—"
    return "".join(rnd.choice(alphabet) for _ in range(SIZE))


def measure(fn: Callable[[], object]) -> tuple[float, float]:
    fn()
    times = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    return statistics.median(times), times[int(0.95 * len(times)) - 1]


def main() -> None:
    catalog = load_catalog()
    _run(catalog)
    # The server freezes its start-up objects (catalog, engine) out of the collector's
    # reach, as `leasewise serve` does; full collections no longer walk them mid-parse.
    gc.freeze()
    print("after gc.freeze(), as in `leasewise serve`:")
    _run(catalog)


def _run(catalog: Catalog) -> None:
    inputs = (
        ("realistic 10 KB", realistic()),
        ("corpus 10 KB", corpus()),
        ("random 10 KB", noise()),
    )
    for name, text in inputs:
        median, p95 = measure(lambda text=text: parse(text, catalog))
        print(f"{name:16s} ({len(text):,} chars): median {median:.2f} ms, p95 {p95:.2f} ms")

        def cold(text: str = text) -> None:
            _shape.cache_clear()  # every phrase shape parsed by lark again
            parse(text, catalog)

        median, p95 = measure(cold)
        print(f"{'  cold grammar':16s} {'':16s}: median {median:.2f} ms, p95 {p95:.2f} ms")


ROUNDS = 6
"""Alternating processes per side in ``--against``."""


def _one_median() -> None:
    """Print the realistic message's median in ms (a child of ``--against``)."""
    catalog = load_catalog()
    text = realistic()
    parse(text, catalog)
    gc.freeze()
    times = []
    for _ in range(25):
        t0 = time.perf_counter()
        parse(text, catalog)
        times.append((time.perf_counter() - t0) * 1e3)
    print(f"{statistics.median(times):.3f}")


def against(rev: str) -> None:
    here = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "-C", str(here), "archive", rev, "core"], check=True, capture_output=True
        ).stdout
        archive_path = Path(tmp) / "core.tar"
        archive_path.write_bytes(archive)
        with tarfile.open(archive_path) as tar:
            tar.extractall(tmp, filter="data")
        sides = {"this checkout": str(here), rev: tmp}
        medians: dict[str, list[float]] = {name: [] for name in sides}
        for _ in range(ROUNDS):
            for name, root in sides.items():
                env = {**os.environ, "PYTHONPATH": root}
                out = subprocess.run(
                    [sys.executable, __file__, "--one"],
                    env=env,
                    check=True,
                    capture_output=True,
                    text=True,
                    cwd=here,
                ).stdout
                medians[name].append(float(out.strip().splitlines()[-1]))
    for name, values in medians.items():
        shown = " ".join(f"{v:.1f}" for v in sorted(values))
        print(f"{name:>16s}: realistic 10 KB medians {shown} ms (fastest {min(values):.1f})")
    ratio = min(medians["this checkout"]) / min(medians[rev])
    print(f"fastest against fastest: {ratio:.2f}x the reader at {rev}")


if __name__ == "__main__":
    if "--one" in sys.argv:
        _one_median()
    elif "--against" in sys.argv:
        against(sys.argv[sys.argv.index("--against") + 1])
    else:
        main()
