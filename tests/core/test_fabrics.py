"""The same GPU on two fabrics: B300 (8-GPU NVLink nodes joined by 800 Gb/s NICs) and
GB300 (72 GPUs in one NVLink domain) differ only by what crosses the nodes.

Within one node they run alike; across nodes the B300 pays the scale-out network for
its all-to-all and its tensor-parallel collectives, so it lands between half the
GB300's speed and all of it, per GPU and per user, for a single deployment and for a
sized fleet.
"""

from __future__ import annotations

import pytest

from core.perf.engine import PerfEngine
from core.sizing import size
from core.traffic import Traffic

WIDE = [16, 32, 64]
BATCHES = [1, 16, 64, 256, 1024]


@pytest.mark.parametrize("gpus", WIDE)
@pytest.mark.parametrize("batch", BATCHES)
def test_a_b300_fleet_runs_at_half_to_all_of_a_gb300_one(ask, gpus, batch):
    gb300 = ask(model="kimi-k3", gpu="gb300", gpus=gpus, concurrency=batch)
    b300 = ask(model="kimi-k3", gpu="b300", gpus=gpus, concurrency=batch)
    assert b300.layout_domains is not None and b300.layout_domains >= 1
    per_gpu = b300.output_tokens_per_s / gb300.output_tokens_per_s
    per_user = b300.per_user_tokens_per_s / gb300.per_user_tokens_per_s
    assert 0.5 <= per_gpu <= 1.0, (b300.layout, gb300.layout)
    assert 0.5 <= per_user <= 1.0, (b300.layout, gb300.layout)


@pytest.mark.parametrize("batch", [16, 64])
def test_within_one_node_the_two_fabrics_run_alike(ask, batch):
    gb300 = ask(model="kimi-k3", gpu="gb300", gpus=8, concurrency=batch, stack="vllm")
    b300 = ask(model="kimi-k3", gpu="b300", gpus=8, concurrency=batch, stack="vllm")
    assert b300.layout == gb300.layout and b300.layout_domains == 1
    assert b300.output_tokens_per_s == pytest.approx(gb300.output_tokens_per_s, rel=0.1)


def test_a_replica_spanning_nodes_says_how_many_domains_it_spans(ask):
    b300 = ask(model="kimi-k3", gpu="b300", gpus=16, concurrency=64)
    gb300 = ask(model="kimi-k3", gpu="gb300", gpus=16, concurrency=64)
    assert (b300.layout_domain_gpus, gb300.layout_domain_gpus) == (8, 72)
    assert gb300.layout_domains == 1


def test_the_same_traffic_sized_on_b300_needs_at_most_twice_the_gpus_of_gb300(
    engine: PerfEngine,
):
    """2 B output tokens a day at 30 tok/s per user: a B300 lessor's fleet is the
    GB300's within the physics of the fabric, not the 7x an engine without cross-node
    expert parallelism put between them. Each fleet is its cheapest replica, so their
    sizes differ (a wider expert-parallel replica yields more per GPU): per GPU the
    B300 keeps at least half the GB300's speed."""
    sized = {
        gpu: size(
            Traffic(
                model="kimi-k3",
                output_tokens_per_day=2e9,
                min_per_user_tokens_per_s=30,
                gpus=(gpu,),
            ),
            engine,
        ).options[0]
        for gpu in ("b300", "gb300")
    }
    b300, gb300 = sized["b300"], sized["gb300"]
    per_gpu = (b300.replica_output_tokens_per_s / b300.gpus_per_replica) / (
        gb300.replica_output_tokens_per_s / gb300.gpus_per_replica
    )
    assert per_gpu >= 0.5
    assert gb300.gpus <= b300.gpus <= 2 * gb300.gpus
    assert b300.per_user_tokens_per_s >= 30 and gb300.per_user_tokens_per_s >= 30
