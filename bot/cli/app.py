"""The ``leasewise`` command: estimate, compare, size, frontier, catalog, quotes and the demo.

Start-up is part of the product: the container's health check and every one-shot
command pay for whatever this module and the command modules import. So they
import typer and the standard library only; each command imports what it uses
(the engine, pydantic models, templates, the database, Slack) inside its body.
``tests/bot/test_cli_startup.py`` holds the line; ``bench/startup_bench.py`` prints
the seconds.
"""

from __future__ import annotations

import functools
import gc
from typing import TYPE_CHECKING

import typer

from bot.cli import (
    catalog_commands,
    db_commands,
    estimate_commands,
    feed_commands,
    parse_commands,
    quote_commands,
    sizing_commands,
    slack_commands,
)

if TYPE_CHECKING:
    from core.perf.engine import PerfEngine

LONG_RUNNING = frozenset({"serve", "chat", "run"})
"""Commands that run until stopped: the garbage collector that ``bot.cli.main`` holds
back during start-up is back on before they start."""


@functools.cache
def load_engine() -> PerfEngine:
    """Catalog plus calibration, from the user's cache when data and code are unchanged,
    and once per process: the packaged data cannot change while a command runs."""
    from bot.engine import cache as engine_cache

    return engine_cache.load_engine()


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"leasewise {version('leasewise')}")
        except PackageNotFoundError:
            typer.echo("leasewise (not installed)")
        raise typer.Exit()


def build_cli() -> typer.Typer:
    cli = typer.Typer(
        name="leasewise",
        help="GPU-lease economics for self-hosted open models, every number with its source.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )

    @cli.callback()
    def _root(
        ctx: typer.Context,
        show_version: bool = typer.Option(
            False, "--version", callback=_version, is_eager=True, help="Print the version."
        ),
    ) -> None:
        """leasewise."""
        if ctx.invoked_subcommand in LONG_RUNNING:
            gc.enable()

    estimate_commands.register(cli, load_engine)
    sizing_commands.register(cli, load_engine)
    parse_commands.register(cli, load_engine)
    slack_commands.register(cli, load_engine)
    feed_commands.register(cli, load_engine)
    cli.add_typer(feed_commands.build_digest(load_engine), name="digest")
    cli.add_typer(catalog_commands.build(load_engine), name="catalog")
    cli.add_typer(quote_commands.build(load_engine), name="quote")
    cli.add_typer(db_commands.build(), name="db")
    return cli
