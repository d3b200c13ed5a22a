"""A tiny OpenAI-compatible embeddings server for tests: POST /v1/embeddings answers as the real API
does (base64 little-endian float32 by default, floats when asked), with deterministic vectors.

Run in a thread with `EmbeddingStub()` as a context manager; `.base_url` is what the SDK wants and
`.requests` records each request body.
"""
from __future__ import annotations

import base64
import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np


def stub_vector(text: str, dimensions: int) -> np.ndarray:
    """A deterministic unit vector per text (same text, same vector)."""
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
    vector = np.random.default_rng(seed).standard_normal(dimensions).astype(np.float32)
    return vector / np.linalg.norm(vector)


class EmbeddingStub:
    def __init__(self, *, force_dimensions: int | None = None):
        self.requests: list[dict] = []
        self.force_dimensions = force_dimensions
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                stub.requests.append({"path": self.path, "body": body,
                                      "authorization": self.headers.get("Authorization")})
                if self.path != "/v1/embeddings":
                    return self._send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
                inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                dimensions = stub.force_dimensions or body.get("dimensions") or 1536
                data = []
                for index, text in enumerate(inputs):
                    vector = stub_vector(text, dimensions)
                    if body.get("encoding_format") == "base64":
                        embedding = base64.b64encode(vector.astype("<f4").tobytes()).decode()
                    else:
                        embedding = vector.tolist()
                    data.append({"object": "embedding", "index": index, "embedding": embedding})
                self._send(200, {"object": "list", "data": data, "model": body.get("model"),
                                 "usage": {"prompt_tokens": len(inputs), "total_tokens": len(inputs)}})

            def _send(self, code, payload):
                raw = json.dumps(payload).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
