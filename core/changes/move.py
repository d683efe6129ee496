"""One saved quote's economics before and after a change, and whether it matters.

A move answers the sales engineer's two questions: is this quote now cheaper (or
dearer) per token, and does the lease the customer signed last longer before it
needs more GPUs. Dollars per month put both on one scale so a digest can rank them.

A move holds figures and the names they are about, never sentences: the digest's
templates (``bot/render/templates/_digest.j2``) say what a move means, with the
same number formatting as every other reply. The properties below decide what is
noise (a float difference from the same measurement) so a template never does.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict

from core.scenario import Basis

Kind = Literal["scenario", "traffic"]

UNCHANGED = 1e-9
"""Relative differences below this are float noise from the same measurement."""
BREAKEVEN_SHOWN = 0.005
"""A breakeven utilization that moves less than this shows the same whole percentage."""


class QuoteMove(BaseModel):
    """A quote repriced as of ``before`` and as of ``after``.

    For a Scenario the lease is the quote's own deployment. For a Traffic it is the
    option the customer would have leased before (``deployment``), held fixed to
    show its new capacity and headroom; ``gpus_*``, ``usd_per_month_*`` and
    ``usd_per_million_*`` are the cheapest option on each date (what a renewal
    would sign).
    """

    model_config = ConfigDict(frozen=True)

    kind: Kind
    before: dt.date
    after: dt.date
    pinned: bool = False
    pinned_to: dt.date | None = None
    """The ``as_of`` a pinned quote keeps: its economics are not repriced."""
    error: str | None = None
    gpu: str | None = None
    gpu_name: str | None = None
    """The GPU as a sentence names it ("NVIDIA B300")."""
    replicas: int | None = None
    """Replicas of the lease held fixed (a Traffic quote); None for a Scenario's one."""
    gpus_per_replica: int | None = None
    stack_before: str | None = None
    stack_after: str | None = None
    stack_before_name: str | None = None
    stack_after_name: str | None = None
    usd_per_month: float | None = None
    """The lease held fixed, per month."""
    usd_per_month_before: float | None = None
    usd_per_month_after: float | None = None
    gpus_before: int | None = None
    gpus_after: int | None = None
    tokens_per_s_before: float | None = None
    tokens_per_s_after: float | None = None
    usd_per_million_before: float | None = None
    usd_per_million_after: float | None = None
    breakeven_utilization_before: float | None = None
    breakeven_utilization_after: float | None = None
    basis_after: Basis | None = None
    error_band_after: float | None = None
    monthly_growth: float | None = None
    months_of_headroom_before: float | None = None
    months_of_headroom_after: float | None = None
    relative_change: float = 0.0
    """after $/M / before $/M - 1: negative is cheaper per token."""
    monthly_impact_usd: float = 0.0
    """What the change is worth a month: positive saves money, negative costs it."""
    regression: bool = False

    @property
    def cost_changed(self) -> bool:
        """The $/M moved by more than float noise."""
        return abs(self.relative_change) > UNCHANGED

    @property
    def dearer(self) -> bool:
        return self.relative_change > UNCHANGED

    @property
    def stack_changed(self) -> bool:
        return self.stack_before != self.stack_after

    @property
    def throughput_changed(self) -> bool:
        """Tokens/s of the same deployment moved (both known, by more than noise)."""
        b, a = self.tokens_per_s_before, self.tokens_per_s_after
        if not b or not a:
            return False
        return abs(a / b - 1) > UNCHANGED

    @property
    def capacity_change(self) -> float | None:
        """after / before - 1 of the held lease's capacity, when it moved; None otherwise
        (and when the lease no longer carries anything: see ``capacity_lost``)."""
        b, a = self.tokens_per_s_before, self.tokens_per_s_after
        if not b or not a or abs(a / b - 1) <= UNCHANGED:
            return None
        return a / b - 1

    @property
    def capacity_lost(self) -> bool:
        """The lease held fixed no longer meets the SLA at all."""
        return bool(self.tokens_per_s_before) and self.tokens_per_s_after == 0

    @property
    def saves_usd(self) -> float | None:
        """What the move saves a month, when it saves anything."""
        return self.monthly_impact_usd if self.monthly_impact_usd > UNCHANGED else None

    @property
    def costs_usd(self) -> float | None:
        """What the move costs a month, when it costs anything."""
        return -self.monthly_impact_usd if self.monthly_impact_usd < -UNCHANGED else None

    @property
    def renewal_saving_usd(self) -> float | None:
        """What signing the cheapest option again saves a month, when it saves anything."""
        if self.usd_per_month_before is None or self.usd_per_month_after is None:
            return None
        saved = self.usd_per_month_before - self.usd_per_month_after
        return saved if saved > 0 else None

    @property
    def breakeven_moved(self) -> bool:
        """Breakeven against the API moved by half a point or more (a change a reader of
        whole percentages could see)."""
        b, a = self.breakeven_utilization_before, self.breakeven_utilization_after
        return b is not None and a is not None and abs(a - b) >= BREAKEVEN_SHOWN

    @property
    def headroom_change_months(self) -> float | None:
        if self.months_of_headroom_before is None or self.months_of_headroom_after is None:
            return None
        return self.months_of_headroom_after - self.months_of_headroom_before

    @property
    def moved(self) -> bool:
        """Whether anything a customer would notice changed at all."""
        if self.pinned or self.error is not None:
            return False
        b, a = self.tokens_per_s_before, self.tokens_per_s_after
        capacity = b is not None and b > 0 and a is not None and abs(a / b - 1) > UNCHANGED
        return (
            abs(self.relative_change) > UNCHANGED
            or abs(self.monthly_impact_usd) > UNCHANGED
            or self.gpus_before != self.gpus_after
            or capacity
        )


def is_material(move: QuoteMove, *, threshold_pct: float, threshold_usd: float) -> bool:
    """Worth a line in the digest: either threshold crossed, or a month of headroom.

    Thresholds are as subscriptions store them (5 means 5%, 500 means $500/month).
    A pinned or unpriceable quote never is: its economics did not move, they were
    not recomputed.
    """
    if not move.moved:
        return False
    if abs(move.relative_change) * 100 >= threshold_pct:
        return True
    if abs(move.monthly_impact_usd) >= threshold_usd:
        return True
    months = move.headroom_change_months
    return move.kind == "traffic" and months is not None and abs(months) >= 1
