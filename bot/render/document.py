"""A saved quote as something to send the customer: a PDF, or its figures as CSV or JSON.

``quote_document`` reads one set of figures off the stored quote (the estimate, or
a sizing's first option) and the three renderings say the same figures:

- **PDF**: ``quote_document.html.j2`` rendered by the shared ``Renderer`` (the filters
  of ``bot.render.formats``, so the PDF spells a figure as ``quote show`` does), laid
  out by fpdf2's ``write_html``. fpdf2 is pure Python (its own dependencies are
  fontTools, Pillow and defusedxml), so the image needs no system library;
  WeasyPrint would need Pango. fpdf2's core fonts are Latin-1 only, so the document
  embeds DejaVu Sans, the TrueType family matplotlib (already a dependency, for the
  charts) ships in its data directory: Latin, Greek, Cyrillic, Armenian, Georgian,
  Hebrew, Arabic, many symbols. A character it cannot draw (CJK, most emoji) is
  printed as U+FFFD, so a name visibly lost a character instead of silently
  shrinking; invisible joiners and control characters are dropped.
- **CSV**: one row per figure: its key (units in the name, as the JSON contract
  names fields), the value a spreadsheet computes with, and the figure as shown.
- **JSON**: the stored question and economics as saved, with the quote's metadata
  and the document's date and validity.

How long the price holds: the price book line that priced the quote, if it says
until when (``valid_until``); else the sales policy in ``Settings``
(``LEASEWISE_QUOTE_VALIDITY_DAYS``, 30 days), counted from the day the quote was
priced, not the day the document is printed: a PDF of an old quote says it expired.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from bot.render import formats
from core import cost, provenance
from core.scenario import Estimate, SourceRef
from core.sizing import Infeasible, Sizing

if TYPE_CHECKING:
    from fpdf import FPDF

    from bot.render.renderer import Renderer
    from core.catalog import Catalog
    from storage.quotes import StoredQuote

Format = Literal["pdf", "csv", "json"]
FORMATS: tuple[Format, ...] = ("pdf", "csv", "json")
MEDIA_TYPES: dict[Format, str] = {
    "pdf": "application/pdf",
    "csv": "text/csv",
    "json": "application/json",
}
FONT = "dejavu"
FONT_FILES = {
    "": "DejaVuSans.ttf",
    "B": "DejaVuSans-Bold.ttf",
    "I": "DejaVuSans-Oblique.ttf",
    "BI": "DejaVuSans-BoldOblique.ttf",
}
"""matplotlib's DejaVu Sans, by fpdf2 style ("" regular, B bold, I italic)."""
NOT_DRAWN = "\ufffd"
INVISIBLE = frozenset({"Cc", "Cf", "Cs"})
"""Control characters, joiners and lone surrogates: dropped, never replaced."""
MARKS = frozenset({"Mn", "Me"})
"""Combining marks: drawn on the letter before when the font has them, else dropped."""
SPREADSHEET_FORMULA = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads a cell starting with as a formula (OWASP's CSV injection)."""


@dataclass(frozen=True)
class Validity:
    """Until when the quoted price holds, and on whose word."""

    until: dt.date
    source: Literal["price_book", "policy"]
    days: int | None = None
    """The policy's days, when the policy set it."""
    line: str | None = None
    """The price book line's id, when the book set it."""

    def expired(self, on: dt.date) -> bool:
        return on > self.until


@dataclass(frozen=True)
class Figures:
    """The deal as the document states it: one deployment, its price and its evidence."""

    model: str
    model_name: str
    gpu: str
    gpus: int
    replicas: int | None
    gpus_per_replica: int | None
    precision: str
    stack: str
    layout: str | None
    concurrency: int
    term_months: int | None
    """None: the question named no term; 0: on demand, month to month."""
    price_per_gpu_hour: float
    price_source: str
    """``given`` when the question said the price, else where the price came from."""
    usd_per_hour: float
    usd_per_month: float
    contract_usd: float | None
    utilization: float
    """The utilization the $/M is quoted at (a sizing: the traffic's average)."""
    usd_per_million_output_tokens: float | None
    api_usd_per_million_output_tokens: float | None
    api_usd_per_month: float | None
    breakeven_utilization: float | None
    breakeven_output_tokens_per_day: float | None
    monthly_growth: float | None
    months_of_headroom: float | None
    next_replica_usd_per_month: float | None
    output_tokens_per_s: float | None
    per_user_tokens_per_s: float | None
    ttft_s: float | None
    basis: str
    error_band: float | None
    estimated_from: str | None
    estimated_from_said: str | None
    """That measurement in words (publication and what it measured), never its id."""
    caveats: tuple[str, ...]


@dataclass(frozen=True)
class QuoteDocument:
    """Everything the document says, read once from the stored quote."""

    quote: StoredQuote
    issued: dt.date
    validity: Validity
    figures: Figures | None
    """None: a sizing no option met (``infeasible`` says why)."""
    infeasible: Infeasible | None
    sources: tuple[SourceRef, ...]
    assumptions: tuple[str, ...]

    @property
    def kind(self) -> Literal["scenario", "traffic"]:
        return "scenario" if isinstance(self.quote.economics, Estimate) else "traffic"


@dataclass(frozen=True)
class Attachment:
    """A file to hand over with a reply: Slack uploads it, a terminal writes it."""

    filename: str
    title: str
    content: bytes
    media_type: str


def quote_document(
    quote: StoredQuote, *, catalog: Catalog, issued: dt.date, validity_days: int
) -> QuoteDocument:
    """The document of ``quote`` printed on ``issued``; ``validity_days`` is the policy."""
    economics = quote.economics
    if isinstance(economics, Estimate):
        figures: Figures | None = _estimate_figures(quote, economics, catalog)
        infeasible, sources = None, tuple(economics.sources)
        assumptions = tuple(economics.assumptions)
    else:
        figures = _sizing_figures(quote, economics, catalog)
        infeasible, sources, assumptions = economics.infeasible, (), tuple(economics.assumptions)
    return QuoteDocument(
        quote=quote,
        issued=issued,
        validity=_validity(quote, figures, catalog, validity_days),
        figures=figures,
        infeasible=infeasible,
        sources=sources,
        assumptions=tuple(dict.fromkeys(assumptions)),
    )


def pdf(renderer: Renderer, document: QuoteDocument) -> bytes:
    """The PDF: the HTML template, laid out by fpdf2 in DejaVu Sans."""
    from fpdf import FPDF

    html = renderer.markup("quote_document", document=document)
    sheet = FPDF(format="A4")
    sheet.set_title(renderer.text("quote_document_title", document=document))
    sheet.set_creator("leasewise")
    _embed_fonts(sheet)
    sheet.set_font(FONT, size=10)
    sheet.add_page()
    sheet.write_html(_drawable(html, sheet), font_family=FONT, table_line_separators=True)
    return bytes(sheet.output())


def csv_text(document: QuoteDocument) -> str:
    """``item,value,shown``: the value to compute with, and the figure as the PDF shows it."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("item", "value", "shown"))
    for item, value, shown in _rows(document):
        writer.writerow((item, _cell(value), _cell(shown)))
    return out.getvalue()


def json_text(document: QuoteDocument) -> str:
    """The stored question and economics as saved, with the quote's metadata."""
    quote = document.quote
    validity: dict[str, Any] = {
        "valid_until": document.validity.until.isoformat(),
        "source": document.validity.source,
    }
    if document.validity.days is not None:
        validity["days"] = document.validity.days
    if document.validity.line is not None:
        validity["price_line"] = document.validity.line
    body = {
        "name": quote.name,
        "customer": quote.customer,
        "kind": document.kind,
        "as_of": quote.as_of.isoformat(),
        "created_at": quote.created_at.isoformat(),
        "updated_at": quote.updated_at.isoformat(),
        "issued": document.issued.isoformat(),
        "validity": validity,
        "question": quote.question.model_dump(mode="json"),
        "economics": quote.economics.model_dump(mode="json"),
    }
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


def attachment(renderer: Renderer, document: QuoteDocument, form: Format) -> Attachment:
    """The document in ``form`` as a named file."""
    if form == "pdf":
        content = pdf(renderer, document)
    elif form == "csv":
        content = csv_text(document).encode("utf-8")
    else:
        content = json_text(document).encode("utf-8")
    return Attachment(
        filename=f"{filename_stem(document.quote.name)}.{form}",
        title=renderer.text("quote_document_title", document=document),
        content=content,
        media_type=MEDIA_TYPES[form],
    )


def filename_stem(name: str) -> str:
    """A quote's name as a file name: letters, digits, ``-``, ``_`` and ``.`` kept."""
    kept = "".join(c if c.isalnum() or c in "-_." else "-" for c in name.strip())
    return kept.strip(".-")[:80] or "quote"


# --- the figures --------------------------------------------------------------------


def _estimate_figures(quote: StoredQuote, x: Estimate, catalog: Catalog) -> Figures:
    asked_price = getattr(quote.question, "price_per_gpu_hour", None)
    return Figures(
        model=x.model,
        model_name=_model_name(catalog, x.model),
        gpu=x.gpu,
        gpus=x.gpus,
        replicas=None,
        gpus_per_replica=None,
        precision=x.precision,
        stack=x.stack,
        layout=getattr(x, "layout", None),
        concurrency=x.concurrency,
        term_months=getattr(quote.question, "term_months", None),
        price_per_gpu_hour=x.price_per_gpu_hour,
        price_source=_price_label(x, asked_price, catalog),
        usd_per_hour=x.usd_per_hour,
        usd_per_month=x.usd_per_month,
        contract_usd=x.contract_usd,
        utilization=x.utilization,
        usd_per_million_output_tokens=x.usd_per_million_output_tokens,
        api_usd_per_million_output_tokens=x.api_usd_per_million_output_tokens,
        api_usd_per_month=x.api_usd_per_month,
        breakeven_utilization=x.breakeven_utilization,
        breakeven_output_tokens_per_day=None,
        monthly_growth=None,
        months_of_headroom=None,
        next_replica_usd_per_month=None,
        output_tokens_per_s=x.output_tokens_per_s,
        per_user_tokens_per_s=x.per_user_tokens_per_s,
        ttft_s=x.ttft_s,
        basis=x.basis,
        error_band=x.error_band,
        estimated_from=x.estimated_from,
        estimated_from_said=_measurement_said(x.estimated_from_said, x.estimated_from, catalog),
        caveats=tuple(dict.fromkeys(x.caveats)),
    )


def _sizing_figures(quote: StoredQuote, s: Sizing, catalog: Catalog) -> Figures | None:
    if not s.options:
        return None
    o = s.options[0]
    term = getattr(quote.question, "term_months", None)
    api_per_m: float | None = None
    api_monthly: float | None = None
    breakeven_u: float | None = None
    breakeven_tokens: float | None = None
    if s.api is not None:
        api_per_m, api_monthly = s.api.api_usd_per_million_output_tokens, s.api.api_usd_per_month
        breakeven_u = s.api.breakeven_utilization
        breakeven_tokens = s.api.breakeven_output_tokens_per_day
    return Figures(
        model=s.model,
        model_name=_model_name(catalog, s.model),
        gpu=o.gpu,
        gpus=o.gpus,
        replicas=o.replicas,
        gpus_per_replica=o.gpus_per_replica,
        precision=o.precision,
        stack=o.stack,
        layout=getattr(o, "layout", None),
        concurrency=o.concurrency,
        term_months=term,
        price_per_gpu_hour=o.price_per_gpu_hour,
        price_source=o.price_source,
        usd_per_hour=cost.usd_per_hour(gpus=o.gpus, price_per_gpu_hour=o.price_per_gpu_hour),
        usd_per_month=o.usd_per_month,
        contract_usd=(
            cost.contract_usd(monthly_usd=o.usd_per_month, term_months=term) if term else None
        ),
        utilization=o.average_utilization,
        usd_per_million_output_tokens=o.usd_per_million_output_tokens,
        api_usd_per_million_output_tokens=api_per_m,
        api_usd_per_month=api_monthly,
        breakeven_utilization=breakeven_u,
        breakeven_output_tokens_per_day=breakeven_tokens,
        monthly_growth=s.monthly_growth,
        months_of_headroom=o.months_of_headroom,
        next_replica_usd_per_month=o.next_step_usd_per_month,
        output_tokens_per_s=o.replicas * o.replica_output_tokens_per_s,
        per_user_tokens_per_s=o.per_user_tokens_per_s,
        ttft_s=o.ttft_s,
        basis=o.basis,
        error_band=o.error_band,
        estimated_from=o.estimated_from,
        estimated_from_said=_measurement_said(o.estimated_from_said, o.estimated_from, catalog),
        caveats=tuple(dict.fromkeys(o.caveats)),
    )


def _measurement_said(said: str | None, measurement: str | None, catalog: Catalog) -> str | None:
    """The measurement in words as the answer said it; for a quote saved before answers
    said it, read off today's catalog (None if the catalog no longer has it)."""
    if said is not None:
        return said
    found = provenance.find(measurement, catalog)
    return None if found is None else provenance.measurement_said(found, catalog)


def _model_name(catalog: Catalog, model: str) -> str:
    entry = catalog.models.entries.get(model)
    return model if entry is None else entry.name


STATED = ("given", "as stated in the question")
"""How a price the question gave is labelled (before and after the one price rule)."""


def _price_label(x: Estimate, asked_price: float | None, catalog: Catalog) -> str:
    """Where the quote's price came from, as the answer said it; a quote saved before
    the answers said it names the price the customer gave, else the list price."""
    if x.price_source is not None:
        return x.price_source
    return "given" if asked_price is not None else _list_price_source(catalog, x.gpu)


def _list_price_source(catalog: Catalog, gpu: str) -> str:
    entry = catalog.gpus.entries.get(gpu)
    return "on demand" if entry is None else f"on demand: {entry.price_source.title}"


def _validity(
    quote: StoredQuote, figures: Figures | None, catalog: Catalog, days: int
) -> Validity:
    """The price book line's end date when the line that priced the quote has one."""
    if figures is not None and figures.price_source not in STATED:
        term = catalog.default_term_months if figures.term_months is None else figures.term_months
        line = catalog.lease_price(figures.gpu, term)
        until = getattr(line, "valid_until", None)
        if line is not None and line.usd_per_gpu_hour == figures.price_per_gpu_hour and until:
            return Validity(until=until, source="price_book", line=line.id)
    return Validity(until=quote.as_of + dt.timedelta(days=days), source="policy", days=days)


# --- CSV rows -----------------------------------------------------------------------


Row = tuple[str, object, str]


def _rows(d: QuoteDocument) -> Iterator[Row]:
    q = d.quote
    yield "quote", q.name, q.name
    yield "customer", q.customer, q.customer
    yield "kind", d.kind, d.kind
    yield "issued", d.issued.isoformat(), formats.date(d.issued)
    yield "economics_as_of", q.as_of.isoformat(), formats.date(q.as_of)
    yield "valid_until", d.validity.until.isoformat(), formats.date(d.validity.until)
    yield "validity_source", d.validity.source, d.validity.line or f"{d.validity.days} days"
    f = d.figures
    if f is None:
        yield "no_option_met_the_ask", True, "no option met the ask"
        if d.infeasible is not None:
            yield "binding_constraint", d.infeasible.binding_constraint, d.infeasible.explanation
            yield "nearest_feasible_ask", d.infeasible.nearest_feasible_ask, ""
        return
    yield "model", f.model, f.model_name
    yield "gpu", f.gpu, f.gpu.upper()
    yield "gpus", f.gpus, formats.number(f.gpus)
    if f.replicas is not None and f.gpus_per_replica is not None:
        yield "replicas", f.replicas, formats.number(f.replicas)
        yield "gpus_per_replica", f.gpus_per_replica, formats.number(f.gpus_per_replica)
    if f.layout is not None:
        yield "layout", f.layout, f.layout
    yield "precision", f.precision, f.precision
    yield "stack", f.stack, f.stack
    yield "concurrency", f.concurrency, formats.number(f.concurrency)
    yield "term_months", _blank(f.term_months), "" if f.term_months is None else str(f.term_months)
    yield "price_per_gpu_hour", f.price_per_gpu_hour, formats.usd(f.price_per_gpu_hour)
    yield "price_source", f.price_source, f.price_source
    yield "usd_per_hour", f.usd_per_hour, formats.usd(f.usd_per_hour)
    yield "usd_per_month", f.usd_per_month, formats.usd(f.usd_per_month)
    yield from _optional("contract_usd", f.contract_usd, formats.usd)
    yield "utilization", f.utilization, formats.pct(f.utilization)
    yield from _optional(
        "usd_per_million_output_tokens", f.usd_per_million_output_tokens, formats.usd_m
    )
    yield from _optional(
        "api_usd_per_million_output_tokens", f.api_usd_per_million_output_tokens, formats.usd_m
    )
    yield from _optional("api_usd_per_month", f.api_usd_per_month, formats.usd)
    yield from _optional("breakeven_utilization", f.breakeven_utilization, formats.pct)
    yield from _optional(
        "breakeven_output_tokens_per_day", f.breakeven_output_tokens_per_day, formats.tokens
    )
    if f.monthly_growth is not None:
        yield "monthly_growth", f.monthly_growth, formats.pct(f.monthly_growth)
        yield "months_of_headroom", _blank(f.months_of_headroom), formats.months(
            f.months_of_headroom
        )
    yield from _optional("next_replica_usd_per_month", f.next_replica_usd_per_month, formats.usd)
    yield from _optional("output_tokens_per_s", f.output_tokens_per_s, formats.tok_s)
    yield from _optional("per_user_tokens_per_s", f.per_user_tokens_per_s, formats.tok_s)
    yield from _optional("ttft_s", f.ttft_s, formats.seconds)
    yield "basis", f.basis, f.basis
    yield from _optional("error_band", f.error_band, formats.band)
    if f.estimated_from is not None:
        yield "estimated_from", f.estimated_from, f.estimated_from_said or f.estimated_from
    for caveat in f.caveats:
        yield "caveat", caveat, caveat


def _optional(item: str, value: float | None, spell: Any) -> Iterator[Row]:
    if value is not None:
        yield item, value, spell(value)


def _blank(value: object) -> object:
    return "" if value is None else value


def _cell(value: object) -> object:
    """Text a spreadsheet would run as a formula gets a leading apostrophe; numbers pass."""
    if isinstance(value, str) and value.startswith(SPREADSHEET_FORMULA):
        try:
            float(value)
        except ValueError:
            return "'" + value
    return value


# --- fonts --------------------------------------------------------------------------


def _font_dir() -> Path:
    import matplotlib

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf"


def _embed_fonts(sheet: FPDF) -> None:
    root = _font_dir()
    for style, name in FONT_FILES.items():
        sheet.add_font(FONT, style, root / name)


def _drawable(html: str, sheet: FPDF) -> str:
    """What every embedded style can draw: U+FFFD for a character it cannot; control
    characters and joiners dropped, and combining marks it cannot draw."""
    from fpdf.fonts import TTFFont

    drawn = set.intersection(
        *(set(font.cmap) for font in sheet.fonts.values() if isinstance(font, TTFFont))
    )
    out = []
    for char in unicodedata.normalize("NFC", html):
        category = unicodedata.category(char)
        if char in "\n\t" or (ord(char) in drawn and category not in INVISIBLE):
            out.append(char)
        elif category not in INVISIBLE and category not in MARKS:
            out.append(NOT_DRAWN)
    return "".join(out)
