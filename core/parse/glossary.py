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
_PER = r"(?:por|pro|par|per|je|para\s+cada|cada|ogni|chaque)"
_ONE = {"una": "one", "um": "one", "uma": "one", "un": "one", "une": "one", "eine": "one"}
_ONE |= {"ein": "one", "einen": "one"}
_SAID = re.compile(
    rf"\b(?:(?P<per>{_PER})\s+|(?P<one>una|um|uma|un|une|eine|ein|einen)\s+)?"
    rf"(?P<unit>{'|'.join(sorted(_UNITS, key=len, reverse=True))})\b",
    re.IGNORECASE,
)
_HINTS = ("nod", "servid", "serveur", "nœud", "noeud", "knoten", "répli", "repli", "instan")


def in_english(text: str) -> str:
    """``text`` with a deployment's parts named in English (unchanged when it names none
    in another language: most messages)."""
    lower = text.lower()
    if not any(h in lower for h in _HINTS):
        return text
    return _SAID.sub(_english, text)


def _english(m: re.Match[str]) -> str:
    unit = _UNITS[m["unit"].lower()]
    if m["per"]:
        return f"per {unit}"
    if m["one"]:
        return f"one {unit}"
    return unit
