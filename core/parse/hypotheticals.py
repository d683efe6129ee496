"""A what-if the message itself sets aside: "(If they later stretch to 30 months we'd drop to
$33k, but price it as-is for now.)".

Deal talk is full of conditional offers. When the writer says to price the deal as it
stands, the offer's figures (its term, its price) are no part of the scenario: read, they
would replace the term and price said before them. The conditional clause is blanked
(spaces, so what follows keeps its place) before the tokenizer sees it, and said back.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_SET_ASIDE = re.compile(
    r"(?P<what>\b(?:if|should|in\s+case)\s+(?:they|we|the\s+customer|the\s+client)\b"
    r"(?:[^.;!?()\n]|(?<=\d)\.(?=\d)){3,160}?)"  # "$2.90": a decimal point ends no clause
    r",?\s*(?:but|though|however)\s*,?\s*(?:(?:let'?s|please|pls|just|we|i'?d)\s+)?"
    r"(?:price|quote|size|cost|run)\s+(?:it|this|the\s+deal|the\s+scenario)?\s*"
    r"(?:as[\s-]is|as\s+(?:it\s+)?stands|as\s+(?:stated|quoted|written)|for\s+now|at\s+list"
    r"|on\s+the\s+current\s+terms)",
    re.IGNORECASE,
)


_WHAT_IF = re.compile(
    r"(?:(?<=[.!?\n])|(?<=[.!?]\s))\s*(?P<what>(?:what\s+if|what\s+about\s+if|and\s+if|suppose"
    r"|hypothetically)\b[^?\n]{3,200}\?)",
    re.IGNORECASE,
)
"""A what-if asked after the ask ("… 800 in / 150 out. what if Black Friday peak is 10x
normal?"): a question about another load, not a change to this one (asked on its own, in a
thread, it is a follow-up, which ``core.parse.followups`` reads)."""


_RETRACTED: tuple[str, ...] = ("superseded", "outdated", "obsolete", "void", "withdrawn")
_RETRACTED += ("replaced", "no longer", "cancelled", "canceled")
_SUPERSEDED = re.compile(
    r"(?:(?<=[.!?\n])|(?<=[.!?]\s)|^)\s*(?P<what>(?:[^.;!?()\n]|(?<=\d)\.(?=\d)){3,160}?)"
    r"\s*[,;—–-]\s*(?:that'?s|that\s+is|which\s+is|it'?s|now|both|all)\s+(?:been\s+|now\s+)?"
    r"(?:superseded|outdated|obsolete|void|withdrawn|replaced|cancell?ed"
    r"|no\s+longer\s+(?:valid|relevant|applies))\b",
    re.IGNORECASE | re.MULTILINE,
)
"""An earlier version said and retracted in one breath: "Rev B had 16 GPUs at $3.05, that's
superseded"."""


def hypotheticals_set_aside(text: str) -> tuple[str, list[str]]:
    """``text`` with each what-if set aside blanked, and what is said of each."""
    lower = text.lower()
    said = (" if ", "(if ", "suppose", *_RETRACTED)
    if not any(w in lower for w in said):
        return text, []
    notes: list[str] = []

    def set_aside(note: str) -> Callable[[re.Match[str]], str]:
        def blank(m: re.Match[str]) -> str:
            notes.append(f"'{' '.join(m['what'].split())}': {note}")
            return _blanked(m, "what")

        return blank

    blank = set_aside("a what-if, set aside as asked")
    superseded = set_aside("superseded, as the message says; not read")
    asked = set_aside("a what-if about another load, not read (ask it in the thread)")

    text = _SET_ASIDE.sub(blank, text)
    if any(w in lower for w in _RETRACTED):
        text = _SUPERSEDED.sub(superseded, text)
    if "?" in text:
        text = _WHAT_IF.sub(asked, text)
    return text, notes


def _blanked(m: re.Match[str], group: str) -> str:
    """The match with one group's characters made spaces, so what follows keeps its place."""
    start, end = m.start(group) - m.start(), m.end(group) - m.start()
    return m.group()[:start] + " " * (end - start) + m.group()[end:]
