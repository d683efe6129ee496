"""A reply that hands over a file is uploaded where the reply goes, its text the comment."""

from __future__ import annotations

from slack_sdk import WebClient

from bot.render.document import Attachment
from bot.render.renderer import Message
from bot.slack.delivery import send_in_thread
from tests.fakes.slack_api import FakeSlack

FILE = Attachment(
    filename="acme-q3.pdf", title="Quote acme-q3 for Acme", content=b"%PDF-1.7", media_type="x"
)
SAID = Message(text="<@U1> attached the quote document for acme-q3", blocks=[])


def client_of(slack: FakeSlack) -> WebClient:
    return WebClient(token="xoxb-test-token", base_url=slack.api_url)


def test_a_reply_with_a_file_is_uploaded_into_the_thread_with_its_text(
    slack: FakeSlack,
) -> None:
    send_in_thread(client_of(slack), SAID, file=FILE, channel="C0DEALS", thread_ts="100.1")

    [complete] = slack.calls_to("files.completeUploadExternal")
    assert (complete.body["channel_id"], complete.body["thread_ts"]) == ("C0DEALS", "100.1")
    assert complete.body["initial_comment"] == SAID.text
    assert complete.body["files"][0]["title"] == FILE.title
    assert list(slack.uploads.values()) == [FILE.content]
    assert slack.calls_to("chat.postMessage") == []


def test_a_reply_without_a_file_is_posted_in_the_thread(slack: FakeSlack) -> None:
    send_in_thread(client_of(slack), SAID, file=None, channel="C0DEALS", thread_ts="100.1")

    [posted] = slack.calls_to("chat.postMessage")
    assert posted.body["thread_ts"] == "100.1" and posted.body["text"] == SAID.text
    assert slack.calls_to("files.getUploadURLExternal") == []
