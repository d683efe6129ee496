"""``/lease``: ack at once, then answer through the command's response_url (lazily).

Answers start private (ephemeral) with a "Share in channel" button, so a sales
engineer can try numbers before showing them; a new digest subscription is
announced in the channel it concerns.
"""

from __future__ import annotations

from typing import Any

from slack_bolt import App
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.commands import dispatch
from bot.commands.admin import ADD_MODAL
from bot.conversation import Reply
from bot.services import Caller, Services
from bot.slack.delivery import Respond, render, respond_with
from bot.slack.lazy import acknowledge

IN_CHANNEL = frozenset({"digest_subscribed", "digest_unsubscribed"})
VIEWS = frozenset({ADD_MODAL})
"""Replies that are forms: opened as a modal instead of answered."""


def register(app: App, services: Services) -> None:
    def answer(command: dict[str, Any], respond: Respond, client: WebClient) -> None:
        text = command.get("text", "")
        user = command.get("user_id", "")
        caller = Caller(
            workspace_id=command.get("team_id", ""),
            channel_id=command.get("channel_id"),
            user_id=user,
            timezone=user_timezone(client, user) if _subscribing(text) else None,
        )
        reply = dispatch.run(services, caller, text)
        if reply.template in VIEWS:
            view = services.renderer.view(reply.template, **reply.context)
            client.views_open(trigger_id=command["trigger_id"], view=view)
            return
        deliver(services, respond, reply)

    app.command(dispatch.COMMAND)(ack=acknowledge, lazy=[answer])


def user_timezone(client: WebClient, user: str) -> str | None:
    """The user's Slack time zone: a digest defaults to the subscriber's Monday morning."""
    try:
        zone = client.users_info(user=user)["user"].get("tz")
    except (SlackApiError, KeyError, TypeError):
        return None
    return zone if isinstance(zone, str) else None


def _subscribing(text: str) -> bool:
    return " ".join(text.lower().split()[:2]) == "digest subscribe"


def deliver(services: Services, respond: Respond, reply: Reply) -> None:
    if reply.template in ("digest_subscribed", "digest_unsubscribed"):
        services.subscriptions_changed()
    ephemeral = reply.template not in IN_CHANNEL
    respond_with(respond, render(services.renderer, reply), ephemeral=ephemeral)
