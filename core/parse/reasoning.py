"""Reasoning said as a share of the output: "the generation is 3.000 tokens and the
reasoning is ~70% of it", "~60% of generated tokens are reasoning", "~4,000 generated
tokens, of which ~3,200 are the thinking trace".

The contract keeps reasoning apart from the visible output (``output_tokens`` is what the
user sees, ``reasoning_tokens`` the thinking before it), so a share of one generated
total is split into the two and the split is said.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse.numbers import amount
from core.parse.openings import words_opening

if TYPE_CHECKING:
    from core.parse.facts import Reading

_THINK = r"(?:reasoning|thinking|think|thought|cot|chain[\s-]of[\s-]thought)"
_SHARE_OF_IT = re.compile(
    rf"\b{_THINK}(?:\s+tokens?|\s+trace)?\s+(?:is|are|makes\s+up|takes)\s+(?:about|around|roughly|~|≈)?\s*"
    r"(?P<pct>\d{1,2}(?:\.\d+)?)\s*%\s+of\s+(?:it|that|them|the\s+(?:output|generation|total))\b"
    rf"|\b(?P<pct2>\d{{1,2}}(?:\.\d+)?)\s*%\s+of\s+(?:the\s+)?(?:generated|output|completion)\s+"
    rf"tokens?\s+(?:is|are)\s+{_THINK}\b"
    r"|\bof\s+which\s+(?:about|around|roughly|~|≈)?\s*(?P<pct3>\d{1,2}(?:\.\d+)?)\s*%\s+(?:is|are)\s+"
    rf"(?:the\s+)?{_THINK}\b",
    re.IGNORECASE,
)
_OF_WHICH = re.compile(
    words_opening(("of",), ignorecase=True)
    + r"(?i:\s+which\s+(?:about|around|roughly|~|≈)?\s*(?P<n>\d[\d,.]*\s*[kK]?)\s+(?:are|is)\s+"
    rf"(?:the\s+)?{_THINK}\b)"
)


_TOKENS_OF = re.compile(
    r"(?P<n>\d[\d,]*(?:\.\d+)?\s*[kK]?)\s+tokens?\s+of\s+(?:the\s+)?(?:[a-z]+\s+)?"
    rf"(?P<side>{_THINK}|answers?|output|response|reply)\b",
    re.IGNORECASE,
)


def tokens_of(reading: Reading) -> None:
    """ "~3,500 tokens of reasoning plus ~700 tokens of actual answer": each figure is the
    side its words name, whatever a word before them ("each answer is") made of it."""
    if "tokens of" not in reading.lower:
        return
    sides: dict[str, tuple[int, str]] = {}
    for m in _TOKENS_OF.finditer(reading.text):
        value = amount(m["n"].replace(" ", ""))
        if value is None:
            continue
        thinking = re.fullmatch(_THINK, m["side"], re.IGNORECASE) is not None
        name = "reasoning_tokens" if thinking else "output_tokens"
        sides.setdefault(name, (round(value), " ".join(m.group().split())))
    if len(sides) < 2:
        return
    for name, (value, said) in sides.items():
        if reading.values.get(name) != value:
            reading.withdraw(name)  # its say-back goes with it
            reading.match = None
            kind = "reasoning" if name == "reasoning_tokens" else "visible output"
            reading.put(name, value, f"{value:,} {kind} tokens per request", said)
    twice = "two values for output_tokens"
    reading.ambiguities[:] = [a for a in reading.ambiguities if not a.startswith(twice)]


def split_reasoning(reading: Reading) -> None:
    """Split a generated total into reasoning and visible output, when the message says
    what share of it is reasoning (and gives no reasoning figure of its own)."""
    total = reading.values.get("output_tokens")
    if not isinstance(total, int | float) or total <= 0:
        return
    if reading.values.get("reasoning_tokens") not in (None, 0) and not _OF_WHICH.search(
        reading.text
    ):
        return
    text = reading.text
    lower = reading.lower
    if not any(w in lower for w in ("reason", "think", "thought", "cot", "chain")):
        return  # no word for reasoning: nothing to split
    found = _SHARE_OF_IT.search(text) if "%" in text else None
    if found is not None:
        share = float(found["pct"] or found["pct2"] or found["pct3"]) / 100
        thinking = round(total * share)
    else:
        which = _OF_WHICH.search(text) if "which" in lower else None
        if which is None:
            return
        value = amount(which["n"].replace(" ", "")) or 0.0
        if not 0 < value < total:
            return
        thinking = round(value)
        found = which
    if not 0 < thinking < total:
        return
    visible = round(total - thinking)
    reading.values["reasoning_tokens"] = thinking
    reading.values["output_tokens"] = visible
    said = " ".join(found.group().split())
    reading.understood.append(
        f"{thinking:,} reasoning + {visible:,} visible output tokens per request: "
        f"'{said}' of {round(total):,} generated"
    )


_INCLUDED = re.compile(
    r"\s*(?:tokens?\s*)?[,(]?\s*(?:incl\.?|including|inclusive\s+of|incl\.?\s+of|with)\s*"
    r"(?:about\s+|around\s+|roughly\s+|~\s*|≈\s*)?$",
    re.IGNORECASE,
)
"""Between an output and the reasoning it includes: "2k out incl ~1.2k thinking"."""
_WHICH_OF = re.compile(
    r"(?P<n>\d[\d,.]*\s*[kK]?)\s+of\s+which\s+(?:is|are)\s+(?:the\s+)?" + _THINK + r"\b",
    re.IGNORECASE,
)
"""The reasoning's figure before its "of which": "~11k tokens generated, 9k of which is CoT"."""


def included_reasoning(reading: Reading) -> None:
    """An output said to include its reasoning ("~900 out incl. ~600 reasoning", "11k
    generated total, 9k of which is CoT"): the visible output is what is left, said."""
    total = reading.values.get("output_tokens")
    said_out = reading.sources.get("output_tokens")
    if not isinstance(total, int | float) or said_out is None:
        return
    which = _WHICH_OF.search(reading.text) if "which" in reading.lower else None
    if which is not None and "reasoning_tokens" not in reading.values:
        thinking = amount(which["n"].replace(" ", "").replace(",", ""))
        if thinking is None or not 0 < thinking < total:
            return
        said = " ".join(which.group().split())
    else:
        thinking = reading.values.get("reasoning_tokens")
        said_think = reading.sources.get("reasoning_tokens")
        if not isinstance(thinking, int | float) or not 0 < thinking < total or not said_think:
            return
        out_at, think_at = reading.find(said_out), reading.find(said_think)
        if out_at < 0 or think_at <= out_at:
            return
        if not _INCLUDED.match(reading.text[out_at + len(said_out) : think_at]):
            return
        said = " ".join(reading.text[out_at : think_at + len(said_think)].split())
    visible = round(total - thinking)
    reading.values["reasoning_tokens"] = round(thinking)
    reading.values["output_tokens"] = visible
    reading.understood.append(
        f"{visible:,} visible output tokens per request: '{said}' includes "
        f"{round(thinking):,} reasoning"
    )


_TIMES_THE_OUTPUT = re.compile(
    r"\b(?:thinking|reasoning|think(?:ing)?\s+tokens?)\s+(?:is|runs|averages)\s+(?:about\s+|around\s+"
    r"|roughly\s+|~\s*)?(?P<x>\d+(?:\.\d+)?)\s*x\s+the\s+(?:answer|output|visible\s+output)"
    r"(?:\s+length)?\b"
    r"|\bburns\s+(?:about\s+|around\s+|roughly\s+|~\s*)?(?P<y>\d+(?:\.\d+)?)\s*x\s+the\s+"
    r"(?:answer|output)\s+in\s+(?:thinking|reasoning)\b",
    re.IGNORECASE,
)
"""Reasoning said as a multiple of the visible output: "thinking is about 2x the answer
length", "it burns roughly 3x the output in thinking"."""


def reasoning_multiple(reading: Reading) -> None:
    """Reasoning tokens said as a multiple of the output said (see ``_TIMES_THE_OUTPUT``)."""
    output = reading.values.get("output_tokens")
    if "reasoning_tokens" in reading.values or not isinstance(output, int | float):
        return
    found = _TIMES_THE_OUTPUT.search(reading.text) if "x the" in reading.lower else None
    if found is None:
        return
    times = float(found["x"] or found["y"])
    if not 0 < times <= 50:
        return
    reasoning = round(output * times)
    said = " ".join(found.group().split())
    reading.put(
        "reasoning_tokens",
        reasoning,
        f"{reasoning:,} reasoning tokens per request: {times:g}x the {output:,} output",
        said,
    )
