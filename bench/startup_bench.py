"""What a one-shot ``leasewise`` command costs to start, in CPU seconds, against the targets.

Each command runs ``--runs`` times in its own process, after one warm-up round that
also fills the engine cache (in a temporary ``XDG_CACHE_HOME``, so the user's own
cache is neither used nor touched). CPU is user + sys of the child, from
``resource.getrusage(RUSAGE_CHILDREN)`` deltas; wall time is measured around the
wait. ``health`` asks a stub ``/healthz`` served by this script (in this process,
so its own CPU is not counted): the figure is the client's, as the container's
HEALTHCHECK pays it. The machine's load average is printed too: on a shared
machine the figures are inflated by whatever else runs.

Run: ``python bench/startup_bench.py [--runs 7]``.
"""

from __future__ import annotations

import argparse
import http.server
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

MESSAGE = (
    "we serve about 2B output tokens a day of Kimi K3, peaks are 3x the average, "
    "users want 30 tok/s"
)
DEPLOYMENT = ["--model", "kimi-k3", "--gpu", "b300", "--gpus", "16", "--concurrency", "64"]


@dataclass(frozen=True)
class Command:
    name: str
    args: tuple[str, ...]
    target_cpu_s: float


def commands(health_url: str) -> list[Command]:
    return [
        Command("--version", ("--version",), 0.4),
        Command("parse --json", ("parse", "--json", MESSAGE), 0.7),
        Command("estimate --json (warm cache)", ("estimate", "--json", *DEPLOYMENT), 1.0),
        Command("health", ("health", "--url", health_url), 0.5),
    ]


def leasewise() -> list[str]:
    """The installed console script beside this interpreter, else the same entry point."""
    script = Path(sys.executable).parent / "leasewise"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from bot.cli import main; main()"]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(argv: Sequence[str], env: dict[str, str]) -> tuple[float, float]:
    """CPU seconds (user + sys) and wall seconds of one run; a failing run is an error."""
    cpu, wall = children_cpu(), time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - wall, children_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[1:])} exited {done.returncode}: {done.stderr[-500:]}")
    return cpu, wall


class _Healthy(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        body = b'{"status": "ok"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return


@contextmanager
def stub_healthz() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Healthy)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/healthz"
    finally:
        server.shutdown()
        server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per command (default 7)")
    runs = parser.parse_args().runs
    base = leasewise()
    with tempfile.TemporaryDirectory() as cache, stub_healthz() as url:
        env = {**os.environ, "XDG_CACHE_HOME": cache, "COLUMNS": "120"}
        table = commands(url)
        for command in table:  # warm-up: fills the engine cache and the OS's file cache
            run_once([*base, *command.args], env)
        print(f"leasewise start-up, median of {runs} runs each ({' '.join(base)})")
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"load average {load} on {os.cpu_count()} CPUs: figures are inflated when busy")
        print(f"{'command':<30} {'CPU s':>7} {'wall s':>7} {'target':>7}")
        over = 0
        for command in table:
            samples = [run_once([*base, *command.args], env) for _ in range(runs)]
            cpu = statistics.median(s[0] for s in samples)
            wall = statistics.median(s[1] for s in samples)
            verdict = "ok" if cpu <= command.target_cpu_s else "OVER"
            over += verdict == "OVER"
            print(
                f"{command.name:<30} {cpu:>7.2f} {wall:>7.2f} {command.target_cpu_s:>7.1f}  "
                f"{verdict}"
            )
        print("all within target" if not over else f"{over} over target")


if __name__ == "__main__":
    main()
