"""One agent task end to end, without Airflow: run the agent, parse, validate, audit.

The operators are thin shells around :class:`AgentTask`; the benchmark and the tests drive it
directly too. Each attempt goes: AgentFormat.command → Runner (live lines) → EventParser +
Classifier → ResponseParser → optional validation → audit record + events.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel

from autofix.agents.base import AgentFormat, AgentOutcome, AgentRequest
from autofix.agents.registry import get_format
from autofix.audit import AuditRecorder, BudgetExhaustedError, Envelope, EventName
from autofix.audit.envelope import RetryPolicy
from autofix.config import AutofixConfig
from autofix.errors import AutofixError, RunnerError
from autofix.parser import ResponseParser
from autofix.redact import is_secret_name, redact, register_secret
from autofix.result import (
    FinishReason,
    ParseResult,
    RetryClass,
    RetryStrategy,
    Status,
    format_error_message,
)
from autofix.runner import Runner
from autofix.task.livelog import LiveLog
from autofix.validation import (
    AdaptiveAdvisor,
    AttemptLoop,
    AttemptPolicy,
    AttemptRecord,
    AttemptRequest,
    Escalation,
    LLMReply,
    OutputValidator,
    ValidationOutcome,
    ValidationRun,
    resolve_schema,
)
from autofix.validation.policy import ResumeMode
from autofix.validation.strategies import SEED_STRIDE, check_strategy

LogLine = Callable[[str], None]


class AgentCallError(AutofixError):
    """An attempt failed for a reason validation cannot fix (transient, permanent, crash)."""

    def __init__(self, result: ParseResult) -> None:
        super().__init__(result.error_message or result.status.value)
        self.result = result


@dataclass(frozen=True)
class TraceContext:
    """Who caused the call: the DAG run (trace) and the task try (causation)."""

    trace_id: str
    causation_id: str | None = None
    tenant_id: str = "default"


@dataclass
class AgentTaskSpec:
    """Everything one agent task needs, already rendered (no templates left)."""

    agent: str
    prompt: str
    operation: str = ""
    command: list[str] | None = None
    cwd: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    timeout: float | None = 3600.0
    idle_timeout: float | None = None
    grace: float = 10.0
    model: str | None = None
    agent_options: dict[str, Any] = field(default_factory=dict)
    resume_session_id: str | None = None
    output_schema: type[BaseModel] | str | None = None
    max_attempts: int | None = None
    retry_enabled: bool | None = None
    patterns: str | None = None


def apply_strategy_options(
    policy: AttemptPolicy,
    agent_options: Mapping[str, Any],
    recorder: AuditRecorder | None,
    samples: bool = False,
) -> AttemptPolicy:
    """Per-task strategy overrides from ``agent_options`` (``retry_strategy``, ``constrained``),
    ``auto`` resolved for the agent (``samples``: it takes a seed and a schema), completion-style
    feedback for ``mode: completions``, and the adaptive advisor's audit history."""
    strategy = agent_options.get("retry_strategy")
    if isinstance(strategy, str):
        policy = replace(policy, strategy=check_strategy(strategy))
    policy = policy.resolved(samples)
    changes: dict[str, Any] = {}
    if isinstance(agent_options.get("constrained"), bool):
        # Asked for explicitly: an endpoint that rejects the schema is an error, not a hint.
        changes["constrained"] = agent_options["constrained"]
        changes["schema_optional"] = False
    if agent_options.get("mode") == "completions":
        changes["feedback_style"] = "completion"
    if policy.strategy == RetryStrategy.ADAPTIVE and recorder is not None:
        changes["advisor"] = AdaptiveAdvisor.from_store(recorder.store)
    return replace(policy, **changes) if changes else policy


def secret_env_values(env: Mapping[str, str]) -> list[str]:
    """Values of env vars whose names look secret; they are masked in every log."""
    return [value for name, value in env.items() if value and is_secret_name(name)]


class _ChunkFeed:
    """Feeds the classifier in chunks: ten times faster than line by line."""

    def __init__(self, feed: Callable[[str], None], size: int = 256) -> None:
        self._feed = feed
        self._size = size
        self._lines: list[str] = []

    def add(self, line: str) -> None:
        self._lines.append(line)
        if len(self._lines) >= self._size:
            self.flush()

    def flush(self) -> None:
        if self._lines:
            self._feed("\n".join(self._lines) + "\n")
            self._lines = []


def _answerable(result: ParseResult) -> bool:
    """The agent answered (validly or not, or refused): validation decides what happens next."""
    return (
        result.success
        or result.retry_class is RetryClass.INVALID_OUTPUT
        or result.status is Status.REFUSED
    )


def _reply_from(result: ParseResult) -> LLMReply:
    refused = result.status is Status.REFUSED
    return LLMReply(
        text=result.final_text or "",
        finish_reason=FinishReason.REFUSAL if refused else result.finish_reason,
        structured_output=result.data,
        session_id=result.session_id,
        usage=result.usage,
        cost_usd=result.cost_usd,
    )


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
    ) -> None:
        self.spec = spec
        self.config = config
        self.trace = trace
        self.recorder = recorder
        self.parser = parser or ResponseParser(spec.patterns)
        self.log = log or logging.getLogger("autofix.task")
        self._log_line = log_line or self.log.info
        self.format: AgentFormat = get_format(spec.agent)
        self._runner: Runner | None = None
        self._killed = False
        self._last_envelope: Envelope | None = None
        self._attempt_context: dict[str, Any] = {}  # retry strategy facts for the audit record
        self._base_policy: AttemptPolicy | None = None
        for secret in secret_env_values(spec.env):
            register_secret(secret)

    # -- control ------------------------------------------------------------------------

    def kill(self) -> None:
        """Stop the running agent (process group); safe from another thread."""
        self._killed = True
        if self._runner is not None:
            self._runner.kill()

    @contextmanager
    def _group(self, title: str) -> Iterator[None]:
        # Airflow's log view folds ::group:: sections.
        self._log_line(f"::group::{title}")
        try:
            yield
        finally:
            self._log_line("::endgroup::")

    # -- one attempt --------------------------------------------------------------------

    def _envelope(
        self, prompt: str, attempt: int, schema: type[BaseModel] | None, model: str | None
    ) -> Envelope:
        previous = self._last_envelope
        causation = previous.envelope_id if previous is not None else self.trace.causation_id
        envelope = Envelope(
            trace_id=self.trace.trace_id,
            causation_id=causation,
            tenant_id=self.trace.tenant_id,
            operation=self.spec.operation or "agent_call",
            agent_id=self.spec.agent,
            agent_type=self.format.name,
            model=model,
            instructions=prompt,
            context={"cwd": self.spec.cwd or "", "attempt": attempt, **self._attempt_context},
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
        extra_options: Mapping[str, Any] | None = None,
        escalation: Escalation | None = None,
    ) -> ParseResult:
        """Run the agent once and return the parser's verdict (validation is not applied).

        ``extra_options`` (from the retry strategy: seed, messages, constrained) go to the agent.
        ``escalation`` may switch the agent or the model for this one call."""
        spec = self.spec
        operation = spec.operation
        exhausted = self._budget_exhausted()
        if exhausted is not None:
            return exhausted
        agent_format, command = self.format, spec.command
        if escalation is not None and escalation.agent and escalation.agent != spec.agent:
            agent_format, command = get_format(escalation.agent), None
        model = (escalation.model if escalation is not None else None) or spec.model
        envelope = self._envelope(prompt, attempt, schema, model) if self.recorder else None
        if self.recorder is not None and envelope is not None:
            self.recorder.event(EventName.AGENT_STARTED, envelope=envelope, attempt=attempt)
        request = AgentRequest(
            prompt=prompt,
            resume_session_id=resume_session_id,
            model=model,
            output_schema=schema.model_json_schema() if schema is not None else None,
            options={**spec.agent_options, **(extra_options or {}), "operation": operation},
        )
        started = time.monotonic()
        result = self._execute(request, attempt, agent_format, command)
        result = result.model_copy(
            update={"duration_s": round(time.monotonic() - started, 3), "agent": spec.agent}
        )
        if self.recorder is not None and envelope is not None:
            self.recorder.event(
                EventName.AGENT_COMPLETED,
                envelope=envelope,
                attempt=attempt,
                data={"status": result.status.value, "exit_code": result.exit_code},
            )
        return result

    def _budget_exhausted(self) -> ParseResult | None:
        """Checked before every call, so a loop inside one task cannot overspend either."""
        if self.recorder is None:
            return None
        try:
            self.recorder.check_budget(self.trace.trace_id)
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
                error_message=format_error_message(
                    self.spec.operation, [f"budget_exhausted: {exc}"]
                ),
                agent=self.spec.agent,
            )
        return None

    def _record(self, result: ParseResult) -> None:
        """One audit record per attempt, with the final (validated) verdict."""
        if self.recorder is None or self._last_envelope is None:
            return
        self.recorder.record_attempt(
            self._last_envelope,
            result,
            raw_output=result.final_text,
            latency_ms=(result.duration_s or 0) * 1000,
            attempt_number=result.attempt,
        )

    def _execute(
        self,
        request: AgentRequest,
        attempt: int,
        agent_format: AgentFormat,
        command: list[str] | None,
    ) -> ParseResult:
        spec = self.spec
        operation = spec.operation
        try:
            invocation = agent_format.command(request, command)
        except (ValueError, OSError) as exc:
            return self._config_failure(f"cannot build the {agent_format.name} command: {exc}")
        events = agent_format.parser()
        stream_events = agent_format.has_event_stream
        stderr_classifier = self.parser.classifier(operation, stream="stderr")
        stdout_classifier = None if stream_events else self.parser.classifier(operation, "stdout")
        stderr_batch = _ChunkFeed(stderr_classifier.feed)
        stdout_batch = _ChunkFeed(stdout_classifier.feed) if stdout_classifier else None
        live = LiveLog(self._log_line)

        def on_stdout(line: str) -> None:
            if stdout_batch is not None:
                stdout_batch.add(line)
            else:
                events.feed(line)
            live.line(line)

        def on_stderr(line: str) -> None:
            stderr_batch.add(line)
            live.line("[stderr] " + line)

        try:
            runner = Runner(
                invocation.argv,
                stdin=invocation.stdin,
                env={**spec.env, **invocation.env},
                cwd=spec.cwd,
                timeout=spec.timeout,
                idle_timeout=spec.idle_timeout,
                grace=spec.grace,
                on_stdout=on_stdout,
                on_stderr=on_stderr,
            )
        except (RunnerError, ValueError) as exc:
            return self._config_failure(str(exc))
        self._runner = runner
        if self._killed:
            runner.kill()
        argv_shown = " ".join(invocation.argv[:3]) + (" …" if len(invocation.argv) > 3 else "")
        with self._group(f"{agent_format.name} output: {operation or 'agent'} attempt {attempt}"):
            self.log.info("running %s in %s", redact(argv_shown), spec.cwd or ".")
            try:
                with live:
                    run = runner.run()
            except RunnerError as exc:
                return self._config_failure(str(exc))
            except Exception as exc:  # a crash of our own machinery is reported, never hidden
                return self.parser.parse(None, operation=operation, crash=exc)
            finally:
                self._runner = None
        stderr_batch.flush()
        if stdout_batch is not None:
            stdout_batch.flush()
        outcome: AgentOutcome | None = (
            events.finish(run.exit_code, run.stderr_tail) if stream_events else None
        )
        timeout_hit: float | None = None
        if run.timed_out is not None:
            timeout_hit = run.timeout_s or spec.timeout or run.duration_s
        result = self.parser.parse(
            run.exit_code,
            stderr_classifier.finish(),
            stdout_classifier.finish() if stdout_classifier is not None else "",
            operation=operation,
            agent_outcome=outcome,
            has_event_stream=stream_events,
            timed_out_after=timeout_hit,
            signal_name=None if run.timed_out else run.signal_name,
        )
        if outcome is not None and outcome.structured_output is not None and result.data is None:
            result = result.model_copy(update={"data": outcome.structured_output})
        return result

    def _config_failure(self, message: str) -> ParseResult:
        return ParseResult(
            success=False,
            status=Status.FAILED,
            operation=self.spec.operation,
            retry_class=RetryClass.PERMANENT,
            error_message=format_error_message(self.spec.operation, [message]),
            agent=self.spec.agent,
        )

    # -- the task -----------------------------------------------------------------------

    def _policy(self) -> AttemptPolicy:
        # Built once per task: the adaptive strategy reads the whole audit store to build it.
        if self._base_policy is None:
            policy = AttemptPolicy.from_settings(
                self.config.validation,
                max_attempts=self.spec.max_attempts,
                retry_enabled=self.spec.retry_enabled,
            )
            self._base_policy = apply_strategy_options(
                policy, self.spec.agent_options, self.recorder, samples=self.format.samples
            )
        return self._base_policy

    def _validator(self, schema: type[BaseModel]) -> OutputValidator:
        return OutputValidator(schema, strict_repairs=self.config.validation.strict_repairs)

    def _strategy_options(self, request: AttemptRequest) -> dict[str, Any]:
        """What the retry strategy adds to this attempt's agent options, and its audit facts."""
        self._attempt_context = {"strategy": request.strategy, "constrained": request.constrained}
        if request.retry_for is not None:
            self._attempt_context["retry_for"] = request.retry_for
        options: dict[str, Any] = {}
        seed = self.spec.agent_options.get("seed")
        if request.seed_offset and isinstance(seed, int):
            options["seed"] = seed + request.seed_offset * SEED_STRIDE
        if request.messages is not None:
            options["messages"] = [dict(message) for message in request.messages]
        # Always set: the strategy's choice overrides a ``constrained`` in agent_options.
        options["constrained"] = request.constrained
        if request.constrained and self._policy().schema_optional:
            options["schema_optional"] = True
        return options

    def run(self) -> ParseResult:
        """One call, or the validated attempt loop when ``output_schema`` is set."""
        if self.spec.output_schema is None:
            result = self.call_once(self.spec.prompt, resume_session_id=self.spec.resume_session_id)
            self._record(result)
            self._verdict(result)
            return result
        return self.run_validated(resolve_schema(self.spec.output_schema))

    def run_validated(self, schema: type[BaseModel]) -> ParseResult:
        policy = self._policy()
        validator = self._validator(schema)
        last: dict[str, ParseResult] = {}

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
                extra_options=self._strategy_options(request),
                escalation=request.escalation,
            )
            result = result.model_copy(update={"attempt": request.attempt})
            last["result"] = result
            if _answerable(result):
                return _reply_from(result)
            raise AgentCallError(result)

        def on_attempt(record: AttemptRecord) -> None:
            outcome = record.outcome
            self._record(
                outcome.to_parse_result(
                    last["result"],
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
            resume=ResumeMode.WITH_SESSION_ID if self.format.supports_resume else ResumeMode.NEVER,
            on_attempt=on_attempt,
        )
        try:
            run: ValidationRun[BaseModel] = loop.run(self.spec.prompt, call)
        except AgentCallError as exc:
            self._record(exc.result)
            self._verdict(exc.result)
            return exc.result
        result = run.to_parse_result(last["result"], operation=self.spec.operation)
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
        if history:
            request = policy.next_request(
                self.spec.prompt,
                history,
                policy.decide(history),
                resume=(
                    ResumeMode.WITH_SESSION_ID if self.format.supports_resume else ResumeMode.NEVER
                ),
                model=schema,
                payload_format="YAML" if validator.payload_format == "yaml" else "JSON",
            )
            resume = request.resume_session_id
            self._validation_event(EventName.RETRY_STARTED, attempt)
        else:
            request = policy.first_request(self.spec.prompt)
            resume = self.spec.resume_session_id
        result = self.call_once(
            request.prompt,
            attempt=attempt,
            resume_session_id=resume,
            schema=schema,
            extra_options=self._strategy_options(request),
            escalation=request.escalation,
        )
        result = result.model_copy(update={"attempt": attempt, "attempts": attempt})
        if not _answerable(result):
            self._record(result)
            self._verdict(result)
            return result
        reply = _reply_from(result)
        outcome = (
            validator.validate(reply.text, reply.finish_reason)
            if reply.structured_output is None
            else validator.validate(reply.text, reply.finish_reason, data=reply.structured_output)
        )
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
        name = EventName.RESULT_ACCEPTED if result.success else EventName.RESULT_REJECTED
        self._validation_event(name, result.attempt, {"status": result.status.value})

    def _validation_event(
        self, name: EventName, attempt: int, data: dict[str, Any] | None = None
    ) -> None:
        if self.recorder is None or self._last_envelope is None:
            return
        self.recorder.event(name, envelope=self._last_envelope, attempt=attempt, data=data)
