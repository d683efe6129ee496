"""``/lease ask | size | cost | compare``: questions about a deployment or a traffic."""

from __future__ import annotations

from bot.commands.table import Table
from bot.conversation import Reply, answer, answer_question, needs_more
from bot.services import Caller, Services
from core.compare import across_gpus, price_contrasts
from core.parse import parse
from core.parse.result import understand
from core.perf.engine import PerfEngine
from core.questions import Question
from core.scenario import Scenario
from core.traffic import Traffic


def register(table: Table) -> None:
    table.update({"ask": ask, "size": size, "cost": cost, "compare": compare})


def ask(services: Services, caller: Caller, text: str) -> Reply:
    return answer(services.engines.current(), text)


def size(services: Services, caller: Caller, text: str) -> Reply:
    return answer(services.engines.current(), text, want="traffic")


def cost(services: Services, caller: Caller, text: str) -> Reply:
    return answer(services.engines.current(), text, want="scenario")


def compare(services: Services, caller: Caller, text: str) -> Reply:
    """``compare K3 on B300 vs A100, batch 16``: the same deployment on each GPU named;
    for traffic, the sizing across the GPUs named (or every GPU)."""
    engine = services.engines.current()
    parsed = parse(text, engine.catalog)
    traffic = parsed.traffic()
    if traffic is not None:  # traffic: size it on every GPU the question allows
        return compare_reply(engine, traffic, list(traffic.gpus or ()))
    scenario = parsed.scenario()
    if scenario is None:
        return needs_more(parsed, "scenario")
    reading, pairs, _ = understand(text, engine.catalog)
    named = pairs.gpu_ids or reading.gpu_ids
    return compare_reply(engine, scenario, named)


def compare_reply(engine: PerfEngine, question: Question, gpus: list[str]) -> Reply:
    """GPUs side by side for a deployment; for traffic, a sizing free to use any GPU."""
    if isinstance(question, Traffic):
        if len(gpus) > 1:
            return answer_question(engine, question, changed=[f"compared {', '.join(gpus)}"])
        every = tuple(g.id for g in engine.catalog.gpus)  # those not leased say so
        return answer_question(
            engine,
            question.model_copy(update={"gpus": every}),
            changed=["every GPU in the catalog considered"],
        )
    assert isinstance(question, Scenario)
    estimates, skipped = across_gpus(question, engine, gpus=gpus if len(gpus) > 1 else ())
    # One lesson is enough for a channel; the template words it from the table's figures.
    contrasts = price_contrasts(estimates)[:1]
    return Reply(
        "compare",
        {"estimates": estimates, "contrasts": contrasts, "skipped": skipped},
        question=question,
    )
