"""The ``leasewise`` command line."""

from __future__ import annotations


def main() -> None:
    """Console-script entry point: build the CLI, then run it."""
    from bot.cli.app import build_cli

    build_cli()()
