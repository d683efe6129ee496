"""Self-corrections: "16x H100 … correction: it's 24x, not 16", "$7.87, sorry, $7.50".

People correct themselves in the same message rather than edit it. Read naively, the
retracted figure and its replacement are two values for one field, or the retracted
one wins because it stands next to its unit. Three forms are read, between terminals
of one kind (numbers with numbers, prices with prices, names with names):

- *old, marker, new* ("sixteen, no sorry, thirty-two"; "$7.87 — actually $7.50"):
  the new value takes the old one's place, so it keeps the old one's unit and fact;
- *new, not old* ("it's 24x, not 16"): the old value, wherever it was said earlier,
  becomes the new one, and the phrase itself is no fact;
- *not old but new* ("not 16 but 24"): the old value is dropped.

A correction is said back ("'24x, not 16': read as a correction, 24 in place of 16"),
since a reader can misjudge one as easily as a person can.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse.lexicon import BREAK
from core.parse.numbers import amount, dollars_and_cents
from core.parse.openings import words_opening

if TYPE_CHECKING:
    from core.parse.tokens import Tok

_KINDS = {"NUM": "n", "MULT": "n", "XNUM": "n", "MONEY": "$", "PCT": "%", "PER_TIME": "per"}
_NAMES = frozenset({"MODEL", "GPU", "PRECISION"})
_MARKER = re.compile(
    r"^[\s,.;:!?…—–→⇒>-]*(?:(?:no|nope|sorry|oops|whoops|ugh|wait|actually|correction|korrektur"
    r"|corrección|correção|correzione|edit|rather|er|uh|um"
    r"|i\s+mean|i\s+meant|make\s+(?:that|it)|scratch\s+that|it'?s|it\s+is|should\s+be"
    r"|let'?s\s+say|my\s+bad|typo|closer\s+to|more\s+like|nearer|about|around|roughly"
    r"|i\s+think|probably)\b[\s,.;:!?…—–~≈-]*)+$",
    re.IGNORECASE,
)
_UNIT_THEN_MARKER = re.compile(
    r"^(?:\s*/?\s*[^\W\d][\w-]*){1,3}?\s*(?:[,;:!…—–-]|\.{2,}|\.(?=\s*no\s*[—–,-]))"
)
"""A unit between a figure and a correction ("$7.87/hr, sorry, $7.50"), skipped; a sentence
may end before a bare "no" ("term is 24 months. no — 30")."""
_SPACES = re.compile(r"^\s*$")
_STRONG = re.compile(
    words_opening(
        (
            *("no", "nope", "sorry", "oops", "whoops", "ugh", "wait", "actually", "correction"),
            *("korrektur", "corrección", "correccion", "correção", "correcao", "correzione"),
            *("edit", r"i\s+meant?", r"make\s+(?:that|it)", r"scratch\s+(?:that|the|this)"),
            *(r"should\s+be", "rather", r"my\s+bad", "typo"),
            *(r"er(?=\s*,)", r"uh(?=\s*,)", r"um(?=\s*,)"),  # "per second — er, per MINUTE"
        ),
        ignorecase=True,
    )
    + r"\b"
)
_KIND_OF = {**_KINDS, **dict.fromkeys(_NAMES, "name")}
_MARKER_WORDS = (
    "not",
    "no ",
    "no,",
    "no.",
    "nope",
    "sorry",
    "oops",
    "ugh",
    "wait",
    "actually",
    "correction",
    "korrektur",
    "correc",
    "correç",
    "correzione",
    "edit",
    "i mean",
    "make that",
    "make it",
    "scratch",
    "hold on",
    "should be",
    "rather",
    "my bad",
    "typo",
    "more like",
    "closer to",
    " er,",
    " uh,",
    " um,",
)


def _marks_anywhere(text: str) -> bool:
    """Whether any correction marker is in ``text`` at all (a substring look, not a regex:
    an alternation over 10 KB costs milliseconds)."""
    lower = text.lower()
    return any(w in lower for w in _MARKER_WORDS)


_WITHDRAWN = re.compile(
    words_opening(
        (
            *(r"isn't\s+available", r"is\s+not\s+available", r"not\s+available", r"sold\s+out"),
            *(r"out\s+of\s+stock", r"no\s+capacity", r"fell\s+through"),
            *(r"can'?t\s+get\s+(?:any|them|it)", r"no\s+(?:allocation|stock|supply)"),
        ),
        ignorecase=True,
    )
)
"""A name said unavailable before another is named: "GB300 isn't available, they'll take B300"."""
_WAS_WRONG = re.compile(
    r"\s*(?:was|is|were)\s+(?:just\s+|a\s+)?(?:copy[\s-]?pasted|pasted|wrong|a\s+typo|a\s+mistake"
    r"|an?\s+(?:error|leftover)|from\s+another\s+(?:deal|thread|quote))\b",
    re.IGNORECASE,
)
"""After a name, words that take it back: "L40S was copy-pasted from another deal"."""
_NOT = re.compile(
    r"^(?:\s*(?:s|ms|sec|secs|%|x|k|m|h|hr|hrs|mo|months?|gpus?))?"  # "1.5s not 15s": its unit
    r"\s*,?\s*(?:(?:and\s+)?not|não|nicht|et\s+non|e\s+non|y\s+no|nahi|nahin)\s*$",
    re.IGNORECASE,
)
_NO_AFTER_SORRY = re.compile(r"^(?:\s*[^\W\d][\w-]*){0,2}\s*,\s*no\s*$", re.IGNORECASE)
"""", no 12" after a figure said with an apology ("perdón, contrato de 18 meses, no 12"):
Spanish and Italian "not", the apology's figure being the new one."""
_SORRY_BEFORE = re.compile(
    r"\b(?:perd[oó]n|sorry|disculpa|desculpa|scusa|scusate|pardon|entschuldigung|correction"
    r"|corrección|correção|correzione)\b[^\d.;!?\n]{0,40}$",
    re.IGNORECASE,
)
_REAL_IS = re.compile(
    r"^[^\d.;!?\n]{0,40}?[,;:—–]\s*(?:so\s+)?(?:the\s+)?(?:real|actual|correct)\s+"
    r"(?:number|figure|count|volume)\s+(?:is|=|'s|should\s+be)\s*(?:~|about|closer\s+to|more\s+like)?\s*$",
    re.IGNORECASE,
)
"""Words on the old figure, then the real one: "the 10M counts retries, real number is 8M"."""
_MARKER_THEN_WHY = re.compile(
    r"^[\s,.;:!?…—–-]*(?:no|sorry|hold\s+on|wait|actually|my\s+bad)\b[\s,.;:!?…—–-]*"
    r"(?:i\s+)?(?:checked|looked\s+at|asked|confirmed|re-?read|pulled)\b[^\d.;!?\n]{0,30}?[,:—–-]\s*"
    r"(?:it'?s|it\s+is|make\s+it)?\s*~?\s*$",
    re.IGNORECASE,
)
"""A marker, then where the right figure came from: "3k — hold on, checked the logs, 2.5k"."""
_BUT_MORE_LIKE = re.compile(
    r"^\s*(?:,\s*)?but\b[^\d.;!?\n]{0,60}?[,;—–-]\s*(?:it'?s|it\s+is|that'?s|it\s+was)\s+"
    r"(?:more\s+like|closer\s+to|actually|really|nearer)\s*~?\s*$",
    re.IGNORECASE,
)
"""A figure said, then why it was wrong and the right one: "p2a of 2 but Marco pulled the
logs, it's more like 4"."""
_WORDS_THEN_NOT = re.compile(r"^[^\d.;!?\n]{0,40}?[,—–]\s*(?:and\s+)?not\s*$", re.IGNORECASE)
"""A new figure's own words, then the one it replaces: "batch is 128 per the test, not 256"."""
_RULED_OUT = re.compile(
    r"\b(?:ruled\s+out|rule\s+out|not|no|instead\s+of|rather\s+than|dropped|skip(?:ping)?)"
    r"\s+(?:the\s+|any\s+)?$",
    re.IGNORECASE,
)
"""Before a name, words that make it the one not taken."""
_BUT = re.compile(r"^\s*,?\s*but\s*$", re.IGNORECASE)
_NOT_BEFORE = re.compile(r"\bnot\s*$", re.IGNORECASE)
MAX_GAP = 60
"""Characters between a figure and its correction: further apart, they are two figures."""


def corrected(toks: list[Tok], text: str) -> list[Tok]:
    """``toks`` with corrections applied (retracted terminals become breaks)."""
    _tried(toks, text)
    _too_few(toks, text)
    _scratched(toks, text)
    _real_number(toks, text)
    if not _marks_anywhere(text):
        _restated(toks, text)  # "the 3x was Black Friday" needs no marker word
        return toks  # most messages correct nothing: one look decides it
    kinds = _KIND_OF
    figures = [(k, kind) for k, t in enumerate(toks) if (kind := kinds.get(t.type)) is not None]
    if len(figures) < 2:
        return toks
    absorbed: dict[int, int] = {}  # a retracted figure -> the one now holding its value
    for n, (a, kind_a) in enumerate(figures):
        nxt = _next_of(figures, n, kind_a, toks, text)
        if nxt is None:
            continue
        b, kind_b = figures[nxt]
        first, second = toks[a], toks[b]
        if first.type == BREAK and a in absorbed:  # "a minute, no, per second? No, per minute"
            between = text[first.end : second.start]
            if _marked(between) and _bare(toks, b) and kind_a == kind_b:
                holder = absorbed[a]
                _replace(toks, holder, b, text[toks[holder].start : second.end])
                absorbed[b] = holder
            continue
        if second.start - first.end > MAX_GAP or first.type == BREAK or second.type == BREAK:
            continue
        if kind_a == kind_b == "name" and first.type != second.type:
            continue  # a GPU named after a model corrects nothing of it
        between = text[first.end : second.start]
        if kind_a == "$" and kind_b == "n":  # "one ninety per GPU hour, no sorry, two ten"
            if a + 1 < b and toks[a + 1].type == "PER_TIME":
                between = text[toks[a + 1].end : second.start]
            if not _marked(between):
                continue
            _as_price(second)
            kind_b = "$"
        sorry_no = _NO_AFTER_SORRY.match(between) is not None and (
            _SORRY_BEFORE.search(text, max(0, first.start - 60), first.start) is not None
        )
        if sorry_no or _NOT.match(between) or (_WORDS_THEN_NOT.match(between) and _bare(toks, b)):
            if kind_a == "per" != kind_b:  # "meant 300k/day not 3M": the rate's figure
                if a and _kind(toks[a - 1]) == kind_b:
                    _retract(toks, a - 1, b, text)
            elif kind_a != "name" and (kind_a == kind_b or kind_b == "n"):
                _retract(toks, a, b, text)  # "it's 24x, not 16", "50%, not 60"
        elif (
            (_marked(between) or (kind_a == kind_b == "per" and _period_taken_back(between)))
            and not _retracts(figures, nxt, toks, text)
            and not _said_earlier(toks, [k for k, _ in figures[:n]], a, second)
        ):
            owner: int | None = a
            if kind_a != kind_b:  # "sixteen H200s, no, thirty-two"
                owner = _owner(toks, a, kind_b, text)
            if owner is not None and (
                kind_b == "name" or _bare(toks, b) or _same_unit(toks, owner, b)
            ):
                if _period_only(toks, owner, b):  # "20% a month — sorry, 20% a QUARTER"
                    owner, b = _period_at(toks, owner), _period_at(toks, b)
                    second = toks[b]
                elif toks[owner].value == second.value and kind_b != "name":
                    continue  # "12M … no sorry, 12M is per HOUR": the same figure, explained
                elif _periods_differ(toks, owner, b):  # "5% a month — no, 15% a quarter"
                    pa, pb = _period_at(toks, owner), _period_at(toks, b)
                    _replace(toks, pa, pb, text[toks[pa].start : toks[pb].end])
                _replace(toks, owner, b, text[toks[owner].start : second.end])
                absorbed[b] = owner
        elif _BUT.match(between) and _NOT_BEFORE.search(
            text[max(0, first.start - 8) : first.start]
        ):
            said = _short(text[first.start - 4 : second.end])
            second.note = f"'{said}': read as a correction, {second.text} in place of {first.text}"
            _drop(toks, a)  # "not 16 but 24"
    _restated(toks, text)
    _said_over(toks, text)
    _renamed(toks, text)
    _sided(toks, text)
    return toks


_RATIO_END = re.compile(r"\d\s*:\s*$")
_THE = re.compile(
    r"^(?:\s*/\s*[a-z-]+)?(?:\s*:\s*\d+)?\s*(?:[^\W\d][\w-]*\s*){0,2}?[,;—–-]\s*(?:and\s+)?"
    r"(?:the\s+)?$"
    r"|^\s*[,;—–-]?\s*the\s*$",
    re.IGNORECASE,
)
_THE_PEAK = re.compile(
    r"\s*(?:was|is)\s+(?:actually\s+|really\s+)?(?:the|our|their)\s+peak\b", re.IGNORECASE
)
"""A figure said again as the peak: its side changes, not its value."""
_WAS = re.compile(r"^\s*(?:\*|_)?\s*(?:was|were)\b", re.IGNORECASE)


def _restated(toks: list[Tok], text: str) -> None:
    """A figure said again to explain it away: "it's 2.5x, the 3x was Black Friday" (the
    new value, then the old) and "scratch that, 6M was last month's total; daily is more
    like 200k" (the old, then the new): the old value, where it was said first, becomes
    the new one."""
    if " was " not in text and " were " not in text:
        return
    figures = [k for k, t in enumerate(toks) if _kind(t) in ("n", "$", "%")]
    for n, b in enumerate(figures):
        old = toks[b]
        if not _WAS.match(text, old.end) and not _WAS.match(text[old.end : old.end + 12]):
            continue
        first = next((k for k in figures[:n] if _same(toks[k], old)), None)
        if first is None:
            continue
        before = figures[n - 1] if n else None
        if before is not None and n > 1 and _RATIO_END.search(text, 0, toks[before].start):
            before = figures[n - 2]  # "their Grafana says 3:1, the 4 was Christmas week"
        if before is not None and before != first and _kind(toks[before]) == _kind(old):
            between = text[toks[before].end : old.start]
            if _THE.match(between) and old.start - toks[before].end <= MAX_GAP:
                _retract(toks, before, b, text)  # "it's 2.5x, the 3x was Black Friday"
                continue
        if not _STRONG.search(text, max(0, old.start - 25), old.start):
            continue
        if _THE_PEAK.match(text, old.end):
            continue  # "90 was the peak, average is closer to 30": a side, core.parse.peaks'
        after = next((k for k in figures[n + 1 :] if _kind(toks[k]) == _kind(old)), None)
        if after is not None and toks[after].start - old.end <= MAX_GAP:
            said = text[old.start : toks[after].end]  # "6M was … more like 200k"
            _drop(toks, b)
            _replace(toks, first, after, said)


_FALLS_SHORT = re.compile(
    r"\s*(?:[\w-]+\s+){0,2}?(?:(?:don['’]?t|do\s+not|doesn['’]?t|does\s+not|won['’]?t|will\s+not"
    r"|can['’]?t|cannot|couldn['’]?t|wouldn['’]?t)\s+(?:hold|fit|handle|keep\s+up|be\s+enough|cut\s+it)"
    r"|(?:is|are|was|were)(?:n['’]?t|\s+not)\s+enough|(?:is|are|was|were)\s+too\s+(?:small|few|slow))",
    re.IGNORECASE,
)
"""What makes a GPU count a reason, not the deployment: "they said 8 GPUs don't hold the KV
cache", "4x H100 was too slow"."""


def _too_few(toks: list[Tok], text: str) -> None:
    """A GPU count said falling short ("8 GPUs don't hold the KV cache for 96 sessions") is
    why another count is asked, not one to price."""
    if "n't" not in text and "n’t" not in text and " not " not in text and "too " not in text:
        return
    for k in range(len(toks) - 1):
        count, gpu = toks[k], toks[k + 1]
        if _kind(count) != "n" or gpu.type not in ("GPU", "GPUWORD"):
            continue
        end = gpu.end
        if k + 2 < len(toks) and toks[k + 2].type == "GPUWORD" and toks[k + 2].start - end < 3:
            end = toks[k + 2].end  # "8 H100 GPUs"
        if _FALLS_SHORT.match(text, end):
            _drop(toks, k)
            if gpu.type == "GPUWORD":
                _drop(toks, k + 1)


_OVER_WORDS = frozenset(
    {"wait", "scratch", "make that", "make it", "meant", "correction", "oops", "my bad", "hold on"}
    | {"actually"}
)
_OVER = re.compile(
    r"\b(?:wait|scratch\s+that|make\s+(?:that|it)|i\s+meant|correction|oops|my\s+bad|hold\s+on"
    r"|actually(?=\s*,)|(?:they|we|customer|client)\s+actually\s+(?:need|needs|want|wants))\b"
    r"(?:[^\d.;!?\n]|(?<=[A-Za-z])\d){0,60}$",
    re.IGNORECASE,
)
"""A strong correction and the words before the new figure: "— wait, that was last
quarter's number, they're at 650k", "— scratch that, they capped it at 96"."""
_SENTENCE_END = re.compile(r"(?<!\.)[.!?](?!\.)\s+[A-Z]")
END = "END"
_OWN_UNITS = frozenset(
    {"REQUESTS", "TOKENS", "OUT", "IN", "INS", "OUTS", "REASON", "GPU", "GPUWORD", "CONCURRENT"}
    | {"TIME", "PER_TIME", "USER", "AVG", "PEAK"}
)
"""Terminals after a figure that make it a fact of its own, not a corrected one's value."""
_FACT_WORDS = frozenset({"BATCH", "CONCURRENT", "TERM", "UTIL", "CONTEXT", "TTFT", "TPOT"})
"""Terminals before a figure that name its fact: after a correction, a figure of another."""


def _said_over(toks: list[Tok], text: str) -> None:
    """A figure said after a strong correction and a few words ("… make that sixteen"):
    the figure of its kind said last before the correction takes its value, wherever the
    correction's own words put it."""
    lower = text.lower()
    if not any(w in lower for w in _OVER_WORDS):
        return  # no strong correction anywhere: one look decides it
    figures = [k for k, t in enumerate(toks) if _kind(t) in ("n", "$", "%")]
    for n, b in enumerate(figures):
        new = toks[b]
        window = lower[max(0, new.start - 80) : new.start]
        if not any(w in window for w in _OVER_WORDS):
            continue
        marker = _OVER.search(text, max(0, new.start - 80), new.start)
        if marker is None or n == 0:
            continue
        a = figures[n - 1]
        if b + 1 < len(toks) and toks[b + 1].type == "NODES" != toks[a + 1].type:
            counted = [k for k in figures[: n - 1] if toks[k + 1].type == "NODES"]
            if not counted:
                continue
            a = counted[-1]  # "4 nodes of 8x h100 — wait sorry, 2 nodes": the nodes' count
        old = toks[a]
        if _kind(old) != _kind(new) or old.value == new.value or old.note or new.note:
            continue  # corrected already, or said again as it was
        if _said_earlier(toks, figures[: n - 1], a, new):
            continue
        if old.end > marker.start() or marker.start() - old.end > 120:
            continue
        after_old = toks[a + 1].type if a + 1 < len(toks) else BREAK
        after_new = toks[b + 1].type if b + 1 < len(toks) else END
        alone = after_new in (BREAK, END)  # "… Actually make that 750k, they added the EU"
        if _SENTENCE_END.search(text, old.end, marker.start() + 1) and not (
            alone or after_new == after_old
        ):
            continue  # "TTFT under 1 s. Oops, 60k an hour": a new fact in another sentence
        if after_new != after_old and after_new in _OWN_UNITS:
            continue  # "wait, they also want 2M requests a day": a new fact, not a correction
        named = toks[b - 1].type if toks[b - 1].start > marker.start() else BREAK
        if named in _FACT_WORDS and named != after_old and (a == 0 or named != toks[a - 1].type):
            continue  # "36mo term. oops, batch is 128": the batch's own figure, not the term's
        if after_old == after_new == "TIME" and toks[a + 1].value != toks[b + 1].value:
            unit, said = toks[a + 1], toks[b + 1]  # "TTFT 1.5s — no, make it 800 ms": its unit too
            unit.value, unit.text = said.value, said.text
            _drop(toks, b + 1)
        _replace(toks, a, b, text[old.start : new.end])


_TAKEN_BACK = ("scratch", "ignore", "drop", "forget", "disregard")
"""Words that take a figure back, before the one they name."""
_SCRATCH_NAMED = re.compile(
    words_opening(_TAKEN_BACK, ignorecase=True)
    + r"(?i:\s+(?:the|that|my)\s+(?P<fig>~?\d[\d.,]*\s*[kKmMbB]?\s+)?"
    r"(?P<what>[a-z]+(?:[\s/-][a-z]+)?)\s+(?:number|figure|estimate|count|value|one)\b)"
    r"|"
    + words_opening(("correction", "update", "change"), ignorecase=True)
    + r"(?i:\s+(?:on|to|for)\s+(?:the\s+)?(?P<on>[a-z]+)\b)"
)
"""A correction that names what it takes back: "scratch the reasoning number", "ignore the
2k output number"."""


_SCRATCH_WORDS = (
    "scratch", "ignore", "drop", "forget", "disregard", "correction", "update", "change"
)


def _real_number(toks: list[Tok], text: str) -> None:
    """ "10M req/day … the 10M counts retries, real number is 8M": a figure said again to
    explain it away, then the real one; where the old figure was first said, the new one."""
    lower = text.lower()
    if not any(w in lower for w in ("real number", "actual number", "correct number")):
        return
    figures = [k for k, t in enumerate(toks) if _kind(t) == "n"]
    for a, b in zip(figures, figures[1:], strict=False):
        if not _REAL_IS.match(text[toks[a].end : toks[b].start]) or not _bare(toks, b):
            continue
        first = next((k for k in figures if k < a and toks[k].value == toks[a].value), None)
        if first is not None:
            _replace(toks, first, b, text[toks[a].start : toks[b].end])
            _drop(toks, a)


def _scratched(toks: list[Tok], text: str) -> None:
    """ "4,000 reasoning tokens … Scratch the reasoning number, … it's closer to 2,500": the
    first bare figure after the words takes the place of the one said with the named word."""
    lower = text.lower()
    if not any(w in lower for w in _SCRATCH_WORDS):
        return
    figures = [k for k, t in enumerate(toks) if _kind(t) in ("n", "$", "%")]
    for found in _SCRATCH_NAMED.finditer(text):
        words = {w.lower() for w in re.split(r"[\s/-]", found["what"] or found["on"])}
        new = next(
            (k for k in figures if toks[k].start >= found.end() and _bare(toks, k)), None
        )
        if new is None or toks[new].start - found.end() > 120:
            continue
        named = next(
            (
                k
                for k in reversed(figures)
                if toks[k].end <= found.start()
                and any(_names(toks[j].text.lower(), words) for j in _beside(toks, k))
            ),
            None,
        )  # the last figure said with the named word before the correction
        if found["fig"]:  # "ignore the 2k output number I posted earlier, it's 1.5k"
            named = next((k for k in figures if toks[k].start == found.start("fig")), named)
        if named is not None:
            _replace(toks, named, new, text[found.start() : toks[new].end])
    for found in _SCRATCH_FIGURE.finditer(text):  # "ignore the 6, PM says it's 4 turns"
        old_value = amount(found["fig"].replace(" ", ""))
        earlier = [
            k for k in figures if toks[k].end <= found.start() and toks[k].value == old_value
        ]
        new = next((k for k in figures if toks[k].start >= found.end()), None)
        if not earlier or new is None or toks[new].start - found.end() > 80:
            continue
        if _kind(toks[earlier[-1]]) != _kind(toks[new]):
            continue  # "ignore the 2.25, that was the 12-month rate": no price of 12
        _replace(toks, earlier[-1], new, text[found.start() : toks[new].end])


_SCRATCH_FIGURE = re.compile(
    words_opening(_TAKEN_BACK, ignorecase=True)
    + r"(?i:\s+(?:the|that|my)\s+(?P<fig>\d[\d.,]*\s*[kKmMbB]?)\s*[,;—–-])"
)
"""A correction that names the figure it takes back by the figure: "ignore the 6, …"."""


def _names(said: str, words: set[str]) -> bool:
    """Whether a terminal's text is one of the named words, or its short form ("out")."""
    return len(said) >= 2 and any(w.startswith(said) or said.startswith(w) for w in words)


def _beside(toks: list[Tok], k: int) -> list[int]:
    """The terminals right around a figure, up to a break on either side."""
    out = []
    for step in (-1, 1):
        j = k + step
        while 0 <= j < len(toks) and abs(j - k) <= 2 and toks[j].type != BREAK:
            out.append(j)
            j += step
    return out


def _period_taken_back(between: str) -> bool:
    """Whether the words between two times take the first back, said with who corrects
    it ("per minute — correction from their eng lead: per *hour*"): a strong marker in a
    short stretch with no figure of its own."""
    return (
        len(between) <= 50
        and not any(c.isdigit() for c in between)
        and _STRONG.search(between) is not None
        and _NO_BEFORE.search(between) is None  # "hard ceiling. No hourly": refused, not a fix
    )


_NO_BEFORE = re.compile(r"\b(?:no|not)\s*$", re.IGNORECASE)


def _period_only(toks: list[Tok], a: int, b: int) -> bool:
    """Whether a correction says the same figure over another time: then the time is what
    it corrects."""
    return toks[a].value == toks[b].value and _periods_differ(toks, a, b)


def _periods_differ(toks: list[Tok], a: int, b: int) -> bool:
    """Whether the old figure and the new are each said over a time, and the times differ."""
    pa, pb = _period_at(toks, a), _period_at(toks, b)
    if pa == a or pb == b:
        return False
    return toks[pa].value != toks[pb].value


_OF_A_RATE = frozenset({"REQUESTS", "TOKENS", "OUT", "IN"})
"""What may stand between a figure and its time: "1.2M requests a day", "40M out/day"."""


def _period_at(toks: list[Tok], k: int) -> int:
    """Where the time a figure is said over stands ("1.2M requests a day": the day), or
    ``k`` itself when it is said over none."""
    for j in range(k + 1, min(k + 3, len(toks))):
        if toks[j].type == "PER_TIME":
            return j
        if toks[j].type not in _OF_A_RATE:
            break
    return k


def _same(a: Tok, b: Tok) -> bool:
    return _kind(a) == _kind(b) and a.value == b.value and a.type != BREAK


_TRIED = re.compile(
    r"\b(?:tried|tested|evaluated|instead\s+of|rather\s+than|moving\s+off)\s+(?:the\s+)?$",
    re.IGNORECASE,
)


def _tried(toks: list[Tok], text: str) -> None:
    """ "Model: gpt-oss-120b (they tried Qwen3-235B, too slow)": a model they tried or
    moved off is not the one to size, when another is named."""
    lower = text.lower()
    if "tried" not in lower and "tested" not in lower and " instead of" not in lower:
        return
    models = [k for k, t in enumerate(toks) if t.type == "MODEL"]
    if len({toks[k].value for k in models}) < 2:
        return
    for k in models:
        t = toks[k]
        if _TRIED.search(text, max(0, t.start - 25), t.start):
            _drop(toks, k)


def _sided(toks: list[Tok], text: str) -> None:
    """ "40 rps avg … actually make it 45 avg": a corrected figure that names its side
    (average or peak) takes the place of the figure said before with that side."""
    for k in range(1, len(toks) - 1):
        new, side = toks[k], toks[k + 1]
        if new.type != "NUM" or side.type not in ("AVG", "PEAK"):
            continue
        if not _STRONG.search(text[max(0, new.start - 25) : new.start]):
            continue
        sided = [
            j
            for j in range(k)
            if toks[j].type == "NUM" and any(t.type == side.type for t in toks[j + 1 : j + 4])
        ]
        if not sided:
            continue
        retracted = toks[sided[-1]].value  # and wherever it was said again with its side
        said = _short(text[max(0, new.start - 25) : side.end])
        for j in sided:
            old = toks[j]
            if old.value == retracted:
                old.note = f"'{said}': read as a correction, {new.text} in place of {old.text}"
                old.value = new.value
        _drop(toks, k)


def _next_of(
    figures: list[tuple[int, str]], n: int, kind: str, toks: list[Tok], text: str
) -> int | None:
    """The next figure a correction of ``figures[n]`` could be: of its kind, or any after
    a name ("H200s, no, thirty-two" corrects the count said with the name), a number
    said in words after a price ("one ninety per GPU hour, no sorry, two ten"), or a bare
    number right after ", not" ("50%, not 60")."""
    for m in range(n + 1, min(n + 4, len(figures))):
        if figures[m][1] == kind or kind == "name":
            return m
        if kind == "$" and figures[m][1] == "n" and toks[figures[m][0]].flag:
            return m
        a, b = figures[m - 1][0], figures[m][0]
        if m == n + 1 and figures[m][1] == "n" and _NOT.match(text[toks[a].end : toks[b].start]):
            return m
    return None


def _as_price(t: Tok) -> None:
    """A number said in words that corrects a price is one, said the short way or whole."""
    t.type = "MONEY"
    t.value = dollars_and_cents(t.text) or t.value


def _same_unit(toks: list[Tok], a: int, b: int) -> bool:
    """Whether the new figure is said in the old one's own unit ("TPOT target 20ms...
    sorry, 25ms"): the same fact again, its value corrected."""
    return (
        b + 1 < len(toks)
        and toks[a + 1].type == toks[b + 1].type == "TIME"
        and toks[a + 1].text.lower() == toks[b + 1].text.lower()
    )


def _bare(toks: list[Tok], b: int) -> bool:
    """Whether the new figure stands alone ("…, sorry, $7.50,"): one with its own unit or
    direction ("sorry, I meant 5k in, 500 out") restates a fact, which then wins as said."""
    return b + 1 >= len(toks) or toks[b + 1].type in (BREAK, "PER_TIME", "MONEY", "NUM")


def _renamed(toks: list[Tok], text: str) -> None:
    """ "8x H100 at 32 concurrent. Actually scratch that, make it 8x H200": a name said
    after a correction marker replaces the name of its kind said before it."""
    seen: dict[str, int] = {}
    for k, t in enumerate(toks):
        if t.type not in _NAMES:
            continue
        if _WAS_WRONG.match(text, t.end):  # "L40S was copy-pasted from another deal"
            for j in range(k + 1):
                if toks[j].type == t.type and toks[j].value == t.value:
                    _drop(toks, j)
            continue
        before = seen.get(t.type)
        seen[t.type] = k
        if before is None or toks[before].value == t.value:
            continue
        if _RULED_OUT.search(text, max(0, t.start - 25), t.start):
            seen[t.type] = before  # "sorry, H200s, they already ruled out H100": not the one
            _drop(toks, k)
            continue
        window = text[max(0, toks[before].start - 15, t.start - 80) : t.start]
        if _STRONG.search(window) or _WITHDRAWN.search(window):
            old = toks[before]
            said = re.split(r"(?<=[.!?;])\s+", window.strip())[-1]  # its own sentence's words
            t.note = f"'{_short(said)} {t.text}': read as a correction of {old.text}"
            for j in range(k):  # the name retracted, wherever it was said
                if toks[j].type == t.type and toks[j].value == old.value:
                    _drop(toks, j)


def _retracts(figures: list[tuple[int, str]], n: int, toks: list[Tok], text: str) -> bool:
    """Whether the figure ``figures[n]`` is followed by ", not <old>" (it corrects that)."""
    if n + 1 >= len(figures):
        return False
    a, b = figures[n][0], figures[n + 1][0]
    return _NOT.match(text[toks[a].end : toks[b].start]) is not None


def _said_earlier(toks: list[Tok], before: list[int], old: int, new: Tok) -> bool:
    """Whether the figure after a correction was said before of something else ("3.5M
    calls/day, in 500 out 100. actually - 3.5M is per WEEK"): it corrects what was said
    of itself, not the figure ``old`` next to it (one said of the same thing is taken
    back to: "800 out. make that 1.2k out - no, 800 was right")."""
    unit = _unit_after(toks, old)
    return any(
        toks[k].type == new.type and toks[k].text == new.text and _unit_after(toks, k) != unit
        for k in before
    )


def _unit_after(toks: list[Tok], k: int) -> str:
    return toks[k + 1].type if k + 1 < len(toks) else BREAK


def _marked(between: str) -> bool:
    """Whether the words between two figures retract the first."""
    if _BUT_MORE_LIKE.match(between) or _MARKER_THEN_WHY.match(between):
        return True
    if not _STRONG.search(between):
        return False
    if _MARKER.match(between):
        return True
    unit = _UNIT_THEN_MARKER.match(between)
    return unit is not None and _MARKER.match(between[unit.end() - 1 :]) is not None


def _owner(toks: list[Tok], a: int, kind: str | None, text: str) -> int | None:
    """The figure of ``kind`` said right before the name at ``a`` ("sixteen H200s")."""
    k = a - 1
    while k >= 0 and toks[k].type == BREAK and _SPACES.match(text[toks[k].end : toks[k + 1].start]):
        k -= 1
    if k >= 0 and _kind(toks[k]) == kind and _SPACES.match(text[toks[k].end : toks[a].start]):
        return k
    return None


def _kind(t: Tok) -> str | None:
    return _KIND_OF.get(t.type)


def _replace(toks: list[Tok], a: int, b: int, said: str) -> None:
    """Old, marker, new: the new value in the old one's place (names: the old dropped)."""
    old, new = toks[a], toks[b]
    if _kind(old) == "name":
        _drop(toks, a)
        return
    old.value = new.value
    old.note = f"'{_short(said)}': read as a correction, {new.text} in place of {old.text}"
    _drop(toks, b)


def _retract(toks: list[Tok], a: int, b: int, text: str) -> None:
    """New, not old: the old value said earlier becomes the new one."""
    new, old = toks[a], toks[b]
    said = _short(text[new.start : old.end])
    kinds = {_kind(old), _kind(new)}  # "plan for 60% … 50%, not 60": the old one a percent
    earlier = [k for k in range(a) if _kind(toks[k]) in kinds and toks[k].value == old.value]
    if not earlier and _NEWEST_FIRST.search(text, 0, new.start):
        earlier = [  # "Correction to my note below — 2M requests, not 1.2M": said after it
            k for k in range(b + 1, len(toks))
            if _kind(toks[k]) in kinds and toks[k].value == old.value
        ]
    if earlier:
        for k in earlier if earlier[0] > b else earlier[-1:]:
            target = toks[k]
            target.note = f"'{said}': read as a correction, {new.text} in place of {target.text}"
            target.value = new.value
        _drop(toks, a)
    _drop(toks, b)


_NEWEST_FIRST = re.compile(
    r"\b(?:(?:my|the|his|her|their)\s+(?:note|mail|email|e-mail|message)\s+below"
    r"|(?:newest|latest|most\s+recent)\s+(?:on\s+top|first|at\s+the\s+top))\b",
    re.IGNORECASE,
)
"""A thread pasted newest first: what a correction takes back is said after it."""


def _drop(toks: list[Tok], k: int) -> None:
    t = toks[k]
    toks[k] = type(t)(BREAK, t.text, None, t.start, t.end)


def _short(said: str) -> str:
    said = " ".join(said.split())
    return said if len(said) <= 60 else said[:57] + "…"
