"""Numbers that refer, not count: clause and page numbers, ticket ids, phone numbers.

Forwarded mail and RFP excerpts are full of digits that are no quantity: "4.2.5 Output
generation speed shall…", "page 22 of 40", "PO 4500012345", "Ticket REF-20931",
"+45 33 12 34 56", "call on 12 November". Read as numbers they become a request's
output, a GPU count or a term. Each is blanked (replaced by spaces, so what follows
keeps its place) before the tokenizer sees the text, as ``core.parse.dates`` does for
dates.
"""

from __future__ import annotations

import re

from core.parse import numbers, stretches
from core.parse.openings import words_opening

_ASIDE = re.compile(r"\(\s*([^()\n]{1,30}?)\s*\)")
_NOT_THIS = re.compile(r"\(not\s+[^()\n]{1,60}\)")
"""An aside that rules a figure out: "$3.35/GPU-hr (not the $3.60 12-mo rate)"."""
_MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
    "|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec"
)
_CLAUSES = re.compile(
    # a clause number opening a line: "4.2.1 The Service shall", "7.1 Scope"
    r"(?m:^[ \t>*-]*(?:§\s*)?\d{1,3}(?:\.\d{1,3}){2,4}\.?(?=\s))"
    r"|(?m:^[ \t>*-]*\d{1,3}\.\d{1,3}\.?(?=[ \t]+(?!Mil|Bil|Tho|M\b|B\b|K\b)[A-Z][a-z]))"
)
_PLACES = re.compile(
    # a place in a document: "p. 14", "page 22 of 40", "section 7", "Annex B, Table 3"
    words_opening(
        (
            *(w + r"(?:\.[ \t]*|[ \t]+)" for w in ("pp?", "pg", "fig", "para", "art")),
            *(
                w + r"[ \t]+"
                for w in ("pages?", "sections?", "clauses?", "tables?", "annex", "appendix")
                + ("figures?", "items?", "slides?", "exhibit", "schedule", "articles?")
                + ("chapter", "paragraph")
            ),
        ),
        ignorecase=False,
        loose=(r"§[ \t]*",),
    )
    + r"#?\d{1,4}[a-z]?(?:[.\-]\d{1,3})*(?:[ \t]+of[ \t]+\d{1,4})?\b"
)
_QUESTION = re.compile(r"\bquestion[ \t]+#?\d{1,4}\b(?![ \t]*(?:tokens?|toks?|k\b|words?))")
"""A question's number in a questionnaire ("Question 17 asks …"), not its tokens."""
_IDS = re.compile(
    # an id: "PO 4500012345", "ticket 77120", "ref: 20931"
    words_opening(
        (
            *("tickets?", "tkt", "po", r"purchase[ \t]+order", "ref(?:erence)?", "invoice"),
            *("rf[pqi]", "jira", "opp(?:ortunity)?"),
        ),
        ignorecase=False,
    )
    + r"[ \t]*(?:#|no\.?|nr\.?|number|id)?[ \t]*[:#-]?[ \t]*[a-z]{0,4}-?\d{3,}\b"
)
_MARKED_IDS = re.compile(
    # words that are ids only with a number sign: "case #12345", "account no. 4521"
    words_opening(("case", "account", "acct", "order", "quote", "sr", "cs"), ignorecase=False)
    + r"[ \t]*(?:#|no\.|nr\.|number|id)[ \t]*[:-]?[ \t]*[a-z]{0,4}-?\d{3,}\b"
)
_CODES = re.compile(
    r"\b[A-Z]{2,}-\d{4,}\b|#[A-Za-z]{0,4}-?\d{3,}\b"
    r"|\b(?:gpu|node|host|server|worker|pod|rack)-\d{1,4}\b"
    r"|(?m:(?:^|\|)[ \t>*]*\b(?:[A-Z]{1,5}-0\d{0,3}"
    r"|(?:N?FR|R|REQ|Req|RQ|SR|TR|PR|BR|SLA|ID)-\d{1,4})(?:\.\d{1,3})*(?=[ \t|:.)]))"
)
"""An id in capitals or after a hash ("REF-20931", "#CS-5521", "#4521"), a machine's
name ("gpu-17", "node-3": one host of many, not a count), or a requirement's id opening
a row ("R-03\tMonthly requests\t45,000,000", "| NFR-2 | …"; a model's name, "GLM-5",
opens rows too, so an id is a requirement's prefix or has a leading zero; "Req-3.1:"
is written in title case too)."""
_PHONES = re.compile(
    r"\+\d{1,3}(?:[ .\-]?\d{1,4}){2,5}\b"
    r"|\(\d{3}\)[ .\-]?\d{3}[ .\-]\d{4}\b|\b\d{3}[.\-]\d{3}[.\-]\d{4}\b"
)
_PHONE_HINT = re.compile(r"\+\d|\(\d{3}\)|\d[.\-]\d{4}\b")
_CODE_HINT = re.compile(r"-\d{4}|#")
_ROW_ID = re.compile(r"[ \t>*|]*(?:[A-Z]{1,5}|Req)-\d")
"""A requirement's id opening a line ("R-03\t…"): looked for at line starts only."""
_HOSTS = ("gpu-", "node-", "host-", "server-", "worker-", "pod-", "rack-")
_CLAUSE_HINT = re.compile(r"(?:^|\n)[ \t>*-]*\d{1,3}\.\d")
_BEFORE_A_QUARTER = (
    *("until", "by", "in", "before", "after", "from", "during", "for", r"end\s+of", "early"),
    *("late", "mid", "next", "this", "last"),
)
_QUARTERS = re.compile(
    words_opening(
        (
            *(w + r"\s+[Qq][1-4]\b" for w in _BEFORE_A_QUARTER),
            *(q + r"[1-4][\s'/-]*(?:20)?\d\d\b" for q in "Qq"),
            *(q + r"[1-4]\s*[-/]\s*[Qq][1-4]\b" for q in "Qq"),
        ),
        ignorecase=False,
    )
)
"""A quarter of the year ("until Q4", "Q3 2026"): no GGUF Q4 quantization, no number."""
_DAYS = re.compile(
    # a day without its year: "on 12 November", "by March 3rd"
    words_opening(
        (
            rf"\d\d?(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?(?:{_MONTHS})\b(?![ \t]*\d)",
            *(
                month + r"\.?[ \t]+\d{1,2}(?:st|nd|rd|th)?\b(?![ \t]*(?:,[ \t]*)?\d)"
                for month in _MONTHS.split("|")
            ),
        ),
        ignorecase=False,
    )
)
_PLACE_WORDS = (
    "p.",
    "pp",
    "pg",
    "fig",
    "para",
    "art.",
    "article",
    "page",
    "section",
    "clause",
    "table",
    "annex",
    "appendix",
    "item",
    "slide",
    "exhibit",
    "schedule",
    "chapter",
    "§",
)
POSTED_LINE = (
    r"[ \t]*[\w.'’\-]+(?:[ \t][\w.'’\-]+){0,3}[ \t]+\d{1,2}:\d{2}(?:[ \t]?[AaPp][Mm])?[ \t]*"
)
"""A pasted Slack thread's header line: who posted, and when ("Hana Okafor  10:12 AM")."""
_POSTED = re.compile(
    rf"(?m:^{POSTED_LINE}$)|(?m:^[ \t]*\[\d{{1,2}}:\d{{2}}(?::\d{{2}})?(?:[ \t]?[AaPp][Mm])?\])"
)
"""When a message in a pasted Slack thread was posted: "Hana Okafor  10:12 AM" on a line of
its own, "[11:41] tomasz: …" before it. The time is no figure of the traffic."""
_ID_WORDS = ("ticket", "tkt", "po", "ref", "invoice", "rfp", "rfq", "rfi", "jira", "opp")
_MARKED_WORDS = ("case", "account", "acct", "order", "quote", "sr", "cs")
_MARKS = ("#", "no.", "nr.", "number", " id")
_MONTH_HINT = re.compile(r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[ .,]")
"""Each kind of reference is looked for only where a word of its kind appears: most
messages have none, and a regex over 10 KB is not free. Months are one regex, not a
scan per spelling: it jumps from candidate letter to candidate letter."""


def blank_references(text: str) -> str:
    """``text`` with every reference's characters replaced by spaces, and a number's
    restatement in brackets too ("2,000,000 (two million) requests", "thirty-six (36)")."""
    if not any(c.isdigit() for c in text):
        return text
    lower = text.lower()
    spans: list[tuple[int, int]] = []
    if _CLAUSE_HINT.search(text):
        spans += [m.span() for m in _CLAUSES.finditer(text)]
    if len(lower) == len(text):  # lower() kept every offset (it does, but for rare letters)
        if any(w in lower for w in _PLACE_WORDS):
            spans += [m.span() for m in _PLACES.finditer(lower)]
        if "question" in lower:
            spans += [m.span() for m in _QUESTION.finditer(lower)]
        if any(w in lower for w in _ID_WORDS):
            spans += [m.span() for m in _IDS.finditer(lower)]
        if any(w in lower for w in _MARKED_WORDS) and any(w in lower for w in _MARKS):
            spans += [m.span() for m in _MARKED_IDS.finditer(lower)]
        if _MONTH_HINT.search(lower):
            spans += [m.span() for m in _DAYS.finditer(text)]
    if any(f"q{n}" in lower for n in "1234"):
        spans += [_quarter(m) for m in _QUARTERS.finditer(text)]
    row_ids = "-" in text and any(_ROW_ID.match(line) for line in text.splitlines())
    if _CODE_HINT.search(text) or any(h in lower for h in _HOSTS) or row_ids:
        spans += [m.span() for m in stretches.finditer(_CODES, text, _around_codes(text))]
    if row_ids:
        spans += _numbered_like(text)
    if ":" in text:
        spans += [m.span() for m in stretches.finditer(_POSTED, text, _clock_lines(text))]
        if "peak" in lower or "busiest" in lower or "rush" in lower:
            spans += [m.span("clock") for m in _PEAK_CLOCK.finditer(text)]
    if _PHONE_HINT.search(text):
        spans += [m.span() for m in _PHONES.finditer(text)]
    if "(" in text:
        spans += [m.span() for m in _ASIDE.finditer(text) if _restates(text, m)]
        if "(not " in lower:
            spans += [m.span() for m in _NOT_THIS.finditer(lower)]
    if not spans:
        return text
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


_CLOCK = re.compile(r":(?<=\d:)(?=\d)")
"""A clock's colon, between digits: found by its colon, the digits looked at around it."""


def _clock_lines(text: str) -> list[tuple[int, int]]:
    """The lines with a clock's time on them ("10:12"), where a posted header stands (see
    ``core.parse.stretches``): ``_POSTED`` opens on a line's start, which the regex engine
    cannot skip to."""
    spans: list[tuple[int, int]] = []
    for m in _CLOCK.finditer(text):
        end = text.find("\n", m.end())
        spans.append((text.rfind("\n", 0, m.start()) + 1, len(text) if end == -1 else end + 1))
    return stretches.merged(spans)


_LEADING_ZERO_ID = re.compile(r"(?m:(?:^|\|)[ \t>*]*\b([A-Z]{1,5})-0\d)")


def _numbered_like(text: str) -> list[tuple[int, int]]:
    """Requirement ids past the ninth: a prefix numbered with a leading zero ("A-07",
    "A-08") numbers the rows after it too ("A-10: Kontextfenster 64.000 Token")."""
    prefixes = sorted(set(_LEADING_ZERO_ID.findall(text)))
    if not prefixes:
        return []
    ids = re.compile(
        rf"(?m:(?:^|\|)[ \t>*]*\b(?:{'|'.join(prefixes)})-\d{{1,4}}(?=[ \t|:.)]))"
    )
    return [m.span() for m in ids.finditer(text)]


_PEAK_CLOCK = re.compile(
    words_opening(("peak", "peaks", "busiest", "rush"), ignorecase=True)
    + r"(?i:(?:\s+(?:time|hour|hours|window|period))?\s*(?:is\s+|from\s+|at\s+)?\(?"
    r"(?P<clock>\d{1,2}:\d\d\s*(?:am|pm)?\s*(?:-|–|—|to)\s*\d{1,2}:\d\d\s*(?:am|pm)?)\)?)"
)
"""The clock's hours of a peak ("peak time 12:00-13:00 is 6,000 requests/hour"): when the
peak is, not a figure; blanked so the peak word stands next to its rate."""


_CODE_ANCHOR = re.compile(r"-(?=\d)|#")
"""What every code holds: the dash before its digits ("REF-20931", "gpu-17", "R-03"), or
its hash ("#4521")."""


def _around_codes(text: str) -> list[tuple[int, int]]:
    """Where a code can stand (see ``core.parse.stretches``): from the letters before each
    anchor (and a row's opening "| > *" and blanks) to past its letters, dash, digits and
    dotted parts, with room for the look ahead or ``\\b`` after them."""
    spans: list[tuple[int, int]] = []
    for m in _CODE_ANCHOR.finditer(text):
        at = m.start()
        while at and text[at - 1].isascii() and text[at - 1].isalpha():
            at -= 1  # "REF", "gpu", "NFR"
        while at and text[at - 1] in " \t>*":
            at -= 1  # a row's opening: "| > R-03"
        end = m.end()
        while end < len(text) and text[end].isascii() and text[end].isalpha():
            end += 1  # "#CS-5521"
        if end < len(text) and text[end] == "-":
            end += 1
        while end < len(text) and (text[end].isdecimal() or text[end] == "."):
            end += 1  # the digits, and a requirement's dotted parts ("Req-3.1")
        spans.append((max(0, at - 2), min(len(text), end + 2)))
    return stretches.merged(spans)


def _restates(text: str, m: re.Match[str]) -> bool:
    """Whether the bracket's number is the number said right before it."""
    inside = _value(m.group(1))
    if inside is None:
        return False
    before = text[max(0, m.start() - 40) : m.start()].rstrip()
    if before[-1:].isdigit():
        digits = before.split()[-1]
        return numbers.digits(digits.strip("(~")) == inside
    if before[-1:] in "万億亿만억" and before.split():  # "70만 (700,000) requests per week"
        return numbers.amount(before.split()[-1]) == inside
    words = re.split(r"[\s-]+", before.lower())[-5:]
    while words and words[0] not in numbers.NUMBER_WORDS:
        words = words[1:]
    return bool(words) and numbers.words(words) == inside


def _value(said: str) -> float | None:
    if said[0].isdigit():
        return numbers.digits(said) if re.fullmatch(r"\d[\d,.]*", said) else None
    words = re.split(r"[\s-]+", said.lower())
    if not all(w in numbers.NUMBER_WORDS or w == "and" for w in words):
        return None
    return numbers.words(words)


def _quarter(m: re.Match[str]) -> tuple[int, int]:
    """The quarter itself, without the word before it ("until Q4": only "Q4")."""
    at = m.group().upper().find("Q")
    return m.start() + at, m.end()
