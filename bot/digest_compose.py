"""What a channel's digest says: its workspace's saved quotes, re-priced across a period.

The scheduler asks for one subscription's period; ``/lease digest preview`` asks
for the week up to now. Quotes stream from the database in batches (bounded
memory); one that no longer validates is skipped and counted in the log, so a
stale row never silences everyone's digest.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator

from sqlalchemy.orm import Session

from bot.digest_runs import Period
from bot.rendering import Message
from bot.services import Services
from core.changes import Digest, QuoteRef, digest_for
from core.scenario import Scenario
from core.traffic import Traffic
from storage import quotes
from storage.errors import StorageError
from storage.models import DigestSubscription

log = logging.getLogger("leasewise.digest")
DEFAULT_PCT, DEFAULT_USD = 5.0, 500.0


def digest_between(
    services: Services,
    workspace_id: str,
    *,
    since: dt.date,
    until: dt.date,
    threshold_pct: float = DEFAULT_PCT,
    threshold_usd: float = DEFAULT_USD,
) -> Digest:
    engine = services.engines.current()
    with services.sessions() as session:
        return digest_for(
            _saved(session, workspace_id),
            engine,
            since=since,
            until=until,
            threshold_pct=threshold_pct,
            threshold_usd=threshold_usd,
        )


def render_digest(services: Services, digest: Digest, *, weekly_no_change: bool) -> Message | None:
    """The digest message; for a quiet period, a "no change" line only if asked for."""
    if digest.is_empty:
        if not weekly_no_change:
            return None
        return services.renderer.message("digest_quiet", digest=digest)
    return services.renderer.message("digest", digest=digest)


def _saved(session: Session, workspace_id: str) -> Iterator[tuple[QuoteRef, Scenario | Traffic]]:
    def skipped(exc: StorageError) -> None:
        log.warning("digest: skipped a saved quote that no longer reads: %s", exc.message)

    for quote in quotes.stream_all(session, workspace_id=workspace_id, on_invalid=skipped):
        yield QuoteRef(id=quote.id, name=quote.name, customer=quote.customer), quote.question


def compose(services: Services, subscription: DigestSubscription, period: Period) -> Message | None:
    """The scheduler's composer: one subscription's period, at its own thresholds."""
    digest = digest_between(
        services,
        subscription.workspace_id,
        since=period.since,
        until=period.until,
        threshold_pct=subscription.threshold_pct,
        threshold_usd=subscription.threshold_usd,
    )
    return render_digest(services, digest, weekly_no_change=subscription.weekly_no_change)
