"""memory/core imports nothing from Django, DRF, Channels or Celery (STYLE.md §2)."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("django", "rest_framework", "channels", "celery")


def pure_modules() -> list[str]:
    modules = []
    for path in sorted((PROJECT_ROOT / "memory" / "core").rglob("*.py")):
        parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
        modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules


def forbidden_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found += [name for name in names if name.split(".")[0] in FORBIDDEN]
    return found


def test_the_pure_package_holds_ranking_dedup_and_similarity():
    assert {"memory.core", "memory.core.ranking", "memory.core.dedup", "memory.core.similarity"} <= set(
        pure_modules())


@pytest.mark.parametrize("path", sorted((PROJECT_ROOT / "memory" / "core").rglob("*.py")), ids=lambda p: p.name)
def test_a_pure_module_does_not_import_django_drf_channels_or_celery(path):
    assert forbidden_imports(path) == []


def test_every_pure_module_imports_with_the_forbidden_packages_blocked():
    script = textwrap.dedent(f"""
        import importlib, sys
        from importlib.abc import MetaPathFinder

        class Blocker(MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {FORBIDDEN!r}:
                    raise ImportError("blocked import of " + name)
                return None

        sys.meta_path.insert(0, Blocker())
        for module in {pure_modules()!r}:
            importlib.import_module(module)
        print("ok")
        """)
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(PROJECT_ROOT)},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
