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
from dataclasses import dataclass, field
from typing import ClassVar

from core.parse import numbers
from core.parse.corrections import corrected
from core.parse.keyvalue import KNOWN
from core.parse.lexicon import BREAK, FILLER, PHRASES, Lexicon
from core.parse.spoken import spoken_name
from core.parse.tables import contract_pair

_KV = r"(?P<kv>(?<![\w.=/])[A-Za-z_][A-Za-z0-9_]*[ \t]*=[ \t]*[^\s;]+)"
_PIECES = (
    r"(?P<num>\d+,\d{1,2}(?=\s?(?i:thousand|millions?|millones|billions?|mil|mio|mrd|bn|tsd|[kmb]"
    r"|dollars?|usd|eur|euros?|times|per|veces|fois|mal|tokens?|requests?|rps|s|ms|sec"
    r"|seconds?|secondes?|segundos?|sekunden?)\b|\s?[$€%])"
    r"|(?:(?<=[$€£])|(?<=[$€£] ))\d+,\d\d(?![\d,])"  # "$ 5,80", "€3,10": a decimal comma
    r"|\b\d,\d(?![\d,])"  # "1,8": one digit after a comma is never a thousands group
    r"|(?:\d{1,3}(?:,\d{3})+(?!\d|,\d)|\d{1,3}(?:\.\d{3}){2,}(?![\d,]|\.\d)"
    r"|\d{1,3}(?:[ \u202f]\d{3})+(?![\d,]|\.\d)|\d+)"
    r"(?:\.\d+)?(?:[eE][+-]?\d{1,3}(?![\w]))?|\.\d+)"
    r"|(?P<word>(?<=\d)[xX×](?=[^\W_])|[^\W\d_][^\W_]*(?:\.\d+[^\W_]*)*(?:['’][^\W\d_]+)?)"
    r"|(?P<sym>[$€£¢%/×~<>≤≥+&=:_*-])"
    r"|(?P<sep>[.;!?\n,()\[\]|—–→⇒])"
)
_RAW = re.compile(_KV + "|" + _PIECES)
_RAW_NO_KV = re.compile(_PIECES)
"""Most messages have no ``=``; skipping the key=value alternative there halves the scan."""

_JOINERS = frozenset("-_/.")
_DIRECTION_WORDS = frozenset({"OUT", "IN", "REASON"})
_IBERIAN = re.compile(
    r"\b(?:hola|olá|ola|cliente|usuarios|usuários|peticiones|solicitudes|requisições|por\s+día"
    r"|por\s+dia|entrada|salida|saída|tokens\s+de|millones|milhões|gracias|obrigad[oa])\b",
    re.IGNORECASE,
)
"""Words of a Spanish or Portuguese message, where "mil" means a thousand."""
_THINKING_ABOUT = frozenset({"a", "an", "about", "of", "we", "maybe", "that", "to", "the"})
"""After these, "thinking" is what the writer does, not the model's reasoning."""
_ASKED = frozenset({"questions", "prompts"})
"""Lengths before a number ("prompts 300"), but counted by the time ("4k questions a day")."""
_LENGTH_NOUNS = frozenset({"completions", "completion"})
"""Counted as requests ("2M completions a day"), but before a bare number, a length."""
_VOLUME_AFTER = frozenset({"OUT", "OUTS", "IN", "INS", "REASON", "TOKENS", "REQUESTS"})
_HARDWARE = frozenset({"GPU", "GPUWORD", "NODES"})
"""After "and", a direction word starts the next amount ("1.200 tokens and output 350")."""
_SHORT_GPU = re.compile(r"[abglmt]\d")
"""Two-character GPU names (L4, T4, A2): "H2" and "Q3" are halves and quarters."""
_PAIR_JOINTS = frozenset({":", "-", "to", "To", "TO", "/", "x", "X", "×"})
_GLUED = re.compile(r"(?P<kw>bs|batch|ctx|context)(?P<n>\d+(?:\.\d+)?)(?P<k>k?)")
_NOT_KEY = re.compile(r"[^a-z0-9.]+")
_ANCHORS = frozenset(
    {
        "NUM",
        "MONEY",
        "PCT",
        "MULT",
        "XNUM",
        "ONDEMAND",
        "NOT",
        "FACTOR",
        "UNDO",
        "RESET",
        "INOUT",
        "FX",
    }
    | {"MODEL", "GPU", "PRECISION", "STACK"}
)
"""Every fact has one of these; a stretch between breaks without any is dropped."""
_ALONE = frozenset(
    {"MODEL", "GPU", "PRECISION", "STACK", "MONEY", "ONDEMAND", "UNDO", "RESET", "INOUT", "FX"}
)
"""Terminals that are a fact on their own; any other terminal alone between breaks is dropped."""
_MAX_NAME_PIECES = 9
_SCALE_M = frozenset({"m", "mm", "million", "mtok", "mtoks", "1m"})
_STARTERS = frozenset(
    {p[0] for p in PHRASES}
    | set(numbers.NUMBER_WORDS)
    | set(numbers.FRACTIONS)
    | _SCALE_M
    | {"a", "an"}
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
    note: str | None = None  # how it was read other than as written, said back
    unsure: bool = False  # the note is a question to the user ("a typo?"), not an assumption
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
    unclear: list[str]
    """Names that name no one entry ("deepseek"), or none at all ("h2000"): asked."""
    counts: list[Tok] = field(default_factory=list)
    """Every number, lone ones too (the grammar drops a number between unknown words):
    "80k DAU" is a population to ``core.parse.products``."""


def raw_pieces(text: str) -> list[Raw]:
    """The regex's pieces with their positions; only words and numbers get a catalog key."""
    pattern = _RAW if "=" in text else _RAW_NO_KV
    out: list[Raw] = []
    append = out.append
    for m in pattern.finditer(text):
        kind = m.lastgroup or "sep"
        start, end = m.span()
        piece = text[start:end]
        if kind == "word" or kind == "num":
            key = lower = piece.lower()
            if not key.isalnum() and not (kind == "num" and "," not in key):
                key = _NOT_KEY.sub("", key)
        elif kind == "kv":
            lower, key = piece.lower(), ""
            if _prose_equals(lower):  # "2 nodes × 4 H100 = 8 GPUs total"
                out.extend(_shifted(raw_pieces_plain(piece), start))
                continue
        else:
            lower, key = piece, ""  # a symbol or separator has no case
        append(Raw(kind, piece, start, end, lower, key))
    return out


def raw_pieces_plain(text: str) -> list[Raw]:
    """``text``'s pieces with no ``key=value`` among them."""
    return raw_pieces(text.replace("=", " "))


def _shifted(raws: list[Raw], by: int) -> list[Raw]:
    for r in raws:
        r.start += by
        r.end += by
    return raws


def _prose_equals(lower: str) -> bool:
    """An "=" with spaces around it after a word that names no field is arithmetic in
    prose, not a pair: "4 H100 = 8 GPUs". ``gpus = 8`` and ``bs=32`` stay pairs."""
    key, _, _ = lower.partition("=")
    if not (key.endswith((" ", "\t")) or lower[len(key) + 1 : len(key) + 2] in (" ", "\t")):
        return False
    return key.strip() not in KNOWN and contract_pair(key.strip(), "1") is None


def scan(text: str, lexicon: Lexicon) -> Scan:
    raws = raw_pieces(text)
    pairs: list[tuple[str, str]] = []
    refused: list[str] = []
    unclear: list[str] = []
    if any(r.lower == "mil" for r in raws) and _IBERIAN.search(text):
        for r in raws:
            if r.lower == "mil":
                r.lower = "tsd"  # Spanish and Portuguese "mil" is a thousand
        unclear.append(
            "'mil' read as a thousand, as in Spanish and Portuguese; say 'million' if not"
        )
    lexemes = _lexemes(raws, lexicon, pairs, refused, unclear)
    combined = corrected(_combine(lexemes), text)
    counts = [t for t in combined if t.type in ("NUM", "MULT", "XNUM", "PCT")]
    return Scan(_drop_lone(combined), pairs, refused, list(dict.fromkeys(unclear)), counts)


# -- pass 1 -------------------------------------------------------------------


def _lexemes(
    raws: list[Raw],
    lexicon: Lexicon,
    pairs: list[tuple[str, str]],
    refused: list[str],
    unclear: list[str],
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
            word = next((t for t in reversed(out) if t.type != FILLER), None)
            opens = r.text == "(" and word is not None and word.type in _BEFORE_A_FIGURE
            if opens and _figure_at(raws, i + 1):
                i += 1  # "short outputs (~200)": the figure is the word's own
                continue
            _break(out, r)
            i += 1
            continue
        if r.lower in _WINDOW_WORDS:
            said = _window(raws, i, out)
            if said is not None:  # "sub-second TTFT", "9 billion tokens last month"
                out.extend(said[0])
                i = said[1]
                continue
        if r.kind == "sym" and (r.lower,) not in lexicon.phrase_prefixes:
            unit = lexicon.word(r.lower) or (FILLER, None)  # "$", "%", "/", "-"
            out.append(Tok(unit[0], r.text, unit[1], r.start, r.end))
            i += 1
            continue
        glued = None
        if r.kind == "word" and r.lower[0] in "bc" and r.lower[-1] in "0123456789k":
            glued = _GLUED.fullmatch(r.lower)
        if glued is not None:  # "bs32", "ctx8k": a keyword and its number in one word
            number = float(glued["n"]) * (1e3 if glued["k"] else 1.0)
            terminal = "CONTEXT" if glued["kw"].startswith("c") else "BATCH"
            out.append(Tok(terminal, r.text, None, r.start, r.end))
            out.append(Tok("NUM", r.text, number, r.start, r.end))
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
                respelled = _respelled(raws, i, lexicon, unclear)
                if respelled is not None:
                    out.append(respelled[0])
                    i = respelled[1]
                    continue
                _break(out, r)
            else:
                out.append(Tok(plain[0], r.text, plain[1], r.start, r.end))
            i += 1
            continue
        hit = _name(raws, i, lexicon)
        if i + 1 < n and (
            raws[i + 1].lower in numbers.NUMBER_WORDS
            or (i + 2 < n and raws[i + 2].lower in numbers.NUMBER_WORDS)
            or (i + 3 < n and raws[i + 3].lower in numbers.NUMBER_WORDS)
        ):  # checked inline: it runs for every word that starts a name
            hit = _said_aloud(raws, i, lexicon, hit) or hit
        hit = hit or _phrase(raws, i, lexicon)
        if hit is None and r.kind == "word" and lexicon.word(r.lower) is None:
            hit = _respelled(raws, i, lexicon, unclear)  # "h1oo" starts like h100
        if hit is not None:
            tok, i = hit
            out.append(tok)
            continue
        if (
            r.kind == "num"
            or (r.kind == "word" and r.lower in numbers.NUMBER_WORDS)
            or (r.lower in numbers.FRACTIONS and (_scaled(raws, i + 1) or _timed(raws, i + 1)))
        ):
            tok, i = _number(raws, i, refused)
            out.append(tok)
            continue
        if (
            r.kind == "word"
            and r.lower in ("a", "an")
            and i + 1 < n
            and (
                raws[i + 1].lower in ("hundred", "thousand", "million", "billion", "dozen")
                or (raws[i + 1].lower in numbers.FRACTIONS and _scaled(raws, i + 2))
            )
        ):
            tok, j = _number(raws, i + 1, refused)
            tok.start, tok.text = r.start, f"{r.text} {tok.text}"  # "a million" said whole
            out.append(tok)
            i = j
            continue
        tok = _word(r, lexicon)
        if tok.type == BREAK:
            _break(out, r)
        else:
            out.append(tok)
        i += 1
    return out


_BEFORE_A_FIGURE = frozenset({"OUT", "IN", "REASON", "TOKENS", "PEAK", "CONCURRENT", "CONTEXT"})
_WINDOW_WORDS = frozenset({"sub", "subsecond", "last", "past"})
_LAST = {"day": "day", "week": "week", "month": "month", "quarter": "quarter", "year": "year"}


def _figure_at(raws: list[Raw], j: int) -> bool:
    """Whether a figure opens at ``raws[j]`` ("~200", "200")."""
    if j < len(raws) and raws[j].text in ("~", "≈"):
        j += 1
    return j < len(raws) and raws[j].kind == "num"


def _window(raws: list[Raw], i: int, out: list[Tok]) -> tuple[list[Tok], int] | None:
    """ "sub-second" (under one second) and a volume's "last month" (its period)."""
    r = raws[i]
    if r.lower == "subsecond" or (
        r.lower == "sub"
        and i + 2 < len(raws)
        and raws[i + 1].text == "-"
        and raws[i + 2].lower == "second"
    ):
        end = i + 1 if r.lower == "subsecond" else i + 3
        last = raws[end - 1]
        text = r.text if end == i + 1 else f"{r.text}-{last.text}"
        number = Tok("NUM", text, 1.0, r.start, last.end, True, f"'{text}' read as under 1 s")
        return [number, Tok("TIME", text, "second", last.end, last.end)], end
    spans = r.lower in ("last", "past") and i + 1 < len(raws) and raws[i + 1].lower in _LAST
    if spans and out and out[-1].type in ("TOKENS", "REQUESTS", "OUT", "IN"):
        unit = _LAST[raws[i + 1].lower]  # a volume, then the span it was counted over
        text = f"{r.text} {raws[i + 1].text}"
        return [Tok("PER_TIME", text, unit, r.start, raws[i + 1].end)], i + 2
    return None


def _cents(value: object) -> bool:
    return isinstance(value, float) and value.is_integer() and 0 < value < 100


def _break(out: list[Tok], r: Raw) -> None:
    """A break after a break adds nothing (pass 2 collapses runs); skipping it is cheaper."""
    if not out or out[-1].type != BREAK:
        out.append(Tok(BREAK, r.text, None, r.start, r.end))


def _name(raws: list[Raw], i: int, lexicon: Lexicon) -> tuple[Tok, int] | None:
    """The longest catalog name starting at ``raws[i]`` (joiners inside only)."""
    if raws[i].kind not in ("word", "num") or raws[i].key not in lexicon.name_prefixes:
        return None
    key = matched = ""
    best: tuple[str, str, int] | None = None
    j = i
    while j < len(raws) and j - i < _MAX_NAME_PIECES:
        r = raws[j]
        if r.kind in ("word", "num"):
            key += r.key
            if key in lexicon.names:
                best, matched = (*lexicon.names[key], j + 1), key
            elif key.endswith("s") and key[:-1] in lexicon.names:
                best, matched = (*lexicon.names[key[:-1]], j + 1), key[:-1]
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
    text = _joined(raws, i, end)
    tok = Tok(terminal, text, rid, raws[i].start, raws[end - 1].end)
    derived = lexicon.spelling.derived.get(matched) if lexicon.spelling else None
    if derived is not None and derived[2]:
        tok.note = f"'{text}' {derived[2]}"
    return tok, end


def _said_aloud(
    raws: list[Raw], i: int, lexicon: Lexicon, written: tuple[Tok, int] | None
) -> tuple[Tok, int] | None:
    """A name said with number words ("Kimi K two point five"), when longer than ``written``.

    No note: the say-back ("model Kimi K2.5 ← 'Kimi K two point five'") already shows it."""
    found = spoken_name(raws, i, lexicon, written[1] if written else i + 1)
    if found is None:
        return None
    terminal, rid, end = found
    text = _joined(raws, i, end)
    return Tok(terminal, text, rid, raws[i].start, raws[end - 1].end), end


def _respelled(
    raws: list[Raw], i: int, lexicon: Lexicon, unclear: list[str]
) -> tuple[Tok, int] | None:
    """A name read through a typo ("deepseak r1", "h1oo"), said; a family alone is asked."""
    spelled = lexicon.spelling
    r = raws[i]
    if spelled is None or r.key in spelled.plain:
        return None
    if len(r.key) < 3:
        if _SHORT_GPU.fullmatch(r.key):  # "a single L4": a GPU we do not hold, said
            close = spelled.closest(r.key)
            if close is not None and lexicon.names.get(close, ("",))[0] == "GPU":
                unclear.append(f"I don't know '{r.text}' — did you mean {lexicon.names[close][1]}?")
        return None
    fixed = spelled.corrected(r.key) or r.key
    if fixed != r.key:
        original, r.key = r.key, fixed
        hit = _name(raws, i, lexicon)
        r.key = original
        if hit is not None:
            tok = hit[0]
            tok.unsure = True
            tok.note = f"'{tok.text}' read as {tok.value} (a typo?); say the exact name if not"
            return hit
    family = spelled.families.get(fixed)
    if family is not None:
        which = ", ".join(family[:-1]) + " or " + family[-1]
        unclear.append(f"'{r.text}' could be {which}: say which")
    elif any(c.isdigit() for c in r.key) and r.key not in lexicon.names:
        close = spelled.closest(r.key)
        if close is not None:
            rid = lexicon.names[close][1] if close in lexicon.names else close
            unclear.append(f"I don't know '{r.text}' — did you mean {rid}?")
    elif fixed == r.key and len(spelled.plain) < 50_000:
        spelled.plain.add(r.key)  # an ordinary word: nothing to say about it, next time either
    return None


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
    last = raws[end - 1].lower
    if (
        last in numbers.NUMBER_WORDS
        and end < len(raws)
        and raws[end].lower in numbers.NUMBER_WORDS
        and numbers.extends([last], raws[end].lower)
    ):
        return None  # "eight hundred in one fifty out": the number goes on ("one fifty")
    text = " ".join(r.text for r in raws[i:end])
    start, stop = raws[i].start, raws[end - 1].end
    if terminal == "ONE":  # "a single H200"
        return Tok("NUM", text, 1.0, start, stop, True), end
    unit: str | None = None
    if terminal.startswith("PER_TIME:"):  # "for day": a rate's time, as non-natives say it
        terminal, unit = terminal.split(":")
    elif terminal == "MOM":
        terminal, unit = "PER_TIME", "month"
    elif terminal == "RATE_TOKENS":  # "t/s": tokens and their time at once
        unit = "second"
    return Tok(terminal, text, unit, start, stop), end


def _number(raws: list[Raw], i: int, refused: list[str]) -> tuple[Tok, int]:
    """A number with its scale: ``2B``, ``2.5 million``, ``1,200``, ``two thousand``."""
    start = raws[i].start
    written = raws[i].kind == "word"
    note: str | None = None
    if written:
        run: list[str] = []
        j = i
        while j < len(raws):
            w = raws[j].lower
            if w in numbers.NUMBER_WORDS or w in numbers.FRACTIONS:
                if run and not numbers.extends(run, w):
                    break
                run.append(w)
            elif (
                run
                and w in _NUMBER_JOINS
                and raws[j].text != "A"  # "four A one hundreds": A100s said aloud
                and _continues(raws, j + 1)
            ):
                run.append(w if w != "-" else "")
            else:
                break
            j += 1
        value = numbers.spoken([w for w in run if w])
    else:
        value = numbers.digits(raws[i].text)
        j = i + 1
    while j < len(raws) and raws[j].kind == "word":  # "2B", "8 hundred million"
        scale = numbers.SCALES.get(raws[j].lower)
        glued = raws[j].start == raws[j - 1].end
        single = len(raws[j].text) == 1
        if scale is None or not (glued or not single or raws[j].text in "kKMBT"):
            break
        value = None if value is None else numbers.in_range(value * scale)
        j += 1
        if raws[j - 1].lower == "mil":
            note = "'mil' read as million; for a thousand (Spanish 'mil') say 'k'"
        if single or written:
            break
    text = " ".join(r.text for r in raws[i:j]) if written else _joined(raws, i, j)
    end = raws[j - 1].end
    if value is None:
        refused.append(text if len(text) <= 40 else text[:12] + "…" + text[-4:])
        return Tok(BREAK, text, None, start, end), j
    tok = Tok("NUM", text, value, start, end, written)
    if note:
        tok.note, tok.unsure = f"'{text}': {note}", True
    return tok, j


_NUMBER_JOINS = ("and", "-", "a", "an", "of", "point")


def _continues(raws: list[Raw], j: int) -> bool:
    """Whether a number in words goes on after a joining word ("two and a half")."""
    while j < len(raws) and raws[j].lower in _NUMBER_JOINS:
        j += 1
    return j < len(raws) and (
        raws[j].lower in numbers.NUMBER_WORDS or raws[j].lower in numbers.FRACTIONS
    )


def _timed(raws: list[Raw], j: int) -> bool:
    """Whether a time follows a fraction ("half a second", "a quarter hour")."""
    if j < len(raws) and raws[j].lower in ("a", "an"):
        j += 1
    return j < len(raws) and raws[j].lower in ("second", "minute", "hour", "day", "sec", "s")


def _scaled(raws: list[Raw], j: int) -> bool:
    """Whether a scale word follows ("half a million", "a quarter of a million")."""
    while j < len(raws) and raws[j].lower in ("a", "an", "of"):
        j += 1
    return j < len(raws) and raws[j].lower in ("thousand", "million", "billion", "trillion")


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
        if (
            kind == "REASON"
            and t.text.lower() == "thinking"
            and i + 1 < n
            and lex[i + 1].text.lower() in _THINKING_ABOUT
        ):  # "thinking an 18-month lease": the verb
            out.append(Tok(BREAK, t.text, None, t.start, t.end))
            i += 1
            continue
        if kind == "NUM":
            if t.text.lower() == "one" and at(i + 1) == "INS" and at(i + 2) == BREAK:
                out.append(t)  # "one in Virginia, one in Tokyo": a place, not an input
                i += 2
                continue
            joint = lex[i + 1].text if i + 1 < n else ""
            if joint in _PAIR_JOINTS:  # "4:1", "1-2k", "3k/800", "2x8"
                paired = (
                    _ratio(lex, i)
                    or _range(lex, i)
                    or _in_out(lex, i)
                    or _product(lex, i)
                    or _split(lex, i)
                )
                if paired is not None:
                    out.append(paired)
                    i += 3
                    continue
            if at(i + 1) == "PCTWORD":
                out.append(_merge("PCT", lex[i : i + 2], t.value))
                i += 2
                continue
            if at(i + 1) == "CENTS":  # "two dollars and fifty cents"
                assert isinstance(t.value, float)
                money = _merge("MONEY", lex[i : i + 2], t.value / 100)
                dollars = out[-1] if out and out[-1].type == "MONEY" else None
                if dollars is not None and isinstance(dollars.value, float):
                    out.pop()
                    money = _merge("MONEY", [dollars, money], dollars.value + t.value / 100)
                out.append(money)
                i += 2
                continue
            if at(i + 1) == "TIMESWORD":
                out.append(_merge("MULT", lex[i : i + 2], t.value))
                i += 2
                continue
            if at(i + 1) == "FXWORD":
                out.append(_merge("FX", lex[i : i + 2], t.value))
                i += 2
                continue
            if at(i + 1) == "MONEYWORD" and (
                lex[i + 1].text != "$" or at(i + 2) == "PER"
            ):  # "2,45 USD", "2,10 $/GPU/h"; a lone "$" after a number opens the next price
                cents = lex[i + 2] if at(i + 2) == "NUM" and t.flag else None
                if cents is not None and cents.flag and _cents(cents.value):
                    # "two dollars fifty": said aloud, the cents follow the dollars
                    assert isinstance(t.value, float) and isinstance(cents.value, float)
                    out.append(_merge("MONEY", lex[i : i + 3], t.value + cents.value / 100))
                    i += 3
                    continue
                out.append(_merge("MONEY", lex[i : i + 2], t.value))
                i += 2
                continue
            out.append(t)
            i += 1
            continue
        if kind == "FXWORD" and at(i + 1) == "NUM":  # "€3.10": not dollars, said
            out.append(_merge("FX", lex[i : i + 2], lex[i + 1].value))
            i += 2
            continue
        if kind == "MONEYWORD" and at(i + 1) == "NUM":
            out.append(_merge("MONEY", lex[i : i + 2], lex[i + 1].value))
            i += 2
            continue
        if kind == "INS" and i > 0 and lex[i - 1].type == "NUM":
            k = i + 1
            while k < n and lex[k].type == FILLER:
                k += 1
            if k > i + 1 and at(k) == "OUT":  # "~700 in the final answer": its output
                i += 1
                continue
        if (
            kind == "INS"
            and at(i + 1) == "NUM"
            and at(i + 2) in ("OUTS", "OUT")
            and at(i + 3) == "NUM"
        ):
            out.append(Tok("IN", t.text, None, t.start, t.end))  # "in 8k out 1k"
            out.append(lex[i + 1])
            out.append(Tok("OUT", lex[i + 2].text, None, lex[i + 2].start, lex[i + 2].end))
            out.append(lex[i + 3])
            i += 4
            continue
        if (
            kind == "IN"
            and (at(i + 1) == "PER_TIME" or (at(i + 1) == "PER" and at(i + 2) == "TIME"))
            and out
            and out[-1].type == "NUM"
            and t.text.lower() in _ASKED
        ):
            t = Tok("REQUESTS", t.text, None, t.start, t.end)  # "4k questions a day"
            kind = "REQUESTS"
        if kind == "REQUESTS" and t.text.lower() in _LENGTH_NOUNS:
            k = i + 1
            while k < n and lex[k].type == FILLER:
                k += 1
            after_tokens = i > 0 and lex[i - 1].type == "TOKENS"  # "500-token completions"
            if after_tokens or (
                at(k) == "NUM" and at(k + 1) not in ("PER_TIME", "TIME", "REQUESTS")
            ):
                t = Tok("OUT", t.text, None, t.start, t.end)  # "completions ~250": their length
                kind = "OUT"
        if kind in _DIRECTION_WORDS and _before(lex, i) != "NUM":
            k = i + 1
            while k < n and lex[k].type == FILLER:
                k += 1
            if k > i + 1 and at(k) == "NUM" and at(k + 1) in _DIRECTION_WORDS:
                i += 1  # "each answer is ~5k reasoning + 1k visible": the number's own word wins
                continue
        answer = kind == "OUT" and t.text.lower() == "answer"
        if answer and at(i + 1) == FILLER and lex[i + 1].text == ":":
            out.append(Tok(BREAK, t.text, None, t.start, t.end))  # 'Answer: "3 years."'
            i += 2
            continue
        if kind == "TERM":
            k = i + 1
            while k < n and lex[k].type == FILLER:
                k += 1
            if at(k) == "NUM" and (
                at(k + 1) in _VOLUME_AFTER or (at(k + 1) in _HARDWARE and at(i - 1) != "TIME")
            ):
                i += 1  # "lease: 600M output tokens/day", "lease 24 B300 GPUs": not a term
                continue
        if kind == "USER" and at(i + 1) == "REQUESTS" and out and out[-1].type == "NUM":
            i += 1  # "180 agent steps per second", "5M user requests a day": whose requests
            continue
        if kind == "UTIL" and at(i + 1) == "TIME":  # "16 busy hours a day": no utilization
            out.append(Tok(BREAK, t.text, None, t.start, t.end))
            i += 1
            continue
        if kind == "TIMESWORD" and at(i + 1) == "NUM":
            out.append(_merge("XNUM", lex[i : i + 2], lex[i + 1].value))
            i += 2
            continue
        if kind == "PER" and at(i + 1) == "TIME" and _waiting(out, t):
            toks, i = _one_unit(lex, i)  # "first token in under a second and a half"
            out.extend(toks)
            continue
        if kind == "PER" and at(i + 1) == "TIME" and _fraction_of(out, t):
            time = lex[i + 1]  # "TTFT under half a second": the fraction's unit
            out.append(Tok("TIME", f"{t.text} {time.text}", time.value, t.start, time.end))
            i += 2
            continue
        if kind == "PEAK" and t.text.lower().endswith(("hour", "minute", "second")):
            k = i + 1
            while k < n and lex[k].type == FILLER:
                k += 1
            if at(k) == "NUM" and at(k + 1) in ("REQUESTS", "TOKENS") and at(k + 2) not in (
                "PER",
                "PER_TIME",
            ):  # "Peak hour is ~42k requests": per hour, at the peak
                unit = t.text.lower().rsplit(None, 1)[-1]
                said = lex[k + 1]
                out.extend((t, lex[k], said, Tok("PER_TIME", t.text, unit, said.end, said.end)))
                i = k + 2
                continue
        if kind == "PER" and at(i + 1) == "GPU" and at(i + 2) == "PER" and at(i + 3) == "TIME":
            gpu, time = lex[i + 1], lex[i + 3]  # "$28,032 per B200 per year"
            text = " ".join(p.text for p in lex[i : i + 4])
            out.append(Tok("PER_TIME", text, time.value, t.start, time.end, True))
            out.append(gpu)
            i += 4
            continue
        if kind == "PER":
            hit = _per(lex, i, out)
            if hit is not None:
                tok, i = hit
                if out and out[-1].type == "NUM" and out[-1].flag and _priced(tok, out):
                    out[-1] = _spoken_price(out[-1])  # "one ninety per GPU hour"
                out.append(tok)
                continue
            if t.text.lower().startswith("in "):  # "12k tokens in each," is input after all
                out.append(Tok("INS", t.text, None, t.start, t.end))
            i += 1
            continue
        if (
            kind == FILLER
            and t.text.lower() == "window"
            and out
            and out[-1].type == "NUM"
            and isinstance(out[-1].value, float)
            and out[-1].value >= 1024
        ):  # "a 64k window": a context window; "a 2-hour window" is no fact
            out.append(Tok("CONTEXT", t.text, None, t.start, t.end))
            i += 1
            continue
        if kind == FILLER and t.text.lower() == "and" and at(i + 1) in _DIRECTION_WORDS:
            out.append(Tok(BREAK, t.text, None, t.start, t.end))  # "… tokens and output …"
            i += 1
            continue
        if kind.startswith("RATE_"):
            unit = kind.removeprefix("RATE_")
            out.append(Tok(unit, t.text, None, t.start, t.end))
            out.append(Tok("PER_TIME", t.text, t.value, t.start, t.end))
            i += 1
            continue
        if kind in (FILLER, "MONEYWORD", "PCTWORD", "TIMESWORD", "SCALE_M", "CENTS", "FXWORD"):
            i += 1
            continue
        if kind == BREAK and (not out or out[-1].type == BREAK):
            i += 1
            continue
        out.append(t)
        i += 1
    return out


def _before(lex: list[Tok], i: int) -> str:
    """The type of the last terminal before ``lex[i]`` that is not a filler."""
    for k in range(i - 1, -1, -1):
        if lex[k].type != FILLER:
            return lex[k].type
    return ""


def _priced(per: Tok, out: list[Tok]) -> bool:
    """Whether a number said in words before ``per`` is a price: per GPU-hour, or per
    million tokens after another price ("ten dollars per million out and two fifty per
    million in")."""
    if per.type == "PER_TIME":
        return per.flag and per.value == "hour"
    return per.type == "PER_MILLION" and any(t.type == "MONEY" for t in out[-6:-1])


def _spoken_price(number: Tok) -> Tok:
    """A price said aloud the short way is dollars and cents ("two fifty" is $2.50)."""
    value = numbers.dollars_and_cents(number.text)
    money = Tok("MONEY", number.text, number.value, number.start, number.end, True)
    if value is not None:
        money.value = value
        money.note = f"'{number.text}' read as ${value:.2f}"
    return money


def _waiting(out: list[Tok], t: Tok) -> bool:
    """Whether "a" before a time is a wait ("TTFT within a second"), not a rate's "a day"."""
    if t.text.lower() not in ("a", "an") or not out:
        return False
    last = out[-1].type if out[-1].type != "INS" or len(out) < 2 else out[-2].type
    return last == "TTFT"


def _fraction_of(out: list[Tok], t: Tok) -> bool:
    """Whether "a" before a time follows a fraction of a wait ("TTFT under half a second")."""
    return (
        t.text.lower() in ("a", "an")
        and len(out) > 1
        and out[-1].type == "NUM"
        and out[-1].text.lower() in numbers.FRACTIONS
        and out[-2].type in ("TTFT", "INS")
    )


def _one_unit(lex: list[Tok], i: int) -> tuple[list[Tok], int]:
    """One unit of time, or one and a half ("a second and a half"): a number and its time."""
    end, value = i + 2, 1.0
    half = lex[i + 2 : i + 5]
    if (
        len(half) == 3
        and half[0].text.lower() == "and"
        and half[1].text.lower() in ("a", "an")
        and half[2].type == "FACTOR"
        and half[2].value == 0.5
    ):
        end, value = i + 5, 1.5
    number = _merge("NUM", lex[i:end], value)
    time = lex[i + 1]
    return [number, Tok("TIME", time.text, time.value, number.end, number.end)], end


def _product(lex: list[Tok], i: int) -> Tok | None:
    """``2x8`` written as one word: two nodes of eight, 16 (said)."""
    if i + 2 >= len(lex) or lex[i + 1].type != "TIMESWORD" or lex[i + 2].type != "NUM":
        return None
    a, x, b = lex[i], lex[i + 1], lex[i + 2]
    if a.end != x.start or x.end != b.start or x.text.lower() not in ("x", "×"):
        return None
    assert isinstance(a.value, float) and isinstance(b.value, float)
    tok = _merge("NUM", [a, x, b], a.value * b.value)
    tok.text = f"{a.text}x{b.text}"
    tok.note = f"'{tok.text}' read as {a.value * b.value:g} ({a.value:g} x {b.value:g})"
    return tok


def _split(lex: list[Tok], i: int) -> Tok | None:
    """``70/30 output/input``: shares of the tokens, not a length (``core.parse.volumes``
    reads them); a break, so neither figure is taken for a request's tokens."""
    if i + 3 >= len(lex) or lex[i + 1].text not in ("/", ":") or lex[i + 2].type != "NUM":
        return None
    a, b = lex[i].value, lex[i + 2].value
    if not isinstance(a, float) or not isinstance(b, float) or a + b != 100:
        return None
    if lex[i + 3].type not in ("OUT", "OUTS", "IN", "INS"):
        return None
    return _merge(BREAK, lex[i : i + 3], None)


def _ratio(lex: list[Tok], i: int) -> Tok | None:
    """``4:1`` (a peak-to-average ratio, glued): the multiple 4."""
    if i + 2 >= len(lex) or lex[i + 1].text != ":" or lex[i + 2].type != "NUM":
        return None
    a, colon, b = lex[i], lex[i + 1], lex[i + 2]
    if a.end != colon.start or colon.end != b.start:
        return None
    assert isinstance(a.value, float) and isinstance(b.value, float)
    if not 0 < b.value <= 10 or a.value < b.value:
        return None  # "10:30" is a time, not a ratio
    return _merge("MULT", [a, colon, b], a.value / b.value)


def _in_out(lex: list[Tok], i: int) -> Tok | None:
    """``3k/800``: input and output tokens of a request, the shorthand's order."""
    if i + 2 >= len(lex) or lex[i + 1].text != "/" or lex[i + 2].type != "NUM":
        return None
    a, slash, b = lex[i], lex[i + 1], lex[i + 2]
    if a.end != slash.start or slash.end != b.start:
        return None
    assert isinstance(a.value, float) and isinstance(b.value, float)
    if not (a.value >= 1 and b.value >= 1 and a.value == int(a.value) and b.value == int(b.value)):
        return None
    if max(a.value, b.value) < 100 and _scale_of(a.text) == _scale_of(b.text) == 1:
        return None  # "09/30" is a date, "24/7" a schedule: no request is that short
    tok = _merge("INOUT", [a, slash, b], f"{a.value:.0f}/{b.value:.0f}")
    tok.note = f"'{tok.text}' read as input/output tokens of a request"
    return tok


def _range(lex: list[Tok], i: int) -> Tok | None:
    """``1-2k``, ``8 to 16``: the top of the range, said (capacity is sized for it)."""
    if i + 2 >= len(lex) or lex[i + 1].text.lower() not in ("-", "to"):
        return None
    low, high = lex[i], lex[i + 2]
    if high.type != "NUM" or not isinstance(low.value, float):
        return None
    assert isinstance(high.value, float)
    bottom = low.value
    scale = _scale_of(high.text)
    if scale > 1 and _scale_of(low.text) == 1 and bottom * scale <= high.value:
        bottom *= scale  # "1-2k" is 1,000 to 2,000
    if not 0 < bottom < high.value:
        return None
    tok = _merge("NUM", [low, lex[i + 1], high], high.value)
    tok.note = (
        f"'{tok.text}' read as {numbers.compact(high.value)}, the top of the range "
        f"(say '{numbers.compact((bottom + high.value) / 2)}' for its middle)"
    )
    return tok


def _scale_of(text: str) -> float:
    tail = text.replace(",", "").lstrip("0123456789.").strip().lower()
    return numbers.SCALES.get(tail, 1.0)


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
    while j < n and lex[j].type == FILLER and j + 1 < n and lex[j + 1].type == "TIME":
        j += 1  # "per working day"
    gpu = False
    if j < n and lex[j].type == "GPUWORD":
        gpu = True
        j += 1
        k = j
        while k + 1 < n and lex[k].type in ("PER", FILLER):
            k += 1  # "per GPU per calendar month"
        if k > j and lex[k].type == "TIME":
            j = k
        elif j < n and lex[j].type == "PER_TIME":  # "per GPU per annum"
            return _merge("PER_TIME", lex[i : j + 1], lex[j].value, flag=True), j + 1
    if j >= n:
        return None
    nxt = lex[j]
    if nxt.type == "TIME":
        end = j + 1
        if end + 1 < n and lex[end].type == "PER" and lex[end + 1].type in ("GPU", "GPUWORD"):
            gpu = True  # "$2,900/mo per H100": the GPU's own price; the GPU stays a name
            end += 2 if lex[end + 1].type == "GPUWORD" else 1
        return _merge("PER_TIME", lex[i : j + 1], nxt.value, flag=gpu), end
    if gpu:
        return None
    if nxt.type == "USER":
        return _merge("PER_USER", lex[i : j + 1], None), j + 1
    if nxt.type == "REQUESTS":
        return _merge("PER_REQ", lex[i : j + 1], None), j + 1
    if nxt.type == "NUM" and nxt.value == 1e3 and any(t.type == "MONEY" for t in out[-3:]):
        return _merge("PER_MILLION", lex[i : j + 1], "thousand"), j + 1  # "$0.0006 per 1K"
    million = nxt.type == "SCALE_M" or (nxt.type == "NUM" and nxt.value == 1e6)
    if million:
        money = any(t.type == "MONEY" for t in out[-3:]) or (
            i > 0 and lex[i - 1].type == "MONEYWORD"  # "show $/M at 70% utilization"
        )
        if money or nxt.type == "NUM" or nxt.text.lower() != "m":
            return _merge("PER_MILLION", lex[i : j + 1], None), j + 1
        return _merge("PER_TIME", lex[i : j + 1], "minute"), j + 1
    return None


def _merge(kind: str, parts: list[Tok], value: float | str | None, *, flag: bool = False) -> Tok:
    text = " ".join(p.text for p in parts)
    return Tok(kind, text, value, parts[0].start, parts[-1].end, flag or parts[0].flag)
