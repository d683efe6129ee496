"""Engines and sessions: a SQLite file for one laptop, PostgreSQL for a team.

SQLite gets foreign keys switched on (it ignores them otherwise) and a busy
timeout so a second process waits for a lock instead of failing at once.

SQLite transactions are begun by SQLAlchemy, not by Python's sqlite3 module,
which otherwise opens one only at the first INSERT/UPDATE/DELETE: a SAVEPOINT
issued before that starts the transaction itself, and releasing it commits,
behind the caller's back. They begin IMMEDIATE, taking the write lock at once:
a transaction that read first and wrote second would otherwise deadlock with
another writer and fail at once, busy timeout or not. Concurrent transactions
therefore take turns, which suits SQLite's one-laptop deployment.

A DATABASE_URL the app cannot use is the operator's to fix, so whatever goes
wrong while opening one (a URL SQLAlchemy cannot read, an unknown driver, a
server that refuses, a SQLite path that is a directory or cannot be created)
comes out as one ``DatabaseUnavailable``: a sentence naming the problem and a
hint with a URL that works, the password never shown.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from platformdirs import user_data_path
from sqlalchemy import URL, Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.orm import Session, sessionmaker

from storage.errors import DatabaseUnavailable

SQLITE_BUSY_TIMEOUT_MS = 5_000
POSTGRES_CONNECT_TIMEOUT_S = 10
"""How long the app waits for PostgreSQL to accept a connection before saying it cannot."""
LIBPQ_DRIVERS = frozenset({"psycopg", "psycopg2"})
"""Drivers that take libpq's ``connect_timeout`` and ``options``."""
SQLITE_EXAMPLE = "sqlite:////path/to/leasewise.db"
POSTGRES_EXAMPLE = "postgresql+psycopg://user@host/db"
URL_EXAMPLES = f"e.g. DATABASE_URL={SQLITE_EXAMPLE} or DATABASE_URL={POSTGRES_EXAMPLE}"

ErrorKind = Literal["busy", "read-only", "unreachable", "other"]


def default_database_url() -> str:
    """A SQLite file in the user's data directory (created on first use)."""
    return f"sqlite:///{default_database_path()}"


def default_database_path() -> Path:
    return user_data_path("leasewise", appauthor=False) / "leasewise.db"


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def parse_url(url: str) -> URL:
    """DATABASE_URL as SQLAlchemy reads it, or DatabaseUnavailable saying why it cannot."""
    if not url.strip():
        raise DatabaseUnavailable(
            "DATABASE_URL is set but empty",
            field="DATABASE_URL",
            hint=f"unset it for the SQLite file in your data directory, or {URL_EXAMPLES}",
        )
    try:
        parsed = make_url(url.strip())
        _ = parsed.port  # a non-numeric port fails here rather than at connect time
    except (ArgumentError, ValueError) as exc:
        raise DatabaseUnavailable(
            f"DATABASE_URL is not a database URL: {redacted(url)!r}",
            field="DATABASE_URL",
            hint=URL_EXAMPLES,
        ) from exc
    return parsed


def redacted(url: str) -> str:
    """``url`` fit to print: the password of a readable URL masked, and for one
    SQLAlchemy cannot read, everything between ``://`` and the last ``@``."""
    try:
        return make_url(url.strip()).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        scheme, sep, rest = url.strip().partition("://")
        if sep and "@" in rest:
            return f"{scheme}://***@{rest.rpartition('@')[2]}"
        return url.strip()


def where(url: str | URL) -> str:
    """The database named for people: a SQLite file's path, else the URL without password."""
    parsed = url if isinstance(url, URL) else parse_url(url)
    if parsed.get_backend_name() == "sqlite":
        return f"SQLite file {parsed.database}" if parsed.database else "in-memory SQLite"
    return parsed.render_as_string(hide_password=True)


def sqlite_file(url: URL) -> Path | None:
    """The file a SQLite URL names; None for an in-memory database, a ``file:`` URI or
    another kind of database."""
    database = url.database
    if url.get_backend_name() != "sqlite" or database in (None, "", ":memory:"):
        return None
    if url.query.get("uri") == "true":
        return None
    return Path(database)


def make_engine(url: str) -> Engine:
    """An engine for DATABASE_URL; DatabaseUnavailable if the URL cannot name one.

    A new SQLite file is created here, with its directory, so that a path the app's
    user cannot write is reported with the system's reason, not SQLite's "unable to
    open database file".
    """
    parsed = parse_url(url)
    try:
        if parsed.get_backend_name() == "sqlite":
            path = sqlite_file(parsed)
            if path is not None:
                _prepare_sqlite_file(path)
            engine = create_engine(parsed, connect_args={"check_same_thread": False})
            event.listen(engine, "connect", _sqlite_pragmas)
            event.listen(engine, "begin", _sqlite_begin)
            return engine
        connect_args: dict[str, object] = {}
        if parsed.get_driver_name() in LIBPQ_DRIVERS and "connect_timeout" not in parsed.query:
            connect_args["connect_timeout"] = POSTGRES_CONNECT_TIMEOUT_S
        return create_engine(parsed, pool_pre_ping=True, connect_args=connect_args)
    except NoSuchModuleError as exc:
        raise DatabaseUnavailable(
            f"DATABASE_URL names a database driver SQLAlchemy does not know: {parsed.drivername!r}",
            field="DATABASE_URL",
            hint=_driver_hint(parsed),
        ) from exc
    except ImportError as exc:
        raise DatabaseUnavailable(
            f"the driver for DATABASE_URL's {parsed.drivername!r} is not installed ({exc.name})",
            field="DATABASE_URL",
            hint=_driver_hint(parsed),
        ) from exc


def _driver_hint(url: URL) -> str:
    if url.drivername.startswith("postgres"):
        return f"write postgresql+psycopg:// instead, e.g. DATABASE_URL={POSTGRES_EXAMPLE}"
    return f"leasewise runs on SQLite or PostgreSQL, {URL_EXAMPLES}"


def _prepare_sqlite_file(path: Path) -> None:
    if path.is_dir():
        raise DatabaseUnavailable(
            f"DATABASE_URL names a directory, not a SQLite file: {path}",
            field="DATABASE_URL",
            hint=f"name a file inside it, e.g. DATABASE_URL=sqlite:///{path / 'leasewise.db'}",
        )
    if path.exists():
        return
    writable_hint = (
        "point DATABASE_URL at a directory the app's user can write, "
        f"e.g. DATABASE_URL={SQLITE_EXAMPLE}"
    )
    blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise DatabaseUnavailable(
            f"cannot create the SQLite file {path}: {blocker} is a file, not a directory",
            field="DATABASE_URL",
            hint=writable_hint,
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
    except FileExistsError:
        return  # another process created it first
    except OSError as exc:
        raise DatabaseUnavailable(
            f"cannot create the SQLite file {path}: {exc.strerror or exc}",
            field="DATABASE_URL",
            hint=writable_hint,
        ) from exc


def error_kind(driver_error: BaseException) -> ErrorKind:
    """What a driver's exception says about the database, for SQLite and PostgreSQL.

    SQLite names its result codes (``SQLITE_BUSY``, ``SQLITE_READONLY_DBMOVED``...);
    PostgreSQL gives a SQLSTATE, or none when no connection was made at all.
    """
    name = str(getattr(driver_error, "sqlite_errorname", "") or "")
    if name:
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return "busy"
        if name.startswith(("SQLITE_READONLY", "SQLITE_PERM")):
            return "read-only"
        if name.startswith(("SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_NOTADB", "SQLITE_CORRUPT")):
            return "unreachable"
        return "other"
    state = getattr(driver_error, "sqlstate", None)
    if state == "25006":  # read_only_sql_transaction: a standby, or a read-only default
        return "read-only"
    if state in ("55P03", "40P01"):  # lock_not_available (lock_timeout), deadlock_detected
        return "busy"
    if state is None or str(state).startswith(("08", "57P", "28", "3D")):
        return "unreachable"  # no connection, server going away, bad login or database name
    return "other"


@contextmanager
def unavailable_on_driver_errors(url: str | URL) -> Iterator[None]:
    """Driver errors met while opening or migrating ``url``, as one DatabaseUnavailable."""
    try:
        yield
    except DBAPIError as exc:
        raise explain(exc, url) from exc


def explain(exc: DBAPIError, url: str | URL) -> DatabaseUnavailable:
    """A driver's error while opening ``url``, in an operator's words with the fix."""
    parsed = url if isinstance(url, URL) else parse_url(url)
    reason = _first_line(exc.orig if exc.orig is not None else exc, parsed.password)
    kind = error_kind(exc.orig) if exc.orig is not None else "other"
    sqlite = parsed.get_backend_name() == "sqlite"
    if kind == "read-only":
        hint = (
            "let the app's user write the file and its directory (SQLite keeps a journal "
            "beside it), or point DATABASE_URL elsewhere"
            if sqlite
            else "DATABASE_URL reaches a read-only server or session (a standby?): "
            "point it at the primary"
        )
        message = f"{where(parsed)} cannot take writes: {reason}"
    elif kind == "busy":
        message = f"{where(parsed)} stayed locked by another connection: {reason}"
        hint = "another process is holding a long write; try again once it has finished"
    elif sqlite:
        message = f"cannot open {where(parsed)}: {reason}"
        hint = f"DATABASE_URL must name a leasewise SQLite file, e.g. DATABASE_URL={SQLITE_EXAMPLE}"
    else:
        message = f"cannot use the database at {where(parsed)}: {reason}"
        hint = (
            "check that the server is running and DATABASE_URL's host, port, user, password "
            f"and database name, e.g. DATABASE_URL={POSTGRES_EXAMPLE}"
        )
    return DatabaseUnavailable(message, field="DATABASE_URL", hint=hint)


def _first_line(error: BaseException, password: str | None) -> str:
    """The driver's own sentence, on one line and with no password in it."""
    text = next((line.strip() for line in str(error).splitlines() if line.strip()), "")
    text = text or type(error).__name__
    return text.replace(password, "***") if password else text


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.close()
    dbapi_connection.isolation_level = None  # type: ignore[attr-defined]  # no implicit BEGIN


def _sqlite_begin(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions whose objects stay readable after commit (handlers render after it)."""
    return sessionmaker(engine, expire_on_commit=False)
