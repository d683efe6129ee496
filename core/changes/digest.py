"""A digest period over every saved quote: which moved materially, ranked by dollars.

Quotes stream through once; only material moves are kept, and questions many
quotes share are repriced once, so a change against ten thousand quotes is a few
hundred engine calls rather than twenty thousand.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict

from core.catalog import Catalog
from core.catalog.entries import Stack
from core.changes.feed import CatalogChange, changes_between
from core.changes.move import UNCHANGED, Kind, QuoteMove, is_material
from core.changes.names import stack_name
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


class Trend(BaseModel):
    """One clause of the digest's headline: the material moves that went one way.

    ``cheaper`` and ``dearer`` are about $/M (``low``/``high``: the smallest and the
    largest size of the change, as fractions; ``gpu_sizes``: the replica sizes they
    are on); ``roomier`` moved capacity at the same cost (``months_low``/``months_high``:
    headroom gained, where a month or more was); ``smaller`` lost capacity.
    """

    model_config = ConfigDict(frozen=True)

    direction: Literal["cheaper", "roomier", "dearer", "smaller"]
    quotes: int
    low: float | None = None
    high: float | None = None
    gpu_sizes: list[int] = []
    months_low: float | None = None
    months_high: float | None = None


class Digest(BaseModel):
    """A digest period's figures; ``bot/render/templates/_digest.j2`` words them.

    The headline names ``switched_to`` (new stacks the moved quotes now run on), else
    ``measured`` (stacks newly measured), else catalog updates, then each of ``trends``.
    """

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
    switched_to: list[str] = []
    measured: list[str] = []
    trends: list[Trend] = []
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
        switched_to=switched_to(moves, changes),
        measured=sorted(
            {stack_name(engine.catalog, c.stack) for c in changes if c.kind == "measurement"}
        ),
        trends=trends(moves),
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


def switched_to(moves: list[QuoteMove], changes: list[CatalogChange]) -> list[str]:
    """Names of the period's new stacks that the moved quotes now run on."""
    switched = {m.stack_after for m in moves if m.stack_after != m.stack_before}
    return [c.name for c in changes if c.kind == "stack" and c.id in switched]


def trends(moves: list[QuoteMove]) -> list[Trend]:
    """The headline's clauses, in the order a manager reads them: good news first."""
    cheaper = [m for m in moves if not m.regression and m.relative_change < -UNCHANGED]
    roomier = [m for m in moves if not m.regression and m.relative_change >= -UNCHANGED]
    dearer = [m for m in moves if m.regression and m.relative_change > UNCHANGED]
    smaller = [m for m in moves if m.regression and m.relative_change <= UNCHANGED]
    out = []
    if cheaper:
        out.append(_per_token("cheaper", cheaper))
    if roomier:
        gains = [h for m in roomier if (h := m.headroom_change_months) is not None and h >= 1]
        out.append(
            Trend(
                direction="roomier",
                quotes=len(roomier),
                months_low=min(gains) if gains else None,
                months_high=max(gains) if gains else None,
            )
        )
    if dearer:
        out.append(_per_token("dearer", dearer))
    if smaller:
        out.append(Trend(direction="smaller", quotes=len(smaller)))
    return out


def _per_token(direction: Literal["cheaper", "dearer"], moves: list[QuoteMove]) -> Trend:
    sizes = [abs(m.relative_change) for m in moves]
    return Trend(
        direction=direction,
        quotes=len(moves),
        low=min(sizes),
        high=max(sizes),
        gpu_sizes=sorted({m.gpus_per_replica for m in moves if m.gpus_per_replica is not None}),
    )
