"""Follow-ups in a thread: a short message edits the thread's fields.

"what about H200?", "make it 24 months", "batch 64", "at $4.50", "add 20% growth",
"without thinking tokens" are read by the same grammar as a first message and
projected onto the thread's kind; "double the traffic" scales the volume (or the
batch, for a scenario). Actions the caller carries out come back with the fields
unchanged: "undo" and "start over" (it keeps the history), "compare with H200"
(the thread's deployment and H200 side by side), "save this as quote acme [for
Acme]". On a sizing, a utilization or a price alone is a ``reprice``: the same
fleet at another $/M ("plan for 60% utilization" still re-sizes). A name-like
word the catalog does not know comes back in ``unknown`` with the closest name.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from core.catalog import Catalog
from core.parse.facts import Reading
from core.parse.lexicon import lexicon_for
from core.parse.markup import plain_text
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

    action: Literal["edit", "reprice", "compare", "save", "undo", "reset", "none"]
    fields: dict[str, Any]
    changed: list[str]
    understood: list[str]
    gpus_named: list[str] = []
    """The GPUs the follow-up named, in its order (what "compare with" compares)."""
    count_said: bool = False
    """Whether it said a GPU count ("16x H200"), so a new GPU keeps it even if short."""
    price_said: bool = False
    alongside: bool = False
    """A sizing over every GPU was asked "what about H200?": the caller puts H200
    beside the GPU the thread's answer chose (``fields["gpus"]`` holds only H200)."""
    utilization: float | None = None
    """A sizing re-priced at this average utilization (the fleet stays as sized)."""
    quote_name: str | None = None
    quote_customer: str | None = None
    unknown: list[str] = []
    """What was not understood, said: "I don't know 'h2000' — did you mean h200?"."""
    acknowledgement: bool = False
    """"thanks", "ok", 👍: nothing to act on, and nothing to answer either."""


def apply_followup(fields: dict[str, Any], kind: str, text: str, catalog: Catalog) -> FollowUp:
    """Edit ``fields`` (a thread's, of ``kind``) by the follow-up ``text``."""
    saved = _SAVE.fullmatch(plain_text(text)[0])
    if saved:
        name, customer = saved["name"], saved["customer"]
        return FollowUp(
            action="save",
            fields=dict(fields),
            changed=[],
            understood=[f"save as quote {name}" + (f" for {customer}" if customer else "")],
            quote_name=name,
            quote_customer=customer.strip() if customer else None,
        )
    reading, pairs, _ = understand(text, catalog)
    if reading.action == "reset":
        return FollowUp(action="reset", fields=dict(fields), changed=[], understood=["start over"])
    if reading.action == "undo":
        words = ["undo the last change"]
        return FollowUp(action="undo", fields=dict(fields), changed=[], understood=words)
    if kind not in ("scenario", "traffic"):
        kind = kind_of(reading, pairs, "scenario")
    named = list(dict.fromkeys(pairs.gpu_ids or reading.gpu_ids))
    count = pairs.gpu_count if pairs.gpu_count is not None else reading.gpu_count
    understood = [*reading.understood, *reading.gpu_said, *pairs.understood]
    said = FollowUp(
        action="none",
        fields=dict(fields),
        changed=[],
        understood=understood,
        gpus_named=named,
        count_said=count is not None,
        price_said="price_per_gpu_hour" in {**reading.values, **pairs.values},
        unknown=unknown_names(text, catalog),
    )
    if named and _COMPARE.search(text):
        return said.model_copy(
            update={
                "action": "compare",
                "understood": [*understood, f"compare with {', '.join(named)}"],
            }
        )
    edits, notes = project(reading, pairs, kind)
    notes += price_per_gpu(edits, _with_count(reading, fields, kind), catalog)
    alongside = False
    if kind == "traffic" and edits.get("gpus") and not _REPLACE.search(text):
        if fields.get("gpus"):
            notes += _add_gpus(edits, tuple(fields["gpus"]))
        else:
            alongside = True
    utilization = None
    if kind == "traffic" and "utilization" in edits:  # said with a price: the quoted share
        utilization = edits.pop("utilization")
    elif kind == "traffic" and "planned_utilization" in edits and not _PLAN.search(text):
        utilization = edits.pop("planned_utilization")
    new = dict(fields)
    new.update(edits)
    if kind == "traffic" and any(edits.get(k) is not None for k in VOLUME):
        for key in VOLUME:  # a volume said again replaces the thread's, in whatever unit
            if edits.get(key) is None and new.get(key) is not None:
                new[key] = None
    notes += _price_stays_with_its_gpu(fields, new, edits, catalog)
    understood = [*understood, *notes]
    for target, factor, scaled in reading.scales:
        understood.append(f"{scaled}: x{factor:g}")
        _scale(new, kind, target, factor)
    keys = [k for k in new if fields.get(k) != new[k]]
    changed = [_change(k, fields.get(k), new[k]) for k in keys]
    if utilization is not None:
        changed.append(f"utilization: {_pct(utilization)} on average")
    if not changed:
        if not said.unknown and not understood and _ACK.fullmatch(plain_text(text)[0]):
            return said.model_copy(update={"acknowledgement": True})
        return said.model_copy(update={"understood": understood})
    reprice = kind == "traffic" and set(keys) <= {"price_per_gpu_hour"}
    return said.model_copy(
        update={
            "action": "reprice" if reprice else "edit",
            "fields": new,
            "changed": changed,
            "understood": understood,
            "utilization": utilization,
            "alongside": alongside,
        }
    )


def unknown_names(text: str, catalog: Catalog) -> list[str]:
    """Name-like words (letters and digits: "h2000", "b3000x") that no catalog name reads,
    each said with the closest GPU or model id (difflib over ids and aliases) if any."""
    lexicon = lexicon_for(catalog)  # the names and their words, worked out once per catalog
    names, known = lexicon.ids_by_name, lexicon.name_words
    out: list[str] = []
    words = (w.strip(".,;:!?()*_'\"").lower() for w in plain_text(text)[0].split())
    for word in dict.fromkeys(words):
        if not _NAME_LIKE.fullmatch(word) or word in known or _AMOUNT.fullmatch(word):
            continue
        close = difflib.get_close_matches(word, names, n=1, cutoff=0.75)
        hint = f" — did you mean {names[close[0]]}?" if close else ""
        out.append(f"I don't know '{word}'{hint}")
    return out


_NAME_LIKE = re.compile(r"(?=.*[a-z])(?=.*\d)[a-z0-9][a-z0-9.\-]*")
_AMOUNT = re.compile(
    r"\$?\d[\d.,]*(x|k|m|b|bn|t|gb|tb|s|ms|h|hr|hrs|d|mo|yr|yrs|m[io]n|pct|tok|tps|st|nd|rd|th)?"
    r"|(tp|pp|ep|dp|dep|fp|int|nvfp|mxfp|bf|w|a)\d+.*"
)
_SAVE = re.compile(
    r"\s*(?:please\s+)?save\s+(?:this\s+|it\s+)?(?:as\s+)?(?:a\s+)?quote\s+"
    r"(?:named\s+|called\s+)?(?P<name>[^\s]+)(?:\s+for\s+(?P<customer>.+?))?\s*[.!]?\s*",
    re.IGNORECASE,
)
_COMPARE = re.compile(r"\b(compare|compared|vs|versus|side by side|against)\b", re.IGNORECASE)
_PLAN = re.compile(r"\b(plan|planned|planning|size|sized|sizing|headroom|cap)\b", re.IGNORECASE)
_ACK = re.compile(
    r"\W*((thanks|thank you|thx|ty|ok|okay|cool|great|nice|perfect|got it|sounds good|lol|"
    r"awesome|yes|no|sure)\b[\s\W]*)*",
    re.IGNORECASE,
)


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


def _add_gpus(edits: dict[str, Any], before: tuple[str, ...]) -> list[str]:
    """ "what about H200?" on a sizing adds H200 to the GPUs compared; "only H200" replaces."""
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
