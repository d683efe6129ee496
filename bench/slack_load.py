"""Ack latency of ``leasewise serve`` under load: 1,000 signed /lease commands, 20 at a time.

Starts the local Slack Web API stand-in (tests/fakes) and the real ``leasewise
serve`` in a subprocess on loopback (a throwaway SQLite database, the Web API
URL pointed at the stand-in), waits for /healthz, then posts signed slash
commands, a realistic mix of help, cost, size and quote list. Prints acks/s and
p50/p99 ack latency (Slack needs an ack within 3 s; the target is p99 < 300 ms),
and how many answers reached their response_url.

Run: ``python bench/slack_load.py [--requests 1000] [--concurrency 20]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
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


def wait_healthy(url: str, process: subprocess.Popen[bytes], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"leasewise serve exited: {process.stderr.read().decode()[-2000:]}")
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit("leasewise serve did not become healthy")


async def load(url: str, slack: FakeSlack, requests: int, concurrency: int) -> list[float]:
    latencies: list[float] = []
    gate = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency)

    async with httpx.AsyncClient(timeout=30, limits=limits) as client:

        async def one(i: int) -> None:
            body = slash_command_body(
                text=MIX[i % len(MIX)], response_url=slack.response_url(f"load{i}")
            )
            headers = {"Content-Type": "application/x-www-form-urlencoded", **sign(SECRET, body)}
            async with gate:
                started = time.perf_counter()
                response = await client.post(url + "/slack/events", content=body, headers=headers)
                latencies.append((time.perf_counter() - started) * 1e3)
            if response.status_code != 200:
                raise SystemExit(f"request {i}: HTTP {response.status_code} {response.text}")

        await asyncio.gather(*(one(i) for i in range(requests)))
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=20)
    args = parser.parse_args()
    with FakeSlack() as slack, tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        process = start_server(slack, port, Path(tmp) / "load.db")
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, process)
            asyncio.run(load(url, slack, 50, args.concurrency))  # warm-up, not measured
            slack.reset()
            started = time.perf_counter()
            latencies = asyncio.run(load(url, slack, args.requests, args.concurrency))
            elapsed = time.perf_counter() - started
            answered = _answers(slack, args.requests)
        finally:
            process.terminate()
            process.wait(timeout=30)
    latencies.sort()
    p99 = latencies[max(0, int(0.99 * len(latencies)) - 1)]
    print(f"{args.requests} signed /lease commands at concurrency {args.concurrency}")
    print(f"  acks/s: {args.requests / elapsed:,.0f}")
    print(f"  ack latency: p50 {statistics.median(latencies):.1f} ms, p99 {p99:.1f} ms, "
          f"max {latencies[-1]:.1f} ms (target p99 < 300 ms)")
    print(f"  answers delivered to response_url: {answered}/{args.requests}")


def _answers(slack: FakeSlack, requests: int, timeout: float = 120) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = len({c.method for c in slack.calls if c.method.startswith("response_url:load")})
        if done >= requests:
            return done
        time.sleep(0.2)
    return len({c.method for c in slack.calls if c.method.startswith("response_url:load")})


if __name__ == "__main__":
    main()
