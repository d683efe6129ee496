"""Which serving stack answers a question: the one asked for, or the best known that day.

"Best" is the newest stack that supersedes the others, among those with the
closest evidence for this model and GPU; sizing and single estimates both ask here.
"""

from __future__ import annotations

import datetime as dt

from core.catalog import Gpu, Model, Precision, Stack
from core.errors import InputError
from core.perf.engine import PerfEngine


def candidate_stacks(
    engine: PerfEngine,
    model: Model,
    gpu: Gpu,
    precision: Precision,
    *,
    stack: str | None,
    as_of: dt.date | None,
) -> list[Stack]:
    """The stack asked for (checked), or the credible stacks known on ``as_of``."""
    catalog = engine.catalog
    serving = catalog.stacks_for(model=model.id, gpu=gpu.id, precision=precision.id, as_of=None)
    if stack is not None:
        chosen = catalog.stacks.get(stack, field_name="stack")
        if chosen not in serving:
            raise InputError(
                f"{chosen.name} does not serve {model.name} at {precision.name} on {gpu.name}",
                field="stack",
                hint=f"try one of: {', '.join(s.id for s in serving) or 'none known'}",
            )
        if as_of is not None and chosen.released > as_of:
            raise InputError(
                f"{chosen.name} was released {chosen.released}, after as_of {as_of}",
                field="as_of",
                hint=f"use as_of={chosen.released} or later, or leave stack out",
            )
        return [chosen]
    known = [s for s in serving if as_of is None or s.released <= as_of]
    if not known:
        when = f" as of {as_of}" if as_of else ""
        raise InputError(
            f"no serving stack known for {model.name} at {precision.name} on {gpu.name}{when}",
            field="precision" if not serving else "as_of",
            hint=_stack_hint(serving, model),
        )
    return _credible(known, engine, model, gpu)


def _credible(known: list[Stack], engine: PerfEngine, model: Model, gpu: Gpu) -> list[Stack]:
    """Stacks worth comparing for "the best stack known".

    None that a newer candidate supersedes; then only those with the closest
    evidence (measured serving this model, else on this GPU, else measured at
    all), because the fastest of several unmeasured rooflines is the most
    optimistic guess, not the best stack.
    """
    superseded = {s.supersedes for s in known}
    current = [s for s in known if s.id not in superseded]
    calibration = [m for m in engine.catalog.measurements if m.role == "calibration"]
    for evidence in (
        {m.stack for m in calibration if m.model == model.id},
        {m.stack for m in calibration if m.runs_as(gpu.id)},
        {m.stack for m in calibration},
    ):
        proven = [s for s in current if s.id in evidence]
        if proven:
            return proven
    return current


def _stack_hint(serving: list[Stack], model: Model) -> str:
    if serving:
        first = min(s.released for s in serving)
        return f"the earliest stack for this deployment was released {first}; use as_of={first}"
    return f"try {model.name}'s native precision: precision={model.native_precisions[0]}"
