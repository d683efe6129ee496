"""What each grammar rule means: matches -> the JSON contract's field values, said back.

``read`` turns the grammar's matches into a kind-neutral ``Reading``: field values
(last one wins, and a changed value is named), GPU mentions kept apart (a scenario
reads them as ``gpu`` + ``gpus`` count, traffic as ``gpus`` = allowed ids; see
``core.parse.project``), and the notes for the reply: understood, assumed, ambiguous.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.parse import context, numbers, peaks, timeunits, volumes
from core.parse.grammar import Match
from core.parse.lexicon import BREAK
from core.parse.numbers import compact
from core.parse.openings import words_opening
from core.parse.plausible import BOUNDS
from core.parse.tokens import Tok
from core.units import HOURS_PER_MONTH

_DIRECTIONS = {"OUT": "output", "OUTS": "output", "IN": "input", "INS": "input"}
_DIRECTIONS["REASON"] = "reasoning"
_PER_REQUEST = {
    "output": "output_tokens",
    "input": "input_tokens",
    "reasoning": "reasoning_tokens",
}


_HORIZON = re.compile(
    r"\b(?:next|another|coming|following|first|last|past|every|each|in|within|em|en|dans"
    r"|entro|innerhalb|binnen|últimos|últimas|ultimos|letzten|derniers|dernières|ultimi)\s*$",
    re.I,
)
_OUT_AHEAD = re.compile(r"\s*(?:out|away|from\s+now|ahead|later|off)\b", re.I)
"""After "10 months": a time ahead, no lease term ("about 10 months out")."""
"""Words before "6 months" that make it a span of time, not a lease term ("grew 5x in 3
months", "live within 2 months")."""
_WINDOW_NOUNS = ("pilot", "trial", "test", "poc", "period", "window", "run", "spike", "sample")
_PAST = re.compile(
    r"\b(?:last|past|previous|trailing|últimos|últimas|ultimos|letzten|derniers|dernières"
    r"|ultimi)\s*$",
    re.I,
)
_NOT_TRAFFIC_GROWS = re.compile(
    r"\b(?:pipeline|revenue|arr|mrr|bookings|win\s+rate|spend|bill|budget|valuation"
    r"|availability|uptime|sla|durability|escalator|escalation|inflation|indexation)\b[^.;!?\n]*$",
    re.IGNORECASE,
)
_PRICE_GROWS = re.compile(
    r"\s*(?:price\s+|rate\s+|fee\s+|pricing\s+)?(?:escalators?|escalation|uplift|indexation"
    r"|inflation|increases?\s+(?:in|on|to)\s+(?:the\s+)?(?:price|rate|fee)s?)\b",
    re.IGNORECASE,
)
"""After a share a year: the lease's price rising, not the traffic ("the 2% annual escalator")."""
_HOW_MANY = re.compile(r"\bhow\s+(?:many|much)\s*$", re.IGNORECASE)
_A_SPAN_AFTER = re.compile(
    r"\s*(?:business\s+|working\s+|calendar\s+)?(?:hours?|hrs?|days?|weeks?|minutes?|mins?)\b",
    re.IGNORECASE,
)
_FLOOR_BEFORE = re.compile(
    r"\b(?:floor|ceiling|walk[\s-]?away(?:\s+price)?|reserve\s+price)\s*(?:was|is|of|at|=|:)?\s*"
    r"(?:about\s+|around\s+|~\s*)?$",
    re.IGNORECASE,
)
_EACH_ONE = re.compile(r"\b(?:each|every|per|one)\s+$", re.I)
_COUNT_AFTER = re.compile(
    r"\s*(?:[a-z]+\s+)?(?:pages|docs|documents|clauses|items|files|lines)\b", re.I
)
_LEASING = re.compile(r"\b(?:renew\w*|lease|sign\w*|commit\w*|contract)\b", re.I)
_OPTION = re.compile(
    r"\b(?:extend\w*(?:\s+\w+)?\s+by|extension\s+of|option(?:al)?\s+\w*)\s*$", re.I
)
"""An option on the term ("may extend by 12 months"): said, never the term itself."""
"""...unless the sentence is about the lease itself ("renew for another 12 months")."""
ELLIPTIC_MIN = 1000.0
"""A bare rate this large ("400M/day") is a day's volume; a small one ("30/s") may be a
speed or a rate of anything, and is asked about."""
_THOUSANDS_DOT = re.compile(r"\d{1,3}\.\d{3}")
QUANTITIES = frozenset({"requests_per_day", "output_tokens_per_day", "concurrency"})
LENGTHS = tuple(_PER_REQUEST[side] for side in ("input", "output", "reasoning"))
"""A request's lengths, in the contract's names: what a request's shape is said in."""


@dataclass
class Reading:
    """A message's facts before they are shaped for a question kind."""

    text: str
    values: dict[str, Any] = field(default_factory=dict)
    gpu_ids: list[str] = field(default_factory=list)
    gpu_at: dict[str, int] = field(default_factory=dict)  # where each GPU was first named
    gpu_last: dict[str, tuple[int, int]] = field(default_factory=dict)  # and last: its span
    gpu_count: int | None = None
    counted_gpu: str | None = None  # the first GPU said with a count ("4x MI300X")
    gpu_prices: dict[str, float] = field(default_factory=dict)  # "B300 at $5, H200 at $3"
    gpu_nodes: tuple[int, str, str] | None = None  # "2 GB300 racks": nodes, words, GPU
    node_gpus: int | None = None  # "an 8-GPU B300 node": the GPUs of the node said
    replica_gpus: int | None = None  # "batch 32 per 2-GPU replica": the GPUs of one replica
    gpu_counts: list[int] = field(default_factory=list)  # every GPU count said, in order
    model_short: bool = False  # the model came from a short alias ("v3", "r1")
    model_typo: bool = False  # the model was read through a typo ("deepseak")
    quoted_utilization: bool = False  # "$/M at 40% utilization": the share it is quoted at
    price_per_node: float | None = None  # "$19.60 per node-hour": a node's price
    price_per_rack: bool = False  # "USD 394,200 per NVL72 rack per month": the node a rack
    gpu_said: list[str] = field(default_factory=list)
    scales: list[tuple[str, float, str]] = field(default_factory=list)
    action: str | None = None
    model_said: str = ""
    price_said: str | None = None  # a lease price said without "per GPU": maybe for them all
    understood: list[str] = field(default_factory=list)
    match: Match | None = None  # the fact being read
    sources: dict[str, str] = field(default_factory=dict)
    _said: tuple[Match | None, str] = (None, "")  # field -> the words it came from
    quantities: list[tuple[str, float, Match]] = field(default_factory=list)
    """Volumes and concurrency as read, with their facts: ``core.parse.peaks`` reads
    whether each was said at the peak or on average."""
    window_hours: int | None = None
    output_share: float | None = None  # "3:1 input to output": the output's share of tokens
    """The hours a day a rate said per hour runs, when its peak came from them
    (``core.parse.volumes.over_a_window``)."""
    steady_peaks: dict[str, str] = field(default_factory=dict)
    """Volumes known only at their peak, sized as steady until an average turns up later
    ("the busiest hour is 120k requests", then "a typical day is 1M"): the words said."""
    assumed: list[str] = field(default_factory=list)
    ambiguities: list[str] = field(default_factory=list)
    unsided: list[tuple[float, str, str, str]] = field(default_factory=list)
    """Rates said with no unit ("250k/day"), asked as tokens or requests: value, time, the
    words, the question (``core.parse.volumes.unsided_rate`` may answer it)."""
    history: dict[str, list[tuple[Any, Match | None]]] = field(default_factory=dict)
    """Every value each field was given, in order (``core.parse.sums`` adds them up)."""

    def said(self, m: Match) -> str:
        """The words a fact came from (the last one asked is kept: rules ask it twice)."""
        if self._said[0] is not m:
            self._said = (m, " ".join(self.text[m.toks[0].start : m.toks[-1].end].split()))
        return self._said[1]

    def put(self, name: str, value: Any, note: str | None, said: str | None = None) -> None:
        """Set a field; the note said back names the words it came from."""
        old = self.values.get(name)
        if old is not None and old != value:
            self.ambiguities.append(
                f"two values for {name} ({_show(old)} and {_show(value)}): using {_show(value)}"
            )
        self.values[name] = value
        self.history.setdefault(name, []).append((value, self.match))
        if name in QUANTITIES and self.match is not None:
            self.quantities.append((name, float(value), self.match))
        match = self.match
        if said:
            source = said
        elif match is None:
            source = ""
        else:
            source = self._said[1] if self._said[0] is match else self.said(match)
        if source:
            self.sources[name] = source
        if note and source and source != note:
            note = f"{note} ← '{source}'"
        if note:
            self.understood.append(note)

    def withdraw(self, name: str) -> str | None:
        """Take back a field read from prose, with its say-back: a later pass found what
        its words really meant ("250k convos/day" is a population, not the request rate).
        Returns the words it had come from."""
        source = self.sources.pop(name, None)
        self.values.pop(name, None)
        if source is not None:
            self.understood[:] = [u for u in self.understood if f"← '{source}'" not in u]
        self.quantities[:] = [q for q in self.quantities if q[0] != name]
        return source

    def find(self, said: str) -> int:
        """Where words said back stand in the text, their spacing as typed or not ("every
        ~2 minutes" is said back "every 2 minutes"); -1 if nowhere."""
        at = self.text.find(said)
        if at >= 0 or not said.strip():
            return at
        spaced = re.search(r"\W*\s+".join(map(re.escape, said.split())), self.text)
        return spaced.start() if spaced is not None else -1

    @functools.cached_property
    def lower(self) -> str:
        """The text lower-cased once, for the passes that look for cue words in it."""
        return self.text.lower()

    def assume(self, note: str) -> None:
        if note not in self.assumed:
            self.assumed.append(note)

    def ambiguous(self, note: str) -> None:
        if note not in self.ambiguities:
            self.ambiguities.append(note)


def _priced(value: Any) -> bool:
    bound = BOUNDS["price_per_gpu_hour"]
    return isinstance(value, int | float) and bound.low <= value <= bound.high


def _show(value: Any) -> str:
    if isinstance(value, float):
        return compact(value)
    return str(value)


def _num(toks: tuple[Tok, ...], *types: str) -> float:
    for t in toks:
        if t.type in (types or ("NUM", "MULT", "XNUM", "MONEY", "PCT")):
            assert isinstance(t.value, float)
            return t.value
    raise ValueError("rule without a number")


def _unit(toks: tuple[Tok, ...], kind: str = "PER_TIME") -> str | None:
    for t in toks:
        if t.type == kind and isinstance(t.value, str):
            return t.value
    return None


def _has(toks: tuple[Tok, ...], *types: str) -> bool:
    return any(t.type in types for t in toks)


def _direction(toks: tuple[Tok, ...]) -> str | None:
    for t in toks:
        if t.type in _DIRECTIONS:
            return _DIRECTIONS[t.type]
    return None


def _per(unit: str) -> str:
    return {"second": "s", "minute": "min", "hour": "h"}.get(unit, unit)


# -- rules --------------------------------------------------------------------


_AT_BEFORE = re.compile(r"(?:\bat|@)\s*~?\s*$", re.IGNORECASE)
_CENTS_SAID = re.compile(r"\d{1,2}\.\d\d")
"""A figure written with its cents ("2.95"): a price, not a count."""
_BARE_PRICE_MAX = 30.0
"""A bare figure an hour "at" this or less is a GPU's price; larger ones are counts."""


_ONE_OF = re.compile(r"(?:a|an|one)\s", re.IGNORECASE)


def _rate(r: Reading, m: Match, toks: list[Tok]) -> None:
    value, unit, said = _num(m.toks, "NUM"), _unit(m.toks), r.said(m)
    if _HOW_MANY.search(r.text, max(0, m.toks[0].start - 12), m.toks[0].start):
        return  # "how many tokens/sec does one B200 do": what is asked, no figure
    if unit is None and m.toks[0].type == "PER_REQ":  # "each sends a request every 30 s"
        if not _ONE_OF.match(m.toks[0].text):
            return  # "per request 2 minutes": a request's own time, no rate
        every, unit = _num(m.toks, "NUM"), _unit(m.toks, "TIME")
        if every <= 0 or unit is None:
            return
        value = 1 / every
        r.assume(f"'{said}' read as {value:.3g} requests a {unit}")
        _requests(r, value, unit, said)
        return
    if unit is None:  # "14.4M requests over the 7 days": a total over a span
        total, span = (t.value for t in m.toks if t.type == "NUM")
        unit = _unit(m.toks, "TIME")
        assert isinstance(total, float) and isinstance(span, float) and unit is not None
        if span <= 0:
            return
        value = total / span
        r.assume(f"'{said}' read as {compact(value)} requests a {unit} on average")
    assert unit is not None
    if unit == "millisecond":
        return
    if _has(m.toks, "REQUESTS"):
        _requests(r, _grouped(r, m, value), unit, said)
        return
    if not _has(m.toks, "TOKENS", "OUT", "OUTS", "IN", "INS", "REASON"):
        cents = _CENTS_SAID.fullmatch(m.toks[0].text) is not None
        per_gpu = any(t.type == "PER_TIME" and t.flag for t in m.toks)  # ".79/gpu/hr"
        if unit == "hour" and 0.1 <= value <= _BARE_PRICE_MAX and (
            cents
            or per_gpu
            or _AT_BEFORE.search(r.text, max(0, m.toks[0].start - 6), m.toks[0].start)
        ):  # "2x h100 at 2.3/hr", "…, 2.95/hr": a GPU-hour price said without its dollar sign
            r.assume(f"'{said}' read as ${value:.2f}/GPU-hour (no currency said)")
            r.price_said = said
            r.put("price_per_gpu_hour", value, f"${value:.2f}/GPU-hour")
            return
        value = _grouped(r, m, value)  # "Richieste attese: 45.000 all'ora": a volume's count
        clause = context.before(r.text, m.toks[0].start)
        counted = context.volume(clause)
        if counted == "requests":  # "requests: 1.2M / day"
            _requests(r, value, unit, said)
            return
        if counted == "tokens" and context.direction(clause) in (None, "output"):
            r.assume(f"'{said}' read as output tokens, as the words before it say")
            _tokens(r, m, value, unit, said, "output")
            return
        if _SPEND_BEFORE.search(clause[-30:]):
            r.ambiguous(f"'{said}': a budget or a bill, not a volume; not used")
            return  # "budget is 60k/mo all in": money a month, no requests
        before = [k for k in ("output_tokens_per_day", "requests_per_day") if k in r.values]
        alike = bool(before) and _same_time(r.sources.get(before[0]), said)
        if len(before) == 1 and (value >= ELLIPTIC_MIN or alike):  # "150M out/day … 400M/day"
            kind = "output tokens" if before[0] == "output_tokens_per_day" else "requests"
            r.assume(f"'{said}' read as {kind}, like the volume said before it")
            if kind == "requests":
                _requests(r, value, unit, said)
            else:
                _tokens(r, m, value, unit, said, "output")
            return
        question = (
            f"'{said}': tokens or requests? say '{compact(value)} requests a {unit}' "
            f"or '{compact(value)} output tokens a {unit}'"
        )
        r.ambiguous(question)
        r.unsided.append((value, unit, said, question))
        return
    direction = _direction(m.toks)
    if direction == "input" and not _has(m.toks, "IN"):
        direction = None  # "2B tokens in a day": "in" is not input here
    _tokens(r, m, value, unit, said, direction)


_SPEND_BEFORE = re.compile(
    r"\b(?:budget|bill|spend|spending|invoice|cost|costs|paying|pay)\b[^.;\n\d]{0,15}$",
    re.IGNORECASE,
)
_TIME_SAID = re.compile(r"(?:/|\bper\s+|\ba\s+)\s*(?P<t>[a-z]+)\s*$", re.IGNORECASE)


def _same_time(volume_said: str | None, said: str) -> bool:
    """Whether a bare rate is said over the very time the volume before it was ("600
    req/min … 600/min is the peak, average ~200/min"): the same count, its unit elided."""
    if volume_said is None:
        return False
    a, b = _TIME_SAID.search(volume_said), _TIME_SAID.search(said)
    return a is not None and b is not None and _time_of(a["t"]) == _time_of(b["t"])


_SHORT_TIMES = {"s": "second", "sec": "second", "min": "minute", "h": "hour", "hr": "hour"}
_SHORT_TIMES |= {"d": "day", "wk": "week", "mo": "month", "yr": "year"}


def _time_of(word: str) -> str:
    """A time as one word whichever way it is written ("s", "secs", "second" -> second)."""
    lower = word.lower()
    single = lower[:-1] if lower.endswith("s") and len(lower) > 2 else lower
    return _SHORT_TIMES.get(single, _SHORT_TIMES.get(lower, single))


def _tokens(
    r: Reading, m: Match, value: float, unit: str, said: str, direction: str | None
) -> None:
    speed = timeunits.per_second(value, unit)
    if _has(m.toks, "PER_USER"):
        _user_speed_target(r, m, speed)
        return
    if unit == "second" and speed < 1000 and direction in (None, "output"):
        note = f"at least {speed:g} tokens/s per user"
        if _target(r, m, "min_per_user_tokens_per_s", speed, note):
            r.ambiguous(
                f"'{said}' read as the speed each user needs; for a total volume say "
                "'output tokens a day'"
            )
        return
    if direction in ("input", "reasoning"):
        r.ambiguous(
            f"'{said}': a daily {direction} volume is not used; say {direction} tokens per "
            "request, e.g. '800 in / 400 out'"
        )
        return
    if _OF_ONE_GPU.match(r.text, m.toks[-1].end) or _ONE_GPU_DOES.search(
        context.before(r.text, m.toks[0].start)
    ):
        r.ambiguous(f"'{said}' is one GPU's throughput, not read as traffic")
        return
    if _measured(r, m):
        r.ambiguous(f"'{said}' is a throughput they measured, not read as traffic")
        return
    if direction is None:
        r.ambiguous(f"'{said}': tokens without input/output, read as output tokens")
    daily = timeunits.per_day(value, unit)
    if unit in timeunits.ASSUMED:
        r.assume(timeunits.ASSUMED[unit])
    note = f"{compact(daily)} output tokens/day"
    if unit != "day":
        note += f" (from {compact(value)}/{_per(unit)})"
    r.put("output_tokens_per_day", daily, note)


def _grouped(r: Reading, m: Match, value: float) -> float:
    """A count written "350.000": the dot groups thousands (a rate of requests or tokens is
    never said to three decimals), said back."""
    number = next(t for t in m.toks if t.type == "NUM")
    if not _THOUSANDS_DOT.fullmatch(number.text):
        return value
    value *= 1000  # "350.000 verzoeken per dag"
    r.assume(f"'{number.text}' read as {value:,.0f} (the dot groups thousands)")
    return value


def _requests(r: Reading, value: float, unit: str, said: str) -> None:
    """A request rate in any unit is kept as the contract's ``requests_per_day``."""
    daily = timeunits.per_day(value, unit)
    if unit in timeunits.ASSUMED:
        r.assume(timeunits.ASSUMED[unit])
    note = f"{compact(daily)} requests/day"
    if unit != "day":
        note += f" ({compact(value)}/{_per(unit)})"
    r.put("requests_per_day", daily, note, said)


_COUNT_NOUNS = frozenset(
    {"prompts", "questions", "answers", "responses", "replies", "completions", "generations"}
)
"""After a number with no "tokens", these count requests ("12 prompts each"), not tokens."""
MAX_COUNTED = 100
"""Below this, "N prompts" counts prompts; "8k prompts" is prompts of 8k tokens."""


def _counts_requests(toks: tuple[Tok, ...], value: float) -> bool:
    """ "12 prompts", "40 questions": a small number right before a count noun, no "tokens"."""
    if value >= MAX_COUNTED or _has(toks, "TOKENS") or toks[0].type != "NUM":
        return False
    return len(toks) > 1 and toks[1].text.lower() in _COUNT_NOUNS


def _amount(r: Reading, m: Match, toks: list[Tok]) -> None:
    value, said = _num(m.toks, "NUM"), r.said(m)
    if _A_SPAN_AFTER.match(r.text, m.toks[-1].end):
        return  # "Support response: 4 business hours": a span of time, no tokens
    if _counts_requests(m.toks, value):
        return  # "12 prompts each": core.parse.products reads a count of requests
    direction = _direction(m.toks)
    if direction is None:
        direction = context.named_after(r.text, m.toks[-1].end)  # "a 400-token summary"
    if direction is None:
        direction = context.direction(context.before(r.text, m.toks[0].start))
        if direction is not None:
            r.assume(f"'{said}' read as {direction} tokens, as the words before it say")
    if direction is None:
        r.ambiguous(
            f"'{said}': input or output tokens? say '{compact(value)} output tokens' "
            f"or '{compact(value)} input tokens'"
        )
        return
    number = next(t for t in m.toks if t.type == "NUM")
    if _THOUSANDS_DOT.fullmatch(number.text):
        value = int(number.text.replace(".", ""))  # "1.200 tokens": a count is whole
        r.assume(f"'{number.text}' read as {value:,.0f} (the dot groups thousands)")
    name = _PER_REQUEST[direction]
    big = value > BOUNDS[name].high
    if (
        big
        and name != "output_tokens"
        and volumes.time_beside(r.text, m.toks[0].start, m.toks[-1].end)
    ):
        r.ambiguous(  # "per day: 3.2B in / 400M out": a day's input, not a request's
            f"'{said}': a day's {direction} volume is not used; say {direction} tokens "
            "per request, e.g. '800 in / 400 out'"
        )
        return
    if name == "output_tokens" and value > BOUNDS[name].high:
        unit = volumes.time_beside(r.text, m.toks[0].start, m.toks[-1].end)
        if unit is not None:  # "we generate 700 million output tokens a day"
            daily = timeunits.per_day(value, unit)
            article = "an" if unit == "hour" else "a"
            r.assume(f"'{said}' read as {article} {unit}'s volume, not one request's output")
            if unit in timeunits.ASSUMED:
                r.assume(timeunits.ASSUMED[unit])
            r.put("output_tokens_per_day", daily, f"{compact(daily)} output tokens/day")
            return
    r.put(name, round(value), f"{round(value):,} {direction} tokens per request")


def _io(r: Reading, m: Match, toks: list[Tok]) -> None:
    pair = next(str(t.value) for t in m.toks if t.type == "INOUT")
    given, _, out = pair.partition("/")
    r.put("input_tokens", int(given), f"{int(given):,} input tokens per request")
    r.put("output_tokens", int(out), f"{int(out):,} output tokens per request")


def _user_speed(r: Reading, m: Match, toks: list[Tok]) -> None:
    unit = _unit(m.toks) or "second"
    if unit != "second":
        _rate(r, m, toks)  # "users send 2B tokens a day" is a volume
        return
    _user_speed_target(r, m, timeunits.per_second(_num(m.toks, "NUM"), unit))


def _user_speed_target(r: Reading, m: Match, speed: float) -> None:
    then = _NOW_THEN_TARGET.match(r.text, m.toks[-1].end)
    if then is not None:  # "decode is ~60 tok/s per user now, target 100": the target's
        r.assume(f"'{r.said(m)}' is what they see now; the target said after it is sized")
        target = float(then["n"])
        said = " ".join(then.group().split())
        r.put("min_per_user_tokens_per_s", target, f"at least {target:g} tokens/s per user", said)
        return
    _target(r, m, "min_per_user_tokens_per_s", speed, f"at least {speed:g} tokens/s per user")


def _context(r: Reading, m: Match, toks: list[Tok]) -> None:
    value = round(_num(m.toks, "NUM"))
    number = next(t for t in m.toks if t.type == "NUM")
    if _THOUSANDS_DOT.fullmatch(number.text):
        value = int(number.text.replace(".", ""))  # "contexto de 8.000 tokens", "32.768"
        r.assume(f"'{number.text}' read as {value:,} (the dot groups thousands)")
    r.put("context_tokens", value, f"context of {compact(value)} tokens")


def _gpus(r: Reading, m: Match, toks: list[Tok]) -> None:
    if m.toks[-1].type == "NUM" and _MONTHS_AFTER.match(r.text, m.toks[-1].end):
        return  # "$26,280 per GPU for 12 months": a term, no count of GPUs
    numbers = [float(t.value or 0) for t in m.toks if t.type in ("NUM", "MULT", "XNUM")]
    gpu = next((str(t.value) for t in m.toks if t.type == "GPU"), None)
    system = not _has(m.toks, "GPUWORD") and any(
        t.type == "GPU" and t.text.lower().startswith(_SYSTEMS) for t in m.toks
    )  # "2 x DGX H100": two 8-GPU systems, not two GPUs
    nodes = _has(m.toks, "NODES") or system
    boxed = (
        nodes
        and not system
        and len(numbers) == 1
        and (_one_node(r.text, m.toks) or _hyphened(r.text, m.toks))
    )
    # "an 8x H100 box", "an 8-GPU B300 box": the GPUs of one node
    if nodes and len(numbers) == 1 and not boxed:  # "2 GB300 racks": nodes of the domain
        if gpu is not None and numbers[0] == int(numbers[0]):
            r.gpu_ids.append(gpu)
            r.gpu_at.setdefault(gpu, m.toks[0].start)
            r.gpu_last[gpu] = (m.toks[0].start, m.toks[-1].end)
            r.gpu_nodes = (int(numbers[0]), r.said(m), gpu)
        return
    count = None
    if numbers:
        several = nodes and len(numbers) > 1
        value = numbers[0] * numbers[1] if several else numbers[0]
        if several:  # "3 nodes of 8x B200": nodes times GPUs a node
            r.assume(f"'{r.said(m)}' read as {value:g} GPUs ({numbers[0]:g} x {numbers[1]:g})")
            r.node_gpus = int(numbers[1]) if numbers[1] == int(numbers[1]) else None
        if value != int(value) or value < 1:
            r.ambiguous(f"'{r.said(m)}': a GPU count is a whole number")
            return
        count = int(value)
        if count == 1 and any(t.text.lower() == "of them" for t in m.toks):
            return  # "quote ONE of them": one of the stacks named, not one GPU
        if boxed:
            r.node_gpus = count
    if gpu is not None:
        r.gpu_ids.append(gpu)
        r.gpu_at.setdefault(gpu, m.toks[0].start)
        r.gpu_last[gpu] = (m.toks[0].start, m.toks[-1].end)
    if count is not None:
        r.gpu_counts.append(count)
        if r.gpu_count is not None and r.gpu_count != count:
            r.ambiguous(f"two GPU counts ({r.gpu_count} and {count}): using {count}")
        r.gpu_count = count
        r.counted_gpu = r.counted_gpu or gpu  # the first: "8x MI355X vs 8x B300"
    said = f"GPU {count}x {gpu}" if count and gpu else f"GPU {gpu}" if gpu else f"{count} GPUs"
    words = r.said(m)
    r.gpu_said.append(said if words.lower() in (gpu or "", said.lower()) else f"{said} ← '{words}'")


def _peak(r: Reading, m: Match, toks: list[Tok]) -> None:
    factor = next((t.value for t in m.toks if t.type == "FACTOR"), None)  # "peaks double"
    value = float(factor) if factor is not None else _num(m.toks, "MULT", "XNUM", "NUM")
    if value < 1:
        r.ambiguous(f"'{r.said(m)}': a peak is at least the average")
        return
    r.put("peak_to_average", value, f"peak {value:g}x the average")


def _concurrency(r: Reading, m: Match, toks: list[Tok]) -> None:
    value = _num(m.toks, "NUM", "MULT")
    if value != int(value):
        r.ambiguous(f"'{r.said(m)}': the batch is a whole number")
        return
    n = int(value)
    if _PER_GPU.match(r.text, m.toks[-1].end):
        return  # "6 streams per GPU": a share of the batch, not the batch
    r.put("concurrency", n, f"concurrency {n} (requests decoded at once)")
    after = m.last + 1
    if m.toks[0].type == "BATCH" and after < len(toks) and toks[after].type == "GPU":
        gpu = toks[after].value
        r.ambiguous(
            f"'batch {n} {gpu}': read {n} as the batch size, not a GPU count; "
            f"for {n} GPUs say '{n}x {gpu}'"
        )


_NOW = re.compile(
    r"\b(?:currently|today|right\s+now|at\s+the\s+moment|at\s+present|hoy|hoje|heute|oggi"
    r"|aujourd'hui|actualmente|atualmente|aktuell|attualmente)\b",
    re.I,
)
"""Said of the figure only close by: "TTFT today is 900 ms", not "2nd customer today … 80 tok/s"."""
_PER_GPU = re.compile(r"\s*(?:per|/|a|each)\s*(?:gpu|card|accelerator)\b", re.IGNORECASE)
_SEEN = re.compile(
    words_opening(
        (
            *(r"we\s+see", "seeing", r"we\s+get", r"we\s+got", r"they\s+get", r"they\s+got"),
            *("saw", "getting", "observed", "measured", r"we\s+measure", r"they\s+measure"),
            *(r"our\s+current", r"back\s+to", r"recovered\s+to", r"dropped\s+to", r"spiked\s+to"),
            *(r"climbed\s+to", r"jumped\s+to", "hovering", r"sitting\s+at", r"sits\s+at"),
            *(r"their\s+current", r"on\s+(?:our|their)\s+current"),
        ),
        ignorecase=True,
    )
    + r"\b",
)
_WANTED = re.compile(
    r"\b(?:want|wants|wanted|need|needs|target|must|should|require[sd]?|at\s+least|no\s+more"
    r"|under|below|within|sla|slo|max(?:imum)?|goal|expect(?:ed|s)?)\b",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"[,;.(\n!?]")


_MEASURING = re.compile(
    r"\b(?:we\s+got|got|we\s+get|achieved|maxed\s+out\s+at|topped\s+out\s+at|saw|they\s+get"
    r"|load[\s-]test\w*|peaked\s+at\s+a\s+throughput)\b[^.;!?\n]{0,20}$"
    r"|\b(?:measured|benchmarked|bench|benchmark)\b(?:[^.;!?\n]|(?<=\d)\.(?=\d)){0,60}$"
    r"|\bthroughput\s+(?:now|today|currently|at\s+the\s+moment)\s+(?:is|are|runs\s+at)\s*"
    r"(?:about|around|~)?\s*$",
    re.IGNORECASE,
)
_ONE_GPU_DOES = re.compile(
    r"\b(?:one|a|each|single|every)\s+(?:gpu|card|accelerator)\s+(?:does|gets|gives|pushes"
    r"|delivers|hits|handles|can\s+do|serves)\s*(?:about|around|roughly|~)?\s*$",
    re.IGNORECASE,
)
_OF_ONE_GPU = re.compile(r"\s*(?:per|/|a|each|on\s+(?:one|a|each))\s*(?:gpu|card)\b", re.I)
"""After a token rate, words that make it one GPU's throughput: "1,850 output tok/s per GPU"."""


_NOW_OPENS = re.compile(
    r"^\s*[\"“«'>]?\s*(?:current(?:ly)?|today'?s?|existing)\b", re.IGNORECASE
)
"""A clause that opens on "current": the figure in it is what they see today."""
_ANOTHER_FACT = re.compile(
    r"(?:\b(?:their|our|the|its)\s+(?:\w+\s+){0,2}?)?\b(?:ttft|tpot|latency|first\s+token)\b"
    r"(?=[^\d\n]{0,15}\d)",
    re.IGNORECASE,
)
"""Where the words after a target start another latency with a figure of its own ("…, ttft
≤ 1.5s their current p95 ttft is 3.1s")."""


def _measured(r: Reading, m: Match) -> bool:
    """A throughput reached in a test ("we got ~2,900 tok/s aggregate"), not a load."""
    return _MEASURING.search(context.before(r.text, m.toks[0].start)[-90:]) is not None


def _target(r: Reading, m: Match, name: str, value: float, note: str) -> bool:
    """A speed or latency target, unless the words around it say it is what they see today
    ("Currently TTFT is 900 ms", "45 tok/s per stream observed today"): that is no target."""
    before = context.before(r.text, m.toks[0].start)[-40:]
    end = m.toks[-1].end
    cut = _CLAUSE_END.search(r.text, end, end + 40)
    after = r.text[end : cut.start() if cut else end + 40]
    other = _ANOTHER_FACT.search(after)
    if other is not None:  # "ttft ≤ 1.5s their current p95 ttft is 3.1s": the next one's
        after = after[: other.start()]
    inside = r.text[m.toks[0].end : m.toks[-1].start]  # "Our TTFT today is 2.8 seconds"
    seen = _SEEN.search(before + " " + after) or _NOW.search(f"{before[-25:]} {inside} {after}")
    seen = seen or _NOW_OPENS.match(before)  # "Current p50 TTFT on their A100s is 2.3 s"
    if seen and not _WANTED.search(f"{before} {r.said(m)} {after}"):
        example = "TTFT under 1 s" if name == "max_ttft_s" else "at least 30 tokens/s per user"
        r.ambiguous(
            f"'{r.said(m)}' is what they see today, not read as a target (e.g. '{example}')"
        )
        return False
    r.put(name, value, note)
    return True


def _ttft(r: Reading, m: Match, toks: list[Tok]) -> None:
    value = _num(m.toks, "NUM")
    unit = _unit(m.toks, "TIME")
    if unit is None:
        r.assume(f"TTFT {value:g} read as seconds")
        unit = "second"
    seconds = value * timeunits.seconds(unit)
    _target(r, m, "max_ttft_s", seconds, f"TTFT under {seconds:g} s")


def _tpot(r: Reading, m: Match, toks: list[Tok]) -> None:
    value = _num(m.toks, "NUM")
    unit = _unit(m.toks, "TIME") or "millisecond"
    seconds = value * timeunits.seconds(unit)
    if seconds <= 0:
        return
    speed = 1 / seconds
    _target(
        r, m, "min_per_user_tokens_per_s", speed, f"at least {speed:g} tokens/s per user (1/TPOT)"
    )


_ASIDE_BEFORE = re.compile(
    r"\b(?:vs\.?|versus|won'?t\s+(?:do|take|go)|not|no|rather\s+than|instead\s+of"
    r"|compared\s+(?:to|with))\b(?:[^.;!?\n]|\.\d)*$",
    re.IGNORECASE,
)
"""Before an on-demand term said only as the alternative to the one taken."""


_OVERFLOW_TO = re.compile(
    r"\b(?:burst(?:s|ing)?|spill(?:s|ing)?(?:\s+over)?|overflow(?:s|ing)?|fall(?:s|ing)?\s+back"
    r"|route[sd]?|send|sends|offload(?:s|ing)?)\s+(?:\w+\s+){0,2}?(?:to|into|onto)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
"""Words before "on-demand" that make it where overflow goes, not the lease's term."""


def _term(r: Reading, m: Match, toks: list[Tok]) -> None:
    if _EACH_ONE.search(r.text, max(0, m.toks[0].start - 8), m.toks[0].start):
        return  # "Each contract = one summarization call": a count of contracts, no lease
    if not _has(m.toks, "TIME") and _COUNT_AFTER.match(r.text, m.toks[-1].end):
        return  # "a contract is ~40 pages": a count of something, no term
    if _has(m.toks, "ONDEMAND"):
        start = m.toks[0].start
        if r.values.get("term_months") and _ASIDE_BEFORE.search(r.text, max(0, start - 40), start):
            return  # "24-month commit (vs $4.80/hr on-demand — they won't do on-demand)"
        if _OVERFLOW_TO.search(r.text, max(0, start - 40), start):
            return  # "they'll burst to on-demand for the peak": where the peak goes, no term
        r.put("term_months", 0, "on-demand (no term)")
        return
    value = _num(m.toks, "NUM")
    unit = _unit(m.toks, "TIME")
    if unit is None and any("month" in t.text.lower() for t in m.toks if t.type == "TERM"):
        unit = "month"  # "Contract length (months): 24"
    elif unit is None:
        r.assume(f"term {value:g} read as months")
        unit = "month"
    before = context.before(r.text, m.toks[0].start)
    if _OPTION.search(before) and not _has(m.toks, "TERM"):
        r.ambiguous(f"'{r.said(m)}' read as an option to extend, not the lease term")
        return
    horizon = bool(_HORIZON.search(before)) or " more " in r.said(m)
    horizon = horizon or _OUT_AHEAD.match(r.text, m.toks[-1].end) is not None
    if horizon and _LEASING.search(before):
        horizon = False  # "renewal at the same rate for another 12 months": a term after all
    after = r.text[m.toks[-1].end : m.toks[-1].end + 12].lower()
    if unit in ("day", "week") and after.lstrip(" -").startswith(_WINDOW_NOUNS):
        return  # "the 90-day pilot": a window of time, not a term
    if horizon and (_PAST.search(before) or unit in ("day", "week")):
        return  # "last 30 days", "last 4 months": a window of time, said with what it measures
    if unit in ("month", "quarter", "year") and not _has(m.toks, "TERM") and horizon:
        r.ambiguous(f"'{r.said(m)}' not read as a lease term (say 'a 36-month term' if it is)")
        return
    if unit not in ("month", "quarter", "year"):
        latency = unit in ("second", "millisecond", "minute") and not _has(m.toks, "TERM")
        if latency and context.latency(context.before(r.text, m.toks[0].start)):
            seconds = value * timeunits.seconds(unit)  # "first token ... within 2 seconds"
            _target(r, m, "max_ttft_s", seconds, f"TTFT under {seconds:g} s")
            return
        named = latency and "max_ttft_s" not in r.values and _TTFT_NAMED.search(r.text)
        if named and value * timeunits.seconds(unit) <= _TTFT_MAX_S:
            seconds = value * timeunits.seconds(unit)  # "> what TTFT do they need?  under 800ms"
            r.assume(f"'{r.said(m)}' read as the TTFT target: the message speaks of TTFT")
            _target(r, m, "max_ttft_s", seconds, f"TTFT under {seconds:g} s")
            return
        wanted_lower = unit == "millisecond" and _LOWER_TO.search(
            context.before(r.text, m.toks[0].start)[-30:]
        )
        if wanted_lower and "min_per_user_tokens_per_s" not in r.values and _TPOT_NAMED.search(
            r.text
        ):  # "Hoy tienen un TPOT de 35 ms y lo quieren bajar a 12,5 ms"
            speed = 1000 / value
            r.assume(f"'{r.said(m)}' read as the TPOT target: the message speaks of TPOT")
            r.put("min_per_user_tokens_per_s", speed, f"at least {speed:g} tokens/s per user")
            return
        if latency:
            r.ambiguous(f"'{r.said(m)}': not read; for a latency target say 'TTFT under 1.5 s'")
        elif _has(m.toks, "TERM"):
            r.ambiguous(f"'{r.said(m)}': a lease term is in months or years")
        return  # "24h", "a 12-hour window": a span of the day, no term
    months = value * timeunits.months(unit)
    if months != int(months):
        r.ambiguous(f"'{r.said(m)}': a term is a whole number of months")
        return
    r.put("term_months", int(months), f"{int(months)}-month term")


_GPU_PERIOD_HOURS = {
    "day": 24.0,
    "week": 168.0,
    "month": HOURS_PER_MONTH,
    "year": 12 * HOURS_PER_MONTH,
}
"""A lease price per GPU per period -> per GPU-hour (a month is the book's 730 hours)."""


def _fx(r: Reading, m: Match, toks: list[Tok]) -> None:
    r.ambiguous(
        f"'{r.said(m)}': a price in another currency is not used; give it in US dollars, "
        "e.g. '$3.40/GPU-hour'"
    )


def _price(r: Reading, m: Match, toks: list[Tok]) -> None:
    value, unit = _num(m.toks, "MONEY"), _unit(m.toks)
    money = next(t for t in m.toks if t.type == "MONEY")
    beside = [toks[k] for k in (m.first - 1, m.last + 1) if 0 <= k < len(toks)]
    per_request = next((t for t in beside if t.type == "PER_REQ"), None)
    if unit is None and per_request is not None:
        r.ambiguous(f"'{r.said(m)}' {per_request.text}: a price per request, not used")
        return  # "revenue per request is ~0.2¢": no GPU's price
    per_gpu = any(t.flag for t in m.toks if t.type == "PER_TIME")
    node = _PER_NODE.match(r.text, m.toks[-1].end) or _WHOLE_BOX.match(r.text, m.toks[-1].end)
    # "$19.60 per node-hour for an 8x H100 box", "$7,300/month for the whole box"
    if node is not None and unit is None:
        period = _NODE_PERIOD.match(r.text, node.end())  # "$41,600/node/month"
        said = (period["period"] or period["foreign"] or period["ly"]).lower() if period else ""
        unit = _NODE_PERIODS.get(said, said) if period else None
    if unit in ("month", "year") and _DOTTED_SUM.search(money.text) and not money.note:
        value *= 1000  # "USD 14.600 al mes": a month's lease is thousands, not $14.60
        r.assume(f"'{money.text}' read as {value:,.0f} (the dot groups thousands)")
    node_named = not per_gpu and _node_before(toks, m.first)  # "node is $48/hr"
    if node or (node_named and (unit in _GPU_PERIOD_HOURS or unit in (None, "hour"))):
        if unit in _GPU_PERIOD_HOURS:  # "one 8x H200 node at $21,900/month"
            hours = _GPU_PERIOD_HOURS[unit]
            whole = "rack" if node is not None and "rack" in node.group().lower() else "node"
            r.assume(f"${value:,.2f} a {unit} for a {whole} read at {hours:g} hours a {unit}")
            value /= hours
        elif unit not in (None, "hour"):
            r.ambiguous(f"'{r.said(m)}': not read; say the lease price as '$5/GPU-hour'")
            return
        r.price_per_node = value
        r.price_per_rack = node is not None and "rack" in node.group().lower()
        r.price_said = r.said(m)
        return
    span = _PER_GPU_FOR.match(r.text, m.toks[-1].end) if unit is None else None
    if span is not None:  # "$26,280 per GPU for 12 months": the term's price, by the hour
        months = int(span["n"])
        hours = months * HOURS_PER_MONTH
        r.assume(f"${value:,.2f} a GPU for {months} months read at {hours:g} hours")
        value /= hours
        unit, per_gpu = "hour", True
        r.put("term_months", months, f"{months}-month term")
    if unit is None and value > _HOURLY_MAX:  # "annual fee per GPU $34,000"
        before = context.before(r.text, m.toks[0].start)[-40:]
        period = _PERIOD_BEFORE.search(before)
        if period is None and _PER_GPU.match(r.text, m.toks[-1].end):
            period = _PERIOD_PRICE_BEFORE.search(before)  # "an annual price of $19,710 per GPU"
        if period is not None:
            unit = _PERIOD_WORDS.get((period["period"] or "").lower(), period["per"])
            per_gpu = True
            hours = _GPU_PERIOD_HOURS[unit]
            r.assume(
                f"${value:,.2f} read per GPU a {unit} ('{period.group().strip()}'), "
                f"at {hours:g} hours a {unit}"
            )
            value /= hours
            unit = "hour"
    note = None
    if unit is None:
        note = f"${value:.2f} read as the lease price per GPU-hour"
    elif unit in _GPU_PERIOD_HOURS and m.toks[-1].flag:
        hours = _GPU_PERIOD_HOURS[unit]
        note = f"${value:,.2f}/GPU-{unit} read at {hours:g} hours a {unit}"
        value /= hours
    elif unit != "hour":
        r.ambiguous(f"'{r.said(m)}': not read; say the lease price as '$5/GPU-hour'")
        return
    if _FLOOR_BEFORE.search(r.text, max(0, m.toks[0].start - 30), m.toks[0].start):
        r.assume(f"'{r.said(m)}' is a floor or ceiling of the deal, not its price")
        return  # "Our floor was $16.8k so we're accepting" their counter
    if _priced(r.values.get("price_per_gpu_hour")) and not _priced(value):
        r.ambiguous(f"'{r.said(m)}' is not plausible as a price per GPU-hour: not used")
        return  # "$2,920 per GPU per month (that's off a $3,285 list)": the price stands
    if unit in (None, "hour") and not per_gpu:
        r.price_said = r.said(m)
    if note:
        r.assume(note)
    gpu = _gpu_beside(toks, m.first, m.last)
    if gpu is not None:
        r.gpu_prices[gpu] = value
    r.put("price_per_gpu_hour", value, f"${value:.2f}/GPU-hour")


_DOTTED_SUM = re.compile(r"(?<![\d.,])[1-9]\d{0,2}\.\d{3}$")
"""A sum written with a thousands dot ("14.600"), as Spanish, German and Portuguese do."""
_PER_NODE = re.compile(
    r"\s*(?:/|per|a|an|por|par|pro|je)\s*(?:(?:nvl\d+|gb\d+|hgx|dgx)[\s-]+)?(?:node|box|server"
    r"|machine|host|rack|servidor|nodo|serveur|nœud|knoten)(?:[\s-]*(?:hour|hr|h))?\b"
    # Spanish "USD 22.000 al mes por servidor", "USD 394,200 per NVL72 rack per month"
    r"|\s*(?:per|a|an)\s+(?:8|four|eight|4)[\s-]*gpu\s+(?:[\w-]+\s+){0,2}?(?:node|box|server)\b"
    r"|\s*(?:per|a|an)\s+\d+\s*[x×]\s*(?:[\w-]+\s+){1,2}?(?:node|box|server)\b",
    re.IGNORECASE,
)
"""A price said for a whole node ("per node", "per 8-GPU node", "per 8x B200 node"): divided by
its GPUs once the message names them."""
_NOW_THEN_TARGET = re.compile(
    r"\s*(?:now|today|currently)\s*[,;]?\s*(?:and\s+)?(?:the\s+|their\s+)?(?:target|goal|want)"
    r"(?:\s+is)?\s*[:=]?\s*~?(?P<n>\d+(?:\.\d+)?)\b(?!\s*(?:ms|s\b|%|x))",
    re.IGNORECASE,
)
"""A speed seen now, then its target as a bare figure: "~60 tok/s per user now, target 100"."""
_TPOT_NAMED = re.compile(r"\b(?:tpot|itl|inter[\s-]token\s+latency)\b", re.IGNORECASE)
_LOWER_TO = re.compile(
    r"\b(?:bring\s+(?:it\s+)?down|get\s+(?:it\s+)?down|lower|reduce|cut|bajar|reducir|baixar"
    r"|reduzir|senken|abaisser|ridurre|abbassare)\b[^.;!?\n\d]{0,12}\b(?:to|a|auf|à)\s*$",
    re.IGNORECASE,
)
"""Words before a time that make it what a latency is to be brought down to: "quieren bajar
a 12,5 ms"."""
_TTFT_NAMED = re.compile(
    r"\b(?:ttft|time[\s-]+to[\s-]+first[\s-]+token|first[\s-]+token)\b", re.IGNORECASE
)
_TTFT_MAX_S = 30.0
"""A latency said apart from its name, in a message that names TTFT, is its target when no
other is said and it is no longer than this."""
_MONTHS_AFTER = re.compile(r"\s*(?:months?|mo|mos|years?|yrs?)\b", re.IGNORECASE)
_PER_GPU_FOR = re.compile(r"\s*(?:per|a|/)\s*gpu\s+for\s+(?P<n>\d{1,3})\s*(?:months?|mo)\b", re.I)
"""A price per GPU for a whole term: "$26,280 per GPU for 12 months"."""
_WHOLE_BOX = re.compile(
    r"\s*(?:for|per)\s+(?:the\s+)?(?:whole|entire|full)\s+(?:box|node|server|machine|pod)\b"
    r"|\s*for\s+(?:an?|each|one|the)\s+(?:\d{1,2}[\s-]*gpu\s+|\d{1,2}\s*[x×]\s*[\w-]+\s+)"
    r"(?:[\w-]+\s+)?(?:box|node|server|machine)\b",  # "$14,600 per month for an 8-GPU node"
    re.IGNORECASE,
)
_NODE_PERIOD = re.compile(
    r"\s*(?:(?:/|per|a|an)\s*(?P<period>month|mo|year|yr|week|day)"
    r"|(?:al|ao|au|im|pro|por|par|per)\s+(?P<foreign>mes|mês|mois|monat|mese|año|ano|anno|an|jahr)"
    r"|(?P<ly>monthly|yearly|annually|weekly|daily))\b",
    re.I,
)
"""The period of a node's price after "per node": "/month", "al mes", "monthly"."""
_NODE_PERIODS = {"mo": "month", "yr": "year", "monthly": "month", "yearly": "year"}
_NODE_PERIODS |= {"annually": "year", "weekly": "week", "daily": "day"}
_NODE_PERIODS |= dict.fromkeys(("mes", "mês", "mois", "monat", "mese"), "month")
_NODE_PERIODS |= dict.fromkeys(("año", "ano", "anno", "an", "jahr"), "year")
_PERIOD_PRICE_BEFORE = re.compile(
    r"\b(?P<period>annual|annually|yearly|monthly|weekly)\s+(?:price|rate|fee|cost|lease)"
    r"(?:\s+(?:of|is|at))?\s*:?\s*$(?P<per>)",
    re.IGNORECASE,
)
"""A period's price named before its figure, "per GPU" after it: "an annual price of
$19,710 per GPU", "monthly price $1,022 per GPU"."""
_HOURLY_MAX = 100.0
"""No GPU-hour costs more: a larger price said with a period before it is per that period."""
_PERIOD_BEFORE = re.compile(
    r"\b(?P<period>annual|annually|yearly|monthly|weekly)\b[^.;!?\n$]{0,25}\bper\s+gpu\b"
    r"[^.;!?\n$]{0,10}$"
    r"|\bper\s+gpu\s+(?:per|a)\s+(?P<per>month|year|week)\s*:?\s*$",
    re.IGNORECASE,
)
_PERIOD_WORDS = {
    "annual": "year",
    "annually": "year",
    "yearly": "year",
    "monthly": "month",
    "weekly": "week",
}


_SYSTEMS = ("dgx", "hgx")
"""Names of a GPU's 8-GPU system: a count of them is a count of nodes."""


def _one_node(text: str, toks: Sequence[Tok]) -> bool:
    """ "an 8x H100 box", "4x H100 nodes": a node's own GPUs; "2 x HGX H200 nodes", spaced
    and plural, counts the nodes."""
    plural = any(t.type == "NODES" and t.text.lower().endswith("s") for t in toks)
    return any(
        t.type == "MULT" and t.value != 1 and not (plural and " " in text[t.start : t.end])
        for t in toks
    )  # "1 x b300 node": one node, never a node of one GPU


def _hyphened(text: str, toks: Sequence[Tok]) -> bool:
    """Whether a count is joined to "GPU" by a hyphen ("8-GPU"): a node's own GPUs."""
    return any(
        a.type == "NUM" and b.type == "GPUWORD" and text[a.end : b.start] == "-"
        for a, b in zip(toks, toks[1:], strict=False)
    )


def _node_before(toks: list[Tok], first: int) -> bool:
    """Whether a node is named before a price in its stretch ("an 8x H200 node at $X")."""
    for k in range(first - 1, max(-1, first - 6), -1):
        if toks[k].type == BREAK:
            return False
        if toks[k].type == "NODES":
            return True
    return False


def _gpu_beside(toks: list[Tok], first: int, last: int) -> str | None:
    """The GPU a price is said for: named just before it ("B300 at $5") or just after it
    ("$3/hr for H200"), within its stretch of the sentence."""
    for k in (first - 1, first - 2, last + 1, last + 2):
        if 0 <= k < len(toks):
            if toks[k].type == "GPU":
                return str(toks[k].value)
            if toks[k].type in ("BREAK", "MONEY"):
                continue
    return None


def _api_price(r: Reading, m: Match, toks: list[Tok]) -> None:
    value = _num(m.toks, "MONEY")
    if any(t.type == "PER_MILLION" and t.value == "thousand" for t in m.toks):
        r.assume(f"'{r.said(m)}' is per thousand tokens: ${value * 1000:g}/M")
        value *= 1000
    direction = _direction(m.toks)
    if not _has(m.toks, "PER_MILLION", "API"):  # "$0.20 in / $0.60 out per million"
        r.assume(f"'{r.said(m)}' read as an API price per million tokens")
    if direction == "input":
        r.put("api_price_per_million_input", value, f"API at ${value:g}/M input tokens")
        return
    if direction is None:
        r.assume(f"API price ${value:g}/M read as the price of output tokens")
    r.put("api_price_per_million_output", value, f"API at ${value:g}/M output tokens")


def _budget(r: Reading, m: Match, toks: list[Tok]) -> None:
    value, unit = _num(m.toks, "MONEY"), _unit(m.toks)
    per = f"/{_per(unit)}" if unit else ""
    r.ambiguous(
        f"'{r.said(m)}': a budget (${compact(value)}{per}), not a lease price; not used "
        "(say '$5/GPU-hour' to price the GPUs)"
    )


_MULTIPLE_PERIODS = frozenset({"quarter", "year"})
_OVER_NEXT = re.compile(
    r"\s*(?:over|in|within)\s+(?:the\s+)?(?:next|coming|first)\s+(?P<n>\d+\s+)?"
    r"(?P<unit>years?|quarters?|months?)\b",
    re.IGNORECASE,
)
"""A growth said over a span after it: "50% over the next year", "30% in the next 6 months"."""
_EVERY = re.compile(
    r"\s*(?:every|each)\s+(?P<n>\d+|two|three|four|six|twelve)\s+(?P<unit>years?|quarters?|months?)\b",
    re.IGNORECASE,
)
"""A growth said per span after it: "50% growth every six months"."""
_OVER_A_SPAN = re.compile(
    r"\W*(?:\w+\W+){0,2}?(?:every|over|within|in|em|en|entro|dans|innerhalb|binnen)\b",
    re.IGNORECASE,
)
"""Between a multiple and its span: "doubling every 6 months", "2x over the next year"."""
"""Periods a multiple is growth over without a growth word: "4x YoY", "3x a quarter"."""


_PAST_FACTOR = re.compile(r"\b(?:doubled|tripled|quadrupled)\b", re.IGNORECASE)


def _growth(r: Reading, m: Match, toks: list[Tok]) -> None:
    if _NOT_TRAFFIC_GROWS.search(context.before(r.text, m.toks[0].start)):
        return  # "pipeline … up about 20% year on year", "Availability: 99.9% monthly"
    if _PRICE_GROWS.match(r.text, m.toks[-1].end):
        return  # "The 2% annual escalator isn't modelled here": the price's, not the traffic's
    factor = next((t.value for t in m.toks if t.type == "FACTOR"), None)  # "doubles every year"
    unit = _unit(m.toks)
    if _has(m.toks, "MULT", "FACTOR"):  # "4x YoY", "3x-ing a quarter"; "3x a day" is how often
        if _has(m.toks, "MULT") and unit not in _MULTIPLE_PERIODS and not _has(m.toks, "GROWTH"):
            return
        factor = _num(m.toks, "MULT") if _has(m.toks, "MULT") else factor
        span = _unit(m.toks, "TIME")
        if span is not None and factor is not None:  # "2x over the next 12 months"
            if not _OVER_A_SPAN.match(r.text, m.toks[0].end, m.toks[-1].start):
                return  # "double that for next year", "APAC to double next quarter"
            count = _num(m.toks, "NUM") if _has(m.toks, "NUM") else 1.0  # "triple … a year"
            months = count * (
                timeunits.TERM_MONTHS[span]
                if span in timeunits.TERM_MONTHS
                else timeunits.seconds(span) / timeunits.seconds("month")
            )
            if months <= 0 or float(factor) <= 1:
                return
            rate = float(factor) ** (1 / months) - 1
            if _has(m.toks, "INS") and _PAST_FACTOR.search(r.said(m)):
                r.ambiguous(  # "doubled in 3 months": what it did, no lease term nor a plan
                    f"'{r.said(m)}' not read as a lease term, nor as growth to come "
                    f"(say 'growing {rate:.0%} a month' if it is)"
                )
                return
            r.assume(f"{factor:g}x over {months:g} months read as {rate:.2%} a month, compounded")
            r.put("monthly_growth", rate, f"growth {rate:.3g}/month ({rate:.1%})")
            return
    rate = float(factor) - 1 if factor is not None else _num(m.toks, "PCT") / 100
    if rate <= 0:
        return
    over = _OVER_NEXT.match(r.text, m.toks[-1].end) if unit is None else None
    over = over or (_EVERY.match(r.text, m.toks[-1].end) if unit is None else None)
    if over is not None:  # "we expect roughly 50% over the next year": over that span
        unit = over["unit"].lower().rstrip("s")
        spans = numbers.count(over["n"]) if over["n"] else None
        if spans:
            months = float(spans) * timeunits.TERM_MONTHS.get(unit, 1.0)
            monthly = (1 + rate) ** (1 / months) - 1
            r.assume(f"{rate:.0%} over {months:g} months read as {monthly:.2%} a month, compounded")
            r.put("monthly_growth", monthly, f"growth {monthly:.3g}/month ({monthly:.1%})")
            return
    if unit is None:
        r.assume(f"growth {rate:.0%} read as per month")
        unit = "month"
    if unit != "month":
        per_month = (  # a year is twelve months, a quarter three; a week is 7 of 30 days
            1 / timeunits.TERM_MONTHS[unit]
            if unit in timeunits.TERM_MONTHS
            else timeunits.seconds("month") / timeunits.seconds(unit)
        )
        try:
            monthly = (1 + rate) ** per_month - 1 if rate > -1 else rate
        except OverflowError:
            r.ambiguous(f"'{r.said(m)}' is not plausible as a monthly growth: not used")
            return
        said = f"{rate + 1:g}x" if _has(m.toks, "MULT") else f"{rate:.0%}"
        r.assume(f"{said} a {unit} read as {monthly:.2%} a month, compounded")
        rate = monthly
    r.put("monthly_growth", rate, f"growth {rate:.3g}/month ({rate:.1%})")


_QUOTED_AT = re.compile(
    r"(?:\$\s*/\s*m\b|per\s+million|/m\b|\bprice|\bpriced|\bcost|\bquote|\bbid)", re.I
)
"""A utilization said with a price ("price per million at 40% utilization") is the share
the $/M is quoted at, not the share the fleet is sized for."""


_FIRST = re.compile(r"[\s—–,;:-]*(?P<pct>\d{1,3})\s*%\s+(?:first|to\s+start)\b", re.IGNORECASE)
"""The one of several figures to show first: "at 40% and at 70% utilization — 40% first"."""


def _utilization(r: Reading, m: Match, toks: list[Tok]) -> None:
    if _has(m.toks, "PCT"):
        value = _num(m.toks, "PCT") / 100
    else:
        value = _num(m.toks, "NUM")
        value = value / 100 if value > 1 else value
    first = _FIRST.match(r.text, m.toks[-1].end)
    if first is not None and 0 < float(first["pct"]) <= 100:  # "at 40% and at 70% — 40% first"
        r.ambiguous(f"two utilizations asked ({first['pct']}% first, then {value:.0%}): "
                    f"showing {first['pct']}%; ask again for {value:.0%}")
        value = float(first["pct"]) / 100
    if _QUOTED_AT.search(context.before(r.text, m.toks[0].start)[-60:]):
        r.quoted_utilization = True
        r.put("utilization", value, f"$/M quoted at {value:.0%} utilization")
        return
    r.put("utilization", value, f"utilization {value:.0%}")


def _no_reasoning(r: Reading, m: Match, toks: list[Tok]) -> None:
    r.put("reasoning_tokens", 0, "no reasoning (thinking) tokens")


def _scale(r: Reading, m: Match, toks: list[Tok]) -> None:
    factor = _num(m.toks, "MULT") if _has(m.toks, "MULT") else None
    if factor is None:
        factor = next(float(t.value) for t in m.toks if t.type == "FACTOR" and t.value)
    if _has(m.toks, "BATCH", "CONCURRENT"):
        target = "concurrency"
    elif _has(m.toks, "GPUWORD"):
        target = "gpus"
    else:
        target = "traffic"
    r.scales.append((target, factor, r.said(m)))


def _catalog(name: str) -> Callable[[Reading, Match, list[Tok]], None]:
    def read(r: Reading, m: Match, toks: list[Tok]) -> None:
        value = str(m.toks[0].value)
        if name == "model":
            short = len(m.toks[0].text) <= 3  # "v3", "r1", "K2": a bare short alias
            if short and "model" in r.values and not r.model_short:
                if r.values["model"] != value:  # "Kimi K2.5 ... the deck v3"
                    r.ambiguous(
                        f"'{m.toks[0].text}' not read as {value}: {r.values['model']} named"
                    )
                return
            typo = m.toks[0].unsure  # "deepseak r1", "minima": read through a typo
            if typo and "model" in r.values and not r.model_typo:
                if r.values["model"] != value:  # "kimi k2.5 … velocità minima"
                    m.toks[0].note = (
                        f"'{m.toks[0].text}' not read as {value}: {r.values['model']} named"
                    )
                return
            if (r.model_short and not short) or (r.model_typo and not typo):
                del r.values["model"]  # a full name over a short alias said before it
            r.model_short, r.model_typo = short, typo
            r.model_said = r.said(m)  # said back with the model's name (core.parse.result)
        r.put(name, value, None if name == "model" else f"{name} {value}")

    return read


def _action(name: str) -> Callable[[Reading, Match, list[Tok]], None]:
    def read(r: Reading, m: Match, toks: list[Tok]) -> None:
        if r.action != "reset":
            r.action = name

    return read


RULES: dict[str, Callable[[Reading, Match, list[Tok]], None]] = {
    "rate": _rate,
    "amount": _amount,
    "user_speed": _user_speed,
    "context": _context,
    "gpus": _gpus,
    "peak": _peak,
    "concurrency": _concurrency,
    "ttft": _ttft,
    "tpot": _tpot,
    "term": _term,
    "price": _price,
    "io": _io,
    "api_price": _api_price,
    "budget": _budget,
    "fx": _fx,
    "growth": _growth,
    "utilization": _utilization,
    "no_reasoning": _no_reasoning,
    "scale": _scale,
    "model": _catalog("model"),
    "precision": _catalog("precision"),
    "stack": _catalog("stack"),
    "undo": _action("undo"),
    "reset": _action("reset"),
}


def read(text: str, toks: list[Tok], matches: list[Match]) -> Reading:
    reading = Reading(text)
    for m in matches:
        reading.match = m
        RULES[m.rule](reading, m, toks)
        for t in m.toks:
            if t.note:
                (reading.ambiguous if t.unsure else reading.assume)(t.note)
    reading.match = None
    peaks.apart(reading, toks, matches)
    return reading
