"""Events (order contract, attempt tree), budgets, and the envelope."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from audit_support import NOW, attempt
from pydantic import ValidationError

from autofix.audit.envelope import (
    MAX_RAW_OUTPUT_CHARS,
    Envelope,
    RetryPolicy,
    interaction_from_parse_result,
)
from autofix.audit.events import EventName, summarize_run
from autofix.audit.recorder import AuditRecorder
from autofix.audit.stores.jsonl import JsonlStore
from autofix.audit.stores.memory import MemoryStore
from autofix.audit.telemetry import NullStats
from autofix.config import BudgetSettings
from autofix.errors import BudgetExhaustedError
from autofix.result import ErrorCategory, FieldError, ParseResult, RetryClass, Status, TokenUsage

RUN = "manual__2026-03-01T10:00:00+00:00"


def _recorder(store: MemoryStore | JsonlStore | None = None, **budgets: float) -> AuditRecorder:
    return AuditRecorder(
        store or MemoryStore(), budgets=BudgetSettings(**budgets), stats=NullStats()
    )


def _retry_run(recorder: AuditRecorder) -> tuple[Envelope, Envelope, Envelope]:
    """fix: attempt 1 fails (type, required), attempt 2 fails (type), attempt 3 passes; committed."""
    first = Envelope(
        trace_id=RUN,
        causation_id="fix_task",
        operation="fix",
        retry_policy=RetryPolicy(max_attempts=3),
    )
    second = first.child("feedback 1")
    third = second.child("feedback 2")
    ev = recorder.event
    ev(EventName.AGENT_STARTED, envelope=first, attempt=1)
    ev(EventName.AGENT_COMPLETED, envelope=first, attempt=1)
    ev(EventName.VALIDATION_STARTED, envelope=first, attempt=1)
    ev(
        EventName.VALIDATION_FAILED,
        envelope=first,
        attempt=1,
        data={"error_categories": ["type_mismatch", "required_missing"]},
    )
    ev(
        EventName.RETRY_STARTED,
        envelope=second,
        attempt=2,
        data={"error_categories": ["type_mismatch", "required_missing"]},
    )
    ev(EventName.AGENT_STARTED, envelope=second, attempt=2)
    ev(EventName.AGENT_COMPLETED, envelope=second, attempt=2)
    ev(
        EventName.RETRY_FAILED,
        envelope=second,
        attempt=2,
        data={"error_categories": ["type_mismatch"]},
    )
    ev(
        EventName.RETRY_STARTED,
        envelope=third,
        attempt=3,
        data={"error_categories": ["type_mismatch"]},
    )
    ev(EventName.AGENT_STARTED, envelope=third, attempt=3)
    ev(EventName.AGENT_COMPLETED, envelope=third, attempt=3)
    ev(EventName.VALIDATION_STARTED, envelope=third, attempt=3)
    ev(EventName.RETRY_PASSED, envelope=third, attempt=3)
    ev(EventName.RESULT_ACCEPTED, envelope=third, attempt=3)
    ev(EventName.FIX_COMMITTED, envelope=third, data={"commit": "abc123"})
    return first, second, third


def test_ordered_events_and_attempt_tree(tmp_path: Path) -> None:
    recorder = _recorder(JsonlStore(tmp_path / "audit.jsonl"))
    first, second, third = _retry_run(recorder)
    summary = recorder.run_summary(RUN)
    assert summary.event_order_violation is False and summary.violations == []
    assert (summary.events, summary.attempts, summary.retries) == (15, 3, 2)
    assert (summary.accepted, summary.rejected, summary.committed) == (1, 0, 1)
    [root] = summary.attempt_tree
    assert (root.envelope_id, root.attempt, root.outcome, root.reasons) == (
        first.envelope_id,
        1,
        "failed",
        [],
    )
    [child] = root.children
    assert (child.envelope_id, child.attempt, child.outcome) == (second.envelope_id, 2, "failed")
    assert child.reasons == ["type_mismatch", "required_missing"]
    [grandchild] = child.children
    assert (grandchild.envelope_id, grandchild.outcome, grandchild.reasons) == (
        third.envelope_id,
        "passed",
        ["type_mismatch"],
    )
    assert [e.name for e in recorder.store.events(RUN)][-1] == "fix.committed"


def test_out_of_order_event_is_recorded_and_flagged(caplog: pytest.LogCaptureFixture) -> None:
    recorder = _recorder()
    envelope = Envelope(trace_id=RUN, operation="fix")
    recorder.event(EventName.AGENT_STARTED, envelope=envelope, attempt=1)
    with caplog.at_level("WARNING", logger="autofix.audit"):
        recorder.event(
            EventName.VALIDATION_PASSED, envelope=envelope, attempt=1
        )  # skipped agent.completed
    recorder.event(EventName.RESULT_ACCEPTED, envelope=envelope, attempt=1)
    events = recorder.store.events(RUN)
    assert [e.name for e in events] == ["agent.started", "validation.passed", "result.accepted"]
    assert "order_violation" in events[1].data
    summary = summarize_run(RUN, events)
    assert summary.event_order_violation is True
    assert summary.violations == [
        "validation.passed after agent.started in fix; expected one of agent.completed"
    ]
    assert "out of order" in caplog.text
    assert summary.model_dump()["event_order_violation"] is True


def test_order_is_checked_per_operation_and_across_processes(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    a = Envelope(trace_id=RUN, operation="fix")
    b = Envelope(trace_id=RUN, operation="lint")
    task1 = _recorder(JsonlStore(path))
    task1.event(EventName.AGENT_STARTED, envelope=a)
    task1.event(EventName.AGENT_STARTED, envelope=b)  # interleaved operations are fine
    task1.event(EventName.AGENT_COMPLETED, envelope=a)
    task1.event(EventName.VALIDATION_STARTED, envelope=a)
    task1.event(EventName.VALIDATION_FAILED, envelope=a)
    # The retry runs as another task, in another process: it learns the chain from the store.
    task2 = _recorder(JsonlStore(path))
    retry = task2.event(EventName.RETRY_STARTED, envelope=a.child("again"), attempt=2)
    assert "order_violation" not in retry.data
    task2.event(EventName.AGENT_COMPLETED, envelope=b)
    assert task2.run_summary(RUN).event_order_violation is False


def test_budget_stops_a_run() -> None:
    store = MemoryStore()
    recorder = _recorder(store, max_cost_per_run_usd=1.0)
    calls = 0
    with pytest.raises(BudgetExhaustedError) as caught:
        while calls < 100:
            recorder.check_budget(RUN)
            store.append(attempt(RUN, "fix", 1, cost=0.3, at=NOW))
            calls += 1
    assert calls == 4
    assert str(caught.value) == (
        f"budget max_cost_per_run_usd=1.00 exhausted: spent $1.20 in 4 calls for run {RUN}"
    )
    assert caught.value.budget == "max_cost_per_run_usd"
    [event] = store.events(RUN)
    assert event.name == "budget.exhausted" and event.data["budget"] == "max_cost_per_run_usd"
    # Another run is not affected by this run's budget.
    recorder.check_budget("other-run")


def test_budget_calls_per_run_and_per_day() -> None:
    store = MemoryStore()
    for n in range(3):
        store.append(attempt("run-1", "fix", 1, cost=0.1, at=datetime.now(UTC)))
        store.append(attempt(f"run-{n + 2}", "fix", 1, cost=0.1, at=datetime.now(UTC)))
    with pytest.raises(
        BudgetExhaustedError,
        match=r"^budget max_calls_per_run=3 exhausted: spent \$0\.30 in 3 calls for run run-1$",
    ):
        _recorder(store, max_calls_per_run=3).check_budget("run-1")
    _recorder(store, max_calls_per_run=4).check_budget("run-1")
    with pytest.raises(
        BudgetExhaustedError,
        match=r"max_calls_per_day=6 exhausted: spent \$0\.60 in 6 calls on \d{4}-\d\d-\d\d \(UTC\)",
    ):
        _recorder(store, max_calls_per_day=6).check_budget("run-9")
    with pytest.raises(BudgetExhaustedError, match=r"max_cost_per_day_usd=0\.50 exhausted"):
        _recorder(store, max_cost_per_day_usd=0.5).check_budget("run-9")
    status = _recorder(store, max_cost_per_day_usd=5).check_budget("run-1")
    assert status.day.calls == 6 and round(status.day.cost_usd, 2) == 0.6


def test_budget_counts_only_today(tmp_path: Path) -> None:
    store = JsonlStore(tmp_path / "audit.jsonl")
    store.append(attempt("run-1", "fix", 1, cost=5.0, at=datetime(2020, 1, 1, tzinfo=UTC)))
    _recorder(store, max_cost_per_day_usd=1.0).check_budget("run-1")
    with pytest.raises(
        BudgetExhaustedError,
        match=r"max_cost_per_run_usd=1\.00 exhausted: spent \$5\.00 in 1 calls",
    ):
        _recorder(store, max_cost_per_run_usd=1.0).check_budget("run-1")


def test_envelope_hash_and_deterministic_mode() -> None:
    one = Envelope(
        trace_id="r1", operation="fix", instructions="do it", temperature=0, deterministic=True
    )
    two = Envelope(
        trace_id="r2", operation="fix", instructions="do it", temperature=0, deterministic=True
    )
    other = Envelope(trace_id="r1", operation="fix", instructions="do it differently")
    assert len(one.envelope_hash) == 16 and int(one.envelope_hash, 16) >= 0
    assert one.envelope_hash == two.envelope_hash  # ids and times are not content
    assert one.envelope_id != two.envelope_id
    assert other.envelope_hash != one.envelope_hash
    with pytest.raises(
        ValidationError, match=r"deterministic mode requires temperature == 0, got 0\.7"
    ):
        Envelope(trace_id="r", operation="fix", temperature=0.7, deterministic=True)
    with pytest.raises(ValidationError, match="deterministic"):
        Envelope(trace_id="r", operation="fix", deterministic=True)
    child = one.child("retry prompt")
    assert child.causation_id == one.envelope_id and child.envelope_id != one.envelope_id
    assert child.instructions == "retry prompt" and child.envelope_hash != one.envelope_hash
    # A stored envelope keeps its hash.
    again = Envelope.model_validate(one.model_dump(mode="json"), context={"stored": True})
    assert again.envelope_hash == one.envelope_hash


def test_interaction_from_parse_result() -> None:
    envelope = Envelope(trace_id=RUN, operation="fix", retry_policy=RetryPolicy(max_attempts=2))
    result = ParseResult(
        success=False,
        status=Status.INVALID_OUTPUT,
        retry_class=RetryClass.INVALID_OUTPUT,
        operation="fix",
        final_text="z" * (MAX_RAW_OUTPUT_CHARS + 100),
        error_message="[fix] 2 validation errors",
        field_errors=[
            FieldError(
                path="$.files[0]", category=ErrorCategory.REQUIRED_MISSING, message="missing"
            )
        ],
        cost_usd=0.04,
        usage=TokenUsage(input_tokens=1200, output_tokens=300, thinking_tokens=50),
        duration_s=2.5,
        noise_lines=4,
        matched_rules=["npm-warn"],
        attempt=1,
    )
    interaction = interaction_from_parse_result(envelope, result)
    r = interaction.result
    assert (r.latency_ms, r.input_tokens, r.output_tokens, r.thinking_tokens) == (
        2500.0,
        1200,
        300,
        50,
    )
    assert (r.success, r.validation_passed, r.status, r.attempt_number) == (
        False,
        False,
        Status.INVALID_OUTPUT,
        1,
    )
    assert r.error_categories == ["required_missing"] and r.error == "[fix] 2 validation errors"
    assert (
        len(r.raw_output) == MAX_RAW_OUTPUT_CHARS
        and r.raw_output_chars == MAX_RAW_OUTPUT_CHARS + 100
    )
    assert len(r.output_hash) == 16
    assert interaction.is_final is False  # attempt 2 of 2 may follow
    recorder = _recorder()
    recorded = recorder.record_attempt(
        envelope.child("again"), result.model_copy(update={"attempt": 2}), latency_ms=10
    )
    assert recorded.is_final is True and recorder.store.recent(1)[0].attempt == 2
