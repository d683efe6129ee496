"""How accurate the engine is, by group, and whether that got worse.

A report summarises checks (figures the engine predicted without having seen them)
the way the field reads a performance model: the median |error| and the share of
figures inside the band the answer would have reported, overall and per source
(publication or dataset), per GPU family and per model class. A baseline is such a
report written down; a later report regresses when a group's median error grows by
more than 5% of itself (AIConfigurator's CI rule) or its coverage falls by more than
five points.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from core.catalog import Catalog, Measurement, Model
from core.perf.engine import Check

MEDIAN_TOLERANCE = 0.05
"""A group's median |error| may grow by this fraction of itself before it regresses."""
MEDIAN_NOISE = 0.001
"""And by this much in absolute terms (a tenth of a point): floating-point drift
between machines, not a change in the engine."""
COVERAGE_TOLERANCE = 0.05
"""A group's share of figures inside their bands may fall by this much (absolute)."""

Grouping = Literal["source", "gpu_family", "model_class"]
GROUPINGS: tuple[Grouping, ...] = ("source", "gpu_family", "model_class")
Measure = Literal["median error", "coverage"]

_ATTENTION_KINDS = {
    "kda-mla-hybrid": "linear attention",
    "gdn-gqa-hybrid": "linear attention",
    "sliding-gqa": "sliding-window attention",
    "mla-sparse": "sparse attention",
}
"""Attention that changes what a decode step reads per sequence (a recurrent state, a
window, a chosen subset of the context)."""
_FULL_ATTENTION = frozenset({"mha", "gqa", "mla"})
"""Attention over the whole context: it does not split a model class."""


def source_key(m: Measurement) -> str:
    """What identifies the publication or dataset a figure came from: its address, else
    its title. One address can carry several titles (the results of one MLPerf round,
    the runs in one benchmark thread), and they are one source."""
    return (m.source.url or m.source.title).rstrip("/")


def source_label(titles: Iterable[str]) -> str:
    """A source's name as people say it: what its figures' titles share, cut at a word
    or clause, else the shortest title."""
    names = sorted(set(titles), key=len)
    if len(names) == 1:
        return names[0]
    common = names[0]
    for name in names[1:]:
        while not name.startswith(common):
            common = common[:-1]
    whole_word = all(len(n) == len(common) or not n[len(common)].isalnum() for n in names)
    if not whole_word:
        cut = max(common.rfind(", "), common.rfind(" ("), common.rfind(": "))
        common = common[:cut] if cut > 0 else ""
    common = common.rstrip(" ,:(-")
    return common if len(common) >= 8 else names[0]


def model_class(model: Model) -> str:
    """Dense or MoE, and the attention that sets what each sequence costs to decode."""
    kind = "MoE" if model.is_moe else "dense"
    if model.attention in _FULL_ATTENTION:
        return kind
    # an attention kind added to the catalog later is its own class until named here
    return f"{kind} with {_ATTENTION_KINDS.get(model.attention, model.attention + ' attention')}"


@dataclass(frozen=True)
class GroupAccuracy:
    """One group's figures: how far off, and how many the reported band held."""

    key: str
    name: str
    figures: int
    median_error: float
    inside_band: int

    @property
    def coverage(self) -> float:
        return self.inside_band / self.figures


@dataclass(frozen=True)
class AccuracyReport:
    """One kind of check (leave-one-source-out, ...), overall and by group."""

    check: str
    overall: GroupAccuracy
    groups: Mapping[Grouping, tuple[GroupAccuracy, ...]]


def accuracy(catalog: Catalog, check: str, checks: Sequence[Check]) -> AccuracyReport:
    """Summarise ``checks`` overall, by source, GPU family and model class.

    A check's ``error_band`` is the band the answer would have reported; whether
    that was honest for the left-out figure is ``Check.within_band``.
    """
    if not checks:
        raise ValueError(f"no {check} checks to summarise")
    keyers: dict[Grouping, Callable[[Measurement], str]] = {
        "source": source_key,
        "gpu_family": lambda m: catalog.gpus.entries[m.gpu].family,
        "model_class": lambda m: model_class(catalog.models.entries[m.model]),
    }
    groups: dict[Grouping, tuple[GroupAccuracy, ...]] = {}
    for grouping, key_of in keyers.items():
        members: dict[str, list[Check]] = defaultdict(list)
        for c in checks:
            members[key_of(c.measurement)].append(c)
        groups[grouping] = tuple(
            _summary(
                key,
                source_label(c.measurement.source.title for c in mine)
                if grouping == "source"
                else key,
                mine,
            )
            for key, mine in sorted(members.items())
        )
    return AccuracyReport(
        check=check, overall=_summary("overall", "overall", checks), groups=groups
    )


def _summary(key: str, name: str, checks: Sequence[Check]) -> GroupAccuracy:
    return GroupAccuracy(
        key=key,
        name=name,
        figures=len(checks),
        median_error=statistics.median(abs(c.relative_error) for c in checks),
        inside_band=sum(c.within_band for c in checks),
    )


class GroupBaseline(BaseModel):
    """One group as a baseline keeps it: what identifies it, and its figures."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    name: str
    figures: int = Field(ge=1)
    median_error: float = Field(ge=0)
    coverage: float = Field(ge=0, le=1)


class ReportBaseline(BaseModel):
    """One kind of check as a baseline keeps it: overall and each group."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    overall: GroupBaseline
    source: tuple[GroupBaseline, ...] = ()
    gpu_family: tuple[GroupBaseline, ...] = ()
    model_class: tuple[GroupBaseline, ...] = ()


class Baseline(BaseModel):
    """The accuracy a change to the engine is held to, by kind of check."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    checks: dict[str, ReportBaseline]


def baseline_of(reports: Iterable[AccuracyReport]) -> Baseline:
    """The reports as a baseline (errors and coverage to four decimals)."""

    def kept(g: GroupAccuracy) -> GroupBaseline:
        return GroupBaseline(
            key=g.key,
            name=g.name,
            figures=g.figures,
            median_error=round(g.median_error, 4),
            coverage=round(g.coverage, 4),
        )

    return Baseline(
        checks={
            r.check: ReportBaseline(
                overall=kept(r.overall),
                **{grouping: tuple(map(kept, r.groups[grouping])) for grouping in GROUPINGS},
            )
            for r in reports
        }
    )


@dataclass(frozen=True)
class Regression:
    """A group that got worse than its baseline by more than the tolerance."""

    check: str
    grouping: Grouping | Literal["overall"]
    group: str
    measure: Measure
    baseline: float
    now: float


def regressions(reports: Iterable[AccuracyReport], baseline: Baseline) -> list[Regression]:
    """Every group, in every kind of check the baseline holds, that regressed.

    Groups the baseline does not know (a new source) are not regressions; nor are
    baseline groups that no longer have figures (a source removed from the catalog).
    """
    found: list[Regression] = []
    for report in reports:
        kept = baseline.checks.get(report.check)
        if kept is None:
            continue
        pairs: list[tuple[Grouping | Literal["overall"], GroupAccuracy, GroupBaseline]] = [
            ("overall", report.overall, kept.overall)
        ]
        for by in GROUPINGS:
            known = {g.key: g for g in getattr(kept, by)}
            pairs += [(by, g, known[g.key]) for g in report.groups[by] if g.key in known]
        for grouping, now, then in pairs:
            found += [
                Regression(report.check, grouping, now.name, measure, was, is_now)
                for measure, was, is_now in worse(now.median_error, now.coverage, then)
            ]
    return found


def worse(
    median_error: float, coverage: float, then: GroupBaseline
) -> list[tuple[Measure, float, float]]:
    """What got worse than ``then`` beyond the tolerance: (measure, baseline, now) each.

    The one rule every accuracy baseline is held to (the catalog's checks, the field's
    measurements), so no report is judged more kindly than another."""
    found: list[tuple[Measure, float, float]] = []
    if median_error > then.median_error * (1 + MEDIAN_TOLERANCE) + MEDIAN_NOISE:
        found.append(("median error", then.median_error, median_error))
    if coverage < then.coverage - COVERAGE_TOLERANCE:
        found.append(("coverage", then.coverage, coverage))
    return found
