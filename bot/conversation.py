"""What leasewise says to a message: read it, answer it, and keep a thread's question.

Slack listeners and the local console both come here, so a sales engineer sees
the same answer in either. A ``Reply`` names a template and its context; the
caller renders it for its surface. Nothing here knows about Slack.

Every answer is priced on a date (a price book line must be valid on it): the
question's own ``as_of``, else ``today``, which the edge passes in from its clock.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import ValidationError
from sqlalchemy.orm import Session

from core.catalog import Catalog
from core.caveats import caveat_origins, rank_caveats
from core.compare import across_gpus, price_contrasts
from core.errors import InputError
from core.estimate import estimate
from core.parse import Parsed, apply_followup, parse
from core.parse.followups import FollowUp
from core.perf.engine import PerfEngine
from core.pricing import pin_prices
from core.questions import Question, kind_of
from core.reprice import reprice
from core.scenario import Estimate, Scenario
from core.sizing import SizingOption, size
from core.traffic import Traffic
from storage import quotes, threads
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
    today: dt.date,
    want: Literal["scenario", "traffic"] | None = None,
    top: int = DEFAULT_TOP,
) -> Reply:
    """Answer a first message: an estimate for a deployment, a sizing for traffic."""
    parsed = parse(text, engine.catalog, want)
    question = _question(parsed)
    if question is None or (want is not None and parsed.kind != want):
        return needs_more(parsed, want)
    question = _pinned(question, engine.catalog)
    return answer_question(
        engine,
        question,
        today=today,
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
    today: dt.date,
    understood: Sequence[str] = (),
    assumed: Sequence[str] = (),
    ambiguities: Sequence[str] = (),
    changed: Sequence[str] = (),
    shared_by: str | None = None,
    top: int = DEFAULT_TOP,
) -> Reply:
    """The answer to a validated question, with what was read and assumed said back,
    priced on its ``as_of`` or ``today``; ``shared_by`` (a Slack user id) is named when
    someone shares it in a channel.

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
        sizing = size(question, engine, today=today)
        context = {**common, "sizing": sizing, "top": top}
        if sizing.options:
            context["caveats"] = ranked_caveats(catalog, sizing.options[0], sizing.model)
        return Reply("sizing", context, question=question)
    result = estimate(question, engine, today=today)
    gpu_name = catalog.gpus.get(result.gpu).name
    caveats = ranked_caveats(catalog, result, result.model, [s.measurement for s in result.sources])
    return Reply(
        "estimate",
        {**common, "estimate": result, "gpu_name": gpu_name, "caveats": caveats},
        question=question,
    )


def ranked_caveats(
    catalog: Catalog,
    answer: Estimate | SizingOption,
    model: str,
    measurements: Sequence[str | None] = (),
) -> list[str]:
    """An answer's caveats, deduplicated, most relevant first (``core.caveats``)."""
    if not measurements and answer.estimated_from:
        measurements = [answer.estimated_from]
    own, stack_wide = caveat_origins(
        catalog, model=model, gpu=answer.gpu, stack=answer.stack, measurements=measurements
    )
    return rank_caveats(answer.caveats, own=own, stack_wide=stack_wide)


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
    *,
    user_id: str = "",
) -> Reply | None:
    """Act on ``text`` in the thread and answer; None if the thread is not ours, or the
    text is a plain acknowledgement ("thanks", "ok", 👍) that needs no answer.

    Edits change the thread's question and answer it; a utilization or price alone
    re-prices the same deployment; "compare with X" answers the deployment and X side
    by side and "save this as quote NAME [for CUSTOMER]" saves the question (``user_id``
    owns the quote), both leaving the question as it is; "start over" clears the
    thread, which stays ours: the next message in it is a new question. Anything else
    gets a short reply with examples, naming a word it did not know ("did you mean
    h200?"). The answers are priced on ``clock``'s date unless the question has its own.
    """
    today = clock().date()
    current = threads.current(session, key)
    if current is None:
        if not threads.on_record(session, key):
            return None
        return _afresh(engine, session, key, text, clock)
    kind = kind_of(current)
    fields = current.model_dump(exclude_none=True)
    result = apply_followup(fields, kind, text, engine.catalog)
    if result.action == "undo":
        try:
            restored = threads.undo(session, key, clock=clock)
        except NotFound as exc:
            return error_reply(exc)
        return answer_question(engine, restored, today=today, changed=["undid the last change"])
    if result.action == "reset":
        threads.clear(session, key, clock=clock)
        return Reply("thread_cleared", {"question": current})
    if result.action == "save":
        return _save(engine, session, key, current, result, user_id=user_id, clock=clock)
    if result.action == "compare":
        return _compare(engine, current, result, today=today)
    if result.action == "none":
        if result.acknowledgement:
            return None
        context = {"understood": result.understood, "unknown": result.unknown, "kind": kind}
        return Reply("followup_none", context, ephemeral=True)
    model = Traffic if kind == "traffic" else Scenario
    fields = dict(result.fields)
    if kind == "traffic" and result.utilization is not None:
        fields["utilization"] = result.utilization  # the thread keeps it for what follows
    try:
        edited = model.model_validate(fields)
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
    edited = _pinned(edited, engine.catalog)
    changed = list(result.changed)
    if isinstance(edited, Traffic) and isinstance(current, Traffic):
        if result.action == "reprice":
            reply = _repriced(engine, current, edited, result, today=today)
            threads.apply_edit(session, key, after=edited, text=text, clock=clock)
            return reply
        if result.alongside:
            edited, changed = _alongside(engine, current, edited, result, changed, today=today)
    if isinstance(edited, Scenario) and isinstance(current, Scenario):
        edited, changed = _moved(engine, current, edited, result, changed, today=today)
    reply = answer_question(
        engine,
        edited,
        today=today,
        understood=result.understood,
        ambiguities=result.unknown,
        changed=changed,
    )
    threads.apply_edit(session, key, after=edited, text=text, clock=clock)
    return reply


def _afresh(
    engine: PerfEngine,
    session: Session,
    key: threads.ThreadKey,
    text: str,
    clock: Callable[[], datetime],
) -> Reply | None:
    """A message in a thread that was started over: a new question, asked there; an
    acknowledgement ("thanks") needs no answer, as in any thread."""
    if apply_followup({}, "unknown", text, engine.catalog).acknowledgement:
        return None
    reply = answer(engine, text, today=clock().date())
    if reply.question is not None:
        threads.start(session, key, reply.question, clock=clock)
    return reply


def compare_reply(
    engine: PerfEngine, question: Question, gpus: list[str], *, today: dt.date
) -> Reply:
    """GPUs side by side for a deployment; for traffic, a sizing free to use any GPU."""
    if isinstance(question, Traffic):
        if len(gpus) > 1:
            return answer_question(
                engine, question, today=today, changed=[f"compared {', '.join(gpus)}"]
            )
        every = tuple(g.id for g in engine.catalog.gpus)  # those not leased say so
        return answer_question(
            engine,
            question.model_copy(update={"gpus": every}),
            today=today,
            changed=["every GPU in the catalog considered"],
        )
    estimates, skipped = across_gpus(
        question, engine, gpus=gpus if len(gpus) > 1 else (), today=today
    )
    # One lesson is enough for a channel; the template words it from the table's figures.
    contrasts = price_contrasts(estimates)[:1]
    return Reply(
        "compare",
        {"estimates": estimates, "contrasts": contrasts, "skipped": skipped},
        question=question,
    )


def _compare(
    engine: PerfEngine, current: Question, result: FollowUp, *, today: dt.date
) -> Reply:
    """The thread's deployment beside the GPUs named; the thread's question stays."""
    if isinstance(current, Traffic):
        mine = list(current.gpus or (_chosen_gpu(engine, current, today) or ()))
        gpus = list(dict.fromkeys([*mine, *result.gpus_named]))
        traffic = current.model_copy(update={"gpus": tuple(gpus)})
        return compare_reply(engine, traffic, gpus, today=today)
    assert isinstance(current, Scenario)
    gpus = list(dict.fromkeys([current.gpu, *result.gpus_named]))
    return compare_reply(engine, current, gpus, today=today)


def _chosen_gpu(engine: PerfEngine, traffic: Traffic, today: dt.date) -> tuple[str] | None:
    """The GPU the thread's sizing chose (its cheapest option), if any option meets it."""
    options = size(traffic, engine, today=today).options
    return (options[0].gpu,) if options else None


def _alongside(
    engine: PerfEngine,
    current: Traffic,
    edited: Traffic,
    result: FollowUp,
    changed: list[str],
    *,
    today: dt.date,
) -> tuple[Traffic, list[str]]:
    """ "what about H200?" on a sizing over every GPU: H200 beside the GPU it chose."""
    chosen = _chosen_gpu(engine, current, today)
    if chosen is None:
        return edited, changed
    gpus = tuple(dict.fromkeys([*chosen, *result.gpus_named]))
    named = ", ".join(result.gpus_named)
    note = f"gpus: {chosen[0]} (the sizing's choice) and {named} (say 'only {named}' to drop it)"
    return edited.model_copy(update={"gpus": gpus}), [
        note if line.startswith("gpus:") else line for line in changed
    ]


def _moved(
    engine: PerfEngine,
    current: Scenario,
    edited: Scenario,
    result: FollowUp,
    changed: list[str],
    *,
    today: dt.date,
) -> tuple[Scenario, list[str]]:
    """A deployment moved to another GPU or model: at the smallest count that holds the
    model when the thread's count does not (unless a count is said); on another GPU,
    priced at its list price unless a price is said (a given price belongs to the GPU
    it was given for)."""
    if edited.gpu == current.gpu and edited.model == current.model:
        return edited, changed
    changed = list(changed)
    if (
        edited.gpu != current.gpu
        and not result.price_said
        and current.price_per_gpu_hour is not None
    ):
        edited = edited.model_copy(update={"price_per_gpu_hour": None})
        changed.append(
            f"price: ${current.price_per_gpu_hour:.2f} (given for {current.gpu}) -> "
            f"{edited.gpu}'s list price"
        )
    if result.count_said or edited.gpus is None:
        return edited, changed
    if estimate(edited, engine, today=today).fits_memory:
        return edited, changed
    try:
        holds = estimate(edited.model_copy(update={"gpus": None}), engine, today=today).gpus
    except InputError:  # no count of this GPU holds the model: the answer says so
        return edited, changed
    if holds == edited.gpus:  # no count holds it: the answer says what it needs
        return edited, changed
    changed.append(
        f"gpus: {edited.gpus} -> {holds}, the fewest {edited.gpu} that hold the model "
        f"({edited.gpus} do not)"
    )
    return edited.model_copy(update={"gpus": holds}), changed


def _repriced(
    engine: PerfEngine, current: Traffic, edited: Traffic, result: FollowUp, *, today: dt.date
) -> Reply:
    """The thread's fleet as sized, at the new price or utilization: same GPUs, replicas
    and stack; only the prices, $/month, $/M and the API comparison move."""
    reply = answer_question(
        engine,
        current,
        today=today,
        understood=result.understood,
        changed=[
            *result.changed,
            "the same fleet, re-priced (say 'plan for 60% utilization' to size for a utilization)",
        ],
    )
    sizing = reprice(reply.context["sizing"], edited, engine, today=today)
    context = {**reply.context, "sizing": sizing, "actions": actions_for(edited)}
    return replace(reply, context=context, question=edited)


def _save(
    engine: PerfEngine,
    session: Session,
    key: threads.ThreadKey,
    current: Question,
    result: FollowUp,
    *,
    user_id: str,
    clock: Callable[[], datetime],
) -> Reply:
    """Save the thread's question as a quote (the customer defaults to its name), with
    its economics as of today."""
    name = result.quote_name or ""
    customer = result.quote_customer or name
    today = clock().date()
    economics = (
        size(current, engine, today=today)
        if isinstance(current, Traffic)
        else estimate(current, engine, today=today)
    )
    try:
        quote = quotes.save(
            session,
            workspace_id=key.workspace_id,
            channel_id=key.channel_id,
            owner_user_id=user_id or "unknown",
            name=name,
            customer=customer,
            question=current,
            economics=economics,
            as_of=clock().date(),
            clock=clock,
        )
    except StorageError as exc:
        return error_reply(exc)
    return Reply("quote_saved", {"quote": quote}, question=current)


def _question(parsed: Parsed) -> Question | None:
    return parsed.traffic() or parsed.scenario()


def _pinned(question: Question, catalog: Catalog) -> Question:
    """A traffic question's price said without a GPU, moved to the GPU it belongs to
    (``core.pricing.pin_prices``), so the thread keeps it there whatever GPUs follow."""
    return pin_prices(question, catalog) if isinstance(question, Traffic) else question
