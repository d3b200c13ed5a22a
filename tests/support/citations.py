"""Whether a path or a dotted name cited in a document or a comment is in the repository (the checks of
tests/architecture/test_docs.py and test_comments.py)."""
from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
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
