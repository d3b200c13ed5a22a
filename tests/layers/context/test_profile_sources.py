"""profile_sources: one statement says which of the profile's extra sources (hot edges, preference variants,
habits) a user has, so a context skips the reads of the empty ones; never another user's or tenant's rows."""
from __future__ import annotations

import pytest

from layers.context.selectors import ProfileSources, context_assemble, profile_sources
from layers.long_term.graph.models import Edge
from layers.long_term.models import MemoryStatus

pytestmark = pytest.mark.django_db


def sources(tenant, user_id="alice") -> ProfileSources:
    return profile_sources(tenant_id=tenant.pk, user_id=user_id, core_min_importance=0.9)


def test_a_user_with_plain_memories_has_none(tenant, remember):
    remember("Alice likes jazz", kind="preference", importance=0.5)
    assert sources(tenant) == ProfileSources(core=False, edges=False, variants=False, habits=False)


def test_each_source_is_seen(tenant, remember):
    home = remember("用户住在上海", memory_key="user.home_city", entities=["上海"], importance=0.5)
    assert Edge.objects.filter(memory=home).exists()
    assert sources(tenant) == ProfileSources(core=False, edges=True, variants=False, habits=False)
    remember("用户靠窗坐", kind="preference", memory_key="user.preference.seat", importance=0.5)
    assert sources(tenant).variants and not sources(tenant).core
    remember("Alice is allergic to peanuts", memory_key="user.allergies", importance=0.95)
    assert sources(tenant).core and not sources(tenant, "dave").core
    remember("Bob 出差时坐过道", user_id="bob", kind="preference", memory_key="travel.seat", importance=0.5,
             attributes={"condition": {"task_type": "book_flight"}})
    assert sources(tenant, "bob") == ProfileSources(core=False, edges=False, variants=True, habits=False)
    remember("用户习惯每天 21:40–22:20播放白噪音", user_id="carol", kind="habit", memory_key="habit.play.white_noise",
             importance=0.5)
    assert sources(tenant, "carol") == ProfileSources(core=False, edges=False, variants=False, habits=True)


def test_other_users_and_tenants_do_not_count(tenant, other_tenant, remember):
    remember("用户住在上海", user_id="bob", memory_key="user.home_city", entities=["上海"], importance=0.95)
    remember("用户靠窗坐", user_id="alice", kind="preference", memory_key="user.preference.seat", importance=0.5,
             target_tenant=other_tenant)
    remember("用户习惯每天 21:40–22:20播放白噪音", user_id="alice", kind="habit", memory_key="habit.play.white_noise",
             importance=0.5, target_tenant=other_tenant)
    assert sources(tenant) == ProfileSources(core=False, edges=False, variants=False, habits=False)
    assert sources(other_tenant) == ProfileSources(core=False, edges=False, variants=True, habits=True)
    assert sources(tenant, "bob").core


def test_a_memory_no_longer_active_takes_its_sources_with_it(tenant, remember):
    home = remember("用户住在上海", memory_key="user.home_city", entities=["上海"], importance=0.95)
    seat = remember("用户靠窗坐", kind="preference", memory_key="user.preference.seat")
    for memory in (home, seat):
        memory.status = MemoryStatus.ARCHIVED
        memory.save(update_fields=["status"])
    assert sources(tenant) == ProfileSources(core=False, edges=False, variants=False, habits=False)


def test_the_context_still_serves_what_a_source_holds(tenant, remember):
    home = remember("用户住在上海", memory_key="user.home_city", entities=["上海"])
    remember("Alice likes jazz", kind="preference")
    context = context_assemble(tenant=tenant, user_id="alice", query="上海有什么好吃的", token_budget=800)
    (profile,) = [block for block in context.blocks if block.name == "user_profile"]
    served = {part.detail["memory_id"]: part.detail for part in profile.parts}
    assert served[home.pk].get("hot_edges") or served[home.pk].get("reason") == "hot_edge"


def test_a_context_reads_the_query_once_for_search_core_gate_and_conditions(tenant, remember, monkeypatch):
    """The core-fact gate and the conditional preferences' request facts take the scene the search read
    (layers/context/selectors.SceneOf) instead of reading the query again; with no match to take it from,
    the context reads it once for both."""
    from layers.context import conflicts, selectors
    from layers.long_term.selectors import scenes

    remember("Alice is allergic to peanuts", memory_key="user.allergies", importance=0.95)
    remember("Alice sits by the window", kind="preference", memory_key="user.preference.seat", importance=0.5)
    remember("Alice takes the aisle on work trips", kind="preference", memory_key="travel.seat", importance=0.5,
             attributes={"condition": {"task_type": "book_flight"}})
    readings = []

    def counted(query, policy, task_type=None):
        readings.append(task_type)
        return scenes.query_read(query, policy, task_type)

    for module in (selectors, conflicts):  # the context's own readings (the search's are its own business)
        monkeypatch.setattr(module, "query_read", counted)
    for task_type in (None, "book_flight"):
        served = context_assemble(tenant=tenant, user_id="alice", query="which seat does Alice like?",
                                  token_budget=2000, task_type=task_type)
        profile = next(block for block in served.blocks if block.name == "user_profile")
        assert any(part.detail.get("core") for part in profile.parts)  # the gate let the core fact in
        assert any(part.detail.get("reason") == "match" for part in profile.parts)
        assert readings == []
    served = context_assemble(tenant=tenant, user_id="alice", query="zzqx", token_budget=2000)
    profile = next(block for block in served.blocks if block.name == "user_profile")
    assert not any(part.detail.get("reason") == "match" for part in profile.parts)
    assert readings == [None]  # no match: read once, for the gate and the conditions both
