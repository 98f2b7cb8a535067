"""A known audit history, shared by the metrics and report tests."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

from autofix.audit.envelope import Envelope, Interaction, InteractionResult, RetryPolicy
from autofix.result import ErrorCategory, FieldError, RetryClass, Status


@contextmanager
def loopback_server(
    on_post: Callable[[BaseHTTPRequestHandler, bytes], int],
) -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 (its base URL); ``on_post(handler, body)`` handles each
    POST and returns the status to answer with."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(on_post(self, body))
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            return None

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def webhook_server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A webhook receiver (``loopback_server``): its URL and the POSTs it received as path and
    JSON body."""
    received: list[dict[str, Any]] = []

    def hook(handler: BaseHTTPRequestHandler, body: bytes) -> int:
        received.append({"path": handler.path, "body": json.loads(body)})
        return 204

    with loopback_server(hook) as base:
        yield f"{base}/hooks/T000/secret-path", received


# Secrets of every shape the redaction knows, planted where text leaves the process.
SECRETS = {
    "anthropic": "sk-ant-api03-Zq8xV1bN2mK3jH4gF5dS6aP7oI8uY9tR",
    "openai": "sk-proj-Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9",
    "github": "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
    "bearer": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "bearer_plain": "AbCdEfGh1234567890tokenValue",
    "url_password": "hunter2-Sup3rS3cret",
    "aws_key_id": "AKIAIOSFODNN7EXAMPLE",
    "aws_secret": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "password_kv": "correct-horse-battery",
}


def planted_secrets() -> str:
    """Every secret of ``SECRETS`` in one text, each in the shape a redaction rule must catch."""
    s = SECRETS
    return (
        f"key {s['anthropic']} and {s['openai']} gh {s['github']}; "
        f"Authorization: Bearer {s['bearer']} / token {s['bearer_plain']}; "
        f"db postgres://admin:{s['url_password']}@db.internal:5432/app; "
        f"aws {s['aws_key_id']} aws_secret_access_key={s['aws_secret']} password={s['password_kv']}"
    )


T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

TM = ErrorCategory.TYPE_MISMATCH
RM = ErrorCategory.REQUIRED_MISSING
PV = ErrorCategory.PATTERN_VIOLATION
RV = ErrorCategory.RANGE_VIOLATION


def attempt(
    trace: str,
    operation: str,
    number: int,
    *,
    errors: tuple[ErrorCategory, ...] = (),
    status: Status | None = None,
    max_attempts: int = 3,
    at: datetime,
    latency_ms: float = 1000.0,
    cost: float = 0.25,
    noise: int = 0,
    rules: tuple[str, ...] = (),
    agent_type: str = "claude",
) -> Interaction:
    """One attempt. No errors and no status: a valid answer."""
    failed = bool(errors) or status is not None
    if status is None:
        status = Status.INVALID_OUTPUT if errors else Status.COMPLETED
    retry_class = RetryClass.NONE
    if failed:
        retry_class = (
            RetryClass.INVALID_OUTPUT if status is Status.INVALID_OUTPUT else RetryClass.PERMANENT
        )
    return Interaction(
        envelope=Envelope(
            trace_id=trace,
            operation=operation,
            agent_type=agent_type,
            model="sonnet",
            instructions=f"{operation} attempt {number}",
            retry_policy=RetryPolicy(max_attempts=max_attempts),
        ),
        result=InteractionResult(
            raw_output="{}",
            validation_passed=not failed,
            validation_errors=[
                FieldError(path=f"$.f{i}", category=category, message="bad")
                for i, category in enumerate(errors)
            ],
            latency_ms=latency_ms,
            input_tokens=100,
            output_tokens=50,
            cost_usd=cost,
            attempt_number=number,
            error=None if not failed else f"[{operation}] {status.value}",
            success=not failed,
            status=status,
            retry_class=retry_class,
            noise_lines=noise,
            matched_rules=list(rules),
        ),
        recorded_at=at,
    )


def known_history() -> list[Interaction]:
    """5 chains, 8 calls at $0.25 each:

    - run-a/fix:    attempt 1 invalid (type, required), attempt 2 valid         -> recovered
    - run-a/lint:   attempt 1 valid (3 noise lines, rule node-deprecation)      -> first-attempt success
    - run-b/fix:    3 invalid attempts (type; type; pattern)                   -> exhausted
    - run-b/review: attempt 1 auth_failed (permanent; 2 noise, rule auth-401)  -> final failure, no retry
    - run-c/fix:    attempt 1 invalid (range), recorded the day before         -> in flight
    """
    m = timedelta(minutes=1)
    return [
        attempt("run-c", "fix", 1, errors=(RV,), at=T0 - timedelta(hours=11)),
        attempt("run-a", "fix", 1, errors=(TM, RM), at=T0),
        attempt("run-a", "fix", 2, at=T0 + m),
        attempt(
            "run-a",
            "lint",
            1,
            max_attempts=1,
            latency_ms=200,
            noise=3,
            rules=("node-deprecation",),
            at=T0 + 2 * m,
        ),
        attempt("run-b", "fix", 1, errors=(TM,), at=T0 + 3 * m),
        attempt("run-b", "fix", 2, errors=(TM,), at=T0 + 4 * m),
        attempt("run-b", "fix", 3, errors=(PV,), at=T0 + 5 * m),
        attempt(
            "run-b",
            "review",
            1,
            status=Status.AUTH_FAILED,
            max_attempts=1,
            latency_ms=5000,
            noise=2,
            rules=("auth-401",),
            agent_type="codex",
            at=T0 + 6 * m,
        ),
    ]
