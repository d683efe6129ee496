"""The engine follows the database's additions in the background; no request waits for it.

Calibration is replaced by ``Calibration``, a stand-in that answers at once, holds
until released, or rejects a catalog, so each test decides when a build ends
instead of racing a real one; the last tests run the real one, in its child
process. Two ``EngineSource`` objects over one SQLite file, each with its own
connection pool, stand in for two replicas sharing a database.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import cast

import pytest
from sqlalchemy.orm import Session, sessionmaker

from bot.conversation import Reply
from bot.engine.isolated import CalibrationFailed, calibrate_in_child
from bot.engine.source import EngineSource
from bot.services import Services
from core.catalog import Catalog
from core.perf.engine import PerfEngine
from storage import admin
from storage.schema import open_database
from tests.bot.people import ADMIN

DEADLINE_S = 60.0
"""Generous: these waits end as soon as their condition holds, so only a failure pays it."""


class Calibration:
    """A stand-in for ``build_engine``: records each catalog it is given."""

    def __init__(self, engine: PerfEngine, *, held: bool = False, rejects: str = "") -> None:
        self._engine = engine
        self._rejects = rejects
        self._released = threading.Event()
        if not held:
            self._released.set()
        self._seen = threading.Condition()
        self.catalogs: list[Catalog] = []

    def __call__(self, catalog: Catalog) -> PerfEngine:
        with self._seen:
            self.catalogs.append(catalog)
            self._seen.notify_all()
        if not self._released.wait(DEADLINE_S):
            raise AssertionError("the test never released the calibration")
        if self._rejects and self._rejects in catalog.stacks:
            raise ValueError(f"stack {self._rejects} has no measurement to calibrate against")
        return replace(self._engine, catalog=catalog)

    def wait_started(self, count: int = 1) -> None:
        with self._seen:
            if not self._seen.wait_for(lambda: len(self.catalogs) >= count, DEADLINE_S):
                raise AssertionError(f"{len(self.catalogs)} calibration(s) began, not {count}")

    def release(self) -> None:
        self._released.set()


@dataclass(frozen=True)
class Replica:
    """One ``leasewise serve`` process, as far as the engine goes: its pool and its source."""

    sessions: sessionmaker[Session]
    engines: EngineSource

    def add_stack(self, stack_id: str) -> None:
        """What ``/lease admin add stack`` does: commit the addition, then nudge the source."""
        with self.sessions.begin() as session:
            admin.add_catalog_entry(
                session,
                kind="stack",
                body={
                    "id": stack_id,
                    "name": f"{stack_id} (single node)",
                    "engine": "sglang",
                    "precisions": ["fp8", "mxfp4"],
                    "released": "2027-01-10",
                    "parallelism": "tensor",
                    "description": "a later release, as an admin would add it",
                    "sources": [{"title": "release notes", "date": "2027-01-10"}],
                },
                actor=ADMIN,
            )
        self.engines.changed()

    def remove_stack(self, stack_id: str) -> None:
        with self.sessions.begin() as session:
            admin.remove_catalog_entry(session, kind="stack", entry_id=stack_id, actor=ADMIN)
        self.engines.changed()


@pytest.fixture
def replica(db_url: str, engine: PerfEngine) -> Iterator[Callable[[Calibration], Replica]]:
    """``replica(calibration)``: a replica on the test's database, with its own pool.

    Every one is stopped after the test (its held calibration released first), and
    the test fails if a background build outlives it.
    """
    made: list[tuple[EngineSource, Calibration]] = []

    def _make(calibration: Calibration) -> Replica:
        _, sessions = open_database(db_url)
        source = EngineSource(engine, sessions, calibrate=calibration)
        made.append((source, calibration))
        return Replica(sessions, source)

    yield _make
    for source, calibration in made:
        calibration.release()
        assert source.stop(timeout=DEADLINE_S), "a background build outlived the test"


Replicas = Callable[[Calibration], Replica]


def has(*stack_ids: str) -> Callable[[PerfEngine], bool]:
    return lambda engine: all(s in engine.catalog.stacks for s in stack_ids)


def test_a_request_during_a_rebuild_gets_the_old_engine_at_once(
    replica: Replicas, engine: PerfEngine
) -> None:
    calibration = Calibration(engine, held=True)
    app = replica(calibration)
    app.add_stack("sglang-2027")
    calibration.wait_started()

    with ThreadPoolExecutor(max_workers=1) as pool:  # a request that waited would time out
        during = pool.submit(app.engines.current).result(timeout=DEADLINE_S)

    assert during.catalog is engine.catalog
    calibration.release()
    assert has("sglang-2027")(app.engines.wait_for_engine(has("sglang-2027"), DEADLINE_S))


def test_the_new_engine_is_served_once_built_and_calibrated_once(
    replica: Replicas, engine: PerfEngine
) -> None:
    calibration = Calibration(engine)
    app = replica(calibration)
    app.add_stack("sglang-2027")

    app.engines.wait_for_engine(has("sglang-2027"), DEADLINE_S)

    assert has("sglang-2027")(app.engines.current())
    assert app.engines.stop(timeout=DEADLINE_S)
    assert len(calibration.catalogs) == 1


def test_changes_during_a_build_lead_to_one_more_build_not_a_pile_up(
    replica: Replicas, engine: PerfEngine
) -> None:
    calibration = Calibration(engine, held=True)
    app = replica(calibration)
    app.add_stack("sglang-2027")
    calibration.wait_started()

    app.add_stack("vllm-2027")
    for _ in range(5):
        app.engines.changed()
        app.engines.current()
    calibration.release()
    app.engines.wait_for_engine(has("sglang-2027", "vllm-2027"), DEADLINE_S)

    assert app.engines.stop(timeout=DEADLINE_S)
    first, second = calibration.catalogs  # and no third
    assert "vllm-2027" not in first.stacks and "vllm-2027" in second.stacks


def test_two_replicas_on_one_database_both_pick_up_an_addition(
    replica: Replicas, engine: PerfEngine
) -> None:
    here, there = Calibration(engine), Calibration(engine)
    changed_here, other = replica(here), replica(there)
    other.engines.current()  # serving already, before the change

    changed_here.add_stack("sglang-2027")

    assert has("sglang-2027")(changed_here.engines.wait_for_engine(has("sglang-2027"), DEADLINE_S))
    assert has("sglang-2027")(other.engines.wait_for_engine(has("sglang-2027"), DEADLINE_S))
    assert len(here.catalogs) == len(there.catalogs) == 1


def test_an_idle_serving_replica_builds_without_waiting_for_a_request(
    replica: Replicas, engine: PerfEngine
) -> None:
    there = Calibration(engine)
    idle = replica(there)
    idle.engines.start(poll_seconds=0.05)

    replica(Calibration(engine)).add_stack("sglang-2027")

    there.wait_started()  # no request reached the idle replica: its poll saw the change
    assert "sglang-2027" in there.catalogs[0].stacks


def test_a_removed_addition_is_calibrated_away(replica: Replicas, engine: PerfEngine) -> None:
    app = replica(Calibration(engine))
    app.add_stack("sglang-2027")
    app.engines.wait_for_engine(has("sglang-2027"), DEADLINE_S)

    app.remove_stack("sglang-2027")

    served = app.engines.wait_for_engine(lambda e: not has("sglang-2027")(e), DEADLINE_S)
    assert served.catalog is engine.catalog


def test_a_failing_build_keeps_the_old_engine_is_logged_and_not_retried(
    replica: Replicas, engine: PerfEngine, caplog: pytest.LogCaptureFixture
) -> None:
    calibration = Calibration(engine, rejects="bad-2027")
    app = replica(calibration)
    app.add_stack("sglang-2027")
    app.engines.wait_for_engine(has("sglang-2027"), DEADLINE_S)

    with caplog.at_level(logging.ERROR, logger="leasewise.engine"):
        app.add_stack("bad-2027")
        calibration.wait_started(2)
        app.engines.build_now()  # waits for the background build, then finds nothing to try
        served = [app.engines.current() for _ in range(3)]

    assert all(has("sglang-2027")(e) and not has("bad-2027")(e) for e in served)
    assert len(calibration.catalogs) == 2
    (failure,) = [r for r in caplog.records if r.name == "leasewise.engine"]
    assert "no measurement to calibrate against" in failure.getMessage()

    app.remove_stack("bad-2027")  # once the additions change, it builds again
    app.add_stack("vllm-2027")
    assert has("vllm-2027")(app.engines.wait_for_engine(has("vllm-2027"), DEADLINE_S))


def test_a_price_line_shows_in_the_next_answer_without_calibrating(
    replica: Replicas, engine: PerfEngine
) -> None:
    calibration = Calibration(engine)
    app = replica(calibration)
    with app.sessions.begin() as session:
        admin.set_price(
            session, gpu="b300", term_months=36, usd_per_gpu_hour=4.1, source="MSA", actor=ADMIN
        )

    prices = {p.id: p.usd_per_gpu_hour for p in app.engines.current().catalog.prices}

    assert prices["admin-b300-36"] == pytest.approx(4.1)
    assert calibration.catalogs == []


def test_at_startup_the_engine_is_built_in_the_calling_thread(
    replica: Replicas, engine: PerfEngine
) -> None:
    replica(Calibration(engine)).add_stack("sglang-2027")  # before this process started
    calibration = Calibration(engine)
    starting = replica(calibration)

    starting.engines.build_now()

    assert has("sglang-2027")(starting.engines.current())
    assert len(calibration.catalogs) == 1


def test_waiting_for_an_engine_that_never_comes_ends_at_its_deadline(
    replica: Replicas, engine: PerfEngine
) -> None:
    app = replica(Calibration(engine))

    with pytest.raises(TimeoutError, match="no engine as expected"):
        app.engines.wait_for_engine(has("never-added"), timeout=0.01)


def test_an_admin_is_told_the_addition_goes_live_after_recalibrating(
    lease: Callable[..., Reply], desk: Services
) -> None:
    body = (
        "{id: sglang-2027, name: SGLang 2027, engine: sglang, precisions: [fp8], "
        "released: 2027-01-10, parallelism: tensor, description: a later release, "
        "sources: [{title: release notes, date: 2027-01-10}]}"
    )
    done = lease(f"admin add stack {body}", user=ADMIN)

    said = desk.renderer.message(done.template, **done.context).text
    assert "added stack sglang-2027" in said and "within about a minute" in said
    desk.engines.wait_for_engine(has("sglang-2027"), timeout=120)  # a real calibration
    assert "sglang-2027" in [s.id for s in lease("stacks").context["stacks"]]


def test_a_calibration_the_child_process_cannot_do_comes_back_with_its_reason() -> None:
    with pytest.raises(CalibrationFailed, match=r"^\w+Error: "):
        calibrate_in_child(cast(Catalog, "not a catalog"))
