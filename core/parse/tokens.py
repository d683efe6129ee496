"""A typed tokenizer: plain text -> terminals the grammar reads.

One regular expression splits the text into numbers, words, symbols and
separators (``_RAW``). Two passes then give each piece its meaning:

1. *lexemes*: catalog names (longest run of words whose spelling-insensitive
   concatenation is a model, GPU, precision or stack name: ``Kimi-K3``,
   ``a100 80gb``, ``4-bit``), keyword phrases (``time to first token``), numbers
   with their scale (``2B``, ``2.5 million``, ``eight``), then single words by the
   lexicon; unknown words become ``BREAK``.
2. *combinations* of neighbours (``core.parse.combine``): ``$`` + number ->
   ``MONEY``, ``per`` + time -> ``PER_TIME`` and the like.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.parse import numbers
from core.parse.combine import combine
from core.parse.corrections import corrected
from core.parse.keyvalue import KNOWN
from core.parse.lexicon import BREAK, FILLER, PHRASES, Lexicon
from core.parse.refusals import ruled_out
from core.parse.spoken import spoken_name
from core.parse.tables import contract_pair
from core.parse.terminals import Tok
from core.parse.timeunits import MONTH_NAMES

__all__ = ["Raw", "Scan", "Tok", "raw_pieces", "scan"]

_KV = (
    r"(?P<kv>(?<![\w.=/])(?:[A-Za-z_][A-Za-z0-9_]+[ \t]*=[ \t]*|[A-Za-z_]=)[^\s;]+)"
)
"""A pair: "bs=32", "gpus = 8"; one letter and spaced ("B = 24 months at $3.95") is an
option's label."""
_PIECES = (
    r"(?P<num>(?=[\d.])(?:\d{1,3}(?:\.\d{3})+,\d{1,2}(?![\d,.])"  # "1.606,00 USD": dots group
    r"|\d+,\d{1,2}(?=\s?(?i:thousand|millions?|millones|milhões|milhão|milioni|milione"
    r"|miliardi|miljoen|milyon|milyar|billions?|mil|mio|mrd|bn|tsd|[kmb]"
    r"|dollars?|dolar|dólares|usd|eur|euros?|cad|aud|brl|chf|gbp|sgd|hkd|nzd|mxn"
    r"|times|per|veces|fois|mal|tokens?|requests?|rps|s|ms|sec"
    r"|seconds?|secondes?|segundos?|sekunden?|secondi|anfragen|requêtes|requetes|richieste"
    r"|solicitudes|peticiones|requisições|requisicoes|consultas|aufrufe|appels|chiamate"
    r"|llamadas|chamadas)\b|\s?[$€%])"
    r"|(?:(?<=[$€£])|(?<=[$€£] )|(?<=USD )|(?<=usd )|(?<=BRL ))\d+,\d\d(?![\d,])"  # "$ 5,80"
    r"|\b\d{1,2}(?:,\d\d)+,\d{3}(?![\d,])"  # "5,00,000": the Indian grouping, five lakh
    r"|\b\d,\d(?![\d,])"  # "1,8": one digit after a comma is never a thousands group
    r"|(?:\d{1,3}(?:,\d{3})+(?!\d|,\d)|\d{1,3}(?:\.\d{3}){2,}(?![\d,]|\.\d)"
    r"|\d{1,3}(?:[ \u202f]\d{3})+(?!\d|,\d|\.\d)|\d+)"  # "Input 2 500, output 600"
    r"(?:\.\d+)?(?:[eE][+-]?\d{1,3}(?![\w]))?|\.\d+))"  # every number opens on a digit or "."
    r"|(?P<word>(?=[^\W\d_]|×)(?:(?<=\d)[xX×](?=[^\W_])|[^\W\d_][^\W_]*(?:\.\d+[^\W_]*)*"
    r"(?:['’][^\W\d_]+)?))"
    r"|(?P<sym>[$€£¥₹¢%/×~<>≤≥+&=:_*-])"
    r"|(?P<sep>[.;!?\n,()\[\]|—–→⇒])"
)
_RAW = re.compile(_KV + "|" + _PIECES)
_RAW_NO_KV = re.compile(_PIECES)
"""Most messages have no ``=``; skipping the key=value alternative there halves the scan."""

_JOINERS = frozenset("-_/.")
_IBERIAN = re.compile(
    r"\b(?:hola|olá|ola|cliente|usuarios|usuários|peticiones|solicitudes|requisições|por\s+día"
    r"|por\s+dia|entrada|salida|saída|tokens\s+de|millones|milhões|gracias|obrigad[oa]|pedidos"
    r"|raciocínio|raciocinio|também|você|vocês|necesitamos|precisamos|clientes)\b",
    re.IGNORECASE,
)
"""Words of a Spanish or Portuguese message, where "mil" means a thousand."""
_SHORT_GPU = re.compile(r"[abglmt]\d")
"""Two-character GPU names (L4, T4, A2): "H2" and "Q3" are halves and quarters."""
_PERCENTILE = re.compile(r"p\d{2,3}(?:\.\d)?|median")
_GLUED = re.compile(r"(?P<kw>bs|batch|ctx|context|c)(?P<n>\d+(?:\.\d+)?)(?P<k>k?)")
"""A keyword and its number in one word: "bs32", "ctx8k", "c48" (vLLM's concurrency)."""
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
_SIDES = frozenset({"PEAK"})
"""Kept alone between breaks: the side of the figure beside them ("at peak they emit ~2.4M
output tokens per minute"), which ``core.parse.peaks`` reads across a break or two."""
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
    # "mil" in the lower-cased text first: one C scan rules out most messages before a
    # walk over every piece (a piece reads "mil" lower-cased only if the text holds it)
    if "mil" in text.lower() and any(r.lower == "mil" for r in raws) and _IBERIAN.search(text):
        for r in raws:
            if r.lower == "mil":
                r.lower = "tsd"  # Spanish and Portuguese "mil" is a thousand
        unclear.append(
            "'mil' read as a thousand, as in Spanish and Portuguese; say 'million' if not"
        )
    lexemes = _lexemes(raws, lexicon, pairs, refused, unclear)
    combined = combine(lexemes)
    unclear.extend(ruled_out(combined, text))  # before corrections: "bf16, no fp8" is no "no,"
    combined = corrected(combined, text)
    counts = [t for t in combined if t.type in ("NUM", "MULT", "XNUM", "PCT")]
    return Scan(_drop_lone(combined, text), pairs, refused, list(dict.fromkeys(unclear)), counts)


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
            if r.text == "(" and i + 2 < n and raws[i + 2].text == ")" and _PERCENTILE.fullmatch(
                raws[i + 1].lower
            ):
                i += 3  # "TPOT (p99) ≤ 40 ms": the percentile said aside is the latency's own
                continue
            if r.text == "(" and _figure_at(raws, i + 1) and _before_a_figure(out):
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
        if glued is not None and not (glued["kw"] == "c" and glued["k"]):
            number = float(glued["n"]) * (1e3 if glued["k"] else 1.0)
            terminal = "CONTEXT" if glued["kw"] in ("ctx", "context") else "BATCH"
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
                if _a_name_said_for(raws, i) and out:  # "typical day for Gringotts is ~40 rps"
                    out.append(Tok(FILLER, r.text, None, r.start, r.end))
                    i += 1
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
        if r.lower == "one" and i and raws[i - 1].lower in _PRONOUN_ONE:
            _break(out, r)  # "can security answer this one?": no count of one
            i += 1
            continue
        if (
            r.kind == "num"
            or (r.kind == "word" and r.lower in numbers.NUMBER_WORDS)
            or (r.lower in numbers.FRACTIONS and (_scaled(raws, i + 1) or _timed(raws, i + 1)))
        ):
            first = i
            tok, i = _number(raws, i, refused)
            if raws[first].lower in _BARE_SCALES and tok.type == "NUM" and first:
                tok = _quantified(raws, first, tok, out, unclear)
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


_PRONOUN_ONE = frozenset({"this", "that", "which", "no", "any", "another"})
"""Words before "one" that make it a pronoun: "this one", "which one", "no one"."""
_BEFORE_A_FIGURE = frozenset({"OUT", "IN", "REASON", "TOKENS", "PEAK", "CONCURRENT", "CONTEXT"})
_WINDOW_WORDS = frozenset({"sub", "subsecond", "last", "past", "in", "during"})

_SPAN_UNITS = frozenset({"days", "weeks", "months", "hours", "day", "week", "month"})
_LAST = {"day": "day", "week": "week", "month": "month", "quarter": "quarter", "year": "year"}


def _before_a_figure(out: list[Tok], types: frozenset[str] | tuple[str, ...] = ()) -> bool:
    """Whether the last word read (fillers skipped) is one a figure in brackets belongs to
    (or one of ``types``).

    Asked only at a "(" with a figure after it: walking back over ``out`` at every
    separator cost a twentieth of the pass."""
    word = next((t for t in reversed(out) if t.type != FILLER), None)
    return word is not None and word.type in (types or _BEFORE_A_FIGURE)


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
    if (
        r.lower in ("last", "past")
        and i + 2 < len(raws)
        and raws[i + 1].kind == "num"
        and raws[i + 2].lower in _SPAN_UNITS
        and _before_a_figure(out, ("TOKENS", "REQUESTS", "OUT", "IN"))
    ):
        return [], i + 1  # "9.6M requests over the last 30 days": the span, as "the 30 days"
    if i + 1 >= len(raws) or not out or out[-1].type not in ("TOKENS", "REQUESTS", "OUT", "IN"):
        return None
    following = raws[i + 1].lower
    if r.lower in ("last", "past"):
        unit = _LAST.get(following)
    else:
        unit = "month" if following in MONTH_NAMES and raws[i + 1].text[0].isupper() else None
    if unit is not None:  # a volume, then the span it was counted over
        text = f"{r.text} {raws[i + 1].text}"
        return [Tok("PER_TIME", text, unit, r.start, raws[i + 1].end)], i + 2
    return None


def _a_name_said_for(raws: list[Raw], i: int) -> bool:
    """Whether ``raws[i]`` is a customer's name inside a sentence ("the typical day for
    Gringotts is ~40 rps"): it joins what is said around it rather than breaking it. A
    name before a colon or a stop ("for Moss: 12M a month") heads what follows, and
    breaks as any unknown word does."""
    return (
        0 < i < len(raws) - 1
        and raws[i - 1].lower == "for"
        and raws[i].text[0].isupper()
        and raws[i + 1].kind == "word"
    )


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
    last = raws[end - 1]
    if (
        last.kind == "num"
        and end < len(raws)
        and raws[end].start == last.end
        and raws[end].lower in ("k", "m", "b", "bn", "mn")
    ):
        return None  # "tenant A 100k req/day": a count, not an A100
    if terminal == "MODEL" and end - i > 1 and lexicon.names.get(raws[end - 1].key, ("",))[0] == (
        "PRECISION"
    ):
        end -= 1  # "Qwen3-32B FP8": the model, then its precision read on its own
        while end - 1 > i and raws[end - 1].kind == "sym":
            end -= 1
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
                if w in numbers.FRACTIONS and _whole_periods(run, w, raws, j + 1):
                    break  # "twelve quarters", "four quarters": a term's quarters, no fraction
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
_BARE_SCALES = frozenset({"hundred", "thousand", "million", "billion", "trillion"})
_VAGUE = frozenset({"few", "several", "handful", "couple", "some"})


def _quantified(raws: list[Raw], k: int, tok: Tok, out: list[Tok], unclear: list[str]) -> Tok:
    """A scale word with a vague quantity before it ("a few hundred thousand", "a couple
    of million", "several million") is no figure: asked, never read as one hundred
    thousand or one million."""
    j = k - 1
    if j > 0 and raws[j].lower == "of":
        j -= 1  # "a couple of million"
    if raws[j].lower not in _VAGUE or (raws[j].lower == "some" and j + 1 < k):
        return tok
    start = raws[j - 1].start if j > 0 and raws[j - 1].lower in ("a", "an") else raws[j].start
    while out and out[-1].start >= start:
        out.pop()  # "a", "few": read as filler before the scale was seen
    first = j - 1 if j > 0 and raws[j - 1].start == start else j
    text = " ".join([*(r.text for r in raws[first:k]), tok.text])
    unclear.append(f"'{text}' is no figure I can size: say how many, e.g. '300k requests a day'")
    return Tok(BREAK, text, None, start, tok.end)



def _whole_periods(run: list[str], word: str, raws: list[Raw], j: int) -> bool:
    """Whether ``word`` counts whole quarters (or halves, thirds) of the number before it:
    "twelve quarters" are twelve, not three, unless a scale follows ("five quarters of a
    million"); "three quarters" stays 0.75."""
    whole = numbers.words([w for w in run if w])
    return whole is not None and whole * numbers.FRACTIONS[word] >= 1 and not _scaled(raws, j)


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


def _drop_lone(toks: list[Tok], text: str) -> list[Tok]:
    """Keep only stretches between breaks that a fact can be made of (speed only), and a
    peak word said in the same clause as a figure beside it."""
    out: list[Tok] = []
    stretch: list[Tok] = []
    for k, t in enumerate((*toks, Tok(BREAK, ""))):
        if t.type != BREAK:
            stretch.append(t)
            continue
        keep = any(s.type in _ANCHORS for s in stretch)
        side = not keep and len(stretch) == 1 and stretch[0].type in _SIDES
        if (keep and (len(stretch) > 1 or stretch[0].type in _ALONE)) or (
            side and _in_a_figures_clause(toks, k - 1, text)
        ):
            if out:
                out.append(t)
            out.extend(stretch)
        stretch = []
    return out


_CLAUSE_MARKS = frozenset(".,;:()!?\n[]")


def _in_a_figures_clause(toks: list[Tok], k: int, text: str) -> bool:
    """Whether the word ``toks[k]`` is said in one clause with the number nearest it, no
    punctuation between: "at peak they emit ~2.4M", "220 requests/s at the evening peak";
    not "(avg hour, not peak)", "8pm (that's their peak), ~60 rps", nor before a multiple
    ("the peak hour comes in at 2.5x the mean": the ratio's own peak word)."""
    word = toks[k]
    after = next((toks[j] for j in range(k + 1, len(toks)) if toks[j].type in _ANCHORS), None)
    before = next((toks[j] for j in range(k - 1, -1, -1) if toks[j].type in _ANCHORS), None)
    after = after if after is not None and after.type == "NUM" else None  # not "2.5x the mean"
    before = before if before is not None and before.type == "NUM" else None
    gaps = [text[word.end : after.start]] if after is not None else []
    gaps += [text[before.end : word.start]] if before is not None else []
    return any(gap and not _CLAUSE_MARKS.intersection(gap) for gap in gaps)
