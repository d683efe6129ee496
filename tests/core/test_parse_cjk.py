"""Chinese and Japanese messages: their fact words read, the rest a break, never a guess."""

from __future__ import annotations

import pytest

from core.catalog import Catalog
from core.parse import parse
from core.parse.cjk import spelled_out


def test_a_japanese_request_rate_lengths_gpu_and_latency(catalog: Catalog) -> None:
    got = parse("お世話になっております。1日あたり約20万件のリクエストで、モデルはQwen3-32B、"
                "入力2000トークン、出力300トークンです。TTFTは1.2秒以内、GPUはH100を希望します。",
                catalog).fields
    assert got["requests_per_day"] == 200_000
    assert (got["input_tokens"], got["output_tokens"]) == (2000, 300)
    assert (got["max_ttft_s"], got["gpu"], got["model"]) == (1.2, "h100-sxm", "qwen3-32b")


def test_a_chinese_rate_and_a_monthly_volume_with_its_scale(catalog: Catalog) -> None:
    zh = parse("我们每天大约 80万 次请求，模型是 Llama 3.1 8B，输入约 900 tokens，"
               "输出约 150 tokens", catalog).fields
    assert (zh["requests_per_day"], zh["input_tokens"], zh["output_tokens"]) == (8e5, 900, 150)
    month = parse("顧客は月間で約3億 output tokens、モデルは gpt-oss-120b", catalog).fields
    assert month["output_tokens_per_day"] == 3e8 / 30


def test_the_peak_as_the_averages_multiple(catalog: Catalog) -> None:
    ja = parse("1日あたり5万件のリクエスト、ピークは平均の2倍くらいです。GLM-5", catalog).fields
    zh = parse("每天300万次请求，峰值是平均的3倍，模型是 GLM-5", catalog).fields
    assert (ja["peak_to_average"], zh["peak_to_average"]) == (2.0, 3.0)


def test_text_without_the_script_is_left_alone() -> None:
    text = "2M requests/day on Llama 3.1 8B"
    assert spelled_out(text) is text


def test_digits_before_a_thousand_numeral_are_that_many_thousands(catalog: Catalog) -> None:
    got = parse("DeepSeek V3 部署在 H200 上。每天 80万 请求, 每个请求 input 约 4千 tokens, "
                "输出 3百 tokens。", catalog).fields
    assert (got["input_tokens"], got["output_tokens"]) == (4000, 300)


def test_an_average_said_as_a_share_of_the_peak_in_chinese(catalog: Catalog) -> None:
    got = parse("客户要 Qwen3-32B，峰值每秒 60 个请求，平均大概是峰值的 50%。输入 1k，输出 200。",
                catalog).fields
    assert got["requests_per_day"] == 30 * 86400 and got["peak_to_average"] == 2.0


def test_a_japanese_forms_requests_a_day_line_is_read(catalog: Catalog) -> None:
    got = parse("モデル: Qwen3-32B\n1日あたりリクエスト数: 12万（平均）\n入力トークン: 1,000\n"
                "出力トークン: 200\nGPU: H200", catalog).fields
    assert got["requests_per_day"] == 120_000


@pytest.mark.parametrize(
    ("said", "months"), [("租期两年半", 30), ("契約は1年半", 18), ("合同半年", 6)]
)
def test_a_year_and_a_half_and_half_a_year_are_their_months(
    catalog: Catalog, said: str, months: int
) -> None:
    got = parse(f"Qwen3-32B，H200，每天 1000万 输出 token，{said}。", catalog).fields
    assert got["term_months"] == months


def test_a_japanese_quote_by_nodes_with_its_price_per_gpu_hour(catalog: Catalog) -> None:
    got = parse("H200ノード2台（計16GPU）でQwen3-32B、利用率60%想定、1GPU時間あたり3.10ドル、"
                "契約期間6ヶ月", catalog).fields
    assert (got["gpu"], got["gpus"], got["utilization"]) == ("h200", 16, 0.6)
    assert (got["price_per_gpu_hour"], got["term_months"]) == (3.1, 6)


def test_a_chinese_count_of_servers_with_their_cards_each(catalog: Catalog) -> None:
    got = parse("客户想租 3 台 B200 服务器（每台 8 卡），跑 GLM-5，并发 64", catalog).fields
    assert (got["gpu"], got["gpus"], got["concurrency"]) == ("b200", 24, 64)


def test_a_korean_quote_counts_cards_and_concurrent_requests(catalog: Catalog) -> None:
    got = parse("견적: B300 24장, GLM-5, 동시 요청 96개, GPU당 시간당 $4.10, 18개월 약정",
                catalog).fields
    assert (got["gpus"], got["concurrency"], got["term_months"]) == (24, 96, 18)
    assert got["price_per_gpu_hour"] == 4.1


def test_items_a_second_are_requests(catalog: Catalog) -> None:
    got = parse("毎秒40件、入力800トークン、出力200トークン、モデルはQwen3-32B", catalog).fields
    assert got["requests_per_day"] == 40 * 86400


def test_korean_scales_and_their_restatement_in_brackets(catalog: Catalog) -> None:
    week = parse("Kimi K2.5 on GB300, 70만 (700,000) requests per week, 4000 input tokens, "
                 "1000 output", catalog).fields
    day = parse("Kimi K2.5 on GB300, 하루 30만 요청, 2000 input tokens, 500 output", catalog).fields
    assert (week["requests_per_day"], day["requests_per_day"]) == (100_000, 300_000)
