"""The offer and the one price rule, as a sales engineer meets them in the chat console
and the CLI: sizing ranks what the company leases; every answer prices a GPU the same
way (the price stated for it, else the book's line for the term, else its list price)
and says where the price came from."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import json

from bot.console.chat import Console
from bot.services import Services

BOOK = "$5.00/GPU-hour, 36-month book price"
GB200_LIST = "$6.25/GPU-hour, on-demand list price, not in our offer"


def test_sizing_in_chat_ranks_only_the_offer_and_leads_with_b300(desk: Services) -> None:
    reply = Console(desk).say("@leasewise Kimi K3, 2B output tokens a day")
    assert reply is not None
    cheapest = next(line for line in reply.splitlines() if line.startswith("Cheapest:"))
    assert "x B300 (" in cheapest and "at $5.00/GPU-hour (36-month book price)" in cheapest
    assert "GB200" not in reply and "not in our offer" not in reply


def test_naming_gb200_in_chat_shows_it_marked_not_in_our_offer(desk: Services) -> None:
    reply = Console(desk).say("@leasewise Kimi K3, 2B output tokens a day on GB200")
    assert reply is not None
    assert "B300" not in reply.split("Cheapest:")[1].splitlines()[0]
    gb200 = [line for line in reply.splitlines() if "x GB200 (" in line]
    assert gb200 and all(
        "$6.25/GPU-hour (on-demand list price, not in our offer" in g for g in gb200
    )
    # the estimate it was set from, on the headline and each option's full row
    assert "B200 default" in reply.split("Cheapest:")[1].splitlines()[0]


def test_cost_and_size_agree_on_the_b300_book_price(run) -> None:
    cost = run("estimate", "--model", "kimi-k3", "--gpu", "b300", "--gpus", "16", "--json")
    size = run("size", "--model", "kimi-k3", "--output-tokens-per-day", "2e9", "--json")
    assert cost.exit_code == 0 and size.exit_code == 0, cost.output + size.output
    estimate, sizing = json.loads(cost.stdout), json.loads(size.stdout)
    assert estimate["price_per_gpu_hour"] == 5.0 and estimate["price_basis"] == "book"
    assert all(o["price_per_gpu_hour"] == 5.0 for o in sizing["options"])
    assert {o["price_basis"] for o in sizing["options"]} == {"book"}
    text = run("estimate", "--model", "kimi-k3", "--gpu", "b300", "--gpus", "16").stdout
    assert text.count(BOOK) == 1


def test_a_price_stated_in_compare_is_the_named_gpus_only(desk: Services) -> None:
    reply = Console(desk).say("/lease compare Kimi K3 on 16x B300 vs GB200, batch 64, $5/GPU-hour")
    assert reply is not None
    assert "B300 $5.00/GPU-hour, as stated in the question" in reply
    assert f"GB200 {GB200_LIST}" in reply


def test_a_term_without_a_book_line_falls_back_to_the_list_price_and_says_so(run) -> None:
    base = ["estimate", "--model", "kimi-k3", "--gpu", "b300", "--gpus", "16"]
    on_36 = run(*base, "--term-months", "36").stdout
    on_12 = run(*base, "--term-months", "12").stdout
    assert BOOK in on_36
    assert (
        "$7.87/GPU-hour, on-demand list price, no 12-month line in the price book — "
        "Implied by the community Kimi K3 benchmark" in " ".join(on_12.split())
    )


def test_what_about_another_gpu_drops_the_price_stated_for_the_first(desk: Services) -> None:
    console = Console(desk)
    console.say("@leasewise Kimi K3 on 16x B300, batch 64, $5/GPU-hour")
    reply = console.say("what about GB200?")
    assert reply is not None
    assert "the $5.00/GPU-hour stated for b300 stays with b300" in reply
    assert GB200_LIST in " ".join(reply.split())


def test_a_saved_quote_without_a_price_is_priced_and_valid_as_the_book_says(
    run, desk: Services, monkeypatch, tmp_path
) -> None:
    console = Console(desk)
    console.say('/lease quote save acme-q4 customer="Acme Corp" Kimi K3 on 16x B300, batch 64')
    monkeypatch.setenv("DATABASE_URL", desk.settings.database_url)
    monkeypatch.chdir(tmp_path)
    result = run("quote", "export", "acme-q4", "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = {r["item"]: r for r in csv.DictReader((tmp_path / "acme-q4.csv").open())}
    assert rows["price_per_gpu_hour"]["value"] == "5.0"
    assert rows["price_source"]["value"] == "36-month book price"
    stored = json.loads(run("quote", "export", "acme-q4", "--format", "json", "-o", "-").stdout)
    assert stored["validity"]["valid_until"] == "2027-10-17"  # the book line's end


# --- a price stated for one GPU is that GPU's only (issue 13, item 2) --------------------

PRICED_ON_B300 = (
    "Kimi K3, 2B output tokens a day, 30 tok/s per user, on B300 at $4.50/hr, compare with H200"
)


def test_a_price_stated_in_a_traffic_question_is_the_first_named_gpus_only(
    desk: Services, lease
) -> None:
    """Sizing on B300 and H200 at "$4.50/hr": B300's options at $4.50 as stated, H200's
    at its own (list) price, and the answer says whose price it is."""
    said = Console(desk).say("@leasewise " + PRICED_ON_B300)
    assert said is not None
    assert "the price stated is $4.50/GPU-hour for B300 only; H200 at its own price" in said
    sizing = lease("size " + PRICED_ON_B300).context["sizing"]
    by_gpu = {o.gpu: o for o in sizing.options}
    assert set(by_gpu) == {"b300", "h200"}
    b300 = [o for o in sizing.options if o.gpu == "b300"]
    h200 = [o for o in sizing.options if o.gpu == "h200"]
    assert all((o.price_per_gpu_hour, o.price_basis) == (4.5, "stated") for o in b300)
    assert all(o.price_source == "as stated in the question" for o in b300)
    assert all(
        (o.price_per_gpu_hour, o.price_basis, o.offered) == (4.54, "list", False) for o in h200
    )
    assert all(o.price_source.startswith("on-demand list price, not in our offer") for o in h200)


def test_a_price_said_on_a_sizing_thread_stays_with_its_gpu_when_the_gpus_change(
    desk: Services,
) -> None:
    """ "at $4.50" on the offer's sizing is B300's price: "what about H200?" and "only
    H200" leave H200 at its own price, and back on B300 the $4.50 still holds."""
    console = Console(desk)
    console.say("@leasewise Kimi K3, 2B output tokens a day, peaks 3x, 30 tok/s per user")
    priced = console.say("at $4.50/GPU-hour")
    assert priced is not None and "at $4.50/GPU-hour (as stated in the question)" in priced
    beside = console.say("what about H200?")
    assert beside is not None
    assert "the price stated is $4.50/GPU-hour for B300 only; H200 at its own price" in beside
    only = console.say("only h200")
    assert only is not None
    cheapest = next(line for line in only.splitlines() if line.startswith("Cheapest:"))
    assert "x H200 (" in cheapest and "$4.54/GPU-hour (on-demand list price" in cheapest
    assert "$4.50" not in cheapest
    back = console.say("only b300")
    assert back is not None
    cheapest = next(line for line in back.splitlines() if line.startswith("Cheapest:"))
    assert "x B300 (" in cheapest and "at $4.50/GPU-hour (as stated in the question)" in cheapest


# --- a book line is used only on the dates it is valid (issue 13, item 3) -----------------

EXPIRED = "the 36-month book price expired 2027-10-17; on-demand list price used"


def test_after_the_book_line_expires_every_answer_uses_the_list_price_and_says_why(
    desk: Services,
) -> None:
    """The console's clock is past the B300 line's valid_until: ask, cost, size and
    compare all price B300 at its $7.87 list price, saying the book price expired."""
    later = dataclasses.replace(desk, clock=lambda: dt.datetime(2027, 11, 2, 9, 0, tzinfo=dt.UTC))
    console = Console(later)
    for line in (
        "@leasewise Kimi K3 on 16x B300, batch 64",
        "/lease cost Kimi K3 on 16x B300, batch 64",
        "/lease ask Kimi K3 on 16x B300, batch 64",
        "/lease size Kimi K3, 2B output tokens a day, 30 tok/s per user",
        "/lease compare Kimi K3 on 16x B300 vs H200, batch 64",
        "@leasewise Kimi K3, 2B output tokens a day, 30 tok/s per user",
        "make it 36 months",
    ):
        said = console.say(line)
        assert said is not None, line
        flat = " ".join(said.split())
        assert EXPIRED in flat, line
        assert "$7.87/GPU-hour" in flat and "$5.00/GPU-hour" not in flat, line
    valid = Console(desk).say("/lease cost Kimi K3 on 16x B300, batch 64")
    assert valid is not None and BOOK in valid and "expired" not in valid


def test_a_question_dated_outside_the_book_line_is_priced_at_the_list_price(run) -> None:
    """as_of, when the question gives one, is the date its price must be valid on."""
    base = ["estimate", "--model", "kimi-k3", "--gpu", "b300", "--gpus", "16"]
    inside = json.loads(run(*base, "--as-of", "2026-11-01", "--json").stdout)
    before = json.loads(run(*base, "--as-of", "2026-10-17", "--json").stdout)
    after = run(*base, "--as-of", "2027-10-18", wide=True).stdout
    assert (inside["price_per_gpu_hour"], inside["price_basis"]) == (5.0, "book")
    assert (before["price_per_gpu_hour"], before["price_basis"]) == (7.87, "list")
    assert before["price_source"].startswith(
        "the 36-month book price is valid only from 2026-10-18; on-demand list price used"
    )
    assert EXPIRED in " ".join(after.split())
