"""The assistant's flow (``agent/flow/``) stays pure: no database, channel layer, Celery or DRF.

It may translate (``django.utils.translation``, the only Django it touches) and call the pure layers
below it: the scheduling core, the model client, the tool contract. Everything else reaches a turn
through the ports in ``agent.flow.deps``.
"""

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
FLOW = PROJECT_ROOT / "agent" / "flow"
ALLOWED_PROJECT_IMPORTS = ("agent.flow", "agent.tools.support.base", "schedule.core", "smartmate.llm",
                           "smartmate.platform.exceptions")
PROJECT_PACKAGES = {"accounts", "agent", "board", "memory", "schedule", "smartmate", "taskclasses"}
THIRD_PARTY_FORBIDDEN = {"channels", "celery", "rest_framework"}


def flow_modules() -> list[str]:
    modules = []
    for path in sorted(FLOW.rglob("*.py")):
        parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
        modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules


def imported_names(source: str) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def impure_imports(source: str) -> list[str]:
    """The imports of a module's source the flow may not have."""
    def allowed(name: str) -> bool:
        top = name.split(".")[0]
        if top == "django":
            return name == "django.utils.translation"
        if top in PROJECT_PACKAGES:
            return any(name == prefix or name.startswith(prefix + ".") for prefix in ALLOWED_PROJECT_IMPORTS)
        return top not in THIRD_PARTY_FORBIDDEN
    return [name for name in imported_names(source) if not allowed(name)]


def test_the_flow_holds_the_graph_state_nodes_and_prompts():
    assert {"agent.flow.graph", "agent.flow.state", "agent.flow.deps", "agent.flow.nodes.execute",
            "agent.flow.prompts"} <= set(flow_modules())


def test_the_checker_notices_the_database_a_model_and_celery():
    source = ("from django.utils.translation import gettext\nfrom django.db import transaction\n"
              "from agent.models import Turn\nfrom accounts.quota import token_quota_reserve\nimport celery\n")
    assert impure_imports(source) == ["django.db", "agent.models", "accounts.quota", "celery"]


@pytest.mark.parametrize("module", flow_modules())
def test_a_flow_module_imports_only_the_pure_layers(module):
    path = PROJECT_ROOT / Path(*module.split("."))
    source = (path / "__init__.py" if path.is_dir() else path.with_suffix(".py")).read_text("utf-8")
    assert impure_imports(source) == []


def test_the_whole_flow_imports_with_the_database_and_workers_blocked():
    # Transitively too: a pure-looking helper that pulls in an ORM module would fail here.
    script = textwrap.dedent(f"""
        import importlib, sys
        from importlib.abc import MetaPathFinder

        BLOCKED = ("django.db", "django.contrib", "channels", "celery", "rest_framework")

        class Blocker(MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.startswith(BLOCKED) or name.endswith((".models", ".services", ".selectors")):
                    raise ImportError("blocked import of " + name)
                return None

        # The project package starts its Celery app on import (Django's usual wiring, not the flow's):
        # let it, then forget what it loaded so that only the flow's own imports meet the blocker.
        import smartmate
        for name in [name for name in sys.modules if name.startswith(("celery", "kombu", "django.db"))]:
            del sys.modules[name]
        sys.meta_path.insert(0, Blocker())
        for module in {flow_modules()!r}:
            importlib.import_module(module)
        print("ok")
        """)
    result = subprocess.run([sys.executable, "-c", script], cwd=PROJECT_ROOT, capture_output=True, text=True,
                            timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(PROJECT_ROOT)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
