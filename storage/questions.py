"""Questions and their answers as JSON, validated by the core's models both ways.

A row holds a question the engine accepts when it is written, and is checked
again when it is read: a row written by an older release (or by hand) that the
current models reject becomes a StorageError naming the row and the field, never
a half-built object deep inside a handler.

Answers (Estimate, Sizing) are stored at full precision. Their published JSON
rounds to six significant digits for people; the digest compares stored numbers
with fresh ones, and that comparison should not see rounding as a change.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import to_jsonable_python

from core.questions import Economics, Kind, Question, kind_of
from core.scenario import Estimate, Scenario
from core.sizing import Sizing
from core.traffic import Traffic
from storage.errors import StorageError

__all__ = [
    "Economics",
    "Question",
    "decode_economics",
    "decode_question",
    "describe",
    "encode_economics",
    "encode_question",
]
M = TypeVar("M")
B = TypeVar("B", bound=BaseModel)

_QUESTIONS: dict[str, type[Scenario] | type[Traffic]] = {"scenario": Scenario, "traffic": Traffic}
_ECONOMICS: dict[str, type[Estimate] | type[Sizing]] = {"scenario": Estimate, "traffic": Sizing}


def encode_question(question: Question) -> tuple[Kind, dict[str, Any], Question]:
    """The question's kind, its JSON, and the question as it will read back.

    Raises:
        StorageError: (field "question") if the question would not validate again,
            e.g. one assembled with ``model_construct``.
    """
    kind = kind_of(question)
    data = question.model_dump(mode="json")
    try:
        return kind, data, _QUESTIONS[kind].model_validate(data)
    except ValidationError as exc:
        raise StorageError(
            f"the {kind} cannot be saved: {describe(exc)}",
            field="question",
            hint="correct the field named and save again",
        ) from exc


def encode_economics(economics: Economics, *, kind: Kind) -> tuple[dict[str, Any], Economics]:
    """The answer's JSON (full precision) and the answer as it will read back.

    Raises:
        StorageError: (field "economics") if the answer does not belong to a question
            of ``kind`` (a Sizing for a Scenario), or holds a number JSON cannot carry.
    """
    expected = _ECONOMICS[kind]
    if not isinstance(economics, expected):
        raise StorageError(
            f"a {kind} is answered by {expected.__name__}, not {type(economics).__name__}",
            field="economics",
            hint="save the answer computed for this question",
        )
    data: dict[str, Any] = to_jsonable_python(economics.model_dump())
    try:
        json.dumps(data, allow_nan=False)
    except ValueError as exc:
        raise StorageError(
            "the answer holds a number that is not finite (NaN or infinity)",
            field="economics",
            hint="recompute the answer; the engine should never return one",
        ) from exc
    return data, economics


def decode_question(kind: str, data: dict[str, Any], *, where: str) -> Question:
    """The stored question, validated; ``where`` names the row for the error message."""
    return _validate(_model(_QUESTIONS, kind, where=where), data, where=where, field="question")


def decode_economics(kind: str, data: dict[str, Any], *, where: str) -> Economics:
    """The stored answer, validated; ``where`` names the row for the error message."""
    return _validate(_model(_ECONOMICS, kind, where=where), data, where=where, field="economics")


def _model(models: dict[str, M], kind: str, *, where: str) -> M:
    model = models.get(kind)
    if model is None:
        raise StorageError(
            f"{where} is of unknown kind {kind!r} (expected one of {', '.join(models)})",
            field="kind",
            hint="the row was written by another version of leasewise; save it again",
        )
    return model


def _validate(model: type[B], data: dict[str, Any], *, where: str, field: str) -> B:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise StorageError(
            f"{where} holds a {field} this version cannot read: {describe(exc)}",
            field=field,
            hint="the row was written by another version of leasewise; save it again",
        ) from exc


def describe(exc: ValidationError) -> str:
    """The first problem as "field: message", and how many more there are."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"]) or "value"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first['msg']}{more}"
