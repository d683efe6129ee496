"""A saved question's economics as of two dates, through the same engine.

The engine's catalog knows every stack; ``as_of`` decides which were available,
so pricing the same question on the two dates isolates what the newer stacks did.
"""

from __future__ import annotations

import datetime as dt
from typing import TypeVar

from core.catalog import Catalog
from core.changes.move import UNCHANGED, Kind, QuoteMove
from core.changes.names import gpu_name, stack_name
from core.errors import InputError, LeasewiseError
from core.estimate import estimate
from core.perf.engine import PerfEngine
from core.scenario import Scenario
from core.sizing import Sizing, SizingOption, months_of_headroom, size
from core.traffic import Traffic

Q = TypeVar("Q", Scenario, Traffic)


def reprice(
    question: Scenario | Traffic, engine: PerfEngine, *, before: dt.date, after: dt.date
) -> QuoteMove:
    """The move of one question from ``before`` to ``after``; never raises for a bad quote,
    because one broken quote must not stop a digest of thousands."""
    kind: Kind = "traffic" if isinstance(question, Traffic) else "scenario"
    if question.as_of is not None:
        return QuoteMove(
            kind=kind,
            before=before,
            after=after,
            pinned=True,
            pinned_to=question.as_of,
        )
    try:
        if isinstance(question, Traffic):
            return _traffic(question, engine, before, after)
        return _scenario(question, engine, before, after)
    except LeasewiseError as exc:
        message = exc.message if isinstance(exc, InputError) else str(exc)
        return QuoteMove(kind=kind, before=before, after=after, error=message)


def _dated(question: Q, day: dt.date) -> Q:
    """The question as of ``day``; one that names its stack keeps it, since the date
    cannot change its stack and would refuse a stack released after ``day``."""
    if question.stack is not None:
        return question
    return question.model_copy(update={"as_of": day})


def _scenario(question: Scenario, engine: PerfEngine, before: dt.date, after: dt.date) -> QuoteMove:
    old = estimate(_dated(question, before), engine)
    new = estimate(_dated(question, after), engine)
    if old.usd_per_million_output_tokens is None or new.usd_per_million_output_tokens is None:
        raise InputError(
            f"{question.model} does not fit in memory on {old.gpus} {old.gpu}: nothing to re-price"
        )
    rel = new.usd_per_million_output_tokens / old.usd_per_million_output_tokens - 1
    catalog = engine.catalog
    return QuoteMove(
        kind="scenario",
        before=before,
        after=after,
        gpu=old.gpu,
        gpu_name=gpu_name(catalog, old.gpu),
        gpus_per_replica=old.gpus,
        stack_before=old.stack,
        stack_after=new.stack,
        stack_before_name=stack_name(catalog, old.stack),
        stack_after_name=stack_name(catalog, new.stack),
        usd_per_month=old.usd_per_month,
        usd_per_month_before=old.usd_per_month,
        usd_per_month_after=new.usd_per_month,
        gpus_before=old.gpus,
        gpus_after=new.gpus,
        tokens_per_s_before=old.output_tokens_per_s,
        tokens_per_s_after=new.output_tokens_per_s,
        usd_per_million_before=old.usd_per_million_output_tokens,
        usd_per_million_after=new.usd_per_million_output_tokens,
        breakeven_utilization_before=old.breakeven_utilization,
        breakeven_utilization_after=new.breakeven_utilization,
        basis_after=new.basis,
        error_band_after=new.error_band,
        relative_change=rel,
        monthly_impact_usd=-old.usd_per_month * rel,
        regression=rel > UNCHANGED,
    )


def _traffic(question: Traffic, engine: PerfEngine, before: dt.date, after: dt.date) -> QuoteMove:
    """The lease signed before, held fixed: its capacity after gives the headroom; the
    cheapest option after is what the next renewal would sign."""
    old = size(_dated(question, before), engine)
    new = size(_dated(question, after), engine)
    if not old.options:
        reason = old.infeasible.explanation if old.infeasible else "no option"
        raise InputError(f"no lease option carried this traffic as of {before}: {reason}")
    lease = old.options[0]
    same_shape = _same_shape(new, lease)
    per_replica = _replica_capacity(new, lease, engine.catalog)
    capacity_before = lease.replicas * lease.replica_output_tokens_per_s
    capacity_after = lease.replicas * per_replica
    renewal = new.options[0] if new.options else None
    shown = same_shape or renewal
    rel, saved = 0.0, 0.0
    if renewal is not None:
        rel = renewal.usd_per_million_output_tokens / lease.usd_per_million_output_tokens - 1
        saved = lease.usd_per_month - renewal.usd_per_month
    if abs(saved) <= UNCHANGED:
        # the same bill either way: value the capacity the change freed (or took) in
        # the lease, as the Scenario's $/M change values it
        saved = (
            lease.usd_per_month * (1 - capacity_before / capacity_after)
            if capacity_after > 0
            else -lease.usd_per_month
        )
    growth = question.monthly_growth
    catalog = engine.catalog
    return QuoteMove(
        kind="traffic",
        before=before,
        after=after,
        gpu=lease.gpu,
        gpu_name=gpu_name(catalog, lease.gpu),
        replicas=lease.replicas,
        gpus_per_replica=lease.gpus_per_replica,
        stack_before=lease.stack,
        stack_after=(shown or lease).stack,
        stack_before_name=stack_name(catalog, lease.stack),
        stack_after_name=stack_name(catalog, (shown or lease).stack),
        usd_per_month=lease.usd_per_month,
        usd_per_month_before=lease.usd_per_month,
        usd_per_month_after=renewal.usd_per_month if renewal else None,
        gpus_before=lease.gpus,
        gpus_after=renewal.gpus if renewal else None,
        tokens_per_s_before=capacity_before,
        tokens_per_s_after=capacity_after,
        usd_per_million_before=lease.usd_per_million_output_tokens,
        usd_per_million_after=renewal.usd_per_million_output_tokens if renewal else None,
        breakeven_utilization_before=old.api.breakeven_utilization if old.api else None,
        breakeven_utilization_after=new.api.breakeven_utilization if new.api else None,
        basis_after=shown.basis if shown else None,
        error_band_after=shown.error_band if shown else None,
        monthly_growth=growth,
        months_of_headroom_before=lease.months_of_headroom,
        months_of_headroom_after=(
            months_of_headroom(
                capacity=capacity_after,
                peak=old.peak_output_tokens_per_s,
                monthly_growth=growth,
            )
            if capacity_after > 0
            else 0.0
        ),
        relative_change=rel,
        monthly_impact_usd=saved,
        regression=(
            renewal is None or rel > UNCHANGED or capacity_after < capacity_before * (1 - UNCHANGED)
        ),
    )


def _same_shape(sizing: Sizing, lease: SizingOption) -> SizingOption | None:
    for option in sizing.options:
        if (option.gpu, option.gpus_per_replica) == (lease.gpu, lease.gpus_per_replica):
            return option
    return None


def _replica_capacity(sizing: Sizing, lease: SizingOption, catalog: Catalog) -> float:
    """Tokens/s one replica of the lease's shape serves at the SLA in ``sizing``.

    Sizing finds each shape's batch at the SLA independently of the volume, so its
    option of this shape gives the capacity. A shape now too large for one quote is
    rejected with the traffic its largest quote would carry (per replica x planned
    utilization x replicas that fit), from which the per-replica figure comes back;
    a shape that no longer meets the SLA at all carries nothing.
    """
    option = _same_shape(sizing, lease)
    if option is not None:
        return option.replica_output_tokens_per_s
    most = catalog.engine.max_gpus_per_quote // lease.gpus_per_replica
    for r in sizing.rejected:
        if (r.gpu, r.gpus_per_replica, r.constraint) == (
            lease.gpu,
            lease.gpus_per_replica,
            "scale",
        ):
            return (r.best or 0.0) / (sizing.planned_utilization * most)
    return 0.0
