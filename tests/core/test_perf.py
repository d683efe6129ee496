"""The provenance cascade and the workload shape (measured > interpolated > estimated)."""

from __future__ import annotations

import pytest

from core.errors import InputError
from core.perf.validation import (
    bands_from,
    holdout,
    query_for,
    with_ttft_bands,
)

K3_16 = dict(model="kimi-k3", gpu="gb300", gpus=16, price_per_gpu_hour=5)
"""The write-up's deployment, as measured: 16 GB300s in one NVLink domain."""


def test_between_measured_batches_the_answer_is_interpolated(ask):
    e = ask(**K3_16, concurrency=32, as_of="2026-10-15")
    assert e.basis == "interpolated"
    assert 1028.3 < e.output_tokens_per_s < 2226.7
    assert 0 < e.error_band < 0.5


def test_beyond_the_measured_batches_the_answer_is_an_estimate_with_a_band(ask):
    e = ask(**K3_16, concurrency=128, as_of="2026-10-15")
    assert e.basis == "estimated"
    assert e.output_tokens_per_s > 2226.7
    assert e.error_band > 0
    assert any("concurrency 128 was not measured" in c for c in e.caveats)


def test_an_unmeasured_deployment_is_estimated_from_the_fitted_roofline(ask):
    e = ask(model="kimi-k3", gpu="b300", gpus=8, concurrency=32, as_of="2026-10-17")
    assert (e.basis, e.stack) == ("estimated", "vllm-k3-decode")
    assert any("roofline fitted" in c for c in e.caveats)
    assert any("GB300" in c for c in e.caveats)


def test_long_agentic_contexts_read_more_per_step_and_run_out_of_room(ask):
    chat = ask(model="kimi-k3", gpu="b300", gpus=8, concurrency=16, context_tokens=2_000)
    agentic = ask(model="kimi-k3", gpu="b300", gpus=8, concurrency=16, context_tokens=150_000)
    assert chat.output_tokens_per_s / agentic.output_tokens_per_s > 1.3
    assert agentic.memory.per_gpu_needed_gb > chat.memory.per_gpu_needed_gb
    crowded = ask(model="kimi-k3", gpu="b300", gpus=8, concurrency=64, context_tokens=150_000)
    assert not crowded.memory.fits and crowded.queued_requests > 0
    roomy = ask(model="kimi-k3", gpu="b300", gpus=8, concurrency=64)
    assert roomy.memory.fits and roomy.queued_requests == 0


def test_speculative_acceptance_is_a_parameter_defaulting_to_the_measurements(ask):
    assumed = ask(**K3_16, concurrency=1, as_of="2026-10-17")
    realistic = ask(**K3_16, concurrency=1, as_of="2026-10-17", spec_decode_acceptance=1.4)
    assert assumed.spec_decode_acceptance == pytest.approx(3.84)
    assert realistic.basis == "estimated"
    assert realistic.output_tokens_per_s < assumed.output_tokens_per_s / 2
    assert any("1.18-1.68" in c for c in assumed.caveats)


def test_thinking_is_named_when_the_model_always_thinks(ask):
    e = ask(**K3_16, concurrency=16, input_tokens=800, output_tokens=400)
    assert any("reasoning included" in a and "always thinks" in a for a in e.assumptions)
    more = ask(**K3_16, concurrency=16, input_tokens=800, output_tokens=400, reasoning_tokens=2000)
    assert more.context_tokens > e.context_tokens
    assert e.ttft_s is not None and e.ttft_s > 0
    assert e.basis == "estimated"  # prefill is never measured for Kimi K3


def test_prefill_lowers_end_to_end_throughput_below_decode_only(ask):
    decode = ask(**K3_16, concurrency=64, as_of="2026-10-17")
    e2e = ask(
        **K3_16,
        concurrency=64,
        as_of="2026-10-17",
        input_tokens=8_000,
        output_tokens=500,
        reasoning_tokens=0,
    )
    assert e2e.output_tokens_per_s < decode.output_tokens_per_s


def test_a_stack_released_after_as_of_is_refused_with_the_date(ask):
    with pytest.raises(InputError) as info:
        ask(**K3_16, concurrency=16, stack="vllm-k3-decode", as_of="2026-10-01")
    assert info.value.field == "as_of" and "2026-10-16" in (info.value.hint or "")


def test_defaults_are_filled_and_named(ask):
    e = ask(model="kimi-k3", gpu="b300", concurrency=8)
    assert e.gpus == 8 and e.precision == "mxfp4"
    assert any("smallest" in a for a in e.assumptions)
    assert any("/GPU-hour" in a for a in e.assumptions)


def test_leave_one_out_predicts_every_calibration_measurement_from_the_rest(catalog, engine):
    """The engine keeps the checks it set its bands from (``catalog validate`` shows them)."""
    calibration = [m.id for m in catalog.measurements if m.role == "calibration"]
    assert [c.measurement.id for c in engine.one_out] == calibration
    assert sorted(c.measurement.id for c in engine.deployment_out) == sorted(calibration)
    for check in (*engine.one_out, *engine.deployment_out):
        assert check.predicted_tokens_per_s > 0 and check.method != "measured", check


def test_the_bands_come_from_the_checks_the_engine_keeps(catalog, engine):
    """Interpolated and anchored bands from figures left out one at a time, the roofline's
    from whole deployments and whole sources left out (their honesty is
    test_validation's coverage test)."""
    derived = bands_from(
        engine.one_out,
        engine.deployment_out,
        engine.source_out,
        quantile=catalog.engine.error_band_quantile,
        floor=catalog.engine.error_band_floor,
    )
    # the TTFT bands are the catalog's (core/data/ttft-bands.yaml: the field check's
    # held-out first-token times, test_field_check holds them to it)
    assert catalog.ttft_bands is not None and engine.bands.ttft is not None
    assert with_ttft_bands(derived, catalog) == engine.bands
    assert derived.ttft is None and not derived.ttft_by_engine
    assert engine.bands.model >= catalog.engine.error_band_floor
    # a deployment left out is answered by the roofline, or carried from a stand-in GPU
    assert {c.method for c in engine.deployment_out} <= {"model", "carried"}


def test_holdouts_never_enter_calibration(engine):
    held = holdout(engine)
    assert held and all(c.measurement.role == "holdout" for c in held)
    for check in held:
        answer = engine.throughput(query_for(check.measurement))
        assert all(m.role == "calibration" for m in answer.measurements), check.measurement.id


# --- prompts' physics ------------------------------------------------------------------------


def _replica(catalog, model: str, layout):
    from core.perf.calibration import hardware_for
    from core.perf.roofline import replica

    hw = hardware_for(
        catalog, model=model, gpu="b200", gpus=layout.gpus, precision="fp8", stack="trt-llm"
    )
    return replica(hw, layout)


def test_mla_prefills_unabsorbed_at_under_a_third_of_decodes_attention_flops(catalog):
    from core.perf.layouts import Layout

    mla = _replica(catalog, "deepseek-r1", Layout(tp=8))
    gqa = _replica(catalog, "llama-3.1-70b", Layout(tp=8))
    assert mla.prompt_attention_flops_s == pytest.approx(mla.attention_flops_s * 320 / 1088)
    assert gqa.prompt_attention_flops_s == gqa.attention_flops_s


def test_a_wave_under_data_parallel_attention_runs_every_ranks_chunk_through_the_experts(
    catalog,
):
    from core.perf.layouts import Layout
    from core.perf.roofline import Workload, full_chunk_prompts, terms

    rep = _replica(catalog, "deepseek-r1", Layout(dp=8, ep=8))
    wl = Workload(concurrency=256, context_tokens=1536, input_tokens=1024, output_tokens=1024)
    wave = full_chunk_prompts(rep, wl, batch=256)
    alone = full_chunk_prompts(rep, wl, batch=1)
    assert wave.rank_tokens == alone.rank_tokens
    assert wave.stage_tokens == 8 * alone.stage_tokens
    # the experts' share of a queued step's prefill grows with the ranks prefilling at once
    assert terms(rep, 256, wl, wave).prefill_s > 1.5 * terms(rep, 256, wl, alone).prefill_s
    tensor = _replica(catalog, "deepseek-r1", Layout(tp=8))
    assert full_chunk_prompts(tensor, wl, batch=256).stage_tokens == alone.stage_tokens


def test_mla_rows_with_data_parallel_attention_inform_their_model_not_the_engines_fit(
    catalog, engine
):
    """The engine's fit is what every model without field rows of its own takes (Llama 2
    70B, Llama 3.1 405B on TensorRT-LLM): how DeepSeek-class models' data-parallel
    prompts are costed must not move it."""
    from core.perf.calibration import field_observations, fit_field

    observations = field_observations(catalog)
    path = [o for o in observations if o.hardware.model.attention == "mla" and o.layouts[0].dp > 1]
    assert {o.model for o in path} >= {"deepseek-r1", "kimi-k2.5"}
    fitted = engine.calibration.field_fit
    rows = [o.row for o in path]
    assert all(rows)  # field observations are each of a field row
    without = fit_field(catalog, exclude=frozenset(r.id for r in rows if r is not None))
    for name, params in fitted.per_engine.items():
        assert without.per_engine[name].as_vector() == pytest.approx(params.as_vector(), rel=1e-6)
    # they still inform their own model's fit
    assert all(
        without.per_model[(o.stack, o.model)] != fitted.per_model[(o.stack, o.model)] for o in path
    )
