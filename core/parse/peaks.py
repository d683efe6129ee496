"""Peak and average kept apart: a rate said at the peak is not the average volume.

Customers give traffic both ways ("we peak at 400 req/s", "40 concurrent on average,
120 at peak"). The contract's volumes are averages, with ``peak_to_average`` on top,
so a rate read at the peak is turned into the average, and the conversion said:

- a peak and an average of one quantity: the average, and their ratio as
  ``peak_to_average`` (unless one was stated);
- a peak and a stated ratio: the peak divided by the ratio;
- a peak alone: kept, and said to be sized as if it were steady.

A fact is "at the peak" when a peak word stands next to it, unclaimed by another
fact ("400 req/s at peak", "peak of 400 rps"), or a multiple of the average follows it
("360 req/s, about three times our average"); a bare number beside a peak or
average word ("…, 120 at peak") is the same quantity as the fact before it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse import numbers
from core.parse.lexicon import BREAK
from core.parse.numbers import amount, compact
from core.parse.openings import words_opening

if TYPE_CHECKING:
    from core.parse.facts import Reading
    from core.parse.grammar import Match
    from core.parse.tokens import Tok

_SIDES = frozenset({"PEAK", "AVG"})
_LOW = re.compile(
    words_opening(
        ("trough", "troughs", "lowest", "minimum", "min", "low", r"off[\s-]peak", "overnight"),
        ignorecase=True,
    )
    + r"\b[\s:=~]*$"
)
"""Words right before a rate that make it the low point, neither the average nor a peak."""
_PEAK_SAID = re.compile(
    words_opening(
        (r"up\s+to", r"window\s+(?:runs|is|sees|hits|does|peaks)\s+(?:at\s+)?"), ignorecase=True
    )
    + r"(?i:\s*(?:about\s+|around\s+|roughly\s+|~\s*)?$)"
)
"""Words before a rate that make it the peak where no peak word stands beside it."""
_PEAK_AFTER = re.compile(
    r"[\s,;—–-]*(?:this|that|which)\s+(?:is|was|'s|are|were)\s+(?:the|our|their|at)\s+peak\b",
    re.IGNORECASE,
)
"""Words after a rate that say it is the peak: "45 requests per second, this is the peak"."""
_OWN_UNIT = frozenset({"REQUESTS", "TOKENS", "OUT", "IN"})
_DAILY = re.compile(
    r"\b(?:daily\s+(?:total|volume)|(?:whole|full|entire)\s+day)\b[^\d]*$", re.IGNORECASE
)
MAX_RATIO = 50.0
"""A peak this many times its average is no peak and average of one volume."""
REACH = 3
"""Terminals either side of a fact where a peak or average word still qualifies it."""
UNITS = {
    "requests_per_day": "requests/day",
    "output_tokens_per_day": "output tokens/day",
    "concurrency": "concurrent",
}
"""How each volume the reader keeps is said back."""


_SHARE_OF_PEAK = re.compile(
    r"\b(?:average|avg|mean|averages)\b(?:(?!\band\b)[^.;!?\n]){0,40}?\b(?:is|at|runs|sits|about|around"
    r"|roughly|being|abt|~|≈)(?:\s+(?:approximately|approx\.?|about|around|roughly|nearly"
    r"|close\s+to|some))?"
    r"\s*[~≈]?\s*(?P<pct>\d{1,2}(?:\.\d+)?)\s*%\s*of\s+"
    r"(?:(?:the\s+|our\s+)?peak|(?P<back>that|this|it))\b"
    r"|\b(?:average|avg|mean)\b[^.;!?\n\d]{0,20}?\bshare\s+of\s+(?:the\s+)?peak\W{0,4}"
    r"(?P<pct2>\d{1,2}(?:\.\d+)?)\s*%",  # a table's "Average, as share of peak | 40 | %"
    re.IGNORECASE,
)
"""ratio said the other way round: "the average over the day is ~40% of peak"."""


_HOUR_SHARE = re.compile(
    r"\b(?:peak|busiest)\s+hour\s+(?:alone\s+)?(?:carries|has|sees|takes|handles|is"
    r"|accounts\s+for|does|gets)\s+(?:about\s+|around\s+|roughly\s+|~\s*)?"
    r"(?P<pct>\d{1,2}(?:\.\d+)?)\s*%\s+of\s+(?:the\s+)?(?:day|daily|a\s+day)",
    re.IGNORECASE,
)
"""The busiest hour as a share of the day: "the peak hour carries ~10% of the day's calls"."""
_FRACTION_OF_PEAK = re.compile(
    r"\b(?:a|one)\s+(?P<part>half|third|quarter|fifth)\s+of\s+(?:that|it|this|the\s+peak)"
    r"\s+(?:on\s+)?(?:average|avg)\b"
    r"|\b(?:average|avg|averages|steady[\s-]state|baseline|sustained)\b"
    r"(?:(?:(?!\band\b)[^.;!?\n]){0,30}?\b(?:is|runs|sits|maybe|abt)"
    r"(?:\s+at)?)?\s+"
    r"(?:about\s+|around\s+|roughly\s+|maybe\s+|abt\s+|~\s*|(?:more\s+)?like\s+"
    r"|approximately\s+|nearly\s+|closer\s+to\s+|close\s+to\s+)?(?:a\s+|one\s+|the\s+)?"
    r"(?P<part2>half|third|quarter|fifth|1/2|1/3|1/4|1/5)"
    r"(?:\s+(?:of\s+)?(?:that|it|this|(?:the\s+)?peak)\b|(?P<bare>(?=\s*(?:[.;!?\n]|$))))",
    re.IGNORECASE,
)
"""The same said with a fraction, after a rate at the peak: "…, a third of that on average"."""
_PARTS = {"half": 2.0, "third": 3.0, "quarter": 4.0, "fifth": 5.0}
_PARTS |= {"1/2": 2.0, "1/3": 3.0, "1/4": 4.0, "1/5": 5.0}
_FRACTION_ABROAD = re.compile(
    r"\b(?:média|media|promedio|snittet|genomsnittet|moyenne|durchschnitt|tagesdurchschnitt"
    r"|schnitt)\b[^.;!?\n]{0,40}?\b(?P<part>metade"
    r"|la\s+mitad|um\s+terço|un\s+tercio|la\s+metà|un\s+terzo|hälften|en\s+tredjedel"
    r"|um\s+quarto|un\s+cuarto|um\s+quinto|un\s+quinto|en\s+fjärdedel|en\s+femtedel"
    r"|ein\s+drittel|die\s+hälfte|ein\s+viertel|ein\s+fünftel|un\s+tiers|la\s+moitié"
    r"|un\s+quart|un\s+cinquième)"
    r"(?:\s+(?:disso|de\s+eso|do\s+pico|del\s+pico|del\s+picco|di\s+questo|av\s+det|av\s+toppen|davon"
    r"|de\s+ça|de\s+cela|du\s+pic|vom\s+spitzenwert)\b|(?=\s*(?:[^\w\s]\s*)?(?:[.;!?\n,]|$|\d)))",
    re.IGNORECASE,
)
"""The same in Portuguese, Spanish, Italian, Swedish, German and French: "a média fica em
mais ou menos metade disso", "im Tagesdurchschnitt etwa ein Drittel davon", "la media è circa
un terzo."."""
_ABROAD_PARTS = (
    dict.fromkeys(("metade", "mitad", "metà", "hälften", "hälfte", "moitié"), 2.0)
    | dict.fromkeys(("terço", "tercio", "terzo", "tredjedel", "drittel", "tiers"), 3.0)
    | dict.fromkeys(("quarto", "cuarto", "fjärdedel", "viertel", "quart"), 4.0)
    | dict.fromkeys(("quinto", "femtedel", "fünftel", "cinquième"), 5.0)
)
_TIMES_LOWER = re.compile(
    r"\b(?:the\s+|la\s+|el\s+|a\s+)?(?:average|avg|mean|moyenne|promedio|media|média"
    r"|durchschnitt)\s+(?:load\s+|traffic\s+)?(?:is|est|es|è|é|ist|runs)\s+"
    r"(?:about\s+|roughly\s+|~\s*|environ\s+|unas\s+|circa\s+)?"
    r"(?P<n>\d+(?:[.,]\d+)?|two|three|four|five|six)\s*(?:x|times|fois|veces|volte|vezes|mal)\s+"
    r"(?:lower|less|smaller|plus\s+basse|plus\s+faible|moins|menor|más\s+baja|più\s+bassa"
    r"|mais\s+baixa|niedriger|kleiner)\b",
    re.IGNORECASE,
)
"""The average said as a fraction of the peak by its multiple: "the average is three times
lower", "la moyenne est trois fois plus basse"."""
_COLON_RATIO = re.compile(
    r"\b(?P<a>avg|average|mean|peak)\s*(?::|/|-to-|\s+to\s+)\s*(?P<b>avg|average|mean|peak)\b"
    r"[^\d\n]{0,12}?(?P<x>\d+(?:\.\d+)?)\s*:\s*(?P<y>\d+(?:\.\d+)?)\b",
    re.IGNORECASE,
)
"""A ratio said with a colon, either way round: "avg:peak is 1:4", "peak:avg 3:1"."""
_RATIO_DIGITS = re.compile(r"\s*[:/]\s*\d")
_FLAT = re.compile(
    r"\bflat\s+(?:all\s+day|around\s+the\s+clock|24/7|24x7|day\s+and\s+night|through(?:out)?\s+"
    r"the\s+day)\b|\bno\s+(?:real\s+|daily\s+)?(?:peaks?|spikes?|peak\s+hours?)\b(?!\s+(?:is|of|at))",
    re.IGNORECASE,
)
"""Traffic said to have no peak: "150 QPS, flat all day", "no real peaks"."""


_RATIO_AGAIN = re.compile(
    r"\b(?:no|nope|actually|sorry|correction|wait|update|scratch\s+that)\b[^.;!?\n]{0,60}?"
    r"\b(?:it'?s|is|make\s+it|more\s+like|closer\s+to)\s+(?:~\s*|about\s+)?"
    r"(?P<x>\d+(?:\.\d+)?)\s*(?::\s*1\b|x\b(?!\s*(?:h\d|b\d|a\d|mi\d|l\d|gb\d)))",
    re.IGNORECASE,
)
"""A stated ratio taken back with a bare one: "3:1 peak to avg... hmm no, … it's 2:1"."""


def ratio_corrected(reading: Reading) -> None:
    """A peak-to-average ratio said, then corrected by a bare one after a marker word."""
    said = reading.sources.get("peak_to_average")
    ratio = reading.values.get("peak_to_average")
    if not said or ratio is None or (at := reading.find(said)) < 0:
        return
    found = _RATIO_AGAIN.search(reading.text, at + len(said))
    if found is None or not 1 < (new := float(found["x"])) <= MAX_RATIO or new == ratio:
        return
    reading.values["peak_to_average"] = new
    words = " ".join(found.group().split())
    reading.understood[:] = [u for u in reading.understood if f"← '{said}'" not in u]
    reading.understood.append(f"peak {new:g}x the average ← '{words}' (in place of '{said}')")


def share_of_peak(reading: Reading) -> int | None:
    """An average said as a share of the peak gives the peak-to-average ratio; where it
    points back at the rate before it ("…, the average is about half that"), that rate is
    the peak, and where it does so is returned."""
    if "peak_to_average" in reading.values:
        return None
    text = reading.text
    flat = _FLAT.search(text) if "flat" in reading.lower or "no " in reading.lower else None
    if flat is not None:
        reading.values["peak_to_average"] = 1.0
        reading.understood.append(f"no peak (1x the average) ← '{' '.join(flat.group().split())}'")
        return None
    back_abroad = False
    found = _SHARE_OF_PEAK.search(text) if "%" in text else None
    hour = _HOUR_SHARE.search(text) if found is None and "%" in text else None
    if hour is not None and 100 / 24 < float(hour["pct"]) < 100:
        ratio = float(hour["pct"]) / 100 * 24  # the peak hour's share of the day, per hour
        reading.values["peak_to_average"] = ratio
        said = " ".join(hour.group().split())
        reading.understood.append(f"peak {ratio:.3g}x the average ← '{said}' (× 24 hours)")
        return None
    lower = _TIMES_LOWER.search(text) if found is None and hour is None else None
    times = numbers.count(lower["n"].replace(",", ".")) if lower is not None else None
    pct = float(found["pct"] or found["pct2"]) if found is not None else 0.0
    colon = _COLON_RATIO.search(text) if found is None and ":" in text else None
    if found is not None and 0 < pct < 100:
        ratio = 100 / pct
    elif lower is not None and times and 1 < times <= MAX_RATIO:
        found, ratio = lower, times  # "the average is three times lower"
    elif colon is not None and (colon["a"].lower() == "peak") != (colon["b"].lower() == "peak"):
        x, y = float(colon["x"]), float(colon["y"])
        peak, mean = (x, y) if colon["a"].lower() == "peak" else (y, x)
        if not (mean > 0 and 1 < peak / mean <= MAX_RATIO):
            return None
        found, ratio = colon, peak / mean
    elif " of " in text or " half" in reading.lower:
        fractions = list(_FRACTION_OF_PEAK.finditer(text))  # "… closer to half of peak, not
        if not fractions:  # a third": a later word on the ratio corrects the one before it
            return None
        found = fractions[-1]
        if len(fractions) > 1:
            earlier = " ".join(fractions[0].group().split())
            reading.assume(f"'{earlier}' read as changed by what is said after it")
        ratio = _PARTS[(found["part"] or found["part2"]).lower()]
    elif (abroad := _FRACTION_ABROAD.search(text)) is not None:
        found = abroad
        ratio = _ABROAD_PARTS[abroad["part"].split()[-1].lower()]
        named_peak = abroad.group().lower().endswith(("pico", "picco", "pic", "toppen"))
        back_abroad = not named_peak  # "la media è circa un terzo.": of the rate before
    else:
        return None
    said = " ".join(found.group().split())
    reading.values["peak_to_average"] = ratio
    reading.understood.append(f"peak {ratio:.3g}x the average ← '{said}'")
    reading.sources["peak_to_average"] = said
    back = found.groupdict().get("back") or found.group().lower().endswith(
        ("that", "this", "it", "disso", "eso", "questo", "det", "davon", "ça", "cela")
    )
    back = back or back_abroad or found.groupdict().get("bare") is not None  # "… about half."
    return found.start() if back else None


def apart(reading: Reading, toks: list[Tok], matches: list[Match]) -> None:
    ratio_corrected(reading)
    back = share_of_peak(reading)
    if not reading.quantities or (back is None and not any(t.type in _SIDES for t in toks)):
        return  # nothing said at the peak or on average, beyond a stated ratio
    covered = {t.index for m in matches for t in m.toks}
    ratios = {
        m.first
        for m in matches
        if m.rule == "peak"
        and any(t.type == "AVG" for t in m.toks)
        and not any(t.type == "PEAK" for t in m.toks)
    }  # "…, about three times our average" says the rate before it is the peak
    for k in ratios:  # "the busiest hour runs at 3.2x the mean": the ratio's own peak word
        for j in range(k - 1, -1, -1):
            if j in covered or toks[k].start - toks[j].end > 30 or _punctuation(toks[j]):
                break
            if toks[j].type == "PEAK":
                covered.add(j)
                break
    said: dict[str, dict[str, list[tuple[float, str]]]] = {}
    before_back = [q for q in reading.quantities if back is not None and q[2].toks[-1].end <= back]
    pointed = before_back[-1][2] if before_back else None  # "… about half that": the peak
    lows: set[str] = set()
    last: dict[str, float] = {}  # the last said of each volume that is no low
    opened = _opened(reading.text, toks, reading.quantities, covered)
    for name, value, m in reading.quantities:
        if _LOW.search(reading.text, max(0, m.toks[0].start - 25), m.toks[0].start):
            reading.assume(f"'{reading.said(m)}' is the low, not the average: not sized")
            lows.add(name)
            continue  # "peak 1.75M/h · trough 720k/h · mean 1.05M/h"
        last[name] = value
        inner = next((t.type for t in m.toks if t.type in _SIDES), None)  # "TPM: mean 250k"
        if inner is not None:
            side = "peak" if inner == "PEAK" else "average"
        elif _PEAK_AFTER.match(reading.text, m.toks[-1].end):
            side = "peak"  # "45 requests per second, this is the peak"
        elif m.first in opened:
            side = "peak"  # "2M requests a day, peaking at 100 rps"
        else:
            side = _side(toks, m.first, m.last, covered)
        start = m.toks[0].start
        if side == "stated" and _PEAK_SAID.search(reading.text, max(0, start - 40), start):
            side = "peak"  # "up to forty a second", "the 10:00–12:00 window runs at 54 req/s"
        ratio_after = any(_ratio_after(reading.text, m, toks, k) for k in ratios)
        if m is pointed or (side == "stated" and ratio_after):
            side = "peak"  # "…, the average per day is 40% of this": the rate before is the peak
        said.setdefault(name, {}).setdefault(side, []).append((value, reading.said(m)))
        other = _elliptic(toks, m.last, covered)
        if other is not None and _RATIO_DIGITS.match(reading.text, other[0].end):
            other = None  # "avg:peak is 1:4": a ratio's term, not a figure at the peak
        if other is not None:
            tok, other_side = other
            assert isinstance(tok.value, float)
            scaled = tok.value * (value / _num(m))  # "120 at peak" in the fact's unit
            if _DAILY.search(reading.text, max(0, tok.start - 30), tok.start):
                scaled = tok.value  # "… and the daily total was 720k": a day's already
            said[name].setdefault(other_side, []).append((scaled, tok.text))
    for name in lows & set(last):
        reading.values[name] = round(last[name]) if name == "concurrency" else last[name]
    for name, sides in said.items():
        if "peak" in sides:
            _resolve(reading, name, sides)


_PEAK_VERBS = frozenset({"peaks", "peaking", "peaked", "spikes", "spiking", "bursts", "bursting"})
_JOINED = re.compile(
    r"\s+(?:and|with|but|plus|while)(?:\s+(?:the|its|their|our|some|occasional))?\s+",
    re.IGNORECASE,
)
"""A word joining a peak to the rate before it: "35 rps and spikes of 140 rps"."""
_PEAK_IS = re.compile(r"\s*(?:is|was|hits?|reaches|goes\s+to|of|at)\b", re.IGNORECASE)


def _ratio_after(text: str, m: Match, toks: list[Tok], k: int) -> bool:
    """Whether the ratio at ``toks[k]`` follows the rate ``m`` in its own sentence ("120 rps,
    about three times our average"), not in the next ("60M requests; the peak hour …")."""
    return (
        m.last < k <= m.last + REACH
        and not any(toks[j].type == "PEAK" for j in range(m.last + 1, k))  # "… the peak is 4x"
        and not _SENTENCE_END.search(text, m.toks[-1].end, toks[k].start)
        and not _PEAK_NAMED.search(text, m.toks[-1].end, toks[k].start)
    )  # "2,5 miliardi … al mese, con un picco pari al doppio della media": the peak's own


_PEAK_NAMED = re.compile(
    r"\b(?:peak|picco|pico|pic|spitze|spitzenlast|lastspitze|pointe|piek|toppen)\b", re.IGNORECASE
)


_SENTENCE_END = re.compile(r"[.;!?](?:\s|$)")


def _punctuation(t: Tok) -> bool:
    return t.type == BREAK and not t.text.isalpha()


def _opened(
    text: str, toks: list[Tok], quantities: list[tuple[str, float, Match]], covered: set[int]
) -> set[int]:
    """The facts a peak word opens after a break ("2M requests a day, peaking at 100 rps",
    "…, the daytime peak is 45 rps", "5k rpm (peak 12k rpm)"): that word is theirs, not
    the fact's before the break, which would otherwise reach past the comma for it. A bare
    noun after a comma ("10 rps, peak 25 rps") is left to the nearest-word rule, as is a
    word right after a rate ("120 rps peak, 40 rps average") unless a joining word stands
    between ("35 rps and spikes of 140 rps")."""
    ends = {m.last for _, _, m in quantities}
    out: set[int] = set()
    for _, _, m in quantities:
        k = m.first - 1
        if k < 1 or k in covered or toks[k].type != "PEAK":
            continue
        if toks[k - 1].type == "TRAFFIC" and k > 1 and (
            toks[k - 2].type == BREAK
            or (k - 2 in ends and _JOINED.fullmatch(text, toks[k - 2].end, toks[k - 1].start))
        ):  # "…, but right after the push it bursts to 10k/min", "4M a day but it bursts to"
            k -= 1  # "it" is the traffic
        if toks[k - 1].type != BREAK and not (
            k - 1 in ends and _JOINED.fullmatch(text, toks[k - 1].end, toks[k].start)
        ):
            continue
        word = m.first - 1
        if (
            toks[word].text.lower() in _PEAK_VERBS
            or toks[k - 1].text in ("(", ")", ";")
            or _PEAK_IS.match(text, toks[word].end, m.toks[0].start)
        ):
            covered.add(word)
            out.add(m.first)
    return out


def _num(m: Match) -> float:
    for t in m.toks:
        if t.type in ("NUM", "MULT") and isinstance(t.value, float) and t.value:
            return t.value
    return 1.0


def _side(toks: list[Tok], first: int, last: int, covered: set[int]) -> str:
    """The nearest unclaimed peak or average word either side (before, on a tie); the
    word is then the fact's, so the next fact does not read it too ("2,400/min at the
    daily peak and about 900/min averaged")."""
    for step in range(1, REACH + 1):
        for k in (first - step, last + step):
            if 0 <= k < len(toks) and k not in covered and toks[k].type in _SIDES:
                covered.add(k)
                return "peak" if toks[k].type == "PEAK" else "average"
    return "stated"


def _elliptic(toks: list[Tok], last: int, covered: set[int]) -> tuple[Tok, str] | None:
    """A bare number after the fact, beside a peak or average word: ", 120 at peak"."""
    for k in range(last + 1, min(len(toks), last + 1 + 2 * REACH)):
        t = toks[k]
        if t.type != "NUM" or k in covered:
            continue
        if isinstance(t.value, float) and t.value < 1:
            return None  # "the average is one third of the peak": a share, no volume
        if k + 1 < len(toks) and toks[k + 1].type in _OWN_UNIT:
            return None  # "…; a typical day is ~1.2M requests": a figure with its own unit
        back = k - 1
        while back > last and toks[back].type == "TIME":
            back -= 1  # "busiest minute of the day ~600k": the peak word before its times
        for j in (k + 1, k + 2, k - 1, back):  # "3 on average" before "at peak, 3"
            if 0 <= j < len(toks) and j not in covered and toks[j].type in ("PEAK", "AVG"):
                return t, "peak" if toks[j].type == "PEAK" else "average"
        return None
    return None


_AT_PEAK = re.compile(
    r"\b(?:fixed|siz(?:e|ed|ing)|set|run|provisioned?|pric(?:e|ed|es|ing)|quot(?:e|ed|ing)"
    r"|estimated?)\s+(?:it\s+|the\s+deployment\s+|the\s+box\s+)?(?:at|for)\s+"
    r"(?:the\s+|their\s+|its\s+)?(?:\d+[\w-]*\s+)?peak(?:\s+concurrency)?\b"
    r"|\b(?:do|use|take|start\s+with)\s+the\s+peak(?:\s+one)?\b"
    r"|\b(?:price|quote|size|run|estimate|cost)\s+the\s+(?:peak|spike|burst|launch)\s+"
    r"(?:config|configuration|case|scenario|setup|deployment|batch)\b"
    r"|\b(?:check|test|validate|evaluate)\s+(?:it\s+|that\s+)?(?:at|for)\s+(?:the\s+)?peak\b"
    r"|\bonly\s+care\s+about\s+(?:the\s+)?peak\b|\bsizing\s+the\s+peak\b"
    r"|\babsorb\s+(?:a|the)\s+peak\b|\bholds?\s+at\s+(?:the\s+)?peak\b|\bpeak[\s-]hour\s+cost\b",
    re.IGNORECASE,
)
"""A deployment asked for at its peak concurrency, not its average ("check it at peak",
"they only care about peak", "to absorb a peak of 400 concurrent")."""


_AT_THE_FIGURE = re.compile(
    r"\b(?:size|price|quote|run|set)\s+(?:it|the\s+box|the\s+deployment|this|them)\s+"
    r"(?:at|for)\s+the\s+(?P<n>\d{1,5})\b",
    re.IGNORECASE,
)
"""A deployment asked for at a figure said before: "size the box at the 300"."""
_SAME_RATIO = re.compile(
    r"\bsame\s+(?:peak[\s-]*to[\s-]*(?:average|avg|mean)|peak|ratio|p2a|shape)", re.IGNORECASE
)


def _nearest(text: str, peak_said: str, means: list[tuple[float, str]]) -> tuple[float, str]:
    """The average said closest to the peak: its ratio's other half ("Now: 150 rps average,
    400 rps peak. Planned: 300 rps average, the same ratio")."""
    at = text.find(peak_said)
    if at == -1 or len(means) == 1 or not _SAME_RATIO.search(text):
        return means[-1]
    return min(means, key=lambda m: abs(text.find(m[1]) - at) if m[1] in text else len(text))


def _resolve(reading: Reading, name: str, sides: dict[str, list[tuple[float, str]]]) -> None:
    peak, peak_said = sides["peak"][-1]
    means = sides.get("average") or sides.get("stated")
    average = means[-1] if means else None
    unit = UNITS[name]
    twice = f"two values for {name}"  # a peak and an average are not two readings
    reading.ambiguities[:] = [a for a in reading.ambiguities if not a.startswith(twice)]
    ratio = reading.values.get("peak_to_average")
    if average is not None:
        mean, mean_said = average
        if mean <= 0 or mean > peak or mean < peak / MAX_RATIO:
            return  # "42,000 tok/s … peak-to-mean 1.8": a ratio beside it, not its average
        if peak <= mean * 1.01:
            return  # "90k/day (… the 3.75k/hr average)": one volume said twice, no peak
        at_the = _AT_THE_FIGURE.search(reading.text) if name == "concurrency" else None
        if at_the is not None and int(at_the["n"]) != round(peak):
            at_the = None  # "size the box at the 300": the peak's own figure, said again
        if name == "concurrency" and (_AT_PEAK.search(reading.text) or at_the):
            reading.values[name] = round(peak)  # "fixed at the peak: … 120 concurrent"
            reading.understood.append(f"concurrency {round(peak)}, the peak, as asked")
            return
        reading.values[name] = round(mean) if name == "concurrency" else mean
        if name != "concurrency":
            _say_average(reading, peak_said, f"{compact(mean)} {unit} on average ← '{mean_said}'")
        if ratio is not None and means and (
            _stale(ratio, peak, means) or _said_after(reading, mean_said, ratio, peak / mean)
        ):
            reading.assume(f"the {ratio:g}x peak-to-average said went with an earlier average")
            ratio = None  # "avg 30, so p2a 3 … correction — avg is 45": the ratio went with 30
            reading.understood[:] = [u for u in reading.understood if "x the average ←" not in u]
            reading.values.pop("peak_to_average")
        if ratio is None:
            paired, paired_said = _nearest(reading.text, peak_said, means or [average])
            reading.values["peak_to_average"] = peak / paired
            reading.understood.append(
                f"peak {peak / paired:.3g}x the average ← '{peak_said}' over '{paired_said}'"
            )
        return
    if ratio:
        reading.values[name] = round(peak / ratio) if name == "concurrency" else peak / ratio
        _say_average(
            reading,
            peak_said,
            f"{compact(peak / ratio)} {unit} on average: '{peak_said}' is the peak, "
            f"÷ {ratio:g} (peak to average)",
        )
        return
    if name != "concurrency":
        reading.steady_peaks[name] = peak_said
        reading.assume(steady(peak_said))


def _said_after(reading: Reading, mean_said: str, ratio: float, quotient: float) -> bool:
    """Whether the average's figure, said after the ratio, disagrees with it ("the average
    is roughly a quarter of that" … "dashboard shows avg ≈ 50k tok/s, so more like a
    third"): the later figure is the last word."""
    said = reading.sources.get("peak_to_average")
    if not said or abs(quotient - ratio) <= 0.05 * ratio:
        return False
    at, mean_at = reading.find(said), reading.text.rfind(mean_said)
    return 0 <= at < mean_at


def _stale(ratio: float, peak: float, means: list[tuple[float, str]]) -> bool:
    """Whether a stated ratio is the peak over an average said earlier and corrected since,
    not over the last one: the ratio is then recomputed, not kept."""
    *earlier, (last, _) = means
    close = [mean for mean, _ in earlier if abs(peak / mean - ratio) <= 0.02 * ratio]
    return bool(close) and abs(peak / last - ratio) > 0.05 * ratio


def _say_average(reading: Reading, peak_said: str, line: str) -> None:
    """The average's say-back in place of the peak's: the value read is the average."""
    said_at_peak = f"← '{peak_said}'"
    reading.understood[:] = [u for u in reading.understood if not u.endswith(said_at_peak)]
    reading.understood.append(line)


def steady(peak_said: str) -> str:
    """What is said of a volume known only at its peak."""
    return (
        f"'{peak_said}' is the peak: sized as if steady (give the average, or say "
        "'peak 3x the average')"
    )


def average_found(reading: Reading, name: str, mean: float, said: str) -> bool:
    """An average read after a volume kept at its peak ("the busiest hour is 120k
    requests; a typical day is 1M"): the average is the volume, and the two give the
    ratio. False when ``name`` was not held at a peak, or ``mean`` is none of its."""
    peak_said = reading.steady_peaks.get(name)
    peak = reading.values.get(name)
    if peak_said is None or not isinstance(peak, float) or not peak / MAX_RATIO <= mean < peak:
        return False
    del reading.steady_peaks[name]
    reading.values[name] = mean
    reading.assumed[:] = [a for a in reading.assumed if a != steady(peak_said)]
    reading.understood.append(f"{compact(mean)} {UNITS[name]} on average ← '{said}'")
    if "peak_to_average" not in reading.values:
        reading.values["peak_to_average"] = peak / mean
        reading.understood.append(
            f"peak {peak / mean:.3g}x the average ← '{peak_said}' over '{said}'"
        )
    return True


_WAS_THE_PEAK = re.compile(
    r"(?P<n>\d(?<!\w\d)[\d.,]*\s*[kKmM]?)\s+(?:is|was|'s)\s+(?:actually\s+|really\s+)?(?:the|our|their)\s+"
    r"peak\b[^.;!?\n\d]{0,24}?\b(?:avg|average|mean|typical)\s+(?:(?:hour|day|minute)\s+)?"
    r"(?:is\s+|was\s+|'s\s+)?"
    r"(?:more\s+like\s+|closer\s+to\s+|about\s+|around\s+|roughly\s+|~\s*)?(?P<avg>\d[\d.,]*\s*[kKmM]?)\b",
    re.IGNORECASE,
)
"""A volume's figure said again as the peak, with the real average: "40 rps avg … scratch
that - 40 is the PEAK, avg is more like 16". Its first digit opens it, the word boundary
looked at behind it, so the search skips to digits (``core.parse.openings``)."""


def _said_before_as(reading: Reading, name: str, value: float) -> bool:
    """Whether ``name`` was given ``value`` before its last value (within 1%)."""
    return any(
        isinstance(v, float) and abs(v - value) <= value / 100
        for v, _ in reading.history.get(name, [])[:-1]
    )


def _average_read(reading: Reading, name: str, ratio: float, found: re.Match[str]) -> None:
    """The average already read as the volume: only the ratio to its peak is said."""
    if ratio > MAX_RATIO or "peak_to_average" in reading.values:
        return  # "… 150 rps over 60 rps" read already: the ratio is said once
    reading.values["peak_to_average"] = ratio
    twice = f"two values for {name}"
    reading.ambiguities[:] = [a for a in reading.ambiguities if not a.startswith(twice)]
    words = " ".join(found.group().split())
    reading.understood.append(f"peak {ratio:.3g}x the average ('{words}')")


def peak_restated(reading: Reading) -> None:
    """The volume said first, restated as its peak with its average after (see
    ``_WAS_THE_PEAK``): the average, in the volume's unit, and the ratio of the two."""
    if "peak" not in reading.lower:
        return
    found = _WAS_THE_PEAK.search(reading.text)
    if found is None:
        return
    peak, mean = amount(found["n"].replace(" ", "")), amount(found["avg"].replace(" ", ""))
    for name in ("requests_per_day", "output_tokens_per_day"):
        said = reading.sources.get(name, "")
        value = reading.values.get(name)
        first = amount(said.split()[0]) if said.split() else None
        if (
            isinstance(value, float)
            and peak
            and mean
            and first == mean
            and peak > mean
            and _said_before_as(reading, name, value * peak / mean)
        ):
            _average_read(reading, name, peak / mean, found)  # "40 rps … oops 40 is their
            return  # peak, avg is more like 10 rps": 10 rps read, 40 rps said before it
        if not isinstance(value, float) or not peak or not mean or first != peak:
            continue
        if not 1 < peak / mean <= MAX_RATIO:
            return
        reading.values[name] = value * mean / peak
        reading.values["peak_to_average"] = peak / mean
        words = " ".join(found.group().split())
        reading.understood.append(
            f"{compact(value * mean / peak)} {UNITS[name]} on average, peak {peak / mean:.3g}x "
            f"('{words}')"
        )
        return
