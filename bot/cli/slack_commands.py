"""``leasewise serve`` (Slack, over HTTP or Socket Mode) and ``leasewise chat`` (local).

Both build the same services at the edge: settings from the environment, the
database (SQLite by default, migrated on first use), the cached engine and the
templates. A missing secret stops ``serve`` before it listens, naming the
variable; ``chat`` needs none.
"""

from __future__ import annotations

import sys
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import replace

import typer

from bot.cli.errors import BadInput, friendly_errors
from bot.cli.terminal import make_console
from bot.console.chat import run as run_chat
from bot.engine.source import EngineSource
from bot.render.renderer import Renderer
from bot.services import Services
from bot.settings import Settings
from core.perf.engine import PerfEngine
from storage.database import is_sqlite
from storage.schema import open_database


def build_services(settings: Settings, load_engine: Callable[[], PerfEngine]) -> Services:
    _, sessions = open_database(settings.database_url)
    engines = EngineSource(load_engine(), sessions)
    engines.build_now()  # with the admins' additions before the first answer, not after
    return Services(
        settings=settings,
        engines=engines,
        sessions=sessions,
        renderer=Renderer(),
    )


def register(cli: typer.Typer, load_engine: Callable[[], PerfEngine]) -> None:
    @cli.command("serve")
    def serve_cmd(
        socket: bool = typer.Option(False, "--socket", help="Socket Mode (no public URL)."),
        port: int | None = typer.Option(None, "--port", help="HTTP port (default $PORT, 3000)."),
    ) -> None:
        """Run the Slack app: HTTP on /slack/events, or Socket Mode with --socket."""
        from bot.digests.compose import compose
        from bot.digests.schedule import DigestScheduler
        from bot.slack.app import (
            MissingSettings,
            create_app,
            make_client,
            require_slack,
            workspace_clients,
        )
        from bot.slack.server import run_http, run_socket

        console = make_console()
        with friendly_errors(lambda: False, console):
            settings = Settings()
            if port is not None:
                settings = settings.model_copy(update={"port": port})
            try:
                mode = require_slack(settings, socket=socket)  # before opening anything
                services = build_services(settings, load_engine)
                client = make_client(settings)
                per_workspace = workspace_clients(settings, services) if mode == "oauth" else None
                scheduler = DigestScheduler(services, per_workspace or client, compose)
                hooked = replace(services, subscriptions_changed=scheduler.sync)
                app = create_app(settings, hooked, client=client, socket=socket)
            except MissingSettings as exc:
                hint = "see the README's 'Installing in Slack'"
                raise BadInput(str(exc), field="settings", hint=hint) from exc
            if socket:
                run_socket(app, hooked, settings, scheduler)
            else:
                run_http(app, hooked, settings, scheduler)

    @cli.command("run")
    def run_cmd(ctx: typer.Context) -> None:
        """The main job: the Slack app when Slack credentials are set, else the local chat."""
        if Settings().slack_mode() == "console":
            typer.echo("No Slack credentials set: starting the local chat (see README).")
            ctx.invoke(chat_cmd)
        else:
            ctx.invoke(serve_cmd, socket=False, port=None)

    @cli.command("health")
    def health_cmd(
        url: str | None = typer.Option(None, help="Default: http://127.0.0.1:$PORT/healthz."),
    ) -> None:
        """Exit 0 if the running server answers /healthz with ok (the image's HEALTHCHECK)."""
        target = url or f"http://127.0.0.1:{Settings().port}/healthz"
        try:
            with urllib.request.urlopen(target, timeout=5) as response:  # noqa: S310
                body = response.read().decode()
        except (OSError, ValueError) as exc:
            typer.echo(f"unhealthy: {target}: {exc}", err=True)
            raise typer.Exit(1) from exc
        typer.echo(f"healthy: {body}")

    @cli.command("chat")
    def chat_cmd() -> None:
        """Talk to leasewise in the terminal, as in a Slack channel (no Slack needed)."""
        console = make_console()
        with friendly_errors(lambda: False, console):
            settings = Settings()
            services = build_services(settings, load_engine)
            url = settings.database_url
            where = url.removeprefix("sqlite:///") if is_sqlite(url) else url
            typer.echo(f"(database: {where})")
            interactive = sys.stdin.isatty()
            lines = _prompted() if interactive else sys.stdin
            run_chat(services, lines, typer.echo, interactive=interactive)


def _prompted() -> Iterator[str]:
    while True:
        try:
            yield input("you> ")
        except EOFError:
            return
