"""``leasewise import FILE`` and ``leasewise digest``: the change feed from the command line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from bot.settings import Settings
from storage import admin, audit
from storage.schema import open_database

STACK = """
stacks:
  - id: sglang-2027
    name: SGLang 2027 (single node)
    engine: sglang
    precisions: [fp8, mxfp4]
    released: 2027-01-10
    parallelism: tensor
    description: a later SGLang release, as an operator would import it
    sources:
      - title: SGLang release notes
        url: https://example.com/sglang-2027
        date: 2027-01-10
"""


@pytest.fixture
def database(db_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DATABASE_URL", db_url)
    return db_url


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "change.yaml"
    path.write_text(text)
    return path


def added(url: str) -> list[str]:
    _, sessions = open_database(url)
    with sessions() as session:
        return [a.entry_id for a in admin.catalog_additions(session)]


def test_a_stack_is_added_and_audited(
    run: Callable[..., Result], tmp_path: Path, database: str
) -> None:
    result = run("import", str(write(tmp_path, STACK)))
    assert result.exit_code == 0, result.output
    assert "added stack sglang-2027" in result.output
    assert added(database) == ["sglang-2027"]
    _, sessions = open_database(Settings().database_url)
    with sessions() as session:
        assert [r.action for r in audit.recent(session)] == ["stack.add"]


def test_importing_the_same_id_twice_is_refused(
    run: Callable[..., Result], tmp_path: Path, database: str
) -> None:
    path = write(tmp_path, STACK)
    run("import", str(path))
    again = run("import", str(path))
    assert again.exit_code == 2 and "already" in again.output


def test_a_file_naming_an_unknown_precision_adds_nothing(
    run: Callable[..., Result], tmp_path: Path, database: str
) -> None:
    result = run("import", str(write(tmp_path, STACK.replace("mxfp4", "fp3"))))
    assert result.exit_code == 2 and "fp3" in result.output
    assert added(database) == []


def test_a_file_with_other_sections_is_refused(
    run: Callable[..., Result], tmp_path: Path, database: str
) -> None:
    result = run("import", str(write(tmp_path, "gpus: []\n")))
    assert result.exit_code == 2 and "only stacks and measurements" in result.output


def test_digest_preview_prints_the_seed_case_for_the_week_of_the_decode_path(
    run: Callable[..., Result], database: str
) -> None:
    chat = run(
        "chat",
        input="/lease quote save b16 customer=Acme Kimi K3 on 16x GB300, batch 16, $5/GPU-hour\n",
    )
    assert chat.exit_code == 0, chat.output
    result = run("digest", "preview", "--since", "2026-10-12", "--until", "2026-10-19", wide=True)
    assert result.exit_code == 0, result.output
    assert "$21.61 → $12.64" in result.output


def test_digest_preview_with_dates_reversed_exits_2(
    run: Callable[..., Result], database: str
) -> None:
    result = run("digest", "preview", "--since", "2026-10-19", "--until", "2026-10-12")
    assert result.exit_code == 2 and "before" in result.output


def test_digest_run_needs_a_bot_token(
    run: Callable[..., Result], database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SLACK_BOT_TOKEN", raising=False)
    result = run("digest", "run", "--now")
    assert result.exit_code == 2 and "SLACK_BOT_TOKEN" in result.output
