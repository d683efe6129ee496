"""``leasewise parse`` (what the parser read) and ``leasewise ask`` (read, then answer).

The same parser the Slack app uses, so a sales engineer can try a customer's
words without Slack and see exactly what was understood and assumed. ``parse``
needs only the catalog, not the calibrated engine.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING

import typer

from bot.cli.sizing_commands import DEFAULT_TOP
from storage.clock import utc_now

if TYPE_CHECKING:
    from core.parse import Parsed
    from core.perf.engine import PerfEngine
    from core.questions import Question


def register(cli: typer.Typer, load_engine: Callable[[], PerfEngine]) -> None:
    text_arg = typer.Argument(..., help="The message, as a customer or colleague wrote it.")

    @cli.command("parse")
    def parse_cmd(
        text: list[str] = text_arg,
        as_json: bool = typer.Option(False, "--json", help="Print the parse as JSON."),
    ) -> None:
        """Show what leasewise reads in a message: fields, assumptions, what is missing."""
        from bot.cli.errors import friendly_errors
        from core.catalog import load_catalog
        from core.parse import parse

        with friendly_errors(lambda: as_json):
            parsed = parse(" ".join(text), load_catalog())
            if as_json:
                typer.echo(json.dumps(_as_json(parsed), indent=2, default=str))
                return
            from bot.cli.printing import say

            say("cli_parse", parsed=parsed)

    @cli.command("ask")
    def ask_cmd(
        text: list[str] = text_arg,
        as_json: bool = typer.Option(False, "--json", help="Print the answer as JSON."),
        top: int = typer.Option(DEFAULT_TOP, "--top", min=1, help="Options to show (sizing)."),
    ) -> None:
        """Read a message and answer it: an estimate for a deployment, sizing for traffic."""
        from bot.cli.errors import friendly_errors
        from core.parse import parse

        with friendly_errors(lambda: as_json):
            engine = load_engine()
            parsed = parse(" ".join(text), engine.catalog)
            question = _question(parsed)
            today = utc_now().date()
            if as_json:
                from core.estimate import estimate
                from core.sizing import size
                from core.traffic import Traffic

                answer = (
                    size(question, engine, today=today)
                    if isinstance(question, Traffic)
                    else estimate(question, engine, today=today)
                )
                typer.echo(answer.model_dump_json(indent=2))
                return
            from bot.cli.printing import say
            from bot.conversation import answer_question

            reply = answer_question(
                engine,
                question,
                today=today,
                understood=parsed.understood,
                assumed=parsed.assumed,
                ambiguities=parsed.ambiguities,
                top=top,
            )
            say(reply.template, **reply.context)


def _question(parsed: Parsed) -> Question:
    """What the message asks, traffic before a deployment; else say what is missing."""
    from bot.cli.errors import BadInput

    question = parsed.traffic() or parsed.scenario()
    if question is not None:
        return question
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
