"""What entered the catalog in a digest period: the headlines before the quotes.

A stack counts from the day it was released (the day ``as_of`` starts to pick it);
a measurement from the day its source was published, because that is when the
figure could first have changed anyone's answer.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict

from core.catalog import Catalog, Measurement, Stack
from core.changes.wording import gpu_name, stack_name


class CatalogChange(BaseModel):
    """One new serving stack or calibration measurement, with what to say about it."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["stack", "measurement"]
    id: str
    name: str
    date: dt.date
    stack: str
    """The stack the change is about: the stack itself, or the one a measurement ran."""
    source_title: str
    source_url: str | None
    description: str
    caveats: list[str]
    supersedes: str | None = None


def changes_between(catalog: Catalog, since: dt.date, until: dt.date) -> list[CatalogChange]:
    """Changes dated in (since, until]: the previous digest already covered ``since``."""
    found = [_stack_change(s) for s in catalog.stacks if since < s.released <= until]
    found += [
        _measurement_change(m, catalog)
        for m in catalog.measurements
        if m.role == "calibration" and since < m.source.date <= until
    ]
    return sorted(found, key=lambda c: (c.date, c.kind != "stack", c.id))


def _stack_change(stack: Stack) -> CatalogChange:
    source = stack.sources[0]
    return CatalogChange(
        kind="stack",
        id=stack.id,
        name=stack.name,
        date=stack.released,
        stack=stack.id,
        source_title=source.title,
        source_url=source.url,
        description=stack.description,
        caveats=list(stack.caveats),
        supersedes=stack.supersedes,
    )


def _measurement_change(m: Measurement, catalog: Catalog) -> CatalogChange:
    model = catalog.models.entries.get(m.model)
    name = (
        f"{model.name if model else m.model} on {m.gpus} {gpu_name(catalog, m.gpu)}, "
        f"{stack_name(catalog, m.stack)}, batch {m.concurrency}"
    )
    return CatalogChange(
        kind="measurement",
        id=m.id,
        name=name,
        date=m.source.date,
        stack=m.stack,
        source_title=m.source.title,
        source_url=m.source.url,
        description=m.notes.strip(),
        caveats=list(m.caveats),
    )
