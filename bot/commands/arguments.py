"""Named arguments inside free text: ``customer="Acme Corp"``, ``source='MSA, 2026-11'``.

Commands mix prose with a few named values that may contain spaces; each is taken
out of the text (quoted or a single word) before the rest goes to the parser.
"""

from __future__ import annotations

import re


def take(text: str, key: str) -> tuple[str, str]:
    """The value of ``key=...`` in ``text`` ("" if absent), and the text without it."""
    pattern = rf"""\b{re.escape(key)}\s*=\s*(?:"([^"]*)"|'([^']*)'|(\S+))"""
    found = re.search(pattern, text, re.IGNORECASE)
    if found is None:
        return "", text
    value = next(g for g in found.groups() if g is not None)
    return value, text[: found.start()] + text[found.end() :]
