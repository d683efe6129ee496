"""Getting a rendered reply to the person who asked, and owning up when that fails.

Three ways out: ``respond`` (the response_url of a command or a click: ephemeral
or in channel, no bot membership needed), a post in a thread, and an ephemeral
message to one user in a channel. Overflow (more than one message's worth of
blocks) follows in the same place. A failure after ack() becomes a short
apology with a reference id, and the log line carries the same id.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.conversation import Reply
from bot.render.renderer import Message, Renderer

log = logging.getLogger("leasewise.slack")

Respond = Callable[..., Any]


def render(renderer: Renderer, reply: Reply) -> Message:
    return renderer.message(reply.template, **reply.context)


def respond_with(respond: Respond, message: Message, *, ephemeral: bool) -> None:
    """Answer through a response_url (slash commands and clicks)."""
    kind = "ephemeral" if ephemeral else "in_channel"
    respond(text=message.text, blocks=message.blocks, response_type=kind, replace_original=False)
    for more in message.overflow:
        respond(text=more.text, blocks=more.blocks, response_type=kind, replace_original=False)


def post_in_thread(
    client: WebClient, message: Message, *, channel: str, thread_ts: str | None
) -> str:
    """Post a message (and its overflow) in a thread; the first message's ts."""
    first = client.chat_postMessage(
        channel=channel, thread_ts=thread_ts, text=message.text, blocks=message.blocks
    )
    ts = str(first["ts"])
    for more in message.overflow:
        client.chat_postMessage(
            channel=channel, thread_ts=thread_ts or ts, text=more.text, blocks=more.blocks
        )
    return ts


def post_ephemeral(
    client: WebClient, message: Message, *, channel: str, user: str, thread_ts: str | None
) -> None:
    for part in (message, *message.overflow):
        client.chat_postEphemeral(
            channel=channel, user=user, thread_ts=thread_ts, text=part.text, blocks=part.blocks
        )


def apologize(
    renderer: Renderer, exc: BaseException, *, what: str, send: Callable[[Message], object]
) -> str:
    """Log ``exc`` with a fresh reference id and tell the user that id; the id."""
    reference = uuid.uuid4().hex[:8]
    detail = ""
    if isinstance(exc, SlackApiError):
        detail = f" (Slack said {exc.response.get('error')!r})"
    log.error("reference %s: %s failed%s", reference, what, detail, exc_info=exc)
    try:
        send(renderer.message("apology", reference=reference))
    except Exception:  # noqa: BLE001 - the apology itself failed; the log has the detail
        log.exception("reference %s: the apology could not be delivered either", reference)
    return reference
