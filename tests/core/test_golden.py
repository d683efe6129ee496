"""The published figures leasewise must reproduce (DESIGN.md, "The source material").

Sources: vLLM's Kimi K3 decode-path write-up of 2026-10-16 (as reported
2026-10-18) for the 16-GPU figures, measured on 16 GB300s in one NVLink domain,
decode only; the community 8x B300 / 8x A100 benchmark reported the same day for
the single-stream figures. Each is exact for the deployment it was measured on;
the leased B300 gets the write-up's figures as estimates (``test_labels``).
"""

from __future__ import annotations

import datetime as dt

import pytest

from core.compare import price_contrasts

BEFORE, AFTER = dt.date(2026, 10, 15), dt.date(2026, 10, 17)


@pytest.mark.parametrize(
    ("batch", "as_of", "usd_per_million"),
    [(16, BEFORE, 21.61), (16, AFTER, 12.64), (64, BEFORE, 9.98), (64, AFTER, 6.16)],
)
def test_sixteen_gpus_at_five_dollars_cost_what_the_write_up_says(
    ask, batch, as_of, usd_per_million
):
    e = ask(
        model="kimi-k3", gpu="gb300", gpus=16, concurrency=batch, price_per_gpu_hour=5, as_of=as_of
    )
    assert e.usd_per_million_output_tokens == pytest.approx(usd_per_million, abs=0.005)
    assert e.usd_per_hour == 80
    assert e.basis == "measured" and e.error_band == 0 and e.estimated_from is None
    assert any("vLLM blog" in s.title for s in e.sources)
    assert any("GB300" in c for c in e.caveats)


@pytest.mark.parametrize(("as_of", "tokens_per_s"), [(BEFORE, 490), (AFTER, 842)])
def test_one_user_on_sixteen_gpus_decodes_as_measured(ask, as_of, tokens_per_s):
    e = ask(
        model="kimi-k3", gpu="gb300", gpus=16, concurrency=1, price_per_gpu_hour=5, as_of=as_of
    )
    assert e.per_user_tokens_per_s == pytest.approx(tokens_per_s)
    assert e.basis == "measured" and e.error_band == 0
    assert any("speculative-decoding acceptance" in c for c in e.caveats)


@pytest.mark.parametrize("batch", [1, 16, 64])
@pytest.mark.parametrize("as_of", [BEFORE, AFTER])
def test_prompts_added_to_a_seed_stay_within_two_percent_with_a_narrow_band(ask, batch, as_of):
    """The write-up measured decode only; 800-token prompts and 400 decoded tokens a
    request cost the 16 GPUs little, so the answer stays by its measurement (issue 12)."""
    seed = dict(model="kimi-k3", gpu="gb300", gpus=16, concurrency=batch, as_of=as_of)
    decode = ask(**seed, price_per_gpu_hour=5)
    e2e = ask(**seed, price_per_gpu_hour=5, input_tokens=800, output_tokens=400)
    assert decode.basis == "measured"
    assert e2e.output_tokens_per_s == pytest.approx(decode.output_tokens_per_s, rel=0.02)
    assert e2e.basis == "estimated" and 0 < e2e.error_band <= 0.10
    assert e2e.estimated_from == decode.sources[0].measurement


def test_the_decode_path_release_date_switches_the_stack(ask):
    before = ask(model="kimi-k3", gpu="gb300", gpus=16, concurrency=16, as_of=BEFORE)
    after = ask(model="kimi-k3", gpu="gb300", gpus=16, concurrency=16, as_of=AFTER)
    assert (before.stack, after.stack) == ("vllm", "vllm-k3-decode")
    # 1,758.1 / 1,028.3 tokens/s: the write-up's 1.71x at batch 16
    assert after.output_tokens_per_s / before.output_tokens_per_s == pytest.approx(1.71, abs=0.01)


def test_single_stream_on_eight_b300s_costs_about_190_per_million(ask):
    e = ask(model="kimi-k3", gpu="b300", gpus=8, stack="vllm", price_per_gpu_hour=7.87)
    assert e.output_tokens_per_s == pytest.approx(92)
    assert e.usd_per_million_output_tokens == pytest.approx(190, rel=0.01)
    assert e.basis == "measured"


def test_one_bit_gguf_on_eight_a100s_costs_about_620_per_million(ask):
    e = ask(
        model="kimi-k3", gpu="a100-80gb", gpus=8, precision="gguf-ud-iq1_s", price_per_gpu_hour=2.51
    )
    assert e.output_tokens_per_s == pytest.approx(9)
    assert e.usd_per_million_output_tokens == pytest.approx(620, rel=0.01)
    assert e.fits_memory


def test_the_cheaper_hourly_price_is_about_three_times_dearer_per_token(ask):
    b300 = ask(model="kimi-k3", gpu="b300", gpus=8, stack="vllm", price_per_gpu_hour=7.87)
    a100 = ask(
        model="kimi-k3", gpu="a100-80gb", gpus=8, precision="gguf-ud-iq1_s", price_per_gpu_hour=2.51
    )
    (contrast,) = price_contrasts([b300, a100])
    assert contrast.cheaper_hourly.gpu == "a100-80gb"
    assert round(contrast.per_token_ratio, 1) == 3.3


def test_mxfp4_kimi_k3_does_not_fit_eight_a100s_and_names_the_minimum(ask):
    a100 = ask(model="kimi-k3", gpu="a100-80gb", gpus=8, precision="mxfp4", price_per_gpu_hour=2.5)
    assert not a100.fits_memory
    assert a100.memory.min_gpus is not None and a100.memory.min_gpus > 16
    assert a100.memory.weights_gb == pytest.approx(1560)
    assert any(f"at least {a100.memory.min_gpus}" in c for c in a100.caveats)
    assert a100.output_tokens_per_s is None and a100.usd_per_million_output_tokens is None


def test_mxfp4_kimi_k3_fits_eight_b300s(ask):
    e = ask(model="kimi-k3", gpu="b300", gpus=8, precision="mxfp4")
    assert e.fits_memory
    assert e.memory.min_gpus == 8


def _fixed_step_s(engine, stack: str) -> tuple[float, float]:
    """(fixed part of a batch-1 step, bandwidth efficiency) on the measured 16 GB300s: the
    per-layer overhead and the collectives' latency, which no byte count scales."""
    from core.perf.engine import PerfQuery

    q = PerfQuery(
        model="kimi-k3", gpu="gb300", gpus=16, precision="mxfp4", stack=stack, concurrency=1
    )
    here = engine.deployed(q)
    params = engine.params(q, engine.hardware(q))
    terms = here.step.decode
    fixed = terms.layers * params.per_layer_step_overhead_s
    latency = here.step.rep.all_reduce.fixed_s + here.step.rep.exposed.fixed_s
    return fixed + params.exposed_communication * latency, params.bandwidth_efficiency


def test_the_fused_path_halves_the_fixed_step_cost_and_raises_bandwidth_efficiency(engine):
    """DESIGN.md's worked check fitted t_fixed ~8 -> ~4 ms and eta ~0.39 -> ~0.59 over 93
    layers from the two batches alone. Fitted with the field's vLLM runs as the general
    path's evidence and collectives costed from their messages, the fused path still
    cuts the fixed part of a step by half or more and reads HBM faster (the write-up:
    kernel fusion halves the kernel count, weight loading overlaps communication)."""
    t_before, eta_before = _fixed_step_s(engine, "vllm")
    t_after, eta_after = _fixed_step_s(engine, "vllm-k3-decode")
    assert 0.003 < t_before < 0.010
    assert t_after < 0.6 * t_before
    assert 0.3 < eta_before < eta_after < 0.85


def test_the_before_calibration_predicts_single_stream_on_eight_gpus_near_92(engine):
    """DESIGN.md: the before-calibration predicts ~98 tokens/s single-stream on 8 GPUs
    against the community benchmark's 92 (measured, so the answer itself is exact)."""
    from core.perf.engine import PerfQuery

    q = PerfQuery(
        model="kimi-k3", gpu="b300", gpus=8, precision="mxfp4", stack="vllm", concurrency=1
    )
    here = engine.deployed(q)
    params = engine.calibration.params_for("vllm", model="kimi-k3")
    assert here.step.tokens_per_s(params) == pytest.approx(98, rel=0.15)
