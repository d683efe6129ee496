"""Facts from terminals: lark's LALR parser over the tokenizer's output.

The grammar (``grammar.lark``) names each fact; this module runs it and returns
``Match`` records (rule name + the terminals it covered), leaving their meaning
to ``core.parse.facts``. Parsing never fails: when a fact is left half-read (a
terminal no rule expects), the items completed so far are kept and parsing
restarts one terminal after the last completed item. Each restart consumes at
least one terminal, so time stays linear in practice and bounded in the worst case.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

from lark import Lark, Transformer
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer

from core.parse.tokens import Tok

FACTS = frozenset(
    {"rate", "amount", "user_speed", "context", "gpus", "peak", "concurrency", "ttft", "tpot"}
    | {"term"}
    | {"io", "fx", "price", "api_price", "budget", "growth", "utilization", "no_reasoning", "scale"}
    | {"model", "precision", "stack", "undo", "reset"}
)


@dataclass(frozen=True)
class Match:
    """One fact as the grammar read it: its rule and the terminals it covered."""

    rule: str
    toks: tuple[Tok, ...]
    first: int
    last: int


class _Run:
    def __init__(self, toks: list[Tok]) -> None:
        self.toks = toks
        self.matches: list[Match] = []
        self.done = 0  # index just after the last completed item


_RUN: contextvars.ContextVar[_Run] = contextvars.ContextVar("leasewise_parse_run")


class _Collect(Transformer[Tok, None]):
    """Records each fact as LALR reduces it (lark calls these inline, no tree is built)."""

    def __getattr__(self, name: str) -> Any:
        if name not in FACTS:
            raise AttributeError(name)
        return functools.partial(self._fact, name)

    @staticmethod
    def _fact(rule: str, children: list[Tok]) -> None:
        run = _RUN.get()
        idx = [c.index for c in children]
        first, last = min(idx), max(idx)
        run.matches.append(Match(str(rule), tuple(run.toks[i] for i in idx), first, last))
        run.done = last + 1

    def stray(self, children: list[Tok]) -> None:
        run = _RUN.get()
        run.done = children[0].index + 1

    def start(self, children: list[Any]) -> None:
        return None


class _Feed(Lexer):
    """Hands lark the pre-typed terminals from a start index (``data = (toks, start)``)."""

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, data: Any) -> Iterator[Tok]:  # type: ignore[override]
        """Our terminals go to the parser as they are: it reads ``type`` (and, for its
        end marker, the position attributes ``Tok`` carries)."""
        toks, begin, end = data
        return iter(toks[begin:end])


@functools.cache
def _parser() -> Lark:
    text = resources.files("core.parse").joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", lexer=_Feed, transformer=_Collect())


def matches(toks: list[Tok]) -> list[Match]:
    """Every fact in ``toks``, left to right (numbers each terminal's ``index``).

    No rule spans a ``BREAK``, so each stretch between breaks is parsed on its own,
    and the facts of a stretch depend only on its terminal types: those are
    memoized (``_shape``), which makes the many repeats of one phrasing cheap.
    """
    found: list[Match] = []
    begin = 0
    for i, t in enumerate((*toks, None)):
        if t is not None:
            t.index = i
            if t.type != "BREAK":
                continue
        if i > begin:
            for rule, idx in _shape(tuple(k.type for k in toks[begin:i])):
                covered = tuple(toks[begin + j] for j in idx)
                found.append(Match(rule, covered, begin + idx[0], begin + idx[-1]))
        begin = i + 1
    return found


@functools.lru_cache(maxsize=8192)
def _shape(types: tuple[str, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The facts (rule, positions) in one stretch of terminal types."""
    toks = [Tok(kind, kind, index=i) for i, kind in enumerate(types)]
    run = _Run(toks)
    token = _RUN.set(run)
    try:
        begin, end = 0, len(toks)
        while begin < end:
            run.done = begin
            try:
                _parser().parse((toks, begin, end))
                break
            except UnexpectedInput as error:
                if run.done > begin:
                    begin = run.done
                    continue
                begin = _prefix(toks, begin, error, run)
    finally:
        _RUN.reset(token)
    return tuple((m.rule, tuple(t.index for t in m.toks)) for m in run.matches)


def _prefix(toks: list[Tok], begin: int, error: UnexpectedInput, run: _Run) -> int:
    """Where to go on after a stretch that read no fact before failing at ``error``.

    "B200 36 months …": the parser took "B200 36" for the start of "B200 36 nodes"
    and failed at "months". The words before the failure may still make facts on their
    own ("B200" is a GPU), so the longest such prefix is read before skipping a terminal.
    """
    failed = getattr(getattr(error, "token", None), "index", None)
    stop = failed if isinstance(failed, int) and failed > begin else len(toks)
    for end in range(stop - 1, begin, -1):
        run.done = begin
        kept = len(run.matches)
        try:
            _parser().parse((toks, begin, end))
        except UnexpectedInput:
            del run.matches[kept:]
            continue
        if len(run.matches) > kept:
            return end
    return begin + 1
