"""Volumes that add up: "chat 120M out tokens/day, summarization 45M/day, code review
35M/day. Total peak about 2.5x average".

Several day volumes of one kind, each for a different app or team, are one fleet's
load. Read one after another they are "two values" for one field, and the last would
win. When the message says they add up ("total", "combined", "in all", "plus", "on top")
they are summed, and the sum said with its parts. Without such a word they stay two
values, asked about: a peak and an average, or a figure and its correction, were
already told apart before this runs (``core.parse.peaks``, ``core.parse.corrections``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse.numbers import compact

if TYPE_CHECKING:
    from core.parse.facts import Reading

_ADDS_UP = re.compile(
    r"\b(?:total|totals|combined|in\s+all|altogether|all\s+together|sum|summed|plus"
    r"|on\s+top|in\s+addition|(?:two|three|four|five|several)\s+(?:apps|products|teams|workloads"
    r"|services|use\s+cases))\b",
    re.IGNORECASE,
)
_VOLUMES = {"output_tokens_per_day": "output tokens/day", "requests_per_day": "requests/day"}


def add_up(reading: Reading) -> None:
    for name, unit in _VOLUMES.items():
        twice = f"two values for {name}"
        flagged = [a for a in reading.ambiguities if a.startswith(twice)]
        values = reading.history.get(name, [])
        if not flagged or len(values) < 2 or not _ADDS_UP.search(reading.text):
            continue
        total = sum(values)
        reading.values[name] = total
        reading.ambiguities[:] = [a for a in reading.ambiguities if not a.startswith(twice)]
        parts = " + ".join(compact(v) for v in values)
        reading.understood.append(f"{compact(total)} {unit} in all: {parts}")
