"""A discount on the lease price: "$3.10/GPU-hour … we prepay, so 5% off that".

Sales engineers quote a list or quoted price and the discount on it in one breath. The
price the customer pays is the discounted one; it is worked out and said back with both
figures. A discount is applied only to a lease price said in prose before it, and only
when no other price follows it ("10% off, so price the deal at $4.41": the $4.41 said
wins as written). A discount on an API ("their API is 20% off") is not ours to apply.
"""

from __future__ import annotations

import re
from typing import Any

_DISCOUNT = re.compile(
    r"(?P<pct>\d{1,2}(?:\.\d+)?)\s*%\s*(?:[a-z-]+\s+)?(?:off|discount|rebate|lower|less|cheaper)\b"
    r"|\b(?:discount|rebate|reduction)\s+of\s+(?P<pct2>\d{1,2}(?:\.\d+)?)\s*%"
    r"|\b(?:less|minus)\s+(?P<pct3>\d{1,2}(?:\.\d+)?)\s*%",
    re.IGNORECASE,
)
_PRICE_AFTER = re.compile(r"\$\s?\d")
_OFF_THE_PRICE = re.compile(
    r"\d{1,2}(?:\.\d+)?\s*%\s+off\s+(?:of\s+)?(?:our|the|their|its)\s+(?:\w+\s+){0,2}?\$",
    re.IGNORECASE,
)
"""A discount said as off the price that follows: "15% off our $3.00 H200 list"."""
_ALREADY = re.compile(
    r"\b(?:after|net\s+of|including|incl)\s+(?:the\s+|a\s+|our\s+|their\s+)?(?:~\s*)?$",
    re.IGNORECASE,
)
_LIST_BEFORE = re.compile(r"\blist(?:\s+price)?\s*(?:is|was|of|at|=|:)?\s*$", re.IGNORECASE)
"""A list price: the one a discount said before it comes off ("list is $3.80")."""
_PRICE_IT_DISCOUNTED = re.compile(
    r"\b(?:at|after)\s+the\s+(?:discounted|discount|net)\b|\bdiscounted\s+(?:number|price|rate)\b",
    re.IGNORECASE,
)
"""Asked for the price after a discount said before the price it comes off."""
_COMPARED = re.compile(r"\b(?:lower|less|cheaper)$", re.IGNORECASE)
_SOMEONE_IS = re.compile(
    r"\b(?:came\s+in|comes\s+in|come\s+in|is|are|was|were|sits?|runs?|quoted|priced)\s+"
    r"(?:at\s+)?(?:~\s*|about\s+|around\s+|roughly\s+)?$",
    re.IGNORECASE,
)
"""A share said lower of someone's price ("Azure came in ~10% lower"): a comparison."""
_API_NEAR = re.compile(r"\b(?:api|per\s+million|/m\b|per\s+1m)", re.IGNORECASE)


def _with_term(text: str, at: int, term: object) -> re.Match[str] | None:
    """The discount said with the price at ``at``: of several ("10% off for 24 months or
    15% off for 36"), the one said with the term taken."""
    offered = list(_DISCOUNT.finditer(text, at, at + 300))
    if len(offered) > 1 and isinstance(term, int):
        for found in offered:
            if re.match(rf"\s*(?:for|on|at|with)\s+(?:a\s+|the\s+)?{term}\b", text[found.end() :]):
                return found
    return offered[0] if offered else None


def discounted(fields: dict[str, Any], text: str, said: str | None) -> list[str]:
    """Apply a discount said after the lease price ``said``; the notes say what was done."""
    price = fields.get("price_per_gpu_hour")
    if price is None or said is None or "%" not in text:
        return []
    at = text.find(said.split()[0]) if said else -1
    found = _with_term(text, max(0, at), fields.get("term_months"))
    lower = text.lower()
    asked = "discount" in lower or " net" in lower
    before = found is None and at > 0 and asked and _PRICE_IT_DISCOUNTED.search(text) is not None
    before = before and _LIST_BEFORE.search(text, max(0, at - 25), at) is not None
    if before:
        found = _DISCOUNT.search(text, max(0, at - 120), at)  # "8% off list — list is $3.80"
    if found is None and at > 0:
        off = _OFF_THE_PRICE.search(text, max(0, at - 40), at + 1)
        after = re.match(r"\s?(\d+(?:\.\d+)?)", text[off.end() :]) if off else None
        if after is None or float(after.group(1)) != price:
            off = None  # "$3.40 (15% off the $4.00 list)": the discount of another price
        if off is not None:  # "signed off on 15% off our $3.00 H200 list": the price's own
            found, before = _DISCOUNT.search(off.group()), True
            found = _DISCOUNT.search(text, off.start(), off.end()) if found else None
    if at < 0 or found is None:
        return []
    if _ALREADY.search(text, max(0, found.start() - 30), found.start()):
        return []  # "$2.25, that's our 18-month rate after the 5% loyalty discount": net already
    if _COMPARED.search(found.group()) and _SOMEONE_IS.search(
        text, max(0, found.start() - 30), found.start()
    ):  # "Azure came in ~10% lower": another's price against ours, no discount of ours
        start = max(text.rfind(c, 0, found.start()) for c in ".;!?\n") + 1
        said = " ".join(text[max(start, found.start() - 40) : found.end()].split())
        return [f"'{said}': a comparison, not a discount applied"]
    clause = text[max(0, found.start() - 40) : found.end() + 20]
    priced_after = not before and _PRICE_AFTER.search(text, found.end(), found.end() + 60)
    if _API_NEAR.search(clause) or priced_after:
        return []  # "10% off, so price the deal at $4.41"; a bill said later is no price
    pct = float(found["pct"] or found["pct2"] or found["pct3"])
    if not 0 < pct < 100:
        return []
    words = " ".join(found.group().split())
    asked_for = _PRICE_IT_DISCOUNTED.search(text) is not None  # "run it at the discounted number"
    unless = None if asked_for else _unless(text, found, fields.get("term_months"))
    if unless is not None:
        return [f"{pct:g}% off not applied ('{words}'): {unless}"]
    paid = price * (1 - pct / 100)
    fields["price_per_gpu_hour"] = paid
    return [f"${paid:.2f}/GPU-hour: ${price:.2f} less {pct:g}% ('{words}')"]


_ASKED_FOR = re.compile(
    r"\b(?:wants?|wanted|asking\s+for|asks?\s+for|asked\s+for|requested|requesting|pushing\s+for"
    r"|hoping\s+for|would\s+like|asked\s+about|asking\s+about|asks?\s+about)\s+(?:a\s+|another\s+)?"
    r"(?:~\s*)?$",
    re.IGNORECASE,
)
_AT_LIST_AFTER = re.compile(
    r"^[^.;!?\n]{0,30}?\b(?:price|quote|run|cost|size)\s+(?:it\s+|this\s+|the\s+deal\s+)?"
    r"(?:at\s+(?:the\s+)?(?:list|full|rack)|without\b)"
    r"|^[^.;!?\n]{0,40}?\b(?:price|quote|run|cost)\s+the\s+\d{1,3}(?:[\s-]*months?)?\s+(?:for\s+now|first)",
    re.IGNORECASE,
)
_SET_ASIDE = re.compile(
    r"^[^.;!?\n]{0,60}?\b(?:ignore|don'?t\s+(?:bake|apply|include|factor)|do\s+not\s+(?:bake|apply"
    r"|include|factor)|not\s+(?:baked|applied|included)|leave\s+(?:it|that|the\s+discount)\s+out"
    r"|quote\s+(?:at\s+)?list|next\s+year|for\s+later"
    r"|(?:they|customer|client)\s+(?:passed|declined|said\s+no|turned\s+(?:it\s+)?down|rejected"
    r"|didn'?t\s+(?:take|want)\s+(?:it|that))|not\s+interested)\b",
    re.IGNORECASE,
)
"""A discount said, then set aside: "15% off if they prepay but DON'T bake the discount in"."""
_IF_TERM = re.compile(
    r"^\s*(?:\w+\s+){0,2}?if\s+(?:they|we|the\s+customer)\s+(?:go|goes|sign|signs|commit|commits"
    r"|move|moves|take|takes|extend)\s+(?:to\s+|for\s+)?(?:a\s+)?(?P<n>\d{1,3})",
    re.IGNORECASE,
)


def _unless(text: str, found: re.Match[str], term: object) -> str | None:
    """Why a discount said is not the deal's: asked for by the customer ("Customer wants 10%
    off"), set aside ("… but price it at list first"), or offered on a term not taken
    ("10% off if they go to 36 months" when the 24 is priced)."""
    after = text[found.end() : found.end() + 80]
    conditional = _IF_TERM.match(after)
    if conditional is not None and isinstance(term, int) and int(conditional["n"]) != term:
        return f"it is offered on {conditional['n']} months, and the {term}-month term is priced"
    if _AT_LIST_AFTER.match(after) or _SET_ASIDE.match(after):
        return "asked to price it before the discount"
    if _ASKED_FOR.search(text, max(0, found.start() - 30), found.start()):
        return "the customer's ask, not the price agreed"
    return None
