"""The CLI's human output: templates, rendered as a terminal reads them.

Every sentence the command line prints comes from ``bot/render/templates`` through
the filters Slack's replies use (``bot.render.formats``), so ``leasewise estimate``
says what ``/lease cost`` says. Answers Slack also gives render Slack's own
template (its plain text); the CLI's own views (``cli_*.text.j2``) are built from
the same macros. The renderer is built on first use: ``--json`` never loads Jinja.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from bot.render.renderer import Renderer


@functools.cache
def renderer() -> Renderer:
    from bot.render.renderer import Renderer

    return Renderer()


def say(template: str, **context: Any) -> None:
    """Print template ``template``'s text for ``context``."""
    typer.echo(renderer().text(template, **context))
