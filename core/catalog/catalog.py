"""The loaded catalog: lookups by id or alias, and the cross-references between tables."""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from core.catalog.entries import (
    EngineConstants,
    Gpu,
    LeasePrice,
    Measurement,
    Model,
    Precision,
    Stack,
    TtftBands,
)
from core.errors import InputError

if TYPE_CHECKING:
    from core.catalog.field import FieldMeasurement

T = TypeVar("T", bound=Gpu | Model | Precision | Stack)


def normalize(name: str) -> str:
    """Spelling-insensitive key: 'Kimi-K3', 'kimi k3' and 'KIMI_K3' are one name."""
    return re.sub(r"[^a-z0-9.]+", "", name.lower())


@dataclass(frozen=True)
class Table(Generic[T]):
    """One kind of catalog entry, looked up by id or any alias."""

    kind: str
    entries: Mapping[str, T]
    _index: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[str, str] = {}
        for rid, record in self.entries.items():
            names: tuple[str, ...] = (rid, record.name, *record.aliases)
            for name in names:
                index.setdefault(normalize(name), rid)
        object.__setattr__(self, "_index", index)

    def __iter__(self) -> Iterator[T]:
        return iter(self.entries.values())

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, rid: object) -> bool:
        return rid in self.entries

    def get(self, name: str, *, field_name: str | None = None) -> T:
        """Resolve a name a person typed; unknown names get the closest suggestions."""
        key = normalize(name)
        if key in self._index:
            return self.entries[self._index[key]]
        close = difflib.get_close_matches(key, list(self._index), n=3, cutoff=0.5)
        suggestions = sorted({self._index[c] for c in close})
        hint = (
            f"did you mean {' or '.join(suggestions)}?"
            if suggestions
            else f"known {self.kind}s: {', '.join(sorted(self.entries))}"
        )
        raise InputError(f"unknown {self.kind} {name!r}", field=field_name or self.kind, hint=hint)


@dataclass(frozen=True)
class Catalog:
    """Everything the engine knows: models, GPUs, precisions, stacks and measurements.

    ``field_data`` is the folder of the field's public measurements (``core/data/field``
    for the packaged catalog), read only when ``field_measurements`` is first asked.
    """

    engine: EngineConstants
    precisions: Table[Precision]
    gpus: Table[Gpu]
    models: Table[Model]
    stacks: Table[Stack]
    measurements: tuple[Measurement, ...]
    prices: tuple[LeasePrice, ...]
    default_term_months: int
    """The term a question that names none is priced at (the price book's setting;
    36 months when no file sets it)."""
    field_data: Path | None
    ttft_bands: TtftBands | None
    """The bands of a worked-out time to first token (None: no file sets them)."""
    _by_deployment: dict[tuple[str, str, int, str, str], list[Measurement]]
    _field: list[tuple[FieldMeasurement, ...]]

    def __init__(
        self,
        *,
        engine: EngineConstants,
        precisions: Mapping[str, Precision],
        gpus: Mapping[str, Gpu],
        models: Mapping[str, Model],
        stacks: Mapping[str, Stack],
        measurements: Mapping[str, Measurement],
        prices: Mapping[str, LeasePrice] | None = None,
        default_term_months: int | None = None,
        field_data: Path | None = None,
        ttft_bands: TtftBands | None = None,
    ) -> None:
        object.__setattr__(self, "engine", engine)
        object.__setattr__(self, "precisions", Table("precision", dict(precisions)))
        object.__setattr__(self, "gpus", Table("gpu", dict(gpus)))
        object.__setattr__(self, "models", Table("model", dict(models)))
        object.__setattr__(self, "stacks", Table("stack", dict(stacks)))
        object.__setattr__(self, "measurements", tuple(measurements.values()))
        object.__setattr__(self, "prices", tuple((prices or {}).values()))
        object.__setattr__(
            self, "default_term_months", 36 if default_term_months is None else default_term_months
        )
        object.__setattr__(self, "field_data", field_data)
        object.__setattr__(self, "ttft_bands", ttft_bands)
        object.__setattr__(self, "_field", [])
        index: dict[tuple[str, str, int, str, str], list[Measurement]] = {}
        for m in self.measurements:
            if m.role != "calibration":
                continue
            for gpu in (m.gpu, *m.applies_to_gpus):
                index.setdefault((m.model, gpu, m.gpus, m.precision, m.stack), []).append(m)
        object.__setattr__(self, "_by_deployment", index)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (the engine cache) without the field measurements: they reload on use."""
        return {**self.__dict__, "_field": []}

    def field_measurements(self) -> tuple[FieldMeasurement, ...]:
        """The field's public measurements, validated against this catalog; read once.

        Empty for a catalog loaded without field data.

        Raises:
            CatalogError: the field data are malformed or name what the catalog lacks.
        """
        if self.field_data is None:
            return ()
        if not self._field:
            from core.catalog.field import read_field_measurements

            self._field.append(read_field_measurements(self.field_data, self))
        return self._field[0]

    def dangling_references(self) -> Iterator[tuple[str, str, str, str]]:
        """(section, entry id, field, message) for every name that points nowhere."""
        for model in self.models:
            for p in (*model.native_precisions, *model.checkpoint_gb):
                if p not in self.precisions:
                    yield "models", model.id, "native_precisions", f"unknown precision {p!r}"
        for stack in self.stacks:
            for model_id in stack.models:
                if model_id not in self.models:
                    yield "stacks", stack.id, "models", f"unknown model {model_id!r}"
            for g in stack.gpus:
                if g not in self.gpus:
                    yield "stacks", stack.id, "gpus", f"unknown gpu {g!r}"
            for p in stack.precisions:
                if p not in self.precisions:
                    yield "stacks", stack.id, "precisions", f"unknown precision {p!r}"
            if stack.supersedes is not None and stack.supersedes not in self.stacks:
                yield "stacks", stack.id, "supersedes", f"unknown stack {stack.supersedes!r}"
        for m in self.measurements:
            refs = (
                ("model", m.model, self.models),
                ("gpu", m.gpu, self.gpus),
                ("precision", m.precision, self.precisions),
                ("stack", m.stack, self.stacks),
            )
            for fname, value, table in refs:
                if value not in table:
                    yield "measurements", m.id, fname, f"unknown {fname} {value!r}"
            for g in m.applies_to_gpus:
                if g not in self.gpus:
                    yield "measurements", m.id, "applies_to_gpus", f"unknown gpu {g!r}"
        seen: dict[tuple[str, int], str] = {}
        for line in self.prices:
            key = (line.gpu, line.term_months)
            if line.gpu not in self.gpus:
                yield "prices", line.id, "gpu", f"unknown gpu {line.gpu!r}"
            if key in seen:
                message = f"{line.gpu} at {line.term_months} months is already priced"
                yield "prices", line.id, "term_months", f"{message} by {seen[key]!r}"
            seen[key] = line.id
        if self.ttft_bands is not None:
            served = {s.engine for s in self.stacks}
            for name in self.ttft_bands.by_serving_engine:
                if name not in served:
                    message = f"no stack runs the serving engine {name!r}"
                    yield "ttft_bands", "ttft_bands", "by_serving_engine", message

    def lease_price(self, gpu: str, term_months: int) -> LeasePrice | None:
        """The price book's line for this GPU and term, if it has one."""
        for line in self.prices:
            if line.gpu == gpu and line.term_months == term_months:
                return line
        return None

    def stacks_for(
        self, *, model: str, gpu: str, precision: str, as_of: dt.date | None
    ) -> list[Stack]:
        """Stacks that serve this deployment and were released by ``as_of`` (None: all)."""
        return [
            s
            for s in self.stacks
            if s.serves(model=model, gpu=gpu, precision=precision)
            and (as_of is None or s.released <= as_of)
        ]

    def measurements_for(
        self, *, model: str, gpu: str, gpus: int, precision: str, stack: str
    ) -> list[Measurement]:
        """Calibration measurements of exactly this deployment (holdouts never leak in)."""
        return list(self._by_deployment.get((model, gpu, gpus, precision, stack), ()))
