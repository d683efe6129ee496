"""Migrations: empty -> head -> base -> head on both databases, and no drift from the models."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from storage.database import make_engine
from storage.errors import SchemaOutOfDate
from storage.models import Base, Quote
from storage.schema import (
    current_revision,
    downgrade,
    ensure_schema,
    head_revision,
    open_database,
    upgrade,
)


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
