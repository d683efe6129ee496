"""Lease arithmetic (DESIGN.md, "Cost"): 730-hour months, utilization, the API's blended price."""

from __future__ import annotations

import pytest

from core import cost


def test_a_month_of_lease_is_730_hours():
    assert cost.usd_per_month(cost.usd_per_hour(gpus=16, price_per_gpu_hour=5)) == 80 * 730


def test_a_contract_is_the_monthly_bill_times_the_term():
    assert cost.contract_usd(monthly_usd=58_400, term_months=36) == 2_102_400


def test_half_utilization_doubles_the_cost_per_token():
    full = cost.usd_per_million_output_tokens(hourly_usd=80, tokens_per_s=2226.7, utilization=1)
    half = cost.usd_per_million_output_tokens(hourly_usd=80, tokens_per_s=2226.7, utilization=0.5)
    assert full == pytest.approx(9.98, abs=0.005)
    assert half == pytest.approx(2 * full)


def test_the_api_price_per_output_token_carries_the_prompt():
    # Kimi K3 list price: $3/M input, $15/M output; 800 prompt tokens per 400 decoded
    blended = cost.api_usd_per_million_output_tokens(
        usd_per_million_output=15, usd_per_million_input=3, input_tokens=800, output_tokens=400
    )
    assert blended == pytest.approx(21)


def test_the_api_bill_counts_reasoning_as_output():
    bill = cost.api_usd(
        input_tokens=1e9, output_tokens=2e9, usd_per_million_input=3, usd_per_million_output=15
    )
    assert bill == pytest.approx(3_000 + 30_000)


def test_breakeven_is_where_the_lease_matches_the_api():
    u = cost.breakeven_utilization(hourly_usd=80, tokens_per_s=3607.5, api_usd_per_million=15)
    at_breakeven = cost.usd_per_million_output_tokens(
        hourly_usd=80, tokens_per_s=3607.5, utilization=u
    )
    assert at_breakeven == pytest.approx(15)
    assert u == pytest.approx(6.16 / 15, rel=1e-3)


def test_an_estimate_with_an_api_price_reports_breakeven(ask):
    e = ask(
        model="kimi-k3",
        gpu="gb300",  # the write-up's deployment, as measured
        gpus=16,
        concurrency=64,
        price_per_gpu_hour=5,
        as_of="2026-10-17",
        api_price_per_million_output=15,
        term_months=36,
    )
    assert e.breakeven_utilization == pytest.approx(6.16 / 15, rel=1e-3)
    assert e.contract_usd == pytest.approx(80 * 730 * 36)
    # the same 3,607.5 tokens/s for a 730-hour month, at the API's $15/M
    assert e.api_usd_per_month == pytest.approx(3607.5 * 3600 * 730 * 15 / 1e6, rel=1e-4)
