"""One agent task end to end, without Airflow: run the agent, parse, validate, audit.

The operators are thin shells around :class:`AgentTask`; the benchmark and the tests drive it
directly too. Each attempt goes: AgentFormat.command → AttemptRunner (process, live log, event
parser, classifiers, ResponseParser) → optional validation → audit record + events.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from autofix.agents.base import AgentFormat, AgentRequest, AttemptOptions
from autofix.agents.limits import AgentLimits
from autofix.agents.registry import get_format
from autofix.agents.watch import WatchSettings
from autofix.audit.envelope import Envelope, RetryPolicy, new_id
from autofix.audit.events import EventName
from autofix.audit.recorder import AuditRecorder
from autofix.config import AutofixConfig
from autofix.errors import AutofixError, BudgetExhaustedError
from autofix.hosting import bridge_airflow_masker
from autofix.parser import ResponseParser
from autofix.pricing import PricedCall, Pricer, requested_model
from autofix.redact import (
    RedactedLog,
    register_environment,
    register_secrets,
    secret_env_values,
)
from autofix.result import (
    FailureKind,
    FinishReason,
    ParseResult,
    RetryClass,
    Status,
    format_error_message,
)
from autofix.task.attempt import AttemptRunner, LogLine
from autofix.task.spec import (
    AgentTaskSpec,
    TraceContext,
    attempt_policy,
    project_cli,
)
from autofix.task.verified import VerifyLoop
from autofix.validation.decoding import DecodingSchemas
from autofix.validation.escalation import Escalation
from autofix.validation.loop import AttemptLoop
from autofix.validation.outcome import ValidationOutcome
from autofix.validation.policy import AttemptPolicy, AttemptRequest, ResumeMode
from autofix.validation.records import AttemptRecord, ValidationRun
from autofix.validation.reply import LLMReply
from autofix.validation.schema import resolve_schema
from autofix.validation.validator import OutputValidator
from autofix.verify.checks import as_checks
from autofix.verify.verifier import Verifier


class AgentCallError(AutofixError):
    """An attempt failed for a reason validation cannot fix (transient, permanent, crash)."""

    def __init__(self, result: ParseResult) -> None:
        super().__init__(result.error_message or result.status.value)
        self.result = result


def _answerable(result: ParseResult) -> bool:
    """The agent answered (validly or not, or refused): validation decides what happens next."""
    return (
        result.success
        or result.retry_class is RetryClass.INVALID_OUTPUT
        or result.status is Status.REFUSED
    )


@dataclass(frozen=True, kw_only=True)
class _AgentReply(LLMReply):
    """An agent's answer plus the parser's verdict on the call that produced it."""

    result: ParseResult


def _reply_from(result: ParseResult) -> _AgentReply:
    refused = result.status is Status.REFUSED
    return _AgentReply(
        text=result.final_text or "",
        finish_reason=FinishReason.REFUSAL if refused else result.finish_reason,
        structured_output=result.data,
        session_id=result.session_id,
        usage=result.usage,
        cost_usd=result.cost_usd,
        result=result,
    )


def _call_result(record: AttemptRecord) -> ParseResult:
    """The parser's verdict behind an attempt of the validation loop."""
    if not isinstance(record.reply, _AgentReply):
        raise TypeError(f"call {record.attempt} was not answered by this task's agent")
    return record.reply.result


class AgentTask:
    """Runs one agent task: a single call, or a validated loop when a schema is given."""

    def __init__(
        self,
        spec: AgentTaskSpec,
        *,
        config: AutofixConfig,
        trace: TraceContext,
        recorder: AuditRecorder | None = None,
        parser: ResponseParser | None = None,
        log: logging.Logger | None = None,
        log_line: LogLine | None = None,
        raw_dir: Path | None = None,
        verify_context: Any = None,
    ) -> None:
        self.spec = spec
        self.verify_context = verify_context  # what a verify= callable gets (Airflow's context)
        self._verifying = False  # a claimed success is recorded after its checks, not before
        self.config = config
        self.trace = trace
        self.recorder = recorder
        self.parser = parser or ResponseParser(spec.patterns)
        # Every secret this task knows, before anything is logged: the task's env, the
        # worker's own (it may have changed since this process started), Airflow's masker.
        register_secrets(secret_env_values(spec.env))
        register_environment()
        bridge_airflow_masker()
        self.log = RedactedLog(log or logging.getLogger("autofix.task"))
        self.format: AgentFormat = get_format(spec.agent)
        agents = config.agents
        watch = WatchSettings(agents.early_stop_hopeless_after, agents.early_stop_repeated_after)
        self.attempts = AttemptRunner(
            spec, self.parser, self.log, log_line or self.log.info, watch=watch, raw_dir=raw_dir
        )
        self.pricer = Pricer(config.prices)
        self.calls: list[ParseResult] = []  # every agent call's own verdict, in order
        self._last_envelope: Envelope | None = None
        self._reserved_id: str | None = None  # the budget reservation the next envelope settles
        self._base_policy: AttemptPolicy | None = None

    # -- control ------------------------------------------------------------------------

    def kill(self) -> None:
        """Stop the running agent (process group); safe from another thread."""
        self.attempts.kill()

    # -- one attempt --------------------------------------------------------------------

    def _envelope(
        self,
        prompt: str,
        attempt: int,
        schema: type[BaseModel] | None,
        model: str | None,
        strategy: AttemptOptions,
        escalation: Escalation | None = None,
    ) -> Envelope:
        previous = self._last_envelope
        causation = previous.envelope_id if previous is not None else self.trace.causation_id
        reserved, self._reserved_id = self._reserved_id, None
        envelope = Envelope(
            envelope_id=reserved or new_id(),
            hostname=self.trace.hostname,
            dag_id=self.trace.dag_id,
            task_id=self.trace.task_id,
            map_index=self.trace.map_index,
            try_number=self.trace.try_number,
            trace_id=self.trace.trace_id,
            causation_id=causation,
            tenant_id=self.trace.tenant_id,
            operation=self.spec.operation or "agent_call",
            agent_id=(escalation.agent if escalation and escalation.agent else self.spec.agent),
            agent_type=self.format.name,
            model=model,
            instructions=prompt,
            context={
                "cwd": self.spec.cwd or "",
                "attempt": attempt,
                **strategy.audit_context(),
                **({"escalated": True} if escalation is not None else {}),
            },
            expected_output_schema=schema.model_json_schema() if schema is not None else None,
            response_format="json_schema" if schema is not None else "text",
            retry_policy=RetryPolicy(max_attempts=self._policy().allowed_attempts),
        )
        self._last_envelope = envelope
        return envelope

    def call_once(
        self,
        prompt: str,
        *,
        attempt: int = 1,
        resume_session_id: str | None = None,
        schema: type[BaseModel] | None = None,
        strategy: AttemptOptions | None = None,
        escalation: Escalation | None = None,
    ) -> ParseResult:
        """Run the agent once and return the parser's verdict (validation is not applied).

        ``strategy`` (seed offset, messages, constrained) is what the retry strategy asks of this
        attempt. ``escalation`` may switch the agent or the model for this one call."""
        spec = self.spec
        operation = spec.operation
        exhausted = self._budget_exhausted()
        if exhausted is not None:
            return exhausted
        strategy = strategy or AttemptOptions()
        agent_format, command, options = self.format, spec.command, spec.agent_options
        limits = spec.limits
        if command is None:
            command = project_cli(agent_format, spec.env, spec.agent_clis_dir)
        if escalation is not None and escalation.agent and escalation.agent != spec.agent:
            # Another agent: this task's options belong to its own agent's format.
            agent_format, command, options = get_format(escalation.agent), None, {}
            limits = self._limits_for(agent_format)
        model = (escalation.model if escalation is not None else None) or spec.model
        envelope = (
            self._envelope(prompt, attempt, schema, model, strategy, escalation)
            if self.recorder
            else None
        )
        if self.recorder is not None and envelope is not None:
            self.recorder.event(EventName.AGENT_STARTED, envelope=envelope, attempt=attempt)
        request = AgentRequest(
            prompt=prompt,
            resume_session_id=resume_session_id,
            model=model,
            output_schema=schema.model_json_schema() if schema is not None else None,
            limits=limits,
            operation=operation,
            options=options,
            attempt=strategy,
            task_env=spec.env,
            cwd=spec.cwd,
        )
        started = time.monotonic()
        result = self.attempts.run(request, attempt, agent_format, command)
        result = result.model_copy(
            update={
                "duration_s": round(time.monotonic() - started, 3),
                "agent": spec.agent,
                "attempt": attempt,
            }
        )
        result = self._priced(result, agent_format, model, command, options)
        self.calls.append(result)
        if self.recorder is not None and envelope is not None:
            self.recorder.event(
                EventName.AGENT_COMPLETED,
                envelope=envelope,
                attempt=attempt,
                data={"status": result.status.value, "exit_code": result.exit_code},
            )
        return result

    def _limits_for(self, agent_format: AgentFormat) -> AgentLimits:
        """The task's limits an escalation agent takes; the rest are named in the log."""
        kept = self.spec.limits.only(agent_format.limit_support.options)
        dropped = [name for name in self.spec.limits.given() if name not in kept.given()]
        if dropped:
            self.log.warning(
                "autofix: escalating to %s, which does not take %s: not applied to this call",
                agent_format.name,
                ", ".join(dropped),
            )
        return kept

    def _priced(
        self,
        result: ParseResult,
        agent_format: AgentFormat,
        model: str | None,
        command: list[str] | None,
        options: dict[str, Any],
    ) -> ParseResult:
        """The call's model and cost (autofix.pricing): the CLI's figure, else its tokens priced."""
        # The sim agent is priced as the CLI it imitates (set when its command was built).
        output_format = getattr(agent_format, "output_format", None) or agent_format.name
        api_url = None
        if agent_format.name == "openai":
            # Here, not at import: the OpenAI format loads httpx, which other agents never need.
            from autofix.agents.openai.format import base_url_from

            api_url = base_url_from(options, {**os.environ, **self.spec.env})
        option_model = options.get("model")  # agent="openai" and "wrapper" take one there
        asked = model or (str(option_model) if option_model else None)
        call = PricedCall(
            output_format,
            requested_model(output_format, asked, command, self.spec.env),
            api_url=api_url,
        )
        return self.pricer.price_result(result, call)

    def _budget_exhausted(self) -> ParseResult | None:
        """Checked before every call, so a loop inside one task cannot overspend either."""
        if self.recorder is None:
            return None
        try:
            self._reserved_id = self.recorder.reserve_budget(
                self.trace.trace_id, timeout_s=self.spec.timeout, hostname=self.trace.hostname
            )
        except BudgetExhaustedError as exc:
            # The call never runs: no interaction is recorded, only the budget event.
            self._last_envelope = None
            self.recorder.event(
                EventName.BUDGET_EXHAUSTED,
                self.trace.trace_id,
                operation=self.spec.operation,
                data={"message": str(exc)},
            )
            return ParseResult(
                success=False,
                status=Status.BUDGET_EXHAUSTED,
                operation=self.spec.operation,
                retry_class=RetryClass.PERMANENT,
                failure_kind=FailureKind.BUDGET_EXHAUSTED,  # the only place this kind is made
                error_message=format_error_message(
                    self.spec.operation, [f"budget_exhausted: {exc}"]
                ),
                agent=self.spec.agent,
            )
        return None

    def _record(self, result: ParseResult) -> None:
        """One audit record per attempt, with the final (validated, verified) verdict."""
        if not (self._verifying and result.success):
            self._write_record(result)

    def _write_record(self, result: ParseResult) -> None:
        if self.recorder is None or self._last_envelope is None:
            return
        self.recorder.record_attempt(
            self._last_envelope,
            result,
            raw_output=result.final_text,
            latency_ms=(result.duration_s or 0) * 1000,
            attempt_number=result.attempt,
        )

    # -- the task -----------------------------------------------------------------------

    def _policy(self) -> AttemptPolicy:
        # Built once per task: the adaptive strategy reads the whole audit store to build it.
        if self._base_policy is None:
            self._base_policy = attempt_policy(self.spec, self.config, self.format, self.recorder)
        return self._base_policy

    @property
    def _resume_mode(self) -> ResumeMode:
        return ResumeMode.WITH_SESSION_ID if self.format.supports_resume else ResumeMode.NEVER

    def _validator(self, schema: type[BaseModel]) -> OutputValidator:
        return OutputValidator(schema, strict_repairs=self.config.validation.strict_repairs)

    def _attempt_options(self, request: AttemptRequest) -> AttemptOptions:
        """What the retry strategy asks of the agent for this attempt."""
        return AttemptOptions(
            strategy=request.strategy,
            retry_for=request.retry_for,
            seed_offset=request.seed_offset,
            messages=request.messages,
            # Always set: the strategy's choice overrides the agent's own default.
            constrained=request.constrained,
            schema_optional=request.constrained and self._policy().schema_optional,
            schema=request.schema,
        )

    def run(self) -> ParseResult:
        """One call, or the validated attempt loop when ``output_schema`` is set; then the
        ``verify`` checks, the agent resumed with their errors while one fails."""
        if not self.spec.verify:
            return self._run_unverified()
        verifier = Verifier(
            as_checks(self.spec.verify), self.spec.cwd, self.verify_context, self.parser
        )
        verifier.begin()
        policy = self._policy()
        loop = VerifyLoop(
            verifier,
            max_attempts=policy.allowed_attempts,
            abort_on_identical_errors=policy.abort_on_identical_errors,
            resumes=self.format.supports_resume,
            log=self.log,
            call_again=self._call_again,
            record=self._write_record,
            event=self._validation_event,
            verdict=self._emit_verdict,
        )
        self._verifying = True
        try:
            first = self._run_unverified()
            result = loop.run(first, self.spec.prompt)
        finally:
            self._verifying = False
        return self._summed(result.model_copy(update={"attempts": result.attempt}))

    def _call_again(self, prompt: str, attempt: int, session: str | None) -> ParseResult:
        """A verify retry: one call, its answer validated once when a schema is set."""
        schema = resolve_schema(self.spec.output_schema) if self.spec.output_schema else None
        result = self.call_once(prompt, attempt=attempt, resume_session_id=session, schema=schema)
        if schema is None or not _answerable(result):
            return result
        outcome = self._validator(schema).validate_reply(_reply_from(result))
        self._validated_event(attempt, outcome)
        return outcome.to_parse_result(
            result, operation=self.spec.operation, attempt=attempt, attempts=attempt
        )

    def _run_unverified(self) -> ParseResult:
        if self.spec.output_schema is None:
            result = self.call_once(self.spec.prompt, resume_session_id=self.spec.resume_session_id)
            self._record(result)
            self._verdict(result)
            return result
        return self._summed(self.run_validated(resolve_schema(self.spec.output_schema)))

    def _summed(self, result: ParseResult) -> ParseResult:
        """The task's verdict with cost and tokens summed over every call it made."""
        return result.with_spend([call.spend() for call in self.calls])

    def run_validated(self, schema: type[BaseModel]) -> ParseResult:
        policy = self._policy()
        validator = self._validator(schema)

        def call(request: AttemptRequest) -> object:
            if request.attempt > 1:
                self._validation_event(EventName.RETRY_STARTED, request.attempt)
            session = request.resume_session_id or (
                self.spec.resume_session_id if request.attempt == 1 else None
            )
            result = self.call_once(
                request.prompt,
                attempt=request.attempt,
                resume_session_id=session,
                schema=schema,
                strategy=self._attempt_options(request),
                escalation=request.escalation,
            )
            result = result.model_copy(update={"attempt": request.attempt})
            if _answerable(result):
                return _reply_from(result)
            raise AgentCallError(result)

        def on_attempt(record: AttemptRecord) -> None:
            outcome = record.outcome
            self._record(
                outcome.to_parse_result(
                    _call_result(record),
                    operation=self.spec.operation,
                    attempt=record.attempt,
                    attempts=record.attempt,
                )
            )
            self._validated_event(record.attempt, outcome)

        loop = AttemptLoop(
            validator,
            policy,
            operation=self.spec.operation,
            run_id=self.trace.trace_id,
            resume=self._resume_mode,
            on_attempt=on_attempt,
        )
        try:
            run: ValidationRun[BaseModel] = loop.run(self.spec.prompt, call)
        except AgentCallError as exc:
            self._record(exc.result)
            self._verdict(exc.result)
            return exc.result
        result = run.to_parse_result(_call_result(run.last), operation=self.spec.operation)
        self._verdict(result)
        return result

    def run_group_attempt(
        self, history: Sequence[ParseResult], max_attempts: int | None = None
    ) -> ParseResult:
        """One attempt of a ``retry_with_feedback`` group: attempt ``len(history) + 1``.

        The previous attempts come from XCom; the same AttemptPolicy as the in-task loop
        builds the next request (feedback or the configured retry strategy), so both ways in
        behave alike.
        """
        if self.spec.output_schema is None:
            raise ValueError("a retry_with_feedback attempt needs output_schema")
        schema = resolve_schema(self.spec.output_schema)
        policy = self._policy()
        if max_attempts is not None:
            policy = replace(policy, max_attempts=max_attempts)
        validator = self._validator(schema)
        attempt = len(history) + 1
        decoding = DecodingSchemas.of(schema, validator.semantic_validators)
        if history:
            request = policy.next_request(
                self.spec.prompt,
                history,
                policy.decide(history),
                resume=self._resume_mode,
                model=schema,
                payload_format=validator.payload_label,
                decoding=decoding,
            )
            resume = request.resume_session_id
            self._validation_event(EventName.RETRY_STARTED, attempt)
        else:
            request = policy.first_request(self.spec.prompt, decoding)
            resume = self.spec.resume_session_id
        result = self.call_once(
            request.prompt,
            attempt=attempt,
            resume_session_id=resume,
            schema=schema,
            strategy=self._attempt_options(request),
            escalation=request.escalation,
        )
        result = result.model_copy(update={"attempt": attempt, "attempts": attempt})
        if not _answerable(result):
            self._record(result)
            self._verdict(result)
            return result
        reply = _reply_from(result)
        outcome = validator.validate_reply(reply)
        self._validated_event(attempt, outcome)
        validated = outcome.to_parse_result(
            result, operation=self.spec.operation, attempt=attempt, attempts=attempt
        )
        self._record(validated)
        if policy.decide([*history, validated]).done:
            self._verdict(validated)
        return validated

    def _validated_event(self, attempt: int, outcome: ValidationOutcome) -> None:
        """validation.started + passed/failed on attempt 1; retry_passed/failed after."""
        if attempt == 1:
            self._validation_event(EventName.VALIDATION_STARTED, 1)
            name = EventName.VALIDATION_PASSED if outcome.ok else EventName.VALIDATION_FAILED
        else:
            name = EventName.RETRY_PASSED if outcome.ok else EventName.RETRY_FAILED
        categories = sorted({error.category.value for error in outcome.errors})
        self._validation_event(name, attempt, {"error_categories": categories})

    def _verdict(self, result: ParseResult) -> None:
        if not (self._verifying and result.success):
            self._emit_verdict(result)

    def _emit_verdict(self, result: ParseResult) -> None:
        name = EventName.RESULT_ACCEPTED if result.success else EventName.RESULT_REJECTED
        self._validation_event(name, result.attempt, {"status": result.status.value})

    def _validation_event(
        self, name: EventName, attempt: int, data: dict[str, Any] | None = None
    ) -> None:
        if self.recorder is None or self._last_envelope is None:
            return
        self.recorder.event(name, envelope=self._last_envelope, attempt=attempt, data=data)
