"""Answering one Scenario: resolve names and defaults, then throughput, memory and cost.

Whatever the user left out is filled from the catalog and said back as an
assumption; whatever the answer rests on travels with it as sources and caveats.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import replace

from core import cost
from core.catalog import Catalog, Gpu, Measurement, Model, Precision, Stack
from core.errors import InputError
from core.perf.calibration import hardware_for
from core.perf.engine import PerfEngine, PerfQuery, Throughput
from core.perf.layouts import Layout, layout_kinds
from core.perf.memory import memory_fit, min_gpus
from core.perf.roofline import max_context_tokens, mean_context_tokens
from core.pricing import Price, price_for, question_date
from core.provenance import batches, find, measurement_said, publications, what_was_measured
from core.scenario import Estimate, MemoryFit, Scenario, SourceRef
from core.stack_choice import candidate_stacks
from core.units import TOKENS_PER_MILLION

SPEC_DECODE_CAVEAT = (
    "assumes a fixed speculative-decoding acceptance of {a:g} tokens per step; real traffic "
    "often accepts far less (1.18-1.68 on agentic traces, where speculation cost 20-63% of "
    "throughput)"
)


def estimate(scenario: Scenario, engine: PerfEngine, *, today: dt.date | None = None) -> Estimate:
    """The answer to ``scenario``; ``today`` is the edge's date, which prices it when the
    scenario has no ``as_of`` (a book line must be valid on the question's date)."""
    catalog = engine.catalog
    assumptions: list[str] = []
    model = catalog.models.get(scenario.model, field_name="model")
    gpu = catalog.gpus.get(scenario.gpu, field_name="gpu")
    precision = _precision(scenario, model, engine, assumptions)
    decoded = _decoded_tokens(scenario, model, assumptions)
    mean_ctx = mean_context_tokens(
        context_tokens=scenario.context_tokens,
        input_tokens=scenario.input_tokens,
        output_tokens=decoded,
        default=catalog.engine.default_context_tokens,
    )
    if scenario.context_tokens is None and scenario.input_tokens is None and decoded is None:
        assumptions.append(f"assumed a short chat context of {mean_ctx:,} tokens per sequence")
    max_ctx = max_context_tokens(mean_context=mean_ctx, output_tokens=decoded)
    model.require_context(max_ctx)
    candidates = candidate_stacks(
        engine, model, gpu, precision, stack=scenario.stack, as_of=scenario.as_of
    )
    gpus = scenario.gpus or _smallest_fit(
        engine, model, gpu, precision, candidates[0], scenario, max_ctx, assumptions
    )

    def query(stack: Stack, acceptance: float | None) -> PerfQuery:
        q = PerfQuery(
            model=model.id,
            gpu=gpu.id,
            gpus=gpus,
            precision=precision.id,
            stack=stack.id,
            concurrency=scenario.concurrency,
            context_tokens=scenario.context_tokens,
            input_tokens=scenario.input_tokens if decoded is not None else None,
            output_tokens=decoded if scenario.input_tokens is not None else None,
            kv_precision=scenario.kv_precision,
        )
        a = acceptance if acceptance is not None else engine.default_acceptance(q)
        return replace(q, spec_decode_acceptance=a)

    answers = [(s, query(s, scenario.spec_decode_acceptance)) for s in candidates]
    scored = [(s, q, engine.throughput(q)) for s, q in answers]
    stack, q, perf = max(scored, key=lambda sqt: sqt[2].output_tokens_per_s)
    if scenario.stack is None:
        when = f"as of {scenario.as_of}" if scenario.as_of else "in the catalog"
        assumptions.append(f"served with {stack.name}, the fastest stack known {when}")
    if scenario.spec_decode_acceptance is None and q.spec_decode_acceptance > 1:
        assumptions.append(
            f"speculative-decoding acceptance {q.spec_decode_acceptance:g}, "
            "as the measurement assumed"
        )

    priced = price_for(
        gpu,
        catalog,
        stated=scenario.price_per_gpu_hour,
        term_months=scenario.term_months,
        on=question_date(scenario.as_of, today),
    )
    price = priced.usd_per_gpu_hour
    assumptions.append(f"priced {gpu.name} at {priced.said}")
    hourly = cost.usd_per_hour(gpus=gpus, price_per_gpu_hour=price)
    monthly = cost.usd_per_month(hourly)
    # a replica that cannot hold the model serves nothing: no throughput, no $/M
    tps = perf.output_tokens_per_s if perf.holds_model else None
    api_per_m = None
    api_monthly = None
    breakeven = None
    if scenario.api_price_per_million_output is not None:
        api_per_m = cost.api_usd_per_million_output_tokens(
            usd_per_million_output=scenario.api_price_per_million_output,
            usd_per_million_input=scenario.api_price_per_million_input,
            input_tokens=scenario.input_tokens,
            output_tokens=decoded,
        )
        if tps is not None:
            served = cost.output_tokens_per_month(
                tokens_per_s=tps, utilization=scenario.utilization
            )
            api_monthly = served * api_per_m / TOKENS_PER_MILLION
            breakeven = cost.breakeven_utilization(
                hourly_usd=hourly, tokens_per_s=tps, api_usd_per_million=api_per_m
            )

    hw = engine.hardware(q)
    kinds = layout_kinds(stack, catalog.engine, model)
    layout = perf.layout or _plainest(engine, q)
    fit = memory_fit(
        hw,
        layout,
        concurrency=scenario.concurrency,
        max_context_tokens=max_ctx,
        reserve_fraction=catalog.engine.runtime_reserve_fraction,
        kinds=kinds,
    )
    return Estimate(
        model=model.id,
        gpu=gpu.id,
        gpus=gpus,
        precision=precision.id,
        stack=stack.id,
        as_of=scenario.as_of,
        concurrency=scenario.concurrency,
        context_tokens=mean_ctx,
        spec_decode_acceptance=q.spec_decode_acceptance,
        kv_precision=_kv_precision(hw.kv_bytes_per_token, model),
        layout=perf.layout.name if perf.layout is not None else None,
        layout_domains=perf.layout.domains(gpu.scale_up_domain_gpus)
        if perf.layout is not None
        else None,
        layout_domain_gpus=gpu.scale_up_domain_gpus,
        output_tokens_per_s=tps,
        per_user_tokens_per_s=perf.per_user_tokens_per_s if tps is not None else None,
        ttft_s=perf.ttft_s if tps is not None else None,
        price_per_gpu_hour=price,
        price_basis=priced.basis,
        price_source=priced.label,
        offered=priced.offered,
        price_said=priced.said,
        utilization=scenario.utilization,
        usd_per_hour=hourly,
        usd_per_month=monthly,
        usd_per_million_output_tokens=None
        if tps is None
        else cost.usd_per_million_output_tokens(
            hourly_usd=hourly, tokens_per_s=tps, utilization=scenario.utilization
        ),
        contract_usd=None
        if scenario.term_months is None
        else cost.contract_usd(monthly_usd=monthly, term_months=scenario.term_months),
        api_usd_per_million_output_tokens=api_per_m,
        api_usd_per_month=api_monthly,
        breakeven_utilization=breakeven,
        fits_memory=perf.holds_model,
        queued_requests=perf.queued if tps is not None else 0,
        memory=fit,
        basis=perf.basis,
        error_band=perf.error_band if tps is not None else None,
        ttft_error_band=perf.ttft_error_band if tps is not None else None,
        estimated_from=perf.estimated_from,
        estimated_from_said=_estimated_from_said(perf, catalog),
        sources=_sources(perf, gpu, priced, catalog),
        caveats=_caveats(perf, stack, q, model, catalog, fit, gpus),
        assumptions=assumptions,
    )


def _precision(
    scenario: Scenario, model: Model, engine: PerfEngine, assumptions: list[str]
) -> Precision:
    if scenario.precision is not None:
        return engine.catalog.precisions.get(scenario.precision, field_name="precision")
    native = engine.catalog.precisions.entries[model.native_precisions[0]]
    assumptions.append(f"assumed {model.name}'s native precision, {native.name}")
    return native


def _decoded_tokens(scenario: Scenario, model: Model, assumptions: list[str]) -> int | None:
    """Tokens decoded per request: its billed output tokens, reasoning included.

    ``output_tokens`` alone is the billed output (the API bills thinking as output, so
    for a model that thinks it includes the reasoning); with ``reasoning_tokens`` it is
    the visible part and a request bills and decodes their sum, as a sizing reads the
    same traffic (``core.traffic.resolve``). The reading is said back in one line."""
    if scenario.output_tokens is None:
        return None
    reasoning = scenario.reasoning_tokens
    if reasoning:
        billed = scenario.output_tokens + reasoning
        assumptions.append(
            f"{billed:,} output tokens a request, reasoning included as the API bills it "
            f"({scenario.output_tokens:,} visible + {reasoning:,} reasoning)"
        )
        return billed
    if reasoning is None and model.thinking != "none":
        always = f" ({model.name} always thinks)" if model.thinking == "mandatory" else ""
        assumptions.append(
            f"{scenario.output_tokens:,} output tokens a request, reasoning included as the "
            f"API bills it{always}"
        )
    return scenario.output_tokens


def _smallest_fit(
    engine: PerfEngine,
    model: Model,
    gpu: Gpu,
    precision: Precision,
    stack: Stack,
    scenario: Scenario,
    max_ctx: int,
    assumptions: list[str],
) -> int:
    hw = hardware_for(
        engine.catalog,
        model=model.id,
        gpu=gpu.id,
        gpus=1,
        precision=precision.id,
        stack=stack.id,
        kv_precision=scenario.kv_precision,
    )
    n = min_gpus(
        hw,
        layout_kinds(stack, engine.catalog.engine, model),
        concurrency=scenario.concurrency,
        max_context_tokens=max_ctx,
        reserve_fraction=engine.catalog.engine.runtime_reserve_fraction,
    )
    if n is None:
        raise InputError(
            f"{model.name} with {scenario.concurrency} sequences of {max_ctx:,} tokens "
            "does not fit "
            f"on any number of {gpu.name}s",
            field="concurrency",
            hint="lower concurrency or context_tokens, e.g. concurrency=16",
        )
    assumptions.append(f"assumed the smallest {gpu.name} count that holds the model: {n}")
    return n


def _plainest(engine: PerfEngine, q: PerfQuery) -> Layout:
    """The layout memory is reported for when none holds the model: the first the stack
    would try, else one GPU after another."""
    tried = engine.layouts(q)
    return tried[0] if tried else Layout(tp=1, pp=q.gpus)


def _kv_precision(kv_bytes_per_token: float, model: Model) -> str:
    """The KV-cache precision the deployment runs, read back from its bytes per token."""
    if kv_bytes_per_token == model.kv_bytes_per_token:
        return model.kv_precision
    return "fp8" if kv_bytes_per_token < model.kv_bytes_per_token else "bf16"


def _sources(perf: Throughput, gpu: Gpu, priced: Price, catalog: Catalog) -> list[SourceRef]:
    """The measurements an answer rests on; for a roofline estimate, the publications
    its stack was fitted on, once each; none for a replica that cannot hold the model
    (it has no figure to rest on anything)."""
    if not perf.holds_model:
        refs: list[SourceRef] = []
    elif perf.method == "model":
        titles = {m.source.title: m.source for m in perf.fitted_on}
        refs = [SourceRef(title=s.title, url=s.url, date=s.date) for s in titles.values()]
    else:
        refs = [
            SourceRef(
                title=m.source.title,
                url=m.source.url,
                date=m.source.date,
                measurement=m.id,
                measured=what_was_measured(m, catalog),
            )
            for m in perf.measurements
        ]
    if priced.basis == "list":
        p = gpu.price_source
        refs.append(SourceRef(title=p.title, url=p.url, date=p.date))
    elif priced.basis == "book":
        line = catalog.lease_price(gpu.id, priced.term_months)
        assert line is not None
        refs.append(SourceRef(title=line.source.title, url=line.source.url, date=line.source.date))
    return refs


def _estimated_from_said(perf: Throughput, catalog: Catalog) -> str | None:
    found = find(perf.estimated_from, catalog, *perf.measurements)
    return None if found is None else measurement_said(found, catalog)


def _caveats(
    perf: Throughput,
    stack: Stack,
    q: PerfQuery,
    model: Model,
    catalog: Catalog,
    fit: MemoryFit,
    gpus: int,
) -> list[str]:
    gpus_known = catalog.gpus.entries
    gpu = gpus_known[q.gpu]
    if not perf.holds_model:
        need = (
            f"needs at least {fit.min_gpus} {gpu.name}s"
            if fit.min_gpus
            else f"no count of {gpu.name}s holds it"
        )
        return [f"does not fit in memory on {gpus} {gpu.name}s: {need}; no throughput is shown"]
    caveats = list(perf.caveats)
    if perf.method in ("anchored", "carried", "model"):
        caveats.extend(c for c in stack.caveats if c not in caveats)
    near = perf.closeness
    if perf.method == "model":
        caveats.append(
            f"estimated by the roofline fitted to {stack.name}'s measurements; "
            "no measurement of this deployment"
        )
    elif perf.method == "anchored" or (perf.method == "carried" and near.base == "anchored"):
        caveats.append(_anchor_caveat(perf.measurements[0], q))
    if perf.method == "carried" and near.measured_on is not None:
        caveats.append(_carried_caveat(perf, gpus_known[near.measured_on], gpu, gpus))
    if perf.queued:
        caveats.append(
            f"{perf.queued:,} of the {q.concurrency:,} requests wait for KV-cache room "
            f"({perf.decoding:,} decode at once)"
            + ("; time to first token includes the wait" if perf.ttft_s is not None else "")
        )
    if q.spec_decode_acceptance > 1:
        caveats.append(SPEC_DECODE_CAVEAT.format(a=q.spec_decode_acceptance))
    if q.input_tokens is None:
        caveats.append("decode only: prefill not included (give input_tokens and output_tokens)")
    guessed = [f for f in model.estimated_fields if f not in NOT_ARCHITECTURE]
    if guessed and perf.method != "measured":
        caveats.append(f"{model.name} architecture partly estimated: {', '.join(guessed)}")
    return caveats


NOT_ARCHITECTURE = frozenset({"reasoning_tokens_default"})
"""Estimated model fields that are traffic assumptions, not architecture: they move
no throughput figure, and the traffic says its own assumption."""


def _anchor_caveat(anchor: Measurement, q: PerfQuery) -> str:
    return (
        f"scaled by the roofline from the measurement at concurrency {anchor.concurrency} "
        f"in {publications([anchor])}; concurrency {q.concurrency} was not measured"
    )


def _carried_caveat(perf: Throughput, measured: Gpu, asked: Gpu, gpus: int) -> str:
    """Where a stand-in's figure came from and what differs: the fabric the GPUs span."""
    return (
        f"estimated from {publications(perf.measurements)}, measured on {gpus}x "
        f"{measured.id.upper()} ({_fabric(measured, gpus)}) at {batches(perf.measurements)}; "
        f"{gpus} {asked.id.upper()}s span {_fabric(asked, gpus)}, which the roofline puts at "
        f"{perf.closeness.carried_ratio:.2f}x the measured throughput"
    )


def _fabric(gpu: Gpu, gpus: int) -> str:
    domain = gpu.scale_up_domain_gpus
    if gpus <= domain:
        return "one NVLink domain"
    return f"{math.ceil(gpus / domain)} NVLink domains of {domain}"
