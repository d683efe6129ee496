"""``leasewise db``: bring the database to the code's schema, or say where it stands."""

from __future__ import annotations

import typer
from sqlalchemy.engine import make_url

from bot.cli.terminal import make_console
from bot.settings import Settings
from storage.database import make_engine
from storage.schema import current_revision, head_revision, upgrade


def build() -> typer.Typer:
    group = typer.Typer(
        help="The database: migrate it, or show its schema revision.", no_args_is_help=True
    )

    @group.command("upgrade")
    def upgrade_cmd() -> None:
        """Migrate DATABASE_URL to the newest schema (safe to run again)."""
        url = Settings().database_url
        upgrade(url)
        engine = make_engine(url)
        make_console().print(
            f"{_where(url)} is at schema {current_revision(engine)} (newest)", highlight=False
        )
        engine.dispose()

    @group.command("current")
    def current_cmd() -> None:
        """Show the schema revision of DATABASE_URL and the one the code needs."""
        url = Settings().database_url
        engine = make_engine(url)
        current, head = current_revision(engine), head_revision(url)
        state = "up to date" if current == head else "behind: run `leasewise db upgrade`"
        make_console().print(
            f"{_where(url)}: schema {current or 'none'}, code needs {head} ({state})",
            highlight=False,
        )
        engine.dispose()
        if current != head:
            raise typer.Exit(1)

    return group


def _where(url: str) -> str:
    """The database named for people: a SQLite file's path, else the URL without password."""
    parsed = make_url(url)
    if parsed.drivername.startswith("sqlite"):
        return f"SQLite file {parsed.database}"
    return parsed.render_as_string(hide_password=True)
