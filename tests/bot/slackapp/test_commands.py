"""``/lease`` over HTTP: signed requests in, acks out, answers by response_url."""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from pypdf import PdfReader

from core.estimate import estimate
from core.perf.engine import PerfEngine
from core.scenario import Scenario
from tests.bot.people import ADMIN
from tests.bot.slackapp.conftest import Running
from tests.fakes.signing import SignedPoster, slash_command_body
from tests.fakes.slack_api import FakeSlack


def answer_to(
    poster: SignedPoster, slack: FakeSlack, text: str, *, user: str = "U0SALES", name: str = "r1"
) -> dict[str, Any]:
    """Send ``/lease text`` and return what the app posted to the response_url."""
    response = poster.command(text, user_id=user, response_url=slack.response_url(name))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = slack.wait_for(f"response_url:{name}")[0].body
    return body


def all_text(body: dict[str, Any]) -> str:
    return body.get("text", "") + json.dumps(body.get("blocks", []))


def test_a_signed_command_is_acked_at_once_with_an_empty_body(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    response = poster.command("help", response_url=slack.response_url())
    assert response.status_code == 200
    assert response.text == ""


def test_help_is_ephemeral_and_lists_the_subcommands(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    body = answer_to(poster, slack, "help")
    assert body["response_type"] == "ephemeral"
    for sub in ("size", "cost", "compare", "quote save", "digest subscribe"):
        assert sub in all_text(body)


def test_cost_answers_with_the_engines_figure_and_its_provenance(
    poster: SignedPoster, slack: FakeSlack, engine: PerfEngine
) -> None:
    body = answer_to(
        poster, slack, "cost model=kimi-k3 gpu=b300 gpus=16 concurrency=64 price_per_gpu_hour=5"
    )
    expected = estimate(
        Scenario(model="kimi-k3", gpu="b300", gpus=16, concurrency=64, price_per_gpu_hour=5),
        engine,
    )
    text = all_text(body)
    assert f"${expected.usd_per_million_output_tokens:.2f}" in text
    assert expected.basis in text
    assert "share_answer" in text  # answers start private, with a button to share


def test_free_text_is_read_like_an_ask(poster: SignedPoster, slack: FakeSlack) -> None:
    body = answer_to(poster, slack, "Kimi K3, 2B output tokens a day, peaks 3x, on B300")
    assert "b300" in all_text(body).lower()
    assert "show_chart" in all_text(body)


def test_a_command_whose_text_says_payload_is_still_a_command(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    """Bolt reads any form mentioning "payload" as an interaction; a command it is not."""
    body = answer_to(poster, slack, "Kimi K3 on 16x B300, batch 64, payload 800 tokens in")
    assert "b300" in all_text(body).lower()


def test_incomplete_question_says_what_is_missing_with_an_example(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    body = answer_to(poster, slack, "size 2B output tokens a day")
    assert body["response_type"] == "ephemeral"
    assert "model" in all_text(body).lower()


def test_bad_input_is_an_ephemeral_error_naming_the_field(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    body = answer_to(poster, slack, "cost model=kimi-k3 gpu=b9000 gpus=8")
    assert body["response_type"] == "ephemeral"
    assert "b9000" in all_text(body)


def test_quote_save_list_show_delete(poster: SignedPoster, slack: FakeSlack) -> None:
    saved = answer_to(
        poster,
        slack,
        'quote save acme-q3 customer="Acme Corp" Kimi K3 on 16x B300, batch 64, $5/GPU-hour',
        name="save",
    )
    assert "acme-q3" in all_text(saved)
    listed = answer_to(poster, slack, "quote list", name="list")
    assert "acme-q3" in all_text(listed) and "Acme Corp" in all_text(listed)
    shown = answer_to(poster, slack, "quote show acme-q3", name="show")
    assert "16x b300" in all_text(shown).lower()
    again = answer_to(
        poster, slack, "quote save acme-q3 customer=Acme K3 on 8x B300", name="again"
    )
    assert "already" in all_text(again)
    answer_to(poster, slack, "quote delete acme-q3", name="delete")
    gone = answer_to(poster, slack, "quote show acme-q3", name="gone")
    assert "no quote named" in all_text(gone)


def test_admin_commands_are_refused_politely_to_others(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    body = answer_to(poster, slack, 'admin price set b300 36 4.80 source="MSA"', user="U0SALES")
    assert body["response_type"] == "ephemeral"
    assert "admin" in all_text(body).lower()


def test_an_admin_price_reaches_answers_and_the_audit_log(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    done = answer_to(
        poster, slack, 'admin price set b300 36 4.10 source="MSA with Acme"', user=ADMIN, name="a"
    )
    assert "4.10" in all_text(done)
    answer_to(poster, slack, "size Kimi K3, 2B output tokens a day, on B300", name="s")
    rows = slack.wait_for("response_url:s", count=2)[1].body
    assert "4.10" in all_text(rows) and "/GPU-hour" in all_text(rows)  # each option's price
    audit = answer_to(poster, slack, "admin audit", user=ADMIN, name="audit")
    assert "price.set" in all_text(audit) and ADMIN in all_text(audit)


def test_a_bad_signature_is_refused(poster: SignedPoster, server: Running) -> None:
    response = poster.post(
        "/slack/events",
        slash_command_body(text="help"),
        "application/x-www-form-urlencoded",
        signature="v0=" + "0" * 64,
    )
    assert response.status_code == 401


def test_a_replayed_request_older_than_five_minutes_is_refused(poster: SignedPoster) -> None:
    stale = int(time.time()) - 6 * 60
    response = poster.post(
        "/slack/events",
        slash_command_body(text="help"),
        "application/x-www-form-urlencoded",
        timestamp=stale,
    )
    assert response.status_code == 401


def test_a_failure_after_ack_is_an_apology_with_a_reference(
    poster: SignedPoster, slack: FakeSlack, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    from bot.commands import dispatch

    def broken(*args: Any) -> Any:
        raise RuntimeError("database on fire")

    monkeypatch.setitem(dispatch.HANDLERS, "models", broken)
    body = answer_to(poster, slack, "models")
    assert body["response_type"] == "ephemeral"
    text = all_text(body)
    found = re.search(r"\b[0-9a-f]{8}\b", body["text"])
    assert found is not None, body["text"]
    assert f"reference {found.group()}" in caplog.text and "database on fire" in caplog.text
    assert "Traceback" not in text


def test_health_reports_the_database(server: Running) -> None:
    import httpx

    response = httpx.get(server.url + "/healthz")
    assert response.status_code == 200 and response.json()["database"] == "ok"


def test_digest_subscribe_defaults_to_the_subscribers_slack_time_zone_and_is_announced(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    slack.users["U0SALES"] = {"tz": "Asia/Tokyo"}
    body = answer_to(poster, slack, "digest subscribe monday 9am")
    assert body["response_type"] == "in_channel"
    assert "Asia/Tokyo" in all_text(body)
    assert slack.calls_to("users.info")[0].body["user"] == "U0SALES"


# --- /lease quote pdf: the document, uploaded to the channel -------------------------


SAVE_ACME = 'quote save acme-q3 customer="Acme Corp" Kimi K3 on 16x B300, batch 64, $5/GPU-hour'


def test_quote_pdf_uploads_a_pdf_saying_what_quote_show_says(
    poster: SignedPoster, slack: FakeSlack, finished: Callable[[], None]
) -> None:
    answer_to(poster, slack, SAVE_ACME, name="save")
    shown = all_text(answer_to(poster, slack, "quote show acme-q3", name="show"))
    monthly = re.search(r"\$[\d,]+/month", shown)
    assert monthly is not None and "16x B300" in shown

    response = poster.command(
        "quote pdf acme-q3", user_id="U0SALES", response_url=slack.response_url("pdf")
    )

    assert response.status_code == 200 and response.text == ""
    complete = slack.wait_for("files.completeUploadExternal", timeout=15)[0].body
    assert complete["channel_id"] == "C0DEALS" and not complete.get("thread_ts")
    assert complete["initial_comment"].startswith(
        "<@U0SALES> attached the quote document for acme-q3"
    )
    [upload] = slack.calls_to("files.getUploadURLExternal")
    assert upload.body["filename"] == "acme-q3.pdf"
    (pdf,) = slack.uploads.values()
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Acme Corp" in text and "16x B300" in text
    assert monthly.group(0).removesuffix("/month") in text
    finished()
    assert slack.calls_to("response_url:pdf") == []  # the upload is the answer


def test_quote_pdf_where_the_bot_is_not_a_member_says_how_to_invite_it(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    answer_to(poster, slack, SAVE_ACME, name="save")
    slack.fail_next("files.completeUploadExternal", error="not_in_channel")

    reply = answer_to(poster, slack, "quote pdf acme-q3", name="pdf")

    assert reply["response_type"] == "ephemeral" and "/invite" in reply["text"]


def test_quote_pdf_without_a_name_asks_which_quote_privately(
    poster: SignedPoster, slack: FakeSlack, finished: Callable[[], None]
) -> None:
    reply = answer_to(poster, slack, "quote pdf", name="pdf")

    assert reply["response_type"] == "ephemeral"
    assert "which quote?" in all_text(reply) and "/lease quote pdf acme-q3" in all_text(reply)
    finished()
    assert slack.calls_to("files.getUploadURLExternal") == []


def test_quote_pdf_of_an_unknown_name_suggests_the_closest(
    poster: SignedPoster, slack: FakeSlack
) -> None:
    answer_to(poster, slack, SAVE_ACME, name="save")

    reply = answer_to(poster, slack, "quote pdf acme-q4", name="pdf")

    assert reply["response_type"] == "ephemeral"
    assert "did you mean `/lease quote pdf acme-q3`?" in reply["text"]
