"""The calibrated engine, kept between runs so a command answers in a fraction of a second.

Calibration with its validation bands takes seconds; its result depends only on
the packaged data files and the engine's code. Both are hashed into the cache
key, so an edited YAML file or a new release recalibrates on its next run. The
cache lives in the user's cache directory; a missing, stale or unreadable file
is simply rebuilt.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from importlib import resources
from pathlib import Path

from platformdirs import user_cache_path

from core.catalog import load_catalog, packaged_field_files, packaged_files
from core.perf.engine import PerfEngine
from core.perf.validation import build_engine


def cache_key() -> str:
    """A digest of everything calibration reads: data files and core's source."""
    digest = hashlib.sha256()
    core_root = Path(str(resources.files("core")))
    sources = sorted(core_root.rglob("*.py")) + packaged_files() + packaged_field_files()
    for path in sources:
        digest.update(str(path.relative_to(core_root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def cache_dir() -> Path:
    """Where the engine is kept: the user's cache directory (``XDG_CACHE_HOME`` on Linux)."""
    return user_cache_path("leasewise", appauthor=False)


def load_engine(directory: Path | None = None) -> PerfEngine:
    """The engine from the cache when it matches the current data and code, else built."""
    path = (directory or cache_dir()) / f"engine-{cache_key()}.pickle"
    try:
        with path.open("rb") as handle:
            engine = pickle.load(handle)  # noqa: S301 - our own file, keyed by content hash
        if isinstance(engine, PerfEngine):
            return engine
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        pass
    engine = build_engine(load_catalog())
    store_engine(engine, path.parent)
    return engine


def store_engine(engine: PerfEngine, directory: Path | None = None) -> None:
    """Keep ``engine`` as the cached calibration of the current data and code.

    Written to a temporary file and renamed, so a concurrent reader sees the old file
    or the new one, never half of one. A read-only home still gets answers, just slower.
    """
    directory = directory or cache_dir()
    path = directory / f"engine-{cache_key()}.pickle"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for stale in directory.glob("engine-*.pickle"):
            if stale != path:
                stale.unlink(missing_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        with temporary.open("wb") as handle:
            pickle.dump(engine, handle, protocol=pickle.HIGHEST_PROTOCOL)
        temporary.replace(path)
    except OSError:
        pass
