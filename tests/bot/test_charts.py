"""Charts are real PNGs, the same bytes for the same curve, and safe to draw from threads."""

from __future__ import annotations

import struct
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.render.charts import before_after_chart, cost_chart, growth_chart
from core.curves import BeforeAfter, CostCurve, GrowthCurve, before_after, cost_curve, growth_curve
from core.estimate import estimate
from core.scenario import Scenario
from core.sizing import size
from core.traffic import Traffic

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
K3_16 = dict(model="kimi-k3", gpu="gb300", gpus=16, concurrency=64, price_per_gpu_hour=5)
"""The write-up's deployment, as measured (16 GB300s in one NVLink domain)."""
TRAFFIC = dict(model="kimi-k3", output_tokens_per_day=2e9, peak_to_average=3, gpus=("b300",))


@pytest.fixture(scope="module")
def cost(engine, catalog) -> CostCurve:
    e = estimate(Scenario(**K3_16, api_price_per_million_output=15, utilization=0.6), engine)
    return cost_curve(e, catalog=catalog)


@pytest.fixture(scope="module")
def growth(engine, catalog) -> GrowthCurve:
    return growth_curve(size(Traffic(**TRAFFIC, monthly_growth=0.1), engine), catalog=catalog)


@pytest.fixture(scope="module")
def bars() -> BeforeAfter:
    return before_after(
        [("batch 16", 21.61, 12.64), ("batch 64", 9.98, 6.16)],
        unit="$ per M output tokens",
        title="vLLM Kimi K3 decode path, 16x GB300 at $5/GPU-hour",
        footnote="vLLM write-up, 2026-10-16; measured on GB300",
    )


def assert_slack_sized_png(png: bytes) -> None:
    assert png.startswith(PNG_SIGNATURE)
    width, height = struct.unpack(">II", png[16:24])  # IHDR follows the signature
    assert (width, height) == (800, 450)
    assert 10_000 < len(png) < 400_000


def test_every_chart_is_a_slack_sized_png(cost, growth, bars):
    for png in (cost_chart(cost), growth_chart(growth), before_after_chart(bars)):
        assert_slack_sized_png(png)


def test_the_same_curve_gives_the_same_bytes(cost, growth, bars):
    assert cost_chart(cost) == cost_chart(cost)
    assert growth_chart(growth) == growth_chart(growth)
    assert before_after_chart(bars) == before_after_chart(bars)
    assert b"Software" not in cost_chart(cost)


def test_a_curve_without_an_api_price_still_draws(engine):
    curve = cost_curve(estimate(Scenario(**K3_16), engine))
    assert curve.api_usd_per_million is None
    assert_slack_sized_png(cost_chart(curve))


@pytest.mark.parametrize("price", [0.5, 60.0])
def test_breakeven_off_the_chart_is_said_not_drawn(engine, price):
    """At $0.50 the lease breaks even below 5% busy; at $60 it never does."""
    fields = {**K3_16, "price_per_gpu_hour": price}
    curve = cost_curve(estimate(Scenario(**fields, api_price_per_million_output=15), engine))
    b = curve.breakeven_utilization
    assert b is not None and not 0.05 <= b <= 1
    assert_slack_sized_png(cost_chart(curve))


def test_flat_and_slow_growth_draw_on_a_linear_axis(engine):
    for growth_rate in (0.0, 0.02):
        curve = growth_curve(size(Traffic(**TRAFFIC, monthly_growth=growth_rate), engine))
        assert_slack_sized_png(growth_chart(curve))


def test_charts_drawn_from_many_threads_match_the_serial_ones(cost, growth, bars):
    jobs = [(cost_chart, cost), (growth_chart, growth), (before_after_chart, bars)] * 6
    serial = [draw(data) for draw, data in jobs[:3]] * 6
    with ThreadPoolExecutor(max_workers=8) as pool:
        parallel = list(pool.map(lambda job: job[0](job[1]), jobs))
    assert parallel == serial
