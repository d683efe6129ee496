"""core/ is the pure domain engine: dependencies point bot -> storage -> core, never back.

core may not import Slack, database, templating or scheduling libraries, nor the `bot` and
`storage` packages that sit above it (STYLE.md, convention 1). The check reads the source
with `ast`, so it covers every module whether or not a test imports it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
CORE = REPO_ROOT / "core"

# Top-level names core must never import. Any `slack_*` distribution is forbidden as well.
FORBIDDEN_TOP_LEVEL = frozenset(
    {"slack_bolt", "slack_sdk", "sqlalchemy", "alembic", "jinja2", "apscheduler", "bot", "storage"}
)
FORBIDDEN_PREFIXES = ("slack_",)

# Grab-bag modules hide missing domain nouns; name the concept instead.
GRAB_BAG_NAMES = frozenset({"utils", "helpers"})


@dataclass(frozen=True)
class Violation:
    path: Path
    line: int
    module: str

    def __str__(self) -> str:
        return f"{self.path.relative_to(REPO_ROOT)}:{self.line} imports {self.module!r}"


def _is_forbidden(module: str) -> bool:
    top = module.split(".", 1)[0]
    return top in FORBIDDEN_TOP_LEVEL or top.startswith(FORBIDDEN_PREFIXES)


def _package_of(path: Path, root: Path) -> list[str]:
    """Dotted package (as parts) that a module file at `path` belongs to, `root` being repo root."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return parts[:-1]  # for core/x/__init__.py and core/x/y.py alike: ["core", "x"]


def _resolve_relative(package: list[str], level: int, module: str | None) -> str | None:
    """Absolute name of `from <level dots><module> import ...`; None if it climbs above the root."""
    if level - 1 > len(package) - 1:
        return None
    base = package[: len(package) - (level - 1)]
    return ".".join([*base, module] if module else base)


def imported_modules(source: str, *, package: list[str]) -> list[tuple[int, str]]:
    """Every module a source imports, as (line, absolute dotted name).

    Covers `import x`, `from x import y`, relative imports (resolved against `package`)
    and `importlib.import_module("x")` / `__import__("x")` with a literal name.
    A relative import that climbs out of the top-level package is reported as `..`.
    """
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                found.append((node.lineno, node.module or ""))
                continue
            resolved = _resolve_relative(package, node.level, node.module)
            if resolved is None:
                found.append((node.lineno, ".." + (node.module or "")))
            elif node.module is None:
                # `from .. import x`: each name may be a module of the resolved package.
                found.extend((node.lineno, f"{resolved}.{a.name}") for a in node.names)
            else:
                found.append((node.lineno, resolved))
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = (
                func.attr
                if isinstance(func, ast.Attribute)
                else func.id
                if isinstance(func, ast.Name)
                else None
            )
            first = node.args[0]
            if (
                name in {"import_module", "__import__"}
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
            ):
                found.append((node.lineno, first.value))
    return sorted(found)


def forbidden_imports(path: Path, *, root: Path = REPO_ROOT) -> list[Violation]:
    package = _package_of(path, root)
    source = path.read_text(encoding="utf-8")
    return [
        Violation(path, line, module)
        for line, module in imported_modules(source, package=package)
        if module.startswith("..") or _is_forbidden(module)
    ]


def core_python_files() -> list[Path]:
    return sorted(CORE.rglob("*.py"))


def test_core_imports_no_slack_database_templating_scheduler_or_upper_layer() -> None:
    files = core_python_files()
    assert files, f"no Python files under {CORE}: the architecture check would be vacuous"

    violations = [v for path in files for v in forbidden_imports(path)]

    assert not violations, "core/ must stay pure; forbidden imports:\n" + "\n".join(
        f"  {v}" for v in violations
    )


def test_core_has_no_utils_or_helpers_module() -> None:
    grab_bags = [
        p.relative_to(REPO_ROOT)
        for p in CORE.rglob("*")
        if (p.is_file() and p.suffix == ".py" and p.stem in GRAB_BAG_NAMES)
        or (p.is_dir() and p.name in GRAB_BAG_NAMES)
    ]

    assert not grab_bags, f"name the concept instead of a grab-bag module: {grab_bags}"


def test_import_check_catches_absolute_relative_and_dynamic_forms(tmp_path: Path) -> None:
    """The checker itself: a clean file passes, every import form of a forbidden name fails."""
    pkg = tmp_path / "core" / "sub"
    pkg.mkdir(parents=True)
    clean = pkg / "clean.py"
    clean.write_text(
        "import math\nfrom . import sibling\nfrom ..catalog import Gpu\nimport numpy as np\n"
    )
    dirty = pkg / "dirty.py"
    dirty.write_text(
        "\n".join(
            [
                "import slack_bolt",
                "from slack_sdk.models import blocks",
                "import sqlalchemy.orm",
                "from jinja2 import Environment",
                "import apscheduler",
                "from bot import cli",
                "from storage.repositories import quotes",
                "from ... import bot",
                "from ...storage import repo",
                "import importlib; importlib.import_module('slack_sdk')",
                "__import__('jinja2')",
                "import slack_machine",
            ]
        )
        + "\n"
    )

    assert forbidden_imports(clean, root=tmp_path) == []
    flagged = [v.line for v in forbidden_imports(dirty, root=tmp_path)]
    assert flagged == list(range(1, 13))


STORAGE = REPO_ROOT / "storage"
STORAGE_FORBIDDEN = frozenset({"bot", "slack_bolt", "jinja2", "apscheduler"})


def test_storage_sits_below_the_bot() -> None:
    """storage may use core's types and slack_sdk's OAuth table builders, never the app."""
    found = []
    for path in sorted(STORAGE.rglob("*.py")):
        package = _package_of(path, REPO_ROOT)
        for line, module in imported_modules(path.read_text(encoding="utf-8"), package=package):
            if module.split(".", 1)[0] in STORAGE_FORBIDDEN:
                found.append(f"{path.relative_to(REPO_ROOT)}:{line} imports {module!r}")
    assert found == []
