"""Erasure's Redis clean-up deletes the erased user's keys in the erasing tenant and nothing else,
whatever the id: ids named like Celery's keys, glob patterns, our own key prefixes, or another
tenant's user id. (It used to scan every key for the id as a substring.)"""
from __future__ import annotations

import json
import uuid
from urllib.parse import quote

import pytest
import redis
from django.conf import settings
from django.core.cache import cache as django_cache

from layers.long_term.services import memory_create
from memoryhub.core.actors import Actor
from memoryhub.core.redis import user_key_prefix
from permanent import cache as permanent_cache
from permanent.selectors import permanent_snapshot
from tests.support.permanent import approve, propose

pytestmark = pytest.mark.django_db

ADVERSARIAL_IDS = [
    "_kombu.binding.celery", "celery", "unacked", "*", "?", "[a-z]*", "mh:", "mh:perm", "mh:user", ":", "g0",
    "global", "u:", "1", "bob",
]


def _raw() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


# A key that expires within this long of the snapshot may lapse on its own while the DELETE runs (a
# snapshot an earlier test cached 300 s ago, a rate-limit window): it is not part of "everything else
# stays as it was". Every key this test writes lives longer than that.
LAPSING_MS = 120_000


def _state() -> dict[bytes, bytes]:
    """Every key that will not lapse by itself meanwhile, with its serialised value (DUMP), so any
    change to any key shows."""
    client = _raw()
    state = {}
    for key in client.scan_iter(count=1000):
        ttl = client.pttl(key)  # -1: no expiry; -2: gone since the scan saw it
        if ttl == -2 or 0 <= ttl < LAPSING_MS:
            continue
        value = client.dump(key)
        if value is not None:
            state[key] = value
    return state


def _plant_shared_keys(ids: list[str]) -> list[bytes]:
    """Keys that belong to nobody in particular, named like and mentioning the adversarial ids: Celery's
    bindings and queues, a key named exactly like each id, values quoting them."""
    client = _raw()
    run = uuid.uuid4().hex[:8]
    planted = []
    mention = json.dumps({"args": ids, "note": " ".join(ids)})
    for key, kind, write in (
            (b"_kombu.binding.celery", b"set", lambda k: client.sadd(k, f"celery\x06\x16\x06\x16celery-{run}")),
            (b"celery", b"list", lambda k: client.rpush(k, mention)),
            (b"unacked", b"hash", lambda k: client.hset(k, f"tag-{run}", mention))):
        if client.type(key) in (kind, b"none"):
            write(key)
        planted.append(key)
    for name in ids:
        if name.encode() not in planted:
            client.set(name, mention)
            planted.append(name.encode())
    client.set(f"mh:other-layer:{run}", mention)
    planted.append(f"mh:other-layer:{run}".encode())
    return planted


def _cache_snapshot(tenant, user_id: str) -> None:
    """The user's permanent snapshot served (and so cached) once, as any read does."""
    permanent_snapshot(tenant_id=tenant.id, user_id=user_id)


def _keys_under(tenant, user_id: str) -> set[bytes]:
    prefix = user_key_prefix(tenant.id, user_id).encode()
    return {key for key in _raw().scan_iter(count=1000) if prefix in key}


@pytest.mark.parametrize("user_id", ADVERSARIAL_IDS)
def test_erasing_an_adversarial_id_deletes_only_that_users_keys_in_that_tenant(
        user_id, api, other_api, tenant, other_tenant, editor, reviewer, make_staff):
    # The same id and a bystander in both tenants, each with a cached permanent snapshot of their own
    # and a value another layer cached under the user's prefix.
    other_editor = make_staff(other_tenant, "editor", username=f"oe-{uuid.uuid4().hex[:6]}")
    other_reviewer = make_staff(other_tenant, "reviewer", username=f"or-{uuid.uuid4().hex[:6]}")
    for owner, staff in ((tenant, (editor, reviewer)), (other_tenant, (other_editor, other_reviewer))):
        for someone in (user_id, "bystander"):
            approve(propose(owner, staff[0], key="profile.nickname", value={"n": someone}, user_id=someone), staff[1])
            memory_create(tenant=owner, actor=Actor.system("tests"), user_id=someone, kind="fact",
                          content=f"{someone} likes tea")
            _cache_snapshot(owner, someone)
            django_cache.set(user_key_prefix(owner.id, someone) + "other-layer-copy", {"who": someone}, 600)
    planted = _plant_shared_keys(ADVERSARIAL_IDS)
    doomed = _keys_under(tenant, user_id)
    assert len(doomed) >= 2, "the user's snapshot and the other layer's copy are cached"
    before = _state()

    response = api.delete(f"/api/v1/users/{quote(user_id, safe='')}")
    assert response.status_code == 200, response.content
    assert response.json()["redis_keys"] >= len(doomed)

    after = {key: _raw().dump(key) for key in before}
    after = {key: value for key, value in after.items() if value is not None}
    # Rate-limit windows expire on their own minute and may do so during the DELETE whatever TTL the
    # snapshot read (the limiter sets it in the same round trip as the count).
    vanished = {key for key in set(before) - set(after) if b"throttle" not in key}
    assert vanished == doomed, "exactly the erased user's keys went"
    assert not _keys_under(tenant, user_id)
    # Everything else is byte-for-byte as it was: Celery's keys, the keys named like the id, the other
    # tenant's entries for the very same id, the bystanders. Only the erasing tenant's snapshot
    # generation moved (and request throttles and the request-latency metrics counted the DELETE).
    generation = permanent_cache.generation_key(tenant.id).encode()
    for key, value in before.items():
        if key in doomed or key == generation or b"throttle" in key or b"rate" in key or key.startswith(b"memoryhub:metrics:"):
            continue
        assert after.get(key) == value, key
    for key in planted:
        assert key in after, key
    assert _keys_under(other_tenant, user_id), "the other tenant's user with the same id keeps its cache"
    assert _keys_under(tenant, "bystander") and _keys_under(other_tenant, "bystander")
    # The other tenant still reads its user's data, from cache or database alike.
    assert other_api.get("/api/v1/permanent/profile.nickname", {"user_id": user_id}).json()["value"] == {"n": user_id}


def test_another_tenant_erasing_my_users_id_touches_none_of_my_keys(api, other_api, tenant, editor, reviewer):
    user_id = f"alice-{uuid.uuid4().hex[:6]}"
    approve(propose(tenant, editor, key="profile.nickname", value={"n": "al"}, user_id=user_id), reviewer)
    _cache_snapshot(tenant, user_id)
    mine = _keys_under(tenant, user_id)
    assert mine
    before = {key: _raw().dump(key) for key in mine}
    response = other_api.delete(f"/api/v1/users/{user_id}")
    assert response.status_code == 200 and response.json() == {"user_id": user_id, "deleted": {}, "redis_keys": 0}
    assert {key: _raw().dump(key) for key in mine} == before
