"""Slack markup to plain text: entities, links, emphasis, code and emoji.

Slack escapes ``&``, ``<`` and ``>`` as HTML entities and wraps mentions, channels
and links in angle brackets. What a person wrote is kept (link labels, channel
names, code contents, where people paste ``key=value`` pairs); what only Slack
wrote (user ids, URLs, emoji codes, emphasis marks) is dropped, so a URL's digits
are never read as a number.
"""

from __future__ import annotations

import html
import re
import unicodedata

from core.parse import stretches
from core.parse.wraps import unwrap

MAX_CHARS = 20_000
"""Longer messages are cut here (10 KB of text is the contract; this bounds time)."""

_SLACK = re.compile(
    r"<(?P<target>[^<>|]*)(?:\|(?P<label>[^<>]*))?>"  # <@U1> <#C1|chan> <https://x|y>
    r"|:(?<!\d:)[a-z0-9_+-]{1,40}:"  # :emoji_code:, never a clock's "12:00-13:00"
    r"|```|`"  # code fences and inline code
    # *bold* _italic_ ~strike~; each branch opens with its mark, the neighbour looked at
    # behind it, so the regex skips to candidate characters instead of trying every one
    # (each mark its own literal branch: the engine skips only to a branch of literals)
    r"|\*(?<![\w*_~][*_~])(?=\S)|_(?<![\w*_~][*_~])(?=\S)|~(?<![\w*_~][*_~])(?=\S)"
    r"|\*(?<=\S[*_~])(?![\w*_~])|_(?<=\S[*_~])(?![\w*_~])|~(?<=\S[*_~])(?![\w*_~])",
    re.IGNORECASE,
)


_STRUCK = re.compile(
    r"~(?<![\w~]~)(?=[^\s~\d])[^~\n]{0,80}?[^\s~]~(?![\w~])"
    r"|~(?<![\w~]~)(?=\d)[^~\s]*[A-Za-z][^~\n]{0,60}?[^\s~]~(?=\s|$|[.,;:!?])"
    r"|~(?<![\w~]~)(?=\d)[\d.,]+[kKmM%]?~(?=\s+[~$]?\d)"  # "concurrency ~48~ 64": struck
)
"""Slack's strike-through, "~outputs 900~", "~8x B200~": what the writer took back (never
"~900" alone, an approximation). The opening "~" comes first and the look behind it after,
so the regex skips from "~" to "~" instead of trying every position of the message."""


_EN_DASH_RANGE = re.compile(
    r"(?<=\d)(?<!:\d\d)–(?=[$€£]?\d)(?!\d{1,2}:)|(?<=\d[kKmM])–(?=[$€£]?\d)"
    r"|(?<![\w.,])(?P<low>\d[\d,.]*[kKmM]?) – (?=[$€£]?\d)"
)
"""An en dash between two figures, "30–40 rps", "$3–4/hr", is a range as a hyphen is (a
dash between words stays a break: "B300 – 16 GPUs" is no range, its figure is a name's;
nor does a clock's, "08:00–20:00", a window the volumes read)."""


_SWISS_THOUSANDS = re.compile(r"\d(?<![\d'’.,]\d)\d{0,2}(?:['’]\d{3})+(?![\d'’])")
"""Thousands grouped with an apostrophe, the Swiss way: "700'000 requests", "3’000 tokens".
The first digit opens the regex, its look behind after it: the search skips to digits."""


def _as_hyphen(match: re.Match[str]) -> str:
    low = match.group("low")
    return "-" if low is None else f"{low}-"


def _around_dashes(text: str) -> list[tuple[int, int]]:
    """Where an en dash range can stand (see ``core.parse.stretches``): from the figure
    before each dash ("1,200k – ") to past the look ahead after it."""
    spans: list[tuple[int, int]] = []
    dash = text.find("–")
    while dash != -1:
        at = dash
        if at and text[at - 1] == " ":
            at -= 1
        if at and text[at - 1] in "kKmM":
            at -= 1
        while at and (text[at - 1].isdecimal() or text[at - 1] in ",."):
            at -= 1  # the low figure of "30 – 40"
        spans.append((max(0, at - 1), min(len(text), dash + 8)))
        dash = text.find("–", dash + 1)
    return stretches.merged(spans)


def _replace(match: re.Match[str]) -> str:
    target = match.group("target")
    if target is None:
        return " "
    label = match.group("label")
    if target.startswith(("#", "!")):
        return f" {label or ''} "
    if target.startswith("@"):
        return " "
    return f" {label} " if label else " "


def plain_text(text: str) -> tuple[str, bool]:
    """The words of a Slack message, and whether it had to be cut to ``MAX_CHARS``."""
    cut = len(text) > MAX_CHARS
    if cut:
        text = text[:MAX_CHARS]
    text = unicodedata.normalize("NFKC", text)
    if "–" in text:  # every range holds its dash: looked for around the dashes alone
        text = stretches.sub(_EN_DASH_RANGE, _as_hyphen, text, _around_dashes(text))
    if ">=" in text or "<=" in text:  # "Streaming speed: >= 30 tokens/s": no key=value
        text = text.replace(">=", "≥").replace("<=", "≤")
    if "'" in text or "’" in text:
        text = _SWISS_THOUSANDS.sub(lambda m: m.group().replace("'", ",").replace("’", ","), text)
    if "~" in text:
        text = _STRUCK.sub(lambda m: " " * len(m.group()), text)
    if "```" not in text:
        return unwrap(html.unescape(_SLACK.sub(_replace, text))), cut
    pieces = text.split("```")  # every other piece is a code block: its lines are records
    return " ".join(
        html.unescape(_SLACK.sub(_replace, piece))
        if i % 2
        else unwrap(html.unescape(_SLACK.sub(_replace, piece)))
        for i, piece in enumerate(pieces)
    ), cut
