"""The ``leasewise`` command line."""

from __future__ import annotations

import gc


def main() -> None:
    """Console-script entry point: build the CLI, then run it.

    The cyclic garbage collector waits until a command is chosen: starting up
    allocates hundreds of thousands of objects that live as long as the process
    (modules, pydantic schemas, the catalog), and collecting among them costs a
    one-shot command a tenth of its CPU for nothing. Commands that keep running
    collect as usual (``bot.cli.app.LONG_RUNNING``); the heaviest one-shot command,
    ``catalog validate``, peaks at the same memory either way.
    """
    gc.disable()
    from bot.cli.app import build_cli

    build_cli()()
