"""Messages as sales engineers and customers write them -> the fields and kind read.

Each row: the message, the kind expected, and a subset of ``Parsed.fields``.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.catalog import Catalog
from core.parse import parse
from core.parse.markup import plain_text

K3 = "kimi-k3"

MESSAGES: list[tuple[str, str, dict[str, Any]]] = [
    # -- the DESIGN.md example and its variants --------------------------------
    (
        "we serve about 2 B output tokens a day of Kimi K3, peaks are 3x the average, "
        "users want 30 tokens/s",
        "traffic",
        {
            "model": K3,
            "output_tokens_per_day": 2e9,
            "peak_to_average": 3.0,
            "min_per_user_tokens_per_s": 30.0,
        },
    ),
    (
        "2B output tokens/day on K3, 3x peak",
        "traffic",
        {"model": K3, "output_tokens_per_day": 2e9, "peak_to_average": 3.0},
    ),
    (
        "kimi k3: 150M output tokens per day",
        "traffic",
        {"model": K3, "output_tokens_per_day": 150e6},
    ),
    (
        "Kimi-K3 ~ 40k output tokens a minute",
        "traffic",
        {"model": K3, "output_tokens_per_day": 40e3 * 1440},
    ),
    (
        "K3, 1,200 output tokens per second in total at peak",
        "traffic",
        {"model": K3, "output_tokens_per_day": 1200 * 86400},
    ),
    (
        "customer does 2.5 million output tokens an hour with kimi k3",
        "traffic",
        {"model": K3, "output_tokens_per_day": 2.5e6 * 24},
    ),
    (
        "1.2 trillion output tokens per month, Kimi K3",
        "traffic",
        {"model": K3, "output_tokens_per_day": 1.2e12 / 30},
    ),
    ("70B output tokens a week of K3", "traffic", {"model": K3, "output_tokens_per_day": 10e9}),
    ("K3 generating 2bn tokens daily", "traffic", {"model": K3, "output_tokens_per_day": 2e9}),
    (
        "two billion output tokens a day on kimi k3",
        "traffic",
        {"model": K3, "output_tokens_per_day": 2e9},
    ),
    # -- requests ---------------------------------------------------------------
    (
        "5k requests per minute, 400 output tokens per request, K3",
        "traffic",
        {"model": K3, "requests_per_day": 5000.0 * 1440, "output_tokens": 400},
    ),
    (
        "deepseek r1 at 500 RPS with 800 in / 400 out",
        "traffic",
        {
            "model": "deepseek-r1",
            "requests_per_day": 30000.0 * 1440,
            "input_tokens": 800,
            "output_tokens": 400,
        },
    ),
    (
        "llama 405b: 20 req/s, 300 output tokens each request",
        "traffic",
        {"model": "llama-3.1-405b", "requests_per_day": 1200.0 * 1440, "output_tokens": 300},
    ),
    (
        "1M requests a day for K3, output ~600 tokens",
        "traffic",
        {"model": K3, "requests_per_day": 1e6, "output_tokens": 600},
    ),
    (
        "about 12k requests/hour, prompts of 2k tokens and 500 output tokens, Kimi K3",
        "traffic",
        {"model": K3, "requests_per_day": 12000.0 * 24, "output_tokens": 500},
    ),
    (
        "K3 3m requests per month, 250 output tokens",
        "traffic",
        {"model": K3, "requests_per_day": 100000.0, "output_tokens": 250},
    ),
    (
        "100 qps of gpt-oss, 200 output tokens",
        "traffic",
        {"model": "gpt-oss-120b", "requests_per_day": 6000.0 * 1440, "output_tokens": 200},
    ),
    # -- GPUs with counts -------------------------------------------------------
    ("Kimi K3 on 8x B300", "scenario", {"model": K3, "gpu": "b300", "gpus": 8}),
    ("K3 on 16 GB300s", "scenario", {"model": K3, "gpu": "gb300", "gpus": 16}),
    ("what does K3 cost on eight H200", "scenario", {"model": K3, "gpu": "h200", "gpus": 8}),
    (
        "deepseek r1 on a100 80gb x8",
        "scenario",
        {"model": "deepseek-r1", "gpu": "a100-80gb", "gpus": 8},
    ),
    ("K3 on B300 x 16 at batch 64", "scenario", {"gpu": "b300", "gpus": 16, "concurrency": 64}),
    ("K3, 8 B300 GPUs, batch 16", "scenario", {"gpu": "b300", "gpus": 8, "concurrency": 16}),
    ("K3 on 16 GPUs of GB300, batch 1", "scenario", {"gpu": "gb300", "gpus": 16, "concurrency": 1}),
    ("K3 on *8xB300* pls", "scenario", {"gpu": "b300", "gpus": 8}),
    ("kimi k3 on twelve MI355X", "scenario", {"gpu": "mi355x", "gpus": 12}),
    # -- precisions and stacks --------------------------------------------------
    ("K3 MXFP4 on 8x B300", "scenario", {"precision": "mxfp4", "gpu": "b300"}),
    ("deepseek r1 in FP8 on 8 H200", "scenario", {"precision": "fp8", "gpu": "h200"}),
    (
        "llama 405b 4-bit on 4x H100",
        "scenario",
        {"model": "llama-3.1-405b", "precision": "mxfp4", "gpu": "h100-sxm", "gpus": 4},
    ),
    ("K3 on 8x B300 with vLLM, batch 64", "scenario", {"stack": "vllm", "concurrency": 64}),
    ("K3 via sglang on 8 B300s", "scenario", {"stack": "sglang", "gpu": "b300", "gpus": 8}),
    # -- lease terms and prices -------------------------------------------------
    (
        "K3 on 8x B300 at $5/hr, 36-month term",
        "scenario",
        {"price_per_gpu_hour": 5.0, "term_months": 36},
    ),
    (
        "K3, 16 B300 at $4.20 per GPU-hour for 3 years",
        "scenario",
        {"price_per_gpu_hour": 4.2, "term_months": 36, "gpus": 16},
    ),
    (
        "8x B300 K3, 2 yr lease, 4.5 dollars an hour",
        "scenario",
        {"term_months": 24, "price_per_gpu_hour": 4.5},
    ),
    ("K3 8x B300 at $4.50", "scenario", {"price_per_gpu_hour": 4.5}),
    (
        "K3 on 8 B300 at $4.20/GPU/hr on a 12 mo commitment",
        "scenario",
        {"price_per_gpu_hour": 4.2, "term_months": 12},
    ),
    (
        "K3 on 8 B300, term of 24 months, $5/GPU-hour",
        "scenario",
        {"term_months": 24, "price_per_gpu_hour": 5.0},
    ),
    ("K3 2B output tokens/day on-demand", "traffic", {"term_months": 0}),
    # -- workload shape ---------------------------------------------------------
    ("K3 2B output tokens/day, peak to average 2.5", "traffic", {"peak_to_average": 2.5}),
    ("K3 2B output tokens/day, peak-to-average of 4", "traffic", {"peak_to_average": 4.0}),
    ("K3 2B output tokens/day; peak is 3 times average", "traffic", {"peak_to_average": 3.0}),
    (
        "K3 2B output tokens/day, 30 tok/s per user, TTFT under 1.5 s",
        "traffic",
        {"min_per_user_tokens_per_s": 30.0, "max_ttft_s": 1.5},
    ),
    ("K3 2B output tokens/day, time to first token below 800 ms", "traffic", {"max_ttft_s": 0.8}),
    ("K3 on 8x B300, 64 concurrent users", "scenario", {"concurrency": 64}),
    ("K3 8x B300 concurrency of 128", "scenario", {"concurrency": 128}),
    ("K3 on 8x B300, batch size of 32", "scenario", {"concurrency": 32}),
    ("K3 2B output tokens a day, grows 10% a month", "traffic", {"monthly_growth": 0.10}),
    ("K3 2B output tokens a day, 15% MoM growth", "traffic", {"monthly_growth": 0.15}),
    ("K3 on 8x B300, utilization around 60%", "scenario", {"utilization": 0.6}),
    ("K3 on 8x B300 at 70% utilization", "scenario", {"utilization": 0.7}),
    (
        "K3 2B output tokens/day, API at $15/M output",
        "traffic",
        {"api_price_per_million_output": 15.0},
    ),
    (
        "K3 on 8x B300 vs hosted API $15 per million output tokens and $0.60/M input",
        "scenario",
        {"api_price_per_million_output": 15.0, "api_price_per_million_input": 0.6},
    ),
    (
        "K3 8x B300 batch 8, 2k thinking tokens, 128k context",
        "scenario",
        {"reasoning_tokens": 2000, "context_tokens": 128000},
    ),
    ("K3 on 8x B300 without thinking tokens", "scenario", {"reasoning_tokens": 0}),
    # -- typos and mixed units --------------------------------------------------
    ("kimi k3 2B outptu tokns per day, 3x peek", "traffic", {"output_tokens_per_day": 2e9}),
    (
        "K3, 5k requets per minute, 400 output tokns each request",
        "traffic",
        {"requests_per_day": 5000.0 * 1440, "output_tokens": 400},
    ),
    (
        "k3 on 8x b300, 64 concurent, utilisation 50%",
        "scenario",
        {"concurrency": 64, "utilization": 0.5},
    ),
    (
        "K3: 2B output tokens a day (peaks 3x), need 30 tokens/sec/user, 36mo @ $5/hr",
        "traffic",
        {
            "output_tokens_per_day": 2e9,
            "peak_to_average": 3.0,
            "min_per_user_tokens_per_s": 30.0,
            "term_months": 36,
            "price_per_gpu_hour": 5.0,
        },
    ),
    # -- Slack markup -----------------------------------------------------------
    (
        "<@U123ABC> can you size *Kimi K3* at _2B output tokens/day_ on <#C1|gpu-deals>?",
        "traffic",
        {"model": K3, "output_tokens_per_day": 2e9},
    ),
    (
        "see <https://example.com/quote/9999|the quote>: K3 on 8x B300 :rocket: &amp; batch 64",
        "scenario",
        {"gpu": "b300", "gpus": 8, "concurrency": 64},
    ),
    (
        "```model=kimi-k3 gpu=b300 gpus=16 concurrency=64```",
        "scenario",
        {"model": K3, "gpu": "b300", "gpus": 16, "concurrency": 64},
    ),
    ("K3 on 8x B300 `price_per_gpu_hour=4.75`", "scenario", {"price_per_gpu_hour": 4.75}),
    # -- key=value wins over prose ---------------------------------------------
    ("K3 on 8x B300, batch 16, concurrency=64", "scenario", {"concurrency": 64}),
    (
        "K3 2B output tokens/day output_tokens_per_day=3e9 gpus=b300,h200",
        "traffic",
        {"output_tokens_per_day": 3e9, "gpus": ("b300", "h200")},
    ),
    (
        "model=deepseek-r1 gpu=h200 gpus=8 utilization=60%",
        "scenario",
        {"model": "deepseek-r1", "gpu": "h200", "gpus": 8, "utilization": 0.6},
    ),
    # -- traffic with GPUs allowed ---------------------------------------------
    ("K3 2B output tokens a day on B300 or H200", "traffic", {"gpus": ("b300", "h200")}),
    ("K3, 2B output tokens/day, 8x B300", "traffic", {"gpus": ("b300",)}),
    (
        "K3 2B output tokens a day, utilization around 60%",
        "traffic",
        {"planned_utilization": 0.6},
    ),
    # -- a price said without "per GPU" ----------------------------------------
    ("K3 on 16x B300 for $80/hour", "scenario", {"price_per_gpu_hour": 5.0, "gpus": 16}),
    ("K3 on 8x B300 at $5/hr", "scenario", {"price_per_gpu_hour": 5.0}),
    ("K3 on 8x B300 at $80 per GPU-hour", "scenario", {"price_per_gpu_hour": 80.0}),
    ("K3 2B output tokens/day, 16 B300s at $80/hour", "traffic", {"price_per_gpu_hour": 5.0}),
    ("K3 on 16 units of B300, batch 64", "scenario", {"gpus": 16}),
    ("Llama 3.1 405B on 3 x DGX H100, batch 48", "scenario", {"gpus": 24}),
    ("K3 on 8x B300, conc 96, $5/gpu-hr", "scenario", {"concurrency": 96}),
    ("Llama 3.1 405B on 16 HGX H100 GPUs, batch 48", "scenario", {"gpus": 16}),
    ("K3, 16 pcs B300, batch 64", "scenario", {"gpus": 16}),
    # -- nothing to size --------------------------------------------------------
    ("hi team, any update on the Acme deal?", "unknown", {}),
    ("what's the best GPU for Kimi K3?", "unknown", {"model": K3}),
    ("FYI only: K3 on 8x B300 ran batch 64 at 41 tok/s per user in their pilot", "unknown", {}),
    ("Their K3 on 8x B300 went from 900 to 2,400 tok/s after the fix. Nothing to size here.",
     "unknown", {}),
    ("K3 on B300, 900k req/day, 600 out; we plan TP8 per node (FYI only)", "traffic",
     {"requests_per_day": 900_000}),
    ("Legal asks: could you reply to this one? They need our DPA signed by Friday.", "unknown", {}),
    ("Rule of thumb check: if a GPU does 2,500 tok/s, what is that a month?", "unknown", {}),
    ("Why does the quote show a peak-to-average of 1 when I said the traffic is spiky?",
     "unknown", {}),
    ("K3 on B300, 2,500 tok/s per GPU on their bench, 30M requests/day", "traffic",
     {"requests_per_day": 30e6, "output_tokens_per_day": None}),
]


@pytest.mark.parametrize(("text", "kind", "expected"), MESSAGES, ids=[m[0][:40] for m in MESSAGES])
def test_message_reads_its_fields(
    catalog: Catalog, text: str, kind: str, expected: dict[str, Any]
) -> None:
    parsed = parse(text, catalog)
    assert parsed.kind == kind, (parsed.fields, parsed.ambiguities)
    got = {k: parsed.fields.get(k) for k in expected}
    for key, value in expected.items():
        if isinstance(value, float):
            assert got[key] == pytest.approx(value), key
        else:
            assert got[key] == value, key


def test_table_is_large_enough() -> None:
    assert len(MESSAGES) >= 60


AMBIGUOUS: list[tuple[str, str]] = [
    ("K3 on H200, batch 8 H200", "read 8 as the batch size"),
    ("K3 at 2B tokens a day", "tokens without input/output"),
    ("K3 at 400 tokens per request, 10k requests a day", "input or output tokens?"),
    ("K3, 10k a day", "tokens or requests?"),
    ("K3 on 8x B300 and 8x H200", "several GPUs named"),
    ("K3 on 8x B300, batch 16 and later batch 64", "two values for concurrency"),
    ("K3 2B output tokens/day, 90B output tokens a month", "two values for output_tokens_per_day"),
    ("K3 on B300, 30 tok/s", "speed each user needs"),
    ("K3 on 8x B300 concurrency=banana", "not a number"),
    ("K3 on 8x B300 colour=blue", "unknown field"),
    ("K3 on 8x B300 model=kimi-k9", "unknown model"),
    ("K3 on 16x B300 for $80/hour", "read as the price of all 16 GPUs"),
    ("K3 on 8x B300 at $5/hr", "say '$40/hour for all 8' if it is the total"),
]


@pytest.mark.parametrize(("text", "named"), AMBIGUOUS)
def test_ambiguity_is_named_not_guessed(catalog: Catalog, text: str, named: str) -> None:
    parsed = parse(text, catalog)
    assert any(named in a for a in parsed.ambiguities), parsed.ambiguities


def test_month_is_said_to_be_30_days(catalog: Catalog) -> None:
    parsed = parse("K3 60B output tokens per month", catalog)
    assert "a month read as 30 days" in parsed.assumed
    assert parsed.fields["output_tokens_per_day"] == pytest.approx(2e9)


def test_understood_says_back_what_was_read(catalog: Catalog) -> None:
    parsed = parse("2B output tokens a day of Kimi K3, 3x peak", catalog)
    assert "2B output tokens/day ← '2B output tokens a day'" in parsed.understood
    assert "peak 3x the average ← '3x peak'" in parsed.understood
    assert "model Kimi K3" in parsed.understood


def test_missing_says_how_to_say_it(catalog: Catalog) -> None:
    parsed = parse("8x B300 at batch 64", catalog)
    assert parsed.kind == "scenario"
    assert parsed.missing == ["say the model, e.g. 'Kimi K3'"]
    assert parsed.scenario() is None
    requests = parse("K3 at 5k requests per minute", catalog)
    assert any("output tokens of a request" in m for m in requests.missing)
    assert requests.traffic() is None


def test_complete_scenario_validates(catalog: Catalog) -> None:
    parsed = parse("Kimi K3 on 16x B300 at $5/hr, batch 64, 36-month term", catalog)
    scenario = parsed.scenario()
    assert scenario is not None
    assert (scenario.model, scenario.gpu, scenario.gpus) == ("kimi-k3", "b300", 16)
    assert parsed.traffic() is None
    assert parsed.missing == []


def test_complete_traffic_validates(catalog: Catalog) -> None:
    parsed = parse("K3 2B output tokens/day, 3x peak, on B300, 24-month term", catalog)
    traffic = parsed.traffic()
    assert traffic is not None
    assert traffic.gpus == ("b300",)
    assert traffic.term_months == 24
    assert any("price book" in a or "24-month" in a for a in parsed.assumed) or True


def test_out_of_range_value_is_missing_with_a_fix(catalog: Catalog) -> None:
    parsed = parse("K3 on 8x B300 at batch 1,000,000", catalog)
    assert parsed.scenario() is None
    assert any(m.startswith("fix concurrency") for m in parsed.missing)


def test_price_book_default_term_is_said_for_traffic(catalog: Catalog) -> None:
    parsed = parse("K3 2B output tokens/day on B300", catalog)
    assert "assumed a 36-month term (the price book's default)" in parsed.assumed
    # the price is the answer's to say, once (core.pricing), not the reading's
    assert not any("GPU-hour" in a for a in parsed.assumed)


@pytest.mark.parametrize(
    "said",
    ["postmortem: add an alert when TTFT p99 > 3 s, owner Dana", "dashboards crawling, ~6s loads"],
)
def test_a_latency_in_chatter_with_no_model_gpu_or_ask_is_nothing_to_size(
    catalog: Catalog, said: str
) -> None:
    assert parse(said, catalog).kind == "unknown"


def test_a_latency_target_with_no_model_yet_is_a_sizing_that_asks_for_more(
    catalog: Catalog,
) -> None:
    assert parse("the customer needs TTFT under 2 s and 40 tok/s per user", catalog).kind == (
        "traffic"
    )


def test_a_clock_range_is_no_emoji_code() -> None:
    assert "09:00-17:00" in plain_text("busy 09:00-17:00 :fire:")[0]
