"""Volumes said other ways: like a request's length ("we generate 700 million output
tokens a day"), as a total over a window ("45B output tokens total, last 30 days"), or as
a day ("Average day is 900k requests").

The grammar reads "generated 700 million" as one request's output when a word before
the number names the direction, and the time after it is left over. No request answers
with 700 million tokens (``core.parse.plausible`` bounds it), so such a figure, with a
time said right after it ("a day", "per month", "in year one") or right before it
("annual volume: 20 billion output tokens"), is the traffic's volume over that time.
With no time in sight it stays implausible, and is asked about. A total is divided by
its window's days; a volume after "day is" is that day's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse.numbers import amount, compact
from core.parse.openings import word_opening, words_opening
from core.parse.peaks import UNITS, average_found
from core.parse.plausible import BOUNDS

if TYPE_CHECKING:
    from core.parse.facts import Reading
    from core.parse.grammar import Match
    from core.parse.tokens import Tok

_AFTER = re.compile(
    r"[\s~]*(?:output\s+|generated\s+)?(?:tokens?\s+|toks?\s+)?(?:of\s+output\s+)?"
    r"(?:(?:a|per|/|each|every)\s*(?P<unit>day|week|month|year)\b"
    r"|(?P<adverb>daily|weekly|monthly|yearly|annually)\b"
    r"|in\s+(?:year\s+one|the\s+first\s+year|a\s+year)\b)",
    re.IGNORECASE,
)
_BEFORE = re.compile(
    r"\b(?P<adverb>annual|yearly|monthly|daily|weekly)\s+(?:\w+\s+){0,2}?"
    r"(?:volume|usage|output|traffic|demand|total)\s*(?:is|of|averages|runs|:|=|~|≈|\.{2,})?\s*"
    r"(?:about|around|roughly|~)?\s*(?:[\d.,]+\s*[kmb]?\s+(?:input|output|prompt)\s+tokens?"
    r"\s+(?:and|,|plus)\s+)?$"  # "Daily volume: 20M input tokens and 4M output tokens"
    r"|\b(?:per|a|each)\s+(?P<unit>day|week|month|year)\s*:\s*(?:[\w./,]+\s+){0,3}?$"
    r"|\b(?:peak|busiest|average|typical)\s+(?P<hour>hour)\s+(?:produces|generates|is|sees|has"
    r"|does|outputs|was)?\s*(?:about|around|roughly|~|≈)?\s*$"
    r"|\b(?:whole|full|entire)\s+(?P<whole>day|week|month)\s+(?:avg|average|total)?\s*"
    r"(?:is|was|of|:)?\s*(?:about|around|roughly|~|≈)?\s*$"
    r"|\b(?:a|per|each)\s+(?P<before>day|week|month|year)\s+(?:の\s*)?"
    r"(?:(?:output\s+)?tokens?\s+(?:は\s+|is\s+|are\s+)?)?$",  # "月間の出力トークンは 60億"
    re.IGNORECASE,
)
_ADVERBS = {
    "daily": "day",
    "weekly": "week",
    "monthly": "month",
    "yearly": "year",
    "annually": "year",
    "annual": "year",
}


def time_beside(text: str, start: int, end: int) -> str | None:
    """The unit of time said right after ``text[start:end]`` or right before it, or None."""
    after = _AFTER.match(text, end)
    if after:
        return after["unit"] or _ADVERBS.get((after["adverb"] or "").lower(), "year")
    before = _BEFORE.search(text[max(0, start - 60) : start])
    if before is None:
        return None
    if before["hour"]:
        return "hour"  # "the peak hour produces ~25M output tokens"
    if before["before"]:
        return before["before"].lower()
    if before["whole"]:
        return before["whole"].lower()  # "whole day avg is ~40M out toks"
    return before["unit"].lower() if before["unit"] else _ADVERBS[before["adverb"].lower()]


_TOTAL_AFTER = re.compile(
    r"\s*(?:(?P<requests>requests?|reqs?|calls|queries|conversations)"
    r"|(?P<tokens>(?:output|generated|completion)\s+tokens?|tokens?\s+(?:out|generated)))"
    r"\s+(?:in\s+)?total\b",
    re.IGNORECASE,
)
_DAY_BEFORE = re.compile(
    r"\bday(?:\s+(?:is|was|sees|has)|\s*[:=])\s*(?:about|around|roughly|~|≈)?\s*$", re.IGNORECASE
)
_A_DAY_IS = re.compile(r"day(?:\s+(?:is|was|sees|has)|\s*[:=])|" + word_opening("daily") + r"\s")
_DAILY_LABEL = re.compile(
    r"\bdaily\s+(?:(?P<requests>requests?|reqs?|calls|queries)\s+|(?:output\s+)?tokens?\s+)?"
    r"(?:total|volume|count)(?:\s+(?:is|was)|\s*[:=|])?\s*(?:about|around|roughly|~|≈)?\s*$",
    re.IGNORECASE,
)
"""A form's or a table's day: "Daily total: 400,000 requests", "Daily request volume |
3,000,000" (its label says what a bare figure counts)."""
_DAY_AFTER = re.compile(
    r"\s*(?:[A-Za-z][\w.]*-?[\w.]*\d[\w.-]*\s+)?"  # "1.1M DeepSeek-R1 calls": a model between
    r"(?:(?P<requests>requests?|reqs?|calls|queries)|(?:output\s+)?tokens?\s*(?:out)?)\b",
    re.IGNORECASE,
)
_WINDOW = re.compile(
    words_opening(
        ("last", "past", "previous", "trailing", r"over\s+the", r"during\s+the", r"in\s+the", "in"),
        ignorecase=True,
    )
    + r"(?i:\s+(?P<n>\d{1,3}|a|one|two|three|four|six|twelve)?[\s-]*"
    r"(?P<unit>days?|weeks?|months?|quarters?|years?)\b)",
)
_SMALL = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "six": 6, "twelve": 12}
_DAYS = {"day": 1, "week": 7, "month": 30, "quarter": 91.25, "year": 365}


def totals(reading: Reading, counts: list[Tok]) -> None:
    """Totals over a window ("60M requests total", "45B output tokens total" with "last
    30 days") and a day's volume said as a day ("Average day is 900k requests")."""
    text = reading.text
    lower = reading.lower
    if len(lower) != len(text):
        lower = text  # a rare letter lower() lengthens: no offsets to share
    window = None
    at = lower.find("total")
    while at != -1 and window is None:  # a total's window is said near it
        window = _WINDOW.search(text, max(0, at - 200), at + 200)
        at = lower.find("total", at + 5)
    if window is None and not _A_DAY_IS.search(lower):
        return  # neither a total nor a day said as a day: nothing here
    for t in counts:
        if t.type != "NUM" or not isinstance(t.value, float):
            continue
        total = None
        if window is not None and lower.find("total", t.end, t.end + 40) != -1:
            total = _TOTAL_AFTER.match(text, t.end)
        day = daily = None
        if total is None and lower.find("day", max(0, t.start - 30), t.start) != -1:
            day = _DAY_BEFORE.search(text, max(0, t.start - 30), t.start)
        near = max(0, t.start - 40)
        if total is None and day is None and lower.find("daily", near, t.start) != -1:
            daily = _DAILY_LABEL.search(text, near, t.start)
        if total is not None and window is not None:
            days = _window_days(window)
            per_day, said = t.value / days, " ".join(text[t.start : total.end()].split())
            name = "requests_per_day" if total["requests"] else "output_tokens_per_day"
            _put(reading, name, per_day, said, f"over the {' '.join(window.group().split())}")
        elif day is not None and (after := _DAY_AFTER.match(text, t.end)) is not None:
            said = " ".join(text[day.start() : after.end()].split())
            name = "requests_per_day" if after["requests"] else "output_tokens_per_day"
            _put(reading, name, t.value, said, "a day")
        elif daily is not None:
            after = _DAY_AFTER.match(text, t.end)
            if after is None and not (daily["requests"] and _bare(text, t.end)):
                continue
            end = after.end() if after is not None else t.end
            said = " ".join(text[daily.start() : end].split())
            requests = (after["requests"] if after is not None else None) or daily["requests"]
            name = "requests_per_day" if requests else "output_tokens_per_day"
            _put(reading, name, t.value, said, "a day")
        elif day is not None and t.value >= _ELLIPTIC_MIN and _bare(text, t.end):
            kinds = [
                k for k in ("requests_per_day", "output_tokens_per_day") if k in reading.values
            ]
            if len(kinds) == 1:  # "1.2M req/day … typical day is ~800k": the same count
                said = " ".join(text[day.start() : t.end].split())
                if not average_found(reading, kinds[0], t.value, said):
                    _restate(reading, kinds[0], t.value, said)


def over_a_window(reading: Reading) -> None:
    """ "Over the 90-day pilot they burned 1.35B output tokens": a per-request output no
    request has, in a message that names a window of time, is that window's total."""
    value, said = reading.values.get("output_tokens"), reading.sources.get("output_tokens")
    if not isinstance(value, int | float) or value <= BOUNDS["output_tokens"].high or not said:
        return
    window = _WINDOW.search(reading.text)
    if window is None or reading.values.get("output_tokens_per_day") is not None:
        return
    days = _window_days(window)
    _put(reading, "output_tokens_per_day", value / days, said, " ".join(window.group().split()))
    reading.assume(f"'{said}' read as the total over '{' '.join(window.group().split())}'")


def _window_days(window: re.Match[str]) -> float:
    """The days in "last 30 days", "the past two weeks", "over the 90-day pilot"."""
    n = window["n"]
    count = int(n) if n and n.isdigit() else _SMALL.get((n or "a").lower(), 1)
    return count * _DAYS[window["unit"].lower().rstrip("s")]


def _put(reading: Reading, name: str, value: float, said: str, over: str) -> None:
    if reading.values.get(name) is not None:
        average_found(reading, name, value, said)  # else a rate said outright wins
        return
    source = reading.sources.get("output_tokens")
    if name == "output_tokens_per_day" and source is not None and source in said:
        reading.withdraw("output_tokens")  # "45B output tokens" was no request's
    reading.match = None
    unit = UNITS[name]
    reading.put(name, value, f"{compact(value)} {unit} ({over})", said)


_ELLIPTIC_MIN = 1000.0
_BARE = re.compile(r"\s*(?:[.;,!?\n]|$)")


def _bare(text: str, end: int) -> bool:
    """Whether nothing names what the number counts ("typical day is ~800k.")."""
    return _BARE.match(text, end) is not None


def _restate(reading: Reading, name: str, value: float, said: str) -> None:
    """A day's volume said again with no unit: the later figure wins, said as such."""
    old = reading.values[name]
    reading.values[name] = value
    unit = UNITS[name]
    reading.understood.append(f"{compact(value)} {unit} ← '{said}' (in place of {compact(old)})")
    reading.assume(f"'{said}' read as {unit}, like the volume said before it")


_SHARE = re.compile(
    r"(?:\b(?P<pct>\d{1,2}(?:\.\d+)?)\s*%|\b(?P<num>[1-9])\s*/\s*(?P<den>[2-9])\b"
    r"|\b(?:a|one)\s+(?P<part>half|third|quarter|fifth)|\b(?P<half>half))\s*"
    r"(?:of\s+(?:it|that|them|those|the\s+total)\s+)?"
    r"(?:is\s+|are\s+|was\s+|were\s+)?(?P<side>input|prompts?|prefill|output|completions?)\b",
    re.IGNORECASE,
)
_PARTS = {"half": 2, "third": 3, "quarter": 4, "fifth": 5}


_SPLIT = re.compile(
    r"\b(?P<a>\d{1,2})\s*[/:]\s*(?P<b>\d{1,2})\s*%?\s*(?:split\s+)?(?:between\s+)?"
    r"(?P<side>output|out|input|in|prompts?)\s*(?:[/:]|and|to)\s*(?:output|out|input|in|prompts?)\b",
    re.IGNORECASE,
)
"""The same as a split: "70/30 output/input", "4:1 input to output" (the first figure for
the first side)."""


def output_share(reading: Reading) -> None:
    """ "2B tokens/day total, 85% of it input, the rest output", "70/30 output/input": the
    output's share of a day's tokens said without a side (read as output until now, and
    flagged so)."""
    vague = [a for a in reading.ambiguities if "tokens without input/output" in a]
    total = reading.values.get("output_tokens_per_day")
    if not vague or total is None:
        return
    source = reading.sources.get("output_tokens_per_day", "")
    at = max(0, reading.text.find(source.split()[0]) if source else 0)
    found = _SHARE.search(reading.text, at, at + 200)
    split = _SPLIT.search(reading.text, at, at + 200) if found is None else None
    ratio = split is not None and ":" in split.group() and int(split["b"]) > 0
    if split is not None and (int(split["a"]) + int(split["b"]) == 100 or ratio):
        found, pct = split, int(split["a"]) / (int(split["a"]) + int(split["b"]))
    elif found is not None:
        pct = _share(found)
    else:
        return  # the share is said right after the total, if at all
    side = found["side"].lower()
    share = pct if side.startswith(("out", "completion")) else 1 - pct
    if not 0 < share < 1:
        return
    reading.values["output_tokens_per_day"] = total * share
    reading.output_share = share
    reading.ambiguities[:] = [a for a in reading.ambiguities if a not in vague]
    if found.groupdict().get("den"):  # "1/3 is output": its "3 is output" was no length
        wrong = " ".join(reading.text[found.start("den") : found.end()].split())
        if reading.sources.get("output_tokens") == wrong:
            reading.withdraw("output_tokens")
        twice = f"two values for output_tokens ({found['den']} and "
        reading.understood[:] = [u for u in reading.understood if not u.endswith(f"'{wrong}'")]
        reading.ambiguities[:] = [a for a in reading.ambiguities if not a.startswith(twice)]
    said = " ".join(found.group().split())
    reading.understood.append(
        f"{compact(total * share)} output tokens/day: {share:.0%} of {compact(total)} ('{said}')"
    )


_SIDE = r"(?:output|out|input|in|prompts?|completions?|responses?|answers?)"
_REQUEST_SPLIT = re.compile(
    rf"\b(?:split\s+)?(?P<a>\d{{1,2}})\s*[/:]\s*(?P<b>\d{{1,2}})\s*%?\s*(?:split\s+)?"
    rf"(?:between\s+)?(?P<side>{_SIDE})\s*(?:[/:]|and|to)\s*{_SIDE}\b",
    re.IGNORECASE,
)
_UNSIDED = re.compile(r"^'(?P<said>[^']+)': input or output tokens\?")


_A_WEEKDAY_ASKED = re.compile(
    r"\b(?:size|sizing|plan|price)\s+(?:it\s+)?for\s+(?:a\s+)?week\s?days?\b", re.I
)


def weekdays_and_weekends(reading: Reading) -> None:
    """A day's volume said for weekdays and for weekends ("weekdays ~1M requests a day,
    weekends ~300k"): the week's average day, (5 x weekday + 2 x weekend) / 7, unless a
    weekday is what is asked for ("size for a weekday") or the week's average is said."""
    if "week" not in reading.lower:
        return
    for name in ("requests_per_day", "output_tokens_per_day"):
        said = [(v, m) for v, m in reading.history.get(name, []) if m is not None]
        days = [_day_of_week(reading.text, _figure_at(m)) for _, m in said]
        if name in reading.values and len(said) <= 1 and _WEEKDAYS_ONLY.search(reading.text):
            _weekdays_only(reading, name)
            return
        figures = [float(v) for v, _ in said]
        part = _WEEKEND_PART.search(reading.text) if days == ["weekday"] else None
        if part is not None:  # "Weekdays ~7M req/day, weekends about half that"
            share = _PART_SHARES.get((part["part"] or "").lower()) or float(part["pct"] or 0) / 100
            figures, days = [figures[0], figures[0] * share], ["weekday", "weekend"]
        if len(figures) != 2 or days != ["weekday", "weekend"]:
            continue
        a, b = figures
        if _A_WEEKDAY_ASKED.search(reading.text):
            value, how = a, "a weekday, as asked"
        else:
            value = (5 * a + 2 * b) / 7
            how = f"the week's average day: (5 x {compact(a)} + 2 x {compact(b)}) / 7"
        reading.values[name] = value
        twice = f"two values for {name}"
        reading.ambiguities[:] = [x for x in reading.ambiguities if not x.startswith(twice)]
        reading.understood.append(f"{compact(value)} {UNITS[name]}: {how}")


_WEEKDAYS_ONLY = re.compile(
    r"\bweek\s?days?\s+only\b|\bno\s+weekends?\b|\bnothing\s+(?:on|at)\s+(?:the\s+)?weekends?\b"
    r"|\bnothing\s+(?:on\s+)?nights?\s*/\s*weekends\b"
    r"|\bmon(?:day)?\s*[-–]\s*fri(?:day)?\s+only\b|\bonly\s+on\s+week\s?days\b",
    re.IGNORECASE,
)
_OVER_THE_WEEK = re.compile(
    r"\baverage\b[^.;!?\n]{0,30}?\bover\s+(?:the\s+|a\s+)?(?:full\s+|whole\s+|entire\s+)?week\b"
    r"|\bweek'?s\s+average\s+day\b|\b(?:spread|averaged?)\s+(?:it\s+)?over\s+(?:all\s+)?(?:7|seven)\s+days\b",
    re.IGNORECASE,
)


def _weekdays_only(reading: Reading, name: str) -> None:
    """A weekday's volume with nothing on weekends: the week's average day, 5/7 of it, as
    every volume is sized by its average day; a weekday when that is asked for."""
    value = float(reading.values[name])
    average = value * 5 / 7
    if "week" in reading.sources.get(name, "").lower():
        return  # "… × 5 school days a week": the week's average already
    if _A_WEEKDAY_ASKED.search(reading.text):
        reading.assume(f"{compact(value)} {UNITS[name]} sized as a weekday, as asked")
        return
    reading.values[name] = average
    reading.understood.append(
        f"{compact(average)} {UNITS[name]}: the week's average day, 5/7 of {compact(value)} "
        "(weekdays only)"
    )
    hours = reading.window_hours
    if hours is not None:  # the window's peak, over the week's average day
        ratio = 24 / hours
        reading.values["peak_to_average"] = ratio * 7 / 5
        said = f"peak {ratio:.3g}x the day's average: {_runs(hours)}"
        reading.assumed[:] = [a for a in reading.assumed if a != said]
        reading.assume(
            f"peak {ratio * 7 / 5:.3g}x the week's average: {_runs(hours)}, on weekdays only"
        )
    if not _OVER_THE_WEEK.search(reading.text):
        reading.assume(
            f"weekdays only: sized for the week's average day, {compact(average)}; say 'size "
            f"for a weekday' for {compact(value)}"
        )


_WEEKEND_PART = re.compile(
    r"\bweekends?\s+(?:are\s+|is\s+|run\s+|see\s+|do\s+)?(?:about\s+|around\s+|roughly\s+|~\s*)?"
    r"(?:(?P<part>half|a\s+third|a\s+quarter)|(?P<pct>\d{1,2})\s*%)\s+(?:of\s+)?(?:that|this|it)\b",
    re.IGNORECASE,
)
_PART_SHARES = {"half": 0.5, "a third": 1 / 3, "a quarter": 0.25}
_DAY_OF_WEEK = re.compile(
    r"\b(?:(?P<weekday>week\s?days?|mon(?:day)?\s*[-–]\s*fri(?:day)?)"
    r"|(?P<weekend>week\s?ends?|sat(?:urday)?\s*[-–/&]\s*sun(?:day)?))\b[^\d.;!?]{0,20}$",
    re.IGNORECASE,
)


def _figure_at(m: Match) -> int:
    return next((t.start for t in m.toks if t.type == "NUM"), m.toks[0].start)


def _day_of_week(text: str, at: int) -> str | None:
    """ "weekday" or "weekend" when a figure is said of one ("Weekdays run ~1M", "weekends
    ~300k"), else None."""
    found = _DAY_OF_WEEK.search(text, max(0, at - 40), at)
    return None if found is None else ("weekday" if found["weekday"] else "weekend")


def request_split(reading: Reading) -> None:
    """A request's tokens said whole, then split ("~3,000 tokens per request split 80/20
    prompt/completion"): its input and its output."""
    if "/" not in reading.text and ":" not in reading.text:
        return
    for doubt in list(reading.ambiguities):
        unsided = _UNSIDED.match(doubt)
        if unsided is None:
            continue
        at = reading.text.find(unsided["said"])
        found = _REQUEST_SPLIT.search(reading.text, at, at + len(unsided["said"]) + 60)
        total = amount(unsided["said"].split()[0])
        a, b = (int(found["a"]), int(found["b"])) if found else (0, 0)
        if found is None or not total or a + b != 100:
            continue
        first_in = found["side"].lower().startswith(("in", "prompt"))
        given = round(total * (a if first_in else b) / 100)
        said = " ".join(reading.text[at : found.end()].split())
        reading.ambiguities.remove(doubt)
        reading.put("input_tokens", given, f"{given:,} input tokens per request", said)
        reading.put(
            "output_tokens",
            round(total) - given,
            f"{round(total) - given:,} output tokens per request",
            said,
        )


def _share(found: re.Match[str]) -> float:
    """ "85%", "1/3", "a third", "half": the share said, as a fraction."""
    if found["pct"]:
        return float(found["pct"]) / 100
    if found["num"]:
        return int(found["num"]) / int(found["den"])
    return 1 / _PARTS[(found["part"] or found["half"]).lower()]


_ACTIVE_HOURS = re.compile(
    r"\b(?:during\s+an|(?:during|over|in|for|across|inside|within)\s+(?:our|a|the|their)?)\s*"
    r"(?P<n>\d{1,2})[\s-]*"
    r"(?:(?:busy|working|business|active|office)\s+)?(?:hours?|hrs?|h)\b(?:\s+(?:[a-z]+\s+)?(?:window|day|shift|business\s+day|working\s+day))?"
    r"|\b(?P<n2>\d{1,2})\s*(?:(?:busy|working|business|active|office)\s+)?(?:hours|hrs|h)"
    r"(?:\s+(?:a|per|each)\s+|\s*/\s*)(?:day|night)\b"  # "10 hours a day", "(10 h/day)"
    r"|\b(?P<n3>\d{1,2})\s+(?:busy|working|business|active|office)\s+(?:hours|hrs)\s+at\b",
    re.IGNORECASE,
)  # "8 busy hours at 20k req/hr, rest of the day basically zero"
_H_HINT = re.compile(r"\d[\s-]*(?:(?:busy|working|business|active|office)\s+)?(?:hours?|hrs?|h)\b")
_SUB_DAILY = re.compile(
    r"/\s*(?:s|sec|second|min|minute|h|hr|hour)\b|per\s+(?:(?:working|business|office)\s+)?"
    r"(?:second|minute|hour)\b|\b(?:rps|qps|rpm)\b"
    r"|\ban?\s+(?:second|minute|hour)\b",
    re.IGNORECASE,
)


_FROM = r"(?P<a>\d{1,2})(?::\d\d)?\s*(?P<ap>am|pm)?\s*(?:-|–|—|to|until|till|and)\s*"
_TO = r"(?P<b>\d{1,2})(?::\d\d)?\s*(?P<bp>am|pm)?"
"""A span of the clock's two ends ("9am-5pm", "7 to 11pm"), for the patterns that read one."""
_CLOCK = re.compile(
    r"\b(?:during|between|from|within)?\s*(?:(?:business|office|working|opening)\s+hours\s*)?"
    rf"\(?\s*{_FROM}{_TO}\b\)?",
    re.IGNORECASE,
)
"""A span of the clock a rate runs in: "during business hours (9am-5pm)", "9:00–17:00"."""
_CLOCK_CUE = re.compile(
    r"[\s,;:(-]*(?:(?:flat|steady|constant|evenly)\s+)?"
    r"(?:during|between|from|within|only|(?:business|office|working)\s+hours)",
    re.IGNORECASE,
)
_PEAK_BEFORE = re.compile(r"\b(?:peak|peaks|busiest|spikes?|burst)\b", re.IGNORECASE)


def _clock_window(reading: Reading, name: str) -> tuple[re.Match[str], int] | None:
    """The hours of a clock span said right after a rate ("~45 rps during business hours
    (9am-5pm)"); a peak's span ("peak 120 rps 6-9pm") is the peak's, not the day's."""
    said = reading.sources.get(name, "")
    at = reading.find(said) if said else -1
    if at < 0 or _PEAK_BEFORE.search(reading.text, max(0, at - 30), at + len(said)):
        return None
    end = at + len(said)
    found = _CLOCK.search(reading.text, end, end + 60)
    if found is None or not _CLOCK_CUE.match(reading.text, end, found.end()):
        those = _THOSE_HOURS.match(reading.text, end) or _WORKING_HOUR.search(said)
        found = _span_before(reading.text, at) if those else None
    if found is None:
        return None
    hours = _clock_hours(found)
    return (found, hours) if hours is not None else None


_WORKING_HOUR = re.compile(r"\bper\s+(?:working|business|office|open)\s+hour\b", re.I)
"""A rate said per working hour runs the span said before it: "9 to 5 …, 21k requests per
working hour"."""
_THOSE_HOURS = re.compile(
    r"\s*(?:during|in|over|within|for)\s+(?:those|these|that|this|the\s+same)\s+"
    r"(?:hours|window|span|time|period)\b"
    r"|\s*while\s+(?:we'?re|we\s+are|they'?re|they\s+are|it'?s|it\s+is)\s+(?:open|staffed|live)\b",
    re.IGNORECASE,
)
"""A rate said to run in a span named before it: "9am to 5pm …, 50 req/s during those hours"."""


def _span_before(text: str, at: int) -> re.Match[str] | None:
    """The last span of the clock said in the 120 characters before ``at``."""
    spans = [m for m in _CLOCK.finditer(text, max(0, at - 120), at) if _clock_hours(m)]
    return spans[-1] if spans else None


def _clock_hours(found: re.Match[str]) -> int | None:
    """The hours from a span's start to its end ("9am-5pm": 8, "08:00–20:00": 12, "6pm to
    midnight": 6)."""
    if found.groupdict().get("mid"):
        return 12 - int(found["a"]) % 12  # an evening start, said without its pm
    start, stop = int(found["a"]), int(found["b"])
    if (found["bp"] or "").lower() == "pm" and not found["ap"] and start < stop < 12:
        start += 12  # "7-11pm": both in the evening, 4 hours (not 7am to 11pm)
    if (found["bp"] or "").lower() == "pm" and stop < 12:
        stop += 12
    if (found["ap"] or "").lower() == "pm" and start < 12:
        start += 12
    hours = stop - start
    if hours < 0 and (found["ap"] or "").lower() == "pm" and (found["bp"] or "").lower() == "am":
        hours += 24  # "10pm-4am": over midnight, not 20 hours
    elif hours < 0 and not (found["ap"] or found["bp"]) and stop < 12:
        hours += 12  # "9 to 5": office hours, 8 of them
    return hours if 1 <= hours < 24 and stop <= 24 else None


_THE_REST = re.compile(
    r"\b(?:overnight|at\s+night|nights?|off[\s-]?peak|outside\s+(?:those|these|that|business)"
    r"|the\s+other\s+(?P<n>\d{1,2})\s*(?:hours|hrs|h)|the\s+rest\s+of\s+the\s+(?:day|time))\b",
    re.IGNORECASE,
)
"""The hours a second rate runs: "overnight it's ~5M per hour", "the other 12 hours ~10 req/s"."""


def _day_and_night(reading: Reading, name: str) -> bool:
    """Two rates of one volume, one over a span of the clock and one over the rest of the
    day ("Busy hours 8am–8pm run ~50 req/s; the other 12 hours ~10 req/s"): the day is
    the sum of both, and its peak the busy rate over that day's average."""
    said = [(v, m) for n, v, m in reading.quantities if n == name]
    if len(said) != 2:
        return False
    (busy, first), (quiet, second) = said
    start = second.toks[0].start
    rest = _THE_REST.search(reading.text, max(first.toks[-1].end, start - 40), start + 1)
    if rest is None or not _SUB_DAILY.search(reading.said(second)) or quiet >= busy:
        return False
    window = _CLOCK.search(reading.text, max(0, first.toks[0].start - 40), first.toks[-1].end + 40)
    hours = _clock_hours(window) if window is not None else None
    if hours is None and rest["n"]:
        hours = 24 - int(rest["n"])
    if hours is None or not 1 <= hours < 24:
        return False
    daily = busy * hours / 24 + quiet * (24 - hours) / 24
    reading.values[name] = daily
    reading.understood.append(
        f"{compact(daily)} {UNITS[name]}: '{reading.said(first)}' for {hours} hours and "
        f"'{reading.said(second)}' for the other {24 - hours}"
    )
    twice = f"two values for {name}"
    reading.ambiguities[:] = [a for a in reading.ambiguities if not a.startswith(twice)]
    if reading.values.get("peak_to_average") is None:
        ratio = busy / daily
        reading.values["peak_to_average"] = ratio
        reading.assume(f"peak {ratio:.3g}x the day's average: the busy hours' rate over the day's")
    return True


def active_hours(reading: Reading) -> None:
    """ "1,000 requests/second during our 12-hour window and basically zero at night": a
    rate said per second, minute or hour runs only those hours; the day's volume is that
    many hours of it, and its peak is 24/hours of the day's average."""
    rates = [
        n
        for n in ("requests_per_day", "output_tokens_per_day")
        if reading.values.get(n) is not None and _SUB_DAILY.search(reading.sources.get(n, ""))
    ]
    lower = reading.lower
    if not rates:
        _day_in_a_window(reading)
        return  # only a rate said per second, minute or hour can run some hours a day
    if any(_day_and_night(reading, name) for name in rates):
        return
    found = None
    for hint in _H_HINT.finditer(lower):  # "12-hour", "12 hours a day": then the phrase
        found = _ACTIVE_HOURS.search(reading.text, max(0, hint.start() - 25), hint.end() + 30)
        if found is not None:
            break
    clock = _clock_window(reading, rates[0]) if found is None else None
    if clock is not None:
        found, hours = clock
    elif found is not None:
        hours = int(found["n"] or found["n2"] or found["n3"])
    else:
        return
    if not 1 <= hours < 24:
        return
    window = " ".join(found.group().split())
    for name in rates:
        said, value = reading.sources[name], reading.values[name]
        if window in said:
            return  # "220 notes/hour × 45 hospitals × 16 busy hours a day": counted already
        daily = value * hours / 24
        reading.values[name] = daily
        unit = UNITS[name]
        reading.understood.append(
            f"{compact(daily)} {unit}: '{said}' for {hours} hours a day ('{window}')"
        )
        if reading.values.get("peak_to_average") is None:
            reading.values["peak_to_average"] = 24 / hours
            reading.window_hours = hours
            reading.assume(f"peak {24 / hours:.3g}x the day's average: {_runs(hours)}")
        return


def _runs(hours: int) -> str:
    return f"the rate runs {hours} of 24 hours"


_INTO = re.compile(r"[\s,;:(-]*(?:[a-z]+\s+){0,2}?(?:into|in|within|between|from|during)\b", re.I)
"""Words between a day's volume and the clock span it runs in: "400k requests crammed into"."""


def _day_in_a_window(reading: Reading) -> None:
    """ "400k requests a night, crammed into 1am-5am": a day's volume said to run in a span
    of the clock keeps its volume, and its peak is the span's share of the day (24/hours)."""
    name = "requests_per_day"
    said = reading.sources.get(name, "")
    at = reading.find(said) if said else -1
    if at < 0 or reading.values.get("peak_to_average") is not None:
        return
    end = at + len(said)
    found = _CLOCK.search(reading.text, end, end + 60)
    if found is None or not _INTO.match(reading.text, end, found.start() + 1):
        return
    hours = _clock_hours(found)
    if hours is None or not _THE_REST.search(reading.text, found.end(), found.end() + 40):
        return  # idle the rest of the day, or the span is no window of the day's traffic
    reading.values["peak_to_average"] = 24 / hours
    reading.assume(
        f"peak {24 / hours:.3g}x the day's average: '{said}' runs in {hours} of 24 hours "
        f"('{' '.join(found.group().split())}')"
    )


_PART_OF_IT = re.compile(
    r"\b(?:is|are|at|makes\s+up|accounts\s+for)\s+(?:about|around|roughly|~|≈)?\s*"
    r"(?P<pct>\d{1,2}(?:\.\d+)?)\s*%\s+of\s+(?:it|that|this|them|the\s+total|all\s+of\s+it)\b"
    r"|\b(?P<reach>\d{1,2}(?:\.\d+)?)\s*%\s+(?:of\s+(?:them|those|these|it)\s+)?(?:actually\s+)?"
    r"(?:reach|reaches|hit|hits|go\s+to|goes\s+to|get\s+to|gets\s+to|are\s+sent\s+to"
    r"|are\s+routed\s+to|is\s+routed\s+to)\s+(?:the\s+|an\s+)?(?:llm|model|gpus?)\b"
    r"|\b(?:about\s+|around\s+|roughly\s+|~\s*)?(?:a|one)\s+(?P<part>half|third|quarter|fifth)"
    r"\s+(?:of\s+(?:it|that|them)\s+)?(?:will\s+)?(?:move|moves|migrate|migrates|go|goes)"
    r"\s+(?:to|onto|over)\b"
    r"|\b(?P<cached>\d{1,2}(?:\.\d+)?)\s*%\s+(?:of\s+(?:them|those|these|it|[a-z]+)\s+)?(?:are|is)"
    r"\s+(?:cache\s+hits|cached|served\s+from\s+(?:the\s+)?cache)\b"
    r"|\b(?P<moving>\d{1,2}(?:\.\d+)?)\s*%\s+of\s+(?:the\s+)?(?:calls|requests|traffic|queries"
    r"|volume|it|that|them)\)?\s+(?:is|are)\s+(?:moving|migrating|going|coming)\s+(?:over\s+)?"
    r"(?:to|onto)\b"
    r"|\b(?P<slice>\d{1,2}(?:\.\d+)?)\s*%\s+of\s+(?:it|that|this|them)\s+(?:is|are)\b"
    r"(?=[^.;\n]{0,80}?\b(?:slice|portion|part|piece)\s+(?:we|they|to|that)\b)",
    re.IGNORECASE,
)
"""A share of the volume before it: "… about 8% of it", "only 25% actually reach the LLM",
"65% of that is the assistant — that's the slice we'd move", "(about 15% of calls) is moving
to self-hosted Qwen3-32B"."""


_TOKEN_SIDES = ("reason", "think", "prompt", "input", "output", "generat", "completion", "token")


_SHARES = re.compile(r"\b(?P<pct>\d{1,2}(?:\.\d+)?)\s*%\s+(?P<label>[A-Z][\w-]{1,15})\b")


def _share_named(text: str, at: int) -> tuple[float, str] | None:
    """A split listed after a volume ("55% NA, 30% EU, 15% APAC") and the one part the
    message asks for ("the EU slice only", "only EU"): that part's share and its words."""
    shares = list(_SHARES.finditer(text, at, at + 200))
    if len(shares) < 2:
        return None
    chosen = []
    for m in shares:
        label = re.escape(m["label"])
        asked = (
            rf"\b(?:the\s+)?{label}\s+(?:slice|share|part|portion|piece)(?:\s+only)?\b"
            rf"|\bonly\s+(?:the\s+)?{label}\b|\bjust\s+(?:the\s+)?{label}\b"
        )
        if re.search(asked, text[m.end() :]):
            chosen.append(m)
    if len(chosen) != 1:
        return None
    return float(chosen[0]["pct"]) / 100, chosen[0].group()


def part_of_a_total(reading: Reading) -> None:
    """ "Total platform traffic is 50M requests/day and the LLM-backed search is about 8%
    of it": the part to size is that share of the day's volume said before it."""
    if "%" not in reading.text and " move" not in reading.lower and " go" not in reading.lower:
        return
    for name in ("requests_per_day", "output_tokens_per_day"):
        said, value = reading.sources.get(name), reading.values.get(name)
        if value is None:
            continue
        at = reading.text.find(said.split()[0]) if said else 0  # "9M requests/day" said as is
        found = _PART_OF_IT.search(reading.text, max(0, at), max(0, at) + 160) if said else None
        if found is None:
            named = _share_named(reading.text, max(0, at))
            if named is not None:  # "55% NA, 30% EU, 15% APAC. They want the EU slice only"
                _take_share(reading, name, value, *named)
                return
            continue
        subject = reading.text[max(0, found.start() - 30) : found.start()].lower()
        if any(w in subject for w in _TOKEN_SIDES):
            continue  # "the reasoning is ~70% of it": a split of a request's tokens
        if any(w in subject for w in ("average", "avg", "mean")):
            continue  # "the average hour is about 35% of that": the peak's ratio (peaks)
        if found["part"]:
            share = 1 / _PARTS[found["part"].lower()]
        elif found["cached"]:
            share = 1 - float(found["cached"]) / 100  # "30% are cache hits": 70% reach it
        else:
            share = float(found["pct"] or found["reach"] or found["slice"] or found["moving"]) / 100
        _take_share(reading, name, value, share, " ".join(found.group().split()))
        return


def _take_share(reading: Reading, name: str, value: float, share: float, words: str) -> None:
    """The part sized: ``share`` of the day's volume ``value``, said with both figures."""
    reading.values[name] = value * share
    reading.understood.append(
        f"{compact(value * share)} {UNITS[name]}: {share:.0%} of {compact(value)} ('{words}')"
    )


_PAGES = re.compile(
    r"\b(?P<pages>\d[\d,.]*)\s+pages?\b[^.;\n]{0,30}?[~≈]?\s*(?P<tokens>\d[\d,.]*\s*[kK]?)\s+tokens?"
    r"\s*(?:/\s*|an?\s+|per\s+|each\s+)page\b",
    re.IGNORECASE,
)
"""A document's pages and the tokens of a page: "a contract is ~40 pages at ~500 tokens a
page", "avg 30 pages at ~600 tokens/page"."""


def pages(reading: Reading) -> None:
    """A request that reads a whole document reads its pages' tokens: 40 pages at 500
    tokens a page is 20,000 input tokens, not 500."""
    if "page" not in reading.lower:
        return
    found = _PAGES.search(reading.text)
    if found is None:
        return
    count, per_page = amount(found["pages"]), amount(found["tokens"].replace(" ", ""))
    if not count or not per_page or count != int(count):
        return
    chunk = _CHUNK.search(reading.text)
    per_call = amount(chunk["pages"]) if chunk else None
    asked = f"'{found['tokens'].strip()}"  # "'500 tokens': input or output tokens?"
    if chunk is not None and per_call and 0 < per_call < count:
        reading.ambiguities[:] = [a for a in reading.ambiguities if asked not in a]
        _chunked(reading, count, per_call, per_page, " ".join(chunk.group().split()))
        return
    total = round(count * per_page)
    said = " ".join(found.group().split())
    if reading.values.get("input_tokens") not in (None, per_page):
        return  # an input length said outright wins
    reading.withdraw("input_tokens")
    reading.match = None
    reading.ambiguities[:] = [a for a in reading.ambiguities if asked not in a]
    reading.put("input_tokens", total, f"{total:,} input tokens per request", said)


_CHUNK = re.compile(
    r"\b(?P<pages>\d+)\s+pages?\s+(?:per|each|an?|in\s+(?:each|every|one))\s+"
    r"(?:[a-z-]+\s+){0,2}?(?:call|request|prompt|chunk)\b",
    re.IGNORECASE,
)
"""Pages sent in each call: "the pipeline sends 5 pages per extraction call"."""
_CALLS_SAID = re.compile(r"\b(?:calls?|requests?)\b")
_PAGES_SAID = re.compile(r"\bpages?\b")


def _chunked(reading: Reading, count: float, per_call: float, per_page: float, said: str) -> None:
    """A document read a few pages a call: each call reads those pages' tokens, and a
    document takes its pages over the pages of a call calls (on average; a volume of
    documents becomes a volume of calls)."""
    total = round(per_call * per_page)
    calls = count / per_call
    if reading.values.get("input_tokens") not in (None, per_page, total):
        return  # an input length said outright wins
    reading.withdraw("input_tokens")
    reading.match = None
    note = f"{total:,} input tokens per request: {per_call:g} pages × {per_page:g} tokens a page"
    reading.put("input_tokens", total, note, said)
    source = reading.sources.get("requests_per_day", "")
    value = reading.values.get("requests_per_day")
    if not isinstance(value, float) or _CALLS_SAID.search(source):
        return
    if _PAGES_SAID.search(source):  # "9,000 files a week × 30 pages each": pages a day
        reading.values["requests_per_day"] = value / per_call
        reading.understood.append(
            f"{compact(value / per_call)} requests/day: {compact(value)} pages a day, '{said}'"
        )
        return
    reading.values["requests_per_day"] = value * calls
    reading.understood.append(
        f"{compact(value * calls)} requests/day: {calls:g} calls a document "
        f"({count:g} pages, '{said}') × {compact(value)}"
    )


_SPAN = rf"{_FROM}(?:{_TO}|(?P<mid>midnight))"
_DAYS_SHARE = (
    r"(?:(?P<pct>\d{1,2}(?:\.\d+)?)\s*%\s+of\s+(?:the\s+|all\s+(?:the\s+)?)?"
    r"(?:day'?s|daily|total|it\b|that\b|the\s+traffic|the\s+requests|the\s+volume)"
    r"|(?P<all>all\s+of\s+it|all\s+(?:the\s+)?traffic|everything))"
)
_WINDOW_SHARES = (
    re.compile(
        rf"\b{_SPAN}\b[^.;!?\n\d%]{{0,20}}?\b(?:carry|carries|sees?|gets?|takes?|handles?"
        rf"|brings?|accounts?\s+for|makes?\s+up|is|are|has|have)\s+"
        rf"(?:~\s*|about\s+|around\s+|roughly\s+)?{_DAYS_SHARE}",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_DAYS_SHARE}[^.;!?\n\d]{{0,30}}?\b(?:between|from|during|in)\s+"
        rf"(?:(?:business|office|working)\s+hours\s*\(?\s*)?{_SPAN}\b",
        re.IGNORECASE,
    ),
)
"""A span of the clock said with its share of the day's traffic: "evenings 7–11pm carry 40%
of the day's traffic", "60% of the daily volume lands between 6 and 10pm"."""


def window_share(reading: Reading) -> None:
    """The peak a window's share of the day makes: its share over its share of the hours,
    "40% in 4 hours" is 0.4 x 24 / 4 = 2.4x the average."""
    if "peak_to_average" in reading.values:
        return
    lower = reading.lower
    if "%" not in reading.text and "all " not in lower and "everything" not in lower:
        return
    found = next((m for p in _WINDOW_SHARES if (m := p.search(reading.text))), None)
    if found is None:
        return
    hours = _clock_hours(found)
    if hours is None or not 0 < hours < 24:
        return
    share = 100.0 if found["all"] else float(found["pct"])
    ratio = share / 100 * 24 / hours
    if not 1 < ratio <= 50:
        return
    reading.values["peak_to_average"] = ratio
    said = " ".join(found.group().split())
    reading.understood.append(
        f"peak {ratio:.3g}x the average ← '{said}' ({share:g}% of the day in {hours} hours)"
    )
