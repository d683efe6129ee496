"""A sizing re-priced: the same fleet at the question's prices and quoted utilization.

"price per million at 40% utilization" or "at $4.50" on a sizing asks what the
fleet already sized costs per token, not for another fleet: each option keeps its
GPUs, replicas, stack and batch; its price (the one price rule, for its own GPU),
$/month, $/M output tokens and the API comparison move. At a quoted utilization
(``Traffic.utilization``) the fleet is taken to serve that share of its capacity on
average (so $/M = $/month / tokens served at that share); without one, the traffic's
own load.
"""

from __future__ import annotations

import datetime as dt

from core import cost
from core.perf.engine import PerfEngine
from core.pricing import Price, price_for, question_date, stated_prices
from core.sizing import Sizing, SizingOption, _api, quoted_at
from core.traffic import Demand, Traffic, resolve
from core.units import HOURS_PER_MONTH, SECONDS_PER_HOUR, TOKENS_PER_MILLION

SECONDS_PER_MONTH = SECONDS_PER_HOUR * HOURS_PER_MONTH


def reprice(
    sizing: Sizing, traffic: Traffic, engine: PerfEngine, *, today: dt.date | None = None
) -> Sizing:
    """``sizing``'s fleet with each option priced as ``traffic`` prices its GPU on the
    question's date (its ``as_of``, else ``today``) and served at ``traffic``'s quoted
    utilization (else its own load)."""
    if not sizing.options:
        return sizing
    catalog = engine.catalog
    demand = resolve(traffic, catalog)
    stated = stated_prices(
        catalog, price=traffic.price_per_gpu_hour, gpus=traffic.gpus, prices=traffic.prices
    )
    on = question_date(traffic.as_of, today)

    def priced(o: SizingOption) -> Price:
        return price_for(o.gpu, catalog, stated_for=stated, term_months=traffic.term_months, on=on)

    options = [_option(o, priced(o), demand, traffic.utilization) for o in sizing.options]
    best = options[0]
    options[1:] = [_why_not(o, best) for o in options[1:]]
    api = _api(best, demand, traffic) if sizing.api is not None else None
    update = {"options": options, "api": api, "utilization": traffic.utilization}
    return sizing.model_copy(update=update)


def _why_not(o: SizingOption, best: SizingOption) -> SizingOption:
    """The ranking's reason, at the new prices (the order stays: the fleet is the same)."""
    extra = o.usd_per_month - best.usd_per_month
    than = f"{best.replicas}x{best.gpus_per_replica} {best.gpu.upper()}"
    reason = (
        f"costs ${extra:,.0f}/month more than {than}"
        if extra > 0
        else f"same bill as {than} or less, at this price"
    )
    return o.model_copy(update={"why_not": reason})


def _option(
    o: SizingOption, priced: Price, demand: Demand, utilization: float | None
) -> SizingOption:
    per_gpu = priced.usd_per_gpu_hour
    monthly = cost.usd_per_month(cost.usd_per_hour(gpus=o.gpus, price_per_gpu_hour=per_gpu))
    capacity = o.replicas * o.replica_output_tokens_per_s
    tokens_per_month = demand.mean_decoded_tokens_per_s * SECONDS_PER_MONTH
    repriced = o.model_copy(
        update={
            "price_per_gpu_hour": per_gpu,
            "price_source": priced.label,
            "price_basis": priced.basis,
            "offered": priced.offered,
            "usd_per_month": monthly,
            "usd_per_million_output_tokens": monthly / tokens_per_month * TOKENS_PER_MILLION,
            "average_utilization": demand.mean_decoded_tokens_per_s / capacity,
            "next_step_usd_per_month": cost.usd_per_month(
                cost.usd_per_hour(gpus=o.gpus_per_replica, price_per_gpu_hour=per_gpu)
            ),
        }
    )
    return repriced if utilization is None else quoted_at(repriced, utilization)
