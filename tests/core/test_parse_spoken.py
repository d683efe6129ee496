"""How people talk: names said aloud, self-corrections, volumes as products, and a GPU
named alone that is no deployment (issue 14)."""

from __future__ import annotations

import pytest

from core.catalog import Catalog
from core.parse import parse


@pytest.mark.parametrize(
    ("said", "field", "value"),
    [
        ("Llama three point one seventy B", "model", "llama-3.1-70b"),
        ("Llama two seventy B", "model", "llama-2-70b"),
        ("Kimi K2 point five", "model", "kimi-k2.5"),
        ("Kimi K three", "model", "kimi-k3"),
        ("GPT OSS one-twenty B", "model", "gpt-oss-120b"),
        ("Qwen three two-thirty-five B A twenty-two B", "model", "qwen3-235b-a22b"),
        ("eight MI three-twenty-five Xs", "gpu", "mi325x"),
        ("sixteen H two hundreds", "gpu", "h200"),
        ("four A one hundreds", "gpu", "a100-80gb"),
    ],
)
def test_a_name_said_with_number_words_is_read(
    said: str, field: str, value: str, catalog: Catalog
) -> None:
    parsed = parse(f"{said}, batch thirty-two, on B300", catalog)
    assert parsed.fields[field] == value
    assert any(f"'{said}'" in u for u in parsed.understood)  # said back in its own words


def test_number_words_after_a_spoken_name_stay_numbers(catalog: Catalog) -> None:
    got = parse("Kimi K three thirty-two GPUs, batch sixty-four", catalog).fields
    assert (got["model"], got["gpus"], got["concurrency"]) == ("kimi-k3", 32, 64)


@pytest.mark.parametrize(
    "text",
    [
        "A ten percent discount on Llama 3.1 8B, 2M requests a day, 200 out",
        "A hundred requests a day on Llama 3.1 8B, 200 out",
    ],
)
def test_a_capital_a_before_a_number_is_not_an_a_series_gpu(text: str, catalog: Catalog) -> None:
    assert parse(text, catalog).fields.get("gpus") in (None, ("b300",))


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("16x H100 on GLM-5 fp8, batch 64. correction: it's 24x, not 16", 24),
        ("sixteen H200s, no sorry, thirty-two, running DeepSeek V3 at batch 64", 32),
        ("llama 3.1 70b, not 16 but 24 GPUs, batch 32", 24),
        ("llama 3.1 70b on 16 GPUs, actually 8, batch 32", 8),
    ],
)
def test_a_figure_corrected_in_the_message_is_replaced_and_said(
    text: str, gpus: int, catalog: Catalog
) -> None:
    parsed = parse(text, catalog)
    assert parsed.fields["gpus"] == gpus
    assert any("read as a correction" in a for a in parsed.assumed)
    assert not any("two GPU counts" in a for a in parsed.ambiguities)


def test_a_corrected_price_keeps_its_unit(catalog: Catalog) -> None:
    got = parse("kimi k3 on b300 at $7.87/hr, sorry, $7.50, 2B output tokens a day", catalog)
    assert got.fields["price_per_gpu_hour"] == 7.5
    assert not any("two values" in a for a in got.ambiguities)


def test_two_figures_that_correct_nothing_stay_two(catalog: Catalog) -> None:
    got = parse("llama 3.1 8b, 2M requests a day, uh, 400 in and 200 out", catalog).fields
    assert (got["requests_per_day"], got["input_tokens"], got["output_tokens"]) == (2e6, 400, 200)


@pytest.mark.parametrize(
    ("text", "per_day"),
    [
        ("DeepSeek V3, we have 80k DAU, every user ask 15 times per day, 300 out", 1_200_000),
        ("Kimi K2, 250k convos/day, ~5 turns each, 1.5k in / 300 out per turn", 1_250_000),
        ("kimi k3 for 12,000 employees, each sends about 20 requests a day, 400 out", 240_000),
        ("llama 3.1 8b, 40k sessions a day, 12 messages per session, 200 out", 480_000),
        ("qwen3 32b: DAU is 400k, 6 queries per user, 300 out", 2_400_000),
        ("Llama 3.1 8B: 20,000 users x 5 sessions/day x 4 turns per session, 150 out", 400_000),
        (
            "MiniMax M2.5: 3,000 devs, each triggers ~40 agent runs a day, ~25 LLM calls "
            "per run, ~350 output tokens per call",
            3_000_000,
        ),
    ],
)
def test_a_volume_said_as_people_times_requests_is_multiplied_and_said(
    text: str, per_day: float, catalog: Catalog
) -> None:
    parsed = parse(text, catalog)
    assert parsed.fields["requests_per_day"] == pytest.approx(per_day)
    assert any("×" in u and "requests/day" in u for u in parsed.understood)


def test_a_latency_before_a_daily_volume_is_no_population(catalog: Catalog) -> None:
    got = parse("Llama 3.1 405B: up to 10 s is fine, 50k docs/day, 800 out", catalog).fields
    assert got["requests_per_day"] == 50_000


def test_a_total_beside_a_headcount_is_the_total(catalog: Catalog) -> None:
    got = parse("we have 3k seats on llama 3.1 70b, 2M requests/day, 300 out", catalog)
    assert got.fields["requests_per_day"] == 2e6


def test_users_with_no_frequency_are_asked_about_not_taken_as_requests(catalog: Catalog) -> None:
    parsed = parse("50k users on kimi k3, 400 output tokens each", catalog)
    assert "requests_per_day" not in parsed.fields
    assert any("how many requests each sends" in a for a in parsed.ambiguities)


@pytest.mark.parametrize(
    "text",
    [
        "what about GB300 NVL72 instead of the B200 for the same thing?",
        "Can you send the price list for H20 and L40S, 12 and 36 month terms?",
        "Please provide your earliest delivery date for 4 nodes of B200 (32 GPUs).",
    ],
)
def test_a_gpu_named_alone_is_no_deployment(text: str, catalog: Catalog) -> None:
    assert parse(text, catalog).kind == "unknown"


def test_a_model_on_a_gpu_is_a_deployment_and_with_a_deals_terms_a_sizing(
    catalog: Catalog,
) -> None:
    alone = parse("Llama 3.1 70B on H200", catalog)
    assert alone.kind == "scenario"
    assert any("smallest count" in a for a in alone.assumed)
    deal = parse("Option A: 6-month term, $3.90/hr on B300. Option B: 24 months at $3.25/hr. "
                 "Qwen3-235B, fp8.", catalog)
    assert deal.kind == "traffic" and deal.missing  # the volume is asked for
    assert parse("Is Llama 3.1 405B supported on MI300X with vLLM?", catalog).kind == "unknown"


def test_a_request_length_with_no_count_or_batch_is_a_load_short_of_its_volume(
    catalog: Catalog,
) -> None:
    parsed = parse("~700 tokens in, 120 out. Llama 3.1 8B on H100, no latency SLO", catalog)
    assert parsed.kind == "traffic"
    assert parsed.fields["output_tokens"] == 120
    assert parse("Llama 3.1 8B on 2x H100, 700 in / 120 out", catalog).kind == "scenario"


def test_a_command_that_wants_a_deployment_reads_a_gpu_alone_as_one(catalog: Catalog) -> None:
    assert parse("on H200, batch 8", catalog, "scenario").kind == "scenario"
    assert parse("H200 please", catalog, "scenario").kind == "scenario"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Llama 3.1 70B, ca. 1.500.000 Anfragen pro Tag, Prompt ca. 2.000 Tokens, Antwort "
            "ca. 350 Tokens. Spitzenlast etwa 3x Durchschnitt. Laufzeit 36 Monate.",
            {"requests_per_day": 1.5e6, "input_tokens": 2000, "output_tokens": 350}
            | {"peak_to_average": 3.0, "term_months": 36},
        ),
        (
            "Qwen3-32B, environ 2,5 millions de requêtes par mois, 800 tokens en entrée et "
            "250 en sortie. Le TTFT doit rester sous 1,5 s.",
            {"requests_per_day": 2.5e6 / 30, "input_tokens": 800, "output_tokens": 250}
            | {"max_ttft_s": 1.5},
        ),
        (
            "GLM-5, 1,2 millones de peticiones diarias, 3.000 tokens de entrada, 600 de "
            "salida. Plazo: 12 meses.",
            {"requests_per_day": 1.2e6, "input_tokens": 3000, "output_tokens": 600}
            | {"term_months": 12},
        ),
    ],
)
def test_german_french_and_spanish_messages_are_read(
    text: str, expected: dict[str, float], catalog: Catalog
) -> None:
    got = parse(text, catalog).fields
    assert {k: got.get(k) for k in expected} == pytest.approx(expected)


@pytest.mark.parametrize(
    ("text", "per_day"),
    [
        ("Kimi K2.5. We generate roughly 700 million output tokens a day.", 700e6),
        ("Qwen3-235B-A22B. Expected annual volume: 20 billion output tokens.", 20e9 / 365),
    ],
)
def test_a_volume_said_like_a_requests_output_is_read_over_its_time(
    text: str, per_day: float, catalog: Catalog
) -> None:
    parsed = parse(text, catalog)
    assert parsed.fields["output_tokens_per_day"] == pytest.approx(per_day)
    assert "output_tokens" not in parsed.fields
    assert not any("not plausible" in a for a in parsed.ambiguities)


def test_a_multiple_of_the_daily_average_after_a_peak_is_the_ratio(catalog: Catalog) -> None:
    got = parse(
        "Llama 3.1 70B, 18,000 requests per hour at peak, which is roughly twice our daily "
        "average, 400 out",
        catalog,
    ).fields
    assert (got["peak_to_average"], got["requests_per_day"]) == (2.0, 18_000 * 24 / 2)
    assert "monthly_growth" not in got


def test_a_share_of_a_population_is_a_factor_and_prompts_are_counted(catalog: Catalog) -> None:
    parsed = parse(
        "3 000 employees, maybe 40% use the assistant daily with around 12 prompts each. "
        "Qwen3 32B, answers ~300 tokens.",
        catalog,
    )
    assert parsed.fields["requests_per_day"] == pytest.approx(3000 * 0.4 * 12)
    assert "input_tokens" not in parsed.fields  # twelve prompts are no 12-token prompt


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "from the RFP (p. 14):\n4.2.1 The Service shall support Llama 3.1 70B.\n"
            "4.2.2 It shall sustain an average of 2,000,000 (two million) requests per day.\n"
            "4.2.5 Output speed shall be no less than 25 tokens per second per user.\n"
            "4.2.6 Contract term: thirty-six (36) months.",
            {"requests_per_day": 2e6, "min_per_user_tokens_per_s": 25.0, "term_months": 36},
        ),
        (
            "> Please see page 22 of 40. Ticket REF-20931, PO 4500012345, call +45 33 12 34 56.\n"
            "> Kimi K3, 2B output tokens a day",
            {"output_tokens_per_day": 2e9, "term_months": None, "input_tokens": None},
        ),
    ],
)
def test_clause_page_ticket_and_phone_numbers_are_not_quantities(
    text: str, expected: dict[str, float | None], catalog: Catalog
) -> None:
    got = parse(text, catalog).fields
    assert {k: got.get(k) for k in expected} == expected


def test_a_form_with_dot_leaders_and_qualified_column_names_is_read(catalog: Catalog) -> None:
    form = (
        "Annex B, Table 3: Target deployment\n Model ............ GLM-5\n"
        " Accelerators ..... 16 x NVIDIA B200\n Concurrent users . 128\n"
        " Avg. input ....... 6,000 tokens\n Avg. output ...... 900 tokens"
    )
    parsed = parse(form, catalog)
    read = {k: parsed.fields.get(k) for k in ("concurrency", "input_tokens", "output_tokens")}
    assert read == {"concurrency": 128, "input_tokens": 6000, "output_tokens": 900}
    assert parsed.ambiguities == []
    table = (
        "| Workload | Requests/hour (avg) | Input tokens |\n|---|---|---|\n| Q&A | 25,000 | 4,000 |"
    )
    assert parse(f"{table}\nQwen3-32B", catalog).fields["requests_per_day"] == 25_000 * 24


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Mixtral 8x7B, 2M requests a month, sorry a WEEK, 300 out", "requests_per_day", 2e6 / 7),
        (
            "gpt-oss-120b: nine hundred requests a minute, wait, no, per second? No, per "
            "minute, I double-checked. 800 in, 1000 out",
            "requests_per_day",
            900 * 1440,
        ),
        (
            "llama 3.1 70b, 400k req/day, 1k in 500 out — sorry, I meant 5k in, 500 out",
            "input_tokens",
            5000,
        ),
        (
            "Qwen3-235B on 8x H100 at 32 concurrent. Actually scratch that, make it 8x H200",
            "gpu",
            "h200",
        ),
    ],
)
def test_a_unit_a_restated_fact_or_a_name_corrected_later_wins(
    text: str, field: str, value: object, catalog: Catalog
) -> None:
    got = parse(text, catalog).fields[field]
    assert got == (pytest.approx(value) if isinstance(value, float | int) else value)


def test_a_renewal_for_another_year_is_a_term_a_next_year_is_not(catalog: Catalog) -> None:
    renewal = "Renewal at the same rate for another 12 months. Llama 3.1 8B, 2M req/day, 200 out"
    assert parse(renewal, catalog).fields["term_months"] == 12
    span = "Over the next 6 months we expect Llama 3.1 8B at 2M req/day, 200 out"
    assert "term_months" not in parse(span, catalog).fields


def test_a_later_multiple_is_applied_only_when_asked(catalog: Catalog) -> None:
    asked = parse(
        "MiniMax-M2.5, 35M output tokens/day today and 3x that by mid-year (size for the "
        "mid-year number)",
        catalog,
    )
    assert asked.fields["output_tokens_per_day"] == 105e6
    told = parse("MiniMax-M2.5, 35M output tokens/day today and 3x that by mid-year", catalog)
    assert told.fields["output_tokens_per_day"] == 35e6
    assert any("sized for today's" in a for a in told.ambiguities)


def test_an_average_said_as_a_share_of_the_peak_gives_the_ratio(catalog: Catalog) -> None:
    got = parse(
        "Qwen3-30B-A3B, ~417 turns/s at peak, and the average over the day is ~40% of peak. "
        "800 in, 60 out",
        catalog,
    ).fields
    assert got["peak_to_average"] == 2.5
    assert got["requests_per_day"] == pytest.approx(417 * 86400 / 2.5)


def test_a_lease_word_before_a_volume_is_no_term_and_as_of_then_points_back(
    catalog: Catalog,
) -> None:
    got = parse(
        "Kimi K3 vs a lease: 600M output tokens/day, 12-month term. Lease would start "
        "1 February 2027, so use prices as of then.",
        catalog,
    ).fields
    assert (got["output_tokens_per_day"], got["term_months"]) == (600e6, 12)
    assert str(got["as_of"]) == "2027-02-01"


def test_volumes_of_several_apps_that_add_up_are_summed_and_said(catalog: Catalog) -> None:
    parsed = parse(
        "Three apps on DeepSeek V3: chat 120M out tokens/day, summarization 45M/day, code "
        "review 35M/day. Total peak about 2.5x average. H200.",
        catalog,
    )
    assert parsed.fields["output_tokens_per_day"] == 200e6
    assert "requests_per_day" not in parsed.fields  # "code review" labels, counts nothing
    assert "200M output tokens/day in all: 120M + 45M + 35M" in parsed.understood


def test_two_volumes_with_no_word_that_adds_them_are_asked_about(catalog: Catalog) -> None:
    parsed = parse("DeepSeek V3: 120M out tokens/day, then 45M/day", catalog)
    assert any("two values for output_tokens_per_day" in a for a in parsed.ambiguities)


@pytest.mark.parametrize(
    ("text", "gpus", "concurrency"),
    [
        ("GLM-5 on 4 nodes of 8x B200 (so 32 GPUs), 6 streams per GPU → 192 concurrent", 32, 192),
        ("Llama 70B: 2 nodes × 4 H100 = 8 GPUs total, 8 users per GPU → 64 concurrent", 8, 64),
    ],
)
def test_arithmetic_in_prose_is_no_key_value_pair_and_an_arrow_ends_a_fact(
    text: str, gpus: int, concurrency: int, catalog: Catalog
) -> None:
    got = parse(text, catalog).fields
    assert (got["gpus"], got["concurrency"]) == (gpus, concurrency)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("Qwen3-30B-A3B: currently TTFT is 900 ms on our A100s. 800 req/min, 80 out", "max_ttft_s"),
        (
            "MiniMax M2.5: average 45 tok/s per stream observed today. 80M out/day",
            "min_per_user_tokens_per_s",
        ),
        (
            "GLM-5 on B200, 400k req/day, 300 out. The old cluster of theirs sits at about 4 s "
            "TTFT.",
            "max_ttft_s",
        ),
    ],
)
def test_a_speed_or_latency_seen_today_is_no_target(
    text: str, field: str, catalog: Catalog
) -> None:
    parsed = parse(text, catalog)
    assert field not in parsed.fields
    assert any("what they see today" in a for a in parsed.ambiguities)


def test_a_latency_wanted_is_a_target_even_beside_today(catalog: Catalog) -> None:
    got = parse("Llama 3.1 8B, 2M req/day, 200 out; we need TTFT under 1 s today", catalog)
    assert got.fields["max_ttft_s"] == 1.0


def test_a_bare_day_rate_after_a_typed_one_takes_its_kind(catalog: Catalog) -> None:
    parsed = parse(
        "DeepSeek V3 chat: today we serve 150M output tokens/day; after the EU launch we "
        "expect 400M/day.",
        catalog,
    )
    assert parsed.fields["output_tokens_per_day"] == 400e6
    assert any("like the volume said before it" in a for a in parsed.assumed)


def test_totals_over_a_window_are_read_per_day(catalog: Catalog) -> None:
    parsed = parse(
        "Traffic, per the dashboard (last 30 days):\n• 45B output tokens total\n"
        "• 60M requests total\nModel: gpt-oss-20b",
        catalog,
    )
    assert parsed.fields["output_tokens_per_day"] == 1.5e9
    assert parsed.fields["requests_per_day"] == 2e6
    assert "output_tokens" not in parsed.fields and parsed.ambiguities == []


@pytest.mark.parametrize(
    ("text", "per_day", "ratio"),
    [
        ("Kimi K2. Average day is 900k requests; peak hour runs 3x the daily average", 9e5, 3),
        ("Llama 3.1 70B: 2.1M daily requests, 1k in, 200 out", 2.1e6, None),
        (
            "Thirty-six thousand requests an hour at the peak, a third of that on average, "
            "Qwen2.5-72B, 250 out",
            36_000 * 24 / 3,
            3,
        ),
        (
            "60 concurrent sessions on average and 150 at peak; about 20 requests per second "
            "overall; Qwen2.5-72B, 300 out",
            20 * 86400,
            2.5,
        ),
    ],
)
def test_a_days_volume_said_as_a_day_or_beside_its_average(
    text: str, per_day: float, ratio: float | None, catalog: Catalog
) -> None:
    got = parse(text, catalog).fields
    assert got["requests_per_day"] == pytest.approx(per_day)
    assert got.get("peak_to_average") == ratio


def test_a_volumes_history_gives_the_latest_and_its_growth_when_it_goes_on(
    catalog: Catalog,
) -> None:
    text = (
        "Usage for the Qwen2.5-72B bot, last 4 months (req/day): 200k → 240k → 288k → 346k. "
        "Expect the same trend. 1,800 in, 300 out"
    )
    got = parse(text, catalog)
    assert got.fields["requests_per_day"] == 346_000
    assert got.fields["monthly_growth"] == pytest.approx(0.2, abs=0.001)
    assert got.ambiguities == []
    silent = parse(text.replace("Expect the same trend. ", ""), catalog)
    assert "monthly_growth" not in silent.fields
    assert any("grew 20.0% a month" in a for a in silent.assumed)


def test_a_pasted_monthly_usage_table_gives_the_latest_month_per_day(catalog: Catalog) -> None:
    table = (
        "Monthly output tokens (from the usage report):\nMonth\tOutput tokens\nJan 2026\t1.00B\n"
        "Feb 2026\t1.10B\nMar 2026\t1.21B\nApr 2026\t1.33B\nModel: DeepSeek-V3, growth "
        "continuing as is."
    )
    got = parse(table, catalog).fields
    assert got["output_tokens_per_day"] == pytest.approx(1.33e9 / 30)
    assert got["monthly_growth"] == pytest.approx(0.1, abs=0.001)


def test_batch_sizes_in_a_list_are_no_volume_history(catalog: Catalog) -> None:
    got = parse("Llama 3.1 8B on 1x H100 at batch 8, 16, 32; 400 output tokens", catalog)
    assert "output_tokens_per_day" not in got.fields


def test_a_discount_after_the_lease_price_is_applied_and_said(catalog: Catalog) -> None:
    parsed = parse(
        "We have a quote at $3.10/GPU-hour for 64x H100 (36 months), and we prepay, so 5% "
        "off that. Llama 3.1 70B, concurrency 256.",
        catalog,
    )
    assert parsed.fields["price_per_gpu_hour"] == pytest.approx(2.945)
    assert any("less 5%" in u for u in parsed.understood)


def test_a_price_said_after_the_discount_wins_as_written(catalog: Catalog) -> None:
    got = parse(
        "list for B200 on 36 months is $4.90/GPU-hr; I'm allowed to go to 10% off, so price "
        "the deal at $4.41. DeepSeek R1, 300M out tok/day",
        catalog,
    ).fields
    assert got["price_per_gpu_hour"] == 4.41
    assert got["gpu"] == "b200"


def test_a_yearly_fee_per_gpu_said_before_the_money_is_per_gpu_hour(catalog: Catalog) -> None:
    got = parse(
        "16 H200 GPUs, 3-year term, annual fee per GPU $34,000, paid quarterly. "
        "Qwen3-235B-A22B, 64 concurrent.",
        catalog,
    ).fields
    assert got["price_per_gpu_hour"] == pytest.approx(34_000 / 8760)


@pytest.mark.parametrize(
    "text",
    [
        "Llama 3.1 8B, 2M req/day, 80 out. We want to plan the peak at 75% of capacity.",
        "Llama 3.1 8B, 2M req/day, 80 out; the peak sits at 75% of what we lease.",
    ],
)
def test_a_share_of_capacity_is_the_planned_utilization(text: str, catalog: Catalog) -> None:
    assert parse(text, catalog).fields["planned_utilization"] == 0.75


def test_a_typical_day_said_after_the_busiest_takes_its_place(catalog: Catalog) -> None:
    parsed = parse(
        "> we're at 1.2M req/day on llama 3.1 70b\nthat's our busiest day btw, not a normal "
        "one. typical day is ~800k.\nin/out is `2000/350`",
        catalog,
    )
    assert parsed.fields["requests_per_day"] == 800_000
    assert any("in place of 1.2M" in u for u in parsed.understood)


def test_completions_before_a_bare_number_are_their_length(catalog: Catalog) -> None:
    got = parse("Llama 3.1 70B on 8x H100, 48 concurrent, completions ~250", catalog).fields
    assert got["output_tokens"] == 250
    volume = parse("Llama 3.1 8B, 2M completions a day, 200 out", catalog).fields
    assert volume["requests_per_day"] == 2e6


@pytest.mark.parametrize(
    ("text", "api_in", "api_out"),
    [
        ("Llama 3.1 70B on an API at $0.88 per million tokens in and out, 4M req/day", 0.88, 0.88),
        ("We pay $1.10/M output for Qwen3-32B on the API (input free on their promo)", 0.0, 1.1),
        (
            "Llama 3.1 8B on the API: 5¢ in / 8¢ out per million, 20B output tokens a day",
            0.05,
            0.08,
        ),
    ],
)
def test_api_prices_said_in_words_fill_both_sides(
    text: str, api_in: float, api_out: float, catalog: Catalog
) -> None:
    got = parse(text, catalog).fields
    assert (got["api_price_per_million_input"], got["api_price_per_million_output"]) == (
        pytest.approx(api_in),
        pytest.approx(api_out),
    )


def test_a_share_of_the_time_busy_is_the_utilization(catalog: Catalog) -> None:
    got = parse(
        "Qwen3-235B-A22B on 8x H200 at batch 64; we'd run it about 50% of the time", catalog
    )
    assert got.fields["utilization"] == 0.5


def test_a_forms_minimum_speed_per_user_is_read(catalog: Catalog) -> None:
    form = (
        "metric\tvalue\nmodel\tLlama 3.1 70B Instruct\nrequests/day\t2,750,000\n"
        "min tok/s per user\t22"
    )
    assert parse(form, catalog).fields["min_per_user_tokens_per_s"] == 22


def test_a_utilization_said_with_a_price_is_the_quoted_share_not_the_plan(
    catalog: Catalog,
) -> None:
    quoted = parse(
        "Kimi K2.5, 400 million output tokens/day. State the price per million output tokens "
        "at 40% average utilization.",
        catalog,
    ).fields
    assert quoted["utilization"] == 0.4 and "planned_utilization" not in quoted
    planned = parse("Kimi K2.5, 400M output tokens/day, plan the peak at 75% of capacity", catalog)
    assert planned.fields["planned_utilization"] == 0.75


def test_an_option_to_extend_is_no_term_and_an_answer_label_is_no_length(
    catalog: Catalog,
) -> None:
    got = parse(
        "Kimi K2.5, 400M output tokens/day. Minimum term 24 months; the Authority may extend "
        'by 12 months. Q18: "Preferred term?" Answer: "2 years."',
        catalog,
    )
    assert got.fields["term_months"] == 24
    assert "output_tokens" not in got.fields
    assert any("option to extend" in a for a in got.ambiguities)


def test_dollars_per_million_is_no_monthly_rate(catalog: Catalog) -> None:
    got = parse("Kimi K3 on 64 B300s, batch 192; show $/M at 70% utilization", catalog).fields
    assert got["utilization"] == 0.7 and "monthly_growth" not in got


def test_a_direction_word_before_a_number_with_its_own_yields(catalog: Catalog) -> None:
    got = parse("R1: 180k req/day; each answer is ~5k reasoning + 1k visible", catalog).fields
    assert (got["reasoning_tokens"], got["output_tokens"]) == (5000, 1000)
    both = parse("Qwen3-32B, 30 rps, with like 2,000 input and 200 output", catalog).fields
    assert (both["input_tokens"], both["output_tokens"]) == (2000, 200)


def test_the_output_share_of_a_days_tokens_is_worked_out(catalog: Catalog) -> None:
    parsed = parse("Kimi K2.5: 2B tokens/day total, 85% of it input, the rest output.", catalog)
    assert parsed.fields["output_tokens_per_day"] == pytest.approx(3e8)
    assert parsed.ambiguities == []


def test_a_measured_throughput_is_no_traffic(catalog: Catalog) -> None:
    parsed = parse(
        "staging: 2 nodes x 8 MI300X, DeepSeek-V3 fp8, load test at 128 concurrent, 4k prompt "
        "/ 1k gen, context capped at 16k. we got ~2,900 tok/s aggregate.",
        catalog,
    )
    assert parsed.kind == "scenario" and "output_tokens_per_day" not in parsed.fields
    assert (parsed.fields["output_tokens"], parsed.fields["context_tokens"]) == (1000, 16000)


def test_growth_said_after_its_word_per_quarter_compounds(catalog: Catalog) -> None:
    got = parse("Qwen3 235B A22B, 5 crore output tokens daily, 25% growth every quarter", catalog)
    assert got.fields["monthly_growth"] == pytest.approx(1.25 ** (1 / 3) - 1)


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        (
            "Roughly a hundred thousand agent runs a day, each one is ~20 LLM calls, 200 out. "
            "Kimi K2.5 on B300.",
            "requests_per_day",
            2e6,
        ),
        ("Weekly volume is 14 million invocations, DeepSeek-V3, 180 out", "requests_per_day", 2e6),
        (
            "Per hour they see about 90k hits on the endpoint. Qwen3-32B, 300 out",
            "requests_per_day",
            90_000 * 24,
        ),
        (
            "Over the 90-day pilot they burned 1.35B output tokens on Qwen3-30B-A3B.",
            "output_tokens_per_day",
            1.5e7,
        ),
    ],
)
def test_more_ways_to_say_a_volume(text: str, field: str, value: float, catalog: Catalog) -> None:
    assert parse(text, catalog).fields[field] == pytest.approx(value)


def test_targets_with_no_volume_are_a_sizing_that_asks_for_it(catalog: Catalog) -> None:
    parsed = parse(
        "They want 60 tok/s per user and first token under 1.2s. gpt-oss-120b on H100", catalog
    )
    assert parsed.kind == "traffic"
    assert any("how much traffic" in m for m in parsed.missing)


def test_a_rate_that_runs_some_hours_a_day_gives_the_day_and_its_peak(catalog: Catalog) -> None:
    got = parse(
        "We run Llama-3.1-8B-Instruct at about 1,000 requests/second during our 12-hour window "
        "and basically zero at night. Prompts ~300 tokens, outputs ~60.",
        catalog,
    ).fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (43.2e6, 2.0)


def test_a_tables_peak_column_gives_the_ratio_not_the_volume(catalog: Catalog) -> None:
    table = (
        "| field | value |\n| --- | --- |\n| model | gpt-oss-20b |\n| QPS (avg) | 150 |\n"
        "| QPS (peak) | 400 |\n| output | 80 tok |"
    )
    got = parse(table, catalog).fields
    assert got["requests_per_day"] == 150 * 86400
    assert got["peak_to_average"] == pytest.approx(400 / 150, rel=1e-4)


def test_a_forms_peak_line_gives_the_ratio(catalog: Catalog) -> None:
    form = ("6.1 Workload\n  Peak QPS ........ 120\n  Avg QPS ......... 40\n"
            "  Avg output (tokens) .... 500\nModel: gpt-oss-120b")
    got = parse(form, catalog).fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (40 * 86400, 3.0)


def test_mil_is_a_thousand_in_a_spanish_or_portuguese_message(catalog: Catalog) -> None:
    parsed = parse(
        "Olá, o cliente tem 40 mil active users per day, each one does around 8 requests. "
        "Llama 3.1 8B, entrada 600 tokens, saída 150. R$ 12,00 per GPU-hour on L40S.",
        catalog,
    )
    assert parsed.fields["requests_per_day"] == 320_000
    assert parsed.fields["output_tokens"] == 150
    assert "price_per_gpu_hour" not in parsed.fields  # reais are no dollars
    assert any("a thousand" in a for a in parsed.ambiguities)


def test_an_average_said_before_its_fraction_of_the_peak(catalog: Catalog) -> None:
    got = parse(
        "gpt-oss-120b: peak is about 900 requests per minute, average about a third of that.",
        catalog,
    ).fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (300 * 1440, 3.0)


def test_the_gpu_they_run_today_is_not_the_one_sized(catalog: Catalog) -> None:
    parsed = parse(
        "Our Qwen3-30B-A3B fleet serves 35 req/s, peak hour about 2.2x that. 320 out. Today "
        "it's 6 L40S nodes, we'd like to know how many H200s would cover it.",
        catalog,
    )
    assert parsed.fields["gpus"] == ("h200",) and parsed.fields["peak_to_average"] == 2.2
    assert any("what they run today" in a for a in parsed.ambiguities)
    assert not any("sized for today's" in a for a in parsed.ambiguities)
    assert "GPU 48x l40s" in " ".join(parsed.understood)  # six L40S nodes, not H200s


@pytest.mark.parametrize(
    ("then", "per_day"),
    [("and summarize each contract once", 25_000), ("and each contract gets 2 LLM calls", 50_000)],
)
def test_each_said_of_the_counts_own_noun_is_no_count_per_member(
    then: str, per_day: int, catalog: Catalog
) -> None:
    got = parse(f"A team of 400 lawyers will process about 25k contracts a day {then}. "
                "Qwen3-32B, 250 out", catalog).fields
    assert got["requests_per_day"] == per_day


@pytest.mark.parametrize("growth", ["20% growth per year", "a 20% increase annually"])
def test_a_growth_percentage_is_no_share_of_the_rate(growth: str, catalog: Catalog) -> None:
    got = parse(f"GLM-5, 9,000 calls per hour and we plan for {growth}. 300 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(9000 * 24)


@pytest.mark.parametrize(
    ("text", "per_day"),
    [
        ("Kimi K2: ~2.4M sessions a month, and the average session is 6 turns. 220 out", 480_000),
        (
            "MAU is 1.5M, about 20% of them use the assistant feature, and those average 30 "
            "requests per month each. Llama 3.1 8B, 120 out.",
            300_000,
        ),
        ("Qwen3-30B-A3B: ~600k conversations/mo, 4 turns each, 200 out", 80_000),
        (
            "Total platform traffic is 50M requests/day and the LLM-backed search is about 8% "
            "of it. GLM-5, 350 out",
            4e6,
        ),
    ],
)
def test_monthly_populations_and_parts_of_a_total(
    text: str, per_day: float, catalog: Catalog
) -> None:
    assert parse(text, catalog).fields["requests_per_day"] == pytest.approx(per_day)


@pytest.mark.parametrize(
    ("text", "reasoning", "visible"),
    [
        (
            "DeepSeek-R1, 9 millones of requests per month. The generation is 3.000 tokens in "
            "average and the reasoning is ~70% of it.",
            2100,
            900,
        ),
        (
            "Qwen3.5 397B: ~60% of generated tokens are reasoning. Average completion is "
            "2,500 tokens.",
            1500,
            1000,
        ),
        (
            "R1: 300k requests/day, each response is ~4,000 generated tokens, of which ~3,200 "
            "are the thinking trace.",
            3200,
            800,
        ),
    ],
)
def test_a_reasoning_share_of_the_output_is_split_off(
    text: str, reasoning: int, visible: int, catalog: Catalog
) -> None:
    got = parse(text, catalog).fields
    assert (got["reasoning_tokens"], got["output_tokens"]) == (reasoning, visible)


def test_a_reasoning_share_is_no_share_of_the_traffic(catalog: Catalog) -> None:
    got = parse(
        "DeepSeek-R1, 9 millones of requests per month. The generation is 3.000 tokens and "
        "the reasoning is ~70% of it.",
        catalog,
    ).fields
    assert got["requests_per_day"] == 300_000


def test_a_nodes_price_is_read_per_gpu_and_a_box_is_one_node(catalog: Catalog) -> None:
    parsed = parse(
        "Node pricing: $19.60 per node-hour for an 8x H100 box. Qwen3-32B, ~40 rps", catalog
    )
    assert parsed.fields["price_per_gpu_hour"] == pytest.approx(2.45)
    assert any("per node of 8" in a for a in parsed.assumed)


def test_a_days_split_said_before_its_figures_is_a_days(catalog: Catalog) -> None:
    parsed = parse(
        "Input/output split per day: 3.2B in / 400M out. gpt-oss-120b on B200. Avg request is "
        "~8k in and 1k out.",
        catalog,
    )
    got = parsed.fields
    assert (got["output_tokens_per_day"], got["input_tokens"], got["output_tokens"]) == (
        4e8,
        8000,
        1000,
    )
    assert any("a day's input volume is not used" in a for a in parsed.ambiguities)


def test_a_chat_threads_shorthand_and_a_gpu_withdrawn(catalog: Catalog) -> None:
    thread = parse(
        "sam: can we model Kimi K2.5 on 8x B200 at 64 concurrency?\nsam: in 8k out 1k\n"
        "sam: actually try 96 concurrency, 64 is what they run now",
        catalog,
    ).fields
    assert (thread["input_tokens"], thread["output_tokens"], thread["concurrency"]) == (
        8000,
        1000,
        96,
    )
    withdrawn = parse(
        "nora: Contoso wants GB300 for GLM-5\nnora: actually GB300 isn't available until Q4, "
        "they'll take B300\nnora: 2B output tokens/month, 36 mo",
        catalog,
    ).fields
    assert (withdrawn["model"], withdrawn["gpus"]) == ("glm-5", ("b300",))
    assert "precision" not in withdrawn  # "until Q4" is a quarter, not GGUF Q4


def test_a_throughput_said_as_now_is_no_traffic(catalog: Catalog) -> None:
    got = parse(
        "The throughput now is 1,200 tok/s on our A100 cluster, but new system on B200 must "
        "give 40 tok/s for each user. gpt-oss-120b. Requests is 3 thousand per hour.",
        catalog,
    ).fields
    assert "output_tokens_per_day" not in got and got["requests_per_day"] == 72_000


@pytest.mark.parametrize(
    ("said", "field", "value"),
    [
        ("sixteen b two hundreds", "gpu", "b200"),
        ("four h one hundreds", "gpu", "h100-sxm"),
        ("two l forty s", "gpu", "l40s"),
        ("in f p eight", "precision", "fp8"),
    ],
)
def test_a_transcript_s_lower_case_letters_head_a_spoken_name(
    said: str, field: str, value: str, catalog: Catalog
) -> None:
    got = parse(f"so um llama three point one seventy b {said} at a batch of eight", catalog)
    assert got.fields[field] == value


def test_a_lower_case_a_before_number_words_is_still_an_article(catalog: Catalog) -> None:
    got = parse("so um a hundred requests a second on llama three point one eight b", catalog)
    assert got.fields["requests_per_day"] == 100 * 86400
    assert "gpus" not in got.fields


def test_dollars_said_aloud_take_the_cents_that_follow(catalog: Catalog) -> None:
    got = parse("eight h two hundreds llama seventy b batch sixteen three dollars twenty "
                "an hour per gpu", catalog).fields
    assert got["price_per_gpu_hour"] == pytest.approx(3.20)


def test_a_frequency_per_member_per_day_counts_its_own_noun(catalog: Catalog) -> None:
    got = parse("40k students, 2 sessions per student per day, 6 questions per session, "
                "Qwen3-32B on L40S", catalog).fields
    assert got["requests_per_day"] == 40_000 * 2 * 6


def test_counts_joined_by_times_signs_multiply(catalog: Catalog) -> None:
    got = parse("3k clinics × 4 doctors × 30 notes per doctor per day, Llama 3.1 70B", catalog)
    assert got.fields["requests_per_day"] == 3000 * 4 * 30
    assert "'3k clinics' × '4 doctors' × '30 notes per doctor per day'" in " ".join(
        got.understood
    )


def test_thinking_about_a_lease_is_no_reasoning_length(catalog: Catalog) -> None:
    got = parse("2M requests/day on DeepSeek R1, 800 in / 300 out. Thinking an 18-month "
                "lease, or thinking about 24", catalog).fields
    assert "reasoning_tokens" not in got


def test_msgs_a_day_are_requests(catalog: Catalog) -> None:
    assert parse("~40k msgs/day on Llama 3.1 8B", catalog).fields["requests_per_day"] == 40_000


def test_a_spoken_hundreds_number_is_not_cut_by_a_phrase(catalog: Catalog) -> None:
    got = parse("two hundred thousand chats a day on qwen three thirty two b each is about "
                "nine hundred in one twenty out", catalog).fields
    assert (got["input_tokens"], got["output_tokens"]) == (900, 120)


def test_a_percent_a_month_is_growth_never_a_frequency(catalog: Catalog) -> None:
    got = parse("fifty thousand tickets a day on llama three point one eight b and volume "
                "grows five percent a month", catalog).fields
    assert got["requests_per_day"] == 50_000
    assert got["monthly_growth"] == pytest.approx(0.05)


def test_a_wait_said_in_words_is_a_time_to_first_token(catalog: Catalog) -> None:
    for said, seconds in (("within a second", 1.0), ("in under a second and a half", 1.5),
                          ("under half a second", 0.5)):
        got = parse(f"first token {said}, 5M requests a day on Llama 3.1 8B", catalog).fields
        assert got["max_ttft_s"] == pytest.approx(seconds), said


def test_questions_a_day_are_requests_and_a_model_that_thinks_reasons(catalog: Catalog) -> None:
    got = parse("about nine thousand questions a day on deepseek r one, it thinks for two "
                "thousand tokens, the answer is four hundred", catalog).fields
    assert got["requests_per_day"] == 9000
    assert (got["reasoning_tokens"], got["output_tokens"]) == (2000, 400)


def test_things_are_no_misspelt_thinking(catalog: Catalog) -> None:
    got = parse("Three things: 2M requests/day on Llama 3.1 8B, 500 in / 100 out", catalog)
    assert "reasoning_tokens" not in got.fields


def test_a_zero_said_as_oh_is_a_digit_of_a_spoken_name(catalog: Catalog) -> None:
    got = parse("llama three point one four oh five b on h two hundreds, twelve thousand "
                "tokens going in and three hundred out, a million requests a day", catalog)
    assert got.fields["model"] == "llama-3.1-405b"
    assert (got.fields["input_tokens"], got.fields["output_tokens"]) == (12_000, 300)


def test_a_multiple_a_quarter_or_a_year_is_growth_compounded_monthly(catalog: Catalog) -> None:
    got = parse("we're 2x-ing every quarter, 1M requests/day on Qwen3-32B", catalog)
    assert got.fields["monthly_growth"] == pytest.approx(2 ** (1 / 3) - 1)
    assert parse("5x YoY, 1M requests/day on Qwen3-32B", catalog).fields[
        "monthly_growth"
    ] == pytest.approx(5 ** (1 / 12) - 1)
    assert "monthly_growth" not in parse("users ask 3x a day, 20k users", catalog).fields


def test_a_dotted_date_is_day_first_and_as_of_after_au(catalog: Catalog) -> None:
    got = parse("8x H200, Llama 3.1 70B, batch 32, prix au 15.10.2026", catalog).fields
    assert got["as_of"].isoformat() == "2026-10-15"


def test_a_price_said_the_short_way_is_dollars_and_cents(catalog: Catalog) -> None:
    got = parse("they quoted three forty per gpu hour on eight h two hundreds for llama "
                "seventy b", catalog)
    assert got.fields["price_per_gpu_hour"] == pytest.approx(3.40)
    assert "'three forty' read as $3.40" in got.assumed
    api = parse("they pay eight dollars per million output and one twenty per million input",
                catalog).fields
    assert api["api_price_per_million_input"] == pytest.approx(1.20)


def test_a_spoken_price_corrected_aloud_takes_the_new_one(catalog: Catalog) -> None:
    got = parse("it's two eighty per gpu hour no sorry three fifteen on sixteen h one "
                "hundreds with qwen three thirty two b", catalog).fields
    assert got["price_per_gpu_hour"] == pytest.approx(3.15)


def test_tokens_in_the_final_answer_are_its_output(catalog: Catalog) -> None:
    got = parse("R1: 200k requests/day, 900 prompt tokens, ~3,000 reasoning, ~450 in the "
                "final answer", catalog).fields
    assert (got["input_tokens"], got["output_tokens"]) == (900, 450)


def test_a_unit_defined_in_calls_before_its_count_multiplies(catalog: Catalog) -> None:
    got = parse("- 1 job ≈ 20 LLM calls\n- 15k jobs/day\n- Qwen3-32B, 2k in, 300 out", catalog)
    assert got.fields["requests_per_day"] == 300_000
    assert "'15k jobs/day' × '1 job ≈ 20 LLM calls'" in " ".join(got.understood)


def test_growth_quarter_over_quarter_is_no_share_of_the_traffic(catalog: Catalog) -> None:
    got = parse("around 7 million chat turns a week on Qwen3-32B, expecting that to grow 30% "
                "quarter over quarter", catalog).fields
    assert got["requests_per_day"] == 1_000_000
    assert got["monthly_growth"] == pytest.approx(1.3 ** (1 / 3) - 1)


def test_a_unit_defined_in_calls_after_its_count_multiplies(catalog: Catalog) -> None:
    got = parse("~10k tasks/day, each task averages 12 LLM calls, Qwen3-32B", catalog).fields
    assert got["requests_per_day"] == 120_000
    peak = parse("Per conversation ~4 agent steps; 6,000 conversations an hour at peak, about "
                 "2x the daily average. Qwen3-32B", catalog).fields
    assert peak["requests_per_day"] == 6_000 * 24 / 2 * 4


def test_growth_of_a_multiple_over_some_months_compounds_monthly(catalog: Catalog) -> None:
    got = parse("2M req/day on Qwen3-32B. Growth 3x over the next 18 months.", catalog).fields
    assert got["monthly_growth"] == pytest.approx(3 ** (1 / 18) - 1)


def test_weekly_actives_a_funnel_and_turns_per_phone_call(catalog: Catalog) -> None:
    wau = parse("• 200k signups\n• ~25% convert to weekly actives → *50k WAU*\n"
                "• an active user sends ~14 messages a week\nQwen3-32B", catalog).fields
    assert wau["requests_per_day"] == pytest.approx(50_000 * 14 / 7)
    students = parse("70k weekly active students, each runs about two sessions a week, five "
                     "turns per session. Llama 3.1 8B", catalog).fields
    assert students["requests_per_day"] == pytest.approx(70_000 * 2 * 5 / 7)
    calls = parse("average 6k calls/hour, peak at 15k/hour. Each call is ~5 turns. Qwen3-32B",
                  catalog).fields
    assert calls["requests_per_day"] == pytest.approx(6_000 * 24 * 5)
    per_call = parse("300 calls/hour, 20 turns per call. Qwen3-32B", catalog).fields
    assert per_call["requests_per_day"] == pytest.approx(300 * 24 * 20)


def test_doubling_every_some_months_and_a_volume_a_night(catalog: Catalog) -> None:
    got = parse("30k questions/day, doubling every 4 months. Qwen3-32B", catalog).fields
    assert got["monthly_growth"] == pytest.approx(2 ** (1 / 4) - 1)
    assert "term_months" not in got
    night = parse("40M output tokens a night now, expected to triple over the next year. "
                  "Llama 3.1 8B", catalog).fields
    assert night["output_tokens_per_day"] == 40e6
    assert night["monthly_growth"] == pytest.approx(3 ** (1 / 12) - 1)
    later = parse("1M req/day on Qwen3-32B. Double that for next year.", catalog).fields
    assert "monthly_growth" not in later


def test_voice_calls_minutes_and_turns_per_minute_are_requests(catalog: Catalog) -> None:
    calls = parse("~1,000 calls a day, average call 4 minutes, about three LLM turns per minute. "
                  "Llama 3.1 8B on L40S", catalog)
    assert calls.fields["requests_per_day"] == 1_000 * 4 * 3
    assert not any(u.startswith("1,000 requests/day") for u in calls.understood)
    minutes = parse("3M call minutes per month, ~5 turns per minute. Qwen3-32B on H200",
                    catalog).fields
    assert minutes["requests_per_day"] == pytest.approx(3e6 / 30 * 5)


def test_a_total_over_a_span_and_turns_each(catalog: Catalog) -> None:
    got = parse("we forecast 6M chatbot conversations over the 30-day campaign, four turns each. "
                "Qwen3-32B on H100", catalog)
    assert got.fields["requests_per_day"] == pytest.approx(6e6 / 30 * 4)
    letters = parse("1.46 million letters over the two-year grant, Kimi K2 on H200", catalog)
    assert letters.fields["requests_per_day"] == pytest.approx(1.46e6 / 730)
    assert any("2,000 requests/day" in u for u in letters.understood)  # no 2e+03
    same = parse("20,000 requests per minute on average (400 users, ~50 calls each), "
                 "MiniMax-M2.5", catalog).fields
    assert same["requests_per_day"] == 20_000 * 1440


def test_each_document_goes_through_some_calls(catalog: Catalog) -> None:
    got = parse("1.5M documents a month; each document goes through 2 LLM calls. Qwen3-32B",
                catalog).fields
    assert got["requests_per_day"] == pytest.approx(1.5e6 / 30 * 2)


def test_a_period_before_its_volume_an_answering_verb_and_doubling_by_a_season(
    catalog: Catalog,
) -> None:
    monthly = parse("and each month we generate about 3B output tokens on GLM-5", catalog).fields
    assert monthly["output_tokens_per_day"] == pytest.approx(1e8)
    daily = parse("Daily average is ~60M output tokens today; with the new feature they estimate "
                  "3x that. Size for the planned number. Qwen3-32B", catalog).fields
    assert daily["output_tokens_per_day"] == pytest.approx(180e6)
    tickets = parse("Our bot answers ~20,000 tickets a day, and each ticket is about 4 model "
                    "calls. Qwen3-32B", catalog).fields
    assert tickets["requests_per_day"] == 80_000
    season = parse("300k req/day on Llama 3.1 8B, it'll double by summer; size for the doubled "
                   "number", catalog).fields
    assert season["requests_per_day"] == 600_000


def test_a_later_volume_is_sized_when_the_message_says_so(catalog: Catalog) -> None:
    that = parse("Beta does 100k requests/day; after launch they expect 4x that, and that's "
                 "what we size for. Qwen3-32B", catalog).fields
    figure = parse("150k requests/day today, planning for 600k by the launch, size for 600k. "
                   "Qwen3-32B", catalog).fields
    assert (that["requests_per_day"], figure["requests_per_day"]) == (400_000, 600_000)


def test_a_correction_said_as_closer_to(catalog: Catalog) -> None:
    got = parse("They do 600k requests/day — actually closer to 750k, I checked. Qwen3-32B",
                catalog).fields
    assert got["requests_per_day"] == 750_000


def test_shares_and_parts_of_a_volume(catalog: Catalog) -> None:
    third = parse("Total 60M tokens/day, of which 1/3 is output. Qwen3-32B", catalog).fields
    reach = parse("Of their 8M daily requests only 25% actually reach the LLM. Qwen3-32B",
                  catalog).fields
    bullets = parse("Size for the combined load:\n• search: 300k req/day\n• email drafting: 100k"
                    "\n• code review: 50k\nQwen3-32B", catalog).fields
    assert (third["output_tokens_per_day"], "output_tokens" in third) == (20e6, False)
    assert (reach["requests_per_day"], bullets["requests_per_day"]) == (2e6, 450_000)


def test_concurrency_said_per_node_is_the_deployments_total(catalog: Catalog) -> None:
    said = parse("2 nodes × 8 H200, Qwen3-32B, 32 concurrent per node (so 64 in total)",
                 catalog).fields
    worked = parse("4 nodes × 8 H200, Qwen3-32B, 16 concurrent per node", catalog).fields
    assert (said["concurrency"], worked["concurrency"], "input_tokens" in said) == (64, 64, False)


def test_a_number_in_a_place_is_no_input_length(catalog: Catalog) -> None:
    assert parse("why is 3 × 8 giving me 25 in the sheet 😂", catalog).kind == "unknown"


@pytest.mark.parametrize(
    ("text", "requests"),
    [
        ("> 300k requests/day on Qwen3-32B\nsame as above but 2x the traffic", 600_000),
        ("Qwen3-32B, ~500k requests a day. Add 20% on top of that for launch (size for the "
         "launch number)", 600_000),
        ("2M req/day interactive + another 500k/day of evals = 2.5M/day total. Qwen3-32B",
         2_500_000),
        ("They run ~4M requests a day, and roughly 25% of that is the assistant — that's the "
         "slice we'd move. Qwen3-32B", 1_000_000),
        ("a 100k-requests-an-hour business at peak, and the average is about a third of peak. "
         "Qwen3-32B", 100_000 * 24 / 3),
    ],
)
def test_thread_replies_and_summaries_that_restate_a_volume(
    catalog: Catalog, text: str, requests: float
) -> None:
    parsed = parse(text, catalog)
    assert parsed.fields["requests_per_day"] == pytest.approx(requests)
    assert not any("nothing to scale" in a or "two values" in a for a in parsed.ambiguities)


def test_the_figure_chosen_of_a_range_is_sized(catalog: Catalog) -> None:
    middle = parse("Volume is modest: 10k req/day, maybe 14k; let's go with 12k. Qwen3-32B",
                   catalog).fields
    signed = parse("between 1 and 3 billion output tokens a day… finance signed off on 2.5B "
                   "as the planning number. DeepSeek-V3", catalog).fields
    assert (middle["requests_per_day"], signed["output_tokens_per_day"]) == (12_000, 2.5e9)


def test_the_hardware_they_move_off_is_not_sized(catalog: Catalog) -> None:
    got = parse("28 QPS average. We want to move off our 4x TP8 H100 replicas onto B200. "
                "Qwen3-32B", catalog).fields
    nodes = parse("2 x HGX H200 nodes (8 GPUs each) at USD 210,240 per node per year. "
                  "Qwen3-235B, batch 32", catalog).fields
    assert got["gpu"] == "b200"
    assert (nodes["gpus"], nodes["price_per_gpu_hour"]) == (16, pytest.approx(3.0))


def test_a_rate_at_peak_after_aggregate_and_a_french_peak(catalog: Catalog) -> None:
    agg = parse("sustain 40k output tok/s aggregate at peak, peak:avg ≈ 2:1. DeepSeek-V3",
                catalog).fields
    fr = parse("ils font environ 300 000 requêtes par jour, avec un pic à 3x la moyenne. "
               "Modèle: Qwen3-32B", catalog).fields
    assert agg["output_tokens_per_day"] == pytest.approx(20_000 * 86400)
    assert (fr["requests_per_day"], fr["peak_to_average"]) == (300_000, 3.0)


def test_a_utilization_is_no_share_of_a_population(catalog: Catalog) -> None:
    got = parse("They process roughly 900k patient encounters a month; each encounter is one "
                "summarization call with ~9k tokens of transcript in and ~700 tokens of note "
                "out. Size so the peak sits at 70% of capacity. gpt-oss-120b", catalog).fields
    assert got["requests_per_day"] == pytest.approx(30_000)
    assert (got["input_tokens"], got["output_tokens"], got["planned_utilization"]) == (
        9000, 700, 0.7)


def test_up_to_and_a_busy_window_mark_the_peak(catalog: Catalog) -> None:
    up = parse("fourteen turns a second on average across the fleet, up to forty a second "
               "when a blast goes out. Qwen3-32B", catalog).fields
    window = parse("Steady state is 20 requests/s, and the 10:00–12:00 ET window runs at "
                   "60 req/s. Qwen3-32B", catalog).fields
    assert up["requests_per_day"] == 14 * 86400
    assert up["peak_to_average"] == pytest.approx(40 / 14)
    assert (window["requests_per_day"], window["peak_to_average"]) == (20 * 86400, 3.0)


def test_a_mix_of_shares_sizes_the_whole(catalog: Catalog) -> None:
    got = parse("Workload mix on one cluster: RAG is 70% of 1M calls/day, agents are the other "
                "30%. gpt-oss-120b on B200", catalog).fields
    assert got["requests_per_day"] == 1_000_000


@pytest.mark.parametrize(
    ("text", "requests"),
    [
        ("Old plan was 2M req/day. New plan is half that. Kimi K2.5. Use the new plan.", 1e6),
        ("Today: 100k req/day on Qwen3-32B. Next quarter they expect 3x the volume. Size the "
         "post-migration state.", 3e5),
        ("Old plan was 2M req/day. New plan is half that. Kimi K2.5.", 2e6),  # nothing asked
    ],
)
def test_a_plan_said_as_a_part_or_a_multiple_of_another(
    catalog: Catalog, text: str, requests: float
) -> None:
    assert parse(text, catalog).fields["requests_per_day"] == requests


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Llama 3.1 70B: 1,400 lawyers, ~20 queries each per working day, 5 working days a "
         "week. Average it over the full week.", "requests_per_day", 1400 * 20 * 5 / 7),
        ("Three workloads on Qwen3-32B: support 200k req/day, triage 1.4M req/week, and the "
         "nightly batch 6M req/month.", "requests_per_day", 600_000),
        ("GLM-5: 1.5B tokens/day in total, split roughly 4:1 input to output.",
         "output_tokens_per_day", 300e6),
        ("Qwen3-32B search: 40k users × 10 searches/day, each search is 1 LLM call, but ~25% "
         "of searches are cache hits.", "requests_per_day", 300_000),
        ("DeepSeek V3: 5,000 seats, each one generates roughly 20k output tokens per day.",
         "output_tokens_per_day", 100e6),
    ],
)
def test_volumes_made_of_parts_shares_and_members(
    catalog: Catalog, text: str, field: str, value: float
) -> None:
    assert parse(text, catalog).fields[field] == pytest.approx(value)


def test_whats_is_no_misspelt_keyword(catalog: Catalog) -> None:
    assert parse("k3 on 24 gb300s batch 16 whats the $/M", catalog).fields["concurrency"] == 16


def test_a_latency_said_apart_from_ttft_in_a_message_that_names_it(catalog: Catalog) -> None:
    parsed = parse("> what TTFT do they need?\n\nunder 800ms p95 for the voice product. ~45k "
                   "calls/day, Llama 3.1 8B", catalog)
    assert parsed.fields["max_ttft_s"] == pytest.approx(0.8)
    assert any("read as the TTFT target" in a for a in parsed.assumed)


def test_hindi_month_year_and_every(catalog: Catalog) -> None:
    got = parse("Unka app har mahine 12 crore requests karta hai. Llama 3.1 8B, L40S pe, aur "
                "lease 1 saal ka hai.", catalog).fields
    assert (got["requests_per_day"], got["term_months"]) == (pytest.approx(1.2e8 / 30), 12)


def test_a_yaml_slo_with_its_percentile_in_the_key(catalog: Catalog) -> None:
    got = parse("```\nworkload:\n  isl: 512\n  osl: 128\n  rps_avg: 400\n  slo:\n"
                "    ttft_p99_ms: 250\n```\nLlama 3.1 8B", catalog).fields
    assert got["max_ttft_s"] == pytest.approx(0.25)


def test_tokens_of_reasoning_and_of_the_answer_are_each_their_own_side(catalog: Catalog) -> None:
    parsed = parse("DeepSeek R1, 9 req/s. Each answer is ~3,000 tokens of reasoning plus ~600 "
                   "tokens of actual answer.", catalog)
    assert (parsed.fields["reasoning_tokens"], parsed.fields["output_tokens"]) == (3000, 600)
    assert not any("← 'answer is" in u for u in parsed.understood)


def test_the_one_part_of_a_split_asked_for_and_retries_on_top(catalog: Catalog) -> None:
    eu = parse("Total is 6M requests/day; 50% NA, 30% EU, 20% APAC. They want the EU slice only. "
               "DeepSeek-V3", catalog).fields
    retries = parse("Kimi K3: 1,000 devs × ~20 agent runs a day, ~10 steps per run. Tool-call "
                    "retries add another 10% of steps on top.", catalog).fields
    assert eu["requests_per_day"] == pytest.approx(1.8e6)
    assert retries["requests_per_day"] == pytest.approx(220_000)


def test_a_speed_seen_now_then_its_bare_target(catalog: Catalog) -> None:
    parsed = parse("Llama 3.1 8B: decode is ~50 tok/s per user now, target 90. 200 req/s.",
                   catalog)
    assert parsed.fields["min_per_user_tokens_per_s"] == 90
    assert any("what they see now" in a for a in parsed.assumed)


def test_the_rollouts_population_when_the_rollout_is_sized(catalog: Catalog) -> None:
    got = parse("Qwen3-32B copilot: 2k users in the pilot today, 30k at the Q3 rollout, size for "
                "rollout. Each user ~20 requests/day.", catalog).fields
    assert got["requests_per_day"] == 600_000


def test_a_gpu_in_a_sentence_before_today_is_the_one_asked_about(catalog: Catalog) -> None:
    parsed = parse("New deal: GLM-5 on MI355X. Today they run on H100s at about 35% util. "
                   "Target is 900 requests/min, 400 out", catalog)
    assert parsed.fields["gpus"] == ("mi355x",)
    assert "planned_utilization" not in parsed.fields
    assert any("what they run today" in a for a in parsed.ambiguities)


def test_a_gpu_under_a_current_state_heading_is_not_sized(catalog: Catalog) -> None:
    parsed = parse("## Existing setup\n- Qwen2.5-72B on H100 SXM, 60% utilized\n"
                   "## Future setup\n- Qwen3-32B on H200\n- 2M requests/day, 250 out", catalog)
    assert parsed.fields["gpus"] == ("h200",)
    assert "planned_utilization" not in parsed.fields


def test_a_planned_utilization_after_today_s_volume_is_kept(catalog: Catalog) -> None:
    got = parse("Kimi K3 on B300: 3M requests/day today, plan for 65% utilization. 500 out",
                catalog).fields
    assert got["planned_utilization"] == pytest.approx(0.65)


@pytest.mark.parametrize(
    "move", ["move off our current H100 cluster to", "leave their existing H100s for"]
)
def test_the_gpu_moved_to_after_todays_is_the_one_sized(move: str, catalog: Catalog) -> None:
    parsed = parse(f"They want to {move} H200 for Qwen3-32B, 40 rps, 300 out", catalog)
    assert parsed.fields["gpus"] == ("h200",)


def test_today_said_early_in_a_long_clause_is_still_todays_gpu(catalog: Catalog) -> None:
    parsed = parse("Today they serve roughly 900k requests/day on a cluster of H100s with "
                   "SGLang, but the target is Qwen3-235B on B300 at 2M requests/day, 400 out",
                   catalog)
    assert parsed.fields["gpus"] == ("b300",)


def test_a_tpot_no_worse_than_is_its_ceiling_not_a_ttft(catalog: Catalog) -> None:
    got = parse("Kimi K3, 1M req/day, 500 out. SLOs: TTFT 1 s and TPOT no worse than 20 ms.",
                catalog).fields
    assert (got["max_ttft_s"], got["min_per_user_tokens_per_s"]) == (1.0, 50.0)


def test_members_on_each_of_several_shifts_and_calls_per_customer_call(catalog: Catalog) -> None:
    got = parse("Help desk: 150 agents on each of 3 daily shifts, every agent takes 40 customer "
                "calls per shift, and the assistant makes 2 LLM calls per customer call. "
                "Qwen3-32B, 200 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(150 * 3 * 40 * 2)


def test_a_change_period_over_period_is_no_share(catalog: Catalog) -> None:
    parsed = parse("Company news: 40 new hires, revenue up 25% year over year, 3 new offices.",
                   catalog)
    assert parsed.kind == "unknown" and "requests_per_day" not in parsed.fields


def test_rn_after_a_gpu_is_right_now(catalog: Catalog) -> None:
    parsed = parse("qwen3 32b, on a100s rn but want h200 for this. 20 rps, 1k in/200 out", catalog)
    assert parsed.fields["gpus"] == ("h200",)


def test_a_french_latency_ceiling_keeps_its_own_figure(catalog: Catalog) -> None:
    got = parse("Qwen3-32B sur H200, 20 requêtes par seconde. Le TTFT doit être inférieur à "
                "1,2 s et le TPOT inférieur à 50 ms.", catalog).fields
    assert (got["max_ttft_s"], got["min_per_user_tokens_per_s"]) == (1.2, 20.0)


def test_a_count_per_member_said_before_the_members_multiplies(catalog: Catalog) -> None:
    got = parse("Each answer is ~300 tokens; there are 4 answers per session and about 50k "
                "sessions a day. GLM-5 on H200", catalog).fields
    assert got["requests_per_day"] == pytest.approx(200_000)


@pytest.mark.parametrize(
    ("later", "per_day"),
    [
        ("At launch they run 3 regions of that same size; size for the launch volume.", 1.5e6),
        ("At launch they run 3 regions of that same size.", 5e5),
    ],
)
def test_copies_of_a_volume_are_sized_when_asked_and_named_when_not(
    later: str, per_day: float, catalog: Catalog
) -> None:
    parsed = parse(f"One region does 500k req/day. {later} GLM-5, 300 out", catalog)
    assert parsed.fields["requests_per_day"] == pytest.approx(per_day)
    assert any("3 regions of that same size" in n for n in [*parsed.understood,
                                                           *parsed.ambiguities])


def test_a_multiple_of_the_pilot_is_named_back(catalog: Catalog) -> None:
    parsed = parse("Qwen3-32B: the pilot is 80k req/day and GA is 5x the pilot. 200 out", catalog)
    assert any("'5x the pilot'" in a for a in parsed.ambiguities)


@pytest.mark.parametrize("said", ["croissance de 40 % par an", "crescita del 40% all'anno"])
def test_a_yearly_growth_in_french_or_italian_is_compounded_to_a_month(
    catalog: Catalog, said: str
) -> None:
    got = parse(f"Qwen3-32B sur H200, 500k req/day, 1k in 200 out, {said}", catalog).fields
    assert got["monthly_growth"] == pytest.approx(1.4 ** (1 / 12) - 1)


def test_a_spanish_quote_per_server_with_a_thousands_dot_is_split_over_its_gpus(
    catalog: Catalog,
) -> None:
    parsed = parse("Cotización: 2 servidores de 8× H200, Llama 3.1 70B, concurrencia 64, "
                   "USD 14.600 al mes por servidor, plazo de 2 años", catalog)
    got = parsed.fields
    assert got["gpus"] == 16
    assert got["price_per_gpu_hour"] == pytest.approx(14_600 / 8 / 730)
    assert any("the dot groups thousands" in a for a in parsed.assumed)


@pytest.mark.parametrize(
    ("said", "field", "value"),
    [
        ("3 servidores com 8 H200 cada, Llama 3.1 70B, batch 64, $3/GPU-hr", "gpus", 24),
        ("Qwen3-32B, 200M tokens de salida al día, crece un 10% cada trimestre", "monthly_growth",
         1.1 ** (1 / 3) - 1),
    ],
)
def test_each_and_with_in_portuguese_and_spanish(
    catalog: Catalog, said: str, field: str, value: float
) -> None:
    assert parse(said, catalog).fields[field] == pytest.approx(value)


@pytest.mark.parametrize(
    ("said", "per_day"),
    [
        ("O pico é de 40 req/s e o pico é o dobro da média", 20 * 86400),
        ("900 milioni di token in uscita al mese, con un picco pari al doppio della media",
         30e6),
    ],
)
def test_double_the_average_in_portuguese_and_italian(
    catalog: Catalog, said: str, per_day: float
) -> None:
    got = parse(f"Kimi K2 su B300. {said}. 2k in 300 out", catalog).fields
    assert got["peak_to_average"] == 2.0
    name = "requests_per_day" if "req" in said else "output_tokens_per_day"
    assert got[name] == pytest.approx(per_day)


def test_a_frequency_broken_down_over_another_time_is_not_multiplied_again(
    catalog: Catalog,
) -> None:
    got = parse("5k analysts, ~600 queries per analyst per month (about 30 a working day x "
                "20). Qwen3 32B, 1k in 100 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(5000 * 600 / 30)
