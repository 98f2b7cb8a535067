"""The bundled client behind ``agent="openai"``: one OpenAI-compatible request, JSON event lines out.

    echo '{"base_url": "http://127.0.0.1:8012/v1", "prompt": "..."}' | python -m autofix.agents.openai.client

It runs as a subprocess of the task (like the CLI agents), so the runner's timeouts, process-group
kills, live log, stderr classifier and audit apply unchanged. The request comes on stdin; the API
key only from the environment (``api_key_env``, default ``OPENAI_API_KEY``), never from argv or stdin.

Events, one JSON object per stdout line:
    {"event": "request", "url": ..., "mode": ..., "try": 1}
    {"event": "retry", "status": 429, "wait_s": 2.0, "reason": ...}     transient, retried here
    {"event": "response", "text": ..., "finish_reason": ..., "usage": {...}, "latency_ms": ...}
    {"event": "error", "kind": "rate_limit", "status": 429, "message": ..., "url": ...}

Transient failures (429, 5xx, connection, timeout) are retried here a bounded number of times,
honouring ``Retry-After``; when they persist the error event says so and the task's own retry
class (transient) takes over.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from email.utils import parsedate_to_datetime
from typing import Any, Literal, TextIO

import httpx

from autofix.agents.openai.grammar import schema_grammar

DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
DEFAULT_TIMEOUT_S = 120.0
DEFAULT_MAX_RETRIES = 2
MAX_RETRY_WAIT_S = 60.0  # a longer Retry-After is left to Airflow's retries
BACKOFF_BASE_S = 1.0
ERROR_BODY_CHARS = 500

Mode = Literal["chat", "completions"]
ConstrainedAs = Literal["json_schema", "json_object", "grammar"]


@dataclass
class ClientRequest:
    """One request as the client understands it (the stdin JSON)."""

    base_url: str
    prompt: str = ""
    messages: list[dict[str, str]] | None = None  # chat history (the ``history`` strategy)
    model: str | None = None
    mode: Mode = "chat"
    temperature: float | None = None
    seed: int | None = None
    max_tokens: int | None = None
    stop: list[str] | None = None
    json_schema: dict[str, Any] | None = None  # sent as response_format when ``constrained``
    constrained: bool = False
    # How the schema travels: "json_schema" (OpenAI, vLLM), "json_object" (llama-cpp-python's
    # chat endpoint: type json_object + schema) or "grammar" (llama.cpp GBNF). None: json_schema
    # for chat, grammar for completions (completions endpoints have no response_format).
    constrained_as: ConstrainedAs | None = None
    # The schema is a hint (the "auto" retry strategy): an endpoint that rejects it (HTTP 400), or
    # a grammar that cannot be built, means the call goes out again without it.
    schema_optional: bool = False
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_retries: int = DEFAULT_MAX_RETRIES
    api_key_env: str = DEFAULT_API_KEY_ENV
    extra_body: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClientRequest:
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown request keys: {', '.join(unknown)}")
        if not data.get("base_url"):
            raise ValueError("base_url is required, e.g. http://127.0.0.1:8012/v1")
        request = cls(**{key: data[key] for key in data if key in known})
        if request.mode not in ("chat", "completions"):
            raise ValueError(f"mode must be 'chat' or 'completions', got {request.mode!r}")
        if request.constrained_as not in (None, "json_schema", "json_object", "grammar"):
            raise ValueError(
                "constrained_as must be 'json_schema', 'json_object' or 'grammar', "
                f"got {request.constrained_as!r}"
            )
        return request

    @property
    def url(self) -> str:
        path = "chat/completions" if self.mode == "chat" else "completions"
        return self.base_url.rstrip("/") + "/" + path

    @property
    def schema_channel(self) -> ConstrainedAs:
        if self.constrained_as is not None:
            return self.constrained_as
        return "json_schema" if self.mode == "chat" else "grammar"

    @property
    def sends_schema(self) -> bool:
        return self.constrained and self.json_schema is not None

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {}
        if self.model:
            body["model"] = self.model
        if self.mode == "chat":
            body["messages"] = self.messages or [{"role": "user", "content": self.prompt}]
        else:
            body["prompt"] = transcript(self.messages) if self.messages else self.prompt
        for key in ("temperature", "seed", "max_tokens", "stop"):
            value = getattr(self, key)
            if value is not None:
                body[key] = value
        if self.sends_schema:
            assert self.json_schema is not None
            if self.schema_channel == "grammar":
                body["grammar"] = schema_grammar(self.json_schema)
            else:
                body["response_format"] = response_format(self.json_schema, self.schema_channel)
        body.update(self.extra_body)
        return body


def transcript(messages: Sequence[Mapping[str, str]]) -> str:
    """A chat history as one completion prompt: the turns in order, answers verbatim."""
    return "".join(str(message.get("content", "")) for message in messages)


def response_format(schema: Mapping[str, Any], kind: str = "json_schema") -> dict[str, Any]:
    """OpenAI's ``json_schema`` response format, or llama-cpp-python's ``json_object`` + schema
    (its server ignores ``json_schema``; it turns ``json_object`` + schema into a grammar)."""
    if kind == "json_object":
        return {"type": "json_object", "schema": dict(schema)}
    return {
        "type": "json_schema",
        "json_schema": {"name": str(schema.get("title") or "output"), "schema": dict(schema)},
    }


# ---------------------------------------------------------------------------- errors


def kind_for_status(status: int) -> str:
    """DESIGN.md's retry classes: 429/5xx transient, 401/403 auth, other 4xx invalid request."""
    if status == 429:
        return "rate_limit"
    if status in (401, 403):
        return "auth"
    if status == 402:
        return "quota_exhausted"  # the provider's credit; never autofix's own budget
    if status == 408:
        return "timeout"
    if status >= 500:
        return "server_error"
    return "invalid_request"


TRANSIENT_KINDS = frozenset({"rate_limit", "server_error", "timeout", "connection"})


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """``Retry-After`` as seconds: delta-seconds or an HTTP date. None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if moment is None:
        return None
    return max(0.0, moment.timestamp() - (time.time() if now is None else now))


def _error_text(response: httpx.Response) -> str:
    try:
        data = response.json()
    except ValueError:
        return response.text[:ERROR_BODY_CHARS]
    if isinstance(data, dict):
        error = data.get("error", data)
        if isinstance(error, dict):
            message = error.get("message") or error.get("detail") or json.dumps(error)
            return str(message)[:ERROR_BODY_CHARS]
        if isinstance(error, str):
            return error[:ERROR_BODY_CHARS]
        detail = data.get("detail")
        if detail is not None:
            return json.dumps(detail)[:ERROR_BODY_CHARS]
    return json.dumps(data)[:ERROR_BODY_CHARS]


# ---------------------------------------------------------------------------- the call


Emit = Callable[[dict[str, Any]], None]


def _answer(request: ClientRequest, data: Mapping[str, Any], latency_ms: float) -> dict[str, Any]:
    choices = data.get("choices")
    first: Mapping[str, Any] = choices[0] if isinstance(choices, list) and choices else {}
    if request.mode == "chat":
        message = first.get("message") or {}
        text = message.get("content") if isinstance(message, Mapping) else None
        refusal = message.get("refusal") if isinstance(message, Mapping) else None
    else:
        text, refusal = first.get("text"), None
    raw_usage = data.get("usage")
    usage: Mapping[str, Any] = raw_usage if isinstance(raw_usage, Mapping) else {}
    return {
        "event": "response",
        "text": text if isinstance(text, str) else "",
        "refusal": refusal if isinstance(refusal, str) and refusal else None,
        "finish_reason": first.get("finish_reason"),
        "usage": {
            "prompt_tokens": usage.get("prompt_tokens") or 0,
            "completion_tokens": usage.get("completion_tokens") or 0,
        },
        "model": data.get("model") or request.model,
        "id": data.get("id"),
        "latency_ms": round(latency_ms, 1),
        "constrained": request.sends_schema,
    }


def call(
    request: ClientRequest,
    emit: Emit,
    *,
    environ: Mapping[str, str] | None = None,
    client: httpx.Client | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> dict[str, Any]:
    """Send the request, retrying transient failures; emit every event; return the last one.

    With ``schema_optional``, a schema the endpoint rejects (HTTP 400) or that cannot be turned
    into a grammar is dropped and the request goes out once more without it (a ``note`` event).
    """
    last = _send(request, emit, environ=environ, client=client, sleep=sleep)
    rejected = last.get("event") == "error" and (
        last.get("status") == 400 or last.get("stage") == "body"
    )
    if request.sends_schema and request.schema_optional and rejected:
        emit(
            {
                "event": "note",
                "message": f"the schema was not usable ({last.get('message')}); "
                "sending the request without it",
            }
        )
        plain = replace(request, constrained=False)
        last = _send(plain, emit, environ=environ, client=client, sleep=sleep)
    if last.get("event") == "error":
        emit(last)
    return last


def _send(
    request: ClientRequest,
    emit: Emit,
    *,
    environ: Mapping[str, str] | None,
    client: httpx.Client | None,
    sleep: Callable[[float], None],
) -> dict[str, Any]:
    """One request with its transient retries; the final error is returned, not emitted."""
    env = os.environ if environ is None else environ
    headers = {"Content-Type": "application/json"}
    key = env.get(request.api_key_env, "")
    if key:
        headers["Authorization"] = f"Bearer {key}"
    try:
        body = request.body()
    except ValueError as exc:
        return {
            "event": "error",
            "kind": "invalid_request",
            "stage": "body",
            "message": f"bad request: {exc}",
        }
    owned = client is None
    http = client or httpx.Client(timeout=httpx.Timeout(request.timeout_s, connect=10.0))
    last: dict[str, Any] = {}
    try:
        for attempt in range(1, request.max_retries + 2):
            emit({"event": "request", "url": request.url, "mode": request.mode, "try": attempt})
            started = time.monotonic()
            wait: float | None = None
            try:
                response = http.post(request.url, json=body, headers=headers)
            except httpx.ConnectError as exc:
                last = {
                    "event": "error",
                    "kind": "connection",
                    "url": request.url,
                    "message": f"connection refused: no OpenAI-compatible server answers at "
                    f"{request.base_url} ({exc.__class__.__name__}: {exc}); is it running?",
                }
            except httpx.TimeoutException as exc:
                last = {
                    "event": "error",
                    "kind": "timeout",
                    "url": request.url,
                    "message": f"request to {request.url} timed out after {request.timeout_s:g}s "
                    f"({exc.__class__.__name__})",
                }
            except httpx.HTTPError as exc:
                last = {
                    "event": "error",
                    "kind": "connection",
                    "url": request.url,
                    "message": f"network error talking to {request.url}: {exc.__class__.__name__}: {exc}",
                }
            else:
                latency_ms = (time.monotonic() - started) * 1000
                if response.status_code < 400:
                    try:
                        data = response.json()
                    except ValueError:
                        data = None
                    if isinstance(data, dict):
                        last = _answer(request, data, latency_ms)
                        emit(last)
                        return last
                    last = {
                        "event": "error",
                        "kind": "api_error",
                        "status": response.status_code,
                        "url": request.url,
                        "message": f"{request.url} answered {response.status_code} without a JSON body",
                    }
                    return last
                kind = kind_for_status(response.status_code)
                wait = retry_after_seconds(response.headers.get("retry-after"))
                last = {
                    "event": "error",
                    "kind": kind,
                    "status": response.status_code,
                    "url": request.url,
                    "retry_after_s": wait,
                    "message": f"HTTP {response.status_code} from {request.url}: {_error_text(response)}",
                }
            if last["kind"] not in TRANSIENT_KINDS or attempt > request.max_retries:
                break
            if wait is None:
                wait = BACKOFF_BASE_S * 2 ** (attempt - 1) * (1 + random.random() / 4)
            if wait > MAX_RETRY_WAIT_S:
                last["message"] += f" (Retry-After {wait:g}s is longer than {MAX_RETRY_WAIT_S:g}s)"
                break
            emit(
                {
                    "event": "retry",
                    "kind": last["kind"],
                    "status": last.get("status"),
                    "wait_s": round(wait, 3),
                    "reason": last["message"],
                }
            )
            sleep(wait)
        if last.get("kind") in TRANSIENT_KINDS:
            last["tries"] = request.max_retries + 1 if attempt > request.max_retries else attempt
        return last
    finally:
        if owned:
            http.close()


def main(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Read one request from stdin, print events; exit 0 when an answer came back, else 1."""
    source = stdin or sys.stdin
    sink = stdout or sys.stdout

    def emit(event: dict[str, Any]) -> None:
        sink.write(json.dumps(event, ensure_ascii=False) + "\n")
        sink.flush()

    try:
        request = ClientRequest.from_json(json.loads(source.read() or "{}"))
    except (ValueError, TypeError) as exc:
        emit({"event": "error", "kind": "invalid_request", "message": f"bad request: {exc}"})
        return 1
    last = call(request, emit)
    return 0 if last.get("event") == "response" else 1


if __name__ == "__main__":
    sys.exit(main())
