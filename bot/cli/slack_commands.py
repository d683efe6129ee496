"""``leasewise serve`` (Slack, over HTTP or Socket Mode) and ``leasewise chat`` (local).

Both build the same services at the edge: settings from the environment, the
database (SQLite by default, migrated on first use), the cached engine and the
templates. A missing or blank secret stops ``serve`` before it listens, naming
the variable; a database the app cannot open or write stops either one with
what is wrong and how to fix it (exit code 2, one line); ``chat`` needs no
secret.

Only the standard library and typer are imported at module level: ``leasewise
health`` runs every 30 seconds in the container and must not pay for SQLAlchemy,
pydantic or the Slack stack. Each command imports what it uses.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from bot.services import Services
    from bot.settings import Settings
    from core.perf.engine import PerfEngine

DEFAULT_PORT = 3000
"""Settings' default for PORT, which ``health`` reads without building Settings."""
HEALTH_TIMEOUT_S = 5


def build_services(settings: Settings, load_engine: Callable[[], PerfEngine]) -> Services:
    """Services over the database at ``settings.database_url``; a StorageError (the
    misconfiguration and its fix) if it cannot be opened, migrated or written."""
    from bot.engine.source import EngineSource
    from bot.render.renderer import Renderer
    from bot.services import Services
    from storage.schema import open_database

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
        from dataclasses import replace

        from bot.cli.errors import BadInput, friendly_errors
        from bot.cli.terminal import make_console
        from bot.digests.compose import compose
        from bot.digests.schedule import DigestScheduler
        from bot.settings import Settings
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
        from bot.cli.errors import friendly_errors
        from bot.cli.terminal import make_console
        from bot.settings import Settings

        with friendly_errors(lambda: False, make_console()):
            mode = Settings().slack_mode()
        if mode == "console":
            ctx.invoke(chat_cmd, from_run=True)
        else:
            ctx.invoke(serve_cmd, socket=False, port=None)

    @cli.command("health")
    def health_cmd(
        url: str | None = typer.Option(None, help="Default: http://127.0.0.1:$PORT/healthz."),
    ) -> None:
        """Exit 0 if the running server answers /healthz with ok (the image's HEALTHCHECK).

        The server's answer says what it checked (the database: reachable, writable,
        busy, latency); an unhealthy one (503) exits 1 with that answer.
        """
        import urllib.error  # here, not at the top: 40 ms every other command need not pay
        import urllib.request

        target = url or f"http://127.0.0.1:{_port()}/healthz"
        try:
            with urllib.request.urlopen(target, timeout=HEALTH_TIMEOUT_S) as response:  # noqa: S310
                body = response.read().decode()
        except urllib.error.HTTPError as exc:
            typer.echo(f"unhealthy: {target}: {exc.code} {exc.read().decode()}", err=True)
            raise typer.Exit(1) from exc
        except (OSError, ValueError) as exc:
            typer.echo(f"unhealthy: {target}: {exc}", err=True)
            raise typer.Exit(1) from exc
        typer.echo(f"healthy: {body}")

    @cli.command("chat")
    def chat_cmd(from_run: bool = typer.Option(False, hidden=True)) -> None:
        """Talk to leasewise in the terminal, as in a Slack channel (no Slack needed)."""
        from bot.cli.errors import friendly_errors
        from bot.cli.terminal import make_console
        from bot.console.chat import run as run_chat
        from bot.settings import Settings
        from storage.database import parse_url, sqlite_file, where

        console = make_console()
        with friendly_errors(lambda: False, console):
            settings = Settings()
            services = build_services(settings, load_engine)
            url = parse_url(settings.database_url)
            path = sqlite_file(url)
            interactive = sys.stdin.isatty()
            lines = _prompted() if interactive else sys.stdin
            run_chat(
                services,
                lines,
                typer.echo,
                interactive=interactive,
                database=str(path) if path is not None else where(url),
                from_run=from_run,
            )


def _port() -> int:
    """PORT as Settings reads it, without paying for pydantic on every health check."""
    raw = os.environ.get("PORT", "").strip()
    try:
        port = int(raw) if raw else DEFAULT_PORT
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        typer.echo(f"Error: PORT must be a port number, 1-65535 (got {raw!r}; e.g. PORT=3000)")
        raise typer.Exit(2)
    return port


def _prompted() -> Iterator[str]:
    while True:
        try:
            yield input("you> ")
        except EOFError:
            return
