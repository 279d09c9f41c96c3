"""The layers of the tree (README, "Layout"): who may import whom, read from the source's imports.

From the bottom: the shared core (``smartmate.platform``, ``smartmate.llm``) imports no app and
nothing of the project package above it; the apps import the shared core and each other without a
cycle, in the order of ``APP_ORDER``; the project package (settings, urls, cross-app pages,
``demo``) sits on top and may import anything but ``bench/``: benchmarks, load checks, evaluation
runners, the fake model server and the local topology sit outside the product, and only they import
it. Tests and migrations are left out: they are not layers, and a migration names other apps by design.

Every import counts, including those inside functions and ``TYPE_CHECKING`` blocks: an import put
inside a function to dodge a cycle is still the cycle.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SHARED_CORE = ("smartmate.platform", "smartmate.llm")
#: Bottom to top: an app may import the apps before it, never one after it.
APP_ORDER = ("accounts", "schedule", "taskclasses", "board", "memory", "agent")
TOP = "smartmate"


def layer_of(module: str) -> str | None:
    """The layer a dotted module name belongs to, or None for a module outside the project."""
    if any(module == core or module.startswith(core + ".") for core in SHARED_CORE):
        return "core"
    root = module.split(".")[0]
    if root in APP_ORDER:
        return root
    return "top" if root == TOP else None


def project_modules() -> dict[str, Path]:
    found = {}
    for root in (*APP_ORDER, TOP):
        for path in sorted((PROJECT_ROOT / root).rglob("*.py")):
            parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
            if "tests" in parts or "migrations" in parts:
                continue
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports_of(module: str, path: Path) -> list[tuple[str, int]]:
    """Every project module ``module`` imports, with the line, resolving relative imports."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found += [(f"{base}.{alias.name}" if _is_module(f"{base}.{alias.name}") else base, node.lineno)
                      for alias in node.names]
    return list(dict.fromkeys((name, line) for name, line in found if layer_of(name) is not None))


def _is_module(name: str) -> bool:
    path = PROJECT_ROOT / Path(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def violations() -> list[str]:
    """One line per import that runs against the layers: "file:line imports module (why)"."""
    found = []
    for module, path in project_modules().items():
        here = layer_of(module)
        for target, line in imports_of(module, path):
            there = layer_of(target)
            why = _rule_broken(here, there)
            if why:
                found.append(f"{path.relative_to(PROJECT_ROOT)}:{line} imports {target} ({why})")
    return found


def _rule_broken(here: str | None, there: str | None) -> str | None:
    if here == there or there == "core" or here == "top":
        return None
    if here == "core":
        return "the shared core imports no app and nothing above it"
    if there == "top":
        return "an app imports nothing of the project package on top"
    if APP_ORDER.index(there) > APP_ORDER.index(here):  # type: ignore[arg-type]
        return f"{here} sits below {there}"
    return None


def app_cycles() -> list[list[str]]:
    """Cycles in the graph of which app imports which (any order of apps, not just APP_ORDER)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for module, path in project_modules().items():
        here = layer_of(module)
        for target, _line in imports_of(module, path):
            there = layer_of(target)
            if here in APP_ORDER and there in APP_ORDER and here != there:
                graph[here].add(there)
    cycles, done = [], set()

    def visit(app: str, trail: list[str]) -> None:
        if app in trail:
            cycles.append(trail[trail.index(app):] + [app])
            return
        if app in done:
            return
        for nxt in sorted(graph[app]):
            visit(nxt, [*trail, app])
        done.add(app)

    for app in APP_ORDER:
        visit(app, [])
    return cycles


def test_every_import_follows_the_layers():
    assert violations() == []


def test_no_cycle_between_apps():
    assert app_cycles() == []


def test_the_walk_sees_every_app_and_the_shared_core():
    layers = {layer_of(module) for module in project_modules()}
    assert layers == {"core", "top", *APP_ORDER}


@pytest.mark.parametrize(("here", "there", "broken"), [
    ("core", "accounts", True), ("core", "top", True), ("accounts", "schedule", True),
    ("agent", "top", True), ("schedule", "accounts", False), ("agent", "core", False), ("top", "agent", False),
])
def test_the_rules_name_what_is_forbidden(here, there, broken):
    assert bool(_rule_broken(here, there)) is broken


def test_a_function_level_import_counts(tmp_path, monkeypatch):
    module = tmp_path / "accounts" / "sneaky.py"
    module.parent.mkdir()
    module.write_text("def f():\n    from agent.models import Message\n    return Message\n")
    monkeypatch.setattr(f"{__name__}.PROJECT_ROOT", tmp_path)
    (tmp_path / "agent").mkdir()
    (tmp_path / "agent" / "models.py").write_text("")
    assert imports_of("accounts.sneaky", module) == [("agent.models", 2)]


def test_a_cycle_is_found(monkeypatch):
    fake = {"accounts.a": [("schedule.b", 1)], "schedule.b": [("accounts.a", 1)]}
    monkeypatch.setattr(f"{__name__}.project_modules", lambda: {name: Path(name) for name in fake})
    monkeypatch.setattr(f"{__name__}.imports_of", lambda module, path: fake[module])
    assert app_cycles() == [["accounts", "schedule", "accounts"]]


NOQA_WITHOUT_REASON = re.compile(r"#\s*noqa(?::\s*[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)?\s*$")


def test_every_noqa_says_why():
    """A silenced lint rule says why on the same line (``# noqa: BLE001 - the reason``)."""
    bare = []
    for root in (*APP_ORDER, TOP, "bench"):
        for path in sorted((PROJECT_ROOT / root).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if NOQA_WITHOUT_REASON.search(line):
                    bare.append(f"{path.relative_to(PROJECT_ROOT)}:{number}")
    assert bare == []


def test_a_bare_noqa_is_caught():
    assert NOQA_WITHOUT_REASON.search("x = 1  # noqa: F401")
    assert NOQA_WITHOUT_REASON.search("x = 1  # noqa")
    assert not NOQA_WITHOUT_REASON.search("x = 1  # noqa: F401 - registers the model")


def test_no_product_module_imports_the_benchmarks_and_evaluation_tools():
    importers = []
    for module, path in project_modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
                     else [])
            importers += [f"{module} -> {name}" for name in names if name.split(".")[0] == "bench"]
    assert importers == []
