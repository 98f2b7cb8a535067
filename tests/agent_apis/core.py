"""The scripted loopback HTTP server the three provider fakes share (stdlib only).

A server answers the requests of one agent CLI run from a :class:`Scenario`: the model
requests (``POST /v1/messages``, ``POST /v1/responses``, ``:streamGenerateContent``) take the
scenario's replies in order, the last one repeating; utility model calls outside the
conversation (Gemini's non-streaming ``:generateContent`` helpers) get the scenario's ``utility``
reply or the provider's default; auxiliary requests (start-up probes, token counts) always get
the provider's default answer. Every request is recorded (method, path, headers with credentials redacted, JSON
body, what was served) so a test can assert what the CLI sent and how often it retried.

A :class:`Reply` is either a JSON answer (an error body, or a non-streaming answer) or an SSE
stream. Streams use chunked transfer encoding like the real APIs, so a dropped stream (the
connection closed without the terminating chunk) is a transport error to the client, not a
short body. Replies can also wait before answering, stall mid-stream or never answer at all
(the client's own timeouts then decide).
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal
from urllib.parse import parse_qsl, urlsplit

REDACTED = "<redacted>"
SECRET_HEADERS = frozenset(
    {"authorization", "x-api-key", "x-goog-api-key", "api-key", "cookie", "proxy-authorization"}
)
SECRET_QUERY_KEYS = frozenset({"key", "api_key"})

RequestKind = Literal["model", "utility", "aux", "unknown"]
Outcome = Literal["answered", "dropped", "stalled", "hung", "reset", "client_gone"]


@dataclass(frozen=True)
class SseEvent:
    """One server-sent event: ``event: NAME`` (optional) and one ``data:`` line of JSON."""

    data: Any
    event: str | None = None

    def encode(self) -> bytes:
        payload = self.data if isinstance(self.data, str) else json.dumps(self.data)
        head = f"event: {self.event}\n" if self.event else ""
        return f"{head}data: {payload}\n\n".encode()


@dataclass(frozen=True)
class Reply:
    """What the server sends for one request.

    ``body`` answers non-streaming requests and every non-200 status; ``events`` answer a
    streaming request with status 200. A reply with both serves either kind of request.
    """

    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    body: Any = None
    events: Sequence[SseEvent] = ()
    delay_s: float = 0.0  # before the status line
    event_gap_s: float = 0.0  # between SSE events
    drop_after: int | None = None  # SSE: close the socket after this many events, no final chunk
    stall_after: int | None = None  # SSE: after this many events send nothing more, keep it open
    hang: bool = False  # read the request, never answer
    reset: bool = False  # read the request, close the connection without a byte of answer
    label: str = ""  # a short name for the request log ("429", "text", "drop"...)
    # Headers whose value is the Unix time this many seconds after the reply is sent: a reset
    # time that stays ahead however late a loaded machine gets to the request.
    clock_headers: Mapping[str, float] = field(default_factory=dict)

    @property
    def streams(self) -> bool:
        return self.status == 200 and bool(self.events)

    def sent_headers(self) -> dict[str, str]:
        now = time.time()
        clock = {name: str(int(now + seconds)) for name, seconds in self.clock_headers.items()}
        return {**self.headers, **clock}


@dataclass(frozen=True)
class Scenario:
    """The script for one run: model replies in order (the last repeats).

    ``utility`` replaces the provider's default answer to utility model calls when set, e.g.
    so a dead API key fails every call, not only the conversation's.
    """

    name: str
    replies: Sequence[Reply]
    utility: Reply | None = None
    description: str = ""

    def __post_init__(self) -> None:
        if not self.replies:
            raise ValueError(f"scenario {self.name!r} needs at least one reply")


@dataclass
class RecordedRequest:
    """One request as received, and what was served."""

    index: int
    at_s: float  # since the server started
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: Any  # parsed JSON, the raw text when not JSON, None when empty
    body_bytes: int
    kind: RequestKind
    streaming: bool
    status: int = 0
    label: str = ""
    outcome: Outcome = "answered"
    events_sent: int = 0

    def summary(self) -> dict[str, Any]:
        """The short form capture meta.json keeps (no headers, no body)."""
        return {
            "at_s": round(self.at_s, 3),
            "method": self.method,
            "path": self.path,
            "kind": self.kind,
            "streaming": self.streaming,
            "status": self.status,
            "label": self.label,
            "outcome": self.outcome,
            "events_sent": self.events_sent,
        }


def redact_headers(headers: Mapping[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in headers.items():
        key = name.lower()
        out[key] = REDACTED if key in SECRET_HEADERS and value else value
    return out


def redact_query(query: Mapping[str, str]) -> dict[str, str]:
    return {k: (REDACTED if k.lower() in SECRET_QUERY_KEYS else v) for k, v in query.items()}


class RefusedPort:
    """A loopback port held bound but not listening, for the connection-refused scenario: a
    connection to it is refused, and no server started meanwhile can take it (a port only
    probed free could be handed to the next server that binds port 0)."""

    def __init__(self) -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self.port: int = self._sock.getsockname()[1]

    def close(self) -> None:
        self._sock.close()


class ScriptedServer:
    """Base class: one provider's fake API on 127.0.0.1, serving one :class:`Scenario`.

    Subclasses say which requests are model calls (:meth:`classify`), whether a request
    streams (:meth:`is_streaming`) and what auxiliary requests get (:meth:`aux_reply`).
    Use as a context manager; :attr:`base_url` is ready once it is entered.
    """

    provider = "base"

    def __init__(self, scenario: Scenario, api_key: str | None = None) -> None:
        self.scenario = scenario
        # Set: model calls and the models list need this key, else the provider's bad-key
        # answer (``bad_key_reply``); None: any key, or none, is served.
        self.api_key = api_key
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._model_calls = 0
        self._stop = threading.Event()
        self._started = time.monotonic()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- provider hooks ------------------------------------------------------------------

    def classify(self, method: str, path: str) -> RequestKind:
        raise NotImplementedError

    def is_streaming(self, path: str, query: Mapping[str, str], body: Any) -> bool:
        return isinstance(body, dict) and body.get("stream") is True

    def aux_reply(self, method: str, path: str, body: Any) -> Reply:
        return self.not_found(path)

    def utility_reply(self, method: str, path: str, body: Any) -> Reply:
        return self.not_found(path)

    def not_found(self, path: str) -> Reply:
        return Reply(404, body={"error": f"no route for {path}"}, label="404")

    def bad_key_reply(self) -> Reply:
        return Reply(401, body={"error": "invalid api key"}, label="401:bad_key")

    def key_refusal(
        self,
        method: str,
        path: str,
        kind: RequestKind,
        headers: Mapping[str, str],
        query: Mapping[str, str],
    ) -> Reply | None:
        """The bad-key answer when ``api_key`` is set and the request needs it but has another."""
        if self.api_key is None:
            return None
        models_list = method == "GET" and path.rstrip("/").endswith("/models")
        if kind not in ("model", "utility") and not models_list:
            return None
        lower = {name.lower(): value for name, value in headers.items()}
        bearer = lower.get("authorization", "").removeprefix("Bearer ").strip()
        presented = (
            lower.get("x-api-key") or lower.get("x-goog-api-key") or query.get("key") or bearer
        )
        return None if presented == self.api_key else self.bad_key_reply()

    # -- lifecycle -----------------------------------------------------------------------

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("server not started")
        port: int = self._httpd.server_address[1]
        return port

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    api_prefix = ""  # what the CLI's base URL ends with ("/v1" for Codex's provider base_url)

    @property
    def base_url(self) -> str:
        """What the CLI is pointed at."""
        return self.url_for_port(self.port)

    @classmethod
    def url_for_port(cls, port: int) -> str:
        """The base URL for ``port`` (also for a port nobody listens on: connection refused)."""
        return f"http://127.0.0.1:{port}{cls.api_prefix}"

    def start(self) -> ScriptedServer:
        handler = _make_handler(self)
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        httpd.daemon_threads = True
        self._httpd = httpd
        self._started = time.monotonic()
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()  # releases hung and stalled handlers
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- what was received ---------------------------------------------------------------

    def model_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.kind == "model"]

    def log_summary(self) -> dict[str, Any]:
        with self._lock:
            requests = list(self.requests)
        statuses: dict[str, int] = {}
        for req in requests:
            if req.kind == "model":
                key = (
                    f"{req.status}:{req.outcome}" if req.outcome != "answered" else str(req.status)
                )
                statuses[key] = statuses.get(key, 0) + 1
        return {
            "requests": len(requests),
            "model_requests": sum(1 for r in requests if r.kind == "model"),
            "model_statuses": statuses,
            "log": [r.summary() for r in requests],
        }

    # -- serving -------------------------------------------------------------------------

    def _next_model_reply(self) -> Reply:
        with self._lock:
            index = min(self._model_calls, len(self.scenario.replies) - 1)
            self._model_calls += 1
        return self.scenario.replies[index]

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            request.index = len(self.requests)
            self.requests.append(request)

    def _reply_for(self, method: str, path: str, kind: RequestKind, body: Any) -> Reply:
        if kind == "model":
            return self._next_model_reply()
        if kind == "utility":
            return self.scenario.utility or self.utility_reply(method, path, body)
        if kind == "aux":
            return self.aux_reply(method, path, body)
        return self.not_found(path)

    def _wait(self, seconds: float) -> bool:
        """Sleep, or return True early when the server is stopping."""
        return self._stop.wait(seconds) if seconds > 0 else self._stop.is_set()


def _make_handler(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "agent-apis"
        sys_version = ""

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the request log is the record

        def do_GET(self) -> None:
            self._serve()

        def do_POST(self) -> None:
            self._serve()

        def do_HEAD(self) -> None:
            self._serve()

        def do_PUT(self) -> None:
            self._serve()

        def do_DELETE(self) -> None:
            self._serve()

        def do_PATCH(self) -> None:
            self._serve()

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            parts = urlsplit(self.path)
            query = dict(parse_qsl(parts.query))
            body: Any = None
            if raw:
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode("utf-8", "replace")
            kind = server.classify(self.command, parts.path)
            streaming = kind in ("model", "utility") and server.is_streaming(
                parts.path, query, body
            )
            record = RecordedRequest(
                index=0,
                at_s=time.monotonic() - server._started,
                method=self.command,
                path=parts.path,
                query=redact_query(query),
                headers=redact_headers(dict(self.headers.items())),
                body=body,
                body_bytes=len(raw),
                kind=kind,
                streaming=streaming,
            )
            server._record(record)
            reply = server.key_refusal(
                self.command, parts.path, kind, dict(self.headers.items()), query
            ) or server._reply_for(self.command, parts.path, kind, body)
            record.label = reply.label
            record.status = reply.status
            try:
                self._send(reply, record)
            except (BrokenPipeError, ConnectionResetError):
                record.outcome = "client_gone"
                self.close_connection = True

        def _send(self, reply: Reply, record: RecordedRequest) -> None:
            if reply.hang or reply.reset:
                record.status = 0  # nothing was answered
            if reply.hang:
                record.outcome = "hung"
                server._wait(3600)
                self.close_connection = True
                return
            if reply.reset:
                record.outcome = "reset"
                self._reset()
                return
            if server._wait(reply.delay_s):
                self.close_connection = True
                return
            if record.streaming and reply.streams:
                self._send_stream(reply, record)
                return
            payload = reply.body
            if payload is None and reply.status == 200 and reply.events:
                payload = {}  # a stream-only reply asked for without streaming: an empty answer
            data = b"" if payload is None else _encode_body(payload)
            self.send_response(reply.status)
            headers = {"content-type": "application/json", **reply.sent_headers()}
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if reply.drop_after is not None or reply.stall_after is not None:
                # The non-streaming form of a cut stream: half the body, then the same fate.
                self.wfile.write(data[: len(data) // 2])
                self.wfile.flush()
                if reply.stall_after is not None:
                    record.outcome = "stalled"
                    server._wait(3600)
                else:
                    record.outcome = "dropped"
                self._drop()
                return
            if self.command != "HEAD":
                self.wfile.write(data)
            self.wfile.flush()

        def _send_stream(self, reply: Reply, record: RecordedRequest) -> None:
            self.send_response(200)
            headers = {
                "content-type": "text/event-stream; charset=utf-8",
                "cache-control": "no-cache",
                **reply.sent_headers(),
            }
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.flush()
            for number, event in enumerate(reply.events):
                if reply.drop_after is not None and number >= reply.drop_after:
                    record.outcome = "dropped"
                    self._drop()
                    return
                if reply.stall_after is not None and number >= reply.stall_after:
                    record.outcome = "stalled"
                    server._wait(3600)
                    self._drop()
                    return
                if number and server._wait(reply.event_gap_s):
                    self._drop()
                    return
                chunk = event.encode()
                self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                self.wfile.flush()
                record.events_sent += 1
            if reply.drop_after is not None:  # dropping after the last event: still no end chunk
                record.outcome = "dropped"
                self._drop()
                return
            if reply.stall_after is not None:  # stalling after the last event: hold it open
                record.outcome = "stalled"
                server._wait(3600)
                self._drop()
                return
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

        def _reset(self) -> None:
            """Abort the connection (RST, not FIN): the client sees ECONNRESET."""
            self.close_connection = True
            try:
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                )
                self.connection.close()
            except OSError:
                pass

        def _drop(self) -> None:
            """Close the connection mid-body: the client sees an incomplete chunked stream."""
            self.close_connection = True
            try:
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    return Handler


def _encode_body(payload: Any) -> bytes:
    if isinstance(payload, bytes):
        return payload
    if isinstance(payload, str):
        return payload.encode()
    return json.dumps(payload).encode()


@contextmanager
def serving(server: ScriptedServer) -> Iterator[ScriptedServer]:
    """``with serving(AnthropicServer(scenario)) as api:`` (same as using the server itself)."""
    server.start()
    try:
        yield server
    finally:
        server.stop()
