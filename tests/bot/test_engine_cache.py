"""The calibrated engine is reused between runs, and rebuilt when data or code change."""

from __future__ import annotations

import pytest

from bot.engine import cache as engine_cache
from core.perf.engine import PerfEngine, PerfQuery

Q = PerfQuery(
    model="kimi-k3", gpu="gb300", gpus=16, precision="mxfp4", stack="vllm", concurrency=64
)


@pytest.fixture(autouse=True)
def calibration_is_the_sessions(monkeypatch: pytest.MonkeyPatch, engine: PerfEngine) -> None:
    """Calibrating takes seconds and is tested in tests/core; these tests are about when it
    runs and what is kept, so "calibrating" hands back the session's engine."""
    monkeypatch.setattr(engine_cache, "build_engine", lambda catalog: engine)


def test_a_second_run_reads_the_cache_instead_of_calibrating(tmp_path, monkeypatch):
    first = engine_cache.load_engine(tmp_path)
    assert len(list(tmp_path.glob("engine-*.pickle"))) == 1

    def no_calibration(*_: object) -> None:
        raise AssertionError("calibrated again despite a valid cache")

    monkeypatch.setattr(engine_cache, "build_engine", no_calibration)
    second = engine_cache.load_engine(tmp_path)
    assert second.throughput(Q).output_tokens_per_s == first.throughput(Q).output_tokens_per_s


def test_changed_data_or_code_means_a_new_key_and_a_rebuild(tmp_path, monkeypatch):
    engine_cache.load_engine(tmp_path)
    monkeypatch.setattr(engine_cache, "cache_key", lambda: "changed")
    calls = []
    real = engine_cache.build_engine
    monkeypatch.setattr(engine_cache, "build_engine", lambda c: calls.append(1) or real(c))
    engine_cache.load_engine(tmp_path)
    assert calls == [1]
    assert [p.name for p in tmp_path.glob("engine-*.pickle")] == ["engine-changed.pickle"]


def test_a_corrupt_cache_file_is_rebuilt(tmp_path):
    (tmp_path / f"engine-{engine_cache.cache_key()}.pickle").write_bytes(b"not a pickle")
    engine = engine_cache.load_engine(tmp_path)
    assert engine.throughput(Q).basis == "measured"
