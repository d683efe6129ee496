"""The console's own Slack ids, and how a person reads them there.

The local console is one workspace, one channel and one user with made-up ids
(``T0LOCAL``, ``C0CONSOLE``, ``U0YOU``). Slack turns ``<#C…>`` and ``<@U…>`` into
names; a terminal does not, so the console says them itself: its channel is "this
console", its user "you", its workspace "this console's workspace".
"""

from __future__ import annotations

import re

WORKSPACE, CHANNEL, USER = "T0LOCAL", "C0CONSOLE", "U0YOU"

_CHANNEL = re.compile(r"<#([CG][A-Z0-9]+)(?:\|([^>]*))?>")
_USER = re.compile(r"<@([UW][A-Z0-9]+)(?:\|([^>]*))?>")


def workspace_name(team: str) -> str:
    """A workspace as a terminal says it: the console's by name, others by id."""
    return "this console's workspace" if team == WORKSPACE else f"workspace {team}"


def readable(text: str, *, user: str = USER) -> str:
    """``text`` with Slack's channel and user mentions said in words: the console's
    channel "this console", ``user`` "you", others by their label or #id / @id."""

    def channel(found: re.Match[str]) -> str:
        cid, label = found.groups()
        return "this console" if cid == CHANNEL else f"#{label or cid}"

    def person(found: re.Match[str]) -> str:
        uid, label = found.groups()
        return "you" if uid == user else f"@{label or uid}"

    text = _USER.sub(person, _CHANNEL.sub(channel, text))
    return text.replace(WORKSPACE, workspace_name(WORKSPACE))
