"""The one price rule every answer uses: what a GPU-hour costs in this question.

The price in the question, for the GPU it was given for; else the price book's line
for the question's term (a question with no term takes the book's default term), if
the line is valid on the question's date; else the GPU's on-demand list price. The
GPUs with a book line are the offer: what the company leases. Every answer says its
price back once, with where it came from, and a book line passed over for its dates
is said ("the 36-month book price expired 2027-10-17; on-demand list price used").

The question's date is its ``as_of`` if it has one, else the day the edge passes in
(the core has no clock). With no date at all, a line is taken as valid.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from core.catalog import Catalog, Gpu, LeasePrice
from core.traffic import Traffic

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
    lapsed: str | None = None
    """Why the book's line for the term was not used on the question's date: "the
    36-month book price expired 2027-10-17" (None: it was used, or there is none)."""

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
        if self.lapsed is not None:
            return f"{self.lapsed}; on-demand list price used — {self.source}"
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
    on: dt.date | None = None,
) -> Price:
    """This GPU's price in a question.

    ``stated`` is a price the question gave for this GPU; ``stated_for`` maps GPU
    names to prices the question gave for each (``{"b300": 5}``), and wins over
    ``stated``. ``term_months`` None takes the book's default term. ``on`` is the
    question's date: a book line not valid on it is passed over, and said.
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
    lapsed = None
    if line is not None and on is not None and not line.valid_on(on):
        lapsed = _lapsed(line, on)
        line = None
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
        lapsed=lapsed,
    )


def stated_prices(
    catalog: Catalog,
    *,
    price: float | None,
    gpus: Sequence[str] | None,
    prices: Mapping[str, float],
) -> dict[str, float]:
    """The prices a question stated, by GPU id: ``prices`` (GPU -> price) as given, and
    ``price``, said without a GPU, for the question's GPU: the first of ``gpus`` it
    names, else each GPU of the offer (every GPU when the book is empty). ``price`` is
    the newer word for its GPU; every other GPU is priced by the rest of the rule."""
    out = {catalog.gpus.get(name, field_name="prices").id: v for name, v in prices.items()}
    if price is not None:
        owners = [gpus[0]] if gpus else offered_gpus(catalog) or [g.id for g in catalog.gpus]
        out.update({catalog.gpus.get(g, field_name="gpus").id: price for g in owners})
    return out


def pin_prices(traffic: Traffic, catalog: Catalog) -> Traffic:
    """``traffic`` with a price said without a GPU moved to the GPU it belongs to, so a
    thread keeps it there when the GPUs change ("only H200" does not hand B300's price
    to H200)."""
    if traffic.price_per_gpu_hour is None:
        return traffic
    pinned = stated_prices(
        catalog, price=traffic.price_per_gpu_hour, gpus=traffic.gpus, prices=traffic.prices
    )
    return traffic.model_copy(update={"price_per_gpu_hour": None, "prices": pinned})


def question_date(as_of: dt.date | None, today: dt.date | None) -> dt.date | None:
    """The date a question's prices must be valid on: its own ``as_of``, else today."""
    return as_of if as_of is not None else today


def _lapsed(line: LeasePrice, on: dt.date) -> str:
    term = _term(line.term_months)
    if on < line.valid_from:
        return f"the {term} book price is valid only from {line.valid_from.isoformat()}"
    assert line.valid_until is not None
    return f"the {term} book price expired {line.valid_until.isoformat()}"
