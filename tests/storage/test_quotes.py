"""Saved quotes: a named question and its economics, exactly as the core computed them.

Every test runs on SQLite and on PostgreSQL. Time comes from a clock the test holds.
"""

from __future__ import annotations

import datetime as dt
import tracemalloc
from typing import Any

import pytest
from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session, sessionmaker

from core.estimate import estimate
from core.perf.engine import PerfEngine
from core.scenario import Estimate, Scenario
from core.sizing import Sizing, size
from core.traffic import Traffic
from storage import quotes
from storage.errors import Conflict, NotFound, StorageError
from storage.models import Quote

SAVED_AT = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
AS_OF = dt.date(2026, 11, 30)


class Clock:
    """A clock that moves only when the test says so."""

    def __init__(self, now: dt.datetime = SAVED_AT) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return Scenario(model="kimi-k3", gpu="b300", gpus=16, concurrency=32, term_months=36)


@pytest.fixture(scope="module")
def answer(scenario: Scenario, engine: PerfEngine) -> Estimate:
    return estimate(scenario, engine)


@pytest.fixture(scope="module")
def traffic() -> Traffic:
    return Traffic(
        model="kimi-k3",
        requests_per_day=100_000,
        output_tokens=400,
        gpus=("b300", "h200"),
        prices={"b300": 5.0},
        input_tokens=800,
        max_ttft_s=2.0,
    )


@pytest.fixture(scope="module")
def sizing(traffic: Traffic, engine: PerfEngine) -> Sizing:
    return size(traffic, engine)


def save(session: Session, question: Any, economics: Any, **overrides: Any) -> quotes.StoredQuote:
    fields: dict[str, Any] = {
        "workspace_id": "T1",
        "channel_id": "C1",
        "owner_user_id": "U1",
        "name": "acme-q3",
        "customer": "Acme",
        "question": question,
        "economics": economics,
        "as_of": AS_OF,
        "clock": Clock(),
    }
    fields.update(overrides)
    return quotes.save(session, **fields)


def count(session: Session) -> int:
    return session.scalar(select(func.count()).select_from(Quote)) or 0


# --- round trips ------------------------------------------------------------------------


def test_a_scenario_quote_comes_back_as_the_core_computed_it(session, scenario, answer):
    saved = save(session, scenario, answer)

    read = quotes.get(session, workspace_id="T1", name="acme-q3")
    assert read == saved
    assert read.question == scenario
    assert read.economics == answer  # full precision, not the six digits of the JSON
    assert (read.customer, read.owner_user_id, read.channel_id) == ("Acme", "U1", "C1")
    assert read.as_of == AS_OF
    assert read.created_at == read.updated_at == SAVED_AT


def test_a_traffic_quote_comes_back_as_the_core_computed_it(session, traffic, sizing):
    saved = save(session, traffic, sizing, name="acme-sizing")

    read = quotes.get_by_id(session, saved.id, workspace_id="T1")
    assert read.question == traffic
    assert isinstance(read.question, Traffic) and read.question.gpus == ("b300", "h200")
    assert read.economics == sizing


def test_the_saved_name_is_trimmed_and_found_trimmed(session, scenario, answer):
    save(session, scenario, answer, name="  acme-q3 ")

    assert quotes.get(session, workspace_id="T1", name="acme-q3 ").name == "acme-q3"


# --- refusals leave nothing half-written ----------------------------------------------


def test_a_taken_name_is_a_conflict_and_earlier_writes_in_the_transaction_survive(
    session_factory: sessionmaker[Session], scenario, answer
):
    with session_factory.begin() as session:
        save(session, scenario, answer, name="first")
        save(session, scenario, answer, name="acme-q3")
        with pytest.raises(Conflict) as info:
            save(session, scenario, answer, name="acme-q3", customer="Someone else")
        assert info.value.field == "name"
        assert "quote show acme-q3" in (info.value.hint or "")
        save(session, scenario, answer, name="after")  # the transaction is still usable

    with session_factory() as session:
        names = [q.name for q in quotes.recent(session, workspace_id="T1")]
        assert sorted(names) == ["acme-q3", "after", "first"]
        assert quotes.get(session, workspace_id="T1", name="acme-q3").customer == "Acme"


def test_a_quote_saved_in_a_transaction_that_rolls_back_is_not_kept(
    session_factory: sessionmaker[Session], scenario, answer
):
    with pytest.raises(RuntimeError), session_factory.begin() as session:
        save(session, scenario, answer)  # the transaction's first write, in a savepoint
        raise RuntimeError("posting the reply failed")

    with session_factory() as session:
        assert count(session) == 0


def test_the_same_name_may_be_used_in_another_workspace(session, scenario, answer):
    save(session, scenario, answer, workspace_id="T1")
    save(session, scenario, answer, workspace_id="T2")

    assert count(session) == 2


@pytest.mark.parametrize("name", ["", "   ", "x" * 121])
def test_an_empty_or_oversized_name_is_refused_naming_the_field(session, scenario, answer, name):
    with pytest.raises(StorageError) as info:
        save(session, scenario, answer, name=name)

    assert info.value.field == "name"
    assert info.value.hint
    assert count(session) == 0


def test_a_name_of_the_column_width_is_accepted(session, scenario, answer):
    assert save(session, scenario, answer, name="x" * 120).name == "x" * 120


def test_an_oversized_customer_or_id_is_refused_naming_the_field(session, scenario, answer):
    with pytest.raises(StorageError) as info:
        save(session, scenario, answer, customer="c" * 201)
    assert info.value.field == "customer"
    with pytest.raises(StorageError) as info:
        save(session, scenario, answer, owner_user_id="U" * 33)
    assert info.value.field == "owner_user_id"
    assert count(session) == 0


def test_an_invalid_scenario_is_refused_before_anything_is_written(session, answer):
    broken = Scenario.model_construct(model="kimi-k3", gpu="b300", gpus=0)

    with pytest.raises(StorageError) as info:
        save(session, broken, answer)

    assert info.value.field == "question"
    assert "gpus" in info.value.message
    assert count(session) == 0


def test_the_economics_must_answer_the_question_asked(session, scenario, sizing):
    with pytest.raises(StorageError) as info:
        save(session, scenario, sizing)

    assert info.value.field == "economics"
    assert "Estimate" in info.value.message
    assert count(session) == 0


def test_a_stored_question_the_models_reject_is_a_clear_error_on_read(session, answer):
    session.execute(
        insert(Quote).values(
            workspace_id="T1",
            channel_id="C1",
            owner_user_id="U1",
            name="from-an-old-release",
            customer="Acme",
            kind="scenario",
            question={"model": "kimi-k3", "gpu": "b300", "gpus": 0},
            economics=answer.model_dump(mode="json"),
            as_of=AS_OF,
            created_at=SAVED_AT,
            updated_at=SAVED_AT,
        )
    )

    with pytest.raises(StorageError) as info:
        quotes.get(session, workspace_id="T1", name="from-an-old-release")

    assert info.value.field == "question"
    assert "'from-an-old-release'" in info.value.message
    assert "gpus" in info.value.message
    assert info.value.hint


# --- update, lookups, listing, delete -------------------------------------------------


def test_update_resaves_question_and_economics_and_bumps_updated_at(
    session, scenario, answer, engine
):
    clock = Clock()
    saved = save(session, scenario, answer, clock=clock)
    cheaper = scenario.model_copy(update={"price_per_gpu_hour": 4.0})
    clock.advance(days=7)

    updated = quotes.update(
        session,
        saved.id,
        workspace_id="T1",
        question=cheaper,
        economics=estimate(cheaper, engine),
        as_of=AS_OF + dt.timedelta(days=7),
        clock=clock,
    )

    read = quotes.get(session, workspace_id="T1", name="acme-q3")
    assert read == updated
    assert read.question == cheaper
    assert isinstance(read.economics, Estimate)
    assert read.economics.usd_per_hour < answer.usd_per_hour
    assert read.created_at == SAVED_AT
    assert read.updated_at == SAVED_AT + dt.timedelta(days=7)


def test_a_quote_is_not_found_from_another_workspace(session, scenario, answer):
    saved = save(session, scenario, answer, workspace_id="T1")

    with pytest.raises(NotFound):
        quotes.get_by_id(session, saved.id, workspace_id="T2")
    with pytest.raises(NotFound):
        quotes.get(session, workspace_id="T2", name="acme-q3")
    with pytest.raises(NotFound):
        quotes.delete(session, saved.id, workspace_id="T2")
    assert count(session) == 1


def test_recent_lists_a_workspaces_quotes_newest_first_up_to_the_limit(session, scenario, answer):
    clock = Clock()
    for name in ["oldest", "middle", "newest"]:
        save(session, scenario, answer, name=name, clock=clock)
        clock.advance(hours=1)
    save(session, scenario, answer, name="elsewhere", workspace_id="T2", clock=clock)

    assert [q.name for q in quotes.recent(session, workspace_id="T1")] == [
        "newest",
        "middle",
        "oldest",
    ]
    assert [q.name for q in quotes.recent(session, workspace_id="T1", limit=2)] == [
        "newest",
        "middle",
    ]


def test_names_are_a_workspaces_or_every_workspaces_newest_first_each_once(
    session, scenario, answer
):
    clock = Clock()
    for name, workspace in [("oldest", "T1"), ("shared", "T2"), ("newest", "T1")]:
        save(session, scenario, answer, name=name, workspace_id=workspace, clock=clock)
        clock.advance(hours=1)
    save(session, scenario, answer, name="shared", workspace_id="T1", clock=clock)

    assert quotes.names(session, workspace_id="T1") == ["shared", "newest", "oldest"]
    assert quotes.names(session, workspace_id="T3") == []
    assert quotes.names(session) == ["shared", "newest", "oldest"]


def test_delete_removes_the_quote_and_says_what_it_was(session, scenario, answer):
    saved = save(session, scenario, answer)

    gone = quotes.delete(session, saved.id, workspace_id="T1")

    assert gone == saved
    assert count(session) == 0
    with pytest.raises(NotFound):
        quotes.get(session, workspace_id="T1", name="acme-q3")


# --- streaming for the digest ---------------------------------------------------------

MANY = 10_000


def test_stream_all_walks_ten_thousand_quotes_in_bounded_memory(session, scenario, answer):
    row = {
        "workspace_id": "T1",
        "channel_id": "C1",
        "owner_user_id": "U1",
        "customer": "Acme",
        "kind": "scenario",
        "question": scenario.model_dump(mode="json"),
        "economics": answer.model_dump(mode="json"),
        "as_of": AS_OF,
        "created_at": SAVED_AT,
        "updated_at": SAVED_AT,
    }
    session.execute(insert(Quote), [{**row, "name": f"quote-{i:05d}"} for i in range(MANY)])

    tracemalloc.start()
    try:
        first = last = None
        streamed = 0
        for quote in quotes.stream_all(session):
            first = first or quote.name
            last, streamed = quote.name, streamed + 1
        _, streaming_peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        everything = session.execute(select(Quote.question, Quote.economics)).all()
        _, all_at_once_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert streamed == len(everything) == MANY
    assert (first, last) == ("quote-00000", f"quote-{MANY - 1:05d}")
    # Fetching every quote's JSON at once holds ~90 MB; streaming, a batch or two (~10 MB).
    assert streaming_peak < all_at_once_peak / 5, (streaming_peak, all_at_once_peak)


def test_stream_all_can_skip_and_report_quotes_that_no_longer_validate(session, scenario, answer):
    save(session, scenario, answer, name="good-1")
    session.execute(
        insert(Quote).values(
            workspace_id="T1",
            channel_id="C1",
            owner_user_id="U1",
            name="stale",
            customer="Acme",
            kind="scenario",
            question={"model": "kimi-k3", "gpu": "b300", "retired_field": 1},
            economics=answer.model_dump(mode="json"),
            as_of=AS_OF,
            created_at=SAVED_AT,
            updated_at=SAVED_AT,
        )
    )
    save(session, scenario, answer, name="good-2")

    problems: list[StorageError] = []
    names = [q.name for q in quotes.stream_all(session, on_invalid=problems.append)]

    assert names == ["good-1", "good-2"]
    assert len(problems) == 1 and "'stale'" in problems[0].message
    with pytest.raises(StorageError):
        list(quotes.stream_all(session))


def test_stream_all_can_keep_to_one_workspace(session, scenario, answer):
    save(session, scenario, answer, workspace_id="T1")
    save(session, scenario, answer, workspace_id="T2")

    assert [q.workspace_id for q in quotes.stream_all(session, workspace_id="T2")] == ["T2"]
