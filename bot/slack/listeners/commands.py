"""``/lease``: ack at once, answer, and let the courier take it to the command's response_url.

Answers start private (ephemeral) with a "Share in channel" button, so a sales
engineer can try numbers before showing them; a new digest subscription is
announced in the channel it concerns, and a file (``/lease quote pdf``) is
uploaded to the channel the command was typed in.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from slack_bolt import Ack, App
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.commands import dispatch
from bot.commands.admin import ADD_MODAL
from bot.services import Caller, Services
from bot.slack.delivery import Courier, Respond, Way, render, respond_with, upload

IN_CHANNEL = frozenset({"digest_subscribed", "digest_unsubscribed"})
"""Said in the channel, not privately; each also changes the digest schedule."""
VIEWS = frozenset({ADD_MODAL})
"""Replies that are forms: opened as a modal instead of answered."""


def register(app: App, services: Services, courier: Courier) -> None:
    @app.command(dispatch.COMMAND)
    def on_lease(
        ack: Ack, command: dict[str, Any], body: dict[str, Any], respond: Respond, client: WebClient
    ) -> None:
        ack()
        way = Way(body, respond, client)
        if _subscribing(command.get("text", "")):
            # The subscriber's Slack time zone comes first: a call to Slack, so the whole
            # answer travels with the courier.
            zone = partial(user_timezone, client, command.get("user_id", ""))
            courier.send(lambda: answer(services, command, zone())(way), way)
            return
        send = answer(services, command, None)
        courier.send(lambda: send(way), way)


def answer(
    services: Services, command: dict[str, Any], timezone: str | None
) -> Callable[[Way], object]:
    """Work the answer out (on the calling thread); what it returns only sends it."""
    caller = Caller(
        workspace_id=command.get("team_id", ""),
        channel_id=command.get("channel_id"),
        user_id=command.get("user_id", ""),
        timezone=timezone,
    )
    reply = dispatch.run(services, caller, command.get("text", ""))
    if reply.template in VIEWS:
        view = services.renderer.view(reply.template, **reply.context)
        return lambda way: way.client.views_open(trigger_id=way.body["trigger_id"], view=view)
    if reply.template in IN_CHANNEL:
        services.subscriptions_changed()
    message = render(services.renderer, reply)
    file = reply.file
    if file is not None:
        channel = caller.channel_id or ""
        return lambda way: upload(way.client, file, message, channel=channel, thread_ts=None)
    ephemeral = reply.template not in IN_CHANNEL
    return lambda way: respond_with(way.respond, message, ephemeral=ephemeral)


def user_timezone(client: WebClient, user: str) -> str | None:
    """The user's Slack time zone: a digest defaults to the subscriber's Monday morning."""
    try:
        zone = client.users_info(user=user)["user"].get("tz")
    except (SlackApiError, KeyError, TypeError):
        return None
    return zone if isinstance(zone, str) else None


def _subscribing(text: str) -> bool:
    return " ".join(text.lower().split()[:2]) == "digest subscribe"
