"""``/lease``: one word picks the subcommand, the rest is key=value or free text.

``/lease Kimi K3 on 8x B300`` (no subcommand) is an ``ask``. Every handler
returns a ``Reply``; bad input becomes an ephemeral ``error`` reply naming the
field, never an exception reaching Slack.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from bot import admin_commands, digest_commands, quote_commands
from bot.cli.render import contrast_sentence
from bot.conversation import Reply, answer, answer_question, error_reply, needs_more
from bot.services import Caller, Services
from core.compare import across_gpus, price_contrasts
from core.errors import InputError
from core.parse import parse
from core.parse.result import understand
from core.perf.engine import PerfEngine
from core.scenario import Scenario
from core.traffic import Traffic
from storage.errors import StorageError
from storage.questions import Question

Handler = Callable[[Services, Caller, str], Reply]
COMMAND = "/lease"


def run(services: Services, caller: Caller, text: str) -> Reply:
    """Answer ``/lease <text>``."""
    word, _, rest = text.strip().partition(" ")
    name = word.lower()
    handler = HANDLERS.get(name)
    try:
        if handler is None:
            return _free_text(services, caller, text.strip(), name)
        return handler(services, caller, rest.strip())
    except (InputError, StorageError) as exc:
        return error_reply(exc)


def _free_text(services: Services, caller: Caller, text: str, word: str) -> Reply:
    if not text:
        return help_reply(services, caller, "")
    reply = answer(services.engines.current(), text)
    close = difflib.get_close_matches(word, HANDLERS, n=1, cutoff=0.75)
    if reply.template == "needs_more" and close:
        missing = [f"did you mean `{COMMAND} {close[0]}`?", *reply.context["missing"]]
        return Reply("needs_more", {**reply.context, "missing": missing}, ephemeral=True)
    return reply


def help_reply(services: Services, caller: Caller, topic: str) -> Reply:
    name = topic.split(" ", 1)[0].lower() or None
    if name is not None and name not in HANDLERS:
        name = None
    return Reply("help", {"command": COMMAND, "topic": name}, ephemeral=True)


def ask(services: Services, caller: Caller, text: str) -> Reply:
    return answer(services.engines.current(), text)


def size_cmd(services: Services, caller: Caller, text: str) -> Reply:
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
        return answer_question(
            engine,
            question.model_copy(update={"gpus": None}),
            changed=["every GPU in the catalog considered"],
        )
    assert isinstance(question, Scenario)
    estimates, skipped = across_gpus(question, engine, gpus=gpus if len(gpus) > 1 else ())
    sentences = [contrast_sentence(c) for c in price_contrasts(estimates)[:1]]
    return Reply(
        "compare",
        {
            "estimates": estimates,
            "sentence": " ".join(sentences)
            + (" Not shown: " + "; ".join(skipped) if skipped else ""),
        },
        question=question,
    )


def models(services: Services, caller: Caller, text: str) -> Reply:
    return Reply("models", {"models": list(services.engines.current().catalog.models)})


def gpus(services: Services, caller: Caller, text: str) -> Reply:
    catalog = services.engines.current().catalog
    prices = [(p.gpu, p.term_months, p.usd_per_gpu_hour, p.source.title) for p in catalog.prices]
    return Reply("gpus", {"gpus": list(catalog.gpus), "prices": prices})


def stacks(services: Services, caller: Caller, text: str) -> Reply:
    catalog = services.engines.current().catalog
    newest = sorted(catalog.measurements, key=lambda m: m.source.date, reverse=True)[:10]
    ordered = sorted(catalog.stacks, key=lambda s: s.released, reverse=True)
    return Reply("stacks", {"stacks": ordered, "newest_measurements": newest})


HANDLERS: dict[str, Handler] = {
    "help": help_reply,
    "ask": ask,
    "size": size_cmd,
    "cost": cost,
    "compare": compare,
    "models": models,
    "gpus": gpus,
    "stacks": stacks,
    "quote": quote_commands.run,
    "admin": admin_commands.run,
    "digest": digest_commands.run,
}
