"""OpenTelemetry GenAI spans from the audit recorder: the tree, the attributes, redaction, the
OTLP/HTTP path end to end, and nothing at all when no exporter is configured."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from audit_support import SECRETS, loopback_server, planted_secrets
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode
from pydantic import BaseModel, Field

from autofix.audit.envelope import Envelope, RetryPolicy
from autofix.audit.events import EventName
from autofix.audit.otel import span_sink, spans_wanted
from autofix.audit.otel_spans import OtelSpans, run_trace_id
from autofix.audit.recorder import AuditRecorder
from autofix.audit.stores.memory import MemoryStore
from autofix.audit.telemetry import NullStats
from autofix.config import AuditSettings, AutofixConfig, OtelSettings
from autofix.result import ErrorCategory, FieldError, ParseResult, RetryClass, Status, TokenUsage
from autofix.task.agent_task import AgentTask, AgentTaskSpec, TraceContext

REPO = Path(__file__).resolve().parent.parent
RUN = "scheduled__2026-03-01T10:00:00+00:00"
MODEL = "claude-sonnet-4-5"
ANSWERED_BY = "claude-sonnet-4-5-20250929"
OTEL_VARIABLES = (
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_TRACES_EXPORTER",
    "OTEL_SDK_DISABLED",
)


class _TestConfig(BaseModel):
    test_command: str = Field(min_length=1)
    frameworks: list[str] = Field(min_length=1)


# Attempt 1 leaves out a required field (and echoes a key); the feedback retry answers validly.
SCENARIO = f"""
format: claude
model: {ANSWERED_BY}
steps:
  - attempt: 1
    text: 'Here: {{"test_command": "pytest"}} (used {SECRETS["anthropic"]})'
    usage: {{input_tokens: 1200, output_tokens: 80}}
    cost_usd: 0.0123
  - text: '{{"test_command": "pytest -q", "frameworks": ["pytest"]}}'
    usage: {{input_tokens: 1500, output_tokens: 60}}
    cost_usd: 0.0101
"""


def _provider() -> tuple[TracerProvider, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


def _recorder(provider: TracerProvider, **settings: Any) -> AuditRecorder:
    spans = OtelSpans(OtelSettings(**settings), provider)
    return AuditRecorder(MemoryStore(), stats=NullStats(), spans=spans)


def _run_task(
    tmp_path: Path, recorder: AuditRecorder, task_id: str, scenario: str, **spec: Any
) -> ParseResult:
    state = tmp_path / f"sim-{task_id}"
    task = AgentTask(
        AgentTaskSpec(
            agent="sim",
            model=MODEL,
            agent_options={"scenario": scenario, "state_dir": str(state)},
            **spec,
        ),
        config=AutofixConfig(),
        trace=TraceContext(
            trace_id=RUN,
            causation_id=f"ci.{task_id}#try1",
            dag_id="ci",
            task_id=task_id,
            try_number=1,
        ),
        recorder=recorder,
        log_line=lambda _: None,
    )
    return task.run()


def _everything(span: ReadableSpan) -> str:
    """Every text a span carries to a backend: name, attributes, status, events, links."""
    return json.dumps(
        {
            "name": span.name,
            "attributes": dict(span.attributes or {}),
            "status": span.status.description,
            "events": [(e.name, dict(e.attributes or {})) for e in span.events],
            "links": [dict(link.attributes or {}) for link in span.links],
        },
        default=str,
    )


def test_a_retried_call_is_one_span_with_a_child_per_attempt(tmp_path: Path) -> None:
    scenario = tmp_path / "retry.yaml"
    scenario.write_text(SCENARIO)
    provider, exporter = _provider()
    recorder = _recorder(provider)
    result = _run_task(
        tmp_path,
        recorder,
        "discover",
        str(scenario),
        prompt=f"How are tests run? Answer in JSON. {planted_secrets()}",
        operation="discover_tests",
        output_schema=_TestConfig,
        max_attempts=2,
    )
    assert result.success and result.attempt == 2

    spans = exporter.get_finished_spans()
    assert [s.name for s in spans] == [
        f"chat {MODEL}",
        f"chat {MODEL}",
        "invoke_agent discover_tests",
    ]
    first, second, call = spans
    assert {s.kind for s in spans} == {SpanKind.CLIENT}
    # The tree: the call is a root in its run's trace, each attempt a child of it.
    assert call.parent is None
    assert first.parent is not None and second.parent is not None
    assert first.parent.span_id == second.parent.span_id == call.context.span_id
    records = sorted(recorder.store.by_trace(RUN), key=lambda r: r.attempt)
    assert {s.context.trace_id for s in spans} == {run_trace_id(records[0].envelope)}
    # The retry follows the attempt it retries: a link, as the audit's attempt tree has it.
    assert [link.context.span_id for link in second.links] == [first.context.span_id]
    assert second.attributes["autofix.retry_of"] == records[0].envelope_id
    assert call.start_time == first.start_time and call.end_time >= second.end_time

    a1, a2 = dict(first.attributes or {}), dict(second.attributes or {})
    assert a1["gen_ai.operation.name"] == "chat"
    assert a1["gen_ai.request.model"] == MODEL
    assert a1["gen_ai.response.model"] == ANSWERED_BY
    assert (a1["gen_ai.usage.input_tokens"], a1["gen_ai.usage.output_tokens"]) == (1200, 80)
    assert (a2["gen_ai.usage.input_tokens"], a2["gen_ai.usage.output_tokens"]) == (1500, 60)
    assert a1["gen_ai.provider.name"] == a1["gen_ai.system"] == "sim"
    assert a1["autofix.cost_usd"] == 0.0123 and a2["autofix.cost_usd"] == 0.0101
    assert a1["autofix.attempt"] == 1 and a2["autofix.attempt"] == 2
    assert a2["autofix.strategy"] == "feedback"
    # The failed attempt: verdict, failure kind, retry class, error category, error.type.
    assert a1["autofix.verdict"] == Status.INVALID_OUTPUT
    assert a1["autofix.retry_class"] == RetryClass.INVALID_OUTPUT
    assert a1["autofix.error_category"] == ErrorCategory.REQUIRED_MISSING
    assert a1["error.type"] == records[0].result.failure_kind
    assert first.status.status_code is StatusCode.ERROR
    assert a2["autofix.verdict"] == Status.COMPLETED and "error.type" not in a2
    assert second.status.status_code is StatusCode.OK
    # The call: the final verdict, the attempts and their cost.
    c = dict(call.attributes or {})
    assert c["gen_ai.operation.name"] == "invoke_agent"
    assert c["gen_ai.agent.name"] == "discover_tests"
    assert c["gen_ai.request.model"] == MODEL and c["gen_ai.response.model"] == ANSWERED_BY
    assert c["autofix.verdict"] == Status.COMPLETED and c["autofix.attempts"] == 2
    assert c["autofix.total_cost_usd"] == pytest.approx(0.0224)
    assert (c["autofix.dag_id"], c["autofix.task_id"], c["autofix.run_id"]) == (
        "ci",
        "discover",
        RUN,
    )
    assert call.status.status_code is StatusCode.OK

    # Redacted: the planted secrets reach no span; prompts and outputs are not there by default.
    for span in spans:
        text = _everything(span)
        for name, secret in SECRETS.items():
            assert secret not in text, f"{name} secret leaked into span {span.name}"
        assert "gen_ai.input.messages" not in text and "gen_ai.output.messages" not in text

    # Another task of the same run, on another worker (its own provider): the same trace.
    other_provider, other_exporter = _provider()
    other = _run_task(
        tmp_path,
        _recorder(other_provider),
        "fix",
        "noise_success",
        prompt="fix it",
        operation="fix",
    )
    assert other.success
    other_spans = other_exporter.get_finished_spans()
    assert [s.name for s in other_spans] == [f"chat {MODEL}", "invoke_agent fix"]
    assert {s.context.trace_id for s in other_spans} == {call.context.trace_id}
    assert other_spans[1].context.span_id != call.context.span_id


def _envelope(**fields: Any) -> Envelope:
    values: dict[str, Any] = {
        "trace_id": RUN,
        "dag_id": "ci",
        "task_id": "fix",
        "causation_id": "ci.fix#try1",
        "operation": "fix",
        "agent_id": "claude",
        "agent_type": "claude",
        "model": MODEL,
        "retry_policy": RetryPolicy(max_attempts=2),
    }
    values.update(fields)
    return Envelope(**values)


INVALID = ParseResult(
    success=False,
    status=Status.INVALID_OUTPUT,
    retry_class=RetryClass.INVALID_OUTPUT,
    field_errors=[
        FieldError(path="$.frameworks", category=ErrorCategory.TYPE_MISMATCH, message="a list")
    ],
    usage=TokenUsage(input_tokens=900, output_tokens=40),
    model=ANSWERED_BY,
    cost_usd=0.01,
)
VALID = ParseResult(success=True, status=Status.COMPLETED, model=ANSWERED_BY, cost_usd=0.02)


def _retried_call(recorder: AuditRecorder, prompt: str = "fix it", output: str = "") -> None:
    """A call whose first attempt is invalid and whose retry passes, with its events."""
    first = _envelope(instructions=prompt)
    recorder.event(EventName.AGENT_STARTED, envelope=first, attempt=1)
    recorder.record_attempt(first, INVALID, raw_output=output, latency_ms=1200)
    second = first.child(f"{prompt} (your answer had a type_mismatch)")
    recorder.event(EventName.RETRY_STARTED, envelope=second, attempt=2)
    recorder.record_attempt(
        second, VALID, raw_output='{"ok": true}', latency_ms=800, attempt_number=2
    )
    recorder.event(EventName.RESULT_ACCEPTED, envelope=second, attempt=2)


def test_content_is_captured_only_when_asked_redacted_and_bounded() -> None:
    provider, exporter = _provider()
    recorder = _recorder(provider, capture_content=True, max_content_chars=400)
    planted = planted_secrets()
    _retried_call(
        recorder,
        prompt=f"Fix the build. {planted} " + "context " * 200,
        output=f"done {planted}",
    )
    first = exporter.get_finished_spans()[0]
    prompt = json.loads(str((first.attributes or {})["gen_ai.input.messages"]))
    answer = json.loads(str((first.attributes or {})["gen_ai.output.messages"]))
    assert prompt[0]["role"] == "user" and answer[0]["role"] == "assistant"
    prompt_text = prompt[0]["parts"][0]["content"]
    answer_text = answer[0]["parts"][0]["content"]
    assert prompt_text.startswith("Fix the build.") and len(prompt_text) == 400
    assert "[REDACTED]" in prompt_text and "[REDACTED]" in answer_text
    for span in exporter.get_finished_spans():
        for name, secret in SECRETS.items():
            assert secret not in _everything(span), f"{name} secret leaked into {span.name}"


def test_a_budget_stop_ends_the_open_call_as_budget_exhausted() -> None:
    provider, exporter = _provider()
    recorder = _recorder(provider)
    first = _envelope()
    recorder.record_attempt(first, INVALID, latency_ms=500)
    assert [s.name for s in exporter.get_finished_spans()] == [f"chat {MODEL}"]
    recorder.event(EventName.BUDGET_EXHAUSTED, RUN, operation="fix", data={"budget": "run"})
    call = exporter.get_finished_spans()[-1]
    assert call.name == "invoke_agent fix"
    assert (call.attributes or {})["autofix.verdict"] == "budget_exhausted"
    assert (call.attributes or {})["error.type"] == "budget_exhausted"
    assert call.status.status_code is StatusCode.ERROR


def test_close_ends_a_call_whose_verdict_never_came() -> None:
    provider, exporter = _provider()
    recorder = _recorder(provider)
    recorder.record_attempt(_envelope(), INVALID, latency_ms=500)
    assert isinstance(recorder.spans, OtelSpans)
    recorder.spans.close()  # what the exit hook does when the task died mid-call
    attempt, call = exporter.get_finished_spans()
    assert call.name == "invoke_agent fix" and call.end_time == attempt.end_time
    assert (call.attributes or {})["autofix.verdict"] == Status.INVALID_OUTPUT


def test_a_broken_span_pipeline_never_fails_the_recording(caplog: pytest.LogCaptureFixture) -> None:
    class Broken(SimpleSpanProcessor):
        def on_end(self, span: ReadableSpan) -> None:
            raise RuntimeError("collector library bug")

    provider = TracerProvider()
    provider.add_span_processor(Broken(InMemorySpanExporter()))
    recorder = _recorder(provider)
    with caplog.at_level(logging.WARNING, logger="autofix.audit"):
        _retried_call(recorder)
        _retried_call(recorder)
    assert len(recorder.store.by_trace(RUN)) == 4  # every attempt recorded
    warnings = [r for r in caplog.records if "could not emit a span" in r.getMessage()]
    assert len(warnings) == 1


@pytest.mark.parametrize(
    ("enabled", "environ", "wanted"),
    [
        ("auto", {}, False),
        ("auto", {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, True),
        ("auto", {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"}, True),
        ("auto", {"OTEL_TRACES_EXPORTER": "console"}, True),
        (
            "auto",
            {"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c"},
            False,
        ),
        ("auto", {"OTEL_SDK_DISABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c"}, False),
        (False, {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, False),
        (True, {}, True),
    ],
)
def test_auto_is_on_when_an_exporter_variable_is_set(
    enabled: Any, environ: dict[str, str], wanted: bool
) -> None:
    assert spans_wanted(OtelSettings(enabled=enabled), environ) is wanted


def test_nothing_configured_loads_no_opentelemetry() -> None:
    # A fresh interpreter: this test process has the SDK loaded already.
    script = textwrap.dedent(
        """
        import sys
        from autofix.audit.envelope import Envelope
        from autofix.audit.events import EventName
        from autofix.audit.recorder import AuditRecorder
        from autofix.config import AuditSettings, AutofixConfig
        from autofix.result import ParseResult, Status
        before = {m for m in sys.modules if m.startswith("opentelemetry")}
        recorder = AuditRecorder.from_config(AutofixConfig(audit=AuditSettings(store="memory")))
        envelope = Envelope(trace_id="run", operation="fix")
        recorder.record_attempt(envelope, ParseResult(success=True, status=Status.COMPLETED))
        recorder.event(EventName.RESULT_ACCEPTED, envelope=envelope, attempt=1)
        loaded = sorted(m for m in sys.modules if m.startswith("opentelemetry") and m not in before)
        print(recorder.spans, len(before), loaded)
        """
    )
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "AUTOFIX__"))}
    environ["PYTHONPATH"] = str(REPO / "plugins")
    proc = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
        check=True,
    )
    assert proc.stdout.split() == ["None", "0", "[]"], proc.stdout + proc.stderr


@pytest.fixture
def collector() -> Iterator[tuple[str, list[ExportTraceServiceRequest]]]:
    """A loopback OTLP/HTTP receiver: its base URL and every export request it decoded."""
    received: list[ExportTraceServiceRequest] = []

    def receive(handler: BaseHTTPRequestHandler, body: bytes) -> int:
        assert handler.path == "/v1/traces"
        assert handler.headers["Content-Type"] == "application/x-protobuf"
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        received.append(request)
        return 200

    with loopback_server(receive) as base:
        yield base, received


def _clear_otel_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in OTEL_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def test_the_otlp_endpoint_variable_sends_spans_over_http(
    monkeypatch: pytest.MonkeyPatch, collector: tuple[str, list[ExportTraceServiceRequest]]
) -> None:
    url, received = collector
    _clear_otel_environment(monkeypatch)
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", url)
    recorder = AuditRecorder.from_config(
        AutofixConfig(audit=AuditSettings(store="memory")), stats=NullStats()
    )
    assert isinstance(recorder.spans, OtelSpans)
    try:
        _retried_call(recorder)
        recorder.spans.flush()
    finally:
        recorder.spans.provider.shutdown()

    resource_spans = [rs for request in received for rs in request.resource_spans]
    services = {
        attribute.value.string_value
        for rs in resource_spans
        for attribute in rs.resource.attributes
        if attribute.key == "service.name"
    }
    assert services == {"autofix"}
    spans = [span for rs in resource_spans for ss in rs.scope_spans for span in ss.spans]
    by_name: dict[str, list[Any]] = {}
    for span in spans:
        by_name.setdefault(span.name, []).append(span)
    assert sorted(by_name) == [f"chat {MODEL}", "invoke_agent fix"]
    (call,) = by_name["invoke_agent fix"]
    attempts = by_name[f"chat {MODEL}"]
    assert len(attempts) == 2
    assert {a.parent_span_id for a in attempts} == {call.span_id} and call.parent_span_id == b""
    assert {s.trace_id for s in spans} == {run_trace_id(_envelope()).to_bytes(16, "big")}
    first = {a.key: a.value for a in attempts[0].attributes}
    assert first["gen_ai.provider.name"].string_value == "anthropic"
    assert first["gen_ai.usage.input_tokens"].int_value == 900
    assert first["autofix.error_category"].string_value == "type_mismatch"
    assert first["autofix.cost_usd"].double_value == 0.01


def test_an_unreachable_collector_is_one_warning_and_the_task_goes_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _clear_otel_environment(monkeypatch)
    with HTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler) as closed:
        port = closed.server_port  # nothing listens there once it is closed
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", f"http://127.0.0.1:{port}/v1/traces")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "1")
    sink = span_sink(OtelSettings(service_name="autofix-unreachable"))
    assert isinstance(sink, OtelSpans)
    recorder = AuditRecorder(MemoryStore(), stats=NullStats(), spans=sink)
    with caplog.at_level(logging.DEBUG):
        try:
            _retried_call(recorder)
            sink.flush()
            _retried_call(recorder)
            sink.flush()
        finally:
            sink.provider.shutdown()
    assert len(recorder.store.by_trace(RUN)) == 4
    exports = [r for r in caplog.records if "could not export" in r.getMessage()]
    assert len(exports) == 1 and exports[0].levelno == logging.WARNING
    assert f"127.0.0.1:{port}" in exports[0].getMessage()
    noisy = [r for r in caplog.records if r.name.startswith("opentelemetry.exporter")]
    assert not noisy, [r.getMessage() for r in noisy]
