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

from core.parse import numbers

_MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
    "|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec"
)
_REFERENCES = re.compile(
    # a clause number opening a line: "4.2.1 The Service shall", "7.1 Scope"
    r"(?m:^[ \t>*-]*(?:§\s*)?\d{1,3}(?:\.\d{1,3}){2,4}\.?(?=\s))"
    r"|(?m:^[ \t>*-]*\d{1,3}\.\d{1,3}\.?(?=[ \t]+(?!Mil|Bil|Tho|M\b|B\b|K\b)[A-Z][a-z]))"
    # a place in a document: "p. 14", "page 22 of 40", "section 7", "Annex B, Table 3"
    r"|(?:\b(?i:pp?|pg|fig|para|art)(?:\.[ \t]*|[ \t]+)|§[ \t]*"
    r"|\b(?i:pages?|sections?|clauses?|tables?|annex|appendix|figures?|items?|slides?|exhibit"
    r"|schedule|articles?|chapter|paragraph)[ \t]+)#?\d{1,4}[a-z]?"
    r"(?:[.\-]\d{1,3})*(?:[ \t]+of[ \t]+\d{1,4})?\b"
    # an id: "PO 4500012345", "ticket 77120", "REF-20931", "#CS-5521", "#4521"
    r"|\b(?i:tickets?|tkt|po|purchase[ \t]+order|ref(?:erence)?|invoice|rf[pqi]|jira"
    r"|opp(?:ortunity)?)[ \t]*(?i:#|no\.?|nr\.?|number|id)?[ \t]*[:#-]?[ \t]*"
    r"[A-Za-z]{0,4}-?\d{3,}\b"
    r"|\b(?i:case|account|acct|order|quote|sr|cs)[ \t]*(?i:#|no\.|nr\.|number|id)[ \t]*[:-]?"
    r"[ \t]*[A-Za-z]{0,4}-?\d{3,}\b"
    r"|\b[A-Z]{2,}-\d{4,}\b|#[A-Za-z]{0,4}-?\d{3,}\b"
    # a phone number: "+45 33 12 34 56", "(415) 555-0192", "415-555-0192"
    r"|\+\d{1,3}(?:[ .\-]?\d{1,4}){2,5}\b"
    r"|\(\d{3}\)[ .\-]?\d{3}[ .\-]\d{4}\b|\b\d{3}[.\-]\d{3}[.\-]\d{4}\b"
    # a day without its year: "on 12 November", "by March 3rd"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?(?:{_MONTHS})\b(?![ \t]*\d)"
    rf"|\b(?:{_MONTHS})\.?[ \t]+\d{{1,2}}(?:st|nd|rd|th)?\b(?![ \t]*(?:,[ \t]*)?\d)"
)


_ASIDE = re.compile(r"\(\s*([^()\n]{1,30}?)\s*\)")
_DIGITS_BEFORE = re.compile(r"(\d[\d,.]*)\s*$")
_WORDS_BEFORE = re.compile(r"((?:[a-z]+[\s-]+){0,4}[a-z]+)\s*$", re.IGNORECASE)


def blank_references(text: str) -> str:
    """``text`` with every reference's characters replaced by spaces, and a number's
    restatement in brackets too ("2,000,000 (two million) requests", "thirty-six (36)")."""
    if not any(c.isdigit() for c in text):
        return text
    text = _REFERENCES.sub(lambda m: " " * len(m.group()), text)
    if "(" in text:
        text = _ASIDE.sub(lambda m: " " * len(m.group()) if _restates(text, m) else m.group(), text)
    return text


def _restates(text: str, m: re.Match[str]) -> bool:
    """Whether the bracket's number is the number said right before it."""
    inside = _value(m.group(1))
    if inside is None:
        return False
    before = text[max(0, m.start() - 40) : m.start()]
    digits = _DIGITS_BEFORE.search(before)
    if digits:
        return numbers.digits(digits.group(1)) == inside
    said = _WORDS_BEFORE.search(before)
    if said is None:
        return False
    words = re.split(r"[\s-]+", said.group(1).lower())
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
