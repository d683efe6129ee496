"""``leasewise size`` and ``leasewise frontier``, driven in-process as a user or a program would.

The option fields of ``size --json`` are a public contract (DESIGN.md, "Interfaces
that other programs rely on": Traffic and each option). The traffic is DESIGN.md's
opening example: about 2 B output tokens a day of Kimi K3, peaks 3x the average,
users want 30 tokens/s.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.render import formats
from core.caveats import rank_caveats
from core.frontier import DEFAULT_BATCHES

OPTION_FIELDS = {
    "gpu",
    "gpus",
    "replicas",
    "concurrency",
    "per_user_tokens_per_s",
    "peak_utilization",
    "average_utilization",
    "usd_per_month",
    "usd_per_million_output_tokens",
    "basis",
    "months_of_headroom",
}

K3 = ["--model", "kimi-k3"]
DESIGN_TRAFFIC = [
    *K3,
    *("--output-tokens-per-day", "2e9", "--peak-to-average", "3"),
    *("--min-per-user-tokens-per-s", "30", "--monthly-growth", "0.1"),
]
DESIGN_TRAFFIC_JSON = {
    "model": "kimi-k3",
    "output_tokens_per_day": 2e9,
    "peak_to_average": 3,
    "min_per_user_tokens_per_s": 30,
    "monthly_growth": 0.1,
}
VOLUME = ["--output-tokens-per-day", "2e9"]

BAD_TRAFFIC = {
    "no volume": ([*K3, "--peak-to-average", "3"], "output_tokens_per_day"),
    "contradictory volume": (
        [*K3, "--requests-per-day", "1000", "--output-tokens", "500"]
        + ["--output-tokens-per-day", "9e9"],
        "output_tokens_per_day",
    ),
    "requests without tokens per request": ([*K3, "--requests-per-day", "1000"], "output_tokens"),
    "requests per day and per hour": (
        [*K3, "--requests-per-day", "1000", "--requests-per-hour", "40", "--output-tokens", "500"],
        "requests_per_day",
    ),
    "ttft without input tokens": ([*K3, *VOLUME, "--max-ttft-s", "1"], "max_ttft_s"),
    "unknown gpu": ([*K3, *VOLUME, "--gpu", "b300", "--gpu", "h300"], "gpus"),
    "peak below the average": ([*K3, *VOLUME, "--peak-to-average", "0.5"], "peak_to_average"),
    "price without a gpu": ([*K3, *VOLUME, "--price", "5"], "prices"),
    "negative price": ([*K3, *VOLUME, "--price", "b300=-1"], "prices.b300"),
    "term not in the price book": ([*K3, *VOLUME, "--term-months", "6"], "term_months"),
    "top of zero": ([*K3, *VOLUME, "--top", "0"], "top"),
}


def parse(stdout: str) -> Any:
    return json.loads(stdout)


OPTION_LINE = re.compile(
    r"^(?P<rank>\d+)\. (?P<gpus>[\d,]+)x (?P<gpu>\S+) \((?P<replicas>[\d,]+) x (?P<per>\d+)\), "
    r"(?P<stack>[^,]+), batch [\d,]+, [\d.,]+ tok/s per user: (?P<monthly>\$[\d,.]+)/month "
    r"at (?P<price>\$[\d.]+)/GPU-hour \((?P<price_source>[^)]+)\), "
    r".*, headroom (?P<headroom>[^ ,]+)"
)


def option_lines(stdout: str) -> list[dict[str, str]]:
    """The ranked options of ``size``'s text (the lines Slack's sizing text has)."""
    return [m.groupdict() for line in stdout.splitlines() if (m := OPTION_LINE.match(line))]


def table_rows(stdout: str) -> list[list[str]]:
    """The body rows of the first aligned table in ``stdout`` (after its header line)."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("batch "))
    rows = []
    for line in lines[start + 1 :]:
        if not line[:1].isspace() and not line[:1].isdigit():
            break
        rows.append(line.split())
    return rows


def dollars(cell: str) -> float:
    return float(cell.lstrip("+$").replace(",", ""))


@pytest.fixture
def design_sizing(run) -> dict[str, Any]:
    result = run("size", "--json", *DESIGN_TRAFFIC)
    assert result.exit_code == 0, result.output
    return parse(result.stdout)


# --- size: for people ------------------------------------------------------------------------


def test_size_prints_the_options_ranked_cheapest_first_and_the_api_verdict(run, design_sizing):
    result = run("size", *DESIGN_TRAFFIC, wide=True)
    assert result.exit_code == 0, result.output
    options = option_lines(result.stdout)
    shown_ranks = [str(rank) for rank in range(1, min(5, len(design_sizing["options"])) + 1)]
    assert len(shown_ranks) > 2
    assert [o["rank"] for o in options] == shown_ranks
    monthly = [dollars(o["monthly"]) for o in options]
    assert monthly == sorted(monthly)
    best, shown = design_sizing["options"][0], options[0]
    assert (shown["replicas"], shown["per"], shown["gpu"], shown["stack"]) == (
        str(best["replicas"]),
        str(best["gpus_per_replica"]),
        best["gpu"].upper(),
        best["stack"],
    )
    assert shown["monthly"] == formats.usd(best["usd_per_month"])
    assert design_sizing["api"]["verdict"] in result.stdout


def test_size_header_gives_the_resolved_volume_peak_and_sla(run, design_sizing):
    out = run("size", *DESIGN_TRAFFIC, wide=True).stdout
    header = out.splitlines()[0]
    assert f"{formats.tokens(design_sizing['requests_per_day'])} requests/day" in header
    volume = formats.tokens(design_sizing["output_tokens_per_day"])
    assert f"{volume} output tokens a day, reasoning included as the API bills it" in header
    assert f"peak {formats.tok_s(design_sizing['peak_output_tokens_per_s'])}" in header
    assert f"at least {formats.tok_s(30)} per user" in header


def test_size_sizes_2b_output_tokens_a_day_as_2b_decoded_tokens_a_day(run):
    """Issue 13: the stated volume is billed output, Kimi K3's thinking included; no
    assumed reasoning is added on top of it (it was sized as 10 B)."""
    flags = [*K3, *VOLUME, "--min-per-user-tokens-per-s", "30"]
    sizing = json.loads(run("size", "--json", *flags).stdout)
    assert sizing["output_tokens_per_day"] == pytest.approx(2e9)
    assert sizing["peak_output_tokens_per_s"] == pytest.approx(2e9 / 86_400)
    out = run("size", *flags, wide=True).stdout
    reading = (
        "2B output tokens a day, reasoning included as the API bills it (Kimi K3 always thinks)"
    )
    assert out.splitlines()[0].startswith(f"Sizing Kimi K3: {reading} — ")
    assert out.count("reasoning included as the API bills it") == 1
    assert "reasoning tokens per request" not in out


def test_size_reads_visible_and_reasoning_tokens_given_apart_as_their_sum(run):
    flags = [*K3, "--requests-per-day", "100000", "--output-tokens", "500"]
    sizing = json.loads(run("size", "--json", *flags, "--reasoning-tokens", "2000").stdout)
    assert sizing["output_tokens_per_request"] == 2500
    assert sizing["output_tokens_per_day"] == pytest.approx(2.5e8)
    out = run("size", *flags, "--reasoning-tokens", "2000", wide=True).stdout
    assert "250M output tokens a day, reasoning included as the API bills it" in out
    assert "x 2,500 tokens (500 visible + 2,000 reasoning)" in out


def test_estimate_says_the_output_reading_once(run):
    flags = ["--model", "kimi-k3", "--gpu", "b300", "--gpus", "16", "--output-tokens", "400"]
    out = run("estimate", *flags, wide=True).stdout
    assert out.count("reasoning included as the API bills it") == 1
    assert "400 output tokens a request, reasoning included as the API bills it" in out


def test_size_says_why_each_option_after_the_cheapest_loses(run, design_sizing):
    out = run("size", *DESIGN_TRAFFIC, wide=True).stdout
    for rank, option in enumerate(design_sizing["options"][1:5], 2):
        line = next(line for line in out.splitlines() if line.startswith(f"{rank}. "))
        assert line.endswith(f"; {option['why_not']}")


def test_size_shows_headroom_with_growth_and_infinity_without(run):
    with_growth = option_lines(run("size", *DESIGN_TRAFFIC, wide=True).stdout)
    flat = option_lines(run("size", *K3, *VOLUME, wide=True).stdout)
    assert with_growth and flat
    assert all(float(o["headroom"]) > 0 for o in with_growth)
    assert all(o["headroom"] == "∞" for o in flat)


def test_size_lists_the_assumptions_and_the_caveats_of_the_cheapest(run, design_sizing):
    out = run("size", *DESIGN_TRAFFIC, wide=True).stdout
    """Three caveats under the answer, the rest (each said once) in the thread part."""
    assumed = out.split("\nAssumed\n", 1)[1]
    assert "2,500 output tokens per request: 500 visible and 2,000 reasoning" in assumed
    caveats = out.split("Caveats of option 1:", 1)[1]
    given = design_sizing["options"][0]["caveats"]
    assert len([c for c in given if c in caveats]) == len(rank_caveats(given))


def test_size_lists_every_rejected_size_after_the_answer_as_the_console_does(run):
    sizing = json.loads(run("size", "--json", *DESIGN_TRAFFIC).stdout)
    out = run("size", *DESIGN_TRAFFIC).stdout
    rejected = out.split(f"Rejected sizes ({len(sizing['rejected'])})", 1)[1]
    assert sizing["rejected"] and all(r["detail"] in rejected for r in sizing["rejected"])


# --- size: the JSON contract -----------------------------------------------------------------


def test_size_json_options_carry_every_design_md_field(design_sizing):
    assert design_sizing["options"]
    for option in design_sizing["options"]:
        assert option.keys() >= OPTION_FIELDS
    assert design_sizing["options"][0]["cheapest"] is True


def test_size_json_prints_every_option_unless_top_is_given(run, design_sizing):
    assert len(design_sizing["options"]) > 2
    limited = parse(run("size", "--json", "--top", "2", *DESIGN_TRAFFIC).stdout)
    assert limited["options"] == design_sizing["options"][:2]


def test_size_top_2_prints_two_rows(run):
    result = run("size", "--top", "2", *DESIGN_TRAFFIC, wide=True)
    assert result.exit_code == 0, result.output
    assert [o["rank"] for o in option_lines(result.stdout)] == ["1", "2"]


def test_size_reads_traffic_json_from_stdin_and_from_a_file_as_the_flags_give_it(
    run, scenario_file, design_sizing
):
    from_stdin = run("size", "--json", input=json.dumps(DESIGN_TRAFFIC_JSON))
    from_dash = run("size", "--json", "--file", "-", input=json.dumps(DESIGN_TRAFFIC_JSON))
    from_file = run("size", "--json", "--file", str(scenario_file(DESIGN_TRAFFIC_JSON)))
    for result in (from_stdin, from_dash, from_file):
        assert result.exit_code == 0, result.output
        assert parse(result.stdout) == design_sizing


def test_size_flags_override_the_traffic_file(run, scenario_file):
    path = scenario_file({**DESIGN_TRAFFIC_JSON, "gpus": ["h200"], "peak_to_average": 9})
    result = run("size", "--json", "--file", str(path), "--gpu", "b300", "--peak-to-average", "2")
    sizing = parse(result.stdout)
    assert {o["gpu"] for o in sizing["options"]} == {"b300"}
    assert sizing["peak_output_tokens_per_s"] == pytest.approx(
        2 * sizing["output_tokens_per_day"] / 86400
    )


def test_size_uses_the_prices_given_per_gpu(run):
    args = [
        *K3,
        *VOLUME,
        "--gpu",
        "b300",
        "--gpu",
        "h200",
        "--price",
        "b300=4",
        "--price",
        "h200=2",
    ]
    sizing = parse(run("size", "--json", *args).stdout)
    prices = {o["gpu"]: o["price_per_gpu_hour"] for o in sizing["options"]}
    assert prices == {"b300": 4, "h200": 2}


# --- size: an ask nothing meets is an answer -------------------------------------------------


def test_an_ask_no_gpu_meets_names_the_binding_constraint_and_the_nearest_ask(run):
    result = run("size", *K3, *VOLUME, "--min-per-user-tokens-per-s", "5000", wide=True)
    assert result.exit_code == 0, result.output
    assert "Binding constraint: per-user speed" in result.stdout
    assert "Nearest ask that works: min_per_user_tokens_per_s=" in result.stdout


def test_an_ask_no_gpu_meets_is_an_infeasible_sizing_in_json(run):
    result = run("size", "--json", *K3, *VOLUME, "--min-per-user-tokens-per-s", "5000")
    assert result.exit_code == 0, result.output
    sizing = parse(result.stdout)
    assert sizing["options"] == [] and sizing["api"] is None
    assert sizing["infeasible"]["binding_constraint"] == "per_user_speed"
    assert sizing["infeasible"]["nearest_feasible_ask"].startswith("min_per_user_tokens_per_s=")


def test_the_nearest_speed_ask_is_met_by_some_option_at_a_volume_one_replica_carries(run):
    small = ["--output-tokens-per-day", "2e6"]
    first = parse(run("size", "--json", *K3, *small, "--min-per-user-tokens-per-s", "5000").stdout)
    nearest = first["infeasible"]["nearest_feasible_ask"]
    speed = nearest.removeprefix("min_per_user_tokens_per_s=")
    again = parse(run("size", "--json", *K3, *small, "--min-per-user-tokens-per-s", speed).stdout)
    assert again["options"], nearest
    assert min(o["per_user_tokens_per_s"] for o in again["options"]) >= float(speed)


# --- size: bad input exits 2 naming the field -------------------------------------------------


@pytest.mark.parametrize(("args", "field"), BAD_TRAFFIC.values(), ids=BAD_TRAFFIC)
def test_bad_traffic_with_json_exits_2_with_one_error_object_naming_the_field(run, args, field):
    result = run("size", "--json", *args)
    assert result.exit_code == 2, result.output
    error = parse(result.stdout)
    assert error.keys() == {"error", "field", "hint"}
    assert error["field"] == field and error["error"] and error["hint"]


@pytest.mark.parametrize(("args", "field"), BAD_TRAFFIC.values(), ids=BAD_TRAFFIC)
def test_bad_traffic_without_json_exits_2_with_one_friendly_line(run, args, field):
    result = run("size", *args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output


def test_a_misspelt_traffic_field_is_named_with_the_traffic_field_it_meant(run):
    result = run("size", "--json", input='{"model": "kimi-k3", "output_tokens_per_dy": 2e9}')
    assert result.exit_code == 2
    error = parse(result.stdout)
    assert error["field"] == "output_tokens_per_dy"
    assert error["hint"].startswith("did you mean output_tokens_per_day?")


def test_size_with_nothing_given_asks_for_traffic(run):
    result = run("size", "--json", input="")
    assert result.exit_code == 2
    assert parse(result.stdout)["field"] == "model"


# --- frontier --------------------------------------------------------------------------------

DEPLOYMENT = ["--model", "kimi-k3", "--gpu", "gb300", "--gpus", "16", "--as-of", "2026-10-17"]
"""The write-up's deployment, as measured: 16 GB300s in one NVLink domain."""


def test_frontier_prints_one_row_per_batch(run):
    result = run("frontier", *DEPLOYMENT, wide=True)
    assert result.exit_code == 0, result.output
    rows = table_rows(result.stdout)
    assert [int(r[0].replace(",", "")) for r in rows] == list(DEFAULT_BATCHES)
    assert "16x gb300" in result.stdout


def test_frontier_json_trades_per_user_speed_for_tokens_per_gpu(run):
    result = run("frontier", "--json", *DEPLOYMENT)
    assert result.exit_code == 0, result.output
    points = parse(result.stdout)
    assert [p["concurrency"] for p in points] == list(DEFAULT_BATCHES)
    speeds = [p["per_user_tokens_per_s"] for p in points]
    assert all(a >= b for a, b in zip(speeds, speeds[1:], strict=False))
    per_gpu = [p["output_tokens_per_s_per_gpu"] for p in points]
    assert per_gpu[-1] > per_gpu[0]


def test_frontier_reproduces_the_write_ups_measured_batch_64(run):
    """vLLM's decode path, 16 GPUs, batch 64: $80/hour at $6.16 per M -> 3,607.5 tokens/s."""
    points = parse(run("frontier", "--json", *DEPLOYMENT, "--batch", "64").stdout)
    assert len(points) == 1
    assert points[0]["basis"] == "measured"
    assert points[0]["output_tokens_per_s"] == pytest.approx(3607.5, abs=0.1)


@pytest.mark.parametrize("batch", [1, 64])
def test_frontier_gives_each_batch_the_answer_an_estimate_gives_there(run, batch):
    """Batch 1 was measured with speculative decoding (acceptance 3.84): the frontier's
    row is the 842 tok/s the estimate says, not a figure without speculation."""
    points = parse(run("frontier", "--json", *DEPLOYMENT, "--batch", str(batch)).stdout)
    said = parse(run("estimate", "--json", *DEPLOYMENT, "--concurrency", str(batch)).stdout)
    assert points[0]["output_tokens_per_s"] == pytest.approx(said["output_tokens_per_s"], rel=1e-4)
    assert points[0]["spec_decode_acceptance"] == said["spec_decode_acceptance"]
    assert points[0]["basis"] == said["basis"]


def test_frontier_says_which_batches_assume_speculative_decoding(run):
    result = run("frontier", *DEPLOYMENT, "--batch", "1", "--batch", "64", wide=True)
    assert "3.84 at batch 1" in result.stdout


def test_frontier_holds_an_asked_acceptance_at_every_batch(run):
    points = parse(run("frontier", "--json", *DEPLOYMENT, "--spec-decode-acceptance", "1").stdout)
    assert {p["spec_decode_acceptance"] for p in points} == {1.0}


def test_frontier_without_a_model_exits_2_naming_it(run):
    result = run("frontier", "--json", "--gpu", "b300", input="")
    assert result.exit_code == 2
    assert parse(result.stdout)["field"] == "model"
