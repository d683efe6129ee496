"""The reader says what it read: numbers as people write them, names with typos,
peak against average, and values no one means named instead of used (issue 14)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import pytest

from core.catalog import Catalog
from core.parse import parse


def fields(text: str, catalog: Catalog) -> dict[str, object]:
    return parse(text, catalog).fields


def read_as(text: str, catalog: Catalog, expected: Mapping[str, float | None]) -> None:
    """The fields ``expected`` names are read with those values (None: not read)."""
    got = fields(text, catalog)
    assert {k: got.get(k) for k in expected} == pytest.approx(dict(expected))


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("a quarter million", 250_000),
        ("half a million", 500_000),
        ("three quarters of a million", 750_000),
        ("two and a half million", 2_500_000),
        ("a million and a half", 1_500_000),
        ("ninety-five thousand", 95_000),
        ("forty-eight hundred", 4_800),
        ("a hundred and twenty-eight", 128),
        ("one point two million", 1_200_000),
        ("2,5 million", 2_500_000),
        ("12 000", 12_000),
        ("50 lakh", 5_000_000),
        ("8 hundred thousand", 800_000),
        ("1.2 bil", 1_200_000_000),
    ],
)
def test_numbers_in_words_and_local_styles_are_read(
    said: str, value: float, catalog: Catalog
) -> None:
    got = fields(f"{said} requests a day on llama 3.1 8b, 200 out", catalog)
    assert got["requests_per_day"] == pytest.approx(value)


def test_a_comma_after_a_grouped_number_ends_it(catalog: Catalog) -> None:
    got = fields("llama 3.1 8b, 200 out, requests a day: 34,000, steady", catalog)
    assert got["requests_per_day"] == 34_000


def test_two_number_words_in_a_row_are_two_numbers(catalog: Catalog) -> None:
    got = fields("two eight-GPU H100 nodes, Llama 3.1 70B, batch 16", catalog)
    assert got["gpus"] == 16


def test_every_request_rate_is_kept_as_requests_per_day(catalog: Catalog) -> None:
    assert fields("K3, 50 rps, 400 out", catalog)["requests_per_day"] == 50 * 86400
    assert fields("K3, 5k requests an hour, 400 out", catalog)["requests_per_day"] == 120_000


def test_what_was_read_names_the_words_it_came_from(catalog: Catalog) -> None:
    parsed = parse("a million requests a day of Kimi K3, 400 out", catalog)
    assert "1M requests/day ← 'a million requests a day'" in parsed.understood


def test_a_typo_in_a_name_is_read_and_said(catalog: Catalog) -> None:
    parsed = parse("deepseak r1 on 8x h1oo, batch 32", catalog)
    assert parsed.fields["model"] == "deepseek-r1"
    assert parsed.fields["gpu"] == "h100-sxm"
    assert any("'h1oo' read as h100-sxm" in a for a in parsed.ambiguities)


@pytest.mark.parametrize(("said", "gpu"), [("mi3oox", "mi300x"), ("mi32sx", None)])
def test_zeros_typed_as_os_beside_a_real_i_are_read(
    catalog: Catalog, said: str, gpu: str | None
) -> None:
    parsed = parse(f"gpt-oss-120b on 8x {said}, batch 32", catalog)
    assert parsed.fields.get("gpu") == gpu


def test_a_family_alone_is_asked_not_guessed(catalog: Catalog) -> None:
    parsed = parse("deepseek on 8x h200, batch 32", catalog)
    assert "model" not in parsed.fields
    assert any("DeepSeek-V3 or DeepSeek-R1" in a for a in parsed.ambiguities)


def test_a_short_name_shared_by_two_models_says_which_it_took(catalog: Catalog) -> None:
    parsed = parse("llama 70b on 4x h100, batch 8", catalog)
    assert parsed.fields["model"] == "llama-3.1-70b"
    assert any("Llama 2 70B" in a for a in parsed.assumed)


def test_a_name_no_edit_explains_is_said_with_the_closest(catalog: Catalog) -> None:
    parsed = parse("kimi k3 on 8x h2000, batch 32", catalog)
    assert any("I don't know 'h2000' — did you mean h200?" in a for a in parsed.ambiguities)


def test_a_model_we_do_not_hold_is_not_read_as_a_typo_of_ours(catalog: Catalog) -> None:
    assert "model" not in fields("mistral large on 8x h100, batch 8", catalog)


def test_a_peak_rate_with_a_ratio_becomes_the_average(catalog: Catalog) -> None:
    got = fields("we peak at 400 req/s, peak to average 4:1, llama 3.1 70b, 200 out", catalog)
    assert got["requests_per_day"] == pytest.approx(100 * 86400)
    assert got["peak_to_average"] == 4.0


def test_a_peak_and_an_average_give_the_ratio(catalog: Catalog) -> None:
    got = fields("40 concurrent on average, 120 at peak, llama 3.1 70b on 4x h100", catalog)
    assert got["concurrency"] == 40
    assert got["peak_to_average"] == 3.0


def test_a_peak_alone_is_said_to_be_sized_as_steady(catalog: Catalog) -> None:
    parsed = parse("we peak at 400 req/s on llama 3.1 8b, 200 out", catalog)
    assert any("is the peak" in a for a in parsed.assumed)


def test_a_budget_is_not_a_price(catalog: Catalog) -> None:
    parsed = parse("budget is $50k a month, 1M req/day qwen3 32b, 500 out", catalog)
    assert "price_per_gpu_hour" not in parsed.fields
    assert any("a budget" in a for a in parsed.ambiguities)


def test_a_monthly_price_per_gpu_is_read_per_hour(catalog: Catalog) -> None:
    got = fields("$2,900/mo per H100, 8 h100 llama 3.1 70b", catalog)
    assert got["price_per_gpu_hour"] == pytest.approx(2900 / 730)


def test_a_value_no_one_means_is_named_and_not_used(catalog: Catalog) -> None:
    parsed = parse("8x h100 llama 3.1 70b at $2,000,000 per GPU-hour", catalog)
    assert "price_per_gpu_hour" not in parsed.fields
    assert any("not plausible" in a for a in parsed.ambiguities)


def test_an_as_of_date_is_read_and_other_dates_are_not_numbers(catalog: Catalog) -> None:
    assert fields("as of 2026-09-30, 8x b300 kimi k3", catalog)["as_of"] == dt.date(2026, 9, 30)
    got = fields("call on 2026-10-02 about 8x h200 llama 3.1 70b batch 16", catalog)
    assert "as_of" not in got and got["gpus"] == 8


def test_a_range_is_read_at_its_top_and_said(catalog: Catalog) -> None:
    parsed = parse("1-2k output tokens per request, 10 rps, llama 3.1 70b", catalog)
    assert parsed.fields["output_tokens"] == 2000
    assert any("the top of the range" in a for a in parsed.assumed)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("dsv3 fp8 8xh200 bs128 ctx8k", {"concurrency": 128, "context_tokens": 8000}),
        ("l3.1-70b 40rps 3k/800 ttft<1s", {"input_tokens": 3000, "output_tokens": 800}),
        ("TTFT p99 under 800 ms, 1M req/day llama 3.1 8b, 80 out", {"max_ttft_s": 0.8}),
        ("2000 tokens in and 300 out, 5 rps, llama 3.1 8b", {"input_tokens": 2000}),
        ("30 t/s per user, 2B output tokens a day, kimi k3", {"min_per_user_tokens_per_s": 30}),
        ("a single H200 running llama 3.1 8b, batch 4", {"gpus": 1}),
        ("3 nodes × 8 B200, deepseek v3, batch 64", {"gpus": 24}),
        ("Prompts are chunky, maybe 3,000 tokens. 5 rps on K3, 400 out", {"input_tokens": 3000}),
        ("K3 at 50 rps, 400 out; first token needs to show within 2 seconds", {"max_ttft_s": 2}),
        (
            "API at $0.10/M in and $0.30/M out, 1M req/day qwen3 32b, 500 out",
            {"api_price_per_million_input": 0.1, "api_price_per_million_output": 0.3},
        ),
    ],
)
def test_shorthands_and_sentence_context_are_read(
    text: str, expected: dict[str, float], catalog: Catalog
) -> None:
    got = fields(text, catalog)
    for key, value in expected.items():
        assert got.get(key) == pytest.approx(value), key


def test_a_traffic_names_its_gpu_in_the_contract_field(catalog: Catalog) -> None:
    got = fields("20 rps on h100, llama 3.1 70b, 300 out", catalog)
    assert got["gpu"] == "h100-sxm"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "API bill is two dollars and fifty cents per million output tokens, 40 rps qwen3 32b",
            {"api_price_per_million_output": 2.5},
        ),
        ("llama 405b on 2x8 h200 bs16", {"gpus": 16}),
        ("kimi k3 on 2 GB300 racks, batch 512", {"gpus": 144}),
        ("deepseek v3 on 3 B200 nodes, batch 64", {"gpus": 24}),
        ("qwen3.5 397 on mi325x x 8, bs 24", {"gpus": 8, "model": "qwen3.5-397b-a17b"}),
        ("GLM-5, traffic 1,5 billion output tokens for day", {"output_tokens_per_day": 1.5e9}),
        ("K3, 2B output tokens a day, first token not more than half second", {"max_ttft_s": 0.5}),
        ("deepseek-r1 30 rsp, 600 out", {"requests_per_day": 30 * 86400}),
        ("kimi k3 on 8x b300, concurrency one twenty-eight", {"concurrency": 128}),
        (
            "SLA: TPOT ≤ 20 ms, TTFT ≤ 1 s. gpt-oss-120b, 8M requests/day, 600 out",
            {"min_per_user_tokens_per_s": 50, "max_ttft_s": 1},
        ),
        (
            "Qwen3-30B-A3B traffic doubles every year; 600M output tokens/day",
            {"monthly_growth": 2 ** (1 / 12) - 1},
        ),
        (
            "Qwen3-32B at 1M req/day, 300 out; API: $0.20 in / $0.60 out per million",
            {"api_price_per_million_input": 0.2, "api_price_per_million_output": 0.6},
        ),
        (
            "GLM-5 API: $3.20 per million output tokens, input is $1.00/M; 1.2B output tokens/day",
            {"api_price_per_million_input": 1.0, "api_price_per_million_output": 3.2},
        ),
        (
            "Kimi K2.5 on 72 GB200, concurrency 1024, ISL 8k / OSL 1k",
            {"input_tokens": 8000, "output_tokens": 1000},
        ),
        (
            "GLM-5 grows 30% per quarter, 250M output tokens a day",
            {"monthly_growth": 1.3 ** (1 / 3) - 1},
        ),
        ("14.4M requests over the 7 days, llama 3.1 8b, 150 out", {"requests_per_day": 14.4e6 / 7}),
        ("Requests per\nday: about 10万, gpt-oss-20b, 500 out", {"requests_per_day": 1e5}),
        ("K3, 730B output tokens per annum", {"output_tokens_per_day": 2e9}),
        ("8x h100 llama 3.1 70b at $26,280 per GPU per year", {"price_per_gpu_hour": 3.0}),
        (
            "Llama 3.1 70B, 600k requests a day. Inputs average 2,200 tokens and outputs 380.",
            {"input_tokens": 2200, "output_tokens": 380},
        ),
        (
            "At the busiest hour we see 360 requests per second, about three times our average. "
            "Llama 3.1 8B, 180 out",
            {"requests_per_day": 120 * 86400, "peak_to_average": 3},
        ),
    ],
)
def test_how_people_write_numbers_in_context(
    text: str, expected: dict[str, object], catalog: Catalog
) -> None:
    got = fields(text, catalog)
    for key, value in expected.items():
        assert got.get(key) == (
            pytest.approx(value) if isinstance(value, float | int) else value
        ), key


@pytest.mark.parametrize(
    "text",
    [
        "I was on holiday until 5 of october, numbers next week",  # "until" is not "util"
        "Thanks for quote #A-1193, we will revert by 10/20.",  # a date, not 10 in / 20 out
    ],
)
def test_words_and_dates_that_are_not_fields(text: str, catalog: Catalog) -> None:
    assert fields(text, catalog) == {}


def test_a_span_of_time_is_not_a_lease_term(catalog: Catalog) -> None:
    parsed = parse("K3, 650M output tokens a day, +15% a month for the next 6 months", catalog)
    assert "term_months" not in parsed.fields
    assert any("not read as a lease term" in a for a in parsed.ambiguities)


def test_a_short_alias_does_not_replace_a_model_named_in_full(catalog: Catalog) -> None:
    parsed = parse("size Kimi K2.5 on 72 GB300, batch 512; send them the deck v3", catalog)
    assert parsed.fields["model"] == "kimi-k2.5"
    assert any("'v3' not read as deepseek-v3" in a for a in parsed.ambiguities)


def test_a_price_in_another_currency_is_said_not_used(catalog: Catalog) -> None:
    parsed = parse("8x h100 llama 3.1 70b at €3.10/GPU-hour", catalog)
    assert "price_per_gpu_hour" not in parsed.fields
    assert any("another currency" in a for a in parsed.ambiguities)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "| model | gpu | # gpus | concurrency | ISL | OSL | $/gpu-hr |\n"
            "|---|---|---|---|---|---|---|\n"
            "| Qwen3-32B | H200 | 2 | 96 | 3000 | 600 | 3.80 |",
            {"gpus": 2, "concurrency": 96, "input_tokens": 3000, "price_per_gpu_hour": 3.8},
        ),
        (
            "CSV export:\nmodel,req_per_hour,in_tok,out_tok,p2a\n"
            "qwen3-235b-a22b,54000,2200,450,2.2",
            {"requests_per_day": 54000 * 24, "input_tokens": 2200, "peak_to_average": 2.2},
        ),
        ("Model\tGLM-5\nRequests/sec\t65\nInput tokens\t1800", {"requests_per_day": 65 * 86400}),
        (
            "GPU type: H100 SXM\nGPU count: 16\nMonthly price / GPU: $2,190\n"
            "Model: Mixtral 8x7B\nConcurrent users: 200",
            {"gpus": 16, "price_per_gpu_hour": 3.0, "concurrency": 200},
        ),
        (
            'pasted: `{"model": "kimi-k3", "rps": 45, "in": 3000, "out": 800}`',
            {"requests_per_day": 45 * 86400, "input_tokens": 3000, "output_tokens": 800},
        ),
        ("`model=kimi-k3` `bs=32` `p2a=3` on 8x b300", {"concurrency": 32, "peak_to_average": 3}),
        ("model=kimi-k3 requests_per_hour=5000 output_tokens=400", {"requests_per_day": 120_000}),
        (
            "We need Llama 3.1 70B for about 1.5M\nrequests/day with 1k in / 300 out",
            {"requests_per_day": 1.5e6},
        ),
    ],
)
def test_pasted_tables_json_and_wrapped_lines_are_read(
    text: str, expected: dict[str, float], catalog: Catalog
) -> None:
    got = fields(text, catalog)
    for key, value in expected.items():
        assert got.get(key) == pytest.approx(value), key


def test_a_table_row_per_line_is_not_joined_as_a_wrapped_sentence(catalog: Catalog) -> None:
    got = fields("model,in_tok,out_tok\nllama-3.1-8b,900,150", catalog)
    assert got["input_tokens"] == 900 and got["output_tokens"] == 150


def test_a_short_gpu_name_we_do_not_hold_is_said(catalog: Catalog) -> None:
    parsed = parse("a single L4 running llama 3.1 8b, batch 4", catalog)
    assert any("I don't know 'L4'" in a for a in parsed.ambiguities)
    assert parse("in H2 we expect 2B output tokens a day of K3", catalog).ambiguities == []


def test_a_price_said_beside_each_gpu_stays_with_that_gpu(catalog: Catalog) -> None:
    parsed = parse("Kimi K3, 2B output tokens a day, B300 at $5/hr, H200 at $3.20/hr", catalog)
    traffic = parsed.traffic()
    assert traffic is not None and traffic.prices == {"b300": 5.0, "h200": 3.2}
    assert traffic.price_per_gpu_hour is None
    deployment = fields("8x H200 at $3/hr vs 8x B300 at $5/hr, llama 3.1 70b batch 32", catalog)
    assert deployment["gpu"] == "h200" and deployment["price_per_gpu_hour"] == 3.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Llama 3.1 70B, 2,5 Mio. requests per day, input ca. 1.200 tokens and output ca. 350 "
            "tokens",
            {"input_tokens": 1200, "output_tokens": 350},
        ),
        (
            "Llama 3.1 405B, 1,8 mil requests by day, answers of 500 tokens, "
            "questions of 2k tokens",
            {"requests_per_day": 1.8e6, "output_tokens": 500, "input_tokens": 2000},
        ),
        (
            "Llama 3.1 405B: 50k docs/day, 12k tokens in each, 800 out",
            {"requests_per_day": 5e4, "input_tokens": 12000},
        ),
        (
            "Qwen3-32B gets 2,400 requests/minute at the daily peak and about 900/min averaged "
            "across the day, 20 out",
            {"requests_per_day": 900 * 1440, "peak_to_average": 2400 / 900},
        ),
        (
            "Model | Kimi K2.5\nHardware | 8 x H20\nConcurrency | 16\nInput len | 12,000\n"
            "Output len | 900",
            {"concurrency": 16, "input_tokens": 12000, "output_tokens": 900},
        ),
        (
            "| use case | req/day | in | out |\n| support | 400,000 | 1,000 | 200 |\n"
            "| total | 1,000,000 | 1,000 | 200 |\nmodel: Qwen2.5 72B",
            {"requests_per_day": 1e6},
        ),
    ],
)
def test_forms_tables_and_non_native_phrasings(
    text: str, expected: dict[str, float], catalog: Catalog
) -> None:
    got = fields(text, catalog)
    for key, value in expected.items():
        assert got.get(key) == pytest.approx(value), key


def test_a_word_two_edits_from_a_keyword_is_no_typo_of_it(catalog: Catalog) -> None:
    got = parse("growing 5% a month through 2027, 30M output tokens/day on Llama 3.1 8B",
                catalog).fields
    assert "reasoning_tokens" not in got
    assert parse("1.1B outptu tokens/day on Llama 3.1 8B", catalog).fields[
        "output_tokens_per_day"] == 1.1e9


def test_a_split_of_the_tokens_gives_the_output_share(catalog: Catalog) -> None:
    got = parse("about 3B tokens a day, 25/75 output/input, on Qwen3-32B", catalog)
    assert got.fields["output_tokens_per_day"] == pytest.approx(0.75e9)
    assert "output_tokens" not in got.fields  # neither figure is a request's length


def test_a_correction_that_names_its_side_replaces_that_side(catalog: Catalog) -> None:
    got = parse("sam: Qwen3-32B, 20 rps avg\nsam: peak 60 rps\nsam: sorry, make it 25 avg",
                catalog)
    assert got.fields["requests_per_day"] == 25 * 86_400
    assert got.fields["peak_to_average"] == pytest.approx(60 / 25)


def test_doubling_every_year_is_growth_and_the_gpu_run_now_is_not_sized(catalog: Catalog) -> None:
    got = parse("throughput now is 900 tok/s on our H100 cluster; the new system on B300 must "
                "serve 2M requests/day of Llama 3.1 70B, doubling every year", catalog).fields
    assert got["gpu"] == "b300"
    assert got["monthly_growth"] == pytest.approx(2 ** (1 / 12) - 1)


def test_a_throughput_they_saw_is_no_volume_and_the_setup_is_a_scenario(catalog: Catalog) -> None:
    for said in ("we saw 6.2k tok/s", "they get ~6,200 tok/s total",
                 "they measured it at batch 64 (fp8): 6,200 tok/s"):
        got = parse(f"Llama 3.1 70B, 8x H200, batch 64, {said}. Estimate it at $3.10/GPU-hr",
                    catalog)
        assert got.kind == "scenario", said
        assert "output_tokens_per_day" not in got.fields


def test_today_marks_a_figure_seen_only_close_by(catalog: Catalog) -> None:
    far = parse("3rd customer today asking about Qwen3-32B 🙃 50 tok/s/user, 2M req a day",
                catalog).fields
    assert far["min_per_user_tokens_per_s"] == 50
    near = parse("Qwen3-32B, 2M req a day; currently TTFT is 1.4 s", catalog).fields
    assert "max_ttft_s" not in near


def test_an_average_said_as_a_share_of_the_rate_before_it(catalog: Catalog) -> None:
    got = parse("~12k requests/hour in office hours; the average over the whole day is about "
                "a third of that. Llama 3.1 8B", catalog).fields
    assert got["peak_to_average"] == pytest.approx(3.0)
    assert got["requests_per_day"] == pytest.approx(12_000 * 24 / 3)
    fleet = parse("we do 30k tokens/sec output at peak, avg is ~75% of peak. Qwen3-32B",
                  catalog).fields
    assert fleet["peak_to_average"] == pytest.approx(4 / 3)
    assert fleet["output_tokens_per_day"] == pytest.approx(30_000 * 86_400 * 0.75)


def test_concurrency_said_as_streams_agents_in_parallel_or_users_at_once(catalog: Catalog) -> None:
    for said in ("48 streams", "48 agents running in parallel", "48 users at once"):
        got = parse(f"Llama 3.1 70B on 8x H200, {said}", catalog).fields
        assert got["concurrency"] == 48, said
    per_gpu = parse("Llama 3.1 70B on 8x H200, 6 streams per GPU", catalog)
    assert per_gpu.fields["concurrency"] == 48  # the GPUs' streams, not one GPU's as the batch
    assert any("× 8 GPUs" in u for u in per_gpu.understood)


def test_shorthands_a_dm_uses(catalog: Catalog) -> None:
    dm = parse("llama 3.1 70b on 4x h100 at 2.6/hr, 24 streams?", catalog).fields
    assert (dm["price_per_gpu_hour"], dm["concurrency"]) == (2.6, 24)
    assert parse("Qwen3-32B, 3M req/day, they want sub-second TTFT", catalog).fields[
        "max_ttft_s"] == 1.0
    bracket = parse("1M req/day on Qwen3-32B, long prompts (~6k tokens), short outputs (~150)",
                    catalog).fields
    assert (bracket["input_tokens"], bracket["output_tokens"]) == (6000, 150)
    month = parse("They processed 6 billion tokens last month, about 75% of that was input. "
                  "Llama 3.1 8B", catalog).fields
    assert month["output_tokens_per_day"] == pytest.approx(6e9 * 0.25 / 30)


def test_the_gpu_they_benchmarked_or_own_is_not_the_one_sized(catalog: Catalog) -> None:
    bench = parse("Customer benchmarked Qwen3-32B on H100: 2,400 tok/s at batch 64. Real traffic: "
                  "3M requests/day, 1k in / 200 out. Size on B200.", catalog).fields
    assert bench["gpu"] == "b200"
    assert "output_tokens_per_day" not in bench
    own = parse("existing 8x A100 contract ends in May. They want a quote for Llama 3.1 70B on "
                "16x H200 at $3.10/GPU-hr, batch 32.", catalog).fields
    assert (own["gpu"], own["gpus"]) == ("h200", 16)


def test_a_peak_multiple_in_brackets_after_its_word(catalog: Catalog) -> None:
    got = parse("~2B output tok/day, Llama 3.1 8B, spiky af (4x at lunch)", catalog).fields
    assert got["peak_to_average"] == 4.0


def test_a_peak_hour_count_is_per_hour_and_a_daily_total_its_average(catalog: Catalog) -> None:
    got = parse("peak hour was 30,000 requests and the daily total was 480k. Qwen3-32B",
                catalog).fields
    assert got["requests_per_day"] == 480_000
    assert got["peak_to_average"] == pytest.approx(30_000 * 24 / 480_000)


def test_a_typical_day_after_a_busiest_hour_is_the_average_of_that_peak(catalog: Catalog) -> None:
    parsed = parse("the busiest hour is 90k requests; a typical day is ~1.2M requests. "
                   "Qwen3-32B", catalog)
    assert parsed.fields["requests_per_day"] == 1_200_000
    assert parsed.fields["peak_to_average"] == pytest.approx(90_000 * 24 / 1_200_000)
    assert not any("sized as if steady" in a for a in parsed.assumed)


def test_a_rate_during_the_peak_hour_is_the_peak(catalog: Catalog) -> None:
    got = parse("The system shall serve 40,000 requests per hour during an average hour and "
                "100,000 requests per hour during the peak hour. GLM-5", catalog).fields
    assert got["requests_per_day"] == 40_000 * 24
    assert got["peak_to_average"] == 2.5


def test_texting_shorthand_for_are(catalog: Catalog) -> None:
    assert parse("kimi k3 500m output toks a day, peaks r 3x", catalog).fields[
        "peak_to_average"] == 3.0


def test_one_of_several_stacks_and_one_in_a_place_are_no_figures(catalog: Catalog) -> None:
    got = parse("Two stacks, one in Oregon, one in Dublin: each is Llama 3.1 70B on 8x H200, "
                "batch 32. Quote ONE of them at $3.50/GPU-hour.", catalog).fields
    assert (got["gpus"], got["gpu"]) == (8, "h200")
    assert "input_tokens" not in got


def test_an_answer_said_after_its_figure_keeps_it(catalog: Catalog) -> None:
    got = parse("DeepSeek-R1, 50k requests/day. Each req: ~4k input, ~700 final answer + ~2k "
                "reasoning.", catalog).fields
    assert (got["output_tokens"], got["reasoning_tokens"]) == (700, 2000)


def test_a_price_per_request_is_no_gpu_price(catalog: Catalog) -> None:
    got = parse("$2,190 per GPU per month on H100, 30 requests per second of Llama 3.1 8B. "
                "Revenue per request is ~0.3¢.", catalog)
    assert got.fields["price_per_gpu_hour"] == pytest.approx(3.0)
    assert any("a price per request, not used" in a for a in got.ambiguities)


def test_steps_of_an_agent_and_requests_of_users_are_requests(catalog: Catalog) -> None:
    assert parse("120 agent steps per second on Qwen3-32B", catalog).fields[
        "requests_per_day"] == 120 * 86_400
    assert parse("3M user requests a day on Llama 3.1 8B", catalog).fields[
        "requests_per_day"] == 3_000_000


def test_a_count_with_its_kind_before_its_requests_word(catalog: Catalog) -> None:
    for said, rate in (("2.5M classification calls a day", 2.5e6),
                       ("800 NPC-line requests/s", 800 * 86_400),
                       ("12M dialogue lines per day", 12e6)):
        got = parse(f"{said} on Llama 3.1 8B", catalog).fields
        assert got["requests_per_day"] == pytest.approx(rate), said
    assert "requests_per_day" not in parse("900k embedding calls/day on Llama 3.1 8B",
                                           catalog).fields


def test_telegraphic_one_liners(catalog: Catalog) -> None:
    got = parse("K3 · 16×B300 · c64 · nvfp4 · $5.10 · 24mo", catalog).fields
    assert (got["concurrency"], got["gpus"], got["price_per_gpu_hour"]) == (64, 16, 5.10)
    short = parse("2x8 H200, dsv3, fp8, b=128, 2k/500, 3.15/hr", catalog).fields
    assert (short["concurrency"], short["price_per_gpu_hour"]) == (128, 3.15)
    arrow = parse("qwen3-32b / h100 / 20 rps avg / 60 pk / 3k→250", catalog).fields
    assert (arrow["input_tokens"], arrow["output_tokens"]) == (3000, 250)
    assert arrow["peak_to_average"] == pytest.approx(3.0)
    rph = parse("k2.5 h200 · 4k rph avg · pk×2", catalog).fields
    assert (rph["requests_per_day"], rph["peak_to_average"]) == (96_000, 2.0)


def test_a_bare_price_in_another_currency_and_a_version_in_transit(catalog: Catalog) -> None:
    got = parse("4x H100 with Llama 3.1 70B at batch 8, billed at CHF 2.40/GPU-hour", catalog)
    assert "price_per_gpu_hour" not in got.fields
    tls = parse("500k requests/day on Qwen3-32B, 2,000 tokens in / 300 out. TLS 1.3 in transit.",
                catalog).fields
    assert tls["input_tokens"] == 2000


def test_a_busiest_hour_and_an_average_as_its_share(catalog: Catalog) -> None:
    got = parse("Their busiest hour is 40,000 requests and the average hour is about 25% of that. "
                "Qwen3-32B on H200", catalog).fields
    assert got["requests_per_day"] == pytest.approx(40_000 * 24 * 0.25)
    assert got["peak_to_average"] == pytest.approx(4.0)


def test_a_monthly_price_for_the_whole_box_is_split_over_its_gpus(catalog: Catalog) -> None:
    got = parse("4x L40S running Llama 3.1 8B, batch 64, $2,920/month for the whole box",
                catalog).fields
    assert got["price_per_gpu_hour"] == pytest.approx(2_920 / 730 / 4)


def test_a_latency_budget_a_model_with_its_precision_and_a_yearless_date(catalog: Catalog) -> None:
    tpot = parse("Qwen3-32B on B200, 2M req/day, TPOT budget 20 ms", catalog).fields
    assert tpot["min_per_user_tokens_per_s"] == pytest.approx(50)
    fp8 = parse("2x H200, Qwen3-32B FP8, batch 64", catalog).fields
    assert (fp8["model"], fp8["precision"]) == ("qwen3-32b", "fp8")
    dated = parse("for the committee on 12/09: one 8-GPU B300 node, GLM-5, batch 24, at $29,200 "
                  "per node per month", catalog).fields
    assert (dated["gpus"], dated["price_per_gpu_hour"]) == (8, pytest.approx(5.0))


def test_the_sealed_voices_shorthand_and_lengths(catalog: Catalog) -> None:
    ae = parse("acme: 2k req/min at peak, avg is abt half that. qwen3-32b, h100 ok? "
               "in 800 / out 200", catalog).fields
    assert (ae["input_tokens"], ae["output_tokens"], ae["peak_to_average"]) == (800, 200, 2.0)
    se = parse("GLM-5 on 16 MI355X, batch 32: give me the TTFT at 3k in / 400 out", catalog).fields
    assert (se["input_tokens"], se["output_tokens"]) == (3000, 400)
    assert "max_ttft_s" not in se
    rfp = parse("Model: Kimi K3, with reasoning tokens averaging 1,500 and final output 300 per "
                "request. 2M requests/day", catalog).fields
    assert (rfp["reasoning_tokens"], rfp["output_tokens"]) == (1500, 300)
    hour = parse("an average hour is around thirty thousand requests, the busiest hour about "
                 "ninety thousand. Qwen3-32B", catalog).fields
    assert hour["requests_per_day"] == 30_000 * 24
    assert hour["peak_to_average"] == pytest.approx(3.0)
    dm = parse("~20k DAU, each does abt 10 requests a day. kimi k2.5, out ~500 tok", catalog)
    assert dm.fields["output_tokens"] == 500


def test_struck_text_a_ruled_out_aside_and_growth_over_the_next_year(catalog: Catalog) -> None:
    struck = parse("Llama 3.1 8B, 1M requests/day, ~outputs 600~ outputs closer to 300", catalog)
    assert struck.fields["output_tokens"] == 300
    aside = parse("8x H200, Qwen3-32B, batch 32, at our 24-mo rate of $3.10/GPU-hr (not the "
                  "$3.40 12-mo rate)", catalog).fields
    assert (aside["price_per_gpu_hour"], aside["term_months"]) == (3.10, 24)
    growth = parse("2B output tokens a day of Qwen3-32B; growth: we expect roughly 40% over "
                   "the next year", catalog).fields
    assert growth["monthly_growth"] == pytest.approx(1.4 ** (1 / 12) - 1)


def test_a_model_they_tried_is_not_the_one_sized(catalog: Catalog) -> None:
    got = parse("2M requests/day. Model: Qwen3-32B (they tried Llama 3.1 70B, too slow). B300.",
                catalog).fields
    assert got["model"] == "qwen3-32b"


def test_a_peak_hours_share_of_the_day_and_a_day_said_with_its_model(catalog: Catalog) -> None:
    got = parse("Typical day: 2M Qwen3-32B calls, and the peak hour carries ~12.5% of the "
                "day's calls.", catalog).fields
    assert got["requests_per_day"] == 2_000_000
    assert got["peak_to_average"] == pytest.approx(3.0)


def test_the_same_ratio_after_a_plan_pairs_the_peak_with_its_own_average(
    catalog: Catalog,
) -> None:
    got = parse("Now: 100 rps average, 300 rps peak. Planned after launch: 200 rps average, "
                "with the same peak-to-average ratio. Size for after. Qwen3-32B", catalog).fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (200 * 86400, 3.0)


def test_one_volume_said_as_a_day_and_its_hourly_average_has_no_peak(catalog: Catalog) -> None:
    got = parse("48k queries/day (i.e. the 2k/hr average). Qwen3-32B", catalog).fields
    assert got["requests_per_day"] == 48_000
    assert "peak_to_average" not in got


def test_a_deployment_fixed_at_its_peak_concurrency(catalog: Catalog) -> None:
    got = parse("Average concurrency is 30 and the peak is 90; they want the deployment fixed "
                "at the peak: Qwen3-32B, 8x H100, 90 concurrent", catalog).fields
    assert got["concurrency"] == 90


def test_a_fraction_that_moves_is_the_slice_sized(catalog: Catalog) -> None:
    got = parse("Of their ~600M output tokens a day across all models, about a third will "
                "move to GLM-5 on our GPUs. Size that slice only.", catalog).fields
    assert got["output_tokens_per_day"] == pytest.approx(200e6)


@pytest.mark.parametrize(
    "window", ["in the first half hour after the open", "from 7–11pm", "at the 10am peak"]
)
def test_a_multiple_said_of_a_time_of_day_is_the_peak(catalog: Catalog, window: str) -> None:
    parsed = parse(f"600k output tokens a minute on average, about 3x that {window}. GLM-5",
                   catalog)
    assert parsed.fields["peak_to_average"] == 3.0
    assert parsed.fields["output_tokens_per_day"] == 600_000 * 1440
    assert not any("sized for today's" in a for a in parsed.ambiguities)


@pytest.mark.parametrize(
    "vague",
    ["a few hundred thousand", "several million", "a couple of million", "a handful of thousand"],
)
def test_a_vague_quantity_of_a_scale_is_asked_not_read_as_one(catalog: Catalog, vague: str) -> None:
    parsed = parse(f"Llama 3.1 70B on H200, {vague} requests a day, 800 in / 200 out", catalog)
    assert "requests_per_day" not in parsed.fields
    assert any(f"'{vague}' is no figure" in a for a in parsed.ambiguities)


def test_a_precise_count_in_a_named_month_after_a_vague_ballpark(catalog: Catalog) -> None:
    got = parse("Ballpark was a few hundred thousand conversations a month. The export: 612,000 "
                "conversations in September, 9.5 turns on average. MiniMax M2.5", catalog).fields
    assert got["requests_per_day"] == pytest.approx(612_000 * 9.5 / 30)


def test_a_volume_in_a_named_month_is_that_months(catalog: Catalog) -> None:
    assert fields("We served 18M requests in October on Qwen3-32B", catalog)[
        "requests_per_day"] == pytest.approx(600_000)


def test_turns_per_a_misspelt_session_before_the_sessions(catalog: Catalog) -> None:
    got = fields("players do ~8 turns per sesion, 500k sessions a day. DeepSeek-R1", catalog)
    assert got["requests_per_day"] == pytest.approx(4_000_000)


def test_the_calls_a_member_spends_across(catalog: Catalog) -> None:
    parsed = parse("DeepSeek-R1: 1,200 reports a day, each report burns ~1.8M output tokens in "
                   "total across ~300 calls.", catalog)
    assert parsed.fields["requests_per_day"] == pytest.approx(360_000)
    assert any(u.endswith("× 'across 300 calls'") for u in parsed.understood)


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # new figure, then 'not' the old
        ("Qwen3-32B on L40S, 20 rps, 300 out, target 70% utilization. Update: 65%, not 70.",
         "planned_utilization", 0.65),
        ("8x H200 with Llama 3.1 70B, batch 64, 12-month term. Sorry, batch is 48 on their "
         "latest run, not 64.", "concurrency", 48),
        # the correction names its field
        ("GLM-5 on H200: 3k in, 500 out, 2M requests/day. Ignore the output figure, the new "
         "template makes it more like 350.", "output_tokens", 350),
        ("Kimi K3, 6k prompt tokens, 400 out, 1M req/day. Scratch the prompt number: after "
         "trimming it is about 4,500.", "input_tokens", 4500),
        ("Qwen3-32B on H200: 30 rps, 200 out, plan for 55% utilization. Update on the "
         "utilization: ops now says 65%.", "planned_utilization", 0.65),
        # in the next sentence
        ("Qwen3-32B on H200, 300 out, 2M requests/day. Actually make that 2.4M, marketing "
         "added a region.", "requests_per_day", 2.4e6),
        ("GLM-5, 1M req/day, 400 out, TTFT under 2 s. Scratch that, legal says 1.2 s.",
         "max_ttft_s", 1.2),
        ("Kimi K3, 1M req/day, 500 out. We were told 8k context; they actually need 64k.",
         "context_tokens", 64_000),
        ("Kimi K3, 1M req/day, 500 out, plan at 55% utilization. Actually, let's say 70%.",
         "planned_utilization", 0.70),
    ],
)
def test_a_correction_replaces_the_figure_it_corrects_and_says_so(
    text: str, field: str, value: float, catalog: Catalog
) -> None:
    parsed = parse(text, catalog)
    assert parsed.fields[field] == pytest.approx(value)
    assert any("read as a correction" in a for a in parsed.assumed)


def test_a_gpu_scratched_by_name_gives_way_to_the_one_named_after(catalog: Catalog) -> None:
    parsed = parse("GLM-5 on H100s, 90k req/day, 800 in, 300 out. Scratch the H100, procurement "
                   "wants MI355X.", catalog)
    assert parsed.fields["gpus"] == ("mi355x",)
    assert any("read as a correction of H100" in a for a in parsed.assumed)


def test_a_name_said_to_be_pasted_by_mistake_is_taken_back(catalog: Catalog) -> None:
    parsed = parse("Qwen3-32B, 2M req/day, 300 out, on A100. Edit: the GPU is H200, the A100 "
                   "was a leftover from the old template.", catalog)
    assert parsed.fields["gpus"] == ("h200",)


def test_a_correction_naming_another_fact_leaves_the_figure_before_it(catalog: Catalog) -> None:
    got = parse("8x H200 with Llama 3.1 70B, $3.10/GPU-hr, 24-month term. Oops, batch is 40 "
                "in their config.", catalog).fields
    assert (got["term_months"], got["concurrency"]) == (24, 40)


def test_a_figure_explained_away_after_its_replacement(catalog: Catalog) -> None:
    parsed = parse("Peak-to-average is 3x. Hmm, checking my notes... it's 2.5x, the 3x was "
                   "Black Friday. Avg 12k requests/hour, Qwen2.5 72B", catalog)
    assert parsed.fields["peak_to_average"] == 2.5
    assert any("read as a correction" in a for a in parsed.assumed)


def test_a_figure_explained_away_before_its_replacement(catalog: Catalog) -> None:
    got = fields("They do 6M requests a day on Qwen3-30B-A3B. Actually scratch that, 6M was "
                 "last month's total; daily is more like 200k. Output ~350 tokens.", catalog)
    assert got["requests_per_day"] == 200_000


def test_a_figure_said_again_as_it_was_is_no_correction(catalog: Catalog) -> None:
    got = fields("Qwen3-32B: 3x peak to average. The 3x was measured in March, and 1M "
                 "requests a day is the average.", catalog)
    assert (got["peak_to_average"], got["requests_per_day"]) == (3.0, 1_000_000)


@pytest.mark.parametrize(
    "reason", ["they said 8 GPUs don't hold the KV cache", "8x B200 wasn't enough for them"]
)
def test_a_gpu_count_said_falling_short_is_a_reason_not_the_deployment(
    catalog: Catalog, reason: str
) -> None:
    parsed = parse(f"GLM-5 on 16x B200, FP8, 96 concurrent: {reason}.", catalog)
    assert parsed.fields["gpus"] == 16
    assert not any("two GPU counts" in a for a in parsed.ambiguities)


@pytest.mark.parametrize("said", ["doubled in 3 months", "they want it live within 2 months"])
def test_months_from_now_are_no_lease_term(catalog: Catalog, said: str) -> None:
    parsed = parse(f"kimi k2.5, 1M requests/day, {said}", catalog)
    assert "term_months" not in parsed.fields
    assert any("not read as a lease term" in a for a in parsed.ambiguities)


def test_the_members_sized_for_are_counted_in_their_turns(catalog: Catalog) -> None:
    got = fields("each convo is ~7 turns, kimi k2.5 rn. can u size it for 1M convos/day?", catalog)
    assert got["requests_per_day"] == 7_000_000


@pytest.mark.parametrize(
    ("said", "turns"),
    [
        ("6 turns each. oh wait, 4 turns avg, 6 was the max", 4),
        ("6 turns each. sorry, 4 turns each", 4),
    ],
)
def test_a_count_per_member_corrected_is_not_multiplied_twice(
    catalog: Catalog, said: str, turns: int
) -> None:
    parsed = parse(f"mixtral 8x7b on A100s: they do ~400k chats/day, {said}.", catalog)
    assert parsed.fields["requests_per_day"] == 400_000 * turns
    assert any("in place of" in a for a in parsed.assumed)


def test_a_correction_of_the_time_a_figure_is_said_over(catalog: Catalog) -> None:
    got = fields("MiniMax M2.5: 25k requests per hour, growing 20% a month — sorry, 20% a QUARTER",
                 catalog)
    assert got["monthly_growth"] == pytest.approx(1.2 ** (1 / 3) - 1)
    tokens = fields("Qwen3.5 397B, 1.5B output tokens per month — ugh, per WEEK, not month",
                    catalog)
    assert tokens["output_tokens_per_day"] == pytest.approx(1.5e9 / 7)


def test_a_gpu_ruled_out_after_the_correction_stays_out(catalog: Catalog) -> None:
    got = fields("800k requests/day on Llama 3.1 70B, on H100s — sorry, H200s, they already "
                 "ruled out H100 on the last call.", catalog)
    assert got["gpu"] == "h200"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Kimi K2.5 su GB300. Circa 3 miliardi di token in uscita al mese, con picchi 2x "
         "rispetto alla media, e crescita del 5% al mese.",
         {"output_tokens_per_day": 1e8, "peak_to_average": 2.0, "monthly_growth": 0.05}),
        ("Llama 3.1 8B na L40S, 1 200 000 zapytań dziennie, 600 tokenów wejścia i 150 wyjścia.",
         {"requests_per_day": 1.2e6, "input_tokens": 600, "output_tokens": 150}),
        ("Kimi K2 MI355X üzerinde. Günde yaklaşık 900 bin istek, istek başına 3.000 giriş ve 400 "
         "çıkış tokenı. Fiyat GPU saati başına 2,75 dolar, süre 18 ay.",
         {"requests_per_day": 9e5, "input_tokens": 3000, "output_tokens": 400,
          "price_per_gpu_hour": 2.75, "term_months": 18}),
        ("gpt-oss-120b op H100, 2.000 input tokens en 500 output tokens per verzoek. "
         "Looptijd 36 maanden.", {"input_tokens": 2000, "term_months": 36}),
        ("customer ka traffic roz ka 50 lakh requests hai, model GLM-5",
         {"requests_per_day": 5e6}),
    ],
)
def test_italian_polish_turkish_dutch_and_hindi_volumes(
    catalog: Catalog, text: str, expected: dict[str, float]
) -> None:
    read_as(text, catalog, expected)


@pytest.mark.parametrize(
    ("said", "hours"),
    [("during business hours (9am-5pm), basically nothing overnight", 8),
     ("between 08:00 and 20:00, nothing at night", 12)],
)
def test_a_rate_said_over_a_span_of_the_clock_runs_those_hours(
    catalog: Catalog, said: str, hours: int
) -> None:
    got = fields(f"gpt-oss-120b: ~45 rps {said}", catalog)
    assert got["requests_per_day"] == pytest.approx(45 * 3600 * hours)
    assert got["peak_to_average"] == pytest.approx(24 / hours)


def test_a_request_count_with_a_dot_before_three_digits_is_in_thousands(
    catalog: Catalog,
) -> None:
    parsed = parse("klant wil gpt-oss-120b op H100, ongeveer 350.000 verzoeken per dag", catalog)
    assert parsed.fields["requests_per_day"] == 350_000
    assert any("the dot groups thousands" in a for a in parsed.assumed)


def test_an_rfp_matrix_with_requirement_ids_and_field_names_before_values(
    catalog: Catalog,
) -> None:
    parsed = parse("Req ID\tRequirement\tValue\nR-01\tModel\tQwen3-235B-A22B\n"
                   "R-03\tMonthly requests\t45,000,000\nR-04\tInput tokens per request\t1,500\n"
                   "R-05\tOutput tokens per request\t600\nR-06\tContract length (months)\t24",
                   catalog)
    assert parsed.fields == {"model": "qwen3-235b-a22b", "requests_per_day": 1_500_000,
                             "input_tokens": 1500, "output_tokens": 600, "term_months": 24}
    assert not any("read as months" in a for a in parsed.assumed)


@pytest.mark.parametrize(
    "said",
    ["context length 65,536", "a maximum context length of 65,536 tokens",
     "the context window must support 65,536 tokens", "context size: 65,536"],
)
def test_a_context_length_said_in_words_is_the_context(said: str, catalog: Catalog) -> None:
    got = fields(f"Qwen3-235B on H200, 400k requests/day, 900 out, {said}.", catalog)
    assert got["context_tokens"] == 65_536


def test_a_prompt_of_up_to_n_tokens_of_context_is_the_context(catalog: Catalog) -> None:
    got = fields("R-4.2 Prompt: up to 8,000 tokens of context; typical prompt 2,500 tokens. "
                 "Llama 3.1 405B", catalog)
    assert (got["context_tokens"], got["input_tokens"]) == (8000, 2500)


def test_a_node_price_with_a_discount_and_the_nodes_said_after(catalog: Catalog) -> None:
    got = fields("$28,800/month per 8x B300 node, 12-month term, 10% off for prepaying "
                 "annually (they are prepaying). 2 nodes, DeepSeek R1 NVFP4, 128 concurrent.",
                 catalog)
    assert got["gpus"] == 16
    assert got["price_per_gpu_hour"] == pytest.approx(28_800 / 730 / 8 * 0.9)


@pytest.mark.parametrize(
    ("said", "ratio"), [("avg:peak is 1:4", 4.0), ("peak:avg 3:1", 3.0)]
)
def test_a_peak_to_average_said_with_a_colon_either_way(
    catalog: Catalog, said: str, ratio: float
) -> None:
    got = fields(f"GLM-5: 4,000 RPS at peak, {said}. H100.", catalog)
    assert got["peak_to_average"] == ratio
    assert got["requests_per_day"] == pytest.approx(4000 * 86400 / ratio)


@pytest.mark.parametrize(
    "text",
    ["DeepSeek-V3 em B200. No pico são 40 mil requisições por hora, e a média fica em mais ou "
     "menos metade disso.",
     "GLM-5, roz ka 24 lakh requests hai aur peak ka time pe 40 mil per hora. Peak average ka 2 "
     "guna hai."],
)
def test_an_average_said_as_a_part_of_the_peak_abroad(catalog: Catalog, text: str) -> None:
    assert fields(text, catalog)["peak_to_average"] == 2.0


def test_turns_per_conversation_after_the_share_that_opens_one(catalog: Catalog) -> None:
    got = fields("Retail bot: 40M site visits/month, ~3% open the assistant, avg 5 turns per "
                 "conversation. Qwen3-30B-A3B on H100.", catalog)
    assert got["requests_per_day"] == pytest.approx(200_000)


def test_an_rfp_list_with_a_percentile_aside_and_a_projected_annual_growth(
    catalog: Catalog,
) -> None:
    got = fields("R-4.1 Expected traffic: 30 requests per second on average.\nR-4.4 TPOT (p99) "
                 "≤ 40 ms.\nR-4.6 Annual traffic growth is projected at 60%. Llama 3.1 405B",
                 catalog)
    assert got["min_per_user_tokens_per_s"] == 25.0
    assert "max_ttft_s" not in got
    assert got["monthly_growth"] == pytest.approx(1.6 ** (1 / 12) - 1)


def test_a_table_peak_divided_by_the_ratio_the_table_gives(catalog: Catalog) -> None:
    parsed = parse("| Parameter | Value |\n|---|---|\n| Model | DeepSeek-V3 |\n| Peak QPS | 120 |\n"
                   "| Peak-to-average ratio | 4 |\n| Target accelerator | NVIDIA B200 |", catalog)
    assert parsed.fields["requests_per_day"] == pytest.approx(120 * 86400 / 4)
    assert not any("wins over" in a for a in parsed.ambiguities)


def test_calls_with_their_average_minutes_and_turns_a_minute(catalog: Catalog) -> None:
    parsed = parse("Voice agent: 25k calls/day, avg 4 minutes, ~5 turns per minute. gpt-oss-120b "
                   "on H100, TTFT under 500 ms.", catalog)
    assert parsed.fields["requests_per_day"] == 500_000
    assert parsed.ambiguities == []


def test_answers_said_as_a_volume_and_each_answers_visible_and_reasoning_tokens(
    catalog: Catalog,
) -> None:
    got = fields("Hooli search answers: 60M queries a month, each answer ~450 visible tokens plus "
                 "~1,200 reasoning tokens. R1 on GB200.", catalog)
    assert (got["requests_per_day"], got["output_tokens"], got["reasoning_tokens"]) == (
        2_000_000, 450, 1200)


@pytest.mark.parametrize(
    "said", ["Each contract = one summarization call", "a turn every 10 s, 36 turns per call"]
)
def test_each_or_every_before_a_term_word_or_a_time_is_no_term_or_latency(
    catalog: Catalog, said: str
) -> None:
    parsed = parse(f"Qwen2.5-72B on MI300X, 250k calls a month. {said}.", catalog)
    assert "term_months" not in parsed.fields and "max_ttft_s" not in parsed.fields


@pytest.mark.parametrize(
    "text",
    ["fwd: Can you tell us if Mixtral runs on L40S at all? We have four of them on-prem.",
     "We upgraded vLLM and our H100 boxes look faster on Mixtral 8x7B. Does your catalog "
     "already include that?"],
)
def test_a_question_about_a_model_on_a_gpu_is_no_sizing(catalog: Catalog, text: str) -> None:
    assert parse(text, catalog).kind == "unknown"


def test_swedish_peak_and_an_average_a_third_of_it(catalog: Catalog) -> None:
    got = fields("Toppen är 90 req/s kl. 14.00–16.00, snittet över dygnet är ungefär en "
                 "tredjedel av det. DeepSeek-V3, H100.", catalog)
    assert (got["requests_per_day"], got["peak_to_average"]) == (90 * 86400 / 3, 3.0)


@pytest.mark.parametrize(
    "text",
    ["Busy hours 8am–8pm run ~50 req/s; the other 12 hours ~10 req/s. Qwen3-30B-A3B",
     "Day traffic: 50 QPS from 08:00 to 20:00. Night: 10 QPS from 20:00 to 08:00. Qwen3-30B-A3B",
     "Daytime (8am–8pm) they do ~50 requests per second; overnight it's ~10 requests per "
     "second. Qwen3-30B-A3B"],
)
def test_a_busy_rate_and_a_quiet_one_make_the_day_between_them(
    catalog: Catalog, text: str
) -> None:
    got = fields(text, catalog)
    assert got["requests_per_day"] == pytest.approx((50 * 12 + 10 * 12) * 3600)
    assert got["peak_to_average"] == pytest.approx(50 / 30)


@pytest.mark.parametrize(
    ("said", "ratio"),
    [("The peak-to-average ratio of the workload is 1.8", 1.8), ("P:A 2.2", 2.2),
     ("peak loads of 2.5 times the sustained load", 2.5),
     ("the p99 minute is 310 req/s", 310 / 90)],
)
def test_more_ways_to_say_the_peak(catalog: Catalog, said: str, ratio: float) -> None:
    got = fields(f"Qwen3-235B, avg 90 requests per second, {said}.", catalog)
    assert got["peak_to_average"] == pytest.approx(ratio)


def test_flat_traffic_has_no_peak(catalog: Catalog) -> None:
    parsed = parse("Stark: llama 3.1 8b for autocomplete. 150 QPS, flat all day.", catalog)
    assert parsed.fields["peak_to_average"] == 1.0
    assert any("no peak" in u for u in parsed.understood)


def test_a_busiest_hour_and_the_whole_days_count(catalog: Catalog) -> None:
    got = fields("Busiest hour is 50k requests; the whole day comes to about 480k. Qwen3-32B",
                 catalog)
    assert (got["requests_per_day"], got["peak_to_average"]) == (480_000, 2.5)


def test_weekdays_count_a_day_and_a_close_running_at_a_multiple_is_a_peak(
    catalog: Catalog,
) -> None:
    weekdays = fields("Weekdays are ~1.4M requests, weekends drop to ~300k. gpt-oss-120b", catalog)
    assert weekdays["requests_per_day"] == 1_400_000
    close = fields("Averaged across the month it's 20k req/day, but the finance close runs at 5x "
                   "that and they can't queue during close. Mixtral 8x7B", catalog)
    assert (close["requests_per_day"], close["peak_to_average"]) == (20_000, 5.0)


def test_a_fixed_deployment_estimated_at_its_peak_concurrency(catalog: Catalog) -> None:
    got = fields("16x H200 running GLM-5. Average concurrency is ~40, but it peaks at 110 "
                 "concurrent around 8pm. Estimate at the peak concurrency.", catalog)
    assert got["concurrency"] == 110


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Llama 3.1 405B on H200: 500k requests/day — wait, that was last quarter's number, "
         "they're at 650k now.", "requests_per_day", 650_000),
        ("16x MI355X, GLM-5, concurrency 128 — scratch that, they capped it at 96 in the load "
         "balancer.", "concurrency", 96),
        ("Price out twelve H100s for Mixtral 8x7B... make that sixteen, they want headroom.",
         "gpus", 16),
        ("Qwen3-30B-A3B, 1.1M requests a day, H100. term is 24 months. no — 30.", "term_months",
         30),
    ],
)
def test_a_correction_a_few_words_before_its_figure(
    catalog: Catalog, text: str, field: str, value: float
) -> None:
    parsed = parse(text, catalog)
    assert parsed.fields[field] == value
    assert any("read as a correction" in a for a in parsed.assumed)


def test_a_correction_of_another_fact_leaves_a_figure_before_it(catalog: Catalog) -> None:
    ttft = fields("Qwen3-32B: 60k requests/day, TTFT under 1 s. Oops, 60k an hour, not a day.",
                  catalog)
    assert (ttft["max_ttft_s"], ttft["requests_per_day"]) == (1.0, 60_000 * 24)
    side = fields("gpt-oss-120b, 40 rps avg over 24h. priya: actually make it 45 avg", catalog)
    assert side["requests_per_day"] == 45 * 86400


def test_calls_to_an_api_grown_year_over_year(catalog: Catalog) -> None:
    got = fields("> Current usage: 85,000 API calls/day to our Kimi K2.5 endpoint. Usage has grown "
                 "50% year-over-year and we expect that to continue.", catalog)
    assert got["requests_per_day"] == 85_000
    assert got["monthly_growth"] == pytest.approx(1.5 ** (1 / 12) - 1)


def test_the_share_of_calls_moving_over(catalog: Catalog) -> None:
    got = fields("Total platform traffic is 5M requests/day, but only the Insights feature (about "
                 "15% of calls) is moving to self-hosted Qwen3-32B. H200.", catalog)
    assert got["requests_per_day"] == pytest.approx(750_000)


def test_apps_of_several_words_listed_after_a_rate_add_up(catalog: Catalog) -> None:
    got = fields("Three apps going onto one cluster, so add them up: search summaries 180k "
                 "req/day, support bot 95k, internal copilot 25k. Qwen3-30B-A3B", catalog)
    assert got["requests_per_day"] == 300_000


def test_the_tokens_a_model_thinks_then_writes(catalog: Catalog) -> None:
    got = fields("R1 for grading: 30k submissions a day, one call each; the model thinks for ~4k "
                 "tokens then writes a ~200 token verdict.", catalog)
    assert (got["reasoning_tokens"], got["output_tokens"]) == (4000, 200)


def test_the_count_of_the_gpus_they_run_today_is_no_deployment(catalog: Catalog) -> None:
    parsed = parse("Our pilot processes 14,000 requests per day on Llama 3.1 70B. We currently run "
                   "on 4x A100 in our own data center but would like to look at H200.", catalog)
    assert parsed.kind == "traffic" and parsed.fields["gpu"] == "h200"
    renewal = fields("existing 16x H100 contract ends in Jan. They want a quote for Kimi K2.5 on "
                     "32x B300, batch 64.", catalog)
    assert (renewal["gpus"], renewal["gpu"]) == (32, "b300")


def test_a_count_of_pages_after_a_contract_is_no_term(catalog: Catalog) -> None:
    got = fields("6,000 contracts a day; a contract is ~40 pages. DeepSeek V3 on B200.", catalog)
    assert "term_months" not in got


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("客户需求：GLM-5，日均输出约五千万 token，高峰大概是平均值的两倍。"
         "硬件倾向 H20，合同期两年。",
         {"output_tokens_per_day": 5e7, "peak_to_average": 2.0, "term_months": 24}),
        ("고객사가 Qwen3-32B를 H100 4대로 돌리고 싶어합니다. 동시 사용자 64명, BF16입니다.",
         {"gpus": 4, "concurrency": 64}),
        ("Kunden kör Mixtral 8x7B, ungefär 30 000 förfrågningar per dygn, och räknar med 8 % "
         "tillväxt per månad. Tid till första token ska vara under 0,8 sekunder.",
         {"requests_per_day": 30_000, "monthly_growth": 0.08, "max_ttft_s": 0.8}),
        ("O cliente chega a uns 2,5 milhões de tokens de saída por hora no pico, mas a média é "
         "mais ou menos um quinto disso. Modelo gpt-oss-120b.",
         {"output_tokens_per_day": 12e6, "peak_to_average": 5.0}),
    ],
)
def test_chinese_numerals_korean_counters_swedish_and_portuguese(
    catalog: Catalog, text: str, expected: dict[str, float]
) -> None:
    read_as(text, catalog, expected)


@pytest.mark.parametrize(
    ("text", "price"),
    [
        ("list was $3.80/GPU-hr on 16x H200, they came back at $3.20, we met at $3.45 for a "
         "24-month commit. (They floated 36 months at $3.30 but their legal balked.)", 3.45),
        ("We quoted $4.15/hr on B200 for 24 months; they want $3.70. Nothing agreed yet, so "
         "price it at our quote for now.", 4.15),
        ("64x MI355X at $2.70/GPU-hr after the volume tier (list $3.10), 30-month term.", 2.70),
        ("Net price came back at $2.65/GPU-hr for H200 on the 24-mo, list was $3.20.", 2.65),
        ("4x H100: they'd pay $2.20/GPU-hr; we list at $2.40. Run at list, $2.40.", 2.40),
        ("H200 at $3.60/hr\n(edit: $3.40/hr — I had the old rate card open)", 3.40),
    ],
)
def test_the_price_a_negotiation_lands_on(catalog: Catalog, text: str, price: float) -> None:
    got = fields(f"Llama 3.1 405B. {text}", catalog)
    assert got["price_per_gpu_hour"] == pytest.approx(price)


def test_a_floor_is_no_price_and_the_node_price_stands(catalog: Catalog) -> None:
    got = fields("Their counter: $17,500/month per 8x H100 node, 12-month term. Our floor was "
                 "$16.8k so we're accepting. Mixtral 8x7B, 4M requests per day.", catalog)
    assert got["price_per_gpu_hour"] == pytest.approx(17_500 / 730 / 8)


def test_a_price_in_brackets_that_rules_nothing_out_is_not_set_aside(catalog: Catalog) -> None:
    got = fields("Llama 3.1 405B on 8x H100 at $3.20 list ($2.80 net).", catalog)
    assert got["price_per_gpu_hour"] == pytest.approx(2.80)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Documents average eleven thousand tokens; outputs are brief, roughly two hundred "
         "tokens. Llama 3.1 405B, 40k reviews a day.",
         {"input_tokens": 11_000, "output_tokens": 200}),
        ("200k documents a day, each ~6,000 tokens in and a 400-token summary. Mixtral 8x7B",
         {"input_tokens": 6000, "output_tokens": 400}),
        ("6,000 contracts a day; a contract is ~40 pages at ~500 tokens a page. DeepSeek V3",
         {"input_tokens": 20_000}),
    ],
)
def test_a_documents_tokens_are_what_the_model_reads(
    catalog: Catalog, text: str, expected: dict[str, int]
) -> None:
    read_as(text, catalog, expected)


def test_responses_that_start_streaming_within_a_second_are_a_ttft(catalog: Catalog) -> None:
    assert fields("Qwen3-235B-A22B, 2.6 million conversations per month. Responses need to start "
                  "streaming within 1 second.", catalog)["max_ttft_s"] == 1.0


def test_a_budget_in_rupees_is_no_volume(catalog: Catalog) -> None:
    parsed = parse("18 lakh requests daily, Llama 3.1 8B, on L40S. Budget is ₹90 lakh per year.",
                   catalog)
    assert parsed.fields["requests_per_day"] == 1_800_000


def test_vllm_flags_give_the_batch_and_context_and_the_layout_no_concurrency(
    catalog: Catalog,
) -> None:
    got = fields("vllm serve Qwen/Qwen3-32B --max-model-len 16384 --max-num-seqs 64 "
                 "--tensor-parallel-size 2 on 2x H100", catalog)
    assert (got["context_tokens"], got["concurrency"]) == (16384, 64)


def test_concurrent_sequences_per_replica_and_a_count_on_the_gpus_run_today(
    catalog: Catalog,
) -> None:
    replicas = fields("3 replicas, each replica is 4x H200 running Llama 3.1 405B, 32 concurrent "
                      "sequences per replica.", catalog)
    assert (replicas["gpus"], replicas["concurrency"]) == (12, 96)
    today = fields("310k requests daily on Qwen3-32B. They're on 2x L40S today; want to go to "
                   "H100.", catalog)
    assert today["gpu"] == "h100-sxm"


def test_a_unit_that_starts_others_defined_in_calls(catalog: Catalog) -> None:
    got = fields("Agentic ops tool: ~2,000 tickets/day. Each ticket kicks off one agent run, and a "
                 "run averages 25 LLM calls. Kimi K2.5 on GB300.", catalog)
    assert got["requests_per_day"] == 50_000


def test_a_fixed_deployment_asked_what_it_holds_is_a_scenario(catalog: Catalog) -> None:
    parsed = parse('"If we lease 24 H200s for 12 months at $3.15/hr, how many concurrent users of '
                   'DeepSeek-R1 at FP8 could we support at 20 tokens/s each?"', catalog)
    assert parsed.kind == "scenario" and parsed.fields["gpus"] == 24


def test_a_line_per_model_and_the_one_that_moves(catalog: Catalog) -> None:
    parsed = parse("served output tokens/s panel (stacked by model, 7d):\n"
                   "  gpt-oss-120b   avg 9,400 tok/s   peak 27,000\n"
                   "  llama-3.1-8b   avg 1,100 tok/s   peak 2,900\n"
                   "only the gpt-oss line moves to the leased B300s.", catalog)
    assert parsed.fields["output_tokens_per_day"] == 9400 * 86400
    assert parsed.fields["peak_to_average"] == pytest.approx(27_000 / 9400)
    assert any("only the gpt-oss-120b line read" in a for a in parsed.assumed)


def test_a_latency_back_to_a_figure_is_what_they_see(catalog: Catalog) -> None:
    parsed = parse("INC-4471 resolved. root cause: NCCL timeout on gpu-17. p99 back to 900ms, "
                   "error rate 0.02%.", catalog)
    assert parsed.kind == "unknown" and "max_ttft_s" not in parsed.fields


def test_the_option_picked_by_its_letter_of_lines_a_b_c(catalog: Catalog) -> None:
    parsed = parse("Customer picked option B. For reference:\nA = 12 months at $4.40/hr on B200\n"
                   "B = 24 months at $3.95\nC = 36 months at $3.60\nWorkload unchanged: "
                   "DeepSeek V3, 1.6B output tokens/day.", catalog)
    assert (parsed.fields["term_months"], parsed.fields["price_per_gpu_hour"]) == (24, 3.95)
    assert parsed.fields["gpu"] == "b200" and "concurrency" not in parsed.fields


def test_a_job_defined_in_prompts_and_samples(catalog: Catalog) -> None:
    parsed = parse("Each eval job = 50k prompts × 3 samples, 600 tokens in, 900 out. They run "
                   "twelve jobs a day. Qwen3-235B-A22B FP8 on H200.", catalog)
    assert parsed.fields["requests_per_day"] == 1_800_000
    assert parsed.fields["input_tokens"] == 600 and parsed.ambiguities == []


def test_a_form_with_dot_leaders_keeps_its_lines_apart(catalog: Catalog) -> None:
    got = fields("Section 6 — Service Levels\nTarget model ............ GLM-5\n"
                 "Average daily output .... 1.1 billion tokens\n"
                 "Context window .......... 64,000 tokens\nMinimum term ............ 12 months",
                 catalog)
    assert (got["output_tokens_per_day"], got["context_tokens"], got["term_months"]) == (
        1.1e9, 64_000, 12)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("gpt-oss-120b, ~40 rps but only inside their 10h support window, basically nothing "
         "overnight.", {"requests_per_day": 40 * 3600 * 10}),
        ("qwen3-32b: 75k req/hr at peak, their avg hour runs ~1/3 of the peak one.",
         {"requests_per_day": 600_000, "peak_to_average": 3.0}),
        ("4M req/day of DeepSeek V3 — wait no, that was their Q3 figure, it's 5.2M now.",
         {"requests_per_day": 5_200_000}),
        ("Qwen3-30B-A3B, peaks of 12k req/min, peak-to-avg 4:1 — hold on, their Grafana says "
         "3:1, the 4 was Christmas week.", {"requests_per_day": 5_760_000, "peak_to_average": 3.0}),
    ],
)
def test_windows_fractions_of_the_peak_and_ratios_corrected(
    catalog: Catalog, text: str, expected: dict[str, float]
) -> None:
    read_as(text, catalog, expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("25,000 calls a day, the average call lasts 6 minutes and the agent speaks about 4 times "
         "a minute. gpt-oss-20b", {"requests_per_day": 600_000, "peak_to_average": None}),
        ("~2M support tickets a month: every ticket gets a triage call and 40% also get a second "
         "suggested-reply pass. DeepSeek-V3", {"requests_per_day": 2e6 / 30 * 1.4}),
        ("2,000 developers, each kicks off ~15 agent tasks a day, and a task fans out into ~11 "
         "model calls. Kimi K2.5", {"requests_per_day": 330_000}),
        ("DeepSeek-R1: 250 million output tokens per day; volume is forecast to grow 60% "
         "year-on-year.", {"monthly_growth": 1.6 ** (1 / 12) - 1}),
        ("32x GB200 at $6.10/GPU-hr for 24 months, and the 10% prepay discount applies on top, so "
         "price it after the discount. Kimi K2.5, 256 concurrent.", {"price_per_gpu_hour": 5.49}),
        ("Quote H100 at $2.25, that's our 18-month rate after the 5% loyalty discount. Llama 3.1 "
         "70B, 2M req/day", {"price_per_gpu_hour": 2.25}),
        ("pipeline sits at ~$14M, up about 20% year on year. Nothing to size this week.",
         {"monthly_growth": None}),
    ],
)
def test_calls_tasks_discounts_and_growth_said_more_ways(
    catalog: Catalog, text: str, expected: dict[str, float | None]
) -> None:
    read_as(text, catalog, expected)


def test_sessions_open_at_once_at_a_rate_each(catalog: Catalog) -> None:
    got = fields("gpt-oss-20b on L40S. At peak they run 1,100 concurrent calls at ~4 turns/min "
                 "each, and over the full day the turn rate averages about 40% of that peak.",
                 catalog)
    assert got["requests_per_day"] == pytest.approx(1100 * 4 * 1440 / 2.5)
    assert got["peak_to_average"] == 2.5 and "concurrency" not in got


@pytest.mark.parametrize(
    ("text", "concurrency"),
    [("3 replicas, each a node of 8 H200s, expecting ~40 concurrent chats per replica.", 120),
     ("5 nodes × 8 MI325X, planning ~12 concurrent sessions per GPU.", 480),
     ("8x B200 with gpt-oss-120b: typical 48 concurrent, peak 160. Do the peak one first.", 160)],
)
def test_concurrency_by_the_replica_the_gpu_or_the_peak_asked(
    catalog: Catalog, text: str, concurrency: int
) -> None:
    assert fields(f"Llama 3.1 405B. {text}", catalog)["concurrency"] == concurrency


def test_a_discount_said_before_the_price_it_comes_off(catalog: Catalog) -> None:
    got = fields("Deal desk approved 8% off list for Mosaic — list is $3.80/GPU-hr on H100, so "
                 "price it at the discounted number. 24 H100s, DeepSeek-V3, batch 48.", catalog)
    assert got["price_per_gpu_hour"] == pytest.approx(3.80 * 0.92)


@pytest.mark.parametrize(
    "text",
    ["do we support MI355X for Kimi K2.5 yet?? they've got ~$2M earmarked over 3 yrs",
     "Does leasewise handle bursty traffic, like a 10x spike for 15 minutes?"],
)
def test_a_question_about_support_or_the_advisor_is_no_sizing(catalog: Catalog, text: str) -> None:
    assert parse(text, catalog).kind == "unknown"


def test_a_row_of_both_sides_and_the_gpu_run_now_in_hindi(catalog: Catalog) -> None:
    read_as("| Item | Requirement |\n|---|---|\n| Model | Qwen3-32B |\n| Input / output tokens "
            "| 2,000 / 350 |", catalog, {"input_tokens": 2000, "output_tokens": 350})
    assert fields("roz ke 40 lakh requests on Llama 3.1 8B. Abhi A100 pe chal raha hai, naya "
                  "setup H100 pe chahiye.", catalog)["gpu"] == "h100-sxm"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("gpt-oss-120b on B200, 1.5k / 400.", {"input_tokens": 1500, "output_tokens": 400}),
        ("14,000 contracts a month, each split into ~12 chunks of 3,000 tokens, with one "
         "extraction call per chunk returning ~250 tokens. Qwen3-235B",
         {"requests_per_day": 5600, "input_tokens": 3000, "output_tokens": 250}),
        ("They ingest 6,000 contracts a day. Three LLM passes per contract. DeepSeek V3",
         {"requests_per_day": 18_000}),
        ("the system shall process 12,000 claims per hour during business hours "
         "(08:00–20:00) and may be idle otherwise. gpt-oss-120b", {"requests_per_day": 144_000}),
    ],
)
def test_documents_claims_chunks_and_passes(
    catalog: Catalog, text: str, expected: dict[str, float]
) -> None:
    read_as(text, catalog, expected)


def test_the_gpus_that_cannot_keep_up_are_not_the_lease(catalog: Catalog) -> None:
    parsed = parse("We batch-process about 120k contracts a week through DeepSeek-V3. We run this "
                   "on 8 A100s today and it can't keep up. Could you price a 12-month lease?",
                   catalog)
    assert parsed.kind == "traffic" and "gpu" not in parsed.fields


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("latency: 50 ms per output token is fine for us. Qwen2.5-72B, 600M output tokens/day",
         {"min_per_user_tokens_per_s": 20.0, "max_ttft_s": None}),
        ("~3 billion output tokens a month on Qwen3-235B, double by the end of the year, about "
         "10 months out.", {"term_months": None}),
        ("we already decided on one 8-GPU MI325X box, running MiniMax M2.5, 40 simultaneous "
         "sessions.", {"output_tokens": None, "gpus": 8}),
        ("Question 17 asks about ISO 27001 for Qwen3-32B on H100.", {"input_tokens": None}),
        ("Qwen3-32B, question 500 tokens, answer 400 tokens, 1M requests a day.",
         {"input_tokens": 500}),
    ],
)
def test_numbers_no_field_means_and_a_latency_per_token(
    catalog: Catalog, text: str, expected: dict[str, float | None]
) -> None:
    read_as(text, catalog, expected)


def test_an_availability_and_a_response_time_in_hours_are_no_fields(catalog: Catalog) -> None:
    parsed = parse("Section 4 — Service Levels\n4.1 Availability: 99.9% monthly.\n4.2 Support "
                   "response: 4 business hours (P2).\n4.3 Data residency: EU only.", catalog)
    assert parsed.kind == "unknown" and parsed.fields == {}


def test_how_many_tokens_a_second_is_what_is_asked(catalog: Catalog) -> None:
    parsed = parse("how many tokens/sec does one B200 do on gpt-oss-120b?", catalog)
    assert parsed.kind == "scenario" and "min_per_user_tokens_per_s" not in parsed.fields


def test_a_space_grouped_number_before_a_comma_is_one_number(catalog: Catalog) -> None:
    read_as("GLM-5 on B300, 2M req/day. Input 2 500, output 600 tokens.", catalog,
            {"input_tokens": 2500, "output_tokens": 600})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Qwen3-32B : 30 requêtes/seconde en pointe, moyenne 10 req/s.",
         {"requests_per_day": 864_000, "peak_to_average": 3.0}),
        ("DeepSeek R1, 1.000 tokens de entrada, 800 de salida y 3.000 de razonamiento",
         {"reasoning_tokens": 3000}),
        ("Llama 3.1 8B, w szczycie 9 tys. zapytań na minutę, średnio 3 tys./min.",
         {"requests_per_day": 3000 * 1440, "peak_to_average": 3.0}),
    ],
)
def test_peaks_averages_and_reasoning_in_other_languages_are_read(
    catalog: Catalog, text: str, expected: dict[str, float]
) -> None:
    got = parse(text, catalog).fields
    assert {k: got.get(k) for k in expected} == pytest.approx(expected)


def test_a_rate_per_min_then_a_capital_ends_its_sentence(catalog: Catalog) -> None:
    got = parse("GLM-5: peak 9k requests per minute, average 3k/min. Input 1500, output "
                "300 tokens.", catalog).fields
    assert (got["requests_per_day"], got["input_tokens"]) == (3000 * 1440, 1500)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Mixtral on L40S, 15–25 req/s, 700 in, 150 out", {"requests_per_day": 25 * 86400}),
        ("gpt-oss-20b, prompts 1k – 3k tokens, 12 rps", {"input_tokens": 3000}),
        ("2–4k tokens out per call, Qwen3-32B, 5 rps", {"output_tokens": 4000}),
    ],
)
def test_an_en_dash_between_figures_is_a_range(
    text: str, expected: Mapping[str, object], catalog: Catalog
) -> None:
    parsed = parse(text, catalog)
    assert {k: parsed.fields.get(k) for k in expected} == expected
    assert any("the top of the range" in a for a in parsed.assumed)


def test_an_en_dash_between_clock_times_stays_a_window(catalog: Catalog) -> None:
    got = fields("120 req/s during 09:00–17:00 and nothing overnight, llama 3.1 8b", catalog)
    assert got["requests_per_day"] == 120 * 8 * 3600


def test_a_range_given_as_a_figure_in_brackets_takes_that_figure(catalog: Catalog) -> None:
    got = parse("Qwen3-32B: ISL 1-2k (use 1.5k), OSL 200-400 (call it 300).", catalog).fields
    assert (got["input_tokens"], got["output_tokens"]) == (1500, 300)


def test_visible_output_plus_reasoning_is_said_apart(catalog: Catalog) -> None:
    got = parse("DeepSeek R1: OSL ~900 visible plus 3k reasoning, 20k req/day", catalog).fields
    assert (got["output_tokens"], got["reasoning_tokens"]) == (900, 3000)


@pytest.mark.parametrize(
    "text",
    [
        "they have 16 h100 today, want to move to b200 for llama 3.1 70b, 2M req/day",
        "llama 3.1 70b, migrating off A100s (they run 32 of them). Moving to B200. 2M req/day",
    ],
)
def test_the_gpus_they_leave_are_not_the_deployment(catalog: Catalog, text: str) -> None:
    got = parse(text, catalog).fields
    assert (got["gpu"], tuple(got["gpus"])) == ("b200", ("b200",))


@pytest.mark.parametrize(
    "text",
    [
        "They want to self-host something like Qwen3 32B, traffic is 'a few hundred k' a day",
        "Our OpenAI bill was $30k last month; would GLM-5 self-hosted beat it?",
    ],
)
def test_a_model_named_in_a_sizing_ask_is_a_traffic(catalog: Catalog, text: str) -> None:
    assert parse(text, catalog).kind == "traffic"


def test_a_sizing_called_off_is_no_traffic(catalog: Catalog) -> None:
    assert parse("never mind the Qwen3 32B sizing, they pulled out", catalog).kind == "unknown"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Qwen3-32B, 1M req/day. Planned average utilization shall not exceed 65%.", 0.65),
        ("Qwen3-32B, 1M req/day; plan for a maximum of 55% average GPU utilization", 0.55),
    ],
)
def test_a_planned_utilization_said_as_a_ceiling_is_read(
    catalog: Catalog, text: str, expected: float
) -> None:
    assert parse(text, catalog).fields["planned_utilization"] == pytest.approx(expected)


def test_requests_on_a_typical_day_are_a_day_of_requests(catalog: Catalog) -> None:
    got = parse("Kimi K2, about 300k requests on a typical day, 1k in / 200 out", catalog).fields
    assert got["requests_per_day"] == 300_000


def test_a_count_of_pages_after_a_response_word_is_no_token_count(catalog: Catalog) -> None:
    assert "output_tokens" not in parse("Responses shall not exceed 30 pages.", catalog).fields


def test_a_requests_tokens_split_between_prompt_and_completion(catalog: Catalog) -> None:
    got = parse("Llama 3.1 8B, 500k req/day, ~2,000 tokens per request split 75/25 "
                "prompt/completion", catalog).fields
    assert (got["input_tokens"], got["output_tokens"]) == (1500, 500)


def test_a_rate_said_to_be_the_peak_after_it(catalog: Catalog) -> None:
    got = parse("GLM-5: from 9 to 5 they see 60 requests per second, this is the peak. "
                "Average over the day is 20 req/s.", catalog).fields
    assert (got["requests_per_day"], got["peak_to_average"]) == (20 * 86400, pytest.approx(3))


def test_a_batch_that_sits_around_a_figure_is_that_batch(catalog: Catalog) -> None:
    got = parse("Evaluate 8x H200 with Qwen3-32B — batch sits around 48 typically.",
                catalog).fields
    assert got["concurrency"] == 48


def test_seqs_are_the_batch_of_a_deployment(catalog: Catalog) -> None:
    got = parse("4x h200 w/ qwen3 32b fp8, 48 seqs — what's the $/M tok?", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (4, 48)


def test_utilization_at_peak_not_to_exceed_is_the_planned_ceiling(catalog: Catalog) -> None:
    got = parse("Qwen3-32B, 1M req/day. Capacity shall be planned so that utilization at peak "
                "does not exceed 85%.", catalog).fields
    assert got["planned_utilization"] == pytest.approx(0.85)


@pytest.mark.parametrize(
    ("text", "field", "expected"),
    [
        ("Qwen3-32B, 1M req/day. Inter-token latency (TPOT) shall be ≤ 25 ms.",
         "min_per_user_tokens_per_s", 40.0),
        ("Qwen3-32B, 1M req/day. Time to first token (TTFT) shall not exceed 1.2 s.",
         "max_ttft_s", 1.2),
    ],
)
def test_a_name_with_its_abbreviation_in_brackets_reads_its_figure(
    catalog: Catalog, text: str, field: str, expected: float
) -> None:
    assert parse(text, catalog).fields[field] == pytest.approx(expected)


def test_the_first_tokens_wait_in_italian(catalog: Catalog) -> None:
    got = parse("DeepSeek V3 su H200, 1 milione di richieste al giorno. Latenza primo token max "
                "2,5 s.", catalog).fields
    assert got["max_ttft_s"] == 2.5


@pytest.mark.parametrize(
    ("said", "per_second"),
    [("12,5 richieste al secondo", 12.5), ("ca. 41,5 Anfragen pro Sekunde", 41.5)],
)
def test_a_decimal_comma_before_a_foreign_request_word_is_a_decimal(
    catalog: Catalog, said: str, per_second: float
) -> None:
    got = parse(f"Mixtral 8x7B, {said}, 900 in, 150 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(per_second * 86400)


def test_a_rate_said_before_not_corrects_the_figure_said_earlier(catalog: Catalog) -> None:
    got = parse("Llama 3.1 70B, 3M req/day, 1k in 200 out, H100.\nugh, meant 300k/day "
                "not 3M", catalog).fields
    assert got["requests_per_day"] == 300_000


def test_a_count_of_gpus_before_the_word_util_is_no_utilization(catalog: Catalog) -> None:
    got = parse("Quote 16x H200, Llama 3.1 70B, batch 48, 12 months; volume pricing starts "
                "at 64 GPUs util target 70%", catalog).fields
    assert got["utilization"] == 0.7


def test_a_word_close_to_a_model_name_does_not_replace_the_model_named(catalog: Catalog) -> None:
    parsed = parse("Il cliente usa Qwen3-32B, 15 richieste al secondo, input 900 token, "
                   "output 200; latenza minima richiesta", catalog)
    assert parsed.fields["model"] == "qwen3-32b"
    assert any("'minima' not read as" in a for a in parsed.ambiguities)


@pytest.mark.parametrize(
    "said",
    [
        "they're on h100 + sglang today, want to move to b200",
        "oggi usano H100, vogliono passare a B200",
    ],
)
def test_the_gpu_run_today_with_its_stack_or_in_italian_is_not_sized(
    catalog: Catalog, said: str
) -> None:
    got = parse(f"Qwen3-32B, {said}; 400k req/day, 1k in 200 out", catalog).fields
    assert got["gpu"] == "b200" and got["gpus"] == ("b200",)


def test_todays_utilization_said_after_it_gives_way_to_the_plan_said_beside_it(
    catalog: Catalog,
) -> None:
    parsed = parse("Llama 3.1 8B on L40S, 900k req/day, 500 in 100 out. They run 80% util on "
                   "the existing A10s; plan at 60% with us", catalog)
    assert parsed.fields["planned_utilization"] == 0.6
    assert any("what they run today" in n for n in parsed.assumed + parsed.ambiguities)


@pytest.mark.parametrize(
    "aside",
    [
        "They get 10% off if they pay annually, but don't apply that here.",
        "Procurement also asked about a 10% multi-year discount, ignore for now.",
    ],
)
def test_a_discount_set_aside_is_not_taken_off_the_price(catalog: Catalog, aside: str) -> None:
    parsed = parse(f"Quote 8x H200 for Llama 3.1 70B at $3.00/GPU-hour, 12 months, batch 32. "
                   f"{aside}", catalog)
    assert parsed.fields["price_per_gpu_hour"] == 3.0
    assert any("not applied" in n for n in parsed.understood)


def test_a_figure_explained_away_then_the_real_number_replaces_it(catalog: Catalog) -> None:
    parsed = parse("Qwen3-32B, 6M req/day, 1k in 150 out. Heads up: the 6M includes "
                   "health checks, real number is 4.5M", catalog)
    assert parsed.fields["requests_per_day"] == 4_500_000
    assert any("correction" in a for a in parsed.assumed)


def test_ignore_the_figure_named_with_its_field_takes_the_next_bare_figure(
    catalog: Catalog,
) -> None:
    parsed = parse("Llama 3.1 70B on H200, 500k req/day, 3k input, 400 out. Disregard the "
                   "3k input number from the deck, it's 2.2k", catalog)
    assert parsed.fields["input_tokens"] == 2_200
    assert any("correction" in a for a in parsed.assumed)


def test_a_figure_then_why_it_was_wrong_then_more_like_corrects_it(catalog: Catalog) -> None:
    parsed = parse("DeepSeek V3, 900k req/day, 2k in 300 out. I had peaks at 2x but the "
                   "dashboard says otherwise, it's more like 3", catalog)
    assert parsed.fields["peak_to_average"] == 3.0


def test_a_daily_total_that_averages_a_figure_is_a_days_volume(catalog: Catalog) -> None:
    got = parse("Kimi K2 on B200: the daily total averages ~90M output; the peak hour is "
                "6M output", catalog).fields
    assert got["output_tokens_per_day"] == 90e6
    assert got["peak_to_average"] == pytest.approx(6e6 * 24 / 90e6)


def test_a_volume_restated_as_the_peak_with_its_average_sizes_the_average(
    catalog: Catalog,
) -> None:
    got = parse("Llama 3.1 8B, 90 req/s, 400 in 80 out. wait, 90 was the peak, average "
                "is closer to 30", catalog).fields
    assert got["requests_per_day"] == pytest.approx(30 * 86400)
    assert got["peak_to_average"] == 3.0


def test_a_bare_daily_rate_beside_a_requests_lengths_is_requests_and_said(
    catalog: Catalog,
) -> None:
    parsed = parse("gpt-oss-20b on L40S, about 320k/day, 900 in 120 out", catalog)
    assert parsed.fields["requests_per_day"] == 320_000
    assert any("read as requests" in a for a in parsed.assumed)
    assert not any("tokens or requests" in a for a in parsed.ambiguities)


def test_a_bare_daily_rate_with_no_lengths_is_still_asked(catalog: Catalog) -> None:
    parsed = parse("gpt-oss-20b on L40S, about 320k/day", catalog)
    assert "requests_per_day" not in parsed.fields
    assert any("tokens or requests" in a for a in parsed.ambiguities)


def test_an_implausible_length_leaves_the_plausible_one_said_before(catalog: Catalog) -> None:
    parsed = parse("Qwen3-32B, 300k req/day, input 900 tokens, output 200 tokens; the old "
                   "sheet had input 9000000000 tokens", catalog)
    assert parsed.fields["input_tokens"] == 900
    assert any("900 said before stands" in a for a in parsed.ambiguities)


def test_a_pair_of_model_sizes_is_no_request_length(catalog: Catalog) -> None:
    got = parse("Llama 3.1 8B on L40S, 90k req/day, 500 in / 200 out; not the 3.2 1b/3b ones",
                catalog).fields
    assert (got["input_tokens"], got["output_tokens"]) == (500, 200)


def test_a_price_with_dots_grouping_and_a_decimal_comma_is_read(catalog: Catalog) -> None:
    got = parse("Quieren 8x H200 con DeepSeek V3 FP8, batch 32, 12 meses. Precio: 2.190,00 "
                "USD por GPU al mes", catalog).fields
    assert got["price_per_gpu_hour"] == pytest.approx(2190 / 730)


def test_a_dollar_sign_after_the_figure_then_the_hour_is_a_price(catalog: Catalog) -> None:
    got = parse("Chiffrer 4 x H100 avec Qwen3-32B, 32 utilisateurs simultanés, à 2,35 $ "
                "l'heure par GPU, 6 mois", catalog).fields
    assert got["price_per_gpu_hour"] == 2.35


def test_an_italian_rate_per_hour_and_planned_utilization_are_read(catalog: Catalog) -> None:
    got = parse("Il cliente vuole Qwen3-32B su H200, circa 7.200 richieste all'ora, input "
                "1.000 token, output 300. Utilizzo pianificato al 70%.", catalog).fields
    assert got["requests_per_day"] == 7200 * 24
    assert got["planned_utilization"] == 0.7


@pytest.mark.parametrize(
    "said",
    ["primer token en menos de 1,2 s", "primeiro token até 1,2 s", "primo token entro 1,2 s"],
)
def test_a_first_token_ceiling_in_spanish_portuguese_or_italian_is_read(
    catalog: Catalog, said: str
) -> None:
    assert parse(f"Qwen3-32B en H200, {said}", catalog).fields["max_ttft_s"] == 1.2


def test_german_and_portuguese_words_for_concurrency_and_expected_utilization(
    catalog: Catalog,
) -> None:
    pt = parse("Cotação: 8x H100, Qwen3-32B, concorrência 96, US$ 2,10 por GPU-hora, 12 meses, "
               "utilização esperada de 60%", catalog).fields
    de = parse("Angebot: 8x H200, Qwen3-32B, 64 parallele Nutzer, 3,10 USD pro GPU-Stunde, "
               "12 Monate. Auslastung rechnen wir mit ca. 70 %.", catalog).fields
    assert (pt["concurrency"], pt["utilization"]) == (96, 0.6)
    assert (de["concurrency"], de["utilization"]) == (64, 0.7)


def test_overflow_sent_to_on_demand_is_no_lease_term(catalog: Catalog) -> None:
    got = parse("Fixed 4x H100, Qwen3-32B, 12mo at $2.40/gpu/hr, batch 40; spikes will spill "
                "over to on-demand", catalog).fields
    assert got["term_months"] == 12


def test_a_target_before_a_latency_measured_today_stays_a_target(catalog: Catalog) -> None:
    got = parse("MiniMax M2.5 on GB300, 900k req/day, 2k in 400 out, ttft ≤ 1.2s\n"
                "their current p95 ttft is 4s on what they run now, that's the pain point",
                catalog).fields
    assert got["max_ttft_s"] == 1.2


def test_a_gpu_said_later_to_be_what_they_have_is_not_the_new_cluster(catalog: Catalog) -> None:
    got = parse("Llama 3.1 70B for Kestrel on l40s, 90 req/min, 1k in / 300 out. scratch the "
                "l40s part — l40s are what they have now, the new cluster is h200s", catalog).fields
    assert got["gpu"] == "h200" and got["gpus"] == ("h200",)


def test_a_second_correction_with_where_it_came_from_replaces_the_first(
    catalog: Catalog,
) -> None:
    got = parse("Qwen3-32B, 90 rpm, input 4k — no, 5k — wait, checked the traces, 4.5k. "
                "output 300", catalog).fields
    assert got["input_tokens"] == 4500


def test_a_bare_price_said_per_gpu_hour_is_a_lease_price(catalog: Catalog) -> None:
    got = parse("4x L40S, Llama 3.1 8B bf16, batch 64, .85/gpu/hr on a 6mo term", catalog).fields
    assert got["price_per_gpu_hour"] == 0.85


def test_a_small_bare_rate_a_minute_beside_lengths_is_requests(catalog: Catalog) -> None:
    got = parse("gpt-oss-20b helpdesk bot, 30/min, 2k in 150 out, H100", catalog).fields
    assert got["requests_per_day"] == 30 * 1440


def test_portuguese_month_and_kimi_said_without_its_k(catalog: Catalog) -> None:
    pt = parse("Qwen3-32B p/ cliente, 1,5M req/mês, 1.2k in 300 out, L40S", catalog).fields
    assert pt["requests_per_day"] == pytest.approx(50_000)
    assert parse("kimi 2.5 on GB200, 80k calls/day", catalog).fields["model"] == "kimi-k2.5"


def test_bare_daily_rates_said_as_a_sum_beside_lengths_are_the_requests(
    catalog: Catalog,
) -> None:
    got = parse("mixtral for two bots: 40k/day + 25k/day. ~800 in, 150 out", catalog).fields
    assert got["requests_per_day"] == 65_000


def test_a_whole_days_average_output_is_a_days_volume(catalog: Catalog) -> None:
    got = parse("DeepSeek V3 on MI325X: whole day avg is ~30M out toks", catalog).fields
    assert got["output_tokens_per_day"] == 30e6


def test_a_volume_over_the_last_days_and_a_current_latency_beside_its_target(
    catalog: Catalog,
) -> None:
    parsed = parse("4.5M requests over the last 30 days on Qwen3-32B, 900 in, 300 out. Current "
                   "p50 TTFT on their A100s is 2.5 s; the target is under 1 s.", catalog)
    assert parsed.fields["requests_per_day"] == 150_000
    assert parsed.fields["max_ttft_s"] == 1.0
    assert any("what they see today" in a for a in parsed.ambiguities)


def test_a_rate_restated_as_the_peak_hour_with_the_average_hour_after(catalog: Catalog) -> None:
    got = parse("GLM-5 on GB300: 60k req/hr, 4k in, 1k out. hmm actually the 60k was their "
                "peak hour, the average hour is ~20k", catalog).fields
    assert got["requests_per_day"] == 20_000 * 24 and got["peak_to_average"] == 3.0


def test_a_gpu_whose_allocation_fell_through_gives_way_to_the_next(catalog: Catalog) -> None:
    got = parse("Llama 3.1 70B, 30 rps, 1k in 200 out on gb200. the gb200 allocation fell "
                "through, they're staying on h100", catalog).fields
    assert got["gpu"] == "h100-sxm" and got["gpus"] == ("h100-sxm",)


def test_several_workloads_bare_daily_rates_are_summed(catalog: Catalog) -> None:
    listed = parse("Three apps all hitting Qwen3-32B, one pool: support bot 300k/day, search "
                   "rewrite 200k/day, copilot 50k/day. all ~1k in / 200 out. H100", catalog)
    mixed = parse("two apps on Qwen3-32B: search does 120k/day and the chat app 80k/day, both "
                  "~1k in / 200 out", catalog)
    assert listed.fields["requests_per_day"] == 550_000
    assert mixed.fields["requests_per_day"] == 200_000


def test_a_vendor_quoting_the_customer_by_name_is_a_competitor_and_our_list_is_ours(
    catalog: Catalog,
) -> None:
    got = parse("Lambda quoted Fenwick $3.40/hr for H200. Our list is $3.00 and they've accepted "
                "the 10% discount that comes with a 12-month commit. Qwen3-32B, 40k req/hr, "
                "1k in / 300 out", catalog).fields
    assert got["price_per_gpu_hour"] == pytest.approx(2.70)


def test_a_discount_the_customer_passed_on_is_not_taken(catalog: Catalog) -> None:
    got = parse("gpt-oss-20b, 2.1M req/wk, 400 in 200 out, H20. list $1.40/gpu/hr, offered 10% "
                "off for prepay, they passed", catalog).fields
    assert got["price_per_gpu_hour"] == 1.40


def test_a_monthly_budget_said_bare_is_no_volume(catalog: Catalog) -> None:
    got = parse("DeepSeek V3 peaks ~35 rps, p2a 2.5, 1.2k in / 300 out on H100s. budget is "
                "60k/mo all in", catalog).fields
    assert got["requests_per_day"] == pytest.approx(14 * 86400)


def test_a_node_price_is_split_over_one_nodes_gpus_when_nodes_are_counted(
    catalog: Catalog,
) -> None:
    got = parse("pricing: 2 nodes h200 (16 gpus) running Qwen3-32B, batch 64, $28/hr per node, "
                "12 mo", catalog).fields
    assert got["gpus"] == 16 and got["price_per_gpu_hour"] == 3.5


def test_todays_latency_abroad_and_the_tpot_they_want_to_bring_it_down_to(
    catalog: Catalog,
) -> None:
    parsed = parse("El cliente quiere Qwen3-32B en H200, 300k peticiones al día. Hoy tienen un "
                   "TPOT de 40 ms y lo quieren bajar a 20 ms.", catalog)
    assert parsed.fields["min_per_user_tokens_per_s"] == 50.0
    assert any("what they see today" in a for a in parsed.ambiguities)


@pytest.mark.parametrize(
    ("said", "reasoning"),
    [
        ("answers ~400 and thinking is about 2x the answer length", 800),
        ("~400 out, and it burns roughly 3x the output in thinking", 1200),
        ("~1.2k think toks + 400 visible out", 1200),
    ],
)
def test_reasoning_said_as_think_or_a_multiple_of_the_output(
    catalog: Catalog, said: str, reasoning: int
) -> None:
    got = parse(f"DeepSeek R1 on B200, 50k req/day, 2k in, {said}", catalog).fields
    assert (got["reasoning_tokens"], got["output_tokens"]) == (reasoning, 400)


def test_someone_thinking_a_figure_is_no_reasoning(catalog: Catalog) -> None:
    got = parse("MiniMax M2.5 on 8x MI325X at $2.75/GPU-h. They think ~24 concurrent users. "
                "36 mo.", catalog).fields
    assert got["concurrency"] == 24 and "reasoning_tokens" not in got


def test_ignore_the_figure_then_the_right_one_corrects_it_in_a_product(catalog: Catalog) -> None:
    got = parse("Kiosks: 200 stores × 50 sessions a day × 5 turns, ~700 in / 120 out, Llama 3.1 "
                "8B on L40S.\nignore the 5, PM just told me it's 3 turns per session on average",
                catalog).fields
    assert got["requests_per_day"] == 200 * 50 * 3


def test_a_discount_said_off_the_price_that_follows_it_is_taken(catalog: Catalog) -> None:
    agreed = parse("Nimbus signed off on 10% off our $4.00 H200 list for a 12-mo term. Kimi K2, "
                   "about 100 rps, 1.8k in, 400 out.", catalog).fields
    net = parse("Kimi K2, 100 rps, 1.8k in, 400 out. H200 at $3.40 (15% off the $4.00 list).",
                catalog).fields
    assert agreed["price_per_gpu_hour"] == pytest.approx(3.60)
    assert net["price_per_gpu_hour"] == pytest.approx(3.40)


@pytest.mark.parametrize(
    ("said", "per_day"),
    [
        ("600k requests a day — sorry, 600k a month", 20_000),
        ("300k requests per day, oops, make that 450k", 450_000),
    ],
)
def test_a_correction_after_a_rate_said_with_its_unit_replaces_it(
    catalog: Catalog, said: str, per_day: float
) -> None:
    got = parse(f"deepseek-r1 at {said}, 2k in / 300 out plus 1k reasoning", catalog).fields
    assert got["requests_per_day"] == pytest.approx(per_day)


def test_a_correction_in_a_chain_pasted_newest_first_takes_back_the_figure_below_it(
    catalog: Catalog,
) -> None:
    parsed = parse("Fwd, newest on top:\n\nFrom: Ines\nCorrection: it's 900k requests/day, not "
                   "600k.\n\nFrom: Ines\nQwen3-32B on H200, ~600k requests/day, 2k in / 300 out",
                   catalog)
    assert parsed.fields["requests_per_day"] == 900_000
    assert not parsed.ambiguities


@pytest.mark.parametrize(
    ("said", "field", "value"),
    [
        ("30k output tokens per second — er, per minute", "output_tokens_per_day", 30e3 * 1440),
        ("20M output tokens/day, growth 12% MoM... actually 6%", "monthly_growth", 0.06),
    ],
)
def test_a_correction_after_an_er_or_an_ellipsis_replaces_the_figure(
    catalog: Catalog, said: str, field: str, value: float
) -> None:
    got = parse(f"glm-5 on h200: {said}. TTFT under 2 s", catalog).fields
    assert got[field] == pytest.approx(value)


@pytest.mark.parametrize(
    "said",
    ["perdón, contrato de 24 meses, no 12", "sorry, 24 months, no 12", "24 meses, não 12"],
)
def test_a_figure_then_no_or_nao_and_the_old_one_retracts_the_old(
    catalog: Catalog, said: str
) -> None:
    got = parse(f"4x H200, Qwen3-32B, batch 16, $3.10/GPU-hr, 12 months.\n{said}", catalog).fields
    assert got["term_months"] == 24


def test_a_share_to_plan_at_said_after_the_utilization_is_the_plan(catalog: Catalog) -> None:
    got = parse("glm-5 on b200, 2M req/day, 2k in / 300 out, we assumed 85% util.\n"
                "customer pushed back, so let's plan for 60% instead", catalog).fields
    assert got["planned_utilization"] == 0.6


@pytest.mark.parametrize(("said", "months"), [("twelve (12) quarters", 36), ("four quarters", 12)])
def test_a_term_in_quarters_said_in_words_counts_whole_quarters(
    catalog: Catalog, said: str, months: int
) -> None:
    got = parse(f"Kimi K2, 150M output tokens a day. Term: {said}.", catalog).fields
    assert got["term_months"] == months


def test_a_what_if_the_message_sets_aside_changes_neither_term_nor_price(
    catalog: Catalog,
) -> None:
    parsed = parse("4x H200, Qwen3-32B, batch 32, $3.20/GPU-hr on 24 months. If they go to "
                   "36 months we could do $2.90, but quote it as-is for now.", catalog)
    got = parsed.fields
    assert (got["term_months"], got["price_per_gpu_hour"]) == (24, 3.20)
    assert any("a what-if, set aside" in a for a in parsed.assumed)


def test_a_count_of_nodes_wanted_counts_the_gpus_of_the_node_said(catalog: Catalog) -> None:
    got = parse("8-GPU H200 nodes at $25,000/node/month, they want 3 nodes on 24 months. "
                "Llama 3.1 70B, 96 concurrent", catalog).fields
    assert got["gpus"] == 24


@pytest.mark.parametrize(
    ("said", "share"),
    [
        ("utilization ~75% in business hours, lower at night; use 50% blended", 0.5),
        ("utilization ~95% at the peak but ~35% averaged over the day; use the daily average",
         0.35),
        ("~85% busy in office hours, ~20% at night, the 24-hour average is about 45%. Price it "
         "at the average", 0.45),
    ],
)
def test_the_utilization_to_use_said_after_another_is_the_one_used(
    catalog: Catalog, said: str, share: float
) -> None:
    got = parse(f"16x H200, Llama 3.1 70B, batch 96, $2.80/GPU-hr, 24 months. {said}",
                catalog).fields
    assert got["utilization"] == share


def test_another_vendors_price_said_lower_is_no_discount_of_ours(catalog: Catalog) -> None:
    parsed = parse("16x H200, Llama 3.1 70B, batch 64, $3.10/GPU-hr, 24 months. CoreWeave came "
                   "in ~8% lower, fyi", catalog)
    assert parsed.fields["price_per_gpu_hour"] == 3.10
    assert any("a comparison" in u for u in parsed.understood + parsed.assumed)


def test_a_time_taken_back_with_who_corrects_it_replaces_the_rates_time(
    catalog: Catalog,
) -> None:
    got = parse("glm-5: they said 3k requests per minute — correction from their SRE: per "
                "*hour*. 2k in / 300 out", catalog).fields
    assert got["requests_per_day"] == pytest.approx(3000 * 24)


def test_no_before_a_time_after_a_budget_is_no_correction_of_its_period(
    catalog: Catalog,
) -> None:
    parsed = parse("budget is $80k/month total, hard ceiling. No hourly billing. glm-5, "
                   "1M req/day, 1k in / 100 out", catalog)
    assert any("$80k/month" in a for a in parsed.ambiguities)


@pytest.mark.parametrize("said", ["500k req/day. out 300. h200", "500k req/day, in 1k, out 300"])
def test_out_opening_a_clause_with_a_bare_length_is_the_output(catalog: Catalog, said: str) -> None:
    assert parse(f"qwen3-32b, {said}", catalog).fields["output_tokens"] == 300


def test_out_inside_a_sentence_is_no_output_length(catalog: Catalog) -> None:
    got = parse("qwen3-32b, 500k req/day, 1k in / 200 out; we rolled out 300 seats", catalog).fields
    assert got["output_tokens"] == 200


@pytest.mark.parametrize(
    ("said", "gpus"),
    [
        ("3 nodes of h200, llama 3.1 70b, batch 64, $26/node/hr", 24),
        ("Deal is 5 nodes, Qwen3-32B on B200 at $4.10/GPU-hr, 12 months", 40),
        ("2 racks gb300 nvl72, kimi k3 nvfp4, $400/rack-hr", 144),
        ("1x GB200 NVL72 rack, Kimi K3, concurrency 512 across the rack, $4.60/GPU-hr", 72),
    ],
)
def test_nodes_or_racks_counted_with_one_gpu_are_that_many_of_its_boxes(
    catalog: Catalog, said: str, gpus: int
) -> None:
    parsed = parse(said, catalog)
    assert (parsed.kind, parsed.fields["gpus"]) == ("scenario", gpus)


@pytest.mark.parametrize(
    "said",
    [
        "4 nodes of h200, batch 48 per node",
        "4 b200 nodes, batch 48 per replica, one replica per node",
    ],
)
def test_a_batch_per_node_or_replica_is_multiplied_by_the_nodes(
    catalog: Catalog, said: str
) -> None:
    got = parse(f"llama 3.1 70b fp8: {said}, $3.40/GPU-hr, 12 months", catalog).fields
    assert (got["gpus"], got["concurrency"]) == (32, 192)


def test_two_node_counts_without_a_correction_are_said(catalog: Catalog) -> None:
    parsed = parse("ramp: 2 nodes of H200 for months 1-6, then 5 nodes, $3.10/GPU-hr, "
                   "Qwen3-32B", catalog)
    assert any("node counts" in a for a in parsed.ambiguities)


@pytest.mark.parametrize("each", ["each averaging 5 turns", "each with 5 turns"])
def test_conversations_each_of_several_turns_are_that_many_requests(
    catalog: Catalog, each: str
) -> None:
    got = fields(f"900k conversations per month, {each}. GLM-5, 1200 in, 200 out", catalog)
    assert got["requests_per_day"] == 900_000 * 5 / 30


def test_the_gpu_they_run_with_another_provider_today_is_not_sized(catalog: Catalog) -> None:
    got = parse("GLM-5, 1M requests a day. They're on H100s with another provider today "
                "and want to look at B300.", catalog)
    assert got.fields["gpus"] == ("b300",)


def test_a_rival_that_quoted_the_customer_by_name_is_no_offer_of_ours(catalog: Catalog) -> None:
    got = parse("Lambda quoted Orion $2.10/hr on H100; we want to win it with B200. "
                "GLM-5, 30 rps, 2k in, 300 out", catalog)
    assert got.fields["gpus"] == ("b200",)
    assert "price_per_gpu_hour" not in got.fields


@pytest.mark.parametrize(
    "said", ["3k out incl ~1k thinking", "3k output tokens including 1k reasoning"]
)
def test_an_output_said_to_include_its_reasoning_is_the_rest_visible(
    catalog: Catalog, said: str
) -> None:
    got = fields(f"kimi k3, 5 req/s, 8k in, {said}", catalog)
    assert (got["output_tokens"], got["reasoning_tokens"]) == (2000, 1000)


def test_a_generated_total_of_which_a_part_is_the_chain_of_thought(catalog: Catalog) -> None:
    got = fields("r1, each request ~7k tokens generated in all, 5k of which is CoT, 2k "
                 "prompt, 600 requests per hour", catalog)
    assert (got["output_tokens"], got["reasoning_tokens"]) == (2000, 5000)


def test_an_arrow_then_an_apology_corrects_the_figure_before(catalog: Catalog) -> None:
    got = fields("8x h200 for glm-5, batch 24 → sorry 40, fp8", catalog)
    assert got["concurrency"] == 40


def test_documents_a_day_each_requiring_several_calls(catalog: Catalog) -> None:
    got = fields("about 40,000 documents per day; each document requires 4 model calls. "
                 "kimi k2, 20000 in 1000 out", catalog)
    assert got["requests_per_day"] == 160_000


def test_the_workload_set_aside_in_its_own_label_is_not_read(catalog: Catalog) -> None:
    got = fields("Workload A (now): Qwen3 32B, ~3M requests/day, 400 in, 60 out.\n"
                 "Workload B (next year, please ignore for now): Llama 3.1 70B, 200k/day, "
                 "4k in / 1k out.", catalog)
    assert (got["model"], got["requests_per_day"], got["input_tokens"]) == (
        "qwen3-32b", 3_000_000, 400)


def test_just_a_letter_picks_its_workload(catalog: Catalog) -> None:
    got = fields("Workload A: GLM-5, 1M requests/day, 900 in, 200 out.\nWorkload B: Qwen3 32B, "
                 "5M requests/day, 300 in, 20 out.\njust A please", catalog)
    assert (got["model"], got["requests_per_day"]) == ("glm-5", 1_000_000)


@pytest.mark.parametrize(
    "today", ["\"Today our p95 time-to-first-token is 3.1 seconds.", "Our TTFT today is 3.1 s;"]
)
def test_todays_latency_then_the_one_they_need_said_of_it(catalog: Catalog, today: str) -> None:
    got = fields(f"{today} We need it under 1.2 seconds. kimi k2, 1B output tokens a month",
                 catalog)
    assert got["max_ttft_s"] == 1.2


def test_an_earlier_revision_said_superseded_is_not_read(catalog: Catalog) -> None:
    got = fields("- 32x H200 (4 nodes)\n- GLM-5 FP8, 256 concurrency\n- $3.40/GPU-hr, 12 mo\n"
                 "Rev A had 16 GPUs at $3.60, that's superseded.", catalog)
    assert (got["gpus"], got["price_per_gpu_hour"]) == (32, 3.4)


@pytest.mark.parametrize(("said", "ttft"), [("1.5s not 15s", 1.5), ("2 s, not 800 ms", 2.0)])
def test_a_figure_with_its_unit_then_not_the_old_one(
    catalog: Catalog, said: str, ttft: float
) -> None:
    got = parse(f"correction: ttft target is {said}. deepseek r1, 20k req/day", catalog)
    assert got.fields["max_ttft_s"] == ttft
    assert not any("two values" in a for a in got.ambiguities)


def test_per_token_latency_is_the_time_between_tokens(catalog: Catalog) -> None:
    got = fields("Qwen3-32B, 30 rps, TTFT under 700 ms, per-token latency no worse than 20 ms",
                 catalog)
    assert (got["max_ttft_s"], got["min_per_user_tokens_per_s"]) == pytest.approx((0.7, 50.0))


def test_api_prices_marked_output_and_input_in_brackets(catalog: Catalog) -> None:
    got = fields("must beat our API at $2.40 (output) / $0.60 (input) per million. Kimi K2, "
                 "40 rps, 3k in 500 out", catalog)
    assert (got["api_price_per_million_output"], got["api_price_per_million_input"]) == (2.4, 0.6)
    assert "price_per_gpu_hour" not in got


def test_today_in_brackets_of_another_clause_is_not_the_gpus(catalog: Catalog) -> None:
    got = parse("- GLM-5 on H200 (today they're on A100s via a colo, ignore that)\n"
                "- 1M req/day, 4k in, 200 out", catalog)
    assert got.fields["gpus"][0] == "h200"


def test_a_deployment_checked_at_its_peak_concurrency(catalog: Catalog) -> None:
    got = fields("they only care about peak: 8x h200, glm-5 fp8, check it at peak concurrency "
                 "120 (typical is ~50). $2.75/hr", catalog)
    assert got["concurrency"] == 120


def test_a_node_count_said_after_on(catalog: Catalog) -> None:
    got = fields("counter was $15,330/node/mo for an 8-gpu h200 node. run glm-5 at 64 "
                 "concurrency on 3 nodes at their number", catalog)
    assert got["gpus"] == 24


def test_a_latency_corrected_in_its_own_unit_keeps_its_fact(catalog: Catalog) -> None:
    got = parse("gpt oss 120b, TPOT target 20ms... sorry, 25ms. ttft 800ms. 150k req/day",
                catalog)
    assert (got.fields["min_per_user_tokens_per_s"], got.fields["max_ttft_s"]) == (40.0, 0.8)
    assert not any("two values" in a for a in got.ambiguities)


def test_a_struck_through_figure_is_taken_back(catalog: Catalog) -> None:
    got = fields("glm-5 on 8x h200, concurrency ~32~ 48, $2.95/hr per gpu", catalog)
    assert got["concurrency"] == 48


def test_a_steady_state_said_as_a_fraction_of_the_peak(catalog: Catalog) -> None:
    got = fields("deepseek r1: peak 800 requests/min, steady-state is about a quarter of that. "
                 "1k in, 1k out", catalog)
    assert (got["requests_per_day"], got["peak_to_average"]) == (200 * 1440, 4.0)


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("tarifs au 30/09/2026", dt.date(2026, 9, 30)),  # day first: it cannot be a month
        ("precios al 01/10/2026", dt.date(2026, 10, 1)),  # day first, as Spanish writes it
        ("prices as of 9/30/2026", dt.date(2026, 9, 30)),  # month first, as US English does
    ],
)
def test_a_slashed_date_is_a_date_never_a_requests_lengths(
    catalog: Catalog, said: str, day: dt.date
) -> None:
    got = fields(f"4 x MI325X, Mixtral 8x7B BF16, 64 concurrent, $1.65/GPU/h, {said}", catalog)
    assert got["as_of"] == day
    assert "input_tokens" not in got and "output_tokens" not in got


@pytest.mark.parametrize(
    "said", ["an annual price of $21,900 per GPU", "yearly rate: $21,900 per GPU"]
)
def test_a_periods_price_named_before_its_figure_per_gpu(catalog: Catalog, said: str) -> None:
    got = fields(f"kimi k2 on gb200, 150k req/day, 6k in 1k out, {said}", catalog)
    assert got["price_per_gpu_hour"] == 2.5


def test_a_monthly_price_for_a_node_of_so_many_gpus(catalog: Catalog) -> None:
    got = fields("gpt-oss-120b, 600k requests per day, 900 in / 400 out on MI300X. Quote was "
                 "$17,520 per month for an 8-GPU node", catalog)
    assert got["price_per_gpu_hour"] == 3.0


@pytest.mark.parametrize("said", ["a 3% annual price escalator", "2.5% yearly escalation"])
def test_a_prices_yearly_escalator_is_no_traffic_growth(catalog: Catalog, said: str) -> None:
    got = parse(f"Llama 3.1 70B, 20 req/s, 1k in 200 out, $2.50/GPU-hr with {said}",
                catalog).fields
    assert "monthly_growth" not in got
