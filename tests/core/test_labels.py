"""Honest labels: "measured" only for the deployment measured, GPU included (issue 12).

The vLLM Kimi K3 write-up (2026-10-16, as reported 2026-10-18) measured 16 GB300s in
one NVLink domain, decode only; the leased B300 runs the same 16 GPUs as two 8-GPU
NVLink domains. Its figures: batch 16 $21.61 -> $12.64 per M output tokens at
$5/GPU-hour (1,028.3 -> 1,758.1 tokens/s), batch 64 $9.98 -> $6.16 (2,226.7 -> 3,607.5).
"""

from __future__ import annotations

import datetime as dt
import json
import math

import pytest

from core.frontier import frontier
from core.perf.engine import PerfQuery
from core.sizing import size
from core.traffic import Traffic

BEFORE, AFTER = dt.date(2026, 10, 15), dt.date(2026, 10, 17)
WRITE_UP = dict(model="kimi-k3", gpus=16, price_per_gpu_hour=5)


def roofline_tokens_per_s(engine, gpu: str, stack: str, concurrency: int) -> float:
    q = PerfQuery(
        model="kimi-k3", gpu=gpu, gpus=16, precision="mxfp4", stack=stack, concurrency=concurrency
    )
    hw = engine.hardware(q)
    params = engine.calibration.params_for(stack, hw.gpu.vendor, "kimi-k3")
    return engine.deployed(q).step.tokens_per_s(params)


# --- measured only where measured ---------------------------------------------------------


@pytest.mark.parametrize(
    ("batch", "as_of", "measurement", "tokens"),
    [
        (16, BEFORE, "k3-gb300x16-b16-vllm", 1028.3),
        (16, AFTER, "k3-gb300x16-b16-vllm-k3-decode", 1758.1),
        (64, BEFORE, "k3-gb300x16-b64-vllm", 2226.7),
        (64, AFTER, "k3-gb300x16-b64-vllm-k3-decode", 3607.5),
    ],
)
def test_a_gb300_measurement_asked_for_on_b300_is_estimated_from_it(
    ask, engine, batch, as_of, measurement, tokens
):
    e = ask(**WRITE_UP, gpu="b300", concurrency=batch, as_of=as_of)
    assert e.basis == "estimated" and e.estimated_from == measurement
    assert e.error_band > 0
    assert [s.measurement for s in e.sources] == [measurement]
    # the measurement scaled by the engine's own model of the two deployments
    ratio = roofline_tokens_per_s(engine, "b300", e.stack, batch) / roofline_tokens_per_s(
        engine, "gb300", e.stack, batch
    )
    assert e.output_tokens_per_s == pytest.approx(tokens * ratio, rel=1e-3)
    assert e.output_tokens_per_s < tokens  # two 8-GPU domains are slower than one of 16
    (source,) = {s.title for s in e.sources}
    (said,) = [c for c in e.caveats if c.startswith(f"estimated from {source}, measured on")]
    assert f"measured on 16x GB300 (one NVLink domain) at batch {batch}" in said
    assert measurement not in said
    assert "16 B300s span 2 NVLink domains of 8" in said


@pytest.mark.parametrize("batch", [1, 16, 64])
@pytest.mark.parametrize("as_of", [BEFORE, AFTER])
def test_the_same_gb300_deployment_is_measured_and_exact(ask, batch, as_of):
    e = ask(**WRITE_UP, gpu="gb300", concurrency=batch, as_of=as_of)
    assert e.basis == "measured" and e.error_band == 0
    assert e.estimated_from is None
    assert not any(c.startswith("estimated from") for c in e.caveats)


def test_a_carried_interpolation_keeps_both_bands(ask):
    """Batch 32 on B300: interpolated between GB300's 16 and 64, then carried to B300."""
    on_gb300 = ask(**WRITE_UP, gpu="gb300", concurrency=32, as_of=BEFORE)
    on_b300 = ask(**WRITE_UP, gpu="b300", concurrency=32, as_of=BEFORE)
    assert on_gb300.basis == "interpolated"
    assert on_b300.basis == "estimated" and on_b300.error_band > on_gb300.error_band
    assert {s.measurement for s in on_b300.sources} == {
        "k3-gb300x16-b16-vllm",
        "k3-gb300x16-b64-vllm",
    }


def test_a_measurement_on_b300_itself_stays_measured(ask):
    """The community benchmark ran on 8 B300s: about $190 per M at $7.87/GPU-hour."""
    e = ask(model="kimi-k3", gpu="b300", gpus=8, stack="vllm", price_per_gpu_hour=7.87)
    assert e.basis == "measured" and e.error_band == 0 and e.output_tokens_per_s == 92


# --- bands narrow with closeness -------------------------------------------------------------


def test_an_interpolation_next_to_a_measured_batch_carries_less_than_one_midway(ask, engine):
    midway = ask(**WRITE_UP, gpu="gb300", concurrency=32, as_of=BEFORE)  # 16 < 32 < 64
    beside = ask(**WRITE_UP, gpu="gb300", concurrency=60, as_of=BEFORE)
    assert midway.basis == beside.basis == "interpolated"
    assert midway.error_band == pytest.approx(engine.bands.interpolated)
    assert 0 < beside.error_band < midway.error_band


def test_an_estimate_just_past_a_measured_batch_is_not_given_the_whole_anchored_band(
    ask, engine
):
    near = ask(**WRITE_UP, gpu="gb300", concurrency=72, as_of=BEFORE)
    far = ask(**WRITE_UP, gpu="gb300", concurrency=512, as_of=BEFORE)
    assert near.basis == far.basis == "estimated"
    assert near.estimated_from == far.estimated_from == "k3-gb300x16-b64-vllm"
    assert 0 < near.error_band < far.error_band
    roofline = max([engine.bands.model, *engine.bands.model_by_stack.values()])
    assert far.error_band <= roofline  # scaled 8x: wider than the anchored band, never more


def test_a_figure_scaled_far_is_no_surer_than_the_roofline_that_scaled_it(ask, engine):
    far = ask(**WRITE_UP, gpu="gb300", concurrency=1024, as_of=BEFORE)
    assert far.basis == "estimated" and far.estimated_from == "k3-gb300x16-b64-vllm"
    assert far.error_band > engine.bands.anchored


# --- what does not fit shows nothing; what overflows the KV cache queues ---------------------


def test_a_deployment_that_does_not_fit_shows_no_throughput_and_says_why(ask):
    """Kimi K3 at MXFP4 is 1,560 GB of weights; 8 A100s hold 640 GB."""
    e = ask(
        model="kimi-k3",
        gpu="a100-80gb",
        gpus=8,
        precision="mxfp4",
        price_per_gpu_hour=2.5,
        api_price_per_million_output=15,
    )
    assert not e.fits_memory
    for figure in (
        e.output_tokens_per_s,
        e.per_user_tokens_per_s,
        e.ttft_s,
        e.usd_per_million_output_tokens,
        e.api_usd_per_month,
        e.breakeven_utilization,
        e.error_band,
    ):
        assert figure is None
    assert e.usd_per_hour == 20  # the GPUs asked still cost what they cost
    assert e.memory.min_gpus is not None
    assert e.caveats[0].startswith("does not fit in memory on 8 NVIDIA A100")
    assert f"needs at least {e.memory.min_gpus}" in e.caveats[0]
    contract = json.loads(e.model_dump_json())
    assert contract["output_tokens_per_s"] is None and contract["fits_memory"] is False


def test_a_batch_beyond_the_kv_cache_queues_and_its_first_token_waits(ask):
    """150k-token prompts on 8 B300s: the cache holds a few dozen sequences, not 64."""
    agentic = dict(
        model="kimi-k3", gpu="b300", gpus=8, input_tokens=150_000, output_tokens=2_000,
        reasoning_tokens=0,
    )
    crowded = ask(**agentic, concurrency=64)
    assert crowded.fits_memory and not crowded.memory.fits
    assert 0 < crowded.queued_requests < 64
    decoding = 64 - crowded.queued_requests
    admitted = ask(**agentic, concurrency=decoding)
    assert admitted.queued_requests == 0
    # the queue adds no throughput: those that fit decode as if alone
    assert crowded.output_tokens_per_s == pytest.approx(admitted.output_tokens_per_s)
    assert crowded.per_user_tokens_per_s == pytest.approx(admitted.per_user_tokens_per_s)
    assert crowded.ttft_s is not None and admitted.ttft_s is not None
    assert crowded.ttft_s > admitted.ttft_s
    (said,) = [c for c in crowded.caveats if "wait for KV-cache room" in c]
    assert said.startswith(f"{crowded.queued_requests:,} of the 64 requests")
    assert "time to first token includes the wait" in said


def test_the_frontier_shows_no_throughput_where_the_model_does_not_fit(engine):
    q = PerfQuery(
        model="kimi-k3", gpu="a100-80gb", gpus=8, precision="mxfp4", stack="vllm", concurrency=1
    )
    points = frontier(engine, q, (1, 16))
    assert all(not p.fits_memory and p.output_tokens_per_s is None for p in points)


def test_the_frontier_says_where_the_batch_starts_to_queue(engine):
    q = PerfQuery(
        model="kimi-k3", gpu="b300", gpus=8, precision="mxfp4", stack="vllm", concurrency=1,
        context_tokens=150_000,
    )
    small, big = frontier(engine, q, (1, 256))
    assert small.queued_requests == 0 and 0 < big.queued_requests < 256
    assert big.per_user_tokens_per_s is not None and big.output_tokens_per_s is not None
    # 256 asked, fewer decode: each decoding sequence gets its share, not a 256th
    assert big.per_user_tokens_per_s > big.output_tokens_per_s / 256


# --- sizing carries the labels ---------------------------------------------------------------


def test_a_sized_b300_replica_of_sixteen_says_which_gb300_measurement_it_scales(engine):
    sized = size(
        Traffic(
            model="kimi-k3",
            output_tokens_per_day=2e9,
            peak_to_average=3,
            min_per_user_tokens_per_s=30,
            gpus=("b300",),
            as_of=AFTER,
        ),
        engine,
    )
    sixteen = [o for o in sized.options if o.gpus_per_replica == 16]
    assert sixteen, [(o.gpus_per_replica, o.basis) for o in sized.options]
    for o in sixteen:
        assert o.basis != "measured" and o.error_band > 0
        assert o.estimated_from is not None and o.estimated_from.startswith("k3-gb300x16-")
        assert any(c.startswith("throughput estimated") and "GB300" in c for c in o.caveats)
    assert all(math.isfinite(o.usd_per_million_output_tokens) for o in sized.options)


def test_an_estimated_traffic_default_is_not_called_a_guessed_architecture(ask):
    """Kimi K3's architecture is exact from its config; only its reasoning default is an
    estimate, and that is a traffic assumption, not a caveat on the throughput."""
    k3 = ask(model="kimi-k3", gpu="b300", gpus=16, concurrency=64)
    assert not any("architecture partly estimated" in c for c in k3.caveats)


def test_a_guessed_architecture_field_is_a_caveat_of_the_estimate(ask):
    v3 = ask(model="deepseek-v3", gpu="h200", gpus=8, concurrency=16)
    assert v3.basis != "measured"
    [said] = [c for c in v3.caveats if "architecture partly estimated" in c]
    assert "routed_expert_params_b" in said and "reasoning_tokens_default" not in said
