"""Calibration in a child process, so a rebuild never holds the serving process's GIL.

Calibrating is seconds of CPU-bound Python (the fits and the validation bands). On a
thread of the serving process it competes with every request for the interpreter
lock; in a child it has an interpreter of its own, and requests keep theirs
(``bench/engine_refresh_bench.py`` shows both). The catalog goes in and the engine
comes back pickled, as the engine cache stores it.

The child is spawned, not forked: the server runs threads (uvicorn, Bolt's pool, the
scheduler), and a fork copies whatever locks they hold at that moment. Spawning
costs a second or two of imports, paid only when an admin changes the catalog. The
child is a daemon, so a server shutting down mid-build ends it instead of waiting
(a process pool would hold the interpreter's exit until the build finished).
"""

from __future__ import annotations

import multiprocessing
from multiprocessing.connection import Connection

from core.catalog import Catalog
from core.perf.engine import PerfEngine
from core.perf.validation import build_engine


class CalibrationFailed(RuntimeError):
    """The child could not calibrate the catalog; the message says why."""


def calibrate_in_child(catalog: Catalog) -> PerfEngine:
    """``build_engine(catalog)``, run in a fresh child process.

    Raises:
        CalibrationFailed: the engine rejected the catalog, or the child died.
    """
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(
        target=_calibrate, args=(catalog, send), name="leasewise-calibrate", daemon=True
    )
    child.start()
    send.close()  # the child holds the only sending end: its exit ends the wait below
    try:
        outcome = receive.recv()
    except EOFError as exc:
        child.join()
        died = f"the calibration process died (exit code {child.exitcode})"
        raise CalibrationFailed(died) from exc
    finally:
        receive.close()
    child.join()
    if isinstance(outcome, str):
        raise CalibrationFailed(outcome)
    if not isinstance(outcome, PerfEngine):
        raise CalibrationFailed(f"the calibration process sent a {type(outcome).__name__}")
    return outcome


def _calibrate(catalog: Catalog, send: Connection) -> None:
    """In the child: the engine, or why not (as text: not every exception pickles)."""
    try:
        send.send(build_engine(catalog))
    except Exception as exc:  # noqa: BLE001 - sent to the parent, which raises it
        send.send(f"{type(exc).__name__}: {exc}")
    finally:
        send.close()
