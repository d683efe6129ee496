"""``leasewise chat``: a local console that behaves like a Slack channel.

Type ``/lease ...`` for a command, ``@leasewise ...`` to start a thread, and
anything else as a follow-up in the current thread ("what about H200?",
"undo"; after "start over" the next line is a new question in the same thread,
as in Slack). The replies are
the same templates Slack gets, as their plain-text fallback; quotes, threads and
subscriptions land in the same database. A reply that Slack would upload a file
with (``/lease quote pdf``) writes the file into the console's folder (the current
directory for ``leasewise chat``) and says where. With stdin not a terminal, each
line is read as one message, so a script can drive it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from pathlib import Path

from bot.commands import dispatch
from bot.console.names import CHANNEL, USER, WORKSPACE, readable
from bot.conversation import Reply, answer, error_reply, follow_up, start_thread
from bot.render.document import Attachment
from bot.services import Caller, Services
from core.errors import InputError
from storage.errors import StorageError
from storage.threads import ThreadKey

PROMPT = "you> "


class Console:
    """One channel, one user, one thread at a time: enough to try every reply."""

    def __init__(self, services: Services, *, user: str = USER, files: Path | None = None) -> None:
        """``files``: the folder a reply's file is written to (default: the current one)."""
        self._services = services
        self._files = files
        self._caller = Caller(WORKSPACE, CHANNEL, user, timezone="UTC")
        self._ts = (f"{1_700_000_000 + n}.000100" for n in itertools.count())
        self._thread: ThreadKey | None = None

    def say(self, line: str) -> str | None:
        """The console's reply to one line (None: nothing to say)."""
        line = line.strip()
        if not line:
            return None
        reply: Reply | None
        if line.startswith("/lease"):
            reply = dispatch.run(self._services, self._caller, line.removeprefix("/lease"))
        elif line.startswith("@"):
            reply = self._new_thread(line.split(" ", 1)[1] if " " in line else "")
        elif self._thread is None:
            reply = self._new_thread(line)
        else:
            reply = self._follow_up(line)
        if reply is None:
            return None
        renderer = self._services.renderer
        if reply.template.endswith("_modal"):
            return renderer.text("console_form")
        said = readable(
            renderer.message(reply.template, **reply.context).console_text(),
            user=self._caller.user_id,
        )
        if reply.file is None:
            return said
        return f"{said}\n\n{self._write(reply.file)}"

    def _write(self, file: Attachment) -> str:
        """Write a reply's file into the console's folder; what to say about it."""
        renderer = self._services.renderer
        path = ((self._files or Path.cwd()) / file.filename).absolute()
        try:
            path.write_bytes(file.content)
        except OSError as exc:
            return renderer.message(
                "error",
                message=f"cannot write {path}: {exc.strerror}",
                field=None,
                hint="start leasewise chat in a folder you can write to",
            ).console_text()
        size = len(file.content)
        return renderer.text("file_written", title=file.title, path=str(path), size=size)

    def _new_thread(self, text: str) -> Reply:
        key = ThreadKey(WORKSPACE, CHANNEL, next(self._ts))
        reply = answer(
            self._services.engines.current(), text, today=self._services.clock().date()
        )
        if reply.question is not None:
            with self._services.sessions.begin() as session:
                start_thread(session, key, reply.question, self._services.clock)
            self._thread = key
        return reply

    def _follow_up(self, text: str) -> Reply | None:
        assert self._thread is not None
        engine = self._services.engines.current()
        try:
            with self._services.sessions.begin() as session:
                reply = follow_up(
                    engine,
                    session,
                    self._thread,
                    text,
                    self._services.clock,
                    user_id=self._caller.user_id,
                )
        except (InputError, StorageError) as exc:
            return error_reply(exc)
        return reply


def run(
    services: Services,
    lines: Iterable[str],
    write: Callable[[str], None],
    *,
    interactive: bool,
    database: str,
    from_run: bool = False,
    files: Path | None = None,
) -> None:
    """Answer ``lines`` one by one; ``database`` says where quotes and threads are kept,
    ``files`` where a reply's file is written (default: the current directory)."""
    console = Console(services, files=files)
    write(services.renderer.text("console_welcome", database=database, run=from_run))
    for line in lines:
        if line.strip().lower() in ("quit", "exit", ":q"):
            break
        if not interactive and line.strip():
            write(PROMPT + line.rstrip())
        reply = console.say(line)
        if reply:
            write(reply)
