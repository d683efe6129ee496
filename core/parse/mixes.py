"""Request shapes that differ by part: one fleet's lengths are the parts' average.

"search summarizer at 300k req/day (3k in / 250 out) and email drafter at 100k/day (1k in /
450 out)", "Mix is 60% short (500 in / 100 out) and 40% long (3,000 in / 600 out)". Read
one after another, the parts' lengths are two values for one field and the last would
win: the fleet would be sized as if every request were the last part's. The parts share
one deployment, so what it serves is their request-weighted average (the tokens a day
over the requests a day), said with the parts it came from.

A part is a volume said of its own (summed by ``core.parse.sums``) or a share of the day
("60% short"); each length is the part's that it follows. Only when every part has its
own length, one each, is the average taken: anything less stays two values, asked.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse.facts import LENGTHS
from core.parse.numbers import compact

if TYPE_CHECKING:
    from core.parse.facts import Reading

_SHARE = re.compile(r"(?<![\d.,])(?P<pct>\d{1,2}(?:\.\d)?)\s*%")
_SHARE_REACH = 40
"""Characters from a share to its part's first length: "40% long (3,000 in / 600 out)"."""


def mixed_lengths(reading: Reading) -> None:
    flagged = [n for n in LENGTHS if f"two values for {n} " in " ".join(reading.ambiguities)]
    if not flagged:
        return  # one length each: nothing to average (most messages)
    parts = _volume_parts(reading) or _share_parts(reading)
    if parts is None:
        return
    total = sum(weight for _, weight, _ in parts)
    starts = [at for at, _, _ in parts]
    for name in flagged:
        lengths = _one_each(reading, name, starts)
        if lengths is None:
            continue
        mean = sum(w * n for (_, w, _), n in zip(parts, lengths, strict=True)) / total
        reading.values[name] = round(mean)
        twice = f"two values for {name} "
        reading.ambiguities[:] = [a for a in reading.ambiguities if not a.startswith(twice)]
        terms = " + ".join(
            f"{said} × {n:,}" for (_, _, said), n in zip(parts, lengths, strict=True)
        )
        side = name.split("_")[0]
        reading.understood.append(
            f"{round(mean):,} {side} tokens per request, the parts' average weighted by "
            f"requests: ({terms}) / {_whole(parts)}"
        )


def _volume_parts(reading: Reading) -> list[tuple[int, float, str]] | None:
    """Each part's place, requests a day and words, when the volume sized is their sum."""
    said = [(v, m) for v, m in reading.history.get("requests_per_day", []) if m is not None]
    total = reading.values.get("requests_per_day")
    if len(said) < 2 or not isinstance(total, float):
        return None
    if abs(sum(float(v) for v, _ in said) - total) > total / 100:
        return None  # not parts of the volume sized: a correction, a peak, a history
    return [(m.toks[0].start, float(v), compact(float(v))) for v, m in said]


def _share_parts(reading: Reading) -> list[tuple[int, float, str]] | None:
    """Each part's place, share and words when the day is split in shares that add up to
    it, each followed by its lengths ("60% short (500 in / 100 out) and 40% long (…)"),
    and the whole day's volume put back where a share of it had been taken."""
    if "%" not in reading.text:
        return None
    firsts = sorted(
        m.toks[0].start for n in LENGTHS for _, m in reading.history.get(n, []) if m is not None
    )
    shares = [
        s
        for s in _SHARE.finditer(reading.text)
        if any(s.end() <= at <= s.end() + _SHARE_REACH for at in firsts)
    ]
    if len(shares) < 2 or abs(sum(float(s["pct"]) for s in shares) - 100) > 1:
        return None
    said = [(float(v), m) for v, m in reading.history.get("requests_per_day", []) if m is not None]
    before = [(v, m) for v, m in said if m.toks[-1].end <= shares[0].start()]
    if not before:
        return None
    whole, whole_m = before[-1]
    taken = reading.values.get("requests_per_day")
    if taken != whole:
        share_said = [s.group() for s in shares]
        reading.understood[:] = [
            u for u in reading.understood if not any(f"× '{w}" in u for w in share_said)
        ]
        said_words = reading.text[whole_m.toks[0].start : whole_m.toks[-1].end]
        reading.values["requests_per_day"] = whole
        reading.understood.append(
            f"{compact(whole)} requests/day in all ← '{said_words}' "
            f"({' + '.join(share_said)} of it)"
        )
    return [(s.start(), whole * float(s["pct"]) / 100, s.group()) for s in shares]


def _one_each(reading: Reading, name: str, starts: list[int]) -> list[int] | None:
    """The length each part says, a part's being the one said after its start and before
    the next part's; None unless every part says exactly one."""
    spans = list(zip(starts, [*starts[1:], len(reading.text)], strict=True))
    found: list[list[int]] = [[] for _ in starts]
    for value, m in reading.history.get(name, []):
        if m is None:
            return None  # a length from a table or a pair: not placed in the prose
        at = m.toks[0].start
        part = next((i for i, (s, e) in enumerate(spans) if s <= at < e), None)
        if part is None:
            return None  # a length said before any part: the shape of all, or another's
        found[part].append(int(value))
    if any(len(f) != 1 for f in found):
        return None
    return [f[0] for f in found]


def _whole(parts: list[tuple[int, float, str]]) -> str:
    if all(said.endswith("%") for _, _, said in parts):
        return "100%"
    return compact(sum(weight for _, weight, _ in parts))
