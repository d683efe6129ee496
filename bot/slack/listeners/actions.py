"""Buttons under an answer: save as quote, show chart, compare GPUs, share; and New quote.

Each button's value is the question it answers (see ``conversation.actions_for``),
so a click works on any replica, long after the message was posted. A click
on a message in a thread answers in that thread; a click on a private
(ephemeral) answer answers privately through the click's response_url. Each
acks at once, works its answer out and leaves the calls to Slack to the
courier; what goes wrong (a stale button, a channel the bot is not in) is the
app's one error handler's to say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from slack_bolt import Ack, App
from slack_sdk import WebClient

from bot.commands.answers import compare_reply
from bot.conversation import Reply, answer_question, decode_question, start_thread
from bot.render.charts import cost_chart, growth_chart
from bot.services import Services
from bot.slack.delivery import (
    Courier,
    Respond,
    Way,
    post_in_thread,
    render,
    respond_with,
    send_in_thread,
)
from bot.slack.listeners.views import quote_modal, team_of
from core.curves import cost_curve, growth_curve
from core.errors import InputError
from core.estimate import estimate
from core.sizing import size
from core.traffic import Traffic
from storage.threads import ThreadKey


def register(app: App, services: Services, courier: Courier) -> None:
    def save_quote(body: dict[str, Any]) -> Send:
        view = quote_modal(services, question=decode_question(_value(body)))
        return lambda way: way.client.views_open(trigger_id=body["trigger_id"], view=view)

    def new_quote(body: dict[str, Any]) -> Send:
        view = quote_modal(services, question=None)
        return lambda way: way.client.views_open(trigger_id=body["trigger_id"], view=view)

    def show_chart(body: dict[str, Any]) -> Send:
        question = decode_question(_value(body))
        engine = services.engines.current()
        today = services.clock().date()
        if isinstance(question, Traffic):
            sizing = size(question, engine, today=today)
            kind, png = "growth", growth_chart(growth_curve(sizing))
        else:
            kind, png = "cost", cost_chart(cost_curve(estimate(question, engine, today=today)))
        title = services.renderer.text("chart_title", kind=kind)
        comment = services.renderer.message("chart_posted", title=title, user_id=body["user"]["id"])
        channel, thread_ts = _where(body)
        return lambda way: way.client.files_upload_v2(
            channel=channel,
            thread_ts=thread_ts,
            content=png,
            filename="leasewise-chart.png",
            title=title,
            initial_comment=comment.text,
        )

    def compare_gpus(body: dict[str, Any]) -> Send:
        question = decode_question(_value(body))
        today = services.clock().date()
        reply = compare_reply(services.engines.current(), question, [], today=today)
        return _answer_click(services, body, reply)

    def share_answer(body: dict[str, Any]) -> Send:
        question = decode_question(_value(body))
        reply = answer_question(
            services.engines.current(),
            question,
            today=services.clock().date(),
            shared_by=str(body["user"]["id"]),
        )
        channel, _ = _where(body)
        message = render(services.renderer, reply)

        def post_and_follow(way: Way) -> None:
            ts = post_in_thread(way.client, message, channel=channel, thread_ts=None)
            key = ThreadKey(workspace_id=team_of(body), channel_id=channel, thread_ts=ts)
            with services.sessions.begin() as session:
                start_thread(session, key, question, services.clock)

        return post_and_follow

    for work in (save_quote, new_quote, show_chart, compare_gpus, share_answer):
        app.action(work.__name__)(_clicked(work, courier))


Send = Callable[[Way], object]
"""What a click's answer still has to do once worked out: the calls to Slack."""


def _clicked(work: Callable[[dict[str, Any]], Send], courier: Courier) -> Callable[..., None]:
    """The listener for a button: ack, work the answer out, hand the sending to the courier."""

    def listener(ack: Ack, body: dict[str, Any], respond: Respond, client: WebClient) -> None:
        ack()
        way = Way(body, respond, client)
        send = work(body)
        courier.send(lambda: send(way), way)

    listener.__name__ = work.__name__
    return listener


def _answer_click(services: Services, body: dict[str, Any], reply: Reply) -> Send:
    """In the click's thread; privately if the click was on a private answer, except a
    file, which cannot be private: it goes to the channel."""
    message = render(services.renderer, reply)
    container = body.get("container", {})
    private = container.get("is_ephemeral") or "message" not in body
    if private and reply.file is None:
        return lambda way: respond_with(way.respond, message, ephemeral=True)
    channel, thread_ts = _where(body)
    return lambda way: send_in_thread(
        way.client, message, file=reply.file, channel=channel, thread_ts=thread_ts
    )


def _value(body: dict[str, Any]) -> str:
    return str(body["actions"][0].get("value", ""))


def _where(body: dict[str, Any]) -> tuple[str, str | None]:
    """The channel clicked in, and the thread to answer in (None for a private answer)."""
    container = body.get("container", {})
    channel = (body.get("channel") or {}).get("id") or container.get("channel_id")
    if not channel:
        raise InputError(
            "this button only works under an answer in a channel",
            hint="ask in a channel, e.g. /lease ask Kimi K3 on 16x B300, batch 64",
        )
    message = body.get("message")
    if container.get("is_ephemeral") or not message:
        return str(channel), None
    return str(channel), str(message.get("thread_ts") or message["ts"])
