"""The engine as of the database: packaged catalog + admin additions and price lines.

Admins change the price book and add stacks or measurements from Slack while the
app runs, and every replica must answer with them. Each request asks for the
current engine; a fingerprint of the additions decides whether the cached one
still holds. A price line only swaps the catalog (calibration is unchanged); a
new stack or measurement recalibrates, once, under a lock, in whichever thread
first needs it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace

from sqlalchemy.orm import Session, sessionmaker

from core.catalog.additions import with_additions
from core.catalog.entries import LeasePrice, Measurement, Source, Stack
from core.perf.engine import PerfEngine
from core.perf.validation import build_engine
from storage import admin

Fingerprint = tuple[tuple[object, ...], ...]


class EngineSource:
    """Hands out the engine that matches the database's additions right now."""

    def __init__(
        self,
        base: PerfEngine,
        session_factory: sessionmaker[Session],
        *,
        calibrate: Callable[..., PerfEngine] = build_engine,
    ) -> None:
        self._base = base
        self._sessions = session_factory
        self._calibrate = calibrate
        self._lock = threading.Lock()
        self._entries_key: Fingerprint = ()
        self._calibrated = base
        self._key: tuple[Fingerprint, Fingerprint] = ((), ())
        self._engine = base

    @property
    def base(self) -> PerfEngine:
        """The packaged engine, before any addition (what the CLI answers with)."""
        return self._base

    def current(self) -> PerfEngine:
        with self._sessions() as session:
            prices = admin.prices(session)
            additions = admin.catalog_additions(session)
        price_key: Fingerprint = tuple(
            (p.gpu, p.term_months, p.usd_per_gpu_hour, p.source, p.created_at) for p in prices
        )
        entries_key: Fingerprint = tuple((a.kind, a.entry_id, a.created_at) for a in additions)
        if (entries_key, price_key) == self._key:
            return self._engine
        with self._lock:
            if (entries_key, price_key) == self._key:
                return self._engine
            stacks = [a.entry for a in additions if isinstance(a.entry, Stack)]
            measurements = [a.entry for a in additions if isinstance(a.entry, Measurement)]
            if entries_key != self._entries_key:
                catalog = with_additions(
                    self._base.catalog, stacks=stacks, measurements=measurements
                )
                self._calibrated = self._calibrate(catalog) if additions else self._base
                self._entries_key = entries_key
            lines = [
                LeasePrice(
                    id=f"admin-{p.gpu}-{p.term_months}",
                    gpu=p.gpu,
                    term_months=p.term_months,
                    usd_per_gpu_hour=p.usd_per_gpu_hour,
                    source=Source(title=p.source, date=p.created_at.date()),
                    notes=f"set by {p.added_by}",
                )
                for p in prices
            ]
            catalog = with_additions(self._calibrated.catalog, prices=lines)
            self._engine = replace(self._calibrated, catalog=catalog) if lines else self._calibrated
            self._key = (entries_key, price_key)
            return self._engine
