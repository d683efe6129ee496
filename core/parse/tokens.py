"""A typed tokenizer: plain text -> terminals the grammar reads.

One regular expression splits the text into numbers, words, symbols and
separators (``_RAW``). Two passes then give each piece its meaning:

1. *lexemes*: catalog names (longest run of words whose spelling-insensitive
   concatenation is a model, GPU, precision or stack name: ``Kimi-K3``,
   ``a100 80gb``, ``4-bit``), keyword phrases (``time to first token``), numbers
   with their scale (``2B``, ``2.5 million``, ``eight``), then single words by the
   lexicon; unknown words become ``BREAK``.
2. *combinations* of neighbours: ``$`` + number -> ``MONEY``, number + ``%`` ->
   ``PCT``, number + ``x`` -> ``MULT``, ``per``/``/``/``a`` + time -> ``PER_TIME``,
   ``per user`` -> ``PER_USER``, ``/M`` -> ``PER_MILLION``. Fillers are dropped and
   runs of ``BREAK`` collapse to one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from core.parse import numbers
from core.parse.lexicon import BREAK, FILLER, PHRASES, Lexicon

_KV = r"(?P<kv>(?<![\w.=])[A-Za-z_][A-Za-z0-9_]*[ \t]*=[ \t]*[^\s;]+)"
_PIECES = (
    r"(?P<num>(?:\d{1,3}(?:,\d{3})+(?![\d,])|\d+)(?:\.\d+)?(?:[eE][+-]?\d{1,3}(?![\w]))?|\.\d+)"
    r"|(?P<word>(?<=\d)[xX×](?=[^\W_])|[^\W\d_][^\W_]*(?:\.\d+[^\W_]*)*(?:['’][^\W\d_]+)?)"
    r"|(?P<sym>[$%/×~<>≤≥+&=:_*-])"
    r"|(?P<sep>[.;!?\n,()\[\]|—–])"
)
_RAW = re.compile(_KV + "|" + _PIECES)
_RAW_NO_KV = re.compile(_PIECES)
"""Most messages have no ``=``; skipping the key=value alternative there halves the scan."""

_JOINERS = frozenset("-_/.")
_NOT_KEY = re.compile(r"[^a-z0-9.]+")
_ANCHORS = frozenset(
    {"NUM", "MONEY", "PCT", "MULT", "XNUM", "ONDEMAND", "NOT", "FACTOR", "UNDO", "RESET"}
    | {"MODEL", "GPU", "PRECISION", "STACK"}
)
"""Every fact has one of these; a stretch between breaks without any is dropped."""
_ALONE = frozenset({"MODEL", "GPU", "PRECISION", "STACK", "MONEY", "ONDEMAND", "UNDO", "RESET"})
"""Terminals that are a fact on their own; any other terminal alone between breaks is dropped."""
_MAX_NAME_PIECES = 9
_SCALE_M = frozenset({"m", "mm", "million", "mtok", "mtoks", "1m"})
_STARTERS = frozenset(
    {p[0] for p in PHRASES} | set(numbers.NUMBER_WORDS) | _SCALE_M | {"a", "an"}
)
"""Words that may begin a phrase or a number, or need ``_word``'s special cases."""


@dataclass(slots=True)
class Tok:
    """One terminal: its type, the words it came from, and its value."""

    type: str
    text: str
    value: float | str | None = None
    start: int = 0
    end: int = 0
    flag: bool = False  # PER_TIME: "per GPU"; NUM: written in words
    index: int = 0  # position in the message's terminals, set by ``grammar.matches``

    # lark reads these off the last terminal to place its end-of-input marker.
    line: ClassVar[None] = None
    column: ClassVar[None] = None
    end_line: ClassVar[None] = None
    end_column: ClassVar[None] = None
    end_pos: ClassVar[None] = None

    @property
    def start_pos(self) -> int:
        return self.index


@dataclass(slots=True)
class Raw:
    kind: str
    text: str
    start: int
    end: int
    lower: str
    key: str  # as catalog names are keyed: lower case, letters, digits and dots only


@dataclass
class Scan:
    """A tokenized message: terminals, ``key=value`` pairs, and numbers refused."""

    toks: list[Tok]
    pairs: list[tuple[str, str]]
    refused: list[str]


def raw_pieces(text: str) -> list[Raw]:
    """The regex's pieces with their positions; only words and numbers get a catalog key."""
    pattern = _RAW if "=" in text else _RAW_NO_KV
    out: list[Raw] = []
    append = out.append
    for m in pattern.finditer(text):
        kind = m.lastgroup or "sep"
        piece = m.group()
        lower = piece.lower()
        key = ""
        if kind == "word" or kind == "num":
            key = lower
            if not key.isalnum() and not (kind == "num" and "," not in key):
                key = _NOT_KEY.sub("", key)
        append(Raw(kind, piece, m.start(), m.end(), lower, key))
    return out


def scan(text: str, lexicon: Lexicon) -> Scan:
    raws = raw_pieces(text)
    pairs: list[tuple[str, str]] = []
    refused: list[str] = []
    return Scan(_combine(_lexemes(raws, lexicon, pairs, refused)), pairs, refused)


# -- pass 1 -------------------------------------------------------------------


def _lexemes(
    raws: list[Raw], lexicon: Lexicon, pairs: list[tuple[str, str]], refused: list[str]
) -> list[Tok]:
    out: list[Tok] = []
    i, n = 0, len(raws)
    while i < n:
        r = raws[i]
        if r.kind == "kv":
            key, _, value = r.text.partition("=")
            pairs.append((key.strip().lower(), value.strip()))
            out.append(Tok(BREAK, r.text, None, r.start, r.end))
            i += 1
            continue
        if r.kind == "sep":
            _break(out, r)
            i += 1
            continue
        if (
            r.kind == "word"
            and r.key not in lexicon.name_prefixes
            and r.lower not in _STARTERS
            and r.lower[0] not in "x×"
        ):
            plain = lexicon.word(r.lower)  # the common case: a word that starts nothing longer
            if plain is None:
                _break(out, r)
            else:
                out.append(Tok(plain[0], r.text, plain[1], r.start, r.end))
            i += 1
            continue
        hit = _name(raws, i, lexicon) or _phrase(raws, i, lexicon)
        if hit is not None:
            tok, i = hit
            out.append(tok)
            continue
        if r.kind == "num" or (r.kind == "word" and r.lower in numbers.NUMBER_WORDS):
            tok, i = _number(raws, i, refused)
            out.append(tok)
            continue
        if (
            r.kind == "word"
            and r.lower in ("a", "an")
            and i + 1 < n
            and raws[i + 1].lower in ("hundred", "thousand", "million", "billion")
        ):
            tok, i = _number(raws, i + 1, refused)
            out.append(tok)
            continue
        tok = _word(r, lexicon)
        if tok.type == BREAK:
            _break(out, r)
        else:
            out.append(tok)
        i += 1
    return out


def _break(out: list[Tok], r: Raw) -> None:
    """A break after a break adds nothing (pass 2 collapses runs); skipping it is cheaper."""
    if not out or out[-1].type != BREAK:
        out.append(Tok(BREAK, r.text, None, r.start, r.end))


def _name(raws: list[Raw], i: int, lexicon: Lexicon) -> tuple[Tok, int] | None:
    """The longest catalog name starting at ``raws[i]`` (joiners inside only)."""
    if raws[i].kind not in ("word", "num") or raws[i].key not in lexicon.name_prefixes:
        return None
    key = ""
    best: tuple[str, str, int] | None = None
    j = i
    while j < len(raws) and j - i < _MAX_NAME_PIECES:
        r = raws[j]
        if r.kind in ("word", "num"):
            key += r.key
            if key in lexicon.names:
                best = (*lexicon.names[key], j + 1)
            elif key.endswith("s") and key[:-1] in lexicon.names:
                best = (*lexicon.names[key[:-1]], j + 1)
            if key not in lexicon.name_prefixes:
                break
        elif not (r.kind == "sym" and r.text in _JOINERS):
            break
        j += 1
    if best is None:
        return None
    terminal, rid, end = best
    if end == i + 1 and raws[i].kind == "num" and _unit_follows(raws, end):
        return None  # "405B tokens a day" is a number, not Llama 405B
    text = " ".join(r.text for r in raws[i:end])
    return Tok(terminal, text, rid, raws[i].start, raws[end - 1].end), end


def _unit_follows(raws: list[Raw], j: int) -> bool:
    return j < len(raws) and raws[j].lower in ("tokens", "token", "tok", "requests", "req")


def _phrase(raws: list[Raw], i: int, lexicon: Lexicon) -> tuple[Tok, int] | None:
    if (raws[i].lower,) not in lexicon.phrase_prefixes:
        return None
    words: tuple[str, ...] = ()
    best: tuple[str, int] | None = None
    j = i
    while j < len(raws):
        words = (*words, raws[j].lower)
        if words not in lexicon.phrase_prefixes:
            break
        if words in PHRASES:
            best = (PHRASES[words], j + 1)
        j += 1
    if best is None:
        return None
    terminal, end = best
    unit = "month" if terminal == "MOM" else None
    if terminal == "MOM":
        terminal = "PER_TIME"
    text = " ".join(r.text for r in raws[i:end])
    return Tok(terminal, text, unit, raws[i].start, raws[end - 1].end), end


def _number(raws: list[Raw], i: int, refused: list[str]) -> tuple[Tok, int]:
    """A number with its scale: ``2B``, ``2.5 million``, ``1,200``, ``two thousand``."""
    start = raws[i].start
    written = raws[i].kind == "word"
    if written:
        run: list[str] = []
        j = i
        while j < len(raws):
            w = raws[j].lower
            if w in numbers.NUMBER_WORDS or (run and w in ("and", "-") and j + 1 < len(raws)):
                run.append(w if w != "-" else "")
                j += 1
            else:
                break
        while run and run[-1] in ("and", ""):
            run.pop()
            j -= 1
        value = numbers.words([w for w in run if w])
    else:
        value = numbers.digits(raws[i].text)
        j = i + 1
    if j < len(raws) and raws[j].kind == "word":
        scale = numbers.SCALES.get(raws[j].lower)
        glued = raws[j].start == raws[j - 1].end
        single = len(raws[j].text) == 1
        if scale is not None and (glued or not single or raws[j].text in "kKMBT"):
            value = None if value is None else numbers.in_range(value * scale)
            j += 1
    text = " ".join(r.text for r in raws[i:j]) if written else _joined(raws, i, j)
    end = raws[j - 1].end
    if value is None:
        refused.append(text if len(text) <= 40 else text[:12] + "…" + text[-4:])
        return Tok(BREAK, text, None, start, end), j
    return Tok("NUM", text, value, start, end, written), j


def _joined(raws: list[Raw], i: int, j: int) -> str:
    if j == i + 1:
        return raws[i].text  # most numbers are one piece
    return "".join(
        (" " if k > i and raws[k].start != raws[k - 1].end else "") + raws[k].text
        for k in range(i, j)
    )


def _word(r: Raw, lexicon: Lexicon) -> Tok:
    lower = r.lower
    if r.kind == "word" and len(lower) > 1 and lower[0] in "x×" and lower[1:].isdigit():
        return Tok("XNUM", r.text, float(lower[1:]), r.start, r.end)
    if lower in _SCALE_M:
        return Tok("SCALE_M", r.text, None, r.start, r.end)
    hit = lexicon.word(lower)
    if hit is None:
        return Tok(FILLER if r.kind == "sym" else BREAK, r.text, None, r.start, r.end)
    return Tok(hit[0], r.text, hit[1], r.start, r.end)


# -- pass 2 -------------------------------------------------------------------


def _combine(lex: list[Tok]) -> list[Tok]:
    out: list[Tok] = []
    i, n = 0, len(lex)

    def at(k: int) -> str:
        return lex[k].type if k < n else ""

    while i < n:
        t = lex[i]
        kind = t.type
        if kind == "NUM":
            if at(i + 1) == "PCTWORD":
                out.append(_merge("PCT", lex[i : i + 2], t.value))
                i += 2
                continue
            if at(i + 1) == "TIMESWORD":
                out.append(_merge("MULT", lex[i : i + 2], t.value))
                i += 2
                continue
            if at(i + 1) == "MONEYWORD" and lex[i + 1].text != "$":
                out.append(_merge("MONEY", lex[i : i + 2], t.value))
                i += 2
                continue
            out.append(t)
            i += 1
            continue
        if kind == "MONEYWORD" and at(i + 1) == "NUM":
            out.append(_merge("MONEY", lex[i : i + 2], lex[i + 1].value))
            i += 2
            continue
        if kind == "TIMESWORD" and at(i + 1) == "NUM":
            out.append(_merge("XNUM", lex[i : i + 2], lex[i + 1].value))
            i += 2
            continue
        if kind == "PER":
            hit = _per(lex, i, out)
            if hit is not None:
                tok, i = hit
                out.append(tok)
                continue
            i += 1
            continue
        if kind.startswith("RATE_"):
            unit = kind.removeprefix("RATE_")
            out.append(Tok(unit, t.text, None, t.start, t.end))
            out.append(Tok("PER_TIME", t.text, t.value, t.start, t.end))
            i += 1
            continue
        if kind in (FILLER, "MONEYWORD", "PCTWORD", "TIMESWORD", "SCALE_M"):
            i += 1
            continue
        if kind == BREAK and (not out or out[-1].type == BREAK):
            i += 1
            continue
        out.append(t)
        i += 1
    return _drop_lone(out)


def _drop_lone(toks: list[Tok]) -> list[Tok]:
    """Keep only stretches between breaks that a fact can be made of (speed only)."""
    out: list[Tok] = []
    stretch: list[Tok] = []
    for t in (*toks, Tok(BREAK, "")):
        if t.type != BREAK:
            stretch.append(t)
            continue
        keep = any(s.type in _ANCHORS for s in stretch)
        if keep and (len(stretch) > 1 or stretch[0].type in _ALONE):
            if out:
                out.append(t)
            out.extend(stretch)
        stretch = []
    return out


def _per(lex: list[Tok], i: int, out: list[Tok]) -> tuple[Tok, int] | None:
    """``per``/``/``/``a``/``each`` and what follows: a time, a user, a request, a million."""
    n = len(lex)
    j = i + 1
    gpu = False
    if j < n and lex[j].type == "GPUWORD":
        gpu = True
        j += 1
        if j < n and lex[j].type in ("PER", FILLER) and j + 1 < n and lex[j + 1].type == "TIME":
            j += 1
    if j >= n:
        return None
    nxt = lex[j]
    if nxt.type == "TIME":
        return _merge("PER_TIME", lex[i : j + 1], nxt.value, flag=gpu), j + 1
    if gpu:
        return None
    if nxt.type == "USER":
        return _merge("PER_USER", lex[i : j + 1], None), j + 1
    if nxt.type == "REQUESTS":
        return _merge("PER_REQ", lex[i : j + 1], None), j + 1
    million = nxt.type == "SCALE_M" or (nxt.type == "NUM" and nxt.value == 1e6)
    if million:
        money = any(t.type == "MONEY" for t in out[-3:])
        if money or nxt.type == "NUM" or nxt.text.lower() != "m":
            return _merge("PER_MILLION", lex[i : j + 1], None), j + 1
        return _merge("PER_TIME", lex[i : j + 1], "minute"), j + 1
    return None


def _merge(kind: str, parts: list[Tok], value: float | str | None, *, flag: bool = False) -> Tok:
    text = " ".join(p.text for p in parts)
    return Tok(kind, text, value, parts[0].start, parts[-1].end, flag or parts[0].flag)
