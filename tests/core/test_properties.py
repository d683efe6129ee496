"""Laws the engine keeps everywhere, not just at the published points (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import cost
from core.perf.engine import PerfQuery
from core.perf.validation import query_for

fixture_ok = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

DEPLOYMENTS = [
    # model, gpu, gpus, precision, stack: measured, anchored and roofline-only cases
    ("kimi-k3", "b300", 16, "mxfp4", "vllm"),
    ("kimi-k3", "b300", 16, "mxfp4", "vllm-k3-decode"),
    ("kimi-k3", "b300", 8, "mxfp4", "vllm"),
    ("kimi-k3", "gb300", 8, "mxfp4", "vllm-k3-decode"),
    ("kimi-k3", "a100-80gb", 8, "gguf-ud-iq1_s", "llama-cpp"),
    ("deepseek-v3", "h200", 8, "fp8", "sglang"),
    ("llama-3.1-70b", "h100-sxm", 4, "bf16", "vllm"),
]


@fixture_ok
@given(
    hourly=st.floats(1, 10_000),
    tokens_per_s=st.floats(1, 1e6),
    u1=st.floats(0.01, 1),
    u2=st.floats(0.01, 1),
)
def test_cost_per_token_falls_as_utilization_rises(hourly, tokens_per_s, u1, u2):
    lo, hi = sorted((u1, u2))
    at = lambda u: cost.usd_per_million_output_tokens(  # noqa: E731
        hourly_usd=hourly, tokens_per_s=tokens_per_s, utilization=u
    )
    assert at(hi) <= at(lo)


@fixture_ok
@given(
    deployment=st.sampled_from(DEPLOYMENTS),
    b1=st.integers(1, 512),
    b2=st.integers(1, 512),
    acceptance=st.sampled_from([1.0, 2.51, 3.84]),
    context=st.sampled_from([None, 1000, 32_000]),
)
def test_bigger_batches_never_lose_aggregate_throughput_nor_gain_per_user_speed(
    engine, deployment, b1, b2, acceptance, context
):
    model, gpu, gpus, precision, stack = deployment
    small, large = sorted((b1, b2))

    def perf(batch: int):
        return engine.throughput(
            PerfQuery(
                model=model,
                gpu=gpu,
                gpus=gpus,
                precision=precision,
                stack=stack,
                concurrency=batch,
                spec_decode_acceptance=acceptance,
                context_tokens=context,
            )
        )

    a, b = perf(small), perf(large)
    assert b.output_tokens_per_s >= a.output_tokens_per_s * (1 - 1e-9)
    assert b.per_user_tokens_per_s <= a.per_user_tokens_per_s * (1 + 1e-9)


def test_every_calibration_measurement_is_reproduced_exactly(engine, catalog):
    for m in catalog.measurements:
        if m.role != "calibration" or m.kv_offload != "none":
            continue
        t = engine.throughput(query_for(m))
        assert (t.basis, t.output_tokens_per_s) == ("measured", m.tokens_per_s), m.id


@fixture_ok
@given(data=st.data())
def test_the_estimate_for_a_measured_point_equals_the_measurement(ask, catalog, data):
    m = data.draw(
        st.sampled_from(
            [
                m
                for m in catalog.measurements
                if m.role == "calibration" and m.phase == "decode" and m.context_tokens is None
            ]
        )
    )
    price = data.draw(st.floats(0.5, 20))
    e = ask(
        model=m.model,
        gpu=m.gpu,
        gpus=m.gpus,
        precision=m.precision,
        stack=m.stack,
        concurrency=m.concurrency,
        spec_decode_acceptance=m.spec_decode_acceptance,
        price_per_gpu_hour=price,
    )
    assert e.basis == "measured"
    assert e.output_tokens_per_s == pytest.approx(m.tokens_per_s, abs=1e-3)
    assert e.usd_per_million_output_tokens == pytest.approx(
        m.gpus * price / (m.tokens_per_s * 3600) * 1e6, rel=1e-4
    )
