"""``leasewise estimate`` (one deployment), ``compare`` (several) and ``demo`` (the worked
example). ``--json`` prints the public contract; without it, the templates Slack uses."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from storage.clock import utc_now

if TYPE_CHECKING:
    from core.perf.engine import PerfEngine


def register(cli: typer.Typer, load_engine: Callable[[], PerfEngine]) -> None:
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
        output_tokens: int | None = typer.Option(
            None, help="Output tokens a request as billed (visible, with --reasoning-tokens)."
        ),
        reasoning_tokens: int | None = typer.Option(
            None, help="Reasoning tokens a request, on top of visible --output-tokens."
        ),
        context_tokens: int | None = typer.Option(None, help="Mean KV length per sequence."),
        spec_decode_acceptance: float | None = typer.Option(None, help="Tokens accepted per step."),
        price_per_gpu_hour: float | None = typer.Option(None, help="Lease price, $/GPU-hour."),
        utilization: float | None = typer.Option(None, help="Average busy fraction, (0, 1]."),
        api_price_per_million_output: float | None = typer.Option(None, help="API $/M output."),
        api_price_per_million_input: float | None = typer.Option(None, help="API $/M input."),
        term_months: int | None = typer.Option(None, help="Lease term in months."),
    ) -> None:
        """Throughput, latency and cost of one deployment."""
        from bot.cli.errors import friendly_errors
        from bot.cli.scenario_input import fields_of, scenario_from
        from core.scenario import Scenario

        flags = fields_of(Scenario, locals())

        with friendly_errors(lambda: as_json):
            scenario = scenario_from(file, flags)
            if as_json:
                from core.estimate import estimate

                answered = estimate(scenario, load_engine(), today=utc_now().date())
                typer.echo(answered.model_dump_json(indent=2))
                return
            from bot.cli.printing import say
            from bot.conversation import answer_question

            reply = answer_question(load_engine(), scenario, today=utc_now().date())
            say(reply.template, **reply.context)

    @cli.command("compare")
    def compare_cmd(
        file: Path = typer.Option(Path("-"), "--file", "-f", help="JSON list of Scenarios."),
        as_json: bool = typer.Option(False, "--json", help="Print a JSON list of Estimates."),
    ) -> None:
        """Several deployments side by side, flagging cheap hours that make dear tokens."""
        from bot.cli.errors import friendly_errors
        from bot.cli.scenario_input import scenarios_from
        from core.estimate import estimate

        with friendly_errors(lambda: as_json):
            scenarios = scenarios_from(file)
            engine = load_engine()
            today = utc_now().date()
            results = [estimate(s, engine, today=today) for s in scenarios]
            if as_json:
                typer.echo(json.dumps([r.model_dump(mode="json") for r in results], indent=2))
                return
            from bot.cli.printing import say
            from core.compare import price_contrasts

            say("compare", estimates=results, contrasts=price_contrasts(results), skipped=[])

    @cli.command("demo")
    def demo_cmd() -> None:
        """The worked example: Kimi K3 before and after vLLM's decode path."""
        from bot.cli import demo
        from bot.cli.printing import say

        say("cli_demo", **demo.scenes(load_engine()))
