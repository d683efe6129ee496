"""Databases for storage tests: SQLite always, PostgreSQL when its URL is set.

``.ci/run`` sets LEASEWISE_TEST_DATABASE_URL and starts PostgreSQL; each test
session gets its own throwaway database on that server, migrated to head.
Without the variable, PostgreSQL cases skip with the reason; under CI they fail
instead, so a missing server can never pass as green.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from storage.database import make_engine, make_session_factory
from storage.models import Base
from storage.schema import upgrade

PG_ENV = "LEASEWISE_TEST_DATABASE_URL"


def postgres_server_url() -> str:
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"{PG_ENV} is not set under CI: .ci/run must set it")
        pytest.skip(f"PostgreSQL tests need {PG_ENV} (set by .ci/run)")
    return url


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh database on the test server, dropped at the end of the session."""
    server = postgres_server_url()
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    name = f"leasewise_test_{uuid.uuid4().hex[:10]}"
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # noqa: BLE001 - any failure to reach the server
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL at {server} is not usable: {exc}")
        pytest.skip(f"PostgreSQL at {server} is not usable: {exc}")
    url = make_url(server).set(database=name).render_as_string(hide_password=False)
    yield url
    with admin.connect() as connection:
        connection.execute(
            text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n"),
            {"n": name},
        )
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
    admin.dispose()


@pytest.fixture(scope="session")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    path: Path = tmp_path_factory.mktemp("db") / "leasewise.db"
    return f"sqlite:///{path}"


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str:
    """Each storage test runs on SQLite and on PostgreSQL, migrated to head."""
    url: str = request.getfixturevalue(
        f"{request.param}_url" if request.param == "sqlite" else "postgres_url"
    )
    upgrade(url)
    return url


@pytest.fixture(scope="session")
def db_engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def session_factory(db_engine: Engine) -> Iterator[sessionmaker[Session]]:
    """A session factory over empty tables (rows from earlier tests are deleted)."""
    with db_engine.begin() as connection:
        for table in reversed(Base.metadata.sorted_tables):
            connection.execute(table.delete())
    yield make_session_factory(db_engine)


@pytest.fixture
def session(session_factory: sessionmaker[Session]) -> Iterator[Session]:
    """One transaction per test, committed at the end unless the test failed."""
    with session_factory.begin() as s:
        yield s
