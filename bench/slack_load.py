"""Acks of ``leasewise serve`` under steady load: signed /lease commands, 20 at a time.

Starts the local Slack Web API stand-in (tests/fakes) and the real ``leasewise
serve`` in a subprocess on loopback (a throwaway SQLite database, the Web API
URL pointed at the stand-in), waits for /healthz, warms it up, then runs three
rounds. In each, ``--concurrency`` senders post signed slash commands back to
back for ``--duration`` seconds, a realistic mix of help, cost, size, free text
and quote list, each with its own response_url. Per round it prints:

- ack latency p50 / p99 / max (Slack gives up after 3 s; the target is p99 <= 300 ms),
- how many acks were not HTTP 200 (target: none),
- how many answers reached their response_url (target: all),
- the server's resident memory (VmRSS) once the round's answers are all in
  (target: flat within +-10 MB over the rounds; growth would be a leak or a
  backlog the answer pool cannot clear).

The senders, the stand-in and the server share this machine: on a machine others
are using too, every figure is inflated. This process runs without the cyclic
garbage collector during a round (it collects between rounds): the stand-in
records every call, so its heap only grows, and a full collection over it
stalled the senders for seconds, which would have been timed as the server's
ack latency.

Run: ``python bench/slack_load.py [--duration 30] [--concurrency 20] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fakes.signing import sign, slash_command_body  # noqa: E402
from tests.fakes.slack_api import FakeSlack  # noqa: E402

SECRET = "load-test-signing-secret"
MIX = [
    "help",
    "cost model=kimi-k3 gpu=b300 gpus=16 concurrency=64 price_per_gpu_hour=5",
    "size Kimi K3, 2B output tokens a day, peaks 3x, 30 tok/s per user, on B300",
    "Kimi K3 on 8x H200, batch 32",
    "quote list",
]
P99_TARGET_MS = 300.0
RSS_SPREAD_TARGET_MB = 10.0
ANSWER_DEADLINE_S = 300.0


@dataclass
class Round:
    latencies_ms: list[float]
    failures: int
    sent: int
    answered: int
    rss_mb: float
    elapsed_s: float

    def line(self, number: int) -> str:
        ordered = sorted(self.latencies_ms)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        return (
            f"  round {number}: {self.sent:,} commands in {self.elapsed_s:.0f} s "
            f"({self.sent / self.elapsed_s:,.0f}/s); ack p50 {statistics.median(ordered):.0f} ms, "
            f"p99 {p99:.0f} ms, max {ordered[-1]:.0f} ms; non-200: {self.failures}; "
            f"answers delivered: {self.answered:,}/{self.sent:,}; server RSS {self.rss_mb:.1f} MB"
        )

    @property
    def p99_ms(self) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(slack: FakeSlack, port: int, database: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "SLACK_BOT_TOKEN": "xoxb-load",
        "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_API_URL": slack.api_url,
        "DATABASE_URL": f"sqlite:///{database}",
        "PORT": str(port),
        "LEASEWISE_HOST": "127.0.0.1",
    }
    leasewise = Path(sys.executable).with_name("leasewise")
    return subprocess.Popen(
        [str(leasewise), "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def wait_healthy(url: str, process: subprocess.Popen[bytes], timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            assert process.stderr is not None
            raise SystemExit(f"leasewise serve exited: {process.stderr.read().decode()[-2000:]}")
        try:
            if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit("leasewise serve did not become healthy")


def resident_mb(pid: int) -> float:
    """VmRSS from /proc: what the server holds in memory now."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise SystemExit(f"no VmRSS for process {pid}")


async def send_for(
    url: str, slack: FakeSlack, *, seconds: float, concurrency: int, tag: str
) -> tuple[list[float], int, int]:
    """Closed loop: each sender posts its next command as soon as the last is acked."""
    latencies: list[float] = []
    failures = 0
    sent = 0
    stop_at = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)

    async with httpx.AsyncClient(timeout=30, limits=limits) as client:

        async def sender(who: int) -> None:
            nonlocal failures, sent
            i = 0
            while time.monotonic() < stop_at:
                name = f"{tag}-{who}-{i}"
                body = slash_command_body(
                    text=MIX[(who + i) % len(MIX)], response_url=slack.response_url(name)
                )
                headers = {
                    "Content-Type": "application/x-www-form-urlencoded",
                    **sign(SECRET, body),
                }
                started = time.perf_counter()
                try:
                    response = await client.post(
                        url + "/slack/events", content=body, headers=headers
                    )
                    ok = response.status_code == 200
                except httpx.HTTPError:
                    ok = False
                latencies.append((time.perf_counter() - started) * 1e3)
                failures += not ok
                sent += 1
                i += 1

        await asyncio.gather(*(sender(who) for who in range(concurrency)))
    return latencies, failures, sent


def answers(slack: FakeSlack, tag: str, expected: int) -> int:
    """Wait (bounded) until every command of the round got its answer; how many did."""
    prefix = f"response_url:{tag}-"
    deadline = time.monotonic() + ANSWER_DEADLINE_S
    while True:
        done = len({c.method for c in list(slack.calls) if c.method.startswith(prefix)})
        if done >= expected or time.monotonic() > deadline:
            return done
        time.sleep(0.5)


def run_round(
    url: str, slack: FakeSlack, pid: int, *, seconds: float, concurrency: int, tag: str
) -> Round:
    gc.disable()
    try:
        started = time.monotonic()
        latencies, failures, sent = asyncio.run(
            send_for(url, slack, seconds=seconds, concurrency=concurrency, tag=tag)
        )
        elapsed = time.monotonic() - started
        answered = answers(slack, tag, sent)
        rss = resident_mb(pid)
    finally:
        slack.reset()  # the stand-in's own record of calls is not the server's memory
        gc.enable()
        gc.collect()
    return Round(latencies, failures, sent, answered, rss, elapsed)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--duration", type=float, default=30.0, help="seconds per round")
    parser.add_argument("--concurrency", type=int, default=20, help="commands in flight")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--warm-up", type=float, default=5.0, help="seconds, not measured")
    args = parser.parse_args()
    with FakeSlack() as slack, tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        process = start_server(slack, port, Path(tmp) / "load.db")
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, process)
            run_round(
                url, slack, process.pid, seconds=args.warm_up, concurrency=args.concurrency,
                tag="warm",
            )
            rounds = [
                run_round(
                    url, slack, process.pid, seconds=args.duration,
                    concurrency=args.concurrency, tag=f"r{n}",
                )
                for n in range(1, args.rounds + 1)
            ]
        finally:
            process.terminate()
            process.wait(timeout=60)
    print(
        f"leasewise serve on loopback: {args.concurrency} concurrent signed /lease commands, "
        f"{args.duration:.0f} s a round"
    )
    for number, result in enumerate(rounds, 1):
        print(result.line(number))
    worst_p99 = max(r.p99_ms for r in rounds)
    spread = max(r.rss_mb for r in rounds) - min(r.rss_mb for r in rounds)
    failures = sum(r.failures for r in rounds)
    lost = sum(r.sent - r.answered for r in rounds)
    print(
        f"  worst p99 {worst_p99:.0f} ms (target <= {P99_TARGET_MS:.0f}); non-200 {failures} "
        f"(target 0); answers lost {lost} (target 0); RSS spread over the rounds "
        f"{spread:.1f} MB (target within +-{RSS_SPREAD_TARGET_MB:.0f})"
    )


if __name__ == "__main__":
    main()
