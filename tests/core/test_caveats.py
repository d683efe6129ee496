"""Which caveats an answer says first: ``core.caveats.rank_caveats``."""

from __future__ import annotations

from core.catalog import Catalog
from core.caveats import caveat_origins, rank_caveats

FIT = "does not fit in memory on 1 B300s: needs at least 8 B300s; no throughput is shown"
QUEUE = "40 of the 64 requests wait for KV-cache room (24 decode at once)"
CARRIED = "estimated from m1, measured on 16x GB300 (one NVLink domain); 16 B300s span 2"
OWN = "steady single-stream decode; about 27 minutes of cold boot before the first token"
STACK = "general-purpose decode path; model-specific fused paths can be much faster"
OTHER = "median TTFT of 18.6 s shows requests queueing for KV-cache space at the write-up's batch"


def test_caveats_rank_fit_then_carried_then_the_measurements_own_then_the_stacks() -> None:
    given = [OTHER, STACK, OWN, CARRIED, QUEUE, FIT]
    assert rank_caveats(given, own={OWN}, stack_wide={STACK}) == [
        QUEUE,
        FIT,
        CARRIED,
        OWN,
        STACK,
        OTHER,
    ]


def test_the_order_within_a_tier_is_the_order_given() -> None:
    ranked = rank_caveats([OTHER, STACK, OWN, CARRIED, FIT, QUEUE], own={OWN}, stack_wide={STACK})
    assert ranked == [FIT, QUEUE, CARRIED, OWN, STACK, OTHER]


def test_the_same_caveat_with_another_number_is_said_once() -> None:
    again = OTHER.replace("18.6", "133.1")
    assert rank_caveats([OTHER, again]) == [OTHER]


def test_a_caveat_within_another_is_said_once_and_short_ones_are_kept() -> None:
    longer = "prefill is not covered by the optimisation and moves less"
    shorter = "prefill is not covered and moves less"
    assert rank_caveats([shorter, longer]) == [shorter]
    assert rank_caveats(["NVIDIA GPUs only", "GPUs only"]) == ["NVIDIA GPUs only", "GPUs only"]


def test_what_the_engine_says_of_the_answer_comes_before_a_write_ups_notes() -> None:
    arch = "Llama 3.1 70B Instruct architecture partly estimated: total_params_b"
    assert rank_caveats([OWN, arch], own={OWN}) == [arch, OWN]


def test_origins_are_the_answers_own_measurements_and_its_stack(catalog: Catalog) -> None:
    m = next(m for m in catalog.measurements if m.caveats)
    own, stack_wide = caveat_origins(
        catalog, model=m.model, gpu=m.gpu, stack=m.stack, measurements=[m.id]
    )
    assert own == set(m.caveats)
    assert stack_wide == set(catalog.stacks.get(m.stack).caveats) - own
