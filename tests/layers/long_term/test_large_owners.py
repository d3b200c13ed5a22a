"""Large owners (layers/long_term/selectors/large_owners.py, services/large_owners.py): an owner past the tenant's
threshold gets its partial HNSW and GIN indexes from the job, its searches score a bounded candidate set through
them and agree with the exact scan; other owners and tenants are searched exactly; the job is idempotent, drops
the indexes of an owner that shrank, audits each change, and finishes an interrupted run."""
from __future__ import annotations

import pytest
from django.db import connection

from audit.models import AuditEvent
from layers.long_term.models import Memory, MemoryStatus
from layers.long_term.policy import large_owner_policy
from layers.long_term.selectors import memory_search
from layers.long_term.selectors.large_owners import (
    built_indexes,
    embedding_column_type,
    index_list,
    large_owner_candidates,
    large_owner_statistics,
    owner_index_names,
    statistics_cache,
)
from layers.long_term.services import memory_create_batch
from layers.long_term.services import large_owners as job
from layers.long_term.tasks import large_owner_indexes
from memoryhub.core.actors import Actor
from memoryhub.providers.embeddings import embed_query, get_embedder
from memoryhub.providers.keywords import query_concepts
from permanent.services import change_request_approve, change_request_propose

pytestmark = pytest.mark.django_db(transaction=True)

ACTOR = Actor.system("tests.large_owners")
TOPICS = ["jazz piano", "rock climbing", "sourdough baking", "trail running", "chess openings", "watercolour",
          "Sichuan food", "window seats", "email reminders", "birdwatching"]
QUERIES = ["what music does the team play?", "rock climbing this week", "bread recipes", "how should we send reminders?"]


def _memories(tenant, user_id: str, count: int) -> list[int]:
    items = [{"user_id": user_id, "kind": "fact", "content": f"Note {i}: the team talked about {TOPICS[i % len(TOPICS)]}"
              f" in week {i // len(TOPICS) + 1}", "client_id": f"{user_id}-{i}"} for i in range(count)]
    return [w.memory.pk for w in memory_create_batch(tenant=tenant, actor=ACTOR, items=items)]


@pytest.fixture
def small_thresholds(tenant, make_staff):
    """The tenant's large owners start at 30 active memories and keep their indexes down to 15."""
    editor, reviewer = make_staff(tenant, "editor"), make_staff(tenant, "reviewer")

    def set_policy(field, value):
        request = change_request_propose(tenant=tenant, key=f"policy.large_owners.{field}", action="create",
                                         value=value, proposer_user=editor)
        change_request_approve(change_request=request, reviewer=reviewer, payload_hash=request.payload_hash)

    set_policy("min_memories", 30)
    set_policy("keep_memories", 15)
    assert large_owner_policy(tenant.pk).min_memories == 30
    return set_policy


@pytest.fixture
def owners(tenant, other_tenant, small_thresholds):
    """alice (40 memories) is large in `tenant`; bob (10) is not; alice of `other_tenant` (40) is not: its
    tenant keeps the default threshold."""
    ids = {"alice": _memories(tenant, "alice", 40), "bob": _memories(tenant, "bob", 10)}
    _memories(other_tenant, "alice", 40)
    index_list.forget()
    yield ids
    # indexes outlive the flush of a transactional test: drop what the test built
    for name in job._catalogue():
        job._drop(name)
    index_list.forget()


def _search(tenant, user_id, query, **kwargs):
    index_list.forget()
    results = memory_search(tenant=tenant, user_id=user_id, query=query, top_k=10, explain=True, min_score=0, **kwargs)
    return [r.memory.pk for r in results], {r.explain["path"] for r in results}


def _events(tenant):
    return list(AuditEvent.objects.filter(tenant_id=tenant.pk, action="memory.owner_indexes").order_by("id"))


def test_a_large_owner_is_searched_through_its_indexes_and_agrees_with_the_exact_scan(tenant, other_tenant, owners):
    exact = {query: _search(tenant, "alice", query) for query in QUERIES}
    assert all(ids and paths == {"exact"} for ids, paths in exact.values())

    assert large_owner_indexes() == {"built": 2, "rebuilt": 0, "dropped": 0, "owners": 1}
    assert set(owner_index_names(tenant.pk, "alice")) == built_indexes()
    for query, (ids, _paths) in exact.items():
        approximate, paths = _search(tenant, "alice", query)
        assert paths == {"approximate"} and approximate == ids
    # the others are searched as before
    assert _search(tenant, "bob", QUERIES[0])[1] == {"exact"}
    assert _search(other_tenant, "alice", QUERIES[0])[1] == {"exact"}
    # only alice's active rows are candidates, however the bounds are set
    (event,) = _events(tenant)
    assert event.after == {"action": "built", "indexes": 2, "active_memories": 40} and _events(other_tenant) == []


def test_the_candidates_are_bounded_and_the_owners_own(tenant, owners, small_thresholds):
    large_owner_indexes()
    small_thresholds("vector_candidates", 10)
    small_thresholds("keyword_candidates", 5)
    embedder, concepts = get_embedder(), query_concepts("team jazz piano")
    candidates = large_owner_candidates(tenant_id=tenant.pk, user_id="alice", query_vector=embed_query(
        QUERIES[0], embedder), model_name=embedder.name, terms=concepts)
    # the 10 nearest, and each concept's share of the 5 keyword candidates
    assert 10 <= len(candidates) <= 10 + -(-5 // len(concepts)) * len(concepts)
    assert set(candidates) <= set(owners["alice"])
    assert large_owner_candidates(tenant_id=tenant.pk, user_id="bob", query_vector=None, model_name="",
                                  terms=[["team"]]) is None


def test_running_twice_changes_nothing_and_a_shrunk_owner_loses_its_indexes(tenant, owners):
    large_owner_indexes()
    assert large_owner_indexes() == {"built": 0, "rebuilt": 0, "dropped": 0, "owners": 1}
    assert len(_events(tenant)) == 1
    # 20 left: above keep_memories (15), the indexes stay
    Memory.objects.filter(pk__in=owners["alice"][:20]).update(status=MemoryStatus.ARCHIVED)
    assert job.large_owner_indexes_sync(dry_run=True)["dropped"] == 0
    # 10 left: below it, they go (a dry run first says so and changes nothing)
    Memory.objects.filter(pk__in=owners["alice"][20:30]).update(status=MemoryStatus.ARCHIVED)
    assert job.large_owner_indexes_sync(dry_run=True) == {"built": 0, "rebuilt": 0, "dropped": 2, "owners": 0}
    assert len(built_indexes()) == 2
    assert large_owner_indexes()["dropped"] == 2 and built_indexes() == set()
    assert _search(tenant, "alice", QUERIES[0])[1] == {"exact"}
    assert [e.after["action"] for e in _events(tenant)] == ["built", "dropped"]


def test_an_interrupted_run_is_finished_by_the_next(tenant, owners, monkeypatch):
    real_create, calls = job._create, []

    def create_then_fail(name, *args):
        calls.append(name)
        if len(calls) == 2:
            raise RuntimeError("worker killed")
        real_create(name, *args)

    monkeypatch.setattr(job, "_create", create_then_fail)
    with pytest.raises(RuntimeError):
        large_owner_indexes()
    assert len(built_indexes()) == 1
    # one of the two indexes: the owner is still searched exactly, and nothing was audited
    assert _search(tenant, "alice", QUERIES[0])[1] == {"exact"} and _events(tenant) == []
    monkeypatch.setattr(job, "_create", real_create)
    assert large_owner_indexes() == {"built": 1, "rebuilt": 0, "dropped": 0, "owners": 1}
    assert _search(tenant, "alice", QUERIES[0])[1] == {"approximate"}


def test_the_indexes_follow_the_models_column_type(tenant, owners):
    large_owner_indexes()
    with connection.cursor() as cursor:
        cursor.execute("SELECT format_type(atttypid, atttypmod) FROM pg_attribute"
                       " WHERE attrelid = %s::regclass AND attname = 'embedding'", [Memory._meta.db_table])
        assert cursor.fetchone()[0] == embedding_column_type()
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", [owner_index_names(tenant.pk, "alice")[0]])
        definition = cursor.fetchone()[0]
    assert f"{embedding_column_type().split('(')[0]}_cosine_ops" in definition
    assert f"tenant_id = {tenant.pk}" in definition and "'alice'" in definition


def test_erasing_a_large_owner_has_the_job_drop_the_indexes_that_name_them(tenant, owners):
    from layers.erasure.services import user_erase
    from memoryhub.outbox.models import OutboxTask

    large_owner_indexes()
    assert set(owner_index_names(tenant.pk, "alice")) == built_indexes()
    user_erase(tenant=tenant, user_id="bob", actor=ACTOR)  # no indexes of their own: nothing asked
    assert not OutboxTask.objects.filter(task_name=job.JOB_TASK).exists()

    user_erase(tenant=tenant, user_id="alice", actor=ACTOR)
    (request,) = OutboxTask.objects.filter(task_name=job.JOB_TASK)
    assert "alice" not in str(request.args) + str(request.kwargs), "the request names no user"
    assert large_owner_indexes()["dropped"] == 2 and built_indexes() == set()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_indexes WHERE indexdef LIKE %s", ["%'alice'%"])
        assert cursor.fetchone()[0] == 0, "no index predicate names the erased user"
    assert [e.after["action"] for e in _events(tenant)] == ["built"], "the drop makes no pseudonym for them"


def test_candidates_are_scored_with_the_owners_statistics_not_their_own(tenant, owners, small_thresholds):
    """BM25 over a candidate set with the set's own row count and document frequencies ranks keyword hits by other
    IDFs than the exact scan: the approximate path takes the owner's, so each hit's BM25 is the exact scan's."""
    query = "jazz piano and sourdough baking"

    def bm25s():
        index_list.forget()
        results = memory_search(tenant=tenant, user_id="alice", query=query, top_k=10, explain=True, min_score=0)
        return {r.memory.pk: r.explain["keyword"]["bm25"] for r in results}, {r.explain["path"] for r in results}

    exact, paths = bm25s()
    assert paths == {"exact"} and any(value for value in exact.values())
    large_owner_indexes()
    small_thresholds("vector_candidates", 10)  # a candidate set well short of the owner's 40 rows
    small_thresholds("keyword_candidates", 6)
    statistics_cache.clear()
    concepts = query_concepts(query)
    statistics = large_owner_statistics(tenant_id=tenant.pk, user_id="alice", terms=concepts)
    active = list(Memory.objects.filter(tenant=tenant, user_id="alice", status=MemoryStatus.ACTIVE))
    assert statistics.rows == len(active) == 40
    assert statistics.mean_length == pytest.approx(sum(m.doc_length for m in active) / len(active))
    assert statistics.document_frequencies == [
        sum(1 for m in active if any(term in m.term_freqs for term in concept)) for concept in concepts]
    approximate, paths = bm25s()
    both = [pk for pk in approximate if pk in exact and exact[pk]]
    assert paths == {"approximate"} and both
    assert [approximate[pk] for pk in both] == pytest.approx([exact[pk] for pk in both])
