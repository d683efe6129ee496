"""A local stand-in for Slack's Web API, so end-to-end tests can run the real ``slack_sdk``
client against something that answers like Slack without a network or a workspace.

It speaks HTTP on 127.0.0.1 so the whole client stack (urllib, retry handlers, response
parsing) is exercised, records every call for assertions, and can be told to fail the next
calls to a method the way Slack does (``ok: false`` with HTTP 200, HTTP 429 with
Retry-After, or HTTP 500), or to take its time answering (``delay``), as a slow Slack does.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

BOT_USER_ID = "U0BOT"
BOT_ID = "B0BOT"
TEAM_ID = "T0001"
WAIT_DEADLINE_S = 30.0
"""How long ``wait_for`` and ``wait_until`` wait by default: they return as soon as the
calls arrive, so the deadline only bounds a failure, and must outlast a rendering on a
loaded 2-core machine."""

# slack_sdk form-encodes these as JSON strings (e.g. files.completeUploadExternal's `files`);
# tests want to assert on their structure, not on their serialisation.
JSON_FORM_FIELDS = frozenset({"blocks", "attachments", "view", "files", "metadata"})


@dataclass(frozen=True)
class Call:
    """One request as Slack would have received it. Header names are lower-cased because
    urllib rewrites them (``Content-type``) and HTTP treats them case-insensitively."""

    method: str
    token: str | None
    body: dict[str, Any]
    headers: dict[str, str]
    at: float


@dataclass(frozen=True)
class _Fault:
    status: int
    error: str
    retry_after: int | None = None


@dataclass
class _Reply:
    status: int
    body: bytes
    content_type: str = "application/json; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def json(cls, payload: dict[str, Any], status: int = 200, **headers: str) -> _Reply:
        return cls(status, json.dumps(payload).encode(), headers=headers)

    @classmethod
    def text(cls, text: str, status: int = 200) -> _Reply:
        return cls(status, text.encode(), "text/plain; charset=utf-8")


class FakeSlack:
    """Slack's Web API, upload host and ``response_url`` endpoints on one local port."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.uploads: dict[str, bytes] = {}
        self.users: dict[str, dict[str, Any]] = {}
        self.channels: dict[str, dict[str, Any]] = {}
        self._cond = threading.Condition()
        self._faults: dict[str, deque[_Fault]] = {}
        self._delays: dict[str, float] = {}
        self._filenames: dict[str, str] = {}
        self._seq = itertools.count(1)
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -----------------------------------------------------------------------

    def start(self) -> FakeSlack:
        if self._server is not None:
            return self
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.fake = self
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="fake-slack",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeSlack:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("FakeSlack is not running; call start() or use it as a context")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def api_url(self) -> str:
        """The ``WebClient(base_url=...)`` value; slack_sdk urljoin()s method names onto it,
        so the trailing slash matters."""
        return f"{self.base_url}/api/"

    def response_url(self, name: str = "r1") -> str:
        return f"{self.base_url}/response/{name}"

    # -- assertions ----------------------------------------------------------------------

    def calls_to(self, method: str) -> list[Call]:
        with self._cond:
            return [c for c in self.calls if c.method == method]

    def answers(self, method: str) -> list[Call]:
        """The calls to ``method`` that post an answer, not the details posted under it."""
        return [c for c in self.calls_to(method) if not is_details(c.body)]

    def wait_for_answers(
        self, method: str, count: int = 1, timeout: float = WAIT_DEADLINE_S
    ) -> list[Call]:
        """``wait_for`` counting answers only: an answer's thread part (its caveats,
        sources and assumptions, ``answer_details``) follows it as a post of its own."""
        with self._cond:
            done = self._cond.wait_for(
                lambda: (
                    sum(c.method == method and not is_details(c.body) for c in self.calls) >= count
                ),
                timeout,
            )
            if not done:
                seen = "\n".join(f"  {c.method} {c.body!r}" for c in self.calls) or "  (none)"
                raise AssertionError(
                    f"expected {count} answer(s) via {method} within {timeout}s; got:\n{seen}"
                )
            return [c for c in self.calls if c.method == method and not is_details(c.body)]

    def wait_for(
        self, method: str, count: int = 1, timeout: float = WAIT_DEADLINE_S
    ) -> list[Call]:
        """Block until ``count`` calls to ``method`` arrived: the bot answers Slack first
        and does its Web API work afterwards, so a test cannot just look right away."""
        with self._cond:
            done = self._cond.wait_for(
                lambda: sum(c.method == method for c in self.calls) >= count, timeout
            )
            if not done:
                seen = "\n".join(f"  {c.method} {c.body!r}" for c in self.calls) or "  (none)"
                raise AssertionError(
                    f"expected {count} call(s) to {method} within {timeout}s; got:\n{seen}"
                )
            return [c for c in self.calls if c.method == method]

    def wait_until(
        self,
        condition: Callable[[list[Call]], bool],
        what: str,
        timeout: float = WAIT_DEADLINE_S,
    ) -> list[Call]:
        """Block until ``condition(calls so far)`` holds; the calls then. ``what`` names the
        condition in the failure, which lists every call seen."""
        with self._cond:
            if not self._cond.wait_for(lambda: condition(self.calls), timeout):
                seen = "\n".join(f"  {c.method} {c.body!r}" for c in self.calls) or "  (none)"
                raise AssertionError(f"expected {what} within {timeout}s; got:\n{seen}")
            return list(self.calls)

    def reset(self) -> None:
        """Forget calls, uploads, queued faults and delays; configured users and channels stay."""
        with self._cond:
            self.calls.clear()
            self.uploads.clear()
            self._faults.clear()
            self._delays.clear()
            self._filenames.clear()

    # -- fault injection -----------------------------------------------------------------

    def fail_next(self, method: str, error: str = "channel_not_found", times: int = 1) -> None:
        self._queue(method, _Fault(200, error), times)

    def rate_limit_next(self, method: str, retry_after: int = 1, times: int = 1) -> None:
        self._queue(method, _Fault(429, "ratelimited", retry_after), times)

    def server_error_next(self, method: str, times: int = 1) -> None:
        """HTTP 500, as Slack answers during an incident."""
        self._queue(method, _Fault(500, "internal_error"), times)

    def delay(self, prefix: str, seconds: float) -> None:
        """Answer every call whose method starts with ``prefix`` (``"response_url:"``, say)
        ``seconds`` after it arrived. The call is recorded on arrival."""
        with self._cond:
            self._delays[prefix] = seconds

    def _queue(self, method: str, fault: _Fault, times: int) -> None:
        with self._cond:
            self._faults.setdefault(method, deque()).extend([fault] * times)

    # -- request handling (server threads) -----------------------------------------------

    def _record(self, call: Call) -> _Fault | None:
        with self._cond:
            self.calls.append(call)
            self._cond.notify_all()
            pending = self._faults.get(call.method)
            fault = pending.popleft() if pending else None
            wait = max(
                (s for prefix, s in self._delays.items() if call.method.startswith(prefix)),
                default=0.0,
            )
        if wait:
            time.sleep(wait)  # this request's server thread only: Slack being slow
        return fault

    def _handle_api(self, method: str, body: dict[str, Any], headers: dict[str, str]) -> _Reply:
        auth = headers.get("authorization", "")
        token = auth.removeprefix("Bearer ") if auth.startswith("Bearer ") else body.get("token")
        fault = self._record(Call(method, token, body, headers, time.monotonic()))
        if fault is not None:
            extra = {"Retry-After": str(fault.retry_after)} if fault.retry_after else {}
            return _Reply.json({"ok": False, "error": fault.error}, fault.status, **extra)
        answer = self._answers.get(method)
        return _Reply.json({"ok": True, **(answer(self, body) if answer else {})})

    def _handle_upload(self, file_id: str, raw: bytes, content_type: str) -> _Reply:
        data = raw
        if content_type.startswith("multipart/form-data"):
            files = [p for p in _multipart(raw, content_type) if p[1] is not None]
            data = files[0][2] if files else b""
        with self._cond:
            self.uploads[file_id] = data
        return _Reply.text(f"OK - {len(data)}")

    def _handle_response_url(
        self, name: str, body: dict[str, Any], headers: dict[str, str]
    ) -> _Reply:
        """A queued fault answers as Slack does: a text error, 429 with Retry-After for a
        rate limit, 500 for an incident, else 404 as for a spent response_url."""
        call = Call(f"response_url:{name}", None, body, headers, time.monotonic())
        fault = self._record(call)
        if fault is None:
            return _Reply.text("ok")
        status = fault.status if fault.status in (429, 500) else 404
        reply = _Reply.text(fault.error, status)
        if fault.retry_after:
            reply.headers["Retry-After"] = str(fault.retry_after)
        return reply

    # -- canned answers ------------------------------------------------------------------

    def _next_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._seq):08d}"

    def _next_ts(self) -> str:
        seconds, micros = divmod(next(self._seq) * 100, 1_000_000)
        return f"{1_700_000_000 + seconds}.{micros:06d}"

    def _auth_test(self, body: dict[str, Any]) -> dict[str, Any]:
        return {
            "url": "https://leasewise-test.slack.com/",
            "team": "Leasewise Test",
            "user": "leasewise",
            "team_id": TEAM_ID,
            "user_id": BOT_USER_ID,
            "bot_id": BOT_ID,
            "is_enterprise_install": False,
        }

    def _post_message(self, body: dict[str, Any]) -> dict[str, Any]:
        ts = self._next_ts()
        message = {
            "type": "message",
            "text": body.get("text", ""),
            "blocks": body.get("blocks", []),
            "ts": ts,
            "user": BOT_USER_ID,
            "bot_id": BOT_ID,
        }
        if body.get("thread_ts"):
            message["thread_ts"] = body["thread_ts"]
        return {"channel": body.get("channel"), "ts": ts, "message": message}

    def _post_ephemeral(self, body: dict[str, Any]) -> dict[str, Any]:
        return {"message_ts": self._next_ts()}

    def _update(self, body: dict[str, Any]) -> dict[str, Any]:
        return {"channel": body.get("channel"), "ts": body.get("ts"), "text": body.get("text", "")}

    def _view(self, body: dict[str, Any]) -> dict[str, Any]:
        submitted = body.get("view")
        view_id = body.get("view_id") or self._next_id("V")
        view = {**(submitted if isinstance(submitted, dict) else {}), "id": view_id}
        view.setdefault("state", {"values": {}})
        view["hash"] = f"{int(time.time())}.{self._next_id('h')}"
        return {"view": view}

    def _users_info(self, body: dict[str, Any]) -> dict[str, Any]:
        user_id = str(body.get("user", ""))
        user = {
            "id": user_id,
            "name": f"user.{user_id.lower()}",
            "real_name": f"User {user_id}",
            "is_bot": False,
            "tz": "America/New_York",
            "tz_label": "Eastern Standard Time",
            "tz_offset": -18000,
        }
        return {"user": {**user, **self.users.get(user_id, {})}}

    def _conversations_info(self, body: dict[str, Any]) -> dict[str, Any]:
        channel_id = str(body.get("channel", ""))
        channel = {"id": channel_id, "name": "general", "is_channel": True, "is_member": True}
        return {"channel": {**channel, **self.channels.get(channel_id, {})}}

    def _upload_url(self, body: dict[str, Any]) -> dict[str, Any]:
        file_id = self._next_id("F")
        self._filenames[file_id] = str(body.get("filename", ""))
        return {"upload_url": f"{self.base_url}/upload/{file_id}", "file_id": file_id}

    def _complete_upload(self, body: dict[str, Any]) -> dict[str, Any]:
        files = body.get("files")
        if not isinstance(files, list):
            files = []
        named = [{**f, "name": self._filenames.get(f["id"], "")} for f in files]
        return {"files": [{k: f.get(k, "") for k in ("id", "title", "name")} for f in named]}

    _answers: dict[str, Callable[[FakeSlack, dict[str, Any]], dict[str, Any]]] = {
        "auth.test": _auth_test,
        "chat.postMessage": _post_message,
        "chat.postEphemeral": _post_ephemeral,
        "chat.update": _update,
        **dict.fromkeys(["views.open", "views.update", "views.push", "views.publish"], _view),
        "users.info": _users_info,
        "conversations.info": _conversations_info,
        "files.getUploadURLExternal": _upload_url,
        "files.completeUploadExternal": _complete_upload,
    }


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a hung keep-alive request must not hold up stop()
    fake: FakeSlack


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        headers = {k.lower(): v for k, v in self.headers.items()}
        content_type = headers.get("content-type", "")
        fake = self.server.fake
        section, _, rest = url.path.lstrip("/").partition("/")
        if section == "upload" and rest:
            # slack_sdk POSTs the bare bytes, and urllib labels them form-urlencoded;
            # other clients send multipart. Either way the file is what gets stored.
            self._send(fake._handle_upload(rest, raw, content_type))
            return
        body = dict(parse_qsl(url.query, keep_blank_values=True))
        body.update(_decode_body(raw, content_type))
        if section == "api" and rest:
            self._send(fake._handle_api(rest, body, headers))
        elif section == "response" and rest:
            self._send(fake._handle_response_url(rest, body, headers))
        else:
            self._send(_Reply.json({"ok": False, "error": "unknown_path"}, 404))

    do_GET = do_POST  # slack_sdk POSTs everything, but a GET with a query string is harmless

    def _send(self, reply: _Reply) -> None:
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(reply.body)

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: a request log on stderr would bury the test output that matters."""


def _decode_body(raw: bytes, content_type: str) -> dict[str, Any]:
    kind = content_type.split(";")[0].strip().lower()
    if not raw:
        return {}
    if kind == "application/json":
        decoded = json.loads(raw)
        return decoded if isinstance(decoded, dict) else {"_json": decoded}
    form: dict[str, Any]
    if kind == "multipart/form-data":
        parts = _multipart(raw, content_type)
        form = {name: data if filename else data.decode() for name, filename, data in parts}
    else:
        form = dict(parse_qsl(raw.decode(), keep_blank_values=True))
    for name in JSON_FORM_FIELDS & form.keys():
        # Slack would reject invalid JSON; keep what was sent so the test can see why.
        with contextlib.suppress(TypeError, ValueError):
            form[name] = json.loads(form[name])
    return form


def _multipart(raw: bytes, content_type: str) -> list[tuple[str, str | None, bytes]]:
    """(field name, filename, bytes) per part, via the stdlib MIME parser."""
    message = BytesParser(policy=HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + raw
    )
    parts = []
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        parts.append((str(name or ""), part.get_filename(), data))
    return parts


def is_details(body: Any) -> bool:
    """A post that carries the thread part of an answer (its first block says so)."""
    blocks = body.get("blocks") if isinstance(body, dict) else None
    return bool(blocks) and any(
        isinstance(b, dict) and b.get("block_id") == "answer_details" for b in blocks
    )
