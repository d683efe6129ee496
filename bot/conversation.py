"""What leasewise says to a message: read it, answer it, and keep a thread's question.

Slack listeners and the local console both come here, so a sales engineer sees
the same answer in either. A ``Reply`` names a template and its context; the
caller renders it for its surface. Nothing here knows about Slack.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import ValidationError
from sqlalchemy.orm import Session

from core.errors import InputError
from core.estimate import estimate
from core.parse import Parsed, apply_followup, parse
from core.perf.engine import PerfEngine
from core.questions import Question, kind_of
from core.scenario import Scenario
from core.sizing import size
from core.traffic import Traffic
from storage import threads
from storage.errors import NotFound, StorageError

if TYPE_CHECKING:
    from bot.render.document import Attachment

MAX_VALUE_CHARS = 2000
"""Slack's limit on a button's value; a question that does not fit gets no buttons."""
DEFAULT_TOP = 3
EXAMPLES = {
    "traffic": "Kimi K3, 2B output tokens a day, peaks 3x, 30 tok/s per user",
    "scenario": "Kimi K3 on 16x B300, batch 64, $5/GPU-hour",
    "unknown": "Kimi K3, 2B output tokens a day, peaks 3x, 30 tok/s per user",
}


@dataclass(frozen=True)
class Reply:
    """A template and its context; ``question`` is what the answer answered, if any.

    ``file`` is a file the reply hands over (a quote's PDF): Slack uploads it where the
    reply goes, the template's text its comment; the console writes it to a local file.
    """

    template: str
    context: dict[str, Any]
    ephemeral: bool = False
    question: Question | None = None
    notes: dict[str, list[str]] = field(default_factory=dict)
    file: Attachment | None = None


def answer(
    engine: PerfEngine,
    text: str,
    *,
    want: Literal["scenario", "traffic"] | None = None,
    top: int = DEFAULT_TOP,
) -> Reply:
    """Answer a first message: an estimate for a deployment, a sizing for traffic."""
    parsed = parse(text, engine.catalog)
    question = _question(parsed)
    if question is None or (want is not None and parsed.kind != want):
        return needs_more(parsed, want)
    return answer_question(
        engine,
        question,
        understood=parsed.understood,
        assumed=parsed.assumed,
        ambiguities=parsed.ambiguities,
        top=top,
    )


def needs_more(parsed: Parsed, want: str | None = None) -> Reply:
    missing = list(parsed.missing)
    if want is not None and parsed.kind not in (want, "unknown"):
        said = "a deployment" if parsed.kind == "scenario" else "traffic"
        asked = "traffic to size" if want == "traffic" else "a deployment to cost"
        missing.insert(0, f"this reads as {said}, and this command needs {asked}")
    if not missing:
        missing = [f"a {parsed.kind} leasewise can answer; check the values below"]
    return Reply(
        "needs_more",
        {
            "missing": missing,
            "understood": parsed.understood,
            "ambiguities": parsed.ambiguities,
            "example": EXAMPLES[want or parsed.kind],
        },
        ephemeral=True,
    )


def answer_question(
    engine: PerfEngine,
    question: Question,
    *,
    understood: Sequence[str] = (),
    assumed: Sequence[str] = (),
    ambiguities: Sequence[str] = (),
    changed: Sequence[str] = (),
    shared_by: str | None = None,
    top: int = DEFAULT_TOP,
) -> Reply:
    """The answer to a validated question, with what was read and assumed said back;
    ``shared_by`` (a Slack user id) is named when someone shares it in a channel.

    Raises:
        InputError: the engine cannot answer it (an unknown GPU, a model that
            does not fit); callers turn it into an ``error`` reply.
    """
    catalog = engine.catalog
    common: dict[str, Any] = {
        "understood": list(understood),
        "assumed": list(assumed),
        "ambiguities": list(ambiguities),
        "changed": list(changed),
        "shared_by": shared_by,
        "model_name": catalog.models.get(question.model).name,
        "actions": actions_for(question),
    }
    if isinstance(question, Traffic):
        sizing = size(question, engine)
        return Reply("sizing", {**common, "sizing": sizing, "top": top}, question=question)
    result = estimate(question, engine)
    gpu_name = catalog.gpus.get(result.gpu).name
    return Reply(
        "estimate", {**common, "estimate": result, "gpu_name": gpu_name}, question=question
    )


def error_reply(exc: InputError | StorageError) -> Reply:
    return Reply(
        "error",
        {"message": exc.message, "field": exc.field, "hint": exc.hint},
        ephemeral=True,
    )


# -- buttons carry their question ------------------------------------------------------


def actions_for(question: Question) -> dict[str, str] | None:
    """Button values for an answer: the question itself, so a click needs no lookup."""
    value = encode_question(question)
    if len(value) > MAX_VALUE_CHARS:
        return None
    return {name: value for name in ("save_quote", "show_chart", "compare_gpus", "share_answer")}


def encode_question(question: Question) -> str:
    body = question.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    return json.dumps({"kind": kind_of(question), "q": body}, separators=(",", ":"))


def decode_question(value: str) -> Question:
    """A button's question back; a tampered or stale value is an InputError, not a crash."""
    try:
        data = json.loads(value)
        model = Traffic if data["kind"] == "traffic" else Scenario
        return model.model_validate(data["q"])
    except (ValueError, KeyError, TypeError, ValidationError) as exc:
        raise InputError(
            "that button's answer is from an older version and cannot be read",
            hint="ask the question again, e.g. /lease ask " + EXAMPLES["scenario"],
        ) from exc


# -- threads ---------------------------------------------------------------------------


def start_thread(
    session: Session, key: threads.ThreadKey, question: Question, clock: Callable[[], datetime]
) -> None:
    threads.start(session, key, question, clock=clock)


def follow_up(
    engine: PerfEngine,
    session: Session,
    key: threads.ThreadKey,
    text: str,
    clock: Callable[[], datetime],
) -> Reply | None:
    """Edit the thread's question by ``text`` and answer it; None if the thread is not ours.

    A message that changes nothing gets a hint only when it asks something
    ("what about it?"), so ordinary chatter in the thread stays unanswered.
    """
    current = threads.current(session, key)
    if current is None:
        return None
    kind = kind_of(current)
    fields = current.model_dump(exclude_none=True)
    result = apply_followup(fields, kind, text, engine.catalog)
    if result.action == "undo":
        try:
            restored = threads.undo(session, key, clock=clock)
        except NotFound as exc:
            return error_reply(exc)
        return answer_question(engine, restored, changed=["undid the last change"])
    if result.action == "reset":
        history = threads.history(session, key)
        if not history:
            return answer_question(engine, current, changed=["nothing to start over from yet"])
        first = history[0].before
        threads.apply_edit(session, key, after=first, text=text, clock=clock)
        return answer_question(engine, first, changed=["back to the thread's first question"])
    if result.action == "none":
        if text.rstrip().endswith("?"):
            return Reply("followup_none", {"understood": result.understood}, ephemeral=True)
        return None
    model = Traffic if kind == "traffic" else Scenario
    try:
        edited = model.model_validate(result.fields)
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(p) for p in problem["loc"])
        return Reply(
            "error",
            {
                "message": f"that edit would make {where} invalid: {problem['msg'].lower()}",
                "field": where,
                "hint": "the thread's question is unchanged; try e.g. 'batch 64'",
            },
            ephemeral=True,
        )
    reply = answer_question(
        engine, edited, understood=result.understood, changed=result.changed
    )
    threads.apply_edit(session, key, after=edited, text=text, clock=clock)
    return reply


def _question(parsed: Parsed) -> Question | None:
    return parsed.traffic() or parsed.scenario()
