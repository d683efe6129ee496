"""Lease economics: what a deployment costs per hour, month, term and token.

The lease arithmetic, one formula a function, so the digest, sizing and
the Slack answers all price a token the same way.
"""

from __future__ import annotations

from core.units import HOURS_PER_MONTH, SECONDS_PER_HOUR, TOKENS_PER_MILLION


def usd_per_hour(*, gpus: int, price_per_gpu_hour: float) -> float:
    return gpus * price_per_gpu_hour


def usd_per_month(hourly_usd: float) -> float:
    """A lease bills every hour of the month, used or not (730 h)."""
    return hourly_usd * HOURS_PER_MONTH


def contract_usd(*, monthly_usd: float, term_months: int) -> float:
    return monthly_usd * term_months


def usd_per_million_output_tokens(
    *, hourly_usd: float, tokens_per_s: float, utilization: float
) -> float:
    """Lease cost of a million decoded tokens at a busy fraction of ``utilization``."""
    tokens_per_hour = utilization * tokens_per_s * SECONDS_PER_HOUR
    return hourly_usd / tokens_per_hour * TOKENS_PER_MILLION


def api_usd_per_million_output_tokens(
    *,
    usd_per_million_output: float,
    usd_per_million_input: float | None,
    input_tokens: int | None,
    output_tokens: int | None,
) -> float:
    """What the API charges per million decoded tokens, input included.

    Reasoning tokens are billed as output, so ``output_tokens`` counts them; the
    prompt's cost is spread over the tokens it produced.
    """
    if not usd_per_million_input or not input_tokens or not output_tokens:
        return usd_per_million_output
    return usd_per_million_output + usd_per_million_input * input_tokens / output_tokens


def api_usd(
    *,
    input_tokens: float,
    output_tokens: float,
    usd_per_million_input: float,
    usd_per_million_output: float,
) -> float:
    """The API bill for a volume of tokens (output including reasoning)."""
    return (
        input_tokens * usd_per_million_input + output_tokens * usd_per_million_output
    ) / TOKENS_PER_MILLION


def output_tokens_per_month(*, tokens_per_s: float, utilization: float) -> float:
    """Tokens a replica decodes in a lease month when busy ``utilization`` of the time."""
    return tokens_per_s * utilization * SECONDS_PER_HOUR * HOURS_PER_MONTH


def breakeven_utilization(
    *, hourly_usd: float, tokens_per_s: float, api_usd_per_million: float
) -> float:
    """Utilization at which the lease's $/M equals the API's; above 1 it never does."""
    return hourly_usd * TOKENS_PER_MILLION / (SECONDS_PER_HOUR * tokens_per_s * api_usd_per_million)
