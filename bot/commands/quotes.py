"""``/lease quote save|list|show|pdf|delete``: a question and its economics, kept by name.

A quote stores the question and the answer as of the day it was saved, so the
weekly digest can tell the team when a new serving stack moved it. ``quote pdf``
posts the quote as a document for the customer (``bot.render.document``); the
command line's ``leasewise quote export`` writes the same document to a file.
"""

from __future__ import annotations

import datetime as dt
import difflib
import shlex

from sqlalchemy.orm import Session

from bot.commands.arguments import take
from bot.commands.table import COMMAND, Table
from bot.conversation import Reply, needs_more
from bot.render.document import Attachment, Format, QuoteDocument, attachment, quote_document
from bot.services import Caller, Services
from core.errors import InputError
from core.estimate import estimate
from core.parse import parse
from core.perf.engine import PerfEngine
from core.questions import Economics, Question
from core.sizing import size
from core.traffic import Traffic
from storage import quotes
from storage.errors import NotFound
from storage.quotes import StoredQuote

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
    if verb == "pdf":
        return _pdf(services, caller, _name(rest, verb))
    if verb in ("show", "delete"):
        name = _name(rest, verb)
        with services.sessions.begin() as session:
            quote = quotes.get(session, workspace_id=caller.workspace_id, name=name)
            if verb == "delete":
                quotes.delete(session, quote.id, workspace_id=caller.workspace_id)
                return Reply("quote_deleted", {"quote": quote}, ephemeral=True)
        return Reply("quote_show", {"quote": quote})
    raise InputError(
        f"'{verb or '(nothing)'}' is not a quote command: use save, list, show, pdf or delete",
        field="quote",
        hint=USAGE,
    )


def economics_of(engine: PerfEngine, question: Question, *, today: dt.date) -> Economics:
    """The question's economics, priced on its ``as_of`` or ``today``."""
    if isinstance(question, Traffic):
        return size(question, engine, today=today)
    return estimate(question, engine, today=today)


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
    economics = economics_of(engine, question, today=services.clock().date())
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


def _pdf(services: Services, caller: Caller, name: str) -> Reply:
    """The quote's PDF, posted to the conversation it was asked for in."""
    with services.sessions() as session:
        quote = named(
            session,
            workspace_id=caller.workspace_id,
            name=name,
            example=f"{COMMAND} quote pdf",
            listing=f"`{COMMAND} quote list` shows them all",
        )
    file = document_file(services, document_of(services, quote), "pdf")
    return Reply("quote_document_posted", {"quote": quote, "user_id": caller.user_id}, file=file)


def document_of(services: Services, quote: StoredQuote) -> QuoteDocument:
    """The quote as a document dated today, its validity by the price book or the policy."""
    return quote_document(
        quote,
        catalog=services.engines.current().catalog,
        issued=services.clock().date(),
        validity_days=services.settings.quote_validity_days,
    )


def document_file(services: Services, document: QuoteDocument, form: Format) -> Attachment:
    return attachment(services.renderer, document, form)


def named(
    session: Session, *, workspace_id: str, name: str, example: str, listing: str
) -> StoredQuote:
    """The workspace's quote called ``name``; an unknown name says which names are close.

    Raises:
        InputError: no quote of that name (see ``unknown_quote``).
    """
    try:
        return quotes.get(session, workspace_id=workspace_id, name=name)
    except NotFound as exc:
        names = quotes.names(session, workspace_id=workspace_id)
        raise unknown_quote(name, names, example=example, listing=listing) from exc


def unknown_quote(
    name: str,
    names: list[str],
    *,
    example: str,
    listing: str,
    where: str = "in this workspace",
) -> InputError:
    """No quote called ``name`` among ``names`` (newest first): the hint is ``example``
    (a command, e.g. ``/lease quote pdf``) with the closest name, or the newest, and
    ``listing``, where to see them all."""
    close = difflib.get_close_matches(name.strip(), names, n=1, cutoff=0.6)
    if close:
        hint = f"did you mean `{example} {_quoted(close[0])}`? {listing}"
    elif names:
        hint = f"e.g. `{example} {_quoted(names[0])}`; {listing}"
    else:
        hint = f"save one first, {USAGE}; then `{example} acme-q3`"
    return InputError(f"no quote named '{name.strip()}' {where}", field="name", hint=hint)


def _quoted(name: str) -> str:
    """A name as typed into a command: quoted when it holds a space."""
    return shlex.quote(name) if " " in name else name


def _name(text: str, verb: str) -> str:
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    if not words:
        raise InputError(
            "which quote?", field="name", hint=f"e.g. `{COMMAND} quote {verb} acme-q3`"
        )
    return " ".join(words)
