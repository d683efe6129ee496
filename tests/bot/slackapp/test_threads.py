"""@mentions answer in a thread; follow-ups in the thread edit its question; each event once."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tests.fakes.signing import SignedPoster
from tests.fakes.slack_api import BOT_USER_ID, FakeSlack

CHANNEL = "C0DEALS"


def mention(text: str, ts: str, *, thread_ts: str | None = None) -> dict[str, Any]:
    event = {
        "type": "app_mention",
        "user": "U0SALES",
        "text": f"<@{BOT_USER_ID}> {text}",
        "ts": ts,
        "channel": CHANNEL,
        "event_ts": ts,
    }
    if thread_ts:
        event["thread_ts"] = thread_ts
    return event


def message(text: str, ts: str, *, thread_ts: str | None, **extra: Any) -> dict[str, Any]:
    event = {
        "type": "message",
        "channel_type": "channel",
        "user": "U0SALES",
        "text": text,
        "ts": ts,
        "channel": CHANNEL,
        "event_ts": ts,
        **extra,
    }
    if thread_ts:
        event["thread_ts"] = thread_ts
    return event


def posted(slack: FakeSlack, count: int = 1) -> list[dict[str, Any]]:
    """The answers posted (not the details each posts in its thread after it)."""
    return [c.body for c in slack.wait_for_answers("chat.postMessage", count=count)]


def text_of(body: dict[str, Any]) -> str:
    return body.get("text", "") + json.dumps(body.get("blocks", []))


def posts_once_finished(slack: FakeSlack, finished: Callable[[], None]) -> int:
    """How many messages the app posted, once it has done everything it was handed."""
    finished()
    return len(slack.answers("chat.postMessage"))


def test_a_mention_is_answered_in_a_thread(poster: SignedPoster, slack: FakeSlack) -> None:
    response = poster.event(mention("Kimi K3 on 16x B300, batch 64, $5/GPU-hour", "100.1"))
    assert response.status_code == 200
    reply = posted(slack)[0]
    assert reply["channel"] == CHANNEL and reply["thread_ts"] == "100.1"
    assert "$" in text_of(reply)


def test_a_follow_up_edits_the_threads_question_and_says_what_changed(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    poster.event(mention("Kimi K3 on 16x B300, batch 16, $5/GPU-hour", "200.1"), event_id="Ev1")
    posted(slack)
    poster.event(message("batch 64", "200.2", thread_ts="200.1"), event_id="Ev2")
    edited = posted(slack, count=2)[1]
    assert edited["thread_ts"] == "200.1"
    assert "concurrency: 16 -&gt; 64" in text_of(edited)  # Slack shows "->"
    poster.event(message("undo", "200.3", thread_ts="200.1"), event_id="Ev3")
    undone = posted(slack, count=3)[2]
    assert "undid" in text_of(undone)


def test_a_mention_arriving_as_two_events_is_answered_once(
    poster: SignedPoster, slack: FakeSlack, finished: Callable[[], None]
) -> None:
    poster.event(mention("Kimi K3 on 8x B300", "300.1"), event_id="EvA")
    poster.event(
        message(f"<@{BOT_USER_ID}> Kimi K3 on 8x B300", "300.1", thread_ts=None), event_id="EvB"
    )
    posted(slack)
    assert posts_once_finished(slack, finished) == 1


def test_a_retried_event_is_processed_once(
    poster: SignedPoster, slack: FakeSlack, finished: Callable[[], None]
) -> None:
    event = mention("Kimi K3 on 8x B300", "400.1")
    poster.event(event, event_id="EvR")
    posted(slack)
    retry = poster.event(event, event_id="EvR", retry_num=1, retry_reason="http_timeout")
    assert retry.status_code == 200
    assert posts_once_finished(slack, finished) == 1


def test_the_bot_ignores_its_own_and_other_bots_messages(
    poster: SignedPoster, slack: FakeSlack, finished: Callable[[], None]
) -> None:
    poster.event(mention("Kimi K3 on 8x B300", "500.1"), event_id="Ev5")
    posted(slack)
    poster.event(
        message("batch 64", "500.2", thread_ts="500.1", bot_id="B0OTHER", subtype="bot_message"),
        event_id="Ev6",
    )
    poster.event(
        message("batch 64", "500.3", thread_ts="500.1", user=BOT_USER_ID), event_id="Ev7"
    )
    assert posts_once_finished(slack, finished) == 1


def test_chatter_outside_leasewise_threads_is_left_alone(
    poster: SignedPoster, slack: FakeSlack, finished: Callable[[], None]
) -> None:
    poster.event(message("batch 64", "600.2", thread_ts="600.1"), event_id="Ev8")
    poster.event(message("Kimi K3 on 8x B300", "600.3", thread_ts=None), event_id="Ev9")
    assert posts_once_finished(slack, finished) == 0


def test_an_unhandled_event_type_is_acknowledged(poster: SignedPoster) -> None:
    response = poster.event(
        {"type": "reaction_added", "user": "U1", "reaction": "+1", "event_ts": "1.2"},
        event_id="EvX",
    )
    assert response.status_code == 200


def test_a_thread_answer_that_slack_rate_limits_is_retried(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    slack.rate_limit_next("chat.postMessage", retry_after=1)
    poster.event(mention("Kimi K3 on 8x B300", "700.1"), event_id="EvL")
    calls = slack.wait_for("chat.postMessage", count=2, timeout=10)
    assert calls[1].body["thread_ts"] == "700.1"


def test_an_answer_waiting_out_a_rate_limit_does_not_hold_up_other_threads(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    slack.rate_limit_next("chat.postMessage", retry_after=2)
    poster.event(mention("Kimi K3 on 8x B300", "800.1"), event_id="EvSlow")
    slack.wait_for("chat.postMessage")  # the first attempt, answered 429
    poster.event(mention("Kimi K3 on 16x B300", "900.1"), event_id="EvFast")
    calls = slack.wait_for_answers("chat.postMessage", count=3, timeout=10)
    assert [c.body["thread_ts"] for c in calls] == ["800.1", "900.1", "800.1"]
