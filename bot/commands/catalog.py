"""``/lease models | gpus | stacks``: what the engine knows, as of the database's additions."""

from __future__ import annotations

from bot.commands.table import Table
from bot.conversation import Reply
from bot.services import Caller, Services

NEWEST_MEASUREMENTS = 10


def register(table: Table) -> None:
    table.update({"models": models, "gpus": gpus, "stacks": stacks})


def models(services: Services, caller: Caller, text: str) -> Reply:
    return Reply("models", {"models": list(services.engines.current().catalog.models)})


def gpus(services: Services, caller: Caller, text: str) -> Reply:
    catalog = services.engines.current().catalog
    prices = [(p.gpu, p.term_months, p.usd_per_gpu_hour, p.source.title) for p in catalog.prices]
    return Reply("gpus", {"gpus": list(catalog.gpus), "prices": prices})


def stacks(services: Services, caller: Caller, text: str) -> Reply:
    catalog = services.engines.current().catalog
    newest = sorted(catalog.measurements, key=lambda m: m.source.date, reverse=True)
    ordered = sorted(catalog.stacks, key=lambda s: s.released, reverse=True)
    return Reply(
        "stacks", {"stacks": ordered, "newest_measurements": newest[:NEWEST_MEASUREMENTS]}
    )
