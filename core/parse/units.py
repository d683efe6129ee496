"""Requests counted in a unit the message defines: "1 session ≈ 12 LLM calls" and "90k
sessions/day" are 1.08M requests a day.

Product people count sessions, tickets and reports; the model counts calls. A unit is
defined in calls before or after the volume ("each ticket kicks off one agent run, and a
run averages 25 LLM calls", "~8 turns per sesion", "… across ~300 calls"); the request
rate is the volume times the definition, said back with both.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from rapidfuzz.distance import OSA

from core.parse import numbers, stretches
from core.parse.numbers import compact
from core.parse.openings import word_opening
from core.parse.products import PERIODS

if TYPE_CHECKING:
    from core.parse.facts import Reading

_FINER_UNITS = "calls|turns|messages|prompts|queries|completions|steps|passes"
"""What a unit is defined in, besides requests themselves."""
_UNIT_WORDS = f"{_FINER_UNITS}|requests"
SMALL_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty"
_DEFINED_AFTER = (
    r"s?\s*(?:≈|~|=|:|is|means|equals|averages|makes|fires|triggers|takes|needs|has|does"
    r"|uses|gets|goes\s+through)?\s*"
    r"(?:about\s+|around\s+|roughly\s+|~\s*|≈\s*)?(?P<n>\d+(?:\.\d+)?)(?P<k>k)?\s+(?:[a-z-]+\s+){0,2}?"
    rf"(?P<unit>{_UNIT_WORDS})\b(?:\s*[×x*]\s*(?P<more>\d+)\s+[a-z]+)?"
)
_SOME_UNIT = re.compile(rf"(?:\dk?|{SMALL_WORDS})\s+(?:[a-z-]+\s+){{0,2}}?(?:{_FINER_UNITS})\b")
_NO_UNITS = frozenset(
    {"per", "and", "the", "avg", "average", "peak", "token", "tok", "output", "input", "req"}
)
"""Words of a rate that are no unit a message defines in calls."""
_REQUEST_STEMS = ("call", "requ", "quer", "prom", "comp")
_DEFINED_BEFORE = re.compile(r"\b(?:1|one|a|an|each|every|per)\s+(?:[a-z-]+\s+)?$")


@functools.lru_cache(maxsize=256)
def _defined(noun: str) -> re.Pattern[str]:
    """How one unit is defined in requests ("session ≈ 12 LLM calls"), opening on the noun
    itself so the regex engine skips straight to it."""
    return re.compile(word_opening(noun) + _DEFINED_AFTER)


_UNIT_FIRST = re.compile(
    rf"(?P<n>\d+(?:\.\d+)?|{SMALL_WORDS})\s+(?:[a-z-]+\s+)?(?P<unit>{_UNIT_WORDS})\s+"
    rf"(?:(?:per|each|a|an|every)\s+(?P<noun>[a-z]+)|each\b)"
)
"""The unit said first: "~8 turns per call", "36 LLM calls each session"."""
_FINER_AT = re.compile(_FINER_UNITS)
_UNIT_AT = re.compile(_UNIT_WORDS)
"""Where a unit's word stands: ``_SOME_UNIT`` and ``_UNIT_FIRST`` are looked for only
around them (``core.parse.stretches``)."""


def _around(lower: str, unit: re.Pattern[str], before: int, after: int) -> list[tuple[int, int]]:
    """The stretches around each ``unit`` word: back over ``before`` runs of blanks and a
    word and then a figure's digits, on over ``after`` runs of blanks and a word."""
    spans: list[tuple[int, int]] = []
    n = len(lower)
    for m in unit.finditer(lower):
        at, end = m.start(), m.end()
        for _ in range(before):
            while at and lower[at - 1].isspace():
                at -= 1
            while at and (lower[at - 1].isalpha() or lower[at - 1] == "-"):
                at -= 1
        while at and (lower[at - 1].isdecimal() or lower[at - 1] == "."):
            at -= 1
        for _ in range(after):
            while end < n and lower[end].isspace():
                end += 1
            while end < n and lower[end].isalpha():
                end += 1
        spans.append((max(0, at - 2), min(n, end + 2)))
    return stretches.merged(spans)


@functools.lru_cache(maxsize=256)
def _across(noun: str) -> re.Pattern[str]:
    """The unit's calls said after what it spends: "each report burns ~1.8M output tokens
    in total across ~300 calls"."""
    return re.compile(
        word_opening(noun)
        + r"s?\b(?:[^.;!?\n]|(?<=\d)\.(?=\d)){0,60}?\b(?P<said>(?:across|over|in)\s+"
        rf"(?:about\s+|around\s+|roughly\s+|~\s*|≈\s*)?(?P<n>\d+(?:\.\d+)?)\s+"
        rf"(?:[a-z-]+\s+){{0,2}}?(?P<unit>{_FINER_UNITS})\b)"
    )


def _per_noun(noun: str, said_first: list[re.Match[str]]) -> re.Match[str] | None:
    """The unit said first, per ``noun`` or a misspelling of it ("8 turns per sesion"), of
    the message's units said first (found once for all its nouns)."""
    for found in said_first:
        said = found["noun"]
        if said is None or said.rstrip("s") == noun:
            return found
        if len(noun) >= 5 and OSA.distance(said.rstrip("s"), noun, score_cutoff=1) <= 1:
            return found
    return None


@functools.lru_cache(maxsize=256)
def _spawns(noun: str) -> re.Pattern[str]:
    """One unit starting others: "each ticket kicks off one agent run"."""
    return re.compile(
        word_opening(noun)
        + r"s?\s+(?:kicks\s+off|triggers|starts|spawns|launches|fires\s+off"
        rf"|opens)\s+(?P<n>\d+|{SMALL_WORDS}|an?)\s+(?:[a-z-]+\s+)?(?P<hop>[a-z]{{3,}}?)s?\b"
    )


def _spawned(noun: str, lower: str) -> tuple[re.Match[str], int, float] | None:
    """A unit that starts others, themselves defined in requests: the definition, where it
    is said from, and how many of the others one unit starts."""
    first = _spawns(noun).search(lower)
    if first is None or first["hop"] in PERIODS:
        return None
    for found in _defined(first["hop"]).finditer(lower, first.end()):
        if _DEFINED_BEFORE.search(lower, max(0, found.start() - 20), found.start()):
            said = first["n"]
            count = 1.0 if said in ("a", "an") else float(numbers.words([said]) or said)
            return found, first.start(), count
    return None


def defined_requests(reading: Reading) -> None:
    """Count requests, not the unit defined in them ("1 session ≈ 12 LLM calls" and "90k
    sessions/day" are 1.08M requests a day), said with both figures."""
    source = reading.sources.get("requests_per_day")
    value = reading.values.get("requests_per_day")
    if source is None or not isinstance(value, float):
        return
    lower = reading.lower
    some_unit = stretches.finditer(_SOME_UNIT, lower, _around(lower, _FINER_AT, 3, 0))
    if next(some_unit, None) is None:
        return  # no figure of turns, calls or steps anywhere: nothing defines the rate's unit
    rates = [reading.said(m) for name, _, m in reading.quantities if name == "requests_per_day"]
    said = " ".join([source, *rates]).lower()  # a peak's words and its average's
    defined: re.Match[str] | None = None
    start, spawned = 0, 1.0
    said_first: list[re.Match[str]] | None = None
    nouns = dict.fromkeys(w[:-1] if w.endswith("s") else w for w in re.findall(r"[a-z]{3,}", said))
    for noun in nouns:  # each once: a 10 KB message says its rates' nouns many times
        if noun in PERIODS or noun in _NO_UNITS:
            continue
        for found in _defined(noun).finditer(lower):
            before = _DEFINED_BEFORE.search(lower, max(0, found.start() - 20), found.start())
            if before is not None:
                defined, start = found, before.start()
                break
        else:
            if said_first is None:
                around = _around(lower, _UNIT_AT, 2, 2)
                said_first = list(stretches.finditer(_UNIT_FIRST, lower, around))
            unit_first = _per_noun(noun, said_first) or _across(noun).search(lower)
            if unit_first is not None:  # "36 turns per call", "… across ~300 calls"
                defined, start = unit_first, unit_first.start(
                    "said" if "said" in unit_first.re.groupindex else 0
                )
        if defined is None:
            hop = _spawned(noun, lower)  # "Each ticket kicks off one agent run, and a run
            if hop is not None:  # averages 25 LLM calls"
                defined, start, spawned = hop
        if defined is not None:
            break
    if defined is None or defined["unit"].rstrip("s") in said:
        return  # "5k calls a day, each call is 2 calls": counted in requests already
    unit = defined["unit"][:4]
    if unit in _REQUEST_STEMS and any(stem in said for stem in _REQUEST_STEMS):
        return  # "20,000 requests per minute (400 users, ~50 calls each)": the same requests
    per = float(numbers.words([defined["n"]]) or defined["n"]) * spawned
    groups = defined.groupdict()
    if groups.get("k"):
        per *= 1000  # "each eval job = 50k prompts"
    if groups.get("more"):
        per *= float(groups["more"])  # "… × 3 samples": each prompt sampled three times
    counted = next((r for r in [*reversed(rates), source] if noun in r.lower()), source)
    ends = tuple(f"← '{r}'" for r in (source, counted))  # the rate, said again below
    reading.understood[:] = [u for u in reading.understood if not u.endswith(ends)]
    del reading.values["requests_per_day"]
    reading.match = None
    rate = value * per
    definition = " ".join(reading.text[start : defined.end()].split())
    said = f"{counted}' × '{definition}"
    reading.put("requests_per_day", rate, f"{compact(rate)} requests/day", said)
    _unsay_lengths(reading, start, defined.end())


def _unsay_lengths(reading: Reading, start: int, end: int) -> None:
    """A length read inside a definition ("each eval job = 50k prompts") is no request's
    length: its say-back and its clash with the real one go."""
    for name in ("input_tokens", "output_tokens"):
        for length, m in reading.history.get(name, []):
            if m is None or not start <= m.toks[0].start < end:
                continue
            if length == reading.values.get(name):
                continue
            said = reading.said(m)
            reading.understood[:] = [u for u in reading.understood if not u.endswith(f"'{said}'")]
            clash = (f"two values for {name}", f"({length:g} and")
            reading.ambiguities[:] = [
                a for a in reading.ambiguities if not (a.startswith(clash[0]) and clash[1] in a)
            ]
