"""Unit conversions, kept in one place so no formula multiplies by a stray 1e9.

Catalog fields carry their unit in the name (``hbm_bandwidth_tb_per_s``); the
engine converts to SI (bytes, seconds, FLOP/s) only through these helpers.
"""

from __future__ import annotations

HOURS_PER_MONTH = 730.0
"""Billing convention for a month of a lease (8,760 h / 12)."""

SECONDS_PER_HOUR = 3600.0
SECONDS_PER_DAY = 86_400.0
TOKENS_PER_MILLION = 1_000_000.0


def gb_to_bytes(gb: float) -> float:
    """Decimal gigabytes, as GPU datasheets and checkpoint sizes are quoted."""
    return gb * 1e9


def bytes_to_gb(n_bytes: float) -> float:
    return n_bytes / 1e9


def gib_to_bytes(gib: float) -> float:
    """Binary gibibytes, as vLLM reports KV-cache capacity."""
    return gib * 2**30


def tb_per_s_to_bytes_per_s(tb_per_s: float) -> float:
    return tb_per_s * 1e12


def gb_per_s_to_bytes_per_s(gb_per_s: float) -> float:
    return gb_per_s * 1e9


def tflops_to_flops(tflops: float) -> float:
    return tflops * 1e12


def billions(n: float) -> float:
    """Parameter counts are catalogued in billions (``total_params_b``)."""
    return n * 1e9


def ms_to_s(ms: float) -> float:
    return ms / 1e3


def us_to_s(us: float) -> float:
    return us / 1e6
