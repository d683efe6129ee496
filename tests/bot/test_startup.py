"""Start-up misconfigurations, as an operator meets them: every command that opens the
database, and ``serve`` with a blank secret, stop with one line naming what is wrong and
its fix, exit code 2, no traceback and no password.

``serve`` runs in a subprocess: were it to start anyway, it would listen instead of
returning, and the subprocess's timeout (not a hung test run) would say so.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from typer.testing import Result

from tests.fakes.databases import closed_port
from tests.storage.conftest import postgres_server_url

PASSWORD = "hunter2-secret"
SERVE_TIMEOUT_S = 120
"""Generous: the subprocess imports the whole Slack stack on a loaded 2-core machine."""
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

COMMANDS: dict[str, tuple[str, ...]] = {
    "serve-free chat": ("chat",),
    "run (no Slack credentials)": ("run",),
    "db upgrade": ("db", "upgrade"),
    "db current": ("db", "current"),
    "import": ("import", "{stacks}"),
    "digest preview": ("digest", "preview"),
    "digest run": ("digest", "run", "--now"),
}


def bad_urls(tmp_path: Path) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Misconfigured DATABASE_URLs and what the one line must name."""
    (tmp_path / "notes.txt").write_text("a file, not a directory")
    refused = f"postgresql+psycopg://leasewise:{PASSWORD}@127.0.0.1:{closed_port()}/leasewise"
    return {
        "not a URL": ("notaurl", ("not a database URL", "sqlite:////", "postgresql+psycopg://")),
        "unknown driver": ("foo://x", ("'foo'", "sqlite:////", "postgresql+psycopg://")),
        "PostgreSQL refusing": (refused, ("Connection refused", "leasewise:***@127.0.0.1")),
        "SQLite path is a directory": (f"sqlite:///{tmp_path}", ("directory", "leasewise.db")),
        "SQLite under a file": (
            f"sqlite:///{tmp_path / 'notes.txt' / 'leasewise.db'}",
            ("is a file, not a directory", "sqlite:////"),
        ),
    }


def one_line_naming(output: str, *names: str, preamble: int = 0) -> str:
    """The output is ``preamble`` notice lines then one error line naming every name."""
    lines = [line for line in output.splitlines() if line.strip()]
    assert "Traceback" not in output, output
    assert PASSWORD not in output, output
    assert len(lines) == preamble + 1, output
    error = lines[-1]
    assert error.startswith("Error: "), output
    for name in names:
        assert name in error, f"{name!r} not in {error!r}"
    return error


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No Slack credentials (``run`` takes the chat path) unless a test sets some."""
    for name in list(os.environ):
        if name.startswith("SLACK_") or name == "DATABASE_URL":
            monkeypatch.delenv(name)
    return monkeypatch


@pytest.fixture
def invoke(
    run: Callable[..., Result], clean_env: pytest.MonkeyPatch, tmp_path: Path
) -> Callable[[tuple[str, ...], str], Result]:
    stacks = tmp_path / "stacks.yaml"
    stacks.write_text(STACK, encoding="utf-8")

    def _invoke(command: tuple[str, ...], url: str) -> Result:
        clean_env.setenv("DATABASE_URL", url)
        if command[:2] == ("digest", "run"):
            clean_env.setenv("SLACK_BOT_TOKEN", "xoxb-startup-test")
        else:
            clean_env.delenv("SLACK_BOT_TOKEN", raising=False)
        args = [arg.format(stacks=stacks) for arg in command]
        return run(*args, input="")

    return _invoke


@pytest.mark.parametrize("command", list(COMMANDS), ids=list(COMMANDS))
@pytest.mark.parametrize(
    "case",
    [
        "not a URL",
        "unknown driver",
        "PostgreSQL refusing",
        "SQLite path is a directory",
        "SQLite under a file",
    ],
)
def test_a_database_url_the_app_cannot_use_is_one_line_with_its_fix(
    invoke: Callable[[tuple[str, ...], str], Result], tmp_path: Path, command: str, case: str
) -> None:
    url, names = bad_urls(tmp_path)[case]
    result = invoke(COMMANDS[command], url)
    assert result.exit_code == 2, result.output
    one_line_naming(result.output, *names)


@pytest.fixture
def read_only_directory(tmp_path: Path) -> Iterator[Path]:
    """A directory the current user cannot create files in: a chmod for everyone but
    root, who ignores permission bits; for root, sysfs, where nobody can create one."""
    if os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o555)
        yield locked
        locked.chmod(0o755)
        return
    if not Path("/sys/kernel").is_dir():
        pytest.skip("as root, the read-only directory used is sysfs, which is not mounted")
    yield Path("/sys")


@pytest.mark.parametrize("command", ["serve-free chat", "db upgrade", "digest preview"])
def test_a_new_sqlite_file_in_a_read_only_directory_is_one_line_with_its_fix(
    invoke: Callable[[tuple[str, ...], str], Result], read_only_directory: Path, command: str
) -> None:
    path = read_only_directory / "leasewise-startup-test.db"
    result = invoke(COMMANDS[command], f"sqlite:///{path}")
    assert result.exit_code == 2, result.output
    one_line_naming(result.output, f"cannot create the SQLite file {path}", "DATABASE_URL=")


@pytest.fixture
def empty_postgres() -> Iterator[str]:
    """A database on the test server that no one has migrated."""
    server = postgres_server_url()
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    name = f"leasewise_unmigrated_{uuid.uuid4().hex[:10]}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    yield make_url(server).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as connection:
        connection.execute(
            text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n"),
            {"n": name},
        )
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
    admin.dispose()


@pytest.mark.parametrize("command", ["serve-free chat", "import", "digest preview"])
@pytest.mark.postgres
def test_an_unmigrated_postgres_database_names_leasewise_db_upgrade(
    invoke: Callable[[tuple[str, ...], str], Result], empty_postgres: str, command: str
) -> None:
    result = invoke(COMMANDS[command], empty_postgres)
    assert result.exit_code == 2, result.output
    one_line_naming(result.output, "no leasewise schema yet", "run leasewise db upgrade")


@pytest.mark.postgres
def test_leasewise_db_upgrade_then_lets_the_app_start(
    invoke: Callable[[tuple[str, ...], str], Result], empty_postgres: str
) -> None:
    assert invoke(("db", "upgrade"), empty_postgres).exit_code == 0
    current = invoke(("db", "current"), empty_postgres)
    assert current.exit_code == 0 and "up to date" in current.output
    chat = invoke(("chat",), empty_postgres)
    assert chat.exit_code == 0, chat.output


# --- serve, in a subprocess ---------------------------------------------------------


def serve(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}
    base.update(
        {
            "PORT": str(closed_port()),
            "LEASEWISE_HOST": "127.0.0.1",
            "SLACK_API_URL": "http://127.0.0.1:9/api/",  # nothing must ever be asked of it
            **env,
        }
    )
    return subprocess.run(
        [sys.executable, "-c", "from bot.cli import main; main()", "serve", *args],
        env=base,
        capture_output=True,
        text=True,
        timeout=SERVE_TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize(
    ("env", "args", "named"),
    [
        ({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": " \t "}, (), "SLACK_SIGNING_SECRET"),
        ({"SLACK_BOT_TOKEN": "   ", "SLACK_SIGNING_SECRET": "shh"}, (), "SLACK_BOT_TOKEN"),
        (
            {"SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": " ", "SLACK_SIGNING_SECRET": "s"},
            (),
            "SLACK_CLIENT_SECRET",
        ),
        ({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "\n"}, ("--socket",), "SLACK_APP_TOKEN"),
    ],
    ids=["signing secret", "bot token", "client secret", "app token"],
)
def test_serve_refuses_a_blank_secret_before_it_listens(
    db_url: str, env: dict[str, str], args: tuple[str, ...], named: str
) -> None:
    done = serve({"DATABASE_URL": db_url, **env}, *args)
    assert done.returncode == 2, done.stdout + done.stderr
    one_line_naming(done.stdout + done.stderr, named)


def test_serve_on_a_garbage_database_url_is_one_line_with_its_fix() -> None:
    env = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "shh", "DATABASE_URL": "notaurl"}
    done = serve(env)
    assert done.returncode == 2, done.stdout + done.stderr
    one_line_naming(done.stdout + done.stderr, "not a database URL", "sqlite:////")


@pytest.mark.postgres
def test_serve_on_an_unmigrated_postgres_database_names_leasewise_db_upgrade(
    empty_postgres: str,
) -> None:
    env = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "DATABASE_URL": empty_postgres}
    done = serve(env)
    assert done.returncode == 2, done.stdout + done.stderr
    one_line_naming(done.stdout + done.stderr, "run leasewise db upgrade")
