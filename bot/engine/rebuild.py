"""One background job at a time, and never a pile-up: the worker that rebuilds the engine.

Calibrating takes seconds (ten on a loaded machine), so it runs on a daemon thread
of its own, never in a request. Asking for a run while one is under way marks one
more run to follow it, however many times it is asked, so a burst of admin changes
costs at most two builds. The thread starts on the first request; ``poll_every``
also wakes it on a timer, which is how a replica with no traffic notices another
replica's change.

Why not APScheduler's interval job: with ``max_instances=1`` a nudge that arrives
mid-run is dropped (the run is skipped, not queued), and that nudge is exactly the
change that must not be missed.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger("leasewise.engine")


class Rebuilder:
    """Runs ``job`` on one daemon thread: once per burst of requests, or on a timer."""

    def __init__(self, job: Callable[[], None], *, name: str) -> None:
        self._job = job
        self._name = name
        self._wake = threading.Condition()
        self._pending = False
        self._stopped = False
        self._interval: float | None = None
        self._thread: threading.Thread | None = None

    def request(self) -> None:
        """Run the job soon: now if idle, else once more after the run under way."""
        with self._wake:
            if self._stopped:
                return
            self._pending = True
            self._ensure_thread()
            self._wake.notify_all()

    def poll_every(self, seconds: float) -> None:
        """Also run the job every ``seconds`` (from now on, until ``stop``)."""
        if seconds <= 0:
            raise ValueError(f"the poll interval must be positive, not {seconds}")
        with self._wake:
            if self._stopped:
                return
            self._interval = seconds
            self._ensure_thread()
            self._wake.notify_all()

    def stop(self, timeout: float) -> bool:
        """Stop the thread after the run under way (which cannot be cut short).

        Returns:
            Whether the thread ended within ``timeout`` seconds (True if none ran).
        """
        with self._wake:
            self._stopped = True
            self._wake.notify_all()
            thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        if thread.is_alive():
            log.warning("%s: still running %.0f s after stop was asked", self._name, timeout)
            return False
        return True

    def _ensure_thread(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name=self._name, daemon=True)
            self._thread.start()

    def _loop(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._pending or self._stopped, self._interval)
                if self._stopped:
                    return
                self._pending = False
            try:
                self._job()
            except Exception:  # the thread must outlive one bad run; the next request retries
                log.exception("%s: a run failed", self._name)
