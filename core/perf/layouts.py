"""The parallel layouts a stack deploys a model in, and the ones worth trying for a count.

A replica is ``tp x dp x pp`` GPUs: ``pp`` pipeline stages, each ``dp`` attention
data-parallel ranks of ``tp`` tensor-parallel GPUs. Dense and attention weights are
split over the ``tp`` GPUs of a rank (every rank holds a copy); routed experts are
split over all ``tp x dp`` GPUs of a stage, ``ep`` ways by expert (the rest by tensor
slices). With more than one attention rank (``dp > 1``) tokens reach their experts by
an all-to-all (dispatch, then combine); with one, tensor parallelism's all-reduce does.
Several replicas (``replicas``) serve side by side on one system, sharing nothing.

The names are the field's: TP8, TP8 x PP2, TP8 EP8 (tensor-parallel attention, each
routed expert whole on one of the 8 GPUs: TensorRT-LLM's moe_ep_size, vLLM's and
SGLang's expert parallelism without attention data parallelism), DEP16 (data-parallel
attention over 16 GPUs, experts spread over them), TP8 x DEP2 (two attention groups of
TP8, experts over all 16), with ", 2 replicas" when a system runs several.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from core.catalog import Model, Stack
from core.catalog.entries import EngineConstants, LayoutKind

IMPLIED: dict[str, tuple[LayoutKind, ...]] = {
    "tensor": ("tp", "pp"),
    "expert": ("tp", "pp", "dep", "tep"),
    "layer_split": ("layer_split",),
}
"""What a stack's ``parallelism`` implies when neither it nor its engine names layouts."""

TENSOR_WIDTHS = (1, 2, 4, 8, 16, 32, 64)
"""Tensor-parallel widths: attention heads and expert widths split in powers of two."""
GROUP_WIDTHS = (2, 4, 8)
"""Tensor-parallel attention groups inside data-parallel attention (TP8 x DEP2)."""


@dataclass(frozen=True)
class Layout:
    """How one deployment spreads over its GPUs (see the module docstring)."""

    tp: int = 1
    pp: int = 1
    dp: int = 1
    ep: int = 1
    replicas: int = 1
    split_layers: bool = False
    """Layers split across GPUs that work in turn, the whole batch at once (llama.cpp):
    no micro-batches keep the stages busy together."""

    def __post_init__(self) -> None:
        for name in ("tp", "pp", "dp", "ep", "replicas"):
            if getattr(self, name) < 1:
                raise ValueError(f"a layout's {name} is at least 1")
        if self.stage_gpus % self.ep:
            raise ValueError("ep must divide the GPUs of a stage (tp x dp)")

    @property
    def stage_gpus(self) -> int:
        """GPUs of one pipeline stage: its attention ranks times their tensor width."""
        return self.tp * self.dp

    @property
    def replica_gpus(self) -> int:
        return self.stage_gpus * self.pp

    @property
    def gpus(self) -> int:
        return self.replica_gpus * self.replicas

    @property
    def moe_tp(self) -> int:
        """Tensor slices each expert is cut into (the stage's GPUs over ``ep``)."""
        return self.stage_gpus // self.ep

    def alone(self) -> Layout:
        """One of its replicas."""
        return Layout(self.tp, self.pp, self.dp, self.ep, 1, self.split_layers)

    def domains(self, domain_gpus: int) -> int:
        """NVLink domains one replica spans, placed contiguously."""
        return -(-self.replica_gpus // domain_gpus)

    @property
    def name(self) -> str:
        if self.split_layers:
            core = f"layer split over {self.pp}"
        else:
            if self.dp == 1:
                core = f"TP{self.tp}" if self.tp > 1 else "1 GPU"
                if self.ep > 1:
                    core = f"{core} EP{self.ep}"
            elif self.tp == 1:
                core = f"DEP{self.dp}" if self.ep > 1 else f"DP{self.dp} attention"
            else:
                core = (
                    f"TP{self.tp} x DEP{self.dp}"
                    if self.ep > 1
                    else (f"TP{self.tp} x DP{self.dp} attention")
                )
            if self.pp > 1:
                core = f"{core} x PP{self.pp}" if core != "1 GPU" else f"PP{self.pp}"
        if self.replicas > 1:
            return f"{core}, {self.replicas} replicas"
        return core


def layout_kinds(stack: Stack, engine: EngineConstants, model: Model) -> tuple[LayoutKind, ...]:
    """The layouts a stack deploys this model in: its own list, else its engine's, else
    what its parallelism implies; a dense model has no experts to spread, so data-
    parallel attention is replicas to it, and it falls back to tensor parallelism."""
    kinds = stack.layouts
    if not kinds and stack.engine in engine.serving_engines:
        kinds = engine.serving_engines[stack.engine].layouts
    if not kinds:
        kinds = IMPLIED[stack.parallelism]
    if not model.is_moe:
        kinds = tuple(k for k in kinds if k not in ("dep", "tep")) or ("tp", "pp")
    return kinds


def replica_layouts(kinds: tuple[LayoutKind, ...], gpus: int, domain_gpus: int) -> Iterator[Layout]:
    """Every layout of the kinds given for one replica of exactly ``gpus`` GPUs."""
    seen: set[Layout] = set()

    def new(layout: Layout) -> Iterator[Layout]:
        if layout not in seen:
            seen.add(layout)
            yield layout

    for kind in kinds:
        if kind == "layer_split":
            yield from new(Layout(pp=gpus, split_layers=True))
        elif kind == "tp":
            if gpus in TENSOR_WIDTHS and gpus <= domain_gpus:
                yield from new(Layout(tp=gpus))
        elif kind == "pp":
            width = max(w for w in TENSOR_WIDTHS if w <= domain_gpus and gpus % w == 0)
            if gpus > domain_gpus and gpus // width > 1:
                yield from new(Layout(tp=width, pp=gpus // width))
        elif kind == "dep":
            if gpus > 1:
                yield from new(Layout(dp=gpus, ep=gpus))
        elif kind == "tep":
            for width in GROUP_WIDTHS:
                if width < gpus and gpus % width == 0 and width <= domain_gpus:
                    yield from new(Layout(tp=width, dp=gpus // width, ep=gpus))


def system_layouts(
    kinds: tuple[LayoutKind, ...], gpus: int, domain_gpus: int, sizes: Iterator[int]
) -> Iterator[Layout]:
    """Layouts of ``gpus`` GPUs as one replica or several alike (an NVL72 as 9 x TP8 or
    4 x DEP16), for each replica size in ``sizes`` up to ``gpus``; GPUs that do not make
    a whole replica sit idle (they are still paid for)."""
    for size in sizes:
        if size > gpus:
            return
        replicas = gpus // size
        for layout in replica_layouts(kinds, size, domain_gpus):
            yield Layout(layout.tp, layout.pp, layout.dp, layout.ep, replicas, layout.split_layers)
