"""Fixtures shared by every test: the packaged catalog and its calibrated engine, built once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
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


@pytest.fixture(scope="session", autouse=True)
def _private_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The CLI caches its calibrated engine in the user's cache directory; tests keep
    theirs out of the real home."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(scope="session")
def warm_cache(_private_cache_dir: None, engine: PerfEngine) -> None:
    """The session's engine in the private cache, as a first run would have left it, so
    the CLI (in this process or a child) answers without calibrating again. Tests that
    are about the cache itself use directories of their own."""
    from bot.engine.cache import store_engine

    store_engine(engine)
