"""A local OpenAI-compatible HTTP server on 127.0.0.1 for the LLM paths in tests.

It speaks the real wire protocol the ``openai`` SDK uses: ``POST /v1/chat/completions``
(JSON, or server-sent events when ``stream`` is true) and ``GET /v1/models``. What it
answers comes from a ``responder(messages, request) -> str`` the test supplies. It binds
to loopback only and records every request for assertions.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Responder = Callable[[list[dict[str, Any]], dict[str, Any]], str]


class FakeOpenAI:
    def __init__(self, responder: Responder) -> None:
        self.responder = responder
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _json(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._json(200, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
                else:
                    self._json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                request = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append({"path": self.path, "body": request,
                                        "authorization": self.headers.get("Authorization")})
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
                    return
                content = server.responder(request.get("messages", []), request)
                created, model = int(time.time()), request.get("model", "fake-model")
                if not request.get("stream"):
                    self._json(200, {
                        "id": "chatcmpl-fake", "object": "chat.completion", "created": created, "model": model,
                        "choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": content}}],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    })
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                pieces = [content[i : i + 8] for i in range(0, len(content), 8)] or [""]
                for n, piece in enumerate(pieces):
                    delta = {"role": "assistant", "content": piece} if n == 0 else {"content": piece}
                    chunk = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": created,
                             "model": model, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                done = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": created, "model": model,
                        "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
                self.wfile.write(f"data: {json.dumps(done)}\n\ndata: [DONE]\n\n".encode())

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
