"""Every reply from a template: Block Kit for Slack, plain text for notifications and the console.

Templates live in ``bot/render/templates``: ``X.blocks.j2`` renders a JSON array of blocks
(a view object for views) and ``X.text.j2`` the plain-text fallback. Wording stays
in the templates; this module only turns their output into messages that Slack
accepts, or fails loudly, naming the template, when it cannot.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, TemplateNotFound

from bot.render import blockkit, mrkdwn
from bot.render.formats import FILTERS
from core.caveats import rank_caveats
from core.scenario import Estimate
from core.sizing import Sizing


@dataclass(frozen=True)
class Chart:
    """A PNG for the thread: Block Kit can only show images from a public URL."""

    title: str
    png: bytes


@dataclass(frozen=True)
class Message:
    """One Slack message; ``overflow`` holds the replies to post after it in its thread.

    ``text`` is Slack mrkdwn with ``&``, ``<`` and ``>`` escaped (chat.postMessage
    parses it, so an unescaped ``<!channel>`` would notify everyone); at most
    ``blockkit.MAX_FALLBACK_TEXT`` characters.
    """

    text: str
    blocks: list[dict[str, Any]]
    overflow: list[Message] = field(default_factory=list)
    charts: tuple[Chart, ...] = ()
    """PNG charts to upload into the message's thread once it is posted."""

    def console_text(self) -> str:
        """What the local console prints: this message and its thread, as terminal text
        (Slack's marks, links and emoji codes read by ``mrkdwn``, entities decoded)."""
        return "\n\n".join(mrkdwn.plain(m.text) for m in (self, *self.overflow))


class Renderer:
    """Built once at startup: loads and caches the packaged templates."""

    def __init__(self) -> None:
        self._env = Environment(
            loader=PackageLoader("bot.render", "templates"),
            undefined=StrictUndefined,
            autoescape=False,
            trim_blocks=True,
            lstrip_blocks=True,
            extensions=["jinja2.ext.do"],
        )
        self._env.filters.update(FILTERS)
        # an answer's caveats as a reply ranks them when its handler did not (a saved quote)
        self._env.filters["ranked"] = rank_caveats
        self._env.tests["estimate"] = lambda value: isinstance(value, Estimate)
        self._env.tests["sizing"] = lambda value: isinstance(value, Sizing)

    def message(self, name: str, **context: Any) -> Message:
        """Render template ``name`` as a message, split across the thread if it must be.

        Raises:
            ValueError: the template's output is not valid JSON, its text is empty, or
                it breaks a limit that splitting cannot repair (a header, a button).
        """
        blocks = self._json(name, context)
        if not isinstance(blocks, list):
            raise ValueError(f"template {name!r}: blocks must be a JSON array")
        text = _tidy(self._env.get_template(f"{name}.text.j2").render(**context))
        if not text:
            raise ValueError(f"template {name!r}: the plain text is empty")
        first, rest = blockkit.fit(blocks)
        problems = [
            f"message {i}: {problem}"
            for i, chunk in enumerate([first, *rest])
            for problem in blockkit.violations(chunk)
        ]
        if problems:
            raise ValueError(f"template {name!r} breaks Slack's limits: " + "; ".join(problems))
        overflow = [
            Message(text=blockkit.clip_text(blockkit.plain_text(chunk) or "…"), blocks=chunk)
            for chunk in rest
        ]
        return Message(text=blockkit.clip_text(text), blocks=first, overflow=overflow)

    def text(self, name: str, **context: Any) -> str:
        """What a terminal prints for template ``name``: its plain text, as terminal text.

        The CLI's human output, so the command line says what Slack and the console
        say. Nothing is clipped (a terminal has no 3,000-character notification), and
        a message whose blocks spill into a thread (a sizing's rejected sizes) prints
        those replies after it, as the console does. A template with no blocks
        (``cli_*.text.j2``) is text only.
        """
        parts = [_tidy(self._env.get_template(f"{name}.text.j2").render(**context))]
        try:
            blocks = self._json(name, context)
        except TemplateNotFound:
            blocks = None
        if isinstance(blocks, list):
            _, rest = blockkit.fit(blocks)
            parts += [blockkit.plain_text(chunk) for chunk in rest]
        return "\n\n".join(mrkdwn.plain(part) for part in parts if part)

    def markup(self, name: str, **context: Any) -> str:
        """Template ``name``'s HTML (``X.html.j2``): a quote's PDF is laid out from it.

        User text goes through ``esc`` there as in Slack's templates: ``&``, ``<`` and
        ``>`` are all that HTML text needs escaped, so the macros Slack's replies use
        say the same words in the document.
        """
        return self._env.get_template(f"{name}.html.j2").render(**context)

    def view(self, name: str, **context: Any) -> dict[str, Any]:
        """Render template ``name`` as a modal or App Home view.

        Raises:
            ValueError: naming the template, if the view breaks a limit: a view has no
                thread to overflow into, so its template must trim (e.g. newest 10).
        """
        view = self._json(name, context)
        if not isinstance(view, dict):
            raise ValueError(f"template {name!r}: a view must be a JSON object")
        problems = blockkit.view_violations(view)
        if problems:
            raise ValueError(f"template {name!r} breaks Slack's limits: " + "; ".join(problems))
        return view

    def _json(self, name: str, context: dict[str, Any]) -> Any:
        rendered = self._env.get_template(f"{name}.blocks.j2").render(**context)
        try:
            return json.loads(rendered)
        except json.JSONDecodeError as exc:
            raise ValueError(f"template {name!r} rendered invalid JSON: {exc}") from exc


def _tidy(text: str) -> str:
    """One blank line at most between paragraphs: an empty optional part leaves none."""
    lines = [line.rstrip() for line in text.strip().splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines))
