"""Names ruled out: "bf16 — they won't accept fp8", "no H100s", "fp8 is rejected", "FP8 (they
don't want FP4 quality risk)".

A precision or a GPU said only to refuse it is no choice; read as one, it is a second
value for the field and, said last, the one used. The refused name is dropped and the
reply says so. "no, fp8" (a comma after the "no") is a correction, not a refusal: the
corrections pass reads it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse.lexicon import BREAK
from core.parse.openings import words_opening

if TYPE_CHECKING:
    from core.parse.tokens import Tok

_RULED = frozenset({"PRECISION", "GPU"})
_ACCEPT = r"\s+(?:accept|take|use|do|go\s+with)"
_WANT = r"\s+(?:accept|take|use|do|go\s+with|want|trust|like)"  # "they don't want FP4"
_REFUSED_BEFORE = re.compile(
    words_opening(
        (
            *("no", "not", "never", "without", "avoid", "except"),
            *(r"rather\s+than", r"instead\s+of"),
            *(r"anything\s+but", r"won'?t" + _ACCEPT),
            *(w + _ACCEPT for w in ("can(?:no|')t", "cannot")),
            *(w + _WANT for w in ("don'?t", r"do\s+not", "doesn'?t", r"does\s+not")),
            *("refuses?", "rejects?", "rejected", r"ruled\s+out"),
            *("nicht", "kein", "keine", "pas", "não", "nao", r"en\s+vez\s+de", "anstatt", "statt"),
        ),
        ignorecase=True,
    )
    + r"(?i:\s+(?:the\s+|any\s+)?$)"
)
_REFUSED_AFTER = re.compile(
    r"^s?\s+(?:is|are|was|were)\s+(?:rejected|out|ruled\s+out|off\s+the\s+table|a\s+no[\s-]?go"
    r"|not\s+(?:ok|okay|acceptable|allowed|an\s+option|possible|available|feasible|an?\s+fit))\b",
    re.IGNORECASE,
)
_CUES = (
    *("no", "not", "never", "without", "avoid", "except", "rather", "instead", "but", "won"),
    *("don't", "dont", "doesn't", "nicht", "kein", "pas", "não", "nao", "vez de", "statt"),
)
_CUES_AFTER = ("reject", "out", "table", "no-go", "no go", "not ")


def ruled_out(toks: list[Tok], text: str) -> list[str]:
    """Drop the precisions and GPUs ``text`` refuses (each becomes a break); say each."""
    lower = text.lower()
    if not any(c in lower for c in _CUES) and not any(c in lower for c in _CUES_AFTER):
        return []  # most messages refuse nothing: substring looks decide it
    names = [k for k, t in enumerate(toks) if t.type in _RULED]
    if not names:
        return []
    notes: list[str] = []
    for k in names:
        t = toks[k]
        before = _REFUSED_BEFORE.search(text, max(0, t.start - 30), t.start)
        after = _REFUSED_AFTER.match(text[t.end : t.end + 40]) if before is None else None
        if before is None and after is None:
            continue
        if sum(1 for j in names if toks[j].type == t.type) < 2:
            continue  # the only one said: a refusal of nothing chosen ("not sure, H100?")
        if before is not None:
            said = text[before.start() : t.end]
        else:
            assert after is not None
            said = text[t.start : t.end + after.end()]
        notes.append(f"'{' '.join(said.split())}': {t.text} ruled out, not read")
        toks[k] = type(t)(BREAK, t.text, None, t.start, t.end)
    return notes
