"""``/lease quote save|list|show|delete``: a question and its economics, kept by name.

A quote stores the question and the answer as of the day it was saved, so the
weekly digest can tell the team when a new serving stack moved it.
"""

from __future__ import annotations

import shlex

from bot.commands.arguments import take
from bot.commands.table import Table
from bot.conversation import Reply, needs_more
from bot.services import Caller, Services
from core.errors import InputError
from core.estimate import estimate
from core.parse import parse
from core.perf.engine import PerfEngine
from core.questions import Economics, Question
from core.sizing import size
from core.traffic import Traffic
from storage import quotes

USAGE = "e.g. `/lease quote save acme-q3 customer=Acme Kimi K3 on 16x B300, batch 64, $5/hr`"


def register(table: Table) -> None:
    table["quote"] = run


def run(services: Services, caller: Caller, text: str) -> Reply:
    verb, _, rest = text.partition(" ")
    verb = verb.lower()
    if verb == "save":
        return _save_text(services, caller, rest.strip())
    if verb == "list":
        return _list(services, caller)
    if verb in ("show", "delete"):
        name = _name(rest)
        with services.sessions.begin() as session:
            quote = quotes.get(session, workspace_id=caller.workspace_id, name=name)
            if verb == "delete":
                quotes.delete(session, quote.id, workspace_id=caller.workspace_id)
                return Reply("quote_deleted", {"quote": quote}, ephemeral=True)
        return Reply("quote_show", {"quote": quote})
    raise InputError(
        f"'{verb or '(nothing)'}' is not a quote command: use save, list, show or delete",
        field="quote",
        hint=USAGE,
    )


def economics_of(engine: PerfEngine, question: Question) -> Economics:
    if isinstance(question, Traffic):
        return size(question, engine)
    return estimate(question, engine)


def save(
    services: Services,
    caller: Caller,
    engine: PerfEngine,
    *,
    name: str,
    customer: str,
    question: Question,
) -> Reply:
    """Save ``question`` with today's economics; a taken name is an error, nothing written."""
    economics = economics_of(engine, question)
    with services.sessions.begin() as session:
        quote = quotes.save(
            session,
            workspace_id=caller.workspace_id,
            channel_id=caller.channel_id,
            owner_user_id=caller.user_id,
            name=name,
            customer=customer,
            question=question,
            economics=economics,
            as_of=services.clock().date(),
            clock=services.clock,
        )
    return Reply("quote_saved", {"quote": quote}, question=question)


def _save_text(services: Services, caller: Caller, text: str) -> Reply:
    name, _, rest = text.partition(" ")
    if not name or "=" in name:
        raise InputError("a quote needs a name first", field="name", hint=USAGE)
    customer, rest = take(rest, "customer")
    if not customer:
        raise InputError("say who the quote is for", field="customer", hint=USAGE)
    engine = services.engines.current()
    parsed = parse(rest, engine.catalog)
    question = parsed.traffic() or parsed.scenario()
    if question is None:
        return needs_more(parsed)
    return save(services, caller, engine, name=name, customer=customer, question=question)


def _list(services: Services, caller: Caller) -> Reply:
    with services.sessions() as session:
        found = quotes.recent(session, workspace_id=caller.workspace_id, limit=50)
    return Reply("quote_list", {"quotes": found, "total": len(found)}, ephemeral=True)


def _name(text: str) -> str:
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    if not words:
        raise InputError("which quote?", field="name", hint="e.g. `/lease quote show acme-q3`")
    return " ".join(words)
