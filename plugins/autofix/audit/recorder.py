"""AuditRecorder: the one object the operator holds."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from autofix.audit.alert import Notifier, RetryAlert
from autofix.audit.budget import BudgetGuard, BudgetStatus
from autofix.audit.envelope import Envelope, Interaction, interaction_from_parse_result
from autofix.audit.events import AuditEvent, EventName, OrderTracker, RunSummary, summarize_run
from autofix.audit.otel import SpanSink, span_sink
from autofix.audit.stores import build_store
from autofix.audit.stores.base import AuditStore
from autofix.audit.telemetry import (
    StatsSink,
    airflow_stats,
    emit_budget_spend,
    emit_interaction,
    emit_write_failure,
    log_attempt,
)
from autofix.config import AlertSettings, AutofixConfig, BudgetSettings
from autofix.errors import AuditWriteError, BudgetExhaustedError
from autofix.redact import redact
from autofix.result import ParseResult

log = logging.getLogger("autofix.audit")


class AuditRecorder:
    """Records attempts and events, checks budgets, raises the retry alert.

        recorder = AuditRecorder.from_config(load_config())
        envelope_id = recorder.reserve_budget(run_id)            # raises BudgetExhaustedError
        envelope = Envelope(envelope_id=envelope_id, trace_id=run_id, ...)
        recorder.event(EventName.AGENT_STARTED, envelope=envelope, attempt=1)
        recorder.record_attempt(envelope, parse_result, latency_ms=elapsed_ms)  # settles it

    A failed write is a WARNING plus the ``audit_write_failures`` metric, or AuditWriteError
    when ``audit.required`` is true. It is never silent. With ``spans`` (``audit.otel``, an
    OpenTelemetry exporter configured) every attempt and verdict also becomes a span.
    """

    def __init__(
        self,
        store: AuditStore,
        *,
        required: bool = False,
        budgets: BudgetSettings | None = None,
        alert: RetryAlert | None = None,
        stats: StatsSink | None = None,
        spans: SpanSink | None = None,
    ) -> None:
        self.store = store
        self.spans = spans  # None: no exporter configured, no per-call work
        self.required = required
        self.budget = BudgetGuard(store, budgets or BudgetSettings())
        self.alert = alert
        self._stats = stats
        self._order = OrderTracker()
        self._seeded: set[tuple[str, str]] = set()
        self.write_failures = 0

    @classmethod
    def from_config(
        cls,
        config: AutofixConfig,
        *,
        notifier: Notifier | None = None,
        stats: StatsSink | None = None,
    ) -> AuditRecorder:
        """Store, ``required``, budgets and alert from ``config/autofix.yaml``."""
        alert_settings: AlertSettings = config.alert
        return cls(
            build_store(config.audit),
            required=config.audit.required,
            budgets=config.budgets,
            alert=RetryAlert(alert_settings, notifier=notifier) if alert_settings.enabled else None,
            stats=stats,
            spans=span_sink(config.audit.otel),
        )

    @property
    def stats(self) -> StatsSink:
        if self._stats is None:
            self._stats = airflow_stats()
        return self._stats

    # ---- attempts

    def record_attempt(
        self,
        envelope: Envelope,
        result: ParseResult,
        *,
        raw_output: str | None = None,
        latency_ms: float | None = None,
        attempt_number: int | None = None,
    ) -> Interaction:
        """Build the Interaction for this attempt and record it. Returns what was recorded."""
        interaction = interaction_from_parse_result(
            envelope,
            result,
            raw_output=raw_output,
            latency_ms=latency_ms,
            attempt_number=attempt_number,
        )
        self.record(interaction)
        return interaction

    def record(self, interaction: Interaction) -> bool:
        """Append one attempt, log its JSON line, emit metrics, check the alert. True if stored."""
        written = self._write(lambda: self.store.append(interaction), "interaction")
        log_attempt(interaction)
        emit_interaction(interaction, self.stats)
        if self.spans is not None:
            self.spans.attempt(interaction)  # the record is built: its text is redacted
        if written and self.alert is not None and interaction.attempt >= 2:
            try:
                self.alert.check(self.store)
            except Exception:  # the alert must never fail the task
                log.warning("retry alert check failed", exc_info=True)
        return written

    # ---- events

    def event(
        self,
        name: str | EventName,
        trace_id: str | None = None,
        *,
        envelope: Envelope | None = None,
        operation: str | None = None,
        envelope_id: str | None = None,
        parent_id: str | None = None,
        causation_id: str | None = None,
        attempt: int | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> AuditEvent:
        """Record one event. With ``envelope``, ids come from it: trace, operation, the attempt
        (``envelope_id``) and its parent (``causation_id``, the previous attempt on retries)."""
        if envelope is not None:
            trace_id = trace_id or envelope.trace_id
            operation = operation if operation is not None else envelope.operation
            envelope_id = envelope_id or envelope.envelope_id
            parent_id = parent_id or envelope.causation_id
            causation_id = causation_id or envelope.causation_id
        if not trace_id:
            raise ValueError("an audit event needs a trace_id (the DAG run id) or an envelope")
        event = AuditEvent(
            name=str(name),
            trace_id=trace_id,
            operation=operation or "",
            envelope_id=envelope_id,
            parent_id=parent_id,
            causation_id=causation_id,
            attempt=attempt,
            data=dict(data or {}),
        )
        if event.name != EventName.AGENT_STARTED:
            # A chain can start here only with agent.started; anything else continues a chain
            # an earlier task (another process) began, so learn it from the store, once.
            self._seed_order(event)
        self._seeded.add((event.trace_id, event.operation))
        violation = self._order.check(event)
        if violation is not None:
            # Still recorded; the event carries the finding and the run summary flags it.
            log.warning(
                "audit event out of order in run %s: %s", event.trace_id, violation.describe()
            )
            event.data["order_violation"] = violation.describe()
        self._write(lambda: self.store.append_event(event), "event")
        if self.spans is not None:
            self.spans.event(event)  # a verdict ends the call's span
        return event

    def _seed_order(self, event: AuditEvent) -> None:
        key = (event.trace_id, event.operation)
        if key in self._seeded:
            return
        self._seeded.add(key)
        try:
            earlier = [
                e for e in self.store.events(event.trace_id) if e.operation == event.operation
            ]
        except Exception:
            log.debug("could not read earlier events for the order check", exc_info=True)
            return
        for previous in earlier:
            self._order.check(previous)

    def run_summary(self, trace_id: str) -> RunSummary:
        return summarize_run(trace_id, self.store.events(trace_id))

    # ---- budgets

    def check_budget(self, trace_id: str) -> BudgetStatus:
        """Before each agent call. Raises BudgetExhaustedError (map it to AirflowFailException)."""
        return self._counted(trace_id, lambda: self.budget.check(trace_id))

    def reserve_budget(
        self, trace_id: str, *, timeout_s: float | None = None, hostname: str | None = None
    ) -> str:
        """Before each agent call: check the budgets and reserve the call (atomically across
        workers on the SQL store). Returns the envelope id the call must use: appending its
        record settles the reservation. Raises BudgetExhaustedError like ``check_budget``."""
        reserved: list[str] = []

        def reserve() -> BudgetStatus:
            reservation_id, status = self.budget.reserve(
                trace_id, timeout_s=timeout_s, hostname=hostname
            )
            reserved.append(reservation_id)
            return status

        self._counted(trace_id, reserve)
        return reserved[0]

    def _counted(self, trace_id: str, spend: Callable[[], BudgetStatus]) -> BudgetStatus:
        """Run a budget check: an exhausted budget is an event, and the spend a metric."""
        try:
            status = spend()
        except BudgetExhaustedError as exc:
            self._budget_event(trace_id, exc)
            raise
        if self.budget.enabled:
            emit_budget_spend(self.stats, status.run.cost_usd, status.day.cost_usd)
        return status

    def _budget_event(self, trace_id: str, exc: BudgetExhaustedError) -> None:
        self.event(
            EventName.BUDGET_EXHAUSTED,
            trace_id,
            data={
                "budget": exc.budget,
                "limit": exc.limit,
                "calls": exc.calls,
                "cost_usd": exc.cost_usd,
                "tokens": exc.tokens,
            },
        )

    # ---- failure policy

    def _write(self, write: Callable[[], None], what: str) -> bool:
        try:
            write()
        except Exception as exc:
            self.write_failures += 1
            emit_write_failure(self.stats, self.store.describe())
            message = f"audit {what} not written to {self.store.describe()}: {redact(str(exc))}"
            if self.required:
                if isinstance(exc, AuditWriteError):
                    raise
                raise AuditWriteError(message) from exc
            log.warning("%s (audit.required is false, the task goes on)", message)
            return False
        return True
