"""Follow-ups that do what was meant, played through ``leasewise chat`` (issue 13).

Re-pricing keeps the deployment, "compare with" answers both, "what about" keeps
the rest of the question, "save this as quote" saves, "start over" starts over, an
unknown name is said, and text with nothing to act on gets examples.
"""

from __future__ import annotations

import re

import pytest

from bot.console.chat import Console
from bot.services import Services

DEPLOYMENT = "@leasewise Kimi K3 on 16x B300, batch 64, $5/GPU-hour"
TRAFFIC = "@leasewise Kimi K3, 2B output tokens a day, peaks 3x, 30 tok/s per user"


def say(console: Console, line: str) -> str:
    said = console.say(line)
    assert said is not None, line
    return said


def line_of(said: str, start: str) -> str:
    return next(line for line in said.splitlines() if line.startswith(start))


def per_million(said: str) -> str:
    found = re.search(r"\$[\d,.]+/M output tokens", said)
    assert found, said
    return found.group()


def fleet(said: str) -> str:
    """A sizing's cheapest option as GPUs, replicas and layout, without its money."""
    return line_of(said, "Cheapest:").split(" — ")[0]


def options(said: str) -> list[str]:
    """Each option's GPUs, replicas, stack, batch and per-user speed."""
    return [line.split(":")[0] for line in said.splitlines() if re.match(r"\d\. ", line)]


# --- utilization and price re-price the same deployment ---------------------------


def test_utilization_reprices_the_same_deployment(desk: Services) -> None:
    console = Console(desk)
    first = say(console, DEPLOYMENT)
    again = say(console, "price per million at 40% utilization")
    assert line_of(again, "Kimi K3 on") == line_of(first, "Kimi K3 on")  # GPUs, stack, batch
    assert line_of(again, "16x B300 — $58,400/month,")  # the same bill
    assert per_million(again) != per_million(first)
    assert "at 40% utilization" in again


def test_utilization_reprices_a_sizing_without_resizing_its_fleet(desk: Services) -> None:
    console = Console(desk)
    first = say(console, TRAFFIC)
    again = say(console, "price per million at 40% utilization")
    assert fleet(again) == fleet(first)
    assert options(again) == options(first)
    assert "the same fleet, re-priced" in again
    assert per_million(again) != per_million(first)
    assert "/ 40% avg" in line_of(again, "1. ")
    assert line_of(again, "Against the API:") != line_of(first, "Against the API:")


def test_a_price_reprices_a_sizing_and_stays_for_later_follow_ups(desk: Services) -> None:
    console = Console(desk)
    first = say(console, TRAFFIC)
    again = say(console, "at $4.50/GPU-hour")
    assert fleet(again) == fleet(first) and options(again) == options(first)
    assert "price: unset -> $4.50/GPU-hour" in again
    monthly = re.search(r"— \$([\d,]+)/month", line_of(again, "Cheapest:"))
    gpus = re.match(r"Cheapest: (\d+)x", line_of(again, "Cheapest:"))
    assert monthly and gpus
    assert int(monthly.group(1).replace(",", "")) == round(int(gpus.group(1)) * 4.5 * 730)
    assert "undid" in say(console, "undo")


def money(text: str) -> float:
    return float(text.replace("$", "").replace(",", ""))


def test_a_utilization_stated_on_a_sizing_is_kept_by_the_threads_later_follow_ups(
    desk: Services,
) -> None:
    """"price per million at 40% utilization" re-prices the fleet at 40% and the thread
    keeps it: "what about H200?" and "make it 24 months" answer at 40% too, the saved
    quote is at 40%, and only the price moves the $/M (a 24-month term has no book line,
    so the same fleet costs $7.87 instead of $5.00 a GPU-hour)."""
    console = Console(desk)
    first = say(console, TRAFFIC)
    at_40 = say(console, "price per million at 40% utilization")
    beside = say(console, "what about H200?")
    longer = say(console, "make it 24 months")
    for said in (at_40, beside, longer):
        assert "output tokens at 40% average utilization" in line_of(said, "Cheapest:")
        assert "at 40% average utilization;" in line_of(said, "Against the API:")
        assert fleet(said) == fleet(first)
        rows = [line for line in said.splitlines() if re.match(r"\d\. .* peak / ", line)]
        assert rows and all("peak / 40% avg" in row for row in rows)  # each option's full row
    assert "at 40% average utilization" not in line_of(first, "Cheapest:")
    m40, m24 = (money(per_million(s).split("/")[0]) for s in (at_40, longer))
    assert m24 / m40 == pytest.approx(7.87 / 5.00, rel=0.01)
    saved = say(console, "save this as quote acme-40 for Acme")
    assert f"{per_million(longer)} at 40% average utilization" in saved
    shown = say(console, "/lease quote show acme-40")
    assert per_million(longer) in shown


def test_planning_for_a_utilization_still_resizes_and_keeps_the_quoted_one_apart(
    desk: Services,
) -> None:
    """The quoted utilization prices the fleet; "plan for 60% utilization" sizes it
    (the peak at 60% of capacity): a new fleet, still quoted at 40%."""
    console = Console(desk)
    first = say(console, TRAFFIC)
    say(console, "price per million at 40% utilization")
    planned = say(console, "plan for 60% utilization")
    assert "planned utilization: unset -> 60%" in planned
    assert "peak planned at 60% of capacity" in planned
    assert fleet(planned) != fleet(first)
    assert "output tokens at 40% average utilization" in line_of(planned, "Cheapest:")


# --- compare with, what about --------------------------------------------------------


def test_compare_with_answers_the_deployment_and_the_gpu_side_by_side(desk: Services) -> None:
    console = Console(desk)
    say(console, DEPLOYMENT)
    side = say(console, "compare with H200")
    assert side.startswith("Side by side:")
    assert "16x B300" in side and "x H200" in side
    after = say(console, "batch 32")  # the thread's question is still the B300 one
    assert "Kimi K3 on 16x NVIDIA B300" in after


def test_compare_with_on_a_sizing_sizes_the_traffic_on_both(desk: Services) -> None:
    console = Console(desk)
    first = say(console, TRAFFIC)
    chosen = re.match(r"Cheapest: \d+x (\S+)", line_of(first, "Cheapest:"))
    assert chosen
    side = say(console, "compare with H200")
    assert f"What changed: compared {chosen.group(1).lower()}, h200" in side


def test_what_about_a_gpu_keeps_the_question_at_a_count_that_holds_the_model(
    desk: Services,
) -> None:
    console = Console(desk)
    say(console, "@leasewise Kimi K3 on 8x B300, batch 16")
    moved = say(console, "what about H200?")
    assert "gpu: b300 -> h200" in moved
    assert "the fewest h200 that hold the model (8 do not)" in moved
    assert "batch 16" in line_of(moved, "Kimi K3 on")
    assert "Memory: fits" in moved


def test_what_about_a_gpu_on_a_sizing_shows_it_beside_the_sizings_choice(
    desk: Services,
) -> None:
    console = Console(desk)
    first = say(console, TRAFFIC)
    moved = say(console, "what about H200?")
    assert "(the sizing's choice) and h200" in moved
    assert fleet(moved) == fleet(first)  # the chosen GPU is still there, still cheapest
    assert "no option" not in moved.lower()


# --- save, start over -----------------------------------------------------------------


def test_save_this_as_quote_saves_the_threads_question(desk: Services) -> None:
    console = Console(desk)
    say(console, DEPLOYMENT)
    say(console, "batch 32")
    saved = say(console, "save this as quote acme for Acme Corp")
    assert saved.startswith("Saved quote acme for Acme Corp: kimi-k3 on 16x B300, batch 32")
    shown = say(console, "/lease quote show acme")
    assert "Acme Corp" in shown and "batch 32" in shown


def test_save_without_a_customer_names_the_quote_for_its_name(desk: Services) -> None:
    console = Console(desk)
    say(console, TRAFFIC)
    assert say(console, "save this as quote acme").startswith("Saved quote acme for acme:")
    taken = say(console, "save this as quote acme")
    assert "acme" in taken and "Saved" not in taken


def test_start_over_clears_the_thread_and_the_next_message_starts_fresh(
    desk: Services,
) -> None:
    console = Console(desk)
    say(console, DEPLOYMENT)
    say(console, "batch 32")
    cleared = say(console, "start over")
    assert cleared.startswith("Started over") and "\n" not in cleared
    fresh = say(console, "Kimi K3 on 8x H200")
    assert "What changed" not in fresh and "Kimi K3 on 8x NVIDIA H200" in fresh
    assert "nothing to undo" in say(console, "undo")  # a new thread: no history before it


# --- what it did not understand -----------------------------------------------------


def test_an_unknown_gpu_is_said_with_the_closest_name(desk: Services) -> None:
    console = Console(desk)
    say(console, DEPLOYMENT)
    said = say(console, "what about h2000?")
    assert said.startswith("I don't know 'h2000' — did you mean h200?")


def test_text_with_nothing_to_act_on_gets_examples(desk: Services) -> None:
    console = Console(desk)
    say(console, TRAFFIC)
    said = say(console, "hmm")
    assert said.startswith("I didn't find anything to change in that.")
    assert '"double the traffic"' in said and '"start over"' in said
    assert console.say("thanks!") is None  # an acknowledgement needs no answer


# --- /lease <unknown> -----------------------------------------------------------------


def test_an_unknown_command_lists_the_commands(desk: Services) -> None:
    console = Console(desk)
    said = say(console, "/lease foo")
    assert said.startswith("/lease foo is not a command")
    assert "Commands: size, cost, compare, ask, quote" in said


def test_a_near_miss_of_a_command_is_named(desk: Services) -> None:
    said = say(Console(desk), "/lease sise Kimi K3")
    assert "/lease sise is not a command (did you mean /lease size?)" in said


def test_free_text_that_reads_as_a_question_is_still_answered(desk: Services) -> None:
    console = Console(desk)
    for line in (
        "/lease Kimi K3 on 8x B300, batch 16",
        "/lease foo Kimi K3 on 8x B300, batch 16",
        "/lease what about Kimi K3 on 8x B300, batch 16",
    ):
        assert "Kimi K3 on 8x NVIDIA B300" in say(console, line), line


def test_free_text_that_reads_as_part_of_a_question_asks_for_the_rest(desk: Services) -> None:
    said = say(Console(desk), "/lease foo Kimi K3")
    assert said.startswith("I need a little more to answer")


def test_what_about_another_model_keeps_the_gpu_at_a_count_that_holds_it(
    desk: Services,
) -> None:
    console = Console(desk)
    say(console, "@leasewise Llama 3.1 8B on 1x H100, batch 16, $2.50/GPU-hour")
    moved = say(console, "what about Kimi K3?")
    assert "model: llama-3.1-8b -> kimi-k3" in moved
    assert "the fewest h100-sxm that hold the model (1 do not)" in moved
    count = re.search(r"gpus: 1 -> (\d+)", moved)
    assert count and f"Kimi K3 on {count.group(1)}x NVIDIA H100" in moved
    hourly = int(count.group(1)) * 2.50  # the price given for the H100s stays
    assert line_of(moved, "$").startswith(f"${hourly:,.2f}/hour")
