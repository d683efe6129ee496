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
from core.errors import InputError
from core.units import SECONDS_PER_DAY


class Traffic(BaseModel):
    """What the customer serves, what it must feel like, and what the lease allows."""

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
    term_months: Literal[0, 12, 24, 36] = 36
    price_per_gpu_hour: float | None = Field(default=None, gt=0, le=1000)
    prices: dict[str, Annotated[float, Field(gt=0, le=1000)]] = {}
    api_price_per_million_output: float | None = Field(default=None, gt=0)
    api_price_per_million_input: float | None = Field(default=None, ge=0)
    planned_utilization: float | None = Field(default=None, gt=0, le=1)
    spec_decode_acceptance: float = Field(default=1.0, ge=1.0, le=16.0)


@dataclass(frozen=True)
class Demand:
    """The traffic as rates: what the search sizes for, and what it assumed to get there."""

    model: Model
    requests_per_s: float
    output_tokens: int
    decoded_tokens: int
    input_tokens: int | None
    mean_decoded_tokens_per_s: float
    peak_decoded_tokens_per_s: float
    min_per_user_tokens_per_s: float
    max_ttft_s: float | None
    planned_utilization: float
    assumptions: list[str] = field(default_factory=list)

    @property
    def decoded_tokens_per_day(self) -> float:
        return self.mean_decoded_tokens_per_s * SECONDS_PER_DAY

    @property
    def reasoning_tokens(self) -> int:
        return self.decoded_tokens - self.output_tokens


def resolve(traffic: Traffic, catalog: Catalog) -> Demand:
    """Rates from the traffic as given; contradictions are refused, defaults named."""
    model = catalog.models.get(traffic.model, field_name="model")
    _require_one_volume(traffic)
    constants = catalog.engine
    assumptions: list[str] = []
    requests_per_day = _requests_per_day(traffic)
    output_tokens = traffic.output_tokens
    if traffic.output_tokens_per_day is not None:
        if requests_per_day is not None and output_tokens is not None:
            implied = requests_per_day * output_tokens
            if abs(implied - traffic.output_tokens_per_day) > 0.01 * traffic.output_tokens_per_day:
                raise InputError(
                    f"{requests_per_day:,.0f} requests a day x {output_tokens:,} output tokens is "
                    f"{implied:,.0f} tokens a day, not the {traffic.output_tokens_per_day:,.0f} "
                    "given",
                    field="output_tokens_per_day",
                    hint="give the daily volume or requests x tokens per request, not both",
                )
        elif requests_per_day is not None:
            output_tokens = max(1, round(traffic.output_tokens_per_day / requests_per_day))
        else:
            if output_tokens is None:
                output_tokens = constants.default_output_tokens_per_request
                assumptions.append(
                    f"assumed {output_tokens:,} output tokens per request "
                    "(set output_tokens to override)"
                )
            requests_per_day = traffic.output_tokens_per_day / output_tokens
    assert requests_per_day is not None and output_tokens is not None
    reasoning = traffic.reasoning_tokens
    if reasoning is None:
        reasoning = model.reasoning_tokens_default if model.thinking == "mandatory" else 0
        if reasoning:
            assumptions.append(
                f"assumed {reasoning:,} reasoning tokens per request: {model.name} always "
                "thinks, and thinking is decoded and billed as output "
                "(set reasoning_tokens to override)"
            )
    decoded = output_tokens + reasoning
    mean = requests_per_day * decoded / SECONDS_PER_DAY
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
        output_tokens=output_tokens,
        decoded_tokens=decoded,
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
