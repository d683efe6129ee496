"""Admin data: price-book lines and catalog additions, every change in the audit log.

Every test runs on SQLite and on PostgreSQL. Time comes from a clock the test holds.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from core.catalog import Measurement, Stack
from storage import admin, audit
from storage.errors import Conflict, NotFound, StorageError
from storage.models import AuditEntry, CatalogAddition, PriceBookEntry

NOW = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)
ADMIN = "UADMIN"


def clock() -> dt.datetime:
    return NOW


def measurement(**overrides: Any) -> dict[str, Any]:
    """A record as an admin would paste it from the catalog's measurements file."""
    body: dict[str, Any] = {
        "id": "k3-b300x8-acme-2026-11",
        "model": "kimi-k3",
        "gpu": "b300",
        "gpus": 8,
        "precision": "int4",
        "stack": "vllm",
        "concurrency": 64,
        "phase": "decode",
        "output_tokens_per_s": 2_400.0,
        "date": "2026-11-28",
        "source": {"title": "Acme load test, shared under NDA", "date": "2026-11-28"},
    }
    body.update(overrides)
    return body


STACK = {
    "id": "vllm-acme-fork",
    "name": "vLLM, Acme's fused-MoE fork",
    "engine": "vllm",
    "released": "2026-11-20",
    "sources": [{"title": "Acme engineering blog", "date": "2026-11-20"}],
}


def set_b300_36(session: Session, price: float = 5.0) -> admin.PriceLine:
    return admin.set_price(
        session,
        gpu="b300",
        term_months=36,
        usd_per_gpu_hour=price,
        source="MSA with Acme, 2026-11",
        actor=ADMIN,
        clock=clock,
    )


def rows(session: Session, table: type) -> int:
    return session.scalar(select(func.count()).select_from(table)) or 0


# --- price book -----------------------------------------------------------------------


def test_a_price_line_is_added_listed_and_audited(session):
    line = set_b300_36(session)

    assert admin.prices(session) == [line]
    assert (line.gpu, line.term_months, line.usd_per_gpu_hour) == ("b300", 36, 5.0)
    assert (line.added_by, line.created_at) == (ADMIN, NOW)
    (entry,) = audit.recent(session)
    assert (entry.actor, entry.action, entry.target, entry.at) == (
        ADMIN,
        "price.set",
        "price b300 36 months",
        NOW,
    )
    assert entry.detail["usd_per_gpu_hour"] == 5.0 and entry.detail["previous"] is None


def test_setting_a_price_again_replaces_it_and_audits_the_previous_value(session):
    set_b300_36(session, price=5.0)

    set_b300_36(session, price=4.6)

    assert [line.usd_per_gpu_hour for line in admin.prices(session)] == [4.6]
    latest = audit.recent(session)[0]
    assert latest.detail["usd_per_gpu_hour"] == 4.6
    assert latest.detail["previous"]["usd_per_gpu_hour"] == 5.0


def test_removing_a_price_line_is_audited(session):
    set_b300_36(session)

    gone = admin.remove_price(session, gpu="b300", term_months=36, actor=ADMIN, clock=clock)

    assert gone.usd_per_gpu_hour == 5.0
    assert admin.prices(session) == []
    assert [e.action for e in audit.recent(session)] == ["price.remove", "price.set"]
    with pytest.raises(NotFound):
        admin.remove_price(session, gpu="b300", term_months=36, actor=ADMIN, clock=clock)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("usd_per_gpu_hour", 0.0),
        ("usd_per_gpu_hour", -1.0),
        ("usd_per_gpu_hour", math.nan),
        ("usd_per_gpu_hour", math.inf),
        ("term_months", -12),
        ("term_months", 121),
        ("gpu", " "),
        ("source", "s" * 501),
    ],
)
def test_a_bad_price_line_is_refused_naming_the_field_and_nothing_is_written(session, field, value):
    fields: dict[str, Any] = {
        "gpu": "b300",
        "term_months": 36,
        "usd_per_gpu_hour": 5.0,
        "source": "MSA with Acme, 2026-11",
    }
    fields[field] = value

    with pytest.raises(StorageError) as info:
        admin.set_price(session, **fields, actor=ADMIN, clock=clock)

    assert info.value.field == field
    assert rows(session, PriceBookEntry) == rows(session, AuditEntry) == 0


def test_an_on_demand_price_has_term_zero(session):
    admin.set_price(
        session,
        gpu="h200",
        term_months=0,
        usd_per_gpu_hour=3.5,
        source="list price",
        actor=ADMIN,
        clock=clock,
    )

    assert [(p.gpu, p.term_months) for p in admin.prices(session)] == [("h200", 0)]


# --- catalog additions ----------------------------------------------------------------


def test_a_measurement_and_a_stack_are_added_as_catalog_records_and_audited(session):
    added = admin.add_catalog_entry(
        session, kind="measurement", body=measurement(), actor=ADMIN, clock=clock
    )
    admin.add_catalog_entry(session, kind="stack", body=STACK, actor=ADMIN, clock=clock)

    (listed,) = admin.catalog_additions(session, kind="measurement")
    assert listed == added
    assert isinstance(listed.entry, Measurement)
    assert listed.entry == Measurement.model_validate(measurement())
    assert listed.entry_id == "k3-b300x8-acme-2026-11"
    (stack,) = admin.catalog_additions(session, kind="stack")
    assert isinstance(stack.entry, Stack) and stack.entry.released == dt.date(2026, 11, 20)
    assert [a.kind for a in admin.catalog_additions(session)] == ["measurement", "stack"]
    assert [(e.action, e.target) for e in audit.recent(session)] == [
        ("stack.add", "stack vllm-acme-fork"),
        ("measurement.add", "measurement k3-b300x8-acme-2026-11"),
    ]


def test_an_invalid_record_is_refused_naming_the_field_and_nothing_is_written(session):
    with pytest.raises(StorageError) as info:
        admin.add_catalog_entry(
            session, kind="measurement", body=measurement(gpus=0), actor=ADMIN, clock=clock
        )

    assert info.value.field == "gpus"
    assert rows(session, CatalogAddition) == rows(session, AuditEntry) == 0


def test_adding_the_same_id_twice_is_a_conflict_and_the_first_survives(
    session_factory: sessionmaker[Session],
):
    with session_factory.begin() as session:
        admin.add_catalog_entry(
            session, kind="measurement", body=measurement(), actor=ADMIN, clock=clock
        )
        with pytest.raises(Conflict) as info:
            admin.add_catalog_entry(
                session,
                kind="measurement",
                body=measurement(output_tokens_per_s=9_999.0),
                actor=ADMIN,
                clock=clock,
            )
        assert "remove it first" in (info.value.hint or "")

    with session_factory() as session:
        (kept,) = admin.catalog_additions(session)
        assert isinstance(kept.entry, Measurement)
        assert kept.entry.output_tokens_per_s == 2_400.0
        assert [e.action for e in audit.recent(session)] == ["measurement.add"]


def test_removing_an_addition_is_audited(session):
    admin.add_catalog_entry(session, kind="stack", body=STACK, actor=ADMIN, clock=clock)

    admin.remove_catalog_entry(
        session, kind="stack", entry_id="vllm-acme-fork", actor=ADMIN, clock=clock
    )

    assert admin.catalog_additions(session) == []
    removal = audit.recent(session)[0]
    assert (removal.action, removal.target) == ("stack.remove", "stack vllm-acme-fork")
    assert removal.detail["name"] == STACK["name"]
    with pytest.raises(NotFound):
        admin.remove_catalog_entry(
            session, kind="stack", entry_id="vllm-acme-fork", actor=ADMIN, clock=clock
        )


def test_an_admin_change_and_its_audit_entry_commit_or_roll_back_together(
    session_factory: sessionmaker[Session],
):
    with pytest.raises(RuntimeError), session_factory.begin() as session:
        set_b300_36(session)
        raise RuntimeError("the handler failed after the change")

    with session_factory() as session:
        assert rows(session, PriceBookEntry) == rows(session, AuditEntry) == 0
