"""``leasewise parse`` (what the parser read) and ``leasewise ask`` (read, then answer).

The same parser the Slack app uses, so a sales engineer can try a customer's
words without Slack and see exactly what was understood and assumed.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import typer
from rich.table import Table

from bot.cli.errors import BadInput, friendly_errors
from bot.cli.render import notes, print_estimate
from bot.cli.render_sizing import print_sizing
from bot.cli.sizing_commands import DEFAULT_TOP
from bot.cli.terminal import make_console
from core.estimate import estimate
from core.parse import Parsed, parse
from core.perf.engine import PerfEngine
from core.scenario import Estimate
from core.sizing import Sizing, size


def register(cli: typer.Typer, load_engine: Callable[[], PerfEngine]) -> None:
    text_arg = typer.Argument(..., help="The message, as a customer or colleague wrote it.")

    @cli.command("parse")
    def parse_cmd(
        text: list[str] = text_arg,
        as_json: bool = typer.Option(False, "--json", help="Print the parse as JSON."),
    ) -> None:
        """Show what leasewise reads in a message: fields, assumptions, what is missing."""
        console = make_console()
        with friendly_errors(lambda: as_json, console):
            parsed = parse(" ".join(text), load_engine().catalog)
            if as_json:
                typer.echo(json.dumps(_as_json(parsed), indent=2, default=str))
                return
            console.print(_fields_table(parsed))
            for title, lines in (
                ("Understood", parsed.understood),
                ("Assumed", parsed.assumed),
                ("Ambiguous", parsed.ambiguities),
                ("Missing", parsed.missing),
            ):
                notes(console, title, lines)

    @cli.command("ask")
    def ask_cmd(
        text: list[str] = text_arg,
        as_json: bool = typer.Option(False, "--json", help="Print the answer as JSON."),
        top: int = typer.Option(DEFAULT_TOP, "--top", min=1, help="Options to show (sizing)."),
    ) -> None:
        """Read a message and answer it: an estimate for a deployment, sizing for traffic."""
        console = make_console()
        with friendly_errors(lambda: as_json, console):
            engine = load_engine()
            parsed = parse(" ".join(text), engine.catalog)
            answer = _answer(parsed, engine)
            if as_json:
                typer.echo(answer.model_dump_json(indent=2))
                return
            notes(console, "Understood", parsed.understood)
            if isinstance(answer, Sizing):
                print_sizing(console, answer, top=top)
            else:
                print_estimate(console, answer)


def _answer(parsed: Parsed, engine: PerfEngine) -> Estimate | Sizing:
    """Estimate or size, whichever the message asks; else say what is missing."""
    scenario, traffic = parsed.scenario(), parsed.traffic()
    if traffic is not None:
        return size(traffic, engine)
    if scenario is not None:
        return estimate(scenario, engine)
    wanted = parsed.missing or [
        "a deployment (e.g. 'Kimi K3 on 16x B300, batch 64') or traffic "
        "(e.g. '2B output tokens a day of Kimi K3')"
    ]
    raise BadInput(
        "not enough to answer yet: " + "; ".join(wanted),
        field=None,
        hint="e.g. leasewise ask 'Kimi K3, 2B output tokens a day, peaks 3x, 30 tok/s per user'",
    )


def _as_json(parsed: Parsed) -> dict[str, object]:
    return {
        "kind": parsed.kind,
        "scenario": parsed.fields,
        "understood": parsed.understood,
        "assumed": parsed.assumed,
        "missing": parsed.missing,
        "ambiguities": parsed.ambiguities,
    }


def _fields_table(parsed: Parsed) -> Table:
    table = Table(title=f"Read as: {parsed.kind}", show_header=False)
    table.add_column(style="bold")
    table.add_column()
    for key, value in parsed.fields.items():
        table.add_row(key, str(value))
    return table
