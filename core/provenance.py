"""How an answer names the measurements its figure rests on: publication and what was measured.

A measurement's id (``k3-gb300x16-b64-vllm-k3-decode``) is the catalog's key: the
JSON carries it (``estimated_from``, a source's ``measurement``) for programs, and
admins name it to remove one. A customer reads the publication and what it measured
("vLLM blog, … — Kimi K3 on 16x GB300 at batch 64"), so every sentence an answer
says, caveats included, names a measurement in these words and never by its id.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.catalog import Catalog, Measurement


def what_was_measured(m: Measurement, catalog: Catalog) -> str:
    """'Kimi K3 on 16x GB300 at batch 64 with vLLM Kimi K3 decode path'."""
    stack = catalog.stacks.entries.get(m.stack)
    return (
        f"{_model_name(m.model, catalog)} on {m.gpus}x {m.gpu.upper()} at batch "
        f"{m.concurrency:,} with {m.stack if stack is None else stack.name}"
    )


def measurement_said(m: Measurement, catalog: Catalog) -> str:
    """The publication, then what it measured."""
    return f"{m.source.title.strip()} — {what_was_measured(m, catalog)}"


def publications(measurements: Iterable[Measurement]) -> str:
    """The publications, each once, in order: 'A' or 'A and B' (for a figure that rests
    on none, the roofline fitted to its stack's)."""
    titles = dict.fromkeys(m.source.title.strip() for m in measurements)
    return " and ".join(titles) or "the roofline fitted to its stack's measurements"


def batches(measurements: Sequence[Measurement]) -> str:
    """'batch 64' or 'batches 16 and 64'."""
    sizes = sorted({m.concurrency for m in measurements})
    said = " and ".join(f"{c:,}" for c in sizes)
    return f"batch {said}" if len(sizes) == 1 else f"batches {said}"


def find(measurement_id: str | None, catalog: Catalog, *near: Measurement) -> Measurement | None:
    """The measurement with this id: among ``near`` (an answer's own), else the catalog's."""
    if measurement_id is None:
        return None
    for m in (*near, *catalog.measurements):
        if m.id == measurement_id:
            return m
    return None


def _model_name(model: str, catalog: Catalog) -> str:
    entry = catalog.models.entries.get(model)
    return model if entry is None else entry.name
