"""``leasewise chat``: the same answers as Slack, in a terminal, on the same database."""

from __future__ import annotations

import re

from bot.console.chat import Console, run
from bot.services import Services

SLACK_MARKUP = re.compile(
    r"(?<![\w*_~])([*_~])[^\s*_~](?:[^\n]*?[^\s])?\1(?!\w)"  # *bold*, _italic_, ~strike~
    r"|`|<https?:|<mailto:|&(?:amp|lt|gt);"  # code, links, entities
    r"|(?<![\w:]):[a-z][a-z0-9_+-]*:(?![\w:])"  # :emoji: codes
)


def test_a_question_then_follow_ups_edit_the_thread(desk: Services) -> None:
    console = Console(desk)
    first = console.say("@leasewise Kimi K3 on 16x B300, batch 16, $5/GPU-hour")
    assert first is not None and "$" in first
    edited = console.say("batch 64")
    assert edited is not None and "concurrency: 16 -> 64" in edited  # entities decoded
    undone = console.say("undo")
    assert undone is not None and "undid" in undone


def test_slash_commands_work_in_the_console(desk: Services) -> None:
    console = Console(desk)
    reply = console.say("/lease help size")
    assert reply is not None and "size" in reply


def test_chatter_with_nothing_to_change_gets_no_reply(desk: Services) -> None:
    console = Console(desk)
    console.say("Kimi K3 on 8x B300")
    assert console.say("thanks") is None


def test_a_script_of_lines_runs_to_the_end(desk: Services) -> None:
    out: list[str] = []
    lines = ["Kimi K3 on 8x B300", "what about H200?", "quit", "never read"]
    run(desk, lines, out.append, interactive=False, database="/tmp/leasewise.db")
    said = "\n".join(out)
    assert "(database: /tmp/leasewise.db)" in out[0]
    assert "you> what about H200?" in said and "h200" in said.lower()
    assert "never read" not in said


def test_a_slack_form_is_given_inline_in_the_console(desk: Services) -> None:
    said = Console(desk, user="U0ADMIN").say("/lease admin add")
    assert said is not None and "/lease admin add stack {id:" in said


def test_a_daily_volume_said_in_the_console_is_sized_as_billed_output(desk: Services) -> None:
    """Issue 13: "2B output tokens a day of Kimi K3" is 2 B decoded tokens a day, its
    thinking included, said back once; nothing assumed on top of it."""
    said = Console(desk).say("size Kimi K3, 2B output tokens a day, 30 tok/s per user")
    assert said is not None
    reading = (
        "2B output tokens a day, reasoning included as the API bills it (Kimi K3 always thinks)"
    )
    assert said.count(reading) == 1
    assert "peak 23,148 tok/s" in said  # 2e9 / 86,400 at a peak equal to the average
    assert "reasoning tokens per request" not in said


def test_the_console_says_its_channel_and_its_user_in_words(desk: Services) -> None:
    """Slack shows <#C…> and <@U…> as names; the console has none, so it says them."""
    said = Console(desk).say("/lease digest subscribe monday 9am")
    assert said is not None and "this console gets the leasewise digest" in said
    assert "C0CONSOLE" not in said and "T0LOCAL" not in said and "<#" not in said
    refused = Console(desk).say("/lease admin add")
    assert refused is not None and "Sorry you," in refused and "U0YOU" not in refused


def test_an_answer_in_the_console_leads_with_its_bill_and_three_caveats(desk: Services) -> None:
    """Llama 70B on an H200 carries eleven caveats: the console shows the three about this
    answer, then the thread's part (the rest, its sources and what was assumed)."""
    said = Console(desk).say("Llama 3.1 70B on H200")
    assert said is not None
    lines = said.splitlines()
    assert lines[1].startswith("2x H200") and "/month" in lines[1] and "utilization" in lines[1]
    main, thread = said.split("\nMore caveats\n", 1)
    top = main.split("Caveats:", 1)[1]
    assert top.count("\n- ") == 3 and "more in the thread" in top
    assert "estimated by the roofline" in top and "NVIDIA GPUs only" not in top
    assert "NVIDIA GPUs only" in thread


def test_mentions_the_console_cannot_resolve_are_said_by_their_label_or_id() -> None:
    from bot.console.names import readable, workspace_name

    said = readable("<#C0CONSOLE> and <#C0DEALS|deals>, <@U0YOU> and <@U0BOB>")
    assert said == "this console and #deals, you and @U0BOB"
    assert workspace_name("T0LOCAL") == "this console's workspace"
    assert workspace_name("T0001") == "workspace T0001"


CONVERSATION = [
    "@leasewise Kimi K3, 2B output tokens a day, peaks 3x, 30 tok/s per user",
    "price per million at 40% utilization",
    "what about H200?",
    "save this as quote acme for Acme & Sons",
    "what about h2000?",
    "start over",
    "Kimi K3 on 16x B300, batch 64",
    "compare with H200",
    "/lease quote list",
    "/lease quote show acme",
    "/lease help",
    "/lease help size",
    "/lease stacks",
    "/lease gpus",
    "/lease models",
    "/lease prices",
    "/lease digest subscribe monday 9am",
    "/lease digest preview",
    "/lease foo",
]


def test_the_console_prints_terminal_text_not_slack_markup(desk: Services) -> None:
    """Slack draws *bold*, <url|links> and :emoji:; a terminal would print the marks.
    Every reply of a conversation that reaches most templates reads as plain text."""
    console = Console(desk)
    for line in CONVERSATION:
        said = console.say(line)
        assert said, line
        assert not SLACK_MARKUP.search(said), (line, SLACK_MARKUP.search(said))
    shown = console.say("/lease quote show acme")
    assert shown is not None and "Acme & Sons" in shown  # entities decoded, once
