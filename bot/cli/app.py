"""The ``leasewise`` command: estimate, compare, size, frontier, catalog and the worked demo."""

from __future__ import annotations

import functools
import json
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import typer

from bot.cli import (
    catalog_commands,
    db_commands,
    demo,
    feed_commands,
    parse_commands,
    sizing_commands,
    slack_commands,
)
from bot.cli.errors import friendly_errors
from bot.cli.render import comparison_table, contrast_sentence, print_estimate
from bot.cli.scenario_input import scenario_from, scenarios_from
from bot.cli.terminal import make_console
from bot.engine import cache as engine_cache
from core.compare import price_contrasts
from core.estimate import estimate
from core.perf.engine import PerfEngine


@functools.cache
def load_engine() -> PerfEngine:
    """Catalog plus calibration, from the user's cache when data and code are unchanged,
    and once per process: the packaged data cannot change while a command runs."""
    return engine_cache.load_engine()


def _version(value: bool) -> None:
    if value:
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
        show_version: bool = typer.Option(
            False, "--version", callback=_version, is_eager=True, help="Print the version."
        ),
    ) -> None:
        """leasewise."""

    @cli.command("estimate")
    def estimate_cmd(
        file: Path | None = typer.Option(
            None, "--file", "-f", help="Scenario JSON ('-' for stdin)."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the Estimate JSON contract."),
        model: str | None = typer.Option(None, help="Model id or alias, e.g. kimi-k3."),
        gpu: str | None = typer.Option(None, help="GPU id or alias, e.g. b300."),
        gpus: int | None = typer.Option(None, help="GPUs in the replica (default: smallest fit)."),
        precision: str | None = typer.Option(None, help="Weight precision, e.g. mxfp4."),
        stack: str | None = typer.Option(None, help="Serving stack id (default: best as of)."),
        as_of: str | None = typer.Option(None, help="ISO date: use what was known that day."),
        concurrency: int | None = typer.Option(None, help="Concurrent sequences (batch)."),
        input_tokens: int | None = typer.Option(None, help="Prompt tokens per request."),
        output_tokens: int | None = typer.Option(None, help="Visible output tokens per request."),
        reasoning_tokens: int | None = typer.Option(None, help="Reasoning tokens per request."),
        context_tokens: int | None = typer.Option(None, help="Mean KV length per sequence."),
        spec_decode_acceptance: float | None = typer.Option(None, help="Tokens accepted per step."),
        price_per_gpu_hour: float | None = typer.Option(None, help="Lease price, $/GPU-hour."),
        utilization: float | None = typer.Option(None, help="Average busy fraction, (0, 1]."),
        api_price_per_million_output: float | None = typer.Option(None, help="API $/M output."),
        api_price_per_million_input: float | None = typer.Option(None, help="API $/M input."),
        term_months: int | None = typer.Option(None, help="Lease term in months."),
    ) -> None:
        """Throughput, latency and cost of one deployment."""
        flags: dict[str, Any] = dict(locals())
        for key in ("file", "as_json"):
            flags.pop(key)
        console = make_console()
        with friendly_errors(lambda: as_json, console):
            result = estimate(scenario_from(file, flags), load_engine())
            if as_json:
                typer.echo(result.model_dump_json(indent=2))
            else:
                print_estimate(console, result)

    @cli.command("compare")
    def compare_cmd(
        file: Path = typer.Option(Path("-"), "--file", "-f", help="JSON list of Scenarios."),
        as_json: bool = typer.Option(False, "--json", help="Print a JSON list of Estimates."),
    ) -> None:
        """Several deployments side by side, flagging cheap hours that make dear tokens."""
        console = make_console()
        with friendly_errors(lambda: as_json, console):
            scenarios = scenarios_from(file)
            engine = load_engine()
            results = [estimate(s, engine) for s in scenarios]
            if as_json:
                typer.echo(json.dumps([r.model_dump(mode="json") for r in results], indent=2))
                return
            console.print(comparison_table(results, "Side by side"))
            for contrast in price_contrasts(results):
                console.print(contrast_sentence(contrast), highlight=False)

    sizing_commands.register(cli, load_engine)

    parse_commands.register(cli, load_engine)
    slack_commands.register(cli, load_engine)
    feed_commands.register(cli, load_engine)
    cli.add_typer(feed_commands.build_digest(load_engine), name="digest")
    cli.add_typer(catalog_commands.build(load_engine), name="catalog")
    cli.add_typer(db_commands.build(), name="db")

    @cli.command("demo")
    def demo_cmd() -> None:
        """The worked example: Kimi K3 before and after vLLM's decode path."""
        demo.run(make_console(), load_engine())

    return cli
