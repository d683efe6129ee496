"""A whole-text regex run only over the stretches of the text that can hold its matches.

Some patterns open on a look behind or a word boundary, which Python's regex engine
cannot skip to: over a 10 KB message it tries a match at every position, a fraction of a
millisecond a pattern. When every match holds a character or a word that a plain
``str.find`` finds fast (a year, a dash, a hash), and a match can reach only so far from
it, the pattern is run over the stretches around those anchors alone.

The matches are the same as over the whole text when each stretch holds every match
around its anchors whole, with room past its end for a look ahead or a ``\\b`` to see the
real text, and overlapping stretches are merged: then no match crosses a stretch's edge,
and the scan of a stretch starts where the scan of the whole text would find nothing
before it. (``pos`` keeps the text before a stretch in view of a look behind; ``endpos``
would hide the text after it, hence the room.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator


def merged(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` (in order of their starts) with the overlapping and touching ones joined."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out


def finditer(
    pattern: re.Pattern[str], text: str, stretches: Iterable[tuple[int, int]]
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)``, looked for only within ``stretches`` (merged, in order)."""
    for start, end in stretches:
        yield from pattern.finditer(text, start, end)


def sub(
    pattern: re.Pattern[str],
    replace: Callable[[re.Match[str]], str],
    text: str,
    stretches: Iterable[tuple[int, int]],
) -> str:
    """``pattern.sub(replace, text)`` for a pattern that never matches empty, looked for
    only within ``stretches``."""
    pieces: list[str] = []
    done = 0
    for m in finditer(pattern, text, stretches):
        pieces += (text[done : m.start()], replace(m))
        done = m.end()
    return "".join(pieces) + text[done:] if pieces else text
