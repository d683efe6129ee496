"""A volume said for later: "35M output tokens/day today and 3x that by mid-year (size
for the mid-year number)", "double that for next year's plan — size for the doubled number".

Customers give today's volume and what it becomes. Which one to size for is theirs to
say: with an instruction to size for the later figure, the day's volume is multiplied
and the multiplication said; without one, today's volume is sized and the multiple is
named back, so nobody reads a sizing for today as one for next year.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse.numbers import amount, compact, count
from core.parse.openings import words_opening
from core.parse.peaks import UNITS

if TYPE_CHECKING:
    from core.parse.facts import Reading

_FACTOR_WORDS = {"double": 2.0, "twice": 2.0, "triple": 3.0, "quadruple": 4.0}
_PARTS = {"half": 2.0, "third": 3.0, "quarter": 4.0}
_CUES = ("add ", "half ", "third of ", "quarter of ", "same size")
"""Words that open a later volume besides the factor words ("add 20%", "half that")."""
_MULTIPLE = re.compile(
    r"(?:\b(?P<n>\d+(?:\.\d+)?)\s*[x×]|\b(?P<word>double|twice|triple|quadruple))\s+"
    r"(?:that|this|it|the\s+(?:volume|traffic|load|number|pilot|poc)|by|before)\b"
    r"(?P<tail>[^.;!?\n(—,]{0,40})"
    r"|\b(?P<copies>\d{1,3}|two|three|four|five|six|eight|ten)\s+(?:more\s+)?[a-z]+\s+of\s+"
    r"(?:that|the)\s+same\s+size\b"
    r"|\b(?P<part>half|a\s+third\s+of|a\s+quarter\s+of)\s+(?:that|this|it)\b"
    r"|\badds?\s+(?:another\s+|an\s+extra\s+)?(?P<pct>\d{1,3}(?:\.\d+)?)\s*%\s+(?:of\s+\w+\s+)?"
    r"(?:on\s+top(?:\s+of\s+(?:that|this|it))?|to\s+(?:that|this|it))[^.;!?\n(—,]{0,40}"
)
"""Looked for in the lower-cased text: no case-insensitive alternation over 10 KB."""
_A_TIME_OF_DAY = re.compile(
    r"\s*(?:in|during|at|from|around|after|between|over)\s+(?:the\s+|our\s+)?(?:first|last|evening"
    r"|evenings|morning|mornings|lunch|lunchtime|open|close|night|nights|rush|launch\s+hour"
    r"|prime\s*time|business\s+hours|office\s+hours|\d{1,2}\s*(?::\d\d)?\s*(?:am|pm|h)?\s*[-–]"
    r"|\d{1,2}\s*(?:am|pm)\b)"
)
"""A multiple said of a time of day ("3x that in the first half hour after the open", "2.5x
that from 7–11pm"): a peak over the day's average, not a later volume."""
_DURING_AN_EVENT = re.compile(
    r"\b(?:during|at|over)\s+(?:the\s+)?(?:close|open|launch|month[\s-]end|quarter[\s-]end"
    r"|year[\s-]end|black\s+friday|sale|sales|campaign)\b"
)
"""A multiple the load runs at during an event ("5x that and they can't queue during
close"): a peak over the day's average, sized through the ratio."""
_OVERHEAD = re.compile(r"\b(?:retr(?:y|ies)|overhead|re-?runs?)\b")
"""What adds to today's load, not a later one: "tool-call retries add another 10% on top"."""
_PEAK_BEFORE = re.compile(r"\b(?:peaks?|peak\s+hour|busiest|busy|spikes?|bursts?)\b[^.;!?\n]*$")
_TIMES_THAT = re.compile(r"[x×]\s+(?:that|this|it|the)\b")
_PLANNED_FOR = r"\s+(?:it\s+)?for\s+(?:twice|double|triple|\d+(?:\.\d+)?\s*[x×])"
_USED_FOR = (
    r"\s+(?:for\s+)?the\s+(?:post|after|new|future|later|target|updated|revised)"
    r"[\w-]*\s+(?:[\w-]+\s+)?(?:state|scenario|plan|phase|number|figure|volume|load|case)\b"
)
_IS_WHAT = r"\s+what\s+(?:we|they|you)(?:'re|\s+are)?\s+(?:size|sizing|plan|planning)\s+for\b"
_SIZE_FOR_IT = re.compile(
    words_opening(
        (
            r"size[ds]?\s+(?:it\s+|this\s+|the\s+lease\s+)?(?:for|on|to)\s+(?:the\s+)?"
            r"(?:[\w'-]+[\s-]){0,2}?(?:number|figure|volume|traffic|load|plan|case)\b",
            r"size\s+(?:for|on)\s+(?:that|this|it)\b",
            r"same\s+(?:as\s+(?:above|before)\s+)?but\b",
            *(w + _PLANNED_FOR for w in ("plan", "size", "provision")),
            *(w + _USED_FOR for w in ("size", "use")),
            *(w + _IS_WHAT for w in ("that'?s", r"that\s+is", r"which\s+is")),
        ),
        ignorecase=True,
    )
)
_SIZE_FOR_FIGURE = re.compile(
    words_opening(
        (
            *(r"size\s+(?:it\s+|this\s+)?(?:for|on|to)", r"go\s+with", r"going\s+with"),
            *(r"settled?\s+on", r"signed\s+off\s+on", r"agreed\s+on", r"lock(?:ed)?\s+in"),
        ),
        ignorecase=True,
    )
    + r"(?i:\s+(?:the\s+)?[~≈]?"
    r"(?P<n>\d[\d.,]*(?:\s?[kmb]\b)?)(?!\s*(?:x|×|%|tok|ms|s\b|months?|gpus?|[a-z]*\d)))"
)
"""A bare figure to size for ("150k requests/day today, 400k by launch, size for 400k"), or
the one chosen of a range ("15k req/day, maybe 20k; let's go with 18k")."""
_CHOOSING = ("size", "go with", "going with", "settle", "signed off", "agreed on", "lock")
_VOLUMES = ("output_tokens_per_day", "requests_per_day")


def later(reading: Reading) -> None:
    """Apply "Nx that" to the day's volume when the message asks to size for it."""
    text = reading.text
    lower = reading.lower
    if any(w in lower for w in _CHOOSING):
        sized_for(reading)
    hint = _TIMES_THAT.search(lower)
    words = [lower.find(w) for w in (*_FACTOR_WORDS, *_CUES) if w in lower]
    if hint is None and not words:
        return  # most messages say no later multiple: looked for cheaply first
    start = min([*words, hint.start() if hint else len(lower)])
    found = _MULTIPLE.search(lower, max(0, start - 30))  # "4 regions of that same size"
    if found is None:
        return
    if _PEAK_BEFORE.search(lower, max(0, found.start() - 30), found.start()):
        return  # "peak hour about 2.2x that": a peak ratio, read as such elsewhere
    if found["part"]:
        factor = 1 / _PARTS[next(w for w in found["part"].split() if w in _PARTS)]
        if _SIZE_FOR_IT.search(text) is None:
            return  # "half that" with no plan to size for it: not a later volume
    elif found["pct"]:
        factor = 1 + float(found["pct"]) / 100  # "add 20% on top of that"
    elif found["copies"]:  # "they'll run 4 regions of that same size"
        factor = float(count(found["copies"]) or 0)
    else:
        factor = float(found["n"]) if found["n"] else _FACTOR_WORDS[found["word"]]
    tail = found["tail"] or ""
    if tail and (_A_TIME_OF_DAY.match(tail) or _DURING_AN_EVENT.search(tail)):
        if "peak_to_average" not in reading.values and 1 < factor <= 50:
            said = " ".join(text[found.start() : found.end()].split())
            reading.values["peak_to_average"] = factor  # "3x that in the first half hour"
            reading.understood.append(f"peak {factor:g}x the average ← '{said}'")
        return
    name = next((n for n in _VOLUMES if reading.values.get(n) is not None), None)
    if name is None or not 0.01 <= factor <= 100 or factor == 1:
        return
    said = " ".join(text[found.start() : found.end()].split())
    near = lower[max(0, found.start() - 30) : found.end()]
    if found["pct"] and _OVERHEAD.search(near):  # "retries add another 10% of steps on top"
        _scaled(reading, name, factor, said, "on today's load")
        return
    asked = _SIZE_FOR_IT.search(text)
    if asked is None:
        today = f"{compact(float(reading.values[name]))} {name.replace('_', ' ')}"
        reading.ambiguous(
            f"'{said}': sized for today's {today}; say 'size for {factor:g}x' to size for it"
        )
        return
    reading.scales[:] = [s for s in reading.scales if s[1] != factor]  # applied here
    _scaled(reading, name, factor, said, f"as asked ('{' '.join(asked.group().split())}')")


def _scaled(reading: Reading, name: str, factor: float, said: str, why: str) -> None:
    scaled = reading.values[name] * factor
    reading.values[name] = scaled
    reading.understood.append(f"{compact(scaled)} {UNITS[name]}: × {factor:g} ('{said}'), {why}")


def sized_for(reading: Reading) -> None:
    """ "size for 400k": the figure said earlier as the later volume is the one sized, in
    the unit of the day's volume already read."""
    found = _SIZE_FOR_FIGURE.search(reading.text)
    name = next((n for n in _VOLUMES if reading.values.get(n) is not None), None)
    figure = amount(found["n"]) if found is not None else None
    if found is None or name is None or figure is None or figure < MIN_FIGURE:
        return
    old = reading.values[name]
    if figure == old or not old / 100 <= figure <= old * 100:
        return
    if f"'{found['n']} " in f"'{reading.sources.get(name, '')}":
        return  # "size it for 1M convos/day", each convo 7 turns: 7M already rests on it
    reading.values[name] = figure
    said = " ".join(found.group().split())
    reading.understood.append(f"{compact(figure)} {UNITS[name]} ← '{said}' (not {compact(old)})")
    reading.assume(f"'{said}' read as {UNITS[name]}, like the volume said before it")


MIN_FIGURE = 1000.0
"""A bare figure this large is a volume; a smaller one is a count of something else."""
