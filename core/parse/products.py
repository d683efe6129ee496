"""Volumes said as products: "80k DAU, each asks 15 times a day", "250k convos/day, 5 turns each".

Product people count users and conversations, not requests. The request rate is then
a population times how often each member asks:

- a population: a count of users ("80k DAU", "12,000 daily active users", "3k seats")
  or of conversations ("250k convos/day", "40k sessions a day");
- a frequency: how many requests each sends ("15 times per day", "5 turns each",
  "12 messages per session", "8 queries per user per day").

Together they give ``requests_per_day`` (a daily population asking N times, or any
population asking N times a day), said back with both factors. A conversation counted
per day with no turns said stays one request each, as the grammar read it. A user count
with no frequency is asked about, never taken as requests.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse.numbers import compact

if TYPE_CHECKING:
    from core.parse.facts import Reading
    from core.parse.tokens import Tok

_DAILY = r"(?:\s*(?:/|a|per|each|every)\s*day\b|\s+daily\b|\s+every\s+day\b)"
_POPULATION = re.compile(
    r"\s*(?:(?P<dau>daus?\b|daily\s+active\s+users?\b|daily\s+users?\b)"
    r"|(?P<users>(?:active\s+|unique\s+|end[\s-]+)?(?:users?|seats?|employees|people|agents"
    r"|customers|visitors|members|subscribers)\b)"
    r"|(?P<talks>conversations?\b|convos?\b|sessions?\b|chats?\b|threads?\b|visits?\b))"
    rf"(?P<daily>{_DAILY})?",
    re.IGNORECASE,
)
_POPULATION_BEFORE = re.compile(
    r"(?P<dau>\bdaus?|\bdaily\s+active\s+users|\bdaily\s+users)\s*(?:of|is|are|:|=|~|≈|at)?\s*$",
    re.IGNORECASE,
)
_PER_WHAT = (
    r"(?P<unit>(?:\s+(?:each|apiece)\b)"
    r"|(?:\s*(?:/|a|per|an|every)\s*(?:user|seat|session|conversation|convo|chat|thread|visit"
    r"|person|employee|agent|customer)\b)"
    rf"|{_DAILY})"
    rf"(?P<daily>{_DAILY})?"
)
_FREQUENCY = re.compile(
    r"\s*(?:times|x|turns?|messages?|msgs?|requests?|reqs?|queries|query|questions?|calls?"
    r"|prompts?|interactions?|exchanges?|round[\s-]?trips?)\b" + _PER_WHAT,
    re.IGNORECASE,
)
_PER_WHAT_ALONE = re.compile(_PER_WHAT, re.IGNORECASE)
"""After "15x" or "15 times", read as one multiple by the tokenizer."""
MAX_PER_MEMBER = 1e5
"""Requests one user or conversation sends ("each", "per user"): agents send thousands."""
MAX_PER_MEMBER_A_DAY = 1e3
"""Said only "a day" ("20 requests a day"), a larger figure is the service's total."""
_MAX_COUNT = 1e10
"""More people than live on Earth is no population: a token count read by mistake."""


def multiply(reading: Reading, toks: list[Tok]) -> None:
    """Set ``requests_per_day`` from a population and a frequency, when both are said."""
    text = reading.text
    population: tuple[float, bool, bool, str, int, int] | None = None
    frequency: tuple[float, bool, str] | None = None
    for t in toks:
        if t.type not in ("NUM", "MULT") or not isinstance(t.value, float) or t.value <= 0:
            continue
        after = text[t.end :]
        pop = _POPULATION.match(after)
        before = _POPULATION_BEFORE.search(text[max(0, t.start - 30) : t.start])
        if population is None and (pop or before) and t.value < _MAX_COUNT:
            if pop:
                daily = bool(pop["dau"] or pop["daily"])
                talks = bool(pop["talks"])
                end = t.end + pop.end()
            else:
                daily, talks, end = True, False, t.end
            start = t.start - (len(before.group()) if before and not pop else 0)
            said = " ".join(text[start:end].split())
            population = (t.value, daily, talks, said, start, end)
            continue
        freq = (_PER_WHAT_ALONE if t.type == "MULT" else _FREQUENCY).match(after)
        if frequency is None and freq and population is not None and t.start >= population[5]:
            unit = freq["unit"].strip().lower()
            daily = bool(freq["daily"]) or unit.endswith(("day", "daily"))
            each = not unit.endswith(("day", "daily"))
            if t.value > (MAX_PER_MEMBER if each else MAX_PER_MEMBER_A_DAY):
                continue  # "2M requests/day" beside "3k seats" is the total, not each one's
            said = " ".join(text[t.start : t.end + freq.end()].split())
            frequency = (t.value, daily, said)
    if population is None:
        return
    count, pop_daily, talks, pop_said, _, _ = population
    if frequency is None:
        if not talks and "requests_per_day" not in reading.values:
            reading.ambiguous(
                f"'{pop_said}': say how many requests each sends a day, "
                "e.g. '15 requests per user per day'"
            )
        return
    times, freq_daily, freq_said = frequency
    if not (pop_daily or freq_daily):
        return  # "3k seats, 5 turns each": per what time, nobody said
    _replace(reading, pop_said)
    _replace(reading, freq_said)
    if "requests_per_day" in reading.values:
        return  # a request rate said outright wins over the product
    rate = count * times
    reading.match = None
    reading.put(
        "requests_per_day",
        rate,
        f"{compact(rate)} requests/day",
        f"{pop_said}' × '{freq_said}",
    )


def _replace(reading: Reading, said: str) -> None:
    """Drop a rate the grammar read from one factor ("250k convos/day", "20 requests a day")."""
    source = reading.sources.get("requests_per_day")
    if source is None or source not in said and said not in source:
        return
    reading.values.pop("requests_per_day", None)
    reading.sources.pop("requests_per_day", None)
    reading.understood[:] = [u for u in reading.understood if f"← '{source}'" not in u]
    reading.quantities[:] = [q for q in reading.quantities if q[0] != "requests_per_day"]
