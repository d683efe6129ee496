"""A table of what runs today beside what is wanted: only the wanted column is read.

RFPs and migration plans compare "| | Current | Target |" row by row: the hardware, the
model, the volume. Read whole, the current GPU and model compete with the target's, and
no row reads as one figure. The table is rewritten as the target's own column, a name and
a value a row ("| Hardware | H100 SXM |"); where the target says "same" the current cell
stands for it, and a row with no target ("–") is dropped. The rewrite is said back.
"""

from __future__ import annotations

import re

_NOW = re.compile(
    r"^(?:current(?:ly)?|today|existing|as[\s-]?is|now|baseline|actual|present|heute|aktuell"
    r"|actual|atual|actuel(?:le)?|attuale|oggi)\b",
    re.IGNORECASE,
)
_WANTED = re.compile(
    r"^(?:target|future|planned|proposed|to[\s-]?be|new|requested|required|desired|ziel"
    r"|objetivo|cible|obiettivo|futuro|neu)\b",
    re.IGNORECASE,
)
_SAME = re.compile(r"^(?:same|unchanged|=|as\s+today|no\s+change|idem|gleich|igual)\.?$", re.I)
_DATED = re.compile(r"\bas\s+of\b|\bdate\b|\bstand\b|\bfecha\b", re.IGNORECASE)
_NONE = frozenset({"", "-", "–", "—", "n/a", "na", "none", "tbd", "?"})


def targets_only(text: str) -> tuple[str, str | None]:
    """``text`` with each current-vs-target table as its target column, and what was done
    (None when there was no such table)."""
    if "|" not in text:
        return text, None
    lines = text.split("\n")
    said = None
    for i, line in enumerate(lines):
        cells = _cells(line)
        if cells is None or len(cells) < 3:
            continue
        now = next((k for k, c in enumerate(cells) if k and _NOW.match(c)), None)
        wanted = next((k for k, c in enumerate(cells) if k and _WANTED.match(c)), None)
        if now is None or wanted is None:
            continue
        lines[i] = "| Item | Value |"
        said = f"the '{cells[wanted]}' column read; '{cells[now]}' is what runs today"
        for k in range(i + 1, len(lines)):
            row = _cells(lines[k])
            if row is None:
                break
            if set(lines[k].strip()) <= set("|-: \t"):
                lines[k] = "|---|---|"
                continue
            value = row[wanted] if wanted < len(row) else ""
            if now < len(row) and (_SAME.match(value) or (not value and _DATED.search(row[0]))):
                value = row[now]  # "same", or a blank beside the date the figures are as of
            lines[k] = "" if value.strip().lower() in _NONE else f"| {row[0]} | {value} |"
    return "\n".join(lines), said


def _cells(line: str) -> list[str] | None:
    """A pipe table's cells, or None when the line is no row of one."""
    stripped = line.strip()
    if not stripped.startswith("|") or stripped.count("|") < 3:
        return None
    return [c.strip() for c in stripped.strip("|").split("|")]
