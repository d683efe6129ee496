"""Migrations: empty -> head -> base -> head on both databases, and no drift from the models;
a database the app cannot use is refused at start with what is wrong and the fix."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import make_url

from storage.database import make_engine
from storage.errors import DatabaseUnavailable, SchemaOutOfDate
from storage.models import Base, Quote
from storage.schema import (
    current_revision,
    downgrade,
    ensure_schema,
    head_revision,
    open_database,
    upgrade,
)
from tests.fakes.databases import closed_port


def test_migrations_go_up_down_and_up_again(database_url):
    engine = make_engine(database_url)
    downgrade(database_url, "base")
    assert current_revision(engine) is None
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    upgrade(database_url)
    assert current_revision(engine) == head_revision(database_url)
    assert set(Base.metadata.tables) <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_autogenerate_finds_no_difference_from_the_models(database_url):
    engine = make_engine(database_url)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
    engine.dispose()


def test_sqlite_migrates_itself_at_start(tmp_path):
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    engine = make_engine(url)
    ensure_schema(engine)
    assert current_revision(engine) == head_revision(url)
    engine.dispose()


def test_postgres_refuses_an_old_schema_with_the_command_to_run(postgres_url):
    downgrade(postgres_url, "base")
    engine = make_engine(postgres_url)
    try:
        with pytest.raises(SchemaOutOfDate) as info:
            ensure_schema(engine)
        assert "leasewise db upgrade" in (info.value.hint or "")
    finally:
        upgrade(postgres_url)
        engine.dispose()


def test_opening_the_default_kind_of_database_creates_and_migrates_it(tmp_path):
    url = f"sqlite:///{tmp_path / 'nested' / 'leasewise.db'}"
    engine, sessions = open_database(url)
    with sessions.begin() as session:
        assert session.get(Quote, 1) is None
    assert current_revision(engine) == head_revision(url)
    engine.dispose()


# --- a DATABASE_URL the app cannot use: one error, with what is wrong and the fix -------

WORKING_EXAMPLES = ("sqlite:////", "postgresql+psycopg://")


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("notaurl", "not a database URL"),
        ("", "set but empty"),
        ("foo://x", "driver SQLAlchemy does not know: 'foo'"),
        ("postgres://leasewise:hunter2@db/leasewise", "'postgres'"),
        ("mysql://leasewise:hunter2@db/leasewise", "not installed"),
        ("postgresql+psycopg://leasewise:hunter2@db:fivefour/leasewise", "not a database URL"),
    ],
)
def test_a_url_that_names_no_database_says_so_with_a_working_example(url: str, says: str):
    with pytest.raises(DatabaseUnavailable) as info:
        open_database(url)
    error = info.value
    assert says in error.message and error.field == "DATABASE_URL"
    assert any(example in (error.hint or "") for example in WORKING_EXAMPLES)
    assert "hunter2" not in error.message + (error.hint or "")


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "nonexistent.invalid"])
def test_a_postgres_server_that_refuses_or_does_not_resolve_is_named_without_the_password(
    host: str,
):
    url = f"postgresql+psycopg://leasewise:hunter2@{host.format(port=closed_port())}/leasewise"
    with pytest.raises(DatabaseUnavailable) as info:
        open_database(url)
    text = info.value.message + (info.value.hint or "")
    assert "hunter2" not in text and "leasewise:***@" in text
    assert "postgresql+psycopg://user@host/db" in (info.value.hint or "")
    assert "\n" not in text


def test_a_sqlite_path_that_is_a_directory_is_named_with_a_file_inside_it(tmp_path: Path):
    with pytest.raises(DatabaseUnavailable) as info:
        open_database(f"sqlite:///{tmp_path}")
    assert "directory" in info.value.message
    assert f"sqlite:///{tmp_path / 'leasewise.db'}" in (info.value.hint or "")


def test_a_sqlite_file_under_a_file_is_named(tmp_path: Path):
    """Fails for root too: no permission bit is involved."""
    (tmp_path / "notes.txt").write_text("not a directory")
    with pytest.raises(DatabaseUnavailable) as info:
        open_database(f"sqlite:///{tmp_path / 'notes.txt' / 'leasewise.db'}")
    assert "is a file, not a directory" in info.value.message


@pytest.fixture
def read_only_directory(tmp_path: Path) -> Iterator[Path]:
    """A directory the current user cannot create files in: a chmod for everyone but
    root, who ignores permission bits; for root, sysfs, where nobody can create one."""
    if os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o555)
        yield locked
        locked.chmod(0o755)
        return
    if not Path("/sys/kernel").is_dir():
        pytest.skip("as root, the read-only directory used is sysfs, which is not mounted")
    yield Path("/sys")


def test_a_new_sqlite_file_in_a_read_only_directory_is_refused_with_the_reason(
    read_only_directory: Path,
):
    path = read_only_directory / "leasewise-test.db"
    with pytest.raises(DatabaseUnavailable) as info:
        open_database(f"sqlite:///{path}")
    assert f"cannot create the SQLite file {path}" in info.value.message
    assert "writable" in (info.value.hint or "") or "can write" in (info.value.hint or "")
    assert not path.exists()


def test_a_database_that_cannot_take_writes_is_refused_at_start(tmp_path: Path):
    path = tmp_path / "leasewise.db"
    upgrade(f"sqlite:///{path}")
    with pytest.raises(DatabaseUnavailable) as info:
        open_database(f"sqlite:///file:{path}?mode=ro&uri=true")
    assert "cannot take writes" in info.value.message


def test_a_read_only_postgres_session_is_refused_at_start(postgres_url: str):
    read_only = make_url(postgres_url).update_query_dict(
        {"options": "-c default_transaction_read_only=on"}
    )
    with pytest.raises(DatabaseUnavailable) as info:
        open_database(read_only.render_as_string(hide_password=False))
    assert "cannot take writes" in info.value.message
    assert "primary" in (info.value.hint or "")


def test_a_schema_from_a_newer_leasewise_is_refused_not_downgraded(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'leasewise.db'}"
    upgrade(url)
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'f00dcafe'"))
    engine.dispose()
    with pytest.raises(SchemaOutOfDate) as info:
        open_database(url)
    assert "f00dcafe" in info.value.message and "newer" in info.value.message
