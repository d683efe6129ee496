"""``leasewise import FILE`` and ``leasewise digest preview|run --now``: the change feed.

``import`` brings serving changes (stacks, measurements) into the catalog.

For operators: a release note's figures arrive as a YAML file shaped like
``core/data``; the whole file is validated and added in one transaction with its
audit entries, or refused whole with the file, entry and field named (exit 2).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from core.perf.engine import PerfEngine


def register(cli: typer.Typer, load_engine: Callable[[], PerfEngine]) -> None:
    @cli.command("import")
    def import_cmd(
        file: Path = typer.Argument(..., help="YAML with `stacks:` and/or `measurements:`."),
    ) -> None:
        """Add serving stacks and measurements from a YAML file (validated, audited)."""
        import getpass

        from bot.cli.errors import BadInput, friendly_errors
        from bot.cli.printing import say
        from bot.digests.feed import add_entries
        from bot.settings import Settings
        from core.catalog.loading import additions_from_text
        from storage.errors import StorageError
        from storage.schema import open_database

        with friendly_errors(lambda: False):
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
            say("cli_imported", added=added)


def build_digest(load_engine: Callable[[], PerfEngine]) -> typer.Typer:
    group = typer.Typer(help="Weekly digests: preview what would be posted, or post now.")

    @group.command("preview")
    def preview_cmd(
        workspace: str | None = typer.Option(None, help="Slack workspace (team) id."),
        since: str | None = typer.Option(None, help="ISO date (default: a week before until)."),
        until: str | None = typer.Option(None, help="ISO date (default: today)."),
    ) -> None:
        """Print the digest each workspace (or one) would get for a period."""
        from bot.cli.errors import BadInput, friendly_errors
        from bot.cli.printing import say
        from bot.cli.slack_commands import build_services
        from bot.console.names import readable, workspace_name
        from bot.digests.compose import digest_between
        from bot.settings import Settings
        from storage import quotes
        from storage.clock import utc_now

        with friendly_errors(lambda: False):
            last = _iso(until, "until") or utc_now().date()
            first = _iso(since, "since") or last - timedelta(days=7)
            if first >= last:
                raise BadInput("since must come before until", field="since", hint=PREVIEW_HINT)
            services = build_services(Settings(), load_engine)
            with services.sessions() as session:
                workspaces = [workspace] if workspace else quotes.workspaces(session)
            previews = []
            for team in workspaces:
                digest = digest_between(services, team, since=first, until=last)
                name = "digest_quiet" if digest.is_empty else "digest"
                text = readable(services.renderer.text(name, digest=digest))
                previews.append((workspace_name(team), text))
            say("cli_digest_preview", previews=previews)

    @group.command("run")
    def run_cmd(
        now: bool = typer.Option(False, "--now", help="Run every subscription's digest now."),
    ) -> None:
        """Post this week's digest to every subscribed channel that has not had it yet."""
        from bot.cli.errors import BadInput, friendly_errors
        from bot.cli.printing import say
        from bot.cli.slack_commands import build_services
        from bot.console.names import readable
        from bot.digests.compose import compose
        from bot.digests.runs import run_digest
        from bot.settings import Settings
        from bot.slack.app import make_client
        from storage import digests
        from storage.clock import utc_now

        with friendly_errors(lambda: False):
            if not now:
                raise BadInput(
                    "say --now: scheduled runs happen inside `leasewise serve`",
                    field="now",
                    hint="leasewise digest run --now",
                )
            settings = Settings()
            if not settings.slack_bot_token:
                raise BadInput(
                    "posting a digest needs SLACK_BOT_TOKEN",
                    field="SLACK_BOT_TOKEN",
                    hint="`leasewise digest preview` shows the digest without Slack",
                )
            services = build_services(settings, load_engine)
            client = make_client(settings)
            with services.sessions() as session:
                subscriptions = digests.active_subscriptions(session)
            fired = utc_now()
            outcomes = [
                (s.channel_id, run_digest(services, client, s.id, fired, compose))
                for s in subscriptions
            ]
            say("cli_digest_run", outcomes=[(readable(f"<#{c}>"), o) for c, o in outcomes])

    return group


PREVIEW_HINT = "e.g. leasewise digest preview --since 2026-10-12 --until 2026-10-19"


def _iso(value: str | None, field: str) -> date | None:
    if value is None:
        return None
    from bot.cli.errors import BadInput

    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise BadInput(f"{value!r} is not a date", field=field, hint=PREVIEW_HINT) from exc
