"""The pure cores import nothing from Django, DRF, Channels or Celery, so they run and are tested without settings."""

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PURE_PACKAGES = ("schedule/core", "taskclasses/notes/core", "memory/core")
FORBIDDEN = ("django", "rest_framework", "channels", "celery")


def pure_modules() -> list[str]:
    modules = []
    for package in PURE_PACKAGES:
        for path in sorted((PROJECT_ROOT / package).rglob("*.py")):
            parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
            modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules


def source_of(module: str) -> str:
    path = PROJECT_ROOT / Path(*module.split("."))
    return (path / "__init__.py" if path.is_dir() else path.with_suffix(".py")).read_text("utf-8")


def forbidden_imports(source: str) -> list[str]:
    """Return the forbidden top-level packages a module's source imports, anywhere in it."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found += [name for name in names if name.split(".")[0] in FORBIDDEN]
    return found


def test_the_pure_packages_contain_the_time_model_and_importers():
    assert {"schedule.core.time_model", "schedule.core.board", "schedule.core.importers"} <= set(
        pure_modules()
    )


def test_the_checker_notices_a_forbidden_import():
    source = "import os\nfrom django.db import models\ndef f():\n    import celery.app\n"
    assert forbidden_imports(source) == ["django.db", "celery.app"]


@pytest.mark.parametrize("module", pure_modules())
def test_a_pure_module_does_not_import_django_drf_channels_or_celery(module):
    assert forbidden_imports(source_of(module)) == []


def test_every_pure_module_imports_with_the_forbidden_packages_blocked():
    script = textwrap.dedent(f"""
        import importlib, sys
        from importlib.abc import MetaPathFinder

        class Blocker(MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {FORBIDDEN!r}:
                    raise ImportError("blocked import of " + name)
                return None

        for name in list(sys.modules):
            if name.split(".")[0] in {FORBIDDEN!r}:
                del sys.modules[name]
        sys.meta_path.insert(0, Blocker())
        for module in {pure_modules()!r}:
            importlib.import_module(module)
        print("ok")
        """)
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(PROJECT_ROOT)},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
