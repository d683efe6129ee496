"""A volume broken down under a header, or said as several averages: the parts add up."""

from __future__ import annotations

import pytest

from core.catalog import Catalog
from core.parse import parse
from core.parse.breakdowns import breakdown


def test_parts_one_a_line_under_a_header_with_a_unit_are_summed(catalog: Catalog) -> None:
    got = parse("Load by region (avg req/s):\nNA 50\nEMEA 30\nAPJ 20\n"
                "All on Qwen3-32B, 1k in / 200 out", catalog)
    assert got.fields["requests_per_day"] == 100 * 86_400
    assert "NA 50 + EMEA 30 + APJ 20" in " ".join(got.understood)


def test_parts_on_one_line_and_output_tokens_per_hour(catalog: Catalog) -> None:
    got = parse("Output tokens/hour by team:\nsearch 6M · support 3M · code 1M\n"
                "Model: Llama 3.1 8B", catalog).fields
    assert got["output_tokens_per_day"] == pytest.approx(10e6 * 24)


def test_a_header_without_a_unit_sums_nothing() -> None:
    assert breakdown("Traffic by region:\nUS 60\nEU 25\n") is None


def test_averages_of_several_regions_add_up(catalog: Catalog) -> None:
    got = parse("three regions: us 90 rps avg, eu 60 rps avg, apac 30 rps avg; "
                "Llama 3.1 70B", catalog).fields
    assert got["requests_per_day"] == 180 * 86_400


def test_a_rate_that_runs_some_hours_a_night_is_that_many_hours_of_it(catalog: Catalog) -> None:
    got = parse("the batch job runs 8h per night at ~6,000 requests/minute, nothing outside "
                "that window. Llama 3.1 8B", catalog).fields
    assert got["requests_per_day"] == 6_000 * 60 * 8
    assert got["peak_to_average"] == pytest.approx(3.0)


def test_busy_hours_in_a_product_are_counted_once_and_are_no_utilization(
    catalog: Catalog,
) -> None:
    got = parse("100 tickets/hour per store × 20 stores, about 10 busy hours a day. Qwen3-32B",
                catalog).fields
    assert got["requests_per_day"] == 100 * 20 * 10
    assert "planned_utilization" not in got


def test_parts_listed_after_a_rate_add_up_when_said_together(catalog: Catalog) -> None:
    got = parse("Four tenants: tenant A 120k req/day, B 60k, C 20k. Llama 3.1 8B, 800 in / 100 "
                "out. Size the combined load on H100.", catalog).fields
    assert got["requests_per_day"] == 200_000
    assert got["gpu"] == "h100-sxm"  # "A 120k" is no A100
    alone = parse("tenant A 120k req/day, avg 1,800 in / 300 out. Llama 3.1 8B", catalog).fields
    assert alone["requests_per_day"] == 120_000
