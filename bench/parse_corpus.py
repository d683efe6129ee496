"""How much of what sales people write the free-text reader gets right.

The corpus (``tests/core/parse_corpus/*.yaml``) holds Slack messages in many voices,
each with the fields a careful sales engineer reads from it, in the JSON contract's
names. A field counts as read when ``parse`` gives it the expected value (floats within
1% relative, integers and ids exactly); the kind counts as one field. A field given
with another value is wrong, and "flagged" when the reply's ambiguities or assumptions
mention it, else silent: a silent wrong number is worse than a missing one, so the two
are counted apart. Contract fields the parser gives that the row does not expect are
listed and counted, not scored: often an irrelevant number (a date, a headcount) read as
a field, sometimes a figure the row leaves out as ambiguous (its ``note`` says).

The test (``tests/core/test_parse_corpus.py``) loads this file for the same scoring.
Run: ``python bench/parse_corpus.py`` (``--text`` prints each missed message too).
``--corpus DIR`` scores another folder of rows of the same shape instead: the holdout
set (``tests/core/parse_holdout``), written apart from the reader and never tuned on,
measures how the reader does on messages nobody fitted it to.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

CORPUS_DIR = Path(__file__).resolve().parents[1] / "tests" / "core" / "parse_corpus"
KINDS = ("scenario", "traffic", "unknown")
FLOAT_FIELDS = frozenset(
    {
        "output_tokens_per_day",
        "requests_per_day",
        "peak_to_average",
        "min_per_user_tokens_per_s",
        "max_ttft_s",
        "monthly_growth",
        "planned_utilization",
        "utilization",
        "price_per_gpu_hour",
        "api_price_per_million_output",
        "api_price_per_million_input",
    }
)
INT_FIELDS = frozenset(
    {
        "input_tokens",
        "output_tokens",
        "reasoning_tokens",
        "context_tokens",
        "term_months",
        "gpus",
        "concurrency",
    }
)
ID_FIELDS = frozenset({"model", "gpu", "precision"})
FIELDS = FLOAT_FIELDS | INT_FIELDS | ID_FIELDS | {"as_of"}
REL_TOL = 0.01


@dataclass(frozen=True)
class Message:
    id: str
    voice: str
    text: str
    kind: str
    fields: dict[str, Any]
    note: str | None = None


@dataclass(frozen=True)
class Check:
    """One expected field of one message, and what the parser gave for it."""

    message: Message
    field: str
    expected: Any
    got: Any
    status: str  # read | missing | wrong | flagged (wrong, but the reply says so)


@dataclass
class Report:
    checks: list[Check] = field(default_factory=list)
    extras: list[tuple[str, str, Any]] = field(default_factory=list)
    raised: list[tuple[str, str]] = field(default_factory=list)

    @property
    def score(self) -> float:
        return self.count("read") / len(self.checks) if self.checks else 0.0

    def count(self, status: str) -> int:
        return sum(c.status == status for c in self.checks)

    def summary(self) -> str:
        return (
            f"read {self.count('read')} of {len(self.checks)} fields ({self.score:.1%}); "
            f"wrong {self.count('wrong')} silently, {self.count('flagged')} flagged; "
            f"missing {self.count('missing')}; parse raised on {len(self.raised)} messages; "
            f"{len(self.extras)} fields given that no row expects"
        )


def load_corpus(folder: Path = CORPUS_DIR) -> list[Message]:
    """Every row of every ``*.yaml`` in ``folder``, id'd ``<file>:<n>`` (1-based)."""
    messages: list[Message] = []
    for path in sorted(folder.glob("*.yaml")):
        rows = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        for n, row in enumerate(rows, start=1):
            messages.append(_message(f"{path.stem}:{n:02d}", row))
    return messages


def _message(mid: str, row: dict[str, Any]) -> Message:
    unknown_keys = set(row) - {"voice", "text", "kind", "fields", "note"}
    if unknown_keys or not {"voice", "text", "kind"} <= set(row):
        raise ValueError(f"{mid}: a row has voice, text, kind, fields, note; got {sorted(row)}")
    if row["kind"] not in KINDS:
        raise ValueError(f"{mid}: kind {row['kind']!r} is not one of {KINDS}")
    fields = dict(row.get("fields") or {})
    strange = set(fields) - FIELDS
    if strange:
        raise ValueError(f"{mid}: fields outside the contract: {sorted(strange)}")
    return Message(
        id=mid,
        voice=str(row["voice"]),
        text=str(row["text"]),
        kind=row["kind"],
        fields={k: _typed(k, v) for k, v in fields.items()},
        note=row.get("note"),
    )


def _typed(name: str, value: Any) -> Any:
    if name in FLOAT_FIELDS:
        return float(value)
    if name in INT_FIELDS:
        if isinstance(value, float) and not value.is_integer():
            raise ValueError(f"{name} is a whole number, not {value}")
        return int(value)
    if name == "as_of":
        return value.isoformat() if isinstance(value, dt.date) else str(value)
    return str(value)


def got_value(fields: dict[str, Any], name: str, kind: str) -> Any:
    """The parser's value for ``name``; a traffic's GPU may be the first of its ``gpus``."""
    value = fields.get(name)
    if name == "gpu" and kind == "traffic" and value is None:
        gpus = fields.get("gpus")
        if isinstance(gpus, list | tuple) and gpus:
            value = gpus[0]
    return value


def same(name: str, expected: Any, got: Any) -> bool:
    if got is None:
        return False
    if name == "as_of":
        return (got.isoformat() if isinstance(got, dt.date) else str(got)) == expected
    if isinstance(expected, str):
        return isinstance(got, str) and got == expected
    if isinstance(got, bool) or not isinstance(got, int | float):
        return False
    if isinstance(expected, float):
        return math.isclose(got, expected, rel_tol=REL_TOL)
    return bool(got == expected)


def _spellings(name: str, got: Any) -> set[str]:
    """How a reply might name a field or its value (for flagged-or-silent, a heuristic)."""
    out = {name, name.replace("_", " ")}
    if isinstance(got, str):
        out.add(got)
    elif isinstance(got, int | float) and not isinstance(got, bool):
        out |= {s for s in (f"{got:g}", f"{got:,g}", f"{got:,.0f}") if len(s) >= 3}
    return out


def _flagged(parsed: Any, name: str, got: Any) -> bool:
    said = " ".join([*parsed.ambiguities, *parsed.assumed]).lower()
    return any(s.lower() in said for s in _spellings(name, got))


def score(messages: Iterable[Message], reader: Callable[[str], Any]) -> Report:
    """Run ``reader`` (text -> Parsed) on each message and check every expected field."""
    report = Report()
    for message in messages:
        try:
            parsed = reader(message.text)
        except Exception as exc:  # a raising parser misses every field; say which raised
            report.raised.append((message.id, f"{type(exc).__name__}: {exc}"))
            report.checks.append(Check(message, "kind", message.kind, None, "missing"))
            report.checks += [
                Check(message, k, v, None, "missing") for k, v in message.fields.items()
            ]
            continue
        got_kind = parsed.kind
        report.checks.append(
            Check(
                message,
                "kind",
                message.kind,
                got_kind,
                "read" if got_kind == message.kind else "wrong",
            )
        )
        fields = dict(parsed.fields)
        for name, expected in message.fields.items():
            got = got_value(fields, name, message.kind)
            if same(name, expected, got):
                status = "read"
            elif got is None:
                status = "missing"
            else:
                status = "flagged" if _flagged(parsed, name, got) else "wrong"
            report.checks.append(Check(message, name, expected, got, status))
        for name, value in fields.items():
            counted = name in message.fields or (name == "gpus" and message.kind == "traffic")
            if name in FIELDS and not counted and value is not None:
                report.extras.append((message.id, name, value))
    return report


def _table(title: str, groups: dict[str, list[Check]]) -> list[str]:
    lines = [f"{title:30s} {'read':>5s} {'of':>5s} {'score':>7s} {'wrong':>6s} {'flagged':>8s}"]
    for key in sorted(groups, key=lambda k: (-len(groups[k]), k)):
        checks = groups[key]
        read = sum(c.status == "read" for c in checks)
        wrong = sum(c.status == "wrong" for c in checks)
        flagged = sum(c.status == "flagged" for c in checks)
        lines.append(
            f"  {key:28s} {read:5d} {len(checks):5d} {read / len(checks):7.1%} "
            f"{wrong:6d} {flagged:8d}"
        )
    return lines


def render(
    report: Report,
    messages: list[Message],
    *,
    with_text: bool = False,
    title: str = "parse corpus",
) -> str:
    voices = {m.voice for m in messages}
    lines = [
        f"{title}: {len(messages)} messages in {len(voices)} voices ({', '.join(sorted(voices))})",
        f"score: {report.score:.1%}  ({report.summary()})",
        "",
    ]
    by_voice: dict[str, list[Check]] = defaultdict(list)
    by_field: dict[str, list[Check]] = defaultdict(list)
    for check in report.checks:
        by_voice[check.message.voice].append(check)
        by_field[check.field].append(check)
    lines += [*_table("by voice", by_voice), "", *_table("by field", by_field), ""]
    if report.raised:
        lines.append(f"parse raised on {len(report.raised)} messages:")
        lines += [f"  {mid}: {error}" for mid, error in report.raised]
        lines.append("")
    misses = [c for c in report.checks if c.status != "read"]
    lines.append(f"misses ({len(misses)}): id, field, expected, got [status]")
    shown: set[str] = set()
    for check in misses:
        if with_text and check.message.id not in shown:
            shown.add(check.message.id)
            lines.append(f"  --- {check.message.id}: {check.message.text!r}")
        lines.append(
            f"  {check.message.id:15s} {check.field:28s} {check.expected!r:>16} "
            f"{check.got!r} [{check.status}]"
        )
    lines += ["", f"not expected, not scored ({len(report.extras)}): id, field, value"]
    lines += [f"  {mid:15s} {name:28s} {value!r}" for mid, name, value in report.extras]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--text", action="store_true", help="print each missed message's text")
    parser.add_argument(
        "--corpus",
        type=Path,
        default=CORPUS_DIR,
        metavar="DIR",
        help="folder of *.yaml rows to score (default: tests/core/parse_corpus)",
    )
    args = parser.parse_args(argv)
    messages = load_corpus(args.corpus)
    if not messages:
        parser.error(f"no rows in {args.corpus}/*.yaml")

    from core.catalog import load_catalog
    from core.parse import parse

    catalog = load_catalog()
    report = score(messages, lambda text: parse(text, catalog))
    same_folder = args.corpus.resolve() == CORPUS_DIR
    title = "parse corpus" if same_folder else f"parse corpus {args.corpus}"
    print(render(report, messages, with_text=args.text, title=title))


if __name__ == "__main__":
    main(sys.argv[1:])
