"""One workload out of several: the one the message asks for is read, the choice said."""

from __future__ import annotations

from core.catalog import Catalog
from core.parse import parse
from core.parse.workloads import chosen


def test_a_lettered_workload_asked_for_is_the_one_read(catalog: Catalog) -> None:
    got = parse("Two asks:\n(a) support bot: 250k req/day, 800 in / 150 out\n"
                "(b) nightly batch: 5k docs/day, 40k in / 2k out\n"
                "Both on Qwen3-32B, H200. Size (a) first please.", catalog)
    assert (got.fields["requests_per_day"], got.fields["input_tokens"]) == (250_000, 800)
    assert got.fields["gpu"] == "h200"
    assert any("sized (a) only" in a for a in got.assumed)
    assert not any("two values" in a for a in got.ambiguities)


def test_the_phase_that_matters_is_read_and_the_model_is_shared(catalog: Catalog) -> None:
    got = parse("Phase 1 (Q1): 8x H100, Llama 3.1 70B FP8, 16 concurrent.\n"
                "Phase 2 (Q2 on): 16x B200, same model in NVFP4, 128 concurrent.\n"
                "Only phase 2 matters: 24 months at $4.80/GPU-hr.", catalog).fields
    assert (got["gpu"], got["gpus"], got["concurrency"]) == ("b200", 16, 128)
    assert (got["model"], got["precision"]) == ("llama-3.1-70b", "nvfp4")


def test_before_and_after_sizes_the_after(catalog: Catalog) -> None:
    got = parse("Before: 4x A100 with Llama 3.1 8B at batch 8. After: 4x L40S, same model, "
                "batch 32, 600 in / 200 out.", catalog)
    assert (got.fields["gpu"], got.fields["concurrency"]) == ("l40s", 32)
    assert "sized the 'after' only; the 'before' is what runs today" in got.assumed


def test_with_no_choice_said_nothing_is_blanked() -> None:
    text = "(a) chat: 400k req/day\n(b) batch: 20k docs/day\nwhich is cheaper?"
    assert chosen(text) == (text, None)
