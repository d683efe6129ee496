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
from core.changes.names import gpu_name, model_name, stack_name


class CatalogChange(BaseModel):
    """One new serving stack or calibration measurement, and the names to say it with.

    For a measurement, ``model_name``, ``gpus``, ``gpu_name`` and ``concurrency`` say
    what was measured (the digest's template puts them in a sentence).
    """

    model_config = ConfigDict(frozen=True)

    kind: Literal["stack", "measurement"]
    id: str
    name: str
    """The stack's own name; for a measurement, the name of the stack it ran."""
    date: dt.date
    stack: str
    """The stack the change is about: the stack itself, or the one a measurement ran."""
    model_name: str | None = None
    gpus: int | None = None
    gpu_name: str | None = None
    concurrency: int | None = None
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
    return CatalogChange(
        kind="measurement",
        id=m.id,
        name=stack_name(catalog, m.stack),
        date=m.source.date,
        stack=m.stack,
        model_name=model_name(catalog, m.model),
        gpus=m.gpus,
        gpu_name=gpu_name(catalog, m.gpu),
        concurrency=m.concurrency,
        source_title=m.source.title,
        source_url=m.source.url,
        description=m.notes.strip(),
        caveats=list(m.caveats),
    )
