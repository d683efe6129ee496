"""Reading the catalog's YAML files into validated records.

A broken file must fail loudly and precisely: the message names the file, the
entry and the field, so whoever edited it can fix it without reading code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from core.catalog.catalog import Catalog
from core.catalog.entries import (
    EngineConstants,
    Gpu,
    LeasePrice,
    Measurement,
    Model,
    Precision,
    PriceBookTerms,
    Stack,
    TtftBands,
)
from core.errors import CatalogError

R = TypeVar("R", bound=BaseModel)

SECTIONS: dict[str, type[BaseModel]] = {
    "precisions": Precision,
    "gpus": Gpu,
    "models": Model,
    "stacks": Stack,
    "measurements": Measurement,
    "prices": LeasePrice,
    "engine": EngineConstants,
    "ttft_bands": TtftBands,
}
# libyaml's safe loader when PyYAML was built with it (ten times faster), else Python's.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

SINGLETONS = {"engine", "ttft_bands"}
"""Sections holding one mapping rather than a list of entries."""

SETTINGS: dict[str, type[BaseModel]] = {"default_term_months": PriceBookTerms}
"""Top-level scalars a file may set, each validated as the one field of its record."""


def packaged_files() -> list[Path]:
    """The data files shipped inside the package, in a stable order."""
    data = resources.files("core") / "data"
    return sorted(Path(str(p)) for p in data.iterdir() if p.name.endswith(".yaml"))


def packaged_field_data() -> Path:
    """The folder of the field's public measurements shipped inside the package."""
    return Path(str(resources.files("core") / "data" / "field"))


def packaged_field_files() -> list[Path]:
    """Every file of the packaged field data, in a stable order (for content hashes)."""
    return sorted(p for p in packaged_field_data().rglob("*") if p.is_file())


def load_catalog(files: Iterable[Path] | None = None, *, field_data: Path | None = None) -> Catalog:
    """Load and cross-check the packaged catalog (or the given files).

    The packaged catalog reads the packaged field data when asked for them; a catalog
    of given files has field data only if ``field_data`` names their folder.
    """
    sections: dict[str, list[tuple[str, BaseModel]]] = {k: [] for k in (*SECTIONS, *SETTINGS)}
    for path in packaged_files() if files is None else files:
        for section, record in _read_file(Path(path)):
            sections[section].append((path.name, record))
    if files is None and field_data is None:
        field_data = packaged_field_data()
    return _assemble(sections, field_data)


def additions_from_text(text: str, *, name: str) -> tuple[list[Stack], list[Measurement]]:
    """Stacks and measurements from a YAML document shaped like the packaged files.

    What admins import when a serving change lands (``leasewise import FILE``); every
    entry is validated here, so a bad file is refused whole, naming file, entry and field.
    """
    stacks: list[Stack] = []
    measurements: list[Measurement] = []
    records = _read_text(text, name)
    for section in {section for section, _ in records} | _sections_named(text):
        if section not in ("stacks", "measurements"):
            raise CatalogError(
                f"only stacks and measurements can be added, not {section}",
                file=name,
                entry=section,
                field=None,
            )
    for section, record in records:
        if isinstance(record, Stack):
            stacks.append(record)
        elif isinstance(record, Measurement):
            measurements.append(record)
        else:
            raise CatalogError(
                f"only stacks and measurements can be added, not {section}",
                file=name,
                entry=section,
                field=None,
            )
    return stacks, measurements


def _sections_named(text: str) -> set[str]:
    document = yaml.load(text, Loader=_SAFE_LOADER)
    return {str(k) for k in document} if isinstance(document, Mapping) else set()


def _read_file(path: Path) -> list[tuple[str, BaseModel]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogError(
            f"cannot read ({exc.strerror})", file=path.name, entry=None, field=None
        ) from exc
    return _read_text(text, path.name)


def _read_text(text: str, name: str) -> list[tuple[str, BaseModel]]:
    try:
        document = yaml.load(text, Loader=_SAFE_LOADER)
    except yaml.YAMLError as exc:
        raise CatalogError(f"not valid YAML ({exc})", file=name, entry=None, field=None) from exc
    if not isinstance(document, Mapping):
        raise CatalogError(
            f"expected a mapping with sections {sorted(SECTIONS)}",
            file=name,
            entry=None,
            field=None,
        )
    out: list[tuple[str, BaseModel]] = []
    for section, entries in document.items():
        if section in SETTINGS:
            record = _validate(SETTINGS[section], {section: entries}, file=name, index=0)
            out.append((section, record))
            continue
        if section not in SECTIONS:
            raise CatalogError(
                f"unknown section {section!r}; expected one of {sorted(SECTIONS)}",
                file=name,
                entry=None,
                field=None,
            )
        if section in SINGLETONS:
            out.append((section, _validate(SECTIONS[section], entries, file=name, index=0)))
            continue
        if not isinstance(entries, list):
            raise CatalogError(
                "a section is a list of entries", file=name, entry=section, field=None
            )
        for index, raw in enumerate(entries):
            out.append((section, _validate(SECTIONS[section], raw, file=name, index=index)))
    return out


def _validate(kind: type[R], raw: Any, *, file: str, index: int) -> R:
    entry = str(raw.get("id", f"#{index + 1}")) if isinstance(raw, Mapping) else f"#{index + 1}"
    if kind is EngineConstants:
        entry = "engine"
    if kind is TtftBands:
        entry = "ttft_bands"
    if kind is PriceBookTerms:
        entry = "price book"
    try:
        return kind.model_validate(raw)
    except ValidationError as exc:
        # A renamed field shows up twice: missing under its right name, unknown under
        # the wrong one. The unknown name is the one the editor typed; report it.
        errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
        first = errors[0]
        field = ".".join(str(p) for p in first["loc"]) or None
        message = first["msg"]
        if first["type"] == "extra_forbidden":
            message = (
                "unknown field (units belong in field names, e.g. hbm_bandwidth_tb_per_s; "
                f"known fields: {', '.join(kind.model_fields)})"
            )
        raise CatalogError(message, file=file, entry=entry, field=field) from exc


def _assemble(sections: dict[str, list[tuple[str, BaseModel]]], field_data: Path | None) -> Catalog:
    tables: dict[str, dict[str, Any]] = {}
    origin: dict[tuple[str, str], str] = {}
    engines = sections.pop("engine")
    ttft_bands = sections.pop("ttft_bands")
    default_term = _default_term(sections.pop("default_term_months"), sections["prices"])
    if len(engines) != 1:
        files = ", ".join(f for f, _ in engines) or "no file"
        raise CatalogError(
            f"exactly one engine section is needed (found in: {files})",
            file=engines[0][0] if engines else "core/data",
            entry="engine",
            field=None,
        )
    for section, records in sections.items():
        table: dict[str, Any] = {}
        for file, record in records:
            rid = getattr(record, "id")  # noqa: B009 - every section's record has an id
            if rid in table:
                raise CatalogError(
                    f"duplicate id (first defined in {origin[(section, rid)]})",
                    file=file,
                    entry=rid,
                    field="id",
                )
            table[rid] = record
            origin[(section, rid)] = file
        tables[section] = table
    constants = engines[0][1]
    assert isinstance(constants, EngineConstants)
    bands = _ttft_bands(ttft_bands, constants)
    catalog = Catalog(
        engine=constants,
        precisions=tables["precisions"],
        gpus=tables["gpus"],
        models=tables["models"],
        stacks=tables["stacks"],
        measurements=tables["measurements"],
        prices=tables["prices"],
        default_term_months=default_term,
        field_data=field_data,
        ttft_bands=bands,
    )
    for problem in catalog.dangling_references():
        section, rid, field, message = problem
        file = ttft_bands[0][0] if section == "ttft_bands" else origin[(section, rid)]
        raise CatalogError(message, file=file, entry=rid, field=field)
    return catalog


def _ttft_bands(found: list[tuple[str, BaseModel]], constants: EngineConstants) -> TtftBands | None:
    """The TTFT bands: set at most once, at the quantile and floor engine.yaml sets every
    other band at (bands set otherwise are stale: the command in the file rewrites them)."""
    if len(found) > 1:
        files = ", ".join(f for f, _ in found)
        raise CatalogError(
            f"the TTFT bands are set more than once (in: {files})",
            file=found[1][0],
            entry="ttft_bands",
            field=None,
        )
    if not found:
        return None
    file, bands = found[0]
    assert isinstance(bands, TtftBands)
    for name in ("quantile", "floor"):
        wanted = getattr(constants, f"error_band_{name}")
        if getattr(bands, name) != wanted:
            raise CatalogError(
                f"set at {name} {getattr(bands, name)}, but engine.yaml's error_band_{name} "
                f"is {wanted}: rewrite them with {bands.command}",
                file=file,
                entry="ttft_bands",
                field=name,
            )
    return bands


def _default_term(
    settings: list[tuple[str, BaseModel]], prices: list[tuple[str, BaseModel]]
) -> int | None:
    """The price book's default term: set once, and a term the book has lines for."""
    if len(settings) > 1:
        files = ", ".join(f for f, _ in settings)
        raise CatalogError(
            f"default_term_months is set more than once (in: {files})",
            file=settings[1][0],
            entry="price book",
            field="default_term_months",
        )
    if not settings:
        return None
    file, record = settings[0]
    assert isinstance(record, PriceBookTerms)
    term = record.default_term_months
    terms = {p.term_months for _, p in prices if isinstance(p, LeasePrice)}
    if prices and term not in terms:
        raise CatalogError(
            f"no price book line has the default term of {term} months "
            f"(its terms: {', '.join(str(t) for t in sorted(terms))})",
            file=file,
            entry="price book",
            field="default_term_months",
        )
    return term
