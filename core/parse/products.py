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

import bisect
import re
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.parse import numbers, stretches
from core.parse.facts import QUANTITIES
from core.parse.numbers import compact
from core.parse.timeunits import MONTH_NAMES, seconds

if TYPE_CHECKING:
    from core.parse.facts import Reading
    from core.parse.tokens import Tok

_DAY = frozenset({"day", "daily", "d", "today", "workday", "business", "working", "weekday"})
_DAY_SECONDS = seconds("day")
PERIODS = {
    **dict.fromkeys(_DAY, 1.0),
    **dict.fromkeys(("week", "wk", "weekly"), seconds("week") / _DAY_SECONDS),
    **dict.fromkeys(("month", "mo", "monthly", "mon"), seconds("month") / _DAY_SECONDS),
    **dict.fromkeys(MONTH_NAMES - {"may", "mar"}, seconds("month") / _DAY_SECONDS),
    **dict.fromkeys(("year", "yr", "yearly", "annually"), seconds("year") / _DAY_SECONDS),
    **dict.fromkeys(("hour", "hr", "hourly"), seconds("hour") / _DAY_SECONDS),
    **dict.fromkeys(("día", "dia", "giorno"), 1.0),  # "60 consultas al día"
}
"""Time words a count is said over, in days (a traffic month is 30 days, a year 365)."""
_DAU = re.compile(
    r"\s*(?:(?P<d>daus?|daily\s+active\s+(?:users?|[a-z]{4,}s)|daily\s+users?)"
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
    | {"min", "mins", "sec", "secs", "hr", "hrs", "h", "s"}
    | {"million", "billion", "thousand", "in", "out", "input", "output", "concurrent", "x"}
    | {"hundreds", "thousands", "millions", "billions", "dozens"}
    | {"reasoning", "thinking", "context"}
    | {"sequences", "seqs", "streams", "slots"}  # "192 sequences across the cluster": a batch
)
"""Words after a number that make it a length, a rate or hardware, never a population."""
_LENGTH_BEFORE = re.compile(
    r"\b(?:reasoning|thinking|think|tokens?|toks?|prompt|input|output|context|completion|plus)"
    r"\s*(?:[:=]|is|of|at)?\s*(?:~|about|around|roughly|≈)?\s*$",
    re.IGNORECASE,
)
"""Words before a figure a call that make it a request's length ("reasoning ~5k/call"),
no count of calls."""
_PEOPLE = frozenset(
    {"users", "people", "employees", "staff", "seats", "customers", "members", "subscribers"}
    | {"devs", "developers", "engineers", "analysts", "agents", "reps", "students", "visitors"}
)
"""Populations that send requests themselves: a count of them alone is asked about."""
_EACH_BEFORE = re.compile(
    r"(?:\bhar\s+[a-z]+(?:\s+[a-z]+)?\s+(?:mein|me|main|ke\s+paas)"  # Hindi: "in each"
    r"|\bcada\s+(?:uno|una|um|uma)\s+(?:hace|faz|envía|envia|manda|tiene|tem|con|com)"
    r"(?:\s+(?:unas|unos|umas|uns|cerca\s+de))?"  # "cada uno hace unas 60 consultas al día"
    r"|\beach\s+in"  # "50k descriptions a day, each in 4 languages"
    r"|\beach(?:\s+one|\s+[a-z]+(?=\s+is\b))?|\bevery\s+[a-z]+(?=\s+is\b)"
    r"|\b(?:the\s+|an?\s+)?(?:average|typical|avg)\s+\w+"
    r"|\b(?:an?|each|every)\s+[a-z]+\s+(?:fans\s+out\s+(?:in)?to|spawns|kicks\s+off|triggers|makes"
    r"|making|triggering|issuing|sending|generating|running"
    r"|(?:gets\s+|is\s+|are\s+)?(?:split|broken|divided|chunked)\s+into)"
    r"|\beach\s+(?:split|broken|divided|chunked|cut)\s+into"
    r"|\bper\s+[a-z]+(?:\s+[a-z]+)?\s+(?:we|they|it)\s+(?:do|does|make|makes|run|runs|fire"
    r"|fires|send|sends|get|gets)"  # "Per phone call we do 1 summary + 4 LLM calls"
    r"|\beach\s+(?:daily\s+)?[A-Za-z]{2,12}\s+(?:does|makes|sends|runs|has|opens|starts|fires"
    r"|averages|asks|submits|requires|needs|takes|triggers|involves|generates|uses|gets)"
    # "each DAU does ~4 chat sessions", "each document requires 3 model calls"
    r"|\b(?:runs|kicks\s+off|triggers|starts|fires)\s+an?\s+(?:[a-z-]+\s+){0,2}?"
    r"(?:averaging|of|with)"  # "each query runs an agent loop averaging 5 LLM calls"
    r"|\b(?:one|an?|each|every|per)\s+(?:active\s+|daily\s+|typical\s+)?"
    r"(?:person|user|member|employee|student|customer|player)"
    r"(?:\s+(?:on\s+)?(?:average|avg))?)\s+"
    r"(?:is|makes|does|fires|triggers|sends|has|needs|takes|averages|averaging|with|having"
    r"|lasting|spanning|=)?\s*"
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
_NOT_SHARES = frozenset(
    {"utilization", "utilisation", "util", "capacity", "discount", "off"}
    | {"growth", "increase", "uplift", "yoy", "mom", "qoq", "annual", "annually", "headroom"}
)
"""Words after a percentage that make it no share of a population."""
_GROWING = re.compile(
    r"\b(?:grow|grows|growing|growth|grown|grew|increase|increases|increased|rose|risen)\b"
    r"[^\d%.;!?]*$",
    re.I,
)
_EVERY_SPAN = re.compile(
    r"\s*(?:every|each)?\s*[\d.,]+\s*(?:seconds?|secs?|s|minutes?|mins?|hours?|hrs?)\b",
    re.IGNORECASE,
)
"""A count said with the span it recurs over after it ("one request every 10 seconds")."""
_TIMES_BEFORE = re.compile(r"[×x*]\s*[~≈]?\s*$")
_REQUEST_WORDS = frozenset({"requests", "reqs", "req"})
_ASKS = frozenset({"turns", "calls", "prompts", "messages", "queries", "questions", "steps"})
"""What a member asks, counted "on average" per member ("9.5 turns on average")."""
_FILLER = frozenset(
    {"each", "apiece", "about", "around", "roughly", "some", "of", "the", "llm", "ai", "model"}
)
_MEMBER_NOUNS = frozenset(
    {"call", "calls", "request", "requests", "turn", "turns", "session", "sessions", "ticket"}
    | {"tickets", "document", "documents", "conversation", "conversations", "message", "chat"}
)
"""A noun after a qualifier in "per customer call", "per support ticket": the member."""
_ADVERBS = frozenset({"daily", "nightly", "weekly", "monthly", "hourly", "yearly"})
"""How often, before a count's noun: "2 daily shifts" counts shifts."""
MAX_PER_MEMBER = 1e5
"""Requests one member sends ("each", "per user"): agents send thousands, not millions."""
MAX_PER_MEMBER_A_DAY = 1e3
"""Said only "a day" ("20 requests a day"), a larger figure is the service's total."""
_MAX_COUNT = 1e10
"""More than the people on Earth is no population: a token count read by mistake."""


_HOUR = PERIODS["hour"]
_OVER_HOURS = re.compile(
    r"\s*over\s+(?:an?|the|their|each)\s+(?P<h>\d{1,2})[\s-]*(?:hours?|hrs?|h)\s+"
    r"(?:shift|day|workday|window|business\s+day)\b",
    re.IGNORECASE,
)
"""The hours a rate per hour runs a day: "40 calls per hour over an 8-hour shift"."""
_SHIFT_BEFORE = re.compile(
    r"\b(?P<h>\d{1,2})[\s-]*(?:hours?|hrs?|h)\s+(?:shifts?|workdays?|days?)\b(?![^.;\n]*\bover\b)",
    re.IGNORECASE,
)
"""The hours of a member's day said before the rate per hour: "8-hr shifts, each agent
handles ~6 calls/hr"."""
_TIMES_HOURS = re.compile(
    r"\s*(?:[x×*]\s*)?~?(?P<h>\d{1,2})\s+(?:working\s+|business\s+|active\s+|office\s+|work\s+)?"
    r"(?:hours?|hrs?|h)\b(?:\s*(?:a|per|/)\s*day)?",
    re.IGNORECASE,
)
"""The hours said as one more factor: "7,000 devs x 40 completions/hr x 8 working hrs"."""


@dataclass(frozen=True)
class Factor:
    value: float
    noun: str
    per: str | None  # "per session" -> "session"; "each" -> "each"; "a day" -> None
    period: float | None
    """The days its count is said over (1: a day, 30: a month), or None when unsaid."""
    said: str
    end: int = -1
    """Where its words end in the text, when they take in a figure of their own ("40
    completions/hr x 8 working hrs"): a figure before it is no factor of its own."""
    shown: str | None = None
    """How it is said back, when not by ``said`` alone (frequencies added up)."""


def multiply(reading: Reading, counts: list[Tok]) -> None:
    """Set ``requests_per_day`` from a population and its frequencies, when both are said."""
    text = reading.text
    lower = reading.lower
    daily_users = any(w in lower for w in _ACTIVE_USERS)
    each_said = "each" in lower  # calls said of each member before them: looked for only then
    chain: list[Factor] = []
    restated: list[str] = []
    ahead: Factor | None = None  # a count per member said before the members
    again: Factor | None = None  # a frequency said again over another time
    taken = _ratios_said(reading)
    for t in counts:
        if not isinstance(t.value, float) or t.value <= 0:
            continue
        if _within(taken, t.start):
            continue  # "peak-to-avg about 3 overall, each call = 6 turns": the 3 is the ratio
        if chain and t.start < chain[-1].end:
            continue  # the hours a factor per hour took in: "… x 8 working hrs"
        if t.type == "PCT" and len(chain) != 1:
            continue
        if t.text.lower() == "one" and text[max(0, t.start - 5) : t.start].lower().endswith(
            "each "
        ):
            continue  # "each one does around 8 requests": the 8 is the frequency
        if not chain:
            per_member = _factor(text, t) if ahead is None else None
            if ahead is None and each_said and (per_member is None or per_member.per == "each"):
                named = _calls_of_each(text, t)
                if named is not None and per_member is not None:  # its own words said back
                    named = Factor(named.value, named.noun, named.per, None, per_member.said)
                per_member = named or per_member
            if (
                per_member is not None
                and per_member.per not in (None, "each")
                and per_member.period is None  # "220 notes/hour per hospital × 45": a rate
            ):
                ahead = per_member  # "there are 5 replies per conversation and …"
                continue
            population = _population(text, t, daily_users)
            if population is not None and not _EACH_BEFORE.search(
                text, max(0, t.start - 30), t.start
            ):  # "each runs about four sessions a week": a frequency, not who asks
                chain.append(population)
                if ahead is not None and _follows(ahead, population):
                    chain.append(ahead)  # "5 replies per conversation and ~100k conversations"
            continue
        factor = _share(text, t) if len(chain) == 1 else None
        if factor is None and t.type != "PCT":  # a percent is a share or nothing
            factor = _factor(text, t)
        if factor is not None and len(chain) > 1 and _restates(factor, chain[-1]):
            restated.append(f"'{factor.said}' read in place of '{chain[-1].said}'")
            chain[-1] = factor  # "6 turns each. sorry, 4 turns each": one count said twice
            continue
        if factor is not None and _over_another_time(factor, chain):
            again = factor  # "2,640 completions per seat per month (≈120 a workday x 22)"
            break
        if factor is None or not _follows(factor, chain[-1]):
            other = _population(text, t, daily_users)
            if len(chain) > 1 and (other is None or other.noun != "users"):
                break  # a funnel's result ("→ 100k WAU") starts the chain afresh
            if other is not None:
                chain = [other]
                if ahead is not None and _follows(ahead, other):
                    chain.append(ahead)  # "each run is … 8 LLM calls. ~45k runs/day"
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
    if len(chain) == 2:
        _add_siblings(text, counts, chain)
    if len(chain) > 1:
        chain[0] = _counted_again(text, counts, chain, daily_users, reading)
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
    if any(_EVERY_SPAN.match(text, text.find(f.said) + len(f.said)) for f in chain[1:]):
        return  # "each sends one request every 10 seconds": a rate, each_ones_volume's
    for f in chain if again is None else [*chain, again]:
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
    said = "' × '".join(f.shown or f.said for f in chain)
    reading.put("requests_per_day", rate, f"{compact(rate)} requests/day", said)
    firsts = tuple(f"'{f.said.split()[0]} " for f in chain)
    reading.ambiguities[:] = [  # "'150,000 daily': tokens or requests?" asked of a factor
        a for a in reading.ambiguities if not ("tokens or requests?" in a and a.startswith(firsts))
    ]
    for note in restated:
        reading.assume(note)


_AGAIN = re.compile(
    r"\b(?:now|use|using|actually|correct(?:ed|ion)?|updated?|latest|says|instead|after|right"
    r"|really|more\s+like|closer\s+to)\b",
    re.IGNORECASE,
)
"""Words near a population said again that make it the count to use: "their investor
deck from last week says 55k DAU", "they're at 320 agents now"."""


_EACH_NAMED = re.compile(
    r"\beach\s+(?:[a-z-]+\s+)?(?P<noun>[a-z]{3,})\s+(?:is|=|has|makes|needs)\b[^.;!?\n]*$",
    re.IGNORECASE,
)
"""The member a count per "each" is said of, before the count: "each agent run is 1 planner
call + …": the run."""


_NO_COUNTS = ("peak_to_average", "max_ttft_s")
"""Fields whose figure is a ratio or a target: never a count to multiply (a share, "25% daily
active", is one, whatever it was first read as)."""


def _ratios_said(reading: Reading) -> list[tuple[int, int]]:
    """Where those fields' figures stand, joined and in order (a long message says dozens)."""
    return stretches.merged(
        sorted(
            (m.toks[0].start, m.toks[-1].end)
            for name in _NO_COUNTS
            for _, m in reading.history.get(name, [])
            if m is not None
        )
    )


def _within(spans: list[tuple[int, int]], at: int) -> bool:
    """Whether ``at`` falls inside one of ``spans`` (joined, in order): a bisect, not a walk."""
    k = bisect.bisect_right(spans, (at, sys.maxsize)) - 1
    return k >= 0 and spans[k][0] <= at < spans[k][1]


def _calls_of_each(text: str, t: Tok) -> Factor | None:
    """Calls said of each member named before them, the members counted after ("each agent
    run is 1 planner call + … = 8 LLM calls. ~45k runs/day"): calls per that member."""
    named = _EACH_NAMED.search(text, max(0, t.start - 60), t.start)
    words = _words(text, t.end)
    if named is None or not isinstance(t.value, float) or not words:
        return None
    calls = next((w for w in words[:3] if w in _ASKS), None)
    if calls is None or "token" in " ".join(words[:4]):
        return None  # "each query is ~3k prompt tokens": a length, no count of calls
    found = re.search(rf"\b{calls}\b", text[t.end :], re.IGNORECASE)
    stop = t.end + found.end() if found is not None else _segment_end(text, t.end)
    said = " ".join(text[named.start() : stop].split())  # "each agent run is … 8 LLM calls"
    return Factor(t.value, calls, named["noun"].lower(), None, said)


def _counted_again(
    text: str, counts: list[Tok], chain: list[Factor], daily_users: bool, reading: Reading
) -> Factor:
    """The chain's population, or the same population counted again later in the message
    with a word that makes it the one to use ("~40k DAU … deck says 55k DAU … use 55k")."""
    first = chain[0]
    start = text.find(first.said)
    after = max(start + len(first.said), max(f.end for f in chain))
    for t in reversed(counts):
        if t.start <= after or not isinstance(t.value, float) or t.value == first.value:
            continue
        again = _population(text, t, daily_users)
        if again is None or again.noun != first.noun:
            continue
        if _AGAIN.search(text, max(after, t.start - 60), t.end + 40) is None:
            continue
        reading.assume(f"'{again.said}' said later, in place of '{first.said}'")
        return Factor(again.value, first.noun, first.per, first.period, again.said)
    return first


def _population(text: str, t: Tok, daily_users: bool) -> Factor | None:
    """ "80k DAU", "1,200 agents", "250k convos/day" (``daily_users``: "dau" or "daily" is
    somewhere in the text, else the DAU forms are not looked for)."""
    if not isinstance(t.value, float) or t.value >= _MAX_COUNT or t.type != "NUM":
        return None
    value = t.value
    if _DOTTED_THOUSANDS.fullmatch(t.text):
        value = float(t.text.replace(".", ""))  # "2.500 agentes": no fraction of a population
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
    at = _plural_at(nouns, head)
    if at is None:
        return None  # most numbers are followed by a unit: looked at before any regex
    words = _words(text, t.end)
    if len(words) <= at or words[at] != nouns[at] or (at and words[0] in _NOT_COUNTS):
        return None  # "10 s is fine": a time, not a population
    period = next((PERIODS[w] for w in words[at + 1 : at + 4] if w in PERIODS), None)
    return Factor(value, words[at], None, period, _said(text, t.start, _segment_end(text, t.end)))


_DOTTED_THOUSANDS = re.compile(r"\d{1,3}(?:\.\d{3})+")
_ACRONYMS = re.compile(r"[A-Z]{2,}s\b")


_KINDS_OF = frozenset({"sales", "operations", "ops", "analytics", "news", "logistics", "claims"})
"""Words ending in "s" that name a kind of the plural after them, not what is counted."""


def _plural_at(nouns: list[str], head: list[str]) -> int | None:
    """Where a population's plural noun is: right after the number ("1,200 agents") or
    after one word naming its kind ("100k agent runs a day"); a plural acronym ("1,400
    PRs") is one however short."""
    for k, noun in enumerate(nouns):
        if _ACRONYMS.match(head[k]) and noun not in _NOT_COUNTS:  # "24 GPUs": no population
            return k
        if noun in _KINDS_OF and k + 1 < len(nouns) and nouns[k + 1].endswith("s"):
            continue  # "1,800 sales reps": the reps are counted, "sales" says which
        if "token" in noun:
            return None  # "1,2 Mrd. Output-Tokens": a volume of tokens, no population
        if (noun.endswith("s") and len(noun) >= 4 and noun not in _NOT_COUNTS) or noun == "staff":
            return k
        if noun in _NOT_COUNTS or not noun.isalpha():
            return None
    return None


def _share(text: str, t: Tok) -> Factor | None:
    """ "maybe 40% use the assistant daily": the share of a population that asks."""
    if t.type != "PCT" or not isinstance(t.value, float) or not 0 < t.value <= 100:
        return None
    words = _words(text, t.end)
    if words[:1] in (["a"], ["per"], ["every"], ["/"]) and words[1:2] and words[1] in PERIODS:
        return None  # "grows ten percent a month": a rate of change, not who asks
    if words[1:3] and words[1] == "over" and words[0] == words[2]:
        return None  # "revenue up 18% year over year": a change, not a share
    if any("-over-" in w or w in _NOT_SHARES for w in words[1:3]):
        return None  # "expect 6% month-over-month growth", "8% annual growth"
    if _GROWING.search(text, max(0, t.start - 20), t.start):
        return None  # "expecting that to grow 40% quarter over quarter"
    if words[:1] == ["of"] and "peak" in words[1:4]:
        return None  # "the average is about 40% of that peak hour": a ratio, not who asks
    if words[:2] == ["of", "capacity"] or (words[:1] and words[0] in _NOT_SHARES):
        return None  # "the peak sits at 70% of capacity": a utilization, not who asks
    if _MIX_BEFORE.search(text, max(0, t.start - 12), t.start):
        return None  # "RAG is 70% of 1M calls/day, agents are the other 30%": a mix, all sized
    period = next((PERIODS[w] for w in words if w in PERIODS), None)
    said = _said(text, t.start, _segment_end(text, t.end))
    if words[:1] == ["also"]:  # "every ticket gets a triage call and 40% also get a second"
        return Factor(1 + t.value / 100, "share", "each", period, said)
    return Factor(t.value / 100, "share", "each", period, said)


def _factor(text: str, t: Tok) -> Factor | None:
    """ "4 turns per session", "80 tickets a day each", "15 times per day"."""
    after = text[t.end : t.end + 12].lstrip().lower()
    if after.startswith(("/", "per ", "a ", "an ", "each", "of ")) and _LENGTH_BEFORE.search(
        text, max(0, t.start - 20), t.start
    ):
        return None  # "reasoning ~5k/call", "around 4k of thinking per call": a length
    words = _words(text, t.end)
    if t.type == "MULT":  # "15 times", "15x"
        if any(w in ("average", "avg", "mean", "peak", "baseline") for w in words[:4]):
            return None  # "~3x the daily average": a peak's ratio, not how often
        words = ["times", *words]
    nouns = [w for w in words if w not in _FILLER and w not in _ADVERBS]  # "2 daily shifts"
    if not nouns or nouns[0] in _NOT_COUNTS - _REQUEST_WORDS:
        return None
    each = any(  # "60k tickets a day and summarize each ticket once": each ticket, no member
        w in ("each", "apiece") and not _own(words[k + 1 : k + 2], nouns[0])
        for k, w in enumerate(words)
    )
    per: str | None = "each" if each else None
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
        if w in ("per", "a", "an", "every", "/", "al", "por", "ao") and k + 1 < len(words):
            what = words[k + 1]
            if what in PERIODS:
                period = PERIODS[what]
            elif per is None or per == "each":
                after = words[k + 2] if k + 2 < len(words) else ""
                per = after if after in _MEMBER_NOUNS else what  # "per customer call": call
            if k > 0 and words[k - 1] not in _FILLER and not named:
                noun, named = words[k - 1], True  # "sessions per user per day": sessions
        elif w in ("daily", "monthly", "weekly"):
            period = PERIODS[w]
    if per is None and period is None:
        return None
    end = _segment_end(text, t.end)
    shift = _OVER_HOURS.search(text, t.end, end + 40) if period == _HOUR else None
    if period == _HOUR and shift is None:  # "250 agents, 8-hr shifts, each … ~6 calls/hr"
        shift = _SHIFT_BEFORE.search(text, max(0, t.start - 60), t.start)
    if shift is not None:  # "40 calls per hour over an 8-hour shift": 8 hours a day
        period = 1 / int(shift["h"])
    times_hours = _TIMES_HOURS.match(text, end) if period == _HOUR and shift is None else None
    if times_hours is not None and 0 < int(times_hours["h"]) <= 24:
        period, end = 1 / int(times_hours["h"]), times_hours.end()  # "… x 8 working hrs"
    value = float(t.value) if isinstance(t.value, float) else 0.0
    if value > (MAX_PER_MEMBER if per is not None else MAX_PER_MEMBER_A_DAY * (period or 1)):
        return None  # "2M requests/day" beside "3k seats" is the total, not each one's
    taken = end if times_hours is not None else -1
    return Factor(value, noun, per, period, _said(text, t.start, end), taken)


_PLUS = re.compile(
    r"[^.;!?\n]{0,40}?(?:\bplus\b|\band\b|\+|\bon\s+top\b)[^\d.;!?\n]{0,12}$", re.IGNORECASE
)


def _sibling(text: str, factor: Factor, chain: list[Factor]) -> bool:
    """Whether ``factor`` is a second frequency of the chain's members, said beside the
    first with "plus" ("8,500 devs, ~150 completions per dev per day … plus ~20 chat turns
    per dev per day"): counted per the same member over the same time."""
    if len(chain) != 2 or factor.per is None or factor.per in ("each",):
        return False
    first, people = chain[1], chain[0]
    if factor.per != first.per or factor.period != first.period or factor.noun == first.noun:
        return False
    if not people.noun.rstrip("s").startswith(factor.per.rstrip("s")[:3]):
        return False
    at, since = text.find(factor.said), text.find(first.said) + len(first.said)
    return 0 <= since <= at and _PLUS.match(text, since, at) is not None


def _add_siblings(text: str, counts: list[Tok], chain: list[Factor]) -> None:
    """The chain's frequency with its siblings said after it added in ("150 completions
    per dev per day (1,800 in / 60 out) plus ~20 chat turns per dev per day")."""
    after = text.find(chain[1].said) + len(chain[1].said)
    for t in counts:
        if t.start < after or not isinstance(t.value, float) or t.type == "PCT":
            continue
        factor = _factor(text, t)
        if factor is not None and _sibling(text, factor, chain):
            chain[1] = _summed(chain[1], factor)
            after = t.end


def _summed(first: Factor, second: Factor) -> Factor:
    shown = f"{first.shown or first.said}' + '{second.said}"  # said stays findable in the text
    value = first.value + second.value
    return Factor(value, first.noun, first.per, first.period, first.said, second.end, shown)


def _restates(factor: Factor, before: Factor) -> bool:
    """Whether ``factor`` says the count ``before`` said, again ("6 turns each … 4 turns
    each"): the same things per the same member, never multiplied by each other."""
    same_time = factor.period == before.period
    return factor.noun == before.noun and factor.per == before.per and same_time


_DAYS_COUNTED = ("work", "business", "day", "week", "month", "shift", "hour")


def _over_another_time(factor: Factor, chain: list[Factor]) -> bool:
    """Whether ``factor`` is a frequency said over another time than one already in the
    chain: a count per month and a count a workday are one count said twice, never two
    to multiply. Days counted over a month ("22 workdays a month") are no such count."""
    if factor.noun.rstrip("s") in PERIODS or factor.noun.startswith(_DAYS_COUNTED):
        return False
    return factor.period is not None and any(
        f.period is not None and f.period != factor.period for f in chain[1:]
    )


def _follows(factor: Factor, before: Factor) -> bool:
    """Whether ``factor`` counts things per ``before``'s ("4 turns per session")."""
    if factor.per is None or factor.per == "each":
        return True
    if factor.per in ("user", "person", "head", "member", "seat", "employee", "agent"):
        return True
    if before.noun == "share" and factor.per not in PERIODS:
        return True  # "~3% open the assistant, avg 5 turns per conversation": what they open
    stem = factor.per.rstrip("s")
    return bool(stem) and before.noun.rstrip("s").startswith(stem[: max(3, len(stem) - 1)])


def _own(after: list[str], noun: str) -> bool:
    """Whether the word after "each" is the count's own noun, singular or plural."""
    return bool(after) and after[0].rstrip("s") == noun.rstrip("s")


def _words(text: str, at: int) -> list[str]:
    """The words after a number, up to the next clause about a member of its own ("12
    steps and every step is one call": the step's count is another factor)."""
    raw = text[at : _segment_end(text, at)].lower().replace("/", " / ")
    return _WORD.findall(raw)


def _segment_end(text: str, at: int) -> int:
    """Where the words after a number end (its clause, before the next figure or the
    next member's own count: "12 steps and every step is one call")."""
    segment = _SEGMENT.match(text, at)
    if not segment:
        return at
    said = segment.group()
    member = _NEXT_MEMBER.search(said)
    return at + len((said[: member.start()] if member else said).rstrip())


_NEXT_MEMBER = re.compile(
    r"\band\s+(?:each|every)\b|\b(?:with|and)\s+(?:one|two|three|four|five|a\s+single)\s+[a-z]",
    re.IGNORECASE,
)  # "12 steps and every step is one call", "6 chunks with one call per chunk"


def _said(text: str, start: int, end: int) -> str:
    """The factor's words, without the "×" that joins it to its neighbours."""
    return _JOINING_TIMES.sub("", " ".join(text[start:end].split()))


_JOINING_TIMES = re.compile(r"^[×x*]\s+|\s+[×x*]$")


def _replace(reading: Reading, said: str) -> None:
    """Drop a rate the grammar read from one factor ("250k convos/day", "20 requests a day")."""
    source = reading.sources.get("requests_per_day")
    if source is not None and (source in said or said in source):
        reading.withdraw("requests_per_day")


_EACH_MAKES = re.compile(
    r"\beach(?:\s+one|\s+of\s+them)?\s+(?:generates|produces|uses|consumes|burns|outputs"
    r"|does|needs|makes|sends|fires|issues|submits|triggers|generating|producing|using"
    r"|consuming|burning|doing|needing|making|sending|firing|issuing|submitting|triggering"
    r"|sustaining|sustains|handling|handles|serving|serves|seeing|sees|averaging|averages)"
    r"\s+(?:about\s+|around\s+"
    r"|roughly\s+|~\s*)?$",
    re.IGNORECASE,
)
_EACH_OF_THE = re.compile(
    r"\beach\s+of\s+(?:the|our|their|its|these|those)\s+(?P<n>\d[\d,]*)\s+(?:[a-z-]+\s+){1,3}?"
    r"(?:generates|produces|does|makes|sends|fires|issues|submits|triggers|handles|sees|runs)"
    r"\s+(?:about\s+|around\s+|roughly\s+|~\s*)?$",
    re.IGNORECASE,
)
EACH_AFTER = re.compile(r"\s*(?:each|apiece)\b", re.IGNORECASE)
"""Said after a rate, of the members before it: "3 apps at ~200k req/day each"."""
_EACH_ONES = (("output_tokens_per_day", "output tokens/day"), ("requests_per_day", "requests/day"))
_MEMBERS_WITHIN = 120
"""How far before "each makes" its members are looked for: the same sentence or so."""


def each_ones_volume(reading: Reading, counts: list[Tok]) -> None:
    """ "9,000 seats, each one generates roughly 40k output tokens per day", "250 agents
    running 24/7, each makes one model call every 30 seconds": a volume or a rate said of
    each member is the members' volume."""
    for name, unit in _EACH_ONES:
        said = reading.sources.get(name)
        value = reading.values.get(name)
        at = reading.find(said) if said else -1
        if said is None or at < 0 or not isinstance(value, float):
            continue
        if name == "output_tokens_per_day" and "tok" not in said.lower():
            continue
        people = _members_of(reading, counts, at, said)
        if people is None:
            continue
        total = value * people.value
        reading.values[name] = total
        if reading.values.get("concurrency") == people.value:
            del reading.values["concurrency"]  # users online at once, not a batch to price
            online = f"concurrency {people.value:g} "
            reading.understood[:] = [u for u in reading.understood if not u.startswith(online)]
        reading.understood[:] = [u for u in reading.understood if f"← '{said}'" not in u]
        reading.understood.append(
            f"{compact(total)} {unit} ← '{people.said}' × '{said}' (each one's)"
        )


def _members_of(reading: Reading, counts: list[Tok], at: int, said: str) -> Factor | None:
    """The members a rate said at ``at`` is each one's: "Each of the 40 branch sites
    generates about 600 requests", "250 agents …, each makes one call", "3 apps at ~200k
    req/day each"; or None."""
    of_the = _EACH_OF_THE.search(reading.text, max(0, at - 80), at)
    if of_the is not None:
        count = numbers.digits(of_the["n"])
        words = " ".join(of_the.group().split())
        return Factor(count, "members", None, None, words) if count and count >= 2 else None
    per = _PER_MEMBER.match(reading.text, at + len(said))
    if per is not None:  # "avg 25 rpm per tenant across 400 tenants"
        return _members_named(reading, counts, at, per)
    each = _EACH_MAKES.search(reading.text, max(0, at - 40), at)
    if each is None and EACH_AFTER.match(reading.text, at + len(said)) is None:
        return None
    return _members_before(reading, counts, at)


_PER_MEMBER = re.compile(
    r"\s*(?:on\s+average\s+)?(?:per|each|a)\s+(?P<noun>(?!day|hour|minute|second|month|week|year"
    r"|gpu|node|request|call|user\b)[a-z]{3,}?)s?\b"
    r"(?:\s+(?:across|for|over|among|x|×|times)\s+(?:the\s+|all\s+|our\s+|their\s+)?"
    r"(?P<n>\d[\d,.]*\s*[kK]?)\s+(?P<many>[a-z]{3,})\b)?",
    re.IGNORECASE,
)
"""A rate said per member, maybe with the members after it: "25 rpm per tenant across
400 tenants"."""


def _members_named(
    reading: Reading, counts: list[Tok], at: int, per: re.Match[str]
) -> Factor | None:
    """The members a per-member rate counts: said after it ("across 400 tenants") or
    counted before it ("400 tenants, avg 25 rpm per tenant"), of the same noun."""
    noun = per["noun"].lower()
    if per["n"] and per["many"].lower().rstrip("s").startswith(noun[:4]):
        value = numbers.amount(per["n"].replace(" ", ""))
        words = " ".join(per.group().split())
        return Factor(value, per["many"], None, None, words) if value and value >= 2 else None
    people = _members_before(reading, counts, at)
    if people is None or not people.noun.lower().rstrip("s").startswith(noun[:4]):
        return None
    return people


def _members_before(reading: Reading, counts: list[Tok], at: int) -> Factor | None:
    """The members counted last before ``at`` ("250 agents"), skipping figures that count
    nothing ("24/7"), or None."""
    daily = any(w in reading.lower for w in _ACTIVE_USERS)
    for t in reversed(counts):
        if t.end > at or t.type != "NUM" or t.text.lower() == "one":
            continue
        if t.end < at - _MEMBERS_WITHIN:
            return None
        people = _population(reading.text, t, daily) or _online(reading.text, t)
        if people is not None:
            return people if people.period is None and people.value >= 2 else None
    return None


_ONLINE = re.compile(
    r"\s*(?:concurrent|simultaneous)\s+(?P<who>users|sessions|people|players|clients|viewers)\b",
    re.IGNORECASE,
)


def _online(text: str, t: Tok) -> Factor | None:
    """Users online at once, each with a rate of their own ("~5,000 concurrent users, each
    sending a message every 30 s"): the members the rate multiplies."""
    found = _ONLINE.match(text, t.end)
    if found is None or not isinstance(t.value, float):
        return None
    return Factor(t.value, found["who"].lower(), None, None, _said(text, t.start, found.end()))


_EACH_SENDS = re.compile(
    r"\b(?:each|every|per)\s+(?:one|[a-z]{3,})(?:\s+[a-z]{3,})?\s+(?:sends?|makes?|does|asks?"
    r"|runs?|generates?|fires?|submits?|averages?|triggers?|opens?)\s+(?:about\s+|around\s+"
    r"|roughly\s+|~\s*)?$",
    re.IGNORECASE,
)
"""Words that make the rate after them one member's: "each student sends ~25 messages"."""


def each_ones_rate(reading: Reading) -> None:
    """A member's own rate with nobody counted ("each student sends ~25 messages per
    day"): no volume to size; asked, never sized as the whole traffic."""
    said = reading.sources.get("requests_per_day")
    value = reading.values.get("requests_per_day")
    at = reading.find(said) if said else -1
    if said is None or at < 0 or not isinstance(value, float) or value > MAX_PER_MEMBER_A_DAY:
        return
    found = _EACH_SENDS.search(reading.text, max(0, at - 40), at)
    if found is None:
        return
    reading.withdraw("requests_per_day")
    who = found.group().split()[1]
    reading.ambiguous(
        f"'{said}' is each {who}'s rate: say how many there are, e.g. '2,000 {who}s', "
        "or the total, e.g. '50k requests a day'"
    )
