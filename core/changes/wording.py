"""The sentences a sales engineer can read out to the customer about one move.

Percentages are rounded toward zero (a 41.5% cut is "41%"), so a sentence never
claims more than the figures give; money has cents below $1,000 only.
"""

from __future__ import annotations

import math

from core.catalog import Catalog
from core.changes.move import UNCHANGED, QuoteMove

CHECK = "check before quoting"


def usd(amount: float) -> str:
    """Cents on a price per token ($6.16), not on a monthly bill ($24,241)."""
    return f"${amount:,.2f}" if abs(amount) < 1000 else f"${amount:,.0f}"


def percent(fraction: float) -> str:
    """The size of a change, without its sign: 0.4151 -> "41%", 0.004 -> "0.4%"."""
    points = abs(fraction) * 100
    if points < 1:
        return f"{math.floor(points * 10 + 1e-9) / 10:g}%"
    return f"{math.floor(points + 1e-9)}%"


def signed(fraction: float) -> str:
    return f"{'-' if fraction < 0 else '+'}{percent(fraction)}"


def gpu_name(catalog: Catalog, gpu: str | None) -> str:
    found = catalog.gpus.entries.get(gpu or "")
    return short(found.name) if found else str(gpu)


def stack_name(catalog: Catalog, stack: str | None) -> str:
    found = catalog.stacks.entries.get(stack or "")
    return short(found.name) if found else str(stack)


def short(name: str) -> str:
    """A catalog name without its parenthesised detail, for a sentence read aloud:
    "NVIDIA B300 (HGX Blackwell Ultra, 288GB)" -> "NVIDIA B300"."""
    return name.split(" (", 1)[0]


def for_scenario(m: QuoteMove, catalog: Catalog) -> list[str]:
    out = [_cost_per_token(m)]
    if m.stack_before != m.stack_after:
        out.append(
            f"served with {stack_name(catalog, m.stack_after)} instead of "
            f"{stack_name(catalog, m.stack_before)}"
        )
    before, after = m.tokens_per_s_before, m.tokens_per_s_after
    if before and after and abs(after / before - 1) > UNCHANGED:
        out.append(
            f"throughput {before:,.0f} -> {after:,.0f} tokens/s on the same {m.deployment} "
            f"({after / before:.2f}x)"
        )
    if m.monthly_impact_usd > UNCHANGED and m.usd_per_month is not None:
        out.append(
            f"worth {usd(m.monthly_impact_usd)}/month on the {usd(m.usd_per_month)}/month lease"
        )
    if m.monthly_impact_usd < -UNCHANGED:
        out.append(f"the same tokens now cost {usd(-m.monthly_impact_usd)}/month more")
    out.extend(_breakeven(m))
    out.extend(_basis(m))
    if m.regression:
        out.append(f"cost per M output tokens up {percent(m.relative_change)}: {CHECK}")
    return out


def for_traffic(m: QuoteMove, catalog: Catalog) -> list[str]:
    gpu = gpu_name(catalog, m.gpu)
    out: list[str] = []
    if m.gpus_after is None:
        out.append(f"no lease option carries this traffic as of {m.after}: {CHECK}")
    elif m.gpus_before is not None and m.gpus_before != m.gpus_after:
        fewer = m.gpus_before - m.gpus_after
        change = f"({m.gpus_before:,} -> {m.gpus_after:,} {gpu})"
        out.append(
            f"needs {fewer:,} fewer GPUs at the next renewal {change}"
            if fewer > 0
            else f"needs {-fewer:,} more GPUs at the next renewal {change}: {CHECK}"
        )
    out.extend(_capacity(m))
    if abs(m.relative_change) > UNCHANGED:
        out.append(_cost_per_token(m))
    if m.usd_per_month_before is not None and m.usd_per_month_after is not None:
        saved = m.usd_per_month_before - m.usd_per_month_after
        if saved > 0:
            out.append(f"saves {usd(saved)}/month at the next renewal")
    out.extend(_basis(m))
    if m.regression and m.relative_change > UNCHANGED:
        out.append(f"cost per M output tokens up {percent(m.relative_change)}: {CHECK}")
    return out


def _cost_per_token(m: QuoteMove) -> str:
    before, after = m.usd_per_million_before, m.usd_per_million_after
    if before is None or after is None:
        return "cost per M output tokens not known on both dates"
    if abs(m.relative_change) <= UNCHANGED:
        return f"cost per M output tokens unchanged at {usd(before)}"
    return f"cost per M output tokens {usd(before)} -> {usd(after)} ({signed(m.relative_change)})"


def _capacity(m: QuoteMove) -> list[str]:
    """What the lease already signed now does: headroom when traffic grows, else capacity."""
    before, after = m.tokens_per_s_before, m.tokens_per_s_after
    if not before or after is None:
        return []
    if after == 0:
        return [f"the current {m.deployment} lease no longer meets the SLA: {CHECK}"]
    change = m.headroom_change_months
    if change is not None and m.monthly_growth:
        growth = f"{m.monthly_growth * 100:g}%/month growth"
        if change >= 1:
            return [f"covers {math.floor(change)} more months at {growth} without new GPUs"]
        if change <= -1:
            return [
                f"covers {math.floor(-change)} fewer months at {growth} before it needs "
                f"more GPUs: {CHECK}"
            ]
        return []
    ratio = after / before - 1
    if abs(ratio) <= UNCHANGED:
        return []
    more = "more" if ratio > 0 else "less"
    return [f"the current {m.deployment} lease carries {percent(ratio)} {more} peak traffic"]


def _breakeven(m: QuoteMove) -> list[str]:
    """Against the hosted API; above 100% utilization the lease never breaks even."""
    b, a = m.breakeven_utilization_before, m.breakeven_utilization_after
    if b is None or a is None or abs(a - b) < 0.005:
        return []
    if a > 1:
        if b > 1:
            return []
        return [f"no longer breaks even against the API (needs {a:.0%} utilization): {CHECK}"]
    was = "never did before" if b > 1 else f"was {b:.0%}"
    return [f"breaks even against the API at {a:.0%} utilization ({was})"]


def _basis(m: QuoteMove) -> list[str]:
    if m.basis_after is None or m.basis_after == "measured":
        return []
    band = f" (±{m.error_band_after:.0%})" if m.error_band_after else ""
    return [f"the new figure is {m.basis_after}{band}, not measured on this deployment"]
