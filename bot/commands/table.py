"""The shape every command family shares: a handler, and the table it registers in."""

from __future__ import annotations

from collections.abc import Callable

from bot.conversation import Reply
from bot.services import Caller, Services

Handler = Callable[[Services, Caller, str], Reply]
"""``handler(services, caller, rest_of_the_text)``; raises InputError/StorageError for bad input."""

Table = dict[str, Handler]
"""First word of ``/lease <word> ...`` -> its handler."""

COMMAND = "/lease"
