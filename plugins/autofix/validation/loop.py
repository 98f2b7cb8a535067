"""The in-task attempt loop: call, validate, record, and ask the policy what next."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel

from autofix.result import RetryStrategy, Status
from autofix.validation.decoding import DecodingSchemas
from autofix.validation.failure_report import write_failure_report
from autofix.validation.policy import Action, AttemptPolicy, AttemptRequest, Decision, ResumeMode
from autofix.validation.records import AttemptRecord, DecisionReason, ValidationRun
from autofix.validation.reply import coerce_reply
from autofix.validation.strategies import arm
from autofix.validation.validator import OutputValidator

log = logging.getLogger("autofix.validation")

AgentCall = Callable[[AttemptRequest], object]
OnAttempt = Callable[[AttemptRecord], None]


@dataclass
class AttemptLoop:
    """Runs attempts until the policy says stop. Never raises for invalid output.

    ``call`` gets an AttemptRequest and returns the reply (str, LLMReply, AgentOutcome,
    ...). Exceptions from ``call`` propagate: transient agent errors belong to the
    caller's own retry mechanism (Airflow ``retries``). ``resume``: see ResumeMode.
    """

    validator: OutputValidator
    policy: AttemptPolicy = field(default_factory=AttemptPolicy)
    operation: str = ""
    run_id: str | None = None
    resume: ResumeMode = ResumeMode.NEVER
    on_attempt: OnAttempt | None = None
    sleep: Callable[[float], None] = time.sleep
    write_report: bool = True

    def run(self, prompt: str, call: AgentCall) -> ValidationRun[BaseModel]:
        run_id = self.run_id or datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        history: list[AttemptRecord] = []
        decoding = DecodingSchemas.of(self.validator.model, self.validator.semantic_validators)
        request = self.policy.first_request(prompt, decoding)
        label = f"[{self.operation}] " if self.operation else ""
        while True:
            started = time.monotonic()
            reply = coerce_reply(call(request))
            outcome = self.validator.validate_reply(reply)
            record = AttemptRecord(
                attempt=request.attempt,
                prompt=request.prompt,
                mode=request.mode,
                outcome=outcome,
                escalated=request.escalated,
                usage=reply.usage,
                cost_usd=reply.cost_usd,
                session_id=reply.session_id,
                duration_s=time.monotonic() - started,
                reply=reply,
            )
            history.append(record)
            log.info(
                "%scall %d/%d (%s%s): %s%s",
                label,
                record.attempt,
                request.max_attempts,
                record.mode,
                ", escalated" if record.escalated else "",
                outcome.summary(),
                f"; repairs: {', '.join(outcome.repairs)}" if outcome.repairs else "",
            )
            for warning in outcome.warnings:
                log.warning("%scall %d: %s", label, record.attempt, warning)
            if self.on_attempt is not None:
                self.on_attempt(record)
            decision = self.policy.decide(history)
            if decision.action is Action.ACCEPT:
                return ValidationRun(
                    outcome.value, tuple(history), Status.COMPLETED, DecisionReason.VALID
                )
            if decision.action is Action.STOP:
                return self._stop(prompt, history, decision, run_id, label)
            request = self._next_request(prompt, history, decision, label, decoding)
            if self.policy.retry_delay_seconds > 0:
                self.sleep(self.policy.retry_delay_seconds)

    def _next_request(
        self,
        prompt: str,
        history: list[AttemptRecord],
        decision: Decision,
        label: str,
        decoding: DecodingSchemas,
    ) -> AttemptRequest:
        if decision.action is Action.ESCALATE and self.policy.escalation is not None:
            log.warning("%s%s", label, decision.message)
        request = self.policy.next_request(
            prompt,
            history,
            decision,
            resume=self.resume,
            model=self.validator.model,
            payload_format=self.validator.payload_label,
            decoding=decoding,
        )
        if self.policy.strategy not in (RetryStrategy.FEEDBACK, RetryStrategy.AUTO):
            log.info(
                "%scall %d: strategy %s for %s",
                label,
                request.attempt,
                arm(request.strategy, request.constrained),
                request.retry_for,
            )
        return request

    def _stop(
        self, prompt: str, history: list[AttemptRecord], decision: Decision, run_id: str, label: str
    ) -> ValidationRun[BaseModel]:
        if decision.reason is DecisionReason.IDENTICAL_ERRORS:
            log.warning("%s%s (abort_on_identical_errors)", label, decision.message)
        else:
            log.warning("%sgiving up: %s: %s", label, decision.reason, decision.message)
        report: Path | None = None
        if self.write_report:
            try:
                report = write_failure_report(
                    self.policy.report_dir,
                    run=run_id,
                    operation=self.operation,
                    original_prompt=prompt,
                    attempts=history,
                    final_status=decision.status,
                    reason=decision.reason,
                )
                log.info("%sfailure report: %s", label, report)
            except OSError as exc:  # the report must never hide the validation failure itself
                log.warning("%scould not write the failure report: %s", label, exc)
        return ValidationRun(None, tuple(history), decision.status, decision.reason, report)
