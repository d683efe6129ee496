"""``/lease admin ...``: the price book and catalog additions, for LEASEWISE_ADMINS only.

Every change is written with its audit entry in one transaction (storage does
both), and a catalog addition is checked against the merged catalog before it
commits, so an addition naming an unknown GPU never reaches the engine.
"""

from __future__ import annotations

from typing import Any, cast

import yaml

from bot.commands.arguments import take
from bot.commands.table import Table
from bot.conversation import Reply
from bot.digests.feed import check_merged
from bot.services import Caller, Services
from core.errors import InputError
from storage import admin, audit
from storage.admin import CatalogKind

USAGE = (
    "`/lease admin price set b300 36 4.80 source=\"MSA with Acme, 2026-11\"`, "
    "`/lease admin price remove b300 36`, `/lease admin prices`, "
    "`/lease admin add measurement {id: ..., ...}`, `/lease admin remove stack ID`, "
    "`/lease admin audit`"
)
ADD_MODAL = "admin_add_modal"
"""A view, not a message: the Slack listener opens it with the command's trigger_id."""


def register(table: Table) -> None:
    table["admin"] = run


def run(services: Services, caller: Caller, text: str) -> Reply:
    if not services.is_admin(caller.user_id):
        return Reply("admin_refused", {"user_id": caller.user_id}, ephemeral=True)
    verb, _, rest = text.strip().partition(" ")
    verb = verb.lower()
    if verb == "price":
        return _price(services, caller, rest.strip())
    if verb == "prices":
        with services.sessions() as session:
            return Reply("prices", {"lines": admin.prices(session)}, ephemeral=True)
    if verb == "add":
        kind, _, body = rest.strip().partition(" ")
        if not kind:  # Slack opens a form for a pasted YAML record
            return Reply(ADD_MODAL, {}, ephemeral=True)
        return _add(services, caller, _kind(kind), body)
    if verb == "remove":
        kind, _, entry_id = rest.strip().partition(" ")
        with services.sessions.begin() as session:
            admin.remove_catalog_entry(
                session,
                kind=_kind(kind),
                entry_id=entry_id,
                actor=caller.user_id,
                clock=services.clock,
            )
        services.engines.changed()
        done = {"verb": "removed", "entries": [f"{_kind(kind)} {entry_id.strip()}"]}
        return Reply("admin_done", {"done": done, "recalibrating": True})
    if verb == "audit":
        with services.sessions() as session:
            return Reply("audit_list", {"records": audit.recent(session, limit=20)}, ephemeral=True)
    return Reply("help", {"command": "/lease", "topic": "admin"}, ephemeral=True)


def _price(services: Services, caller: Caller, text: str) -> Reply:
    source, text = take(text, "source")
    words = text.split()
    if not words or words[0].lower() not in ("set", "remove"):
        raise InputError("say `price set` or `price remove`", field="price", hint=USAGE)
    verb, args = words[0].lower(), _positional(words[1:])
    gpu = services.engines.current().catalog.gpus.get(args[0] if args else "", field_name="gpu")
    term = _number(args, 1, "term_months", int)
    if verb == "remove":
        with services.sessions.begin() as session:
            admin.remove_price(
                session, gpu=gpu.id, term_months=term, actor=caller.user_id, clock=services.clock
            )
        done = {"verb": "price_removed", "gpu": gpu.id, "term_months": term}
        return Reply("admin_done", {"done": done})
    price = _number(args, 2, "usd_per_gpu_hour", float)
    if not source:
        raise InputError("say where the price comes from", field="source", hint=USAGE)
    with services.sessions.begin() as session:
        line = admin.set_price(
            session,
            gpu=gpu.id,
            term_months=term,
            usd_per_gpu_hour=price,
            source=source,
            actor=caller.user_id,
            clock=services.clock,
        )
    return Reply("admin_done", {"done": {"verb": "price_set", "line": line}})


def _add(services: Services, caller: Caller, kind: CatalogKind, body: str) -> Reply:
    try:
        data = yaml.safe_load(body)
    except yaml.YAMLError as exc:
        raise InputError(
            f"the {kind} is not readable YAML: {str(exc).splitlines()[0]}",
            field=kind,
            hint="write it as a YAML mapping, e.g. {id: vllm-k3-b300-2026-12, ...}",
        ) from exc
    if not isinstance(data, dict):
        raise InputError(f"a {kind} is a mapping of fields", field=kind, hint=USAGE)
    base = services.engines.base.catalog
    with services.sessions.begin() as session:
        record = admin.add_catalog_entry(
            session,
            kind=kind,
            body=cast(dict[str, Any], data),
            actor=caller.user_id,
            clock=services.clock,
        )
        check_merged(session, base)  # raising here rolls the addition back
    services.engines.changed()
    done = {"verb": "added", "entries": [f"{kind} {record.entry_id}"]}
    return Reply("admin_done", {"done": done, "recalibrating": True})


_PRICE_KEYS = ("gpu", "term_months", "price_per_gpu_hour")


def _positional(args: list[str]) -> list[str]:
    """``gpu=b300 term_months=36 price_per_gpu_hour=5`` as ``b300 36 5``; plain words as is."""
    named = dict(a.split("=", 1) for a in args if "=" in a)
    if not named:
        return args
    unknown = set(named) - set(_PRICE_KEYS)
    if unknown:
        raise InputError(f"unknown field {sorted(unknown)[0]!r}", field="price", hint=USAGE)
    return [named[k] for k in _PRICE_KEYS if k in named]


def _kind(word: str) -> CatalogKind:
    word = word.lower().rstrip("s")
    if word not in ("measurement", "stack"):
        raise InputError(
            f"'{word or '(nothing)'}' is not something admins add: say measurement or stack",
            field="kind",
            hint=USAGE,
        )
    return cast(CatalogKind, word)


def _number(args: list[str], index: int, field: str, kind: type[int] | type[float]) -> Any:
    try:
        return kind(args[index].lstrip("$"))
    except (IndexError, ValueError) as exc:
        raise InputError(f"{field} must be a number", field=field, hint=USAGE) from exc
