"""Sizing: traffic to ranked lease options (the sales team's most common question)."""

from __future__ import annotations

import datetime as dt
import math
import re

import pytest

from core.errors import InputError
from core.reprice import reprice
from core.sizing import months_of_headroom, size
from core.traffic import Traffic

BEFORE, AFTER = dt.date(2026, 10, 15), dt.date(2026, 10, 17)
K3 = dict(model="kimi-k3", gpus=("b300",), input_tokens=800, output_tokens=400)


@pytest.fixture(scope="module")
def sized(engine):
    """``sized(model="kimi-k3", ...)`` -> the Sizing for that traffic."""
    return lambda **fields: size(Traffic(**fields), engine)


def test_the_decode_path_serves_1_62x_the_tokens_for_the_same_bill(ask):
    """DESIGN.md: 16 GPUs at $5, batch 64, $9.98 -> $6.16 per M at the same $80/hour, on
    the GB300s the write-up measured."""
    before = ask(
        model="kimi-k3", gpu="gb300", gpus=16, concurrency=64, price_per_gpu_hour=5, as_of=BEFORE
    )
    after = ask(
        model="kimi-k3", gpu="gb300", gpus=16, concurrency=64, price_per_gpu_hour=5, as_of=AFTER
    )
    assert after.usd_per_month == before.usd_per_month
    daily = [e.output_tokens_per_s * 86_400 for e in (before, after)]
    assert daily[1] / daily[0] == pytest.approx(1.62, abs=0.01)


def test_after_the_optimization_fixed_traffic_needs_fewer_gpus_or_gains_headroom(sized):
    traffic = dict(
        model="kimi-k3",
        gpus=("b300",),
        output_tokens_per_day=3e8,
        peak_to_average=2,
        min_per_user_tokens_per_s=20,
        monthly_growth=0.1,
        reasoning_tokens=0,
        price_per_gpu_hour=5,
    )
    before = sized(**traffic, as_of=BEFORE).options[0]
    after = sized(**traffic, as_of=AFTER).options[0]
    assert after.stack == "vllm-k3-decode" and before.stack == "vllm"
    assert after.gpus < before.gpus or (
        after.gpus == before.gpus and after.months_of_headroom > before.months_of_headroom
    )
    assert after.usd_per_million_output_tokens < before.usd_per_million_output_tokens


def test_b300_beats_a_cheaper_a100_per_token_for_kimi_k3(sized):
    s = sized(
        model="kimi-k3",
        gpus=("b300", "a100-80gb"),
        output_tokens_per_day=1e8,
        reasoning_tokens=0,
        prices={"b300": 5.0, "a100-80gb": 2.0},
    )
    best_by_gpu = {}
    for option in s.options:
        best_by_gpu.setdefault(option.gpu, option)
    assert s.options[0].gpu == "b300"
    if "a100-80gb" in best_by_gpu:
        assert (
            best_by_gpu["b300"].usd_per_million_output_tokens
            < best_by_gpu["a100-80gb"].usd_per_million_output_tokens
        )
    else:  # MXFP4 Kimi K3 may not fit any A100 replica at all: say so
        assert any(r.gpu == "a100-80gb" for r in s.rejected)


def test_headroom_at_ten_percent_growth_matches_the_closed_form(sized):
    s = sized(**K3, output_tokens_per_day=2e8, monthly_growth=0.10, price_per_gpu_hour=5)
    o = s.options[0]
    capacity = o.replicas * o.replica_output_tokens_per_s
    assert o.months_of_headroom == pytest.approx(
        math.log(capacity / s.peak_output_tokens_per_s) / math.log(1.10)
    )
    # month by month: the first whole month whose peak exceeds capacity
    month = next(m for m in range(1000) if s.peak_output_tokens_per_s * 1.1**m > capacity)
    assert month == math.floor(o.months_of_headroom) + 1


def test_no_growth_means_no_headroom_limit():
    assert months_of_headroom(capacity=100, peak=50, monthly_growth=0) is None


def test_options_are_whole_replicas_under_the_planned_utilization(sized):
    s = sized(**K3, output_tokens_per_day=5e8, peak_to_average=3, price_per_gpu_hour=5)
    for o in s.options:
        assert o.gpus == o.replicas * o.gpus_per_replica
        assert o.peak_utilization <= s.planned_utilization + 1e-9
        assert o.per_user_tokens_per_s >= s.min_per_user_tokens_per_s - 1e-9
    costs = [(o.usd_per_month, o.usd_per_million_output_tokens) for o in s.options]
    assert costs == sorted(costs)
    assert s.options[0].cheapest and all(o.why_not for o in s.options[1:])


def test_smaller_than_the_vendors_recommendation_is_flagged(sized):
    s = sized(**K3, output_tokens_per_day=1e7, price_per_gpu_hour=5)
    assert s.options[0].gpus < 64
    assert any("at least 64 accelerators" in c for c in s.options[0].caveats)


def test_the_api_comparison_prices_the_same_traffic(sized):
    s = sized(**K3, output_tokens_per_day=1e9, reasoning_tokens=0, price_per_gpu_hour=5)
    assert s.api is not None
    # Kimi K3 list price: $3/M input, $15/M output; 800 prompt tokens per 400 output
    requests_per_month = 1e9 / 400 * 730 / 24
    expected = requests_per_month * (800 * 3 + 400 * 15) / 1e6
    assert s.api.api_usd_per_month == pytest.approx(expected, rel=1e-6)
    assert s.api.verdict.startswith("Leasing") == (s.api.lease_usd_per_month <= expected)


def asked(ask: str, field: str) -> float:
    """The value a nearest feasible ask proposes for ``field``."""
    match = re.search(rf"{field}=([0-9.,e+]+)", ask)
    assert match, ask
    return float(match.group(1).replace(",", ""))


def test_an_unreachable_per_user_speed_names_a_speed_that_works(sized):
    traffic = dict(**K3, output_tokens_per_day=1e8, price_per_gpu_hour=5)
    s = sized(**traffic, min_per_user_tokens_per_s=5_000)
    assert s.options == [] and s.infeasible is not None
    assert s.infeasible.binding_constraint == "per_user_speed"
    speed = asked(s.infeasible.nearest_feasible_ask, "min_per_user_tokens_per_s")
    assert sized(**traffic, min_per_user_tokens_per_s=speed).options


def test_an_unreachable_ttft_names_a_first_token_time_that_works(sized):
    traffic = dict(**{**K3, "input_tokens": 200_000}, output_tokens_per_day=1e8)
    s = sized(**traffic, max_ttft_s=0.01)
    assert s.infeasible is not None and s.infeasible.binding_constraint == "ttft"
    ttft = asked(s.infeasible.nearest_feasible_ask, "max_ttft_s")
    assert sized(**traffic, max_ttft_s=ttft).options


def test_traffic_beyond_every_option_names_a_volume_that_fits(sized):
    s = sized(**K3, output_tokens_per_day=1e15, peak_to_average=2, reasoning_tokens=600)
    assert s.infeasible is not None and s.infeasible.binding_constraint == "scale"
    volume = asked(s.infeasible.nearest_feasible_ask, "output_tokens_per_day")
    assert 0 < volume < 1e15
    assert sized(
        **K3, output_tokens_per_day=volume, peak_to_average=2, reasoning_tokens=600
    ).options


def test_contradictory_volumes_are_refused(sized):
    with pytest.raises(InputError) as info:
        sized(model="kimi-k3", requests_per_day=1000, output_tokens=500, output_tokens_per_day=9e9)
    assert info.value.field == "output_tokens_per_day"


def test_a_ttft_limit_without_a_prompt_is_refused(sized):
    with pytest.raises(InputError) as info:
        sized(model="kimi-k3", output_tokens_per_day=1e8, max_ttft_s=1)
    assert info.value.field == "max_ttft_s"


def test_volume_is_required(sized):
    with pytest.raises(InputError) as info:
        sized(model="kimi-k3")
    assert info.value.field == "output_tokens_per_day"


def test_a_context_beyond_the_models_window_is_refused(sized):
    with pytest.raises(InputError) as info:
        sized(model="kimi-k3", output_tokens_per_day=1e8, context_tokens=5_000_000)
    assert info.value.field == "context_tokens"


def test_a_price_for_an_unknown_gpu_is_refused(sized):
    with pytest.raises(InputError) as info:
        sized(**K3, output_tokens_per_day=1e8, prices={"b300": 4, "h999": 3})
    assert info.value.field == "prices"


def test_a_thinking_models_stated_output_already_includes_its_reasoning(sized):
    s = sized(model="kimi-k3", output_tokens_per_day=1e8, output_tokens=400, gpus=("b300",))
    assert (s.output_tokens_per_request, s.reasoning_tokens_per_request) == (400, None)
    assert s.model_thinking == "mandatory"
    assert s.output_tokens_per_day == pytest.approx(1e8)
    assert not any("reasoning" in a for a in s.assumptions)


def _same_bill(engine, growth: float):
    traffic = Traffic(
        model="kimi-k3",
        output_tokens_per_day=2e9,
        output_tokens=400,
        input_tokens=800,
        peak_to_average=3,
        min_per_user_tokens_per_s=30,
        monthly_growth=growth,
    )
    options = size(traffic, engine).options
    best = options[0]
    return best, [o for o in options[1:] if o.usd_per_month == best.usd_per_month]


def test_of_two_fleets_at_the_same_bill_the_one_with_more_headroom_ranks_first(engine):
    best, tied = _same_bill(engine, growth=0.1)
    assert tied, "this traffic has two fleets at one bill"
    for o in tied:
        assert (o.months_of_headroom or 0) <= (best.months_of_headroom or 0)
        if o.months_of_headroom != best.months_of_headroom:
            assert f"less headroom ({o.months_of_headroom:.1f} months against " in o.why_not
            assert f"against {best.months_of_headroom:.1f} months)" in o.why_not


def test_without_growth_a_tie_says_both_have_room_rather_than_less_headroom(engine):
    best, tied = _same_bill(engine, growth=0.0)
    assert best.months_of_headroom is None and tied
    for o in tied:
        assert "less headroom" not in o.why_not
        if o.usd_per_million_output_tokens == best.usd_per_million_output_tokens:
            assert "both have room to spare" in o.why_not


def test_a_quoted_utilization_prices_the_same_fleet_at_that_share_of_its_capacity(engine):
    """Traffic.utilization is the $/M's, not the sizing's: the same options in the same
    order and bills; each serves that share of its capacity a month; the API is priced
    for the tokens the cheapest serves at it. A re-priced sizing says the same."""
    traffic = Traffic(model="kimi-k3", output_tokens_per_day=2e9, peak_to_average=3)
    own = size(traffic, engine)
    quoted = size(traffic.model_copy(update={"utilization": 0.4}), engine)
    shape = [(o.gpu, o.replicas, o.gpus_per_replica, o.usd_per_month) for o in own.options]
    assert shape == [
        (o.gpu, o.replicas, o.gpus_per_replica, o.usd_per_month) for o in quoted.options
    ]
    seconds_a_month = 730 * 3600
    for o in quoted.options:
        tokens = 0.4 * o.replicas * o.replica_output_tokens_per_s * seconds_a_month
        assert o.average_utilization == 0.4
        assert o.usd_per_million_output_tokens == pytest.approx(o.usd_per_month / tokens * 1e6)
    assert quoted.utilization == 0.4 and own.utilization is None
    assert own.api is not None and quoted.api is not None
    best = quoted.options[0]
    served = 0.4 * best.replicas * best.replica_output_tokens_per_s * seconds_a_month
    assert quoted.api.api_usd_per_month == pytest.approx(
        served * quoted.api.api_usd_per_million_output_tokens / 1e6
    )
    assert "at 40% average utilization" in quoted.api.verdict
    again = reprice(own, traffic.model_copy(update={"utilization": 0.4}), engine)
    assert [o.usd_per_million_output_tokens for o in again.options] == pytest.approx(
        [o.usd_per_million_output_tokens for o in quoted.options]
    )
