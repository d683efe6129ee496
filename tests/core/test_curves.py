"""The numbers behind the charts agree with the answers they illustrate."""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from core.curves import BeforeAfter, before_after, cost_curve, growth_curve
from core.errors import InputError
from core.estimate import estimate
from core.scenario import Estimate, Scenario
from core.sizing import Sizing, size
from core.traffic import Traffic

# DESIGN.md's example: Kimi K3 on 16x B300 at batch 64 and $5/GPU-hour, API at $15/M.
K3_16 = dict(
    model="kimi-k3",
    gpu="b300",
    gpus=16,
    concurrency=64,
    price_per_gpu_hour=5,
    api_price_per_million_output=15,
)
TRAFFIC = dict(model="kimi-k3", output_tokens_per_day=2e9, peak_to_average=3, gpus=("b300",))


@pytest.fixture(scope="module")
def at_60(engine) -> Estimate:
    return estimate(Scenario(**K3_16, utilization=0.6), engine)


@pytest.fixture(scope="module")
def growing(engine) -> Sizing:
    return size(Traffic(**TRAFFIC, monthly_growth=0.1), engine)


def test_the_curve_passes_through_the_estimates_own_figure(engine, at_60):
    full = estimate(Scenario(**K3_16), engine)
    curve = cost_curve(at_60)
    assert curve.current_utilization == 0.6
    assert curve.current_usd_per_million == pytest.approx(at_60.usd_per_million_output_tokens)
    assert curve.utilization[-1] == 1.0
    assert curve.usd_per_million[-1] == pytest.approx(full.usd_per_million_output_tokens)


def test_utilization_spans_5_to_100_percent_in_the_points_asked(at_60):
    curve = cost_curve(at_60, points=20)
    assert len(curve.utilization) == len(curve.usd_per_million) == 20
    assert curve.utilization[0] == pytest.approx(0.05)
    assert curve.utilization == sorted(curve.utilization)


def test_cost_per_token_is_inversely_proportional_to_utilization(at_60):
    curve = cost_curve(at_60)
    products = [u * usd for u, usd in zip(curve.utilization, curve.usd_per_million, strict=True)]
    assert products == pytest.approx([products[-1]] * len(products))
    assert curve.usd_per_million[0] == pytest.approx(20 * curve.usd_per_million[-1])


def test_the_curve_crosses_the_api_price_at_the_breakeven_utilization(at_60):
    curve = cost_curve(at_60)
    b = curve.breakeven_utilization
    assert b == pytest.approx(at_60.breakeven_utilization)
    assert curve.api_usd_per_million == 15
    # $/M = k / u, so the curve's value at b is k / b
    k = curve.usd_per_million[-1] * curve.utilization[-1]
    assert k / b == pytest.approx(15)
    for u, usd in zip(curve.utilization, curve.usd_per_million, strict=True):
        assert (usd > 15) == (u < b)


def test_without_an_api_price_there_is_no_breakeven(engine):
    e = estimate(Scenario(model="kimi-k3", gpu="b300", gpus=16, concurrency=64), engine)
    curve = cost_curve(e)
    assert curve.api_usd_per_million is None
    assert curve.breakeven_utilization is None


def test_the_title_uses_catalog_names_and_the_footnote_data_travels(catalog, at_60):
    curve = cost_curve(at_60, catalog=catalog)
    assert curve.title == "Kimi K3 on 16x NVIDIA B300, batch 64"
    assert cost_curve(at_60).title == "kimi-k3 on 16x b300, batch 64"
    assert (curve.basis, curve.error_band) == (at_60.basis, at_60.error_band)


def test_a_curve_needs_two_points(at_60):
    with pytest.raises(InputError) as err:
        cost_curve(at_60, points=1)
    assert err.value.field == "points"


def test_need_first_exceeds_the_lease_the_month_after_the_quoted_headroom(growing):
    curve = growth_curve(growing)
    option = growing.options[0]
    h = option.months_of_headroom
    assert h is not None and 0 < h < 36
    assert curve.months_of_headroom == pytest.approx(h)
    assert curve.gpus_leased == option.gpus
    first_over = next(m for m, n in enumerate(curve.gpus_needed) if n > option.gpus)
    assert first_over == math.floor(h) + 1
    assert all(n <= option.gpus for n in curve.gpus_needed[:first_over])


def test_need_grows_in_whole_replicas_from_month_0_to_36(growing):
    curve = growth_curve(growing, months=36)
    option = growing.options[0]
    assert curve.months == list(range(37))
    assert curve.gpus_needed == sorted(curve.gpus_needed)
    assert all(n % option.gpus_per_replica == 0 for n in curve.gpus_needed)
    # 36 months at 10% compounding is 1.1^36 ~ 31x the traffic; each end rounds up to a
    # whole replica, so the replica counts bracket that ratio within one replica each
    first, last = (
        n // option.gpus_per_replica for n in (curve.gpus_needed[0], curve.gpus_needed[-1])
    )
    assert (last - 1) / first < 1.1**36 < last / max(first - 1, 1e-9)


def test_each_option_charts_its_own_headroom(growing):
    for i, option in enumerate(growing.options):
        curve = growth_curve(growing, option=i)
        assert curve.gpus_leased == option.gpus
        assert curve.months_of_headroom == pytest.approx(option.months_of_headroom)


def test_no_growth_is_a_flat_line_within_the_lease(engine):
    flat = size(Traffic(**TRAFFIC), engine)
    curve = growth_curve(flat, months=12)
    assert curve.months_of_headroom is None
    assert curve.monthly_growth == 0
    assert len(set(curve.gpus_needed)) == 1
    assert curve.gpus_needed[0] <= curve.gpus_leased


def test_an_infeasible_sizing_has_no_growth_to_chart(growing):
    infeasible = growing.model_copy(update={"options": []})
    with pytest.raises(InputError) as err:
        growth_curve(infeasible)
    assert err.value.field == "option" and err.value.hint


def test_an_option_out_of_range_is_refused(growing):
    with pytest.raises(InputError, match="no option"):
        growth_curve(growing, option=len(growing.options))


def test_before_after_keeps_the_pairs_in_order():
    data = before_after(
        [("batch 16", 21.61, 12.64), ("batch 64", 9.98, 6.16)],
        unit="$ per M output tokens",
        title="vLLM Kimi K3 decode path",
    )
    assert data.labels == ["batch 16", "batch 64"]
    assert data.before == [21.61, 9.98]
    assert data.after == [12.64, 6.16]


@pytest.mark.parametrize(
    ("pairs", "field"),
    [
        ([], "pairs"),
        ([("batch 64", 9.98, float("nan"))], "after"),
        ([("batch 64", float("inf"), 6.16)], "before"),
        ([("batch 64", 9.98, -1.0)], "after"),
    ],
)
def test_before_after_refuses_missing_non_finite_or_negative_figures(pairs, field):
    with pytest.raises(InputError) as err:
        before_after(pairs, unit="$/M", title="t")
    assert err.value.field == field
    assert err.value.hint


def test_before_after_built_directly_still_needs_paired_lengths():
    with pytest.raises(ValidationError, match="same length"):
        BeforeAfter(labels=["a", "b"], before=[1.0, 2.0], after=[1.0], unit="$/M", title="t")
