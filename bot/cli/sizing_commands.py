"""``leasewise size`` (traffic -> ranked lease options) and ``leasewise frontier`` (one
deployment across batch sizes: why a faster-feeling service costs more per token)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from storage.clock import utc_now

if TYPE_CHECKING:
    from core.perf.engine import PerfEngine, PerfQuery
    from core.scenario import Scenario

DEFAULT_TOP = 5


def parse_prices(pairs: list[str] | None) -> dict[str, float] | None:
    """``["b300=5", "h200=3.5"]`` -> ``{"b300": 5.0, "h200": 3.5}``; None when none given."""
    if not pairs:
        return None
    from bot.cli.errors import BadInput

    prices: dict[str, float] = {}
    for pair in pairs:
        name, _, usd = pair.partition("=")
        try:
            value = float(usd.strip().removeprefix("$"))
        except ValueError:
            value = math.nan
        if not name.strip() or not math.isfinite(value):
            raise BadInput(
                f"--price takes GPU=USD per GPU-hour, not {pair!r}",
                field="prices",
                hint="e.g. --price b300=5 --price h200=3.5",
            )
        prices[name.strip()] = value
    return prices


def frontier_query(scenario: Scenario, engine: PerfEngine) -> PerfQuery:
    """The deployment ``estimate`` would answer for (precision, fastest stack known as of,
    smallest GPU count that holds the model), at batch 1; ``frontier`` sets each batch's
    speculative-decoding acceptance (the one asked for, else the measured default)."""
    from core.estimate import estimate
    from core.perf.engine import PerfQuery

    e = estimate(scenario, engine)
    decoded = scenario.output_tokens
    if decoded is not None and scenario.reasoning_tokens is not None:
        decoded += scenario.reasoning_tokens
    return PerfQuery(
        model=e.model,
        gpu=e.gpu,
        gpus=e.gpus,
        precision=e.precision,
        stack=e.stack,
        concurrency=1,
        spec_decode_acceptance=scenario.spec_decode_acceptance or 1.0,
        context_tokens=scenario.context_tokens,
        input_tokens=scenario.input_tokens if decoded is not None else None,
        output_tokens=decoded if scenario.input_tokens is not None else None,
        kv_precision=scenario.kv_precision,
    )


def register(cli: typer.Typer, load_engine: Callable[[], PerfEngine]) -> None:
    @cli.command("size")
    def size_cmd(
        file: Path | None = typer.Option(
            None, "--file", "-f", help="Traffic JSON ('-' for stdin)."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the Sizing JSON contract."),
        top: int | None = typer.Option(None, help=f"Options to show (default {DEFAULT_TOP})."),
        model: str | None = typer.Option(None, help="Model id or alias, e.g. kimi-k3."),
        output_tokens_per_day: float | None = typer.Option(
            None, help="Output tokens a day as billed, reasoning included."
        ),
        requests_per_day: float | None = typer.Option(None, help="Requests a day."),
        requests_per_hour: float | None = typer.Option(None, help="Requests an hour."),
        requests_per_minute: float | None = typer.Option(None, help="Requests a minute."),
        output_tokens: int | None = typer.Option(
            None, help="Output tokens a request as billed (visible, with --reasoning-tokens)."
        ),
        input_tokens: int | None = typer.Option(None, help="Prompt tokens per request."),
        reasoning_tokens: int | None = typer.Option(
            None, help="Reasoning tokens a request, on top of visible --output-tokens."
        ),
        context_tokens: int | None = typer.Option(None, help="Mean KV length per sequence."),
        peak_to_average: float | None = typer.Option(None, help="Peak over average, >= 1."),
        min_per_user_tokens_per_s: float | None = typer.Option(None, help="Slowest a user gets."),
        max_ttft_s: float | None = typer.Option(None, help="Longest time to first token, s."),
        monthly_growth: float | None = typer.Option(None, help="Growth a month, e.g. 0.1."),
        gpu: list[str] | None = typer.Option(None, help="Allowed GPU (repeat; default: offer)."),
        precision: str | None = typer.Option(None, help="Weight precision, e.g. mxfp4."),
        stack: str | None = typer.Option(None, help="Serving stack id (default: best as of)."),
        as_of: str | None = typer.Option(None, help="ISO date: use what was known that day."),
        term_months: int | None = typer.Option(None, help="Lease term: 0, 12, 24 or 36."),
        price_per_gpu_hour: float | None = typer.Option(
            None, help="Price for the first --gpu (none named: the offer's GPUs)."
        ),
        price: list[str] | None = typer.Option(None, help="GPU=USD per GPU-hour (repeat)."),
        api_price_per_million_output: float | None = typer.Option(None, help="API $/M output."),
        api_price_per_million_input: float | None = typer.Option(None, help="API $/M input."),
        planned_utilization: float | None = typer.Option(None, help="Peak's share of capacity."),
        utilization: float | None = typer.Option(
            None, help="Average share of capacity the $/M is quoted at (the fleet stays)."
        ),
        spec_decode_acceptance: float | None = typer.Option(None, help="Tokens accepted/step."),
    ) -> None:
        """How many GPUs of which kind a traffic needs, ranked by $/month, against the API."""
        from bot.cli.errors import BadInput, friendly_errors
        from bot.cli.scenario_input import fields_of, traffic_from
        from core.traffic import Traffic

        flags = fields_of(Traffic, locals())
        with friendly_errors(lambda: as_json):
            if top is not None and top < 1:
                raise BadInput("--top must be at least 1", field="top", hint="e.g. --top 3")
            flags["gpus"] = tuple(gpu) if gpu else None
            flags["prices"] = parse_prices(price)
            traffic = traffic_from(file, flags)
            if as_json:
                from core.sizing import size

                sizing = size(traffic, load_engine(), today=utc_now().date())
                if top is not None:
                    sizing = sizing.model_copy(update={"options": sizing.options[:top]})
                typer.echo(sizing.model_dump_json(indent=2))
                return
            from bot.cli.printing import say
            from bot.conversation import answer_question

            today = utc_now().date()
            reply = answer_question(load_engine(), traffic, today=today, top=top or DEFAULT_TOP)
            say(reply.template, **reply.context)

    @cli.command("frontier")
    def frontier_cmd(
        file: Path | None = typer.Option(
            None, "--file", "-f", help="Scenario JSON ('-' for stdin); its concurrency is swept."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the points as a JSON list."),
        model: str | None = typer.Option(None, help="Model id or alias, e.g. kimi-k3."),
        gpu: str | None = typer.Option(None, help="GPU id or alias, e.g. b300."),
        gpus: int | None = typer.Option(None, help="GPUs in the replica (default: smallest fit)."),
        precision: str | None = typer.Option(None, help="Weight precision, e.g. mxfp4."),
        stack: str | None = typer.Option(None, help="Serving stack id (default: best as of)."),
        as_of: str | None = typer.Option(None, help="ISO date: use what was known that day."),
        input_tokens: int | None = typer.Option(None, help="Prompt tokens per request."),
        output_tokens: int | None = typer.Option(None, help="Decoded tokens per request."),
        context_tokens: int | None = typer.Option(None, help="Mean KV length per sequence."),
        spec_decode_acceptance: float | None = typer.Option(None, help="Tokens accepted/step."),
        batch: list[int] | None = typer.Option(None, help="Batch size to show (repeat)."),
    ) -> None:
        """Tokens/s per GPU against tokens/s per user, batch by batch, for one deployment."""
        from bot.cli.errors import BadInput, friendly_errors
        from bot.cli.scenario_input import fields_of, scenario_from
        from core.frontier import DEFAULT_BATCHES, frontier
        from core.scenario import Scenario

        flags = fields_of(Scenario, locals())
        with friendly_errors(lambda: as_json):
            batches = tuple(sorted(set(batch))) if batch else DEFAULT_BATCHES
            if batches[0] < 1:
                raise BadInput("--batch must be at least 1", field="batch", hint="e.g. --batch 64")
            scenario = scenario_from(file, flags)
            engine = load_engine()
            query = frontier_query(scenario, engine)
            points = frontier(
                engine, query, batches, acceptance=scenario.spec_decode_acceptance
            )
            if as_json:
                typer.echo(json.dumps([p.model_dump(mode="json") for p in points], indent=2))
                return
            from bot.cli.printing import say

            say("cli_frontier", query=query, points=points)
