"""Side-by-side economics, and the lesson sales must see: cheap hours can be dear tokens."""

from __future__ import annotations

from itertools import combinations

from pydantic import BaseModel, ConfigDict

from core.scenario import Estimate


class PriceContrast(BaseModel):
    """One deployment is cheaper per GPU-hour yet dearer per million tokens than another."""

    model_config = ConfigDict(frozen=True)

    cheaper_hourly: Estimate
    cheaper_per_token: Estimate
    hourly_ratio: float
    per_token_ratio: float


def price_contrasts(estimates: list[Estimate]) -> list[PriceContrast]:
    """Every pair where the lower hourly price loses on cost per token."""
    found = []
    for a, b in combinations(estimates, 2):
        low_hour, high_hour = sorted((a, b), key=lambda e: e.price_per_gpu_hour)
        if (
            low_hour.price_per_gpu_hour < high_hour.price_per_gpu_hour
            and low_hour.usd_per_million_output_tokens > high_hour.usd_per_million_output_tokens
        ):
            found.append(
                PriceContrast(
                    cheaper_hourly=low_hour,
                    cheaper_per_token=high_hour,
                    hourly_ratio=high_hour.price_per_gpu_hour / low_hour.price_per_gpu_hour,
                    per_token_ratio=low_hour.usd_per_million_output_tokens
                    / high_hour.usd_per_million_output_tokens,
                )
            )
    return found
