"""A deployment's parts named in Spanish, Portuguese, Italian, French and German, in
English before the reading.

"6 nodos H200, batch 48 por réplica, una réplica por nodo", "concorrenza 96 per nodo",
"32 gleichzeitige Anfragen pro Knoten": the nodes, servers and replicas a deployment is
said in, and the "per" that divides a figure among them. The passes that multiply a
figure said per node or per replica out (``core.parse.deployments``,
``core.parse.concurrency``) read English; these few words are written as English so that
every language is read by the same rules. Nothing else in the message changes.
"""

from __future__ import annotations

import re

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
_FOREIGN_PER = r"(?:por|pro|par|je|para\s+cada|cada|ogni|chaque)"
_SAID = re.compile(
    rf"\b(?:(?P<per>{_PER})\s+|(?P<one>una|um|uma|un|une|eine|ein|einen)\s+)?"
    rf"(?P<unit>{'|'.join(sorted(_UNITS, key=len, reverse=True))})\b"
    rf"|\b{_FOREIGN_PER}\s+(?P<english>node|nodes|server|servers|box|instance)\b",
    re.IGNORECASE,
)
"""A foreign unit, with its "per" or "one"; or an English unit after a foreign "per"
("Batch 48 pro Server")."""
_HINTS: tuple[str, ...] = ("nod", "servid", "serveur", "servern", "nœud", "noeud", "knoten")
_HINTS += ("répli", "repli", "instan", "nós", "nó ", "pro ", "por ", "par ", "je ", "cada ")
_HINTS += ("ogni ", "chaque ")


def in_english(text: str) -> str:
    """``text`` with a deployment's parts named in English (unchanged when it names none
    in another language: most messages)."""
    lower = text.lower()
    if not any(h in lower for h in _HINTS):
        return text
    return _SAID.sub(_english, text)


def _english(m: re.Match[str]) -> str:
    if m["english"]:
        return f"per {m['english']}"
    said = m["unit"].lower()
    if said in _PRONOUNS and not m["per"] and not re.search(r"\d\s*$", m.string[: m.start()]):
        return m.group()  # "nós precisamos": we, not nodes (that is "2 nós")
    unit = _UNITS[said]
    if m["per"]:
        return f"per {unit}"
    if m["one"]:
        return f"one {unit}"
    return unit
