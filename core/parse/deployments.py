"""How big a deployment said in parts is: GPUs by the node, rack or replica, and
concurrency by the node, replica or GPU.

"2 GB300 racks" are 144 GPUs; "an 8-GPU B300 node" then "two such nodes" are 16;
"4 replicas, each one 2 nodes × 8 MI355X" are 64; "96 concurrent per replica" on those
is 384, and "12 sessions per GPU" on 144 GPUs is 1,728. Each count is multiplied out and
the multiplication said.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse import numbers
from core.parse.context import around
from core.parse.numbers import digits
from core.parse.openings import words_opening

if TYPE_CHECKING:
    from core.catalog import Catalog
    from core.parse.facts import Reading


def nodes_to_gpus(reading: Reading, catalog: Catalog) -> None:
    """ "2 GB300 racks", "3 B200 nodes": nodes of the GPU's NVLink domain, said; "two such
    nodes" after "an 8-GPU B300 node": that many of the node said; "(8 GPUs/node), …, 4
    nodes": that many nodes of the GPUs said a node."""
    if reading.node_gpus is None and "node" in reading.lower:
        a_node = _GPUS_A_NODE.search(reading.text)
        if a_node is not None:
            reading.node_gpus = int(a_node["n"])
    such = (
        _SUCH_NODES.search(reading.text) or _N_NODES.search(reading.text)
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
    count = nodes * gpu.scale_up_domain_gpus
    reading.gpu_count = count
    if gpu.scale_up_domain_gpus <= 8:  # a board's GPUs: "batch 48 per node" multiplies by it
        reading.node_gpus = reading.node_gpus or gpu.scale_up_domain_gpus
    reading.gpu_said.append(f"GPU {count}x {gpu.id}")
    reading.assume(f"'{said}' read as {count} GPUs ({gpu.scale_up_domain_gpus} a node)")


_NODES_COUNTED = re.compile(
    r"(?<![/\w])(?<!per\s)(?<!each\s)(?P<n>\d{1,3}|one|two|three|four|five|six|eight|ten|twelve"
    r"|sixteen)(?:\s*[x×])?\s+(?:(?!(?:per|each|a|an|every|x|across|over|in|on|for|the|at|to|from|of)\b)[\w-]+\s+){0,2}?(?P<unit>nodes?|servers?|boxes"
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
    counted = list(_NODES_COUNTED.finditer(reading.text))
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


_PER_NODE = re.compile(
    r"\s*(?:(?:sequences|seqs|requests|sessions|users|streams|calls|chats|conversations)\s+)?"
    r"(?:per|each|a|/)\s*"
    r"(?:node|box|server|replica|instance|pod)\b"
    r"(?:[^.;\n\d]{0,12}?(?P<total>\d[\d,]*)\s+(?:in\s+)?(?:total|overall|in\s+all)\b)?",
    re.IGNORECASE,
)
"""Concurrency said a node ("24 concurrent per node", "32 concurrent sequences per replica"),
maybe with its total ("so 72 total")."""


_PER_GPU_SESSIONS = re.compile(
    r"\b(?P<n>\d{1,4})\s+(?:concurrent\s+)?(?:streams?|sessions?|sequences?|requests?|users?|slots?)"
    r"\s+(?:per|a|/|each)\s*(?:gpu|card)\b",
    re.IGNORECASE,
)


_PER_GPU_WORDS = ("per gpu", "a gpu", "/gpu", "each gpu", "per card", "/card")


def concurrency_per_gpu(reading: Reading) -> None:
    """ "12 sessions per GPU" on a deployment of 144 GPUs: 1,728 concurrent, said."""
    lower = reading.lower
    if not reading.gpu_count or not any(w in lower for w in _PER_GPU_WORDS):
        return
    found = next(around(_PER_GPU_SESSIONS, reading.text, lower, _PER_GPU_WORDS, 60, 12), None)
    if found is None:
        return
    said = reading.sources.get("concurrency")
    if "concurrency" in reading.values and not (said and said in found.group()):
        return  # a concurrency said of the whole deployment stands
    total = int(found["n"]) * reading.gpu_count
    reading.values["concurrency"] = total
    reading.understood.append(f"concurrency {total} ← '{found.group()}' × {reading.gpu_count} GPUs")


_REPLICAS = re.compile(
    r"\b(?P<n>\d{1,3}|two|three|four|five|six|eight|ten)\s+(?:replicas|instances|copies)\s*,?\s+"
    r"each(?:\s+one|\s+of\s+them)?\b",
    re.IGNORECASE,
)
"""Copies of one deployment, each described after: "4 replicas, each one 2 nodes × 8 MI355X"."""
_REPLICA_COUNT = re.compile(
    r"\b(?P<n>\d{1,3}|two|three|four|five|six|eight|ten)\s+(?:replicas|instances|copies)\b",
    re.IGNORECASE,
)
"""How many copies, said anywhere: what a figure said "per replica" is multiplied by."""


def _count(said: str) -> int | None:
    value = numbers.count(said)
    return int(value) if value and value == int(value) else None


def replicas(reading: Reading) -> None:
    """The GPUs of every replica, when the GPUs said are one replica's."""
    said = reading.gpu_count and any(w in reading.lower for w in ("replica", "instance", "copies"))
    found = _REPLICAS.search(reading.text) if said else None
    copies = _count(found["n"]) if found else None
    if found is None or not copies or copies < 2 or reading.gpu_count is None:
        return
    one = reading.gpu_count
    reading.gpu_count = one * copies
    reading.gpu_said[:] = [
        g.replace(f"GPU {one}x ", f"GPU {one * copies}x ", 1) for g in reading.gpu_said
    ]
    reading.assume(f"'{' '.join(found.group().split())}': {copies} × {one} = {one * copies} GPUs")


def concurrency_per_node(reading: Reading) -> None:
    """ "3 nodes × 8 H200, 24 concurrent per node (so 72 total)": the deployment's
    concurrency is the total, said or multiplied out by the nodes."""
    said, value = reading.sources.get("concurrency"), reading.values.get("concurrency")
    at = reading.find(said) if said else -1
    found = _PER_NODE.match(reading.text, at + len(said or "")) if at >= 0 else None
    if found is None or not isinstance(value, int):
        return
    total = digits(found["total"]) if found["total"] else None
    per_node = reading.node_gpus
    nodes = reading.gpu_count // per_node if reading.gpu_count and per_node else None
    if "replica" in found.group().lower() or "instance" in found.group().lower():
        copies = _REPLICAS.search(reading.text) or _REPLICA_COUNT.search(reading.text)
        a_node = _REPLICA_A_NODE.search(reading.text) if copies is None else None
        if a_node is None:  # "TP8 so one replica per node": as many replicas as nodes
            nodes = _count(copies["n"]) if copies else None  # "96 concurrent per replica"
    if total is None and nodes is not None:
        total = value * nodes
    if total is None or total != int(total):
        reading.ambiguous(f"'{said}{found.group()}': say how many nodes, or the total")
        return
    reading.values["concurrency"] = int(total)
    reading.understood.append(f"concurrency {int(total)} in all ← '{said}{found.group()}'")


_REPLICA_A_NODE = re.compile(
    r"\b(?:one|1)\s+replica\s+(?:per|each|a|/)\s*(?:node|box|server)\b"
    r"|\b(?:one|1)\s+replica\s+each\b|\breplica\s+per\s+node\b",
    re.IGNORECASE,
)
_MEMBERS_CONCURRENT = re.compile(
    r"(?P<n>\d(?<!\w\d)[\d,]*)\s+(?P<noun>[a-z]+s)\s*(?:[×x*]|with|running|of)\s*(?P<m>\d[\d,]*)\s+"
    r"(?:concurrent|simultaneous|parallel)\s+(?:[a-z]+\s+)?(?:each|apiece|per\s+[a-z]+)\b",
    re.IGNORECASE,
)
"""A count of members, each with its own concurrency: "12 tenants × 16 concurrent sessions
each". The first digit opens it, its word boundary looked at behind it: the search skips
to digits (``core.parse.openings``)."""


def concurrency_of_members(reading: Reading) -> None:
    """ "12 tenants × 16 concurrent sessions each": the deployment's concurrency is their
    product, said back with both figures."""
    lower = reading.lower
    if not any(w in lower for w in ("concurrent", "simultaneous", "parallel")):
        return
    if " each" not in lower and "apiece" not in lower and " per " not in lower:
        return
    found = _MEMBERS_CONCURRENT.search(reading.text)
    if found is None:
        return
    members, each = digits(found["n"]), digits(found["m"])
    if not members or not each or found["noun"].lower() in _NOT_MEMBERS:
        return
    total = int(members * each)
    reading.values["concurrency"] = total
    reading.sources["concurrency"] = found.group()
    said = " ".join(found.group().split())
    reading.understood.append(f"concurrency {total} ({members:g} × {each:g}) ← '{said}'")


_NOT_MEMBERS = frozenset({"gpus", "nodes", "servers", "boxes", "tokens", "requests", "calls"})
"""Nouns a count before a concurrency names that are no members holding one each."""


_GPUS_A_NODE = re.compile(
    r"\b(?P<n>[1-9]|1[0-6]|72)\s*(?:gpus?\s*(?:/|per|a|each|in\s+(?:a|each))|/)\s*"
    r"(?:node|box|server)\b",
    re.IGNORECASE,
)
"""The GPUs of one node said apart from any count: "(8 GPUs/node)", "8 GPUs per node",
"(8/node)"."""
_N_NODES = re.compile(
    r"(?:[,;:(]|[.!?]\s|^|\b(?:want|wants|need|needs|take|takes|order|lease|get|with)\s)"
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


_ONE_OF_TWO = re.compile(
    words_opening(("batch", "concurrency", "bs"), ignorecase=True)
    + r"(?i:\s+(?P<a>\d{1,4})\s+(?:vs\.?|versus|or)\s+(?P<b>\d{1,4})\b"
    r"[^.;!?\n\d]{0,20}?(?:[—–:-]|,)?\s*(?:run|go\s+with|use|pick|take|settled\s+on)\s+"
    r"(?:batch\s+)?(?P<c>\d{1,4})\b)"
)
"""Two batch sizes weighed and one chosen: "back and forth on batch 32 vs 64 — run 64"."""


def chosen_batch(reading: Reading) -> None:
    """The batch chosen of two weighed, not the first said (see ``_ONE_OF_TWO``)."""
    weighed = " vs" in reading.lower or " or " in reading.lower
    if "concurrency" not in reading.values or not weighed:
        return
    found = _ONE_OF_TWO.search(reading.text)
    if found is None or found["c"] not in (found["a"], found["b"]):
        return
    chosen = int(found["c"])
    if reading.values["concurrency"] == chosen:
        return
    reading.values["concurrency"] = chosen
    said = " ".join(found.group().split())
    reading.understood.append(f"concurrency {chosen}, the one chosen ← '{said}'")
