"""``key=value`` pairs with the JSON contract's field names: typed, resolved, and ahead of prose.

``gpus`` is a count (``gpus=8``) or a list of GPU names (``gpus=b300,h200``); the
kind of question decides which field it lands in (``core.parse.project``).
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.catalog import Catalog
from core.errors import InputError
from core.parse.numbers import amount
from core.parse.tables import contract_pair
from core.scenario import Scenario
from core.traffic import Traffic

_CATALOG = {"model": "models", "gpu": "gpus", "precision": "precisions", "stack": "stacks"}
_INTS = {
    "concurrency",
    "input_tokens",
    "output_tokens",
    "reasoning_tokens",
    "context_tokens",
    "term_months",
}
_FRACTIONS = {"utilization", "planned_utilization", "monthly_growth"}
_SKIPPED = {"prices"}
MAX_PAIRS = 100
MAX_PROBLEMS = 5
KNOWN = (set(Scenario.model_fields) | set(Traffic.model_fields)) - _SKIPPED


@dataclass
class Pairs:
    values: dict[str, Any] = field(default_factory=dict)
    gpu_ids: list[str] = field(default_factory=list)
    gpu_count: int | None = None
    understood: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    said: dict[str, str] = field(default_factory=dict)

    def read(self, key: str, raw: str) -> None:
        """Say a pair back, with the row's own words where it was converted from them."""
        words = self.said.get(key)
        pair = f"{key}={raw}"
        self.understood.append(f"{pair.rstrip()} ← '{words}'" if words else f"{pair} (key=value)")


def read_pairs(
    pairs: list[tuple[str, str]], catalog: Catalog, said: Mapping[str, str] | None = None
) -> Pairs:
    """The pairs typed and resolved; ``said`` holds the words a converted pair came from
    ("Year-1 volume: 73,000,000 requests"), said back in its place of "(key=value)"."""
    out = Pairs(said=dict(said or {}))
    if any(key in _PEAK_KEYS for key, _ in pairs):
        pairs = _peaks_as_averages(pairs, out)
    for key, raw in pairs[:MAX_PAIRS]:
        if len(out.problems) >= MAX_PROBLEMS:
            out.problems.append("more key=value pairs not read: check the message")
            break
        if key not in KNOWN and (alias := contract_pair(key, raw.rstrip(".,"))) is not None:
            out.understood.append(f"{key}={raw} read as {alias[0]}={alias[1]}")
            key, raw = alias  # "bs=32", "p2a=3", "rps=45": the field's common names
        if key not in KNOWN:
            close = difflib.get_close_matches(key, sorted(KNOWN), n=1)
            hint = f" (did you mean {close[0]}=?)" if close else ""
            out.problems.append(f"'{key}={raw}': unknown field{hint}")
            continue
        try:
            _one(out, key, raw.rstrip(".,"), catalog)
        except (InputError, ValueError) as exc:
            tip = exc.hint if isinstance(exc, InputError) else None
            out.problems.append(f"'{key}={raw}': {exc}" + (f", {tip}" if tip else ""))
    return out


_PEAK_KEYS = frozenset({"peak", "peak_rate", "peak_load", "peak_traffic"})
_RATE = re.compile(r"^\s*(?P<n>~?\d[\d.,]*\s*[kKmM]?)\s*(?P<unit>[a-z/]+)\s*$", re.IGNORECASE)


def _peaks_as_averages(pairs: list[tuple[str, str]], out: Pairs) -> list[tuple[str, str]]:
    """ "peak=600rpm p2a=3": a rate said at its peak is the average times the ratio; with
    no ratio it is the volume, said to be sized as steady."""
    typed = [k if k in KNOWN else (contract_pair(k, v) or (k, v))[0] for k, v in pairs]
    ratios = [v for (_, v), k in zip(pairs, typed, strict=True) if k == "peak_to_average"]
    ratio = ratios[-1] if ratios else None
    kept: list[tuple[str, str]] = []
    for key, raw in pairs:
        rate = _RATE.match(raw) if key in _PEAK_KEYS else None
        pair = contract_pair(rate["unit"], rate["n"]) if rate is not None else None
        if pair is None or pair[0] != "requests_per_day":
            kept.append((key, raw))
            continue
        peak = float(pair[1])
        times = amount(ratio) if ratio is not None else None
        if times and times >= 1:
            kept.append((pair[0], f"{peak / times:.10g}"))
            out.understood.append(f"{key}={raw}: the peak, ÷ {times:g} (peak to average)")
        else:
            kept.append((pair[0], f"{peak:.10g}"))
            out.understood.append(f"{key}={raw}: the peak, sized as if steady (give the average)")
    return kept


def _one(out: Pairs, key: str, raw: str, catalog: Catalog) -> None:
    if key == "gpus":
        count = amount(raw)
        if count is not None:
            if count != int(count) or count < 1:
                raise ValueError("a GPU count is a whole number")
            out.gpu_count = int(count)
        else:
            names = [n for n in raw.replace("+", ",").split(",") if n]
            out.gpu_ids.extend(catalog.gpus.get(n, field_name="gpus").id for n in names)
        out.read(key, raw)
        return
    if key == "gpu":
        out.gpu_ids.insert(0, catalog.gpus.get(raw, field_name="gpu").id)
        out.read(key, raw)
        return
    value: Any
    if key in _CATALOG:
        value = getattr(catalog, _CATALOG[key]).get(raw, field_name=key).id
    elif key == "as_of":
        value = dt.date.fromisoformat(raw)
    elif key == "kv_precision":
        if raw.lower() not in ("bf16", "fp8"):
            raise ValueError("kv_precision is bf16 or fp8")
        value = raw.lower()
    else:
        number = amount(raw)
        if number is None:
            raise ValueError("not a number I can read")
        if key in _FRACTIONS and number > 1 and not raw.endswith("%"):
            number /= 100
        if key in _INTS:
            if number != int(number):
                raise ValueError("a whole number is needed")
            value = int(number)
        else:
            value = number
    out.values[key] = value
    out.read(key, raw)
