#!/usr/bin/env python3
"""Bring the field's public measurements into the catalog: AIConfigurator's silicon sample.

NVIDIA's ``aiconfigurator-core`` package (PyPI, Apache-2.0) ships the end-to-end
measurements its accuracy checks run against, ``systems/silicon_sample.csv``
(5,221 rows of measured TTFT and TPOT from TensorRT-LLM, SGLang and vLLM on
H100, H200, B200, GB200, B300 and GB300, aggregated and disaggregated), and the
Hugging Face configs of the models it knows (``model_configs/*.json``). This
script turns the ones the catalog can represent into ``core/data/field/`` and
says what it left out and why.

Re-run it from the repository root, in the project's virtualenv:

    python scripts/import_field_data.py                 # downloads the pinned wheel with pip
    python scripts/import_field_data.py --wheel PATH     # a copy of the same wheel
    python scripts/import_field_data.py --check          # exit 1 if the committed files differ

The wheel is ``pip download aiconfigurator-core==0.12.0 --no-deps`` (~82 MB, never
committed); its sha256 must be ``WHEEL_SHA256``, and the script reads it as a zip
without installing it. The output is deterministic: the same wheel gives
byte-identical files (rows in the source's order, values as the source spells
them, no timestamps but the package's own).

It writes:
- ``core/data/field/silicon_sample.csv``: one row per kept measurement, with the
  catalog's model, GPU, stack and precision ids beside the source's own names,
  the worker layouts, TTFT and TPOT in ms, and the row's id and
  ``silicon_data_source`` text, unchanged;
- ``core/data/field/model_configs/*.json``: byte-for-byte copies of the configs the
  catalog's model figures are computed from, and ``architectures.yaml``: those
  figures, as ``architecture()`` computes them (a test holds the catalog's model
  entries to them);
- ``core/data/field/provenance.yaml``: package, version, wheel and file digests,
  licence, and the count of rows skipped for each reason;
- ``core/data/field/NOTICE``: the attribution Apache-2.0 asks for (the licence
  text itself is ``LICENSE-aiconfigurator`` beside it: the wheel ships no licence
  file, so it is kept as the project's repository has it);
- ``core/data/stacks-field.yaml``: the three stacks the measurements name.

Mapping rules (each one a function below, with its reason): AIConfigurator's system
names and model paths become catalog ids; its backends become one stack per engine
(each row keeps its own version); precision comes from the quantisation modes; a
parallel size written as 0 or left empty where it does not apply (attention not
data-parallel, MoE sizes on a dense model) is 1. A row is skipped, and counted,
when its model is not in the catalog, no concurrency is recorded, a disaggregated
row lacks its worker counts or batch sizes (AIConfigurator's own accuracy script
refuses those too), an MoE layout's widths disagree, or it repeats an earlier row
exactly (same deployment, same TTFT and TPOT). Two of the sample's exports write a
run with experts spread over all its K GPUs as K squared GPUs; those layouts are put
right (``unsquared``, with the evidence) and counted, before repeats are found.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import datetime as dt
import hashlib
import io
import json
import math
import re
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import yaml

PACKAGE = "aiconfigurator-core"
VERSION = "0.12.0"
WHEEL_NAME = "aiconfigurator_core-0.12.0-cp311-abi3-manylinux_2_28_x86_64.whl"
WHEEL_SHA256 = "aadc4aad0a00bf8a61c477c62bef43de479849c3aa0b1c3078068e08309eccc4"
PYPI_URL = "https://pypi.org/project/aiconfigurator-core/0.12.0/"
REPOSITORY_URL = "https://github.com/ai-dynamo/aiconfigurator"
LICENSE_COMMIT = "095f58a51c4ca8e61b66ec108d86f223f8d559ce"
"""The source repository's commit whose LICENSE is kept as LICENSE-aiconfigurator."""
SAMPLE = "aiconfigurator_core/systems/silicon_sample.csv"
CONFIGS = "aiconfigurator_core/model_configs/"
SBOM = "aiconfigurator_core-0.12.0.dist-info/sboms/aiconfigurator-core.cyclonedx.json"

ROOT = Path(__file__).resolve().parents[1]
FIELD = ROOT / "core" / "data" / "field"
STACKS_FILE = ROOT / "core" / "data" / "stacks-field.yaml"

SYSTEMS = {
    "h100_sxm": "h100-sxm",
    "h200_sxm": "h200",
    "b200_sxm": "b200",
    "b300_sxm": "b300",
    "gb200": "gb200",
    "gb300": "gb300",
}
"""AIConfigurator's system names -> catalog GPU ids (its systems/*.yaml describe the same
parts: HGX boards of 8 and NVL72 racks)."""


@dataclasses.dataclass(frozen=True)
class ModelSource:
    model: str
    """Catalog id."""
    config: str
    """The config file in model_configs/ whose architecture the catalog entry follows."""


MODELS: dict[str, ModelSource] = {
    "deepseek-ai/DeepSeek-R1": ModelSource("deepseek-r1", "deepseek-ai--DeepSeek-R1_config.json"),
    "nvidia/DeepSeek-R1-NVFP4": ModelSource("deepseek-r1", "deepseek-ai--DeepSeek-R1_config.json"),
    "deepseek-ai/DeepSeek-V3": ModelSource("deepseek-v3", "deepseek-ai--DeepSeek-V3_config.json"),
    "openai/gpt-oss-120b": ModelSource("gpt-oss-120b", "openai--gpt-oss-120b_config.json"),
    "meta-llama/Llama-3.1-70B": ModelSource(
        "llama-3.1-70b", "meta-llama--Meta-Llama-3.1-70B_config.json"
    ),
    "meta-llama/Llama-3.1-8B-Instruct": ModelSource(
        "llama-3.1-8b", "meta-llama--Meta-Llama-3.1-8B_config.json"
    ),
    "nvidia/Llama-3.1-8B-Instruct-FP8": ModelSource(
        "llama-3.1-8b", "meta-llama--Meta-Llama-3.1-8B_config.json"
    ),
    "Qwen/Qwen3-32B": ModelSource("qwen3-32b", "Qwen--Qwen3-32B_config.json"),
    "nvidia/Qwen3-32B-NVFP4": ModelSource("qwen3-32b", "Qwen--Qwen3-32B_config.json"),
    "Qwen/Qwen3-235B-A22B-FP8": ModelSource(
        "qwen3-235b-a22b", "Qwen--Qwen3-235B-A22B-FP8_config.json"
    ),
    "Qwen/Qwen3.5-397B-A17B": ModelSource(
        "qwen3.5-397b-a17b", "Qwen--Qwen3.5-397B-A17B_config.json"
    ),
    "moonshotai/Kimi-K2.5": ModelSource("kimi-k2.5", "moonshotai--Kimi-K2.5_config.json"),
    "MiniMaxAI/MiniMax-M2.5": ModelSource("minimax-m2.5", "MiniMaxAI--MiniMax-M2.5_config.json"),
    # The sample names Z.ai's model by its old organisation; the config is zai-org's.
    "zhipuai/GLM-5": ModelSource("glm-5", "zai-org--GLM-5_config.json"),
}
"""Model paths in the sample -> catalog ids. nvidia/DeepSeek-V3.1-NVFP4 is absent on
purpose: DeepSeek-V3.1 is not in the catalog (its two rows are skipped)."""

DENSE = {"llama-3.1-70b", "llama-3.1-8b", "qwen3-32b"}
"""Catalog models without routed experts: their MoE sizes do not apply."""

ARCHITECTURES: dict[str, tuple[str, str]] = {
    "kimi-k3": ("kimi_k3", "moonshotai--Kimi-K3_config.json"),
    "kimi-k2.5": ("deepseek_v3", "moonshotai--Kimi-K2.5_config.json"),
    "qwen3.5-397b-a17b": ("qwen3_5_moe", "Qwen--Qwen3.5-397B-A17B_config.json"),
    "minimax-m2.5": ("minimax_m2", "MiniMaxAI--MiniMax-M2.5_config.json"),
    "glm-5": ("glm_moe_dsa", "zai-org--GLM-5_config.json"),
    # A model the catalog already held, to show the MLA arithmetic reproduces its card.
    "deepseek-v3": ("deepseek_v3", "deepseek-ai--DeepSeek-V3_config.json"),
}
"""Catalog models whose architecture figures are computed here: family and config."""


@dataclasses.dataclass(frozen=True)
class StackLine:
    id: str
    name: str
    engine: str
    description: str


STACKS: dict[str, StackLine] = {
    "trtllm": StackLine(
        "trtllm-1.0-1.3",
        "TensorRT-LLM 1.0-1.3 (AIConfigurator silicon runs)",
        "tensorrt-llm",
        "TensorRT-LLM as NVIDIA's AIConfigurator team ran it for the accuracy checks of "
        "AIConfigurator 0.12: the TensorRT-LLM release images and NVIDIA Dynamo's "
        "TensorRT-LLM runtime images (Dynamo 0.5-0.9 carry TensorRT-LLM 1.x), in "
        "aggregated and prefill/decode-disaggregated deployments with tensor, attention "
        "data and expert parallelism.",
    ),
    "sglang": StackLine(
        "sglang-0.5",
        "SGLang 0.5 (AIConfigurator silicon runs)",
        "sglang",
        "SGLang 0.5.x (release, nightly and model-specific images) as NVIDIA's "
        "AIConfigurator team ran it for the accuracy checks of AIConfigurator 0.12, "
        "aggregated and prefill/decode-disaggregated (through NVIDIA Dynamo).",
    ),
    "vllm": StackLine(
        "vllm-0.11-0.19",
        "vLLM 0.11-0.19 (AIConfigurator silicon runs)",
        "vllm",
        "vLLM 0.11-0.19 (the vllm-openai images and one nightly) as NVIDIA's "
        "AIConfigurator team ran it for the accuracy checks of AIConfigurator 0.12, "
        "aggregated and prefill/decode-disaggregated.",
    ),
}
"""One stack per engine: the sample spans dozens of builds, many unnamed or nightly, so
each row keeps its own ``backend_version`` and the stack is the engine's line."""

WORKER_FIELDS = ("workers", "batch_size", "tp", "pp", "attention_dp", "moe_tp", "moe_ep")
ROLES = ("agg", "prefill", "decode")
COLUMNS = (
    "id",
    "model",
    "gpu",
    "stack",
    "precision",
    "mode",
    "input_tokens",
    "output_tokens",
    "concurrency",
    "measured",
    *(f"{role}_{name}" for role in ROLES for name in WORKER_FIELDS),
    "ttft_ms",
    "tpot_ms",
    "backend",
    "backend_version",
    "model_path",
    "system",
    "gemm_quant_mode",
    "moe_quant_mode",
    "source",
)
"""The committed CSV's columns: catalog ids first, then the layout (``agg_*`` for an
aggregated row's one worker; ``prefill_*`` and ``decode_*`` for a disaggregated row's two
kinds), the measured figures, and the source's own names and text."""


class Skip(Exception):
    """A row the catalog cannot represent faithfully; the message is the reason, counted."""


@dataclasses.dataclass(frozen=True)
class Converted:
    row: dict[str, str]
    """The committed CSV's row (COLUMNS -> text)."""
    key: tuple[str, ...]
    """What makes two rows the same measurement: everything but id, source text and the
    day measured, its layout as put right."""
    corrected: tuple[str, ...] = ()
    """What was put right in the row (``CORRECTED``), counted in the provenance."""


# --- one row ------------------------------------------------------------------------------


def concurrency_of(source: str) -> int:
    """The load a row ran at, as ``silicon_concurrency=N`` in its source text."""
    found = re.search(r"(?:^|;\s*)silicon_concurrency=(\d+)", source)
    if not found or int(found.group(1)) < 1:
        raise Skip("no concurrency recorded (the load it ran at is unknown)")
    return int(found.group(1))


def measured_on(source: str) -> str:
    """The day it was measured (``measured=`` in the source text), ISO, or '' if undated."""
    found = re.search(r"(?:^|;\s*)measured=(\d{4}-\d{2}-\d{2})", source)
    return found.group(1) if found else ""


def precision_of(raw: Mapping[str, str], model: str) -> str:
    """The catalog precision from the quantisation modes AIConfigurator recorded.

    NVFP4 GEMMs are ``nvfp4``, except for gpt-oss-120b, whose checkpoint (the row's
    openai/gpt-oss-120b) holds its experts only in MXFP4: the sample labels its FP4 runs
    with the NVFP4 kernel class. Block-scaled FP8 is ``fp8``. INT4 weight-only (Kimi
    K2.5's own checkpoint) is the catalog's weight-only INT4, ``int4-awq``. No
    quantisation recorded is the checkpoint's BF16.
    """
    gemm, moe, precision = raw["gemm_quant_mode"], raw["moe_quant_mode"], raw["precision"]
    modes = {gemm, moe} - {""}
    if modes & {"nvfp4"}:
        return "mxfp4" if model == "gpt-oss-120b" else "nvfp4"
    if modes and modes <= {"fp8", "fp8_block"}:
        return "fp8"
    if modes == {"int4_wo"}:
        return "int4-awq"
    if not modes and precision in ("", "bf16"):
        return "bf16"
    raise Skip(f"precision not mapped: {precision or '-'} / {gemm or '-'} / {moe or '-'}")


def size(text: str, *, not_applicable_is_one: bool) -> int:
    """A parallel size; 0 or empty is 1 where the dimension does not apply."""
    if text in ("", "0"):
        if not_applicable_is_one:
            return 1
        raise Skip("a parallel size is missing")
    value = int(text)
    if value < 1:
        raise Skip(f"a parallel size is {value}")
    return value


SQUARING_EXPORTS = ("db-dump/2026-04-27", "source_file=2026-04-06.csv")
"""The two exports in the sample that write a run with experts spread over all its K GPUs
(the serving engine's ``tp K`` with ``ep K``) as attention TP K x K (or attention DP K x K)
over MoE TP K x EP K: K squared GPUs for a K-GPU run. The rows that carry their run's own
tag name it: ``..._c8_tp8_ep8_928`` is written TP64 with MoE 8 x 8. And 61 runs stand in
two exports with the same TTFT and TPOT to the last digit, once squared and once as the
K-GPU layout (TP64 with MoE 8 x 8 in one, TP8 with EP8 in the other)."""

CORRECTED = "squared layout read as its K-GPU run (the exports' TP K x K, MoE TP K x EP K)"


def unsquared(
    source: str, batch: int, tp: int, attention_dp: int, moe_tp: int, moe_ep: int
) -> tuple[int, int, int, int, int] | None:
    """A squared layout from ``SQUARING_EXPORTS`` as the K-GPU run it was (batch, tp,
    attention_dp, moe_tp, moe_ep), or None when the layout is not squared.

    With attention DP the exports also split the load over K x K ranks, so each of the K
    real ranks holds K times the batch written."""
    k = moe_tp
    if not source.startswith(SQUARING_EXPORTS) or k < 2 or moe_ep != k:
        return None
    if tp == k * k and attention_dp == 1:
        return batch, k, 1, 1, k
    if attention_dp == k * k and tp == 1:
        return batch * k, 1, k, 1, k
    return None


def worker(
    raw: Mapping[str, str], prefix: str, *, moe: bool, workers: str, corrected: list[str]
) -> dict[str, str]:
    """One kind of worker: how many, its batch, and its layout.

    GPUs per worker are tp x pp x attention_dp (AIConfigurator's own count); an MoE
    layer spreads over moe_tp x moe_ep GPUs, which must be the same GPUs. A squared
    layout (``unsquared``) is put right, and said in ``corrected``.
    """
    tp = size(raw[f"{prefix}tp_size"], not_applicable_is_one=False)
    pp = size(raw[f"{prefix}pp_size"], not_applicable_is_one=False)
    attention_dp = size(raw[f"{prefix}attention_dp_size"], not_applicable_is_one=True)
    if moe:
        moe_tp = size(raw[f"{prefix}moe_tp_size"], not_applicable_is_one=False)
        moe_ep = size(raw[f"{prefix}moe_ep_size"], not_applicable_is_one=False)
        if moe_tp * moe_ep != tp * attention_dp:
            raise Skip("MoE width (moe_tp x moe_ep) differs from attention width (tp x dp)")
    else:
        moe_tp = moe_ep = 1
    batch = raw[f"{prefix}batch_size"]
    if not batch or not workers or int(batch) < 1 or int(workers) < 1:
        raise Skip("disaggregated without worker counts and batch sizes")
    size_of_batch = int(batch)
    put_right = unsquared(
        raw["silicon_data_source"], size_of_batch, tp, attention_dp, moe_tp, moe_ep
    )
    if put_right is not None:
        size_of_batch, tp, attention_dp, moe_tp, moe_ep = put_right
        corrected.append(CORRECTED)
    values = (int(workers), size_of_batch, tp, pp, attention_dp, moe_tp, moe_ep)
    return {name: str(value) for name, value in zip(WORKER_FIELDS, values, strict=True)}


def milliseconds(text: str) -> str:
    """A measured time, kept as the source spells it once it is a positive number."""
    value = float(text) if text else math.nan
    if not math.isfinite(value) or value <= 0:
        raise Skip("TTFT or TPOT missing or not positive")
    return text


def convert(raw: Mapping[str, str]) -> Converted:
    """One source row as the committed CSV holds it, or ``Skip`` with the reason."""
    source = raw["silicon_data_source"]
    mapped = MODELS.get(raw["model_path"])
    if mapped is None:
        raise Skip(f"model not in the catalog: {raw['model_path']}")
    gpu = SYSTEMS.get(raw["system"])
    if gpu is None:
        raise Skip(f"system not in the catalog: {raw['system']}")
    stack = STACKS.get(raw["backend"])
    if stack is None:
        raise Skip(f"backend not mapped: {raw['backend']}")
    moe = mapped.model not in DENSE
    concurrency = concurrency_of(source)
    layouts: dict[str, dict[str, str]] = {}
    corrected: list[str] = []
    if raw["mode"] == "agg":
        layouts["agg"] = worker(raw, "", moe=moe, workers="1", corrected=corrected)
    elif raw["mode"] == "disagg":
        for role in ("prefill", "decode"):
            count = raw[f"{role}_num_workers"]
            layouts[role] = worker(raw, f"{role}_", moe=moe, workers=count, corrected=corrected)
    else:
        raise Skip(f"mode not mapped: {raw['mode']}")
    row = {
        "id": raw["id"],
        "model": mapped.model,
        "gpu": gpu,
        "stack": stack.id,
        "precision": precision_of(raw, mapped.model),
        "mode": raw["mode"],
        "input_tokens": str(int(raw["isl"])),
        "output_tokens": str(int(raw["osl"])),
        "concurrency": str(concurrency),
        "measured": measured_on(source),
        **{
            f"{role}_{name}": layouts.get(role, {}).get(name, "")
            for role in ROLES
            for name in WORKER_FIELDS
        },
        "ttft_ms": milliseconds(raw["silicon_ttft_ms"]),
        "tpot_ms": milliseconds(raw["silicon_tpot_ms"]),
        "backend": raw["backend"],
        "backend_version": raw["backend_version"],
        "model_path": raw["model_path"],
        "system": raw["system"],
        "gemm_quant_mode": raw["gemm_quant_mode"],
        "moe_quant_mode": raw["moe_quant_mode"],
        "source": source,
    }
    key = tuple(value for name, value in row.items() if name not in ("id", "source", "measured"))
    return Converted(row=row, key=key, corrected=tuple(dict.fromkeys(corrected)))


def reason_class(reason: str) -> str:
    """A skip reason without its particulars: the unit the provenance counts."""
    return reason.split(":")[0]


@dataclasses.dataclass
class Imported:
    rows: list[dict[str, str]]
    skipped: Counter[str]
    """Reason (with particulars, e.g. which model) -> rows."""
    corrected: Counter[str] = dataclasses.field(default_factory=Counter)
    """What was put right -> kept rows."""


def import_rows(source_rows: Iterable[Mapping[str, str]]) -> Imported:
    """Every row converted or skipped, in the source's order; a repeat of a kept row
    (same deployment, same figures) is skipped as a duplicate."""
    rows: list[dict[str, str]] = []
    skipped: Counter[str] = Counter()
    corrected: Counter[str] = Counter()
    seen: dict[tuple[str, ...], str] = {}
    for raw in source_rows:
        try:
            converted = convert(raw)
        except Skip as why:
            skipped[str(why)] += 1
            continue
        if converted.key in seen:
            skipped["duplicate of an earlier row (same deployment, same TTFT and TPOT)"] += 1
            continue
        seen[converted.key] = converted.row["id"]
        rows.append(converted.row)
        corrected.update(converted.corrected)
    return Imported(rows=rows, skipped=skipped, corrected=corrected)


def to_csv(rows: Iterable[Mapping[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


# --- architectures ------------------------------------------------------------------------

BYTES = {"bf16": 2, "fp8": 1, "fp32": 4}


@dataclasses.dataclass(frozen=True)
class Architecture:
    """A model's figures as the catalog's Model holds them, computed from its config.

    Parameters are counted matrix by matrix (norms and biases included, the vision
    encoder and multi-token-prediction layers not: plain text decode never reads them).
    ``active`` is everything but the routed experts a token does not pick:
    total - routed x (1 - k/E), which reproduces DeepSeek-V3's 37 B from its 671 B.
    """

    layers: int
    experts: int
    experts_per_token: int
    shared_experts: int
    kv_layers: int
    kv_heads: int | None
    kv_bytes_per_token: int
    state_bytes_per_sequence: int
    attention_flops_per_context_token: int
    total_params: int
    routed_expert_params: int
    notes: tuple[str, ...]
    routed_expert_weight_fraction: float | None = None
    checkpoint_bytes: dict[str, int] = dataclasses.field(default_factory=dict)
    sparse_attention_top_k_tokens: int | None = None

    @property
    def active_params(self) -> float:
        return self.total_params - self.routed_expert_params * (
            1 - self.experts_per_token / self.experts
        )

    def as_yaml(self) -> dict[str, Any]:
        billions = 1e9
        out: dict[str, Any] = {
            "layers": self.layers,
            "experts": self.experts,
            "experts_per_token": self.experts_per_token,
            "shared_experts": self.shared_experts,
            "kv_layers": self.kv_layers,
            "kv_heads": self.kv_heads,
            "kv_bytes_per_token": self.kv_bytes_per_token,
            "state_bytes_per_sequence": self.state_bytes_per_sequence,
            "attention_flops_per_context_token": self.attention_flops_per_context_token,
            "total_params_b": round(self.total_params / billions, 1),
            "routed_expert_params_b": round(self.routed_expert_params / billions, 1),
            "active_params_b": round(self.active_params / billions, 1),
        }
        if self.routed_expert_weight_fraction is not None:
            out["routed_expert_weight_fraction"] = round(self.routed_expert_weight_fraction, 3)
        if self.checkpoint_bytes:
            out["checkpoint_gb"] = {
                k: round(v / 1e9, 1) for k, v in sorted(self.checkpoint_bytes.items())
            }
        if self.sparse_attention_top_k_tokens is not None:
            out["sparse_attention_top_k_tokens"] = self.sparse_attention_top_k_tokens
        out["how"] = list(self.notes)
        return out


def text_config(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """Multimodal configs nest the language model's under ``text_config``."""
    nested = config.get("text_config")
    return nested if isinstance(nested, Mapping) else config


def mla_params(c: Mapping[str, Any], *, output_gate: bool = False) -> int:
    """One multi-head latent attention layer (DeepSeek-V3 layout): low-rank queries,
    the shared KV latent and RoPE key, its per-head up-projection and the output."""
    h, heads = c["hidden_size"], c["num_attention_heads"]
    nope, rope, v = c["qk_nope_head_dim"], c["qk_rope_head_dim"], c["v_head_dim"]
    q_rank, kv_rank = c.get("q_lora_rank"), c["kv_lora_rank"]
    per_head = heads * (nope + rope)
    q = h * q_rank + q_rank + q_rank * per_head if q_rank else h * per_head
    kv = h * (kv_rank + rope) + kv_rank + kv_rank * heads * (nope + v)
    out = heads * v * h
    gate = h * heads * v if output_gate else 0
    return int(q + kv + out + gate + 2 * h)


def mla_kv_bytes(c: Mapping[str, Any], layers: int, precision: str) -> int:
    """MLA keeps one latent plus one RoPE key per token and layer."""
    return layers * (c["kv_lora_rank"] + c["qk_rope_head_dim"]) * BYTES[precision]


def mla_attention_flops(c: Mapping[str, Any], layers: int) -> int:
    """Absorbed MLA per context token: 2 x heads x (2 x latent + rope) per layer (QK over
    latent and RoPE key, AV over the latent)."""
    heads = c["num_attention_heads"]
    return layers * 2 * heads * (2 * c["kv_lora_rank"] + c["qk_rope_head_dim"])


def gqa_params(h: int, heads: int, kv_heads: int, head_dim: int, *, gate: bool = False) -> int:
    """Grouped-query attention: Q (doubled when it also yields an output gate), K, V, O."""
    q = h * heads * head_dim * (2 if gate else 1)
    return q + 2 * h * kv_heads * head_dim + heads * head_dim * h + 2 * h


def embeddings(c: Mapping[str, Any], tied: bool) -> int:
    return int(c["vocab_size"] * c["hidden_size"] * (1 if tied else 2) + c["hidden_size"])


def deepseek_v3(config: Mapping[str, Any]) -> Architecture:
    """DeepSeek-V3 layout (also Kimi K2/K2.5): MLA on every layer, the first
    ``first_k_dense_replace`` layers dense, then routed plus shared experts."""
    c = text_config(config)
    h, layers = c["hidden_size"], c["num_hidden_layers"]
    dense_layers = c["first_k_dense_replace"]
    moe_layers = layers - dense_layers
    experts, width = c["n_routed_experts"], c["moe_intermediate_size"]
    routed = moe_layers * experts * 3 * h * width
    shared = moe_layers * c["n_shared_experts"] * 3 * h * width
    router = moe_layers * (h * experts + experts)
    dense = dense_layers * 3 * h * c["intermediate_size"]
    attention = layers * mla_params(c)
    total = routed + shared + router + dense + attention + embeddings(c, tied=False)
    return Architecture(
        layers=layers,
        experts=experts,
        experts_per_token=c["num_experts_per_tok"],
        shared_experts=c["n_shared_experts"],
        kv_layers=layers,
        kv_heads=None,
        kv_bytes_per_token=mla_kv_bytes(c, layers, "bf16"),
        state_bytes_per_sequence=0,
        attention_flops_per_context_token=mla_attention_flops(c, layers),
        total_params=total,
        routed_expert_params=routed,
        notes=(
            f"{moe_layers} MoE layers x {experts} routed experts x 3 x {h} hidden x {width} "
            f"expert width = {routed / 1e9:.1f}B routed; {dense_layers} dense layer(s)",
            f"MLA on all {layers} layers: KV = {layers} x ({c['kv_lora_rank']} latent + "
            f"{c['qk_rope_head_dim']} rope) x 2 bytes (BF16)",
        ),
    )


def kimi_k25(config: Mapping[str, Any]) -> Architecture:
    """Kimi K2.5: Kimi K2's DeepSeek-V3 layout, its routed experts shipped in INT4."""
    base = deepseek_v3(config)
    quant = text_config(config)["quantization_config"]["config_groups"]["group_0"]["weights"]
    bits = quant["num_bits"] + 16 / quant["group_size"]  # a BF16 scale per group, symmetric
    routed_bytes = base.routed_expert_params * bits / 8
    rest_bytes = (base.total_params - base.routed_expert_params) * 2
    return dataclasses.replace(
        base,
        routed_expert_weight_fraction=routed_bytes / (routed_bytes + rest_bytes),
        checkpoint_bytes={"int4-awq": int(routed_bytes + rest_bytes)},
        notes=(
            *base.notes,
            f"routed experts INT4 with a BF16 scale per {quant['group_size']} weights "
            f"({bits} bits); attention, shared experts, dense layer and head BF16 "
            "(the quantization_config's ignore list)",
        ),
    )


def glm_moe_dsa(config: Mapping[str, Any]) -> Architecture:
    """GLM-5: the DeepSeek-V3 layout with DeepSeek Sparse Attention, a lightning indexer
    choosing ``index_topk`` context tokens for each query's MLA."""
    c = text_config(config)
    base = deepseek_v3(c)
    h, layers = c["hidden_size"], c["num_hidden_layers"]
    index_heads, index_dim = c["index_n_heads"], c["index_head_dim"]
    indexer = layers * (
        c["q_lora_rank"] * index_heads * index_dim + h * index_dim + index_dim + h * index_heads
    )
    # The indexer keeps one FP8 key of index_head_dim per token and layer, with an FP32 scale.
    indexer_kv = layers * (index_dim + 4)
    return dataclasses.replace(
        base,
        total_params=base.total_params + indexer,
        kv_bytes_per_token=base.kv_bytes_per_token + indexer_kv,
        sparse_attention_top_k_tokens=c["index_topk"],
        notes=(
            *base.notes,
            f"plus the indexer's FP8 key ({index_dim} + 4-byte scale) per token and layer",
            f"sparse: each query's MLA reads at most {c['index_topk']} context tokens; the "
            f"indexer scores every one at 2 x {index_heads} x {index_dim} FLOPs per layer, "
            "not counted in attention_flops_per_context_token",
        ),
    )


def qwen3_5_moe(config: Mapping[str, Any]) -> Architecture:
    """Qwen3.5 MoE: Gated DeltaNet linear attention with gated full attention every
    ``full_attention_interval`` layers; routed experts plus one shared expert."""
    c = text_config(config)
    h, layers = c["hidden_size"], c["num_hidden_layers"]
    kinds = c["layer_types"]
    full = sum(1 for k in kinds if k == "full_attention")
    linear = sum(1 for k in kinds if k == "linear_attention")
    heads, kv_heads, head_dim = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
    k_heads, v_heads = c["linear_num_key_heads"], c["linear_num_value_heads"]
    k_dim, v_dim, conv = (
        c["linear_key_head_dim"],
        c["linear_value_head_dim"],
        c["linear_conv_kernel_dim"],
    )
    key, value = k_heads * k_dim, v_heads * v_dim
    conv_dim = 2 * key + value
    gdn = h * (2 * key + 2 * value) + h * 2 * v_heads + conv_dim * conv + value * h
    gdn += 2 * v_heads + v_dim + 2 * h  # A_log, dt_bias, gated norm, layer norms
    experts, width = c["num_experts"], c["moe_intermediate_size"]
    routed = layers * experts * 3 * h * width
    shared = layers * (3 * h * c["shared_expert_intermediate_size"] + h)  # with its gate
    router = layers * h * experts
    attention = full * gqa_params(h, heads, kv_heads, head_dim, gate=c["attn_output_gate"])
    total = routed + shared + router + attention + linear * gdn + embeddings(c, tied=False)
    recurrent = v_heads * k_dim * v_dim * BYTES["fp32"]  # mamba_ssm_dtype float32
    conv_state = conv_dim * (conv - 1) * BYTES["bf16"]
    return Architecture(
        layers=layers,
        experts=experts,
        experts_per_token=c["num_experts_per_tok"],
        shared_experts=1,
        kv_layers=full,
        kv_heads=kv_heads,
        kv_bytes_per_token=2 * full * kv_heads * head_dim * BYTES["bf16"],
        state_bytes_per_sequence=linear * (recurrent + conv_state),
        attention_flops_per_context_token=full * 4 * heads * head_dim,
        total_params=total,
        routed_expert_params=routed,
        notes=(
            f"{layers} layers: {full} gated full attention (GQA, {kv_heads} KV heads of "
            f"{head_dim}), {linear} Gated DeltaNet",
            f"KV = 2 x {full} x {kv_heads} x {head_dim} x 2 bytes (BF16)",
            f"state = {linear} x ({v_heads} x {k_dim} x {v_dim} x 4 bytes FP32 recurrent + "
            f"{conv_dim} x {conv - 1} x 2 bytes BF16 conv)",
            f"{layers} x {experts} routed experts x 3 x {h} x {width} = {routed / 1e9:.1f}B "
            "routed; one shared expert",
        ),
    )


def minimax_m2(config: Mapping[str, Any]) -> Architecture:
    """MiniMax-M2: GQA full attention on every layer, routed experts, no shared expert."""
    c = text_config(config)
    h, layers = c["hidden_size"], c["num_hidden_layers"]
    heads, kv_heads, head_dim = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
    experts, width = c["num_local_experts"], c["intermediate_size"]
    routed = layers * experts * 3 * h * width
    router = layers * (h * experts + experts)
    qk_norm = layers * (heads + kv_heads) * head_dim  # per_layer QK norm
    attention = layers * gqa_params(h, heads, kv_heads, head_dim)
    total = routed + router + qk_norm + attention + embeddings(c, tied=c["tie_word_embeddings"])
    return Architecture(
        layers=layers,
        experts=experts,
        experts_per_token=c["num_experts_per_tok"],
        shared_experts=0,
        kv_layers=layers,
        kv_heads=kv_heads,
        kv_bytes_per_token=2 * layers * kv_heads * head_dim * BYTES["bf16"],
        state_bytes_per_sequence=0,
        attention_flops_per_context_token=layers * 4 * heads * head_dim,
        total_params=total,
        routed_expert_params=routed,
        notes=(
            f"GQA on all {layers} layers, {kv_heads} KV heads of {head_dim}: KV = 2 x {layers} "
            f"x {kv_heads} x {head_dim} x 2 bytes (BF16)",
            f"{layers} x {experts} routed experts x 3 x {h} x {width} = {routed / 1e9:.1f}B "
            f"routed; the {c['num_mtp_modules']} MTP modules are not counted",
        ),
    )


def kimi_k3(config: Mapping[str, Any]) -> Architecture:
    """Kimi K3: Kimi Linear's hybrid (Kimi Delta Attention with gated MLA every fourth
    layer) and a latent MoE (routed experts work in ``routed_expert_hidden_size``).

    Read from the config: which layers are full (MLA) and which linear (KDA) attention,
    KDA's heads and head size, MLA's ranks and heads, experts and their widths, the
    first dense layer, and the MXFP4 format of the quantised layers. Layer shapes follow
    vLLM's Kimi Linear (KimiDeltaAttention: q, k, v, o projections, a decay gate, a
    low-rank output gate, beta, short convolutions). Two readings are the config's
    flags, not its numbers: ``use_full_rank_gate`` is taken as KDA's decay gate being
    one hidden x heads.head_dim matrix (Kimi Linear's is a rank-head_dim pair; were the
    output gate full rank too, active parameters would be 5.9 B higher), and
    ``mla_use_output_gate`` as one hidden x heads.v_head_dim gate. The latent
    projections into and out of the experts' space, whose format the config does not
    name, are counted at BF16.
    """
    c = text_config(config)
    h, layers = c["hidden_size"], c["num_hidden_layers"]
    kda_cfg = c["linear_attn_config"]
    full_layers, kda_layers = len(kda_cfg["full_attn_layers"]), len(kda_cfg["kda_layers"])
    if full_layers + kda_layers != layers:
        raise ValueError("Kimi K3: full and KDA layers do not add up to num_hidden_layers")
    heads, head_dim, conv = (
        kda_cfg["num_heads"],
        kda_cfg["head_dim"],
        kda_cfg["short_conv_kernel_size"],
    )
    proj = heads * head_dim
    decay_gate = h * proj if kda_cfg["use_full_rank_gate"] else h * head_dim + head_dim * proj
    output_gate = h * head_dim + head_dim * proj
    kda = 4 * h * proj + decay_gate + output_gate + h * heads + 3 * proj * conv
    kda += proj + heads + head_dim + 2 * h  # dt_bias, A_log, output norm, layer norms
    mla = mla_params(c, output_gate=c["mla_use_output_gate"])
    dense_layers = c["first_k_dense_replace"]
    moe_layers = layers - dense_layers
    experts, width, latent = (
        c["num_experts"],
        c["moe_intermediate_size"],
        c["routed_expert_hidden_size"],
    )
    routed = moe_layers * experts * 3 * latent * width
    shared = moe_layers * c["num_shared_experts"] * 3 * h * width
    latent_proj = moe_layers * (2 * h * latent + latent)
    router = moe_layers * (h * experts + experts)
    dense = dense_layers * 3 * h * c["intermediate_size"]
    total = (
        routed
        + shared
        + latent_proj
        + router
        + dense
        + full_layers * mla
        + kda_layers * kda
        + embeddings(c, tied=c.get("tie_word_embeddings", False))
    )
    quant = c["quantization_config"]["config_groups"]["group_0"]["weights"]
    bits = quant["num_bits"] + 8 / quant["group_size"]  # MXFP4: an 8-bit E8M0 scale per group
    routed_bytes = routed * bits / 8
    rest_bytes = (total - routed) * 2
    recurrent = heads * head_dim * head_dim * BYTES["fp32"]
    conv_state = 3 * proj * (conv - 1) * BYTES["bf16"]
    return Architecture(
        layers=layers,
        experts=experts,
        experts_per_token=c["num_experts_per_token"],
        shared_experts=c["num_shared_experts"],
        kv_layers=full_layers,
        kv_heads=None,
        kv_bytes_per_token=mla_kv_bytes(c, full_layers, "fp8"),
        state_bytes_per_sequence=kda_layers * (recurrent + conv_state),
        attention_flops_per_context_token=mla_attention_flops(c, full_layers),
        total_params=total,
        routed_expert_params=routed,
        routed_expert_weight_fraction=routed_bytes / (routed_bytes + rest_bytes),
        checkpoint_bytes={"mxfp4": int(routed_bytes + rest_bytes)},
        notes=(
            f"{layers} layers: {full_layers} gated MLA (full attention), {kda_layers} KDA",
            f"KV = {full_layers} MLA layers x ({c['kv_lora_rank']} latent + "
            f"{c['qk_rope_head_dim']} rope) x 1 byte (FP8 KV, as served)",
            f"state = {kda_layers} KDA layers x ({heads} heads x {head_dim} x {head_dim} x "
            f"4 bytes FP32 recurrent + 3 x {proj} x {conv - 1} x 2 bytes BF16 conv), as "
            "vLLM allocates it",
            f"attention = {full_layers} x 2 x {c['num_attention_heads']} heads x (2 x "
            f"{c['kv_lora_rank']} + {c['qk_rope_head_dim']}) per context token (absorbed)",
            f"{moe_layers} MoE layers x {experts} routed experts x 3 x {latent} latent x "
            f"{width} = {routed / 1e9:.1f}B routed; {c['num_shared_experts']} shared experts "
            f"at hidden {h}; first {dense_layers} layer dense",
            f"checkpoint: routed experts MXFP4 ({bits} bits), the rest BF16 (the "
            "quantization_config's ignore list): routed share of the bytes",
        ),
    )


FAMILIES = {
    "deepseek_v3": deepseek_v3,
    "glm_moe_dsa": glm_moe_dsa,
    "qwen3_5_moe": qwen3_5_moe,
    "minimax_m2": minimax_m2,
    "kimi_k3": kimi_k3,
}


def architecture(model: str, config: Mapping[str, Any]) -> Architecture:
    """The catalog figures of ``model`` from its config."""
    family, _ = ARCHITECTURES[model]
    if model == "kimi-k2.5":
        return kimi_k25(config)
    return FAMILIES[family](config)


# --- the wheel ----------------------------------------------------------------------------


def fetch_wheel(into: Path) -> Path:
    """``pip download`` the pinned wheel (no dependencies, this platform's wheel)."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            f"{PACKAGE}=={VERSION}",
            "--no-deps",
            "--only-binary=:all:",
            "--dest",
            str(into),
        ],
        check=True,
    )
    return into / WHEEL_NAME


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def verified(path: Path) -> bytes:
    data = path.read_bytes()
    if sha256(data) != WHEEL_SHA256:
        raise SystemExit(f"{path.name}: sha256 {sha256(data)} is not the pinned {WHEEL_SHA256}")
    return data


def package_date(wheel: zipfile.ZipFile) -> str:
    """The day the package was built, from its SBOM (the one date the output carries)."""
    sbom = json.loads(wheel.read(SBOM))
    return str(dt.datetime.fromisoformat(sbom["metadata"]["timestamp"].rstrip("Z")).date())


def outputs(wheel_bytes: bytes) -> dict[Path, bytes]:
    """Every file the import writes, by path, from the wheel's bytes."""
    wheel = zipfile.ZipFile(io.BytesIO(wheel_bytes))
    sample = wheel.read(SAMPLE)
    source_rows = list(csv.DictReader(io.StringIO(sample.decode("utf-8"))))
    imported = import_rows(source_rows)
    built = package_date(wheel)
    files: dict[Path, bytes] = {FIELD / "silicon_sample.csv": to_csv(imported.rows).encode()}
    figures: dict[str, Any] = {}
    config_digests: dict[str, str] = {}
    for model, (_, name) in ARCHITECTURES.items():
        raw = wheel.read(CONFIGS + name)
        files[FIELD / "model_configs" / name] = raw
        config_digests[name] = sha256(raw)
        figures[model] = {
            "config": f"model_configs/{name}",
            **architecture(model, json.loads(raw)).as_yaml(),
        }
    files[FIELD / "architectures.yaml"] = dump_yaml(
        ARCHITECTURES_HEADER, {"architectures": figures}
    )
    files[FIELD / "provenance.yaml"] = dump_yaml(
        PROVENANCE_HEADER,
        provenance(built, sample, config_digests, len(source_rows), imported),
    )
    files[FIELD / "NOTICE"] = notice(built).encode()
    files[STACKS_FILE] = dump_yaml(STACKS_HEADER, {"stacks": stacks(imported.rows, built)})
    return files


def provenance(
    built: str,
    sample: bytes,
    configs: Mapping[str, str],
    read: int,
    imported: Imported,
) -> dict[str, Any]:
    by_class: Counter[str] = Counter()
    for reason, count in imported.skipped.items():
        by_class[reason_class(reason)] += count
    return {
        "source": {
            "package": PACKAGE,
            "version": VERSION,
            "date": built,
            "licence": "Apache-2.0",
            "url": PYPI_URL,
            "repository": REPOSITORY_URL,
            "wheel": WHEEL_NAME,
            "wheel_sha256": WHEEL_SHA256,
            "files": {
                SAMPLE: sha256(sample),
                **{CONFIGS + name: digest for name, digest in sorted(configs.items())},
            },
        },
        "rows": {
            "read": read,
            "imported": len(imported.rows),
            "skipped": sum(imported.skipped.values()),
            "skipped_by_reason": dict(sorted(by_class.items(), key=lambda kv: (-kv[1], kv[0]))),
            "skipped_in_detail": dict(
                sorted(imported.skipped.items(), key=lambda kv: (-kv[1], kv[0]))
            ),
            "corrected": dict(sorted(imported.corrected.items())),
        },
        "imported_by": "scripts/import_field_data.py",
    }


def stacks(rows: list[dict[str, str]], built: str) -> list[dict[str, Any]]:
    """The stacks the rows name: what each served, the versions seen, first measured."""
    out = []
    for backend, line in STACKS.items():
        mine = [r for r in rows if r["backend"] == backend]
        versions = Counter(r["backend_version"] or "unnamed" for r in mine)
        dated = sorted(r["measured"] for r in mine if r["measured"])
        seen = ", ".join(f"{v} ({n})" for v, n in sorted(versions.items()))
        out.append(
            {
                "id": line.id,
                "name": line.name,
                "engine": line.engine,
                "released": dt.date.fromisoformat(dated[0]),
                "models": sorted({r["model"] for r in mine}),
                "gpus": sorted({r["gpu"] for r in mine}),
                "precisions": sorted({r["precision"] for r in mine}),
                "parallelism": "tensor",
                "description": line.description,
                "caveats": [
                    f"{len(mine)} measurements, {dated[0]} to {dated[-1]}; builds as recorded "
                    f"(rows): {seen}",
                    "each measurement records its own layout (tensor, attention-data and "
                    "expert parallelism, workers); the tensor default here is for questions "
                    "that name none",
                    "released is the first day the sample measured it, not the release date "
                    "of each build",
                ],
                "sources": [
                    {
                        "title": f"{PACKAGE} {VERSION}, {SAMPLE} (NVIDIA, Apache-2.0)",
                        "url": PYPI_URL,
                        "date": dt.date.fromisoformat(built),
                    }
                ],
            }
        )
    return out


ARCHITECTURES_HEADER = """\
# Architecture figures computed from the Hugging Face configs in model_configs/ (as
# aiconfigurator-core 0.12.0 ships them) by scripts/import_field_data.py
# (architecture()). The catalog's entries for these models carry the same figures;
# tests/core/test_field_data.py holds them to it. Generated: do not edit by hand.
"""

PROVENANCE_HEADER = """\
# Where core/data/field/ comes from, written by scripts/import_field_data.py.
# Generated: do not edit by hand; re-run the script (its docstring says how).
"""

STACKS_HEADER = """\
# The serving stacks the field's measurements (core/data/field/silicon_sample.csv)
# name: one per engine, as AIConfigurator's silicon sample recorded them. Generated
# by scripts/import_field_data.py from the sample: do not edit by hand.
"""


def notice(built: str) -> str:
    return f"""\
leasewise: the field's public measurements (core/data/field/)

silicon_sample.csv, model_configs/ and architectures.yaml are derived from
{PACKAGE} {VERSION} (built {built}), published on PyPI by NVIDIA Corporation
under the Apache License, Version 2.0:
  {PYPI_URL}
  source repository: {REPOSITORY_URL}
  Copyright (c) 2025-2026 NVIDIA CORPORATION & AFFILIATES. All rights reserved.
  SPDX-License-Identifier: Apache-2.0

Files used: {SAMPLE} and {CONFIGS}*.json
(the configs are those models' Hugging Face config.json files as the package ships
them). Changes: rows the catalog cannot represent were dropped (provenance.yaml
counts them by reason), catalog ids were added beside the original names, the
layouts were put in one column set, and layouts two exports wrote squared (K x K
GPUs for a K-GPU run with experts over all K) were put right (provenance.yaml
counts them); measured values and each row's id and source text are unchanged.
The model configs are copied unchanged.

The licence text is LICENSE-aiconfigurator in this directory. The wheel ships no
licence or NOTICE file of its own (its metadata declares License-Expression:
Apache-2.0, and the source repository has no NOTICE); the licence is the source
repository's LICENSE as of commit {LICENSE_COMMIT}.
"""


def dump_yaml(header: str, document: Mapping[str, Any]) -> bytes:
    body = yaml.safe_dump(dict(document), sort_keys=False, allow_unicode=True, width=88)
    return (header + "\n" + body).encode()


def write(files: Mapping[Path, bytes]) -> None:
    for path, data in sorted(files.items()):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"wrote {path.relative_to(ROOT)} ({len(data):,} bytes)")


def differences(files: Mapping[Path, bytes]) -> Iterator[Path]:
    for path, data in sorted(files.items()):
        if not path.exists() or path.read_bytes() != data:
            yield path


def report(files: Mapping[Path, bytes]) -> None:
    document = yaml.safe_load(files[FIELD / "provenance.yaml"])
    rows = document["rows"]
    print(f"read {rows['read']:,} rows; imported {rows['imported']:,}; skipped {rows['skipped']:,}")
    for reason, count in rows["skipped_in_detail"].items():
        print(f"  skipped {count:>5,}  {reason}")
    for what, count in rows["corrected"].items():
        print(f"  put right {count:>3,}  {what}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, help=f"a local copy of {WHEEL_NAME}")
    parser.add_argument(
        "--check", action="store_true", help="compare with the committed files; write nothing"
    )
    args = parser.parse_args(argv)
    if args.wheel is not None:
        files = outputs(verified(args.wheel))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            files = outputs(verified(fetch_wheel(Path(tmp))))
    report(files)
    if args.check:
        stale = list(differences(files))
        for path in stale:
            print(f"differs: {path.relative_to(ROOT)}")
        return 1 if stale else 0
    write(files)
    return 0


if __name__ == "__main__":
    sys.exit(main())
