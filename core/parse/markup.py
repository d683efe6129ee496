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

from core.parse.tables import separator

MAX_CHARS = 20_000
"""Longer messages are cut here (10 KB of text is the contract; this bounds time)."""

_SLACK = re.compile(
    r"<(?P<target>[^<>|]*)(?:\|(?P<label>[^<>]*))?>"  # <@U1> <#C1|chan> <https://x|y>
    r"|:[a-z0-9_+-]{1,40}:"  # :emoji_code:
    r"|```|`"  # code fences and inline code
    r"|(?<![\w*_~])[*_~](?=\S)|(?<=\S)[*_~](?![\w*_~])",  # *bold* _italic_ ~strike~
    re.IGNORECASE,
)


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


WRAP_WIDTH = 40
"""A line this long or longer that stops mid-sentence was wrapped by a mail client."""
_LABEL = re.compile(r"[^\n:]{1,30}:\s")
_ABBREVIATION = re.compile(
    r"\b(Mio|Mrd|Tsd|ca|approx|appr|avg|est|incl|excl|vs|resp|approx|max|min)\.(?=\s)", re.I
)
"""Abbreviations whose period ends no sentence ("2,5 Mio. requests", "ca. 1.200")."""
_WRAPPED = re.compile(
    r"(?<![.!?:;\n])[ \t]*\n(?:[ \t]*>)*[ \t]*"  # a line break, and any quote marks after it
    r"(?=[A-Za-z(~$€£\d])(?!\d+[.)]\s)"  # what the next line must start with
)
"""A line break inside a sentence (e-mail wraps at 72 columns): the line before ends
without a stop, and the next goes on (a capital only after a long line) and is not a
numbered item (nor, after a "label: value" line, another one: see ``_join``)."""


def plain_text(text: str) -> tuple[str, bool]:
    """The words of a Slack message, and whether it had to be cut to ``MAX_CHARS``."""
    cut = len(text) > MAX_CHARS
    if cut:
        text = text[:MAX_CHARS]
    text = unicodedata.normalize("NFKC", text)
    text = _SLACK.sub(_replace, text)
    text = _ABBREVIATION.sub(r"\1", html.unescape(text))
    return _WRAPPED.sub(_join, text), cut


def _join(m: re.Match[str]) -> str:
    """A wrapped line is joined; a table's rows are not (each is a record)."""
    text = m.string
    before = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
    after_end = text.find("\n", m.end())
    after = text[m.end() : after_end if after_end >= 0 else len(text)]
    if separator(before) or separator(after):
        return m.group()
    if ":" in before and _LABEL.match(after):
        return m.group()  # "Requests per second: 65" then "input tokens: 1800": a form
    if after[:1].isupper() and len(before) < WRAP_WIDTH:
        return m.group()  # a short line before a capital is a line of its own, not a wrap
    return " "
