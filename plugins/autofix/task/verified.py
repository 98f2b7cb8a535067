"""The verify loop of one task: after each attempt that claims success, run the checks; on a
failed check, resume the agent with the checks' errors, up to ``max_attempts`` verified attempts,
stopping early when two attempts in a row fail with the same errors."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from autofix.audit.events import EventName
from autofix.redact import RedactedLog
from autofix.result import (
    FAILURE_KINDS,
    FailureKind,
    ParseResult,
    format_error_message,
)
from autofix.verification import Verification
from autofix.verify.verifier import Verifier, feedback_text, retry_prompt, stuck

# (prompt, attempt, resume session id) -> the attempt's verdict, validated when a schema is set
AgentCall = Callable[[str, int, str | None], ParseResult]
Record = Callable[[ParseResult], None]
Event = Callable[[EventName, int, dict[str, Any]], None]


def failed_verification(result: ParseResult, verification: Verification) -> ParseResult:
    """The attempt's verdict once a check failed: success was claimed, not verified."""
    status, retry_class = FAILURE_KINDS[FailureKind.VERIFICATION_FAILED]
    return result.model_copy(
        update={
            "success": False,
            "status": status,
            "retry_class": retry_class,
            "failure_kind": FailureKind.VERIFICATION_FAILED,
            "error_message": format_error_message(
                result.operation, [f"verification_failed: {verification.summary()}"]
            ),
        }
    )


@dataclass
class VerifyLoop:
    verifier: Verifier
    max_attempts: int
    abort_on_identical_errors: bool
    resumes: bool  # the agent's CLI can resume a session: feedback alone, no history resent
    log: RedactedLog
    call_again: AgentCall
    record: Record
    event: Event
    verdict: Callable[[ParseResult], None]

    def run(self, first: ParseResult, prompt: str) -> ParseResult:
        """``first`` is the first attempt's verdict (its checks not yet run)."""
        history: list[Verification] = []
        result = first
        while True:
            if not result.success:  # the call itself failed: nothing to verify
                if result is not first:  # the first attempt's failure is recorded already
                    self.record(result)
                    self.verdict(result)
                return result.model_copy(update={"verification": history})
            verification = self.verifier.verify(result, result.attempt)
            self._log(verification)
            name = (
                EventName.VERIFICATION_PASSED
                if verification.passed
                else EventName.VERIFICATION_FAILED
            )
            self.event(name, result.attempt, _event_data(verification))
            if verification.passed:
                history.append(verification)
                result = result.model_copy(update={"verification": [verification]})
                self.record(result)
                self.verdict(result)
                return result.model_copy(update={"verification": history})
            stop = self._stop_reason([*history, verification])
            if stop is None:
                session = result.session_id if self.resumes else None
                verification = verification.model_copy(
                    update={"feedback": feedback_text(verification)}
                )
            history.append(verification)
            failed = failed_verification(result, verification)
            self.record(failed.model_copy(update={"verification": [verification]}))
            if stop is not None:
                self.log.warning("autofix: verification: %s", stop)
                self.verdict(failed)
                return failed.model_copy(update={"verification": history})
            self.log.info(
                "autofix: sent back to the agent (%s):\n%s",
                "resumed session" if session else "new session, with the task again",
                verification.feedback,
            )
            self.event(EventName.RETRY_STARTED, result.attempt + 1, {"retry_for": "verification"})
            self.verifier.before_attempt()
            again = retry_prompt(verification.feedback, prompt, resumed=session is not None)
            result = self.call_again(again, result.attempt + 1, session)

    def _stop_reason(self, history: list[Verification]) -> str | None:
        if self.abort_on_identical_errors and stuck(history):
            last = history[-1]
            return (
                f"attempts {history[-2].attempt} and {last.attempt} failed the same checks with "
                "the same errors; stopping (abort_on_identical_errors)"
            )
        if len(history) >= self.max_attempts:
            return f"{len(history)} of {self.max_attempts} verified attempt(s) used"
        return None

    def _log(self, verification: Verification) -> None:
        lines = [
            f"autofix: verification after attempt {verification.attempt}: "
            + ("PASSED" if verification.passed else "FAILED")
        ]
        for check in verification.checks:
            lines.append(f"  {check.line()} [{check.kind.value}, {check.duration_s:.2f}s]")
            lines += [f"    {error}" for error in check.errors[:5]]
        (self.log.info if verification.passed else self.log.warning)("\n".join(lines))


def _event_data(verification: Verification) -> dict[str, Any]:
    return {
        "checks": {check.name: check.passed for check in verification.checks},
        "failed": [check.name for check in verification.failed],
    }
