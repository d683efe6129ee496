"""Buttons, the quote modal and App Home, clicked the way Slack sends clicks."""

from __future__ import annotations

import json
from typing import Any

from bot.services import Services
from tests.bot.people import ADMIN
from tests.fakes.signing import SignedPoster
from tests.fakes.slack_api import BOT_USER_ID, Call, FakeSlack, is_details

CHANNEL = "C0DEALS"


def ask_in_thread(poster: SignedPoster, slack: FakeSlack, text: str) -> dict[str, Any]:
    """Mention the bot; the answer it posted (with its buttons)."""
    poster.event(
        {
            "type": "app_mention",
            "user": "U0SALES",
            "text": f"<@{BOT_USER_ID}> {text}",
            "ts": "100.1",
            "channel": CHANNEL,
            "event_ts": "100.1",
        },
        event_id="EvAsk",
    )
    # the answer, then its details in the thread: both posted before anything is clicked
    answer, details = (c.body for c in slack.wait_for("chat.postMessage", count=2)[:2])
    assert is_details(details) and not is_details(answer)
    return answer


def button(answer: dict[str, Any], action_id: str) -> dict[str, Any]:
    for block in answer["blocks"]:
        for element in block.get("elements", []):
            if element.get("action_id") == action_id:
                return dict(element)
    raise AssertionError(f"no {action_id} button in {json.dumps(answer['blocks'])[:500]}")


def click(
    poster: SignedPoster, slack: FakeSlack, answer: dict[str, Any], action_id: str
) -> Any:
    pressed = button(answer, action_id)
    payload = {
        "type": "block_actions",
        "user": {"id": "U0SALES", "team_id": "T0001"},
        "api_app_id": "A0LEASE",
        "token": "verification-token",
        "container": {
            "type": "message",
            "message_ts": "100.2",
            "channel_id": CHANNEL,
            "is_ephemeral": False,
            "thread_ts": "100.1",
        },
        "trigger_id": "1.2.3",
        "team": {"id": "T0001", "domain": "acme"},
        "channel": {"id": CHANNEL, "name": "deals"},
        "message": {"ts": "100.2", "thread_ts": "100.1", "text": answer["text"]},
        "response_url": slack.response_url("click"),
        "actions": [
            {
                "action_id": action_id,
                "block_id": "actions",
                "value": pressed.get("value", ""),
                "type": "button",
                "action_ts": "1700000000.1",
            }
        ],
    }
    response = poster.interaction(payload)
    assert response.status_code == 200
    return response


def submit(poster: SignedPoster, view: dict[str, Any], values: dict[str, str]) -> Any:
    state: dict[str, Any] = {}
    for block_id, value in values.items():
        state[block_id] = {block_id: {"type": "plain_text_input", "value": value}}
    for block_id in ("model", "gpu", "term_months"):
        if block_id in values:
            option = {"text": {"type": "plain_text", "text": values[block_id]}}
            state[block_id] = {
                block_id: {
                    "type": "static_select",
                    "selected_option": {**option, "value": values[block_id]},
                }
            }
    payload = {
        "type": "view_submission",
        "team": {"id": "T0001", "domain": "acme"},
        "user": {"id": "U0SALES", "team_id": "T0001"},
        "api_app_id": "A0LEASE",
        "token": "verification-token",
        "trigger_id": "1.2.3",
        "view": {
            **view,
            "id": "V0QUOTE",
            "team_id": "T0001",
            "state": {"values": state},
        },
    }
    return poster.interaction(payload)


def dm_to(slack: FakeSlack, user: str) -> dict[str, Any]:
    """The message the app sent to ``user`` directly (after the thread's answers)."""

    def to_user(call: Call) -> bool:
        return call.method == "chat.postMessage" and call.body.get("channel") == user

    calls = slack.wait_until(lambda calls: any(map(to_user, calls)), f"a message to {user}")
    return next(call.body for call in calls if to_user(call))


DEPLOYMENT = "Kimi K3 on 16x B300, batch 64, $5/GPU-hour, API at $15/M output"
TRAFFIC = "Kimi K3, 2B output tokens a day, peaks 3x, grows 10% a month, on B300"


def test_show_chart_uploads_a_png_into_the_thread(poster: SignedPoster, slack: FakeSlack) -> None:
    answer = ask_in_thread(poster, slack, DEPLOYMENT)
    click(poster, slack, answer, "show_chart")
    complete = slack.wait_for("files.completeUploadExternal", timeout=15)[0].body
    assert complete["channel_id"] == CHANNEL and complete["thread_ts"] == "100.1"
    (png,) = slack.uploads.values()
    assert png.startswith(b"\x89PNG")


def test_growth_chart_for_a_sizing(poster: SignedPoster, slack: FakeSlack) -> None:
    answer = ask_in_thread(poster, slack, TRAFFIC)
    click(poster, slack, answer, "show_chart")
    slack.wait_for("files.completeUploadExternal", timeout=15)
    assert next(iter(slack.uploads.values())).startswith(b"\x89PNG")


def test_compare_gpus_answers_in_the_thread(poster: SignedPoster, slack: FakeSlack) -> None:
    answer = ask_in_thread(poster, slack, DEPLOYMENT)
    click(poster, slack, answer, "compare_gpus")
    compared = slack.wait_for_answers("chat.postMessage", count=2)[1].body
    assert compared["thread_ts"] == "100.1"
    assert "h200" in (compared["text"] + json.dumps(compared["blocks"])).lower()


def test_share_posts_the_answer_to_the_channel(poster: SignedPoster, slack: FakeSlack) -> None:
    answer = ask_in_thread(poster, slack, DEPLOYMENT)
    click(poster, slack, answer, "share_answer")
    shared = slack.wait_for_answers("chat.postMessage", count=2)[1].body
    assert shared["channel"] == CHANNEL and "thread_ts" not in shared
    assert "Shared by <@U0SALES>" in shared["text"]  # a mention, not escaped text
    assert "Shared by <@U0SALES>" in json.dumps(shared["blocks"])


def test_save_as_quote_opens_the_modal_and_a_valid_submission_saves(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    answer = ask_in_thread(poster, slack, DEPLOYMENT)
    click(poster, slack, answer, "save_quote")
    view = slack.wait_for("views.open")[0].body["view"]
    assert view["callback_id"] == "quote_modal"
    response = submit(
        poster,
        view,
        {
            "name": "acme-q3",
            "customer": "Acme",
            "model": "kimi-k3",
            "gpu": "b300",
            "gpus": "16",
            "concurrency": "64",
            "price_per_gpu_hour": "5",
        },
    )
    assert response.status_code == 200 and response.text == ""
    saved = dm_to(slack, "U0SALES")
    assert "acme-q3" in saved["text"]


def test_an_invalid_submission_gets_errors_next_to_the_inputs(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    answer = ask_in_thread(poster, slack, DEPLOYMENT)
    click(poster, slack, answer, "save_quote")
    view = slack.wait_for("views.open")[0].body["view"]
    response = submit(
        poster,
        view,
        {"name": "", "customer": "Acme", "model": "kimi-k3", "gpu": "b300", "gpus": "-3"},
    )
    body = response.json()
    assert body["response_action"] == "errors"
    assert set(body["errors"]) == {"name", "gpus"}


def test_a_form_whose_hidden_question_cannot_be_read_says_so_in_the_form(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    answer = ask_in_thread(poster, slack, TRAFFIC)
    click(poster, slack, answer, "save_quote")
    view = slack.wait_for("views.open")[0].body["view"]
    tampered = {**view, "private_metadata": "{not the question this form was opened with"}
    response = submit(poster, tampered, {"name": "acme-growth", "customer": "Acme"})
    assert response.status_code == 200
    body = response.json()
    assert body["response_action"] == "errors"
    assert "cannot be read" in body["errors"]["name"]
    assert "/lease ask" in body["errors"]["name"]  # and an example that works


def test_saving_a_quote_under_a_taken_name_is_flagged_next_to_the_name(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    answer = ask_in_thread(poster, slack, TRAFFIC)
    click(poster, slack, answer, "save_quote")
    view = slack.wait_for("views.open")[0].body["view"]
    assert submit(poster, view, {"name": "acme-growth", "customer": "Acme"}).text == ""
    again = submit(poster, view, {"name": "acme-growth", "customer": "Globex"}).json()
    assert again["response_action"] == "errors"
    assert "already exists" in again["errors"]["name"]


def test_app_home_publishes_recent_quotes(poster: SignedPoster, slack: FakeSlack) -> None:
    poster.command(
        "quote save acme-q3 customer=Acme Kimi K3 on 16x B300, batch 64",
        response_url=slack.response_url("save"),
    )
    slack.wait_for("response_url:save")
    poster.event(
        {"type": "app_home_opened", "user": "U0SALES", "channel": "D0", "tab": "home",
         "event_ts": "1.1"},
        event_id="EvHome",
    )
    view = slack.wait_for("views.publish")[0].body
    assert view["user_id"] == "U0SALES"
    assert "acme-q3" in json.dumps(view["view"])


def test_saving_a_sizing_asks_only_for_name_and_customer(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    answer = ask_in_thread(poster, slack, TRAFFIC)
    click(poster, slack, answer, "save_quote")
    view = slack.wait_for("views.open")[0].body["view"]
    assert {b.get("block_id") for b in view["blocks"] if b["type"] == "input"} == {
        "name",
        "customer",
    }
    response = submit(poster, view, {"name": "acme-growth", "customer": "Acme"})
    assert response.status_code == 200 and response.text == ""
    assert "acme-growth" in dm_to(slack, "U0SALES")["text"]


def test_a_chart_where_the_bot_is_not_a_member_says_how_to_invite_it(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    answer = ask_in_thread(poster, slack, DEPLOYMENT)
    slack.fail_next("files.completeUploadExternal", error="not_in_channel")
    click(poster, slack, answer, "show_chart")
    reply = slack.wait_for("response_url:click", timeout=15)[0].body
    assert reply["response_type"] == "ephemeral" and "/invite" in reply["text"]


def test_new_quote_from_app_home_opens_an_empty_modal(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    home_button = {"blocks": [{"elements": [{"action_id": "new_quote"}]}], "text": ""}
    click(poster, slack, home_button, "new_quote")
    view = slack.wait_for("views.open")[0].body["view"]
    inputs = {b["block_id"] for b in view["blocks"] if b["type"] == "input"}
    assert {"name", "customer", "model", "gpu", "gpus", "concurrency"} <= inputs
    assert view["private_metadata"] == ""


NEW_STACK = """stacks:
  - id: sglang-2027
    name: SGLang 2027 (single node)
    engine: sglang
    precisions: [fp8, mxfp4]
    released: 2027-01-10
    parallelism: tensor
    description: a later SGLang release
    sources:
      - {title: SGLang release notes, url: "https://example.com/sglang", date: 2027-01-10}
"""


def admin_form(poster: SignedPoster, slack: FakeSlack) -> dict[str, Any]:
    poster.command("admin add", user_id=ADMIN, response_url=slack.response_url())
    return dict(slack.wait_for("views.open")[0].body["view"])


def submit_record(poster: SignedPoster, view: dict[str, Any], text: str, user: str) -> Any:
    typed = {"type": "plain_text_input", "value": text}
    payload = {
        "type": "view_submission",
        "team": {"id": "T0001"},
        "user": {"id": user, "team_id": "T0001"},
        "api_app_id": "A0LEASE",
        "view": {
            **view,
            "id": "V0ADD",
            "state": {"values": {"record": {"record": typed}}},
        },
    }
    return poster.interaction(payload)


REBUILD_DEADLINE_S = 120.0


def wait_for_the_rebuild(services: Services, stack_id: str) -> None:
    """The slow part: an added stack is calibrated in the background (seconds when idle,
    far more on a loaded 2-core machine); this ends as soon as the new engine serves."""
    services.engines.wait_for_engine(lambda e: stack_id in e.catalog.stacks, REBUILD_DEADLINE_S)


def test_an_admin_adds_a_stack_through_the_form(
    poster: SignedPoster, slack: FakeSlack, services: Services
) -> None:
    view = admin_form(poster, slack)
    assert view["callback_id"] == "admin_add"
    response = submit_record(poster, view, NEW_STACK, ADMIN)
    assert response.status_code == 200 and response.text == ""
    confirmation = dm_to(slack, ADMIN)["text"]
    assert "sglang-2027" in confirmation and "recalibrating" in confirmation
    wait_for_the_rebuild(services, "sglang-2027")
    poster.command("stacks", response_url=slack.response_url("stacks"))
    assert "SGLang 2027" in json.dumps(slack.wait_for("response_url:stacks")[0].body)


def test_a_bad_record_is_flagged_in_the_form_and_adds_nothing(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    view = admin_form(poster, slack)
    response = submit_record(poster, view, NEW_STACK.replace("mxfp4", "fp3"), ADMIN)
    body = response.json()
    assert body["response_action"] == "errors" and "fp3" in body["errors"]["record"]


def test_the_form_refuses_someone_who_is_not_an_admin(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    view = admin_form(poster, slack)
    response = submit_record(poster, view, NEW_STACK, "U0SALES")
    assert "only leasewise admins" in response.json()["errors"]["record"]
