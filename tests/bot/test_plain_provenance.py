"""Answers name the measurements they rest on in words, never by id (issue 13, item 5).

A measurement's id (``imx-dsr1-h200x8-fp8-trt-c64-8k1k``) is the catalog's key and
the JSON's (``estimated_from``, a source's ``measurement``); what a customer reads
names the publication and what it measured.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from bot.console.chat import Console
from bot.conversation import Reply, answer_question, compare_reply
from bot.render.renderer import Message, Renderer
from bot.services import Services
from core.catalog import Catalog
from core.errors import InputError
from core.perf.engine import PerfEngine
from core.scenario import Scenario
from core.traffic import Traffic
from tests.bot.people import NOW

TODAY = NOW.date()


@pytest.fixture(scope="module")
def measurement_ids(catalog: Catalog) -> re.Pattern[str]:
    ids = sorted((m.id for m in catalog.measurements), key=len, reverse=True)
    return re.compile("|".join(re.escape(i) for i in ids))


def rendered(renderer: Renderer, reply: Reply) -> str:
    """Everything the reply shows: Slack's text and blocks, its thread, the console's text."""
    message = renderer.message(reply.template, **reply.context)
    parts: list[Message] = [message, *message.overflow]
    return "\n".join(
        [message.console_text(), *(m.text for m in parts), *(json.dumps(m.blocks) for m in parts)]
    )


def answers(engine: PerfEngine) -> Iterator[tuple[str, Reply]]:
    """cost at batch 1 and 64, and a sizing, for every model on every GPU; each model
    compared across the catalog's GPUs (those that cannot hold it are skipped)."""
    catalog = engine.catalog
    for model in catalog.models:
        for gpu in catalog.gpus:
            for batch in (1, 64):
                scenario = Scenario(model=model.id, gpu=gpu.id, concurrency=batch)
                try:
                    yield f"cost {model.id} on {gpu.id}, batch {batch}", answer_question(
                        engine, scenario, today=TODAY
                    )
                except InputError:
                    continue
            traffic = Traffic(model=model.id, output_tokens_per_day=1e9, gpus=(gpu.id,))
            try:
                yield f"size {model.id} on {gpu.id}", answer_question(engine, traffic, today=TODAY)
            except InputError:
                continue
        scenario = Scenario(model=model.id, gpu="b300", concurrency=16)
        try:
            yield f"compare {model.id}", compare_reply(engine, scenario, [], today=TODAY)
        except InputError:
            continue


def test_no_rendered_answer_names_a_measurement_by_its_id(
    engine: PerfEngine, measurement_ids: re.Pattern[str]
) -> None:
    renderer = Renderer()
    seen = 0
    for label, reply in answers(engine):
        shown = rendered(renderer, reply)
        found = measurement_ids.search(shown)
        assert found is None, f"{label}: {shown[max(0, found.start() - 200) : found.end()]}"
        seen += 1
    assert seen > 100  # the sweep reached most of the catalog


def test_an_estimate_names_the_publication_and_what_it_measured(engine: PerfEngine) -> None:
    """The leased B300 rests on the GB300 write-up: its basis, its sources and the caveat
    that carries the figure say the publication and the deployment it measured."""
    scenario = Scenario(model="kimi-k3", gpu="b300", gpus=16, concurrency=64)
    reply = answer_question(engine, scenario, today=TODAY)
    e = reply.context["estimate"]
    assert e.estimated_from is not None  # the JSON keeps the id for programs
    [source] = [s for s in e.sources if s.measurement == e.estimated_from]
    measured = f"Kimi K3 on 16x GB300 at batch 64 with {engine.catalog.stacks.get(e.stack).name}"
    assert source.measured == measured
    assert e.estimated_from_said == f"{source.title} — {measured}"
    shown = Renderer().message(reply.template, **reply.context).console_text()
    assert f"Basis: estimated from {source.title} — {measured}" in shown
    assert f"estimated from {source.title}, measured on 16x GB300" in shown
    assert f"; {measured})" in shown  # the source line


def test_an_answer_scaled_from_another_batch_names_the_publication_it_was_scaled_from(
    engine: PerfEngine,
) -> None:
    scenario = Scenario(model="deepseek-r1", gpu="h200", concurrency=1)
    reply = answer_question(engine, scenario, today=TODAY)
    e = reply.context["estimate"]
    [anchor] = [s for s in e.sources if s.measurement == e.estimated_from]
    [measured] = [m for m in engine.catalog.measurements if m.id == e.estimated_from]
    scaled = [c for c in e.caveats if c.startswith("scaled by the roofline")]
    assert measured.concurrency != 1
    assert scaled == [
        f"scaled by the roofline from the measurement at concurrency {measured.concurrency} "
        f"in {anchor.title}; concurrency 1 was not measured"
    ]


def test_a_quote_saved_in_the_console_names_no_measurement_id(
    desk: Services, measurement_ids: re.Pattern[str]
) -> None:
    console = Console(desk)
    lines = [
        "@leasewise Kimi K3 on 16x B300, batch 64",
        "save this as quote acme for Acme",
        "/lease quote show acme",
        "/lease quote list",
        "@leasewise Kimi K3, 2B output tokens a day, 30 tok/s per user",
        "save this as quote acme-size for Acme",
        "/lease quote show acme-size",
    ]
    for line in lines:
        said = console.say(line)
        assert said is not None and not measurement_ids.search(said), (line, said)
