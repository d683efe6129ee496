"""The sizing search finds what exhaustive enumeration finds, on random small catalogs."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import core.sizing as sizing
from core.catalog import Catalog, Gpu, Model, Source, Stack
from core.perf.calibration import calibrate
from core.perf.engine import PerfEngine, PerfQuery
from core.perf.layouts import layout_kinds, replica_layouts
from core.perf.memory import deployable_counts, fits
from core.perf.roofline import max_context_tokens, mean_context_tokens
from core.perf.validation import NO_BANDS
from core.traffic import Traffic, resolve

SOURCE = Source(title="test fixture", date="2026-01-01")
SMALL_BATCH = 48  # small enough to enumerate every batch size


def gpus() -> st.SearchStrategy[Gpu]:
    return st.builds(
        lambda i, hbm, bw, tf, price: Gpu(
            id=f"g{i}",
            name=f"G{i}",
            vendor="NVIDIA",
            family="Hopper",
            hbm_gib=hbm,
            hbm_usable_gib=hbm,
            hbm_bandwidth_tb_per_s=bw,
            dense_tflops={"bf16": tf},
            scale_up_domain_gpus=8,
            scale_up_bandwidth_gb_per_s=900,
            scale_out_nic="ConnectX-7, 400 Gb/s",
            scale_out_bandwidth_gb_per_s=50,
            usd_per_gpu_hour=price,
            price_source=SOURCE,
            sources=(SOURCE,),
        ),
        st.integers(0, 10_000),
        st.floats(16, 160),
        st.floats(0.5, 10),
        st.floats(50, 3000),
        st.floats(0.5, 10),
    )


def models() -> st.SearchStrategy[Model]:
    return st.builds(
        lambda params, layers, kv: Model(
            id="m",
            name="M",
            vendor="test",
            total_params_b=params,
            active_params_b=params,
            layers=layers,
            attention="gqa",
            kv_layers=layers,
            kv_heads=8,
            kv_bytes_per_token=kv,
            kv_precision="bf16",
            attention_flops_per_context_token=1e6,
            native_precisions=("bf16",),
            context_window_tokens=1_000_000,
            thinking="none",
            reasoning_tokens_default=0,
            sources=(SOURCE,),
        ),
        st.floats(1, 200),
        st.integers(8, 96),
        st.floats(1e4, 5e5),
    )


def catalog_of(gpu_list: list[Gpu], model: Model, packaged: Catalog) -> Catalog:
    stack = Stack(id="s", name="S", engine="test", released="2025-01-01", sources=(SOURCE,))
    return Catalog(
        engine=packaged.engine,
        precisions={"bf16": packaged.precisions.entries["bf16"]},
        gpus={g.id: g for g in gpu_list},
        models={"m": model},
        stacks={"s": stack},
        measurements={},
    )


def exhaustive(traffic: Traffic, engine: PerfEngine) -> dict[tuple[str, int], tuple[int, int]]:
    """(gpu, gpus per replica) -> (largest SLA batch, replicas), trying every batch of
    every layout the stack deploys on that many GPUs."""
    catalog = engine.catalog
    demand = resolve(traffic, catalog)
    mean_ctx = mean_context_tokens(
        context_tokens=None,
        input_tokens=traffic.input_tokens,
        output_tokens=demand.decoded_tokens,
        default=catalog.engine.default_context_tokens,
    )
    max_ctx = max_context_tokens(mean_context=mean_ctx, output_tokens=demand.decoded_tokens)
    found = {}
    for gpu in catalog.gpus:
        for n in deployable_counts():
            if n > 8 * catalog.engine.max_replica_nodes:
                break
            best = None
            kinds = layout_kinds(catalog.stacks.entries["s"], catalog.engine, demand.model)
            for layout in replica_layouts(kinds, n, gpu.scale_up_domain_gpus):
                at_sla = None
                for batch in range(1, SMALL_BATCH + 1):
                    q = PerfQuery(
                        model="m",
                        gpu=gpu.id,
                        gpus=n,
                        precision="bf16",
                        stack="s",
                        concurrency=batch,
                        input_tokens=traffic.input_tokens,
                        output_tokens=demand.decoded_tokens
                        if traffic.input_tokens is not None
                        else None,
                        layout=layout,
                    )
                    if not fits(
                        engine.hardware(q),
                        layout,
                        concurrency=batch,
                        max_context_tokens=max_ctx,
                        reserve_fraction=catalog.engine.runtime_reserve_fraction,
                    ):
                        break
                    t = engine.throughput(q)
                    if t.per_user_tokens_per_s < demand.min_per_user_tokens_per_s:
                        break
                    at_sla = (batch, t.output_tokens_per_s)
                if at_sla is not None and (best is None or at_sla[1] > best[1]):
                    best = at_sla
            if best is None:
                continue
            batch, tps = best
            replicas = max(
                1, math.ceil(demand.peak_decoded_tokens_per_s / (tps * demand.planned_utilization))
            )
            if replicas * n <= catalog.engine.max_gpus_per_quote:
                found[(gpu.id, n)] = (batch, replicas)
    return found


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    gpu_list=st.lists(gpus(), min_size=1, max_size=2, unique_by=lambda g: g.id),
    model=models(),
    volume=st.floats(1e5, 1e10),
    output_tokens=st.integers(50, 2000),
    input_tokens=st.none() | st.integers(0, 4000),
    peak=st.floats(1, 4),
    min_speed=st.integers(0, 34).map(lambda k: 1.25**k),  # 1 to ~2,000 tok/s, log-spaced
)
def test_the_search_equals_exhaustive_enumeration(
    catalog, monkeypatch, gpu_list, model, volume, output_tokens, input_tokens, peak, min_speed
):
    small = catalog_of(gpu_list, model, catalog)
    engine = PerfEngine(catalog=small, calibration=calibrate(small), bands=NO_BANDS)
    traffic = Traffic(
        model="m",
        output_tokens_per_day=volume,
        output_tokens=output_tokens,
        input_tokens=input_tokens,
        peak_to_average=peak,
        min_per_user_tokens_per_s=min_speed,
        price_per_gpu_hour=3,
    )
    monkeypatch.setattr(sizing, "MAX_BATCH", SMALL_BATCH)
    searched = {
        (o.gpu, o.gpus_per_replica): (o.concurrency, o.replicas)
        for o in sizing.size(traffic, engine).options
    }
    assert searched == exhaustive(traffic, engine)
