"""Requests as Slack sends them to the bot: signed, and shaped like the real payloads.

The bot must reject anything not signed with its signing secret, so end-to-end tests need
to produce the exact bytes and headers Slack would; these helpers keep that in one place.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import httpx

FORM = "application/x-www-form-urlencoded"
JSON = "application/json"

# Slack still sends the deprecated verification token; Bolt ignores it when signing is on.
VERIFICATION_TOKEN = "gIkuvaNzQIHg97ATvDxqgjtO"
DEFAULT_RESPONSE_URL = "https://hooks.slack.com/commands/T0001/1234567890/0123456789abcdef"
DEFAULT_TRIGGER_ID = "13345224609.738474920.8088930838d88f008e0"


def sign(secret: str, body: str, timestamp: int | None = None) -> dict[str, str]:
    """Headers proving ``body`` came from Slack; an old ``timestamp`` makes a replay."""
    ts = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"v0:{ts}:{body}".encode(), hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": str(ts), "X-Slack-Signature": f"v0={digest}"}


def slash_command_body(
    command: str = "/lease",
    text: str = "",
    user_id: str = "U0SALES",
    channel_id: str = "C0DEALS",
    team_id: str = "T0001",
    response_url: str = DEFAULT_RESPONSE_URL,
    trigger_id: str = DEFAULT_TRIGGER_ID,
) -> str:
    """Field for field and in Slack's order, so parsing quirks (``+`` for spaces, an
    encoded ``/`` in the command) are the ones the bot meets in production."""
    return urlencode(
        {
            "token": VERIFICATION_TOKEN,
            "team_id": team_id,
            "team_domain": "leasewise-test",
            "channel_id": channel_id,
            "channel_name": "deals",
            "user_id": user_id,
            "user_name": "sales.rep",
            "command": command,
            "text": text,
            "api_app_id": "A0LEASE",
            "is_enterprise_install": "false",
            "response_url": response_url,
            "trigger_id": trigger_id,
        }
    )


def event_body(
    event: dict[str, Any],
    *,
    event_id: str = "Ev0001",
    team_id: str = "T0001",
    api_app_id: str = "A0LEASE",
    bot_user_id: str = "U0BOT",
    event_time: int | None = None,
) -> str:
    """An Events API ``event_callback`` envelope; Bolt reads ``authorizations`` to learn
    which bot it is, so that part cannot be left out."""
    return json.dumps(
        {
            "token": VERIFICATION_TOKEN,
            "team_id": team_id,
            "context_team_id": team_id,
            "context_enterprise_id": None,
            "api_app_id": api_app_id,
            "event": event,
            "type": "event_callback",
            "event_id": event_id,
            "event_time": int(time.time()) if event_time is None else event_time,
            "authorizations": [
                {
                    "enterprise_id": None,
                    "team_id": team_id,
                    "user_id": bot_user_id,
                    "is_bot": True,
                    "is_enterprise_install": False,
                }
            ],
            "is_ext_shared_channel": False,
        }
    )


def interaction_body(payload: dict[str, Any]) -> str:
    """Interactions (block_actions, view_submission) arrive as a form with one JSON field."""
    return urlencode({"payload": json.dumps(payload)})


def url_verification_body(challenge: str) -> str:
    return json.dumps(
        {"token": VERIFICATION_TOKEN, "challenge": challenge, "type": "url_verification"}
    )


@dataclass
class SignedPoster:
    """Plays Slack's side against a running bot at ``base_url``.

    One connection pool for every request, as Slack keeps its connections: a fresh
    client per request would spend more CPU on client setup than the bot spends on
    its ack, and the tests time acks. Safe to share between threads.
    """

    base_url: str
    signing_secret: str
    path: str = "/slack/events"
    timeout: float = 10.0
    _client: httpx.Client = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._client = httpx.Client(timeout=self.timeout, limits=httpx.Limits(max_connections=50))

    def close(self) -> None:
        self._client.close()

    def post(
        self,
        path: str,
        body: str,
        content_type: str,
        *,
        timestamp: int | None = None,
        headers: dict[str, str] | None = None,
        signature: str | None = None,
    ) -> httpx.Response:
        """``signature`` replaces the real one, for tests that the bot turns forgeries away."""
        sent = {"Content-Type": content_type, **sign(self.signing_secret, body, timestamp)}
        if signature is not None:
            sent["X-Slack-Signature"] = signature
        sent.update(headers or {})
        url = self.base_url.rstrip("/") + "/" + path.lstrip("/")
        return self._client.post(url, content=body.encode(), headers=sent)

    def command(self, text: str = "", **kw: Any) -> httpx.Response:
        return self.post(self.path, slash_command_body(text=text, **kw), FORM)

    def event(
        self,
        event: dict[str, Any],
        *,
        retry_num: int | None = None,
        retry_reason: str | None = None,
        **kw: Any,
    ) -> httpx.Response:
        """``retry_num``/``retry_reason`` mark a redelivery, as Slack does when the first
        delivery was not acknowledged within three seconds."""
        headers = {}
        if retry_num is not None:
            headers["X-Slack-Retry-Num"] = str(retry_num)
        if retry_reason is not None:
            headers["X-Slack-Retry-Reason"] = retry_reason
        return self.post(self.path, event_body(event, **kw), JSON, headers=headers)

    def interaction(self, payload: dict[str, Any]) -> httpx.Response:
        return self.post(self.path, interaction_body(payload), FORM)

    def url_verification(self, challenge: str) -> httpx.Response:
        return self.post(self.path, url_verification_body(challenge), JSON)
