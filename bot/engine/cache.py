"""The calibrated engine, kept between runs so a command answers in a fraction of a second.

Calibration with its validation bands takes seconds; its result depends only on
the packaged data files and the engine's code. Both are hashed into the cache
key, so an edited YAML file or a new release recalibrates on its next run. The
cache lives in the user's cache directory; a missing, stale or unreadable file
is simply rebuilt.
"""

from __future__ import annotations

import hashlib
import pickle
from importlib import resources
from pathlib import Path

from platformdirs import user_cache_path

from core.catalog import load_catalog, packaged_files
from core.perf.engine import PerfEngine
from core.perf.validation import build_engine


def cache_key() -> str:
    """A digest of everything calibration reads: data files and core's source."""
    digest = hashlib.sha256()
    core_root = Path(str(resources.files("core")))
    sources = sorted(core_root.rglob("*.py")) + packaged_files()
    for path in sources:
        digest.update(str(path.relative_to(core_root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def load_engine(cache_dir: Path | None = None) -> PerfEngine:
    """The engine from the cache when it matches the current data and code, else built."""
    directory = cache_dir or user_cache_path("leasewise", appauthor=False)
    path = directory / f"engine-{cache_key()}.pickle"
    try:
        with path.open("rb") as handle:
            engine = pickle.load(handle)  # noqa: S301 - our own file, keyed by content hash
        if isinstance(engine, PerfEngine):
            return engine
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        pass
    engine = build_engine(load_catalog())
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for stale in directory.glob("engine-*.pickle"):
            stale.unlink(missing_ok=True)
        temporary = path.with_suffix(".tmp")
        with temporary.open("wb") as handle:
            pickle.dump(engine, handle, protocol=pickle.HIGHEST_PROTOCOL)
        temporary.replace(path)
    except OSError:
        pass  # a read-only home still gets answers, just slower
    return engine
