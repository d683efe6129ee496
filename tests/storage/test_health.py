"""Database probes tell the truth: reads and writes proved, a busy writer is not an outage,
and no database, however broken or silent, keeps the caller waiting past the deadline."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url

from storage.database import make_engine
from storage.health import DatabaseHealth, DatabaseProbe
from storage.schema import upgrade
from tests.fakes.databases import closed_port, silent_server, write_lock_held


@pytest.fixture(scope="module")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("health-template") / "leasewise.db"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture
def sqlite_path(migrated_template: Path, tmp_path: Path) -> Path:
    """A migrated SQLite file of the test's own, free to delete or lock."""
    path = tmp_path / "leasewise.db"
    shutil.copy(migrated_template, path)
    return path


@pytest.fixture
def engine_for() -> Iterator[Callable[[str], Engine]]:
    engines: list[Engine] = []

    def _make(url: str) -> Engine:
        engines.append(make_engine(url))
        return engines[-1]

    yield _make
    for engine in engines:
        engine.dispose()


@pytest.fixture
def lock_holder(sqlite_path: Path) -> Iterator[subprocess.Popen[str]]:
    with write_lock_held(sqlite_path) as holder:
        yield holder


@pytest.fixture
def silent_port() -> Iterator[int]:
    with silent_server() as port:
        yield port


def check(engine: Engine, **kwargs: float) -> DatabaseHealth:
    return DatabaseProbe(engine, **kwargs).check()


def test_a_database_that_reads_and_takes_writes_is_healthy(database_url: str, engine_for):
    health = check(engine_for(database_url))
    assert health.healthy and health.state == "ok"
    assert (health.reachable, health.writable, health.busy) == (True, True, False)
    assert health.latency_ms > 0


def test_the_write_probe_leaves_nothing_behind(database_url: str, engine_for):
    """The probe's write is rolled back: PostgreSQL keeps the row's original version
    (its xmin), SQLite sees no commit from another connection (data_version)."""
    engine = engine_for(database_url)
    with engine.connect() as connection:
        if engine.dialect.name == "postgresql":
            version = "SELECT xmin::text || version_num FROM alembic_version"
        else:
            version = "PRAGMA data_version"
        before = connection.execute(text(version)).scalar_one()
        connection.rollback()
        assert check(engine).writable is True
        assert connection.execute(text(version)).scalar_one() == before


def test_a_busy_sqlite_writer_is_healthy_and_answered_without_waiting_it_out(
    sqlite_path: Path, lock_holder: subprocess.Popen[str], engine_for
):
    """The app's own busy timeout is 5 s; the probe's deadline is 3 s, so waiting the
    lock out would have made this answer unreachable."""
    health = check(engine_for(f"sqlite:///{sqlite_path}"))
    assert lock_holder.poll() is None  # the lock was still held when the answer came
    assert health.healthy and health.state == "busy"
    assert (health.reachable, health.writable, health.busy) == (True, None, True)
    assert "busy" in (health.detail or "")


def test_a_deleted_sqlite_file_is_an_outage_and_is_not_recreated(sqlite_path: Path, engine_for):
    engine = engine_for(f"sqlite:///{sqlite_path}")
    assert check(engine).healthy
    sqlite_path.unlink()
    health = check(engine)
    assert not health.healthy and health.state == "unreachable"
    assert health.detail == "the SQLite file is missing"
    assert not sqlite_path.exists()


def test_a_sqlite_file_replaced_by_a_directory_is_an_outage(sqlite_path: Path, engine_for):
    """Fails for root too, unlike a chmod."""
    engine = engine_for(f"sqlite:///{sqlite_path}")
    sqlite_path.unlink()
    sqlite_path.mkdir()
    health = check(engine)
    assert not health.healthy and not health.reachable


def test_a_database_opened_read_only_cannot_take_writes(sqlite_path: Path, engine_for):
    """``mode=ro`` holds for root as well: SQLite itself refuses the write."""
    health = check(engine_for(f"sqlite:///file:{sqlite_path}?mode=ro&uri=true"))
    assert not health.healthy and health.state == "read-only"
    assert (health.reachable, health.writable) == (True, False)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to write-protected files")
def test_a_write_protected_sqlite_file_cannot_take_writes(sqlite_path: Path, engine_for):
    sqlite_path.chmod(0o444)
    health = check(engine_for(f"sqlite:///{sqlite_path}"))
    assert not health.healthy and health.writable is False


def test_a_read_only_postgres_session_cannot_take_writes(postgres_url: str, engine_for):
    """As on a standby, or a role whose default transactions are read-only."""
    read_only = make_url(postgres_url).update_query_dict(
        {"options": "-c default_transaction_read_only=on"}
    )
    health = check(engine_for(read_only.render_as_string(hide_password=False)))
    assert not health.healthy and health.state == "read-only"


def test_postgres_that_refuses_connections_is_down(engine_for):
    health = check(engine_for(f"postgresql+psycopg://leasewise@127.0.0.1:{closed_port()}/x"))
    assert not health.healthy and health.state == "unreachable"


def test_postgres_that_accepts_and_never_answers_is_down_within_the_deadline(
    silent_port: int, engine_for
):
    health = check(engine_for(f"postgresql+psycopg://leasewise@127.0.0.1:{silent_port}/x"))
    assert not health.healthy and health.state == "unreachable"


def test_the_deadline_answers_for_a_probe_still_waiting(silent_port: int, engine_for):
    """The connect timeout is 2 s; a 0.3 s deadline answers first, and says so."""
    engine = engine_for(f"postgresql+psycopg://leasewise@127.0.0.1:{silent_port}/x")
    health = check(engine, deadline_s=0.3)
    assert not health.healthy and health.detail == "no answer within 0.3 s"


def test_checks_while_a_probe_hangs_wait_on_it_instead_of_starting_more(
    silent_port: int, engine_for
):
    probe = DatabaseProbe(
        engine_for(f"postgresql+psycopg://leasewise@127.0.0.1:{silent_port}/x"),
        deadline_s=0.2,
    )
    answers = [probe.check() for _ in range(3)]
    assert not any(answer.healthy for answer in answers)
    probing = [t for t in threading.enumerate() if t.name == "leasewise-db-probe"]
    assert len(probing) <= 1


def test_the_answer_carries_no_path_host_or_password(engine_for):
    url = f"postgresql+psycopg://leasewise:hunter2-secret@127.0.0.1:{closed_port()}/x"
    body = str(check(engine_for(url)).as_dict())
    assert "hunter2" not in body and "127.0.0.1" not in body



def test_a_postgres_row_lock_held_elsewhere_is_busy_not_a_hang(postgres_url: str, engine_for):
    """A migration holding alembic_version, say: the lock timeout answers, as busy."""
    engine = engine_for(postgres_url)
    with engine.connect() as holder:
        holder.execute(text("SELECT version_num FROM alembic_version FOR UPDATE"))
        health = check(engine)
        holder.rollback()
    assert health.healthy and health.state == "busy"
