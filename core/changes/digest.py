"""A digest period over every saved quote: which moved materially, ranked by dollars.

Quotes stream through once; only material moves are kept, and questions many
quotes share are repriced once, so a change against ten thousand quotes is a few
hundred engine calls rather than twenty thousand.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from core.catalog import Catalog
from core.catalog.entries import Stack
from core.changes import wording
from core.changes.feed import CatalogChange, changes_between
from core.changes.move import UNCHANGED, Kind, QuoteMove, is_material
from core.changes.reprice import reprice
from core.errors import LeasewiseError
from core.perf.engine import PerfEngine
from core.scenario import Scenario
from core.traffic import Traffic

MEMO_SIZE = 4096
"""Distinct questions remembered at once: bounds memory when every quote differs."""


class QuoteRef(BaseModel):
    """A saved quote as the digest names it; core needs no storage types."""

    model_config = ConfigDict(frozen=True)

    id: int
    name: str
    customer: str


class Digest(BaseModel):
    model_config = ConfigDict(frozen=True)

    since: dt.date
    until: dt.date
    threshold_pct: float
    threshold_usd: float
    changes: list[CatalogChange]
    moves: list[tuple[QuoteRef, QuoteMove]]
    """Material moves only, largest monthly impact first."""
    quotes_checked: int
    regressions: int
    """Material moves that made a quote worse."""
    errors: int
    """Quotes the engine could not price (their move carries the reason)."""
    headline: str
    top: int = 10

    @property
    def is_empty(self) -> bool:
        return not self.moves

    @property
    def top_moves(self) -> list[tuple[QuoteRef, QuoteMove]]:
        return self.moves[: self.top]


def digest_for(
    quotes: Iterable[tuple[QuoteRef, Scenario | Traffic]],
    engine: PerfEngine,
    *,
    since: dt.date,
    until: dt.date,
    threshold_pct: float,
    threshold_usd: float,
    top: int = 10,
) -> Digest:
    memo: OrderedDict[str, QuoteMove] = OrderedDict()
    material: list[tuple[QuoteRef, QuoteMove]] = []
    checked = errors = 0
    changes = changes_between(engine.catalog, since, until)
    new_stacks = [engine.catalog.stacks.get(c.id) for c in changes if c.kind == "stack"]
    for ref, question in quotes:
        checked += 1
        key = f"{type(question).__name__}:{question.model_dump_json()}"
        move = memo.get(key)
        if move is None:
            if untouched(question, new_stacks, engine.catalog):
                move = QuoteMove(kind=_kind(question), before=since, after=until)
            else:
                move = reprice(question, engine, before=since, after=until)
            memo[key] = move
            if len(memo) > MEMO_SIZE:
                memo.popitem(last=False)
        else:
            memo.move_to_end(key)
        errors += move.error is not None
        if is_material(move, threshold_pct=threshold_pct, threshold_usd=threshold_usd):
            material.append((ref, move))
    material.sort(key=lambda rm: (-abs(rm[1].monthly_impact_usd), rm[0].name, rm[0].id))
    moves = [m for _, m in material]
    return Digest(
        since=since,
        until=until,
        threshold_pct=threshold_pct,
        threshold_usd=threshold_usd,
        changes=changes,
        moves=material,
        quotes_checked=checked,
        regressions=sum(m.regression for m in moves),
        errors=errors,
        headline=headline(
            moves,
            changes,
            engine.catalog,
            threshold_pct=threshold_pct,
            threshold_usd=threshold_usd,
        ),
        top=top,
    )


def untouched(question: Scenario | Traffic, new_stacks: list[Stack], catalog: Catalog) -> bool:
    """True when no stack released in the period can serve the question, so its economics
    cannot have moved (``as_of`` only changes which stacks are eligible): the digest
    then skips re-pricing it, which is what makes thousands of quotes cheap to check.
    Questions the catalog cannot read are re-priced, so their error is reported."""
    if question.stack is not None or question.as_of is not None:
        return True
    try:
        model = catalog.models.get(question.model).id
        if isinstance(question, Traffic):
            gpus = [catalog.gpus.get(g).id for g in question.gpus] if question.gpus else None
        else:
            gpus = [catalog.gpus.get(question.gpu).id]
    except LeasewiseError:
        return False
    return not any(
        (not stack.models or model in stack.models)
        and (gpus is None or not stack.gpus or any(g in stack.gpus for g in gpus))
        for stack in new_stacks
    )


def _kind(question: Scenario | Traffic) -> Kind:
    return "traffic" if isinstance(question, Traffic) else "scenario"


def headline(
    moves: list[QuoteMove],
    changes: list[CatalogChange],
    catalog: Catalog,
    *,
    threshold_pct: float,
    threshold_usd: float,
) -> str:
    """One line a manager reads: who did it, which way, by how much, on what."""
    if not moves:
        return (
            f"no saved quote moved by more than {threshold_pct:g}% or ${threshold_usd:,.0f}/month"
        )
    cheaper = [m for m in moves if not m.regression and m.relative_change < -UNCHANGED]
    roomier = [m for m in moves if not m.regression and m.relative_change >= -UNCHANGED]
    dearer = [m for m in moves if m.regression and m.relative_change > UNCHANGED]
    smaller = [m for m in moves if m.regression and m.relative_change <= UNCHANGED]
    parts = []
    if cheaper:
        parts.append(
            f"cut cost per M output tokens {_span(cheaper)} on {_sizes(cheaper)} deployments"
        )
    if roomier:
        months = [h for m in roomier if (h := m.headroom_change_months) is not None and h >= 1]
        parts.append(
            f"added {_months(months)} of headroom to {_quotes(len(roomier))}"
            if months
            else f"gave {_quotes(len(roomier))} more capacity at the same cost"
        )
    if dearer:
        parts.append(
            f"raised cost per M output tokens {_span(dearer)} on {_sizes(dearer)} deployments"
        )
    if smaller:
        parts.append(f"cut the capacity of {_quotes(len(smaller))}")
    return f"{_subject(moves, changes, catalog)} {_join(parts)}"


def _subject(moves: list[QuoteMove], changes: list[CatalogChange], catalog: Catalog) -> str:
    """The new stacks the moved quotes now run on, else the stacks newly measured."""
    switched = {m.stack_after for m in moves if m.stack_after != m.stack_before}
    named = [c.name for c in changes if c.kind == "stack" and c.id in switched]
    if named:
        return _join(named)
    measured = sorted(
        {wording.stack_name(catalog, c.stack) for c in changes if c.kind == "measurement"}
    )
    if measured:
        return f"new measurements of {_join(measured)}"
    return "catalog updates"


def _span(moves: list[QuoteMove]) -> str:
    sizes = [abs(m.relative_change) for m in moves]
    low, high = wording.percent(min(sizes)), wording.percent(max(sizes))
    return high if low == high else f"{low[:-1]}-{high}"


def _sizes(moves: list[QuoteMove]) -> str:
    counts = sorted({m.gpus_per_replica for m in moves if m.gpus_per_replica is not None})
    if not counts:
        return "all"
    if len(counts) == 1:
        return f"{counts[0]}-GPU"
    return f"{counts[0]}- to {counts[-1]}-GPU"


def _months(gains: list[float]) -> str:
    low, high = int(min(gains)), int(max(gains))
    return f"{high} months" if low == high else f"{low}-{high} months"


def _quotes(n: int) -> str:
    return f"{n} saved quote{'s' if n != 1 else ''}"


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
