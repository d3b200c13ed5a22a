"""Where a needle (a user id, a piece of user text) still occurs: every text column and every Redis key."""
import redis
from django.conf import settings
from django.db import connection

TEXT_TYPES = ("text", "character varying", "json", "jsonb", "ARRAY", "tsvector")


def occurrences(needle: str) -> list[str]:
    """Every `table.column` (text, varchar, json, jsonb, arrays, tsvector) whose value contains `needle`."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND data_type = ANY(%s)", [list(TEXT_TYPES)])
        columns = cursor.fetchall()
        hits = []
        for table, column in columns:
            # Case-insensitive: keyword columns and tsvectors hold lowercased tokens.
            cursor.execute(f'SELECT count(*) FROM "{table}" WHERE strpos(lower("{column}"::text), lower(%s)) > 0',
                           [needle])
            if cursor.fetchone()[0]:
                hits.append(f"{table}.{column}")
    return hits


def redis_occurrences(needle: str) -> list[str]:
    """Redis keys whose name or value mentions `needle` (any case)."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    found = []
    raw = needle.lower().encode()

    def has(blob) -> bool:
        return bool(blob) and raw in blob.lower()

    for key in client.scan_iter(count=1000):
        kind = client.type(key)
        if has(key) or (kind == b"string" and has(client.get(key))) \
                or (kind == b"list" and any(has(item) for item in client.lrange(key, 0, -1))) \
                or (kind == b"hash" and any(has(k) or has(v) for k, v in client.hgetall(key).items())) \
                or (kind == b"set" and any(has(m) for m in client.smembers(key))) \
                or (kind == b"zset" and any(has(m) for m in client.zrange(key, 0, -1))):
            found.append(key.decode(errors="replace"))
    return found
