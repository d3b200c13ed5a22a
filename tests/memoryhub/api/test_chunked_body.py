"""A body sent with Transfer-Encoding: chunked (no Content-Length) is read, not taken as empty, by the
server the service runs under (gunicorn), within the same body limit as any other."""
from __future__ import annotations

import http.client
import json
import os
from urllib.parse import urlsplit

import pytest

from layers.short_term.models import Session
from memoryhub.embedded import embedded_redis
from tests.support.processes import private_env, start_web

pytestmark = pytest.mark.django_db(transaction=True)


def _chunked_post(base: str, path: str, key: str, chunks: list[bytes]) -> tuple[int, dict]:
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.putrequest("POST", path)
        conn.putheader("Authorization", f"Bearer {key}")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Transfer-Encoding", "chunked")
        conn.endheaders()
        for chunk in chunks:
            conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        conn.send(b"0\r\n\r\n")
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


def test_a_chunked_body_is_read_under_gunicorn_and_held_to_the_body_limit(make_client, tenant, tmp_path, processes):
    key = make_client(tenant).plaintext
    with embedded_redis(tmp_path / "redis") as redis_url:
        env = private_env(redis_url, f"chunked-{os.getpid()}", MAX_REQUEST_BODY_BYTES="4096")
        web, base = start_web(env, tmp_path / "web.log")
        processes.append(web)
        body = json.dumps({"session_id": "chunked-1", "user_id": "alice", "metadata": {"via": "chunks"}}).encode()
        status, answer = _chunked_post(base, "/api/v1/sessions", key, [body[:10], body[10:25], body[25:]])
        assert status == 201, answer
        assert answer["session_id"] == "chunked-1"
        assert Session.objects.get(session_id="chunked-1").metadata == {"via": "chunks"}

        status, answer = _chunked_post(base, "/api/v1/sessions", key, [b"{"])
        assert status == 400 and answer["error"]["code"] == "malformed_request", answer

        big = json.dumps({"session_id": "chunked-2", "user_id": "alice", "metadata": {"pad": "x" * 5000}}).encode()
        status, answer = _chunked_post(base, "/api/v1/sessions", key, [big[i:i + 1000] for i in range(0, len(big), 1000)])
        assert status == 413 and answer["error"]["code"] == "body_too_large", answer
        assert not Session.objects.filter(session_id="chunked-2").exists()
