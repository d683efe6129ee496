"""The catalog's data files: broken ones fail on load, naming the file, the entry and the field.

Each corruption test copies the packaged files into a temporary folder, breaks one entry
and loads the copies, so the packaged data stay the reference for what a good file is.
"""

from __future__ import annotations

import copy
import datetime as dt
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from core.catalog import Catalog, load_catalog, packaged_files
from core.errors import CatalogError, InputError

REQUIRED_MODELS = (
    "kimi-k3",
    "deepseek-v3",
    "deepseek-r1",
    "kimi-k2",
    "llama-3.1-70b",
    "llama-3.1-405b",
    "gpt-oss-120b",
    "qwen3-235b-a22b",
)
REQUIRED_GPUS = (
    "a100-80gb",
    "h100-sxm",
    "h200",
    "b200",
    "b300",
    "gb200",
    "gb300",
    "mi300x",
    "mi355x",
)

Entry = dict[str, Any]


@pytest.fixture(scope="module")
def packaged() -> Catalog:
    return load_catalog()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A writable copy of the packaged data files."""
    for src in packaged_files():
        shutil.copy(src, tmp_path / src.name)
    return tmp_path


@pytest.fixture
def load(data_dir: Path) -> Callable[[], Catalog]:
    """Load the copies (in the packaged order), plus any file a test adds."""
    return lambda: load_catalog(files=sorted(data_dir.glob("*.yaml")))


@pytest.fixture
def edit(data_dir: Path) -> Callable[[str, str, Callable[[Entry], None]], str]:
    """``edit(section, id, change)`` changes one entry in place; returns its file's name."""

    def _edit(section: str, entry_id: str, change: Callable[[Entry], None]) -> str:
        for path in sorted(data_dir.glob("*.yaml")):
            document = yaml.safe_load(path.read_text(encoding="utf-8"))
            entries = document.get(section)
            if not isinstance(entries, list):
                continue
            for entry in entries:
                if entry.get("id") == entry_id:
                    change(entry)
                    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
                    return path.name
        raise LookupError(f"no {section} entry {entry_id!r} in the packaged data")

    return _edit


def entry_of(data_dir: Path, section: str, entry_id: str) -> tuple[str, Entry]:
    """(file name, a copy of the raw entry) as the packaged data define it."""
    for path in sorted(data_dir.glob("*.yaml")):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        for entry in document.get(section) or []:
            if isinstance(entry, dict) and entry.get("id") == entry_id:
                return path.name, copy.deepcopy(entry)
    raise LookupError(f"no {section} entry {entry_id!r} in the packaged data")


def rename(old: str, new: str) -> Callable[[Entry], None]:
    def change(entry: Entry) -> None:
        entry[new] = entry.pop(old)

    return change


def put(**fields: Any) -> Callable[[Entry], None]:
    return lambda entry: entry.update(fields)


def a_measurement_with_tokens_per_s(packaged: Catalog) -> str:
    return next(m.id for m in packaged.measurements if m.output_tokens_per_s is not None)


# --- broken files ---------------------------------------------------------------------------


def test_copies_of_the_packaged_files_load_like_the_packaged_catalog(load, packaged):
    copied = load()
    assert sorted(g.id for g in copied.gpus) == sorted(g.id for g in packaged.gpus)
    assert len(copied.measurements) == len(packaged.measurements)


def test_a_unit_slip_in_a_gpu_field_name_names_the_file_the_gpu_and_the_misspelt_field(edit, load):
    file = edit("gpus", "b300", rename("hbm_bandwidth_tb_per_s", "hbm_bandwidth_gb_per_s"))
    with pytest.raises(CatalogError) as caught:
        load()
    assert file == "gpus.yaml"
    assert (caught.value.file, caught.value.entry) == (file, "b300")
    assert caught.value.field == "hbm_bandwidth_gb_per_s"
    message = str(caught.value)
    assert all(part in message for part in (file, "b300", "hbm_bandwidth_gb_per_s"))
    assert "units belong in field names" in message


def test_an_unknown_field_is_refused_with_the_rule_that_units_belong_in_field_names(edit, load):
    file = edit("gpus", "h200", put(hbm_bandwidth_gb_per_s=4800))
    with pytest.raises(CatalogError) as caught:
        load()
    assert (caught.value.file, caught.value.entry) == (file, "h200")
    assert caught.value.field == "hbm_bandwidth_gb_per_s"
    assert "units belong in field names" in str(caught.value)


def test_a_negative_bandwidth_names_the_file_the_gpu_and_the_field(edit, load):
    file = edit("gpus", "b300", put(hbm_bandwidth_tb_per_s=-8.0))
    with pytest.raises(CatalogError) as caught:
        load()
    message = str(caught.value)
    assert all(part in message for part in (file, "b300", "hbm_bandwidth_tb_per_s"))
    assert "greater than 0" in message


def test_a_gpu_without_its_scale_out_bandwidth_is_refused_naming_the_field(edit, load):
    def drop(entry: Entry) -> None:
        del entry["scale_out_bandwidth_gb_per_s"]

    file = edit("gpus", "b300", drop)
    with pytest.raises(CatalogError) as caught:
        load()
    assert (caught.value.file, caught.value.entry) == (file, "b300")
    assert caught.value.field == "scale_out_bandwidth_gb_per_s"


def test_a_nic_line_rate_in_gigabits_where_gigabytes_belong_is_refused(edit, load):
    # A 400 Gb/s ConnectX-7 is 50 GB/s; 800 in the GB/s field would outrun one direction
    # of H100's NVLink (900 GB/s both ways, 450 each), which only a unit slip does.
    file = edit("gpus", "h100-sxm", put(scale_out_bandwidth_gb_per_s=800))
    with pytest.raises(CatalogError) as caught:
        load()
    assert (caught.value.file, caught.value.entry) == (file, "h100-sxm")
    assert "400 Gb/s is 50 GB/s" in str(caught.value)


def test_a_duplicate_id_in_one_file_names_where_it_was_first_defined(data_dir, load):
    file, gpu = entry_of(data_dir, "gpus", "b300")
    path = data_dir / file
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    document["gpus"].append(gpu)
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load()
    assert (caught.value.file, caught.value.entry, caught.value.field) == (file, "b300", "id")
    assert f"first defined in {file}" in str(caught.value)


def test_a_duplicate_id_across_two_files_names_both_files(data_dir):
    file, gpu = entry_of(data_dir, "gpus", "b300")
    extra = data_dir / "zz-extra-gpus.yaml"
    extra.write_text(yaml.safe_dump({"gpus": [gpu]}, sort_keys=False), encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load_catalog(files=[*packaged_files(), extra])
    message = str(caught.value)
    assert (caught.value.file, caught.value.entry) == (extra.name, "b300")
    assert extra.name in message and f"first defined in {file}" in message


def test_a_measurement_on_an_unknown_gpu_names_the_file_the_measurement_and_the_gpu_field(
    edit, load, packaged
):
    measurement = packaged.measurements[0].id
    file = edit("measurements", measurement, put(gpu="b9000"))
    with pytest.raises(CatalogError) as caught:
        load()
    assert (caught.value.file, caught.value.entry, caught.value.field) == (file, measurement, "gpu")
    assert "b9000" in str(caught.value)


def test_a_measurement_giving_both_tokens_per_s_and_cost_per_token_is_refused(edit, load, packaged):
    measurement = a_measurement_with_tokens_per_s(packaged)
    file = edit(
        "measurements",
        measurement,
        put(usd_per_million_output_tokens=9.98, at_usd_per_gpu_hour=5.0),
    )
    with pytest.raises(CatalogError) as caught:
        load()
    message = str(caught.value)
    assert (caught.value.file, caught.value.entry) == (file, measurement)
    assert "output_tokens_per_s" in message and "usd_per_million_output_tokens" in message


def test_malformed_yaml_names_the_file_and_the_line(data_dir, load):
    path = data_dir / "gpus.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n  - id: [unclosed\n", encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load()
    assert caught.value.file == "gpus.yaml"
    assert "not valid YAML" in str(caught.value) and "line" in str(caught.value)


def test_an_unknown_section_names_the_file_and_the_section(data_dir, load):
    path = data_dir / "gpus.yaml"
    path.write_text(
        path.read_text(encoding="utf-8") + "\nbenchmarks:\n  - id: x\n", encoding="utf-8"
    )
    with pytest.raises(CatalogError) as caught:
        load()
    assert caught.value.file == "gpus.yaml"
    assert "unknown section 'benchmarks'" in str(caught.value)


def edit_ttft_bands(data_dir: Path, change: Callable[[Entry], None]) -> None:
    path = data_dir / "ttft-bands.yaml"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(document["ttft_bands"])
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")


def test_ttft_bands_at_another_quantile_than_engine_yamls_are_refused_naming_the_rewrite(
    data_dir, load
):
    edit_ttft_bands(data_dir, put(quantile=0.8))
    with pytest.raises(CatalogError) as caught:
        load()
    assert (caught.value.file, caught.value.entry, caught.value.field) == (
        "ttft-bands.yaml",
        "ttft_bands",
        "quantile",
    )
    assert "--write-ttft-bands" in str(caught.value)


def test_a_ttft_band_of_a_serving_engine_no_stack_runs_is_refused(data_dir, load):
    def rename_vllm(bands: Entry) -> None:
        bands["by_serving_engine"]["vlm"] = bands["by_serving_engine"].pop("vllm")

    edit_ttft_bands(data_dir, rename_vllm)
    with pytest.raises(CatalogError) as caught:
        load()
    assert (caught.value.file, caught.value.field) == ("ttft-bands.yaml", "by_serving_engine")
    assert "'vlm'" in str(caught.value)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda b: b["overall"].update(band=0.01), "under the floor"),
        (lambda b: b["overall"].update(first_token_times=10), "add up to"),
        (lambda b: b.pop("computed"), "computed"),
    ],
)
def test_ttft_bands_below_their_floor_miscounted_or_undated_are_refused(
    data_dir, load, change, says
):
    edit_ttft_bands(data_dir, change)
    with pytest.raises(CatalogError) as caught:
        load()
    assert caught.value.file == "ttft-bands.yaml" and says in str(caught.value)


def test_a_catalog_without_ttft_bands_loads_with_none(data_dir, load):
    (data_dir / "ttft-bands.yaml").unlink()
    assert load().ttft_bands is None


# --- the packaged catalog -------------------------------------------------------------------


def test_the_packaged_catalog_holds_the_models_sales_ask_about(packaged):
    assert set(REQUIRED_MODELS) <= {m.id for m in packaged.models}


def test_the_packaged_catalog_holds_the_gpus_sales_ask_about(packaged):
    assert set(REQUIRED_GPUS) <= {g.id for g in packaged.gpus}


def test_every_gpu_model_and_stack_cites_at_least_one_dated_source(packaged):
    entries = [*packaged.gpus, *packaged.models, *packaged.stacks]
    undated = [e.id for e in entries if not e.sources or not all(s.date for s in e.sources)]
    assert undated == []
    assert all(isinstance(s.date, dt.date) for e in entries for s in e.sources)


def test_every_measurement_cites_a_dated_source(packaged):
    assert packaged.measurements
    assert all(isinstance(m.source.date, dt.date) for m in packaged.measurements)
    assert all(isinstance(m.date, dt.date) for m in packaged.measurements)


def test_kimi_k3_marks_only_its_planning_default_as_an_estimate(packaged):
    # Its architecture figures come from Moonshot's config.json (tests/core/test_field_data.py
    # holds them to it); the reasoning tokens per request are a planning default.
    k3 = packaged.models.get("kimi-k3")
    assert k3.estimated_fields == ("reasoning_tokens_default",)
    assert "config.json" in k3.estimate_notes


@pytest.mark.parametrize(
    ("table", "name", "rid"),
    [
        ("models", "Kimi-K3", "kimi-k3"),
        ("models", "kimi k3", "kimi-k3"),
        ("gpus", "a100 80gb", "a100-80gb"),
        ("gpus", "B300", "b300"),
    ],
)
def test_names_resolve_by_alias_whatever_the_spelling(packaged, table, name, rid):
    assert getattr(packaged, table).get(name).id == rid


def test_an_unknown_gpu_name_is_an_input_error_suggesting_the_closest_names(packaged):
    with pytest.raises(InputError) as caught:
        packaged.gpus.get("b30", field_name="gpu")
    assert caught.value.field == "gpu"
    assert caught.value.hint is not None and "b300" in caught.value.hint


def test_an_unknown_model_name_is_an_input_error_suggesting_the_closest_names(packaged):
    with pytest.raises(InputError) as caught:
        packaged.models.get("kimi-k4")
    assert caught.value.field == "model"
    assert caught.value.hint is not None and "kimi-k3" in caught.value.hint
