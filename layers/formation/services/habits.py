"""Habits from repetition: "short-term is what is happening, long-term is what keeps happening".

`habits_mine` reads one end user's own turns of the last `habit_lookback_days` across every session
(each on its session's `metadata.time_zone`, else the tenant's time zone or `policy.formation.habit_time_zone`),
reads each as a routine request (layers/formation/habits/requests.py), groups them by (action, object),
and writes the habit each group makes (layers/formation/habits/patterns.py) as one long-term memory of
kind `habit` with key `habit.<action>.<object>`, its dimensions in `attributes`:

    {"action", "object", "object_label": {"zh", "en"}, "pattern": daily|weekdays|weekends|weekly,
     "weekdays": [0..6, Monday = 0], "window": {"start": "21:40", "end": "22:20"}, "time_zone",
     "support": distinct days, "coverage", "first_day", "last_seen", "observed_confidence"}

Idempotent: the result depends only on the turns in the lookback, so a second run finds every habit
as it is and writes nothing; the same pattern with more support updates the memory's attributes
(`memory_update`, audited); a changed pattern (another window or weekday set) is a new memory that
supersedes the old one (`habit.*` is a single-valued key family, layers/long_term/policy.py). A habit
that stops is the forgetting job's (layers/forgetting/habits.py), not this one's: a run never lowers
what it cannot see. Everything under the user's memory lock, in one transaction.
"""
from __future__ import annotations

import logging
import re
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from layers.formation.habits.lexicon import ACTION_LABELS
from layers.formation.habits.patterns import (
    DAILY,
    WEEKDAYS,
    WEEKENDS,
    Pattern,
    Thresholds,
    pattern_detect,
)
from layers.formation.habits.requests import Request, request_read, request_words
from layers.formation.policy import FormationPolicy, formation_policy
from layers.formation.selectors import user_turns_between, users_with_turns_since
from layers.formation.signals import run_writes_finished
from layers.long_term.models import Memory, MemoryKind, MemorySource, MemoryStatus
from layers.long_term.services import memory_create, memory_update
from layers.long_term.services.create import lock_user_memories
from layers.short_term.selectors import session_time_zone
from memoryhub.core.actors import Actor
from memoryhub.outbox.services import task_enqueue_on_commit
from memoryhub.tenancy.models import Tenant
from memoryhub.tenancy.selectors import tenant_time_zone, zone_named

logger = logging.getLogger(__name__)

MINE_TASK = "formation.mine_habits"
EXTRACTOR = "habits"
KEY_PREFIX = "habit."
# The attributes whose change is a new pattern (supersession) rather than more support for the same one.
SHAPE = ("action", "object", "pattern", "weekdays", "window", "time_zone")
_WEEKDAY_ZH = "一二三四五六日"
_WEEKDAY_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def habit_zone(policy: FormationPolicy, tenant: Tenant) -> ZoneInfo:
    """The zone habits are read in when a session names none: the tenant's (as reminders), unless the policy
    names one for habits; an unknown name falls back to UTC (logged), never a failed job."""
    if not policy.habit_time_zone:
        return tenant_time_zone(tenant)
    zone = zone_named(policy.habit_time_zone)
    if zone is None:
        logger.warning("policy.formation.habit_time_zone %r is not a time zone; using UTC", policy.habit_time_zone)
        return ZoneInfo("UTC")
    return zone


def habit_thresholds(policy: FormationPolicy) -> Thresholds:
    return Thresholds(min_days=policy.habit_min_days, window_max_minutes=policy.habit_window_max_minutes,
                      window_min_minutes=policy.habit_window_min_minutes, min_coverage=policy.habit_min_coverage,
                      min_purity=policy.habit_min_purity)


def habit_key(action: str, obj: str) -> str:
    slug = re.sub(r"\s+", "_", obj.strip().lower())
    return (KEY_PREFIX + f"{action}.{slug}")[:Memory.MEMORY_KEY_MAX_LENGTH]


def _when(pattern: Pattern, language: str) -> str:
    window = pattern.window
    if language == "zh":
        days = {DAILY: "每天", WEEKDAYS: "工作日", WEEKENDS: "周末"}.get(pattern.pattern) or (
            "每周" + _WEEKDAY_ZH[pattern.weekdays[0]])
        return f"{days} {window['start']}–{window['end']}"
    days = {DAILY: "every day", WEEKDAYS: "on weekdays", WEEKENDS: "at weekends"}.get(pattern.pattern) or (
        f"on {_WEEKDAY_EN[pattern.weekdays[0]]}s")
    return f"{days} between {window['start']} and {window['end']}"


def habit_content(request: Request, pattern: Pattern, language: str) -> str:
    """The habit as a sentence in the language the user asks in (what search and the context show)."""
    zh_object, en_object = request_words(request)
    zh_verb, en_verb = ACTION_LABELS.get(request.action, (request.action, request.action))
    if language == "zh":
        return f"用户习惯{_when(pattern, 'zh')}{zh_verb}{zh_object}"
    return f"User usually {en_verb} {en_object} {_when(pattern, 'en')}"


def habit_confidence(pattern: Pattern) -> float:
    """More days and a fuller pattern, more certain; never certain (it is inferred)."""
    return round(min(0.95, 0.4 + 0.1 * pattern.support) * pattern.coverage, 3)


def _attributes(request: Request, pattern: Pattern, zone: ZoneInfo) -> dict:
    zh_object, en_object = request_words(request)
    return {"action": request.action, "object": request.object, "object_label": {"zh": zh_object, "en": en_object},
            "pattern": pattern.pattern, "weekdays": list(pattern.weekdays), "window": pattern.window,
            "time_zone": str(zone), "support": pattern.support, "coverage": pattern.coverage,
            "first_day": pattern.first_day.isoformat(), "last_seen": pattern.last_seen.isoformat(),
            "observed_confidence": habit_confidence(pattern)}


def _occurrences(*, tenant_id: int, user_id: str, since, until, zone: ZoneInfo) -> dict:
    """{(action, object): (zone, [(local moment, request, turn)])} of the user's requests in [since, until].
    A turn's clock is its session's `metadata.time_zone` (as reminders read it), else `zone`; one habit is read
    in the zone most of its occurrences were said in."""
    said: dict[tuple[str, str], list] = defaultdict(list)
    for turn in user_turns_between(tenant_id=tenant_id, user_id=user_id, since=since, until=until).select_related(
            "session").only("content", "occurred_at", "created_at", "seq", "session__session_id", "session__metadata"):
        request = request_read(turn.content)
        if request is not None:
            said[(request.action, request.object)].append((turn, request, session_time_zone(turn.session) or zone))
    groups = {}
    for key, found in said.items():
        counts = Counter(str(turn_zone) for _, _, turn_zone in found)
        reading_zone = ZoneInfo(counts.most_common(1)[0][0])
        groups[key] = (reading_zone, [(turn.moment.astimezone(reading_zone), request, turn) for turn, request, _ in found])
    return groups


def _lookback_start(tenant_id: int, user_id: str, now, policy: FormationPolicy):
    """The lookback ends at the user's latest turn, not at `now`: an imported or replayed history (turns dated
    by `occurred_at`) is mined as it happened; whether its habits still hold is the decay's call."""
    latest = (user_turns_between(tenant_id=tenant_id, user_id=user_id, since=datetime.min.replace(tzinfo=UTC),
                                 until=now).order_by("-moment").values_list("moment", flat=True).first())
    return (latest or now) - timedelta(days=policy.habit_lookback_days)


def habits_mine(*, tenant_id: int, user_id: str, now=None, actor: Actor | None = None) -> dict:
    """Find the user's habits in their recent turns and write them (see the module's docstring); a report."""
    actor = actor or Actor.system("formation.habits")
    now = now or timezone.now()
    policy = formation_policy(tenant_id)
    tenant = Tenant.objects.get(pk=tenant_id)
    zone = habit_zone(policy, tenant)
    thresholds = habit_thresholds(policy)
    report = {"tenant_id": tenant_id, "requests": 0, "habits": 0, "created": 0, "updated": 0, "superseded": 0,
              "unchanged": 0}
    with transaction.atomic():
        lock_user_memories(tenant_id, user_id)
        # Read under the lock: a concurrent run for the same user waits here and then sees this one's writes.
        groups = _occurrences(tenant_id=tenant_id, user_id=user_id, since=_lookback_start(tenant_id, user_id, now, policy),
                              until=now, zone=zone)
        report["requests"] = sum(len(found) for _, found in groups.values())
        current = {memory.memory_key: memory for memory in Memory.objects.filter(
            tenant_id=tenant_id, user_id=user_id, kind=MemoryKind.HABIT, status=MemoryStatus.ACTIVE)}
        for (action, obj), (group_zone, found) in sorted(groups.items()):
            pattern = pattern_detect([moment for moment, _, _ in found], thresholds)
            if pattern is None:
                continue
            report["habits"] += 1
            request = found[-1][1]
            language = Counter(req.language for _, req, _ in found).most_common(1)[0][0]
            attributes = _attributes(request, pattern, group_zone)
            key = habit_key(action, obj)
            stored = current.get(key)
            if stored is not None and all(stored.attributes.get(name) == attributes[name] for name in SHAPE):
                confidence = attributes["observed_confidence"]
                if stored.attributes == attributes and stored.attributes.get("observed_confidence") == confidence:
                    report["unchanged"] += 1
                    continue
                memory_update(memory=stored, actor=actor, attributes=attributes, confidence=confidence)
                report["updated"] += 1
                continue
            turns = [turn for _, _, turn in found]
            write = memory_create(
                tenant=tenant, actor=actor, user_id=user_id, kind=MemoryKind.HABIT,
                content=habit_content(request, pattern, language), memory_key=key,
                entities=[attributes["object_label"][language]], attributes=attributes,
                confidence=attributes["observed_confidence"], importance=policy.habit_importance,
                source=MemorySource.INFERRED, extractor=EXTRACTOR, source_session_id=turns[-1].session.session_id,
                source_turn_from=turns[-1].seq, source_turn_to=turns[-1].seq)
            report["superseded" if write.outcome == "superseded" else "created"] += 1
        run_writes_finished.send(sender=EXTRACTOR, session_pk=None, tenant_id=tenant_id, user_id=user_id)
    return report


def habits_enqueue(tenant_id: int, user_id: str) -> None:
    """Mine the user's habits after the caller's transaction commits (one pending request per user)."""
    task_enqueue_on_commit(MINE_TASK, args=[tenant_id, user_id], dedupe_key=f"formation.habits:{tenant_id}:{user_id}")


def habits_catch_up(*, now=None, since_hours: int = 25) -> dict:
    """Enqueue habit mining for every end user who said something in the last `since_hours` (the beat's daily
    pass: a habit forms from short sessions that never end, too)."""
    now = now or timezone.now()
    users = list(users_with_turns_since(since=now - timedelta(hours=since_hours)))
    with transaction.atomic():
        for tenant_id, user_id in users:
            habits_enqueue(tenant_id, user_id)
    return {"users": len(users)}
