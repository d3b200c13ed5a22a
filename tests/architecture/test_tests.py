"""The rules of tests/ (docs/architecture.md, "Tests"), checked by walking the test files (ast):

- no test file imports another test module or a conftest: helpers shared between modules live in
  tests/support/, fixtures in the level's conftest.py (pytest finds them without an import);
- tests mirror the tree: every folder of tests/ that holds test modules is the twin of a folder of the
  repository (tests/layers/formation/ tests layers/formation/), except the suite's own rooms
  (tests/architecture/, the rules of docs/architecture.md; tests/scaleout/, a deployment of several
  processes; tests/support/, the shared helpers);
- every test that starts a Celery worker carries the `worker` marker, so `-m "not worker"` is the fast
  lane. tests/support/processes.py also refuses, at run time, to start a worker for an unmarked test;
  this check catches the tests that start one some other way (a `celery … worker` command of their own)
  and fails without running anything.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"

# Functions that start a worker process (tests/support/processes.py).
WORKER_STARTERS = {"start_worker", "start_celery_worker"}
# The session's worker fixture: tests/conftest.py's pytest_collection_modifyitems marks every test that
# uses it (directly or through another fixture), so a test asking for it needs no marker of its own.
MARKED_BY_HOOK = {"celery_worker"}


def _test_files() -> list[Path]:
    return sorted(path for path in TESTS.rglob("*.py") if ".venv" not in path.parts)


def _dotted(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _is_test_module(dotted: str) -> bool:
    last = dotted.rsplit(".", 1)[-1]
    return last == "conftest" or (last.startswith("test_") and (ROOT / Path(*dotted.split("."))).with_suffix(".py").exists())


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, relative imports resolved, `from package import module` included."""
    module = _dotted(path)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            out.append((node.lineno, target))
            out.extend((node.lineno, f"{target}.{alias.name}") for alias in node.names)
    return out


def imports_of_test_modules() -> list[str]:
    problems = []
    for path in _test_files():
        for line, target in _imported_modules(path):
            if target.startswith("tests.") and _is_test_module(target):
                problems.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    return problems


def test_no_test_file_imports_another_test_module_or_a_conftest():
    assert imports_of_test_modules() == []


# Folders of tests/ with no twin in the tree, and why (docs/architecture.md, "Tests").
OWN_ROOMS = {"architecture", "scaleout", "support"}


def test_every_folder_of_tests_mirrors_one_of_the_tree():
    unmirrored = []
    for folder in sorted({path.parent for path in TESTS.rglob("test_*.py")}):
        relative = folder.relative_to(TESTS)
        if relative.parts and relative.parts[0] in OWN_ROOMS:
            continue
        if not (ROOT / relative).is_dir():
            unmirrored.append(str(folder.relative_to(ROOT)))
    assert unmirrored == []


# --- the worker marker ---------------------------------------------------------------------------

def _is_worker_mark(node: ast.AST) -> bool:
    """`pytest.mark.worker` (called or not), or a list/tuple holding it."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return any(_is_worker_mark(element) for element in node.elts)
    if isinstance(node, ast.Call):
        node = node.func
    return (isinstance(node, ast.Attribute) and node.attr == "worker"
            and isinstance(node.value, ast.Attribute) and node.value.attr == "mark")


def _pytestmark(body: list[ast.stmt]) -> bool:
    return any(isinstance(statement, ast.Assign) and _is_worker_mark(statement.value)
               and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in statement.targets)
               for statement in body)


def _starts_a_worker_itself(function: ast.AST) -> bool:
    """It calls a worker starter, or builds a `celery … worker` command line."""
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name in WORKER_STARTERS:
                return True
        # a starter passed along (pool.submit(start_celery_worker, …)) starts one too
        if isinstance(node, ast.Name) and node.id in WORKER_STARTERS:
            return True
        if isinstance(node, (ast.List, ast.Tuple)):
            words = {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
            if {"celery", "worker"} <= words:
                return True
    return False


def _uses(function: ast.FunctionDef | ast.AsyncFunctionDef, names: set[str]) -> bool:
    """It calls one of `names` or asks for one as a fixture."""
    arguments = {a.arg for a in function.args.args + function.args.kwonlyargs}
    if arguments & names:
        return True
    return any(isinstance(node, ast.Name) and node.id in names for node in ast.walk(function))


def _functions(tree: ast.Module):
    """(function, enclosing class or None) for every function of the module, methods included."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node, None
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield item, node


def _conftest_starters() -> dict[Path, set[str]]:
    """Fixture names, per conftest folder, whose fixture starts a worker."""
    found: dict[Path, set[str]] = {}
    for path in TESTS.rglob("conftest.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found[path.parent] = {f.name for f, _ in _functions(tree) if _starts_a_worker_itself(f)} - MARKED_BY_HOOK
    return found


def unmarked_worker_tests() -> list[str]:
    conftests = _conftest_starters()
    problems = []
    for path in _test_files():
        if not path.name.startswith("test_"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inherited = set().union(*(names for folder, names in conftests.items() if folder in path.parents))
        functions = list(_functions(tree))
        starters = set(inherited) | {f.name for f, _ in functions if _starts_a_worker_itself(f)}
        # helpers and fixtures of the module that call a starter start one too (to a fixed point)
        while True:
            more = {f.name for f, _ in functions if f.name not in starters and _uses(f, starters)}
            if not more:
                break
            starters |= more
        if _pytestmark(tree.body):
            continue
        for function, cls in functions:
            if not function.name.startswith("test_"):
                continue
            if not (_starts_a_worker_itself(function) or _uses(function, starters)):
                continue
            marked = any(_is_worker_mark(d) for d in function.decorator_list) or (
                cls is not None and (_pytestmark(cls.body) or any(_is_worker_mark(d) for d in cls.decorator_list)))
            if not marked:
                problems.append(f"{path.relative_to(ROOT)}:{function.lineno} {function.name} starts a Celery "
                                f"worker without @pytest.mark.worker")
    return problems


def test_every_test_that_starts_a_worker_is_marked_worker():
    assert unmarked_worker_tests() == []


@pytest.mark.parametrize("source, starts", [
    ("def test_x(tmp_path):\n    start_worker('q', name='n')\n", True),
    ("def test_x():\n    subprocess.Popen([sys.executable, '-m', 'celery', '-A', 'memoryhub', 'worker'])\n", True),
    ("def test_x():\n    pool.submit(start_celery_worker, env, 'q', 'n', log)\n", True),
    ("def test_x(api):\n    api.get('/api/v1/health')\n", False),
])
def test_the_worker_check_itself(source, starts):
    """The checker sees a worker started through the helpers or by a command line of the test's own."""
    [function] = ast.parse(source).body
    assert _starts_a_worker_itself(function) is starts


def test_the_marker_reader_itself():
    tree = ast.parse("import pytest\npytestmark = [pytest.mark.django_db, pytest.mark.worker]\n"
                     "@pytest.mark.worker\ndef test_a(): pass\n@pytest.mark.django_db(transaction=True)\ndef test_b(): pass\n")
    assert _pytestmark(tree.body)
    a, b = tree.body[2:]
    assert any(_is_worker_mark(d) for d in a.decorator_list) and not any(_is_worker_mark(d) for d in b.decorator_list)
