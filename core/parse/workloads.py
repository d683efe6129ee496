"""One workload out of several: "(a) chat … (b) batch … Please size (a) first".

A message can carry more than one workload, each under its own label: lettered or
numbered items ("(a)", "(2)"), phases or options ("Phase 2 (July on): …", "Option B:"),
or a before and an after ("Before: 8x A100 … After: we want 8x H200 …"). Read whole,
their figures are two values for each field and the last one wins, whichever the writer
asked about. When the message says which one to size ("size (a) first", "only phase 2
matters", "go with option B"), or it is a before and an after (the after is the ask; the
before is what runs today), the other workloads are blanked (replaced by spaces, so
every figure keeps its place, as ``core.parse.references`` does) and the choice is said.

Text outside every labelled workload (the model "both" run on, the lease term said
after them) is kept: it belongs to whichever is chosen. With no choice said, nothing is
blanked, and the reader's "two values" say the clash.
"""

from __future__ import annotations

import re

_CUES = frozenset(
    {"(a)", "(b)", "(1)", "(2)", "a)", "b)", "1)", "2)", "phase", "option", "scenario", "b ="}
    | {"workload", "before", "after"}
)
"""Words every labelled workload has one of: looked for before any regex runs."""
_LABEL = re.compile(
    r"(?:^|(?<=[\n.;!?]))[ \t>*•-]*"
    r"(?P<label>\((?P<item>[a-e]|[1-9])\)|(?P<item2>[a-e1-9])\)"
    r"|(?-i:(?P<item4>[A-E]))[ \t]*[=:](?=[ \t])"
    r"|(?P<kind>phase|option|scenario|workload)[ \t]+(?P<name>[a-e1-9])\b"
    r"|(?P<side>before|after)[ \t]*:)",
    re.IGNORECASE,
)
"""Where a labelled workload starts: at a line's or sentence's start."""
_CHOICE = re.compile(
    r"\b(?:size|quote|price|do|start\s+with|go\s+with|went\s+with|use|pick|picked|chose|take"
    r"|took|selected)\s+(?:only\s+)?(?:the\s+)?"
    r"(?:(?P<kind>phase|option|scenario|workload)[ \t]+(?P<name>[a-e1-9])\b"
    r"|\((?P<item>[a-e]|[1-9])\))"
    r"|\bonly\s+(?:the\s+)?(?:(?P<kind2>phase|option|scenario|workload)[ \t]+(?P<name2>[a-e1-9])\b"
    r"|\((?P<item2>[a-e]|[1-9])\))"
    r"|\b(?:(?P<kind3>phase|option|scenario|workload)[ \t]+(?P<name3>[a-e1-9])"
    r"|\((?P<item3>[a-e]|[1-9])\))\s+(?:first|only|matters|is\s+the\s+one)\b"
    r"|\b(?:picked|chose|took|went\s+with|selected|signed)\s+(?-i:(?P<item5>[A-E]))(?=[\s.,;!)]|$)"
    r"|\b(?:just|only)\s+(?-i:(?P<item6>[A-E]))(?=\s+please\b|[.!]|$)"
    r"|\b(?:quote|size|price)\s+only\s+the\s+(?P<first>first)\b"
    r"|\bonly\s+the\s+(?P<first2>first)\s+(?:one|workload)\b",
    re.IGNORECASE,
)
"""Which one the writer asks for: "size (a) first", "only phase 2 matters", "option B only",
"they picked B" (a capital alone, of options lettered)."""


def chosen(text: str) -> tuple[str, str | None]:
    """``text`` with the workloads not asked about blanked, and the choice said (or None)."""
    lower = text.lower()
    if not any(cue in lower for cue in _CUES):
        return text, None  # most messages name no workloads: substring looks decide it
    starts = [(m.start("label"), _name(m)) for m in _LABEL.finditer(text)]
    names = {name for _, name in starts}
    if len(names) < 2:
        return text, None
    choice = _CHOICE.search(text)
    aside: str | None = None
    if choice is not None:
        first = choice["first"] or choice["first2"]
        wanted = starts[0][1] if first else _name(choice)
        said = " ".join(choice.group().split())
    elif names == {"before", "after"}:
        wanted, said = "after", "after"
    elif (kept := _not_set_aside(text, starts)) is not None:
        wanted, said = kept, ""
        aside = next(name for _, name in starts if name != kept)
    else:
        return text, None
    if wanted not in names:  # "just A please" of the workloads labelled "Workload A", "B"
        alike = [n for n in names if n.split()[-1] == wanted]
        if len(alike) != 1:
            return text, None
        wanted = alike[0]
    out = list(text)
    for k, (start, name) in enumerate(starts):
        if name == wanted:
            continue
        end = _end(text, start, starts[k + 1][0] if k + 1 < len(starts) else len(text))
        if choice is not None and start <= choice.start() < end:
            end = choice.start()  # the choice itself is said in another's line
        for j in range(start, end):
            if out[j] != "\n":
                out[j] = " "
    label = f"({wanted})" if len(wanted) == 1 else wanted
    if aside is not None:
        other = f"({aside})" if len(aside) == 1 else aside
        return "".join(out), f"sized {label} only; {other} is set aside in its own words"
    if choice is None:
        return "".join(out), "sized the 'after' only; the 'before' is what runs today"
    return "".join(out), f"sized {label} only, as asked ('{said}'); the others are not read"


def _name(m: re.Match[str]) -> str:
    """A label's or a choice's workload, keyed alike: "a", "phase 2", "after"."""
    groups = m.groupdict()
    for item in ("item", "item2", "item3", "item4", "item5", "item6"):
        if groups.get(item):
            return str(groups[item]).lower()
    for kind, name in (("kind", "name"), ("kind2", "name2"), ("kind3", "name3")):
        if groups.get(kind):
            if str(groups[kind]).lower() == "option" and groups.get("item4") is None:
                return str(groups[name]).lower()  # "picked option B" of the lines "B = …"
            return f"{str(groups[kind]).lower()} {str(groups[name]).lower()}"
    return str(groups.get("side") or "").lower()


_SET_ASIDE = re.compile(
    r"\b(?:please\s+)?(?:ignore|disregard|skip)\b|\bnot\s+(?:now|yet|for\s+now)\b"
    r"|\b(?:don'?t|do\s+not)\s+(?:quote|size|price)\b",
    re.IGNORECASE,
)
"""Words in a workload's own label that set it aside: "Workload B (2027, please ignore for
now)"."""


def _not_set_aside(text: str, starts: list[tuple[int, str]]) -> str | None:
    """The one workload of two not set aside in its own first words, or None."""
    if len({name for _, name in starts}) != 2:
        return None
    aside = {name for start, name in starts if _SET_ASIDE.search(text, start, start + 60)}
    kept = {name for _, name in starts} - aside
    return kept.pop() if len(aside) == 1 and len(kept) == 1 else None


def _end(text: str, start: int, next_start: int) -> int:
    """Where a workload ends: its line, or the next label, whichever comes first; a
    workload at a sentence's start on a line of several ends at the next label."""
    line_end = text.find("\n", start)
    if line_end == -1 or line_end > next_start:
        return next_start
    return line_end
