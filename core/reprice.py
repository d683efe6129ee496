"""A sizing re-priced: the same fleet at another GPU-hour price or average utilization.

"price per million at 40% utilization" or "at $4.50" on a sizing asks what the
fleet already sized costs per token, not for another fleet: each option keeps its
GPUs, replicas, stack and batch; its $/month, $/M output tokens and the API
comparison move. At a stated utilization, the fleet is taken to serve that share
of its capacity on average (so $/M = $/month / tokens served at that share).
"""

from __future__ import annotations

from dataclasses import replace

from core import cost
from core.perf.engine import PerfEngine
from core.sizing import Sizing, SizingOption, _api
from core.traffic import Traffic, resolve
from core.units import HOURS_PER_MONTH, SECONDS_PER_HOUR, TOKENS_PER_MILLION

SECONDS_PER_MONTH = SECONDS_PER_HOUR * HOURS_PER_MONTH


def reprice(
    sizing: Sizing,
    traffic: Traffic,
    engine: PerfEngine,
    *,
    price_per_gpu_hour: float | None = None,
    utilization: float | None = None,
) -> Sizing:
    """``sizing`` (of ``traffic``) with each option at ``price_per_gpu_hour`` (default:
    its own) and served at ``utilization`` on average (default: the traffic's load)."""
    if not sizing.options:
        return sizing
    options = [_option(o, price_per_gpu_hour, utilization) for o in sizing.options]
    best = options[0]
    options[1:] = [_why_not(o, best) for o in options[1:]]
    demand = resolve(traffic, engine.catalog)
    if utilization is not None:
        served = utilization * best.replicas * best.replica_output_tokens_per_s
        demand = replace(demand, mean_decoded_tokens_per_s=served)
    api = _api(best, demand, traffic) if sizing.api is not None else None
    return sizing.model_copy(update={"options": options, "api": api})


def _why_not(o: SizingOption, best: SizingOption) -> SizingOption:
    """The ranking's reason, at the new prices (the order stays: the fleet is the same)."""
    extra = o.usd_per_month - best.usd_per_month
    than = f"{best.replicas}x{best.gpus_per_replica} {best.gpu}"
    reason = (
        f"costs ${extra:,.0f}/month more than {than}"
        if extra > 0
        else f"same bill as {than} or less, at this price"
    )
    return o.model_copy(update={"why_not": reason})


def _option(o: SizingOption, price: float | None, utilization: float | None) -> SizingOption:
    per_gpu = o.price_per_gpu_hour if price is None else price
    monthly = cost.usd_per_month(cost.usd_per_hour(gpus=o.gpus, price_per_gpu_hour=per_gpu))
    capacity = o.replicas * o.replica_output_tokens_per_s
    average = o.average_utilization if utilization is None else utilization
    tokens_per_month = average * capacity * SECONDS_PER_MONTH
    update: dict[str, object] = {
        "price_per_gpu_hour": per_gpu,
        "usd_per_month": monthly,
        "usd_per_million_output_tokens": monthly / tokens_per_month * TOKENS_PER_MILLION,
        "average_utilization": average,
        "next_step_usd_per_month": cost.usd_per_month(
            cost.usd_per_hour(gpus=o.gpus_per_replica, price_per_gpu_hour=per_gpu)
        ),
    }
    if price is not None:
        update["price_source"] = "given"
    return o.model_copy(update=update)
