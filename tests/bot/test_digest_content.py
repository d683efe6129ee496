"""What the digest says: the seed case's figures, regressions, quiet weeks, Slack's limits."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from bot.conversation import Reply
from bot.digests.compose import digest_between, render_digest
from bot.render.blockkit import violations
from bot.services import Services
from core.changes import Digest, QuoteMove, QuoteRef

Lease = Callable[..., Reply]
SPANNING_THE_DECODE_PATH = {"since": dt.date(2026, 10, 12), "until": dt.date(2026, 10, 19)}


def save(lease: Lease, name: str, question: str) -> None:
    reply = lease(f"quote save {name} customer=Acme {question}")
    assert reply.template == "quote_saved", reply.context


def test_the_seed_quotes_show_the_write_ups_figures(lease: Lease, desk: Services) -> None:
    save(lease, "k3-b16", "Kimi K3 on 16x B300, batch 16, $5/GPU-hour")
    save(lease, "k3-b64", "Kimi K3 on 16x B300, batch 64, $5/GPU-hour")
    digest = digest_between(desk, "T0001", **SPANNING_THE_DECODE_PATH)
    message = render_digest(desk, digest, weekly_no_change=False)
    assert message is not None
    text = message.text + str(message.blocks)
    assert "$21.61 → $12.64" in text and "$9.98 → $6.16" in text
    assert "decode path" in digest.headline


def test_a_quiet_week_posts_nothing_unless_asked(lease: Lease, desk: Services) -> None:
    save(lease, "k3-b64", "Kimi K3 on 16x B300, batch 64, $5/GPU-hour")
    quiet = digest_between(desk, "T0001", since=dt.date(2026, 11, 16), until=dt.date(2026, 11, 23))
    assert quiet.is_empty
    assert render_digest(desk, quiet, weekly_no_change=False) is None
    line = render_digest(desk, quiet, weekly_no_change=True)
    assert line is not None and "no change" in line.text


def test_preview_shows_the_channels_digest_privately(lease: Lease) -> None:
    save(lease, "k3-b16", "Kimi K3 on 16x B300, batch 16, $5/GPU-hour")
    reply = lease("digest preview since=2026-10-12 until=2026-10-19")
    assert reply.template == "digest" and reply.ephemeral
    assert lease("digest preview since=2026-10-19 until=2026-10-12").template == "error"


def synthetic(moves: int) -> Digest:
    move = QuoteMove(
        kind="scenario",
        before=dt.date(2026, 10, 12),
        after=dt.date(2026, 10, 19),
        deployment="16 NVIDIA B300 <!channel>",
        usd_per_million_before=9.98,
        usd_per_million_after=6.16,
        relative_change=-0.38,
        monthly_impact_usd=22_000,
        what_it_means=["cost per M output tokens $9.98 -> $6.16 (-38%)" * 3],
    )
    ref = QuoteRef(id=1, name="acme & <co> " * 20, customer="Acme *bold* :rocket: " * 20)
    return Digest(
        since=dt.date(2026, 10, 12),
        until=dt.date(2026, 10, 19),
        threshold_pct=5,
        threshold_usd=500,
        changes=[],
        moves=[(ref, move)] * moves,
        quotes_checked=moves,
        regressions=0,
        errors=0,
        headline="vLLM Kimi K3 decode path cut cost per M output tokens 38% on 16-GPU deployments",
    )


def test_the_digest_fits_slack_for_one_and_for_500_quotes(desk: Services) -> None:
    for count in (1, 500):
        message = render_digest(desk, synthetic(count), weekly_no_change=False)
        assert message is not None
        for part in (message, *message.overflow):
            assert violations(part.blocks) == []
            assert "<!channel>" not in part.text + str(part.blocks)
        if count == 500:
            assert len(message.overflow) >= 1  # the full list goes to the thread


def test_the_digest_list_fits_slack_with_many_channels(lease: Lease, desk: Services) -> None:
    for n in range(120):
        lease(f"digest subscribe <#C{n:05d}> friday 4pm UTC")
    reply = lease("digest list")
    message = desk.renderer.message(reply.template, **reply.context)
    for part in (message, *message.overflow):
        assert violations(part.blocks) == []


def test_the_admin_form_is_a_valid_modal(desk: Services) -> None:
    view = desk.renderer.view("admin_add_modal")
    assert view["callback_id"] == "admin_add"


def test_a_regression_is_flagged_in_the_digest(desk: Services) -> None:
    digest = synthetic(1)
    ref, move = digest.moves[0]
    worse = move.model_copy(
        update={
            "usd_per_million_after": 11.2,
            "relative_change": 0.12,
            "regression": True,
            "what_it_means": ["cost per M output tokens up 12%: check before quoting"],
        }
    )
    regressed = digest.model_copy(
        update={
            "moves": [(ref, worse)],
            "regressions": 1,
            "headline": "vLLM 0.13 raised cost per M output tokens 12%",
        }
    )
    message = render_digest(desk, regressed, weekly_no_change=False)
    assert message is not None
    text = message.text + str(message.blocks)
    assert ":warning:" in text and "regression" in text and "check before quoting" in text
