"""Volumes said as products: "80k DAU, each asks 15 times a day", "20,000 users x 5
sessions/day x 4 turns per session", "3,000 devs, ~40 agent runs a day, ~25 calls per run".

Product people count users, conversations and tickets, not requests. The request rate is
then a population times a chain of frequencies, each one per the thing before it:

- a population: a count of people or things ("80k DAU", "1,200 agents", "250k
  convos/day");
- frequencies, each "N <things> per <the previous thing>" ("4 turns per session"),
  "N <things> each", or "N <things> a day" (per member, a day).

The chain stops at the first figure that does not follow from the one before (a token
count, a price). Somewhere in it a day must be said (a daily population or a frequency
a day); the product is then ``requests_per_day``, said back with every factor. A request
rate said outright wins over the product. A user count with no frequency is asked
about, never taken as requests; a conversation a day with no turns stays one request.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rapidfuzz.distance import OSA

from core.parse import numbers
from core.parse.facts import QUANTITIES
from core.parse.numbers import compact
from core.parse.timeunits import MONTH_NAMES, seconds

if TYPE_CHECKING:
    from core.parse.facts import Reading
    from core.parse.tokens import Tok

_DAY = frozenset({"day", "daily", "d", "today", "workday", "business", "working", "weekday"})
_DAY_SECONDS = seconds("day")
_PERIODS = {
    **dict.fromkeys(_DAY, 1.0),
    **dict.fromkeys(("week", "wk", "weekly"), seconds("week") / _DAY_SECONDS),
    **dict.fromkeys(("month", "mo", "monthly", "mon"), seconds("month") / _DAY_SECONDS),
    **dict.fromkeys(MONTH_NAMES - {"may", "mar"}, seconds("month") / _DAY_SECONDS),
    **dict.fromkeys(("year", "yr", "yearly", "annually"), seconds("year") / _DAY_SECONDS),
}
"""Time words a count is said over, in days (a traffic month is 30 days, a year 365)."""
_DAU = re.compile(
    r"\s*(?:(?P<d>daus?|daily\s+active\s+users?|daily\s+users?)"
    r"|(?P<m>maus?|monthly\s+active\s+users?|waus?|weekly\s+active\s+[a-z]+s|weekly\s+actives))\b",
    re.IGNORECASE,
)
_DAU_BEFORE = re.compile(
    r"(?:\b(?P<d>daus?|daily\s+active\s+users?|daily\s+users?)"
    r"|\b(?P<m>maus?|monthly\s+active\s+users|waus?|weekly\s+active\s+users))"
    r"\s*(?:of|is|are|:|=|~|≈|at)?\s*$",
    re.IGNORECASE,
)
"""Daily active users count per day; monthly and weekly ones say no time of their own
(how often each asks does)."""
_SEGMENT = re.compile(r"[^,.;:()\n=×\d!?]*")
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)?|/")
_NOT_COUNTS = frozenset(
    {"tokens", "token", "tok", "toks", "requests", "reqs", "req", "rps", "qps", "gpus", "gpu"}
    | {"cards", "nodes", "servers", "boxes", "racks", "months", "days", "hours", "weeks"}
    | {"years", "minutes", "seconds", "ms", "dollars", "usd", "percent", "k", "m", "b", "bn"}
    | {"million", "billion", "thousand", "in", "out", "input", "output", "concurrent", "x"}
    | {"hundreds", "thousands", "millions", "billions", "dozens"}
)
"""Words after a number that make it a length, a rate or hardware, never a population."""
_PEOPLE = frozenset(
    {"users", "people", "employees", "staff", "seats", "customers", "members", "subscribers"}
    | {"devs", "developers", "engineers", "analysts", "agents", "reps", "students", "visitors"}
)
"""Populations that send requests themselves: a count of them alone is asked about."""
_EACH_BEFORE = re.compile(
    r"(?:\beach(?:\s+one|\s+[a-z]+(?=\s+is\b))?|\b(?:the\s+|an?\s+)?(?:average|typical|avg)\s+\w+"
    r"|\b(?:an?|each|every)\s+[a-z]+\s+(?:fans\s+out\s+(?:in)?to|spawns|kicks\s+off|triggers|makes)"
    r"|\b(?:one|an?|each|every|per)\s+(?:active\s+|daily\s+|typical\s+)?"
    r"(?:person|user|member|employee|student|customer|player)"
    r"(?:\s+(?:on\s+)?(?:average|avg))?)\s+"
    r"(?:is|makes|does|fires|triggers|sends|has|needs|takes|averages|=)?\s*"
    r"(?:about|around|roughly|~|≈)?\s*$",
    re.IGNORECASE,
)
"""Before a frequency, the member it counts for: "each one is ~20 calls", "the average
session is 6 turns"."""
_ONE_PER = re.compile(
    r"\bone\s+(?:[a-z-]+\s+)?(?:call|request|llm\s+call|model\s+call)\s+per\s+(?P<per>[a-z]+)",
    re.IGNORECASE,
)
"""A request per member said outright: the member's other counts (pages) are sizes."""
_ACTIVE_USERS = ("dau", "daily", "mau", "monthly", "wau", "weekly")
"""Words without which the DAU forms of a population are not looked for."""
_NOW_SAID = re.compile(r"\b(?:pilot|today|now|currently|beta)\b", re.IGNORECASE)
_AT_ROLLOUT = re.compile(
    r"\b(?P<n>\d[\d.,]*\s?[kKmM]?)\s+(?:at|after|by|for)\s+(?:the\s+)?(?:[\w-]+\s+)?"
    r"(?:rollout|launch|ga|go-live|general\s+availability)\b",
    re.IGNORECASE,
)
_SIZE_FOR_ROLLOUT = re.compile(
    r"\bsize\s+(?:it\s+)?for\s+(?:the\s+)?(?:[\w-]+\s+)?(?:rollout|launch|ga|go-live)\b", re.I
)
"""A population today and another at a rollout, with the rollout the one to size."""
_MIX_BEFORE = re.compile(r"\b(?:other|remaining|rest\s+is|rest)\s*[~≈]?\s*$", re.IGNORECASE)
_NOT_SHARES = frozenset({"utilization", "utilisation", "util", "capacity", "discount", "off"})
"""Words after a percentage that make it no share of a population."""
_GROWING = re.compile(
    r"\b(?:grow|grows|growing|growth|grown|grew|increase|increases|increased|rose|risen)\b"
    r"[^\d%.;!?]*$",
    re.I,
)
_TIMES_BEFORE = re.compile(r"[×x*]\s*[~≈]?\s*$")
_REQUEST_WORDS = frozenset({"requests", "reqs", "req"})
_ASKS = frozenset({"turns", "calls", "prompts", "messages", "queries", "questions", "steps"})
"""What a member asks, counted "on average" per member ("9.5 turns on average")."""
_FILLER = frozenset({"each", "apiece", "about", "around", "roughly", "some", "of", "the"})
MAX_PER_MEMBER = 1e5
"""Requests one member sends ("each", "per user"): agents send thousands, not millions."""
MAX_PER_MEMBER_A_DAY = 1e3
"""Said only "a day" ("20 requests a day"), a larger figure is the service's total."""
_MAX_COUNT = 1e10
"""More than the people on Earth is no population: a token count read by mistake."""


@dataclass(frozen=True)
class Factor:
    value: float
    noun: str
    per: str | None  # "per session" -> "session"; "each" -> "each"; "a day" -> None
    period: float | None
    """The days its count is said over (1: a day, 30: a month), or None when unsaid."""
    said: str


def multiply(reading: Reading, counts: list[Tok]) -> None:
    """Set ``requests_per_day`` from a population and its frequencies, when both are said."""
    text = reading.text
    lower = reading.lower
    daily_users = any(w in lower for w in _ACTIVE_USERS)
    chain: list[Factor] = []
    restated: list[str] = []
    for t in counts:
        if not isinstance(t.value, float) or t.value <= 0:
            continue
        if t.type == "PCT" and len(chain) != 1:
            continue
        if t.text.lower() == "one" and text[max(0, t.start - 5) : t.start].lower().endswith(
            "each "
        ):
            continue  # "each one does around 8 requests": the 8 is the frequency
        if not chain:
            population = _population(text, t, daily_users)
            if population is not None and not _EACH_BEFORE.search(
                text, max(0, t.start - 30), t.start
            ):  # "each runs about four sessions a week": a frequency, not who asks
                chain.append(population)
            continue
        factor = _share(text, t) if len(chain) == 1 else None
        if factor is None and t.type != "PCT":  # a percent is a share or nothing
            factor = _factor(text, t)
        if factor is not None and len(chain) > 1 and _restates(factor, chain[-1]):
            restated.append(f"'{factor.said}' read in place of '{chain[-1].said}'")
            chain[-1] = factor  # "6 turns each. sorry, 4 turns each": one count said twice
            continue
        if factor is None or not _follows(factor, chain[-1]):
            other = _population(text, t, daily_users)
            if len(chain) > 1 and (other is None or other.noun != "users"):
                break  # a funnel's result ("→ 100k WAU") starts the chain afresh
            if other is not None:
                chain = [other]
            continue
        chain.append(factor)
    if not chain:
        return
    one = _ONE_PER.search(text) if len(chain) > 1 and " per " in lower else None
    if one is not None and chain[0].noun.rstrip("s")[:5] == one["per"].rstrip("s")[:5]:
        said_one = " ".join(one.group().split())  # "one extraction call per document": the
        chain = [chain[0], Factor(1.0, "call", "each", None, said_one)]  # pages are a size
    later_people = (
        _AT_ROLLOUT.search(text) if len(chain) > 1 and _NOW_SAID.search(chain[0].said) else None
    )
    if later_people is not None and _SIZE_FOR_ROLLOUT.search(text):
        count = numbers.amount(later_people["n"])  # "5k users in the pilot today, 40k at the
        if count:  # Q3 rollout, size for rollout": the rollout's population is sized
            chain = [
                Factor(count, chain[0].noun, None, chain[0].period, later_people.group()),
                *chain[1:],
            ]
    people = chain[0]
    if len(chain) == 1:
        said_volume = any(k in reading.values for k in QUANTITIES)
        if people.noun in _PEOPLE and not said_volume:
            reading.ambiguous(
                f"'{people.said}': say how many requests each sends a day, "
                "e.g. '15 requests per user per day'"
            )
        return
    said_over = [f.period for f in chain[1:] if f.period] or [f.period for f in chain if f.period]
    if not said_over:
        return  # "3k seats, 5 turns each": per what time, nobody said
    period = said_over[-1]  # how often each asks, else how many there are, per that time
    for f in chain:
        _replace(reading, f.said)
    if "requests_per_day" in reading.values:
        return  # a request rate said outright wins over the product
    rate = 1.0
    for f in chain:
        rate *= f.value
    for t in counts:  # a factor's own doubt ("'40 mil': read as million") goes with it
        if t.note and any(t.text in f.said for f in chain):
            if t.unsure:
                reading.ambiguous(t.note)
            elif "read as a correction" in t.note:  # "6 turns each … 4 turns avg, 6 was the max"
                reading.assume(t.note)
    rate /= period
    reading.match = None
    said = "' × '".join(f.said for f in chain)
    reading.put("requests_per_day", rate, f"{compact(rate)} requests/day", said)
    for note in restated:
        reading.assume(note)


def _population(text: str, t: Tok, daily_users: bool) -> Factor | None:
    """ "80k DAU", "1,200 agents", "250k convos/day" (``daily_users``: "dau" or "daily" is
    somewhere in the text, else the DAU forms are not looked for)."""
    if not isinstance(t.value, float) or t.value >= _MAX_COUNT or t.type != "NUM":
        return None
    value = t.value
    dau = before = None
    if daily_users:
        dau = _DAU.match(text, t.end)
        before = _DAU_BEFORE.search(text[max(0, t.start - 30) : t.start])
    if dau or before:
        start = t.start - (len(before.group()) if before and not dau else 0)
        end = dau.end() if dau else t.end
        monthly = bool((dau and dau["m"]) or (before and before["m"] and not dau))
        return Factor(value, "users", None, None if monthly else 1.0, _said(text, start, end))
    if not text[t.end : t.end + 2].strip().isalpha():
        return None  # a population's noun follows its number: "1,200 agents"
    head = text[t.end : t.end + 30].split(None, 2)[:2]
    nouns = [h.lower().split("/")[0].rstrip(",.;:)") for h in head]
    at = _plural_at(nouns)
    if at is None:
        return None  # most numbers are followed by a unit: looked at before any regex
    words = _words(text, t.end)
    if len(words) <= at or words[at] != nouns[at] or (at and words[0] in _NOT_COUNTS):
        return None  # "10 s is fine": a time, not a population
    period = next((_PERIODS[w] for w in words[at + 1 : at + 4] if w in _PERIODS), None)
    return Factor(value, words[at], None, period, _said(text, t.start, _segment_end(text, t.end)))


def _plural_at(nouns: list[str]) -> int | None:
    """Where a population's plural noun is: right after the number ("1,200 agents") or
    after one word naming its kind ("100k agent runs a day")."""
    for k, noun in enumerate(nouns):
        if noun.endswith("s") and len(noun) >= 4 and noun not in _NOT_COUNTS:
            return k
        if noun in _NOT_COUNTS or not noun.isalpha():
            return None
    return None


def _share(text: str, t: Tok) -> Factor | None:
    """ "maybe 40% use the assistant daily": the share of a population that asks."""
    if t.type != "PCT" or not isinstance(t.value, float) or not 0 < t.value <= 100:
        return None
    words = _words(text, t.end)
    if words[:1] in (["a"], ["per"], ["every"], ["/"]) and words[1:2] and words[1] in _PERIODS:
        return None  # "grows ten percent a month": a rate of change, not who asks
    if _GROWING.search(text, max(0, t.start - 20), t.start):
        return None  # "expecting that to grow 40% quarter over quarter"
    if words[:2] == ["of", "capacity"] or (words[:1] and words[0] in _NOT_SHARES):
        return None  # "the peak sits at 70% of capacity": a utilization, not who asks
    if _MIX_BEFORE.search(text, max(0, t.start - 12), t.start):
        return None  # "RAG is 70% of 1M calls/day, agents are the other 30%": a mix, all sized
    period = next((_PERIODS[w] for w in words if w in _PERIODS), None)
    said = _said(text, t.start, _segment_end(text, t.end))
    if words[:1] == ["also"]:  # "every ticket gets a triage call and 40% also get a second"
        return Factor(1 + t.value / 100, "share", "each", period, said)
    return Factor(t.value / 100, "share", "each", period, said)


def _factor(text: str, t: Tok) -> Factor | None:
    """ "4 turns per session", "80 tickets a day each", "15 times per day"."""
    segment = _SEGMENT.match(text, t.end)
    assert segment is not None
    words = _words(text, t.end)
    if t.type == "MULT":  # "15 times", "15x"
        if any(w in ("average", "avg", "mean", "peak", "baseline") for w in words[:4]):
            return None  # "~3x the daily average": a peak's ratio, not how often
        words = ["times", *words]
    nouns = [w for w in words if w not in _FILLER]
    if not nouns or nouns[0] in _NOT_COUNTS - _REQUEST_WORDS:
        return None
    per: str | None = "each" if any(w in ("each", "apiece") for w in words) else None
    if per is None and words[1:3] == ["on", "average"] and nouns[0] in _ASKS:
        per = "each"  # "612,000 conversations in September, 9.5 turns on average"
    if per is None and _EACH_BEFORE.search(text, max(0, t.start - 30), t.start):
        per = "each"  # "each one is ~20 LLM calls"
    if per is None and (
        t.type == "XNUM" or _TIMES_BEFORE.search(text, max(0, t.start - 4), t.start)
    ):
        per = "each"  # "10k teams × 8 seats": a count per member of the one before
    period: float | None = None
    noun = nouns[0]
    named = False
    for k, w in enumerate(words):
        if w in ("per", "a", "an", "every", "/") and k + 1 < len(words):
            what = words[k + 1]
            if what in _PERIODS:
                period = _PERIODS[what]
            elif per is None or per == "each":
                per = what
            if k > 0 and words[k - 1] not in _FILLER and not named:
                noun, named = words[k - 1], True  # "sessions per user per day": sessions
        elif w in ("daily", "monthly", "weekly"):
            period = _PERIODS[w]
    if per is None and period is None:
        return None
    value = float(t.value) if isinstance(t.value, float) else 0.0
    if value > (MAX_PER_MEMBER if per is not None else MAX_PER_MEMBER_A_DAY * (period or 1)):
        return None  # "2M requests/day" beside "3k seats" is the total, not each one's
    end = t.end + len(segment.group().rstrip())
    return Factor(value, noun, per, period, _said(text, t.start, end))


def _restates(factor: Factor, before: Factor) -> bool:
    """Whether ``factor`` says the count ``before`` said, again ("6 turns each … 4 turns
    each"): the same things per the same member, never multiplied by each other."""
    same_time = factor.period == before.period
    return factor.noun == before.noun and factor.per == before.per and same_time


def _follows(factor: Factor, before: Factor) -> bool:
    """Whether ``factor`` counts things per ``before``'s ("4 turns per session")."""
    if factor.per is None or factor.per == "each":
        return True
    if factor.per in ("user", "person", "head", "member", "seat", "employee", "agent"):
        return True
    if before.noun == "share" and factor.per not in _PERIODS:
        return True  # "~3% open the assistant, avg 5 turns per conversation": what they open
    stem = factor.per.rstrip("s")
    return bool(stem) and before.noun.rstrip("s").startswith(stem[: max(3, len(stem) - 1)])


def _words(text: str, at: int) -> list[str]:
    segment = _SEGMENT.match(text, at)
    raw = segment.group().lower().replace("/", " / ") if segment else ""
    return _WORD.findall(raw)


def _segment_end(text: str, at: int) -> int:
    """Where the words after a number end (its clause, before the next figure)."""
    segment = _SEGMENT.match(text, at)
    return at + len(segment.group().rstrip()) if segment else at


def _said(text: str, start: int, end: int) -> str:
    """The factor's words, without the "×" that joins it to its neighbours."""
    return _JOINING_TIMES.sub("", " ".join(text[start:end].split()))


_JOINING_TIMES = re.compile(r"^[×x*]\s+|\s+[×x*]$")


def _replace(reading: Reading, said: str) -> None:
    """Drop a rate the grammar read from one factor ("250k convos/day", "20 requests a day")."""
    source = reading.sources.get("requests_per_day")
    if source is not None and (source in said or said in source):
        reading.withdraw("requests_per_day")


_FINER_UNITS = "calls|turns|messages|prompts|queries|completions|steps"
"""What a unit is defined in, besides requests themselves."""
_UNIT_WORDS = f"{_FINER_UNITS}|requests"
_SMALL_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty"
_DEFINED_AFTER = (
    r"s?\s*(?:≈|~|=|:|is|means|equals|averages|makes|fires|triggers|takes|needs|has|does"
    r"|uses|gets|goes\s+through)?\s*"
    r"(?:about\s+|around\s+|roughly\s+|~\s*|≈\s*)?(?P<n>\d+(?:\.\d+)?)(?P<k>k)?\s+(?:[a-z-]+\s+){0,2}?"
    rf"(?P<unit>{_UNIT_WORDS})\b(?:\s*[×x*]\s*(?P<more>\d+)\s+[a-z]+)?"
)
_SOME_UNIT = re.compile(rf"(?:\dk?|{_SMALL_WORDS})\s+(?:[a-z-]+\s+){{0,2}}?(?:{_FINER_UNITS})\b")
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
    return re.compile(rf"\b{re.escape(noun)}{_DEFINED_AFTER}")


_UNIT_FIRST = re.compile(
    rf"(?P<n>\d+(?:\.\d+)?|{_SMALL_WORDS})\s+(?:[a-z-]+\s+)?(?P<unit>{_UNIT_WORDS})\s+"
    rf"(?:(?:per|each|a|an|every)\s+(?P<noun>[a-z]+)|each\b)"
)
"""The unit said first: "~8 turns per call", "36 LLM calls each session"."""


@functools.lru_cache(maxsize=256)
def _across(noun: str) -> re.Pattern[str]:
    """The unit's calls said after what it spends: "each report burns ~1.8M output tokens
    in total across ~300 calls"."""
    return re.compile(
        rf"\b{re.escape(noun)}s?\b(?:[^.;!?\n]|(?<=\d)\.(?=\d)){{0,60}}?\b(?P<said>(?:across|over|in)\s+"
        rf"(?:about\s+|around\s+|roughly\s+|~\s*|≈\s*)?(?P<n>\d+(?:\.\d+)?)\s+"
        rf"(?:[a-z-]+\s+){{0,2}}?(?P<unit>{_FINER_UNITS})\b)"
    )


def _per_noun(noun: str, lower: str) -> re.Match[str] | None:
    """The unit said first, per ``noun`` or a misspelling of it ("8 turns per sesion")."""
    for found in _UNIT_FIRST.finditer(lower):
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
        rf"\b{re.escape(noun)}s?\s+(?:kicks\s+off|triggers|starts|spawns|launches|fires\s+off"
        rf"|opens)\s+(?P<n>\d+|{_SMALL_WORDS}|an?)\s+(?:[a-z-]+\s+)?(?P<hop>[a-z]{{3,}}?)s?\b"
    )


def _spawned(noun: str, lower: str) -> tuple[re.Match[str], int, float] | None:
    """A unit that starts others, themselves defined in requests: the definition, where it
    is said from, and how many of the others one unit starts."""
    first = _spawns(noun).search(lower)
    if first is None or first["hop"] in _PERIODS:
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
    if not _SOME_UNIT.search(reading.lower):
        return  # no figure of turns, calls or steps anywhere: nothing defines the rate's unit
    rates = [reading.said(m) for name, _, m in reading.quantities if name == "requests_per_day"]
    said = " ".join([source, *rates]).lower()  # a peak's words and its average's
    lower = reading.lower
    defined: re.Match[str] | None = None
    start, spawned = 0, 1.0
    nouns = dict.fromkeys(w[:-1] if w.endswith("s") else w for w in re.findall(r"[a-z]{3,}", said))
    for noun in nouns:  # each once: a 10 KB message says its rates' nouns many times
        if noun in _PERIODS or noun in _NO_UNITS:
            continue
        for found in _defined(noun).finditer(lower):
            before = _DEFINED_BEFORE.search(lower, max(0, found.start() - 20), found.start())
            if before is not None:
                defined, start = found, before.start()
                break
        else:
            unit_first = _per_noun(noun, lower) or _across(noun).search(lower)
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


_MINUTES_PER_CALL = re.compile(
    r"\b(?:average|avg)\s+call\s+(?:is\s+|of\s+|lasts\s+)?(?:about\s+|~\s*)?"
    r"(?P<a>\d+(?:\.\d+)?)\s*min(?:ute)?s?\b"
    r"|\b(?P<b>\d+(?:\.\d+)?)\s*min(?:ute)?s?\s+(?:average|avg|on\s+average|per\s+call|a\s+call)\b"
    r"|\b(?:average|avg)\s+(?:of\s+)?(?:about\s+|~\s*)?(?P<c>\d+(?:\.\d+)?)\s*min(?:ute)?s?\b",
    re.IGNORECASE,
)
_MINUTES = re.compile(r"\d+(?:\.\d+)?\s*min(?:ute)?s?\b")
"""The minutes of a call, whose "not read as a latency" note the product answers."""
_TURNS_PER_MINUTE = re.compile(
    rf"\b(?P<n>\d+(?:\.\d+)?|{_SMALL_WORDS})\s+(?:llm\s+)?(?:turns?|times)\s+(?:per|a|each)\s+minute\b",
    re.IGNORECASE,
)


_CALL_MINUTES = re.compile(
    r"(?P<n>\d[\d,.]*)\s*(?P<scale>[kKmMbB])?\s+(?:call\s+)?minutes\s+(?:per|a|each)\s+"
    r"(?P<per>day|week|month|year)\b",
    re.IGNORECASE,
)


def call_minutes(reading: Reading) -> None:
    """Voice agents count calls and minutes, the model counts turns: "2,500 calls a day,
    average call 3.5 minutes, about five LLM turns per minute" is 43,750 requests a day
    (and "five turns per minute" is no rate of its own)."""
    if "minute" not in reading.lower:
        return
    turns = _TURNS_PER_MINUTE.search(reading.text)
    if turns is None:
        return
    per_minute = float(numbers.words([turns["n"].lower()]) or turns["n"])
    calls = [
        (value, reading.said(m))
        for name, value, m in reading.quantities
        if name == "requests_per_day" and "call" in reading.said(m).lower()
    ]
    minutes = _MINUTES_PER_CALL.search(reading.text)
    spent = _CALL_MINUTES.search(reading.text)
    if calls and minutes is not None:
        value, said = calls[-1]
        per_call = float(minutes["a"] or minutes["b"] or minutes["c"])
        rate = value * per_call * per_minute
        said = f"{said}' × '{' '.join(minutes.group().split())}"
    elif spent is not None:  # "5.4M call minutes per month"
        total = numbers.digits(spent["n"])
        if total is None:
            return
        total *= numbers.SCALES.get((spent["scale"] or "").lower(), 1.0)
        rate = total / _PERIODS[spent["per"].lower()] * per_minute
        said = " ".join(spent.group().split())
    else:
        return
    reading.withdraw("requests_per_day")
    peak = reading.sources.get("peak_to_average")
    if peak and f"{turns['n']} times" in peak:
        reading.withdraw("peak_to_average")  # "speaks about 4 times a minute": no peak
    used = ("two values for requests_per_day", *(f"'{m}" for m in _MINUTES.findall(said)))
    reading.ambiguities[:] = [a for a in reading.ambiguities if not a.startswith(used)]
    ends = tuple(f"← '{c}'" for _, c in calls)  # the calls, said again with their turns
    reading.understood[:] = [u for u in reading.understood if not u.endswith(ends)]
    reading.match = None
    words = " ".join(turns.group().split())
    reading.put("requests_per_day", rate, f"{compact(rate)} requests/day", f"{said}' × '{words}")


_EACH_MAKES = re.compile(
    r"\beach(?:\s+one|\s+of\s+them)?\s+(?:generates|produces|uses|consumes|burns|outputs"
    r"|does|needs)\s+(?:about\s+|around\s+|roughly\s+|~\s*)?$",
    re.IGNORECASE,
)


def each_ones_volume(reading: Reading, counts: list[Tok]) -> None:
    """ "9,000 seats, each one generates roughly 40k output tokens per day": a day's
    volume said of each member is the members' volume."""
    said = reading.sources.get("output_tokens_per_day")
    value = reading.values.get("output_tokens_per_day")
    at = reading.text.find(said) if said else -1
    if at < 0 or not isinstance(value, float) or "tok" not in (said or "").lower():
        return
    if not _EACH_MAKES.search(reading.text, max(0, at - 40), at):
        return
    daily = any(w in reading.lower for w in _ACTIVE_USERS)
    before = [t for t in counts if t.end <= at and t.type == "NUM" and t.text.lower() != "one"]
    people = _population(reading.text, before[-1], daily) if before else None
    if people is None or people.period is not None or people.value < 2:
        return
    total = value * people.value
    reading.values["output_tokens_per_day"] = total
    reading.understood.append(
        f"{compact(total)} output tokens/day ← '{people.said}' × '{said}' (each one's)"
    )



_CONCURRENT_TURNS = re.compile(
    r"(?P<c>\d[\d,]*)\s+(?:concurrent|simultaneous|parallel)\s+(?:calls|sessions|conversations"
    r"|users|streams|agents|chats)\s+(?:at|each\s+(?:at|doing|making|sending))?\s*(?:about\s+|~\s*)?"
    r"(?P<n>\d+(?:\.\d+)?)\s+(?:turns|requests|calls|messages)\s*(?:/|per\s+|an?\s+)"
    r"(?P<unit>s|sec|second|min|minute|h|hr|hour)\b(?:\s+each)?",
    re.IGNORECASE,
)
"""Sessions open at once, each asking at a rate: "1,100 concurrent calls at ~4 turns/min each"."""
_AT_PEAK_BEFORE = re.compile(r"\b(?:at|during)\s+(?:the\s+)?peak\b[^.;!?\n]*$", re.IGNORECASE)
_UNIT_PER_DAY = {"s": 86400, "sec": 86400, "second": 86400, "min": 1440, "minute": 1440}
_UNIT_PER_DAY |= {"h": 24, "hr": 24, "hour": 24}


def _quotes_part(line: str, said: str) -> bool:
    """Whether a say-back line quotes a piece of ``said`` ("'4 turns/min' is the peak")."""
    quoted = re.findall(r"'([^']+)'", line)
    return bool(quoted) and quoted[0] in said and "peak" in line


def concurrent_turns(reading: Reading) -> None:
    """Sessions open at once times each one's rate is the request rate ("at peak they run
    1,100 concurrent calls at ~4 turns/min each": 4,400 turns a minute), said; the
    sessions are the load, not a batch to price."""
    if "concurrent" not in reading.lower and "simultaneous" not in reading.lower:
        return
    found = _CONCURRENT_TURNS.search(reading.text)
    if found is None:
        return
    sessions = numbers.digits(found["c"])
    if not sessions:
        return
    rate = sessions * float(found["n"]) * _UNIT_PER_DAY[found["unit"].lower()]
    said = " ".join(found.group().split())
    reading.withdraw("requests_per_day")
    reading.withdraw("concurrency")
    reading.match = None
    reading.understood[:] = [u for u in reading.understood if not _quotes_part(u, said)]
    ratio = reading.values.get("peak_to_average")
    at_peak = _AT_PEAK_BEFORE.search(reading.text, max(0, found.start() - 30), found.start())
    if at_peak is not None and isinstance(ratio, float) and ratio > 1:
        reading.put("requests_per_day", rate / ratio, f"{compact(rate / ratio)} requests/day", said)
        reading.assume(f"'{said}' is the peak: ÷ {ratio:g} (peak to average)")
        return
    reading.put("requests_per_day", rate, f"{compact(rate)} requests/day", said)
