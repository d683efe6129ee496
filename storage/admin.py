"""Admin data: price-book lines and catalog additions, each change audited.

Admins correct the packaged price book and add measurements and serving stacks
as they are published, without a release. Whether a GPU or model id exists is the
catalog's question, answered when the catalog merges these rows; storage checks
what it can on its own: numbers in range, and records the catalog's own models
accept. Every change writes an audit entry in the same savepoint.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from core.catalog import Measurement, Stack
from storage import audit
from storage.atomic import atomic
from storage.clock import Clock, from_db, to_utc, utc_now
from storage.errors import Conflict, NotFound, StorageError
from storage.fields import checked_id, checked_text
from storage.models import CatalogAddition, PriceBookEntry
from storage.questions import describe

CatalogKind = Literal["measurement", "stack"]
CatalogEntry: TypeAlias = Measurement | Stack
_RECORDS: dict[str, type[Measurement] | type[Stack]] = {
    "measurement": Measurement,
    "stack": Stack,
}
MAX_TERM_MONTHS = 120
MAX_USD_PER_GPU_HOUR = 1_000.0
"""The core's own bounds on a lease (Scenario.term_months, price_per_gpu_hour)."""


@dataclass(frozen=True)
class PriceLine:
    gpu: str
    term_months: int
    usd_per_gpu_hour: float
    source: str
    added_by: str
    created_at: dt.datetime


@dataclass(frozen=True)
class CatalogAdditionRecord:
    kind: CatalogKind
    entry: CatalogEntry
    added_by: str
    created_at: dt.datetime

    @property
    def entry_id(self) -> str:
        return self.entry.id


# --- price book ----------------------------------------------------------------------


def set_price(
    session: Session,
    *,
    gpu: str,
    term_months: int,
    usd_per_gpu_hour: float,
    source: str,
    actor: str,
    clock: Clock = utc_now,
) -> PriceLine:
    """Add the price line for a GPU at a term, or replace the one there.

    Raises:
        StorageError: a number out of range or a text field empty or too long.
    """
    gpu = checked_text(gpu, column=PriceBookEntry.gpu, field="gpu", hint="e.g. gpu=b300")
    _check_price(term_months, usd_per_gpu_hour)
    source = checked_text(
        source,
        column=PriceBookEntry.source,
        field="source",
        hint="say where the price comes from, e.g. source='MSA with Acme, 2026-11'",
    )
    actor = checked_id(actor, column=PriceBookEntry.added_by, field="actor")
    now = to_utc(clock())
    row = _price_row(session, gpu, term_months)
    previous = None if row is None else _price_detail(row)
    with atomic(session, conflict=_changed_meanwhile(f"the {gpu} {term_months}-month price")):
        if row is None:
            row = PriceBookEntry(gpu=gpu, term_months=term_months)
            session.add(row)
        row.usd_per_gpu_hour = usd_per_gpu_hour
        row.source = source
        row.added_by = actor
        row.created_at = now
        audit.record(
            session,
            actor=actor,
            action="price.set",
            target=_price_target(gpu, term_months),
            detail={**_price_detail(row), "previous": previous},
            at=now,
        )
    return _price_line(row)


def prices(session: Session) -> list[PriceLine]:
    """Every admin price line, by GPU then term."""
    rows = session.scalars(
        select(PriceBookEntry).order_by(PriceBookEntry.gpu, PriceBookEntry.term_months)
    )
    return [_price_line(row) for row in rows]


def remove_price(
    session: Session, *, gpu: str, term_months: int, actor: str, clock: Clock = utc_now
) -> PriceLine:
    """Remove a price line (the packaged book's price applies again); the line removed.

    Raises:
        NotFound: no admin line for that GPU and term.
    """
    actor = checked_id(actor, column=PriceBookEntry.added_by, field="actor")
    row = _price_row(session, gpu.strip(), term_months)
    if row is None:
        raise NotFound(
            f"no admin price for {gpu.strip()} at {term_months} months",
            field="gpu",
            hint="`admin prices` lists the lines admins have set",
        )
    gone, detail = _price_line(row), _price_detail(row)
    now = to_utc(clock())
    target = _price_target(gone.gpu, term_months)
    with atomic(session):
        session.delete(row)
        audit.record(
            session, actor=actor, action="price.remove", target=target, detail=detail, at=now
        )
    return gone


# --- catalog additions ---------------------------------------------------------------


def add_catalog_entry(
    session: Session,
    *,
    kind: CatalogKind,
    body: dict[str, Any],
    actor: str,
    clock: Clock = utc_now,
) -> CatalogAdditionRecord:
    """Add a measurement or stack, given as the catalog's YAML record (its ``id`` included).

    Raises:
        StorageError: the body is not a valid record of that kind (``field`` names
            the first problem).
        Conflict: an addition of that kind and id exists; remove it first.
    """
    entry = _entry(kind, body)
    actor = checked_id(actor, column=CatalogAddition.added_by, field="actor")
    entry_id = checked_text(
        entry.id, column=CatalogAddition.entry_id, field="id", hint="use a short, unique id"
    )
    now = to_utc(clock())
    row = CatalogAddition(
        kind=kind,
        entry_id=entry_id,
        body=entry.model_dump(mode="json", exclude_unset=True),
        added_by=actor,
        created_at=now,
    )
    conflict = Conflict(
        f"a {kind} with id {entry_id!r} has already been added",
        field="id",
        hint=f"remove it first (`admin remove {kind} {entry_id}`) or choose another id",
    )
    with atomic(session, conflict=conflict):
        session.add(row)
        audit.record(
            session,
            actor=actor,
            action=f"{kind}.add",
            target=f"{kind} {entry_id}",
            detail=row.body,
            at=now,
        )
    return CatalogAdditionRecord(kind=kind, entry=entry, added_by=actor, created_at=now)


def catalog_additions(
    session: Session, *, kind: CatalogKind | None = None
) -> list[CatalogAdditionRecord]:
    """The additions (of one kind, or all), oldest first, validated as catalog records."""
    statement = select(CatalogAddition).order_by(CatalogAddition.id)
    if kind is not None:
        statement = statement.where(CatalogAddition.kind == kind)
    return [_addition(row) for row in session.scalars(statement)]


def catalog_fingerprint(session: Session) -> tuple[tuple[object, ...], ...]:
    """Which additions exist, without reading their bodies: cheap enough for every request.

    Any add or remove changes it: the row id and time tell apart an entry removed
    and added again under the same id (SQLite may reuse the row id).
    """
    rows = session.execute(
        select(
            CatalogAddition.id,
            CatalogAddition.kind,
            CatalogAddition.entry_id,
            CatalogAddition.created_at,
        ).order_by(CatalogAddition.id)
    )
    return tuple((row_id, kind, entry_id, from_db(at)) for row_id, kind, entry_id, at in rows)


def remove_catalog_entry(
    session: Session, *, kind: CatalogKind, entry_id: str, actor: str, clock: Clock = utc_now
) -> None:
    """Remove an addition (the packaged catalog is unaffected).

    Raises:
        NotFound: no addition of that kind and id.
    """
    actor = checked_id(actor, column=CatalogAddition.added_by, field="actor")
    row = session.scalars(
        select(CatalogAddition).where(
            CatalogAddition.kind == kind, CatalogAddition.entry_id == entry_id.strip()
        )
    ).one_or_none()
    if row is None:
        raise NotFound(
            f"no added {kind} with id {entry_id.strip()!r}",
            field="id",
            hint="`admin audit` shows what admins have added and removed",
        )
    now = to_utc(clock())
    target, body = f"{kind} {row.entry_id}", row.body
    with atomic(session):
        session.delete(row)
        audit.record(
            session, actor=actor, action=f"{kind}.remove", target=target, detail=body, at=now
        )


# --- helpers -------------------------------------------------------------------------


def _check_price(term_months: int, usd_per_gpu_hour: float) -> None:
    if not 0 <= term_months <= MAX_TERM_MONTHS:
        raise StorageError(
            f"term_months is {term_months}; it must be 0 (on demand) to {MAX_TERM_MONTHS}",
            field="term_months",
            hint="e.g. term_months=36",
        )
    if not (math.isfinite(usd_per_gpu_hour) and 0 < usd_per_gpu_hour <= MAX_USD_PER_GPU_HOUR):
        raise StorageError(
            f"usd_per_gpu_hour is {usd_per_gpu_hour}; it must be above 0 and at most "
            f"{MAX_USD_PER_GPU_HOUR:,.0f}",
            field="usd_per_gpu_hour",
            hint="e.g. usd_per_gpu_hour=5.00",
        )


def _price_row(session: Session, gpu: str, term_months: int) -> PriceBookEntry | None:
    return session.scalars(
        select(PriceBookEntry).where(
            PriceBookEntry.gpu == gpu, PriceBookEntry.term_months == term_months
        )
    ).one_or_none()


def _price_line(row: PriceBookEntry) -> PriceLine:
    return PriceLine(
        gpu=row.gpu,
        term_months=row.term_months,
        usd_per_gpu_hour=row.usd_per_gpu_hour,
        source=row.source,
        added_by=row.added_by,
        created_at=from_db(row.created_at),
    )


def _price_detail(row: PriceBookEntry) -> dict[str, Any]:
    return {"usd_per_gpu_hour": row.usd_per_gpu_hour, "source": row.source}


def _price_target(gpu: str, term_months: int) -> str:
    return f"price {gpu} {term_months} months"


def _entry(kind: str, body: dict[str, Any]) -> CatalogEntry:
    record = _RECORDS.get(kind)
    if record is None:
        raise StorageError(
            f"catalog additions are measurements or stacks, not {kind!r}",
            field="kind",
            hint="e.g. kind=measurement",
        )
    try:
        return record.model_validate(body)
    except ValidationError as exc:
        location = exc.errors(include_url=False)[0]["loc"]
        raise StorageError(
            f"the {kind} is not a valid catalog record: {describe(exc)}",
            field=str(location[0]) if location else "body",
            hint=f"write it as in the packaged catalog's {kind}s file",
        ) from exc


def _addition(row: CatalogAddition) -> CatalogAdditionRecord:
    where = f"added {row.kind} {row.entry_id!r}"
    record = _RECORDS.get(row.kind)
    if record is None:
        raise StorageError(f"{where} is of unknown kind {row.kind!r}", field="kind")
    try:
        entry = record.model_validate(row.body)
    except ValidationError as exc:
        raise StorageError(
            f"{where} is no longer a valid catalog record: {describe(exc)}",
            field="body",
            hint="remove it and add it again in the current format",
        ) from exc
    kind: CatalogKind = "measurement" if row.kind == "measurement" else "stack"
    return CatalogAdditionRecord(
        kind=kind, entry=entry, added_by=row.added_by, created_at=from_db(row.created_at)
    )


def _changed_meanwhile(what: str) -> Conflict:
    return Conflict(f"{what} was changed by someone else at the same moment", hint="try again")
