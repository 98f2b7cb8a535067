"""OpenTelemetry GenAI spans from audit records: a span per agent call, a child per attempt.

Built from the recorded Interaction (so from redacted text only) with its recorded times. An
agent call is the chain of attempts of one operation in one task try: its first attempt starts
it, each later attempt's ``causation_id`` names the attempt before, and the verdict event
(``result.accepted`` / ``result.rejected``) ends it. Every span of one DAG run shares one
trace id, derived from the run, so spans written by different workers join one trace.

Imported only when spans are on (``autofix.audit.otel``): this module needs opentelemetry-sdk.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import logging
import threading
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    ConsoleSpanExporter,
    SpanExporter,
    SpanExportResult,
)
from opentelemetry.sdk.trace.id_generator import IdGenerator
from opentelemetry.trace import Link, Span, SpanContext, SpanKind, StatusCode

from autofix.audit.envelope import Envelope, Interaction, InteractionResult, aware
from autofix.audit.events import AuditEvent, EventName
from autofix.config import OtelSettings
from autofix.redact import redact
from autofix.result import truncate

log = logging.getLogger("autofix.audit")

SCOPE = "autofix.audit"
# The agent format → gen_ai.provider.name (the conventions' well-known values). Another
# format (sim, plain, wrapper) is named by itself, a custom name as the conventions allow.
PROVIDERS = {"claude": "anthropic", "codex": "openai", "gemini": "gcp.gemini", "openai": "openai"}
# Open calls kept at most (a chain whose verdict never came: the task died); the oldest end.
MAX_OPEN_CALLS = 1000
_ENDING_EVENTS = frozenset({EventName.RESULT_ACCEPTED, EventName.RESULT_REJECTED})
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# The OTLP exporters log every failed batch (and every retry) themselves: while autofix's
# exporter runs, their records are dropped and autofix logs one WARNING instead.
_EXPORTER_LOGGERS = (
    "opentelemetry.exporter.otlp.proto.http.trace_exporter",
    "opentelemetry.exporter.otlp.common.http",
    "opentelemetry.exporter.otlp.proto.grpc.exporter",
)


def run_trace_id(envelope: Envelope) -> int:
    """128 bits from the DAG run (its tenant, DAG and run id: a run id alone is not unique across
    DAGs): every worker derives the same trace id for the same run."""
    key = "\x1f".join((envelope.tenant_id, envelope.dag_id or "", envelope.trace_id))
    value = int.from_bytes(hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()[:16])
    return value or 1


def _ns(moment: datetime) -> int:
    return (aware(moment) - _EPOCH) // timedelta(microseconds=1) * 1000


class _RunTraceIds(IdGenerator):
    """The provider's id generator, except that a call span gets its run's trace id."""

    def __init__(self, fallback: IdGenerator) -> None:
        self._fallback = fallback
        self._local = threading.local()

    @contextmanager
    def trace_id(self, value: int) -> Iterator[None]:
        self._local.value = value
        try:
            yield
        finally:
            self._local.value = None

    def _preset(self) -> int | None:
        value: int | None = getattr(self._local, "value", None)
        return value

    def generate_trace_id(self) -> int:
        preset = self._preset()
        return self._fallback.generate_trace_id() if preset is None else preset

    def generate_span_id(self) -> int:
        return self._fallback.generate_span_id()

    def is_trace_id_random(self) -> bool:
        # A derived id is a hash, not random: the W3C random-trace-id flag stays off for it.
        return self._preset() is None and self._fallback.is_trace_id_random()


class _Quiet(logging.Filter):
    """Drops the exporter's own records while autofix's exporter thread is exporting."""

    def __init__(self) -> None:
        super().__init__()
        self.local = threading.local()

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(self.local, "exporting", False)


_quiet = _Quiet()
for _name in _EXPORTER_LOGGERS:
    logging.getLogger(_name).addFilter(_quiet)


class GuardedExporter(SpanExporter):
    """Exports through ``inner``; a failure is one WARNING per exporter, never an exception."""

    def __init__(self, inner: SpanExporter, where: str) -> None:
        self.inner = inner
        self.where = where
        self.failures = 0

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        reason = "the exporter reported a failure"
        _quiet.local.exporting = True
        try:
            result = self.inner.export(spans)
        except Exception as exc:
            result, reason = SpanExportResult.FAILURE, redact(str(exc)) or type(exc).__name__
        finally:
            _quiet.local.exporting = False
        if result is not SpanExportResult.SUCCESS:
            self.failures += 1
            if self.failures == 1:
                log.warning(
                    "audit.otel: could not export %d span(s) to %s (%s); spans are dropped until "
                    "it answers, the task goes on (this is logged once)",
                    len(spans),
                    self.where,
                    reason,
                )
        return result

    def shutdown(self) -> None:
        try:
            self.inner.shutdown()
        except Exception:
            log.debug("OpenTelemetry exporter shutdown failed", exc_info=True)

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        try:
            return bool(self.inner.force_flush(timeout_millis))
        except Exception:
            return False


def _exporter(name: str, protocol: str) -> SpanExporter | None:
    """One ``OTEL_TRACES_EXPORTER`` entry; the OTLP exporters read their own ``OTEL_EXPORTER_OTLP_*``
    variables (endpoint, headers, timeout, certificates)."""
    if name == "console":
        return ConsoleSpanExporter()
    if name != "otlp":
        log.warning(
            "audit.otel: OTEL_TRACES_EXPORTER=%s is not supported (otlp, console or none); "
            "it is skipped",
            name,
        )
        return None
    if protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import (
            OTLPSpanExporter as GrpcExporter,
        )

        return GrpcExporter()
    if protocol != "http/protobuf":
        log.warning(
            "audit.otel: OTLP protocol %r is not supported; spans go as http/protobuf", protocol
        )
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    return OTLPSpanExporter()


def sink_from_environment(
    settings: OtelSettings, exporters: Sequence[str], protocol: str, where: str
) -> OtelSpans | None:
    """A tracer provider of its own (service ``settings.service_name``), one BatchSpanProcessor
    per exporter named; None when none of them could be built."""
    built = [exporter for name in exporters if (exporter := _exporter(name, protocol)) is not None]
    if not built:
        return None
    provider = TracerProvider(resource=Resource.create({"service.name": settings.service_name}))
    for exporter in built:
        provider.add_span_processor(BatchSpanProcessor(GuardedExporter(exporter, where)))
    return OtelSpans(settings, provider)


@dataclass
class _Call:
    """One open agent call: its span, and what its attempts added up to so far."""

    span: Span
    last: Interaction
    attempts: int = 0
    cost_usd: float | None = None
    end_ns: int = 0
    latest: SpanContext | None = None  # the latest attempt's span: the next one links to it

    def add(self, interaction: Interaction, end_ns: int) -> None:
        self.last = interaction
        self.attempts += 1
        self.end_ns = max(self.end_ns, end_ns)
        cost = interaction.result.cost_usd
        if cost is not None:
            self.cost_usd = (self.cost_usd or 0.0) + cost


class OtelSpans:
    """The span sink the recorder feeds. ``provider`` is injectable (tests pass one with an
    in-memory exporter); nothing here ever raises into the task."""

    def __init__(self, settings: OtelSettings, provider: TracerProvider) -> None:
        self.settings = settings
        self.provider = provider
        self.tracer = provider.get_tracer(SCOPE)
        self._ids = self._run_trace_ids(self.tracer)
        self._open: dict[str, _Call] = {}  # by the id of the call's latest attempt
        self._lock = threading.Lock()
        self._failed = False
        # Before the provider's own exit hook (atexit runs the later one first): a call whose
        # verdict never came is still sent.
        atexit.register(_close_at_exit, weakref.ref(self))

    @staticmethod
    def _run_trace_ids(tracer: trace.Tracer) -> _RunTraceIds | None:
        # The SDK's tracer keeps its id generator in a public attribute; another tracer gets
        # random trace ids (each call its own trace).
        current = getattr(tracer, "id_generator", None)
        if isinstance(current, _RunTraceIds):
            return current
        if isinstance(current, IdGenerator):
            wrapped = _RunTraceIds(current)
            tracer.id_generator = wrapped  # type: ignore[attr-defined]
            return wrapped
        return None

    # ---- what the recorder calls

    def attempt(self, interaction: Interaction) -> None:
        self._guarded(lambda: self._attempt(interaction))

    def event(self, event: AuditEvent) -> None:
        if event.name in _ENDING_EVENTS or event.name == EventName.BUDGET_EXHAUSTED:
            self._guarded(lambda: self._event(event))

    def flush(self, timeout_s: float = 10.0) -> None:
        """Send what is queued now (the batch processor sends every few seconds anyway)."""
        self._guarded(lambda: self.provider.force_flush(int(timeout_s * 1000)))

    def close(self) -> None:
        """End every open call (at its last attempt's end) and send everything queued."""
        with self._lock:
            open_calls = list(self._open.values())
            self._open.clear()
        self._guarded(lambda: self._end_all(open_calls, None, None))
        self.flush()

    # ---- the spans

    def _guarded(self, work: Any) -> None:
        try:
            work()
        except Exception:  # spans are an extra: a bug or a broken SDK must not fail the task
            if not self._failed:
                self._failed = True
                log.warning("audit.otel: could not emit a span; the task goes on", exc_info=True)

    def _attempt(self, interaction: Interaction) -> None:
        end_ns = _ns(interaction.recorded_at)
        start_ns = end_ns - int(interaction.result.latency_ms * 1_000_000)
        causation = interaction.envelope.causation_id
        with self._lock:
            call = self._open.pop(interaction.envelope_id, None)  # the same attempt again
            if call is None and causation:
                call = self._open.pop(causation, None)
            if call is None:
                call = self._start_call(interaction, start_ns)
            call.add(interaction, end_ns)
            previous = call.latest
            self._open[interaction.envelope_id] = call
            overflow = list(self._open)[: max(0, len(self._open) - MAX_OPEN_CALLS)]
            abandoned = [self._open.pop(key) for key in overflow]
        call.latest = self._attempt_span(interaction, call.span, previous, (start_ns, end_ns))
        self._end_all(abandoned, None, None)

    def _start_call(self, first: Interaction, start_ns: int) -> _Call:
        env = first.envelope
        attributes = {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": env.operation,
            **_provider(env),
            **_request(env, first.result),
            **_task(env),
        }
        run_ids = self._ids.trace_id(run_trace_id(env)) if self._ids else nullcontext()
        with run_ids:
            span = self.tracer.start_span(
                f"invoke_agent {env.operation}" if env.operation else "invoke_agent",
                # A root span, whatever span the task may have made current.
                context=trace.set_span_in_context(trace.INVALID_SPAN),
                kind=SpanKind.CLIENT,
                attributes=_clean(attributes),
                start_time=start_ns,
            )
        return _Call(span=span, last=first, end_ns=start_ns)

    def _attempt_span(
        self,
        interaction: Interaction,
        parent: Span,
        previous: SpanContext | None,
        times: tuple[int, int],
    ) -> SpanContext:
        """A child of the call's span; a retry links to the attempt it follows (the lineage
        attempt → feedback → next attempt, as the audit's attempt tree has it)."""
        env, result = interaction.envelope, interaction.result
        start, end = times
        model = env.model or result.model
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "chat",
            **_provider(env),
            **_request(env, result),
            "gen_ai.response.model": result.model,
            "gen_ai.conversation.id": result.session_id,
            "gen_ai.response.finish_reasons": [result.finish_reason]
            if result.finish_reason
            else None,
            **_usage(result),
            **_verdict(result),
            "autofix.attempt": result.attempt_number,
            "autofix.strategy": env.context.get("strategy"),
            "autofix.escalated": True if env.context.get("escalated") else None,
            "autofix.cost_usd": result.cost_usd,
            "autofix.cost_source": result.cost_source.value if result.cost_source else None,
            "autofix.envelope_id": env.envelope_id,
            "autofix.retry_of": env.causation_id if previous is not None else None,
            **_task(env),
        }
        if self.settings.capture_content:
            attributes.update(self._content(interaction))
        span = self.tracer.start_span(
            f"chat {model}" if model else "chat",
            context=trace.set_span_in_context(parent),
            kind=SpanKind.CLIENT,
            attributes=_clean(attributes),
            links=[Link(previous, {"autofix.link": "retry_of"})] if previous is not None else (),
            start_time=start,
        )
        _set_status(span, result)
        span.end(end_time=max(start, end))
        return span.get_span_context()

    def _content(self, interaction: Interaction) -> dict[str, str]:
        """The already redacted prompt and answer, bounded (opt-in: ``capture_content``)."""
        limit = self.settings.max_content_chars
        result = interaction.result
        prompt = [
            {
                "role": "user",
                "parts": [
                    {"type": "text", "content": truncate(interaction.envelope.instructions, limit)}
                ],
            }
        ]
        answer = [
            {
                "role": "assistant",
                "parts": [{"type": "text", "content": truncate(result.raw_output, limit)}],
                "finish_reason": result.finish_reason or result.status.value,
            }
        ]
        return {
            "gen_ai.input.messages": json.dumps(prompt, ensure_ascii=False),
            "gen_ai.output.messages": json.dumps(answer, ensure_ascii=False),
        }

    def _event(self, event: AuditEvent) -> None:
        with self._lock:
            if event.name == EventName.BUDGET_EXHAUSTED:
                # The run's budget is spent: none of its open calls gets another attempt.
                keys = [k for k, c in self._open.items() if c.last.trace_id == event.trace_id]
            else:
                keys = [event.envelope_id] if event.envelope_id in self._open else []
            ending = [self._open.pop(key) for key in keys if key is not None]
        stopped = "budget_exhausted" if event.name == EventName.BUDGET_EXHAUSTED else None
        self._end_all(ending, _ns(event.timestamp), stopped)

    def _end_all(self, calls: list[_Call], at_ns: int | None, stopped_by: str | None) -> None:
        for call in calls:
            self._end(call, at_ns, stopped_by)

    def _end(self, call: _Call, at_ns: int | None, stopped_by: str | None) -> None:
        result = call.last.result
        attributes: dict[str, Any] = {
            "gen_ai.response.model": result.model,
            "gen_ai.conversation.id": result.session_id,
            **_verdict(result),
            "autofix.attempts": call.attempts,
            "autofix.total_cost_usd": call.cost_usd,
        }
        if stopped_by is not None:
            attributes.update({"autofix.verdict": stopped_by, "error.type": stopped_by})
        call.span.set_attributes(_clean(attributes))
        _set_status(call.span, result, stopped_by)
        call.span.end(end_time=max(call.end_ns, at_ns or 0))


def _close_at_exit(ref: weakref.ref[OtelSpans]) -> None:
    spans = ref()
    if spans is not None:
        spans.close()


def _provider(env: Envelope) -> dict[str, str]:
    name = env.provider or PROVIDERS.get(env.agent_type) or env.agent_type or "_OTHER"
    # gen_ai.system is the name before the conventions renamed it; older backends read it.
    return {"gen_ai.provider.name": name, "gen_ai.system": name}


def _request(env: Envelope, result: InteractionResult) -> dict[str, Any]:
    return {
        "gen_ai.request.model": env.model or result.model,
        "gen_ai.output.type": "text" if env.response_format == "text" else "json",
        "gen_ai.request.temperature": env.temperature,
        "gen_ai.request.max_tokens": env.budget.max_output_tokens,
        "autofix.agent": env.agent_id or None,
    }


def _usage(result: InteractionResult) -> dict[str, int | None]:
    reported = result.input_tokens or result.output_tokens
    return {
        "gen_ai.usage.input_tokens": result.input_tokens if reported else None,
        "gen_ai.usage.output_tokens": result.output_tokens if reported else None,
        "gen_ai.usage.cache_read.input_tokens": result.cached_input_tokens or None,
        "gen_ai.usage.reasoning.output_tokens": result.thinking_tokens or None,
    }


def _passed(result: InteractionResult) -> bool:
    return result.success and result.validation_passed


def _verdict(result: InteractionResult) -> dict[str, Any]:
    categories = result.error_categories
    kind = result.failure_kind.value if result.failure_kind else None
    return {
        "autofix.verdict": result.status.value,
        "autofix.failure_kind": kind,
        "autofix.retry_class": result.retry_class.value,
        "autofix.error_category": categories[0] if categories else None,
        "autofix.error_categories": categories or None,
        "error.type": None if _passed(result) else (kind or result.status.value),
    }


def _task(env: Envelope) -> dict[str, Any]:
    return {
        "autofix.operation": env.operation,
        "autofix.run_id": env.trace_id,
        "autofix.dag_id": env.dag_id,
        "autofix.task_id": env.task_id,
        "autofix.map_index": env.map_index if env.task_id else None,
        "autofix.try_number": env.try_number,
    }


def _set_status(span: Span, result: InteractionResult, stopped_by: str | None = None) -> None:
    if stopped_by is None and _passed(result):
        span.set_status(StatusCode.OK)
        return
    description = stopped_by or truncate(result.error or result.status.value, 300)
    span.set_status(StatusCode.ERROR, description)


def _clean(attributes: Mapping[str, Any]) -> dict[str, Any]:
    """Without the unknown (None or empty) values: an attribute is there when it means something."""
    return {key: value for key, value in attributes.items() if value is not None and value != ""}
