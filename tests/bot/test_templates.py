"""Every reply template, rendered with real answers and with hostile or enormous ones.

Each message and each thread reply must pass Slack's limits (``blockkit.violations``,
and slack_sdk's own block models as a second opinion), user text must reach Slack
escaped, and the figures must be the engine's, formatted as the filters format them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections.abc import Callable, Iterator
from importlib.resources import files
from typing import Any

import pytest
from slack_sdk.models.blocks import Block
from slack_sdk.models.views import View

from bot.conversation import answer_question
from bot.render import blockkit, formats
from bot.render.renderer import Message, Renderer
from core.catalog import Catalog
from core.caveats import rank_caveats
from core.compare import price_contrasts
from core.errors import InputError
from core.estimate import estimate
from core.perf.engine import PerfEngine
from core.scenario import Estimate, Scenario
from core.sizing import Sizing, size
from core.traffic import Traffic
from storage.admin import PriceLine
from storage.audit import AuditRecord
from storage.digests import Subscription
from storage.quotes import StoredQuote

HOSTILE = "<!channel> Acme & Sons <b>*bold*</b> _x_ ~y~ `z` > 1 🚀👩‍💻 <@U999|boss>"
HOSTILE_ESCAPED = formats.esc(HOSTILE)
UNSAFE = re.compile(r"<(?!@U\w+>|#C\w+>|https?://)")
"""A ``<`` that is not a mention, a channel or a link the templates made on purpose."""
PRICE_LINE = PriceLine(
    gpu="b300",
    term_months=36,
    usd_per_gpu_hour=5.0,
    source="MSA with Acme",
    added_by="U1",
    created_at=dt.datetime(2026, 10, 19, 9, 30, tzinfo=dt.UTC),
)
LONG = ("Acme Hyperscale Holdings & Partners " * 300)[:10_000]
NOW = dt.datetime(2026, 10, 19, 9, 30, tzinfo=dt.UTC)
TODAY = NOW.date()
ACTIONS = {
    "save_quote": json.dumps({"kind": "scenario", "fields": {"model": "kimi-k3"}}),
    "show_chart": "chart-1",
    "compare_gpus": "compare-1",
    "share_answer": "share-1",
}
VIEWS = {"home", "quote_modal"}


# --- answers the engine gives ------------------------------------------------------


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    return Renderer()


@pytest.fixture(scope="module")
def cost(engine: PerfEngine) -> Estimate:
    """The write-up's 16 GPUs at $5 and batch 64 as the leased B300s (estimated from its
    GB300 measurement), against the $15/M hosted API."""
    scenario = Scenario(
        model="kimi-k3",
        gpu="b300",
        gpus=16,
        concurrency=64,
        price_per_gpu_hour=5,
        api_price_per_million_output=15,
    )
    return estimate(scenario, engine)


@pytest.fixture(scope="module")
def estimated(engine: PerfEngine) -> Estimate:
    """An unmeasured deployment: basis estimated, with a band, TTFT and a contract."""
    scenario = Scenario(
        model="kimi-k3",
        gpu="b300",
        gpus=16,
        concurrency=48,
        input_tokens=800,
        output_tokens=500,
        price_per_gpu_hour=5,
        term_months=36,
        utilization=0.6,
        api_price_per_million_output=15,
    )
    return estimate(scenario, engine)


@pytest.fixture(scope="module")
def sizing(engine: PerfEngine) -> Sizing:
    traffic = Traffic(
        model="kimi-k3",
        output_tokens_per_day=2e9,
        peak_to_average=3,
        monthly_growth=0.1,
        gpus=("b300",),
    )
    return size(traffic, engine)


@pytest.fixture(scope="module")
def infeasible(engine: PerfEngine) -> Sizing:
    """No GPU gives one user 2,000 tokens/s: every size is rejected, the list is long."""
    traffic = Traffic(model="kimi-k3", output_tokens_per_day=2e9, min_per_user_tokens_per_s=2000)
    return size(traffic, engine)


@pytest.fixture(scope="module")
def every_gpu(engine: PerfEngine) -> Sizing:
    return size(Traffic(model="kimi-k3", output_tokens_per_day=2e9, peak_to_average=2), engine)


@pytest.fixture(scope="module")
def pair(engine: PerfEngine) -> list[Estimate]:
    """DESIGN.md's cheap hours, dear tokens: 8x B300 at $7.87 against 8x A100 at $2.51."""
    return [
        estimate(
            Scenario(model="kimi-k3", gpu="b300", gpus=8, stack="vllm", price_per_gpu_hour=7.87),
            engine,
        ),
        estimate(
            Scenario(
                model="kimi-k3",
                gpu="a100-80gb",
                gpus=8,
                precision="gguf-ud-iq1_s",
                price_per_gpu_hour=2.51,
            ),
            engine,
        ),
    ]


@pytest.fixture(scope="module")
def on_every_gpu(engine: PerfEngine, catalog: Catalog) -> list[Estimate]:
    out = []
    for gpu in catalog.gpus:
        try:
            out.append(estimate(Scenario(model="kimi-k3", gpu=gpu.id, concurrency=16), engine))
        except InputError:
            continue
    return out


def quote(
    economics: Estimate | Sizing, i: int = 1, *, name: str = "acme-q3", customer: str = "Acme"
) -> StoredQuote:
    question: Scenario | Traffic = (
        Scenario(model="kimi-k3", gpu="b300", gpus=16, concurrency=64)
        if isinstance(economics, Estimate)
        else Traffic(model="kimi-k3", output_tokens_per_day=2e9)
    )
    return StoredQuote(
        id=i,
        workspace_id="T1",
        channel_id="C1",
        owner_user_id="U1",
        name=name,
        customer=customer,
        question=question,
        economics=economics,
        as_of=dt.date(2026, 10, 18),
        created_at=NOW,
        updated_at=NOW + dt.timedelta(hours=i),
    )


def subscription(i: int, *, paused: bool = False, reason: str | None = None) -> Subscription:
    return Subscription(
        id=i,
        workspace_id="T1",
        channel_id=f"C{i:05d}",
        day_of_week=i % 7,
        hour=9,
        timezone="Europe/Berlin",
        threshold_pct=5.0,
        threshold_usd=1000.0,
        weekly_no_change=False,
        paused=paused,
        pause_reason=reason,
        created_by="U1",
        created_at=NOW,
    )


# --- what every message must satisfy -----------------------------------------------


def messages(message: Message) -> Iterator[Message]:
    yield message
    yield from message.overflow


def texts(blocks: list[dict[str, Any]]) -> Iterator[str]:
    """Every text a person reads in the blocks, in order."""
    for block in blocks:
        for key in ("text", "label"):
            if isinstance(block.get(key), dict):
                yield block[key]["text"]
        for item in block.get("fields") or []:
            yield item["text"]
        for element in block.get("elements") or []:
            if "text" in element:
                yield (
                    element["text"] if isinstance(element["text"], str) else element["text"]["text"]
                )


def everything(message: Message) -> str:
    """All the text of a message and its thread, as Slack receives it."""
    return "\n".join(part for m in messages(message) for part in (m.text, *texts(m.blocks)))


def assert_sendable(message: Message) -> None:
    for i, m in enumerate(messages(message)):
        assert blockkit.violations(m.blocks) == [], f"message {i}"
        for block in m.blocks:
            Block.parse(block).validate_json()  # type: ignore[union-attr]
        assert m.text.strip(), f"message {i} has no fallback text"
        assert len(m.text) <= blockkit.MAX_FALLBACK_TEXT
        assert m.blocks, f"message {i} has no blocks"
        if i:
            assert m.overflow == []
    sent = json.dumps([[m.text, m.blocks] for m in messages(message)], ensure_ascii=False)
    assert not UNSAFE.search(sent), UNSAFE.search(sent)
    assert "<!channel>" not in sent
    assert "<@U999" not in sent
    assert "<b>" not in sent


# --- the contexts ------------------------------------------------------------------


@pytest.fixture(scope="module")
def realistic(
    catalog: Catalog,
    cost: Estimate,
    estimated: Estimate,
    sizing: Sizing,
    infeasible: Sizing,
    pair: list[Estimate],
) -> dict[str, dict[str, Any]]:
    """Each template's context as a handler would build it for an everyday question."""
    contrast = price_contrasts(pair)
    prices = [(p.gpu, p.term_months, p.usd_per_gpu_hour, p.source.title) for p in catalog.prices]
    answer = {
        "understood": ["model Kimi K3", "16x B300", "batch 64"],
        "assumed": [],
        "ambiguities": [],
        "changed": [],
    }
    return {
        "help": {"command": "/lease", "topic": None},
        "estimate": {
            **answer,
            "estimate": cost,
            "model_name": "Kimi K3",
            "gpu_name": "NVIDIA B300",
            "actions": ACTIONS,
        },
        "sizing": {
            **answer,
            "sizing": sizing,
            "model_name": "Kimi K3",
            "top": 3,
            "actions": ACTIONS,
        },
        "needs_more": {
            "missing": ["say the GPU, e.g. '8x B300'"],
            "understood": ["model Kimi K3"],
            "ambiguities": [],
            "example": "Kimi K3 on 16x B300, batch 64",
        },
        "error": {
            "message": "max_ttft_s needs input_tokens",
            "field": "max_ttft_s",
            "hint": "add input_tokens, e.g. input_tokens=800",
        },
        "apology": {"reference": "ab12cd34"},
        "quote_saved": {"quote": quote(cost)},
        "quote_list": {"quotes": [quote(cost, 1), quote(sizing, 2, name="globex")], "total": 2},
        "quote_show": {"quote": quote(estimated)},
        "quote_deleted": {"quote": quote(infeasible)},
        "models": {"models": list(catalog.models)},
        "gpus": {"gpus": list(catalog.gpus), "prices": prices},
        "stacks": {
            "stacks": list(catalog.stacks),
            "newest_measurements": sorted(catalog.measurements, key=lambda m: m.date)[-5:],
        },
        "compare": {"estimates": pair, "contrasts": contrast, "skipped": []},
        "admin_refused": {"user_id": "U123"},
        "admin_done": {"done": {"verb": "price_set", "line": PRICE_LINE}},
        "audit_list": {
            "records": [
                AuditRecord(
                    actor="U1",
                    action="price.set",
                    target="price b300 36",
                    detail={"usd": 5.0},
                    at=NOW,
                )
            ]
        },
        "prices": {"lines": [PRICE_LINE]},
        "followup_none": {"understood": [], "unknown": [], "kind": "scenario"},
        "thread_cleared": {"question": None},
        "unknown_command": {"command": "/lease", "word": "foo", "close": None},
        "quote_document_posted": {"quote": quote(cost), "user_id": "U1"},
        "home": {
            "quotes": [quote(cost), quote(sizing, 2)],
            "subscriptions": [subscription(1)],
            "stacks": list(catalog.stacks),
            "measurements": list(catalog.measurements),
            "user_id": "U1",
        },
        "quote_modal": {
            "initial": {"model": "kimi-k3", "gpu": "b300", "gpus": "16"},
            "private_metadata": '{"channel": "C1"}',
            "models": list(catalog.models),
            "gpus": list(catalog.gpus),
        },
    }


@pytest.fixture(scope="module")
def extreme(
    catalog: Catalog,
    estimated: Estimate,
    every_gpu: Sizing,
    infeasible: Sizing,
    on_every_gpu: list[Estimate],
) -> dict[str, dict[str, Any]]:
    """The same templates fed the worst a workspace can produce."""
    many = [HOSTILE, LONG, *(f"{HOSTILE} #{i}" for i in range(200))]
    answer = {"understood": many, "assumed": many, "ambiguities": many, "changed": many}
    quotes = [
        quote(
            every_gpu if i % 3 else estimated,
            i,
            name=f"{HOSTILE} {i}"[:120],
            customer=LONG if i % 2 else HOSTILE,
        )
        for i in range(500)
    ]
    measurements = [
        m.model_copy(update={"id": f"{m.id}-{i}"}) for i in range(10) for m in catalog.measurements
    ]
    models = [
        m.model_copy(update={"id": f"{m.id}-{i}", "name": f"{HOSTILE} {LONG[:200]} {m.name}"})
        for i in range(10)
        for m in catalog.models
    ]
    gpus = [g.model_copy(update={"name": f"{HOSTILE} {g.name}"}) for g in catalog.gpus]
    prices = [(g.id, t, 5.0 + t / 10, HOSTILE) for g in catalog.gpus for t in (0, 12, 24, 36)]
    subscriptions = [subscription(i, paused=bool(i % 2), reason=LONG) for i in range(100)]
    return {
        "help": {"command": "/lease", "topic": HOSTILE},
        "estimate": {
            **answer,
            "estimate": estimated,
            "model_name": LONG,
            "gpu_name": HOSTILE,
            "actions": ACTIONS,
        },
        "sizing": {
            **answer,
            "sizing": infeasible,
            "model_name": HOSTILE,
            "top": 100,
            "actions": ACTIONS,
        },
        "needs_more": {"missing": many, "understood": many, "ambiguities": many, "example": LONG},
        "error": {"message": LONG + HOSTILE, "field": HOSTILE, "hint": LONG},
        "apology": {"reference": HOSTILE},
        "quote_saved": {"quote": quotes[1]},
        "quote_list": {"quotes": quotes, "total": 12_345},
        "quote_show": {"quote": quotes[1]},
        "quote_deleted": {"quote": quotes[3]},
        "models": {"models": models},
        "gpus": {"gpus": gpus * 10, "prices": prices * 10},
        "stacks": {"stacks": list(catalog.stacks) * 20, "newest_measurements": measurements},
        "compare": {
            "estimates": on_every_gpu,
            "contrasts": price_contrasts(on_every_gpu),
            "skipped": many,
        },
        "admin_refused": {"user_id": "U" + "7" * 20},
        "admin_done": {
            "done": {"verb": "added", "entries": [LONG + HOSTILE] * 3},
            "recalibrating": True,
        },
        "audit_list": {
            "records": [
                AuditRecord(
                    actor="U1",
                    action="price.set",
                    target=HOSTILE,
                    detail={"source": LONG, "previous": {"x": HOSTILE}},
                    at=NOW,
                )
                for _ in range(500)
            ]
        },
        "prices": {
            "lines": [
                PriceLine(
                    gpu=HOSTILE,
                    term_months=36,
                    usd_per_gpu_hour=5.0,
                    source=LONG,
                    added_by="U1",
                    created_at=NOW,
                )
            ]
            * 300
        },
        "followup_none": {"understood": many, "unknown": [HOSTILE] * 50, "kind": "traffic"},
        "thread_cleared": {"question": None},
        "unknown_command": {"command": "/lease", "word": HOSTILE * 5, "close": HOSTILE},
        "quote_document_posted": {"quote": quotes[1], "user_id": "U" + "7" * 20},
        "home": {
            "quotes": quotes,
            "subscriptions": subscriptions,
            "stacks": list(catalog.stacks) * 20,
            "measurements": measurements,
            "user_id": "U1",
        },
        "quote_modal": {
            "initial": {
                "name": LONG,
                "customer": HOSTILE,
                "model": "nope",
                "gpu": "b300",
                "term_months": "36",
                "gpus": "16",
                "price_per_gpu_hour": "4.5",
                "utilization": "60",
            },
            "private_metadata": "x" * 3000,
            "models": models,
            "gpus": gpus * 20,
        },
    }


# --- every template, both ways -----------------------------------------------------


def template_names() -> set[str]:
    root = files("bot.render") / "templates"
    return {
        entry.name.removesuffix(".blocks.j2")
        for entry in root.iterdir()
        if entry.name.endswith(".blocks.j2")
    }


def test_every_template_is_tested_and_has_its_text(realistic: dict[str, Any]) -> None:
    assert set(realistic) <= template_names()
    root = files("bot.render") / "templates"
    for name in set(realistic) - VIEWS:
        assert (root / f"{name}.text.j2").is_file(), name


@pytest.mark.parametrize(
    ("value", "spelled"),
    [
        (formats.usd(21.61), "$21.61"),
        (formats.usd(12_345), "$12,345"),
        (formats.usd(1_234_567, short=True), "$1.2M"),
        (formats.usd(80), "$80.00"),
        (formats.usd_m(6.16), "$6.16/M"),
        (formats.pct(0.3805), "38%"),
        (formats.pct(0.004), "0.4%"),
        (formats.tokens(2e9), "2B"),
        (formats.tokens(150e6), "150M"),
        (formats.tokens(40_000), "40k"),
        (formats.tokens(131_072), "131k"),
        (formats.tok_s(842.3), "842 tok/s"),
        (formats.tok_s(56.37), "56.4 tok/s"),
        (formats.months(7.43), "7.4 months"),
        (formats.months(None), "∞"),
        (formats.band(0.13), "±13%"),
        (formats.band(0.0), "exact"),
        (formats.date(NOW), "2026-10-19 09:30 UTC"),
        (formats.esc("<!channel> & >"), "&lt;!channel&gt; &amp; &gt;"),
        (formats.clip("Acme &amp; Sons", 10), "Acme …"),
        (formats.link("a|b", "https://x.test/?a=1|2"), "<https://x.test/?a=1%7C2|a¦b>"),
        (formats.to_json(dt.date(2026, 1, 2)), '"2026-01-02"'),
        (formats.points(5), "5%"),
        (formats.points(7.5), "7.5%"),
        (formats.times(7.87, 2.51, "usd"), "3.1x"),
        (formats.times(619.746, 190.104, "usd_per_m"), "3.3x"),  # $619.75 / $190.10
        (formats.times(1758.14, 1028.34, ("number", 1), 2), "1.71x"),
        (formats.change(21.61, 12.64, "usd_per_m"), "−41%"),  # -41.5%, toward zero
        (formats.moved(0.0041), "+0.4%"),
        (formats.moved(-0.999), "−99%"),
        (formats.change(9.98, 11.2, "usd_per_m", False), "12%"),
        (formats.listing(["a", "b", "c"]), "a, b and c"),
        (formats.table([["8x B300", "$7.87"]], ["deployment", "$/GPU-h"], "lr"),
         "deployment  $/GPU-h\n8x B300       $7.87"),
    ],
)
def test_filters(value: str, spelled: str) -> None:
    """Figures as DESIGN.md writes them: $21.61, -38%, 842 tokens/s, 2B tokens a day."""
    assert value == spelled


@pytest.mark.parametrize(
    ("value", "spelling", "figure"),
    [
        (21.6149, "usd_per_m", 21.61),
        (1_234_567, ("usd", True), 1.2e6),
        (-0.415, ("pct", True), -0.42),
        (842.3, "tok_s", 842.0),
        (150e6, "tokens", 150e6),
    ],
)
def test_a_figure_reads_back_as_shown(value: float, spelling: Any, figure: float) -> None:
    """Derived sentences start from what the reader sees, not from the unrounded value."""
    assert formats.shown(value, spelling) == pytest.approx(figure)


MESSAGE_NAMES = sorted(
    [
        "help",
        "estimate",
        "sizing",
        "needs_more",
        "error",
        "apology",
        "quote_saved",
        "quote_list",
        "quote_show",
        "quote_deleted",
        "models",
        "gpus",
        "stacks",
        "compare",
        "admin_refused",
        "admin_done",
        "audit_list",
        "prices",
        "followup_none",
        "thread_cleared",
        "unknown_command",
        "quote_document_posted",
    ]
)


@pytest.mark.parametrize("name", MESSAGE_NAMES)
@pytest.mark.parametrize("data", ["realistic", "extreme"])
def test_message_fits_slack(
    renderer: Renderer, request: pytest.FixtureRequest, name: str, data: str
) -> None:
    context = request.getfixturevalue(data)[name]
    assert_sendable(renderer.message(name, **context))


@pytest.mark.parametrize("name", sorted(VIEWS))
@pytest.mark.parametrize("data", ["realistic", "extreme"])
def test_view_fits_slack(
    renderer: Renderer, request: pytest.FixtureRequest, name: str, data: str
) -> None:
    view = renderer.view(name, **request.getfixturevalue(data)[name])
    assert blockkit.view_violations(view) == []
    View(**view).validate_json()
    # An input's initial value is what the text box holds, sent back as typed: not mrkdwn.
    shown = [b for b in view["blocks"] if "initial_value" not in b.get("element", {})]
    sent = json.dumps(shown, ensure_ascii=False)
    assert not UNSAFE.search(sent), UNSAFE.search(sent)
    assert "<!channel>" not in sent
    assert "<@U999" not in sent


def test_hostile_text_is_shown_escaped(renderer: Renderer, extreme: dict[str, Any]) -> None:
    """Escaped, not dropped: the reader still sees what was typed."""
    for name in (
        "estimate",
        "quote_saved",
        "needs_more",
        "error",
        "followup_none",
        "quote_document_posted",
    ):
        assert HOSTILE_ESCAPED in everything(renderer.message(name, **extreme[name])), name


# --- the figures are the engine's --------------------------------------------------


@pytest.fixture(scope="module")
def too_small(engine: PerfEngine) -> Estimate:
    """Kimi K3 at MXFP4 (1,560 GB) on 8 A100-80GBs: it does not fit."""
    scenario = Scenario(
        model="kimi-k3",
        gpu="a100-80gb",
        gpus=8,
        precision="mxfp4",
        price_per_gpu_hour=2.5,
        api_price_per_million_output=15,
        term_months=36,
    )
    return estimate(scenario, engine)


@pytest.fixture(scope="module")
def queued(engine: PerfEngine) -> Estimate:
    """64 agentic requests of 150k-token prompts on 8 B300s: the KV cache holds fewer."""
    scenario = Scenario(
        model="kimi-k3",
        gpu="b300",
        gpus=8,
        concurrency=64,
        input_tokens=150_000,
        output_tokens=2_000,
        reasoning_tokens=0,
        price_per_gpu_hour=5,
    )
    return estimate(scenario, engine)


def answer_to(renderer: Renderer, e: Estimate) -> Message:
    return renderer.message(
        "estimate",
        estimate=e,
        understood=[],
        assumed=[],
        ambiguities=[],
        changed=[],
        model_name="Kimi K3",
        gpu_name=e.gpu.upper(),
        actions=ACTIONS,
    )


def test_a_deployment_that_does_not_fit_shows_what_it_needs_and_no_throughput(
    renderer: Renderer, too_small: Estimate
) -> None:
    assert not too_small.fits_memory and too_small.memory.min_gpus
    for message in (
        answer_to(renderer, too_small),
        renderer.message("quote_saved", quote=quote(too_small)),
        renderer.message("quote_show", quote=quote(too_small)),
    ):
        assert_sendable(message)
        shown = everything(message)
        assert "tok/s" not in shown and "/M output tokens" not in shown
    shown = everything(answer_to(renderer, too_small))
    assert f"does not fit*: needs at least {too_small.memory.min_gpus} GPUs" in shown
    assert "breaks even" not in shown


def test_a_batch_beyond_the_kv_cache_says_how_many_wait(
    renderer: Renderer, queued: Estimate
) -> None:
    assert queued.fits_memory and queued.queued_requests > 0
    message = answer_to(renderer, queued)
    assert_sendable(message)
    waiting = f"{queued.queued_requests} of the 64 requests wait for KV-cache room"
    assert waiting in message.text and waiting in "\n".join(texts(message.blocks))
    assert "time to first token includes the wait" in message.text


def test_an_estimate_carried_from_another_gpu_names_the_measurement(
    renderer: Renderer, cost: Estimate
) -> None:
    """The leased B300 at batch 64 rests on the GB300 write-up's batch-64 figure: the
    answer names its publication and what it measured, the JSON its id."""
    assert cost.estimated_from is not None and cost.estimated_from.startswith("k3-gb300x16-b64")
    shown = everything(answer_to(renderer, cost))
    [source] = [s for s in cost.sources if s.measurement == cost.estimated_from]
    assert f"*Basis:* estimated from {source.title} — {source.measured}" in shown
    assert source.measured is not None
    assert source.measured.startswith("Kimi K3 on 16x GB300 at batch 64 with vLLM")
    assert cost.estimated_from not in shown


def test_an_estimate_names_the_layout_it_runs_and_the_domains_it_spans(
    renderer: Renderer, cost: Estimate
) -> None:
    """16 B300s are two 8-GPU nodes: the answer says which layout spans them."""
    assert cost.layout is not None and cost.layout_domains == 2
    shown = everything(answer_to(renderer, cost))
    assert f"as {cost.layout} across 2 NVLink domains" in shown


def test_estimate_shows_the_engines_figures_and_provenance(
    renderer: Renderer, realistic: dict[str, Any], cost: Estimate
) -> None:
    message = renderer.message("estimate", **realistic["estimate"])
    blocks = "\n".join(texts(message.blocks))
    for shown in (blocks, message.text):
        assert formats.usd_m(cost.usd_per_million_output_tokens) in shown
        assert formats.tok_s(cost.output_tokens_per_s) in shown
        assert formats.usd(cost.usd_per_month) in shown
        assert cost.basis in shown
        assert formats.band(cost.error_band) in shown
        assert formats.pct(cost.breakeven_utilization or 0) in shown
    thread = "\n".join(t for m in message.overflow for t in texts(m.blocks))
    assert "vLLM blog" in thread
    assert all(caveat in blocks + thread for caveat in rank_caveats(cost.caveats))


def test_estimated_answer_carries_its_band_ttft_and_contract(
    renderer: Renderer, estimated: Estimate
) -> None:
    assert estimated.basis != "measured" and estimated.error_band > 0
    assert estimated.ttft_s is not None and estimated.contract_usd is not None
    message = renderer.message(
        "estimate",
        estimate=estimated,
        understood=[],
        assumed=[],
        ambiguities=[],
        changed=["undid the last change"],
        model_name="Kimi K3",
        gpu_name="NVIDIA B300",
        actions=None,
    )
    shown = everything(message)
    assert formats.band(estimated.error_band) in shown
    assert formats.seconds(estimated.ttft_s) in shown
    assert formats.usd(estimated.contract_usd) in shown
    assert formats.usd_m(estimated.usd_per_million_output_tokens) in shown
    assert message.blocks[0]["text"]["text"].startswith("*What changed:*")
    assert message.text.startswith("What changed:")
    assert not any(b["type"] == "actions" for b in message.blocks)


def main_lines(message: Message) -> list[str]:
    """The lines a reader sees in the channel before opening the thread: every text of
    the first message's blocks but the buttons, blank lines left out."""
    blocks = [b for b in message.blocks if b["type"] != "actions"]
    return [line for t in texts(blocks) for line in t.splitlines() if line.strip()]


@pytest.mark.parametrize("name", ["estimate", "sizing"])
def test_an_answer_says_its_headline_first_in_about_a_dozen_lines(
    renderer: Renderer, realistic: dict[str, Any], name: str
) -> None:
    message = renderer.message(name, **realistic[name])
    lines = main_lines(message)
    assert len(lines) <= 14, "\n".join(lines)
    assert message.overflow, "the rest goes to the thread"
    first = lines[1] if name == "estimate" else lines[2]
    assert "/month" in first and "/M output tokens" in first and "utilization" in first
    assert not re.search(r"DESIGN\.md|PUBLIC-FIGURES\.md|\.ya?ml\b", everything(message))


def test_an_estimate_shows_three_caveats_most_relevant_first_and_the_rest_in_the_thread(
    renderer: Renderer, catalog: Catalog, engine: PerfEngine
) -> None:
    """Llama 70B on H200 rests on a roofline fitted to other models' write-ups: the
    message says that, what the answer leaves out and what was guessed; the eleven
    caveats (two of them one sentence with another number) are all in the thread."""
    reply = answer_question(engine, Scenario(model="llama-3.1-70b", gpu="h200"), today=TODAY)
    e = reply.context["estimate"]
    ranked = reply.context["caveats"]
    assert len(e.caveats) > len(ranked) > 3
    assert ranked[0].startswith("estimated by the roofline")
    message = renderer.message(reply.template, **reply.context)
    first = "\n".join(texts(message.blocks))
    assert [c for c in e.caveats if formats.esc(c) in first] == [
        c for c in e.caveats if c in ranked[:3]
    ]
    assert f"{len(ranked) - 3} more caveats in the thread" in first
    thread = "\n".join(t for m in message.overflow for t in texts(m.blocks))
    assert all(formats.esc(c) in thread for c in ranked[3:])
    assert sum("median TTFT of" in c for c in ranked) == 1


def test_a_long_rejection_list_is_one_line_per_reason_in_the_message(
    renderer: Renderer, every_gpu: Sizing, infeasible: Sizing
) -> None:
    for sizing in (every_gpu, infeasible):
        message = renderer.message(
            "sizing",
            sizing=sizing,
            understood=[],
            assumed=[],
            ambiguities=[],
            changed=[],
            model_name="Kimi K3",
            top=3,
            actions=ACTIONS,
        )
        (rejected,) = [line for line in main_lines(message) if line.startswith("*Rejected:*")]
        reasons = {r.constraint for r in sizing.rejected}
        block = next(t for t in texts(message.blocks) if t.startswith("*Rejected:*"))
        assert len(block.splitlines()) == len(reasons) < 8
        assert len(main_lines(message)) <= 14 + len(reasons), main_lines(message)
        thread = "\n".join(t for m in message.overflow for t in texts(m.blocks))
        assert f"Rejected sizes ({len(sizing.rejected)})" in thread


def test_answer_buttons(renderer: Renderer, realistic: dict[str, Any]) -> None:
    for name in ("estimate", "sizing"):
        message = renderer.message(name, **realistic[name])
        (actions,) = [b for b in message.blocks if b["type"] == "actions"]
        assert {e["action_id"]: e["value"] for e in actions["elements"]} == ACTIONS
        labels = [e["text"]["text"] for e in actions["elements"]]
        assert labels == ["Save as quote", "Show chart", "Compare GPUs", "Share in channel"]
    context = {**realistic["estimate"], "actions": {"save_quote": "v"}}
    message = renderer.message("estimate", **context)
    (actions,) = [b for b in message.blocks if b["type"] == "actions"]
    assert [e["action_id"] for e in actions["elements"]] == ["save_quote"]


def test_sizing_headline_rows_and_rejections(
    renderer: Renderer, realistic: dict[str, Any], sizing: Sizing
) -> None:
    message = renderer.message("sizing", **realistic["sizing"])
    best = sizing.options[0]
    headline = (
        f"{best.gpus}x B300 ({best.replicas} replicas of {best.gpus_per_replica}, "
        f"{best.layout}) — "
        f"{formats.usd(best.usd_per_month)}/month at $5.00/GPU-hour (36-month book price), "
        f"{formats.usd_m(best.usd_per_million_output_tokens)} output tokens at "
        f"{formats.pct(best.average_utilization)} average utilization, "
        f"{formats.months(best.months_of_headroom)} of headroom at 10%/month"
    )
    first = "\n".join(texts(message.blocks))
    assert headline in first and headline in message.text
    assert formats.band(best.error_band) in first
    assert sizing.api is not None and formats.esc(sizing.api.verdict) in first
    for o in sizing.options[1:3]:
        assert formats.usd_m(o.usd_per_million_output_tokens) in first
    thread = "\n".join(t for m in message.overflow for t in texts(m.blocks))
    assert f"Options, cheapest first (3 of {len(sizing.options)})" in thread
    assert sizing.rejected and all(r.detail in thread for r in sizing.rejected)
    assert not any(r.detail in first for r in sizing.rejected)


def test_infeasible_sizing_says_the_nearest_ask(renderer: Renderer, infeasible: Sizing) -> None:
    assert infeasible.infeasible is not None
    message = renderer.message(
        "sizing",
        sizing=infeasible,
        understood=[],
        assumed=[],
        ambiguities=[],
        changed=[],
        model_name="Kimi K3",
        top=3,
        actions=None,
    )
    first = "\n".join(texts(message.blocks))
    assert "No option meets this ask" in first
    assert infeasible.infeasible.nearest_feasible_ask in first
    assert infeasible.infeasible.nearest_feasible_ask in message.text
    thread = "\n".join(t for m in message.overflow for t in texts(m.blocks))
    assert all(r.detail in thread for r in infeasible.rejected)


def test_compare_is_a_table_with_the_lesson(
    renderer: Renderer, realistic: dict[str, Any], pair: list[Estimate]
) -> None:
    message = renderer.message("compare", **realistic["compare"])
    shown = everything(message)
    assert "```" in shown
    for e in pair:
        assert formats.usd_per_m(e.usd_per_million_output_tokens) in shown
        assert formats.usd(e.usd_per_hour) in shown
    assert "a lower hourly price is not a lower price per token" in shown


def test_the_compare_sentence_takes_its_ratios_from_the_figures_the_table_shows(
    renderer: Renderer, realistic: dict[str, Any], pair: list[Estimate]
) -> None:
    """A reader who divides the table's $/M (and $/GPU-h) cells gets the sentence's ratio."""
    dear, cheap = sorted(pair, key=lambda e: e.usd_per_million_output_tokens, reverse=True)
    cells = {
        "per_m": [float(formats.usd_per_m(e.usd_per_million_output_tokens)[1:].replace(",", ""))
                  for e in (dear, cheap)],
        "per_hour": [float(formats.usd(e.price_per_gpu_hour)[1:]) for e in (cheap, dear)],
    }
    per_token = cells["per_m"][0] / cells["per_m"][1]
    per_hour = cells["per_hour"][0] / cells["per_hour"][1]
    text = renderer.message("compare", **realistic["compare"]).text
    assert f"{per_token:.1f}x dearer per token" in text
    assert f"{per_hour:.1f}x cheaper per GPU-hour" in text
    assert formats.usd_per_m(dear.usd_per_million_output_tokens) in text.split("Side by side:")[1]


RATIO = re.compile(
    r"(\d[\d,]*\.\d)x (cheaper|dearer) per ([\w-]+)(?: too)? \((\$[\d,.]+) vs (\$[\d,.]+)"
)


def assert_ratios_read_off_their_figures(text: str) -> int:
    """Each "N.Nx cheaper/dearer per X ($a vs $b)" is $a against $b as shown, and the
    word matches the direction: cheaper means $a is the smaller. Returns how many."""
    found = RATIO.findall(text)
    for ratio, word, _, a, b in found:
        first, second = formats.read_figure(a), formats.read_figure(b)
        assert (first < second) == (word == "cheaper"), (ratio, word, a, b)
        big, small = max(first, second), min(first, second)
        assert f"{big / small:,.1f}" == ratio, (ratio, a, b)
    return len(found)


@pytest.fixture(scope="module")
def more_gpus_cheaper_each(engine: PerfEngine) -> list[Estimate]:
    """16 H200s at $4.54 against 8 B300s at $7.87: cheaper per GPU-hour, dearer per
    hour ($72.64 vs $62.96) and per token."""
    return [
        estimate(Scenario(model="kimi-k3", gpu=gpu, gpus=n, concurrency=64), engine)
        for gpu, n in (("b300", 8), ("h200", 16))
    ]


@pytest.mark.parametrize("deployments", ["pair", "more_gpus_cheaper_each"])
def test_every_comparison_sentence_is_computed_from_the_figures_beside_it(
    renderer: Renderer, request: pytest.FixtureRequest, deployments: str
) -> None:
    estimates = request.getfixturevalue(deployments)
    contrasts = price_contrasts(estimates)
    assert contrasts
    message = renderer.message(
        "compare", estimates=estimates, contrasts=contrasts, skipped=[]
    )
    for text in (message.text, everything(message)):
        assert assert_ratios_read_off_their_figures(text) >= 3


def test_a_fleet_dearer_per_hour_is_not_called_cheaper_per_hour(
    renderer: Renderer, more_gpus_cheaper_each: list[Estimate]
) -> None:
    b300, h200 = more_gpus_cheaper_each
    text = renderer.message(
        "compare",
        estimates=more_gpus_cheaper_each,
        contrasts=price_contrasts(more_gpus_cheaper_each),
        skipped=[],
    ).text
    hourly = f"({formats.usd(h200.usd_per_hour)} vs {formats.usd(b300.usd_per_hour)})"
    assert f"dearer per hour too {hourly}" in text
    assert "cheaper per hour" not in text


def test_quote_economics_of_either_kind(
    renderer: Renderer, cost: Estimate, sizing: Sizing, infeasible: Sizing
) -> None:
    shown = everything(
        renderer.message(
            "quote_list", quotes=[quote(cost), quote(sizing, 2), quote(infeasible, 3)], total=3
        )
    )
    assert formats.usd_m(cost.usd_per_million_output_tokens) in shown
    assert formats.usd_m(sizing.options[0].usd_per_million_output_tokens) in shown
    assert "no option meets the ask" in shown
    assert "Showing 3 of 3" in shown


def test_a_quote_says_its_price_per_m_at_its_utilization(
    renderer: Renderer, estimated: Estimate, sizing: Sizing
) -> None:
    listed = renderer.message("quote_list", quotes=[quote(estimated), quote(sizing, 2)], total=2)
    shown = everything(listed)
    per_m = formats.usd_m(estimated.usd_per_million_output_tokens)
    assert f"{per_m} output tokens at {formats.pct(estimated.utilization)} utilization" in shown
    best = sizing.options[0]
    assert (
        f"{formats.usd_m(best.usd_per_million_output_tokens)} output tokens at "
        f"{formats.pct(best.average_utilization)} average utilization"
    ) in shown


def test_quote_show_says_the_term_and_the_gpu_hour_price_and_the_deal_once(
    renderer: Renderer, estimated: Estimate
) -> None:
    saved = quote(estimated)
    saved = dataclasses.replace(
        saved, question=saved.question.model_copy(update={"term_months": 36})
    )
    message = renderer.message("quote_show", quote=saved)
    for shown in (message.text, "\n".join(texts(message.blocks))):
        assert f"36 months at {formats.usd(estimated.price_per_gpu_hour)}/GPU-hour" in shown
        assert shown.count(formats.usd(estimated.usd_per_month) + "/month") == 1


def test_long_lists_overflow_into_the_thread(renderer: Renderer, extreme: dict[str, Any]) -> None:
    message = renderer.message("stacks", **extreme["stacks"])
    assert message.overflow
    assert message.blocks[-1] == blockkit.CONTINUED
    count = len(extreme["stacks"]["newest_measurements"])
    shown = everything(message)
    assert shown.count("• 2026-") + shown.count("• 2025-") + shown.count("• 2024-") >= count


def test_quote_show_keeps_a_long_customer_whole(
    renderer: Renderer, extreme: dict[str, Any]
) -> None:
    message = renderer.message("quote_show", **extreme["quote_show"])
    assert formats.esc(LONG) in "".join(t for m in messages(message) for t in texts(m.blocks))


@pytest.mark.parametrize(
    "topic",
    [
        None,
        "size",
        "cost",
        "compare",
        "ask",
        "quote save",
        "models",
        "gpus",
        "stacks",
        "digest",
        "admin",
        "help",
    ],
)
def test_help(renderer: Renderer, topic: str | None) -> None:
    message = renderer.message("help", command="/lease", topic=topic)
    assert_sendable(message)
    shown = everything(message)
    if topic is None:
        assert "/lease size Kimi K3, 2B output tokens a day, peaks 3x, 30 tok/s per user" in shown
        assert (
            "/lease cost model=kimi-k3 gpu=b300 gpus=16 concurrency=64 price_per_gpu_hour=5"
        ) in shown
        for command in ("quote save", "digest subscribe", "admin", "models", "gpus", "stacks"):
            assert f"/lease {command}" in shown
    else:
        name = topic.split()[0]
        assert f"/lease {name}" in shown
        others = {"size", "cost", "digest", "admin"} - {name}
        assert not any(f"`/lease {other}" in shown for other in others)


def test_small_replies_say_what_they_must(renderer: Renderer, realistic: dict[str, Any]) -> None:
    said: Callable[[str], str] = lambda name: everything(  # noqa: E731
        renderer.message(name, **realistic[name])
    )
    assert "Reference `ab12cd34`" in said("apology")
    assert "ab12cd34" in renderer.message("apology", **realistic["apology"]).text
    assert "max_ttft_s" in said("error") and "input_tokens=800" in said("error")
    assert "b300 at 36 months is now $5.00/GPU-hour (MSA with Acme)" in said("admin_done")
    assert "<@U123>" in said("admin_refused")
    assert "what about H200?" in said("followup_none") and "undo" in said("followup_none")
    assert "start over" in said("followup_none") and "save this as quote" in said("followup_none")
    assert "`/lease foo` is not a command" in said("unknown_command")
    assert "`quote`" in said("unknown_command")
    assert "Started over" in said("thread_cleared")
    assert "say the GPU" in said("needs_more") and "Kimi K3 on 16x B300" in said("needs_more")
    assert "$5.00/GPU-hour" in said("prices")


def test_modal_fields(renderer: Renderer, realistic: dict[str, Any]) -> None:
    view = renderer.view("quote_modal", **realistic["quote_modal"])
    assert view["callback_id"] == "quote_modal"
    assert view["submit"]["text"] == "Save quote"
    inputs = {b["block_id"]: b for b in view["blocks"] if b["type"] == "input"}
    assert list(inputs) == [
        "name",
        "customer",
        "model",
        "gpu",
        "gpus",
        "concurrency",
        "price_per_gpu_hour",
        "term_months",
        "utilization",
    ]
    assert all(b["element"]["action_id"] == block_id for block_id, b in inputs.items())
    assert inputs["model"]["element"]["initial_option"]["value"] == "kimi-k3"
    assert inputs["gpus"]["element"]["is_decimal_allowed"] is False
    assert inputs["price_per_gpu_hour"]["element"]["is_decimal_allowed"] is True
    assert [o["value"] for o in inputs["term_months"]["element"]["options"]] == ["12", "24", "36"]
    optional = {k for k, b in inputs.items() if b["optional"]}
    assert optional == {"price_per_gpu_hour", "term_months", "utilization"}


def test_home_trims_to_the_newest(renderer: Renderer, extreme: dict[str, Any]) -> None:
    view = renderer.view("home", **extreme["home"])
    assert view["type"] == "home"
    buttons = [e for b in view["blocks"] if b["type"] == "actions" for e in b["elements"]]
    assert [b["action_id"] for b in buttons] == ["new_quote"]
    shown = "\n".join(texts(view["blocks"]))
    assert "The newest 10 of 500" in shown
    assert "<#C00001>" in shown


def test_a_view_over_the_limits_names_its_template(
    renderer: Renderer, realistic: dict[str, Any]
) -> None:
    context = {**realistic["quote_modal"], "private_metadata": "x" * 3001}
    with pytest.raises(ValueError, match="'quote_modal'.*private_metadata"):
        renderer.view("quote_modal", **context)


def test_a_message_over_what_fit_can_repair_names_its_template(
    renderer: Renderer, realistic: dict[str, Any]
) -> None:
    context = {**realistic["estimate"], "actions": {"save_quote": "x" * 2001}}
    with pytest.raises(ValueError, match="'estimate'.*value"):
        renderer.message("estimate", **context)


def test_console_text_decodes_the_entities(renderer: Renderer) -> None:
    message = renderer.message("error", message=HOSTILE, field=None, hint=None)
    assert "&lt;!channel&gt;" in message.text
    assert "<!channel> Acme & Sons" in message.console_text()
