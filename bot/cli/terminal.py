"""The rich console the database and Slack commands print to (Rich is loaded on first use)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

PIPED_WIDTH = 120
"""Rich falls back to 80 columns when output is piped, too narrow for the comparison tables."""


def make_console() -> Console:
    """A terminal's own width; 120 columns when piped, unless COLUMNS says otherwise."""
    from rich.console import Console

    console = Console()
    if console.is_terminal or "COLUMNS" in os.environ:
        return console
    return Console(width=PIPED_WIDTH)
