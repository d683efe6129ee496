"""Getting a rendered reply back to Slack: on threads of its own, with the same patience everywhere.

Three ways out: a response_url (a command's or a click's: ephemeral or in
channel, no bot membership needed), a post in a thread, and a direct message.
Overflow (more than one message's worth of blocks) follows in the same place.
A reply that hands over a file (``Reply.file``, a quote's PDF) is uploaded with
files_upload_v2 instead, its text the file's comment: a file cannot be private, so
it goes to the conversation (the thread, when the reply is in one).

Every call to Slack that a listener makes goes through the ``Courier``: a pool
of ``COURIER_THREADS`` threads that only ever wait on Slack, so a response_url
that takes 5 s or a chat.postMessage waiting out a 429 holds a courier thread,
never a thread that acks (see ``bot.slack.app``). A thread asleep on a socket
or a Retry-After costs no CPU, so the pool can be wide; past its width, sends
wait in its queue (a rendered message each, a few kB).

Every way out retries alike: the Web API client and the response_url client
both wait out a 429 for its Retry-After and retry a 500/503 or a dropped
connection (``retry_handlers``). Bolt's own ``respond()`` makes a bare
``WebhookClient`` and returns Slack's refusal instead of raising it, so an
answer would be lost without a trace; ``ResponseUrl`` replaces it and raises
``ResponseUrlRefused`` once the retries are spent. A send that fails is handed
to ``on_failure`` (the app's one error path, ``bot.slack.errors``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from slack_sdk import WebClient
from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)
from slack_sdk.http_retry.handler import RetryHandler
from slack_sdk.webhook import WebhookClient, WebhookResponse

from bot.conversation import Reply
from bot.render.document import Attachment
from bot.render.renderer import Message, Renderer

RESPONSE_URL_TIMEOUT_S = 30
"""As long as the Web API client waits: a response_url stays valid for 30 minutes."""
COURIER_THREADS = 32
"""Enough for 20 answers to wait out a slow Slack side by side; each costs a stack, not CPU."""

Respond = Callable[..., Any]
log = logging.getLogger("leasewise.slack")


@dataclass(frozen=True)
class Way:
    """The way back to whoever sent a request: its body, its respond(), the Web API client."""

    body: dict[str, Any]
    respond: Respond
    client: WebClient


Failure = Callable[[Exception, Way], None]


def courier_pool() -> Executor:
    return ThreadPoolExecutor(max_workers=COURIER_THREADS, thread_name_prefix="leasewise-courier")


class Courier:
    """Sends to Slack on the courier's own threads; a failed send goes to ``on_failure``."""

    def __init__(self, pool: Executor, on_failure: Failure) -> None:
        self._pool = pool
        self._on_failure = on_failure

    def send(
        self, work: Callable[[], object], way: Way, *, on_failure: Failure | None = None
    ) -> None:
        """Run ``work`` (calls to Slack, and what must follow them) on a courier thread."""
        self._pool.submit(self._run, work, way, on_failure or self._on_failure)

    @staticmethod
    def _run(work: Callable[[], object], way: Way, on_failure: Failure) -> None:
        try:
            work()
        except Exception as error:  # noqa: BLE001 - handed to the app's one error path
            try:
                on_failure(error, way)
            except Exception:  # noqa: BLE001 - that path itself broke; keep the trace
                log.exception("the error path failed on %r", error)


def retry_handlers(retries: int) -> list[RetryHandler]:
    """What every client that talks to Slack retries, ``retries`` times each."""
    return [
        ConnectionErrorRetryHandler(max_retry_count=retries),
        RateLimitErrorRetryHandler(max_retry_count=retries),
        ServerErrorRetryHandler(max_retry_count=retries),
    ]


class ResponseUrlRefused(Exception):
    """Slack would not take a message at a response_url, even after the retries."""

    def __init__(self, status: int, body: str) -> None:
        super().__init__(f"response_url answered HTTP {status}: {body[:200]!r}")
        self.status = status


class ResponseUrl:
    """Bolt's ``respond()`` for one request, retrying like the Web API client."""

    def __init__(self, response_url: str | None, *, handlers: Sequence[RetryHandler]) -> None:
        self.response_url = response_url
        self._handlers = list(handlers)

    def __call__(
        self,
        text: str = "",
        blocks: Sequence[dict[str, Any]] | None = None,
        response_type: str | None = None,
        replace_original: bool | None = None,
        **more: Any,
    ) -> WebhookResponse:
        if self.response_url is None:
            raise ValueError("this request has no response_url to answer through")
        fields = {
            "text": text,
            "blocks": blocks,
            "response_type": response_type,
            "replace_original": replace_original,
            **more,
        }
        client = WebhookClient(
            self.response_url, timeout=RESPONSE_URL_TIMEOUT_S, retry_handlers=self._handlers
        )
        sent = client.send_dict({k: v for k, v in fields.items() if v is not None})
        if sent.status_code != 200:
            raise ResponseUrlRefused(sent.status_code, sent.body or "")
        return sent


def render(renderer: Renderer, reply: Reply) -> Message:
    return renderer.message(reply.template, **reply.context)


def respond_with(respond: Respond, message: Message, *, ephemeral: bool) -> None:
    """Answer through a response_url (slash commands and clicks)."""
    kind = "ephemeral" if ephemeral else "in_channel"
    for part in (message, *message.overflow):
        respond(text=part.text, blocks=part.blocks, response_type=kind, replace_original=False)


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


def upload(
    client: WebClient,
    file: Attachment,
    comment: Message,
    *,
    channel: str,
    thread_ts: str | None,
) -> None:
    """A reply's file in the channel (in the thread if ``thread_ts``), the reply's text
    as its comment; a bot not in the channel is refused (``not_in_channel``)."""
    client.files_upload_v2(
        channel=channel,
        thread_ts=thread_ts,
        content=file.content,
        filename=file.filename,
        title=file.title,
        initial_comment=comment.text,
    )


def send_in_thread(
    client: WebClient,
    message: Message,
    *,
    file: Attachment | None,
    channel: str,
    thread_ts: str | None,
) -> None:
    """A reply in a thread: its file uploaded there if it has one, else posted."""
    if file is not None:
        upload(client, file, message, channel=channel, thread_ts=thread_ts)
    else:
        post_in_thread(client, message, channel=channel, thread_ts=thread_ts)


def direct_message(client: WebClient, message: Message, *, user: str) -> None:
    """A message in the user's conversation with the app (a form's outcome, say)."""
    post_in_thread(client, message, channel=user, thread_ts=None)
