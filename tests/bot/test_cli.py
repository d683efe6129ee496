"""The ``leasewise`` command line, driven in-process as a user or a program would drive it.

The JSON printed by ``estimate --json`` and the error object are public contracts
(DESIGN.md, "Interfaces that other programs rely on"). Figures: vLLM's Kimi K3
decode-path write-up of 2026-10-16 (16 GPUs at $5/GPU-hour: batch 16 $21.61 -> $12.64,
batch 64 $9.98 -> $6.16 per M output tokens) and the community 8x B300 / 8x A100
benchmark ($7.87 vs $2.51 per GPU-hour, about $190 vs $620 per M output tokens).
"""

from __future__ import annotations

import json
import subprocess
import sysconfig
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from bot.conversation import answer_question
from bot.render.renderer import Renderer
from core.catalog import load_catalog, packaged_files
from core.scenario import Scenario
from tests.bot.people import NOW

ESTIMATE_FIELDS = {
    "output_tokens_per_s",
    "per_user_tokens_per_s",
    "ttft_s",
    "usd_per_hour",
    "usd_per_month",
    "usd_per_million_output_tokens",
    "breakeven_utilization",
    "fits_memory",
    "basis",
    "error_band",
    "ttft_error_band",
    "sources",
    "caveats",
}

CHEAP_HOURS_DEAR_TOKENS = [
    # The community benchmark ran vLLM's general path (TP=8), not the later decode path.
    {"model": "kimi-k3", "gpu": "b300", "gpus": 8, "stack": "vllm", "price_per_gpu_hour": 7.87},
    {
        "model": "kimi-k3",
        "gpu": "a100-80gb",
        "gpus": 8,
        "precision": "gguf-ud-iq1_s",
        "price_per_gpu_hour": 2.51,
    },
]

K3 = ["--model", "kimi-k3", "--gpu", "b300", "--gpus", "16"]

BAD_INPUTS = {
    "missing model": ([], '{"gpu": "b300", "gpus": 16}', "model", "kimi-k3"),
    "unknown model": (["--model", "kimi-k4", "--gpu", "b300"], None, "model", "kimi-k3"),
    "unknown gpu": (["--model", "kimi-k3", "--gpu", "h300"], None, "gpu", "h200"),
    "negative price": ([*K3, "--price-per-gpu-hour", "-1"], None, "price_per_gpu_hour", "5"),
    "utilization above 1": ([*K3, "--utilization", "1.5"], None, "utilization", "0.6"),
    "utilization of 0": ([*K3, "--utilization", "0"], None, "utilization", "0.6"),
    "malformed json": ([], '{"model": "kimi-k3",', None, '"model"'),
    "unknown json field": (
        [],
        '{"model": "kimi-k3", "gpu": "b300", "gpu_count": 8}',
        "gpu_count",
        "did you mean gpus",
    ),
    "stack released after as_of": (
        [*K3, "--stack", "vllm-k3-decode", "--as-of", "2026-10-01"],
        None,
        "as_of",
        "2026-10-16",
    ),
}


def parse_one_object(stdout: str) -> dict[str, Any]:
    value = json.loads(stdout)
    assert isinstance(value, dict), stdout
    return value


# --- estimate: the JSON contract ------------------------------------------------------------


def test_estimate_json_prints_one_object_with_every_contract_field(run, before_decode_path_flags):
    result = run("estimate", "--json", *before_decode_path_flags)
    assert result.exit_code == 0, result.output
    estimate = parse_one_object(result.stdout)
    assert estimate.keys() >= ESTIMATE_FIELDS


def test_estimate_json_reproduces_the_write_ups_nine_ninety_eight_as_measured(
    run, before_decode_path_flags
):
    estimate = parse_one_object(run("estimate", "--json", *before_decode_path_flags).stdout)
    assert round(estimate["usd_per_million_output_tokens"], 2) == 9.98
    assert estimate["usd_per_hour"] == 80
    assert estimate["basis"] == "measured" and estimate["error_band"] == 0
    assert estimate["sources"] and all(s["date"] for s in estimate["sources"])


def test_estimate_json_gives_breakeven_utilization_when_an_api_price_is_given(
    run, before_decode_path_flags
):
    result = run(
        "estimate", "--json", *before_decode_path_flags, "--api-price-per-million-output", "15"
    )
    estimate = parse_one_object(result.stdout)
    assert estimate["breakeven_utilization"] == pytest.approx(9.98 / 15, abs=0.001)


def test_a_scenario_from_a_file_and_from_stdin_gives_the_same_json(
    run, scenario_file, before_decode_path
):
    from_file = run("estimate", "--json", "--file", str(scenario_file(before_decode_path)))
    from_stdin = run("estimate", "--json", input=json.dumps(before_decode_path))
    from_dash = run("estimate", "--json", "--file", "-", input=json.dumps(before_decode_path))
    assert from_file.exit_code == from_stdin.exit_code == from_dash.exit_code == 0
    assert parse_one_object(from_file.stdout) == parse_one_object(from_stdin.stdout)
    assert parse_one_object(from_dash.stdout) == parse_one_object(from_stdin.stdout)


def test_flags_override_the_fields_of_the_scenario_file(run, scenario_file, before_decode_path):
    path = scenario_file({**before_decode_path, "concurrency": 16, "price_per_gpu_hour": 9})
    overrides = ["--concurrency", "64", "--price-per-gpu-hour", "5"]
    result = run("estimate", "--json", "--file", str(path), *overrides)
    estimate = parse_one_object(result.stdout)
    assert estimate["concurrency"] == 64 and estimate["price_per_gpu_hour"] == 5
    assert round(estimate["usd_per_million_output_tokens"], 2) == 9.98


def test_flags_override_the_fields_read_from_stdin(run, before_decode_path):
    stdin = json.dumps({**before_decode_path, "concurrency": 16})
    result = run("estimate", "--json", "--file", "-", "--concurrency", "64", input=stdin)
    assert parse_one_object(result.stdout)["concurrency"] == 64


# --- estimate: for people --------------------------------------------------------------------


def test_estimate_without_json_shows_the_write_ups_figures_and_the_gb300_caveat(
    run, before_decode_path_flags
):
    result = run("estimate", *before_decode_path_flags, wide=True)
    assert result.exit_code == 0, result.output
    # $80/hour at $9.98 per M is 2,226.7 tokens/s (DESIGN.md's implied throughput)
    for figure in ("2,227 tok/s total", "$9.98/M output tokens", "$80.00/hour", "$58,400/month"):
        assert figure in result.stdout
    caveats = result.stdout.split("Caveats:", 1)[1]
    assert "measured on GB300" in caveats


def test_estimate_without_json_shows_the_basis_and_the_measurement_it_rests_on(
    run, before_decode_path_flags
):
    out = run("estimate", *before_decode_path_flags, wide=True).stdout
    assert "Basis: measured (exact)" in out
    measured = (
        "Kimi K3 on 16x GB300 at batch 64 with vLLM (V1 engine, before the Kimi K3 decode path)"
    )
    assert f"; {measured})" in out.split("\nSources\n", 1)[1]
    assert "k3-gb300x16-b64-vllm" not in out  # the id is the JSON's, not the answer's


def test_the_leased_b300_is_said_to_be_estimated_from_the_gb300_measurement(
    run, before_decode_path
):
    on_b300 = {**before_decode_path, "gpu": "b300"}
    estimate = parse_one_object(run("estimate", "--json", input=json.dumps(on_b300)).stdout)
    assert estimate["basis"] == "estimated" and estimate["error_band"] > 0
    assert estimate["estimated_from"] == "k3-gb300x16-b64-vllm"
    assert round(estimate["usd_per_million_output_tokens"], 2) > 9.98  # two 8-GPU domains
    out = run("estimate", input=json.dumps(on_b300), wide=True).stdout
    band = round(estimate["error_band"] * 100)
    [source] = [
        s["title"] for s in estimate["sources"] if s["measurement"] == "k3-gb300x16-b64-vllm"
    ]
    measured = (
        "Kimi K3 on 16x GB300 at batch 64 with vLLM (V1 engine, before the Kimi K3 decode path)"
    )
    assert f"Basis: estimated from {source} — {measured} (±{band}%)" in out
    carried = out.split("Caveats:", 1)[1]
    assert f"estimated from {source}, measured on 16x GB300 (one NVLink domain)" in carried
    assert "k3-gb300x16-b64-vllm" not in out


def test_estimate_says_what_slack_and_the_console_say(
    run, before_decode_path_flags, before_decode_path, engine
):
    """One voice: the CLI prints the plain text of the template /lease cost answers with."""
    reply = answer_question(engine, Scenario.model_validate(before_decode_path), today=NOW.date())
    console = Renderer().message(reply.template, **reply.context).console_text()
    assert run("estimate", *before_decode_path_flags).stdout.strip() == console.strip()


# Kimi K3 at MXFP4 is 1,560 GB of weights: 8 A100-80GBs cannot hold it.
TOO_SMALL = [
    *("--model", "kimi-k3", "--gpu", "a100-80gb", "--gpus", "8", "--precision", "mxfp4"),
    *("--price-per-gpu-hour", "2.5"),
]


def test_a_deployment_that_does_not_fit_says_what_it_needs_and_shows_no_throughput(run):
    result = run("estimate", *TOO_SMALL, wide=True)
    assert result.exit_code == 0, result.output
    needs = parse_one_object(run("estimate", "--json", *TOO_SMALL).stdout)["memory"]["min_gpus"]
    assert f"Does not fit in memory: needs at least {needs} GPUs" in result.stdout
    assert f"does not fit: needs at least {needs} GPUs" in result.stdout
    assert "tok/s" not in result.stdout and "/M output tokens" not in result.stdout
    assert "$20.00/hour" in result.stdout  # what the GPUs asked cost still stands


def test_estimate_json_of_a_deployment_that_does_not_fit_has_null_figures(run):
    result = run("estimate", "--json", *TOO_SMALL, "--api-price-per-million-output", "15")
    assert result.exit_code == 0, result.output
    estimate = parse_one_object(result.stdout)
    assert estimate.keys() >= ESTIMATE_FIELDS
    assert estimate["fits_memory"] is False
    for name in (
        "output_tokens_per_s",
        "usd_per_million_output_tokens",
        "breakeven_utilization",
        "error_band",
        "ttft_error_band",
    ):
        assert estimate[name] is None, name


def test_a_batch_beyond_the_kv_cache_is_said_to_queue(run, catalog):
    """150k-token prompts, 64 at once, on 8 B300s: the cache holds about half of them."""
    args = [
        *("--model", "kimi-k3", "--gpu", "b300", "--gpus", "8", "--concurrency", "64"),
        *("--input-tokens", "150000", "--output-tokens", "2000", "--reasoning-tokens", "0"),
    ]
    estimate = parse_one_object(run("estimate", "--json", *args).stdout)
    queued = estimate["queued_requests"]
    assert estimate["fits_memory"] is True and 0 < queued < 64
    # its first token carries its serving engine's TTFT band, not the throughput band
    serving = catalog.stacks.entries[estimate["stack"]].engine
    band = catalog.ttft_bands.by_serving_engine[serving].band
    assert estimate["ttft_error_band"] == band != estimate["error_band"]
    out = run("estimate", *args, wide=True).stdout
    assert (
        f"Queues: {queued} of the 64 requests wait for KV-cache room while {64 - queued} decode; "
        "time to first token includes the wait"
    ) in out


# --- bad input: exit 2, one JSON object or one friendly line ---------------------------------


@pytest.mark.parametrize(("args", "stdin", "field", "hint"), BAD_INPUTS.values(), ids=BAD_INPUTS)
def test_bad_input_with_json_exits_2_with_one_error_object_naming_the_field(
    run, args, stdin, field, hint
):
    result = run("estimate", "--json", *args, input=stdin)
    assert result.exit_code == 2, result.output
    error = parse_one_object(result.stdout)
    assert error.keys() == {"error", "field", "hint"}
    assert error["field"] == field
    assert error["error"] and hint in str(error["hint"])


@pytest.mark.parametrize(("args", "stdin", "field", "hint"), BAD_INPUTS.values(), ids=BAD_INPUTS)
def test_bad_input_without_json_exits_2_with_one_friendly_line(run, args, stdin, field, hint):
    result = run("estimate", *args, input=stdin)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("Error: ") and hint in lines[0]
    assert "Traceback" not in result.output


def test_a_misspelt_json_field_is_named_as_typed_with_the_field_it_meant(run):
    result = run("estimate", "--json", input='{"modle": "kimi-k3", "gpu": "b300"}')
    assert result.exit_code == 2
    error = parse_one_object(result.stdout)
    assert error["field"] == "modle"
    assert error["hint"].startswith("did you mean model?")


def test_an_error_echoes_the_users_text_verbatim_even_when_it_looks_like_markup(run):
    result = run("estimate", "--model", "[/x]", "--gpu", "b300")
    assert result.exit_code == 2, result.output
    assert "unknown model '[/x]'" in result.output


def test_an_unknown_gpu_suggests_the_nearest_real_ones(run):
    result = run("estimate", "--json", "--model", "kimi-k3", "--gpu", "h300")
    hint = parse_one_object(result.stdout)["hint"]
    assert "h200" in hint and "b300" in hint


# --- compare -----------------------------------------------------------------------------


def test_compare_says_the_cheaper_hourly_price_is_about_three_times_dearer_per_token(run):
    result = run("compare", input=json.dumps(CHEAP_HOURS_DEAR_TOKENS), wide=True)
    assert result.exit_code == 0, result.output
    assert "3.3x dearer per token" in result.stdout
    assert "3.1x cheaper per GPU-hour" in result.stdout  # $7.87 / $2.51
    assert "cheaper per GPU-hour ($2.51 vs $7.87)" in result.stdout


def test_compare_prints_the_table_slack_shows(run):
    out = run("compare", input=json.dumps(CHEAP_HOURS_DEAR_TOKENS)).stdout
    header, b300, a100 = out.split("Side by side:\n", 1)[1].splitlines()[:3]
    assert header.split() == [
        "deployment",
        "stack",
        "batch",
        "$/GPU-h",
        "$/hour",
        "tok/s",
        "$/M",
        "basis",
    ]
    assert b300.startswith("8x B300 mxfp4") and "$7.87" in b300 and "$62.96" in b300
    assert a100.startswith("8x A100-80GB gguf-ud-iq1_s") and "$2.51" in a100


def test_compare_json_prints_one_estimate_per_scenario(run):
    result = run("compare", "--json", input=json.dumps(CHEAP_HOURS_DEAR_TOKENS))
    estimates = json.loads(result.stdout)
    assert [e["gpu"] for e in estimates] == ["b300", "a100-80gb"]
    assert all(e.keys() >= ESTIMATE_FIELDS for e in estimates)


def test_compare_with_a_bad_scenario_exits_2_naming_the_field(run):
    bad = [CHEAP_HOURS_DEAR_TOKENS[0], {**CHEAP_HOURS_DEAR_TOKENS[1], "utilization": 2}]
    result = run("compare", "--json", input=json.dumps(bad))
    assert result.exit_code == 2
    assert parse_one_object(result.stdout)["field"] == "utilization"


# --- catalog -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("models", {"kimi-k3", "deepseek-v3", "llama-3.1-70b"}),
        ("gpus", {"b300", "a100-80gb", "mi355x"}),
        ("stacks", {"vllm", "vllm-k3-decode", "llama-cpp"}),
        ("measurements", {"k3-gb300x16-b64-vllm", "k3-b300x8-b1-vllm-community"}),
    ],
)
def test_catalog_lists_its_rows_as_a_table_and_as_json(run, kind, expected):
    table = run("catalog", kind, wide=True)
    assert table.exit_code == 0, table.output
    assert all(rid in table.stdout for rid in expected)
    rows = json.loads(run("catalog", kind, "--json").stdout)
    assert expected <= {row["id"] for row in rows}


def test_catalog_measurements_json_gives_the_tokens_per_s_a_cost_figure_implies(run):
    rows = json.loads(run("catalog", "measurements", "--json").stdout)
    b64 = next(r for r in rows if r["id"] == "k3-gb300x16-b64-vllm")
    assert b64["tokens_per_s"] == pytest.approx(2226.7, abs=0.1)  # $80/h at $9.98 per M


def test_catalog_validate_summarises_leave_one_out_and_holdout_errors(run):
    result = run("catalog", "validate", wide=True)
    assert result.exit_code == 0, result.output
    for name in ("leave-one-source-out", "leave-deployment-out", "leave-one-out", "holdout"):
        assert f"{name}: " in result.stdout
    assert "median |error|" in result.stdout and "inside the reported band" in result.stdout
    for grouping in ("By source", "By GPU family", "By model class"):
        assert grouping in result.stdout
    assert "MLPerf Inference v5.1 Datacenter, closed" in result.stdout
    assert "Blackwell Ultra" in result.stdout and "MoE with linear attention" in result.stdout


def test_catalog_validate_json_holds_every_check_its_groups_and_the_bands(run):
    report = parse_one_object(run("catalog", "validate", "--json").stdout)
    kinds = {"leave_one_source_out", "leave_deployment_out", "leave_one_out", "holdout"}
    assert kinds | {"summary", "bands"} <= report.keys()
    figure = report["leave_one_source_out"][0]
    assert {"source", "gpu_family", "model_class", "error_band", "inside_band"} <= figure.keys()
    summary = report["summary"]["leave_one_source_out"]
    assert {"overall", "source", "gpu_family", "model_class"} <= summary.keys()
    assert summary["overall"]["figures"] == len(report["leave_one_source_out"])


def test_a_baseline_written_today_holds_today_and_catches_a_regression(run, tmp_path):
    path = tmp_path / "baseline.yaml"
    written = run("catalog", "validate", "--write-baseline", str(path), wide=True)
    assert written.exit_code == 0, written.output
    assert f"Wrote the baseline to {path}" in written.stdout
    held = run("catalog", "validate", "--baseline", str(path), wide=True)
    assert held.exit_code == 0, held.output
    assert "no group regressed" in held.stdout
    text = path.read_text(encoding="utf-8")
    better = text.replace("median_error: 0.", "median_error: 0.0", 1)  # a tenth of the error
    path.write_text(better, encoding="utf-8")
    regressed = run("catalog", "validate", "--baseline", str(path), wide=True)
    assert regressed.exit_code == 1, regressed.output
    assert "1 regression" in regressed.stdout and "median error" in regressed.stdout


@pytest.mark.parametrize(
    ("content", "says"),
    [(None, "cannot read the baseline"), ("checks: [1, 2]", "is not a baseline file")],
)
def test_a_baseline_that_cannot_be_read_is_refused_in_one_line(run, tmp_path, content, says):
    path = tmp_path / "baseline.yaml"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = run("catalog", "validate", "--baseline", str(path))
    assert result.exit_code == 2, result.output
    assert says in result.stdout and "--write-baseline" in result.stdout
    assert "Traceback" not in result.output


def test_catalog_validate_field_judges_the_engine_on_the_fields_runs_by_group(run):
    result = run("catalog", "validate", "--field", wide=True)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "3,454 rows" in out and "Not asked yet:" in out
    assert "disaggregated prefill and decode workers" in out
    for figure in ("aggregate output tok/s", "per-user tok/s (1000 / TPOT)", "time to first token"):
        assert figure in out
    for grouping in ("By serving engine", "By GPU family", "By model", "By the layout", "By mode"):
        assert grouping in out
    assert "trtllm as stack trt-llm" in out and "attention DP" in out


def test_catalog_validate_field_json_holds_each_comparison_with_the_layout_it_ran(run):
    report = parse_one_object(run("catalog", "validate", "--field", "--json").stdout)
    assert report["asked"] + sum(report["not_asked"].values()) == report["rows"]
    assert len(report["comparisons"]) == report["asked"]
    assert len(report["not_asked_rows"]) == report["rows"] - report["asked"]
    row = report["comparisons"][0]
    assert {"tp", "pp", "attention_dp", "moe_tp", "moe_ep", "kind"} <= row["layout"].keys()
    assert {"measured", "predicted", "relative_error", "inside_band"} <= row["ttft"].keys()
    assert {"overall", "stack", "gpu_family", "model", "layout", "mode"} <= report["summary"].keys()


def test_a_field_baseline_written_today_holds_today_and_catches_a_regression(
    run, tmp_path, catalog
):
    path = tmp_path / "field-baseline.yaml"
    bands = tmp_path / "ttft-bands.yaml"
    written = run(
        *("catalog", "validate", "--field", "--write-baseline", str(path)),
        *("--write-ttft-bands", str(bands)),
        wide=True,
    )
    assert written.exit_code == 0, written.output
    assert f"Wrote the baseline to {path}" in written.stdout
    # the TTFT bands written beside it, in the catalog's own format: today's, as committed
    assert f"Wrote the TTFT bands to {bands}" in written.stdout
    files = [p for p in packaged_files() if p.name != "ttft-bands.yaml"]
    found, kept = load_catalog(files=[*files, bands]).ttft_bands, catalog.ttft_bands
    assert found is not None and kept is not None
    assert found.command.endswith(f"--write-ttft-bands {bands}")
    assert found.overall.first_token_times == kept.overall.first_token_times
    assert found.overall.band == pytest.approx(kept.overall.band, abs=0.005)
    assert found.by_serving_engine.keys() == kept.by_serving_engine.keys()
    held = run("catalog", "validate", "--field", "--baseline", str(path), wide=True)
    assert held.exit_code == 0, held.output
    assert "no group regressed" in held.stdout
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("median_error: 0.", "median_error: 0.0", 1), encoding="utf-8")
    regressed = run("catalog", "validate", "--field", "--baseline", str(path), wide=True)
    assert regressed.exit_code == 1, regressed.output
    assert "1 regression" in regressed.stdout and "field aggregate" in regressed.stdout


def test_ttft_bands_are_written_only_from_the_field_check(run, tmp_path):
    path = tmp_path / "ttft-bands.yaml"
    result = run("catalog", "validate", "--write-ttft-bands", str(path))
    assert result.exit_code == 2, result.output
    assert "--write-ttft-bands needs --field" in result.stdout and not path.exists()
    assert "Traceback" not in result.output


def test_the_catalogs_baseline_given_to_the_field_check_is_refused_in_one_line(run):
    catalogs = Path(__file__).parent.parent / "data" / "validation-baseline.yaml"
    result = run("catalog", "validate", "--field", "--baseline", str(catalogs))
    assert result.exit_code == 2, result.output
    assert "is not a baseline file" in result.stdout and "--field --write-baseline" in result.stdout
    assert "Traceback" not in result.output


# --- demo and version ----------------------------------------------------------------------


def test_the_demo_shows_the_write_ups_before_and_after_costs(run):
    result = run("demo", wide=True)
    assert result.exit_code == 0, result.output
    out = result.stdout
    for before, after in (("$21.61", "$12.64"), ("$9.98", "$6.16")):
        assert before in out and after in out
        assert out.index(before) < out.index(after)


def test_the_demo_shows_that_cheap_hours_can_be_dear_tokens(run):
    out = run("demo", wide=True).stdout
    assert "3.3x dearer per token" in out


def test_the_demo_says_each_speed_up_from_the_figures_in_its_table(run):
    """DESIGN.md: batch 1 goes from ~490 to 842 tokens/s, 1.72x."""
    out = run("demo").stdout
    assert "1.72x tokens/s (490.0 → 842.0)" in out
    assert "−38% cost per M output tokens ($9.98 → $6.16)" in out


def test_the_installed_console_script_reports_the_package_version():
    script = Path(sysconfig.get_path("scripts")) / "leasewise"
    if not script.exists():
        pytest.skip(f"leasewise is not installed in this environment ({script})")
    done = subprocess.run(
        [str(script), "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"leasewise {version('leasewise')}"
