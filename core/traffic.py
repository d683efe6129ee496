"""A customer's traffic and lease terms, as the sizing question takes them.

Volume comes the way customers say it (output tokens a day, or requests a
day/hour/minute times tokens a request); ``resolve`` turns it into the rates the
search needs and writes down every default it had to assume.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.catalog import Catalog, Model
from core.catalog.entries import EngineConstants
from core.errors import InputError
from core.units import SECONDS_PER_DAY


class Traffic(BaseModel):
    """What the customer serves, what it must feel like, and what the lease allows.

    Output tokens are billed output tokens, reasoning included (see ``resolve``):
    ``output_tokens_per_day`` and ``output_tokens`` are what the customer decodes, unless
    ``reasoning_tokens`` is given too, which makes ``output_tokens`` the visible part.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    model: str = Field(min_length=1)
    output_tokens_per_day: float | None = Field(default=None, gt=0)
    requests_per_day: float | None = Field(default=None, gt=0)
    requests_per_hour: float | None = Field(default=None, gt=0)
    requests_per_minute: float | None = Field(default=None, gt=0)
    output_tokens: int | None = Field(default=None, ge=1, le=10_000_000)
    input_tokens: int | None = Field(default=None, ge=0, le=10_000_000)
    reasoning_tokens: int | None = Field(default=None, ge=0, le=10_000_000)
    context_tokens: int | None = Field(default=None, ge=1, le=100_000_000)
    peak_to_average: float = Field(default=1.0, ge=1.0, le=100)
    min_per_user_tokens_per_s: float | None = Field(default=None, gt=0, le=10_000)
    max_ttft_s: float | None = Field(default=None, gt=0, le=3600)
    monthly_growth: float = Field(default=0.0, ge=0, le=10)
    gpus: tuple[str, ...] | None = None
    precision: str | None = None
    stack: str | None = None
    as_of: dt.date | None = None
    term_months: Literal[0, 12, 24, 36] | None = None
    """The lease term priced; None: the price book's default term (36 months today)."""
    price_per_gpu_hour: float | None = Field(default=None, gt=0, le=1000)
    """A price said without naming its GPU: the question's GPU's, the first of ``gpus``,
    else the offer's (``core.pricing.stated_prices``); no other GPU takes it."""
    prices: dict[str, Annotated[float, Field(gt=0, le=1000)]] = {}
    """Prices stated for named GPUs (GPU -> $/GPU-hour)."""
    api_price_per_million_output: float | None = Field(default=None, gt=0)
    api_price_per_million_input: float | None = Field(default=None, ge=0)
    planned_utilization: float | None = Field(default=None, gt=0, le=1)
    """The share of capacity the peak is planned at: what the fleet is *sized* for."""
    utilization: float | None = Field(default=None, gt=0, le=1)
    """The average share of the fleet's capacity its $/M is *quoted* at ("price per
    million at 40% utilization"): the fleet stays as sized, its tokens a month are
    that share of its capacity. None: the load the traffic itself puts on it."""
    spec_decode_acceptance: float = Field(default=1.0, ge=1.0, le=16.0)


@dataclass(frozen=True)
class Demand:
    """The traffic as rates: what the search sizes for, and what it assumed to get there.

    ``output_tokens`` is a request's billed output, reasoning included: every token it
    decodes. ``reasoning_tokens`` is the part of it that is reasoning when the customer
    split it (or a default assumed it); None when they gave output tokens as billed.
    """

    model: Model
    requests_per_s: float
    output_tokens: int
    reasoning_tokens: int | None
    input_tokens: int | None
    mean_decoded_tokens_per_s: float
    peak_decoded_tokens_per_s: float
    min_per_user_tokens_per_s: float
    max_ttft_s: float | None
    planned_utilization: float
    assumptions: list[str] = field(default_factory=list)

    @property
    def decoded_tokens(self) -> int:
        """Tokens a request decodes: its billed output, thinking included."""
        return self.output_tokens

    @property
    def decoded_tokens_per_day(self) -> float:
        return self.mean_decoded_tokens_per_s * SECONDS_PER_DAY


def resolve(traffic: Traffic, catalog: Catalog) -> Demand:
    """Rates from the traffic as given; contradictions are refused, defaults named.

    Output tokens are the tokens billed as output, which for a model that thinks
    includes its reasoning (the API bills thinking as output, and it is decoded like
    any other token). So:

    - ``output_tokens_per_day`` is the billed (= decoded) volume a day, always: nothing
      is added on top of it, whatever the per-request figures say.
    - ``output_tokens`` alone is the billed output of one request, reasoning included.
    - ``output_tokens`` with ``reasoning_tokens`` splits a request: visible output and
      reasoning, billed (and decoded) as their sum. ``reasoning_tokens=0`` says the
      output is all visible.
    - Requests a day with ``output_tokens_per_day`` must agree with the billed tokens of
      a request (visible + reasoning when split); with ``reasoning_tokens`` but no
      ``output_tokens``, the visible part is what the daily volume leaves over.
    - A daily volume with no request length at all assumes the catalog's visible
      output a request plus, for a model that always thinks, its typical reasoning:
      that sets the request rate and the context, never the volume.

    ``Traffic.reasoning_tokens`` is never a default added to a stated volume.
    """
    model = catalog.models.get(traffic.model, field_name="model")
    _require_one_volume(traffic)
    constants = catalog.engine
    assumptions: list[str] = []
    requests_per_day = _requests_per_day(traffic)
    reasoning = traffic.reasoning_tokens
    billed = None if traffic.output_tokens is None else traffic.output_tokens + (reasoning or 0)
    per_day = traffic.output_tokens_per_day
    if per_day is not None:
        if requests_per_day is not None and billed is not None:
            implied = requests_per_day * billed
            if abs(implied - per_day) > 0.01 * per_day:
                raise InputError(
                    f"{requests_per_day:,.0f} requests a day x {_per_request(billed, reasoning)} "
                    f"is {implied:,.0f} output tokens a day, not the {per_day:,.0f} given",
                    field="output_tokens_per_day",
                    hint="output tokens a day count reasoning, as the API bills it: give the "
                    "daily volume or requests x tokens per request, not both",
                )
        elif requests_per_day is not None:
            billed = max(1, round(per_day / requests_per_day))
            if reasoning is not None and billed <= reasoning:
                raise InputError(
                    f"{per_day:,.0f} output tokens a day over {requests_per_day:,.0f} requests "
                    f"is {billed:,} a request, no more than the {reasoning:,} reasoning tokens "
                    "given",
                    field="reasoning_tokens",
                    hint="output tokens a day count reasoning, as the API bills it; e.g. "
                    "reasoning_tokens=600",
                )
        else:
            if billed is None:
                billed, reasoning = _assumed_request(model, reasoning, constants, assumptions)
            requests_per_day = per_day / billed
    assert requests_per_day is not None and billed is not None
    mean = (per_day if per_day is not None else requests_per_day * billed) / SECONDS_PER_DAY
    min_speed = traffic.min_per_user_tokens_per_s
    if min_speed is None:
        min_speed = constants.default_min_per_user_tokens_per_s
        assumptions.append(
            f"assumed users need at least {min_speed:g} tokens/s each "
            "(set min_per_user_tokens_per_s to override)"
        )
    if traffic.peak_to_average == 1.0:
        assumptions.append("assumed the peak equals the average (set peak_to_average)")
    cap = traffic.planned_utilization or constants.planned_utilization
    if traffic.planned_utilization is None:
        assumptions.append(f"planned the peak at {cap:.0%} of capacity")
    if traffic.input_tokens is None:
        assumptions.append("no input_tokens given: prefill is not included in the sizing")
    return Demand(
        model=model,
        requests_per_s=requests_per_day / SECONDS_PER_DAY,
        output_tokens=billed,
        reasoning_tokens=reasoning,
        input_tokens=traffic.input_tokens,
        mean_decoded_tokens_per_s=mean,
        peak_decoded_tokens_per_s=mean * traffic.peak_to_average,
        min_per_user_tokens_per_s=min_speed,
        max_ttft_s=traffic.max_ttft_s,
        planned_utilization=cap,
        assumptions=assumptions,
    )


def _require_one_volume(traffic: Traffic) -> None:
    rates = {
        "requests_per_day": traffic.requests_per_day,
        "requests_per_hour": traffic.requests_per_hour,
        "requests_per_minute": traffic.requests_per_minute,
    }
    given = [name for name, value in rates.items() if value is not None]
    if len(given) > 1:
        raise InputError(
            f"give one request rate, not {' and '.join(given)}",
            field=given[0],
            hint="e.g. requests_per_day=100000",
        )
    if traffic.output_tokens_per_day is None and not given:
        raise InputError(
            "no traffic volume given",
            field="output_tokens_per_day",
            hint="e.g. output_tokens_per_day=2e9, or requests_per_day=100000 output_tokens=400",
        )
    if given and traffic.output_tokens is None and traffic.output_tokens_per_day is None:
        raise InputError(
            f"{given[0]} needs the output tokens of each request",
            field="output_tokens",
            hint="e.g. output_tokens=400",
        )


def _requests_per_day(traffic: Traffic) -> float | None:
    if traffic.requests_per_day is not None:
        return traffic.requests_per_day
    if traffic.requests_per_hour is not None:
        return traffic.requests_per_hour * 24
    if traffic.requests_per_minute is not None:
        return traffic.requests_per_minute * 24 * 60
    return None


def _per_request(billed: int, reasoning: int | None) -> str:
    if reasoning:
        visible = billed - reasoning
        return f"{billed:,} output tokens ({visible:,} visible + {reasoning:,} reasoning)"
    return f"{billed:,} output tokens"


def _assumed_request(
    model: Model, reasoning: int | None, constants: EngineConstants, assumptions: list[str]
) -> tuple[int, int | None]:
    """A request's billed output, and its reasoning, when only a daily volume was given:
    the catalog's visible output plus the reasoning given, or the model's typical
    reasoning if it always thinks."""
    visible = constants.default_output_tokens_per_request
    if reasoning is not None:
        assumptions.append(
            f"assumed {visible:,} visible output tokens per request, {visible + reasoning:,} "
            f"with the {reasoning:,} reasoning (set output_tokens to override)"
        )
        return visible + reasoning, reasoning
    typical = model.reasoning_tokens_default if model.thinking == "mandatory" else 0
    if typical:
        assumptions.append(
            f"assumed {visible + typical:,} output tokens per request: {visible:,} visible "
            f"and {typical:,} reasoning, typical of {model.name} (set output_tokens to "
            "override; the daily volume already counts it)"
        )
        return visible + typical, typical
    assumptions.append(
        f"assumed {visible:,} output tokens per request (set output_tokens to override)"
    )
    return visible, None
