"""The one price rule every answer uses: what a GPU-hour costs in this question.

The price in the question, for the GPU it was given for; else the price book's line
for the question's term (a question with no term takes the book's default term);
else the GPU's on-demand list price. The GPUs with a book line are the offer: what
the company leases. Every answer says its price back once, with where it came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict

from core.catalog import Catalog, Gpu

PriceBasis = Literal["stated", "book", "list"]


class Price(BaseModel):
    """A GPU-hour's price in one answer, and its provenance."""

    model_config = ConfigDict(frozen=True)

    gpu: str
    usd_per_gpu_hour: float
    basis: PriceBasis
    source: str
    """Where the figure came from: "stated in the question", the book line's source,
    or the list price's source."""
    term_months: int
    offered: bool
    """The GPU has a line in the price book: the company leases it."""
    line: str | None = None
    """The price book line's id, for a book price."""

    @property
    def said(self) -> str:
        """The price as an answer says it back: figure, basis, provenance."""
        return f"${self.usd_per_gpu_hour:.2f}/GPU-hour, {self.label}"

    @property
    def label(self) -> str:
        """The provenance alone: "36-month book price", "as stated in the question",
        "on-demand list price, not in our offer — <its source>"."""
        if self.basis == "book":
            return f"{_term(self.term_months)} book price"
        label = "as stated in the question" if self.basis == "stated" else "on-demand list price"
        if not self.offered:
            label += ", not in our offer"
        elif self.basis == "list":
            label += f", no {_term(self.term_months)} line in the price book"
        return label if self.basis == "stated" else f"{label} — {self.source}"


def _term(months: int) -> str:
    return "on-demand" if months == 0 else f"{months}-month"


def offered_gpus(catalog: Catalog) -> list[str]:
    """The GPUs the company leases: those with a line in the price book, in catalog order."""
    booked = {line.gpu for line in catalog.prices}
    return [g.id for g in catalog.gpus if g.id in booked]


def is_offered(catalog: Catalog, gpu: str) -> bool:
    return any(line.gpu == gpu for line in catalog.prices)


def price_for(
    gpu: Gpu | str,
    catalog: Catalog,
    *,
    stated: float | None = None,
    stated_for: Mapping[str, float] | None = None,
    term_months: int | None = None,
) -> Price:
    """This GPU's price in a question.

    ``stated`` is a price the question gave for this GPU; ``stated_for`` maps GPU
    names to prices the question gave for each (``{"b300": 5}``), and wins over
    ``stated``. ``term_months`` None takes the book's default term.
    """
    entry = catalog.gpus.get(gpu if isinstance(gpu, str) else gpu.id, field_name="gpu")
    term = catalog.default_term_months if term_months is None else term_months
    offered = is_offered(catalog, entry.id)
    for name, value in (stated_for or {}).items():
        if catalog.gpus.get(name, field_name="prices").id == entry.id:
            stated = value
            break
    if stated is not None:
        return Price(
            gpu=entry.id,
            usd_per_gpu_hour=stated,
            basis="stated",
            source="stated in the question",
            term_months=term,
            offered=offered,
        )
    line = catalog.lease_price(entry.id, term)
    if line is not None:
        return Price(
            gpu=entry.id,
            usd_per_gpu_hour=line.usd_per_gpu_hour,
            basis="book",
            source=line.source.title,
            term_months=term,
            offered=True,
            line=line.id,
        )
    return Price(
        gpu=entry.id,
        usd_per_gpu_hour=entry.usd_per_gpu_hour,
        basis="list",
        source=entry.price_source.title.strip(),
        term_months=term,
        offered=offered,
    )
