"""A reverse proxy in its own process that injects the faults a client must survive, one per request.

`python -m tests.clients.fault_proxy UPSTREAM PORT`. POST /_faults {"faults": [...]} queues faults; each
API request takes the next one (none left: forward):
  reset     close the connection without reading on (nothing reaches the server)
  drop      forward, let the server apply it, then close without answering (the answer is lost)
  contended answer 503 `contended` with Retry-After: 1, as memoryhub/api/errors.py does
  500       answer a bare 500
  stall     hold the request 5 s, then forward (longer than a client's read timeout)
GET /_log lists [method, path, fault] of every API request seen, with the server's status when forwarded.
"""
from __future__ import annotations

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

_lock = threading.Lock()
_faults: list[str] = []
_log: list[list[str]] = []


class Handler(BaseHTTPRequestHandler):
    upstream = ""
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        return

    def _answer(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.path == "/_faults":
            with _lock:
                _faults.extend(json.loads(body)["faults"])
            return self._answer(200, b"{}", {"Content-Type": "application/json"})
        if self.path == "/_log":
            with _lock:
                payload = json.dumps(_log).encode()
            return self._answer(200, payload, {"Content-Type": "application/json"})
        with _lock:
            fault = _faults.pop(0) if _faults else "forward"
            entry = [self.command, self.path, fault]
            _log.append(entry)
        if fault == "reset":
            self.close_connection = True
            return
        if fault == "contended":
            error = {"error": {"code": "contended", "message": "collided", "details": {"retry_after_seconds": 1}}}
            return self._answer(503, json.dumps(error).encode(), {"Content-Type": "application/json",
                                                                  "Retry-After": "1"})
        if fault == "500":
            return self._answer(500, b"<h1>Server Error</h1>", {"Content-Type": "text/html"})
        if fault == "stall":
            time.sleep(5)
        headers = {key: value for key, value in self.headers.items()
                   if key.lower() not in {"host", "content-length", "connection", "accept-encoding"}}
        response = httpx.request(self.command, self.upstream + self.path, content=body, headers=headers,
                                 timeout=60)
        if fault == "drop":
            self.close_connection = True
            return
        with _lock:
            entry.append(response.status_code)
        passed = {key: value for key, value in response.headers.items()
                  if key.lower() not in {"content-length", "transfer-encoding", "connection", "content-encoding"}}
        self._answer(response.status_code, response.content, passed)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _handle


if __name__ == "__main__":
    Handler.upstream = sys.argv[1].rstrip("/")
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), Handler)
    server.daemon_threads = True
    server.serve_forever()
