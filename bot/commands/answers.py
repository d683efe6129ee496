"""``/lease ask | size | cost | compare``: questions about a deployment or a traffic."""

from __future__ import annotations

from bot.commands.table import Table
from bot.conversation import Reply, answer, compare_reply, needs_more
from bot.services import Caller, Services
from core.parse import parse
from core.parse.result import understand


def register(table: Table) -> None:
    table.update({"ask": ask, "size": size, "cost": cost, "compare": compare})


def ask(services: Services, caller: Caller, text: str) -> Reply:
    return answer(services.engines.current(), text, today=services.clock().date())


def size(services: Services, caller: Caller, text: str) -> Reply:
    today = services.clock().date()
    return answer(services.engines.current(), text, today=today, want="traffic")


def cost(services: Services, caller: Caller, text: str) -> Reply:
    today = services.clock().date()
    return answer(services.engines.current(), text, today=today, want="scenario")


def compare(services: Services, caller: Caller, text: str) -> Reply:
    """``compare K3 on B300 vs A100, batch 16``: the same deployment on each GPU named;
    for traffic, the sizing across the GPUs named (or every GPU)."""
    engine = services.engines.current()
    today = services.clock().date()
    parsed = parse(text, engine.catalog)
    traffic = parsed.traffic()
    if traffic is not None:  # traffic: size it on every GPU the question allows
        return compare_reply(engine, traffic, list(traffic.gpus or ()), today=today)
    scenario = parsed.scenario()
    if scenario is None:
        return needs_more(parsed, "scenario")
    reading, pairs, _ = understand(text, engine.catalog)
    named = pairs.gpu_ids or reading.gpu_ids
    return compare_reply(engine, scenario, named, today=today)
