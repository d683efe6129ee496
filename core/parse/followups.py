"""Follow-ups in a thread: a short message edits the thread's fields.

"what about H200?", "make it 24 months", "batch 64", "at $4.50", "add 20% growth",
"without thinking tokens" are read by the same grammar as a first message and
projected onto the thread's kind; "double the traffic" scales the volume (or the
batch, for a scenario); "undo" and "start over" are actions the caller carries
out (it keeps the history), so their fields come back unchanged.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from core.catalog import Catalog
from core.parse.facts import Reading
from core.parse.numbers import compact
from core.parse.result import VOLUME, kind_of, price_per_gpu, project, understand

_LABELS: dict[str, tuple[str, str]] = {
    "term_months": ("term", " months"),
    "price_per_gpu_hour": ("price", "/GPU-hour"),
    "monthly_growth": ("growth", "/month"),
    "peak_to_average": ("peak", "x"),
    "max_ttft_s": ("TTFT", " s"),
    "min_per_user_tokens_per_s": ("per-user speed", " tokens/s"),
    "planned_utilization": ("planned utilization", ""),
    "utilization": ("utilization", ""),
}


class FollowUp(BaseModel):
    """A follow-up's effect: the edited fields and each change, said back."""

    model_config = ConfigDict(frozen=True)

    action: Literal["edit", "undo", "reset", "none"]
    fields: dict[str, Any]
    changed: list[str]
    understood: list[str]


def apply_followup(fields: dict[str, Any], kind: str, text: str, catalog: Catalog) -> FollowUp:
    """Edit ``fields`` (a thread's, of ``kind``) by the follow-up ``text``."""
    reading, pairs, _ = understand(text, catalog)
    if reading.action == "reset":
        return FollowUp(action="reset", fields=dict(fields), changed=[], understood=["start over"])
    if reading.action == "undo":
        words = ["undo the last change"]
        return FollowUp(action="undo", fields=dict(fields), changed=[], understood=words)
    if kind not in ("scenario", "traffic"):
        kind = kind_of(reading, pairs)
    edits, notes = project(reading, pairs, kind)
    notes += price_per_gpu(edits, _with_count(reading, fields, kind), catalog)
    if kind == "traffic" and edits.get("gpus") and fields.get("gpus"):
        notes += _add_gpus(edits, tuple(fields["gpus"]), text)
    new = dict(fields)
    new.update(edits)
    notes += _price_stays_with_its_gpu(fields, new, edits, catalog)
    understood = [*reading.understood, *reading.gpu_said, *pairs.understood, *notes]
    for target, factor, said in reading.scales:
        understood.append(f"{said}: x{factor:g}")
        _scale(new, kind, target, factor)
    changed = [_change(k, fields.get(k), new[k]) for k in new if fields.get(k) != new[k]]
    if not changed:
        return FollowUp(action="none", fields=dict(fields), changed=[], understood=understood)
    return FollowUp(action="edit", fields=new, changed=changed, understood=understood)


def _price_stays_with_its_gpu(
    before: dict[str, Any], new: dict[str, Any], edits: dict[str, Any], catalog: Catalog
) -> list[str]:
    """A price stated for one GPU is that GPU's only: moving the thread to another GPU
    drops it (the new GPU takes its own price), unless the follow-up states one."""
    stated, old, gpu = before.get("price_per_gpu_hour"), before.get("gpu"), edits.get("gpu")
    if stated is None or not old or not gpu or "price_per_gpu_hour" in edits:
        return []
    if catalog.gpus.get(old).id == catalog.gpus.get(gpu).id:
        return []
    new["price_per_gpu_hour"] = None
    return [f"the ${stated:.2f}/GPU-hour stated for {old} stays with {old}"]


def _with_count(reading: Reading, fields: dict[str, Any], kind: str) -> Reading:
    """The reading, with the thread's GPU and count where the follow-up names none."""
    if reading.gpu_count is not None and reading.gpu_ids:
        return reading
    count = reading.gpu_count
    if count is None and kind == "scenario" and isinstance(fields.get("gpus"), int):
        count = fields["gpus"]
    ids = reading.gpu_ids or ([fields["gpu"]] if fields.get("gpu") else [])
    return replace(reading, gpu_count=count, gpu_ids=list(ids))


def _add_gpus(edits: dict[str, Any], before: tuple[str, ...], text: str) -> list[str]:
    """"what about H200?" on a sizing adds H200 to the GPUs compared; "only H200" replaces."""
    if _REPLACE.search(text):
        return []
    named = tuple(edits["gpus"])
    edits["gpus"] = tuple(dict.fromkeys((*before, *named)))
    said = ", ".join(named)
    return [f"added {said} to the GPUs compared (say 'only {named[0]}' to drop the rest)"]


_REPLACE = re.compile(r"\b(only|instead|just|switch|replace)\b", re.IGNORECASE)


def _scale(fields: dict[str, Any], kind: str, target: str, factor: float) -> None:
    if target == "traffic" and kind == "traffic":
        for key in VOLUME:
            if fields.get(key) is not None:
                fields[key] = fields[key] * factor
        return
    key = "gpus" if target == "gpus" else "concurrency"
    if kind == "scenario" or target != "traffic":
        current = fields.get(key) or 1
        if isinstance(current, int | float):
            fields[key] = max(1, round(current * factor))


def _change(key: str, old: Any, new: Any) -> str:
    label, unit = _LABELS.get(key, (key, ""))
    if key == "price_per_gpu_hour" and new is None and old is not None:
        return f"{label}: {_money(old)}{unit} -> the new GPU's own price"
    if key == "price_per_gpu_hour":
        return f"{label}: {_money(old)} -> {_money(new)}{unit}"
    if key == "monthly_growth":
        return f"{label}: {_pct(old)} -> {_pct(new)}{unit}"
    if key in ("utilization", "planned_utilization"):
        return f"{label}: {_pct(old)} -> {_pct(new)}"
    return f"{label}: {_show(old)} -> {_show(new)}{unit}"


def _show(value: Any) -> str:
    if value is None:
        return "unset"
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, float):
        return compact(value)
    return str(value)


def _money(value: Any) -> str:
    return "unset" if value is None else f"${value:.2f}"


def _pct(value: Any) -> str:
    return "unset" if value is None else f"{value:.0%}"
