"""The customer's traffic as they state it: output tokens are billed output tokens.

The API bills a thinking model's reasoning as output, and the GPU decodes it like any
other token, so a stated output volume is the decoded volume: nothing is added on
top. Visible and reasoning tokens given apart are decoded as their sum. ``size`` and
``estimate`` read the same traffic the same way.
"""

from __future__ import annotations

import pytest

from core.catalog import Catalog
from core.errors import InputError
from core.estimate import estimate
from core.perf.engine import PerfEngine
from core.scenario import Scenario
from core.sizing import Sizing, size
from core.traffic import Traffic, resolve
from core.units import HOURS_PER_MONTH, SECONDS_PER_DAY, TOKENS_PER_MILLION

DAYS_PER_MONTH = HOURS_PER_MONTH / 24


def demand(catalog: Catalog, **fields: object):  # type: ignore[no-untyped-def]
    return resolve(Traffic(model="kimi-k3", **fields), catalog)  # type: ignore[arg-type]


# --- a daily volume is the decoded volume ----------------------------------------------


def test_2b_output_tokens_a_day_of_kimi_k3_sizes_2b_decoded_tokens_a_day(engine: PerfEngine):
    """The issue's done-when: ``leasewise size --model kimi-k3 --output-tokens-per-day
    2e9 --min-per-user-tokens-per-s 30``; it was sized as 10 B (2,000 assumed reasoning
    tokens on top of 500 assumed visible ones)."""
    s = size(
        Traffic(model="kimi-k3", output_tokens_per_day=2e9, min_per_user_tokens_per_s=30),
        engine,
    )
    assert s.output_tokens_per_day == pytest.approx(2e9)
    assert s.peak_output_tokens_per_s == pytest.approx(2e9 / SECONDS_PER_DAY)
    assert s.requests_per_day * s.output_tokens_per_request == pytest.approx(2e9)
    assert not any("reasoning tokens per request" in a for a in s.assumptions)


def test_the_peak_is_the_stated_daily_volume_times_the_peak_to_average(catalog: Catalog):
    d = demand(catalog, output_tokens_per_day=2e9, peak_to_average=3)
    assert d.decoded_tokens_per_day == pytest.approx(2e9)
    assert d.peak_decoded_tokens_per_s == pytest.approx(2e9 / SECONDS_PER_DAY * 3)


def test_a_daily_volume_with_tokens_per_request_is_not_inflated_by_thinking(catalog: Catalog):
    d = demand(catalog, output_tokens_per_day=1e8, output_tokens=400)
    assert d.decoded_tokens_per_day == pytest.approx(1e8)
    assert (d.output_tokens, d.reasoning_tokens) == (400, None)
    assert d.requests_per_s * SECONDS_PER_DAY == pytest.approx(1e8 / 400)


def test_a_daily_volume_alone_assumes_a_request_with_the_models_typical_reasoning(
    catalog: Catalog,
):
    """The per-request length only sets the request rate and the context; the line that
    assumes it names the reasoning it includes."""
    visible = catalog.engine.default_output_tokens_per_request
    typical = catalog.models.get("kimi-k3").reasoning_tokens_default
    d = demand(catalog, output_tokens_per_day=2e9)
    assert (d.output_tokens, d.reasoning_tokens) == (visible + typical, typical)
    assert d.decoded_tokens_per_day == pytest.approx(2e9)
    (line,) = [a for a in d.assumptions if "output tokens per request" in a]
    assert f"{visible + typical:,} output tokens per request" in line
    assert f"{typical:,} reasoning" in line


def test_a_model_that_does_not_think_assumes_visible_output_only(catalog: Catalog):
    d = resolve(Traffic(model="llama-3.1-70b", output_tokens_per_day=1e8), catalog)
    assert d.output_tokens == catalog.engine.default_output_tokens_per_request
    assert d.reasoning_tokens is None
    assert not any("reasoning" in a for a in d.assumptions)


# --- per request: billed as stated, or visible + reasoning ---------------------------


def test_output_tokens_alone_are_a_requests_billed_output_reasoning_included(
    catalog: Catalog,
):
    d = demand(catalog, requests_per_day=100_000, output_tokens=400)
    assert d.decoded_tokens == 400
    assert d.decoded_tokens_per_day == pytest.approx(4e7)


def test_visible_and_reasoning_tokens_given_apart_are_decoded_as_their_sum(catalog: Catalog):
    d = demand(catalog, requests_per_day=100_000, output_tokens=500, reasoning_tokens=2000)
    assert (d.decoded_tokens, d.reasoning_tokens) == (2500, 2000)
    assert d.decoded_tokens_per_day == pytest.approx(2.5e8)


def test_no_reasoning_says_the_output_is_all_visible(catalog: Catalog):
    d = demand(catalog, requests_per_day=100_000, output_tokens=400, reasoning_tokens=0)
    assert (d.decoded_tokens, d.reasoning_tokens) == (400, 0)


def test_a_daily_volume_with_a_split_request_counts_the_reasoning_in_the_volume(
    catalog: Catalog,
):
    """Rule: output tokens a day are billed output, visible + reasoning, whatever the
    per-request split; the split sets how many requests make that volume."""
    d = demand(catalog, output_tokens_per_day=2.5e8, output_tokens=500, reasoning_tokens=2000)
    assert d.decoded_tokens_per_day == pytest.approx(2.5e8)
    assert d.requests_per_s * SECONDS_PER_DAY == pytest.approx(100_000)


def test_requests_a_volume_and_reasoning_leave_the_rest_of_a_request_visible(
    catalog: Catalog,
):
    d = demand(
        catalog, requests_per_day=100_000, output_tokens_per_day=2.5e8, reasoning_tokens=2000
    )
    assert (d.decoded_tokens, d.reasoning_tokens) == (2500, 2000)
    assert d.decoded_tokens_per_day == pytest.approx(2.5e8)


def test_requests_times_a_split_request_must_agree_with_the_daily_volume(catalog: Catalog):
    agreed = demand(
        catalog,
        requests_per_day=100_000,
        output_tokens=500,
        reasoning_tokens=2000,
        output_tokens_per_day=2.5e8,
    )
    assert agreed.decoded_tokens_per_day == pytest.approx(2.5e8)
    with pytest.raises(InputError) as info:
        # 100k x 500 visible is 5e7, but the daily volume counts the reasoning too
        demand(
            catalog,
            requests_per_day=100_000,
            output_tokens=500,
            reasoning_tokens=2000,
            output_tokens_per_day=5e7,
        )
    assert info.value.field == "output_tokens_per_day"
    assert "2,500 output tokens (500 visible + 2,000 reasoning)" in info.value.message


def test_reasoning_that_leaves_no_visible_output_in_the_daily_volume_is_refused(
    catalog: Catalog,
):
    with pytest.raises(InputError) as info:
        demand(catalog, requests_per_day=100_000, output_tokens_per_day=1e8, reasoning_tokens=2000)
    assert info.value.field == "reasoning_tokens"
    assert "1,000 a request" in info.value.message


# --- size and estimate: one customer, one meaning ---------------------------------------

SPLITS = [
    pytest.param(dict(output_tokens=400), 400, id="billed output"),
    pytest.param(dict(output_tokens=500, reasoning_tokens=2000), 2500, id="visible+reasoning"),
]


@pytest.mark.parametrize(("tokens", "decoded"), SPLITS)
def test_size_and_estimate_decode_the_same_tokens_for_the_same_traffic(
    engine: PerfEngine, tokens: dict[str, int], decoded: int
):
    """The sizing's cheapest replica, asked of ``estimate`` with the same request, runs
    the same sequences at the same throughput: both decode ``decoded`` tokens a request."""
    s = size(
        Traffic(
            model="kimi-k3",
            gpus=("b300",),
            requests_per_day=1e6,
            input_tokens=800,
            price_per_gpu_hour=5,
            **tokens,
        ),
        engine,
    )
    assert s.output_tokens_per_request == decoded
    assert s.output_tokens_per_day == pytest.approx(1e6 * decoded)
    best = s.options[0]
    e = estimate(
        Scenario(
            model="kimi-k3",
            gpu="b300",
            gpus=best.gpus_per_replica,
            concurrency=best.concurrency,
            stack=best.stack,
            precision=best.precision,
            input_tokens=800,
            price_per_gpu_hour=5,
            **tokens,
        ),
        engine,
    )
    assert e.context_tokens == 800 + decoded // 2
    assert e.output_tokens_per_s == pytest.approx(best.replica_output_tokens_per_s, rel=1e-9)


def test_cost_per_million_output_tokens_is_on_billed_output_in_size_and_estimate(
    engine: PerfEngine,
):
    s = size(
        Traffic(model="kimi-k3", gpus=("b300",), output_tokens_per_day=2e9, price_per_gpu_hour=5),
        engine,
    )
    best = s.options[0]
    billed_a_month = 2e9 * DAYS_PER_MONTH
    assert best.usd_per_million_output_tokens == pytest.approx(
        best.usd_per_month / billed_a_month * TOKENS_PER_MILLION
    )
    e = estimate(
        Scenario(model="kimi-k3", gpu="b300", gpus=16, concurrency=64, output_tokens=2500),
        engine,
    )
    assert e.output_tokens_per_s is not None and e.usd_per_million_output_tokens is not None
    assert e.usd_per_million_output_tokens == pytest.approx(
        e.usd_per_hour / (e.output_tokens_per_s * 3600) * TOKENS_PER_MILLION
    )


def test_the_estimate_says_its_output_reading_in_one_line(ask):  # type: ignore[no-untyped-def]
    billed = ask(model="kimi-k3", gpu="b300", gpus=16, concurrency=16, output_tokens=400)
    said = [a for a in billed.assumptions if "output tokens a request" in a]
    assert said == [
        "400 output tokens a request, reasoning included as the API bills it "
        "(Kimi K3 always thinks)"
    ]
    split = ask(
        model="kimi-k3",
        gpu="b300",
        gpus=16,
        concurrency=16,
        output_tokens=500,
        reasoning_tokens=2000,
    )
    said = [a for a in split.assumptions if "output tokens a request" in a]
    assert said == [
        "2,500 output tokens a request, reasoning included as the API bills it "
        "(500 visible + 2,000 reasoning)"
    ]
    plain = ask(model="llama-3.1-70b", gpu="h100-sxm", gpus=8, output_tokens=400)
    assert not any("reasoning" in a for a in plain.assumptions)


def test_a_sizing_stored_when_output_meant_visible_tokens_reads_back_as_billed(
    engine: PerfEngine,
):
    """Stored before ``model_thinking`` existed, a sizing's output tokens a request were
    the visible ones, its reasoning on top; read back, they are the billed sum."""
    s = size(
        Traffic(
            model="kimi-k3",
            gpus=("b300",),
            requests_per_day=1e5,
            output_tokens=500,
            reasoning_tokens=2000,
        ),
        engine,
    )
    stored = s.model_dump(mode="json")
    del stored["model_thinking"]
    stored["output_tokens_per_request"] = 500
    old = Sizing.model_validate(stored)
    assert (old.output_tokens_per_request, old.reasoning_tokens_per_request) == (2500, 2000)
    assert Sizing.model_validate(s.model_dump(mode="json")) == s
