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
"""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_path
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

SQLITE_BUSY_TIMEOUT_MS = 5_000


def default_database_url() -> str:
    """A SQLite file in the user's data directory (created on first use)."""
    return f"sqlite:///{default_database_path()}"


def default_database_path() -> Path:
    return user_data_path("leasewise", appauthor=False) / "leasewise.db"


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def make_engine(url: str) -> Engine:
    if is_sqlite(url):
        path = url.removeprefix("sqlite:///")
        if path and path != ":memory:" and not url.startswith("sqlite://:"):
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_pre_ping=True)


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
