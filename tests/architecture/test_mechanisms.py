"""One of each shared mechanism (docs/architecture.md, "Shared mechanisms"), checked by walking the
production code (ast), so a second lock helper, Redis client, back-off or policy reader cannot slip in:

- advisory locks are taken only in memoryhub/core/locks.py;
- a Redis client is made only by memoryhub/core/redis.py (`redis_client()`); the one other is the embedded
  runner's start-up probe (memoryhub/embedded.py), which waits for the Redis it has just started, before
  settings exist;
- the back-off class is defined once (memoryhub/core/redis.py) and instantiated only in memoryhub/core
  (Redis, and the replica in memoryhub/core/db_router.py);
- policy overrides are read only by memoryhub/core/policy.py: nothing else builds a `policy.` key or reads
  the override source (permanent registers it in its AppConfig.ready); every policy dataclass is a room's
  `policy.py` and its SECTION is its own;
- audit event types are declared in the owning room's `events.py` (those of tenancy, which sits below
  audit and announces its changes by signal, in audit/receivers.py, which records them), and
  `audit_record` is never handed a bare string;
- a public service that takes an `actor` uses it (an append annotator takes the one the append gives
  every annotator: layers/short_term/services/turns.py);
- a public service that writes names its acting actor: an `actor` parameter, an `Actor` it makes (the
  proposing user's or key's), or its module's system actor (`ACTOR = Actor.system(...)`). The ones that do not are listed in WRITES_WITHOUT_ACTOR
  with the reason; a new one fails until it takes its actor or is listed with a reason a reviewer accepts.
"""
from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = ("memoryhub", "layers", "permanent", "audit")

# Breaches in rooms this check's author does not own, each with what would mend it. A listed breach that is
# mended fails `test_every_pending_breach_is_still_there`: take it off the list then (a file not in the
# tree yet, work under way, is skipped).
PENDING = {
}


WRITE_CALLS = {"save", "create", "bulk_create", "update", "delete", "bulk_update", "get_or_create",
               "update_or_create", "audit_record", "execute", "copy"}
WRITES_WITHOUT_ACTOR = {
    # infrastructure: the work a service enqueued (that service has its actor), not a change of the domain
    "memoryhub/outbox/services.py:task_enqueue_on_commit": "enqueues for the calling service",
    "memoryhub/outbox/services.py:outbox_flush": "publishes what services enqueued",
    # statistics, not a change of anyone's data (not audited by design)
    "memoryhub/tenancy/services.py:api_key_authenticate": "last_used_at, at most once a minute",
    "layers/long_term/graph/services.py:edges_access_record": "access counts of served edges",
    "layers/long_term/services/access.py:memory_access_flush": "access counts buffered in Redis",
    # steps of a caller's write, in its transaction and under its actor and audit event
    "layers/formation/services/runs.py:session_state_ensure": "the run's cursor row, before the run",
    "layers/formation/services/runs.py:session_writes_lock": "the run's lock",
    "layers/long_term/graph/services.py:memory_edges_sync": "the edges of the memories the caller wrote",
    "layers/long_term/services/bulk.py:copy_insert": "the rows of memory_import_batch",
    "layers/short_term/services/sessions.py:session_touch": "a task write's session activity",
    "layers/transient/services/task_states.py:resume_suspended": "a pop's parent task",
    # the proposer is the actor: exactly one of proposer_user, proposer_api_key, system_job
    "permanent/services/proposals.py:change_request_propose": "Actor made from the proposer (_origin)",
}


def writes_without_actor() -> list[str]:
    found = []
    for path, tree in _modules():
        rel = _rel(path)
        if not ("services" in Path(rel).with_suffix("").parts[1:] or path.stem == "services"):
            continue
        for function in tree.body:
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or function.name.startswith("_"):
                continue
            arguments = {a.arg for a in function.args.args + function.args.kwonlyargs}
            names = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)}
            calls = {_called(call).rsplit(".", 1)[-1] for call in _calls(function)}
            # a job's module names its system actor once (`ACTOR = Actor.system("long_term.large_owner_indexes")`)
            if calls & WRITE_CALLS and "actor" not in arguments and "Actor" not in names and not _module_actors(tree):
                found.append(f"{rel}:{function.name}")
    return found


def _module_actors(tree: ast.Module) -> set[str]:
    """Module constants that are actors (`DISPATCHER = Actor.system("reminders.dispatch")`)."""
    return {target.id for node in tree.body if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
            and _called(node.value).startswith("Actor.") for target in node.targets if isinstance(target, ast.Name)}


def test_every_writing_service_names_its_actor():
    assert sorted(set(writes_without_actor()) - set(WRITES_WITHOUT_ACTOR)) == []


def test_the_list_of_writes_without_actor_is_current():
    """A listed function that now takes its actor (or is gone) leaves the list."""
    listed = {name for name in WRITES_WITHOUT_ACTOR if (ROOT / name.split(":")[0]).exists()}
    assert sorted(listed - set(writes_without_actor())) == []


@cache
def _modules() -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(encoding="utf-8")))
            for package in PRODUCTION for path in sorted((ROOT / package).rglob("*.py"))]


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _docstring_nodes(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _strings(tree: ast.Module):
    """(line, text) of every string constant that is not a docstring; an f-string gives its first part."""
    skipped = _docstring_nodes(tree) | {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
                                        for part in node.values}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            yield node.lineno, node.value
        elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
            yield node.lineno, "\x00f" + str(node.values[0].value)


def _called(node: ast.Call) -> str:
    """The dotted name a call names: `redis.Redis.from_url`, `Backoff`, `audit_record`."""
    parts, func = [], node.func
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
    return ".".join(reversed(parts))


def _calls(tree: ast.Module):
    return (node for node in ast.walk(tree) if isinstance(node, ast.Call))


def breaches() -> list[str]:
    problems: list[str] = []
    sections: dict[str, str] = {}
    registered_annotators = _registered_annotators()
    for path, tree in _modules():
        problems.extend(module_breaches(_rel(path), tree, sections, registered_annotators))
    return problems


def module_breaches(rel: str, tree: ast.Module, sections: dict[str, str], registered_annotators: set[str]) -> list[str]:
    problems = []
    path = Path(rel)
    for line, text in _strings(tree):
        if ("pg_advisory" in text or "pg_try_advisory" in text) and rel != "memoryhub/core/locks.py":
            problems.append(f"{rel}:{line}: an advisory lock outside memoryhub/core/locks.py")
        if text in ("policy.", "\x00fpolicy.") and rel != "memoryhub/core/policy.py":
            problems.append(f"{rel}:{line}: builds a policy override key outside memoryhub/core/policy.py")
    for call in _calls(tree):
        name = _called(call)
        last = name.rsplit(".", 1)[-1]
        if (last in ("Redis", "StrictRedis", "ConnectionPool", "from_url") and "redis" in name.lower()
                and rel not in ("memoryhub/core/redis.py", "memoryhub/embedded.py")):
            problems.append(f"{rel}:{call.lineno}: makes a Redis client ({name}); use memoryhub.core.redis.redis_client()")
        if last == "Backoff" and not rel.startswith("memoryhub/core/"):
            problems.append(f"{rel}:{call.lineno}: a back-off of its own; use memoryhub.core.redis.backoff")
        if last == "permanent_global_values" and rel not in ("permanent/apps.py", "permanent/selectors.py"):
            problems.append(f"{rel}:{call.lineno}: reads policy overrides itself; use memoryhub.core.policy.policy_read")
        if last == "event_type" and path.name != "events.py" and rel != "audit/receivers.py":
            problems.append(f"{rel}:{call.lineno}: declares an audit event type outside an events.py")
        if last == "audit_record":
            given = {kw.arg: kw.value for kw in call.keywords}
            event = given.get("event")
            if isinstance(event, (ast.Constant, ast.JoinedStr)):
                problems.append(f"{rel}:{call.lineno}: audit_record with a bare string; pass the declared EventType")
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            if node.name.endswith("Backoff") and rel != "memoryhub/core/redis.py":
                problems.append(f"{rel}:{node.lineno}: a back-off class of its own ({node.name})")
            section = _section(node)
            if section is not None:
                if path.name != "policy.py":
                    problems.append(f"{rel}: policy dataclass outside a policy.py")
                if section in sections:
                    problems.append(f"{rel}:{node.lineno}: policy section {section!r} is also {sections[section]}'s")
                sections[section] = rel
    if "services" in path.with_suffix("").parts[1:] or path.stem == "services":
        for function in tree.body:
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or function.name.startswith("_"):
                continue
            arguments = {a.arg for a in function.args.args + function.args.kwonlyargs}
            used = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)}
            if "actor" in arguments and "actor" not in used and function.name not in registered_annotators:
                problems.append(f"{rel}:{function.lineno}: {function.name} takes an actor it never uses")
    return problems


def _section(node: ast.ClassDef) -> str | None:
    for statement in node.body:
        if (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
                and statement.target.id == "SECTION" and isinstance(statement.value, ast.Constant)):
            return statement.value.value
    return None


def _registered_annotators() -> set[str]:
    """Functions handed to append_annotator_register (an annotator's signature is the append's)."""
    names = set()
    for _path, tree in _modules():
        for call in _calls(tree):
            if _called(call).endswith("append_annotator_register") and len(call.args) == 2:
                if isinstance(call.args[1], ast.Name):
                    names.add(call.args[1].id)
    return names




def test_one_of_each_shared_mechanism():
    assert [p for p in breaches() if p not in PENDING] == []


def test_every_pending_breach_is_still_there():
    """PENDING lists what is known and not yet mended; a mended one leaves the list."""
    assert sorted({p for p in PENDING if (ROOT / p.split(":")[0]).exists()} - set(breaches())) == []


@pytest.mark.parametrize("rel, source, breach", [
    ("layers/x/services.py", "cursor.execute('SELECT pg_advisory_xact_lock(%s)', [1])", "advisory lock"),
    ("layers/x/cache.py", "client = redis.Redis.from_url(url)", "Redis client"),
    ("permanent/cache.py", "pool = redis.ConnectionPool.from_url(url)", "Redis client"),
    ("layers/x/health.py", "down = Backoff(seconds=5)", "back-off"),
    ("layers/x/policy.py", "key = f'policy.{section}.{name}'", "policy override key"),
    ("layers/x/selectors.py", "values = permanent_global_values(tenant_id=1, prefix='policy.x.')", "policy overrides"),
    ("layers/x/services.py", "X = event_type('x.done', object_type='x', label='x')", "outside an events.py"),
    ("layers/x/services.py", "audit_record(tenant_id=1, actor=a, event='x.done', object_id=1)", "bare string"),
    ("layers/x/services.py", "def x_update(*, x, actor):\n    x.save()", "never uses"),
    ("layers/x/selectors.py", "class Policy:\n    SECTION: ClassVar[str] = 'x'", "outside a policy.py"),
    ("layers/x/events.py", "X = event_type('x.done', object_type='x', label='x')", None),
    ("layers/x/services.py", "def x_update(*, x, actor):\n    audit_record(tenant_id=1, actor=actor, event=X, object_id=1)", None),
])
def test_the_checker_itself(rel, source, breach):
    found = module_breaches(rel, ast.parse(source), {}, set())
    if breach is None:
        assert found == []
    else:
        assert len(found) == 1 and breach in found[0], found
