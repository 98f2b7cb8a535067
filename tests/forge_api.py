"""A scripted GitHub REST API on 127.0.0.1 for the pull-request step (stdlib only).

Like the agent API fakes in ``tests/agent_apis/core.py``: a ``ThreadingHTTPServer`` on a free
loopback port, used as a context manager, recording every request. It answers the routes
autofix calls the way GitHub does:

- ``GET /repos/{owner}/{repo}`` → the repository and its ``default_branch``;
- ``POST /repos/{owner}/{repo}/pulls`` → 201 and the new pull request, 422 "A pull request
  already exists" when one is open for the head, 422 "Validation Failed" for a body without
  ``title``, ``head`` or ``base``;
- ``GET /repos/{owner}/{repo}/pulls?head=owner:branch&state=open`` → the open ones.

A request without ``Authorization: Bearer <token>`` gets 401 "Bad credentials"; the record
keeps whether it was authorized, never the header's value.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit


@dataclass
class ForgeRequest:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    authorized: bool
    accept: str
    api_version: str
    status: int = 0


@dataclass
class ForgeServer:
    token: str
    repository: str  # owner/repo
    default_branch: str = "main"
    open_pulls: dict[str, int] = field(default_factory=dict)  # head branch → number
    requests: list[ForgeRequest] = field(default_factory=list)
    _httpd: ThreadingHTTPServer | None = None
    _next_number: int = 42

    @property
    def origin(self) -> str:
        assert self._httpd is not None, "not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def pull_url(self, number: int) -> str:
        return f"{self.origin}/{self.repository}/pull/{number}"

    def __enter__(self) -> ForgeServer:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()

    def answer(self, request: ForgeRequest) -> tuple[int, Any]:
        if not request.authorized:
            return 401, {"message": "Bad credentials"}
        repo = f"/repos/{self.repository}"
        if request.method == "GET" and request.path == repo:
            return 200, {"full_name": self.repository, "default_branch": self.default_branch}
        if request.method == "POST" and request.path == f"{repo}/pulls":
            return self._create(request.body)
        if request.method == "GET" and request.path == f"{repo}/pulls":
            head = request.query.get("head", "").partition(":")[2]
            number = self.open_pulls.get(head)
            return 200, [] if number is None else [self._pull(number, head, "")]
        return 404, {"message": "Not Found"}

    def _create(self, body: Any) -> tuple[int, Any]:
        fields = ("title", "head", "base")
        if not isinstance(body, dict) or not all(isinstance(body.get(f), str) for f in fields):
            return 422, {"message": "Validation Failed", "errors": [{"code": "missing_field"}]}
        head = body["head"]
        if head in self.open_pulls:
            owner = self.repository.split("/")[0]
            message = f"A pull request already exists for {owner}:{head}."
            return 422, {
                "message": "Validation Failed",
                "errors": [{"resource": "PullRequest", "code": "custom", "message": message}],
            }
        number = self._next_number
        self._next_number += 1
        self.open_pulls[head] = number
        return 201, self._pull(number, head, body["base"])

    def _pull(self, number: int, head: str, base: str) -> dict[str, Any]:
        return {
            "number": number,
            "html_url": self.pull_url(number),
            "state": "open",
            "head": {"ref": head},
            "base": {"ref": base},
        }


def _handler(server: ForgeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the request list is the record

        def do_GET(self) -> None:
            self._serve()

        def do_POST(self) -> None:
            self._serve()

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            parts = urlsplit(self.path)
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = raw.decode("utf-8", "replace")
            request = ForgeRequest(
                method=self.command,
                path=parts.path,
                query=dict(parse_qsl(parts.query)),
                body=body,
                authorized=self.headers.get("Authorization") == f"Bearer {server.token}",
                accept=self.headers.get("Accept", ""),
                api_version=self.headers.get("X-GitHub-Api-Version", ""),
            )
            server.requests.append(request)
            status, payload = server.answer(request)
            request.status = status
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
