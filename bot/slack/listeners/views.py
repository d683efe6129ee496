"""Modals: the "new quote" form, and the admins' "add a serving change" form.

Both are validated on submit and answered with a direct message.

Slack shows ``response_action: errors`` next to the inputs named, so a wrong
value is fixed in place instead of losing the form; a product error raised
while saving (a taken name, a record the catalog refuses, a form whose hidden
question cannot be read) is put next to its input by the app's one error
handler. Validation and saving come before the ack, because their verdict is
the response Slack waits for; the courier then sends the outcome as a direct
message.

The question a "Save as quote" button carried rides in the view's
private_metadata; the form's deployment fields then start from it.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import ValidationError
from slack_bolt import Ack, App
from slack_sdk import WebClient

from bot.commands.quotes import save
from bot.conversation import decode_question, encode_question
from bot.digests.feed import add_entries
from bot.services import Caller, Services
from bot.slack.delivery import Courier, Respond, Way, direct_message
from core.catalog import Catalog
from core.catalog.loading import additions_from_text
from core.errors import InputError
from core.questions import Question
from core.scenario import Scenario

CALLBACK_ID = "quote_modal"
FIELDS = ("model", "gpu", "gpus", "concurrency", "price_per_gpu_hour", "term_months")


def quote_modal(services: Services, *, question: Question | None) -> dict[str, Any]:
    """The "new quote" form, its deployment fields started from ``question`` if given."""
    catalog = services.engines.current().catalog
    initial: dict[str, str] = {}
    if isinstance(question, Scenario):
        for name in FIELDS:
            value = getattr(question, name)
            if value is not None:
                initial[name] = str(value)
        if question.utilization != 1.0:
            initial["utilization"] = f"{question.utilization * 100:g}"
    return services.renderer.view(
        "quote_modal",
        initial=initial,
        private_metadata=encode_question(question) if question is not None else "",
        models=list(catalog.models),
        gpus=list(catalog.gpus),
        fixed=question is not None and not isinstance(question, Scenario),
    )


def register(app: App, services: Services, courier: Courier) -> None:
    @app.view(CALLBACK_ID)
    def on_submit(
        ack: Ack, body: dict[str, Any], view: dict[str, Any], respond: Respond, client: WebClient
    ) -> None:
        values = _values(view)
        engine = services.engines.current()
        errors, question = read_form(engine.catalog, values, view.get("private_metadata", ""))
        if errors or question is None:
            ack(response_action="errors", errors=errors)
            return
        user = body["user"]["id"]
        caller = Caller(workspace_id=team_of(body), channel_id=None, user_id=user)
        reply = save(
            services,
            caller,
            engine,
            name=values.get("name", ""),
            customer=values.get("customer", ""),
            question=question,
        )
        ack()
        message = services.renderer.message(reply.template, **reply.context)
        way = Way(body, respond, client)
        courier.send(lambda: direct_message(client, message, user=user), way)


def read_form(
    catalog: Catalog, values: dict[str, str], metadata: str
) -> tuple[dict[str, str], Question | None]:
    """Errors by block id (what Slack shows under each input), or the question to save."""
    errors: dict[str, str] = {}
    for name, example in (("name", "acme-q3"), ("customer", "Acme")):
        if not values.get(name, "").strip():
            errors[name] = f"give the quote a {name}, e.g. {example}"
    carried = decode_question(metadata) if metadata else None
    if carried is not None and not isinstance(carried, Scenario):
        return errors, None if errors else carried
    fields: dict[str, Any] = {}
    for name, table in (("model", catalog.models), ("gpu", catalog.gpus)):
        try:
            fields[name] = table.get(values.get(name, ""), field_name=name).id
        except InputError as exc:
            errors[name] = exc.message
    for name, kind, low, high in (
        ("gpus", int, 1, 4096),
        ("concurrency", int, 1, 100_000),
        ("price_per_gpu_hour", float, 0.01, 1000),
        ("term_months", int, 1, 120),
        ("utilization", float, 1, 100),
    ):
        raw = values.get(name, "").strip()
        if not raw:
            continue
        try:
            number = kind(raw)
        except ValueError:
            errors[name] = f"{raw!r} is not a {'whole ' if kind is int else ''}number"
            continue
        if not (math.isfinite(number) and low <= number <= high):
            errors[name] = f"use {low:g} to {high:g}"
            continue
        fields[name] = number / 100 if name == "utilization" else number
    if errors:
        return errors, None
    try:
        return {}, Scenario(**fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        return {str(first["loc"][0]): first["msg"]}, None


def _values(view: dict[str, Any]) -> dict[str, str]:
    """The submitted inputs by block id, as text (selects give their option's value)."""
    out: dict[str, str] = {}
    for block_id, actions in view.get("state", {}).get("values", {}).items():
        for action in actions.values():
            selected = action.get("selected_option")
            value = selected.get("value") if selected else action.get("value")
            out[block_id] = "" if value is None else str(value)
    return out


def team_of(body: dict[str, Any]) -> str:
    """The workspace of a click or a form: ``team``, or the user's team when absent."""
    return str((body.get("team") or {}).get("id") or body.get("user", {}).get("team_id", ""))


ADD_CALLBACK_ID = "admin_add"


def register_admin(app: App, services: Services, courier: Courier) -> None:
    @app.view(ADD_CALLBACK_ID)
    def on_add(
        ack: Ack, body: dict[str, Any], view: dict[str, Any], respond: Respond, client: WebClient
    ) -> None:
        user = body["user"]["id"]
        if not services.is_admin(user):
            refusal = "only leasewise admins may add changes"
            ack(response_action="errors", errors={"record": refusal})
            return
        text = _values(view).get("record", "")
        stacks, measurements = additions_from_text(text, name="the form")
        if not stacks and not measurements:
            raise InputError("no stacks or measurements in it", field="record")
        with services.sessions.begin() as session:
            added = add_entries(
                session,
                services.engines.base.catalog,
                stacks=stacks,
                measurements=measurements,
                actor=user,
            )
        ack()
        services.engines.changed()
        message = services.renderer.message(
            "admin_done", done={"verb": "added", "entries": added}, recalibrating=True
        )
        way = Way(body, respond, client)
        courier.send(lambda: direct_message(client, message, user=user), way)
