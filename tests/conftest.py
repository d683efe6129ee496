"""Fixtures shared by every test: the packaged catalog and its calibrated engine, built once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from core.catalog import Catalog, load_catalog
from core.estimate import estimate
from core.perf.engine import PerfEngine
from core.perf.validation import build_engine
from core.scenario import Estimate, Scenario


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def engine(catalog: Catalog) -> PerfEngine:
    return build_engine(catalog)


@pytest.fixture(scope="session")
def ask(engine: PerfEngine) -> Callable[..., Estimate]:
    """``ask(model="kimi-k3", gpu="b300", gpus=16)`` -> the engine's Estimate."""

    def _ask(**fields: Any) -> Estimate:
        return estimate(Scenario(**fields), engine)

    return _ask
