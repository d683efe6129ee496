"""How many requests a deployment runs at once, when it is said by the part: by the node,
replica or GPU ("24 concurrent per node", "12 sessions per GPU"), by members each with
their own ("12 tenants × 16 concurrent sessions each"), or as the one chosen of two weighed.
Each total is multiplied out and said back with its factors.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.parse.context import around
from core.parse.deployments import NODES_COUNTED, REPLICA_COUNT, REPLICAS, whole_count
from core.parse.numbers import digits
from core.parse.openings import words_opening

if TYPE_CHECKING:
    from core.parse.facts import Reading


_PER_NODE = re.compile(
    r"\s*(?:[^\W\d_]{3,}\s+)?"  # "… sequences per replica", "… verzoeken per server"
    r"(?:(?:per|each|a|/)\s*(?:\d{1,3}[\s-]*(?:gpu|node)s?\s+)?"
    r"(?:node|box|server|replica|instance|pod|rack|dgx|hgx|system)\b|(?P<each>each|apiece)\b)"
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


def concurrency_per_node(reading: Reading) -> None:
    """ "3 nodes × 8 H200, 24 concurrent per node (so 72 total)", "Max concurrency per
    server: 256": the deployment's concurrency is the total, said or multiplied out by the
    nodes or replicas."""
    said, value = reading.sources.get("concurrency"), reading.values.get("concurrency")
    at = reading.find(said) if said else -1
    found = _PER_NODE.match(reading.text, at + len(said or "")) if at >= 0 else None
    if found is None and at > 0:
        found = _EACH_BEFORE.search(reading.text, max(0, at - 40), at)  # "each serving ~64"
    if found is None:
        said_per = any(w in reading.lower for w in (" per ", "every ", "each "))
        keyed = (
            _KEYED_PER_NODE.search(reading.text) or _RESTATED_PER_NODE.search(reading.text)
            if said_per
            else None
        )
        figure = digits(keyed["n"] or keyed["n2"]) if keyed is not None else None
        if keyed is None or value not in (None, figure):
            return
        said, found, value = "", keyed, int(figure or 0)
    if not isinstance(value, int) or not value:
        return
    groups = found.groupdict()
    total = digits(groups["total"]) if groups.get("total") else None
    per: str | None = found.group().lower()
    if groups.get("each") or groups.get("each2"):  # "3 servers, 128 concurrent each"
        per = _counted_unit(reading)
    if per is None:
        return
    nodes = _units(reading, per)
    if total is None and nodes is not None:
        total = value * nodes
    if total is None or total != int(total):
        reading.ambiguous(f"'{said}{found.group()}': say how many nodes, or the total")
        return
    reading.values["concurrency"] = int(total)
    reading.understood.append(f"concurrency {int(total)} in all ← '{said}{found.group()}'")


_KEYED_PER_NODE = re.compile(
    r"\b(?:max(?:imum)?\s+)?(?:concurrency|batch(?:\s+size)?|concurrent\s+(?:requests|sessions"
    r"|users|streams))\s+(?:per|each|a|/)\s*(?:node|box|server|replica|instance|pod)"
    r"\s*[:=]?\s*(?P<n>\d[\d,]*)(?P<total>)"
    r"|\b(?:every|each)\s+(?:replica|node|server|instance)\s+(?:at|runs?|with|has|does)?\s*"
    r"(?:a\s+)?(?:batch(?:\s+size)?|concurrency)(?:\s+of)?\s*[:=]?\s*(?P<n2>\d[\d,]*)",
    re.IGNORECASE,
)
"""A concurrency named per node before its figure: "Max concurrency per server: 256",
"every replica at batch 64"."""


_RESTATED_PER_NODE = re.compile(
    r"\b(?:no\s+wait|wait|sorry|i\s+mean|actually|correction|oops)\s*[,:—–-]?\s*(?:it'?s\s+"
    r"|that'?s\s+)?(?P<n>\d[\d,]*)(?P<n2>)\s+(?:concurrent\s+)?(?:per|each|a|/)\s*"
    r"(?:node|box|server|replica|instance|pod)\b",
    re.IGNORECASE,
)
"""A concurrency said again, after a correction, as a node's: "128 concurrent total — no
wait, 128 per node"."""


_EACH_BEFORE = re.compile(
    r"\b(?:replicas?|nodes?|servers?|racks?)\s*,?\s*(?P<each>each)\s+(?:(?:one\s+)?(?:serving"
    r"|running|handling|taking|doing|at|with)\s+)?[~≈]?\s*$"
    r"|\b(?:replicas?|nodes?|servers?)\b[^.;\n]{0,30}\b(?P<each2>each)\s+(?:serving|running"
    r"|handling|taking|at|with)\s+[~≈]?\s*$"
    r"|\b(?:each|every)\s+(?:replica|node|server|box|instance|pod)\s+(?:would\s+|will\s+|can\s+"
    r"|should\s+)?(?:take|takes|serve|serves|run|runs|handle|handles|hold|holds|get|gets"
    r"|(?:is\s+)?capped\s+at|(?:is\s+)?limited\s+to|at)\s+"
    r"(?:about\s+|around\s+|up\s+to\s+)?[~≈]?\s*$",
    re.IGNORECASE,
)
"""Before a concurrency, the units it is each one's: "2 replicas, each 40 concurrent", "8
replicas, 1 GPU each, each serving ~64 seqs", "each replica would take ~48 concurrent"."""


def _counted_unit(reading: Reading) -> str | None:
    """What "each" after a concurrency is said of: the replicas counted, else the nodes."""
    if REPLICA_COUNT.search(reading.text) or reading.replica_gpus:
        return "replica"
    if NODES_COUNTED.search(reading.text) or reading.gpu_nodes:
        return "rack" if "rack" in reading.lower else "node"
    return None


def _units(reading: Reading, per: str) -> int | None:
    """How many of the unit a figure is said per: replicas of the GPUs of one (or as many
    as said), or nodes of the GPUs of one (or as many as said)."""
    count = reading.gpu_count
    if "replica" in per or "instance" in per:
        size = reading.replica_gpus
        if size and count and count % size == 0:
            return count // size  # "per 2-GPU replica" on 128 GPUs: 64 replicas
        copies = REPLICAS.search(reading.text) or REPLICA_COUNT.search(reading.text)
        a_node = _REPLICA_A_NODE.search(reading.text) if copies is None else None
        if a_node is None:  # "TP8 so one replica per node": as many replicas as nodes
            return whole_count(copies["n"]) if copies else None  # "96 concurrent per replica"
    if "rack" in per and reading.gpu_nodes:
        return reading.gpu_nodes[0]  # "2 racks GB300 NVL72 … 800 concurrent per rack"
    per_node = reading.node_gpus
    if count and per_node:
        return count // per_node
    said = list(NODES_COUNTED.finditer(reading.text))
    nodes = whole_count(said[-1]["n"]) if said else None
    if nodes and (count is None or count % nodes == 0):
        return nodes  # "2 nodes of H200 (16 GPUs), batch 32 per node"
    return None


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
