"""``/lease <word> <rest>``: one word picks the handler, the rest is key=value or free text.

``/lease Kimi K3 on 8x B300`` (no known first word) is an ``ask``. A first word that
is no command is said to be unknown (``unknown_command``, listing the commands) when

- the text reads as nothing at all (``/lease foo``, ``/lease quotes``), or
- the word is a near miss of a command (``/lease sise …``, ``/lease qoute …``) and the
  text is not a complete question: a complete one is answered, the word taken as prose.

Otherwise a partial question gets ``needs_more``. Bad input becomes an ephemeral
``error`` reply naming the field, never an exception reaching Slack.
"""

from __future__ import annotations

import difflib

from bot.commands import admin, answers, catalog, digests, quotes
from bot.commands.table import COMMAND, Table
from bot.conversation import Reply, answer, error_reply
from bot.services import Caller, Services
from core.errors import InputError
from core.parse import parse
from storage.errors import StorageError

__all__ = ["COMMAND", "HANDLERS", "help_reply", "run"]


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


def help_reply(services: Services, caller: Caller, topic: str) -> Reply:
    name = topic.split(" ", 1)[0].lower() or None
    if name is not None and name not in HANDLERS:
        name = None
    return Reply("help", {"command": COMMAND, "topic": name}, ephemeral=True)


def _free_text(services: Services, caller: Caller, text: str, word: str) -> Reply:
    if not text:
        return help_reply(services, caller, "")
    engine = services.engines.current()
    close = difflib.get_close_matches(word, HANDLERS, n=1, cutoff=0.75)
    parsed = parse(text, engine.catalog)
    if not parsed.fields and not parsed.understood:
        return unknown_command(word, close)
    reply = answer(engine, text, today=services.clock().date())
    if reply.template == "needs_more" and close:
        return unknown_command(word, close)
    return reply


def unknown_command(word: str, close: list[str]) -> Reply:
    context = {"command": COMMAND, "word": word, "close": close[0] if close else None}
    return Reply("unknown_command", context, ephemeral=True)


def _table() -> Table:
    table: Table = {"help": help_reply}
    for family in (answers, catalog, quotes, digests, admin):
        family.register(table)
    return table


HANDLERS: Table = _table()
