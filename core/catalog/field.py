"""The field's public measurements: AIConfigurator's silicon sample, as the catalog holds it.

``core/data/field/silicon_sample.csv`` (written by ``scripts/import_field_data.py`` from
aiconfigurator-core 0.12.0, Apache-2.0; provenance and NOTICE beside it) holds thousands
of measured end-to-end runs. Reading and validating them costs tens of milliseconds, so
they are read on first use (``Catalog.field_measurements``), never on the path of a
command that only parses a question.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Container, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import Field, ValidationError, model_validator

from core.catalog.entries import Record
from core.errors import CatalogError
from core.units import ms_to_s

if TYPE_CHECKING:
    from core.catalog.catalog import Catalog

SAMPLE = "silicon_sample.csv"
ROLES: dict[str, Literal["aggregated", "prefill", "decode"]] = {
    "agg": "aggregated",
    "prefill": "prefill",
    "decode": "decode",
}
"""CSV column prefix -> the worker's role."""
WORKER_FIELDS = ("workers", "batch_size", "tp", "pp", "attention_dp", "moe_tp", "moe_ep")
LAYOUT_COLUMNS = frozenset(f"{prefix}_{f}" for prefix in ROLES for f in WORKER_FIELDS)


class Worker(Record):
    """One kind of worker in a measured deployment: how many, their batch, their layout.

    A worker is one serving engine instance: ``tp`` x ``pp`` x ``attention_dp`` GPUs
    (AIConfigurator's count), its MoE layers spread over ``moe_tp`` x ``moe_ep`` of the
    same GPUs (1 and 1 for a dense model). ``batch_size`` is per attention-data-parallel
    rank, as AIConfigurator records it: a worker runs up to ``batch_size`` x
    ``attention_dp`` sequences at once.
    """

    role: Literal["aggregated", "prefill", "decode"]
    workers: int = Field(ge=1)
    batch_size: int = Field(ge=1)
    tp: int = Field(ge=1)
    pp: int = Field(ge=1)
    attention_dp: int = Field(ge=1)
    moe_tp: int = Field(ge=1)
    moe_ep: int = Field(ge=1)

    @property
    def gpus_per_worker(self) -> int:
        return self.tp * self.pp * self.attention_dp

    @property
    def gpus(self) -> int:
        return self.workers * self.gpus_per_worker

    @property
    def batch_per_worker(self) -> int:
        """Sequences one worker runs at once: the batch of every attention-DP rank."""
        return self.batch_size * self.attention_dp


class FieldMeasurement(Record):
    """One measured end-to-end run from the field, as AIConfigurator recorded it.

    ``concurrency`` clients each send a request of ``input_tokens`` and wait for its
    ``output_tokens`` before sending the next (a closed loop); ``ttft_ms`` and
    ``tpot_ms`` are what they saw (time to first token, then time per output token).
    Aggregated runs (``mode="agg"``) have one worker doing prefill and decode;
    disaggregated runs (``"disagg"``) a pool of prefill workers and one of decode
    workers. ``id`` and ``source`` are the sample's own row id and source text.

    The derived figures follow from those alone:
    - per-user tokens/s = 1000 / ``tpot_ms`` (one user's decode speed);
    - TTFT in seconds = ``ttft_ms`` / 1000;
    - a request's latency = TTFT + (``output_tokens`` - 1) x TPOT;
    - aggregate output tokens/s = ``concurrency`` x ``output_tokens`` / latency
      (Little's law over the closed loop; queueing shows up in the TTFT, so it holds
      when more clients than batch slots wait);
    - GPUs = the workers' GPUs added up (one worker for agg; prefill plus decode
      workers for disagg), and output tokens/s per GPU divides by them.
    """

    id: str
    model: str
    gpu: str
    stack: str
    precision: str
    mode: Literal["agg", "disagg"]
    input_tokens: int = Field(ge=1)
    output_tokens: int = Field(ge=1)
    concurrency: int = Field(ge=1)
    measured: dt.date | None
    workers: tuple[Worker, ...] = Field(min_length=1, max_length=2)
    ttft_ms: float = Field(gt=0)
    tpot_ms: float = Field(gt=0)
    backend: str
    backend_version: str
    """The build as the sample names it; empty where it names none."""
    model_path: str
    system: str
    gemm_quant_mode: str
    moe_quant_mode: str
    source: str

    @model_validator(mode="after")
    def _layout_matches_mode(self) -> FieldMeasurement:
        roles = tuple(w.role for w in self.workers)
        if self.mode == "agg" and (roles != ("aggregated",) or self.workers[0].workers != 1):
            raise ValueError("an aggregated run has one aggregated worker")
        if self.mode == "disagg" and roles != ("prefill", "decode"):
            raise ValueError("a disaggregated run has prefill workers, then decode workers")
        return self

    def worker(self, role: Literal["aggregated", "prefill", "decode"]) -> Worker | None:
        return next((w for w in self.workers if w.role == role), None)

    @property
    def gpus(self) -> int:
        return sum(w.gpus for w in self.workers)

    @property
    def ttft_s(self) -> float:
        return ms_to_s(self.ttft_ms)

    @property
    def per_user_tokens_per_s(self) -> float:
        return 1.0 / ms_to_s(self.tpot_ms)

    @property
    def request_latency_s(self) -> float:
        return ms_to_s(self.ttft_ms + (self.output_tokens - 1) * self.tpot_ms)

    @property
    def output_tokens_per_s(self) -> float:
        return self.concurrency * self.output_tokens / self.request_latency_s

    @property
    def output_tokens_per_s_per_gpu(self) -> float:
        return self.output_tokens_per_s / self.gpus


def read_field_measurements(directory: Path, catalog: Catalog) -> tuple[FieldMeasurement, ...]:
    """Every measurement in ``directory``'s sample, validated and checked against ``catalog``.

    Raises:
        CatalogError: the file is unreadable, a row is malformed, or it names a model,
            GPU, stack or precision the catalog lacks (file, row id and field named).
    """
    path = directory / SAMPLE
    name = f"{directory.name}/{SAMPLE}"
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            header, *rows = list(csv.reader(handle))
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "no header row"
        raise CatalogError(f"cannot read ({reason})", file=name, entry=None, field=None) from exc
    columns = _Columns(header)
    out = tuple(_record(row, columns, name=name, line=i + 2) for i, row in enumerate(rows))
    for m in out:
        for field, value, table in _references(m, catalog):
            if value not in table:
                raise CatalogError(f"unknown {field} {value!r}", file=name, entry=m.id, field=field)
    return out


class _Columns:
    """Where each field sits in the CSV's rows, worked out once from the header."""

    def __init__(self, header: list[str]) -> None:
        self.width = len(header)
        self.plain = [(i, c) for i, c in enumerate(header) if c not in LAYOUT_COLUMNS]
        where = {c: i for i, c in enumerate(header)}
        self.workers = [
            (role, [(f, where.get(f"{prefix}_{f}")) for f in WORKER_FIELDS])
            for prefix, role in ROLES.items()
        ]


def _references(m: FieldMeasurement, catalog: Catalog) -> Iterator[tuple[str, str, Container[str]]]:
    yield "model", m.model, catalog.models
    yield "gpu", m.gpu, catalog.gpus
    yield "stack", m.stack, catalog.stacks
    yield "precision", m.precision, catalog.precisions


def _record(row: list[str], columns: _Columns, *, name: str, line: int) -> FieldMeasurement:
    if len(row) != columns.width:
        raise CatalogError(
            f"line {line} has {len(row)} columns, the header {columns.width}",
            file=name,
            entry=row[0] if row else f"line {line}",
            field=None,
        )
    fields: dict[str, object] = {c: row[i] for i, c in columns.plain}
    fields["measured"] = fields.get("measured") or None
    fields["workers"] = [
        {"role": role, **{f: row[i] if i is not None else None for f, i in layout}}
        for role, layout in columns.workers
        if layout[0][1] is not None and row[layout[0][1]]
    ]
    try:
        return FieldMeasurement.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or None
        raise CatalogError(first["msg"], file=name, entry=row[0], field=field) from exc
