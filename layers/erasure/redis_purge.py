"""Removing cached copies of a user's data from Redis: any key whose name or value mentions the
user's id or a piece of their content. Used only by erasure, so a full SCAN is acceptable."""
from __future__ import annotations

import redis
from django.conf import settings

# Shorter strings ("assistant", "completed") would match unrelated keys; the user id is always a needle.
NEEDLE_MIN_LENGTH = 12
NEEDLE_MAX_LENGTH = 120
MAX_NEEDLES = 5000


def needles_for(user_id: str, texts) -> list[bytes]:
    """What to look for: the user id, and a long enough slice of each stored text."""
    found = {user_id.encode("utf-8")}
    for text in texts:
        if isinstance(text, str) and len(text) >= NEEDLE_MIN_LENGTH:
            found.add(text[:NEEDLE_MAX_LENGTH].encode("utf-8"))
        if len(found) >= MAX_NEEDLES:
            break
    return sorted(found)


def _redis_urls() -> set[str]:
    urls = {settings.REDIS_URL}
    for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        url = getattr(settings, name, "") or ""
        if url.startswith("redis://") or url.startswith("rediss://"):
            urls.add(url)
    return urls


def _mentions(blob: bytes | None, needles: list[bytes]) -> bool:
    return bool(blob) and any(needle in blob for needle in needles)


def redis_purge(needles: list[bytes]) -> int:
    """Delete keys (or, in lists and sets, just the members) that mention any needle. Returns how many
    keys were deleted or changed. Raises redis errors: erasure must not claim success if Redis is out."""
    changed = 0
    timeout = settings.REDIS_SOCKET_TIMEOUT * 4
    for url in _redis_urls():
        client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        for key in client.scan_iter(count=1000):
            if _mentions(key, needles):
                changed += client.delete(key)
                continue
            kind = client.type(key)
            if kind == b"string":
                if _mentions(client.get(key), needles):
                    changed += client.delete(key)
            elif kind == b"hash":
                fields = [f for f, v in client.hgetall(key).items() if _mentions(f, needles) or _mentions(v, needles)]
                if fields:
                    client.hdel(key, *fields)
                    changed += 1
            elif kind == b"list":
                # A queue: remove only the messages that mention the user, keep everyone else's.
                hits = {item for item in client.lrange(key, 0, -1) if _mentions(item, needles)}
                for item in hits:
                    client.lrem(key, 0, item)
                changed += bool(hits)
            elif kind in (b"set", b"zset"):
                members = client.smembers(key) if kind == b"set" else client.zrange(key, 0, -1)
                hits = [m for m in members if _mentions(m, needles)]
                if hits:
                    (client.srem if kind == b"set" else client.zrem)(key, *hits)
                    changed += 1
    return changed
