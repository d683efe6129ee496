"""The packaged catalog plus what admins added later: stacks, measurements, price lines.

Additions arrive after release (a new vLLM decode path, a negotiated price), so
they are merged onto the packaged catalog rather than edited into its files. An
addition may replace a packaged record of the same id (a corrected measurement);
it must still reference models, GPUs and stacks that exist.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.catalog.catalog import Catalog
from core.catalog.entries import LeasePrice, Measurement, Stack
from core.errors import CatalogError


def with_additions(
    catalog: Catalog,
    *,
    stacks: Iterable[Stack] = (),
    measurements: Iterable[Measurement] = (),
    prices: Iterable[LeasePrice] = (),
) -> Catalog:
    """A new catalog: ``catalog``'s records, then the additions (later ids win).

    Raises:
        CatalogError: an addition references something the catalog lacks.
    """
    stack_table = {s.id: s for s in catalog.stacks}
    stack_table.update((s.id, s) for s in stacks)
    measurement_table = {m.id: m for m in catalog.measurements}
    measurement_table.update((m.id, m) for m in measurements)
    price_table = {(p.gpu, p.term_months): p for p in catalog.prices}
    price_table.update(((p.gpu, p.term_months), p) for p in prices)
    merged = Catalog(
        engine=catalog.engine,
        precisions={p.id: p for p in catalog.precisions},
        gpus={g.id: g for g in catalog.gpus},
        models={m.id: m for m in catalog.models},
        stacks=stack_table,
        measurements=measurement_table,
        prices={p.id: p for p in price_table.values()},
        default_term_months=catalog.default_term_months,
        field_data=catalog.field_data,
        ttft_bands=catalog.ttft_bands,
    )
    for section, rid, field, message in merged.dangling_references():
        raise CatalogError(message, file=f"added {section}", entry=rid, field=field)
    return merged
