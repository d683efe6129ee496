"""``leasewise db``: bring the database to the code's schema, or say where it stands.

A DATABASE_URL that names no usable database (malformed, unknown driver,
unreachable server, a SQLite path that is a directory) is reported in one line
with its fix and exit code 2, as everywhere else in the CLI.
"""

from __future__ import annotations

import typer


def build() -> typer.Typer:
    group = typer.Typer(
        help="The database: migrate it, or show its schema revision.", no_args_is_help=True
    )

    @group.command("upgrade")
    def upgrade_cmd() -> None:
        """Migrate DATABASE_URL to the newest schema (safe to run again)."""
        from bot.cli.errors import friendly_errors
        from bot.cli.terminal import make_console
        from bot.settings import Settings
        from storage.database import where
        from storage.schema import current_revision_at, upgrade

        console = make_console()
        with friendly_errors(lambda: False, console):
            url = Settings().database_url
            upgrade(url)
            console.print(
                f"{where(url)} is at schema {current_revision_at(url)} (newest)", highlight=False
            )

    @group.command("current")
    def current_cmd() -> None:
        """Show the schema revision of DATABASE_URL and the one the code needs."""
        from bot.cli.errors import friendly_errors
        from bot.cli.terminal import make_console
        from bot.settings import Settings
        from storage.database import where
        from storage.schema import current_revision_at, head_revision, refuse_unknown

        console = make_console()
        with friendly_errors(lambda: False, console):
            url = Settings().database_url
            current, head = current_revision_at(url), head_revision(url)
            refuse_unknown(url, current)
            state = "up to date" if current == head else "behind: run `leasewise db upgrade`"
            console.print(
                f"{where(url)}: schema {current or 'none'}, code needs {head} ({state})",
                highlight=False,
            )
        if current != head:
            raise typer.Exit(1)

    return group
