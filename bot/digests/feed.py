"""Adding serving changes to the catalog: validated whole, audited, then live.

Both doors use this: ``/lease admin add`` (one record) and ``leasewise import FILE``
(a YAML file shaped like ``core/data``). Additions are written in one transaction
with their audit entries, after checking that the merged catalog still holds
together (every model, GPU and stack named exists), so a bad file adds nothing.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from core.catalog.additions import with_additions
from core.catalog.catalog import Catalog
from core.catalog.entries import Measurement, Stack
from core.errors import CatalogError, InputError
from storage import admin


def add_entries(
    session: Session,
    base: Catalog,
    *,
    stacks: list[Stack],
    measurements: list[Measurement],
    actor: str,
) -> list[str]:
    """Add the entries in the caller's transaction; their ids, stacks first.

    Raises:
        InputError: the merged catalog would reference something unknown (the caller
            rolls back, so nothing is added).
        StorageError/Conflict: an entry of that id was already added.
    """
    added: list[str] = []
    for stack in stacks:
        body = stack.model_dump(mode="json", exclude_unset=True)
        record = admin.add_catalog_entry(session, kind="stack", body=body, actor=actor)
        added.append(f"stack {record.entry_id}")
    for measurement in measurements:
        body = measurement.model_dump(mode="json", exclude_unset=True)
        record = admin.add_catalog_entry(session, kind="measurement", body=body, actor=actor)
        added.append(f"measurement {record.entry_id}")
    check_merged(session, base)
    return added


def check_merged(session: Session, base: Catalog) -> None:
    additions = admin.catalog_additions(session)
    try:
        with_additions(
            base,
            stacks=[a.entry for a in additions if isinstance(a.entry, Stack)],
            measurements=[a.entry for a in additions if isinstance(a.entry, Measurement)],
        )
    except CatalogError as exc:
        raise InputError(
            f"the addition does not fit the catalog: {exc}",
            field=exc.field,
            hint="`leasewise catalog models|gpus|stacks` list the known ids",
        ) from exc
