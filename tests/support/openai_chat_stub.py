"""A local OpenAI-compatible chat server for tests: real HTTP, scripted replies.

    stub = OpenAIChatStub().start()         # 127.0.0.1 on a free port, served from a thread
    stub.base_url                           # "http://127.0.0.1:PORT/v1" for openai.OpenAI(base_url=...)
    stub.reply_json({...})                  # next completion's message content is that JSON
    stub.reply_content("{not json")         # next completion's content, verbatim
    stub.reply_status(500, {...})           # next request answers with that HTTP status
    stub.requests                           # every request body received, parsed
    stub.stop()

Replies are consumed in order; a request with nothing scripted gets a 500 so a test can never pass
on a reply it did not script.
"""
from __future__ import annotations

import json
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class OpenAIChatStub:
    def __init__(self) -> None:
        self._replies: deque[tuple[int, Any, bool]] = deque()
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- scripting ---

    def reply_json(self, document: Any) -> None:
        self.reply_content(json.dumps(document, ensure_ascii=False))

    def reply_content(self, content: str) -> None:
        with self._lock:
            self._replies.append((200, content, True))

    def reply_status(self, status: int, body: Any = None) -> None:
        with self._lock:
            self._replies.append((status, body if body is not None else {"error": {"message": "scripted failure"}}, False))

    @property
    def pending(self) -> int:
        return len(self._replies)

    # --- lifecycle ---

    @property
    def base_url(self) -> str:
        assert self._server is not None, "start() the stub first"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> OpenAIChatStub:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def _send(self, status: int, payload: Any) -> None:
                body = json.dumps(payload, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):  # noqa: N802 — http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    request = json.loads(raw or b"{}")
                except ValueError:
                    request = {"_unparsed": raw.decode("utf-8", "replace")}
                request["_path"] = self.path
                request["_authorization"] = self.headers.get("Authorization")
                with stub._lock:
                    stub.requests.append(request)
                    scripted = stub._replies.popleft() if stub._replies else None
                if not self.path.endswith("/chat/completions"):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                if scripted is None:
                    self._send(500, {"error": {"message": "no scripted reply"}})
                    return
                status, body, is_completion = scripted
                if not is_completion:
                    self._send(status, body)
                    return
                self._send(200, {
                    "id": f"chatcmpl-stub-{len(stub.requests)}", "object": "chat.completion", "created": 0,
                    "model": request.get("model", "stub"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": body}}],
                    "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
                })

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="openai-chat-stub", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
