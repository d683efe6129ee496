"""``/lease`` subcommands, without Slack: the reply each gives, and what they store."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.commands.digests import read_schedule
from bot.commands.dispatch import HANDLERS
from bot.conversation import Reply
from bot.services import Services
from storage import audit
from tests.bot.people import ADMIN

Lease = Callable[..., Reply]


def test_unknown_word_is_read_as_a_question(lease: Lease) -> None:
    reply = lease("Kimi K3 on 16x B300, batch 64")
    assert reply.template == "estimate"


def test_a_typo_in_a_subcommand_gets_a_did_you_mean(lease: Lease) -> None:
    reply = lease("sizee")
    assert reply.template == "unknown_command" and reply.ephemeral
    assert (reply.context["word"], reply.context["close"]) == ("sizee", "size")


def test_a_typo_before_part_of_a_question_is_an_unknown_command(lease: Lease) -> None:
    reply = lease("qoute Kimi K3")
    assert reply.template == "unknown_command" and reply.context["close"] == "quote"


def test_a_typo_before_a_whole_question_is_read_as_prose(lease: Lease) -> None:
    assert lease("coast Kimi K3 on 16x B300, batch 64").template == "estimate"


def test_text_that_reads_as_nothing_is_an_unknown_command(lease: Lease) -> None:
    reply = lease("foo bar")
    assert reply.template == "unknown_command" and reply.context["close"] is None


def test_size_refuses_a_deployment_and_says_why(lease: Lease) -> None:
    reply = lease("size Kimi K3 on 8x B300")
    assert reply.template == "needs_more"
    assert "needs traffic to size" in reply.context["missing"][0]


def test_compare_puts_each_gpu_side_by_side_cheapest_per_token_first(
    lease: Lease, desk: Services
) -> None:
    reply = lease("compare Kimi K3 on B300 vs A100, batch 16")
    assert reply.template == "compare"
    gpus = [e.gpu for e in reply.context["estimates"]]
    assert set(gpus) == {"b300", "a100-80gb"}
    costs = [e.usd_per_million_output_tokens for e in reply.context["estimates"]]
    assert costs == sorted(costs)
    (contrast,) = reply.context["contrasts"]
    assert contrast.cheaper_per_token.usd_per_million_output_tokens == costs[0]
    assert "dearer per token" in desk.renderer.message("compare", **reply.context).text


def test_digest_subscribe_defaults_to_the_subscribers_time_zone(lease: Lease) -> None:
    reply = lease("digest subscribe")
    subscription = reply.context["subscription"]
    assert (subscription.day_of_week, subscription.hour) == (0, 9)
    assert subscription.timezone == "Europe/Berlin"
    assert subscription.channel_id == "C0DEALS"


def test_digest_subscribe_list_unsubscribe(lease: Lease) -> None:
    lease("digest subscribe <#C0OTHER|other> friday 4pm America/New_York 10% $1,000 weekly")
    listed = lease("digest list")
    (subscription,) = listed.context["subscriptions"]
    assert (subscription.day_of_week, subscription.hour) == (4, 16)
    assert subscription.threshold_pct == 10 and subscription.threshold_usd == 1000
    assert subscription.weekly_no_change
    gone = lease("digest unsubscribe <#C0OTHER>")
    assert gone.context["was_subscribed"] is True
    assert lease("digest list").context["subscriptions"] == []


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("digest subscribe Mars/Olympus", "timezone"),
        ("digest subscribe fortnightly", "digest"),
        ("digest subscribe 5x%", "threshold_pct"),
    ],
)
def test_a_bad_schedule_is_an_error_naming_the_field(lease: Lease, text: str, field: str) -> None:
    reply = lease(text)
    assert reply.template == "error" and reply.context["field"] == field


def test_schedule_words_in_any_order() -> None:
    schedule = read_schedule("9am wed UTC 2.5%")
    assert (schedule.day, schedule.hour, schedule.timezone, schedule.pct) == (2, 9, "UTC", 2.5)


def test_admin_price_is_audited_and_used(lease: Lease, desk: Services) -> None:
    done = lease('admin price set b300 36 4.10 source="MSA with Acme"', user=ADMIN)
    assert done.template == "admin_done"
    sizing = lease("size Kimi K3, 2B output tokens a day, on B300").context["sizing"]
    assert sizing.options[0].price_per_gpu_hour == pytest.approx(4.10)
    with desk.sessions() as session:
        (entry,) = audit.recent(session)
    assert (entry.actor, entry.action) == (ADMIN, "price.set")


def test_admin_price_for_an_unknown_gpu_is_refused_with_a_suggestion(lease: Lease) -> None:
    reply = lease('admin price set b3000 36 4 source="x"', user=ADMIN)
    assert reply.template == "error" and "b300" in (reply.context["hint"] or "")


def test_a_catalog_addition_naming_an_unknown_model_is_rolled_back(
    lease: Lease, desk: Services
) -> None:
    body = (
        "{id: m-bad, model: kimi-k9, gpu: b300, gpus: 8, precision: mxfp4, stack: vllm, "
        "concurrency: 16, output_tokens_per_s: 900, source: {title: test run, date: 2026-11-20}}"
    )
    reply = lease(f"admin add measurement {body}", user=ADMIN)
    assert reply.template == "error"
    with desk.sessions() as session:
        assert audit.recent(session) == []


def test_non_admins_are_refused(lease: Lease) -> None:
    assert lease("admin audit").template == "admin_refused"


def help_examples(desk: Services) -> list[str]:
    """Every "e.g." line of /lease help and of each command's own help."""
    marker, examples = "e.g. /lease ", []
    for topic in (None, *HANDLERS):
        text = desk.renderer.message("help", command="/lease", topic=topic).console_text()
        examples += [line.split(marker, 1)[1] for line in text.splitlines() if marker in line]
    return list(dict.fromkeys(examples))


def test_every_example_in_help_works(lease: Lease, desk: Services) -> None:
    """A sales engineer copies an example from /lease help: it must answer, not err."""
    examples = help_examples(desk)
    assert len(examples) >= 8
    for example in examples:
        reply = lease(example, user=ADMIN)
        assert reply.template not in ("error", "needs_more", "apology"), (example, reply.context)


def test_compare_for_traffic_sizes_it_on_every_gpu(lease: Lease) -> None:
    reply = lease("compare Kimi K3, 2B output tokens a day, peaks 3x")
    assert reply.template == "sizing"
    assert len({o.gpu for o in reply.context["sizing"].options}) > 1
