"""``leasewise chat``: the same answers as Slack, in a terminal, on the same database."""

from __future__ import annotations

from bot.console.chat import Console, run
from bot.services import Services


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
