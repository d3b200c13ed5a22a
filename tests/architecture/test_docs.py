"""A newcomer finds each thing where the documentation says: every path and every dotted name that
docs/architecture.md, README.md, docs/deploy.md and the client's README cite (in backticks) exists.

- a path (`layers/long_term/selectors/search.py`, `tests/support/`) is a file or folder of the repository;
  `path.name` (`layers/context/selectors.context_assemble`) names something defined in that module;
- a dotted name of a room (`memoryhub.core.policy.policy_read`, `memoryhub.tenancy.signals.tenancy_changed`)
  is a module, or a module and a name it defines or imports (a class's method counts as the class's name).
"""
from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ("docs/architecture.md", "README.md", "docs/deploy.md", "clients/python/README.md")
TOP = ("memoryhub", "layers", "permanent", "audit", "bench", "tests", "docs", "clients", "examples",
       "templates", "locale", ".ci")
PATH = re.compile(r"^(?:%s)/" % "|".join(re.escape(top) for top in TOP))
DOTTED = re.compile(r"^(?:memoryhub|layers|permanent|audit)\.\w")


@cache
def _defined(path: Path) -> frozenset[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(alias.asname or alias.name for alias in node.names)
    return frozenset(names)


def _module_file(dotted: str) -> Path | None:
    base = ROOT / Path(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def missing(token: str) -> bool:
    """Whether a cited path or dotted name is not in the repository."""
    token = token.rstrip(".,:;")
    if PATH.match(token):
        if (ROOT / token).exists():
            return False
        head, _, name = token.rpartition(".")
        if head and (ROOT / f"{head}.py").is_file():
            return name not in _defined(ROOT / f"{head}.py") and name != "py"
        if head and (ROOT / head).is_dir() and (ROOT / head / "__init__.py").is_file():
            return name not in _defined(ROOT / head / "__init__.py")
        return True
    if DOTTED.match(token):
        parts = token.split(".")
        for length in range(len(parts), 0, -1):
            module = _module_file(".".join(parts[:length]))
            if module is not None:
                return length < len(parts) and parts[length] not in _defined(module)
        return True
    return False


def cited(text: str) -> list[str]:
    return [token for span in re.findall(r"`([^`\n]+)`", text) for token in re.findall(r"[\w./-]+", span)
            if PATH.match(token) or DOTTED.match(token)]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_everything_the_document_cites_exists(document):
    text = (ROOT / document).read_text(encoding="utf-8")
    assert sorted({token for token in cited(text) if missing(token)}) == []


@pytest.mark.parametrize("token, absent", [
    ("layers/nowhere.py", True),
    ("memoryhub.core.policy.nope", True),
    ("layers/long_term/selectors/search.nope", True),
    ("memoryhub.core.policy.policy_read", False),
    ("layers/long_term/selectors/search.memory_search", False),
    ("tests/support/", False),
])
def test_the_check_itself(token, absent):
    assert missing(token) is absent
