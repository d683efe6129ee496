"""``leasewise import FILE``: serving changes (stacks, measurements) into the catalog.

For operators: a release note's figures arrive as a YAML file shaped like
``core/data``; the whole file is validated and added in one transaction with its
audit entries, or refused whole with the file, entry and field named (exit 2).
"""

from __future__ import annotations

import getpass
from collections.abc import Callable
from pathlib import Path

import typer

from bot.catalog_feed import add_entries
from bot.cli.console import make_console
from bot.cli.errors import BadInput, friendly_errors
from bot.settings import Settings
from core.catalog.loading import additions_from_text
from core.perf.engine import PerfEngine
from storage.errors import StorageError
from storage.schema import open_database


def register(cli: typer.Typer, load_engine: Callable[[], PerfEngine]) -> None:
    @cli.command("import")
    def import_cmd(
        file: Path = typer.Argument(..., help="YAML with `stacks:` and/or `measurements:`."),
    ) -> None:
        """Add serving stacks and measurements from a YAML file (validated, audited)."""
        console = make_console()
        with friendly_errors(lambda: False, console):
            try:
                text = file.read_text(encoding="utf-8")
            except OSError as exc:
                raise BadInput(
                    f"cannot read {file}: {exc.strerror}", field="file", hint="give a YAML file"
                ) from exc
            stacks, measurements = additions_from_text(text, name=file.name)
            if not stacks and not measurements:
                raise BadInput(
                    f"{file.name} has no stacks or measurements",
                    field="file",
                    hint="see core/data/stacks.yaml for the shape",
                )
            _, sessions = open_database(Settings().database_url)
            try:
                with sessions.begin() as session:
                    added = add_entries(
                        session,
                        load_engine().catalog,
                        stacks=stacks,
                        measurements=measurements,
                        actor=f"cli:{getpass.getuser()}"[:32],
                    )
            except StorageError as exc:
                raise BadInput(exc.message, field=exc.field, hint=exc.hint) from exc
            for line in added:
                console.print(f"added {line}", highlight=False)
