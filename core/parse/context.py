"""What the words before a fact say about it, within its sentence.

People name a quantity once and give its number later: "Prompts are chunky, maybe
3,000 tokens", "requests: 1.2M / day", "first token needs to show up within 2
seconds". When a fact's own words leave its meaning open, the nearest naming word
earlier in the same sentence decides it, and the reply says the number was read so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

_ENDS = "!?;\n"
"""A sentence ends at one of these, or at a full stop that is not inside "2.5" or a form's dot
leaders ("input ...."): see ``before``."""
_DIRECTION = re.compile(  # a document said with its tokens is what the model reads
    r"\b(?:(?P<input>prompts?|inputs?|documents?|docs?|notes?|contracts?|transcripts?|articles?"
    r"|emails?|filings?|tickets?|sends?|sent|submits?)"
    r"|(?P<output>outputs?|answers?|responses?|summar(?:y|ies)|verdicts?|"
    r"repl(?:y|ies)|completions?|generat\w*)|(?P<reasoning>think\w*|reason\w*|thought))\b",
    re.IGNORECASE,
)
_LATENCY = re.compile(
    r"\b(?:first[\s-]token|ttft|latency|time to first|first byte|p50|p9\d|p99\.?9?|"
    r"respon\w* (?:must |should |has to |needs? to )?(?:start|begin|appear)|start\s+streaming"
    r"|begin\s+streaming)\b",
    re.IGNORECASE,
)
_VOLUME = re.compile(
    r"\b(?:(?P<requests>requests?|req|reqs|calls?|queries|query|tasks?|sessions?|chats?|"
    r"conversations?|rps|qps|rpm|turns|descriptions|summaries|emails|tickets|images|"
    r"translations|articles|reviews|reports|transcripts|searches|lookups|jobs)|(?P<tokens>tokens?|toks?|tps|tpm))\b",
    re.IGNORECASE,
)
REACH = 80
"""Characters looked back at most: further than this, a word names something else."""


def before(text: str, start: int) -> str:
    """The sentence's words before ``start`` (at most ``REACH`` characters)."""
    window = text[max(0, start - REACH) : start]
    # found from the end with str.rfind, not a regex over the window: it runs for every fact
    cut = max(window.rfind(c) for c in _ENDS) + 1
    dot = window.rfind(".", cut)
    while dot != -1:
        after = window[dot + 1 : dot + 2]
        if (dot == 0 or window[dot - 1] != ".") and after != "." and not after.isdecimal():
            return window[dot + 1 :]
        dot = window.rfind(".", cut, dot)
    return window[cut:]


def direction(clause: str) -> str | None:
    """input, output or reasoning: the last such word in ``clause``."""
    found = None
    for m in _DIRECTION.finditer(clause):
        found = m.lastgroup
    return found


_NEXT_WORD = re.compile(r"[ \t]*([A-Za-z]+)")


def named_after(text: str, end: int) -> str | None:
    """input, output or reasoning: what the word right after a count names ("a 400-token
    summary", "2k-token prompts")."""
    word = _NEXT_WORD.match(text, end)
    found = _DIRECTION.fullmatch(word.group(1)) if word else None
    return found.lastgroup if found else None


def latency(clause: str) -> bool:
    return _LATENCY.search(clause) is not None


def volume(clause: str) -> str | None:
    """requests or tokens: what the last volume word in ``clause`` counts."""
    found = None
    for m in _VOLUME.finditer(clause):
        found = m.lastgroup
    return found


def around(
    pattern: re.Pattern[str], text: str, lower: str, words: Iterable[str], before: int, after: int
) -> Iterator[re.Match[str]]:
    """``pattern``'s matches in ``text`` near each place ``lower`` says one of ``words``
    (from ``before`` characters ahead of it to ``after`` past it): a rare phrase looked for
    where its cue word is, not by a regex over the whole 10 KB."""
    for word in words:
        at = lower.find(word)
        while at != -1:
            yield from pattern.finditer(text, max(0, at - before), at + after)
            at = lower.find(word, at + 1)
