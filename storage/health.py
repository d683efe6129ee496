"""Database probes: can the app read and write its database right now, and how fast.

What ``/healthz`` reports, and what ``open_database`` checks before the app starts.

Writes are proved by a write that is rolled back: ``UPDATE alembic_version SET
version_num = version_num`` inside a transaction. It needs what every real write
needs (SQLite's write lock and its journal beside the file; a PostgreSQL session
that is not read-only, a row lock), touches a table every migrated database has,
and leaves nothing behind: no row, no schema of its own, nothing to clean up.

Each probe opens a connection of its own, outside the app's pool: it carries the
probe's short timeouts rather than the app's, one abandoned at the deadline never
goes back to the pool, and it sees what the next connection would (a connection
opened before a chmod keeps its rights). The SQLite probe opens the file with
``mode=rw``, so a missing file is reported rather than created empty, and it
honours a URL's own ``mode=ro``.

Nothing waits long. SQLite's busy wait is 0.1 s here (the app's is 5 s): a lock
held by another writer is reported as busy, which is healthy, since requests
queue behind it. PostgreSQL gets a connect timeout, then a statement timeout and
a lock timeout for the probe's transaction (a lock held elsewhere, by a migration
say, is busy too); and the whole probe runs on a thread of its own with a deadline, so
a server that accepts connections and never answers cannot hang the caller. At
most one probe per database is in flight: a caller arriving meanwhile waits on
that one instead of starting another thread stuck on the same server.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from storage.database import LIBPQ_DRIVERS, error_kind, sqlite_file, where

log = logging.getLogger("leasewise.health")

WRITE_PROBE = "UPDATE alembic_version SET version_num = version_num"
READ_PROBE = "SELECT version_num FROM alembic_version"
PROBE_DEADLINE_S = 3.0
"""Under ``leasewise health``'s own 5 s wait, so an unhealthy answer arrives as one."""
SQLITE_PROBE_BUSY_S = 0.1
POSTGRES_PROBE_CONNECT_TIMEOUT_S = 2  # libpq's minimum
POSTGRES_PROBE_STATEMENT_TIMEOUT_MS = 1_000
POSTGRES_PROBE_LOCK_TIMEOUT_MS = 300

State = Literal["ok", "busy", "read-only", "unreachable"]


@dataclass(frozen=True)
class DatabaseHealth:
    """What one probe found. ``detail`` is a fixed phrase, fit for a public endpoint
    (no path, host or driver text: those go to the log)."""

    backend: str
    reachable: bool
    writable: bool | None
    """None when a busy writer kept the probe from trying."""
    busy: bool
    latency_ms: float
    detail: str | None = None

    @property
    def state(self) -> State:
        if not self.reachable:
            return "unreachable"
        if self.busy:
            return "busy"
        return "ok" if self.writable else "read-only"

    @property
    def healthy(self) -> bool:
        """Reads and writes work, or will once a busy writer lets go."""
        return self.reachable and (self.busy or bool(self.writable))

    def as_dict(self) -> dict[str, object]:
        return {
            "backend": self.backend,
            "reachable": self.reachable,
            "writable": self.writable,
            "busy": self.busy,
            "latency_ms": round(self.latency_ms, 1),
            "detail": self.detail,
        }


class _Outcome(Exception):
    """A probe's finding, raised from where it was made."""

    def __init__(self, state: State, detail: str, cause: BaseException | None = None):
        super().__init__(detail)
        self.state, self.detail, self.cause = state, detail, cause


class DatabaseProbe:
    """Probes the database behind one engine, one probe at a time, each within a deadline."""

    def __init__(self, engine: Engine, *, deadline_s: float = PROBE_DEADLINE_S):
        self._engine = engine
        self._deadline_s = deadline_s
        self._lock = threading.Lock()
        self._in_flight: Future[DatabaseHealth] | None = None

    @classmethod
    def for_sessions(cls, sessions: sessionmaker[Session], **kwargs: Any) -> DatabaseProbe:
        """The probe for the engine a session factory is bound to."""
        return cls(sessions.kw["bind"], **kwargs)

    @property
    def backend(self) -> str:
        return self._engine.url.get_backend_name()

    def _where(self) -> str:
        return where(self._engine.url)

    def check(self) -> DatabaseHealth:
        """The database's health, within the deadline whatever the database does."""
        started = time.monotonic()
        with self._lock:
            future = self._in_flight
            if future is None or future.done():
                future = Future()
                self._in_flight = future
                threading.Thread(
                    target=self._run, args=(future,), name="leasewise-db-probe", daemon=True
                ).start()
        try:
            return future.result(timeout=self._deadline_s)
        except TimeoutError:
            log.warning(
                "database probe of %s: no answer within %g s", self._where(), self._deadline_s
            )
            return DatabaseHealth(
                backend=self.backend,
                reachable=False,
                writable=None,
                busy=False,
                latency_ms=(time.monotonic() - started) * 1000,
                detail=f"no answer within {self._deadline_s:g} s",
            )

    def _run(self, future: Future[DatabaseHealth]) -> None:
        started = time.monotonic()
        try:
            self._probe()
            state: State = "ok"
            detail = None
        except _Outcome as outcome:
            state, detail = outcome.state, outcome.detail
            cause = f": {outcome.cause}" if outcome.cause else ""
            level = logging.INFO if state == "busy" else logging.WARNING
            log.log(level, "database probe of %s: %s%s", self._where(), detail, cause)
        except Exception as exc:  # noqa: BLE001 - any failure is an unhealthy answer
            state, detail = "unreachable", "the database could not be checked"
            log.warning("database probe of %s failed: %r", self._where(), exc)
        future.set_result(
            DatabaseHealth(
                backend=self.backend,
                reachable=state != "unreachable",
                writable={"ok": True, "read-only": False}.get(state),
                busy=state == "busy",
                latency_ms=(time.monotonic() - started) * 1000,
                detail=detail,
            )
        )

    def _probe(self) -> None:
        url = self._engine.url
        if url.get_backend_name() == "sqlite":
            args, kwargs = self._engine.dialect.create_connect_args(url)
            if sqlite_file(url) is None and not kwargs.get("uri"):
                self._probe_pooled()  # in-memory: only the app's own connections see it
                return
            _probe_sqlite(str(args[0]), uri=bool(kwargs.get("uri")))
            return
        _probe_dbapi(self._engine)

    def _probe_pooled(self) -> None:
        with self._engine.connect() as connection:
            connection.execute(text("SELECT 1"))


def _probe_sqlite(target: str, *, uri: bool) -> None:
    """A fresh sqlite3 connection: the file opens read-write, the schema reads, a write
    takes the lock and is rolled back."""
    if not uri:
        path = Path(target).absolute()
        if not path.is_file():
            missing = not path.exists()
            raise _Outcome(
                "unreachable",
                "the SQLite file is missing" if missing else "the SQLite path is not a file",
            )
        target = f"{path.as_uri()}?mode=rw"
    try:
        connection = sqlite3.connect(
            target,
            uri=True,
            timeout=SQLITE_PROBE_BUSY_S,
            isolation_level=None,
            check_same_thread=False,
        )
    except sqlite3.Error as exc:
        raise _Outcome("unreachable", "the SQLite file cannot be opened", exc) from exc
    try:
        _step(lambda: connection.execute(READ_PROBE).fetchall(), "reading the schema")
        _step(lambda: connection.execute("BEGIN IMMEDIATE"), "taking the write lock")
        try:
            _step(lambda: connection.execute(WRITE_PROBE), "writing")
        finally:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
    finally:
        connection.close()


def _probe_dbapi(engine: Engine) -> None:
    """A fresh DB-API connection with short timeouts: the schema reads, a write is rolled back."""
    url = engine.url
    args, kwargs = engine.dialect.create_connect_args(url)
    libpq = url.get_driver_name() in LIBPQ_DRIVERS
    if libpq:
        given = kwargs.get("connect_timeout")
        timeout = POSTGRES_PROBE_CONNECT_TIMEOUT_S
        kwargs["connect_timeout"] = min(int(given), timeout) if given else timeout
    dbapi = engine.dialect.loaded_dbapi
    try:
        connection = dbapi.connect(*args, **kwargs)
    except dbapi.Error as exc:
        raise _Outcome("unreachable", "cannot connect", exc) from exc
    try:
        cursor = connection.cursor()
        if libpq:  # SET LOCAL, not startup options, which poolers such as PgBouncer refuse
            limits = (
                f"SET LOCAL statement_timeout = {POSTGRES_PROBE_STATEMENT_TIMEOUT_MS}",
                f"SET LOCAL lock_timeout = {POSTGRES_PROBE_LOCK_TIMEOUT_MS}",
            )
            for limit in limits:
                _step(partial(cursor.execute, limit), "setting its timeouts")
        _step(lambda: (cursor.execute(READ_PROBE), cursor.fetchall()), "reading the schema")
        _step(lambda: cursor.execute(WRITE_PROBE), "writing")
    finally:
        try:
            connection.rollback()
        finally:
            connection.close()


def _step(run: Callable[[], object], doing: str) -> None:
    """One probe statement; its failure told as what it means for the app."""
    try:
        run()
    except Exception as exc:
        kind = error_kind(exc)
        if kind == "busy":
            raise _Outcome(
                "busy", "database busy: another connection holds the write lock", exc
            ) from exc
        if kind == "read-only":
            raise _Outcome("read-only", "the database refuses writes", exc) from exc
        if getattr(exc, "sqlstate", None) == "57014":  # query_canceled: statement_timeout
            raise _Outcome("unreachable", f"no answer in time while {doing}", exc) from exc
        raise _Outcome("unreachable", f"failed while {doing}", exc) from exc


def require_writable(engine: Engine) -> None:
    """At start: the database takes writes through the app's own engine, or the
    driver's error is raised. A writer holding the lock past the busy timeout does
    not count against it: the app's writes will queue behind that one."""
    try:
        with engine.connect() as connection, connection.begin() as transaction:
            connection.execute(text(WRITE_PROBE))
            transaction.rollback()
    except DBAPIError as exc:
        if exc.orig is None or error_kind(exc.orig) != "busy":
            raise
