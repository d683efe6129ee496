"""One way out for every failure: Bolt's ``@app.error``, and ``report`` for the courier's.

What the person is told depends on what failed, never on which listener it
failed in:

- a product error (``InputError``, ``StorageError``, an admin's ``CatalogError``):
  the friendly ``error`` reply, naming the field, with an example that works;
- Slack refusing to post where asked (``not_in_channel``, ``channel_not_found``,
  ``is_archived``): ``cannot_post``, which says to invite the bot first;
- a response_url still refusing after its retries: the way back is what failed,
  so the log line, with a reference id, is all there is;
- anything else: the ``apology`` with a fresh reference id, and the same id on
  the log line that carries the traceback.

The reply goes back the way the request came: while Slack waits on a form
submission, as ``response_action: errors`` next to the input it concerns (the
form stays open, nothing typed is lost); else through the request's
response_url (a command, a click); else in the thread of a mention or
follow-up; else as a direct message to whoever submitted the form. It is sent
by the courier, like every other reply; a failure while sending a reply comes
back here from the courier (``report``), and a reply about a failure that
cannot be sent either is logged, never retried in a loop.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from slack_bolt import App, BoltResponse
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.conversation import error_reply
from bot.render.renderer import Message, Renderer
from bot.services import Services
from bot.slack.delivery import (
    Courier,
    Failure,
    Respond,
    ResponseUrlRefused,
    Way,
    direct_message,
    post_in_thread,
    render,
    respond_with,
)
from core.errors import CatalogError, InputError
from storage.errors import StorageError

CHANNEL_ERRORS = frozenset({"not_in_channel", "channel_not_found", "is_archived"})
"""Slack's answers when the bot may not post where it was asked to."""
FORM_ERROR_CHARS = 2000
THREADED_EVENTS = frozenset({"app_mention", "message"})

log = logging.getLogger("leasewise.slack")


def register(app: App, services: Services, courier: Courier) -> None:
    @app.error
    def on_error(
        error: Exception,
        body: dict[str, Any],
        respond: Respond,
        client: WebClient,
        response: BoltResponse | None,
    ) -> BoltResponse | None:
        # Bolt passes the response it is about to send while Slack still waits for the
        # ack (a form being submitted), and None once the request was acknowledged.
        way = Way(body, respond, client)
        reference = uuid.uuid4().hex[:8]
        in_form = response is not None and body.get("type") == "view_submission"
        try:
            message = _message_for(services.renderer, error, way, reference, in_form=in_form)
            if message is None:
                return None
            if in_form:
                refusal = form_errors(body.get("view") or {}, error, message)
                if refusal is not None:
                    return refusal
            tell_later = _undelivered(reference, error)
            courier.send(lambda: tell(message, way), way, on_failure=tell_later)
        except Exception as again:  # noqa: BLE001 - Bolt would drop it; the log keeps it
            _undelivered(reference, error)(again, way)
            return None
        return None if response is None else BoltResponse(status=200, body="")


def report(renderer: Renderer, error: Exception, way: Way) -> None:
    """The courier's failures: say what went wrong, from the courier thread it failed on."""
    reference = uuid.uuid4().hex[:8]
    message = _message_for(renderer, error, way, reference, in_form=False)
    if message is None:
        return
    try:
        tell(message, way)
    except Exception as again:  # noqa: BLE001 - nothing reached the person; the log remains
        _undelivered(reference, error)(again, way)


def _undelivered(reference: str, error: Exception) -> Failure:
    def log_it(again: Exception, way: Way) -> None:
        log.error(
            "reference %s: %s: the reply about %r was not delivered either: %s",
            reference, describe(way.body), error, again,
        )

    return log_it


def _message_for(
    renderer: Renderer, error: Exception, way: Way, reference: str, *, in_form: bool
) -> Message | None:
    """What to tell the person (None: nothing can reach them); logs what the team needs."""
    what = describe(way.body)
    if isinstance(error, InputError | StorageError):
        if in_form:  # shown under the input itself, which needs no naming
            return renderer.message("error", message=error.message, field=None, hint=error.hint)
        return render(renderer, error_reply(error))
    if isinstance(error, CatalogError):
        return renderer.message("error", message=str(error), field=None, hint=None)
    if isinstance(error, SlackApiError) and error.response.get("error") in CHANNEL_ERRORS:
        log.info("%s: Slack said %r", what, error.response.get("error"))
        return renderer.message("cannot_post")
    if isinstance(error, ResponseUrlRefused):
        log.error("reference %s: %s: the answer was not delivered: %s", reference, what, error)
        return None
    detail = ""
    if isinstance(error, SlackApiError):
        detail = f" (Slack said {error.response.get('error')!r})"
    log.error("reference %s: %s failed%s", reference, what, detail, exc_info=error)
    return renderer.message("apology", reference=reference)


def form_errors(view: dict[str, Any], error: Exception, message: Message) -> BoltResponse | None:
    """The message under the input it concerns (else the first), so the form stays open."""
    inputs = [
        str(block["block_id"])
        for block in view.get("blocks", [])
        if block.get("type") == "input" and block.get("block_id")
    ]
    if not inputs:
        return None
    field = getattr(error, "field", None)
    block = field if field in inputs else inputs[0]
    text = message.console_text()[:FORM_ERROR_CHARS]
    return BoltResponse(status=200, body={"response_action": "errors", "errors": {block: text}})


def tell(message: Message, way: Way) -> None:
    """Send ``message`` back the way the request came (see the module's docstring)."""
    if getattr(way.respond, "response_url", None):
        respond_with(way.respond, message, ephemeral=True)
        return
    event = way.body.get("event") or {}
    if event.get("type") in THREADED_EVENTS and event.get("channel"):
        thread_ts = event.get("thread_ts") or event.get("ts")
        post_in_thread(way.client, message, channel=str(event["channel"]), thread_ts=thread_ts)
        return
    user = (way.body.get("user") or {}).get("id")
    if user:
        direct_message(way.client, message, user=str(user))
        return
    log.warning("%s: nowhere to tell anyone: %s", describe(way.body), message.text[:200])


def describe(body: dict[str, Any]) -> str:
    """The request, in the few words a log line needs to find it again."""
    if "command" in body:
        return f"{body['command']} {str(body.get('text', ''))[:200]!r} from {body.get('user_id')}"
    user = (body.get("user") or {}).get("id")
    kind = body.get("type")
    if kind == "block_actions":
        action = (body.get("actions") or [{}])[0].get("action_id")
        return f"button {action} from {user}"
    if kind == "view_submission":
        return f"form {(body.get('view') or {}).get('callback_id')} from {user}"
    event = body.get("event") or {}
    return f"event {body.get('event_id')} ({event.get('type')}) in {event.get('channel')}"
