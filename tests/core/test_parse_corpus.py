"""The free-text reader on messages it was not written against (tests/core/parse_corpus).

The corpus holds Slack messages in many voices with the fields a careful sales engineer
reads from each; bench/parse_corpus.py scores a reader on it and prints the misses. Here
the same scoring sets the bar: the reader gets at least 95% of the corpus's fields right
and never raises. The corpus itself is checked too, so a typo in an expected id or a
field in the wrong kind's names cannot pass as a parser miss.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from core.catalog import Catalog
from core.parse import Parsed, parse

BENCH = Path(__file__).resolve().parents[2] / "bench" / "parse_corpus.py"


def _scoring() -> ModuleType:
    """bench/ is scripts, not a package: load its scoring module by path, once."""
    name = "leasewise_bench_parse_corpus"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, BENCH)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


scoring = _scoring()
CORPUS = scoring.load_corpus()
TRAFFIC_ONLY = {"output_tokens_per_day", "requests_per_day", "planned_utilization"}
SCENARIO_ONLY = {"gpus", "concurrency", "utilization"}


def test_the_corpus_has_at_least_150_messages_in_at_least_6_voices() -> None:
    voices = {m.voice for m in CORPUS}
    assert len(CORPUS) >= 150, len(CORPUS)
    assert len(voices) >= 6, sorted(voices)


def test_every_expected_id_is_in_the_catalog(catalog: Catalog) -> None:
    tables: dict[str, Any] = {
        "model": catalog.models,
        "gpu": catalog.gpus,
        "precision": catalog.precisions,
    }
    unknown = [
        (m.id, name, m.fields[name])
        for m in CORPUS
        for name, table in tables.items()
        if name in m.fields and m.fields[name] not in table
    ]
    assert unknown == []


def test_every_row_uses_its_kinds_field_names() -> None:
    """Traffic is sized by volume, not by a count or a batch; a scenario has no volume."""
    foreign = {"traffic": SCENARIO_ONLY, "scenario": TRAFFIC_ONLY, "unknown": set()}
    misplaced = [
        (m.id, sorted(set(m.fields) & foreign[m.kind]))
        for m in CORPUS
        if set(m.fields) & foreign[m.kind]
    ]
    assert misplaced == []


def test_no_message_fails(catalog: Catalog) -> None:
    """parse answers every message, whatever it makes of it: a Parsed, never an exception."""
    failed = []
    for message in CORPUS:
        try:
            answer = parse(message.text, catalog)
        except Exception as exc:
            failed.append((message.id, f"{type(exc).__name__}: {exc}"))
        else:
            if not isinstance(answer, Parsed):
                failed.append((message.id, f"returned {type(answer).__name__}"))
    assert failed == []


def test_reads_at_least_95_percent_of_the_corpus_fields(catalog: Catalog) -> None:
    report = scoring.score(CORPUS, lambda text: parse(text, catalog))
    read = report.score
    assert read >= 0.95, (
        f"the reader got {read:.1%} of the corpus's fields ({report.summary()}); "
        "python bench/parse_corpus.py lists the misses"
    )


TUNED = [
    Path(__file__).parent / name
    for name in ("parse_holdout", "parse_dev", "parse_dev2", "parse_dev3", "parse_dev4")
    + ("parse_dev5", "parse_dev6", "parse_dev7", "parse_dev8", "parse_dev9", "parse_dev10")
    + ("parse_dev11", "parse_dev12", "parse_dev13", "parse_dev14", "parse_dev15")
    + ("parse_dev16", "parse_dev17", "parse_dev18", "parse_dev19", "parse_dev20", "parse_dev21")
    + ("parse_dev22", "parse_dev23", "parse_dev24", "parse_dev25", "parse_dev26", "parse_dev27")
    + ("parse_dev28", "parse_dev30", "parse_dev31", "parse_dev32", "parse_dev33", "parse_dev34")
    + ("parse_dev35", "parse_dev36", "parse_dev38", "parse_dev40", "parse_dev42", "parse_dev43")
    + ("parse_dev44", "parse_dev45")
]
"""Sets written blind and scored once, then tuned on: held here so the reader keeps what
it learned from them. ``parse_sealed`` is not: it is scored once a session, never read."""


@pytest.mark.parametrize("folder", TUNED, ids=lambda p: p.name)
def test_the_sets_it_was_tuned_on_stay_read_and_well_formed(folder: Path, catalog: Catalog) -> None:
    messages = scoring.load_corpus(folder)
    unknown = [
        (m.id, name, m.fields[name])
        for m in messages
        for name, table in (("model", catalog.models), ("gpu", catalog.gpus))
        if name in m.fields and m.fields[name] not in table
    ]
    assert unknown == []
    report = scoring.score(messages, lambda text: parse(text, catalog))
    assert report.score >= 0.95 and not report.raised, report.summary()


class _Said:
    """A reader's answer with chosen fields, to check the scoring on its own."""

    def __init__(self, kind: str, fields: dict[str, Any], ambiguities: list[str]) -> None:
        self.kind, self.fields, self.ambiguities = kind, fields, ambiguities
        self.assumed: list[str] = []


def _message(kind: str, **fields: Any) -> Any:
    return scoring.Message(id="t:01", voice="test", text="", kind=kind, fields=fields)


def test_scoring_counts_floats_within_one_percent_and_whole_numbers_exactly() -> None:
    message = _message("traffic", requests_per_day=864000.0, output_tokens=300)
    close = scoring.score(
        [message],
        lambda _: _Said("traffic", {"requests_per_day": 868000.0, "output_tokens": 301}, []),
    )
    assert [c.status for c in close.checks] == ["read", "read", "wrong"]
    assert close.score == pytest.approx(2 / 3)


def test_scoring_takes_a_traffics_gpu_from_its_gpu_tuple() -> None:
    message = _message("traffic", gpu="h200")
    report = scoring.score([message], lambda _: _Said("traffic", {"gpus": ("h200", "b200")}, []))
    assert report.score == 1.0 and report.extras == []


def test_scoring_tells_a_flagged_wrong_value_from_a_silent_one() -> None:
    message = _message("scenario", gpus=16)
    flagged = scoring.score(
        [message], lambda _: _Said("scenario", {"gpus": 8}, ["gpus: read 8, or 16?"])
    )
    silent = scoring.score([message], lambda _: _Said("scenario", {"gpus": 8}, []))
    assert [c.status for c in flagged.checks] == ["read", "flagged"]
    assert [c.status for c in silent.checks] == ["read", "wrong"]


def test_scoring_counts_a_raising_reader_as_missing_every_field() -> None:
    def raising(_: str) -> Any:
        raise RuntimeError("boom")

    report = scoring.score([_message("scenario", gpus=16)], raising)
    assert report.score == 0.0 and report.count("missing") == 2 and len(report.raised) == 1
