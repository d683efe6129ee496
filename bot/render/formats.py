"""Numbers and text as every reply shows them: one spelling per kind of figure.

These are the Jinja filters of ``bot.render.renderer``, and the only place a figure
is spelt: Slack, the local console, the CLI's text and the digest all go through
them, so a percentage is rounded one way everywhere (to the nearest, as ``format``
rounds). They live apart from the templates so that a test can format a figure
exactly as a reply does (the $/M of an estimate, its error band) instead of
hard-coding what the reply should say.

Derived figures (``times``, ``change``) are computed from the figures as shown, not
from the unrounded ones: a reader who divides the two numbers on the screen gets
the ratio the sentence beside them states.

Our own rather than babel's: one locale (en, US dollars), house spellings babel
does not have (``$21.61/M``, ``±13%``, ``2B`` the parser reads back), and no
locale data to load when a one-shot command starts.
"""

from __future__ import annotations

import datetime as dt
import json as _json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from core.parse.numbers import compact

ELLIPSIS = "…"


def usd(value: float, short: bool = False) -> str:
    """``$21.61`` below $1,000, ``$12,345`` above; ``short`` gives ``$1.2M`` for millions.

    Cents matter on an hourly price and are noise on a monthly bill; ``short`` is for
    table rows and lists, where ``$963,600`` and ``$1,051,200`` crowd the line.
    """
    sign = "-" if value < 0 else ""
    amount = abs(value)
    if short and amount >= 1e9:
        return f"{sign}${amount / 1e9:,.1f}B"
    if short and amount >= 1e6:
        return f"{sign}${amount / 1e6:,.1f}M"
    if round(amount, 2) < 1000:
        return f"{sign}${amount:,.2f}"
    return f"{sign}${amount:,.0f}"


def usd_m(value: float) -> str:
    """A price per million tokens: always cents, as the write-up quotes them ($6.16)."""
    return f"{usd_per_m(value)}/M"


def usd_per_m(value: float) -> str:
    return f"{'-' if value < 0 else ''}${abs(value):,.2f}"


def pct(value: float, signed: bool = False) -> str:
    """A fraction as a percentage: ``38%``; below 1% one decimal, so 0.4% is not ``0%``."""
    spec = ".1%" if 0 < abs(value) < 0.01 else ".0%"
    text = format(value, ("+" if signed else "") + spec)
    return text.replace("-", "−") if signed else text


def moved(fraction: float, signed: bool = True) -> str:
    """A relative change, ``−41%``: cut toward zero, so a sentence about savings never claims
    more than its figures give (−41.5% is −41%, as vLLM's write-up quotes 21.61 -> 12.64);
    below one point one decimal (``−0.4%``). ``signed=False`` gives the size alone."""
    points = abs(fraction) * 100
    size = math.floor(points * 10 + 1e-9) / 10 if points < 1 else math.floor(points + 1e-9)
    text = f"{size:g}%"
    if not signed:
        return text
    return ("−" if fraction < 0 else "+") + text


def tokens(value: float) -> str:
    """``2B``, ``150M``, ``40k``: the spelling the parser reads back (core.parse.numbers).

    Thousands are spelled here: ``compact`` divides them by 1e4 (40,000 -> "4k").
    """
    if 1e4 <= abs(value) < 1e6:
        thousands = value / 1e3
        return f"{thousands:.3g}k" if abs(thousands) < 999.5 else compact(1e6)
    return compact(value)


def tok_s(value: float) -> str:
    """``842 tok/s``; one decimal below 100, where a user's speed is compared to an SLA."""
    return f"{value:,.1f} tok/s" if abs(value) < 100 else f"{value:,.0f} tok/s"


def months(value: float | None) -> str:
    """``7.4 months``; ``∞`` when the traffic does not grow (the core's None)."""
    if value is None:
        return "∞"
    shown = f"{value:,.1f}"
    return "1 month" if shown == "1.0" else f"{shown} months"


def band(value: float) -> str:
    """An error band: ``±13%``, or ``exact`` for a measured figure (band 0)."""
    return "exact" if value == 0 else f"±{value:.0%}"


def seconds(value: float) -> str:
    return f"{value:,.2f} s" if value < 10 else f"{value:,.0f} s"


def number(value: float, digits: int = 0) -> str:
    return f"{value:,.{digits}f}"


def date(value: dt.date | dt.datetime) -> str:
    """ISO dates; times in UTC with the zone said, since readers sit in many zones."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.UTC)
            return value.strftime("%Y-%m-%d %H:%M UTC")
        return value.strftime("%Y-%m-%d %H:%M")
    return value.isoformat()


def esc(value: object) -> str:
    """Slack's three control characters as entities, so user text cannot mention or link.

    Only ``&``, ``<`` and ``>`` (https://api.slack.com/reference/surfaces/formatting#escaping):
    Slack decodes no other entity, so ``html.escape`` would show ``&#x27;`` to readers.
    """
    return str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unesc(text: str) -> str:
    """What a person reads once Slack has decoded the entities: for the local console."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def clip(text: str, limit: int) -> str:
    """At most ``limit`` characters, ending in an ellipsis when cut.

    Applied after ``esc``, so the cut backs off rather than split an entity (``&am``)
    or a link (``<https://…``) into something Slack would show broken.
    """
    if len(text) <= limit:
        return text
    cut = text[: max(limit - len(ELLIPSIS), 0)]
    amp = cut.rfind("&")
    if amp != -1 and ";" not in cut[amp:]:
        cut = cut[:amp]
    angle = cut.rfind("<")
    if angle != -1 and ">" not in cut[angle:]:
        cut = cut[:angle]
    return cut + ELLIPSIS


def link(title: object, url: str | None) -> str:
    """``<url|title>`` when there is a URL, else the escaped title on its own."""
    text = esc(title).replace("|", "¦")
    if not url:
        return text
    href = url.replace("|", "%7C").replace("<", "%3C").replace(">", "%3E").replace(" ", "%20")
    return f"<{href}|{text}>"


_FIGURE = re.compile(r"([-−])?\$?(\d[\d,]*(?:\.\d+)?|\.\d+)\s?([kMB%])?")
_SCALE = {"k": 1e3, "M": 1e6, "B": 1e9, "%": 1e-2, None: 1.0}


def read_figure(text: str) -> float:
    """The number a reader takes from a spelt figure: ``$1.2M`` -> 1.2e6, ``−38%`` -> -0.38.

    Raises:
        ValueError: ``text`` holds no figure.
    """
    found = _FIGURE.search(text)
    if found is None:
        raise ValueError(f"no figure in {text!r}")
    sign, digits, scale = found.groups()
    value = float(digits.replace(",", "")) * _SCALE[scale]
    return -value if sign else value


Spelling = str | tuple[Any, ...]
"""A filter's name, or its name and arguments: ``"usd_per_m"``, ``("number", 1)``."""


def shown(value: float, spelling: Spelling = "number") -> float:
    """``value`` as a reader sees it once the filter ``spelling`` has spelt it:
    ``shown(21.6149, "usd_per_m")`` is 21.61, ``shown(1028.34, ("number", 1))`` 1028.3."""
    name, *args = (spelling,) if isinstance(spelling, str) else spelling
    return read_figure(FILTERS[name](value, *args))


def times(
    numerator: float, denominator: float, spelling: Spelling = "number", digits: int = 1
) -> str:
    """``3.3x``: how many times ``denominator`` the ``numerator`` is, from both as shown.

    ``spelling`` is how the two figures are shown beside the sentence (``"usd"`` for a
    $/GPU-hour column, ``"usd_per_m"`` for $/M), so the ratio is the one a reader
    computes from the screen.
    """
    below = shown(denominator, spelling)
    if below == 0:
        return "∞x"
    return f"{shown(numerator, spelling) / below:,.{digits}f}x"


def change(
    before: float, after: float, spelling: Spelling = "number", signed: bool = True
) -> str:
    """``−41%``: ``after`` against ``before``, from both as shown with ``spelling`` and said
    as ``moved`` says a change; ``signed=False`` gives the size alone (``41%``) for "up 41%"."""
    base = shown(before, spelling)
    if base == 0:
        return "n/a"
    return moved(shown(after, spelling) / base - 1, signed=signed)


def points(value: float) -> str:
    """A percentage stored as points, as a subscription's threshold is (5 means 5%):
    ``5%``, ``7.5%``; said as it was set, not rounded to a whole percent."""
    return f"{value:,.1f}".removesuffix(".0") + "%"


def listing(items: Iterable[object]) -> str:
    """``a, b and c``: a list said in a sentence."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def table(rows: Iterable[Sequence[object]], header: Sequence[str], align: str = "") -> str:
    """Rows as monospace columns two spaces apart, headed by ``header``: a Slack code block,
    or a terminal's table. ``align`` has an ``l`` or ``r`` per column (left when absent);
    trailing spaces are dropped so a pipe or a file gets clean lines."""
    grid = [[str(cell) for cell in header], *([str(cell) for cell in row] for row in rows)]
    widths = [max(len(row[i]) for row in grid if i < len(row)) for i in range(len(header))]
    lines = []
    for row in grid:
        cells = [
            cell.rjust(width) if align[i : i + 1] == "r" else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=False))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def to_json(value: Any) -> str:
    """A JSON literal for a template: strings (and anything else but JSON scalars and
    containers) are ``str()``-ed and quoted, so no interpolation can break the JSON."""
    if value is None or isinstance(value, bool | int | float | list | dict):
        return _json.dumps(value, ensure_ascii=False)
    return _json.dumps(str(value), ensure_ascii=False)


FILTERS: dict[str, Callable[..., Any]] = {
    "usd": usd,
    "usd_m": usd_m,
    "usd_per_m": usd_per_m,
    "pct": pct,
    "moved": moved,
    "tokens": tokens,
    "tok_s": tok_s,
    "months": months,
    "band": band,
    "seconds": seconds,
    "number": number,
    "date": date,
    "esc": esc,
    "clip": clip,
    "link": link,
    "json": to_json,
    "shown": shown,
    "times": times,
    "change": change,
    "points": points,
    "listing": listing,
    "table": table,
}
