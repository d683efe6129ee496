"""The engine as of the database: packaged catalog + admin additions and price lines.

Admins change the price book and add stacks or measurements from Slack while the
app runs, and every replica (several ``leasewise serve`` may share one database)
must answer with them, without any request waiting for a calibration:

- A price line only swaps the catalog under the calibrated engine. Each request
  reads the price lines, so a new one shows in the very next answer.
- A stack or measurement added or removed needs a recalibration (seconds; ten on
  a busy machine). The engine already built keeps serving while one background
  thread builds the next (see ``rebuild``), the calibration itself in a child
  process so it does not hold this one's GIL (see ``isolated``); the swap is a
  single assignment.

How a replica notices a change: each request, which reads the price lines anyway,
also reads the additions' fingerprint (ids and times, no bodies) in the same
session, and asks for a build when it differs from the served engine's. That
costs one small query and no timer, and every replica sees a change on its next
request. ``start`` adds a poll every few seconds in ``leasewise serve``, so a
replica with no traffic (and its digest scheduler) has the new engine before its
next request. The replica that made the change calls ``changed`` after committing,
so its build starts at once.

A build that fails (an addition the engine rejects) is logged with the reason; the
previous engine keeps serving, and the same set of additions is not tried again
until it changes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from sqlalchemy.orm import Session, sessionmaker

from bot.engine.isolated import calibrate_in_child
from bot.engine.rebuild import Rebuilder
from core.catalog import Catalog
from core.catalog.additions import with_additions
from core.catalog.entries import LeasePrice, Measurement, Source, Stack
from core.perf.engine import PerfEngine
from storage import admin
from storage.errors import StorageError

log = logging.getLogger("leasewise.engine")

Fingerprint = tuple[tuple[object, ...], ...]
POLL_SECONDS = 5.0
"""How often a serving replica looks for another replica's change when it gets no requests."""
STOP_TIMEOUT_S = 120.0
"""How long ``stop`` waits for a calibration under way (it cannot be cut short)."""


@dataclass(frozen=True)
class _Built:
    additions: Fingerprint
    engine: PerfEngine


@dataclass(frozen=True)
class _Served:
    built: _Built
    prices: Fingerprint
    engine: PerfEngine


class EngineSource:
    """Hands out the newest engine built for the database's additions, with its price lines."""

    def __init__(
        self,
        base: PerfEngine,
        session_factory: sessionmaker[Session],
        *,
        calibrate: Callable[[Catalog], PerfEngine] = calibrate_in_child,
    ) -> None:
        self._base = base
        self._sessions = session_factory
        self._calibrate = calibrate
        self._state = threading.Condition()
        self._built = _Built((), base)
        self._served: _Served | None = None
        self._asked: Fingerprint = ()
        self._failed: Fingerprint | None = None
        self._settled = 0
        """Builds finished or failed: what ``wait_for_engine`` waits to see change."""
        self._one_build = threading.Lock()
        self._rebuilder = Rebuilder(self._refresh, name="leasewise-engine-build")

    @property
    def base(self) -> PerfEngine:
        """The packaged engine, before any addition (what the CLI answers with)."""
        return self._base

    def current(self) -> PerfEngine:
        """The newest engine built, with today's price lines; never waits for a build."""
        with self._sessions() as session:
            prices = admin.prices(session)
            additions = admin.catalog_fingerprint(session)
        with self._state:
            built, served = self._built, self._served
            stale = additions not in (built.additions, self._asked)
            if stale:
                self._asked = additions
        if stale:
            self._rebuilder.request()
        price_key: Fingerprint = tuple(
            (p.gpu, p.term_months, p.usd_per_gpu_hour, p.source, p.created_at) for p in prices
        )
        if served is not None and served.built is built and served.prices == price_key:
            return served.engine
        engine = _priced(built.engine, prices)
        with self._state:
            self._served = _Served(built, price_key, engine)
        return engine

    def changed(self) -> None:
        """Say the additions changed (after the admin's transaction commits): build now."""
        self._rebuilder.request()

    def build_now(self) -> None:
        """Bring the engine up to the database's additions in this thread, waiting for it.

        For startup and one-shot commands (``leasewise chat``, ``digest preview``),
        which would rather wait a few seconds than answer without the additions.
        """
        self._refresh()

    def start(self, poll_seconds: float = POLL_SECONDS) -> None:
        """Also look for other replicas' changes every ``poll_seconds`` (``leasewise serve``)."""
        self._rebuilder.poll_every(poll_seconds)

    def stop(self, timeout: float = STOP_TIMEOUT_S) -> bool:
        """End the background thread (after a build under way); the engine keeps serving.

        Returns:
            Whether the thread ended within ``timeout`` seconds.
        """
        return self._rebuilder.stop(timeout)

    def wait_for_engine(
        self, predicate: Callable[[PerfEngine], bool], timeout: float
    ) -> PerfEngine:
        """The current engine once ``predicate`` holds for it, waiting for background builds.

        For tests and scripts that must see an addition take effect: they wait on
        the condition, with a deadline, instead of sleeping.

        Raises:
            TimeoutError: not within ``timeout`` seconds; says whether a build failed.
        """
        deadline = time.monotonic() + timeout
        while True:
            with self._state:
                settled = self._settled
            engine = self.current()
            if predicate(engine):
                return engine
            if not self._wait_past(settled, deadline):
                failed = " (the last build failed; see the log)" if self._failed else ""
                raise TimeoutError(f"no engine as expected within {timeout:g} s{failed}")

    def _wait_past(self, settled: int, deadline: float) -> bool:
        """Whether a build settled after the ``settled``-th, before ``deadline``."""
        with self._state:
            remaining = deadline - time.monotonic()
            return remaining > 0 and self._state.wait_for(
                lambda: self._settled != settled, remaining
            )

    def _refresh(self) -> None:
        with self._one_build:
            started = time.monotonic()
            with self._sessions() as session:
                # The fingerprint is read before the records: if an addition commits in
                # between, the engine holds more than its key says and is rebuilt once
                # more, never labelled with additions it lacks.
                additions = admin.catalog_fingerprint(session)
                with self._state:
                    if additions in (self._built.additions, self._failed):
                        return
                try:
                    records = admin.catalog_additions(session)
                except StorageError as exc:  # a stored record the catalog no longer reads
                    self._give_up(additions, exc)
                    return
            try:
                engine = self._build(records)
            except Exception as exc:  # noqa: BLE001 - logged; the previous engine serves on
                self._give_up(additions, exc)
                return
            self._settle(built=_Built(additions, engine))
            log.info(
                "engine: recalibrated with %d catalog addition(s) in %.1f s",
                len(records),
                time.monotonic() - started,
            )

    def _give_up(self, additions: Fingerprint, exc: Exception) -> None:
        log.error(
            "engine: the catalog additions were not calibrated (%s); "
            "the previous engine serves until they change",
            exc,
            exc_info=exc,
        )
        self._settle(failed=additions)

    def _build(self, records: Sequence[admin.CatalogAdditionRecord]) -> PerfEngine:
        if not records:
            return self._base
        catalog = with_additions(
            self._base.catalog,
            stacks=[a.entry for a in records if isinstance(a.entry, Stack)],
            measurements=[a.entry for a in records if isinstance(a.entry, Measurement)],
        )
        return self._calibrate(catalog)

    def _settle(self, *, built: _Built | None = None, failed: Fingerprint | None = None) -> None:
        with self._state:
            if built is not None:
                self._built = built
            self._failed = failed
            self._settled += 1
            self._state.notify_all()


def _priced(engine: PerfEngine, prices: Sequence[admin.PriceLine]) -> PerfEngine:
    """``engine`` with the admins' price lines over its catalog's (no recalibration)."""
    if not prices:
        return engine
    lines = [
        LeasePrice(
            id=f"admin-{p.gpu}-{p.term_months}",
            gpu=p.gpu,
            term_months=p.term_months,
            usd_per_gpu_hour=p.usd_per_gpu_hour,
            valid_from=p.created_at.date(),
            source=Source(title=p.source, date=p.created_at.date()),
            notes=f"set by {p.added_by}",
        )
        for p in prices
    ]
    return replace(engine, catalog=with_additions(engine.catalog, prices=lines))
