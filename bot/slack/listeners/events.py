"""@mentions start a thread; messages in that thread edit its question.

A channel post that mentions the bot arrives twice (``app_mention`` and
``message``) and Slack retries events it thinks went unanswered. The mention
listener owns mentions; the message listener skips anything that mentions the
bot, anything from a bot (itself included) and anything outside a thread. Both
mark the event (and the message) processed in the same transaction as the
thread's edit, so a retry or a second replica finds it done. That transaction
commits before the answer is posted: Slack does not redeliver an event that was
acknowledged, so holding it open across the post would only block other writers
(on SQLite, all of them) while Slack makes us wait; the courier posts it. A bad
edit or a post that fails reaches the app's one error handler, which answers in
the thread (``bot.slack.errors``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from slack_bolt import App, BoltContext
from slack_sdk import WebClient
from sqlalchemy.orm import Session

from bot.conversation import Reply, answer, follow_up, start_thread
from bot.services import Services
from bot.slack.delivery import Courier, Respond, Way, render, send_in_thread
from core.perf.engine import PerfEngine
from storage import events as processed
from storage.threads import ThreadKey

REMEMBER_EVENTS = timedelta(days=2)
"""Slack retries for about an hour; two days covers a long outage's redelivery."""
_MENTION = re.compile(r"<@[UW][A-Z0-9]+(?:\|[^>]*)?>")
IGNORED_SUBTYPES = frozenset(
    {"bot_message", "message_changed", "message_deleted", "channel_join", "channel_leave"}
)


def register(app: App, services: Services, courier: Courier) -> None:
    @app.event("app_mention")
    def on_mention(
        event: dict[str, Any], body: dict[str, Any], respond: Respond, client: WebClient
    ) -> None:
        if event.get("bot_id"):
            return
        text = _MENTION.sub(" ", event.get("text", "")).strip()
        _handle(services, courier, Way(body, respond, client), text, _mentioned)

    @app.event("message")
    def on_message(
        event: dict[str, Any],
        body: dict[str, Any],
        respond: Respond,
        client: WebClient,
        context: BoltContext,
    ) -> None:
        if _not_for_us(event, context):
            return
        _handle(services, courier, Way(body, respond, client), event.get("text", ""), _followed)


Act = Callable[[Services, PerfEngine, Session, ThreadKey, str, str], Reply | None]
"""What a listener does inside the event's transaction: answer, or edit the thread."""


def _followed(
    services: Services, engine: PerfEngine, session: Session, key: ThreadKey, text: str, user: str
) -> Reply | None:
    return follow_up(engine, session, key, text, services.clock, user_id=user)


def _mentioned(
    services: Services, engine: PerfEngine, session: Session, key: ThreadKey, text: str, user: str
) -> Reply:
    """A mention in a thread leasewise already answers is a follow-up; else a new question."""
    followed = follow_up(engine, session, key, text, services.clock, user_id=user)
    if followed is not None:
        return followed
    reply = answer(engine, text, today=services.clock().date())
    if reply.question is not None:
        start_thread(session, key, reply.question, services.clock)
    return reply


def _handle(services: Services, courier: Courier, way: Way, text: str, act: Act) -> None:
    event = way.body.get("event") or {}
    key = _thread(way.body, event)
    # Fetched before the transaction: on SQLite, reading the engine's additions inside
    # it would wait on the write lock this very transaction holds.
    engine = services.engines.current()
    now = services.clock()
    with services.sessions.begin() as session:
        first = processed.mark_processed(
            session, processed.event_key(way.body.get("event_id", "")), now + REMEMBER_EVENTS
        )
        first = first and processed.mark_processed(
            session,
            processed.message_key(key.channel_id, event.get("ts", "")),
            now + REMEMBER_EVENTS,
        )
        if not first:
            return
        reply = act(services, engine, session, key, text, event.get("user") or "")
        message = None if reply is None else render(services.renderer, reply)
    # Committed before posting: the post may wait out a 429 for many seconds, and on
    # SQLite an open transaction would hold every other writer back that long.
    if reply is not None and message is not None:
        file = reply.file
        courier.send(
            lambda: send_in_thread(
                way.client, message, file=file, channel=key.channel_id, thread_ts=key.thread_ts
            ),
            way,
        )


def _not_for_us(event: dict[str, Any], context: BoltContext) -> bool:
    if event.get("subtype") in IGNORED_SUBTYPES or event.get("bot_id"):
        return True
    if event.get("user") in (context.bot_user_id, None) or "thread_ts" not in event:
        return True
    return f"<@{context.bot_user_id}" in event.get("text", "")


def _thread(body: dict[str, Any], event: dict[str, Any]) -> ThreadKey:
    return ThreadKey(
        workspace_id=body.get("team_id") or event.get("team", ""),
        channel_id=event.get("channel", ""),
        thread_ts=event.get("thread_ts") or event.get("ts", ""),
    )
