"""Rates said with no unit, and figures sharing one rate's words.

"250k/day, 600 in 300 out" says no unit, but beside a request's lengths a sales engineer
reads requests; "30k/day + 18k/day", or several workloads' bare rates ("three apps …:
support bot 400k/day, search rewrite 250k/day"), are one volume, their sum; "200k and 150k
req a day" for two apps is their sum too. Each reading is said back; where the words do not
say enough, the figure left out is named, never silently dropped.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse import timeunits
from core.parse.numbers import amount, compact

if TYPE_CHECKING:
    from core.parse.facts import Reading


UNSIDED_MIN = 1_000
"""A bare rate this large or larger a day, beside a request's lengths, is a request rate."""


def unsided_rate(reading: Reading) -> None:
    """A rate said with no unit ("250k/day, 600 in 300 out"), the one volume said, beside a
    request's input and output lengths: requests, as a sales engineer reads it (a day's
    tokens would be said as tokens); assumed and said, never silently."""
    volumes = ("requests_per_day", "output_tokens_per_day")
    if not reading.unsided:
        return
    if "requests_per_day" in reading.values and _SEVERAL.search(reading.text):
        _added_workloads(reading)
        return
    if any(n in reading.values for n in volumes):
        return
    if "input_tokens" not in reading.values or "output_tokens" not in reading.values:
        return
    summed = _summed(reading)
    if summed is None:
        return
    daily, said, questions, (value, unit) = summed
    if daily < UNSIDED_MIN:
        return  # "40/min" beside its lengths is 57,600 a day: as many as "250k/day" asks
    reading.ambiguities[:] = [a for a in reading.ambiguities if a not in questions]
    reading.match = None
    reading.put("requests_per_day", daily, f"{compact(daily)} requests/day", said)
    reading.assume(
        f"'{said}' read as requests, beside the request's lengths; say "
        f"'{compact(value)} output tokens a {unit}' if it is tokens"
    )


def _added_workloads(reading: Reading) -> None:
    """Several workloads said (“two apps …”), one read as requests a day and the others'
    bare rates asked ("search does 200k/day and the chat app 150k/day"): one volume, their
    sum, said."""
    value = float(reading.values["requests_per_day"])
    source = reading.sources.get("requests_per_day", "")
    if not _TIME_SAID_DAILY.search(source) or any(u != "day" for _, u, _, _ in reading.unsided):
        return
    extra = sum(v for v, _, _, _ in reading.unsided)
    questions = {q for *_, q in reading.unsided}
    reading.ambiguities[:] = [a for a in reading.ambiguities if a not in questions]
    words = " + ".join([*(said for _, _, said, _ in reading.unsided), source])
    reading.values["requests_per_day"] = value + extra
    reading.understood.append(f"{compact(value + extra)} requests/day in all ← '{words}'")


_TIME_SAID_DAILY = re.compile(r"(?:/\s*|\bper\s+|\ba\s+)(?:day|d)\b", re.IGNORECASE)
_PLUS = re.compile(r"\s*(?:\+|plus|and)\s*", re.IGNORECASE)


def _summed(
    reading: Reading,
) -> tuple[float, str, set[str], tuple[float, str]] | None:
    """The one bare rate, or several said as a sum ("30k/day + 18k/day"): per day, the
    words, the questions they were asked with, and the rate as said; None for bare rates
    said apart."""
    if len(reading.unsided) == 1:
        value, unit, said, question = reading.unsided[0]
        return timeunits.per_day(value, unit), said, {question}, (value, unit)
    spans = [(reading.find(said), said) for _, _, said, _ in reading.unsided]
    if any(at < 0 for at, _ in spans):
        return None
    several = _SEVERAL.search(reading.text) is not None  # "three apps …: 400k/day, 250k/day"
    if several and len({u for _, u, _, _ in reading.unsided}) > 1:
        return None
    for (a, first), (b, _) in zip(spans, spans[1:], strict=False):
        if not several and not _PLUS.fullmatch(reading.text, a + len(first), b):
            return None
    total = sum(timeunits.per_day(v, u) for v, u, _, _ in reading.unsided)
    said = " ".join(reading.text[spans[0][0] : spans[-1][0] + len(spans[-1][1])].split())
    return total, said, {q for *_, q in reading.unsided}, (total, "day")


_TWO_FIGURES = re.compile(
    r"(?P<a>\d[\d.,]*\s*[kKmM]?)\s+(?:and|\+|plus|&)\s+(?P<b>\d[\d.,]*\s*[kKmM]?)\s+"
    r"(?:req(?:uest)?s?|calls|queries|conversations|messages)\s*(?:/|a|per)\s*"
    r"(?:day|d|hour|hr|h|minute|min|week|wk|month|mo)\b",
    re.IGNORECASE,
)
"""Two figures sharing one rate's words: "200k and 150k req a day"."""
_SEVERAL = re.compile(
    r"\b(?:two|three|both|2|3)\s+(?:apps|products|services|teams|workloads|tenants|bots"
    r"|endpoints|use\s*cases|customers|regions)\b|\bboth\b",
    re.IGNORECASE,
)


def shared_rate(reading: Reading) -> None:
    """Figures sharing one rate's words, for several workloads said together ("two apps on
    the same endpoint, 200k and 150k req a day"): their sum; without the workloads said,
    the first figure is named, never silently dropped."""
    source = reading.sources.get("requests_per_day")
    value = reading.values.get("requests_per_day")
    if source is None or not isinstance(value, float) or " and " not in reading.lower:
        return
    found = _TWO_FIGURES.search(reading.text)
    if found is None or not source.startswith(found["b"].strip()):
        return
    a, b = amount(found["a"].replace(" ", "")), amount(found["b"].replace(" ", ""))
    if not a or not b:
        return
    said = " ".join(found.group().split())
    if _SEVERAL.search(reading.text) is None:
        reading.ambiguous(
            f"'{said}': sized for {compact(value)} requests per day; say the total if the "
            "first figure adds to it"
        )
        return
    total = value * (a + b) / b
    reading.values["requests_per_day"] = total
    reading.understood.append(f"{compact(total)} requests/day in all ← '{said}'")
