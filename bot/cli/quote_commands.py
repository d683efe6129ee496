"""``leasewise quote export NAME``: a saved quote as a file to send the customer.

The document ``/lease quote pdf`` posts in Slack (``bot.render.document``), written
as a PDF, or its figures as CSV or JSON, from the quotes in DATABASE_URL (those
saved in Slack or in ``leasewise chat``). Quote names are unique within a Slack
workspace; a name saved in one workspace only needs no ``--workspace``.

Only typer and the standard library at module level (see ``bot.cli.app``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from bot.render.document import Format
    from core.perf.engine import PerfEngine
    from storage.quotes import StoredQuote

EXAMPLE = "leasewise quote export acme-q3 --format pdf -o acme-q3.pdf"
STDOUT = "-"


def build(load_engine: Callable[[], PerfEngine]) -> typer.Typer:
    group = typer.Typer(help="Saved quotes: export one as a document.", no_args_is_help=True)

    @group.command("export")
    def export_cmd(
        name: str = typer.Argument(..., help="The quote's name, as saved (`quote save NAME`)."),
        form: str | None = typer.Option(
            None,
            "--format",
            "-f",
            help="pdf, csv or json (default: the output file's extension, else pdf).",
        ),
        output: str | None = typer.Option(
            None, "--output", "-o", help="The file to write (default NAME.FORMAT here; - stdout)."
        ),
        workspace: str | None = typer.Option(
            None, help="Slack workspace (team) id, when the name is saved in several."
        ),
    ) -> None:
        """Write a saved quote as a PDF for the customer, or its figures as CSV or JSON."""
        from bot.cli.errors import BadInput, friendly_errors
        from bot.cli.printing import say
        from bot.cli.slack_commands import build_services
        from bot.commands.quotes import document_file, document_of
        from bot.settings import Settings

        with friendly_errors(lambda: False):
            chosen = _format(form, output)
            if output == STDOUT and chosen == "pdf" and sys.stdout.isatty():
                raise BadInput(
                    "a PDF would garble the terminal",
                    field="output",
                    hint=f"give a file, e.g. -o {name}.pdf, or pipe it: -o - > {name}.pdf",
                )
            services = build_services(Settings(), load_engine)
            with services.sessions() as session:
                quote = _find(session, name.strip(), workspace)
            file = document_file(services, document_of(services, quote), chosen)
            if output == STDOUT:
                sys.stdout.buffer.write(file.content)
                sys.stdout.flush()
                return
            path = Path(output or file.filename)
            try:
                path.write_bytes(file.content)
            except OSError as exc:
                raise BadInput(
                    f"cannot write {path}: {exc.strerror}", field="output", hint=f"e.g. {EXAMPLE}"
                ) from exc
            say("file_written", title=file.title, path=str(path), size=len(file.content))

    return group


def _format(form: str | None, output: str | None) -> Format:
    """``--format``, else the output file's extension when it names one, else pdf."""
    from bot.cli.errors import BadInput
    from bot.render.document import FORMATS

    if form is None:
        suffix = Path(output).suffix.lower().lstrip(".") if output and output != STDOUT else ""
        return next((f for f in FORMATS if f == suffix), "pdf")
    chosen = form.strip().lower().lstrip(".")
    for known in FORMATS:
        if known == chosen:
            return known
    raise BadInput(
        f"'{form}' is not a format: use {', '.join(FORMATS[:-1])} or {FORMATS[-1]}",
        field="format",
        hint=f"e.g. {EXAMPLE}",
    )


def _find(session: Session, name: str, workspace: str | None) -> StoredQuote:
    """The quote called ``name``: in ``workspace``, else in the one workspace that has it.

    Raises:
        InputError: no quote of that name (the closest name is suggested), or the name
            is saved in several workspaces and ``workspace`` does not say which.
    """
    from bot.commands.quotes import named, unknown_quote
    from core.errors import InputError
    from storage import quotes
    from storage.errors import NotFound

    example, listing = "leasewise quote export", (
        "`/lease quote list` in Slack or `leasewise chat` lists them"
    )
    if not name:
        raise InputError("which quote?", field="name", hint=f"e.g. {EXAMPLE}")
    if workspace is not None:
        return named(session, workspace_id=workspace, name=name, example=example, listing=listing)
    found: list[StoredQuote] = []
    for team in quotes.workspaces(session):
        try:
            found.append(quotes.get(session, workspace_id=team, name=name))
        except NotFound:
            continue
    if len(found) == 1:
        return found[0]
    if found:
        teams = [q.workspace_id for q in found]
        raise InputError(
            f"'{name}' is saved in {len(teams)} workspaces: {', '.join(teams)}",
            field="workspace",
            hint=f"say which, e.g. {example} {name} --workspace {teams[0]}",
        )
    raise unknown_quote(
        name, quotes.names(session), example=example, listing=listing, where="in the database"
    )
