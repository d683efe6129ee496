"""What the digest says: the seed case's figures, regressions, quiet weeks, Slack's limits."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable

from bot.conversation import Reply
from bot.digests.compose import digest_between, render_digest
from bot.render import formats
from bot.render.blockkit import violations
from bot.render.renderer import Message
from bot.services import Services
from core.changes import Digest, QuoteMove, QuoteRef, Trend

Lease = Callable[..., Reply]
SPANNING_THE_DECODE_PATH = {"since": dt.date(2026, 10, 12), "until": dt.date(2026, 10, 19)}


def said(message: Message) -> str:
    """Everything the digest message says: its text and every section, as Slack shows it."""
    sections = [b["text"]["text"] for b in message.blocks if isinstance(b.get("text"), dict)]
    return "\n".join([message.text, *sections])


def save(lease: Lease, name: str, question: str) -> None:
    reply = lease(f"quote save {name} customer=Acme {question}")
    assert reply.template == "quote_saved", reply.context


def test_the_seed_quotes_show_the_write_ups_figures(lease: Lease, desk: Services) -> None:
    """The write-up measured 16 GB300s: quotes on them move exactly as it says."""
    save(lease, "k3-b16", "Kimi K3 on 16x GB300, batch 16, $5/GPU-hour")
    save(lease, "k3-b64", "Kimi K3 on 16x GB300, batch 64, $5/GPU-hour")
    digest = digest_between(desk, "T0001", **SPANNING_THE_DECODE_PATH)
    message = render_digest(desk, digest, weekly_no_change=False)
    assert message is not None
    text = message.text + str(message.blocks)
    assert "$21.61 → $12.64" in text and "$9.98 → $6.16" in text
    assert "decode path" in desk.renderer.text("digest_headline", digest=digest)


def test_each_move_says_its_change_as_read_off_the_prices_it_shows(
    lease: Lease, desk: Services
) -> None:
    """The vLLM write-up's -41% and -38%: 12.64 / 21.61 - 1 is -41.5% and 6.16 / 9.98 - 1 is
    -38.3%; a change is said toward zero, never claiming more than its prices give."""
    save(lease, "k3-b16", "Kimi K3 on 16x GB300, batch 16, $5/GPU-hour")
    save(lease, "k3-b64", "Kimi K3 on 16x GB300, batch 64, $5/GPU-hour")
    digest = digest_between(desk, "T0001", **SPANNING_THE_DECODE_PATH)
    text = said(desk.renderer.message("digest", digest=digest))
    for before, after in ((21.61, 12.64), (9.98, 6.16)):
        cut = math.trunc((after / before - 1) * 100)
        assert f"cost per M output tokens ${before} → ${after} (−{-cut}%)" in text
    assert "served with vLLM Kimi K3 decode path instead of vLLM" in text
    assert "throughput 1,028 → 1,758 tokens/s on the same 16 NVIDIA GB300 (1.71x)" in text
    assert "not measured on this deployment" not in text
    assert "worth $24,241/month on the $58,400/month lease" in text
    assert desk.renderer.text("digest_headline", digest=digest) == (
        "vLLM Kimi K3 decode path cut cost per M output tokens 38-41% on 16-GPU deployments"
    )


def test_a_b300_quote_is_told_its_new_figure_is_an_estimate(lease: Lease, desk: Services) -> None:
    """The leased B300 was not measured: its move is estimated from the GB300 write-up."""
    save(lease, "k3-b16", "Kimi K3 on 16x B300, batch 16, $5/GPU-hour")
    digest = digest_between(desk, "T0001", **SPANNING_THE_DECODE_PATH)
    ((_, move),) = digest.moves
    text = said(desk.renderer.message("digest", digest=digest))
    assert move.usd_per_million_before is not None and move.usd_per_million_after is not None
    shown = f"${move.usd_per_million_before:.2f} → ${move.usd_per_million_after:.2f}"
    assert f"cost per M output tokens {shown}" in text and "$21.61 → $12.64" not in text
    assert move.error_band_after is not None
    assert f"the new figure is estimated ({formats.band(move.error_band_after)})" in text
    assert "not measured on this deployment" in text


def test_a_sized_quote_is_told_its_new_headroom_and_renewal(lease: Lease, desk: Services) -> None:
    save(lease, "k3-traffic", "Kimi K3, 2B output tokens a day, peaks 3x, growing 10% a month, "
         "on B300 at $5/GPU-hour")
    digest = digest_between(desk, "T0001", **SPANNING_THE_DECODE_PATH)
    ((_, move),) = digest.moves
    text = said(desk.renderer.message("digest", digest=digest))
    gained = move.headroom_change_months
    assert gained is not None and gained >= 1
    assert f"lasts {formats.months(gained)} longer at 10%/month growth" in text
    assert move.gpus_before is not None and move.gpus_after is not None
    fewer = move.gpus_before - move.gpus_after
    assert f"needs {fewer:,} fewer GPUs at the next renewal" in text


def test_a_quiet_week_posts_nothing_unless_asked(lease: Lease, desk: Services) -> None:
    save(lease, "k3-b64", "Kimi K3 on 16x B300, batch 64, $5/GPU-hour")
    quiet = digest_between(desk, "T0001", since=dt.date(2026, 11, 16), until=dt.date(2026, 11, 23))
    assert quiet.is_empty
    assert render_digest(desk, quiet, weekly_no_change=False) is None
    line = render_digest(desk, quiet, weekly_no_change=True)
    assert line is not None and "no change" in line.text
    assert "No saved quote moved by more than 5% or $500.00/month (1 checked)" in line.text


def test_a_threshold_is_said_as_it_was_set(desk: Services) -> None:
    quiet = synthetic(1).model_copy(update={"moves": [], "threshold_pct": 7.5})
    assert "more than 7.5% or" in desk.renderer.message("digest_quiet", digest=quiet).text


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
        gpu="b300",
        gpu_name="NVIDIA B300 <!channel>",
        gpus_per_replica=16,
        stack_before="vllm",
        stack_after="vllm-k3-decode",
        stack_before_name="vLLM <!here>",
        stack_after_name="vLLM Kimi K3 decode path " + "& <co> " * 100,
        usd_per_month=58_400,
        usd_per_million_before=9.98,
        usd_per_million_after=6.16,
        tokens_per_s_before=2226.7,
        tokens_per_s_after=3607.5,
        relative_change=-0.38,
        monthly_impact_usd=22_000,
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
        switched_to=["vLLM Kimi K3 decode path <!channel>"],
        trends=[Trend(direction="cheaper", quotes=moves, low=0.38, high=0.38, gpu_sizes=[16])],
    )


def test_the_digest_fits_slack_for_one_and_for_500_quotes(desk: Services) -> None:
    for count in (1, 500):
        message = render_digest(desk, synthetic(count), weekly_no_change=False)
        assert message is not None
        for part in (message, *message.overflow):
            assert violations(part.blocks) == []
            assert "<!channel>" not in part.text + str(part.blocks)
            assert "<!here>" not in part.text + str(part.blocks)
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
            "relative_change": 11.2 / 9.98 - 1,
            "monthly_impact_usd": -58_400 * (11.2 / 9.98 - 1),
            "regression": True,
        }
    )
    regressed = digest.model_copy(
        update={
            "moves": [(ref, worse)],
            "regressions": 1,
            "switched_to": ["vLLM 0.13"],
            "trends": [Trend(direction="dearer", quotes=1, low=0.12, high=0.12, gpu_sizes=[16])],
        }
    )
    message = render_digest(desk, regressed, weekly_no_change=False)
    assert message is not None
    text = message.text + str(message.blocks)
    assert ":warning:" in text and "regression" in text
    assert "cost per M output tokens up 12%: check before quoting" in text  # 11.20 / 9.98
    dearer = formats.usd(58_400 * (11.2 / 9.98 - 1))
    assert f"the same tokens now cost {dearer}/month more" in text
    assert "vLLM 0.13 raised cost per M output tokens 12% on 16-GPU deployments" in text
