"""Numbers written as words in Spanish, Portuguese, Italian, French, German and romanised
Japanese, written as digits before the reading.

"duemila richieste al minuto", "soixante-quinze requêtes par seconde", "dos millones de
peticiones", "zweitausendfünfhundert Anfragen", "hyakuman req/nichi": the customer's own
language says the figure. English number words are the tokenizer's (``core.parse.numbers``).

Every language builds a number the same way, read left to right: a digit word adds
("treinta y dos", "soixante-quinze"), a multiplier word multiplies the digit before it
into the group ("trecento", "drei hundert", "go hyaku"), and a scale closes the group
("mil", "mille", "tausend", "man"). Italian and German glue a number into one word
("duecentocinquanta", "fünfundzwanzig"), so a word the lists do not hold is cut into
their pieces when it can be. A word that is also an article or an English word ("un",
"due", "six", "cent") is a number only beside another number word; romanised Japanese
is read only in a message that reads as Japanese ("desu", "onegai", …), where "ni" and
"go" are two and five, not a particle and a verb.
"""

from __future__ import annotations

import re

_DIGITS: dict[str, float] = {}
_MULTIPLIERS: dict[str, float] = {}
_SCALES: dict[str, float] = {}


def _words(table: dict[str, float], spec: str) -> None:
    for entry in spec.split():
        words, value = entry.rsplit("=", 1)
        for word in words.split("/"):
            table[word] = float(value)


_words(
    _DIGITS,
    # Spanish
    "uno/una/un=1 dos=2 tres=3 cuatro=4 cinco=5 seis=6 siete=7 ocho=8 nueve=9 diez=10 once=11"
    " doce=12 trece=13 catorce=14 quince=15 dieciséis/dieciseis=16 diecisiete=17 dieciocho=18"
    " diecinueve=19 veinte=20 treinta=30 cuarenta=40 cincuenta=50 sesenta=60 setenta=70"
    " ochenta=80 noventa=90 dós=2 trés=3 séis=6 doscientos/doscientas=200"
    " trescientos/trescientas=300 cuatrocientos/cuatrocientas=400 quinientos/quinientas=500"
    " seiscientos/seiscientas=600"
    " setecientos/setecientas=700 ochocientos/ochocientas=800 novecientos/novecientas=900"
    # Portuguese
    " um/uma=1 dois/duas=2 três=3 quatro=4 sete=7 oito=8 nove=9 dez=10 onze=11 doze=12"
    " treze=13 catorze/quatorze=14 quinze=15 dezesseis/dezasseis=16 dezessete/dezassete=17"
    " dezoito=18 dezenove/dezanove=19 vinte=20 trinta=30 quarenta=40 cinquenta=50 sessenta=60"
    " oitenta=80 duzentos/duzentas=200 trezentos/trezentas=300 quatrocentos=400"
    " quinhentos/quinhentas=500 seiscentos=600 setecentos=700 oitocentos=800 novecentos=900"
    # Italian
    " due=2 tre=3 tré=3 quattro=4 cinque=5 sei=6 sette=7 otto=8 dieci=10 undici=11"
    " dodici=12 tredici=13 quattordici=14 quindici=15 sedici=16 diciassette=17 diciotto=18"
    " diciannove=19 venti/vent=20 trenta/trent=30 quaranta/quarant=40 cinquanta/cinquant=50"
    " sessanta/sessant=60 settanta/settant=70 ottanta/ottant=80 novanta/novant=90"
    # French
    " une=1 deux=2 trois=3 quatre=4 cinq=5 six=6 sept=7 huit=8 neuf=9 dix=10 douze=12"
    " treize=13 seize=16 vingt/vingts=20 trente=30 quarante=40 cinquante=50 soixante=60"
    # German
    " ein/eins/eine=1 zwei=2 drei=3 vier=4 fünf/fuenf=5 sechs=6 sieben=7 acht=8 neun=9"
    " zehn=10 elf=11 zwölf/zwoelf=12 dreizehn=13 vierzehn=14 fünfzehn=15 sechzehn=16"
    " siebzehn=17 achtzehn=18 neunzehn=19 zwanzig=20 dreißig/dreissig=30 vierzig=40"
    " fünfzig/fuenfzig=50 sechzig=60 siebzig=70 achtzig=80 neunzig=90",
)
_words(_MULTIPLIERS, "cien/ciento/cem/cento/cent/cents/hundert=100")
_words(
    _SCALES,
    "mil/mille/mila/tausend=1000 millón/millon/millones/milhão/milhao/milhões/milhoes"
    "/milione/milioni/million/millions/millionen=1000000"
    " milliard/milliards/miliardo/miliardi/milliarde/milliarden=1000000000",
)
_ROMAJI_DIGITS = {"ichi": 1.0, "ni": 2.0, "san": 3.0, "yon": 4.0, "go": 5.0, "roku": 6.0}
_ROMAJI_DIGITS |= {"nana": 7.0, "hachi": 8.0, "kyuu": 9.0, "kyu": 9.0}
_ROMAJI_DIGITS |= {"hap": 8.0, "has": 8.0, "rop": 6.0, "ip": 1.0, "is": 1.0}  # "happyaku"
_ROMAJI_MULTIPLIERS = {"juu": 10.0, "ju": 10.0, "hyaku": 100.0, "byaku": 100.0}
_ROMAJI_MULTIPLIERS |= {"pyaku": 100.0, "sen": 1000.0, "zen": 1000.0}
_ROMAJI_SCALES = {"man": 1e4, "oku": 1e8}
_ROMAJI_WORDS = {
    "rikuesuto": "requests",
    "nyuuryoku": "input",
    "shutsuryoku": "output",
    "ichinichi": "a day",
    "mainichi": "per day",
    "nichi": "day",
    "maibyou": "per second",
    "byou": "second",
    "heikin": "average",
    "piiku": "peak",
    "bai": "x",
    "yaku": "about",
    "gurai": "",  # particles and "about" after a figure: nothing a fact needs
    "kurai": "",
    "hodo": "",
    "sono": "",
    "wa": "",
    "ga": "",
    "wo": "",
    "de": "",
}
"""Romanised Japanese fact words, in English (read in a message that reads as Japanese)."""
_JAPANESE = frozenset(
    {"desu", "masu", "onegai", "onegaishimasu", "yoroshiku", "kibou", "kudasai", "nichi"}
    | {"rikuesuto", "nyuuryoku", "shutsuryoku", "ichinichi", "sou", "kyaku", "shitai"}
)
"""Words that make a message romanised Japanese."""

_WEAK = frozenset(
    {"un", "una", "uno", "une", "um", "uma", "ein", "eine", "due", "sei", "six", "sept"}
    | {"cent", "cents", "elf", "once", "otto", "vent", "trent", "mil", "mille", "million"}
    | {"millions"}
)
"""Number words that are also articles, English or other words: numbers only in a run."""
_JOINERS = frozenset({"y", "e", "et", "und"})
_GAP = re.compile(r"[ \t-]*")
_WORD = re.compile(r"[^\W\d_]+")
_GLUED = tuple(
    sorted(
        {w for w in (*_DIGITS, *_MULTIPLIERS, *_SCALES) if len(w) >= 3} | {"und", "veinti"},
        key=len,
        reverse=True,
    )
)
"""Pieces of a number glued into one word ("duecentocinquanta", "fünfundzwanzig")."""
_BY_OPENING: dict[str, tuple[str, ...]] = {}
for _piece in _GLUED:
    _BY_OPENING[_piece[:3]] = (*_BY_OPENING.get(_piece[:3], ()), _piece)
"""The glued pieces by their first three letters: most words open on none of them."""
_ROMAJI_GLUED = tuple(
    sorted({*_ROMAJI_DIGITS, *_ROMAJI_MULTIPLIERS, *_ROMAJI_SCALES}, key=len, reverse=True)
)


_STRONG = frozenset((*_DIGITS, *_MULTIPLIERS)) - _WEAK
"""Number words that are a number wherever they stand: one of them makes a message worth
reading word by word."""
_ARTICLES = frozenset({"un", "una", "uno", "une", "um", "uma", "ein", "eine"})


def _worth_reading(words: set[str]) -> bool:
    """Whether a message's words hold a number word at all (most hold none: a set look,
    not a walk over every word)."""
    if not words.isdisjoint(_STRONG) or not words.isdisjoint(_JAPANESE):
        return True
    if not words.isdisjoint(_SCALES) and not words.isdisjoint(_ARTICLES):
        return True  # "un millón de peticiones"
    return any(
        len(w) >= 6 and w[:3] in _BY_OPENING and _cut(w, _GLUED, _BY_OPENING) for w in words
    )


def in_digits(text: str) -> str:
    """``text`` with every run of foreign number words written as its digits (unchanged
    when it has none: most messages)."""
    if not _worth_reading(set(_WORD.findall(text.lower()))):
        return text
    words = [(m.start(), m.end(), m.group().lower()) for m in _WORD.finditer(text)]
    japanese = any(w in _JAPANESE for _, _, w in words)
    out: list[str] = []
    at = 0
    i = 0
    while i < len(words):
        run, j = _run(text, words, i, japanese)
        if run is None:
            i += 1
            continue
        start, end = words[i][0], words[j - 1][1]
        out += [text[at:start], f"{run:.0f}" if run == int(run) else f"{run:g}"]
        at, i = end, j
    if japanese:
        return _romaji_words("".join(out) + text[at:])
    return "".join(out) + text[at:] if out else text


def _run(
    text: str, words: list[tuple[int, int, str]], i: int, japanese: bool
) -> tuple[float | None, int]:
    """The value of the run of number words from ``words[i]``, and the index past it."""
    pieces: list[list[tuple[str, float]]] = []
    j = i
    while j < len(words):
        start, _, word = words[j]
        if j > i:
            gap = text[words[j - 1][1] : start]
            if not _GAP.fullmatch(gap):
                break
        if word in _JOINERS and pieces and j + 1 < len(words):
            j += 1
            continue
        parts = _pieces(word, japanese)
        if parts is None:
            break
        pieces.append(parts)
        j += 1
    while j > i and words[j - 1][2] in _JOINERS:
        j -= 1
    if not pieces:
        return None, i + 1
    if len(pieces) == 1 and len(pieces[0]) == 1 and words[i][2] in _WEAK:
        return None, i + 1
    if len(pieces) == 1 and len(pieces[0]) == 1 and japanese and words[i][2] in _ROMAJI_DIGITS:
        return None, i + 1  # "ni", "go" alone: a particle, a verb
    flat = [p for parts in pieces for p in parts]
    if all(kind == "s" for kind, _ in flat):
        return None, j  # "3 milhões", "45 mil": a scale after digits is the tokenizer's
    value = _value(flat)
    return (value if value else None), j


def _pieces(word: str, japanese: bool) -> list[tuple[str, float]] | None:
    """The number pieces of one word (itself, or what it is glued from), or None."""
    if japanese:
        romaji = _kind(word, True)
        if romaji is not None:
            return [romaji]
        glued = _cut(word, _ROMAJI_GLUED, None)
        if glued is not None:
            return [p for w in glued if (p := _kind(w, True)) is not None]
    own = _kind(word, False)
    if own is not None:
        return [own]
    if len(word) < 6 or word[:3] not in _BY_OPENING:
        return None
    glued = _cut(word, _GLUED, _BY_OPENING)
    if glued is None:
        return None
    return [p for w in glued if w != "und" and (p := _kind(w, False)) is not None]


def _kind(word: str, japanese: bool) -> tuple[str, float] | None:
    if japanese:
        for kind, table in (("d", _ROMAJI_DIGITS), ("m", _ROMAJI_MULTIPLIERS)):
            if word in table:
                return kind, table[word]
        return ("s", _ROMAJI_SCALES[word]) if word in _ROMAJI_SCALES else None
    if word == "veinti":
        return "d", 20.0
    for kind, table in (("d", _DIGITS), ("m", _MULTIPLIERS), ("s", _SCALES)):
        if word in table:
            return kind, table[word]
    return None


def _cut(
    word: str, pieces: tuple[str, ...], by_opening: dict[str, tuple[str, ...]] | None
) -> list[str] | None:
    """``word`` as two or more of ``pieces`` end to end, longest first, or None (only the
    pieces ``by_opening`` files under the word's first letters are tried, when given)."""
    tried = pieces if by_opening is None else by_opening.get(word[:3], ())
    for piece in tried:
        if word.startswith(piece) and len(piece) < len(word):
            rest = word[len(piece) :]
            if rest in pieces:
                return [piece, rest]
            tail = _cut(rest, pieces, by_opening)
            if tail is not None:
                return [piece, *tail]
    return None


def _value(pieces: list[tuple[str, float]]) -> float:
    """Digits add, a multiplier multiplies the digits before it into the group, a scale
    closes the group ("quatre-vingt" is eighty: four twenties)."""
    total = group = digit = 0.0
    for kind, value in pieces:
        if kind == "d":
            if value == 20 and digit == 4:
                digit = 80.0  # "quatre-vingt(s)"
            else:
                digit += value
        elif kind == "m":
            group += (digit or 1) * value
            digit = 0.0
        else:
            total += (group + digit or 1) * value
            group = digit = 0.0
    return total + group + digit


_ROMAJI_PER = re.compile(
    r"\b(?:1|ichi)?[ \t-]*(?P<unit>byou|nichi|jikan|fun|pun)[ \t-]*atari\b|\bpi-ku\b",
    re.IGNORECASE,
)
"""'1-byou atari' (per second), 'ichinichi atari' (per day); 'pi-ku', the peak."""
_ROMAJI_UNITS = {"byou": "second", "nichi": "day", "jikan": "hour", "fun": "minute"}
_ROMAJI_UNITS["pun"] = "minute"


def _romaji_words(text: str) -> str:
    text = _ROMAJI_PER.sub(
        lambda m: f" per {_ROMAJI_UNITS[m['unit'].lower()]} " if m["unit"] else "peak", text
    )
    return _WORD.sub(lambda m: _ROMAJI_WORDS.get(m.group().lower(), m.group()), text)
