"""A figure said as an addition to the volume, and left out of it, is named in the reply.

"300M output tokens a day; marketing wants 10% of that again, plus the partner API which is
another 120M": when no pass has folded "10% of that again" or "another 120M" into the
volume, sizing 300M without a word would be confidently wrong. The reader cannot always do
the arithmetic people write, but it can always say which of their figures it did not use.
A figure is an addition when the words next to it say so ("another", "plus", "additional",
"on top", "again", "also") and nothing read so far came from it.
"""

from __future__ import annotations

import bisect
import re

from core.parse.facts import Reading
from core.parse.numbers import compact
from core.parse.terminals import Tok

_BEFORE = re.compile(
    r"\b(?:another|plus|additional|extra|also|adds?|adding|added)\b(?:\s+\S+){0,2}\s*$",
    re.IGNORECASE,
)
"""An adding word up to two words before the figure."""
_AFTER = re.compile(
    r"^\s*(?:\S+\s+){0,2}?(?:of\s+(?:that|those|them|it)\s+)?(?:again|on\s+top|more)\b",
    re.IGNORECASE,
)
"""An adding word up to two words after it ("10% of that again", "20% on top")."""
_NOT_A_VOLUME = re.compile(
    r"^\s*(?:ms|s|secs?|seconds?|min(?:ute)?s?|h(?:ou)?rs?|days?|weeks?|mo(?:nth)?s?|years?"
    r"|gpus?|nodes?|x|utili[sz]ation|util|of\s+capacity|discount|off|margin|a\s+month"
    r"|per\s+month|mom|m/m|yoy|y/y|qoq|a\s+year|per\s+year|growth|more\s+(?:at|months?))\b",
    re.IGNORECASE,
)
"""Words after a figure that make it a time, a count of hardware, a share or a rate of
growth: "12 more months", "also at 60% utilization", not an addition to the volume."""
_CLAUSE_END = re.compile(r"[.;!?\n]")
_VOLUMES = ("requests_per_day", "output_tokens_per_day")


def unread_additions(reading: Reading, counts: list[Tok]) -> None:
    """Name each added figure the volume does not include (see the module docstring)."""
    volumes = [(n, float(reading.values[n])) for n in _VOLUMES if n in reading.values]
    if not volumes:
        return
    name, volume = volumes[0]
    noun = _counted(reading.sources.get(name, ""))
    if noun is None and not any(w in reading.lower for w in _CUES):
        return  # most messages add nothing to their volume: one look decides it
    said = " ".join([*reading.understood, *reading.assumed, *reading.ambiguities])
    text = reading.text
    ends = [m.end() for m in _CLAUSE_END.finditer(text)]
    quoted: dict[str, bool] = {}
    for tok in counts:
        if tok.type not in ("NUM", "PCT"):
            continue
        if tok.type == "NUM" and not (isinstance(tok.value, float) and tok.value >= volume / 100):
            continue  # "another 4,000 reasoning tokens" beside a million requests a day
        figure = " ".join(text[tok.start : tok.end].split())
        if figure not in quoted:
            quoted[figure] = _quoted(figure, said)
        if quoted[figure]:
            continue
        k = bisect.bisect_right(ends, tok.start)
        start = ends[k - 1] if k else 0
        end = next((e - 1 for e in ends[k:] if e - 1 >= tok.end), len(text))
        before, after = text[start : tok.start], text[tok.end : end]
        if _NOT_A_VOLUME.match(after) or before.rstrip().lower().endswith(" at"):
            continue
        if not (_BEFORE.search(before) or _AFTER.match(after) or _same_noun(after, noun)):
            continue
        lead = re.split(r"[,()]", before)[-1].split()[-3:]  # "…out), and the 1.2M": "and the"
        words = " ".join([*lead, figure, *after.split()[:4]])
        reading.ambiguous(
            f"'{words}' is not in the {compact(volume)} {name.replace('_', ' ')} sized: "
            "say the total if it adds to it"
        )


_CUES = ("another", "plus", "additional", "extra", "also", "add", "again", "on top", "more")
"""The adding words ``_BEFORE`` and ``_AFTER`` look for, as a first cheap look."""


_NOUN_AFTER = re.compile(
    r"^[\d.,]+\s*[kmb]?\s+(?:[a-z-]+\s+)?(?P<noun>[a-z]{4,}s)\b", re.IGNORECASE
)
"""The plural noun a volume counts, right after its figure: "3.6M new listings a month"."""
_NOT_COUNTED = frozenset({"requests", "tokens", "calls", "queries", "prompts", "reqs", "toks"})
"""Nouns every volume shares: another figure of them is no copy of this one's."""


def _counted(source: str) -> str | None:
    """What the volume counts when it is a thing of the customer's ("listings", "tickets")."""
    m = _NOUN_AFTER.match(source)
    if m is None or m["noun"].lower() in _NOT_COUNTED:
        return None
    return m["noun"].lower()


def _same_noun(after: str, noun: str | None) -> bool:
    """A figure of the same things as the volume ("and the 1.2M existing listings")."""
    return (
        noun is not None
        and re.match(rf"^\s*(?:[a-z-]+\s+)?{re.escape(noun)}\b", after, re.IGNORECASE) is not None
    )


def _quoted(figure: str, said: str) -> bool:
    """Whether a say-back already names the figure as its own word, not inside another.

    Each place it stands is looked at, not the say-backs split into words first: the split
    of every say-back cost a millisecond on a long message, for a figure or two."""
    if figure not in said:
        return False  # the common case, and a plain look
    at = said.find(figure)
    while at != -1:  # "20 %", "~40": each place it stands, with no figure's part around it
        end = at + len(figure)
        if not (at and _joins(said[at - 1])) and not (end < len(said) and _joins(said[end])):
            return True
        at = said.find(figure, at + 1)
    return False


def _joins(char: str) -> bool:
    """Whether a character beside a figure would make it part of a longer one."""
    return char.isalnum() or char in "_.,"


