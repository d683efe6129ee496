"""Slack's Block Kit limits (https://api.slack.com/reference/block-kit/blocks): each one is
detected, and ``fit`` repairs what it can without losing a character of content."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.render import blockkit
from bot.render.blockkit import fit, split_text, view_violations, violations

Block = dict[str, Any]


def section(text: str, **extra: Any) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}, **extra}


def plain(text: str) -> Block:
    return {"type": "plain_text", "text": text}


def button(label: str = "Go", *, action_id: str = "go", value: str = "v") -> Block:
    return {"type": "button", "text": plain(label), "action_id": action_id, "value": value}


def actions(*elements: Block) -> Block:
    return {"type": "actions", "elements": list(elements)}


def one(problems: list[str], *words: str) -> None:
    """Exactly one violation, naming every word given (block index, field, limit)."""
    assert len(problems) == 1, problems
    for word in words:
        assert word in problems[0], (word, problems[0])


def modal(*blocks: Block, **fields: Any) -> Block:
    return {
        "type": "modal",
        "title": plain("New quote"),
        "submit": plain("Save"),
        "blocks": list(blocks),
        **fields,
    }


def texts(blocks: list[Block]) -> list[str]:
    out = []
    for b in blocks:
        if "text" in b:
            out.append(b["text"]["text"])
        out += [f["text"] for f in b.get("fields", [])]
    return out


# --- violations: one test per limit --------------------------------------------------


def test_well_formed_blocks_pass() -> None:
    blocks = [
        {"type": "header", "text": plain("h" * 150)},
        section("s" * 3000, block_id="b" * 255, accessory=button()),
        {"type": "section", "fields": [{"type": "mrkdwn", "text": "f" * 2000}] * 10},
        {"type": "context", "elements": [{"type": "mrkdwn", "text": "c"}] * 10},
        {"type": "divider"},
        actions(*(button("x" * 75, action_id=f"a{i}", value="v" * 2000) for i in range(25))),
    ]
    assert violations(blocks) == []


def test_51_blocks_in_a_message() -> None:
    assert violations([{"type": "divider"}] * 50) == []
    one(violations([{"type": "divider"}] * 51), "51 blocks", "50")


def test_101_blocks_in_a_view() -> None:
    for surface in ("modal", "home"):
        assert violations([{"type": "divider"}] * 100, surface=surface) == []
        one(violations([{"type": "divider"}] * 101, surface=surface), "101 blocks", "100")


def test_3001_char_section() -> None:
    one(violations([{"type": "divider"}, section("x" * 3001)]), "block 1", "text", "3,000")


def test_11_fields() -> None:
    fields = [{"type": "mrkdwn", "text": "f"}] * 11
    one(violations([{"type": "section", "fields": fields}]), "block 0", "fields", "10")


def test_2001_char_field() -> None:
    fields = [{"type": "mrkdwn", "text": "f"}, {"type": "mrkdwn", "text": "f" * 2001}]
    one(violations([{"type": "section", "fields": fields}]), "field 1", "2,000")


def test_151_char_header() -> None:
    one(violations([{"type": "header", "text": plain("h" * 151)}]), "header", "150")


def test_header_must_be_plain_text() -> None:
    one(violations([{"type": "header", "text": {"type": "mrkdwn", "text": "*h*"}}]), "plain_text")


def test_11_context_elements() -> None:
    block = {"type": "context", "elements": [{"type": "mrkdwn", "text": "c"}] * 11}
    one(violations([block]), "context", "elements", "10")


def test_26_actions_elements() -> None:
    block = actions(*(button(action_id=f"a{i}") for i in range(26)))
    one(violations([block]), "actions", "26", "25")


def test_76_char_button_text() -> None:
    one(violations([actions(button("x" * 76))]), "element 0 (button) text", "75")


def test_2001_char_button_value() -> None:
    one(violations([actions(button(value="v" * 2001))]), "value", "2,000")


def test_256_char_action_id_and_block_id() -> None:
    one(violations([actions(button(action_id="a" * 256))]), "action_id", "255")
    one(violations([section("s", block_id="b" * 256)]), "block_id", "255")


def test_duplicate_ids() -> None:
    one(violations([section("a", block_id="x"), section("b", block_id="x")]), "used twice")
    one(violations([actions(button(), button())]), "action_id is used twice")


def test_empty_text() -> None:
    one(violations([section("  \n")]), "empty")
    one(violations([{"type": "section"}]), "needs text or fields")


def test_unknown_block_type_and_a_leaked_thread_break() -> None:
    one(violations([{"type": "thread_break"}]), "unknown block type")


def test_modal_title_submit_and_close_24_chars() -> None:
    assert view_violations(modal(section("s"))) == []
    one(view_violations(modal(section("s"), title=plain("t" * 25))), "title", "24")
    one(view_violations(modal(section("s"), submit=plain("s" * 25))), "submit", "24")
    one(view_violations(modal(section("s"), close=plain("c" * 25))), "close", "24")


def test_private_metadata_and_callback_id() -> None:
    one(view_violations(modal(section("s"), private_metadata="m" * 3001)), "private_metadata")
    one(view_violations(modal(section("s"), callback_id="c" * 256)), "callback_id", "255")


def test_view_blocks_are_checked_against_the_view_limit() -> None:
    assert view_violations({"type": "home", "blocks": [{"type": "divider"}] * 100}) == []
    one(view_violations({"type": "home", "blocks": [{"type": "divider"}] * 101}), "100")


def text_input(**element: Any) -> Block:
    return {
        "type": "input",
        "block_id": "name",
        "label": plain("Name"),
        "element": {"type": "plain_text_input", "action_id": "name", **element},
    }


def test_input_label_2001_chars() -> None:
    block = {**text_input(), "label": plain("l" * 2001)}
    one(view_violations(modal(block)), "label", "2,000")


def test_input_limits() -> None:
    one(view_violations(modal(text_input(max_length=3001))), "max_length")
    one(view_violations(modal(text_input(max_length=10, initial_value="x" * 11))), "initial_value")
    one(view_violations(modal(text_input(placeholder=plain("p" * 151)))), "placeholder", "150")
    element: Block = {"type": "number_input", "action_id": "gpus"}
    number = {"type": "input", "label": plain("GPUs"), "element": element}
    one(view_violations(modal(number)), "is_decimal_allowed")
    element |= {"is_decimal_allowed": False, "initial_value": "1.5"}
    one(view_violations(modal(number)), "initial_value")


def test_a_modal_with_inputs_needs_submit() -> None:
    view = modal(text_input())
    del view["submit"]
    one(view_violations(view), "submit")


def select(options: list[Block], **extra: Any) -> Block:
    return {
        "type": "input",
        "label": plain("GPU"),
        "element": {"type": "static_select", "action_id": "gpu", "options": options, **extra},
    }


def option(text: str, value: str = "v") -> Block:
    return {"text": plain(text), "value": value}


def test_options() -> None:
    assert view_violations(modal(select([option("o" * 75, f"{i}") for i in range(100)]))) == []
    one(view_violations(modal(select([option("o" * 76)]))), "option 0 text", "75")
    one(view_violations(modal(select([option("o", "v" * 151)]))), "option 0 value", "150")
    one(view_violations(modal(select([option("o")] * 101))), "101", "100")
    one(view_violations(modal(select([option("a")], initial_option=option("b")))), "initial_option")


def test_message_text_constants() -> None:
    """The fallback cap is ours, inside Slack's own limit on a message's text."""
    assert blockkit.MAX_FALLBACK_TEXT <= blockkit.MAX_MESSAGE_TEXT == 40_000


# --- fit -----------------------------------------------------------------------------


def test_fit_leaves_blocks_that_fit_alone() -> None:
    blocks = [section("a"), {"type": "divider"}, section("b")]
    assert fit(blocks) == (blocks, [])


def test_long_section_splits_at_line_boundaries_without_losing_text() -> None:
    text = "\n".join(f"• line {i}: " + "x" * (i % 70) for i in range(400))
    first, rest = fit([section(text, block_id="rows", accessory=button())])
    assert rest == []
    assert "".join(texts(first)) == text
    assert all(len(t) <= blockkit.MAX_SECTION_TEXT for t in texts(first))
    assert all(t.split("\n")[0].startswith("• line") for t in texts(first))
    assert first[0]["block_id"] == "rows" and "accessory" in first[0]
    assert all("block_id" not in b and "accessory" not in b for b in first[1:])
    assert violations(first) == []


def test_one_long_line_splits_at_spaces_and_keeps_entities_and_links_whole() -> None:
    words = " ".join(f"Acme &amp; <https://example.com/{i}|link {i}>" for i in range(400))
    first, _ = fit([section(words)])
    pieces = texts(first)
    assert len(pieces) > 1 and "".join(pieces) == words
    for piece in pieces:
        assert len(piece) <= blockkit.MAX_SECTION_TEXT
        assert piece.count("<") == piece.count(">")
        assert not re.search(r"&(?!amp;)", piece)


def test_a_line_without_spaces_is_cut_at_the_limit() -> None:
    text = "x" * 10_000
    first, _ = fit([section(text)])
    assert "".join(texts(first)) == text
    assert [len(t) for t in texts(first)] == [3000, 3000, 3000, 1000]


def test_fields_ten_to_a_section_and_a_long_field_becomes_text() -> None:
    fields = [{"type": "mrkdwn", "text": f"field {i}"} for i in range(23)]
    fields[12] = {"type": "mrkdwn", "text": "long " * 1000}
    first, _ = fit(
        [{"type": "section", "text": {"type": "mrkdwn", "text": "head"}, "fields": fields}]
    )
    assert violations(first) == []
    assert "".join(texts(first)) == "head" + "".join(f["text"] for f in fields)
    assert [len(b.get("fields", [])) for b in first] == [10, 2, 0, 0, 10]


def test_more_than_50_blocks_continue_in_the_thread() -> None:
    blocks = [section(f"block {i}") for i in range(175)]
    first, rest = fit(blocks)
    assert len(first) == 50 and first[-1] == blockkit.CONTINUED
    assert [len(chunk) for chunk in rest] == [50, 50, 26]
    assert first[:49] + [b for chunk in rest for b in chunk] == blocks
    assert all(violations(chunk) == [] for chunk in [first, *rest])


def test_thread_break_sends_the_rest_to_the_thread() -> None:
    blocks = [section("answer"), {"type": "thread_break"}, section("detail 1"), section("detail 2")]
    first, rest = fit(blocks)
    assert first == [section("answer")]
    assert rest == [[section("detail 1"), section("detail 2")]]


def test_splitting_that_crosses_the_block_limit() -> None:
    blocks = [section("s"), *[section("\n".join(["y" * 99] * 100)) for _ in range(20)]]
    first, rest = fit(blocks)
    assert len(first) == 50 and rest
    everything = first[:-1] + [b for chunk in rest for b in chunk]
    assert "".join(texts(everything)) == "".join(texts(blocks))


def test_fit_does_not_share_the_continued_block() -> None:
    first, _ = fit([section(str(i)) for i in range(60)])
    first[-1]["elements"][0]["text"] = "changed"
    assert blockkit.CONTINUED["elements"][0]["text"] == "continued in the thread…"


@given(st.text(alphabet=st.sampled_from("ab <>&;\n|"), max_size=400), st.integers(5, 60))
def test_split_text_keeps_every_visible_character(text: str, limit: int) -> None:
    chunks = split_text(text, limit)
    assert all(0 < len(c) <= limit and c.strip() for c in chunks)
    assert re.sub(r"\s", "", "".join(chunks)) == re.sub(r"\s", "", text)


@given(
    st.lists(st.text(alphabet="abc&<>;", min_size=1, max_size=40), max_size=80),
    st.integers(41, 200),
)
def test_split_text_of_short_lines_is_exact(lines: list[str], limit: int) -> None:
    """Lines that fit are never cut, so the chunks are the text exactly."""
    text = "\n".join(lines)
    chunks = split_text(text, limit)
    assert "".join(chunks) == text
    assert all(c.rstrip("\n") in lines or "\n" in c.rstrip("\n") for c in chunks)


# --- fallback text -------------------------------------------------------------------


def test_clip_text_keeps_whole_lines_and_counts_the_rest() -> None:
    text = "\n".join(f"line {i}" for i in range(2000))
    clipped = blockkit.clip_text(text)
    assert len(clipped) <= blockkit.MAX_FALLBACK_TEXT
    assert clipped.startswith("line 0\nline 1\n")
    shown = clipped.count("\n")
    assert clipped.endswith(f"… {2000 - shown:,} more lines not shown here.")


def test_clip_text_cuts_one_huge_line() -> None:
    clipped = blockkit.clip_text("title\n" + "word " * 5000)
    assert len(clipped) <= blockkit.MAX_FALLBACK_TEXT
    assert clipped.startswith("title\nword word")


@pytest.mark.parametrize("blocks", [[section("a"), {"type": "header", "text": plain("h")}]])
def test_plain_text_reads_the_blocks(blocks: list[Block]) -> None:
    assert blockkit.plain_text(blocks) == "a\nh"
