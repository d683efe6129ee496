"""Slack mrkdwn as a terminal shows it: the console's and the CLI's render step.

The templates write one markup, Slack's: ``*bold*``, ``_italic_``, ``~strike~``,
```code```, ``<url|text>`` links, ``:emoji:`` codes and ``&amp;``-escaped text. Slack
draws it; a terminal would print the marks. ``to_text`` reads the markup into a
Rich ``Text`` (the marks become styles, a link its text and address, an emoji code
its character, entities their characters) and ``plain`` is what a terminal or a
pipe prints. Mentions (``<@U…>``, ``<#C…>``) are left for the console to name
(``bot.console.names``), as Slack would.

The marks follow Slack's rules: a mark opens at the start of a line or after a
space or punctuation, and closes before the end, a space or punctuation, with no
space just inside either, so ``snake_case`` and ``2 * 3`` are not formatting.
"""

from __future__ import annotations

import re

from rich.emoji import Emoji
from rich.text import Text

from bot.render.formats import unesc

STYLES = {"*": "bold", "_": "italic", "~": "strike"}
CODE_STYLE = "bold"
LINK_STYLE = "underline"

_TOKEN = re.compile(
    r"```\n?(?P<block>.+?)\n?```"
    r"|`(?P<code>[^`\n]+)`"
    r"|<(?P<href>(?:https?|mailto):[^|>\s]+)(?:\|(?P<label>[^>]*))?>"
    r"|(?<![\w*_~])(?P<mark>[*_~])(?P<inner>[^\s*_~](?:[^\n]*?[^\s])?)(?P=mark)(?!\w)",
    re.DOTALL,
)


def to_text(mrkdwn: str, style: str = "") -> Text:
    """``mrkdwn`` as styled terminal text (``style`` applies to all of it)."""
    out = Text()
    at = 0
    for found in _TOKEN.finditer(mrkdwn):
        out.append_text(_words(mrkdwn[at : found.start()], style))
        at = found.end()
        if found["block"] is not None or found["code"] is not None:
            code = found["block"] if found["block"] is not None else found["code"]
            out.append(unesc(code), _joined(style, CODE_STYLE))
        elif found["href"] is not None:
            out.append_text(_link(found["href"], found["label"], style))
        else:
            out.append_text(to_text(found["inner"], _joined(style, STYLES[found["mark"]])))
    out.append_text(_words(mrkdwn[at:], style))
    return out


def plain(mrkdwn: str) -> str:
    """What a terminal prints for ``mrkdwn``: its words, without the marks."""
    return to_text(mrkdwn).plain


def _words(text: str, style: str) -> Text:
    return Text(unesc(Emoji.replace(text)), style=style)


def _link(href: str, label: str | None, style: str) -> Text:
    """A link's text with its address after it (the address alone when it has none)."""
    address = unesc(href)
    said = unesc(label or "").strip()
    link_style = _joined(style, f"{LINK_STYLE} link {address}")
    if not said or said == address:
        return Text(address, style=link_style)
    return Text.assemble((said, link_style), (f" ({address})", style))


def _joined(style: str, more: str) -> str:
    return f"{style} {more}".strip()
