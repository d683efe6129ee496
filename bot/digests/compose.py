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
from dataclasses import replace

from sqlalchemy.orm import Session

from bot.digests.runs import Period
from bot.render.charts import before_after_chart
from bot.render.renderer import Chart, Message
from bot.services import Services
from core.changes import Digest, QuoteRef, digest_for
from core.curves import before_after
from core.scenario import Scenario
from core.traffic import Traffic
from storage import quotes
from storage.digests import Subscription
from storage.errors import StorageError

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
    message = services.renderer.message("digest", digest=digest)
    headline = services.renderer.text("digest_headline", digest=digest)
    chart = before_after_chart_of(digest, footnote=headline)
    return message if chart is None else replace(message, charts=(chart,))


CHART_BARS = 8


def before_after_chart_of(digest: Digest, *, footnote: str) -> Chart | None:
    """Cost per M output tokens before and after, for the top movers that have both."""
    pairs = [
        (ref.name[:24], move.usd_per_million_before, move.usd_per_million_after)
        for ref, move in digest.top_moves
        if move.usd_per_million_before is not None and move.usd_per_million_after is not None
    ][:CHART_BARS]
    if not pairs:
        return None
    title = f"Cost per M output tokens, {digest.since} to {digest.until}"
    data = before_after(
        [(name, float(b), float(a)) for name, b, a in pairs],
        unit="$/M output tokens",
        title=title,
        footnote=footnote[:120],
    )
    return Chart(title=title, png=before_after_chart(data))


def _saved(session: Session, workspace_id: str) -> Iterator[tuple[QuoteRef, Scenario | Traffic]]:
    def skipped(exc: StorageError) -> None:
        log.warning("digest: skipped a saved quote that no longer reads: %s", exc.message)

    for quote in quotes.stream_all(session, workspace_id=workspace_id, on_invalid=skipped):
        yield QuoteRef(id=quote.id, name=quote.name, customer=quote.customer), quote.question


def compose(services: Services, subscription: Subscription, period: Period) -> Message | None:
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
