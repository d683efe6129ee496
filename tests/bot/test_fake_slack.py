"""The fake Slack must be faithful to the real client, or end-to-end tests built on it prove
nothing: these drive it with ``slack_sdk.WebClient`` exactly as the bot will."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from urllib.parse import parse_qs

import httpx
import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler
from slack_sdk.signature import SignatureVerifier
from slack_sdk.webhook import WebhookClient

from tests.fakes.signing import (
    SignedPoster,
    event_body,
    interaction_body,
    sign,
    slash_command_body,
    url_verification_body,
)
from tests.fakes.slack_api import FakeSlack

TOKEN = "xoxb-test-token"
SECRET = "8f742231b10e8888abcd99yyyzzz85a5"


@pytest.fixture(scope="module")
def server() -> Iterator[FakeSlack]:
    with FakeSlack() as slack:
        yield slack


@pytest.fixture
def slack(server: FakeSlack) -> FakeSlack:
    server.reset()
    return server


@pytest.fixture
def client(slack: FakeSlack) -> WebClient:
    return WebClient(token=TOKEN, base_url=slack.api_url)


# --- the Web API ---------------------------------------------------------------------------


def test_auth_test_names_the_bot_and_records_the_bearer_token(
    slack: FakeSlack, client: WebClient
) -> None:
    reply = client.auth_test()

    assert (reply["team_id"], reply["user_id"], reply["bot_id"]) == ("T0001", "U0BOT", "B0BOT")
    [call] = slack.calls_to("auth.test")
    assert call.token == TOKEN
    assert call.headers["authorization"] == f"Bearer {TOKEN}"


def test_token_can_come_from_a_form_field(slack: FakeSlack) -> None:
    httpx.post(slack.api_url + "auth.test", data={"token": "xoxb-form"})

    assert slack.calls_to("auth.test")[0].token == "xoxb-form"


def test_post_message_echoes_the_message_with_unique_increasing_timestamps(
    slack: FakeSlack, client: WebClient
) -> None:
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": "*$9.98* per M tokens"}}]

    first = client.chat_postMessage(channel="C0DEALS", text="hi", blocks=blocks)
    reply = client.chat_postMessage(channel="C0DEALS", text="again", thread_ts=first["ts"])

    assert float(reply["ts"]) > float(first["ts"])
    assert first["message"]["blocks"] == blocks
    assert reply["message"]["thread_ts"] == first["ts"]
    assert (reply["channel"], reply["message"]["bot_id"]) == ("C0DEALS", "B0BOT")
    assert slack.calls_to("chat.postMessage")[0].body["blocks"] == blocks


def test_json_fields_of_form_encoded_calls_are_decoded(slack: FakeSlack, client: WebClient) -> None:
    blocks = [{"type": "divider"}]

    client.api_call("chat.postMessage", params={"channel": "C1", "blocks": json.dumps(blocks)})

    [call] = slack.calls_to("chat.postMessage")
    assert call.headers["content-type"] == "application/x-www-form-urlencoded"
    assert call.body == {"channel": "C1", "blocks": blocks}


def test_ephemeral_update_and_delete_answer_like_slack(client: WebClient) -> None:
    assert client.chat_postEphemeral(channel="C1", user="U1", text="psst")["message_ts"]
    ts = "1700000000.000100"
    updated = client.chat_update(channel="C1", ts=ts, text="new")
    assert (updated["channel"], updated["ts"], updated["text"]) == ("C1", ts, "new")
    assert client.chat_delete(channel="C1", ts=ts)["ok"]


def test_views_come_back_with_an_id_and_the_submitted_fields(client: WebClient) -> None:
    modal = {
        "type": "modal",
        "callback_id": "lease",
        "title": {"type": "plain_text", "text": "L"},
        "blocks": [],
    }

    opened = client.views_open(trigger_id="1.2.3", view=modal)["view"]
    updated = client.views_update(view_id=opened["id"], view=modal)["view"]

    assert opened["id"].startswith("V") and opened["hash"]
    assert opened["callback_id"] == "lease"
    assert updated["id"] == opened["id"]
    assert client.views_publish(user_id="U1", view={"type": "home", "blocks": []})["view"]["id"]


def test_users_default_to_new_york_and_can_be_configured(
    slack: FakeSlack, client: WebClient
) -> None:
    assert client.users_info(user="U1")["user"]["tz"] == "America/New_York"

    slack.users["U2"] = {"tz": "Europe/Berlin", "tz_offset": 3600}
    user = client.users_info(user="U2")["user"]

    assert (user["id"], user["tz"], user["tz_offset"]) == ("U2", "Europe/Berlin", 3600)


def test_channels_default_to_general_and_can_be_configured(
    slack: FakeSlack, client: WebClient
) -> None:
    assert client.conversations_info(channel="C1")["channel"]["name"] == "general"

    slack.channels["C2"] = {"name": "deals"}

    assert client.conversations_info(channel="C2")["channel"] == {
        "id": "C2",
        "name": "deals",
        "is_channel": True,
        "is_member": True,
    }


def test_files_upload_v2_stores_the_bytes_and_completes_in_the_thread(
    slack: FakeSlack, client: WebClient
) -> None:
    reply = client.files_upload_v2(
        channel="C0DEALS",
        thread_ts="1700000000.000100",
        content=b"png bytes",
        filename="x.png",
        title="t",
    )

    file_id = reply["file"]["id"]
    assert slack.uploads == {file_id: b"png bytes"}
    [complete] = slack.calls_to("files.completeUploadExternal")
    assert complete.body["files"] == [{"id": file_id, "title": "t"}]
    assert (complete.body["channel_id"], complete.body["thread_ts"]) == (
        "C0DEALS",
        "1700000000.000100",
    )


def test_multipart_uploads_store_the_file_part(slack: FakeSlack) -> None:
    url = f"{slack.base_url}/upload/F1"

    reply = httpx.post(url, files={"file": ("x.png", b"\x89PNG\r\n", "image/png")})

    assert reply.text == "OK - 6"
    assert slack.uploads["F1"] == b"\x89PNG\r\n"


def test_unknown_methods_succeed_and_are_recorded(slack: FakeSlack, client: WebClient) -> None:
    assert client.reactions_add(channel="C1", timestamp="1.2", name="eyes")["ok"]
    assert slack.calls_to("reactions.add")[0].body["name"] == "eyes"


def test_reset_forgets_calls(slack: FakeSlack, client: WebClient) -> None:
    client.auth_test()
    slack.reset()
    assert slack.calls == []


# --- response_url and waiting --------------------------------------------------------------


def test_response_url_posts_are_recorded_and_can_be_waited_for(slack: FakeSlack) -> None:
    url = slack.response_url("r1")

    def respond_later() -> None:
        time.sleep(0.1)  # most likely after wait_for began; either order must work
        WebhookClient(url).send(text="done", response_type="ephemeral")

    responder = threading.Thread(target=respond_later)
    responder.start()
    [call] = slack.wait_for("response_url:r1")
    responder.join()

    assert call.body == {"text": "done", "response_type": "ephemeral"}


def test_wait_for_times_out_with_the_calls_seen_so_far(slack: FakeSlack, client: WebClient) -> None:
    client.auth_test()

    with pytest.raises(AssertionError, match=r"chat.postMessage(.|\n)*auth.test"):
        slack.wait_for("chat.postMessage", timeout=0.1)


# --- faults --------------------------------------------------------------------------------


def test_fail_next_answers_ok_false_once(slack: FakeSlack, client: WebClient) -> None:
    slack.fail_next("chat.postMessage", error="channel_not_found")

    with pytest.raises(SlackApiError) as failure:
        client.chat_postMessage(channel="C404", text="hi")

    assert failure.value.response.status_code == 200
    assert failure.value.response["error"] == "channel_not_found"
    assert client.chat_postMessage(channel="C404", text="hi")["ok"]


def test_rate_limit_without_a_retry_handler_raises_429(slack: FakeSlack, client: WebClient) -> None:
    slack.rate_limit_next("chat.postMessage", retry_after=1)

    with pytest.raises(SlackApiError) as failure:
        client.chat_postMessage(channel="C1", text="hi")

    assert failure.value.response.status_code == 429
    assert failure.value.response["error"] == "ratelimited"
    assert failure.value.response.headers["Retry-After"] == "1"


def test_rate_limit_retry_handler_succeeds_after_one_429(
    slack: FakeSlack, client: WebClient
) -> None:
    client.retry_handlers.append(RateLimitErrorRetryHandler(max_retry_count=1))
    slack.rate_limit_next("chat.postMessage", retry_after=1)

    assert client.chat_postMessage(channel="C1", text="hi")["ok"]
    assert len(slack.calls_to("chat.postMessage")) == 2


# --- signing -------------------------------------------------------------------------------


def test_signature_verifies_with_slack_sdk() -> None:
    body = slash_command_body(text="16 b300")

    assert SignatureVerifier(SECRET).is_valid_request(body, sign(SECRET, body))


def test_tampered_body_does_not_verify() -> None:
    headers = sign(SECRET, slash_command_body(text="16 b300"))

    assert not SignatureVerifier(SECRET).is_valid_request(slash_command_body("32 b300"), headers)


def test_signature_older_than_five_minutes_does_not_verify() -> None:
    body = slash_command_body()
    headers = sign(SECRET, body, timestamp=int(time.time()) - 301)

    assert not SignatureVerifier(SECRET).is_valid_request(body, headers)


def test_slash_command_body_has_slacks_fields_in_slacks_encoding() -> None:
    body = slash_command_body(text="kimi on 16 b300", response_url="http://x/response/r1")

    assert "command=%2Flease" in body and "text=kimi+on+16+b300" in body
    fields = {k: v[0] for k, v in parse_qs(body, keep_blank_values=True).items()}
    assert fields["response_url"] == "http://x/response/r1"
    assert {
        "token",
        "team_id",
        "team_domain",
        "channel_id",
        "channel_name",
        "user_id",
        "user_name",
        "api_app_id",
        "trigger_id",
    } <= fields.keys()


def test_event_body_is_an_event_callback_authorized_for_the_bot() -> None:
    envelope = json.loads(event_body({"type": "app_mention", "text": "hi"}, event_id="Ev9"))

    assert (envelope["type"], envelope["event_id"]) == ("event_callback", "Ev9")
    assert (
        envelope["authorizations"][0] | {"user_id": "U0BOT", "is_bot": True}
        == (envelope["authorizations"][0])
    )
    assert isinstance(envelope["event_time"], int)


def test_interaction_and_url_verification_bodies_round_trip() -> None:
    payload = {"type": "block_actions", "actions": [{"action_id": "refine"}]}

    assert json.loads(parse_qs(interaction_body(payload))["payload"][0]) == payload
    assert json.loads(url_verification_body("c"))["challenge"] == "c"


def test_signed_poster_sends_verifiable_requests_with_retry_headers(slack: FakeSlack) -> None:
    poster = SignedPoster(slack.base_url, SECRET, path="/api/probe")
    event = {"type": "app_mention", "text": "hi"}

    poster.event(event, retry_num=1, retry_reason="http_timeout", event_time=1)

    [call] = slack.calls_to("probe")
    assert call.body["event"] == event
    assert (call.headers["x-slack-retry-num"], call.headers["x-slack-retry-reason"]) == (
        "1",
        "http_timeout",
    )
    sent = event_body(event, event_time=1)
    assert SignatureVerifier(SECRET).is_valid_request(sent, call.headers)


def test_signed_poster_can_forge_a_signature(slack: FakeSlack) -> None:
    poster = SignedPoster(slack.base_url, SECRET, path="/api/probe")

    poster.command("hi", response_url=slack.response_url())
    poster.post("/api/probe", "a=1", "application/x-www-form-urlencoded", signature="v0=bad")

    first, forged = slack.calls_to("probe")
    assert first.body["command"] == "/lease" and first.body["text"] == "hi"
    assert forged.headers["x-slack-signature"] == "v0=bad"


def test_multipart_api_calls_are_decoded_too(slack: FakeSlack) -> None:
    httpx.post(
        slack.api_url + "files.upload",
        data={"channels": "C1", "blocks": '[{"type": "divider"}]'},
        files={"file": ("x.txt", b"hello", "text/plain")},
    )

    [call] = slack.calls_to("files.upload")
    assert call.body == {"channels": "C1", "blocks": [{"type": "divider"}], "file": b"hello"}


def test_a_failed_response_url_answers_404_like_a_spent_one(slack: FakeSlack) -> None:
    slack.fail_next("response_url:r2", error="expired_url")

    reply = WebhookClient(slack.response_url("r2")).send(text="late")

    assert (reply.status_code, reply.body) == (404, "expired_url")


def test_a_rate_limited_response_url_says_when_to_come_back(slack: FakeSlack) -> None:
    slack.rate_limit_next("response_url:r3", retry_after=2)

    reply = WebhookClient(slack.response_url("r3")).send(text="soon")

    assert (reply.status_code, reply.headers["Retry-After"]) == (429, "2")
    assert WebhookClient(slack.response_url("r3")).send(text="now").status_code == 200


def test_server_error_next_answers_500_once(slack: FakeSlack, client: WebClient) -> None:
    slack.server_error_next("response_url:r4")
    slack.server_error_next("chat.postMessage")

    assert WebhookClient(slack.response_url("r4")).send(text="x").status_code == 500
    with pytest.raises(SlackApiError) as failure:
        client.chat_postMessage(channel="C1", text="hi")
    assert failure.value.response.status_code == 500
    assert client.chat_postMessage(channel="C1", text="hi")["ok"]


def test_a_delayed_answer_is_recorded_when_it_arrives_and_sent_later(slack: FakeSlack) -> None:
    slack.delay("response_url:", 1.0)

    WebhookClient(slack.response_url("r5")).send(text="slow")
    answered = time.monotonic()

    [call] = slack.calls_to("response_url:r5")
    assert answered - call.at >= 1.0


def test_wait_until_waits_for_a_condition_on_the_calls(
    slack: FakeSlack, client: WebClient
) -> None:
    threading.Thread(target=lambda: [client.auth_test() for _ in range(3)]).start()

    calls = slack.wait_until(lambda calls: len(calls) >= 3, "three calls")

    assert [c.method for c in calls[:3]] == ["auth.test"] * 3
    with pytest.raises(AssertionError, match="four calls"):
        slack.wait_until(lambda calls: len(calls) >= 4, "four calls", timeout=0.1)


def test_start_and_stop_without_a_with_block() -> None:
    fake = FakeSlack().start()
    try:
        assert WebClient(base_url=fake.api_url).auth_test()["ok"]
    finally:
        fake.stop()

    with pytest.raises(RuntimeError, match="not running"):
        fake.base_url  # noqa: B018
