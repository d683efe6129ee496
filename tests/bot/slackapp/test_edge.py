"""The HTTP door, knocked on by strangers: too big, unsigned, signed but malformed.

Nothing here may cost the app more than a refusal: no 500, no traceback in the log,
no 10 MB buffered to find out that it was unsigned, and the server answers the next
real request as before.
"""

from __future__ import annotations

import json
import logging
import socket
import time
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from bot.slack.gate import MAX_BODY_BYTES
from tests.bot.slackapp.conftest import SECRET, Running
from tests.fakes.signing import FORM, JSON, SignedPoster, interaction_body, sign
from tests.fakes.slack_api import FakeSlack

TEN_MB = 10 * 1024 * 1024
REFUSAL_DEADLINE_S = 10.0
"""Generous for a loaded machine; a server that waited for the whole body would never
answer at all, since the rest of the body is never sent."""


def raw_request(server: Running, head: str, first_part: bytes) -> str:
    """Send ``head`` and the start of a body, never the rest; the status line that comes back."""
    where = urlsplit(server.url)
    assert where.hostname is not None and where.port is not None
    with socket.create_connection((where.hostname, where.port), timeout=REFUSAL_DEADLINE_S) as s:
        s.sendall(head.encode() + first_part)
        answer = b""
        while b"\r\n" not in answer:
            chunk = s.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0].decode()


def still_serving(poster: SignedPoster, slack: FakeSlack, server: Running) -> None:
    assert httpx.get(server.url + "/healthz", timeout=10).status_code == 200
    assert poster.command("help", response_url=slack.response_url("after")).status_code == 200
    slack.wait_for("response_url:after")


def no_tracebacks(caplog: Any) -> None:
    assert "Traceback" not in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def test_a_10_mb_unsigned_body_is_refused_before_it_is_read(
    server: Running, poster: SignedPoster, slack: FakeSlack, caplog: Any
) -> None:
    head = (
        "POST /slack/events HTTP/1.1\r\nHost: leasewise\r\n"
        f"Content-Type: {JSON}\r\nContent-Length: {TEN_MB}\r\n\r\n"
    )
    started = time.monotonic()
    status = raw_request(server, head, b'{"type": "event_callback", "pad": "' + b"x" * 16_384)
    assert status.split(" ")[1] == "413", status
    assert time.monotonic() - started < REFUSAL_DEADLINE_S
    still_serving(poster, slack, server)
    no_tracebacks(caplog)


def test_a_chunked_body_is_refused_once_it_passes_the_cap(
    server: Running, poster: SignedPoster, slack: FakeSlack, caplog: Any
) -> None:
    head = (
        "POST /slack/events HTTP/1.1\r\nHost: leasewise\r\n"
        f"Content-Type: {JSON}\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    piece = b"x" * 65_536
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for _ in range(17))
    assert len(chunks) > MAX_BODY_BYTES  # and the closing zero-length chunk never comes
    status = raw_request(server, head, chunks)
    assert status.split(" ")[1] == "413", status
    still_serving(poster, slack, server)
    no_tracebacks(caplog)


@pytest.mark.parametrize(
    ("body", "content_type", "headers"),
    [
        ('{"type": "event_callback", "event": ', JSON, {}),
        ("%%%&&==&payload=%7B", FORM, {}),
        ("\xff\xfe not even text", FORM, {}),
        ("command=%2Flease&text=help", FORM, {"X-Slack-Request-Timestamp": "abc"}),
        ("command=%2Flease&text=help", FORM, {"X-Slack-Request-Timestamp": ""}),
    ],
    ids=["bad-json", "bad-form", "not-utf8", "timestamp-abc", "timestamp-empty"],
)
def test_unsigned_or_badly_stamped_bodies_get_401_without_a_traceback(
    server: Running, caplog: Any, body: str, content_type: str, headers: dict[str, str]
) -> None:
    sent = {"Content-Type": content_type, "X-Slack-Signature": "v0=" + "0" * 64, **headers}
    sent.setdefault("X-Slack-Request-Timestamp", str(int(time.time())))
    response = httpx.post(
        server.url + "/slack/events", content=body.encode("latin-1"), headers=sent, timeout=10
    )
    assert response.status_code == 401, response.text
    no_tracebacks(caplog)


def test_a_real_signature_with_an_abc_timestamp_is_401(server: Running, caplog: Any) -> None:
    body = "command=%2Flease&text=help"
    signed = sign(SECRET, body)
    signed["X-Slack-Request-Timestamp"] = "abc"
    response = httpx.post(
        server.url + "/slack/events",
        content=body.encode(),
        headers={"Content-Type": FORM, **signed},
        timeout=10,
    )
    assert response.status_code == 401
    no_tracebacks(caplog)


@pytest.mark.parametrize(
    ("body", "content_type", "problem"),
    [
        ('{"type": "event_callback", "event": ', JSON, "not JSON"),
        ('["a", "list"]', JSON, "not a JSON object"),
        ("payload=%7Bnot+json", FORM, "payload field is not JSON"),
        ("a=1&&b", FORM, "form encoding"),
        ("team_id=T0001&user_id=U0SALES", FORM, "neither a command nor a payload"),
        ("", FORM, "empty"),
    ],
    ids=["bad-json", "json-list", "bad-payload", "bad-form", "no-payload", "empty"],
)
def test_signed_but_malformed_bodies_get_400_saying_why(
    poster: SignedPoster, caplog: Any, body: str, content_type: str, problem: str
) -> None:
    response = poster.post("/slack/events", body, content_type)
    assert response.status_code == 400, response.text
    assert problem in response.json()["error"]
    assert "Traceback" not in caplog.text


def test_a_well_formed_interaction_still_reaches_the_app(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    payload = {
        "type": "block_actions",
        "user": {"id": "U0SALES", "team_id": "T0001"},
        "team": {"id": "T0001"},
        "api_app_id": "A0LEASE",
        "trigger_id": "1.2.3",
        "actions": [{"action_id": "new_quote", "type": "button", "value": ""}],
    }
    response = poster.post("/slack/events", interaction_body(payload), FORM)
    assert response.status_code == 200
    assert json.dumps(slack.wait_for("views.open")[0].body["view"]).count("quote_modal") == 1
