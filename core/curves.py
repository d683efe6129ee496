"""The numbers behind the charts, computed here so a PNG never does its own arithmetic.

Every point comes from the same ``core.cost`` and ``core.sizing`` formulas the text
answers use, so a chart and the message above it can never disagree.
"""

from __future__ import annotations

import math
import re
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from core import cost
from core.catalog import Catalog
from core.errors import InputError
from core.scenario import Basis, Estimate
from core.sizing import Sizing, months_of_headroom

LOWEST_UTILIZATION = 0.05
"""Below 5% busy the $/M explodes towards infinity and flattens the rest of the chart."""


class CostCurve(BaseModel):
    """Lease $/M output tokens as the deployment gets busier, against the API's price."""

    model_config = ConfigDict(frozen=True)

    utilization: list[float]
    usd_per_million: list[float]
    api_usd_per_million: float | None
    breakeven_utilization: float | None
    current_utilization: float
    current_usd_per_million: float
    title: str
    basis: Basis
    error_band: float


class GrowthCurve(BaseModel):
    """GPUs the growing peak needs, month by month, against the GPUs leased."""

    model_config = ConfigDict(frozen=True)

    months: list[int]
    gpus_needed: list[int]
    gpus_leased: int
    gpus_per_replica: int
    months_of_headroom: float | None
    monthly_growth: float
    title: str
    basis: Basis
    error_band: float


NonNegative = Annotated[float, Field(ge=0)]


class BeforeAfter(BaseModel):
    """Paired figures before and after an optimization, in one unit, for a bar chart."""

    model_config = ConfigDict(frozen=True, allow_inf_nan=False)

    labels: list[str] = Field(min_length=1)
    before: list[NonNegative]
    after: list[NonNegative]
    unit: str = Field(min_length=1)
    title: str
    footnote: str | None = None

    @model_validator(mode="after")
    def _paired(self) -> BeforeAfter:
        if not len(self.labels) == len(self.before) == len(self.after):
            raise ValueError("labels, before and after must have the same length")
        return self


def cost_curve(
    estimate: Estimate, *, points: int = 60, catalog: Catalog | None = None
) -> CostCurve:
    """``catalog`` only lends display names to the title; ids are used without it."""
    if points < 2:
        raise InputError(
            "a cost curve needs at least two points", field="points", hint="e.g. points=60"
        )
    tokens_per_s, band = estimate.output_tokens_per_s, estimate.error_band
    if tokens_per_s is None or band is None:
        raise InputError(
            f"no cost curve: {estimate.model} does not fit in memory on {estimate.gpus} "
            f"{estimate.gpu}",
            field="gpus",
            hint=f"e.g. gpus={estimate.memory.min_gpus or estimate.gpus * 2}",
        )
    hourly = cost.usd_per_hour(gpus=estimate.gpus, price_per_gpu_hour=estimate.price_per_gpu_hour)
    step = (1.0 - LOWEST_UTILIZATION) / (points - 1)
    utilization = [LOWEST_UTILIZATION + i * step for i in range(points - 1)] + [1.0]

    def at(u: float) -> float:
        return cost.usd_per_million_output_tokens(
            hourly_usd=hourly, tokens_per_s=tokens_per_s, utilization=u
        )

    api = estimate.api_usd_per_million_output_tokens
    breakeven = (
        None
        if api is None
        else cost.breakeven_utilization(
            hourly_usd=hourly, tokens_per_s=tokens_per_s, api_usd_per_million=api
        )
    )
    model, gpu = _names(catalog, estimate.model, estimate.gpu)
    return CostCurve(
        utilization=utilization,
        usd_per_million=[at(u) for u in utilization],
        api_usd_per_million=api,
        breakeven_utilization=breakeven,
        current_utilization=estimate.utilization,
        current_usd_per_million=at(estimate.utilization),
        title=f"{model} on {estimate.gpus}x {gpu}, batch {estimate.concurrency}",
        basis=estimate.basis,
        error_band=band,
    )


def growth_curve(
    sizing: Sizing, *, option: int = 0, months: int = 36, catalog: Catalog | None = None
) -> GrowthCurve:
    """GPUs needed are those that carry the peak at full load, the rule
    ``core.sizing.months_of_headroom`` uses, so the need first exceeds the lease in
    the first whole month after the headroom the sizing quoted (floor(h) + 1). The
    planned utilization is the margin the sizing leased on top, so month 0 may need
    fewer GPUs than are leased."""
    if not sizing.options:
        raise InputError(
            "this traffic has no lease option to chart growth for",
            field="option",
            hint="size a traffic that fits first, e.g. allow more GPUs or relax the speed asked",
        )
    if not 0 <= option < len(sizing.options):
        raise InputError(
            f"there is no option {option + 1}; the sizing has {len(sizing.options)}",
            field="option",
            hint=f"pick one of 1-{len(sizing.options)}",
        )
    if months < 1:
        raise InputError("a growth curve needs at least one month", field="months", hint="36")
    o = sizing.options[option]
    peak, growth = sizing.peak_output_tokens_per_s, sizing.monthly_growth

    def needed(month: int) -> int:
        replicas = math.ceil(peak * (1 + growth) ** month / o.replica_output_tokens_per_s)
        return max(1, replicas) * o.gpus_per_replica

    model, gpu = _names(catalog, sizing.model, o.gpu)
    return GrowthCurve(
        months=list(range(months + 1)),
        gpus_needed=[needed(m) for m in range(months + 1)],
        gpus_leased=o.gpus,
        gpus_per_replica=o.gpus_per_replica,
        months_of_headroom=months_of_headroom(
            capacity=o.replicas * o.replica_output_tokens_per_s,
            peak=peak,
            monthly_growth=growth,
        ),
        monthly_growth=growth,
        title=f"{model} on {o.gpus:,} {gpu} ({o.replicas}x{o.gpus_per_replica}), "
        + (f"peak growing {growth * 100:.3g}%/month" if growth > 0 else "flat peak"),
        basis=o.basis,
        error_band=o.error_band,
    )


def before_after(
    pairs: list[tuple[str, float, float]],
    *,
    unit: str,
    title: str,
    footnote: str | None = None,
) -> BeforeAfter:
    """``pairs`` are (label, before, after); a bad figure is an InputError naming it."""
    if not pairs:
        raise InputError(
            "nothing to chart: no before/after figures",
            field="pairs",
            hint='give at least one (label, before, after), e.g. ("batch 64", 9.98, 6.16)',
        )
    try:
        return BeforeAfter(
            labels=[label for label, _, _ in pairs],
            before=[b for _, b, _ in pairs],
            after=[a for _, _, a in pairs],
            unit=unit,
            title=title,
            footnote=footnote,
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = first["loc"]
        where = str(loc[0]) if loc else "pairs"
        if len(loc) > 1 and isinstance(loc[1], int) and where in ("before", "after"):
            where = f"{where} figure of {pairs[loc[1]][0]!r}"
        raise InputError(
            f"cannot chart the {where}: {first['msg'].lower()}",
            field=str(loc[0]) if loc else "pairs",
            hint="give at least one (label, before, after) with finite figures of 0 or more",
        ) from exc


def _names(catalog: Catalog | None, model_id: str, gpu_id: str) -> tuple[str, str]:
    """Display names without the datasheet's parenthetical, short enough for a title."""
    if catalog is None:
        return model_id, gpu_id
    model = catalog.models.entries.get(model_id)
    gpu = catalog.gpus.entries.get(gpu_id)
    return (
        model.name if model else model_id,
        re.sub(r"\s*\(.*\)$", "", gpu.name) if gpu else gpu_id,
    )
