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
    ],
)
def test_a_gpu_named_alone_is_no_deployment(text: str, catalog: Catalog) -> None:
    assert parse(text, catalog).kind == "unknown"


def test_a_model_on_a_gpu_is_a_deployment_with_its_defaults_said(catalog: Catalog) -> None:
    parsed = parse("Llama 3.1 70B on H200", catalog)
    assert parsed.kind == "scenario"
    assert any("smallest count" in a for a in parsed.assumed)


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
    assert any("volume, not one request's output" in a for a in parsed.assumed)


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
