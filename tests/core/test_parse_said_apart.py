"""What a message says in two places is read together: the members and each one's rate,
the nodes and the GPUs of one node, a batch per replica and the replicas, a peak and the
average said after it (issue 14)."""

from __future__ import annotations

import pytest

from core.catalog import Catalog
from core.parse import parse


def test_each_members_rate_is_multiplied_by_the_members(catalog: Catalog) -> None:
    parsed = parse("120 bots online, each sends one request every 10 seconds. "
                   "2k in, 200 out, Llama 3.1 8B", catalog)
    assert parsed.fields["requests_per_day"] == pytest.approx(120 * 8640)
    assert any("each one's" in u for u in parsed.understood)


def test_the_members_are_found_past_a_figure_that_counts_nothing(catalog: Catalog) -> None:
    got = parse("40 agents running 24/7, each makes one call every 30 seconds; Qwen3-32B, "
                "1k in / 100 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(40 * 2880)


def test_nodes_said_apart_from_the_gpus_of_one_node_are_counted(catalog: Catalog) -> None:
    parsed = parse("$24,000 per node per month for B200 (8 GPUs/node), 24-month term, "
                   "3 nodes. gpt-oss-120b", catalog)
    assert (parsed.kind, parsed.fields["gpus"]) == ("scenario", 24)
    assert parsed.fields["price_per_gpu_hour"] == pytest.approx(24_000 / 8 / 730)


def test_a_batch_per_replica_is_multiplied_by_the_replicas_said(catalog: Catalog) -> None:
    got = parse("16x H200, two HGX nodes, TP8 per replica, so 2 replicas. Batch 32 per "
                "replica, Llama 3.1 70B", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (16, 64)


def test_a_deployment_priced_at_peak_concurrency_takes_the_peak(catalog: Catalog) -> None:
    got = parse("DeepSeek V3 on 8x B200: average concurrency ~30, peak 90. Price it at peak "
                "concurrency please.", catalog).fields
    assert got["concurrency"] == 90


@pytest.mark.parametrize(
    "said",
    ["sends about 1,200 tokens and gets back ~200", "sends ~1,200 tokens, gets back 200"],
)
def test_what_a_call_sends_is_its_input_and_what_it_gets_back_its_output(
    catalog: Catalog, said: str
) -> None:
    got = parse(f"50k calls a day on Qwen3-32B. Each call {said}.", catalog).fields
    assert (got["input_tokens"], got["output_tokens"]) == (1200, 200)


def test_i_mean_corrects_and_averages_nothing(catalog: Catalog) -> None:
    parsed = parse("llama 3.1 8b, 30 rps, 1k in 100 out.\nsorry, I mean 30 rps at peak, the "
                   "average is more like 12.", catalog)
    assert parsed.fields["requests_per_day"] == pytest.approx(12 * 86400)
    assert parsed.fields["peak_to_average"] == pytest.approx(2.5)
    assert any(u.startswith("1.04M requests/day on average") for u in parsed.understood)


def test_an_average_like_half_the_peak_gives_the_ratio(catalog: Catalog) -> None:
    got = parse("gpt-oss-120b, 60 rps at peak, avg is like half that. 2k in 300 out",
                catalog).fields
    assert (got["peak_to_average"], got["requests_per_day"]) == (2, pytest.approx(30 * 86400))


def test_a_population_per_hour_times_its_steps_is_a_day_of_requests(catalog: Catalog) -> None:
    got = parse("Batch pipeline: 500 jobs per hour all day, each job is ~8 steps and every "
                "step is one model call; 2k in / 300 out, Qwen3-32B", catalog).fields
    assert got["requests_per_day"] == pytest.approx(500 * 24 * 8)


def test_a_plural_acronym_is_a_population(catalog: Catalog) -> None:
    got = parse("about 700 RFPs per week, each RFP gets split into 10 sections and each "
                "section is one call; 4k in, 500 out, Llama 3.1 70B", catalog).fields
    assert got["requests_per_day"] == pytest.approx(700 * 10 / 7)


def test_the_minutes_of_a_call_are_no_factor_of_its_volume(catalog: Catalog) -> None:
    got = parse("Voice line: 300 calls/hour, 4 min per call, 20 turns per call. "
                "gpt-oss-120b, 2k in, 60 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(300 * 24 * 20)


def test_a_busy_hour_beside_the_daily_total_gives_the_ratio(catalog: Catalog) -> None:
    got = parse("Busy hour for Acme is ~50k requests, daily total is ~800k. Llama 3.1 8B, "
                "1k in / 200 out", catalog).fields
    assert got["requests_per_day"] == 800_000
    assert got["peak_to_average"] == pytest.approx(50_000 * 24 / 800_000)


def test_a_peak_hour_volume_line_is_the_peak_of_the_daily_total(catalog: Catalog) -> None:
    got = parse("Peak hour volume: 20,000 requests.\nDaily total: 240,000 requests.\n"
                "Model: Qwen3-32B", catalog).fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (240_000, pytest.approx(2.0))


def test_nodes_said_before_their_gpus_a_node_are_counted(catalog: Catalog) -> None:
    got = parse("Acme: 3 nodes of b200 (8/node) serving gpt-oss-120b, 32 concurrent users - "
                "throughput?", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (24, 32)


def test_a_correction_of_a_figure_said_earlier_leaves_the_one_beside_it(
    catalog: Catalog,
) -> None:
    got = parse("Qwen3-32B, 2.1M calls/day, in 800 out 200.\n\noh wait - 2.1M is per WEEK "
                "not per day", catalog).fields
    assert (got["requests_per_day"], got["output_tokens"]) == (pytest.approx(300_000), 200)


@pytest.mark.parametrize(
    "text",
    [
        "Qwen3-235B in bf16, they won't accept fp8, 2k in / 400 out",
        "Qwen3-235B, bf16 please, no fp8",
        "Qwen3-235B in bf16; fp8 is rejected by their evals",
        "Qwen3-235B, bf16, not fp8",
        "Qwen3-235B in bf16 (they don't want fp8 accuracy risk)",
    ],
)
def test_a_refused_precision_is_no_choice(catalog: Catalog, text: str) -> None:
    parsed = parse(text, catalog)
    assert parsed.fields["precision"] == "bf16"
    assert any("fp8 ruled out" in a for a in parsed.ambiguities)


def test_a_refused_gpu_is_no_choice(catalog: Catalog) -> None:
    assert parse("Llama 3.1 70B on B200, no H100s, 1M req/day", catalog).fields["gpu"] == "b200"


def test_the_option_picked_by_its_letter_is_the_one_read(catalog: Catalog) -> None:
    got = parse("Option A: H200 at $3.10/GPU-hr on 12 mo.\nOption B: B300 at $4.20/GPU-hr "
                "on 36 mo.\nThey picked B. 1M req/day, Qwen3-32B", catalog).fields
    assert (got["gpu"], got["price_per_gpu_hour"], got["term_months"]) == ("b300", 4.2, 36)


def test_the_discount_said_with_the_term_taken_is_applied(catalog: Catalog) -> None:
    got = parse("List on H200 is $3.00/GPU-hr. We offered 5% off for 12 months or 20% off for "
                "36. They took the 36-month option. 16 GPUs, Llama 3.1 70B", catalog).fields
    assert (got["term_months"], got["price_per_gpu_hour"]) == (36, pytest.approx(2.40))


@pytest.mark.parametrize(
    "text",
    ["Quote from the 2026-03-01 rate card: 8x H200, Llama 3.1 70B, batch 32",
     "graag een offerte, prijslijst geldig op 01.03.2026: 8x H200, Llama 3.1 70B, batch 32"],
)
def test_a_rate_cards_date_is_the_as_of_date(catalog: Catalog, text: str) -> None:
    assert str(parse(text, catalog).fields["as_of"]) == "2026-03-01"


def test_members_at_a_rate_each_count_in_a_sum(catalog: Catalog) -> None:
    parsed = parse("4 tenants at ~50k req/day each, plus an eval job doing 30k/day. Qwen3-32B, "
                   "1k in / 200 out", catalog)
    assert parsed.fields["requests_per_day"] == 230_000
    assert any("4 × 50k + 30k" in u for u in parsed.understood)


def test_each_of_the_members_at_a_rate(catalog: Catalog) -> None:
    got = parse("Each of the 25 stores generates about 300 requests per hour, around the clock. "
                "Llama 3.1 8B, 500 in / 80 out", catalog).fields
    assert got["requests_per_day"] == 25 * 300 * 24


def test_each_session_making_calls_multiplies(catalog: Catalog) -> None:
    got = parse("about 1,500 agent sessions a day, each session making roughly 20 LLM calls; "
                "4k in / 300 out, GLM-5", catalog).fields
    assert got["requests_per_day"] == 30_000


def test_a_members_calls_said_as_a_sum_are_added(catalog: Catalog) -> None:
    got = parse("2,000 jobs/day; each job = 1 plan call + 4 tool calls + 1 review call. "
                "3k in / 200 out, Kimi K2", catalog).fields
    assert got["requests_per_day"] == 12_000


@pytest.mark.parametrize(
    ("steps", "calls"),
    [("2 retrieval calls + 3 tool calls + 1 final answer", 6), ("1 plan call + 1 summary", 2)],
)
def test_a_last_step_said_without_call_is_one_of_the_calls(
    catalog: Catalog, steps: str, calls: int
) -> None:
    got = parse(f"5,000 sessions/day; each session = {steps}. 2k in / 300 out, GLM-5",
                catalog).fields
    assert got["requests_per_day"] == 5_000 * calls


def test_a_bare_rate_over_the_same_time_as_the_volume_is_that_volume(catalog: Catalog) -> None:
    got = parse("GLM-5, 900 req/min, 1k in, 200 out. no wait, 900/min is the peak — average "
                "is ~300/min.", catalog).fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (300 * 1440, pytest.approx(3))


@pytest.mark.parametrize(
    "text", ["Qwen3-32B. In 1.500 tokens, out 250 tokens.", "Qwen3-32B, in 1500 tokens and out 250"]
)
def test_in_then_out_with_tokens_between_is_a_pair(catalog: Catalog, text: str) -> None:
    got = parse(text, catalog).fields
    assert (got["input_tokens"], got["output_tokens"]) == (1500, 250)


def test_members_each_generating_a_volume_multiply(catalog: Catalog) -> None:
    got = parse("30 tenants, each generating ~2M output tokens/day. GLM-5 on B200",
                catalog).fields
    assert got["output_tokens_per_day"] == 60_000_000


def test_a_gpu_said_not_possible_is_no_choice(catalog: Catalog) -> None:
    got = parse("GLM-5, 1M req/day. H100 is not possible for them, we need B200.", catalog).fields
    assert got["gpu"] == "b200"


def test_a_corrected_node_price_explained_away_after_its_unit(catalog: Catalog) -> None:
    got = parse("8x H200 node for Qwen3-32B, batch 64: $30/hr for the node. Actually $28/hr — "
                "the $30 was last quarter's rate.", catalog).fields
    assert got["price_per_gpu_hour"] == pytest.approx(28 / 8)


def test_on_demand_said_as_the_alternative_leaves_the_term_taken(catalog: Catalog) -> None:
    got = parse("Reserved: $30,660 per GPU per year on a 36-month commit (vs $4.20/hr on-demand "
                "— they won't do on-demand). GLM-5 on B200, 1M req/day", catalog).fields
    assert got["term_months"] == 36


def test_a_rate_per_hour_over_a_shift_runs_the_shifts_hours(catalog: Catalog) -> None:
    got = parse("Copilot on Qwen3-32B: 5,000 agents, each making about 30 LLM calls per hour "
                "over an 8-hour shift. 2k in / 300 out", catalog).fields
    assert got["requests_per_day"] == 5000 * 30 * 8


def test_members_each_sustaining_a_rate(catalog: Catalog) -> None:
    got = parse("GLM-5 on B200, 3 regions, each sustaining ~20 requests/sec around the clock. "
                "1k in / 200 out", catalog).fields
    assert got["requests_per_day"] == 3 * 20 * 86400


def test_weekdays_and_weekends_make_the_weeks_average_day(catalog: Catalog) -> None:
    got = parse("Qwen3-32B on H200: weekdays run ~700k requests a day, weekends ~350k a day. "
                "1k in / 200 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx((5 * 700_000 + 2 * 350_000) / 7)


def test_a_weekday_asked_for_is_sized(catalog: Catalog) -> None:
    got = parse("Size for a weekday: weekdays ~700k requests a day, weekends ~350k a day. "
                "Qwen3-32B, 1k in / 200 out", catalog).fields
    assert got["requests_per_day"] == 700_000


@pytest.mark.parametrize(
    "text",
    [
        "Kimi K3, 3M requests a day, peaking at 90 req/s, 600 out",
        "Kimi K3: 3M requests/day; the lunchtime peak is 90 req/s. 600 out",
        "Kimi K3 at 3M requests per day (peak 90 req/s), 600 out",
        "Kimi K3, 3M requests a day and spikes of 90 req/s, 600 out",
        "Kimi K3, 3M requests a day, spiking to 90 req/s at lunch, 600 out",
        "Kimi K3, 3M requests a day, bursting to 90 req/s at lunch, 600 out",
    ],
)
def test_a_peak_said_after_the_daily_volume_is_the_peak_of_it(
    text: str, catalog: Catalog
) -> None:
    got = parse(text, catalog).fields
    assert got["requests_per_day"] == pytest.approx(3_000_000)
    assert got["peak_to_average"] == pytest.approx(90 * 86400 / 3_000_000)


def test_a_config_priced_at_its_spike_takes_the_spike_batch(catalog: Catalog) -> None:
    got = parse("GLM-5 on 8x H200, batch 16 usually and batch 64 in bursts. Quote the burst "
                "setup at $2.80/GPU-hr", catalog).fields
    assert got["concurrency"] == 64


def test_a_multiple_after_peak_that_counts_gpus_is_no_ratio(catalog: Catalog) -> None:
    got = parse("Quote for peak: 24x H200, Llama 3.1 70B, 300 concurrent, $2.40/GPU-hr",
                catalog).fields
    assert (got["gpus"], got["concurrency"]) == (24, 300)
    assert "peak_to_average" not in got


@pytest.mark.parametrize(
    "text",
    [
        "Kimi K3: 2,000 requests an hour across 12 working hours, quiet otherwise. 400 out",
        "Kimi K3, everything arrives in 12 office hours: 2,000 requests/hour in that time. 400 out",
        "Kimi K3, open 7am to 7pm; 2,000 requests an hour during those hours. 400 out",
    ],
)
def test_an_hourly_rate_over_named_hours_runs_only_those_hours(
    text: str, catalog: Catalog
) -> None:
    got = parse(text, catalog).fields
    assert got["requests_per_day"] == pytest.approx(2000 * 12)
    assert got["peak_to_average"] == pytest.approx(2)


def test_a_days_volume_run_in_a_span_of_the_clock_peaks_at_its_share(catalog: Catalog) -> None:
    parsed = parse("Scoring job: 1.2M requests a night, squeezed into 10pm-4am, idle the rest "
                   "of the day. Llama 3.1 8B, 900 in, 20 out", catalog)
    assert parsed.fields["requests_per_day"] == pytest.approx(1.2e6)
    assert parsed.fields["peak_to_average"] == pytest.approx(24 / 6)
    assert "concurrency" not in parsed.fields


def test_a_batch_job_labelled_with_a_colon_is_no_batch_size(catalog: Catalog) -> None:
    got = parse("Weekly batch: 700k requests. gpt-oss-120b, 3k in, 200 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(100_000)
    assert "concurrency" not in got


@pytest.mark.parametrize(
    ("text", "per_gpu"),
    [
        ("3 nodes of 8x H200, gpt-oss-120b, batch 96, each node is $30/hr", 30 / 8),
        ("scenario: one 8x H200 node at $3.10/hr, Qwen3-32B, batch 32", 3.10),
    ],
)
def test_a_node_named_before_an_hourly_price_is_priced_per_node(
    text: str, per_gpu: float, catalog: Catalog
) -> None:
    assert parse(text, catalog).fields["price_per_gpu_hour"] == pytest.approx(per_gpu)


@pytest.mark.parametrize(
    "average",
    ["the average sits at roughly a quarter of that", "the average is one quarter of the peak",
     "the average is the quarter of this"],
)
def test_an_average_running_at_a_fraction_of_the_peak(average: str, catalog: Catalog) -> None:
    got = parse(f"GLM-5: peak is 8k requests per minute, and {average}. 700 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(8000 * 1440 / 4)
    assert got["peak_to_average"] == pytest.approx(4)


@pytest.mark.parametrize(
    "text",
    [
        "Monthly volume is 60M requests; the peak hour comes in at 2.5x the mean hourly rate.",
        "We do 60M requests a month, and the busiest hour runs at about 2.5x the mean.",
    ],
)
def test_the_peak_word_of_a_stated_ratio_leaves_the_volume_an_average(
    text: str, catalog: Catalog
) -> None:
    got = parse(f"{text} Qwen3-32B, 300 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(2e6)
    assert got["peak_to_average"] == pytest.approx(2.5)


def test_a_split_said_with_one_call_per_piece_multiplies(catalog: Catalog) -> None:
    got = parse("Archive job: 700k PDFs a week, each broken into 4 sections with one call per "
                "section. Llama 3.1 70B, 800 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(700_000 * 4 / 7)


def test_completions_said_with_directions_are_no_output_length(catalog: Catalog) -> None:
    got = parse("IDE plugin on Qwen3-32B, 250k requests a day. Completions are 3k in / 40 out.",
                catalog).fields
    assert (got["input_tokens"], got["output_tokens"]) == (3000, 40)


def test_a_rates_own_time_wins_over_the_hours_said_before_it(catalog: Catalog) -> None:
    got = parse("Runs 8 hours a day at roughly 25 requests/s and idles overnight. Qwen3-32B, "
                "1k in / 200 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(25 * 3600 * 8)


@pytest.mark.parametrize(
    ("text", "per_day", "ratio"),
    [
        ("Daily average is 800k requests; it bursts to 3x the average at 9am.", 800_000, 3),
        ("Lunch rush hits 6k req/min; the daily average is 2k req/min.", 2000 * 1440, 3),
        ("Busiest hour sees 60,000 requests; an average hour is 20,000.", 20_000 * 24, 3),
    ],
)
def test_an_average_and_its_peak_said_in_everyday_words(
    text: str, per_day: float, ratio: float, catalog: Catalog
) -> None:
    got = parse(f"{text} Qwen3-32B on H200, 300 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(per_day)
    assert got["peak_to_average"] == pytest.approx(ratio)


def test_a_latency_corrected_in_another_unit_takes_that_unit(catalog: Catalog) -> None:
    got = parse("Qwen3-32B, 50 rps, 300 out, TTFT under 2s — sorry, make it 600 ms.",
                catalog).fields
    assert got["max_ttft_s"] == pytest.approx(0.6)


@pytest.mark.parametrize(
    "members",
    ["20 teams × 8 concurrent sessions each", "20 teams with 8 concurrent streams apiece"],
)
def test_members_each_holding_a_concurrency_multiply(members: str, catalog: Catalog) -> None:
    got = parse(f"Scenario: 16x H200, Qwen3-32B, {members}, $3/GPU-hr", catalog).fields
    assert got["concurrency"] == 160


def test_a_burst_said_of_it_after_the_days_volume_is_its_peak(catalog: Catalog) -> None:
    got = parse("Qwen3-32B on H200: about 2M requests a day, but at 9am it spikes to 6k/min. "
                "300 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(2e6)
    assert got["peak_to_average"] == pytest.approx(6000 * 1440 / 2e6)


@pytest.mark.parametrize("opening", ["At peak they receive", "In the busiest hour we receive"])
def test_a_rate_received_at_the_peak_is_the_peak(opening: str, catalog: Catalog) -> None:
    got = parse(f"GLM-5 on H200. {opening} 4,000 requests per minute, and the peak is 2x the "
                "average. 300 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(4000 * 1440 / 2)


def test_a_ratio_with_its_own_peak_subject_leaves_the_rate_the_average(catalog: Catalog) -> None:
    got = parse("Our traffic is 3 million requests per month and at the peak hour it is 3 "
                "times the average. Qwen3-32B, 200 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(100_000)
    assert got["peak_to_average"] == pytest.approx(3)


def test_a_rate_at_peak_with_a_ratio_naming_itself_is_divided(catalog: Catalog) -> None:
    got = parse("Qwen3-32B, 90 req/s at peak with a 3:1 peak-to-average, 700 in / 150 out",
                catalog).fields
    assert got["requests_per_day"] == pytest.approx(90 * 86400 / 3)
    assert got["peak_to_average"] == pytest.approx(3)


def test_a_range_with_its_stated_average_reads_the_average(catalog: Catalog) -> None:
    got = parse("Usually 20–30 req/s, averaging 24 across the day, with bursts to 96. GLM-5, "
                "300 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(24 * 86400)
    assert got["peak_to_average"] == pytest.approx(4)


def test_a_figure_said_as_an_addition_and_not_summed_is_named_with_the_volume(
    catalog: Catalog,
) -> None:
    parsed = parse("Llama 3.1 70B does 2M requests a day for support; the billing bot is "
                   "another 400k. 900 in, 150 out.", catalog)
    named = [a for a in parsed.ambiguities if "another 400k" in a]
    assert parsed.fields["requests_per_day"] == 2_000_000 and named
    assert "2M requests per day" in named[0]


def test_a_share_said_on_top_and_not_applied_is_named(catalog: Catalog) -> None:
    parsed = parse("Qwen3-32B: 80M output tokens a day from the app. The beta group "
                   "reruns 15% of those again overnight.", catalog)
    assert any("15% of those again" in a for a in parsed.ambiguities)


def test_a_time_or_a_share_of_capacity_beside_an_adding_word_is_no_addition(
    catalog: Catalog,
) -> None:
    parsed = parse("DeepSeek V3, 3M requests a day, 1k in, 300 out. They'd add 12 more "
                   "months at the same rate, and also want $/M at 50% utilization.", catalog)
    assert not any("adds to it" in a for a in parsed.ambiguities)


def test_a_multiple_left_for_later_says_the_volume_sized_today(catalog: Catalog) -> None:
    parsed = parse("gpt-oss-120b at 300k req/day now; next year it's 3x that.", catalog)
    assert any("today's 300k requests per day" in a for a in parsed.ambiguities)


def test_a_second_figure_of_the_things_the_volume_counts_is_named(catalog: Catalog) -> None:
    parsed = parse("Llama 3.1 8B: 3M new tickets a month, one call each; the 500k reopened "
                   "tickets get a second call. 700 in / 200 out.", catalog)
    assert parsed.fields["requests_per_day"] == 100_000
    assert any("the 500k reopened tickets" in a for a in parsed.ambiguities)


def test_documents_read_a_few_pages_a_call_are_that_many_calls_of_those_pages(
    catalog: Catalog,
) -> None:
    got = parse("Claims intake: 9,000 files a week, 30 pages each at about 400 tokens a "
                "page; we send 10 pages per LLM call and get 250 tokens back. Llama 3.1 70B",
                catalog).fields
    assert got["input_tokens"] == 4_000
    assert got["requests_per_day"] == pytest.approx(9_000 / 7 * 3)


def test_a_burst_after_but_it_is_the_peak_of_the_daily_volume_before(catalog: Catalog) -> None:
    got = parse("Qwen3-32B: 1.73M req/day but it bursts to 60 rps around 9am. 800 in, "
                "120 out, on L40S", catalog).fields
    assert got["requests_per_day"] == 1_730_000
    assert got["peak_to_average"] == pytest.approx(60 * 86400 / 1.73e6)


def test_a_growth_rate_after_a_monthly_volume_is_no_share_of_it(catalog: Catalog) -> None:
    got = parse("We answer about 90,000 questions a month and expect 5% month-over-month "
                "growth. Llama 3.1 70B, 2k in, 300 out", catalog).fields
    assert (got["requests_per_day"], got["monthly_growth"]) == (3_000, 0.05)


def test_a_multiple_before_a_node_of_gpus_counts_the_nodes(catalog: Catalog) -> None:
    got = parse("Price 3 x 8-GPU H200 nodes for DeepSeek V3 FP8, batch 64, 24 months",
                catalog).fields
    assert (got["gpu"], got["gpus"]) == ("h200", 24)


def test_hours_said_as_a_factor_turn_a_rate_per_hour_into_a_day(catalog: Catalog) -> None:
    got = parse("500 analysts x 12 queries/hr x 6 working hrs. 800 in, 200 out, Qwen3-32B",
                catalog).fields
    assert got["requests_per_day"] == 500 * 12 * 6


def test_a_weekday_volume_with_nothing_on_weekends_is_sized_by_the_weeks_average_day(
    catalog: Catalog,
) -> None:
    told = parse("Qwen3-32B, 700k req/day, weekdays only. 800 in, 200 out", catalog)
    weekday = parse("Qwen3-32B, 700k req/day, weekdays only; size for a weekday. 800 in, 200 out",
                    catalog)
    assert told.fields["requests_per_day"] == pytest.approx(500_000)
    assert any("size for a weekday" in a for a in told.assumed)
    assert weekday.fields["requests_per_day"] == 700_000


def test_a_rate_per_hour_over_hours_said_per_day_with_a_slash_runs_those_hours(
    catalog: Catalog,
) -> None:
    got = parse("gpt-oss-120b: ~3,000 requests/hour in office hours (8 h/day), close to "
                "nothing otherwise. 1k in, 300 out", catalog).fields
    assert got["requests_per_day"] == 24_000 and got["peak_to_average"] == 3.0


def test_daily_active_members_of_any_kind_are_a_population(catalog: Catalog) -> None:
    got = parse("Qwen3-32B for a clinic app: 1,500 daily active patients, each sends about "
                "6 messages per day. 700 in, 200 out", catalog).fields
    assert got["requests_per_day"] == 9_000


def test_one_members_rate_with_nobody_counted_is_asked_not_sized(catalog: Catalog) -> None:
    parsed = parse("Llama 3.1 8B for a field-service app: every technician makes about 40 "
                   "requests per day. 500 in, 120 out", catalog)
    assert "requests_per_day" not in parsed.fields
    assert any("each technician's rate" in a for a in parsed.ambiguities)


@pytest.mark.parametrize(
    "ask", ["we're pricing it at the peak batch of 200", "price it at the 200-concurrent peak"]
)
def test_a_deployment_priced_at_its_peak_said_another_way_takes_the_peak(
    catalog: Catalog, ask: str
) -> None:
    got = parse(f"4x H200, Qwen3-32B FP8, $3.10/GPU-hour, 12 months. About 70 concurrent "
                f"on a normal day, 200 at peak; {ask}", catalog).fields
    assert got["concurrency"] == 200


@pytest.mark.parametrize(
    "said",
    [
        "evenings 8–11pm carry 50% of the day's traffic",
        "50% of the daily volume lands between 8 and 11pm",
    ],
)
def test_a_windows_share_of_the_day_gives_the_peak(catalog: Catalog, said: str) -> None:
    got = parse(f"Qwen3-32B, 1.2M req/day, {said}. 1k in 200 out", catalog).fields
    assert got["peak_to_average"] == pytest.approx(0.5 * 24 / 3)
    assert got["requests_per_day"] == 1_200_000


def test_the_other_hours_said_glued_run_the_second_rate(catalog: Catalog) -> None:
    got = parse("Qwen3-32B: office hours (10h) run ~6k req/hour, the other 14h ~1k/hour. "
                "1k in 200 out", catalog).fields
    assert got["requests_per_day"] == 10 * 6000 + 14 * 1000


def test_a_bare_rate_over_the_same_time_written_short_is_the_same_volume(
    catalog: Catalog,
) -> None:
    got = parse("GLM-5 on B200: we peak around 90 requests per second at lunch; over the whole "
                "day it averages more like 30/s. 2k in, 500 out", catalog).fields
    assert got["requests_per_day"] == 30 * 86400 and got["peak_to_average"] == 3.0


@pytest.mark.parametrize(
    "said",
    [
        "Spitzenlast 900 Anfragen pro Minute, im Tagesdurchschnitt etwa ein Drittel davon",
        "Al picco fanno 900 richieste al minuto, la media è circa un terzo.",
        "900 requêtes par minute en pointe, la moyenne est à peu près un tiers de ça",
    ],
)
def test_an_average_said_as_a_third_of_the_peak_abroad_divides_it(
    catalog: Catalog, said: str
) -> None:
    got = parse(f"Qwen3-32B auf H200. {said}. Input 1.000 Tokens, output 200", catalog).fields
    assert got["requests_per_day"] == 300 * 1440 and got["peak_to_average"] == 3.0


def test_an_output_rate_said_with_averages_between_is_a_days_volume(catalog: Catalog) -> None:
    got = parse("Kimi K2 on B200: output averages ~5k tok/s over the day, peaks near 15k tok/s",
                catalog).fields
    assert got["output_tokens_per_day"] == 5000 * 86400 and got["peak_to_average"] == 3.0
    assert "output_tokens" not in got


def test_a_rate_while_they_are_open_runs_the_clock_span_said_before(catalog: Catalog) -> None:
    got = parse("Clinics open 9am to 5pm and all traffic lands in that window: about 4,000 "
                "requests an hour while we're open. Qwen3-32B, 1k in 200 out", catalog).fields
    assert got["requests_per_day"] == 8 * 4000


def test_an_italian_average_over_24_hours_as_a_fifth_of_the_peak(catalog: Catalog) -> None:
    text = ("Mixtral 8x7B su A100: picchi di 40 richieste al secondo; la media sulle 24 ore "
            "è circa un quinto del picco. 700 token in ingresso e 150 in uscita")
    got = parse(text, catalog).fields
    assert got["requests_per_day"] == 8 * 86400 and got["peak_to_average"] == 5.0


def test_hindi_each_before_a_count_makes_it_a_count_per_member(catalog: Catalog) -> None:
    got = parse("120 stores, har store mein 15 staff, each staff ~20 queries a day. Qwen3-32B, "
                "800 in / 200 out", catalog).fields
    assert got["requests_per_day"] == 120 * 15 * 20


@pytest.mark.parametrize(
    ("said", "calls"),
    [
        ("~20k contracts/day, each chunked into ~8 pieces, one call per chunk", 8),
        ("~20k user questions/day, and each question runs an agent loop averaging 6 LLM calls", 6),
    ],
)
def test_items_split_or_looped_into_calls_are_that_many_calls(
    catalog: Catalog, said: str, calls: int
) -> None:
    got = parse(f"Qwen2.5 72B on A100s: {said}. 2k in / 300 out per call", catalog).fields
    assert got["requests_per_day"] == 20_000 * calls


@pytest.mark.parametrize(
    ("said", "ratio"),
    [
        ("about 75% of it lands between 6pm and midnight", 3.0),
        ("all of it lands in business hours (9 to 5), basically zero outside that", 3.0),
    ],
)
def test_a_share_of_it_in_a_window_gives_the_peak(
    catalog: Catalog, said: str, ratio: float
) -> None:
    got = parse(f"MiniMax M2.5 on H200, ~1.2M req/day, and {said}. 700 in / 250 out",
                catalog).fields
    assert got["peak_to_average"] == pytest.approx(ratio) and got["requests_per_day"] == 1.2e6


def test_two_figures_sharing_a_rates_words_are_summed_for_two_workloads(
    catalog: Catalog,
) -> None:
    summed = parse("two apps on one Qwen3-32B pool, 300k and 100k req a day, 1k in 200 out",
                   catalog)
    alone = parse("Qwen3-32B, 300k and 100k req a day, 1k in 200 out", catalog)
    assert summed.fields["requests_per_day"] == 400_000
    assert alone.fields["requests_per_day"] == 100_000
    assert any("300k and 100k req a day" in a for a in alone.ambiguities)


@pytest.mark.parametrize(
    "said",
    ["reasoning ~4k/call", "600 out for the answer, then around 4k of thinking per call"],
)
def test_tokens_a_call_are_no_count_of_calls(catalog: Catalog, said: str) -> None:
    got = parse(f"Kimi K3 on B300, ~25k calls/day, 2k prompt, 600 visible output, {said}",
                catalog).fields
    assert got["requests_per_day"] == 25_000


def test_the_busiest_minute_of_the_day_is_a_peak_minute_not_a_day(catalog: Catalog) -> None:
    got = parse("busiest minute of the day is ~2,400 requests; the daily average rate is about "
                "a third of that. Qwen3-32B, 1k in / 200 out", catalog).fields
    assert got["requests_per_day"] == 800 * 1440 and got["peak_to_average"] == 3.0


@pytest.mark.parametrize(
    "said",
    [
        "~30 rps flat from 9 to 5, weekdays only, basically nothing nights and weekends",
        "weekdays only, 9 to 5 (8 hrs), about 108,000 requests per working hour and nothing "
        "nights/weekends",
    ],
)
def test_office_hours_on_weekdays_only_average_over_the_week_with_their_peak(
    catalog: Catalog, said: str
) -> None:
    got = parse(f"Kimi K2, {said}. 2k in / 300 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(30 * 3600 * 8 * 5 / 7)
    assert got["peak_to_average"] == pytest.approx(4.2)


def test_a_rate_in_that_window_of_an_n_hour_business_day_runs_those_hours(
    catalog: Catalog,
) -> None:
    got = parse("The HR assistant is only used during an 8-hour business day: ~6,000 requests "
                "per hour in that window, basically zero outside it. Qwen3-32B", catalog).fields
    assert got["requests_per_day"] == 48_000 and got["peak_to_average"] == 3.0


def test_a_french_peak_rate_with_its_pic_moyenne_ratio_is_divided(catalog: Catalog) -> None:
    got = parse("Qwen3-32B sur L40S, environ 30 000 requêtes par heure en pointe, le ratio "
                "pic/moyenne est d'environ 2. Entrée 800 tokens, sortie 150.", catalog).fields
    assert got["requests_per_day"] == 15_000 * 24 and got["peak_to_average"] == 2.0


@pytest.mark.parametrize(
    "said",
    [
        "40k product descriptions a day, each in 3 languages, one call per language",
        "4,00,000 registered users hain, roughly 10% daily use karte hain, aur har user din "
        "mein 3 sawaal puchta hai",
    ],
)
def test_each_in_and_hindi_each_are_counts_per_member(catalog: Catalog, said: str) -> None:
    got = parse(f"Llama 3.1 8B: {said}. 700 in, 200 out", catalog).fields
    assert got["requests_per_day"] == 120_000


def test_the_batch_chosen_of_two_weighed_and_the_box_sized_at_the_peak_said(
    catalog: Catalog,
) -> None:
    chosen = parse("8x MI300X, Llama 3.1 70B BF16. Back and forth on batch 48 vs 96 — run 96. "
                   "$1.75/GPU-hr, 12 months", catalog).fields
    peak = parse("8x H200, gpt-oss-120b MXFP4. Concurrency runs ~100 on average but hits 250 at "
                 "peak — size the box at the 250. $2.70/GPU-hr, 12mo.", catalog).fields
    assert (chosen["concurrency"], peak["concurrency"]) == (96, 250)


def test_weekends_said_as_a_part_of_the_weekday_make_the_weeks_average_day(
    catalog: Catalog,
) -> None:
    got = parse("gpt-oss-120b on GB200. Weekdays ~1.4M req/day, weekends about half that. "
                "1.2k in, 500 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx((5 * 1.4e6 + 2 * 0.7e6) / 7)


def test_a_kind_word_before_the_plural_counted_is_passed_over(catalog: Catalog) -> None:
    got = parse("Qwen3-32B for 1,200 sales reps, ~25 calls per rep per day, 1k in / 250 out",
                catalog).fields
    assert got["requests_per_day"] == 30_000


@pytest.mark.parametrize(
    "said",
    [
        "Tienen 1.500 agentes, cada uno hace unas 40 consultas al día",
        "processa uns 30 mil conversas por dia, cada uma com ~2 turnos",
    ],
)
def test_spanish_and_portuguese_members_each_at_a_rate(catalog: Catalog, said: str) -> None:
    got = parse(f"Qwen3-32B en H200. {said}. Entrada 700 tokens, salida 200.", catalog).fields
    assert got["requests_per_day"] == 60_000


def test_a_volume_of_tokens_is_no_population(catalog: Catalog) -> None:
    got = parse("der Kunde erzeugt ca. 1,2 Mrd. Output-Tokens pro Tag mit DeepSeek-V3, "
                "Wachstum ungefähr 5 % pro Monat. B300.", catalog).fields
    assert got["output_tokens_per_day"] == 1.2e9 and "requests_per_day" not in got


def test_a_ratio_worked_out_from_an_average_corrected_later_is_worked_out_again(
    catalog: Catalog,
) -> None:
    parsed = parse("qwen3-32b on h200: peak 120 rps, avg 40, so p2a 3. 2k in, 300 out.\n"
                   "update: the avg is 60 rps, peak unchanged", catalog)
    assert parsed.fields["peak_to_average"] == pytest.approx(2.0)
    assert any("earlier average" in a for a in parsed.assumed)


def test_parts_with_their_own_lengths_are_sized_at_their_request_weighted_average(
    catalog: Catalog,
) -> None:
    got = parse("three apps on one llama 3.1 8b fleet: triage 600k req/day (400 in / 50 out), "
                "drafting 200k req/day (2k in / 450 out), plus qa 200k req/day (1,200 in / "
                "150 out)", catalog).fields
    assert got["requests_per_day"] == pytest.approx(1_000_000)
    assert (got["input_tokens"], got["output_tokens"]) == (880, 150)


def test_shares_of_the_day_each_with_its_lengths_keep_the_whole_day(catalog: Catalog) -> None:
    parsed = parse("gpt-oss-120b, 2M req/day: 75% are quick lookups (300 in / 80 out), "
                   "25% deep research (6k in / 1,200 out)", catalog)
    got = parsed.fields
    assert got["requests_per_day"] == pytest.approx(2_000_000)
    assert (got["input_tokens"], got["output_tokens"]) == (1725, 360)
    assert not parsed.ambiguities


def test_parts_sharing_one_length_leave_the_other_asked(catalog: Catalog) -> None:
    parsed = parse("two apps on qwen3-32b: chat 300k req/day at 900 out, search 100k req/day "
                   "at 300 out, 2k in for both", catalog)
    assert parsed.fields["output_tokens"] == 750
    assert parsed.fields["input_tokens"] == 2000


@pytest.mark.parametrize(
    "said",
    ["the average is roughly half.", "el promedio es la mitad 🙃", "a média é a metade, 1k in"],
)
def test_an_average_said_as_a_bare_half_is_half_the_peak_before_it(
    catalog: Catalog, said: str
) -> None:
    got = parse(f"qwen3-32b, 600 rpm at peak; {said} 1k in / 150 out", catalog).fields
    assert got["peak_to_average"] == 2.0
    assert got["requests_per_day"] == pytest.approx(300 * 1440)


def test_a_figure_said_again_as_the_peak_after_an_oops_gives_the_ratio(catalog: Catalog) -> None:
    parsed = parse("glm-5, 90 rps, 2k in / 200 out\noops 90 is the peak, avg is closer to 30 rps",
                   catalog)
    assert parsed.fields["requests_per_day"] == pytest.approx(30 * 86400)
    assert parsed.fields["peak_to_average"] == pytest.approx(3.0)
    assert not parsed.ambiguities


def test_a_later_share_of_the_peak_corrects_the_one_said_before(catalog: Catalog) -> None:
    parsed = parse("qwen3-32b: peak of 120 QPS, average is about a quarter of peak. 1k in, "
                   "100 out.\nupdate from the customer: average is closer to a third of peak",
                   catalog)
    assert parsed.fields["peak_to_average"] == 3.0
    assert any("changed by what is said after it" in a for a in parsed.assumed)


def test_a_population_counted_again_later_with_a_word_to_use_it_replaces_the_first(
    catalog: Catalog,
) -> None:
    parsed = parse("qwen3-32b: 10k DAU, each ~5 chats a day, 2 calls per chat, 1k in / 150 out\n"
                   "update: marketing says 16k DAU now", catalog)
    assert parsed.fields["requests_per_day"] == pytest.approx(16_000 * 5 * 2)
    assert any("said later" in a for a in parsed.assumed)


def test_the_calls_per_member_said_after_per_and_the_shift_said_before_the_rate(
    catalog: Catalog,
) -> None:
    got = parse("100 agents, 10-hr shifts, each agent takes ~4 tickets/hr. Per ticket we do "
                "2 LLM calls. 1k in / 200 out, glm-5", catalog).fields
    assert got["requests_per_day"] == pytest.approx(100 * 10 * 4 * 2)


@pytest.mark.parametrize(
    "said",
    [
        "at peak they push ~90 requests/s, peak-to-average about 3",
        "~90 requests/s at the lunchtime peak, with a peak-to-average of about 3",
    ],
)
def test_a_peak_word_a_few_words_from_its_rate_makes_it_the_peak(
    catalog: Catalog, said: str
) -> None:
    got = parse(f"qwen3-32b on h200: {said}. 1k in / 200 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(30 * 86400)


def test_a_peak_word_in_an_aside_of_its_own_marks_no_figure(catalog: Catalog) -> None:
    got = parse("kimi k3 on gb200, 2M output tokens an hour (avg hour, not peak)", catalog).fields
    assert "peak_to_average" not in got


def test_an_average_figure_said_after_a_stated_share_of_the_peak_gives_the_ratio(
    catalog: Catalog,
) -> None:
    got = parse("gpt-oss-120b: peak ~120k output tokens/s and the average is about half of "
                "that.\nchecked the export: avg ≈ 30k output tok/s, so more like a quarter",
                catalog).fields
    assert got["peak_to_average"] == pytest.approx(4.0)
    assert got["output_tokens_per_day"] == pytest.approx(30e3 * 86400)


def test_a_share_of_the_peak_hour_is_no_share_of_the_users(catalog: Catalog) -> None:
    got = parse("glm-5: in the busiest hour ~5,000 users are online; over the day the "
                "average is about 50% of that peak hour. 1k in / 100 out", catalog).fields
    assert "requests_per_day" not in got
    assert got["peak_to_average"] == 2.0


def test_two_frequencies_of_one_member_said_with_plus_are_added(catalog: Catalog) -> None:
    parsed = parse("2,000 analysts, ~30 searches per analyst per day (900 in / 80 out) plus ~10 "
                   "report drafts per analyst per day (4k in / 900 out). gpt-oss-120b", catalog)
    assert parsed.fields["requests_per_day"] == pytest.approx(2_000 * 40)
    assert any("' + '" in u for u in parsed.understood)


@pytest.mark.parametrize("count", ["= 24 GPUs", "192 sequences across the cluster"])
def test_gpus_or_sequences_are_no_population_for_a_share(catalog: Catalog, count: str) -> None:
    parsed = parse(f"- 3 × HGX B200 (8 GPUs each)\n- {count}\n- batch 192\n"
                   "- Utilization: ~70% during business hours\n- DeepSeek-V3, $5.50/GPU-hr",
                   catalog)
    assert parsed.kind == "scenario"
    assert "requests_per_day" not in parsed.fields


@pytest.mark.parametrize(
    "said", ["~12 rps per tenant across 50 tenants", "50 tenants, avg 12 rps per tenant"]
)
def test_a_rate_per_member_is_multiplied_by_the_members_counted(
    catalog: Catalog, said: str
) -> None:
    got = parse(f"qwen3-32b on h200: {said}, 1k in / 150 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(12 * 50 * 86400)


def test_a_volume_said_to_use_replaces_the_other_and_keeps_its_split(catalog: Catalog) -> None:
    parsed = parse("From: Ana — for planning use 800M tokens/day total, same ratio.\n\n"
                   "> From: Bo — our estimate: ~600M tokens/day, 3:1 input to output. "
                   "Qwen3-32B on H200", catalog)
    assert parsed.fields["output_tokens_per_day"] == pytest.approx(200e6)
    assert any("the one to use" in a for a in parsed.assumed)


def test_a_members_steps_said_with_a_tilde_and_a_named_last_step_are_counted(
    catalog: Catalog,
) -> None:
    got = parse("~20k jobs/day; each job = 1 router call + ~5 tool-call turns + 1 summarizer. "
                "4k in / 250 out, GLM-5", catalog).fields
    assert got["requests_per_day"] == 20_000 * 7


def test_a_frequency_after_each_and_the_members_own_name_is_one_of_the_chain(
    catalog: Catalog,
) -> None:
    got = parse("1M MAU, ~20% of them are daily actives, each DAU opens ~3 sessions with ~5 "
                "turns each. Qwen3-32B, 1k in / 200 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(1e6 * 0.2 * 3 * 5)


def test_a_stated_ratio_taken_back_by_a_bare_one_is_replaced(catalog: Catalog) -> None:
    got = parse("qwen3-32b: 60k req/hr at peak, 4:1 peak to avg... hmm no, re-read the notes "
                "from their call, it's 3:1. 1k in / 100 out", catalog).fields
    assert got["peak_to_average"] == 3.0
    assert got["requests_per_day"] == pytest.approx(60_000 / 3 * 24)


def test_calls_said_of_each_member_before_the_members_are_counted(catalog: Catalog) -> None:
    parsed = parse("each support case is 1 triage call + 3 drafting calls = 4 LLM calls. "
                   "~12k cases/day. 2k in / 300 out, Qwen3-32B", catalog)
    assert parsed.fields["requests_per_day"] == 48_000


def test_a_length_said_of_each_request_is_no_count_of_calls(catalog: Catalog) -> None:
    got = parse("Each query is ~3k prompt tokens, ~700 tokens of answer. Around 90,000 queries "
                "a day. DeepSeek R1", catalog).fields
    assert got["requests_per_day"] == 90_000


@pytest.mark.parametrize("said", ["48 + 16 concurrent", "batch 48+16"])
def test_tenants_batches_added_with_plus_are_the_boxs_concurrency(
    catalog: Catalog, said: str
) -> None:
    got = parse(f"two tenants on one box: {said}, 8x H200, Llama 3.1 70B, $3/GPU-hr", catalog)
    assert got.fields["concurrency"] == 64


@pytest.mark.parametrize(
    "said",
    [
        "~1,200 users are online and each sends a message every ~2 minutes",
        "~1,200 concurrent users, each sending a message every 2 minutes",
    ],
)
def test_one_request_every_so_often_times_the_users_online(catalog: Catalog, said: str) -> None:
    got = parse(f"qwen3-32b on h200: {said}. 700 in / 150 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(1_200 * 720)
    assert "concurrency" not in got


def test_one_members_request_every_so_often_with_nobody_counted_is_asked(
    catalog: Catalog,
) -> None:
    parsed = parse("qwen3-32b on h200: each student sends a question every 5 minutes, "
                   "700 in / 150 out", catalog)
    assert "requests_per_day" not in parsed.fields


def test_an_average_rate_then_a_peak_rate_each_with_its_word_after(catalog: Catalog) -> None:
    got = parse("Must sustain 40 requests/second average and 100 requests/second peak; "
                "GLM-5, 900 in, 200 out", catalog).fields
    assert got["requests_per_day"] == 40 * 86400
    assert got["peak_to_average"] == 2.5


def test_a_stated_peak_ratio_is_no_count_of_turns_or_users(catalog: Catalog) -> None:
    got = parse("qwen3-32b, 2,000 calls/hour at the lunchtime peak, peak-to-avg about 4 "
                "overall, each call = ~5 turns, 600 in / 80 out per turn", catalog).fields
    assert got["peak_to_average"] == 4.0
    assert got["requests_per_day"] == 2000 / 4 * 24 * 5


def test_a_peak_hour_given_by_the_clock_against_the_days_total(catalog: Catalog) -> None:
    got = parse("qwen3-32b on H100. peak time 18:00-19:00 is 9,000 requests/hour, daily "
                "total 72,000 requests. 800 in, 200 out", catalog).fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (72_000, 3.0)


def test_busy_hours_at_a_rate_are_the_days_whole_volume(catalog: Catalog) -> None:
    got = parse("6 busy hours at 12k req/hr, quiet otherwise. GLM-5 on H200, 1k in, 300 out",
                catalog).fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (72_000, 4.0)


def test_a_batch_per_replica_of_a_few_gpus_on_a_larger_deployment(catalog: Catalog) -> None:
    got = parse("H200 cluster: 64 GPUs, Qwen3 32B BF16, batch 24 per 4-GPU replica, "
                "$2.90/gpu-hr", catalog)
    assert (got.fields["gpus"], got.fields["concurrency"]) == (64, 24 * 16)
    assert not any("two GPU counts" in a for a in got.ambiguities)


def test_replicas_sized_in_brackets_divide_the_deployment(catalog: Catalog) -> None:
    got = parse("Please price 4 nodes (32 x H100 SXM), GLM-5 FP8, served as 2-node replicas "
                "(16 GPUs each) with 40 concurrent sessions per replica.", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (32, 80)


def test_a_concurrency_keyed_per_server_before_its_figure(catalog: Catalog) -> None:
    got = parse("- Qty 3 servers, 8x AMD Instinct MI300X each\n- Model: GLM-5 (FP8)\n"
                "- Max concurrency per server: 128", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (24, 384)


def test_every_replica_at_a_batch_on_racks_split_into_replicas(catalog: Catalog) -> None:
    got = parse("2 GB200 NVL72 racks, each rack split into 18 replicas of 4 GPUs, every "
                "replica at batch 32. Kimi K2.5 NVFP4", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (144, 36 * 32)


def test_servers_of_a_few_gpus_each_are_not_whole_boards(catalog: Catalog) -> None:
    got = parse("qwen3 32b on 3 l40s servers (4 gpus each), fp8, $5.20/server/hr", catalog)
    assert got.fields["gpus"] == 12
    assert got.fields["price_per_gpu_hour"] == 1.3


@pytest.mark.parametrize(
    "said",
    ["3 nodos de H200 (24 GPUs), batch de 16 por nodo",  # Spanish
     "3 nodi H200 (24 GPU), concorrenza 16 per nodo",  # Italian
     "3 Knoten H200 (24 GPUs), Batch 16 pro Knoten"],  # German
)
def test_a_batch_per_node_in_other_languages_is_multiplied_out(
    catalog: Catalog, said: str
) -> None:
    got = parse(f"Llama 3.3 70B FP8, {said}", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (24, 48)


@pytest.mark.parametrize(
    "said",
    ["5 servers, 8 gpus each", "5 nodes, each comprising eight H100 GPUs",
     "H100 box = 8 gpus. 5 boxes"],
)
def test_nodes_counted_with_their_gpus_each(catalog: Catalog, said: str) -> None:
    got = parse(f"glm-5 on H100: {said}, batch 16 per node", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (40, 80)


def test_a_german_count_of_servers_with_so_many_gpus_each(catalog: Catalog) -> None:
    got = parse("Kunde will GLM-5 auf 3 Servern mit je 8× H200, Batch 32 pro Server",
                catalog).fields
    assert (got["gpus"], got["concurrency"]) == (24, 96)


def test_a_rack_carved_into_replicas_is_all_of_them(catalog: Catalog) -> None:
    got = parse("Llama 3.1 405B on GB300: one NVL72 rack carved into 9 replicas of 8 GPUs, "
                "32 concurrent per replica", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (72, 288)


def test_portuguese_nos_is_nodes_only_after_a_count(catalog: Catalog) -> None:
    from core.parse.glossary import in_english

    assert in_english("nós precisamos de 2 nós") == "nós precisamos de 2 nodes"


@pytest.mark.parametrize(
    "said", ["the average is four times lower", "la moyenne est quatre fois plus basse"]
)
def test_an_average_said_so_many_times_lower_than_the_peak(catalog: Catalog, said: str) -> None:
    got = parse(f"GLM-5 on H200, 40 requests/second at peak, {said}. 1k in, 200 out",
                catalog).fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (10 * 86400, 4.0)


def test_an_average_approximately_a_share_of_the_peak(catalog: Catalog) -> None:
    got = parse("peak load of 100 requests per second; average load is approximately 25% "
                "of peak. GLM-5, 1k in, 200 out", catalog).fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (25 * 86400, 4.0)


def test_a_what_if_asked_after_the_ask_changes_nothing(catalog: Catalog) -> None:
    got = parse("peak 30 rps, peak/avg 3, GLM-5, 800 in / 150 out.\nwhat if the holiday "
                "peak is 8x normal? just curious", catalog)
    assert (got.fields["peak_to_average"], got.fields["requests_per_day"]) == (3.0, 864_000)
    assert any("what-if" in a for a in got.assumed)


@pytest.mark.parametrize(
    "said", ["USD 438,000 per NVL72 rack per month", "$438,000 per rack per month"]
)
def test_a_racks_monthly_price_is_split_over_the_racks_gpus(catalog: Catalog, said: str) -> None:
    got = parse(f"Kimi K3 on 2 GB300 NVL72 racks, 2,000 concurrent, {said}", catalog)
    assert got.fields["gpus"] == 144
    assert got.fields["price_per_gpu_hour"] == pytest.approx(438_000 / 730 / 72)


def test_one_node_of_a_board_is_never_a_node_of_one_gpu(catalog: Catalog) -> None:
    got = parse("gpt-oss 120b on 1 x b300 node (8 gpus), 256 concurrent, $48/node-hr", catalog)
    assert (got.fields["gpus"], got.fields["price_per_gpu_hour"]) == (8, 6.0)


def test_the_makers_name_before_a_gpu_keeps_the_gpus_system(catalog: Catalog) -> None:
    got = parse("two NVIDIA GB200 NVL72 racks, DeepSeek-R1 NVFP4, USD 300 per rack-hour",
                catalog).fields
    assert (got["gpu"], got["gpus"]) == ("gb200", 144)
    assert got["price_per_gpu_hour"] == pytest.approx(300 / 72)


@pytest.mark.parametrize(
    ("said", "total"),
    [
        ("2 racks GB300 NVL72, 500 concurrent per rack", 1000),
        ("3 servers of 8x B200, 96 concurrent each", 288),
        ("16x H200, TP8 → 2 replicas, each 40 concurrent", 80),
        ("8x MI300X, 8 independent replicas (1 GPU each), each serving ~48 seqs", 384),
        ("6x L40S (1 replica/gpu), 10 concurrent/replica", 60),
        ("4 x DGX B200 (8 GPUs each), batch 64 per DGX", 256),
    ],
)
def test_a_concurrency_each_unit_runs_is_multiplied_by_the_units(
    catalog: Catalog, said: str, total: int
) -> None:
    assert parse(f"GLM-5 FP8 on {said}, $3/gpu-hr", catalog).fields["concurrency"] == total


def test_each_replicas_batch_is_not_each_replicas_gpus(catalog: Catalog) -> None:
    got = parse("5 nodes of H100 → 40 GPUs. Llama 3.1 70B at TP4, so 2 replicas per node → "
                "10 replicas, each at batch 16. $2.50/gpu-hr", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (40, 160)


@pytest.mark.parametrize(
    ("said", "gpus", "concurrency"),
    [
        ("2 x (8x H100), batch 40 per node", 16, 80),
        ("3 × (2x MI300X) replicas, 24 concurrent each", 6, 72),
    ],
)
def test_a_count_times_a_bracketed_group_is_every_groups_gpus(
    catalog: Catalog, said: str, gpus: int, concurrency: int
) -> None:
    got = parse(f"Qwen3 32B on {said}, $2.10/gpu-hr", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (gpus, concurrency)


def test_a_concurrency_said_after_each_replica_is_multiplied_by_the_replicas(
    catalog: Catalog,
) -> None:
    got = parse("gpt-oss-120b as 5 replicas, each on 2 x H200. Every replica can take around "
                "~30 concurrent requests.", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (10, 150)


def test_a_corrected_count_of_nodes_corrects_the_nodes_not_the_gpus_of_one(
    catalog: Catalog,
) -> None:
    got = parse("Qwen3 32B on 5 servers of 8x L40S... oops, make that 3 servers. 20 concurrent "
                "per server", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (24, 60)


def test_a_total_concurrency_said_again_per_node_is_multiplied_by_the_nodes(
    catalog: Catalog,
) -> None:
    got = parse("GLM-5 on 4 nodes of 8x B200, 96 concurrent in all. Sorry: 96 per node.",
                catalog).fields
    assert (got["gpus"], got["concurrency"]) == (32, 384)


@pytest.mark.parametrize(
    "said",
    [
        "the usual day for Contoso is about 25 req/s, peak 100 req/s",
        "traffic for Contoso is typically 25 req/s, peak 100 req/s",
    ],
)
def test_a_typical_rate_beside_the_peak_is_the_average(catalog: Catalog, said: str) -> None:
    got = parse(f"Qwen3 32B on H100, {said}, 500 in 100 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(25 * 86400)
    assert got["peak_to_average"] == pytest.approx(4)


def test_nodes_times_gpus_after_the_gpus_name_are_the_nodes_own_gpus(catalog: Catalog) -> None:
    got = parse("Llama 3.1 8B on L40S: 6 boxes x 2 GPUs, 30 concurrent per box, $1,460 per box "
                "per month", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (12, 180)
    assert got["price_per_gpu_hour"] == pytest.approx(1460 / 730 / 2)


def test_a_concurrency_each_replica_is_capped_at_is_multiplied_by_the_replicas(
    catalog: Catalog,
) -> None:
    got = parse("GLM-5 on 32x B200 as 4 replicas × 8 GPUs, each replica capped at 60 concurrent "
                "requests", catalog).fields
    assert got["concurrency"] == 240
