"""The dependency rules of docs/architecture.md, checked by walking every import (ast), so they stay true.

Each room may import only the rooms listed for it (and itself). Imports inside functions count too: a
deferred import is still a dependency.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECT_PACKAGES = ("memoryhub", "layers", "permanent", "audit", "bench", "tests")

CORE = "memoryhub.core"
LIBRARIES = {"memoryhub.safety", "memoryhub.providers"}
BASE = {CORE, "memoryhub.api"}
BELOW_LAYERS = BASE | LIBRARIES | {"memoryhub.tenancy", "memoryhub.console", "memoryhub.outbox", "audit", "permanent"}
THREE_LAYERS = {"layers.transient", "layers.short_term", "layers.long_term"}

ALLOWED: dict[str, set[str]] = {
    CORE: set(),
    "memoryhub.safety": {CORE},
    "memoryhub.providers": {CORE},
    "memoryhub.api": {CORE},
    "memoryhub.tenancy": BASE,
    "memoryhub.console": BASE | {"memoryhub.tenancy"},
    "audit": BASE | {"memoryhub.tenancy", "memoryhub.console"},
    "memoryhub.outbox": {CORE},
    # a transport: its tools run the REST operations through Django's handler (memoryhub/mcp/operations.py),
    # so it never imports a layer and cannot bypass what their views do
    "memoryhub.mcp": BASE | {"memoryhub.tenancy"},
    "permanent": BASE | LIBRARIES | {"memoryhub.tenancy", "memoryhub.console", "memoryhub.outbox", "audit"},
    "layers.short_term": BELOW_LAYERS,
    "layers.long_term": BELOW_LAYERS,
    "layers.transient": BELOW_LAYERS | {"layers.short_term"},
    "layers.formation": BELOW_LAYERS | THREE_LAYERS,
    "layers.forgetting": BELOW_LAYERS | THREE_LAYERS,
    "layers.context": BELOW_LAYERS | THREE_LAYERS,
    "layers.erasure": BELOW_LAYERS | THREE_LAYERS,
    # a flow over short-term (it reads turns through short-term's append annotators)
    "layers.reminders": BELOW_LAYERS | THREE_LAYERS,
    # project configuration (settings, urls, celery, wsgi, the embedded runner) wires everything
    "memoryhub": {"*"},
    "layers": set(),
    "bench": set(),
}


def room_of(module: str) -> str | None:
    """The most specific room a dotted module belongs to."""
    parts = module.split(".")
    for length in (2, 1):
        name = ".".join(parts[:length])
        if name in ALLOWED:
            return name
    return None


def _modules() -> list[tuple[str, Path]]:
    found = []
    for package in ("memoryhub", "layers", "permanent", "audit", "bench"):
        for path in sorted((ROOT / package).rglob("*.py")):
            dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found.append((dotted.removesuffix(".__init__"), path))
    return found


def _imports(path: Path, module: str) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the module's package
                base = module.split(".")[: -node.level] if not path.name == "__init__.py" else module.split(".")[: len(module.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((node.lineno, target))
    return out


def violations() -> list[str]:
    problems = []
    for module, path in _modules():
        room = room_of(module)
        if room is None:
            problems.append(f"{module}: belongs to no room of docs/architecture.md")
            continue
        allowed = ALLOWED[room]
        for line, target in _imports(path, module):
            top = target.split(".")[0]
            if room == "bench" and (top in PROJECT_PACKAGES or top in ("django", "rest_framework")):
                problems.append(f"{path.relative_to(ROOT)}:{line} bench imports {target}")
                continue
            if top not in PROJECT_PACKAGES or "*" in allowed:
                continue
            if top == "tests":
                problems.append(f"{path.relative_to(ROOT)}:{line} production code imports {target}")
                continue
            target_room = room_of(target)
            if target_room == room or target_room in allowed:
                continue
            problems.append(f"{path.relative_to(ROOT)}:{line} {room} may not import {target}")
    return problems


def test_every_import_follows_the_dependency_rules():
    assert violations() == []


def test_the_client_and_the_examples_import_no_project_code():
    """clients/python is a package of its own (installed apart, talks HTTP), and the examples use it alone:
    neither imports Django or a room of the project."""
    problems = []
    for folder in ("clients/python/memoryhub_client", "examples"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            for line, target in _imports(path, module):
                top = target.split(".")[0]
                if top in PROJECT_PACKAGES + ("django", "rest_framework"):
                    problems.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert problems == []


@pytest.mark.parametrize("room, target, allowed", [
    ("audit", "layers.long_term.models", False),
    ("permanent", "layers.short_term.models", False),
    ("memoryhub.core", "memoryhub.tenancy.models", False),
    ("memoryhub.providers", "layers.formation.llm", False),
    ("layers.context", "layers.long_term.selectors", True),
    ("layers.short_term", "layers.transient.models", False),
    ("layers.short_term", "layers.reminders.services", False),
    ("layers.reminders", "layers.short_term.selectors", True),
])
def test_the_rules_themselves(room, target, allowed):
    """The checker would catch the violations the first floor had (and allow what it should)."""
    target_room = room_of(target)
    assert (target_room == room or target_room in ALLOWED[room]) is allowed
