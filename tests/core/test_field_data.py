"""The field's public measurements and the catalog data the new physics reads.

AIConfigurator's silicon sample (aiconfigurator-core 0.12.0, Apache-2.0) is imported by
``scripts/import_field_data.py`` into ``core/data/field``. These tests hold the shipped
files to the catalog, check a few rows' derived figures against the source's raw values
(copied here from the package's ``systems/silicon_sample.csv``), run the script's
conversion on literal rows, and reproduce the whole import from the wheel when a copy of
it is at ``LEASEWISE_AIC_WHEEL`` (CI has no wheel: those tests skip and say so).
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import os
import pickle
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from core.catalog import Catalog, load_catalog, packaged_field_data, packaged_files
from core.catalog.field import FieldMeasurement
from core.errors import CatalogError

ROOT = Path(__file__).resolve().parents[2]
FIELD = packaged_field_data()


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "import_field_data", ROOT / "scripts" / "import_field_data.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


script = _script()


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="module")
def field(catalog: Catalog) -> dict[str, FieldMeasurement]:
    return {m.id: m for m in catalog.field_measurements()}


def provenance() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load((FIELD / "provenance.yaml").read_text())
    return document


# --- the shipped data -----------------------------------------------------------------------


def test_the_shipped_measurements_load_as_many_as_the_import_kept(field):
    rows = provenance()["rows"]
    assert len(field) == rows["imported"] == 3454
    assert rows["read"] == 5221
    assert rows["imported"] + rows["skipped"] == rows["read"]
    assert sum(rows["skipped_by_reason"].values()) == rows["skipped"]


def test_every_measurement_names_a_model_gpu_stack_and_precision_the_catalog_holds(catalog, field):
    for m in field.values():
        assert m.model in catalog.models and m.gpu in catalog.gpus
        assert m.stack in catalog.stacks and m.precision in catalog.precisions
        assert catalog.stacks.get(m.stack).serves(model=m.model, gpu=m.gpu, precision=m.precision)


def test_the_sample_covers_the_models_and_gpus_it_was_imported_for(field):
    assert {m.model for m in field.values()} == {
        "deepseek-r1",
        "deepseek-v3",
        "gpt-oss-120b",
        "llama-3.1-70b",
        "llama-3.1-8b",
        "qwen3-32b",
        "qwen3-235b-a22b",
        "qwen3.5-397b-a17b",
        "kimi-k2.5",
        "minimax-m2.5",
        "glm-5",
    }
    assert {m.gpu for m in field.values()} == {"h100-sxm", "h200", "b200", "gb200", "b300", "gb300"}
    assert {m.stack for m in field.values()} == {"trtllm-1.0-1.3", "sglang-0.5", "vllm-0.11-0.19"}


def test_an_aggregated_rows_figures_follow_from_its_raw_values(field):
    # silicon_sample.csv: minimaxm2_5_b300_vllm_fp8_agg_8192x1024_c128_cfg733, vLLM 0.19.0,
    # b300_sxm, tp 4, batch 128, silicon_concurrency=128, ISL 8192, OSL 1024.
    ttft_ms, tpot_ms = 972.3109823355117, 33.442908754168066
    m = field["minimaxm2_5_b300_vllm_fp8_agg_8192x1024_c128_cfg733"]
    assert (m.model, m.gpu, m.precision, m.stack) == (
        "minimax-m2.5",
        "b300",
        "fp8",
        "vllm-0.11-0.19",
    )
    assert (m.input_tokens, m.output_tokens, m.concurrency) == (8192, 1024, 128)
    assert (m.ttft_ms, m.tpot_ms) == (ttft_ms, tpot_ms)
    assert m.gpus == 4
    assert m.ttft_s == pytest.approx(0.9723109823355117)
    assert m.per_user_tokens_per_s == pytest.approx(1000 / tpot_ms)
    latency_s = (ttft_ms + 1023 * tpot_ms) / 1000
    assert m.request_latency_s == pytest.approx(latency_s)
    assert m.output_tokens_per_s == pytest.approx(128 * 1024 / latency_s)
    assert m.output_tokens_per_s == pytest.approx(3725.29, rel=1e-5)
    assert m.output_tokens_per_s_per_gpu == pytest.approx(3725.29 / 4, rel=1e-5)
    assert m.backend_version == "0.19.0" and "workflow_run_id=758" in m.source


def test_a_disaggregated_row_counts_the_gpus_of_every_worker(field):
    # silicon_sample.csv: kimik2_5_gb200_trtllm_fp4_disagg_1024x1024_c192_cfg759: 1 prefill
    # worker (tp 1, attention DP 4, EP 4) and 4 decode workers (tp 8, EP 8), decode batch 48.
    m = field["kimik2_5_gb200_trtllm_fp4_disagg_1024x1024_c192_cfg759"]
    prefill, decode = m.worker("prefill"), m.worker("decode")
    assert prefill is not None and decode is not None and m.worker("aggregated") is None
    assert (prefill.workers, prefill.gpus_per_worker, prefill.moe_ep) == (1, 4, 4)
    assert (decode.workers, decode.gpus_per_worker, decode.batch_size) == (4, 8, 48)
    assert m.gpus == 4 + 32
    assert (m.model, m.precision) == ("kimi-k2.5", "nvfp4")
    assert m.per_user_tokens_per_s == pytest.approx(1000 / 11.703058552696522)
    latency_s = (395.3342926890855 + 1023 * 11.703058552696522) / 1000
    assert m.output_tokens_per_s_per_gpu == pytest.approx(192 * 1024 / latency_s / 36)


def test_a_queued_run_keeps_its_concurrency_beside_its_smaller_batch(field):
    # qwen_qwen3_32b_..._gb200_trtllm_agg_2000x500_c288_tp2_epnone_1: 288 clients, batch 144,
    # TTFT 80 s (half the clients wait); attention DP and MoE sizes 0 in the source (dense).
    m = field["qwen_qwen3_32b_qwen_qwen3_32b_gb200_trtllm_agg_2000x500_c288_tp2_epnone_1"]
    agg = m.worker("aggregated")
    assert agg is not None
    assert (m.concurrency, agg.batch_size, agg.attention_dp, agg.moe_tp, agg.moe_ep) == (
        288,
        144,
        1,
        1,
        1,
    )
    assert (m.precision, m.gpus, m.ttft_s) == ("bf16", 2, pytest.approx(80.42764893139375))


def test_every_gpu_names_its_nic_and_one_way_bandwidth_with_a_dated_source(catalog):
    for gpu in catalog.gpus:
        assert gpu.scale_out_bandwidth_gb_per_s > 0 and gpu.scale_out_nic
        assert gpu.sources[-1].url and gpu.sources[-1].date
    by_id = {g.id: g.scale_out_bandwidth_gb_per_s for g in catalog.gpus}
    assert {g: by_id[g] for g in ("h100-sxm", "h200", "b200", "gb200")} == dict.fromkeys(
        ("h100-sxm", "h200", "b200", "gb200"), 50
    )
    assert (by_id["b300"], by_id["gb300"], by_id["a100-80gb"]) == (100, 100, 25)
    assert "ConnectX-8" in catalog.gpus.get("b300").scale_out_nic


def test_the_notice_and_licence_sit_beside_the_derived_data():
    notice = (FIELD / "NOTICE").read_text()
    assert "aiconfigurator-core 0.12.0" in notice and "Apache License, Version 2.0" in notice
    assert "Apache License" in (FIELD / "LICENSE-aiconfigurator").read_text()
    source = provenance()["source"]
    assert (source["package"], source["version"], source["licence"]) == (
        "aiconfigurator-core",
        "0.12.0",
        "Apache-2.0",
    )


def test_loading_the_catalog_leaves_the_field_data_unread():
    probe = (
        "import sys; from core.catalog import load_catalog; load_catalog(); "
        "print('core.catalog.field' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_a_pickled_catalog_reads_its_field_data_again_when_asked(catalog, field):
    copied = pickle.loads(pickle.dumps(catalog))
    assert len(copied.field_measurements()) == len(field)


def test_a_catalog_of_given_files_has_no_field_data_unless_named(tmp_path):
    assert load_catalog(files=packaged_files()).field_measurements() == ()
    named = load_catalog(files=packaged_files(), field_data=FIELD)
    assert len(named.field_measurements()) == provenance()["rows"]["imported"]


def test_a_field_row_naming_an_unknown_gpu_names_the_file_the_row_and_the_field(tmp_path):
    folder = tmp_path / "field"
    folder.mkdir()
    with (FIELD / "silicon_sample.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows[5]["gpu"] = "b9000"
    with (folder / "silicon_sample.csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    broken = load_catalog(files=packaged_files(), field_data=folder)
    with pytest.raises(CatalogError) as caught:
        broken.field_measurements()
    assert caught.value.file == "field/silicon_sample.csv"
    assert (caught.value.entry, caught.value.field) == (rows[5]["id"], "gpu")
    assert "b9000" in str(caught.value)


def test_a_field_row_with_a_malformed_figure_is_refused_naming_the_field(tmp_path):
    folder = tmp_path / "field"
    shutil.copytree(FIELD, folder)
    path = folder / "silicon_sample.csv"
    lines = path.read_text().splitlines(keepends=True)
    header = lines[0].rstrip("\n").split(",")
    cells = next(csv.reader([lines[1]]))
    cells[header.index("tpot_ms")] = "-3"
    out = [lines[0], _csv_line(cells), *lines[2:]]
    path.write_text("".join(out))
    with pytest.raises(CatalogError) as caught:
        load_catalog(files=packaged_files(), field_data=folder).field_measurements()
    assert (caught.value.entry, caught.value.field) == (cells[0], "tpot_ms")


def _csv_line(cells: list[str]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(cells)
    return out.getvalue()


# --- the model figures ----------------------------------------------------------------------

COMPUTED_EXACTLY = (
    "layers",
    "experts",
    "experts_per_token",
    "shared_experts",
    "kv_layers",
    "kv_heads",
    "kv_bytes_per_token",
    "state_bytes_per_sequence",
    "attention_flops_per_context_token",
    "routed_expert_params_b",
    "active_params_b",
    "routed_expert_weight_fraction",
    "sparse_attention_top_k_tokens",
)


def figures() -> dict[str, dict[str, Any]]:
    document: dict[str, dict[str, dict[str, Any]]] = yaml.safe_load(
        (FIELD / "architectures.yaml").read_text()
    )
    return document["architectures"]


def test_the_committed_configs_give_the_committed_architecture_figures():
    for model, expected in figures().items():
        config = json.loads((FIELD / expected["config"]).read_text())
        computed = script.architecture(model, config).as_yaml()
        assert {"config": expected["config"], **computed} == expected, model


@pytest.mark.parametrize(
    "model", ["kimi-k3", "kimi-k2.5", "qwen3.5-397b-a17b", "minimax-m2.5", "glm-5"]
)
def test_each_added_or_updated_model_carries_its_configs_figures(catalog, model):
    entry = catalog.models.get(model).model_dump()
    expected = figures()[model]
    for name in COMPUTED_EXACTLY:
        if name in expected:
            assert entry[name] == expected[name], name
    # Totals: the text decoder as computed; Kimi K3 keeps the write-up's 2.8T, 0.7% above it.
    assert entry["total_params_b"] == pytest.approx(expected["total_params_b"], rel=0.01)
    for precision, gb in expected.get("checkpoint_gb", {}).items():
        assert entry["checkpoint_gb"][precision] == pytest.approx(gb, rel=0.01)


def test_the_mla_arithmetic_reproduces_deepseek_v3s_card_and_catalog_entry(catalog):
    computed, entry = figures()["deepseek-v3"], catalog.models.get("deepseek-v3")
    assert computed["total_params_b"] == 671.0  # the card's 671B
    assert computed["active_params_b"] == pytest.approx(37, abs=1)  # the card's 37B
    assert computed["routed_expert_params_b"] == entry.routed_expert_params_b
    assert computed["kv_bytes_per_token"] == entry.kv_bytes_per_token


def test_kimi_k3_keeps_the_write_ups_facts(catalog):
    k3 = catalog.models.get("kimi-k3")
    assert (k3.total_params_b, k3.experts, k3.experts_per_token) == (2800, 896, 16)
    assert k3.checkpoint_gb == {"mxfp4": 1560}
    # The config's own bytes (MXFP4 experts, BF16 rest) land on the write-up's 1.56 TB.
    assert figures()["kimi-k3"]["checkpoint_gb"]["mxfp4"] == pytest.approx(1560, rel=0.005)


def test_sparse_attention_reads_at_most_its_top_k_context_tokens(catalog):
    glm = catalog.models.get("glm-5")
    assert (glm.attended_tokens(1000), glm.attended_tokens(9216)) == (1000, 2048)
    assert catalog.models.get("kimi-k3").attended_tokens(9216) == 9216


# --- the importer ---------------------------------------------------------------------------

RAW_AGG = {
    "id": "example_agg",
    "silicon_data_source": "db-dump/2026-04-27; config_id=1; silicon_concurrency=64; "
    "measured=2026-04-17T00:00:00.000Z; lmsysorg/sglang:v0.5.9-cu130",
    "backend": "sglang",
    "backend_version": "0.5.9",
    "model_path": "deepseek-ai/DeepSeek-V3",
    "system": "b200_sxm",
    "precision": "fp4",
    "mode": "agg",
    "isl": "1024",
    "osl": "1024",
    "gemm_quant_mode": "nvfp4",
    "moe_quant_mode": "nvfp4",
    "batch_size": "64",
    "tp_size": "8",
    "pp_size": "1",
    "attention_dp_size": "1",
    "moe_tp_size": "1",
    "moe_ep_size": "8",
    **{
        f"{role}_{name}": ""
        for role in ("prefill", "decode")
        for name in (
            "batch_size",
            "num_workers",
            "tp_size",
            "pp_size",
            "attention_dp_size",
            "moe_tp_size",
            "moe_ep_size",
        )
    },
    "silicon_ttft_ms": "496.37800147465896",
    "silicon_tpot_ms": "16.31159667720049",
}


def raw(**changes: str) -> dict[str, str]:
    return {**RAW_AGG, **changes}


def test_the_importer_maps_names_to_catalog_ids_and_keeps_values_as_spelt():
    row = script.convert(raw()).row
    assert (row["model"], row["gpu"], row["stack"], row["precision"]) == (
        "deepseek-v3",
        "b200",
        "sglang-0.5",
        "nvfp4",
    )
    assert (row["concurrency"], row["measured"]) == ("64", "2026-04-17")
    assert (row["agg_workers"], row["agg_tp"], row["agg_moe_ep"], row["decode_tp"]) == (
        "1",
        "8",
        "8",
        "",
    )
    assert (row["ttft_ms"], row["tpot_ms"]) == ("496.37800147465896", "16.31159667720049")
    assert row["source"] == RAW_AGG["silicon_data_source"] and row["id"] == "example_agg"
    assert list(row) == list(script.COLUMNS)


@pytest.mark.parametrize(
    ("changes", "precision"),
    [
        ({"model_path": "openai/gpt-oss-120b"}, "mxfp4"),
        ({"precision": "fp8", "gemm_quant_mode": "fp8", "moe_quant_mode": "fp8_block"}, "fp8"),
        (
            {
                "model_path": "moonshotai/Kimi-K2.5",
                "precision": "int4",
                "gemm_quant_mode": "int4_wo",
                "moe_quant_mode": "int4_wo",
            },
            "int4-awq",
        ),
        (
            {
                "model_path": "Qwen/Qwen3-32B",
                "precision": "",
                "gemm_quant_mode": "",
                "moe_quant_mode": "",
                "moe_tp_size": "0",
                "moe_ep_size": "0",
            },
            "bf16",
        ),
    ],
)
def test_the_importer_reads_precision_from_the_quantisation_modes(changes, precision):
    assert script.convert(raw(**changes)).row["precision"] == precision


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"model_path": "nvidia/DeepSeek-V3.1-NVFP4"}, "model not in the catalog"),
        ({"silicon_data_source": "source_file=x.csv; measured=2026-01-23"}, "no concurrency"),
        ({"moe_tp_size": "2"}, "MoE width"),
        (
            {
                "mode": "disagg",
                "batch_size": "",
                "tp_size": "",
                "pp_size": "",
                "attention_dp_size": "",
                "moe_tp_size": "",
                "moe_ep_size": "",
                "prefill_tp_size": "4",
                "prefill_pp_size": "1",
                "prefill_attention_dp_size": "1",
                "prefill_moe_tp_size": "1",
                "prefill_moe_ep_size": "4",
            },
            "disaggregated without worker counts",
        ),
        ({"silicon_tpot_ms": "0"}, "TTFT or TPOT"),
    ],
)
def test_the_importer_skips_what_it_cannot_represent_and_says_why(changes, reason):
    with pytest.raises(script.Skip, match=reason):
        script.convert(raw(**changes))


def test_a_dense_models_missing_attention_dp_and_moe_sizes_count_as_one():
    row = script.convert(
        raw(model_path="Qwen/Qwen3-32B", attention_dp_size="0", moe_tp_size="0", moe_ep_size="0")
    ).row
    assert (row["agg_attention_dp"], row["agg_moe_tp"], row["agg_moe_ep"]) == ("1", "1", "1")


def test_the_importer_keeps_one_of_two_identical_measurements_and_counts_the_other():
    again = raw(id="example_agg_again", silicon_data_source=RAW_AGG["silicon_data_source"] + "; x")
    other = raw(id="example_agg_rerun", silicon_tpot_ms="16.5")
    imported = script.import_rows([raw(), again, other])
    assert [r["id"] for r in imported.rows] == ["example_agg", "example_agg_rerun"]
    assert sum(imported.skipped.values()) == 1
    assert "duplicate" in next(iter(imported.skipped))


def squared(**changes: str) -> dict[str, str]:
    """RAW_AGG (SGLang TP8 with EP8, 8 GPUs) as the squaring exports write it."""
    return raw(tp_size="64", moe_tp_size="8", moe_ep_size="8", **changes)


def test_a_squared_layout_from_the_squaring_exports_is_read_as_its_k_gpu_run():
    converted = script.convert(squared(id="example_squared"))
    row = converted.row
    assert (row["agg_tp"], row["agg_attention_dp"], row["agg_moe_tp"], row["agg_moe_ep"]) == (
        "8",
        "1",
        "1",
        "8",
    )
    assert row["agg_batch_size"] == "64" and converted.corrected == (script.CORRECTED,)


def test_a_squared_data_parallel_layout_gives_each_real_rank_its_share_of_the_load():
    row = script.convert(
        raw(tp_size="1", attention_dp_size="64", moe_tp_size="8", moe_ep_size="8", batch_size="1")
    ).row
    assert (row["agg_tp"], row["agg_attention_dp"], row["agg_moe_ep"]) == ("1", "8", "8")
    assert row["agg_batch_size"] == "8"  # 64 clients over 8 ranks, not over 64


def test_a_layout_from_another_export_is_kept_as_written_even_when_square():
    source = "source_file=/data/h100_sxm/trtllm/x.csv; silicon_concurrency=64"
    converted = script.convert(
        raw(silicon_data_source=source, tp_size="4", moe_tp_size="2", moe_ep_size="2")
    )
    assert (converted.row["agg_tp"], converted.row["agg_moe_tp"]) == ("4", "2")
    assert converted.corrected == ()


def test_one_run_written_squared_in_one_export_and_plainly_in_another_is_kept_once():
    imported = script.import_rows([raw(), squared(id="example_squared")])
    assert [r["id"] for r in imported.rows] == ["example_agg"]
    assert "duplicate" in next(iter(imported.skipped))


def test_the_shipped_data_holds_no_squared_layout_and_counts_those_put_right(field):
    for m in field.values():
        w = m.workers[0]
        k = w.moe_tp
        if m.source.startswith(script.SQUARING_EXPORTS) and k > 1 and w.moe_ep == k:
            assert w.tp * w.attention_dp != k * k, m.id
    assert provenance()["rows"]["corrected"] == {script.CORRECTED: 264}


def test_the_importers_csv_is_the_same_text_for_the_same_rows():
    rows = script.import_rows([raw(), raw(id="b", silicon_tpot_ms="17")]).rows
    assert script.to_csv(rows) == script.to_csv([dict(r) for r in rows])
    assert script.to_csv(rows).splitlines()[0] == ",".join(script.COLUMNS)


# --- reproduction from the wheel ------------------------------------------------------------


def wheel() -> Path:
    path = os.environ.get("LEASEWISE_AIC_WHEEL")
    if not path or not Path(path).is_file():
        pytest.skip(
            "set LEASEWISE_AIC_WHEEL to a copy of "
            f"{script.WHEEL_NAME} (pip download {script.PACKAGE}=={script.VERSION} --no-deps) "
            "to reproduce the import; CI runs without the network"
        )
    return Path(path)


def committed(files: dict[Path, bytes]) -> Iterator[tuple[Path, bytes, bytes]]:
    for path, data in sorted(files.items()):
        yield path, data, path.read_bytes() if path.exists() else b""


def test_the_importer_reproduces_the_committed_files_from_the_wheel():
    files = script.outputs(script.verified(wheel()))
    stale = [p.relative_to(ROOT) for p, new, old in committed(files) if new != old]
    assert stale == []
    assert set(files) >= {FIELD / "silicon_sample.csv", FIELD / "provenance.yaml"}


def test_the_importer_refuses_a_wheel_whose_digest_is_not_the_pinned_one(tmp_path):
    fake = tmp_path / script.WHEEL_NAME
    fake.write_bytes(b"not the wheel")
    with pytest.raises(SystemExit, match="is not the pinned"):
        script.verified(fake)
