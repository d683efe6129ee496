"""A deployment's parts, and an API price's unit, named in Spanish, Portuguese, Italian,
French and German, in English before the reading.

"6 nodos H200, batch 48 por réplica, una réplica por nodo", "concorrenza 96 per nodo",
"32 gleichzeitige Anfragen pro Knoten": the nodes, servers and replicas a deployment is
said in, and the "per" that divides a figure among them. The passes that multiply a
figure said per node or per replica out (``core.parse.deployments``,
``core.parse.concurrency``) read English; these few words are written as English so that
every language is read by the same rules. Nothing else in the message changes.
"""

from __future__ import annotations

import re

from core.parse.openings import words_opening

_UNITS = {
    "nodo": "node",
    "nodos": "nodes",
    "nodi": "nodes",
    "nó": "node",
    "nós": "nodes",
    "servidor": "server",
    "servidores": "servers",
    "serveur": "server",
    "serveurs": "servers",
    "nœud": "node",
    "nœuds": "nodes",
    "noeud": "node",
    "noeuds": "nodes",
    "knoten": "node",
    "servern": "servers",
    "réplica": "replica",
    "réplicas": "replicas",
    "replica": "replica",
    "repliche": "replicas",
    "réplique": "replica",
    "répliques": "replicas",
    "replik": "replica",
    "repliken": "replicas",
    "instancia": "instance",
    "instancias": "instances",
    "istanza": "instance",
    "istanze": "instances",
}
_PRONOUNS = frozenset({"nó", "nós"})
"""Portuguese "nós" is "we" as often as "nodes": a node only after its count."""
_PER = r"(?:por|pro|par|per|je|para\s+cada|cada|ogni|chaque)"
_UNIT = re.compile(words_opening(sorted(_UNITS, key=len, reverse=True), ignorecase=True) + r"\b")
"""A foreign unit, found by its own letters (the engine skips to their first ones)."""
_BEFORE_UNIT = re.compile(
    rf"\b(?:(?P<per>{_PER})|(?P<one>una|um|uma|un|une|eine|ein|einen))\s+$", re.IGNORECASE
)
"""The "per" or "one" said right before a unit: "por réplica", "una réplica"."""
_FOREIGN_PER_UNIT = re.compile(
    words_opening(
        ("por", "pro", "par", "je", r"para\s+cada", "cada", "ogni", "chaque"), ignorecase=True
    )
    + r"(?i:\s+(?P<english>node|nodes|server|servers|box|instance))\b"
)
"""An English unit after a foreign "per": "Batch 48 pro Server"."""
_HINTS: tuple[str, ...] = ("nod", "servid", "serveur", "servern", "nœud", "noeud", "knoten")
_HINTS += ("répli", "repli", "instan", "nós", "nó ", "pro ", "por ", "par ", "je ", "cada ")
_HINTS += ("ogni ", "chaque ", "milh", "millón", "millon", "milione", "mio", "million ")
_PER_MILLION = re.compile(
    r"\b(?:por|pro|je|par|per|al)\s+(?:(?:1|un|um|uno|une)\s+)?"
    r"(?:milh[ãa]o|mill[óo]n|milione|million|mio\.?|mln\.?)\s*"
    r"(?:(?:de|di|d['’])\s*)?(?:(?:tokens?|jetons?)\s*(?:(?:de|di|d['’]|in)\s*)?)?"
    r"(?:(?P<in>entrada|eingabe|entr[ée]e|ingresso|input)|(?P<out>sa[íi]da|salida|ausgabe"
    r"|sortie|uscita|output))(?:[-\s]?(?:tokens?|jetons?))?\b",
    re.IGNORECASE,
)
"""An API price's unit: "por milhão de tokens de saída", "je 1 Mio. Eingabe-Token", "par
million de jetons d'entrée", "per milione di token di output"."""


def in_english(text: str) -> str:
    """``text`` with a deployment's parts named in English (unchanged when it names none
    in another language: most messages)."""
    lower = text.lower()
    if not any(h in lower for h in _HINTS):
        return text
    edits: list[tuple[int, int, str]] = []
    for m in _UNIT.finditer(text):
        said = m.group().lower()
        before = _BEFORE_UNIT.search(text, max(0, m.start() - 16), m.start())
        start = before.start() if before else m.start()
        if said in _PRONOUNS and before is None and not re.search(r"\d\s*$", text[: m.start()]):
            continue  # "nós precisamos": we, not nodes (that is "2 nós")
        unit = _UNITS[said]
        word = "per" if before and before["per"] else "one" if before and before["one"] else ""
        edits.append((start, m.end(), f"{word} {unit}" if word else unit))
    for m in _FOREIGN_PER_UNIT.finditer(text):
        edits.append((m.start(), m.end(), f"per {m['english']}"))
    for m in _PER_MILLION.finditer(text):
        edits.append((m.start(), m.end(), f"per million {'input' if m['in'] else 'output'} tokens"))
    out, at = [], 0
    for start, end, said in sorted(edits):
        if start >= at:
            out += [text[at:start], said]
            at = end
    return "".join(out) + text[at:] if edits else text
