"""The ordered event contract, the run summary, and the attempt tree rebuilt from events."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from autofix.audit.envelope import new_id, utcnow
from autofix.redact import redact_stored, redact_value

_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$")


class EventName(StrEnum):
    AGENT_STARTED = "agent.started"
    AGENT_COMPLETED = "agent.completed"
    VALIDATION_STARTED = "validation.started"
    VALIDATION_PASSED = "validation.passed"
    VALIDATION_FAILED = "validation.failed"
    RETRY_STARTED = "validation.retry_started"
    RETRY_PASSED = "validation.retry_passed"
    RETRY_FAILED = "validation.retry_failed"
    VERIFICATION_PASSED = "verification.passed"
    VERIFICATION_FAILED = "verification.failed"
    RESULT_ACCEPTED = "result.accepted"
    RESULT_REJECTED = "result.rejected"
    FIX_COMMITTED = "fix.committed"
    BUDGET_EXHAUSTED = "budget.exhausted"


_START = "<start>"
_NEW_CYCLE = frozenset({EventName.AGENT_STARTED})
_VERDICTS = frozenset({EventName.RESULT_ACCEPTED, EventName.RESULT_REJECTED})
_VERIFIED = frozenset({EventName.VERIFICATION_PASSED, EventName.VERIFICATION_FAILED})

# The contract, per chain (one operation within one DAG run):
#   1. agent.started -> agent.completed
#   2. validation.started -> validation.passed | validation.failed
#   3. validation.retry_started -> (the retry's agent call)
#      -> validation.retry_passed | validation.retry_failed
#   4. verification.passed | verification.failed (verify= checks, after a claimed success)
#      -> validation.retry_started on a failed check that is sent back
#   5. result.accepted | result.rejected
#   6. fix.committed
# An event out of order is still recorded; the summary then says event_order_violation: true.
# Names outside the contract (budget.exhausted, alert.fired) are recorded and not ordered.
# previous event -> the events allowed to follow it.
ALLOWED_NEXT: dict[str, frozenset[str]] = {
    _START: _NEW_CYCLE,
    EventName.AGENT_STARTED: frozenset({EventName.AGENT_COMPLETED}),
    EventName.AGENT_COMPLETED: frozenset(
        {
            EventName.VALIDATION_STARTED,
            EventName.RETRY_PASSED,
            EventName.RETRY_FAILED,
            *_VERIFIED,
            *_VERDICTS,
        }
    ),
    EventName.VALIDATION_STARTED: frozenset(
        {
            EventName.VALIDATION_PASSED,
            EventName.VALIDATION_FAILED,
            EventName.RETRY_PASSED,
            EventName.RETRY_FAILED,
        }
    ),
    EventName.VALIDATION_PASSED: _VERIFIED | _VERDICTS,
    EventName.VALIDATION_FAILED: frozenset({EventName.RETRY_STARTED, *_VERDICTS}),
    EventName.RETRY_STARTED: frozenset(
        {EventName.AGENT_STARTED, EventName.RETRY_PASSED, EventName.RETRY_FAILED}
    ),
    EventName.RETRY_PASSED: _VERIFIED | _VERDICTS,
    EventName.VERIFICATION_PASSED: _VERDICTS,
    EventName.VERIFICATION_FAILED: frozenset({EventName.RETRY_STARTED, *_VERDICTS}),
    EventName.RETRY_FAILED: frozenset({EventName.RETRY_STARTED, *_VERDICTS}),
    # A verdict or a commit ends a cycle; an Airflow task retry or a next pass starts another.
    EventName.RESULT_ACCEPTED: frozenset({EventName.FIX_COMMITTED, *_NEW_CYCLE}),
    EventName.RESULT_REJECTED: _NEW_CYCLE,
    EventName.FIX_COMMITTED: _NEW_CYCLE,
}

ORDERED_EVENTS = frozenset(name.value for name in EventName) - {EventName.BUDGET_EXHAUSTED}


class AuditEvent(BaseModel):
    """One event of a run. ``envelope_id`` names the attempt, ``parent_id`` the attempt before it."""

    model_config = ConfigDict(extra="ignore")

    kind: Literal["event"] = "event"
    event_id: str = Field(default_factory=new_id)
    name: str
    trace_id: str
    operation: str = ""
    envelope_id: str | None = None
    parent_id: str | None = None
    causation_id: str | None = None
    attempt: int | None = None
    timestamp: datetime = Field(default_factory=utcnow)
    data: dict[str, Any] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str) -> str:
        if not _NAME_RE.match(value):
            raise ValueError(f"event name {value!r} must look like 'area.what' (lower case, dots)")
        return value

    @field_validator("operation", "causation_id", "parent_id", "envelope_id", "trace_id")
    @classmethod
    def _redact_ids(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None or (info.context and info.context.get("stored")):
            return value
        return redact_stored(value)

    @field_validator("data")
    @classmethod
    def _redact_data(cls, value: dict[str, Any], info: ValidationInfo) -> dict[str, Any]:
        if info.context and info.context.get("stored"):
            return value
        cleaned = redact_value(value)
        return cleaned if isinstance(cleaned, dict) else {}

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> AuditEvent:
        return cls.model_validate(data, context={"stored": True})


class OrderViolation(BaseModel):
    event_id: str
    name: str
    operation: str
    after: str
    expected: list[str]

    def describe(self) -> str:
        return f"{self.name} after {self.after} in {self.operation or '<no operation>'}; expected one of {', '.join(self.expected)}"


class OrderTracker:
    """Checks the contract event by event, one chain per operation."""

    def __init__(self) -> None:
        self._last: dict[tuple[str, str], str] = {}

    def check(self, event: AuditEvent) -> OrderViolation | None:
        if event.name not in ORDERED_EVENTS:
            return None
        key = (event.trace_id, event.operation)
        previous = self._last.get(key, _START)
        self._last[key] = event.name
        allowed = ALLOWED_NEXT.get(previous, frozenset())
        if event.name in allowed:
            return None
        return OrderViolation(
            event_id=event.event_id,
            name=event.name,
            operation=event.operation,
            after=previous,
            expected=sorted(allowed),
        )


class AttemptOutcome(StrEnum):
    """The verdict of an attempt's validation, from its passed or failed event."""

    PASSED = "passed"
    FAILED = "failed"


class AttemptNode(BaseModel):
    """One attempt in a run's tree: which attempt caused it, and why it was retried."""

    envelope_id: str
    operation: str
    attempt: int | None = None
    parent_id: str | None = None
    reasons: list[str] = Field(default_factory=list)  # error categories that caused this retry
    outcome: AttemptOutcome | None = None  # None: no verdict event seen
    children: list[AttemptNode] = Field(default_factory=list)


class RunSummary(BaseModel):
    trace_id: str
    events: int
    event_order_violation: bool
    violations: list[str] = Field(default_factory=list)
    operations: list[str] = Field(default_factory=list)
    attempts: int = 0
    retries: int = 0
    accepted: int = 0
    rejected: int = 0
    committed: int = 0
    attempt_tree: list[AttemptNode] = Field(default_factory=list)


_PASSED = {EventName.VALIDATION_PASSED, EventName.RETRY_PASSED}
_FAILED = {EventName.VALIDATION_FAILED, EventName.RETRY_FAILED}


def _categories(event: AuditEvent) -> list[str]:
    raw = event.data.get("error_categories") or []
    return [str(item) for item in raw] if isinstance(raw, list) else []


def attempt_tree(events: Iterable[AuditEvent]) -> list[AttemptNode]:
    """Rebuild parent attempt → child attempt (and why) from a run's events; returns the roots."""
    nodes: dict[str, AttemptNode] = {}
    failed_with: dict[str, list[str]] = {}
    retry_reasons: dict[str, list[str]] = {}
    for event in events:
        if not event.envelope_id:
            continue
        node = nodes.get(event.envelope_id)
        if node is None:
            node = AttemptNode(envelope_id=event.envelope_id, operation=event.operation)
            nodes[event.envelope_id] = node
        if event.attempt is not None:
            node.attempt = event.attempt
        if event.parent_id and event.parent_id != event.envelope_id:
            node.parent_id = event.parent_id
        if event.name in _PASSED:
            node.outcome = AttemptOutcome.PASSED
        elif event.name in _FAILED:
            node.outcome = AttemptOutcome.FAILED
            failed_with[event.envelope_id] = _categories(event)
        elif event.name == EventName.RETRY_STARTED and _categories(event):
            retry_reasons[event.envelope_id] = _categories(event)
    roots: list[AttemptNode] = []
    for node in nodes.values():
        parent = nodes.get(node.parent_id) if node.parent_id else None
        if parent is None:
            roots.append(node)
            continue
        # Why: what the retry said, else what the parent failed with.
        node.reasons = retry_reasons.get(node.envelope_id) or failed_with.get(
            parent.envelope_id, []
        )
        parent.children.append(node)
    for node in nodes.values():
        node.children.sort(key=lambda child: child.attempt or 0)
    return roots


def summarize_run(trace_id: str, events: Iterable[AuditEvent]) -> RunSummary:
    """Counts, the order check and the attempt tree of one run's events (in recorded order)."""
    ordered = list(events)
    tracker = OrderTracker()
    violations = [v.describe() for e in ordered if (v := tracker.check(e)) is not None]
    names = [event.name for event in ordered]
    return RunSummary(
        trace_id=trace_id,
        events=len(ordered),
        event_order_violation=bool(violations),
        violations=violations,
        operations=list(dict.fromkeys(e.operation for e in ordered if e.operation)),
        attempts=names.count(EventName.AGENT_STARTED),
        retries=names.count(EventName.RETRY_STARTED),
        accepted=names.count(EventName.RESULT_ACCEPTED),
        rejected=names.count(EventName.RESULT_REJECTED),
        committed=names.count(EventName.FIX_COMMITTED),
        attempt_tree=attempt_tree(ordered),
    )
