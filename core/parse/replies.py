"""A GPU settled by a reply in a pasted thread: "h100 or h200?" … "h200 👍".

In a thread the last word wins. A GPU asked about or corrected earlier ("on mi300x" …
"they signed for mi325x, not 300x" … "right, mi325x. thx Karl") is settled when a later
line says it alone, as an answer: that line holds the GPU and nothing but the words of
a reply ("right", "ok", "go with", "thanks"). The GPUs named before it were the
question, not the deployment, and are set aside, said.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.parse.facts import Reading

_SPEAKER = re.compile(r"^\s*(?:[A-Z][\w.'-]*\s+){0,2}[A-Z][\w.'-]*\s*:\s*")
"""A thread's speaker before the reply: "Elena V: right, mi325x"."""
_REPLY_WORDS = re.compile(
    r"\b(?:right|ok|okay|yes|yep|yeah|yup|sure|confirmed|correct|so|then|it'?s|its|is|go|going"
    r"|with|let'?s|lets|use|on|pls|please|the|final|answer|decided|they|want|picked|chose)\b"
    r"|\b(?:thx|thanks|thank\s+you|ty)\b.*$"
    r"|[^\w\s]",
    re.IGNORECASE,
)
"""Words a reply may say around the GPU it settles; a thanks ends the reply."""


def answered(reading: Reading, ids: list[str]) -> str | None:
    """The GPU of ``ids`` a later line settles alone, when it is named last of them all."""
    spans = {g: reading.gpu_last[g] for g in ids if g in reading.gpu_last}
    if len(spans) < 2 or "\n" not in reading.text:
        return None
    last = max(spans, key=lambda g: spans[g][0])
    start, end = spans[last]
    text = reading.text
    line_start = text.rfind("\n", 0, start) + 1
    if line_start == 0:
        return None  # the first line: nothing was asked before it
    line_end = text.find("\n", end)
    line_end = len(text) if line_end == -1 else line_end
    before = _SPEAKER.sub("", text[line_start:start])
    rest = _REPLY_WORDS.sub(" ", f"{before} {text[end:line_end]}")
    return last if not rest.strip() else None
