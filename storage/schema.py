"""Migrations: bring a database to the code's schema, or refuse to run on an old one.

On the default SQLite file the app upgrades itself at start (one user, one
process); on PostgreSQL, shared by replicas, an operator runs ``leasewise db
upgrade`` and the app refuses to start until the schema matches.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from storage.database import is_sqlite, make_engine, make_session_factory
from storage.errors import SchemaOutOfDate

UPGRADE_COMMAND = "leasewise db upgrade"


def alembic_config(url: str) -> Config:
    """Alembic's configuration, built in code: the migrations ship inside the package."""
    config = Config()
    config.set_main_option(
        "script_location", str(Path(str(resources.files("storage"))) / "migrations")
    )
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    command.downgrade(alembic_config(url), revision)


def head_revision(url: str) -> str | None:
    return ScriptDirectory.from_config(alembic_config(url)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def ensure_schema(engine: Engine) -> None:
    """SQLite: migrate to head. Anything else: refuse unless already at head."""
    url = engine.url.render_as_string(hide_password=False)
    head = head_revision(url)
    current = current_revision(engine)
    if current == head:
        return
    if is_sqlite(url):
        upgrade(url)
        return
    raise SchemaOutOfDate(
        f"the database schema is at {current or 'nothing'}, the code needs {head}",
        hint=f"run `{UPGRADE_COMMAND}` with the same DATABASE_URL, then start again",
    )


def open_database(url: str) -> tuple[Engine, sessionmaker[Session]]:
    """What the app calls at start: an engine on a schema it can use, and its sessions."""
    engine = make_engine(url)
    ensure_schema(engine)
    return engine, make_session_factory(engine)
