"""Every comment and docstring that cites a document cites one in the repository (docs/architecture.md,
"Tests"): a newcomer on a clean clone can open what a comment points at.

Read with `tokenize` (comments) and `ast` (module, class and function docstrings) over the Python code of
every room, the tests, the client and the examples:
- a cited `*.md` exists: as a path from the repository's root (`docs/deploy.md`), from the citing file's
  folder (`corpora/REMINDERS.md`), or, named bare, as exactly one file of the repository (`FACTS.md`, the
  formation corpus's notes);
- a module, file or name it cites (`layers.short_term.signals`, `memoryhub/core/locks.py`,
  `layers/formation/services/runs.session_writes_lock`, or within its room `services.common.transition`) exists: the check of tests/support/citations.py;
- no comment cites the seed articles the project was specified from ("seed 002 §5.1", "the seeds'"):
  they are not in the repository, so what such a comment relied on belongs in the comment or in docs/.
A data set passed on a command line (`--data ../shared/bench/…`) is an argument, not a citation.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from functools import cache
from pathlib import Path

import pytest

from tests.support.citations import DOTTED, PATH, missing

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("memoryhub", "layers", "permanent", "audit", "bench", "tests", "clients", "examples")

DOCUMENT = re.compile(r"(?<![\w./-])((?:\.{0,2}/)?[\w./-]*\w\.md)\b")
SEED_ARTICLE = re.compile(r"\bseeds?\s+0\d\d\b|\bseeds/|\bthe\s+seeds\b|\bseed\s+articles?\b|§", re.IGNORECASE)


def _python_files() -> list[Path]:
    # this file holds examples of what it refuses
    return sorted(path for package in SCANNED for path in (ROOT / package).rglob("*.py")
                  if not {".venv", "node_modules", "build"} & set(path.parts) and path != Path(__file__).resolve())


def comments_and_docstrings(source: str) -> list[tuple[int, str]]:
    """(line, text) of every comment and every module, class or function docstring."""
    found = [(token.start[0], token.string) for token in tokenize.generate_tokens(io.StringIO(source).readline)
             if token.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            docstring = ast.get_docstring(node, clean=False)
            if docstring is not None:
                found.append((node.body[0].lineno, docstring))
    return found


@cache
def _markdown_by_name() -> dict[str, list[Path]]:
    names: dict[str, list[Path]] = {}
    for path in ROOT.rglob("*.md"):
        if not {".venv", ".git", "node_modules"} & set(path.relative_to(ROOT).parts):
            names.setdefault(path.name, []).append(path)
    return names


def _inside(path: Path) -> bool:
    return path.is_file() and path.resolve().is_relative_to(ROOT)


def document_exists(cited: str, citing: Path) -> bool:
    if _inside(ROOT / cited) or _inside(citing.parent / cited):
        return True
    return "/" not in cited and len(_markdown_by_name().get(cited, [])) == 1


def _is_code_reference(token: str) -> bool:
    """A dotted module name of a room, or a path to a file (prose such as 'permanent/system' is neither)."""
    if DOTTED.match(token):
        return True
    return bool(PATH.match(token)) and (token.endswith("/") or re.search(r"\.(py|md|ya?ml|json|txt|html|po)\b", token))


SHARED_NAMES = ("models", "services", "selectors", "apis", "serializers", "tasks", "schedule", "events",
                "signals", "admin", "receivers")


def room_relative_missing(token: str, citing: Path) -> bool:
    """`services.common.transition` in a room's file names that room's module: whether it is missing
    (the first floor's comments named `services.workflow._transition`, which never existed)."""
    parts = token.split(".")
    if len(parts) < 2 or parts[0] not in SHARED_NAMES or parts[-1] == "py":
        return False
    folder = citing.parent
    while folder != ROOT and not ((folder / parts[0]).is_dir() or (folder / f"{parts[0]}.py").is_file()):
        folder = folder.parent
    if folder == ROOT:
        return False
    return missing(".".join(folder.relative_to(ROOT).parts + tuple(parts)))


def dangling_citations() -> list[str]:
    problems = []
    for path in _python_files():
        for line, text in comments_and_docstrings(path.read_text(encoding="utf-8")):
            where = f"{path.relative_to(ROOT)}:{line}"
            for cited in DOCUMENT.findall(text):
                if not document_exists(cited, path):
                    problems.append(f"{where} cites {cited}, which is not in the repository")
            for token in re.findall(r"[\w./-]+\*?", text):
                token = token.rstrip(".,:;")
                if not token.endswith("*") and _is_code_reference(token) and missing(token):
                    problems.append(f"{where} cites {token}, which is not in the repository")
            for token in re.findall(r"(?<![\w./])[\w.]+", text):
                if room_relative_missing(token.rstrip("."), path):
                    problems.append(f"{where} cites {token.rstrip('.')}, which is not in its room")
            seed = SEED_ARTICLE.search(text)
            if seed:
                problems.append(f"{where} cites the seed articles ({seed.group(0)!r}), which are not in the repository")
    return problems


def test_every_cited_document_is_in_the_repository():
    assert dangling_citations() == []


@pytest.mark.parametrize("text, dangling", [
    ("# see DESIGN.md, section 4", True),
    ("# the shared ../shared/CONVENTIONS.md says so", True),
    ("# seed 000 §3.2: decay by kind", True),
    ("# follow the seeds' targeted templates", True),
    ("# docs/nowhere.md explains", True),
    ("# docs/deploy.md, 'PgBouncer'", False),
    ("# README.md's quickstart", False),
    ("# FACTS.md: a work city is kept where it differs from home", False),
    ("# rng = random.Random(seed)  # seed 14, drawn once", False),
    ("# the lock of services.workflow._transition", True),
    ("# the transition of services.common.transition", False),
    ("# run under layers.formation.services.workflow._transition", True),
    ("# see memoryhub/core/lock.py", True),
    ("# see memoryhub/core/locks.py, LOCK_ORDER", False),
    ("# permanent/system/policy keys are refused", False),
])
def test_the_citation_check_itself(text, dangling):
    """The checker refuses what is not in the repository and lets through what is."""
    [(_, comment)] = comments_and_docstrings(text + "\n")
    cited = [c for c in DOCUMENT.findall(comment) if not document_exists(c, ROOT / "memoryhub" / "x.py")]
    code = [t for t in re.findall(r"[\w./-]+", comment) if _is_code_reference(t.rstrip(".,:;")) and missing(t.rstrip(".,:;"))
            or room_relative_missing(t.rstrip(".,:;"), ROOT / "permanent" / "models.py")]
    assert bool(cited or code or SEED_ARTICLE.search(comment)) is dangling
