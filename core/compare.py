"""Side-by-side economics, and the lesson sales must see: cheap hours can be dear tokens."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from itertools import combinations

from pydantic import BaseModel, ConfigDict

from core.errors import InputError
from core.estimate import estimate
from core.perf.engine import PerfEngine
from core.scenario import Estimate, Scenario


class PriceContrast(BaseModel):
    """One deployment is cheaper per GPU-hour yet dearer per million tokens than another."""

    model_config = ConfigDict(frozen=True)

    cheaper_hourly: Estimate
    cheaper_per_token: Estimate

    @property
    def hourly_ratio(self) -> float:
        """How many times dearer per GPU-hour the cheaper-per-token deployment is."""
        return self.cheaper_per_token.price_per_gpu_hour / self.cheaper_hourly.price_per_gpu_hour

    @property
    def per_token_ratio(self) -> float:
        """How many times dearer per token the cheaper-per-hour deployment is.

        Unrounded, for programs and golden tests; a sentence takes its ratio from the
        figures its table shows (``bot.render.formats.times``).
        """
        dear = self.cheaper_hourly.usd_per_million_output_tokens
        cheap = self.cheaper_per_token.usd_per_million_output_tokens
        assert dear is not None and cheap is not None  # only deployments that serve pair up
        return dear / cheap


def price_contrasts(estimates: list[Estimate]) -> list[PriceContrast]:
    """Every pair where the lower hourly price loses on cost per token (a deployment
    that does not fit has no cost per token, and pairs with none)."""
    found = []
    serving = [e for e in estimates if e.usd_per_million_output_tokens is not None]
    for a, b in combinations(serving, 2):
        low_hour, high_hour = sorted((a, b), key=lambda e: e.price_per_gpu_hour)
        if (
            low_hour.price_per_gpu_hour < high_hour.price_per_gpu_hour
            and _per_m(low_hour) > _per_m(high_hour)
        ):
            found.append(
                PriceContrast(cheaper_hourly=low_hour, cheaper_per_token=high_hour)
            )
    return found


def across_gpus(
    scenario: Scenario,
    engine: PerfEngine,
    *,
    gpus: Sequence[str] = (),
    today: dt.date | None = None,
) -> tuple[list[Estimate], list[str]]:
    """The same deployment question on each GPU (default: every GPU in the catalog).

    Each GPU runs at the scenario's count when that holds the model, else at the
    smallest count that does, and at its own price: a price the customer gave
    belongs to the GPU it was given for (``today`` dates the prices, as ``estimate``'s
    does). Returns the estimates cheapest per token first, and a note for each GPU
    that cannot serve the model.
    """
    catalog = engine.catalog
    names = list(dict.fromkeys([scenario.gpu, *gpus])) if gpus else [g.id for g in catalog.gpus]
    estimates: list[Estimate] = []
    skipped: list[str] = []
    for name in names:
        same_gpu = catalog.gpus.get(name).id == catalog.gpus.get(scenario.gpu).id
        update: dict[str, object] = {"gpu": name}
        if not same_gpu:
            update["price_per_gpu_hour"] = None
        try:
            result = estimate(scenario.model_copy(update=update), engine, today=today)
            if not result.fits_memory:
                result = estimate(
                    scenario.model_copy(update={**update, "gpus": None}), engine, today=today
                )
        except InputError as exc:
            skipped.append(f"{name}: {exc.message}")
            continue
        estimates.append(result)
    estimates.sort(key=lambda e: (e.usd_per_million_output_tokens is None, _per_m(e)))
    return estimates, skipped


def _per_m(e: Estimate) -> float:
    """$/M output tokens, infinite for a deployment that serves none."""
    return math.inf if e.usd_per_million_output_tokens is None else e.usd_per_million_output_tokens
