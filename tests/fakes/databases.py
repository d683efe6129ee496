"""Databases misbehaving on purpose, for tests of what the app says about them.

- ``silent_server()``: a loopback port that accepts TCP connections and never sends a
  byte, as a PostgreSQL that hangs (stopped, or behind a stuck proxy) looks to a client.
- ``write_lock_held(path)``: another process inside ``BEGIN IMMEDIATE`` on a SQLite file,
  holding its write lock until the block ends.
- ``closed_port()``: a loopback port nothing listens on (connections are refused).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

_HOLD_WRITE_LOCK = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
connection.execute("ROLLBACK")
"""


@contextmanager
def silent_server() -> Iterator[int]:
    """The port of a server that accepts every connection and answers none."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:  # the listener was closed: the test is over
                return
            held.append(connection)

    thread = threading.Thread(target=accept, name="silent-server", daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        with suppress(OSError):
            listener.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept() on Linux
        listener.close()
        thread.join(timeout=5)
        for connection in held:
            connection.close()


@contextmanager
def write_lock_held(path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holds ``path``'s write lock until the block ends (it has it
    already when the block starts)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_WRITE_LOCK, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "locked", "the lock holder did not start"
        yield holder
    finally:
        holder.communicate(timeout=30)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
