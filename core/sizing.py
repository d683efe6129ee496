"""From traffic to ranked lease options: how many GPUs of which kind, and what they cost.

For every allowed GPU type and every replica size that holds the model, the
search finds the largest batch that still meets the per-user speed and TTFT
(the point of the throughput/interactivity frontier the SLA allows, never peak
throughput), then the whole replicas that carry the peak below the planned
utilization. Options are ranked by $/month, then $/M tokens; a question no
option answers gets the binding constraint and the nearest ask that works.

Each GPU is priced by the one price rule (``core.pricing``): a price the question
stated is its GPU's only. A utilization the question quotes (``Traffic.utilization``)
moves only the $/M and the API comparison: the fleet is sized on the peak.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator

from core import cost
from core.catalog import Gpu, Precision, Stack
from core.errors import InputError
from core.perf.engine import PerfEngine, PerfQuery, Throughput
from core.perf.layouts import Layout, layout_kinds, replica_layouts
from core.perf.memory import deployable_counts, largest_batch, room
from core.perf.roofline import max_context_tokens, mean_context_tokens
from core.pricing import (
    Price,
    PriceBasis,
    offered_gpus,
    price_for,
    question_date,
    stated_prices,
)
from core.provenance import find, measurement_said, publications
from core.scenario import Basis
from core.stack_choice import candidate_stacks
from core.traffic import Demand, Traffic, resolve
from core.units import HOURS_PER_MONTH, SECONDS_PER_DAY, SECONDS_PER_HOUR, TOKENS_PER_MILLION

MAX_BATCH = 4096
Constraint = Literal["memory", "per_user_speed", "ttft", "scale", "no_stack"]


class SizingOption(BaseModel):
    """One way to carry the traffic: ``replicas`` x ``gpus_per_replica`` GPUs of one kind."""

    model_config = ConfigDict(frozen=True)

    gpu: str
    gpus: int
    replicas: int
    gpus_per_replica: int
    precision: str
    stack: str
    layout: str | None = None
    """The parallel layout of one replica (TP8, TP8 x PP2, DEP16)."""
    layout_domains: int = 1
    """NVLink domains one replica spans."""
    concurrency: int
    per_user_tokens_per_s: float
    ttft_s: float | None
    replica_output_tokens_per_s: float
    peak_utilization: float
    average_utilization: float
    price_per_gpu_hour: float
    price_source: str
    """The price's provenance as the answer says it: "36-month book price", or
    "on-demand list (its source), not in our offer"."""
    price_basis: PriceBasis = "book"
    offered: bool = True
    """The GPU is in the company's price book; False only when the question named it."""
    usd_per_month: float
    usd_per_million_output_tokens: float
    basis: Basis
    error_band: float
    """The band of the throughput figures."""
    ttft_error_band: float | None = None
    """The band of ``ttft_s`` (None when there is no TTFT)."""
    estimated_from: str | None = None
    """The measurement the option's throughput scales, when it is an estimate from one."""
    estimated_from_said: str | None = None
    """That measurement as an answer names it: publication and what it measured."""
    months_of_headroom: float | None
    next_step_usd_per_month: float
    cheapest: bool = False
    why_not: str | None = None
    caveats: list[str]


class Rejection(BaseModel):
    """A GPU type or replica size that cannot carry the traffic, and why."""

    model_config = ConfigDict(frozen=True)

    gpu: str
    gpus_per_replica: int | None
    constraint: Constraint
    detail: str
    best: float | None = None
    carries_volume: bool = True
    """For a speed or TTFT rejection: whether this replica, relaxed to its best, could
    still carry the traffic within one quote (so its best is a feasible nearest ask)."""


class ApiComparison(BaseModel):
    model_config = ConfigDict(frozen=True)

    api_usd_per_month: float
    lease_usd_per_month: float
    api_price_per_million_output: float
    api_price_per_million_input: float
    api_prices_from: str
    api_usd_per_million_output_tokens: float
    breakeven_output_tokens_per_day: float
    breakeven_utilization: float
    verdict: str


class Infeasible(BaseModel):
    model_config = ConfigDict(frozen=True)

    binding_constraint: Constraint
    explanation: str
    nearest_feasible_ask: str


class Sizing(BaseModel):
    """The answer to "what does this traffic need", as ``leasewise size --json`` prints it."""

    model_config = ConfigDict(frozen=True)

    model: str
    requests_per_day: float
    output_tokens_per_request: int
    """Billed output tokens a request, reasoning included: every token it decodes."""
    reasoning_tokens_per_request: int | None = None
    """Of those, the reasoning when the customer split it (or a default assumed it);
    None when output tokens were given as billed."""
    model_thinking: Literal["none", "optional", "mandatory"] = "none"
    """Whether the model thinks, so the answer can say its output includes reasoning."""
    output_tokens_per_day: float
    peak_output_tokens_per_s: float
    min_per_user_tokens_per_s: float
    max_ttft_s: float | None
    planned_utilization: float
    monthly_growth: float
    utilization: float | None = None
    """The average utilization the $/M is quoted at, when the question gave one (each
    option's ``average_utilization`` is then it); None: each option's own load."""
    options: list[SizingOption]
    rejected: list[Rejection]
    api: ApiComparison | None
    infeasible: Infeasible | None
    assumptions: list[str]

    @model_validator(mode="before")
    @classmethod
    def _billed_output(cls, data: Any) -> Any:
        """A sizing stored before output tokens meant billed tokens (it has no
        ``model_thinking``) counted a request's visible tokens only: add its reasoning,
        so the stored answer says the tokens it was sized for."""
        if isinstance(data, dict) and "model_thinking" not in data:
            reasoning = data.get("reasoning_tokens_per_request")
            if isinstance(reasoning, int) and "output_tokens_per_request" in data:
                data = {
                    **data,
                    "output_tokens_per_request": data["output_tokens_per_request"] + reasoning,
                }
        return data


@dataclass(frozen=True)
class _Candidate:
    """A replica at its SLA batch, before it is priced."""

    gpu: Gpu
    precision: Precision
    stack: Stack
    gpus: int
    batch: int
    perf: Throughput
    layout: Layout


def size(traffic: Traffic, engine: PerfEngine, *, today: dt.date | None = None) -> Sizing:
    """The ranked options for ``traffic``; ``today`` is the edge's date, which prices
    them when the traffic has no ``as_of``."""
    catalog = engine.catalog
    demand = resolve(traffic, catalog)
    if traffic.max_ttft_s is not None and traffic.input_tokens is None:
        raise InputError(
            "max_ttft_s needs input_tokens: time to first token is mostly the prompt",
            field="max_ttft_s",
            hint="add input_tokens, e.g. input_tokens=800",
        )
    max_ctx = max_context_tokens(
        mean_context=mean_context_tokens(
            context_tokens=traffic.context_tokens,
            input_tokens=traffic.input_tokens,
            output_tokens=demand.decoded_tokens,
            default=catalog.engine.default_context_tokens,
        ),
        output_tokens=demand.decoded_tokens,
    )
    demand.model.require_context(max_ctx)
    gpus = _allowed_gpus(traffic, engine)
    stated = stated_prices(
        catalog, price=traffic.price_per_gpu_hour, gpus=traffic.gpus, prices=traffic.prices
    )
    options: list[SizingOption] = []
    rejected: list[Rejection] = []
    precision = _precision(traffic, engine, demand)
    for gpu in gpus:
        try:
            stacks = candidate_stacks(
                engine, demand.model, gpu, precision, stack=traffic.stack, as_of=traffic.as_of
            )
        except InputError as exc:
            rejected.append(
                Rejection(
                    gpu=gpu.id, gpus_per_replica=None, constraint="no_stack", detail=exc.message
                )
            )
            continue
        price = price_for(
            gpu,
            catalog,
            stated_for=stated,
            term_months=traffic.term_months,
            on=question_date(traffic.as_of, today),
        )
        for n in _replica_sizes(gpu, catalog.engine.max_replica_nodes):
            found = _best_candidate(engine, demand, traffic, gpu, precision, stacks, n, max_ctx)
            if isinstance(found, Rejection):
                rejected.append(found)
                continue
            option = _price_option(found, demand, traffic, engine, price)
            if option.gpus > catalog.engine.max_gpus_per_quote:
                rejected.append(
                    Rejection(
                        gpu=gpu.id,
                        gpus_per_replica=n,
                        constraint="scale",
                        detail=f"needs {option.gpus:,} GPUs, over the "
                        f"{catalog.engine.max_gpus_per_quote:,} one quote can lease",
                        best=found.perf.output_tokens_per_s
                        * demand.planned_utilization
                        * (catalog.engine.max_gpus_per_quote // n),
                    )
                )
                continue
            options.append(option)
    ranked = _rank(options)  # on the traffic's own load: a quoted utilization moves no fleet
    if traffic.utilization is not None:
        ranked = [quoted_at(o, traffic.utilization) for o in ranked]
    return Sizing(
        model=demand.model.id,
        requests_per_day=demand.requests_per_s * SECONDS_PER_DAY,
        output_tokens_per_request=demand.output_tokens,
        reasoning_tokens_per_request=demand.reasoning_tokens,
        model_thinking=demand.model.thinking,
        output_tokens_per_day=demand.decoded_tokens_per_day,
        peak_output_tokens_per_s=demand.peak_decoded_tokens_per_s,
        min_per_user_tokens_per_s=demand.min_per_user_tokens_per_s,
        max_ttft_s=demand.max_ttft_s,
        planned_utilization=demand.planned_utilization,
        monthly_growth=traffic.monthly_growth,
        utilization=traffic.utilization,
        options=ranked,
        rejected=rejected,
        api=_api(ranked[0], demand, traffic) if ranked else None,
        infeasible=None if ranked else _infeasible(rejected, demand),
        assumptions=[*demand.assumptions, *_whose_prices(stated, gpus)],
    )


def _whose_prices(stated: dict[str, float], gpus: list[Gpu]) -> list[str]:
    """A stated price is its GPU's only: said when the sizing considers others too."""
    others = [g.id.upper() for g in gpus if g.id not in stated]
    if not stated or not others:
        return []
    said = ", ".join(f"${p:.2f}/GPU-hour for {g.upper()}" for g, p in stated.items())
    own = "its own price" if len(others) == 1 else "their own prices"
    return [
        f"the price stated is {said} only; {', '.join(others)} at {own} "
        "(each option says where it came from)"
    ]


def _replica_sizes(gpu: Gpu, max_nodes: int) -> Iterator[int]:
    """Deployable replica sizes up to a few nodes, or the whole NVLink domain if larger."""
    limit = max(gpu.scale_up_domain_gpus, 8 * max_nodes)
    for n in deployable_counts():
        if n > limit:
            return
        yield n


def _best_candidate(
    engine: PerfEngine,
    demand: Demand,
    traffic: Traffic,
    gpu: Gpu,
    precision: Precision,
    stacks: list[Stack],
    n: int,
    max_ctx: int,
) -> _Candidate | Rejection:
    best: _Candidate | Rejection | None = None
    for stack in stacks:
        kinds = layout_kinds(stack, engine.catalog.engine, demand.model)
        for layout in replica_layouts(kinds, n, gpu.scale_up_domain_gpus):
            found = _at_sla(engine, demand, traffic, gpu, precision, stack, layout, max_ctx)
            if isinstance(found, Rejection):
                best = best or found
                continue
            if not isinstance(best, _Candidate) or (
                found.perf.output_tokens_per_s > best.perf.output_tokens_per_s
            ):
                best = found
    if best is None:
        return Rejection(
            gpu=gpu.id,
            gpus_per_replica=n,
            constraint="memory",
            best=0,
            detail=f"no layout its stacks deploy puts {demand.model.name} on {n} {gpu.name}",
        )
    return best


def _at_sla(
    engine: PerfEngine,
    demand: Demand,
    traffic: Traffic,
    gpu: Gpu,
    precision: Precision,
    stack: Stack,
    layout: Layout,
    max_ctx: int,
) -> _Candidate | Rejection:
    n = layout.gpus

    def query(batch: int) -> PerfQuery:
        return PerfQuery(
            model=demand.model.id,
            gpu=gpu.id,
            gpus=n,
            precision=precision.id,
            stack=stack.id,
            concurrency=batch,
            spec_decode_acceptance=traffic.spec_decode_acceptance,
            context_tokens=traffic.context_tokens,
            input_tokens=traffic.input_tokens,
            output_tokens=demand.decoded_tokens if traffic.input_tokens is not None else None,
            layout=layout,
        )

    hw = engine.hardware(query(1))
    reserve = engine.catalog.engine.runtime_reserve_fraction
    held = min(MAX_BATCH, room(hw, layout, max_context_tokens=max_ctx, reserve_fraction=reserve))
    if held == 0:
        return Rejection(
            gpu=gpu.id,
            gpus_per_replica=n,
            constraint="memory",
            best=0,
            detail=f"{demand.model.name} at {precision.name} with one {max_ctx:,}-token "
            f"sequence does not fit on {n} {gpu.name}",
        )
    cache: dict[int, Throughput] = {}

    def perf(batch: int) -> Throughput:
        if batch not in cache:
            cache[batch] = engine.throughput(query(batch))
        return cache[batch]

    def meets_sla(batch: int) -> bool:
        t = perf(batch)
        if t.per_user_tokens_per_s < demand.min_per_user_tokens_per_s:
            return False
        return demand.max_ttft_s is None or (t.ttft_s or 0.0) <= demand.max_ttft_s

    batch = largest_batch(meets_sla, held)
    if batch == 0:
        single = perf(1)
        most = engine.catalog.engine.max_gpus_per_quote // n
        carries = single.output_tokens_per_s * demand.planned_utilization * most >= (
            demand.peak_decoded_tokens_per_s
        )
        if single.per_user_tokens_per_s < demand.min_per_user_tokens_per_s:
            return Rejection(
                gpu=gpu.id,
                gpus_per_replica=n,
                constraint="per_user_speed",
                best=single.per_user_tokens_per_s,
                carries_volume=carries,
                detail=f"one user gets {single.per_user_tokens_per_s:,.1f} tokens/s on {n} "
                f"{gpu.name}, below the {demand.min_per_user_tokens_per_s:g} asked",
            )
        return Rejection(
            gpu=gpu.id,
            gpus_per_replica=n,
            constraint="ttft",
            best=single.ttft_s,
            carries_volume=carries,
            detail=f"the first token takes {single.ttft_s or 0:.2f} s on {n} {gpu.name}, "
            f"over the {demand.max_ttft_s:g} s asked",
        )
    return _Candidate(
        gpu=gpu,
        precision=precision,
        stack=stack,
        gpus=n,
        batch=batch,
        perf=perf(batch),
        layout=layout,
    )


def _price_option(
    c: _Candidate,
    demand: Demand,
    traffic: Traffic,
    engine: PerfEngine,
    priced: Price,
) -> SizingOption:
    price = priced.usd_per_gpu_hour
    capacity = c.perf.output_tokens_per_s
    replicas = max(
        1, math.ceil(demand.peak_decoded_tokens_per_s / (capacity * demand.planned_utilization))
    )
    gpus = replicas * c.gpus
    monthly = cost.usd_per_month(cost.usd_per_hour(gpus=gpus, price_per_gpu_hour=price))
    tokens_per_month = demand.mean_decoded_tokens_per_s * SECONDS_PER_HOUR * HOURS_PER_MONTH
    return SizingOption(
        gpu=c.gpu.id,
        gpus=gpus,
        replicas=replicas,
        gpus_per_replica=c.gpus,
        precision=c.precision.id,
        stack=c.stack.id,
        layout=c.layout.name,
        layout_domains=c.layout.domains(c.gpu.scale_up_domain_gpus),
        concurrency=c.batch,
        per_user_tokens_per_s=c.perf.per_user_tokens_per_s,
        ttft_s=c.perf.ttft_s,
        replica_output_tokens_per_s=capacity,
        peak_utilization=demand.peak_decoded_tokens_per_s / (replicas * capacity),
        average_utilization=demand.mean_decoded_tokens_per_s / (replicas * capacity),
        price_per_gpu_hour=price,
        price_source=priced.label,
        price_basis=priced.basis,
        offered=priced.offered,
        usd_per_month=monthly,
        usd_per_million_output_tokens=monthly / tokens_per_month * TOKENS_PER_MILLION,
        basis=c.perf.basis,
        error_band=c.perf.error_band,
        ttft_error_band=c.perf.ttft_error_band,
        estimated_from=c.perf.estimated_from,
        estimated_from_said=_estimated_from_said(c, engine),
        months_of_headroom=months_of_headroom(
            capacity=replicas * capacity,
            peak=demand.peak_decoded_tokens_per_s,
            monthly_growth=traffic.monthly_growth,
        ),
        next_step_usd_per_month=cost.usd_per_month(
            cost.usd_per_hour(gpus=c.gpus, price_per_gpu_hour=price)
        ),
        caveats=_caveats(c, demand, gpus),
    )


def quoted_at(o: SizingOption, utilization: float) -> SizingOption:
    """``o``'s $/M as quoted at an average ``utilization`` of its capacity (the tokens a
    month are that share of what its replicas decode): the fleet and its bill stay."""
    capacity = o.replicas * o.replica_output_tokens_per_s
    tokens_per_month = utilization * capacity * SECONDS_PER_HOUR * HOURS_PER_MONTH
    return o.model_copy(
        update={
            "average_utilization": utilization,
            "usd_per_million_output_tokens": o.usd_per_month
            / tokens_per_month
            * TOKENS_PER_MILLION,
        }
    )


def _estimated_from_said(c: _Candidate, engine: PerfEngine) -> str | None:
    found = find(c.perf.estimated_from, engine.catalog, *c.perf.measurements)
    return None if found is None else measurement_said(found, engine.catalog)


def months_of_headroom(*, capacity: float, peak: float, monthly_growth: float) -> float | None:
    """Months until a peak growing ``monthly_growth`` a month exceeds ``capacity``:
    peak x (1 + g)^m = capacity. None when the traffic does not grow."""
    if monthly_growth <= 0:
        return None
    return math.log(capacity / peak) / math.log1p(monthly_growth)


def _rank(options: list[SizingOption]) -> list[SizingOption]:
    def room(o: SizingOption) -> float:
        return math.inf if o.months_of_headroom is None else o.months_of_headroom

    ordered = sorted(
        options, key=lambda o: (o.usd_per_month, o.usd_per_million_output_tokens, -room(o))
    )
    if not ordered:
        return []
    best = ordered[0]
    out = [best.model_copy(update={"cheapest": True})]
    for o in ordered[1:]:
        extra = o.usd_per_month - best.usd_per_month
        name = f"{best.replicas}x{best.gpus_per_replica} {best.gpu.upper()}"
        reason = (
            f"costs ${extra:,.0f}/month more than {name}"
            if extra > 0
            else f"same bill as {name}{_second_on(o, best, room(o), room(best))}"
        )
        out.append(o.model_copy(update={"why_not": reason}))
    return out


def _second_on(o: SizingOption, best: SizingOption, mine: float, theirs: float) -> str:
    """Why an option with the same bill ranks after the cheapest, as its figures show."""
    if o.usd_per_million_output_tokens > best.usd_per_million_output_tokens:
        return ", dearer per token"
    if mine == theirs:
        return (
            "; no growth assumed, so both have room to spare"
            if math.isinf(mine)
            else ", the same headroom"
        )
    return f" with less headroom ({_months(mine)} against {_months(theirs)})"


def _months(m: float) -> str:
    return "unlimited" if math.isinf(m) else f"{m:.1f} months"


def _api(best: SizingOption, demand: Demand, traffic: Traffic) -> ApiComparison | None:
    hosted = demand.model.hosted_api
    if traffic.api_price_per_million_output is not None:
        out_price = traffic.api_price_per_million_output
        in_price = traffic.api_price_per_million_input or 0.0
        prices_from = "given" + (
            "" if traffic.api_price_per_million_input is not None else " (input tokens at $0)"
        )
    elif "usd_per_million_output" in hosted:
        out_price = hosted["usd_per_million_output"]
        in_price = hosted.get("usd_per_million_input", 0.0)
        prices_from = f"{demand.model.name}'s hosted list price in the catalog"
    else:
        return None
    blended = cost.api_usd_per_million_output_tokens(
        usd_per_million_output=out_price,
        usd_per_million_input=in_price,
        input_tokens=demand.input_tokens,
        output_tokens=demand.decoded_tokens,
    )
    capacity = best.replicas * best.replica_output_tokens_per_s
    served = demand.mean_decoded_tokens_per_s
    volume = "for this traffic"
    if traffic.utilization is not None:  # the tokens the fleet serves at the quoted share
        served = traffic.utilization * capacity
        volume = f"at {traffic.utilization:.0%} average utilization"
    per_month_tokens = served * SECONDS_PER_HOUR * HOURS_PER_MONTH
    api_monthly = per_month_tokens * blended / TOKENS_PER_MILLION
    breakeven_tokens_per_s = (
        best.usd_per_month / (SECONDS_PER_HOUR * HOURS_PER_MONTH) / (blended / TOKENS_PER_MILLION)
    )
    breakeven_u = breakeven_tokens_per_s / capacity
    fleet = f"{best.replicas}x{best.gpus_per_replica} {best.gpu.upper()}"
    lease = f"{fleet} (${best.usd_per_month:,.0f}/month)"
    if best.usd_per_month <= api_monthly:
        verdict = (
            f"Leasing {lease} costs less than the API (${api_monthly:,.0f}/month) {volume}"
            f"; it breaks even at {breakeven_tokens_per_s * SECONDS_PER_DAY:,.0f} "
            f"output tokens a day ({breakeven_u:.0%} average utilization)."
        )
    elif breakeven_u <= 1:
        verdict = (
            f"The API (${api_monthly:,.0f}/month) is cheaper at this volume; leasing {lease} "
            f"pays off above {breakeven_tokens_per_s * SECONDS_PER_DAY:,.0f} output tokens a day "
            f"({breakeven_u:.0%} average utilization)."
        )
    else:
        verdict = (
            f"The API (${api_monthly:,.0f}/month) is cheaper: even fully used, {lease} costs "
            f"more per token than the API's ${blended:,.2f}/M."
        )
    return ApiComparison(
        api_usd_per_month=api_monthly,
        lease_usd_per_month=best.usd_per_month,
        api_price_per_million_output=out_price,
        api_price_per_million_input=in_price,
        api_prices_from=prices_from,
        api_usd_per_million_output_tokens=blended,
        breakeven_output_tokens_per_day=breakeven_tokens_per_s * SECONDS_PER_DAY,
        breakeven_utilization=breakeven_u,
        verdict=verdict,
    )


def _infeasible(rejected: list[Rejection], demand: Demand) -> Infeasible:
    """The constraint that binds, and the nearest ask that some option meets."""
    by = {
        c: [r for r in rejected if r.constraint == c]
        for c in ("scale", "ttft", "per_user_speed", "memory", "no_stack")
    }
    if by["scale"]:
        # the most peak tokens/s one quote carries, back to the output tokens a day asked
        peak = max(r.best or 0 for r in by["scale"])
        mean = peak * demand.mean_decoded_tokens_per_s / demand.peak_decoded_tokens_per_s
        per_day = mean * SECONDS_PER_DAY
        return Infeasible(
            binding_constraint="scale",
            explanation="the traffic needs more GPUs than one quote leases on every option",
            nearest_feasible_ask=f"output_tokens_per_day={math.floor(per_day):,} or less "
            "(at the same peak, reasoning included), or split the traffic across quotes",
        )
    if by["per_user_speed"]:
        fastest = max(by["per_user_speed"], key=lambda r: r.best or 0)
        workable = [r for r in by["per_user_speed"] if r.carries_volume]
        if not workable:
            return Infeasible(
                binding_constraint="per_user_speed",
                explanation=f"no option gives a user {demand.min_per_user_tokens_per_s:g} "
                f"tokens/s; the fastest ({fastest.gpus_per_replica} {fastest.gpu}) reaches "
                f"{fastest.best or 0:,.1f}, and only for less traffic than asked",
                nearest_feasible_ask=f"min_per_user_tokens_per_s={_down(fastest.best)} with "
                "less traffic, or split it across quotes",
            )
        best = max(r.best or 0 for r in workable)
        return Infeasible(
            binding_constraint="per_user_speed",
            explanation=f"no option gives a user {demand.min_per_user_tokens_per_s:g} tokens/s; "
            f"the fastest that carries this traffic reaches {best:,.1f}",
            nearest_feasible_ask=f"min_per_user_tokens_per_s={_down(best)}",
        )
    if by["ttft"]:
        workable = [r for r in by["ttft"] if r.best is not None and r.carries_volume]
        quickest = min(r.best for r in (workable or by["ttft"]) if r.best is not None)
        return Infeasible(
            binding_constraint="ttft",
            explanation=f"no option returns the first token within {demand.max_ttft_s:g} s; "
            f"the quickest takes {quickest:.2f} s",
            nearest_feasible_ask=f"max_ttft_s={math.ceil(quickest * 10) / 10:g}",
        )
    if by["memory"]:
        return Infeasible(
            binding_constraint="memory",
            explanation=f"{demand.model.name} does not fit on any allowed GPU within the largest "
            "replica",
            nearest_feasible_ask="allow a GPU with more memory (e.g. gpus=b300), a smaller "
            "precision, or a shorter context_tokens",
        )
    return Infeasible(
        binding_constraint="no_stack",
        explanation="no serving stack serves this model on the allowed GPUs",
        nearest_feasible_ask="allow other GPUs, or leave stack and precision out",
    )


def _down(speed: float | None) -> str:
    """A speed rounded down to one decimal, so the ask it suggests is met."""
    return f"{math.floor((speed or 0) * 10) / 10:g}"


def _allowed_gpus(traffic: Traffic, engine: PerfEngine) -> list[Gpu]:
    """The GPUs the question names, else the offer (the GPUs the price book leases)
    and any GPU the question gave a price for; every GPU when the book is empty."""
    table = engine.catalog.gpus
    if traffic.gpus is not None:
        return [table.get(name, field_name="gpus") for name in traffic.gpus]
    offer = offered_gpus(engine.catalog)
    if not offer:
        return list(table)
    named = {table.get(name, field_name="prices").id for name in traffic.prices}
    return [g for g in table if g.id in offer or g.id in named]


def _precision(traffic: Traffic, engine: PerfEngine, demand: Demand) -> Precision:
    table = engine.catalog.precisions
    if traffic.precision is not None:
        return table.get(traffic.precision, field_name="precision")
    return table.entries[demand.model.native_precisions[0]]


def _caveats(c: _Candidate, demand: Demand, gpus: int) -> list[str]:
    caveats = list(c.perf.caveats)
    domain = c.gpu.scale_up_domain_gpus
    if c.gpus > domain:
        crossing = (
            "pipeline stages hand activations over the network"
            if c.layout.pp > 1
            else "experts exchange tokens over the network (all-to-all dispatch and combine)"
            if c.layout.dp > 1
            else "tensor-parallel all-reduces cross the network"
        )
        caveats.append(
            f"a replica of {c.gpus} ({c.layout.name}) spans {math.ceil(c.gpus / domain)} "
            f"NVLink domains of {domain}: {crossing}"
        )
    floor = demand.model.vendor_min_production_gpus
    if floor is not None and gpus < floor:
        caveats.append(
            f"{demand.model.vendor} recommends at least {floor} accelerators for production "
            f"{demand.model.name}; this option has {gpus}"
        )
    if c.perf.method == "carried" and c.perf.closeness.measured_on is not None:
        caveats.append(
            f"throughput estimated (±{c.perf.error_band:.0%}) from "
            f"{publications(c.perf.measurements)}, measured on {c.gpus}x "
            f"{c.perf.closeness.measured_on.upper()} and scaled by the roofline to "
            f"{c.gpu.id.upper()} ({c.perf.closeness.carried_ratio:.2f}x)"
        )
    elif c.perf.method in ("anchored", "model"):
        caveats.append(
            f"throughput estimated (±{c.perf.error_band:.0%}): this replica and batch were "
            "not measured"
        )
    return caveats
