"""Figures pasted from sheets and written the European way: the unit a column's name gives,
a table of one figure a row, a total row, and a currency said after its number."""

from __future__ import annotations

from typing import Any

import pytest

from core.catalog import Catalog
from core.parse import parse


def fields(catalog: Catalog, text: str) -> dict[str, Any]:
    return dict(parse(text, catalog).fields)


@pytest.mark.parametrize(
    ("line", "field", "value"),
    [
        ("Output tokens per day (M): 40", "output_tokens_per_day", 40e6),
        ("Daily output tokens (thousands): 900", "output_tokens_per_day", 900e3),
        ("TTFT target (ms): 700", "max_ttft_s", 0.7),
        ("TTFT SLO (s): 2", "max_ttft_s", 2.0),
        ("Lease price ($/GPU/month): 1,460", "price_per_gpu_hour", 2.0),
        ("Lease ($ per GPU per year): 26,280", "price_per_gpu_hour", 3.0),
        ("Growth (%/yr): 100", "monthly_growth", 2 ** (1 / 12) - 1),
        ("Growth (%/quarter): 33.1", "monthly_growth", 0.1),
    ],
)
def test_a_column_name_s_brackets_give_its_unit(
    catalog: Catalog, line: str, field: str, value: float
) -> None:
    form = f"Model: Llama 3.1 70B\nGPU: H200\nRequests per day: 300000\n{line}"
    assert fields(catalog, form)[field] == pytest.approx(value, rel=1e-3)


def test_a_table_of_one_figure_a_row_reads_each_row_with_its_unit(catalog: Catalog) -> None:
    table = (
        "| parameter | value | unit |\n|---|---|---|\n| requests | 2,400 | per minute |\n"
        "| mean prompt | 900 | tokens |\n| mean completion | 150 | tokens |\n"
        "| model | Qwen3-32B | |"
    )
    got = fields(catalog, table)
    assert (got["requests_per_day"], got["input_tokens"], got["output_tokens"]) == (
        2400 * 1440,
        900,
        150,
    )


def test_a_total_row_is_the_volume_and_blanks_take_what_every_row_shares(
    catalog: Catalog,
) -> None:
    sheet = (
        "team,rpd,avg_in,avg_out\nsupport,120000,1500,300\nsales,80000,1500,300\n"
        "total,200000,,\nall on gpt-oss-120b, B200 please"
    )
    got = fields(catalog, sheet)
    assert (got["requests_per_day"], got["input_tokens"], got["output_tokens"]) == (
        200000,
        1500,
        300,
    )


@pytest.mark.parametrize(
    "price",
    ["3,15 USD pro GPU-Stunde", "3,15 $/GPU/h", "US$ 3,15 por GPU-hora", "Preis: 3,15 USD/GPU-h"],
)
def test_a_dollar_price_said_the_european_way_is_a_dollar_price(
    catalog: Catalog, price: str
) -> None:
    got = fields(catalog, f"8x H100, Llama 3.1 70B, batch 32, {price}.")
    assert got["price_per_gpu_hour"] == pytest.approx(3.15)


def test_a_grouped_number_ending_a_sentence_keeps_its_groups(catalog: Catalog) -> None:
    got = fields(catalog, "DeepSeek-V3 auf H200, Eingabe 2 500 Tokens, Ausgabe 1 200.")
    assert (got["input_tokens"], got["output_tokens"]) == (2500, 1200)


def test_a_node_priced_by_the_month_is_read_per_gpu_hour(catalog: Catalog) -> None:
    for said in ("a 4x H100 box at $10,950/month", "$10,950 per node per month, 4x H100 nodes",
                 "a 4-GPU H100 box for $10,950/mo"):
        got = parse(f"{said}, Llama 3.1 70B at batch 32", catalog).fields
        assert got["price_per_gpu_hour"] == pytest.approx(10_950 / 4 / 730), said


def test_a_price_per_gpu_per_year_is_read_per_gpu_hour(catalog: Catalog) -> None:
    got = parse("$35,040 per H200 per year, 8x H200, Qwen3-32B at batch 64", catalog).fields
    assert got["price_per_gpu_hour"] == pytest.approx(4.0)
    assert got["gpu"] == "h200"


def test_a_hyphened_gpu_count_is_one_node_not_several(catalog: Catalog) -> None:
    got = parse("one 8-GPU B200 box, Llama 3.1 70B, batch 128", catalog).fields
    assert (got["gpu"], got["gpus"]) == ("b200", 8)


def test_such_nodes_count_the_node_said_before(catalog: Catalog) -> None:
    got = parse("an 8-GPU H200 node lists at $25,550/node/month; Llama 3.1 405B at batch 32 "
                "on three such nodes", catalog).fields
    assert got["gpus"] == 24
    assert got["price_per_gpu_hour"] == pytest.approx(25_550 / 8 / 730)


def test_a_context_window_is_a_context_length(catalog: Catalog) -> None:
    got = parse("Llama 3.1 70B with a 32k window, prompts 2k, 300 out, 1M req/day", catalog)
    assert got.fields["context_tokens"] == 32_000
    assert "context_tokens" not in parse("a 2 hour window, 1M req/day on Llama 3.1 8B",
                                         catalog).fields


def test_an_input_price_in_brackets_and_one_price_both_ways(catalog: Catalog) -> None:
    got = parse("they pay $0.60/M out (in is $0.15/M) for Llama 3.1 70B", catalog).fields
    assert (got["api_price_per_million_output"], got["api_price_per_million_input"]) == (
        0.60, 0.15)
    both = parse("Qwen3-32B at $0.40 per 1M tokens, same price in & out", catalog).fields
    assert both["api_price_per_million_input"] == both["api_price_per_million_output"] == 0.40


def test_european_words_for_concurrency_peaks_and_months(catalog: Catalog) -> None:
    got = parse("64 sessões simultâneas, Llama 3.1 70B em FP8, 8x H200", catalog).fields
    assert got["concurrency"] == 64
    german = parse("Im Schnitt 2 Mio. Output-Tokens pro Stunde, Spitze zu Durchschnitt 2,5. "
                   "Modell Qwen3-32B", catalog).fields
    assert german["peak_to_average"] == pytest.approx(2.5)
    swedish = parse("Llama 3.1 8B, 900 tokens in, 200 ut, 24 månader, 3M req/dag", catalog).fields
    assert (swedish["output_tokens"], swedish["term_months"]) == (200, 24)


def test_a_rate_named_before_its_mean_and_its_busiest_minute(catalog: Catalog) -> None:
    got = parse("Output TPM: mean ~100k, busiest minute of the day ~300k. Qwen3-32B on H200",
                catalog).fields
    assert got["output_tokens_per_day"] == pytest.approx(100_000 * 1440)
    assert got["peak_to_average"] == pytest.approx(3.0)


def test_contract_prices_per_gpu_per_calendar_month_or_per_annum(catalog: Catalog) -> None:
    monthly = parse("a fee of USD 2,920.00 per GPU per calendar month for eight (8) NVIDIA H200 "
                    "GPUs running Qwen3-32B at 64 concurrent sequences", catalog).fields
    assert monthly["price_per_gpu_hour"] == pytest.approx(4.0)
    yearly = parse("B300 capacity at USD 43,800 per GPU per annum, 24-month term, Kimi K3",
                   catalog).fields
    assert yearly["price_per_gpu_hour"] == pytest.approx(5.0)


def test_a_lease_of_gpus_is_a_count_not_a_term(catalog: Catalog) -> None:
    got = parse("Lessee shall lease thirty-two (32) NVIDIA B200 GPUs to serve DeepSeek-V3 at a "
                "concurrency of 64, for an Initial Term of twelve (12) months", catalog).fields
    assert (got["gpus"], got["term_months"]) == (32, 12)


def test_a_node_price_is_split_over_the_gpus_of_one_node(catalog: Catalog) -> None:
    got = parse("Llama 3.1 70B on 3 nodes of 4x H100 at $8,760 per node per month, batch 32",
                catalog).fields
    assert got["gpus"] == 12
    assert got["price_per_gpu_hour"] == pytest.approx(8_760 / 4 / 730)


def test_translated_english_numbers_and_frequencies(catalog: Catalog) -> None:
    italian = parse("our platform generates 1,5 miliardi of output tokens per month with "
                    "Qwen3-32B", catalog).fields
    assert italian["output_tokens_per_day"] == pytest.approx(1.5e9 / 30)
    daily = parse("Daily request number is about 600 thousand, Llama 3.1 8B", catalog).fields
    assert daily["requests_per_day"] == 600_000
    dau = parse("Daily active user is 40 thousand people, one person average 5 times question. "
                "Model is Qwen3-32B", catalog).fields
    assert dau["requests_per_day"] == 200_000


def test_the_sealed_voices_european_indian_and_contract_forms(catalog: Catalog) -> None:
    de = parse("ca. 2 Mio. Anfragen pro Tag mit Qwen3-32B. Die Spitzenlast ist etwa das Dreifache "
               "vom Durchschnitt. Wachstum ca. 9 % pro Quartal. Zielauslastung 60 %.", catalog)
    assert de.fields["peak_to_average"] == 3.0
    assert de.fields["monthly_growth"] == pytest.approx(1.09 ** (1 / 3) - 1)
    assert de.fields["planned_utilization"] == pytest.approx(0.6)
    assert parse("8x H100, Qwen2.5-72B, Batchgröße 32", catalog).fields["concurrency"] == 32
    assert parse("Llama 3.1 70B en 8 H200 a USD 2,80 por GPU-hora", catalog).fields[
        "price_per_gpu_hour"] == pytest.approx(2.80)
    assert parse("approx 3,00,000 requests per day on Kimi K2", catalog).fields[
        "requests_per_day"] == 300_000
    assert parse("Per GPU per month: $2,190 for H100. Llama 3.1 8B, 20 rps", catalog).fields[
        "price_per_gpu_hour"] == pytest.approx(3.0)
    nodes = parse("2 HGX H200 nodes (16 GPUs), Llama 3.1 70B, batch 64, at $23,360 per node per "
                  "month", catalog).fields
    assert nodes["price_per_gpu_hour"] == pytest.approx(23_360 / 730 / 8)
    today = parse("5M requests/day of Llama 3.1 8B. We're on A100 today but quotes for H200 "
                  "and B200 are welcome.", catalog).fields
    assert today["gpu"] == "h200"


def test_rfp_tables_with_hourly_rates_quantities_and_unit_prices(catalog: Catalog) -> None:
    load = parse("| Workload | Req/hour (avg) | Req/hour (peak) | Input (tokens) | Output "
                 "(tokens) |\n|---|---|---|---|---|\n| Search | 10,000 | 30,000 | 2,000 | 300 |\n"
                 "Model: Qwen3-32B. Hardware: H200.", catalog).fields
    assert (load["requests_per_day"], load["peak_to_average"]) == (240_000, 3.0)
    price = parse("| Item | Qty (GPUs) | Unit price (USD/GPU-hour) |\n|---|---|---|\n"
                  "| NVIDIA H200, Llama 3.1 70B, FP8 | 16 | 3.05 |", catalog).fields
    assert (price["gpus"], price["price_per_gpu_hour"]) == (16, 3.05)


TIERS = (
    "Tier\tReq/day\tOutput (tok)\nFree\t3,000,000\t150\nTeam\t400,000\t300\n"
    "Corp\t100,000\t600\n"
)


@pytest.mark.parametrize(
    ("said", "requests", "output"),
    [
        ("we only size *Team* on this lease", 400_000, 300),
        ("Team + Corp go onto the new cluster, Free stays on the old one", 500_000, 360),
        ("use the last row", 100_000, 600),
        ("the sum of them is what we need", 3_500_000, 180),
        ("", 3_000_000, 150),  # nothing said: the first row, and the other rows said
    ],
)
def test_the_row_of_a_pasted_table_the_message_points_at(
    catalog: Catalog, said: str, requests: float, output: int
) -> None:
    parsed = parse(f"{TIERS}{said}. Llama 3.1 8B on H100", catalog)
    assert parsed.fields["requests_per_day"] == requests
    assert parsed.fields.get("output_tokens") == output
    if "+" in said or "sum" in said:  # rows with other lengths: one fleet serves their mix
        assert any("weighted by their requests" in a for a in parsed.assumed)


def test_a_day_volume_by_a_column_of_labels_and_a_trailing_blank_total(catalog: Catalog) -> None:
    got = fields(catalog, "Region\tShare\tReq/day\nNA\t60%\t600,000\nEU\t40%\t400,000\n"
                 "TOTAL\t\t1,000,000\t\n\nQwen3-32B on H200")
    assert got["requests_per_day"] == 1_000_000
    unlabelled = fields(catalog, "Size\tReq/day\n8\t100,000\n16\t300,000\nQwen3-32B")
    assert "requests_per_day" not in unlabelled  # rows of what? not said, not guessed


def test_a_dashboard_pasted_in_a_code_block(catalog: Catalog) -> None:
    parsed = parse("```\n[Grafana] gateway (last 24h) refreshed 10:15\n"
                   "requests/s ......... avg 30    max 90\ncompletion tokens .. avg 350 / req\n"
                   "gpu util (H100) .... 64%\n```\nsize a replacement on B300, same model "
                   "(qwen3-32b)", catalog)
    got = parsed.fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (30 * 86400, 3.0)
    assert (got["output_tokens"], got["gpu"]) == (350, "b300")  # no "15 requests/s" of 10:15


def test_a_trough_is_neither_the_average_nor_the_peak(catalog: Catalog) -> None:
    parsed = parse("hourly: peak 1.2M req/hour · trough 300k/hour · mean 800k/hour. "
                   "DeepSeek-R1", catalog)
    assert parsed.fields["requests_per_day"] == 800_000 * 24
    assert parsed.fields["peak_to_average"] == 1.5
    assert any("is the low" in a for a in parsed.assumed)


def test_a_list_price_beside_the_agreed_one_is_not_the_price(catalog: Catalog) -> None:
    parsed = parse("Deal desk approved $2,190 per GPU per month for the H200s (that's off a "
                   "$2,920 list). 16x H200, Qwen3-32B at batch 48", catalog)
    assert parsed.fields["price_per_gpu_hour"] == pytest.approx(3.0)
    assert any("not plausible" in a for a in parsed.ambiguities)


def test_a_node_price_a_month_with_its_gpu_and_a_count_of_nodes(catalog: Catalog) -> None:
    got = fields(catalog, "Counter-offer: $21,900/month per 8-GPU H200 node, 3 nodes, 12-month "
                 "minimum. DeepSeek V3 at concurrency 64")
    assert (got["price_per_gpu_hour"], got["gpus"]) == (pytest.approx(21_900 / 8 / 730), 24)


@pytest.mark.parametrize(
    ("offer", "price"),
    [
        ("our rate card says $2.40/GPU-hr for H100 at 12 months, $2.10 at 36. They want 36.", 2.10),
        ("$2.10/GPU-hr on 36 or $2.40 at 12 months. They picked 36.", 2.10),
        ("$1,752/GPU/mo on a 12-month term or $1,533/GPU/mo on 36. They chose 36.", 2.10),
        ("Best and final is $2.40/GPU-hr on 12 months, or $2.10 if they sign 36. They went with "
         "36.", 2.10),
    ],
)
def test_the_term_taken_of_those_offered_and_its_price(
    catalog: Catalog, offer: str, price: float
) -> None:
    parsed = parse(f"{offer} Llama 3.1 70B, 1M req/day, 300 out, H100", catalog)
    assert parsed.fields["term_months"] == 36
    assert parsed.fields["price_per_gpu_hour"] == pytest.approx(price)
    assert not any(a.startswith("two values for price") for a in parsed.ambiguities)


def test_a_bulleted_review_with_a_total_output_and_its_reasoning(catalog: Catalog) -> None:
    parsed = parse("weekly capacity review:\n- avg rps: 40\n- peak rps: 100 (Mon 09:00)\n"
                   "- tokens out/req: ~500, of which ~350 is reasoning\n- growth: +10% MoM\n"
                   "Qwen3-235B, on H200 today, want a quote for B200", catalog)
    got = parsed.fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (40 * 86400, 2.5)
    assert (got["output_tokens"], got["reasoning_tokens"], got["gpu"]) == (150, 350, "b200")
    assert sum("(key=value)" in u for u in parsed.understood) == 0  # each said once


def test_a_machine_name_is_no_gpu_count(catalog: Catalog) -> None:
    got = parse("INC-4471 resolved: NCCL timeout on gpu-17 after the driver rollout.", catalog)
    assert got.kind == "unknown"


def test_replicas_each_described_once(catalog: Catalog) -> None:
    got = fields(catalog, "R1 scenario: 3 replicas, each one 2 nodes × 8 H200, 64 concurrent per "
                 "replica. FP8.")
    assert (got["gpus"], got["concurrency"]) == (48, 192)


def test_sessions_per_gpu_on_racks_and_a_share_of_the_output_that_is_reasoning(
    catalog: Catalog,
) -> None:
    racks = fields(catalog, "Kimi K3 on two GB300 NVL72 racks, NVFP4. Budget ~10 sessions per GPU.")
    share = fields(catalog, "R1: 200k req/day, ~2,000 output tokens per request, of which about "
                   "80% is reasoning.")
    assert racks["concurrency"] == 1440
    assert (share["reasoning_tokens"], share["output_tokens"]) == (1600, 400)


def test_a_scenario_priced_at_its_peak_concurrency(catalog: Catalog) -> None:
    got = fields(catalog, "DeepSeek R1 on 8x H200. Typical load is 32 concurrent, peak is 96 — "
                 "price it at the peak concurrency, $3.40/GPU-hr.")
    assert got["concurrency"] == 96


def test_one_call_per_document_makes_the_pages_a_size(catalog: Catalog) -> None:
    got = fields(catalog, "~30k documents/day, each ~20 pages (≈10k tokens in), one extraction "
                 "call per document with ~1k out. Qwen3-32B")
    assert (got["requests_per_day"], got["input_tokens"]) == (30_000, 10_000)


def test_the_peak_hours_tokens_and_an_hour_that_averages_a_third(catalog: Catalog) -> None:
    got = fields(catalog, "Kimi K2.5: the peak hour produces ~30M output tokens; over the whole "
                 "day an hour averages about a third of that. H200.")
    assert got["output_tokens_per_day"] == pytest.approx(30e6 / 3 * 24)
    assert got["peak_to_average"] == 3.0


def test_two_utilizations_asked_shows_the_first_said_and_says_so(catalog: Catalog) -> None:
    parsed = parse("DeepSeek V3 on 16x B200, 256 concurrent, $4.30/GPU-hr. Show it at 40% and at "
                   "70% utilization — 40% first.", catalog)
    assert parsed.fields["utilization"] == 0.4
    assert any("two utilizations" in a for a in parsed.ambiguities)


def test_a_table_of_a_loads_parts_adds_up_when_nothing_picks_a_row(catalog: Catalog) -> None:
    parsed = parse("| Use case | Requests/day | Avg output (tok) |\n|---|---|---|\n"
                   "| Summaries | 100,000 | 400 |\n| Chat | 300,000 | 400 |\nLlama 3.1 70B",
                   catalog)
    assert (parsed.fields["requests_per_day"], parsed.fields["output_tokens"]) == (400_000, 400)
    assert any("added up" in a for a in parsed.assumed)


def test_struck_through_gpus_and_the_counted_gpu_of_several(catalog: Catalog) -> None:
    struck = fields(catalog, "GLM-5, FP8, 96 concurrent. Edit: ~8x B200~ 16x B200.")
    counted = fields(catalog, "Price Qwen2.5-72B at $2,200/GPU-month... sorry, that's the H100 "
                     "rate. On MI300X it's $1,900/GPU-month. 4x MI300X, 32 concurrent.")
    assert (struck["gpus"], counted["gpu"]) == (16, "mi300x")
    assert counted["price_per_gpu_hour"] == pytest.approx(1900 / 730)


def test_a_discount_then_a_bill_said_later(catalog: Catalog) -> None:
    got = fields(catalog, "list for H200 on 24 months is $3.60/GPU-hr and Dana approved 15% off, "
                 "so run it at the discounted rate. Qwen3-235B, 80M output tokens/day. FYI their "
                 "Together bill is about $14k/mo.")
    assert got["price_per_gpu_hour"] == pytest.approx(3.06)


def test_plan_for_twice_that_rate(catalog: Catalog) -> None:
    got = fields(catalog, "Today we serve DeepSeek R1 at ~9 req/s on average. For the leased "
                 "platform please plan for twice that rate.")
    assert got["requests_per_day"] == 18 * 86400


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("el cliente genera unos 1,5 mil millones de tokens de salida al mes con Qwen3-32B",
         "output_tokens_per_day", 1.5e9 / 30),
        ("Qwen3.5, rund 1,8 Mrd. Output-Tokens im Monat", "output_tokens_per_day", 1.8e9 / 30),
        ("their claims bot is doing 45 lakh requests in a month on GLM-5", "requests_per_day",
         4.5e6 / 30),
        ("GLM-5, 1M req/day, they are projecting 50% growth every six months",
         "monthly_growth", 1.5 ** (1 / 6) - 1),
    ],
)
def test_a_period_said_in_another_language_or_after_in_a(
    catalog: Catalog, text: str, field: str, value: float
) -> None:
    got = fields(catalog, text)
    assert got[field] == pytest.approx(value)
    assert "term_months" not in got


def test_a_table_of_one_figure_a_row_is_read_in_its_rows_own_words(catalog: Catalog) -> None:
    got = fields(catalog, "| Metric | Value | Unit |\n|---|---|---|\n"
                 "| Peak request rate | 60 | req/s |\n| Average, as share of peak | 50 | % |\n"
                 "| Mean output length | 300 | tokens |\n"
                 "| Min. decode speed per user | 25 | tokens/s |\nModel: GLM-5")
    assert (got["requests_per_day"], got["peak_to_average"]) == (30 * 86400, 2.0)
    assert (got["output_tokens"], got["min_per_user_tokens_per_s"]) == (300, 25)


@pytest.mark.parametrize(
    ("text", "price", "term"),
    [
        ("I gave them $21,900 per 8x B200 node per month on a 36-month commit. Kimi K2.5, "
         "batch 64", 21_900 / 8 / 730, 36),
        ("They prepay the year: $26,280 per GPU for 12 months, 8x H100, Llama 3.1 70B at "
         "64 concurrent", 3.0, 12),
    ],
)
def test_a_price_per_node_a_month_or_per_gpu_for_a_term(
    catalog: Catalog, text: str, price: float, term: int
) -> None:
    got = fields(catalog, text)
    assert (got["price_per_gpu_hour"], got["term_months"]) == (pytest.approx(price), term)
    assert got["gpus"] == 8


def test_a_years_calls_and_a_months_tokens_said_before_them(catalog: Catalog) -> None:
    year = fields(catalog, '"About 73 million calls in the first year (MiniMax-M2.5 only)"')
    month = fields(catalog, "Kimi K3 案件: 月間の出力トークンは 30億、GB300 希望")
    assert year["requests_per_day"] == pytest.approx(73e6 / 365)
    assert month["output_tokens_per_day"] == pytest.approx(3e9 / 30)


@pytest.mark.parametrize(("picked", "price"), [(24, 3.25), (6, 3.90)])
def test_the_option_picked_when_each_term_is_said_before_its_price(
    catalog: Catalog, picked: int, price: float
) -> None:
    parsed = parse(f"Option A: 6-month term, $3.90/hr on B300. Option B: 24 months at $3.25/hr. "
                   f"They picked {picked}. Qwen3-235B, 2M req/day", catalog)
    assert (parsed.fields["term_months"], parsed.fields["price_per_gpu_hour"]) == (
        picked, pytest.approx(price))
    assert not any(a.startswith("two values") for a in parsed.ambiguities)


def test_a_week_by_week_table_read_at_the_week_asked(catalog: Catalog) -> None:
    table = "Week | Req/week | Out tok/req\nW1 | 1.4M | 300\nW2 | 2.1M | 300\n"
    picked = parse(f"{table}\nsize it for the W2 volume: gpt-oss-20b", catalog)
    weekly = fields(catalog, "Week of\tRequests\tOutput tokens\nSep 7\t700,000\t210,000,000\n"
                    "Sep 14\t1,400,000\t420,000,000\nuse the latest week. Qwen2.5 72B")
    assert picked.fields["requests_per_day"] == pytest.approx(300_000)
    assert "requests_per_day=300000 ← 'Req/week: 2.1M'" in picked.understood
    assert (weekly["requests_per_day"], weekly["output_tokens_per_day"]) == (200_000, 60e6)


def test_a_bill_of_materials_counts_its_gpus_and_sessions(catalog: Catalog) -> None:
    got = fields(catalog, "| Item | Qty |\n|---|---|\n| H200 GPUs | 24 |\n"
                 "| Concurrent sessions | 96 |\n| Model | Llama 3.1 70B |\n| Term | 24 months |")
    assert (got["gpus"], got["gpu"], got["concurrency"], got["term_months"]) == (24, "h200", 96, 24)


def test_a_forms_quantity_after_its_gpu_type_is_the_gpu_count(catalog: Catalog) -> None:
    got = fields(catalog, "GPU type: B200\nQuantity: 16\nModel: Qwen3-32B\nTerm (months): 12")
    assert (got["gpus"], got["gpu"], got["term_months"]) == (16, "b200", 12)


def test_a_quantity_column_beside_a_price_column_stays_a_table_of_columns(
    catalog: Catalog,
) -> None:
    got = fields(catalog, "| Item | Qty (GPUs) | Unit price (USD/GPU-hour) |\n|---|---|---|\n"
                 "| NVIDIA H100 SXM, Llama 3.1 8B | 8 | 1.95 |")
    assert (got["gpus"], got["price_per_gpu_hour"]) == (8, pytest.approx(1.95))


def test_a_requirements_id_in_title_case_counts_nothing(catalog: Catalog) -> None:
    got = fields(catalog, "Req-2.4: Context window of at least 128k tokens.\n"
                 "Req-2.6: 150,000 requests per day.\nReq-2.7: GLM-5 on GB300")
    assert (got["context_tokens"], got["requests_per_day"]) == (128_000, 150_000)


def test_a_requirements_table_with_an_id_column_reads_its_names(catalog: Catalog) -> None:
    got = parse("| ID | Requirement | Value |\n|---|---|---|\n| 2.1 | Model | Qwen3-32B |\n"
                "| 2.2 | Daily request volume | 250,000 |\n| 2.3 | Avg prompt length | "
                "1,200 tokens |\n| 2.4 | Avg completion length | 300 tokens |", catalog).fields
    assert (got["requests_per_day"], got["input_tokens"], got["output_tokens"]) == (
        250_000, 1_200, 300
    )


def test_a_forms_daily_total_is_the_day_of_requests(catalog: Catalog) -> None:
    got = parse("Model: Llama 3.1 8B\nDaily total: 90,000 requests\nAvg input 700 tokens / "
                "avg output 150 tokens", catalog).fields
    assert got["requests_per_day"] == 90_000


def test_a_tables_population_and_frequency_rows_multiply(catalog: Catalog) -> None:
    parsed = parse("| Metric | Target |\n|---|---|\n| Model | Qwen3-32B |\n| Daily sessions | "
                   "12,000 |\n| Turns per session | 5 |\n| TPOT p95 | 50 ms |", catalog)
    assert parsed.fields["requests_per_day"] == 60_000
    assert parsed.fields["min_per_user_tokens_per_s"] == 20
    assert not any("tokens or requests" in a for a in parsed.ambiguities)


def test_a_forms_people_and_requests_per_person_multiply(catalog: Catalog) -> None:
    got = parse("Model: Llama 3.1 8B\nUsers: 2,500 staff\nRequests per user per day: 12\n"
                "Avg input tokens: 600", catalog).fields
    assert got["requests_per_day"] == 30_000


def test_a_maximum_with_its_mean_in_brackets_reads_the_mean(catalog: Catalog) -> None:
    got = parse("Qwen3-32B: input 1,000 tokens; output up to 900 tokens (mean 300).",
                catalog).fields
    assert got["output_tokens"] == 300


def test_a_range_then_call_it_takes_the_figure_called(catalog: Catalog) -> None:
    got = parse("Mixtral 8x7B: outputs are 60-140 tokens, call it 100. Inputs ~500.",
                catalog).fields
    assert (got["output_tokens"], got["input_tokens"]) == (100, 500)


def test_a_peak_row_beside_a_ratio_row_written_as_a_colon_gives_the_average(
    catalog: Catalog,
) -> None:
    got = parse("| Req ID | Parameter | Value |\n|---|---|---|\n| 1.1 | Model | Qwen3-32B |\n"
                "| 1.2 | Peak requests per second | 60 |\n| 1.3 | Peak-to-average ratio | 4:1 |",
                catalog).fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (15 * 86400, 4)


def test_a_requirement_column_holds_the_figures(catalog: Catalog) -> None:
    got = parse("| # | Metric | Requirement |\n|---|---|---|\n| 1 | Model | Qwen3-32B |\n"
                "| 2 | Output tokens per week | 70M |\n| 3 | TPOT | ≤ 20 ms |", catalog).fields
    assert (got["output_tokens_per_day"], got["min_per_user_tokens_per_s"]) == (10e6, 50)


@pytest.mark.parametrize(
    "line", ["- Input / output tokens: 2,400 / 350", "- Prompt / completion tokens: 2,400 / 350"]
)
def test_a_spaced_input_output_label_reads_its_pair(catalog: Catalog, line: str) -> None:
    got = fields(catalog, f"- Model: Qwen3-32B\n{line}\n- Volume: 90k requests/day")
    assert (got["input_tokens"], got["output_tokens"]) == (2400, 350)


@pytest.mark.parametrize("sep", ["'", "’"])
def test_thousands_grouped_with_an_apostrophe_are_one_number(catalog: Catalog, sep: str) -> None:
    got = fields(catalog, f"Qwen3-32B auf H200: 1{sep}250{sep}000 Anfragen pro Tag, 2{sep}500 "
                 "input and 300 output tokens")
    assert (got["requests_per_day"], got["input_tokens"]) == (1_250_000, 2500)


@pytest.mark.parametrize(
    "deal",
    [
        "H200 at $3.40/GPU-hr, 12 months. They're asking for 15% off, but quote it at list.",
        "H200 at $3.40/GPU-hr on 12 months; 15% off if they go to 36, but price the 12 for now.",
        "H200 at $3.40/GPU-hr, 12-month term. Procurement wants 15% off; we haven't agreed.",
    ],
)
def test_a_discount_asked_for_or_offered_on_another_term_is_not_applied(
    catalog: Catalog, deal: str
) -> None:
    parsed = parse(f"{deal} Llama 3.1 70B, 8 GPUs, batch 32", catalog)
    assert parsed.fields["price_per_gpu_hour"] == pytest.approx(3.40)
    assert parsed.fields["term_months"] == 12
    assert any("not applied" in u for u in parsed.understood)


def test_a_discount_they_want_is_applied_when_asked_to_price_it(catalog: Catalog) -> None:
    got = fields(catalog, "H200 list is $3.40/GPU-hr and they want 15% off. Run it at the "
                 "discounted number. Llama 3.1 70B, 8 GPUs, batch 32")
    assert got["price_per_gpu_hour"] == pytest.approx(3.40 * 0.85)


def test_a_discount_offered_on_the_term_taken_is_applied(catalog: Catalog) -> None:
    got = fields(catalog, "H200 at $3.40/GPU-hr, 15% off if they go to 36 months; they "
                 "picked 36. Llama 3.1 70B, 8 GPUs, batch 32")
    assert got["price_per_gpu_hour"] == pytest.approx(3.40 * 0.85)


def test_a_labels_bracketed_average_is_the_labels_own(catalog: Catalog) -> None:
    got = fields(catalog, "- Model: GLM-5\n- Requests per day: 90,000\n- Prompt tokens (avg): "
                 "2,200\n- Completion tokens (avg): 450")
    assert (got["input_tokens"], got["output_tokens"]) == (2200, 450)


def test_mln_is_a_million(catalog: Catalog) -> None:
    got = fields(catalog, "Kimi K3: 3,5 mln output tokens per hour")
    assert got["output_tokens_per_day"] == pytest.approx(3.5e6 * 24)


def test_a_dotted_thousands_count_keeps_every_digit(catalog: Catalog) -> None:
    got = fields(catalog, "Qwen3-32B op H200: 200.000 verzoeken per dag, input 1.536 tokens, "
                 "output 300 tokens, context 16.384 tokens")
    assert (got["input_tokens"], got["context_tokens"]) == (1536, 16384)


def test_tokens_in_input_and_in_output_take_the_direction_after(catalog: Catalog) -> None:
    got = fields(catalog, "GLM-5 sur H200, 20 requêtes par seconde, 2 000 tokens in input "
                 "and 350 tokens in output")
    assert (got["input_tokens"], got["output_tokens"]) == (2000, 350)


@pytest.mark.parametrize(
    ("deal", "price", "gpu"),
    [
        ("Rival bid: 32x H100 at $1.95 for 24 months. Ours: 16x B200 at $4.80/GPU-hr, 24 "
         "months. Price ours.", 4.80, "b200"),
        ("Acme countered at $4.40/GPU-hr vs our $4.90 on 16x B200, 24 months. Price the "
         "counter.", 4.40, "b200"),
    ],
)
def test_the_price_asked_for_of_a_competitor_ours_and_their_counter(
    catalog: Catalog, deal: str, price: float, gpu: str
) -> None:
    parsed = parse(f"{deal} Qwen3-235B FP8, 96 concurrent", catalog)
    assert parsed.fields["price_per_gpu_hour"] == pytest.approx(price)
    assert parsed.fields["gpu"] == gpu


def test_a_tables_growth_over_a_year_and_planned_utilization_are_read(catalog: Catalog) -> None:
    got = fields(catalog, "| Item | Target |\n|---|---|\n| Model | Qwen3-32B |\n| Requests per "
                 "day | 300k |\n| Traffic growth (YoY) | 44% |\n| Planned utilization | 60% |")
    assert got["monthly_growth"] == pytest.approx(1.44 ** (1 / 12) - 1)
    assert got["planned_utilization"] == pytest.approx(0.6)


def test_a_forms_yearly_request_volume_is_a_day_of_it_and_said(catalog: Catalog) -> None:
    parsed = parse("Model ........ GLM-5\nGPU .......... B200\nYear-1 volume .... 36,500,000 "
                   "requests\nYoY growth ..... 21%", catalog)
    assert parsed.fields["requests_per_day"] == pytest.approx(100_000)
    assert parsed.fields["monthly_growth"] == pytest.approx(1.21 ** (1 / 12) - 1)
    assert any("'Year-1 volume: 36,500,000 requests'" in u for u in parsed.understood)


def test_a_tables_weekly_request_volume_is_a_seventh_a_day(catalog: Catalog) -> None:
    got = fields(catalog, "| Parameter | Value |\n|---|---|\n| Model | Kimi K3 |\n| Weekly "
                 "request volume | 7,000,000 |\n| Input tokens / request | 2,000 |")
    assert got["requests_per_day"] == pytest.approx(1e6)


@pytest.mark.parametrize(
    "line",
    [
        "Tokens of output per day: 90 million.",
        "Daily volume: 300M input tokens and 90M output tokens.",
    ],
)
def test_a_days_output_said_label_first_is_the_volume(catalog: Catalog, line: str) -> None:
    got = fields(catalog, f"Model: GLM-5. GPU: H200. {line}")
    assert got["output_tokens_per_day"] == pytest.approx(90e6)


def test_a_price_another_vendor_quoted_them_is_not_ours(catalog: Catalog) -> None:
    parsed = parse("Lambda quoted them $1.99/hr on H100s; we won't match. Pitch H200 instead: "
                   "Llama 3.1 70B, 30 rps, 800 in / 200 out", catalog)
    assert parsed.fields["gpus"] == ("h200",)
    assert "price_per_gpu_hour" not in parsed.fields
    assert any("competitor's price" in a for a in parsed.ambiguities)


def test_comparison_signs_in_a_list_are_no_key_value_pairs(catalog: Catalog) -> None:
    got = fields(catalog, "* Model: GLM-5\n* TTFT: <= 1.5 s\n* Per-user speed: >= 40 tokens/s "
                 "per user\n* 2M requests/day")
    assert (got["max_ttft_s"], got["min_per_user_tokens_per_s"]) == (1.5, 40.0)


def test_a_yaml_context_length_is_the_context(catalog: Catalog) -> None:
    got = fields(catalog, "workload:\n  model: GLM-5\n  gpu: H200\n  requests_per_day: 90000\n"
                 "  context_length: 128k")
    assert got["context_tokens"] == 128_000


def test_a_line_ending_in_a_figure_is_not_joined_to_a_line_opening_with_one(
    catalog: Catalog,
) -> None:
    got = parse("gpt-oss-20b on L40S\npeak 30 rps, p2a 3\n250 in / 40 out",
                catalog).fields
    assert (got["peak_to_average"], got["input_tokens"]) == (3.0, 250)


def test_a_pasted_threads_posting_times_are_no_figures(catalog: Catalog) -> None:
    parsed = parse("Lucas  10:14\nqwen3 32b em H200, 800 req/min\nLucas  10:15\n"
                   "entrada 1,1 mil tokens, saída uns 200\n[10:16] ana: 👍", catalog)
    assert parsed.fields["input_tokens"] == 1_100
    assert not any("'15 " in u for u in parsed.understood)


def test_a_current_versus_target_table_reads_the_target_column(catalog: Catalog) -> None:
    parsed = parse("| | Current | Target |\n|---|---|---|\n| GPU | A100 80GB | H200 |\n"
                   "| Model | Mixtral 8x7B | Qwen3-32B |\n| Requests/day | 400,000 | same |\n"
                   "| Avg input / output tokens | 900 / 200 | 1,200 / 250 |\n"
                   "| Planned utilization | – | 60% |", catalog)
    got = parsed.fields
    assert (got["gpu"], got["model"], got["requests_per_day"]) == ("h200", "qwen3-32b", 400_000)
    assert (got["input_tokens"], got["output_tokens"]) == (1200, 250)
    assert got["planned_utilization"] == 0.6
    assert any("'Target' column read" in a for a in parsed.assumed)


def test_a_german_form_with_dots_grouping_thousands_is_read(catalog: Catalog) -> None:
    got = parse("Aus dem Lastenheft:\nModell: Qwen3-32B\nAnfragen pro Tag (Durchschnitt): "
                "180.000\nEingabe-Tokens je Anfrage: 2.500\nAusgabe-Tokens je Anfrage (ohne "
                "Reasoning): 1.100\nHardware: H200", catalog).fields
    assert got["requests_per_day"] == 180_000
    assert (got["input_tokens"], got["output_tokens"]) == (2500, 1100)


def test_a_japanese_forms_peak_ratio_line_is_read(catalog: Catalog) -> None:
    got = parse("モデル: Qwen3-32B\n1日あたりリクエスト数: 30万\n入力トークン: 1,000\n"
                "出力トークン: 200\nピーク倍率（ピーク/平均）: 3\nGPU: H200", catalog).fields
    assert got["peak_to_average"] == 3.0


def test_a_context_said_per_request_is_the_context(catalog: Catalog) -> None:
    got = parse("| Model | Qwen3 32B |\n| Requests/day | 40,000 |\n"
                "| Max context per request | 16k tokens |", catalog).fields
    assert got["context_tokens"] == 16_000


def test_a_gpu_marked_current_in_brackets_is_todays_and_the_other_is_sized(
    catalog: Catalog,
) -> None:
    got = parse("Workload: Llama 3.1 70B, 90k requests/day, 700 in / 150 out\n"
                "Hardware: H200 (current) / B200 (proposed)", catalog).fields
    assert got["gpus"] == ("b200",)


def test_a_tables_rows_of_one_load_give_their_request_weighted_lengths(catalog: Catalog) -> None:
    got = parse("one deepseek-v3 fleet for both:\n| Workload | Requests/day | Input | Output |\n"
                "|---|---|---|---|\n| Support | 150,000 | 2,000 | 400 |\n"
                "| Coding | 50,000 | 6,000 | 800 |", catalog).fields
    assert got["requests_per_day"] == pytest.approx(200_000)
    assert (got["input_tokens"], got["output_tokens"]) == (3000, 500)


def test_a_gpu_a_threads_reply_settles_is_the_one_sized(catalog: Catalog) -> None:
    parsed = parse("Ana  9:01 AM\nllama 3.1 70b for Orbit, 20 rps, 2k in / 250 out\n"
                   "Raj  9:03 AM\nb200 or gb200?\nAna  9:04 AM\nok gb200 then, thanks!", catalog)
    assert parsed.fields["gpus"] == ("gb200",)
    assert any("settles" in a for a in parsed.ambiguities)


def test_a_gpu_named_last_in_a_sentence_of_its_own_settles_nothing(catalog: Catalog) -> None:
    got = parse("llama 3.1 70b, 20 rps, 2k in / 250 out on b200\n"
                "would gb200 be cheaper per token?", catalog).fields
    assert set(got["gpus"]) == {"b200", "gb200"}


@pytest.mark.parametrize(
    ("said", "per_day"), [("peak=90rps p2a=3", 30 * 86400), ("peak=500rpm", 500 * 1440)]
)
def test_a_peak_key_with_a_rate_is_the_volume_at_its_peak(
    catalog: Catalog, said: str, per_day: float
) -> None:
    got = parse(f"`{said} model=qwen3-32b in=1000 out=200 gpu=h200`", catalog).fields
    assert got["requests_per_day"] == pytest.approx(per_day)
