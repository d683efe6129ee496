"""Slack mrkdwn read back into terminal text: what the console and the CLI print."""

from __future__ import annotations

import pytest

from bot.render.mrkdwn import plain, to_text


@pytest.mark.parametrize(
    ("mrkdwn", "shown"),
    [
        ("*Options, cheapest first (3 of 4)*", "Options, cheapest first (3 of 4)"),
        ("_More on the answer above._", "More on the answer above."),
        ("~$7.87~ $5.00", "$7.87 $5.00"),
        ("*Basis:* estimated (±36%)", "Basis: estimated (±36%)"),
        ("*bold with _italic_ inside*", "bold with italic inside"),
        ("run `concurrency=64` again", "run concurrency=64 again"),
        ("```\nrow one\nrow two\n```", "row one\nrow two"),
        ("<https://example.com/a|vLLM blog>", "vLLM blog (https://example.com/a)"),
        ("<https://example.com/a>", "https://example.com/a"),
        (":warning: no book line", "⚠ no book line"),
        ("Acme &amp; Sons &lt;!channel&gt;", "Acme & Sons <!channel>"),
    ],
)
def test_slack_marks_links_emoji_and_entities_read_as_a_terminal_shows_them(
    mrkdwn: str, shown: str
) -> None:
    assert plain(mrkdwn) == shown


@pytest.mark.parametrize(
    "text",
    [
        "vllm_k3_decode on b300",  # marks inside a word are not formatting
        "2 * 3 * 4",  # a mark with a space inside is not either
        "peak_to_average=3",
        "12:30:00 UTC",  # no emoji code there
        ":not_an_emoji_name:",
        "see <@U0SALES> in <#C0DEALS>",  # mentions: the console names them itself
        "x*y*z and a_b_c",
    ],
)
def test_text_that_only_looks_like_markup_is_kept_as_written(text: str) -> None:
    assert plain(text) == text


def test_marks_become_styles_and_a_link_keeps_its_address() -> None:
    text = to_text("*bold* and _italic_ and <https://example.com|a link>")
    styled = {text.plain[span.start : span.end]: str(span.style) for span in text.spans}
    assert styled["bold"] == "bold"
    assert styled["italic"] == "italic"
    assert "underline" in styled["a link"] and "https://example.com" in styled["a link"]
