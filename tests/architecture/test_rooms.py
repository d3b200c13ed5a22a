"""Every room has the shape docs/architecture.md gives ("What every room looks like"), and the project
wires every room plainly ("No silent mounts"), checked by reading the tree and the code (ast):

- a room's modules take the shared names (`models`, `services`, `selectors`, `apis`, `serializers`,
  `urls`, `admin`, `policy`, `tasks`, `schedule`, `events`, `apps`, `migrations`, …), each a module or a
  package, never both; no junk drawers (`utils`, `helpers`, `common`, `misc`), no near-twins of the shared
  names (`model` beside `models`, `views` or `*_api` for `apis`);
- API views are defined in a room's `apis` only;
- every project app in INSTALLED_APPS has an `apps.py`, and `memoryhub.console` comes last;
- every room's `urls.py` is mounted in memoryhub/urls.py, every `schedule.py` is in memoryhub/celery.py's
  SCHEDULE_MODULES (and each listed module exists), and neither file swallows an ImportError;
- every Celery task lives in its room's `tasks.py` with an explicit `name=`.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

ROOMS = (
    "memoryhub/tenancy", "memoryhub/outbox", "memoryhub/console", "memoryhub/mcp", "audit", "permanent",
    "layers/transient", "layers/short_term", "layers/long_term", "layers/long_term/graph",
    "layers/long_term/conditions", "layers/formation", "layers/forgetting", "layers/context",
    "layers/erasure", "layers/reminders",
)
JUNK = {"utils", "helpers", "common", "misc", "stuff", "data"}
NEAR_TWINS = {"model": "models", "service": "services", "selector": "selectors", "serializer": "serializers",
              "api": "apis", "views": "apis", "view": "apis", "task": "tasks", "event": "events", "url": "urls",
              "schedules": "schedule", "policies": "policy"}
VIEW_BASES = {"APIView", "TenantAPIView", "GenericAPIView", "ViewSet", "ModelViewSet", "GenericViewSet"}

# Breaches in rooms this check's author does not own, each with what would mend it. A mended one fails
# `test_every_pending_breach_is_still_there`: take it off the list then (a file not in the tree yet is skipped).
PENDING = {
}


def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _names(room: Path) -> dict[str, set[str]]:
    """Module name -> {'module', 'package'} of one room's own entries (sub-rooms are rooms of their own)."""
    found: dict[str, set[str]] = {}
    for entry in room.iterdir():
        if entry.name.startswith((".", "__")):
            continue
        if entry.is_dir() and (entry / "__init__.py").exists() and str(entry.relative_to(ROOT)) not in ROOMS:
            found.setdefault(entry.name, set()).add("package")
        elif entry.suffix == ".py":
            found.setdefault(entry.stem, set()).add("module")
    return found


def shape_breaches() -> list[str]:
    problems = []
    for room in ROOMS:
        for name, kinds in sorted(_names(ROOT / room).items()):
            where = f"{room}/{name}.py" if "module" in kinds else f"{room}/{name}/"
            if kinds == {"module", "package"}:
                problems.append(f"{room}/{name}: both a module and a package")
            if name in JUNK:
                problems.append(f"{where}: a junk drawer")
            twin = NEAR_TWINS.get(name) or ("apis" if name.endswith("_api") or name.endswith("_apis") else None)
            if twin:
                problems.append(f"{where}: a near-twin of {twin}")
    for package in ("layers", "permanent", "audit", "memoryhub"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if "apis" in rel.with_suffix("").parts or rel.parts[:2] == ("memoryhub", "api"):
                continue
            for node in ast.walk(_parse(path)):
                if isinstance(node, ast.ClassDef) and any(
                        (base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")) in VIEW_BASES
                        for base in node.bases):
                    problems.append(f"{rel}:{node.lineno}: API view {node.name} outside the room's apis")
    return problems


def test_every_room_has_the_shared_shape():
    assert [p for p in shape_breaches() if p not in PENDING] == []


def test_every_pending_breach_is_still_there():
    assert sorted({p for p in PENDING if (ROOT / p.split(":")[0]).exists()} - set(shape_breaches())) == []


def _installed_apps() -> list[str]:
    for node in ast.walk(_parse(ROOT / "memoryhub" / "settings.py")):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "INSTALLED_APPS" for t in node.targets):
            return [e.value for e in node.value.elts if isinstance(e, ast.Constant)]
    raise AssertionError("INSTALLED_APPS not found")


def test_every_project_app_has_an_apps_module_and_the_console_comes_last():
    ours = [app for app in _installed_apps() if app.split(".")[0] in ("memoryhub", "layers", "permanent", "audit")]
    assert [app for app in ours if not (ROOT / Path(*app.split(".")) / "apps.py").exists()] == []
    assert ours[-1] == "memoryhub.console"
    # and the shape check above reads every one of them
    assert sorted({app.replace(".", "/") for app in ours} - set(ROOMS)) == []


def _string_args(tree: ast.Module, function: str) -> set[str]:
    return {arg.value for node in ast.walk(tree) if isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) == function
            for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)}


def _catches_import_errors(tree: ast.Module) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler):
            caught = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
            if node.type is None or any(getattr(c, "id", "") in ("ImportError", "ModuleNotFoundError", "Exception")
                                        for c in caught):
                lines.append(node.lineno)
    return lines


def test_every_rooms_urls_are_mounted_plainly():
    tree = _parse(ROOT / "memoryhub" / "urls.py")
    mounted = _string_args(tree, "include")
    rooms_urls = {".".join(p.relative_to(ROOT).with_suffix("").parts)
                  for package in ("layers", "permanent", "audit", "memoryhub")
                  for p in (ROOT / package).rglob("urls.py") if p != ROOT / "memoryhub" / "urls.py"}
    assert sorted(rooms_urls - mounted) == []
    assert _catches_import_errors(tree) == []


def test_every_schedule_is_collected_plainly():
    tree = _parse(ROOT / "memoryhub" / "celery.py")
    listed = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "SCHEDULE_MODULES" for t in node.targets):
            listed = {e.value for e in node.value.elts}
    schedules = {".".join(p.relative_to(ROOT).with_suffix("").parts)
                 for package in ("layers", "permanent", "audit", "memoryhub")
                 for p in (ROOT / package).rglob("schedule.py")}
    assert listed and sorted(schedules ^ listed) == []
    assert _catches_import_errors(tree) == []


def test_every_task_lives_in_tasks_with_an_explicit_name():
    problems = []
    for package in ("layers", "permanent", "audit", "memoryhub"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(_parse(path)):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for decorator in node.decorator_list:
                    call = decorator if isinstance(decorator, ast.Call) else None
                    func = call.func if call else decorator
                    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                    if name not in ("shared_task", "task"):
                        continue
                    rel = path.relative_to(ROOT)
                    if path.name != "tasks.py":
                        problems.append(f"{rel}:{node.lineno}: task {node.name} outside tasks.py")
                    if call is None or "name" not in {kw.arg for kw in call.keywords}:
                        problems.append(f"{rel}:{node.lineno}: task {node.name} without an explicit name=")
    assert problems == []
