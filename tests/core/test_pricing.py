"""The price book is the offer, and one rule prices every GPU in every answer: the price
stated for that GPU, else the book's line for the question's term (no term: the book's
default), else the GPU's on-demand list price, said back with where it came from."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
import yaml

from core.catalog import Catalog, load_catalog, packaged_files
from core.errors import CatalogError
from core.estimate import estimate
from core.perf.engine import PerfEngine
from core.pricing import offered_gpus, pin_prices, price_for, stated_prices
from core.scenario import Scenario
from core.sizing import size
from core.traffic import Traffic

K3_TRAFFIC = Traffic(model="kimi-k3", output_tokens_per_day=2e9)


def test_the_book_offers_b300_at_5_dollars_for_its_36_month_default_term(catalog: Catalog):
    assert offered_gpus(catalog) == ["b300"]
    assert catalog.default_term_months == 36
    price = price_for("b300", catalog)
    assert (price.usd_per_gpu_hour, price.basis, price.term_months) == (5.0, "book", 36)
    assert price.said == "$5.00/GPU-hour, 36-month book price"


def test_a_term_without_a_book_line_falls_back_to_the_list_price_and_says_so(catalog):
    price = price_for("b300", catalog, term_months=12)
    assert (price.usd_per_gpu_hour, price.basis) == (7.87, "list")
    assert price.said.startswith(
        "$7.87/GPU-hour, on-demand list price, no 12-month line in the price book — "
        "Implied by the community Kimi K3 benchmark"
    )


def test_a_gpu_outside_the_book_is_marked_not_in_our_offer_with_its_price_provenance(catalog):
    price = price_for("gb200", catalog)
    assert (price.usd_per_gpu_hour, price.basis, price.offered) == (6.25, "list", False)
    assert price.said.startswith("$6.25/GPU-hour, on-demand list price, not in our offer — ")
    assert "set equal to the B200 default" in price.said


def test_a_price_stated_for_one_gpu_is_that_gpus_only(catalog):
    stated = {"B300": 4.5}
    assert price_for("b300", catalog, stated_for=stated).basis == "stated"
    assert price_for("b300", catalog, stated_for=stated).usd_per_gpu_hour == 4.5
    assert price_for("gb200", catalog, stated_for=stated).basis == "list"


def test_sizing_kimi_k3_ranks_only_the_offer_and_the_headline_is_b300(engine: PerfEngine):
    sizing = size(K3_TRAFFIC, engine)
    assert sizing.options and {o.gpu for o in sizing.options} == {"b300"}
    assert {r.gpu for r in sizing.rejected} <= {"b300"}
    best = sizing.options[0]
    assert (best.gpu, best.price_per_gpu_hour, best.price_basis) == ("b300", 5.0, "book")
    assert best.price_source == "36-month book price"


def test_naming_gb200_sizes_it_marked_not_in_our_offer(engine: PerfEngine):
    sizing = size(K3_TRAFFIC.model_copy(update={"gpus": ("b300", "gb200")}), engine)
    gb200 = [o for o in sizing.options if o.gpu == "gb200"]
    assert gb200 and all(not o.offered and o.price_basis == "list" for o in gb200)
    assert all(o.price_source.startswith("on-demand list price, not in our offer") for o in gb200)
    assert all(o.offered for o in sizing.options if o.gpu == "b300")


def test_estimate_and_sizing_agree_on_the_b300_price_for_the_same_term(engine: PerfEngine):
    for term in (36, 12):
        sized = size(K3_TRAFFIC.model_copy(update={"term_months": term}), engine).options[0]
        costed = estimate(Scenario(model="kimi-k3", gpu="b300", gpus=16, term_months=term), engine)
        assert costed.price_per_gpu_hour == sized.price_per_gpu_hour
        assert (costed.price_basis, costed.price_source) == (sized.price_basis, sized.price_source)
    untermed = estimate(Scenario(model="kimi-k3", gpu="b300", gpus=16), engine)
    assert untermed.price_per_gpu_hour == 5.0 and untermed.contract_usd is None
    assert (
        "priced NVIDIA B300 (HGX Blackwell Ultra, 288GB) at $5.00/GPU-hour, 36-month "
        "book price" in untermed.assumptions
    )


def test_the_write_ups_figures_hold_when_5_dollars_is_stated(engine: PerfEngine):
    before = Scenario(model="kimi-k3", gpu="b300", gpus=8, stack="vllm", price_per_gpu_hour=5)
    assert estimate(before, engine).price_basis == "stated"


# --- the price book file ------------------------------------------------------------


@pytest.fixture
def book(tmp_path: Path) -> Path:
    for src in packaged_files():
        shutil.copy(src, tmp_path / src.name)
    return tmp_path / "prices.yaml"


def load_with(book: Path, change) -> Catalog:
    document = yaml.safe_load(book.read_text(encoding="utf-8"))
    change(document)
    book.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return load_catalog(files=sorted(book.parent.glob("*.yaml")))


def test_a_default_term_the_book_has_no_line_for_is_refused(book: Path):
    with pytest.raises(CatalogError) as caught:
        load_with(book, lambda d: d.update(default_term_months=24))
    assert caught.value.file == "prices.yaml" and caught.value.field == "default_term_months"
    assert "no price book line has the default term of 24 months" in str(caught.value)


def test_a_line_valid_until_before_it_is_valid_from_is_refused(book: Path):
    def backwards(d):
        d["prices"][0]["valid_until"] = "2026-01-01"

    with pytest.raises(CatalogError) as caught:
        load_with(book, backwards)
    assert caught.value.entry == "b300-36mo-target"
    assert "valid_until is before valid_from" in str(caught.value)


def test_a_line_without_its_valid_from_date_is_refused(book: Path):
    with pytest.raises(CatalogError) as caught:
        load_with(book, lambda d: d["prices"][0].pop("valid_from"))
    assert caught.value.field == "valid_from"


# --- a book line holds only on its dates (issue 13, item 3) --------------------------

INSIDE, BEFORE, AFTER = dt.date(2026, 11, 30), dt.date(2026, 10, 17), dt.date(2027, 10, 18)


def test_a_book_line_prices_only_the_dates_it_is_valid_and_says_when_it_is_passed_over(
    catalog: Catalog,
):
    assert price_for("b300", catalog, on=INSIDE).basis == "book"
    assert price_for("b300", catalog, on=dt.date(2027, 10, 17)).basis == "book"  # its last day
    expired = price_for("b300", catalog, on=AFTER)
    assert (expired.usd_per_gpu_hour, expired.basis, expired.offered) == (7.87, "list", True)
    assert expired.said.startswith(
        "$7.87/GPU-hour, the 36-month book price expired 2027-10-17; on-demand list price used"
        " — Implied by the community Kimi K3 benchmark"
    )
    early = price_for("b300", catalog, on=BEFORE)
    assert early.lapsed == "the 36-month book price is valid only from 2026-10-18"
    assert price_for("b300", catalog).basis == "book"  # no date: the core cannot know one
    assert price_for("b300", catalog, stated=4.5, on=AFTER).basis == "stated"


def test_estimate_and_size_price_on_the_questions_as_of_else_the_edges_today(
    engine: PerfEngine,
):
    dated = Scenario(model="kimi-k3", gpu="b300", gpus=16, as_of=AFTER)
    assert estimate(dated, engine, today=INSIDE).price_basis == "list"  # as_of wins
    undated = dated.model_copy(update={"as_of": None})
    assert estimate(undated, engine, today=AFTER).price_basis == "list"
    assert estimate(undated, engine, today=INSIDE).price_basis == "book"
    sized = size(K3_TRAFFIC, engine, today=AFTER).options
    assert sized and {(o.price_per_gpu_hour, o.price_basis) for o in sized} == {(7.87, "list")}
    assert all(o.price_source.startswith("the 36-month book price expired") for o in sized)


# --- a price said without a GPU is the question's GPU's (issue 13, item 2) -----------


def test_a_price_said_without_a_gpu_belongs_to_the_first_gpu_named_else_the_offer(catalog):
    named = stated_prices(catalog, price=4.5, gpus=("B300", "h200"), prices={})
    assert named == {"b300": 4.5}
    assert stated_prices(catalog, price=4.5, gpus=None, prices={}) == {"b300": 4.5}
    both = stated_prices(catalog, price=4.5, gpus=("h200",), prices={"b300": 5})
    assert both == {"b300": 5, "h200": 4.5}


def test_pinning_moves_a_price_to_its_gpu_so_other_gpus_never_take_it(
    catalog, engine: PerfEngine
):
    traffic = K3_TRAFFIC.model_copy(update={"price_per_gpu_hour": 4.5})
    pinned = pin_prices(traffic, catalog)
    assert (pinned.price_per_gpu_hour, pinned.prices) == (None, {"b300": 4.5})
    on_h200 = size(pinned.model_copy(update={"gpus": ("h200", "b300")}), engine)
    assert {o.gpu: o.price_basis for o in on_h200.options} == {"h200": "list", "b300": "stated"}
    said = "$4.50/GPU-hour for B300 only; H200 at its own price"
    assert any(said in a for a in on_h200.assumptions)
