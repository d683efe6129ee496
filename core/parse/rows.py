"""Which row of a pasted table the message means.

A sheet pasted into Slack has several rows, and the words around it say which one to
size: "we're only sizing *Pro*", "run the stretch row", "use the latest week", "only NA +
EMEA go onto the new cluster", "the sum is the total we need". Read in that order:

- a row named by its label, alone: that row;
- several labels joined ("NA + EMEA", "Copilot and Tutor"): those rows combined;
- "latest", "last", "most recent": the last row;
- "sum", "combined", "all of them" (and no total row): every row combined;
- else the total row if there is one; rows of a load's parts ("Use case", "Workload",
  "App") combined; or the first row, said.

Rows are combined column by column: a volume (requests or output tokens a day) is added
up; a request's length that differs by row is the rows' average weighted by their requests
a day (what the one fleet serves); any other figure is kept only when every row gives the
same one, since a ratio or a latency of one row is no other row's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.parse.context import around
from core.parse.numbers import amount

if TYPE_CHECKING:
    from core.parse.terminals import Tok

_LATEST = re.compile(r"\b(?:latest|last|most\s+recent|newest|current)\b", re.IGNORECASE)
_SUMMED = re.compile(
    r"\b(?:sum|summed|combined|together|add(?:ed)?\s+up|all\s+of\s+(?:them|these|it)"
    r"|all\s+(?:the\s+)?(?:rows|apps|tenants|workloads|regions))\b",
    re.IGNORECASE,
)
_JOINED = r"\s*(?:\+|&|,|\band\b|\bplus\b)\s*"
_PARTS_OF_ONE_LOAD = re.compile(
    r"(?:use[\s_-]*case|workload|app|application|service|feature|product|tenant|department"
    r"|team)s?$",
    re.IGNORECASE,
)
"""A first column naming the parts of one load: its rows add up unless one is picked
(a column of tiers, options or regions names alternatives or a split, and is not summed
unless the message says so)."""
_ADDED = frozenset({"requests_per_day", "output_tokens_per_day"})
"""Volumes, which add up over rows; a request's length or a ratio does not."""
_LENGTHS = frozenset({"input_tokens", "output_tokens", "reasoning_tokens"})
"""A request's lengths: over rows of one load, their average weighted by requests."""


@dataclass(frozen=True)
class Choice:
    cells: list[str]
    note: str


def chosen(
    head: list[str],
    parts: list[list[str]],
    totals: list[list[str]],
    rest: str,
    field_of: dict[int, str],
) -> Choice:
    """The row (or rows combined) the words outside the table point at."""
    named = _named(parts, rest) if len(parts) > 1 else []
    if len(named) == 1:
        return Choice(named[0], f"a table of {len(parts)} rows: read the row '{named[0][0]}'")
    joined = _joined(named, rest)
    if len(joined) > 1:
        said = " + ".join(f"'{r[0]}'" for r in joined)
        return _summed(
            head, joined, _combined(head, joined, field_of), field_of, f"rows {said} added up"
        )
    if len(parts) > 1 and _LATEST.search(rest):
        return Choice(parts[-1], f"a table of {len(parts)} rows: read the latest, '{parts[-1][0]}'")
    if len(parts) > 1 and not totals and _SUMMED.search(rest):
        cells = _combined(head, parts, field_of)
        return _summed(head, parts, cells, field_of, f"the {len(parts)} rows added up")
    if totals:
        total = [
            value or _shared([r[c] for r in parts]) for c, value in enumerate(totals[0])
        ]  # a total row leaves blank what every row shares
        note = f"a table of {len(parts)} rows and a total: read the total"
        return _summed(head, parts, total, field_of, note)
    if len(parts) > 1 and _PARTS_OF_ONE_LOAD.match(head[0].strip("*_ ")):
        cells = _combined(head, parts, field_of)  # "Use case | Requests/day": one load's parts
        return _summed(head, parts, cells, field_of, f"the {len(parts)} rows added up")
    note = f"a table of {len(parts)} rows: read the first only" if len(parts) > 1 else ""
    return Choice(parts[0], note)


def _named(parts: list[list[str]], rest: str) -> list[list[str]]:
    """Rows whose label the message says outside the table ("only sizing *Pro*"); a
    label's first word ("Sep" of "Sep-26") counts when no other label shares it."""
    labels = [_label(r) for r in parts]
    firsts = [re.split(r"[\s/(-]", label)[0] for label in labels]
    found = []
    for row, label, first in zip(parts, labels, firsts, strict=True):
        if not label or amount(label) is not None:
            continue
        said = [label] + ([first] if firsts.count(first) == 1 else [])
        if any(len(w) >= 2 and _said(w).search(rest) for w in said):
            found.append(row)
    return found


def _label(row: list[str]) -> str:
    return row[0].strip("*_ ")


def _said(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])", re.IGNORECASE)


def _joined(rows: list[list[str]], rest: str) -> list[list[str]]:
    """The rows of labels said joined ("only NA + EMEA go"), when one such run is said."""
    if len(rows) < 2:
        return []
    any_label = "|".join(re.escape(_label(r)) for r in rows)
    runs = re.findall(
        rf"(?<![\w-])(?:{any_label})(?:{_JOINED}(?:{any_label}))+(?![\w-])", rest, re.I
    )
    if len(runs) != 1:
        return []
    return [r for r in rows if _said(_label(r)).search(runs[0])]


def _combined(head: list[str], rows: list[list[str]], field_of: dict[int, str]) -> list[str]:
    out = []
    weights = _requests(rows, field_of)
    for c in range(len(head)):
        cells = [r[c] for r in rows]
        if field_of.get(c) in _ADDED:
            numbers = [amount(x) for x in cells]
            whole = all(n is not None for n in numbers)
            out.append(f"{sum(n for n in numbers if n is not None):.12g}" if whole else "")
        elif field_of.get(c) in _LENGTHS and weights and not _shared(cells):
            out.append(_weighted(cells, weights))
        else:
            out.append(_shared(cells))
    return out


def _requests(rows: list[list[str]], field_of: dict[int, str]) -> list[float] | None:
    """Each row's requests a day, when a column gives them all: the weights of its lengths."""
    column = next((c for c, name in field_of.items() if name == "requests_per_day"), None)
    if column is None:
        return None
    numbers = [amount(r[column]) for r in rows]
    if any(n is None or n <= 0 for n in numbers):
        return None
    return [float(n) for n in numbers if n is not None]


def _weighted(cells: list[str], weights: list[float]) -> str:
    """The rows' lengths as one fleet serves them: their average weighted by requests (the
    tokens a day over the requests a day), or nothing when a row gives none."""
    numbers = [amount(x) for x in cells]
    if any(n is None for n in numbers):
        return ""
    total = sum(w * n for w, n in zip(weights, numbers, strict=True) if n is not None)
    return f"{round(total / sum(weights))}"


def _summed(
    head: list[str], rows: list[list[str]], cells: list[str], field_of: dict[int, str], note: str
) -> Choice:
    """Rows read as one, and what that left out: the known columns the rows disagree on."""
    left = [head[c] for c in field_of if not cells[c] and any(r[c] for r in rows)]
    mixed = [
        head[c] for c, name in field_of.items()
        if name in _LENGTHS and cells[c] and len({r[c] for r in rows}) > 1
    ]
    if mixed:
        note += f"; {', '.join(mixed)}: the rows' average weighted by their requests a day"
    if left:
        note += f"; {', '.join(left)} differ by row: not read (say which row)"
    return Choice(cells, note)


def _shared(cells: list[str]) -> str:
    """The one value every row gives, or nothing."""
    values = set(cells)
    return values.pop() if len(values) == 1 else ""


_ONLY_ONE = re.compile(
    r"\b(?:only|just)\s+(?:the\s+)?(?P<a>[\w.-]+)(?:\s+(?:line|row|one|model|workload|traffic))?\b"
    r"|\b(?P<b>[\w.-]+)\s+(?:line\s+|row\s+)?(?:moves|is\s+moving|migrates|goes|is\s+the\s+one)\b",
    re.IGNORECASE,
)
"""The one model of several the message moves: "only the gpt-oss line moves to the B300s"."""


_ONLY_WORDS = ("only", "just", "moves", "moving", "migrates", "goes", "the one")


def one_models_lines(text: str, toks: list[Tok]) -> tuple[str, str] | None:
    """A dashboard or a list with a line per model ("gpt-oss-120b  avg 9,400 tok/s  peak
    27,000" / "llama-3.1-8b  avg 1,100 tok/s …"), and words outside them naming the one
    to move: ``text`` with the other models' lines blanked, and the model kept; or None."""
    lines: dict[int, tuple[str, str]] = {}  # line start -> (model id, the name as said)
    for t in toks:
        if t.type != "MODEL":
            continue
        start = text.rfind("\n", 0, t.start) + 1
        if text[start : t.start].strip(" \t-*•|") == "":
            lines.setdefault(start, (str(t.value), t.text.lower()))
    if len({m for m, _ in lines.values()}) < 2:
        return None
    lower = text.lower()
    if not any(w in lower for w in _ONLY_WORDS):
        return None  # nothing said of one of them: looked at before the regex
    near = {m.span(): m for m in around(_ONLY_ONE, text, lower, _ONLY_WORDS, 30, 40)}
    outside = [m for m in near.values() if text.rfind("\n", 0, m.start()) + 1 not in lines]
    named = {
        model
        for m in outside
        for model, said in lines.values()
        if (word := (m["a"] or m["b"] or "").lower()) and len(word) >= 3 and said.startswith(word)
    }
    if len(named) != 1:
        return None
    (keep,) = named
    out = list(text)
    for start, (model, _) in lines.items():
        if model == keep:
            continue
        end = text.find("\n", start)
        for j in range(start, end if end != -1 else len(text)):
            out[j] = " "
    return "".join(out), keep
