"""The digest's math: what a serving change did to each saved quote.

Golden figures: vLLM's Kimi K3 decode-path write-up of 2026-10-16 (as reported
2026-10-18; DESIGN.md, "The source material"): 16 GPUs at $5/GPU-hour, batch 16
$21.61 -> $12.64 per M output tokens (-41%), batch 64 $9.98 -> $6.16 (-38%).
"""

from __future__ import annotations

import datetime as dt
from typing import TypedDict

import pytest

from core.catalog import Catalog
from core.catalog.additions import with_additions
from core.changes import (
    QuoteMove,
    QuoteRef,
    changes_between,
    digest_for,
    is_material,
    reprice,
)
from core.changes.digest import untouched
from core.perf.engine import PerfEngine
from core.perf.validation import build_engine
from core.scenario import Scenario
from core.traffic import Traffic

SINCE, UNTIL = dt.date(2026, 10, 1), dt.date(2026, 11, 30)
QUIET = dt.date(2026, 11, 20), dt.date(2026, 11, 27)


class Thresholds(TypedDict):
    threshold_pct: float
    threshold_usd: float


DEFAULTS = Thresholds(threshold_pct=5.0, threshold_usd=500.0)
"""A subscription's defaults: 5% or $500/month."""
RELEASE_R2 = dt.date(2026, 11, 10)


def k3(batch: int, *, as_of: dt.date | None = None, gpu: str = "gb300") -> Scenario:
    """DESIGN.md's deployment: Kimi K3 on 16 GPUs at $5/GPU-hour, on the GB300s the
    write-up measured (the leased B300 is estimated from them)."""
    return Scenario(
        model="kimi-k3", gpu=gpu, gpus=16, concurrency=batch, price_per_gpu_hour=5, as_of=as_of
    )


TRAFFIC = Traffic(
    model="kimi-k3",
    output_tokens_per_day=2e9,
    peak_to_average=3,
    monthly_growth=0.1,
    gpus=("b300",),
    price_per_gpu_hour=5,
)


def ref(n: int, name: str = "") -> QuoteRef:
    return QuoteRef(id=n, name=name or f"quote-{n}", customer="Acme")


@pytest.fixture(scope="module")
def slower_engine(catalog: Catalog) -> PerfEngine:
    """A later release of the decode path that is 20% slower at every measured batch
    (a synthetic regression): same deployments, $/M up 25%."""
    fast = catalog.stacks.entries["vllm-k3-decode"]
    slow = fast.model_copy(
        update={
            "id": "vllm-k3-decode-r2",
            "name": "vLLM Kimi K3 decode path r2",
            "aliases": (),
            "released": RELEASE_R2,
            "supersedes": fast.id,
        }
    )
    measured = []
    for m in catalog.measurements:
        if m.stack != fast.id:
            continue
        figure = (
            {"usd_per_million_output_tokens": m.usd_per_million_output_tokens / 0.8}
            if m.usd_per_million_output_tokens is not None
            else {"output_tokens_per_s": (m.output_tokens_per_s or 0) * 0.8}
        )
        measured.append(
            m.model_copy(
                update={
                    "id": f"{m.id}-r2",
                    "stack": slow.id,
                    "date": RELEASE_R2,
                    "source": m.source.model_copy(update={"date": RELEASE_R2}),
                    **figure,
                }
            )
        )
    return build_engine(with_additions(catalog, stacks=[slow], measurements=measured))


@pytest.mark.parametrize(
    ("batch", "before", "after", "cut"), [(16, 21.61, 12.64, -0.415), (64, 9.98, 6.16, -0.383)]
)
def test_the_decode_path_reprices_the_write_up_deployments(engine, batch, before, after, cut):
    move = reprice(k3(batch), engine, before=SINCE, after=UNTIL)

    assert move.usd_per_million_before == pytest.approx(before, abs=0.01)
    assert move.usd_per_million_after == pytest.approx(after, abs=0.01)
    assert move.relative_change == pytest.approx(cut, abs=0.001)  # DESIGN.md: -41%, -38%
    assert (move.stack_before, move.stack_after) == ("vllm", "vllm-k3-decode")
    assert (move.stack_before_name, move.stack_after_name) == (
        "vLLM",
        "vLLM Kimi K3 decode path",
    )
    assert move.usd_per_month == 58_400  # 16 x $5 x 730 h, unchanged by the software
    assert move.monthly_impact_usd == pytest.approx(58_400 * (1 - after / before), rel=1e-3)
    assert move.saves_usd == move.monthly_impact_usd and move.costs_usd is None
    assert move.cost_changed and move.stack_changed and move.throughput_changed
    assert not move.regression
    assert is_material(move, **DEFAULTS)


@pytest.mark.parametrize(("batch", "before", "cut"), [(16, 21.61, -0.415), (64, 9.98, -0.383)])
def test_a_b300_quote_moves_by_figures_estimated_from_the_gb300_write_up(
    engine, batch, before, cut
):
    """The leased B300 spans two NVLink domains of 8: dearer per token than the GB300s
    measured, and its move is an estimate, about as deep as the write-up's (within ten
    points: each stack's layout crosses the two domains differently)."""
    move = reprice(k3(batch, gpu="b300"), engine, before=SINCE, after=UNTIL)
    assert move.error is None and move.gpu == "b300"
    assert move.usd_per_million_before is not None and move.usd_per_million_before > before
    assert move.basis_after == "estimated" and (move.error_band_after or 0) > 0
    assert move.relative_change == pytest.approx(cut, abs=0.1)
    assert not move.regression and is_material(move, **DEFAULTS)


def test_the_digest_headline_figures_name_the_decode_path_and_the_computed_range(engine):
    quotes = ((ref(n), k3(batch)) for n, batch in enumerate((16, 64)))

    digest = digest_for(quotes, engine, since=SINCE, until=UNTIL, **DEFAULTS)

    assert digest.switched_to == ["vLLM Kimi K3 decode path"]
    (trend,) = digest.trends
    assert (trend.direction, trend.quotes, trend.gpu_sizes) == ("cheaper", 2, [16])
    cuts = sorted(abs(m.relative_change) for _, m in digest.moves)
    assert (trend.low, trend.high) == (cuts[0], cuts[1])
    assert (trend.low, trend.high) == pytest.approx((0.383, 0.415), abs=0.001)  # -38%, -41%
    assert [r.id for r, _ in digest.moves] == [0, 1]  # batch 16 saves more a month
    assert (digest.quotes_checked, digest.regressions, digest.errors) == (2, 0, 0)
    assert not digest.is_empty


def test_a_sized_quote_gains_headroom_and_needs_fewer_gpus_at_renewal(engine):
    move = reprice(TRAFFIC, engine, before=SINCE, after=UNTIL)

    assert move.kind == "traffic" and move.error is None and not move.regression
    gained = move.headroom_change_months
    assert gained is not None and gained >= 1
    assert move.monthly_growth == 0.1
    assert move.gpus_before is not None and move.gpus_after is not None
    assert move.gpus_before - move.gpus_after > 0  # fewer GPUs at the next renewal
    assert move.renewal_saving_usd == pytest.approx(
        (move.usd_per_month_before or 0) - (move.usd_per_month_after or 0)
    )
    assert move.monthly_impact_usd == pytest.approx(
        (move.usd_per_month_before or 0) - (move.usd_per_month_after or 0)
    )
    assert is_material(move, **DEFAULTS)


def test_the_lease_held_fixed_is_the_cheapest_option_before(engine):
    """Headroom is for what the customer signed: its capacity after, at the same shape."""
    move = reprice(TRAFFIC, engine, before=SINCE, after=UNTIL)

    assert move.usd_per_month == move.usd_per_month_before
    assert move.tokens_per_s_before and move.tokens_per_s_after
    assert move.tokens_per_s_after > move.tokens_per_s_before
    assert move.gpu_name == "NVIDIA B300"
    assert move.replicas is not None and move.gpus_per_replica is not None


def test_a_slower_release_is_reported_as_a_regression(slower_engine):
    before, after = dt.date(2026, 11, 1), UNTIL
    move = reprice(k3(16), slower_engine, before=before, after=after)

    assert move.stack_after == "vllm-k3-decode-r2"
    assert move.relative_change == pytest.approx(0.25, abs=0.01)
    assert move.regression and move.dearer and move.monthly_impact_usd < 0
    assert move.costs_usd == -move.monthly_impact_usd

    digest = digest_for([(ref(1), k3(16))], slower_engine, since=before, until=after, **DEFAULTS)
    assert digest.regressions == 1
    assert digest.switched_to == ["vLLM Kimi K3 decode path r2"]
    assert [t.direction for t in digest.trends] == ["dearer"]


def test_a_slower_release_costs_a_sized_quote_its_headroom(slower_engine):
    move = reprice(TRAFFIC, slower_engine, before=dt.date(2026, 11, 1), after=UNTIL)

    assert move.regression
    assert move.tokens_per_s_after is not None and move.tokens_per_s_before is not None
    assert move.tokens_per_s_after < move.tokens_per_s_before
    assert move.capacity_change is not None and move.capacity_change < 0


def test_a_quiet_week_moves_nothing(engine):
    since, until = QUIET
    quotes: list[tuple[QuoteRef, Scenario | Traffic]] = [
        (ref(1), k3(16)),
        (ref(2), k3(64)),
        (ref(3), TRAFFIC),
    ]

    digest = digest_for(quotes, engine, since=since, until=until, **DEFAULTS)

    assert digest.is_empty and digest.changes == []
    assert digest.quotes_checked == 3
    assert digest.trends == [] and digest.switched_to == []
    move = reprice(k3(16), engine, before=since, after=until)
    assert move.relative_change == 0 and not move.moved


def test_pinned_and_broken_quotes_are_reported_not_raised(engine):
    pinned = k3(16, as_of=dt.date(2026, 10, 1))
    broken = Scenario.model_construct(
        model="kimi-k3", gpu="no-such-gpu", gpus=16, concurrency=16, price_per_gpu_hour=5
    )
    pinned_move = reprice(pinned, engine, before=SINCE, after=UNTIL)
    broken_move = reprice(broken, engine, before=SINCE, after=UNTIL)

    assert pinned_move.pinned and pinned_move.relative_change == 0
    assert pinned_move.pinned_to == dt.date(2026, 10, 1)
    assert broken_move.error is not None and "no-such-gpu" in broken_move.error
    for move in (pinned_move, broken_move):
        assert not is_material(move, threshold_pct=0, threshold_usd=0)

    quotes = [(ref(1), pinned), (ref(2), broken), (ref(3), k3(16))]
    digest = digest_for(quotes, engine, since=SINCE, until=UNTIL, **DEFAULTS)
    assert [r.id for r, _ in digest.moves] == [3]
    assert (digest.quotes_checked, digest.errors) == (3, 1)


def test_the_feed_lists_the_decode_path_in_its_period_and_nothing_later(catalog):
    changes = changes_between(catalog, SINCE, UNTIL)
    stacks = [c for c in changes if c.kind == "stack"]

    assert [c.id for c in stacks] == ["vllm-k3-decode"]
    assert stacks[0].date == dt.date(2026, 10, 16) and stacks[0].supersedes == "vllm"
    assert any("GB300" in c for c in stacks[0].caveats)
    measured = {c.id: c for c in changes if c.kind == "measurement"}
    b16 = measured["k3-gb300x16-b16-vllm-k3-decode"]
    assert (b16.model_name, b16.gpus, b16.gpu_name, b16.concurrency) == (
        "Kimi K3",
        16,
        "NVIDIA GB300",
        16,
    )
    assert b16.name == "vLLM Kimi K3 decode path"  # the stack it ran
    assert changes_between(catalog, *QUIET) == []


def test_the_period_excludes_its_start_and_includes_its_end(catalog):
    release = dt.date(2026, 10, 16)
    assert not changes_between(catalog, release, dt.date(2026, 10, 17))
    assert changes_between(catalog, dt.date(2026, 10, 15), release)[0].id == "vllm-k3-decode"


@pytest.mark.parametrize(
    ("pct", "usd", "material"), [(5, 500, False), (2, 500, True), (5, 300, True)]
)
def test_either_threshold_makes_a_move_material(pct, usd, material):
    move = QuoteMove(
        kind="scenario", before=SINCE, after=UNTIL, relative_change=-0.03, monthly_impact_usd=400
    )
    assert is_material(move, threshold_pct=pct, threshold_usd=usd) is material


def test_a_month_of_headroom_is_material_for_a_sized_quote():
    move = QuoteMove(
        kind="traffic",
        before=SINCE,
        after=UNTIL,
        monthly_impact_usd=10,
        months_of_headroom_before=2.0,
        months_of_headroom_after=3.2,
    )
    assert is_material(move, **DEFAULTS)


def test_shared_questions_are_repriced_once(engine, monkeypatch):
    calls: list[object] = []

    def counting(
        question: Scenario | Traffic, engine: PerfEngine, *, before: dt.date, after: dt.date
    ) -> QuoteMove:
        calls.append(question)
        return reprice(question, engine, before=before, after=after)

    monkeypatch.setattr("core.changes.digest.reprice", counting)
    quotes = ((ref(n), k3(16 if n % 2 else 64)) for n in range(1_000))

    digest = digest_for(quotes, engine, since=SINCE, until=UNTIL, **DEFAULTS, top=3)

    assert len(calls) == 2
    assert digest.quotes_checked == 1_000 and len(digest.moves) == 1_000
    assert len(digest.top_moves) == 3
    impacts = [abs(m.monthly_impact_usd) for _, m in digest.moves]
    assert impacts == sorted(impacts, reverse=True)


def test_a_quote_that_names_its_stack_keeps_it(engine):
    """The date only picks among stacks; one asked for by name is the customer's choice,
    and a stack released inside the period must not make the start date an error."""
    named = k3(16).model_copy(update={"stack": "vllm-k3-decode"})

    move = reprice(named, engine, before=SINCE, after=UNTIL)

    assert move.error is None and not move.moved
    assert move.stack_before == move.stack_after == "vllm-k3-decode"
    assert move.usd_per_million_after == pytest.approx(12.64, abs=0.01)


def test_a_quote_no_new_stack_can_serve_is_not_repriced(engine: PerfEngine) -> None:
    """The decode path serves Kimi K3 only: a DeepSeek quote on H200 cannot have moved."""
    new = [
        engine.catalog.stacks.get(c.id)
        for c in changes_between(engine.catalog, dt.date(2026, 10, 1), dt.date(2026, 10, 31))
        if c.kind == "stack"
    ]
    other = Scenario(model="deepseek-r1", gpu="h200", gpus=8, concurrency=16)
    k3 = Scenario(model="kimi-k3", gpu="b300", gpus=16, concurrency=16)
    assert untouched(other, new, engine.catalog)
    assert not untouched(k3, new, engine.catalog)
