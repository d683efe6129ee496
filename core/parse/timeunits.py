"""Units of time for rates and terms, converted by ``pint``.

A month of traffic is read as 30 days and a year as 365 (said back as an
assumption); a lease term in years is 12 months a year. The registry is built on
first use, not at import, and every factor is cached, so parsing pays a dict lookup.
"""

from __future__ import annotations

import functools
from typing import Any

import pint

UNITS: dict[str, str] = {
    "millisecond": "millisecond",
    "second": "second",
    "minute": "minute",
    "hour": "hour",
    "day": "day",
    "week": "week",
    "month": "traffic_month",
    "year": "traffic_year",
}
"""Our unit names -> pint's (with the two conventions defined in ``_registry``)."""

ASSUMED: dict[str, str] = {
    "month": "a month read as 30 days",
    "year": "a year read as 365 days",
}


@functools.cache
def _registry() -> Any:
    registry: Any = pint.UnitRegistry()
    registry.define("traffic_month = 30 * day")
    registry.define("traffic_year = 365 * day")
    return registry


@functools.cache
def seconds(unit: str) -> float:
    """Seconds in one ``unit`` (one of ``UNITS``)."""
    return float(_registry().Quantity(1, UNITS[unit]).to("second").magnitude)


@functools.cache
def months(unit: str) -> float:
    """Calendar months in one ``unit`` of a lease term (year -> 12)."""
    name = {"month": "month", "year": "year"}.get(unit, UNITS[unit])
    return float(_registry().Quantity(1, name).to("month").magnitude)


def per_day(value: float, unit: str) -> float:
    """A rate per ``unit`` as a rate per day."""
    return value * seconds("day") / seconds(unit)


def per_second(value: float, unit: str) -> float:
    return value / seconds(unit)
