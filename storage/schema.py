"""Migrations: bring a database to the code's schema, or refuse to run on an old one.

On the default SQLite file the app upgrades itself at start (one user, one
process); on PostgreSQL, shared by replicas, an operator runs ``leasewise db
upgrade`` and the app refuses to start until the schema matches. A database
migrated by a newer leasewise is refused too, rather than "upgraded" backwards.

Everything here that touches the database says what went wrong as a
``StorageError`` with the fix (``SchemaOutOfDate``, ``DatabaseUnavailable``),
never as a driver's or Alembic's exception.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from storage.database import (
    LIBPQ_DRIVERS,
    POSTGRES_CONNECT_TIMEOUT_S,
    is_sqlite,
    make_engine,
    make_session_factory,
    parse_url,
    unavailable_on_driver_errors,
    where,
)
from storage.errors import SchemaOutOfDate
from storage.health import require_writable

UPGRADE_COMMAND = "leasewise db upgrade"


def alembic_config(url: str) -> Config:
    """Alembic's configuration, built in code: the migrations ship inside the package.

    Alembic makes its own engine from the URL, so PostgreSQL's connect timeout
    travels in the URL for it.
    """
    parsed = parse_url(url)
    if parsed.get_driver_name() in LIBPQ_DRIVERS and "connect_timeout" not in parsed.query:
        parsed = parsed.update_query_dict({"connect_timeout": str(POSTGRES_CONNECT_TIMEOUT_S)})
    config = Config()
    config.set_main_option(
        "script_location", str(Path(str(resources.files("storage"))) / "migrations")
    )
    config.set_main_option(
        "sqlalchemy.url", parsed.render_as_string(hide_password=False).replace("%", "%%")
    )
    return config


def upgrade(url: str, revision: str = "head") -> None:
    with unavailable_on_driver_errors(url):
        refuse_unknown(url, current_revision_at(url))
        command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    with unavailable_on_driver_errors(url):
        command.downgrade(alembic_config(url), revision)


def head_revision(url: str) -> str | None:
    return ScriptDirectory.from_config(alembic_config(url)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with unavailable_on_driver_errors(engine.url), engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def current_revision_at(url: str) -> str | None:
    """The schema revision of the database at ``url`` (its engine disposed of after)."""
    engine = make_engine(url)
    try:
        return current_revision(engine)
    finally:
        engine.dispose()


def refuse_unknown(url: str, current: str | None) -> None:
    """A revision this code has no migration for was written by a newer leasewise."""
    if current is None:
        return
    try:
        ScriptDirectory.from_config(alembic_config(url)).get_revision(current)
    except CommandError as exc:
        raise SchemaOutOfDate(
            f"{where(url)} has schema {current}, which this leasewise does not know "
            "(a newer version migrated it)",
            field="DATABASE_URL",
            hint="run the newer leasewise, or point DATABASE_URL at another database",
        ) from exc


def ensure_schema(engine: Engine) -> None:
    """SQLite: migrate to head. Anything else: refuse unless already at head."""
    url = engine.url.render_as_string(hide_password=False)
    head = head_revision(url)
    current = current_revision(engine)
    if current == head:
        return
    refuse_unknown(url, current)
    if is_sqlite(url):
        upgrade(url)
        return
    state = f"is at schema {current}" if current else "has no leasewise schema yet"
    raise SchemaOutOfDate(
        f"{where(engine.url)} {state}, the code needs {head}",
        field="DATABASE_URL",
        hint=f"run `{UPGRADE_COMMAND}` with the same DATABASE_URL, then start again",
    )


def open_database(url: str) -> tuple[Engine, sessionmaker[Session]]:
    """What the app calls at start: an engine on a schema it can use and write, and its
    sessions; a StorageError with the fix otherwise."""
    engine = make_engine(url)
    try:
        with unavailable_on_driver_errors(url):
            ensure_schema(engine)
            require_writable(engine)
    except BaseException:
        engine.dispose()
        raise
    return engine, make_session_factory(engine)
