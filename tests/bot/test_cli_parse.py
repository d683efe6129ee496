"""``leasewise parse`` and ``leasewise ask``: a customer's words in, an answer out."""

from __future__ import annotations

import json

SEED = (
    "we serve about 2B output tokens a day of Kimi K3, peaks are 3x the average, "
    "users want 30 tok/s"
)


def test_parse_json_shows_the_fields_understood_and_assumed(run):
    result = run("parse", "--json", SEED)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out.keys() >= {"scenario", "understood", "assumed", "missing"}
    assert out["scenario"]["model"] == "kimi-k3"
    assert out["scenario"]["output_tokens_per_day"] == 2e9
    assert out["scenario"]["peak_to_average"] == 3
    assert out["understood"] and out["kind"] == "traffic"


def test_parse_prints_what_it_read_for_people(run):
    result = run("parse", SEED, wide=True)
    assert result.exit_code == 0
    assert "Understood" in result.stdout and "kimi-k3" in result.stdout


def test_ask_sizes_traffic(run):
    result = run("ask", "--json", SEED + " on B300 at $5/hr")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["options"] and answer["options"][0]["gpu"] == "b300"


def test_ask_estimates_a_deployment(run):
    result = run("ask", "--json", "Kimi K3 on 16x B300 at $5/hr, batch 64")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["gpus"] == 16 and answer["concurrency"] == 64


def test_ask_without_enough_to_go_on_says_what_is_missing(run):
    result = run("ask", "hello there, how are you?")
    assert result.exit_code == 2
    assert "not enough to answer" in result.output and "Traceback" not in result.output
