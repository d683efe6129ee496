"""Follow-ups in a thread, applied to a starting scenario or traffic: what changed, said back."""

from __future__ import annotations

from typing import Any

import pytest

from core.catalog import Catalog
from core.parse import apply_followup, parse

OWN = "price: $5.00/GPU-hour -> the new GPU's own price"
"""A price stated for one GPU is that GPU's: moving to another drops it."""
SCENARIO: dict[str, Any] = {
    "model": "kimi-k3",
    "gpu": "b300",
    "gpus": 8,
    "concurrency": 16,
    "term_months": 36,
    "price_per_gpu_hour": 5.0,
}
TRAFFIC: dict[str, Any] = {
    "model": "kimi-k3",
    "output_tokens_per_day": 2e9,
    "peak_to_average": 3.0,
    "gpus": ("b300",),
}

EDITS: list[tuple[str, dict[str, Any], str, dict[str, Any], list[str]]] = [
    (
        "scenario",
        SCENARIO,
        "what about H200?",
        {"gpu": "h200", "gpus": 8, "price_per_gpu_hour": None},
        ["gpu: b300 -> h200", OWN],
    ),
    ("scenario", SCENARIO, "make it 24 months", {"term_months": 24}, ["term: 36 -> 24 months"]),
    ("scenario", SCENARIO, "batch 64", {"concurrency": 64}, ["concurrency: 16 -> 64"]),
    (
        "scenario",
        SCENARIO,
        "at $4.50",
        {"price_per_gpu_hour": 4.5},
        ["price: $5.00 -> $4.50/GPU-hour"],
    ),
    (
        "scenario",
        SCENARIO,
        "without thinking tokens",
        {"reasoning_tokens": 0},
        ["reasoning_tokens: unset -> 0"],
    ),
    ("scenario", SCENARIO, "16 of them? i.e. 16 GPUs", {"gpus": 16}, ["gpus: 8 -> 16"]),
    (
        "scenario",
        SCENARIO,
        "try 16x GB300",
        {"gpu": "gb300", "gpus": 16, "price_per_gpu_hour": None},
        ["gpu: b300 -> gb300", "gpus: 8 -> 16", OWN],
    ),
    ("scenario", SCENARIO, "double the batch", {"concurrency": 32}, ["concurrency: 16 -> 32"]),
    ("scenario", SCENARIO, "in FP8", {"precision": "fp8"}, ["precision: unset -> fp8"]),
    (
        "scenario",
        SCENARIO,
        "and deepseek r1?",
        {"model": "deepseek-r1"},
        ["model: kimi-k3 -> deepseek-r1"],
    ),
    ("scenario", SCENARIO, "3 years instead", {"term_months": 36}, []),
    ("scenario", SCENARIO, "utilization 60%", {"utilization": 0.6}, ["utilization: unset -> 60%"]),
    (
        "scenario",
        SCENARIO,
        "<@U1> what about *H200*?",
        {"gpu": "h200", "price_per_gpu_hour": None},
        ["gpu: b300 -> h200", OWN],
    ),
    ("scenario", SCENARIO, "concurrency=128", {"concurrency": 128}, ["concurrency: 16 -> 128"]),
    (
        "traffic",
        TRAFFIC,
        "what about H200?",
        {"gpus": ("b300", "h200")},
        ["gpus: b300 -> b300, h200"],
    ),
    ("traffic", TRAFFIC, "only H200", {"gpus": ("h200",)}, ["gpus: b300 -> h200"]),
    (
        "scenario",
        SCENARIO,
        "at $80/hour",
        {"price_per_gpu_hour": 10.0},
        ["price: $5.00 -> $10.00/GPU-hour"],
    ),
    (
        "traffic",
        TRAFFIC,
        "plan for utilization around 60%",
        {"planned_utilization": 0.6},
        ["planned utilization: unset -> 60%"],
    ),
    (
        "traffic",
        TRAFFIC,
        "double the traffic",
        {"output_tokens_per_day": 4e9},
        ["output_tokens_per_day: 2B -> 4B"],
    ),
    (
        "traffic",
        TRAFFIC,
        "traffic triples",
        {"output_tokens_per_day": 6e9},
        ["output_tokens_per_day: 2B -> 6B"],
    ),
    ("traffic", TRAFFIC, "add 20% growth", {"monthly_growth": 0.2}, ["growth: unset -> 20%/month"]),
    ("traffic", TRAFFIC, "make it 24 months", {"term_months": 24}, ["term: unset -> 24 months"]),
    ("traffic", TRAFFIC, "peak 5x", {"peak_to_average": 5.0}, ["peak: 3 -> 5x"]),
    (
        "traffic",
        TRAFFIC,
        "3B output tokens a day",
        {"output_tokens_per_day": 3e9},
        ["output_tokens_per_day: 2B -> 3B"],
    ),
    ("traffic", TRAFFIC, "TTFT under 2 s", {"max_ttft_s": 2.0}, ["TTFT: unset -> 2 s"]),
]


@pytest.mark.parametrize(
    ("kind", "start", "text", "expected", "changed"), EDITS, ids=[e[2] for e in EDITS]
)
def test_followup_edits(
    catalog: Catalog,
    kind: str,
    start: dict[str, Any],
    text: str,
    expected: dict[str, Any],
    changed: list[str],
) -> None:
    result = apply_followup(dict(start), kind, text, catalog)
    for key, value in expected.items():
        assert result.fields.get(key) == value, key
    assert result.changed == changed
    assert result.action == ("edit" if changed else "none")
    untouched = {k: v for k, v in start.items() if k not in expected}
    assert {k: result.fields[k] for k in untouched} == untouched


@pytest.mark.parametrize(
    ("text", "action"),
    [("undo", "undo"), ("go back", "undo"), ("start over", "reset"), ("reset please", "reset")],
)
def test_undo_and_reset_leave_fields_to_the_caller(
    catalog: Catalog, text: str, action: str
) -> None:
    result = apply_followup(dict(SCENARIO), "scenario", text, catalog)
    assert result.action == action
    assert result.fields == SCENARIO
    assert result.changed == []


@pytest.mark.parametrize("text", ["thanks!", "", "👍", "ok cool", "what about it?"])
def test_nothing_to_edit(catalog: Catalog, text: str) -> None:
    result = apply_followup(dict(SCENARIO), "scenario", text, catalog)
    assert result.action == "none"
    assert result.fields == SCENARIO


def test_followup_does_not_mutate_its_input(catalog: Catalog) -> None:
    start = dict(SCENARIO)
    apply_followup(start, "scenario", "what about H200 at batch 64", catalog)
    assert start == SCENARIO


# --- what a follow-up asks for besides an edit -----------------------------------------


@pytest.mark.parametrize(
    ("text", "utilization", "changed"),
    [
        ("price per million at 40% utilization", 0.4, ["utilization: 40% on average"]),
        ("at $4.50/GPU-hour", None, ["price: unset -> $4.50/GPU-hour"]),
    ],
)
def test_a_utilization_or_price_alone_reprices_a_sizing(
    catalog: Catalog, text: str, utilization: float | None, changed: list[str]
) -> None:
    result = apply_followup(dict(TRAFFIC), "traffic", text, catalog)
    assert result.action == "reprice"
    assert result.utilization == utilization
    assert result.changed == changed
    assert "planned_utilization" not in result.fields  # the fleet is not re-sized


def test_a_planned_utilization_still_resizes_a_sizing(catalog: Catalog) -> None:
    result = apply_followup(dict(TRAFFIC), "traffic", "size for 60% utilization", catalog)
    assert result.action == "edit"
    assert result.fields["planned_utilization"] == 0.6
    assert result.utilization is None


def test_a_utilization_on_a_deployment_is_an_edit_of_its_utilization(catalog: Catalog) -> None:
    result = apply_followup(
        dict(SCENARIO), "scenario", "price per million at 40% utilization", catalog
    )
    assert result.action == "edit"
    assert result.fields == {**SCENARIO, "utilization": 0.4}


@pytest.mark.parametrize("text", ["compare with H200", "vs H200?", "H200 side by side"])
def test_compare_with_names_the_gpus_and_changes_nothing(catalog: Catalog, text: str) -> None:
    result = apply_followup(dict(SCENARIO), "scenario", text, catalog)
    assert result.action == "compare"
    assert result.gpus_named == ["h200"]
    assert result.fields == SCENARIO


def test_what_about_a_gpu_on_a_sizing_over_every_gpu_asks_for_it_alongside(
    catalog: Catalog,
) -> None:
    every_gpu = {k: v for k, v in TRAFFIC.items() if k != "gpus"}
    result = apply_followup(dict(every_gpu), "traffic", "what about H200?", catalog)
    assert result.action == "edit" and result.alongside
    only = apply_followup(dict(every_gpu), "traffic", "only H200", catalog)
    assert not only.alongside and only.fields["gpus"] == ("h200",)


@pytest.mark.parametrize(
    ("text", "name", "customer"),
    [
        ("save this as quote acme", "acme", None),
        ("Save it as a quote acme-q3 for Acme Corp.", "acme-q3", "Acme Corp"),
        ("save as quote acme for Acme", "acme", "Acme"),
    ],
)
def test_save_this_as_quote(catalog: Catalog, text: str, name: str, customer: str | None) -> None:
    result = apply_followup(dict(SCENARIO), "scenario", text, catalog)
    assert result.action == "save"
    assert (result.quote_name, result.quote_customer) == (name, customer)
    assert result.fields == SCENARIO


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("what about h2000?", ["I don't know 'h2000' — did you mean h200?"]),
        ("try b3000", ["I don't know 'b3000' — did you mean b300?"]),
        ("what about zq9999?", ["I don't know 'zq9999'"]),
        ("what about H200 in fp8 on 16x, tp8, 2B tokens?", []),
    ],
)
def test_an_unknown_name_is_said_with_the_closest_one(
    catalog: Catalog, text: str, said: list[str]
) -> None:
    assert apply_followup(dict(SCENARIO), "scenario", text, catalog).unknown == said


@pytest.mark.parametrize(
    ("text", "acknowledgement"),
    [("thanks!", True), ("ok cool 👍", True), ("hmm", False), ("what about it?", False)],
)
def test_an_acknowledgement_is_told_from_a_question_with_nothing_to_act_on(
    catalog: Catalog, text: str, acknowledgement: bool
) -> None:
    result = apply_followup(dict(SCENARIO), "scenario", text, catalog)
    assert result.action == "none"
    assert result.acknowledgement is acknowledgement


def test_a_volume_said_again_replaces_the_threads_in_whatever_unit(catalog: Catalog) -> None:
    thread = parse("Kimi K3, 2B output tokens a day", catalog).fields
    done = apply_followup(thread, "traffic", "actually 50 rps, 400 out", catalog)
    assert done.fields["requests_per_day"] == 50 * 86400
    assert done.fields.get("output_tokens_per_day") is None
