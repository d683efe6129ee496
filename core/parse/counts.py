"""Counts said the way forms and lists say them, rewritten the way prose says them.

A form or a table names a count before its figure ("Daily sessions | 20,000", "Turns per
session: 3"), and a pipeline counts a member's calls as a sum ("1 planner call + 6 tool
calls + 1 summary call"). ``core.parse.products`` reads populations and frequencies as
prose says them: figure first, one figure a frequency. These passes rewrite the text
before it is read, so the products pass finds them there.
"""

from __future__ import annotations

import re

from core.parse.numbers import count
from core.parse.openings import words_opening

_LABEL_FIRST = re.compile(
    r"^(?P<lead>[ \t>*•-]*)(?P<label>[A-Za-z][A-Za-z /-]{2,60}?)[ \t]*(?::[ \t]*|[ \t])"
    r"(?P<n>~?\d[\d,]*(?:\.\d+)?[ \t]?[kKmM]?)[ \t]*\.?[ \t]*$",
    re.MULTILINE,
)
_COUNTED = frozenset(
    {"sessions", "conversations", "convos", "users", "staff", "employees", "seats", "agents"}
    | {"tickets", "documents", "docs", "chats", "visits", "turns", "calls", "messages", "runs"}
)
"""A label's last word that makes its figure a population or a frequency."""
_NOT_LABELS = frozenset(
    {"tokens", "token", "input", "output", "prompt", "completion", "price", "cost", "ttft"}
    | {"tpot", "latency", "gpu", "gpus", "term", "context", "batch", "concurrency", "growth"}
    | {"utilization", "peak", "budget", "length", "size", "len", "tok", "toks", "tps", "speed"}
    | {"min", "max", "minimum", "maximum"}
)


_CALL = r"(?:\d{1,3}|one|two|three|four|five|six)\s+(?:[a-z-]+\s+){0,2}?(?:calls?|requests?|turns?)"
_CALLS_ADDED = re.compile(
    words_opening((r"\d\d{0,2}", "one", "two", "three", "four", "five", "six"), ignorecase=True)
    + rf"(?i:\s+(?:[a-z-]+\s+){{0,2}}?(?:calls?|requests?|turns?)(?:\s*(?:\+|plus)\s*{_CALL})+\b)"
)
"""Counts of calls added up ("3 calls + 2 turns"); the first count opens on a class of its
first characters, so the search skips to candidates (``core.parse.openings``)."""


def calls_added(text: str) -> str:
    """A member's calls said as a sum ("each task = 1 planner call + 6 tool calls + 1
    summary call") written as their total ("8 calls"), one frequency of the member."""
    if "+" not in text and "plus" not in text:
        return text

    def total(m: re.Match[str]) -> str:
        counts = re.findall(r"\b(\d{1,3}|one|two|three|four|five|six)\s", m.group(), re.I)
        n = round(sum(count(c) or 0 for c in counts))
        return f"{n} calls ({' '.join(m.group().split())})"

    return _CALLS_ADDED.sub(total, text)


def counts_first(text: str) -> str:
    """A form's or a table's counts said with their figure first: "Daily sessions 20,000"
    and "Turns per session: 3" read as "20,000 Daily sessions" and "3 Turns per session",
    the way a population and its frequencies are said in prose."""
    if "\n" not in text:
        return text

    def swapped(m: re.Match[str]) -> str:
        words = m["label"].lower().replace("/", " ").split()
        if not words or any(w in _NOT_LABELS for w in words):
            return m.group()
        if "per" not in words and words[-1] not in _COUNTED:
            return m.group()
        return f"{m['lead']}{m['n'].strip()} {m['label'].strip()}."

    return _LABEL_FIRST.sub(swapped, text)
