"""A webhook receiver the tests start: a real HTTP server on a thread of the test process.

It checks each delivery's HMAC signature, processes a reminder once per `Idempotency-Key` (what a
receiver is meant to do with at-least-once delivery) and can be told to fail the first requests or to
hold a request open until the test releases it (to kill a worker while it waits for the answer)."""
from __future__ import annotations

import hashlib
import hmac
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class WebhookReceiver:
    def __init__(self, secret: str, *, fail_first: int = 0, hold_first: bool = False):
        self.secret = secret
        self.fail_first = fail_first
        self.hold_first = hold_first
        self.received: list[dict] = []       # every request, in arrival order
        self.processed: dict[str, dict] = {}  # idempotency key → the body acted on (once)
        self.held = threading.Event()         # set when a held request has arrived
        self.release = threading.Event()
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver._handle(self, body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def signature_valid(self, headers, body: bytes) -> bool:
        timestamp = headers.get("X-Memoryhub-Timestamp", "")
        expected = "sha256=" + hmac.new(self.secret.encode(), timestamp.encode() + b"." + body,
                                        hashlib.sha256).hexdigest()
        return hmac.compare_digest(expected, headers.get("X-Memoryhub-Signature", ""))

    def _handle(self, handler, body: bytes) -> None:
        key = handler.headers.get("Idempotency-Key", "")
        valid = self.signature_valid(handler.headers, body)
        with self._lock:
            index = len(self.received)
            self.received.append({"key": key, "valid": valid, "body": json.loads(body or b"{}")})
        if not valid:
            return self._answer(handler, 401)
        if self.hold_first and index == 0:
            self.held.set()
            self.release.wait(120)
            return  # the worker that sent it is dead by now; nobody reads an answer
        if index < self.fail_first:
            return self._answer(handler, 503)
        with self._lock:
            self.processed.setdefault(key, json.loads(body))
        self._answer(handler, 200)

    @staticmethod
    def _answer(handler, code: int) -> None:
        try:
            handler.send_response(code)
            handler.send_header("Content-Length", "0")
            handler.end_headers()
        except OSError:
            pass

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
