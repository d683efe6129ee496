"""Which caveats matter most to one answer: deduplicated, most relevant first.

An answer carries every caveat its figures rest on: its own (does not fit, queues, a
figure carried from another GPU), those of the measurements it was read or fitted
from, and its serving stack's. A roofline fitted to a stack's measurements drags in
the write-ups of other models, and two write-ups often say the same thing with
another number. ``rank_caveats`` orders them so a reader sees the ones about this
answer first; how many to show is the renderer's choice, and the answer's JSON
keeps them all.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence

from core.catalog import Catalog

FITS, CARRIED, OWN, STACK, OTHER = range(5)
"""Tiers, most relevant first: the answer does not fit or queues; its figure was carried
from another GPU, batch or fit; this model's measurements (and what the answer leaves
out); the stack's caveats; anything else (other models' write-ups)."""

_FITS = ("does not fit in memory", "wait for kv-cache room")
_CARRIED = (
    "estimated from ",
    "throughput estimated",
    "estimated by the roofline",
    "scaled by the roofline",
    "assumes a fixed speculative-decoding",
)
_CARRIED_WITHIN = ("nvlink domains of", "recommends at least")
_OWN = ("decode only", "architecture partly estimated")
_WORD = re.compile(r"[a-z]+|\d[\d.,]*")


def rank_caveats(
    caveats: Iterable[str], *, own: Collection[str] = (), stack_wide: Collection[str] = ()
) -> list[str]:
    """``caveats`` deduplicated and ordered most relevant first (stable within a tier).

    ``own``: caveats of this model's own measurements; ``stack_wide``: the serving
    stack's. A caveat that says what another already says (the same words with another
    number, or a subset of its words) is dropped in favour of the better-ranked one.
    """
    ordered = sorted(dict.fromkeys(caveats), key=lambda c: _rank(c, own, stack_wide))
    kept: list[tuple[str, frozenset[str]]] = []
    for caveat in ordered:
        words = _words(caveat)
        if any(_same(words, seen) for _, seen in kept):
            continue
        kept.append((caveat, words))
    return [c for c, _ in kept]


def caveat_origins(
    catalog: Catalog,
    *,
    model: str,
    gpu: str,
    stack: str,
    measurements: Sequence[str | None] = (),
) -> tuple[set[str], set[str]]:
    """The caveats of the answer's own measurements (those named, else ``model``'s on
    ``gpu``), and the caveats of ``stack``: the ``own`` and ``stack_wide`` of
    ``rank_caveats``."""
    named = {m for m in measurements if m}
    own = {
        c
        for m in catalog.measurements
        if m.id in named or (not named and m.model == model and m.gpu == gpu)
        for c in m.caveats
    }
    stack_wide = set(catalog.stacks.get(stack).caveats) if stack in catalog.stacks else set()
    return own, stack_wide - own


def _rank(caveat: str, own: Collection[str], stack_wide: Collection[str]) -> tuple[int, int]:
    """The tier, and within it what the engine says of this answer before what a
    write-up says of its measurement."""
    text = caveat.lower()
    engine_said = text.startswith(_OWN) or " architecture partly estimated" in text
    return _tier(caveat, own, stack_wide), 0 if engine_said else 1


def _tier(caveat: str, own: Collection[str], stack_wide: Collection[str]) -> int:
    text = caveat.lower()
    if any(text.startswith(p) or p in text for p in _FITS):
        return FITS
    if text.startswith(_CARRIED) or any(p in text for p in _CARRIED_WITHIN):
        return CARRIED
    if caveat in own or text.startswith(_OWN) or " architecture partly estimated" in text:
        return OWN
    if caveat in stack_wide:
        return STACK
    return OTHER


def _same(a: frozenset[str], b: frozenset[str]) -> bool:
    """Equal words, or (for four words or more) one caveat's words all within the other's."""
    small, big = sorted((a, b), key=len)
    return small == big or (len(small) >= 4 and small <= big)


def _words(caveat: str) -> frozenset[str]:
    """The caveat's words, every number one word: '18.6 s' and '133.1 s' read alike."""
    return frozenset("#" if w[0].isdigit() else w for w in _WORD.findall(caveat.lower()))
