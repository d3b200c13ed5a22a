"""Context assembly: the prompt blocks an agent sends to its model, within a token budget.

The profile draws on the hot set first: the user's hottest current graph edges whose entity the query or the
session names (layers/long_term/graph/selectors.graph_hot_edges_about) bring the memory they came from, with
reason `hot_edge` (a match already there is annotated with its `hot_edges` instead).

Blocks come in a fixed order (docs/architecture.md, "Context assembly"): system_rules (permanent), user_profile (top long-term
memories), session (latest summary + window), task_state (transient stack), user_input. The first and
the last are never dropped; when the whole is over budget, parts go in this order until it fits:
the oldest session turns, then the summary, then the lowest-scored profile memories, then tasks
(the least current first). If the two fixed blocks alone exceed the budget the answer is 422
`budget_too_small`.
"""
from __future__ import annotations

import fnmatch
import functools
import json
from dataclasses import dataclass, field

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from layers.context.conflicts import profile_conditions_apply, request_facts
from layers.context.policy import context_policy
from layers.long_term.conditions.selectors import PREFERENCE_PREFIX
from layers.long_term.graph.models import Edge
from layers.long_term.graph.selectors import graph_hot_edges_about
from layers.long_term.models import Memory, MemoryKind, MemoryStatus
from layers.long_term.policy import tenant_policy
from layers.long_term.selectors import habits_due, memory_core_profile, memory_search
from layers.long_term.selectors.scenes import query_read
from layers.short_term.selectors import session_get, session_window
from layers.transient.selectors import session_entities, task_stack, turn_resolutions
from memoryhub.api.metrics import LAYER_CONTEXT, counted_retrieval
from memoryhub.core.errors import Conflict, Unprocessable
from memoryhub.providers.tokens import count_tokens
from memoryhub.safety.injection import injection_reasons
from permanent.selectors import permanent_system_rules

BLOCK_ORDER = ("system_rules", "user_profile", "session", "task_state", "user_input")
# None: as many as the profile floor and the budget allow (layers/context/policy.py)
DEFAULT_PROFILE_TOP_K = None
CORE_KINDS = (MemoryKind.PREFERENCE, MemoryKind.FACT)
# core facts read beyond the limit, so the ones another scene claims can be passed over (_fits_scene)
CORE_GATED_SLACK = 10


# Texts up to this long have their token counts kept (a context counted the same lines ~30 times: each part, each
# block, the total after each drop, the response; system rules and a session's turns recur across requests);
# the count is a pure function of the text under the process's one tokenizer (memoryhub/providers/tokens.py).
TOKEN_COUNT_CACHED_CHARS = 4000


@functools.lru_cache(maxsize=8192)
def _kept_count(text: str) -> int:
    return count_tokens(text)


def _tokens(text: str) -> int:
    return _kept_count(text) if len(text) <= TOKEN_COUNT_CACHED_CHARS else count_tokens(text)


@dataclass
class Part:
    """One line of a block, with where it came from."""
    source_id: str
    text: str
    score: float | None = None
    detail: dict = field(default_factory=dict)

    @property
    def token_count(self) -> int:
        return _tokens(self.text)


@dataclass
class Block:
    name: str
    parts: list[Part] = field(default_factory=list)

    @property
    def content(self) -> str:
        return "\n".join(part.text for part in self.parts)

    @property
    def token_count(self) -> int:
        return _tokens(self.content) if self.parts else 0

    def as_dict(self) -> dict:
        return {"name": self.name, "content": self.content, "token_count": self.token_count,
                "source_ids": [part.source_id for part in self.parts],
                "items": [{"source_id": part.source_id, "text": part.text, "token_count": part.token_count,
                           **({"score": part.score} if part.score is not None else {}), **part.detail}
                          for part in self.parts]}


@dataclass
class AssembledContext:
    blocks: list[Block]
    token_budget: int
    dropped: list[dict]
    # requests that contradict a stored preference (layers/context/conflicts.py)
    conflicts: list[dict] = field(default_factory=list)

    @property
    def token_count(self) -> int:
        return sum(block.token_count for block in self.blocks)

    @property
    def edge_ids(self) -> list[int]:
        """The graph edges the served profile drew on (hot and cold: their access counts)."""
        return [edge["edge_id"] for block in self.blocks if block.name == "user_profile" for part in block.parts
                for edge in part.detail.get("hot_edges", ())]

    @property
    def memory_ids(self) -> list[int]:
        """The long-term memories the context ended up using (for access statistics)."""
        return [part.detail["memory_id"] for block in self.blocks if block.name == "user_profile"
                for part in block.parts]


def _rule_lines(value, prefix: str = "") -> list[str]:
    """A rule's value as plain lines an agent reads: a string as is, a list one item a line, an object
    one `name: value` a line (nested values indented under their name), never a JSON dump."""
    if isinstance(value, str):
        return [prefix + line if line.strip() else line for line in value.splitlines() or [""]]
    if isinstance(value, list):
        return [line for item in value for line in _rule_lines(item, prefix + "- ")] or [prefix + "-"]
    if isinstance(value, dict):
        lines = []
        for name, item in value.items():
            if isinstance(item, (dict, list)):
                lines.append(f"{prefix}{name}:")
                lines += _rule_lines(item, " " * len(prefix) + "  ")
            else:
                lines += _rule_lines(item if isinstance(item, str) else json.dumps(item, ensure_ascii=False),
                                     f"{prefix}{name}: ")
        return lines
    return [prefix + json.dumps(value, ensure_ascii=False)]


def _rule_text(rule: dict) -> str:
    """One rule: `key: value` when the value is one line, else the key and its lines below it."""
    lines = _rule_lines(rule["value"])
    if len(lines) == 1 and isinstance(rule["value"], str):
        return f"{rule['key']}: {lines[0]}"
    return "\n".join([f"{rule['key']}:", *("  " + line for line in lines)])


def _system_rules(tenant) -> Block:
    return Block("system_rules", [
        Part(f"permanent:{rule['key']}@v{rule['version']}", _rule_text(rule), detail={"key": rule["key"],
                                                                                     "version": rule["version"]})
        for rule in permanent_system_rules(tenant_id=tenant.pk)])


def _why(scored, core_min: float) -> dict:
    """Why a match is in the profile: its score, whether it is a core fact, and whether the query's scene
    (or the topic it asks about) called for it rather than its words."""
    explain = scored.explain
    memory = scored.memory
    reason = "match"
    if explain.get("key_relevance", 0) > explain.get("text_relevance", 0):
        reason = "scene" if explain.get("scene_name") else "topic"
    return {"memory_id": memory.pk, "kind": memory.kind, "reason": reason, "scene": explain.get("scene_name"),
            **({"memory_key": memory.memory_key} if memory.memory_key else {}),
            **({"core": True} if memory.importance >= core_min and memory.kind in CORE_KINDS else {})}


def _memory_part(memory, **why) -> Part:
    """A profile line for a memory served for what it is rather than for a match (a core fact, a hot edge's
    memory): ranked by how much it matters, its key and `why` in the detail."""
    return Part(f"memory:{memory.pk}", f"- ({memory.kind}) {memory.content}",
                score=round(memory.importance * memory.confidence * memory.feedback_weight, 6),
                detail={"memory_id": memory.pk, "kind": memory.kind, **why,
                        **({"memory_key": memory.memory_key} if memory.memory_key else {})})


def _scenes_claiming(memory, policy) -> set[str]:
    """The scenes whose needs a memory answers: its key matches one of the scene's key patterns, or, for a
    memory without a key, its text carries one of the scene's content cues (layers/long_term/policy.py)."""
    if memory.memory_key:
        return {scene for scene, weights in policy.scene_keys.items()
                if any(fnmatch.fnmatchcase(memory.memory_key, pattern) for pattern, weight in weights.items() if weight > 0)}
    text = memory.content.lower()
    return {scene for scene, cues in policy.scene_content_cues.items()
            if policy.scene_content_weights.get(scene, 0) > 0 and any(cue.lower() in text for cue in cues)}


def _fits_scene(memory, scene: str | None, policy) -> bool:
    """What the profile serves for what it is rather than for its score is scene-gated (docs/architecture.md):
    a core fact, or a match under the floor. One that some scene claims (an allergy or a diet is dining's and
    medical's) joins a context of that scene or of no scene, not a weather question's; one no scene claims (a
    blood type, a name) joins every context."""
    if scene is None:
        return True
    claiming = _scenes_claiming(memory, policy)
    return not claiming or scene in claiming


def _own_words_match(scored) -> bool:
    """The query's terms meet the memory's own words: BM25 found them, and not only in the question a span
    kept (layers/long_term/selectors/rerank.kept_question_only)."""
    explain = scored.explain
    return ((explain.get("keyword") or {}).get("bm25") or 0) > 0 and not (explain.get("rerank") or {}).get(
        "kept_question_only")


def _matches_served(results, own, policy, scene) -> list[tuple]:
    """(match, under the floor?) for the matches the profile serves: those at the floor, and of the first
    `profile_fill_matches` by rank those down to `profile_fill_min_score` that the user's own words match and no
    other scene claims (layers/context/policy.py). `scene()` reads the query's scene, asked only when such a
    match is there."""
    served = []
    for rank, scored in enumerate(results):
        if scored.score >= own.profile_min_score:
            served.append((scored, False))
        elif (rank < own.profile_fill_matches and scored.score >= own.profile_fill_min_score
              and _own_words_match(scored) and _fits_scene(scored.memory, scene(), policy)):
            served.append((scored, True))
    return served


class SceneOf:
    """The scene of the request's query for a task type, read at most once per task type in a request: the
    search reads it first (each result's explain names it), the core-fact gate and the request facts of
    conditional preferences take it from there (a reading costs cue matching and, without a cue, the
    nearest scene prototype)."""

    def __init__(self, query: str, policy, task_type: str | None):
        self.query, self.policy, self.task_type = query, policy, task_type or None
        self._scenes: dict[str | None, str | None] = {}

    def searched(self, results) -> None:
        """The search read the query for the request's own task type; its results say what it found."""
        if results:
            self._scenes.setdefault(self.task_type, results[0].explain.get("scene_name"))

    def __call__(self, task_type: str | None = None) -> str | None:
        task_type = task_type or None
        if task_type not in self._scenes:
            self._scenes[task_type] = query_read(self.query, self.policy, task_type).scene
        return self._scenes[task_type]


def _user_profile(tenant, user_id, query, task_type, top_k, policy, sources, scene_of: SceneOf) -> tuple[Block, list]:
    """The query's best matches above the profile floor, then the user's core facts the query did not reach
    (layers/context/policy.py). `policy` is the tenant's, read once: the search and the core profile use it."""
    if top_k == 0:
        return Block("user_profile"), []
    own = context_policy(tenant.pk)
    limit = min(top_k, own.profile_candidates) if top_k is not None else own.profile_candidates
    floor = min(own.profile_min_score, own.profile_fill_min_score) if own.profile_fill_matches else own.profile_min_score
    results = memory_search(tenant=tenant, user_id=user_id, query=query, top_k=limit, task_type=task_type,
                            policy=policy, min_score=floor, explain=True)
    scene_of.searched(results)
    served = _matches_served(results, own, policy, lambda: scene_of(task_type))
    results = [scored for scored, _under in served]
    parts = [Part(f"memory:{scored.memory.pk}", f"- ({scored.memory.kind}) {scored.memory.content}",
                  score=round(scored.score, 6), detail={**_why(scored, policy.core_profile_min_importance),
                                                        **({"below_floor": True} if under else {})})
             for scored, under in served]
    core_limit = policy.core_profile_limit if top_k is None else min(policy.core_profile_limit, top_k)
    core = memory_core_profile(tenant=tenant, user_id=user_id, min_importance=policy.core_profile_min_importance,
                               limit=core_limit + CORE_GATED_SLACK if core_limit else 0,
                               exclude_ids=[scored.memory.pk for scored in results]) if sources.core else []
    if core:
        scene = scene_of(task_type)
        core = [memory for memory in core if _fits_scene(memory, scene, policy)][:core_limit]
    # A core fact ranks by how much it matters; it is dropped only after every match (see _next_to_drop).
    parts += [_memory_part(memory, core=True, reason="core") for memory in core]
    return Block("user_profile", parts), results


@dataclass(frozen=True)
class ProfileSources:
    """Which of the profile's sources besides the search the user has anything in: core facts (importance at the
    policy's core floor), current graph edges (the hot set), preferences with variants (layers/long_term/conditions),
    active habits. Most users have none of some (every user of the scale bench has none of the four), and each
    source's read costs an ORM query and a round trip."""
    core: bool = True
    edges: bool = True
    variants: bool = True
    habits: bool = True


@functools.cache
def _sources_sql() -> str:
    # Each EXISTS is as wide as its reader's filter or wider, so a source it says is empty is empty (the readers:
    # memory_core_profile, graph_hot_edges, preference_variants, habits_active); each reads the owner indexes only.
    memory, edge = Memory._meta.db_table, Edge._meta.db_table
    return (f"SELECT EXISTS (SELECT 1 FROM {memory} m WHERE m.tenant_id = %(tenant)s AND m.user_id = %(user)s"
            f" AND m.status = %(active)s AND m.kind = ANY(%(core_kinds)s) AND m.importance >= %(core_min)s),"
            f" EXISTS (SELECT 1 FROM {edge} e JOIN {memory} m ON m.id = e.memory_id"
            f" WHERE e.tenant_id = %(tenant)s AND e.user_id = %(user)s AND e.valid_to IS NULL"
            f" AND m.status = %(active)s),"
            f" EXISTS (SELECT 1 FROM {memory} m WHERE m.tenant_id = %(tenant)s AND m.user_id = %(user)s"
            f" AND m.status = %(active)s AND m.memory_key <> ''"
            f" AND (left(m.memory_key, %(prefix_length)s) = %(prefix)s OR m.attributes ? 'condition')),"
            f" EXISTS (SELECT 1 FROM {memory} m WHERE m.tenant_id = %(tenant)s AND m.user_id = %(user)s"
            f" AND m.status = %(active)s AND m.kind = %(habit)s)")


def profile_sources(*, tenant_id: int, user_id: str, core_min_importance: float) -> ProfileSources:
    """One statement for the four presence checks; a source found empty is not read at all."""
    with connection.cursor() as cursor:
        cursor.execute(_sources_sql(), {"tenant": tenant_id, "user": user_id, "active": MemoryStatus.ACTIVE,
                                      "core_kinds": [str(kind) for kind in CORE_KINDS], "core_min": core_min_importance,
                                      "prefix": PREFERENCE_PREFIX, "prefix_length": len(PREFERENCE_PREFIX),
                                      "habit": MemoryKind.HABIT})
        core, edges, variants, habits = cursor.fetchone()
    return ProfileSources(core=core, edges=edges, variants=variants, habits=habits)


# The session's most recent entities whose names may call for an edge (working memory, layers/transient).
SESSION_ENTITIES_FOR_EDGES = 20


def _hot_edges(tenant, user_id, query, session, parts: list[Part]) -> list[Part]:
    """Profile lines for the hot edges of the entities the query or the session names: the memory each came from,
    reason `hot_edge`; a memory already in `parts` gets its edges as `hot_edges` and no second line."""
    texts = [query]
    if session is not None:
        for entity in session_entities(session=session)[:SESSION_ENTITIES_FOR_EDGES]:
            texts += [entity.name, *entity.aliases]
    hot = graph_hot_edges_about(tenant_id=tenant.pk, user_id=user_id, texts=texts,
                                limit=context_policy(tenant.pk).hot_edges_limit)
    by_memory: dict[int, tuple] = {}
    for found in hot:
        edge = found.neighbour.edge
        by_memory.setdefault(edge.memory_id, (edge.memory, []))[1].append({
            "edge_id": edge.pk, "subject": edge.subject, "predicate": edge.predicate, "object": edge.object,
            "rank": round(found.neighbour.rank, 6), "named": found.named})
    present = {part.detail.get("memory_id"): part for part in parts}
    new = []
    for memory_id, (memory, edges) in by_memory.items():
        if memory_id in present:
            present[memory_id].detail["hot_edges"] = edges
            continue
        new.append(_memory_part(memory, reason="hot_edge", hot_edges=edges))
    return new


def _habits_now(tenant, user_id, at, exclude_ids) -> list[Part]:
    """The user's habits whose time window holds `at` (layers/long_term/selectors/habits.py), as profile lines
    saying why: the pattern and window they keep to. A habit the query already matched keeps its match."""
    at = at or timezone.now()
    parts = []
    for memory in habits_due(tenant=tenant, user_id=user_id, at=at,
                             min_confidence=context_policy(tenant.pk).habit_min_confidence):
        if memory.pk in exclude_ids:
            continue
        attributes = memory.attributes
        parts.append(Part(f"memory:{memory.pk}", f"- ({memory.kind}) {memory.content}",
                          score=round(memory.confidence * memory.feedback_weight, 6),
                          detail={"memory_id": memory.pk, "kind": memory.kind, "reason": "habit_time",
                                  "memory_key": memory.memory_key, "pattern": attributes.get("pattern"),
                                  "window": attributes.get("window"), "time_zone": attributes.get("time_zone"),
                                  "support": attributes.get("support")}))
    return parts


def _session(session) -> Block:
    # The window is bounded by turns only: fitting the budget happens below, turn by turn, so every
    # turn left out is reported in `dropped`.
    window = session_window(session=session)
    # What pronouns in the user's turns were taken to mean (layers/transient working memory).
    resolutions = turn_resolutions(session=session, seqs=[item.turn.seq for item in window.turns])
    parts = []
    if window.summary is not None and window.summary_content:
        parts.append(Part(f"summary:{window.summary.version}", f"[summary] {window.summary_content}",
                          detail={"summary_version": window.summary.version,
                                  "covers_up_to": window.summary.covers_up_to,
                                  "truncated": window.summary_truncated}))
    for item in window.turns:
        detail = {"seq": item.turn.seq, "role": item.turn.role, "truncated": item.truncated}
        text = f"{item.turn.role}: {item.content}"
        # Turns are data, not instructions: a tool's output that tries to steer the assistant (a planted
        # recommendation, an injected instruction) is served marked, with the detector's reasons.
        reasons = injection_reasons(item.content) if item.turn.role == "tool" else []
        if reasons:
            detail["flagged"] = reasons
            text = f"{item.turn.role} [{_('unverified tool output')}: {', '.join(reasons)}]: {item.content}"
        if resolutions.get(item.turn.seq):
            found = resolutions[item.turn.seq]
            detail["resolutions"] = [{"mention": r.mention, "entities": [e["name"] for e in r.entities],
                                      "confidence": r.confidence} for r in found]
            text += " [" + "; ".join(f"{r.mention} = {'、'.join(e['name'] for e in r.entities)}" for r in found) + "]"
        parts.append(Part(f"turn:{item.turn.seq}", text, detail=detail))
    return Block("session", parts)


def _task_state(session) -> Block:
    parts = []
    for task in task_stack(session=session):
        slots = json.dumps(task.slots, ensure_ascii=False, sort_keys=True)
        missing = task.missing_slots
        text = f"task {task.task_type.name} ({task.status}) slots={slots}"
        if missing:
            text += f" missing={','.join(missing)}"
        parts.append(Part(f"task:{task.pk}", text, detail={"task_id": task.pk, "task_type": task.task_type.name,
                                                            "status": task.status, "missing_slots": missing}))
    return Block("task_state", parts)


def _next_to_drop(blocks: dict[str, Block]) -> tuple[str, int] | None:
    """(block, index of the part) that goes next, or None when nothing droppable is left."""
    session = blocks["session"].parts
    turns = [i for i, part in enumerate(session) if part.source_id.startswith("turn:")]
    if turns:
        return "session", turns[0]  # the oldest turn
    if session:
        return "session", 0  # the summary
    profile = blocks["user_profile"].parts
    if profile:
        # matches, then hot edges, then core facts, each group lowest score first: a flood cannot push out a core
        # fact, and what the query's entities are known for outlasts a looser match
        lowest = min(range(len(profile)), key=lambda i: (bool(profile[i].detail.get("core")),
                                                         profile[i].detail.get("reason") == "hot_edge",
                                                         profile[i].score, -i))
        return "user_profile", lowest
    if blocks["task_state"].parts:
        return "task_state", len(blocks["task_state"].parts) - 1  # the least current task
    return None


# Layer health: a hit is a context still serving a profile match (above the profile floor) after the budget
# fit; core facts are served whatever the query, so they do not count (memoryhub/api/metrics.py).
@counted_retrieval(LAYER_CONTEXT, served=lambda context: any(
    part.detail.get("reason") != "core" for block in context.blocks if block.name == "user_profile"
    for part in block.parts))
def context_assemble(*, tenant, user_id: str, query: str, token_budget: int, session_id: str | None = None,
                     task_type: str | None = None, profile_top_k: int | None = DEFAULT_PROFILE_TOP_K,
                     now=None, slots: dict | None = None, scene: str | None = None) -> AssembledContext:
    """Assemble the five blocks for `user_id` and fit them into `token_budget` tokens; `now` is the moment the
    context is for (the request's time when absent), which decides the habits that are due."""
    system_rules = _system_rules(tenant)
    user_input = Block("user_input", [Part("user_input", query)])
    fixed = system_rules.token_count + user_input.token_count
    if fixed > token_budget:
        raise Unprocessable(
            _("the system rules and the user input alone take %(fixed)d tokens, more than the budget of %(budget)d")
            % {"fixed": fixed, "budget": token_budget},
            code="budget_too_small", details={"required_tokens": fixed, "token_budget": token_budget})

    session = None
    if session_id:
        session = session_get(tenant=tenant, session_id=session_id)
        if session.user_id != user_id:
            raise Conflict(_("this session belongs to another user"), code="session_user_mismatch")
    policy = tenant_policy(tenant.pk)
    sources = profile_sources(tenant_id=tenant.pk, user_id=user_id,
                              core_min_importance=policy.core_profile_min_importance
                              ) if profile_top_k != 0 else ProfileSources()
    scene_of = SceneOf(query, policy, task_type)
    profile, _results = _user_profile(tenant, user_id, query, task_type, profile_top_k, policy, sources, scene_of)
    if profile_top_k != 0:
        # The hot set first (the module's docstring), then the matches and core facts, then the habits due.
        if sources.edges:
            profile.parts = _hot_edges(tenant, user_id, query, session, profile.parts) + profile.parts
        if sources.habits:
            profile.parts += _habits_now(tenant, user_id, now, {part.detail["memory_id"] for part in profile.parts})
    conflicts: list[dict] = []
    if profile_top_k != 0 and sources.variants:  # the variant whose condition holds, and what the request contradicts
        facts = request_facts(tenant, query=query, task_type=task_type, slots=slots, scene=scene,
                              session=session, scene_of=scene_of)
        profile.parts, conflicts = profile_conditions_apply(tenant, user_id, profile.parts, facts, Part)
    blocks = {
        "system_rules": system_rules,
        "user_profile": profile,
        "session": _session(session) if session else Block("session"),
        "task_state": _task_state(session) if session else Block("task_state"),
        "user_input": user_input,
    }

    dropped: list[dict] = []
    total = sum(block.token_count for block in blocks.values())
    while total > token_budget:
        victim = _next_to_drop(blocks)
        if victim is None:  # cannot happen: the fixed blocks fit, checked above
            break
        name, index = victim
        part = blocks[name].parts.pop(index)
        dropped.append({"block": name, "source_id": part.source_id, "token_count": part.token_count})
        total = sum(block.token_count for block in blocks.values())

    return AssembledContext(blocks=[blocks[name] for name in BLOCK_ORDER], token_budget=token_budget, dropped=dropped,
                            conflicts=conflicts)
