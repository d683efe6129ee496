"""Options offered and the one taken: "$2.40/GPU-hr at 12 months, $2.10 at 36. They want 36."

A rate card or a tiered offer names several terms, each with its price, and then says
which one the customer took. The term read from the offer is the first one named (the
only one said with "months"); the one taken is said bare, after a verb of choosing. The
term becomes the one taken, and the price the one offered with it, when the offer says
it ("$3,285/GPU/mo on 36").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse.numbers import amount
from core.parse.openings import words_opening

if TYPE_CHECKING:
    from core.parse.facts import Reading

_WANTS = (
    r"\s*(?:'d|'ll|would|will)?\s*(?:want|wants|picked|pick|chose"
    r"|choose|prefer|prefers|went\s+with|go\s+with|take|took|signed|sign)"
)
_OF_THE_TERM = r"(?=\s+the\s+\d{1,3}(?:[\s-]*months?)?\s+(?:for\s+now|first|one|option))"
_TAKEN = re.compile(
    words_opening(
        (
            *(w + _WANTS for w in ("they", "we", "customer", "client")),
            *(w + _OF_THE_TERM for w in ("price", "quote", "cost")),
        ),
        ignorecase=True,
    )
    + r"(?i:\s+(?:the\s+)?"
    r"(?P<n>\d{1,3})(?:[\s-]*(?:months?|mo|mos)\b)?(?![\d,]|\.\d|\s*(?:gpus?|%|x\b|k\b|tok|req)))"
)
_IF_BEFORE = re.compile(r"\b(?:if|when|should)\s+$", re.IGNORECASE)
_CHOOSING = frozenset(
    {"want", "pick", "chose", "choos", "prefer", "went with", "go with", "take", "took", "sign"}
    | {"price the", "quote the", "cost the"}
)
"""Words of choosing, looked for before the regex that reads what was taken."""
_PRICED_AT = (
    r"\$\s?(?P<price>\d[\d,]*(?:\.\d+)?)[^$;\n]{0,20}?\b(?:at|on|for|(?:if\s+)?(?:they|we)\s+"
    r"(?:go|sign|take|commit\s+to)(?:\s+for)?)\s+(?:a\s+)?"
)
"""A price said before the term it goes with: "$3.75 on 24", "$3.75 if they go 24"."""
_PRICE_AFTER = r"[^$;\n]{0,12}?\$\s?(?P<price>\d[\d,]*(?:\.\d+)?)(?:\s*/\s*(?:gpu\s*/\s*)?\w+)?"
"""A price said after the term it goes with: "24 months at $3.25/hr"."""
_HOURS = {"mo": 730.0, "month": 730.0, "yr": 8760.0, "year": 8760.0}


def taken(reading: Reading) -> None:
    """The term the customer took of those offered, and its price when said with it."""
    if "term_months" not in reading.values:
        return
    found = _taken_at(reading.text, reading.lower)
    if found is None:
        return
    months = int(found["n"])
    before = reading.text[: found.start()]
    offered = re.search(
        rf"\b(?:(?:at|on|for|go|sign|take|commit\s+to)\s+(?:a\s+)?{months}\b"
        rf"|{months}[\s-]*(?:months?|mo)\b)",
        before,
    )
    if offered is None or not 1 <= months <= 120:
        return
    old = reading.values["term_months"]
    reading.values["term_months"] = months
    said = " ".join(found.group().split())
    reading.understood.append(f"{months}-month term ← '{said}' (of the terms offered)")
    reading.ambiguities[:] = [
        a for a in reading.ambiguities if not a.startswith("two values for term_months")
    ]
    priced = re.search(rf"{_PRICED_AT}{months}\b", before) or re.search(
        rf"\b{months}[\s-]*(?:months?|mo)\b{_PRICE_AFTER}", before
    )
    if priced is None:
        return
    value = amount(priced["price"])
    unit = re.search(r"/\s*(?:gpu\s*/\s*)?(mo|month|yr|year)\b", priced.group(), re.I)
    if value is None:
        return
    if unit is not None:
        value /= _HOURS[unit.group(1).lower()]
    reading.ambiguities[:] = [
        a for a in reading.ambiguities if not a.startswith("two values for price_per_gpu_hour")
    ]
    if abs(value - float(reading.values.get("price_per_gpu_hour") or 0)) > 0.005:
        reading.values["price_per_gpu_hour"] = value
        reading.understood.append(
            f"${value:.2f}/GPU-hour ← '{' '.join(priced.group().split())}' (the {months}-month "
            f"price, not the {old}-month one)"
        )


def _taken_at(text: str, lower: str) -> re.Match[str] | None:
    """The first "they picked 36", looked for only around the words of choosing (a regex
    over the whole message costs more than the message's other option reading)."""
    hits = []
    for word in _CHOOSING:
        at = lower.find(word)
        while at != -1:
            found = next(
                (
                    f
                    for f in _TAKEN.finditer(text, max(0, at - 25), at + len(word) + 30)
                    if not _IF_BEFORE.search(text, max(0, f.start() - 8), f.start())
                ),  # "… or $2.10 if they sign 36": an offer, not the one taken
                None,
            )
            if found is not None:
                hits.append(found)
                break
            at = lower.find(word, at + len(word))
    return min(hits, key=lambda m: m.start()) if hits else None



_PRICE_IN_BRACKETS = re.compile(r"\([^()$]{0,60}\$")
RIVAL_WORDS = r"competitor|competition|competing|rival"
"""Words that make a price or a GPU another vendor's, in a negotiation and in its GPUs."""
_DEAL_CUES = (
    "met ", "meet", "settl", "landed", "agreed", "signed", "closed", "accept", "final", "deal",
    "quoted", "offered", "pitched", "list", "msrp", "rack rate", "book price", "sticker",
    "floor", "ceiling", "walk", "reserve", " net", "our quote", "counter", "competit", "ours",
    "rival", "incumbent",
)
"""Words one of which a negotiation's price roles need: most messages have none."""
_ROLE_BEFORE = (
    (
        "agreed",
        re.compile(
            r"\b(?:(?:met|settled|landed|agreed|signed|closed|accepted|accepting|(?<!and\s)final"
            r"|meet)\b"
            r"[^$\n.;]{0,15}|\bdeal\s+(?:is|at)\s*(?:at\s*)?)$",
            re.IGNORECASE,
        ),
    ),
    (
        "ours",
        re.compile(
            r"\b(?:we|i)\s+(?:quoted|offered|pitched)\b[^$\n.;]{0,12}$|\bours\s*:[^$\n;]{0,30}$"
            r"|\b(?:vs\.?|versus|against)\s+our\s*$"
            r"|\bour\s+(?:list|price|rate|quote|number|book\s+price)\s*(?:is|was|of|at|:|=)?\s*$",
            re.I,
        ),
    ),
    (
        "competitor",
        re.compile(  # "CoreWeave quoted Bramble $3.05/hr": another vendor's quote, by name
            r"\b(?!We\b|I\b)[A-Z][A-Za-z0-9]+\s+(?:quoted|offered|pitched)\s+"
            r"(?:[A-Z][A-Za-z0-9]+|them|the\s+customer)\s*(?:at\s*)?$"
        ),
    ),
    (
        "competitor",
        re.compile(
            rf"\b(?:{RIVAL_WORDS}|incumbent)\b[^$\n;]{{0,40}}$", re.I
        ),
    ),
    ("list", re.compile(r"\b(?:list|msrp|rack\s+rate|book\s+price|sticker)\b[^$\n;]{0,12}$", re.I)),
    ("floor", re.compile(r"\b(?:floor|ceiling|walk[\s-]?away|reserve)\b[^$\n;]{0,12}$", re.I)),
    (
        "theirs",
        re.compile(
            r"\b(?:they|customer|client)\s+(?:want|wants|came\s+back\s+at|countered(?:\s+at)?"
            r"|asked\s+for|floated|offered|are\s+asking)\b[^$\n.;]{0,20}$"
            r"|\bcounter(?:ed|[\s-]?offer(?:ed)?)?\s*(?:at|of|is|was|:)?\s*$",
            re.IGNORECASE,
        ),
    ),
)
"""What the words right before a lease price make it, in a negotiation."""
_AT_OURS = re.compile(
    words_opening(
        (
            *(
                w + r"\s+(?:it\s+|this\s+)?(?:at|on|with)\s+(?:our|the)\s+"
                r"(?:quote|quoted\s+price|offer|number|price)\b"
                for w in ("price", "quote", "size", "run")
            ),
            *(w + r"\s+ours\b" for w in ("price", "quote", "run", "size")),
        ),
        ignorecase=True,
    )
)
_AT_THEIRS = re.compile(
    words_opening(("price", "quote", "run", "size"), ignorecase=True)
    + r"(?i:\s+(?:it\s+at\s+)?(?:the|their)\s+counter(?:[\s-]?offer)?\b)"
)
_SUFFIX = re.compile(r"\s*(?:list|msrp|net)\b", re.I)
"""A word said right after a price, of that price: "$3.20 list", "$2.80 net"."""
_AT_LIST = re.compile(
    words_opening(("run", "price", "quote", "use"), ignorecase=True)
    + r"(?i:\s+(?:it\s+)?at\s+(?:the\s+)?list\b)"
)
_RULED_OUT = re.compile(
    r"\b(?:was|were|floated|balked|rejected|other|old|previous|earlier|on[\s-]?demand)\b", re.I
)
_CORRECTING = re.compile(r"\b(?:edit|correction|sorry|actually|i\s+meant|oops)\b", re.I)
_TERM_AFTER = re.compile(r"[^$\n.;]{0,20}?\b(?P<n>\d{1,3})[\s-]*(?:months?|mo)\b", re.IGNORECASE)


def deal_price(reading: Reading) -> None:
    """Of the lease prices a negotiation names, the one to price: the agreed one ("we met
    at $3.45 for a 24-month commit"), else ours when asked ("price it at our quote"), else
    the one not said as a list price or a floor ("$2.70 after the volume tier (list $3.10)")."""
    said = reading.history.get("price_per_gpu_hour", [])
    if len({v for v, _ in said}) < 2:
        return
    lower = reading.lower
    if not any(cue in lower for cue in _DEAL_CUES) and not _PRICE_IN_BRACKETS.search(lower):
        return  # no price said agreed, quoted, listed or in brackets: most messages
    roles: list[tuple[str, float, int, int]] = []
    last_end = 0
    for value, m in said:
        if m is None:
            continue
        start = m.toks[0].start
        before = reading.text[max(0, start - 40, last_end) : start]
        suffix = _SUFFIX.match(before) if last_end and start - last_end < 40 else None
        before = before[suffix.end() :] if suffix else before  # "$3.20 list ($2.80 net)":
        last_end = m.toks[-1].end  # "list" is the price's before it
        role = next((name for name, cue in _ROLE_BEFORE if cue.search(before)), "")
        own = _SUFFIX.match(reading.text, last_end)
        if not role and own is not None:
            role = "net" if own.group().strip().lower() == "net" else "list"
        if not role and _ruled_out_aside(reading.text, start):
            role = "aside"  # "(They floated 36 months at $3.30 but their legal balked.)"
        roles.append((role, value, start, m.toks[-1].end))
    chosen = [r for r in roles if r[0] in ("agreed", "net")]
    if not chosen and _AT_OURS.search(reading.text):
        chosen = [r for r in roles if r[0] == "ours"]
    if not chosen and _AT_THEIRS.search(reading.text):
        chosen = [r for r in roles if r[0] == "theirs"]  # "Price the counter"
    if not chosen and not _AT_LIST.search(reading.text):
        kept = [r for r in roles if r[0] not in ("list", "floor", "aside", "competitor")]
        chosen = kept if len(kept) == 1 and len(kept) < len(roles) else []
    if not chosen:
        return
    role, value, start, end = chosen[-1]
    reading.values["price_per_gpu_hour"] = value
    twice = ("two values for price_per_gpu_hour", "two values for term_months")
    reading.ambiguities[:] = [a for a in reading.ambiguities if not a.startswith(twice)]
    others = ", ".join(f"${v:.2f}" for r, v, s, _ in roles if s != start)
    why = {"agreed": "the price agreed; not ", "net": "the net price; not "}
    why["ours"] = "our quote; not "
    why["theirs"] = "their counter, as asked; not "
    why_said = why.get(role, "not ")
    aside = "" if role in why else ", said as a list price, a floor, a competitor's or an aside"
    words = " ".join(reading.text[start:end].split())
    if reading.price_said is not None:  # the price a per-GPU-or-total reading is said of
        reading.price_said = None if "gpu" in words.lower() else words
    reading.understood.append(f"${value:.2f}/GPU-hour ← '{words}' ({why_said}{others}{aside})")
    term = _TERM_AFTER.match(reading.text, end) if role == "agreed" else None
    if term is not None and 1 <= int(term["n"]) <= 120:
        reading.values["term_months"] = int(term["n"])  # "we met at $3.45 for a 24-month commit"


def _ruled_out_aside(text: str, at: int) -> bool:
    """Whether ``at`` is inside brackets that rule their price out ("(the other quote was
    $3.95)", "(they floated $3.30 but their legal balked)"); a bracket may as well hold the
    price itself ("($2.80 net)", "(edit: $3.40/hr)")."""
    opened = text.rfind("(", 0, at)
    closed = text.find(")", at)
    if opened == -1 or closed == -1 or text.rfind(")", 0, at) > opened:
        return False
    inside = text[opened:closed]
    return _RULED_OUT.search(inside) is not None and _CORRECTING.search(inside) is None
