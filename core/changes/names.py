"""Catalog entries as a digest names them: "NVIDIA B300", not its full catalog title.

Names are data, not wording: the digest's templates place them in sentences.
"""

from __future__ import annotations

from core.catalog import Catalog


def short(name: str) -> str:
    """A catalog name without its parenthesised detail, for a sentence read aloud:
    "NVIDIA B300 (HGX Blackwell Ultra, 288GB)" -> "NVIDIA B300"."""
    return name.split(" (", 1)[0]


def gpu_name(catalog: Catalog, gpu: str | None) -> str:
    found = catalog.gpus.entries.get(gpu or "")
    return short(found.name) if found else str(gpu)


def stack_name(catalog: Catalog, stack: str | None) -> str:
    found = catalog.stacks.entries.get(stack or "")
    return short(found.name) if found else str(stack)


def model_name(catalog: Catalog, model: str) -> str:
    found = catalog.models.entries.get(model)
    return found.name if found else model
