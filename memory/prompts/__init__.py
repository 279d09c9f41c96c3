"""The memory stage's prompt templates (``<name>.txt``, ``$placeholders``), Chinese-first."""

from __future__ import annotations

from functools import cache
from importlib import resources
from string import Template

#: The first line of each template names its task; logs and the scripted eval model rely on it.
EXTRACT_TAG = "【任务：记忆提取】"
DECIDE_TAG = "【任务：记忆决策】"


@cache
def _template(name: str) -> Template:
    return Template(resources.files(__name__).joinpath(f"{name}.txt").read_text(encoding="utf-8"))


def render(name: str, **values: object) -> str:
    """Fill template ``name``; raise KeyError when a placeholder has no value."""
    return _template(name).substitute(**{key: str(value) for key, value in values.items()}).strip()
