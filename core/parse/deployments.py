"""How many GPUs a deployment said in parts has: GPUs by the node, rack or replica.

"2 GB300 racks" are 144 GPUs; "an 8-GPU B300 node" then "two such nodes" are 16;
"4 replicas, each one 2 nodes × 8 MI355X" are 64. Each count is multiplied out and the
multiplication said. (Concurrency said by the part is ``core.parse.concurrency``'s.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from core.parse import numbers

if TYPE_CHECKING:
    from core.catalog import Catalog
    from core.parse.facts import Reading


def nodes_to_gpus(reading: Reading, catalog: Catalog) -> None:
    """ "2 GB300 racks", "3 B200 nodes": nodes of the GPU's NVLink domain, said; "two such
    nodes" after "an 8-GPU B300 node": that many of the node said; "(8 GPUs/node), …, 4
    nodes": that many nodes of the GPUs said a node."""
    apart = False  # the GPUs of a node said apart from any count of nodes
    if reading.node_gpus is None and any(w in reading.lower for w in ("node", "box", "server")):
        a_node = _GPUS_A_NODE.search(reading.text)
        if a_node is not None:
            reading.node_gpus = int(a_node["n"] or a_node["n2"] or a_node["n3"])  # "box = 4 gpus"
            apart = True
    if reading.node_gpus is None and any(w in reading.lower for w in (" each", " je ", " elk")):
        each = _GPUS_EACH.search(reading.text)  # "2 l40s servers (4 gpus each)"
        size = numbers.count(each["n"] or each["n2"] or each["n3"]) if each else None
        if size and size == int(size) and 1 <= size <= 16:
            reading.node_gpus, apart = int(size), True
    such = (
        _SUCH_NODES.search(reading.text)
        or _N_NODES.search(reading.text)
        or (_last(NODES_COUNTED.finditer(reading.text)) if apart else None)  # "4 servers, …"
        if reading.node_gpus and reading.gpu_count in (None, reading.node_gpus)
        else None
    )
    nodes = None if such is None else numbers.count(such["n"])
    if such is not None and nodes and nodes == int(nodes) and reading.node_gpus:
        said = such.group().strip(",;.!?( \t\n")
        count = int(nodes) * reading.node_gpus
        reading.gpu_count = count
        one_node = f"GPU {reading.node_gpus}x "
        reading.gpu_said[:] = [
            f"GPU {count}x {g[len(one_node) :].split(' ← ')[0]} ← '{said}'"
            if g.startswith(one_node)
            else g
            for g in reading.gpu_said
        ]
        reading.assume(f"'{said}' read as {count} GPUs ({reading.node_gpus} a node)")
        return
    if reading.gpu_nodes is None and (reading.gpu_count is None or reading.gpu_count < 8):
        _nodes_of_the_gpu(reading, catalog)  # "1x GB200 NVL72 rack": a count of racks
        return
    if reading.gpu_nodes is None or not reading.gpu_ids:
        return
    nodes, said, named = reading.gpu_nodes
    gpu = catalog.gpus.get(named)  # the nodes' own GPU, not the last one named
    domain = gpu.scale_up_domain_gpus
    size = reading.node_gpus if reading.node_gpus and reading.node_gpus <= domain else domain
    count = nodes * size  # "2 l40s servers (4 gpus each)": the node said, else a whole board
    reading.gpu_count = count
    if size <= 8:  # a board's GPUs: "batch 48 per node" multiplies by it
        reading.node_gpus = size
    reading.gpu_said.append(f"GPU {count}x {gpu.id}")
    reading.assume(f"'{said}' read as {count} GPUs ({size} a {'node' if size <= 8 else 'rack'})")


def _last(found: Iterable[re.Match[str]]) -> re.Match[str] | None:
    """The last match ("5 nodes H200 → sorry, 6 nodes": the last word), or None."""
    last = None
    for match in found:
        last = match
    return last


NODES_COUNTED = re.compile(
    r"(?<![/\w-])(?<!per\s)(?<!each\s)(?P<n>\d{1,3}|one|two|three|four|five|six|eight|ten|twelve"
    r"|sixteen)(?:\s*[x×])?\s+(?:(?!(?:per|each|a|an|every|x|across|over|in|on|for|the|at|to"
    r"|from|of)\b)(?!\d)[\w-]+\s+){0,2}?(?P<unit>nodes?|servers?|boxes"
    r"|box|racks?)\b"
    r"(?!\s*(?:/|per\b|each\b|an?\s+hour|-hour|-hr))",
    re.IGNORECASE,
)
"""A count of nodes or racks ("4 nodes of h200", "1 rack gb200 nvl72", "Deal is 12 nodes")."""


def _nodes_of_the_gpu(reading: Reading, catalog: Catalog) -> None:
    """Nodes or racks counted with one GPU named and no GPU count: the GPUs of that many of
    the GPU's own nodes (8 a node for an 8-GPU board; 72 a rack for an NVL72 system)."""
    ids = list(dict.fromkeys(reading.gpu_ids))
    if len(ids) != 1 or not any(w in reading.lower for w in ("node", "server", "box", "rack")):
        return
    counted = list(NODES_COUNTED.finditer(reading.text))
    found = counted[-1] if counted else None  # "5 nodes H200 → sorry, 6 nodes": the last word
    nodes = numbers.count(found["n"]) if found is not None else None
    if found is None or not nodes or nodes != int(nodes):
        return
    if reading.gpu_count is not None and reading.gpu_count != nodes:
        return  # "2 GPUs … 4 nodes": two counts, neither of the other
    domain = catalog.gpus.get(ids[0]).scale_up_domain_gpus
    rack = found["unit"].lower().startswith("rack")
    if rack != (domain > 8):
        return  # "4 nodes" of an NVL72 system, "2 racks" of 8-GPU boards: how many, unsaid
    count = int(nodes) * domain
    said = " ".join(found.group().split())
    reading.gpu_count = count
    reading.node_gpus = reading.node_gpus or (domain if not rack else None)
    others = {numbers.count(m["n"]) for m in counted[:-1]} - {nodes}
    if others:  # "2 nodes for months 1–6, then 6 nodes": a ramp, or a correction; asked
        said_before = ", ".join(f"{n:g}" for n in sorted(o for o in others if o))
        reading.ambiguous(f"node counts {said_before} and {nodes:g} said: using {nodes:g}")
    reading.assume(f"'{said}' read as {count} GPUs ({domain} a {found['unit'].rstrip('s')})")


_REPLICA_SIZE = re.compile(
    r"\b(?P<g>\d{1,3})[\s-]*gpus?\s+(?:replicas?|instances?)\b"
    r"|\b(?:replicas?|instances?)\s*(?:\(\s*|,\s*|of\s+)(?P<g2>\d{1,3})\s*(?:x\s*)?gpus?"
    r"(?:\s+each)?\b"
    r"|\b(?P<n>\d|one|two|three|four)[\s-]*nodes?\s+(?:replicas?|instances?)\b"
    r"|\b(?:replicas?|instances?)\s+of\s+(?P<n2>one|two|three|four|\d)\s+nodes?\b"
    r"|\b(?:replicas?|instances?)[^.;\n]{0,20}?\(\s*(?P<g3>\d{1,2})\s*gpus?\s+each\s*\)"
    r"|\b(?P<one>one|1)\s+(?:replica|instance)\s*(?:per|/|a|on\s+each)\s*(?:gpu|card)\b",
    re.IGNORECASE,
)
"""The GPUs of one replica, said apart from the deployment's: "per 2-GPU replica",
"replicas (16 GPUs each)", "9 replicas of 8 GPUs", "2-node replicas", "replicas of one
node each"."""


def replica_size(reading: Reading, catalog: Catalog) -> None:
    """The GPUs of one replica ("batch 32 per 2-GPU replica"): kept apart, and when the
    reading took them for the deployment's count while a larger count of whole replicas
    was said ("128 GPUs … per 2-GPU replica"), the larger count is the deployment's."""
    if "replica" not in reading.lower and "instance" not in reading.lower:
        return
    found = _REPLICA_SIZE.search(reading.text)
    if found is None:
        return
    if found["one"]:
        size = 1  # "one replica per GPU"
    elif found["g"] or found["g2"] or found["g3"]:
        size = int(found["g"] or found["g2"] or found["g3"])
    else:
        nodes = whole_count(found["n"] or found["n2"])
        node = reading.node_gpus or _board_of(reading, catalog)
        if not nodes or not node:
            return
        size = nodes * node
    reading.replica_gpus = size
    if reading.gpu_count != size:
        return
    whole = [c for c in reading.gpu_counts if c > size and c % size == 0]
    copies = REPLICA_COUNT.search(reading.text) if not whole else None
    times = whole_count(copies["n"]) if copies else None
    if times and times > 1:  # "9 replicas of 8 GPUs": the deployment is all of them
        whole = [times * size]
    if not whole:
        return
    reading.gpu_count = whole[-1]
    twice = f"two GPU counts ({whole[-1]} and {size})"
    reading.ambiguities[:] = [a for a in reading.ambiguities if not a.startswith(twice)]
    said = " ".join(found.group().split())
    reading.gpu_said[:] = [
        g.replace(f"GPU {size}x ", f"GPU {whole[-1]}x ", 1) for g in reading.gpu_said
    ]
    reading.assume(f"'{said}' is one replica's GPUs, not the deployment's {whole[-1]}")


def _board_of(reading: Reading, catalog: Catalog) -> int | None:
    """The GPUs of a node of the GPU named: its NVLink domain, when that is a board."""
    if not reading.gpu_ids:
        return None
    domain = catalog.gpus.get(reading.gpu_ids[0]).scale_up_domain_gpus
    return domain if domain <= 8 else None


REPLICAS = re.compile(
    r"\b(?P<n>\d{1,3}|two|three|four|five|six|eight|ten)\s+(?:replicas|instances|copies)\s*,?\s+"
    r"each(?:\s+one|\s+of\s+them)?\b"
    r"(?!\s*(?:at|with|serving|running|handling|taking|doing)?\s*(?:a\s+)?(?:batch|concurrency"
    r"|[~≈]?\s*\d+\s*(?:concurrent|seqs|sequences|users|sessions|streams|requests)))",
    re.IGNORECASE,
)
"""Copies of one deployment, each described after: "4 replicas, each one 2 nodes × 8 MI355X"
(not "10 replicas, each at batch 24": that is each one's batch)."""
REPLICA_COUNT = re.compile(
    r"\b(?P<n>\d{1,3}|two|three|four|five|six|eight|ten)\s+(?:replicas|instances|copies)\b"
    r"(?!\s*(?:per|each|a|/)\s*(?:node|gpu|server|box|rack)\b)",  # "2 replicas per node": a node's
    re.IGNORECASE,
)
"""How many copies, said anywhere: what a figure said "per replica" is multiplied by."""


_TIMES_A_GROUP = re.compile(
    r"(?<![\w.])(?P<n>\d{1,2})\s*[x×*]\s*\(\s*(?P<g>\d{1,2})\s*[x×]\s*[A-Za-z][\w .-]{1,30}?\)"
    r"(?:\s*(?P<unit>replicas?|instances?|copies|nodes?|servers?|boxes|pods?)\b)?",
    re.IGNORECASE,
)
"""A count times a bracketed group of GPUs: "2 x (8x H100)" are 16 GPUs in two nodes,
"3 x (4x b200) replicas" 12 GPUs in three replicas."""


def grouped(reading: Reading) -> None:
    """The GPUs of every group, when the GPUs read are the bracketed group's (see
    ``_TIMES_A_GROUP``): the count times the group, said, and the group kept as one
    replica's or one node's GPUs for what is said per replica or per node."""
    if "(" not in reading.text or reading.gpu_count is None:
        return
    found = _TIMES_A_GROUP.search(reading.text)
    if found is None or int(found["g"]) != reading.gpu_count or int(found["n"]) < 2:
        return
    times, one = int(found["n"]), reading.gpu_count
    reading.gpu_count = times * one
    unit = (found["unit"] or "node").lower()
    if unit.startswith(("replica", "instance", "cop", "pod")):
        reading.replica_gpus = one
    elif one <= 8:
        reading.node_gpus = one
    reading.gpu_said[:] = [
        g.replace(f"GPU {one}x ", f"GPU {times * one}x ", 1) for g in reading.gpu_said
    ]
    said = " ".join(found.group().split())
    reading.assume(f"'{said}': {times} × {one} = {times * one} GPUs")


def whole_count(said: str) -> int | None:
    value = numbers.count(said)
    return int(value) if value and value == int(value) else None


def replicas(reading: Reading) -> None:
    """The GPUs of every replica, when the GPUs said are one replica's."""
    said = reading.gpu_count and any(w in reading.lower for w in ("replica", "instance", "copies"))
    found = REPLICAS.search(reading.text) if said else None
    copies = whole_count(found["n"]) if found else None
    if found is None or not copies or copies < 2 or reading.gpu_count is None:
        return
    one = reading.gpu_count
    reading.gpu_count = one * copies
    reading.gpu_said[:] = [
        g.replace(f"GPU {one}x ", f"GPU {one * copies}x ", 1) for g in reading.gpu_said
    ]
    reading.assume(f"'{' '.join(found.group().split())}': {copies} × {one} = {one * copies} GPUs")


_GPUS_A_NODE = re.compile(
    r"\b(?P<n>[1-9]|1[0-6]|72)\s*(?:gpus?\s*(?:/|per|a|each|in\s+(?:a|each))|/)\s*"
    r"(?:node|box|server)\b"
    r"|\b(?:node|box|server)\s*(?:=|is|has|holds)\s*(?P<n2>[1-9]|1[0-6])\s*(?:x\s*)?gpus?\b"
    r"|\b(?:nodes|servers|boxes)\s*[x×*]\s*(?P<n3>[1-9]|1[0-6])\s*(?:x\s*)?gpus?\b",
    re.IGNORECASE,
)
"""The GPUs of one node said apart from any count: "(8 GPUs/node)", "8 GPUs per node",
"(8/node)", or after the nodes' count apart from the GPU's name ("L40S: 8 servers × 2
GPUs")."""
_GPUS_EACH = re.compile(
    r"\b(?:nodes|servers|boxes|hosts|machines)\s*(?:\(\s*|,\s*|with\s+|of\s+)"
    r"(?P<n>\d{1,2})\s*[x×]?\s+(?:[\w-]+\s+){0,3}?each\b"
    r"|\b(?:nodes|servers|boxes|hosts|machines)\s+(?:mit|with|met)\s+(?:je|elk|elke|each)\s+"
    r"(?P<n2>\d{1,2})\b"
    r"|\b(?:nodes|servers|boxes|hosts|machines),?\s+each\s+(?:comprising|with|having|containing"
    r"|holding|of)\s+(?P<n3>\d{1,2}|two|four|eight|sixteen)\b",
    re.IGNORECASE,
)
"""The GPUs of each node counted: "2 servers (4 gpus each)", "5 servers, 8x AMD Instinct
MI355X each", "4 Servern mit je 8× MI355X", "2 servers met elk 4 A100", "two nodes, each
comprising eight H200"."""
_N_NODES = re.compile(
    r"(?:[,;:(]|[.!?]\s|^|\b(?:want|wants|need|needs|take|takes|order|lease|get|with|qty"
    r"|quantity|on)\s)"
    r"\s*(?P<n>\d+|two|three|four|five|six|eight|ten|twelve|sixteen)\s+"
    r"(?:nodes|boxes|servers)(?:\s+of\s+[\w-]+)?\s*(?=[,;.()]|\s+(?:on|for|over|at)\b)",
    re.IGNORECASE | re.MULTILINE,
)
"""A count of nodes said on its own after the node ("per 8-GPU H200 node, 2 nodes, …",
"they want 4 nodes on 18 months") or before it ("2 nodes of h200 (8/node)")."""
_SUCH_NODES = re.compile(
    r"\b(?P<n>\d+|two|three|four|five|six|eight|ten|twelve|sixteen)\s+"
    r"(?:such|of\s+(?:those|these|them))\s+(?:nodes|boxes|servers|machines)\b",
    re.IGNORECASE,
)
