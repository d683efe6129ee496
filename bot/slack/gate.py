"""The door of ``/slack/events``: what a request must be before anything parses it.

In order, each check cheaper than what it protects:

1. **Size.** Nothing Slack sends comes near ``MAX_BODY_BYTES``: a slash command
   is a few kB, an event carries one message (at most 40,000 characters of
   text plus 50 blocks), and the largest, a view submission, carries its
   modal (at most 100 blocks) and the values typed into it; a few hundred kB
   in the worst case. A larger declared ``Content-Length`` is refused with 413
   before a byte of the body is read, and a chunked body is refused the moment
   it passes the cap, so a stranger cannot make the app buffer 10 MB to learn
   that it is unsigned.
2. **Signature and timestamp**, by ``slack_sdk``'s ``SignatureVerifier`` on the
   raw bytes: anything unsigned, forged, replayed, not UTF-8 or with a
   timestamp that is not a number gets 401, before any parsing and without a
   traceback. Bolt verifies again on its own; this one stands in front so
   that junk never reaches a parser.
3. **Shape**, read the way Bolt will read it: a JSON object, or a UTF-8 form
   that is a slash command, an interaction whose ``payload`` is a JSON object,
   or Slack's ``ssl_check``. Anything else is 400: Slack signed it, so the
   sender deserves to know it was malformed, not a 500.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from urllib.parse import parse_qs, parse_qsl

from slack_bolt.adapter.starlette.handler import to_bolt_request
from slack_bolt.context import BoltContext
from slack_bolt.request import BoltRequest
from slack_bolt.request.internals import build_context
from slack_sdk.signature import SignatureVerifier
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

MAX_BODY_BYTES = 1024 * 1024
"""1 MiB: several times Slack's largest payload, a small fraction of the app's memory."""
FORM_KINDS = ("command", "payload", "ssl_check")
"""The fields a form from Slack is one of: a slash command, an interaction, a TLS check."""

log = logging.getLogger("leasewise.serve")


@dataclass(frozen=True)
class Gate:
    verifier: SignatureVerifier
    max_bytes: int = MAX_BODY_BYTES

    @classmethod
    def for_secret(cls, signing_secret: str) -> Gate:
        return cls(SignatureVerifier(signing_secret))

    async def admit(self, request: Request) -> bytes | Response:
        """The body, if it may go on to Bolt; else the refusal to send instead."""
        declared = request.headers.get("content-length")
        if declared is not None and not declared.strip().isdigit():
            return _refuse(400, "Content-Length is not a number")
        if declared is not None and int(declared) > self.max_bytes:
            return _refuse(413, f"request body over {self.max_bytes} bytes")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > self.max_bytes:
                return _refuse(413, f"request body over {self.max_bytes} bytes")
        raw = bytes(body)
        if not self._signed(raw, request):
            log.debug("refused an unsigned request to %s", request.url.path)
            return _refuse(401, "invalid request")
        problem = malformed(raw, request.headers.get("content-type", ""))
        if problem is not None:
            log.warning("refused a signed but malformed request: %s", problem)
            return _refuse(400, f"malformed request: {problem}")
        return raw

    def _signed(self, raw: bytes, request: Request) -> bool:
        try:
            return self.verifier.is_valid_request(raw, dict(request.headers))
        except ValueError:  # a timestamp that is not a number, a body that is not UTF-8
            return False


def bolt_request(request: Request, raw: bytes) -> BoltRequest:
    """The admitted body as Bolt's request, read as a slash command when it is one.

    Bolt's ``parse_body`` takes any form whose text contains the word "payload" for an
    interaction, so ``/lease what payload sizes fit on B300?`` would reach no listener at
    all; a form with a ``command`` field and no ``payload`` field is a slash command.
    """
    bolt = to_bolt_request(request, raw)
    if bolt.body or not raw:
        return bolt
    form = dict(parse_qsl(raw.decode("utf-8"), keep_blank_values=True))
    if "command" in form and "payload" not in form:
        bolt.body = form
        bolt.context = build_context(BoltContext(), form)
    return bolt


def malformed(raw: bytes, content_type: str) -> str | None:
    """Why Bolt could not read this signed body, or None; decided as Bolt's ``parse_body``
    does. Signed means UTF-8: the verifier cannot check a body it cannot decode."""
    text = raw.decode("utf-8")
    if not text.strip():
        return "the body is empty"
    kind = content_type.split(";")[0].strip().lower()
    if kind == "application/json" or text.startswith("{"):
        return _not_an_object(text, "the body")
    try:
        form = parse_qs(text, keep_blank_values=True, strict_parsing=True, errors="strict")
    except ValueError:
        return "the form encoding is broken"
    if "payload" in form:
        return _not_an_object(form["payload"][0], "the payload field")
    if not any(name in form for name in FORM_KINDS):
        return "a form with neither a command nor a payload"
    return None


def _not_an_object(text: str, what: str) -> str | None:
    try:
        value = json.loads(text)
    except ValueError:
        return f"{what} is not JSON"
    return None if isinstance(value, dict) else f"{what} is not a JSON object"


def _refuse(status: int, reason: str) -> Response:
    return JSONResponse({"error": reason}, status_code=status)
