"""Slack's side of issue 13's follow-ups: signed events and commands, the fake Slack."""

from __future__ import annotations

from collections.abc import Callable

from bot.services import Services
from storage import quotes, threads
from storage.threads import ThreadKey
from tests.bot.slackapp.test_commands import all_text, answer_to
from tests.bot.slackapp.test_threads import (
    CHANNEL,
    mention,
    message,
    posted,
    posts_once_finished,
    text_of,
)
from tests.fakes.signing import SignedPoster
from tests.fakes.slack_api import FakeSlack


def test_save_this_as_quote_in_a_thread_saves_it_for_whoever_asked(
    poster: SignedPoster, slack: FakeSlack, services: Services
) -> None:
    poster.event(mention("Kimi K3 on 16x B300, batch 16, $5/GPU-hour", "300.1"), event_id="Ev1")
    posted(slack)
    poster.event(message("batch 64", "300.2", thread_ts="300.1"), event_id="Ev2")
    posted(slack, count=2)
    poster.event(
        message("save this as quote acme for Acme Corp", "300.3", thread_ts="300.1"),
        event_id="Ev3",
    )
    saved = posted(slack, count=3)[2]
    assert saved["thread_ts"] == "300.1"
    assert "Saved quote *acme* for Acme Corp" in text_of(saved)
    with services.sessions() as session:
        quote = quotes.get(session, workspace_id="T0001", name="acme")
    assert quote.channel_id == CHANNEL
    assert (quote.name, quote.customer, quote.owner_user_id) == ("acme", "Acme Corp", "U0SALES")
    assert quote.question.model_dump()["concurrency"] == 64


def test_start_over_in_a_thread_then_a_mention_starts_a_new_question(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    poster.event(mention("Kimi K3 on 16x B300, batch 16", "400.1"), event_id="Ev1")
    posted(slack)
    poster.event(message("start over", "400.2", thread_ts="400.1"), event_id="Ev2")
    assert "Started over" in text_of(posted(slack, count=2)[1])
    poster.event(mention("Kimi K3 on 8x H200", "400.3", thread_ts="400.1"), event_id="Ev3")
    fresh = text_of(posted(slack, count=3)[2])
    assert "H200" in fresh and "What changed" not in fresh


def test_after_start_over_a_plain_message_in_the_thread_is_a_new_question(
    poster: SignedPoster, slack: FakeSlack, services: Services, finished: Callable[[], None]
) -> None:
    poster.event(mention("Kimi K3 on 16x B300, batch 16", "410.1"), event_id="Ev1")
    posted(slack)
    poster.event(message("start over", "410.2", thread_ts="410.1"), event_id="Ev2")
    cleared = posted(slack, count=2)[1]
    assert "Started over" in text_of(cleared) and "@leasewise" not in text_of(cleared)
    poster.event(message("thanks", "410.3", thread_ts="410.1"), event_id="Ev3")
    assert posts_once_finished(slack, finished) == 2  # chatter still needs no answer
    poster.event(message("Kimi K3 on 8x H200", "410.4", thread_ts="410.1"), event_id="Ev4")
    fresh = posted(slack, count=3)[2]
    assert fresh["thread_ts"] == "410.1"
    assert "H200" in text_of(fresh) and "What changed" not in text_of(fresh)
    poster.event(message("batch 64", "410.5", thread_ts="410.1"), event_id="Ev5")
    edited = text_of(posted(slack, count=4)[3])
    assert "What changed: concurrency: 1 -&gt; 64" in edited  # the new question, edited
    key = ThreadKey("T0001", CHANNEL, "410.1")
    with services.sessions() as session:
        question = threads.current(session, key)
    assert question is not None and question.model_dump()["gpu"] == "h200"


def test_an_unknown_command_is_ephemeral_and_lists_the_commands(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    body = answer_to(poster, slack, "foo")
    assert body["response_type"] == "ephemeral"
    said = all_text(body)
    assert "`/lease foo` is not a command" in said and "`quote`" in said
