"""One agent invocation: the process, its live log and its OutputJudge (event parser, early-stop
watcher, classifiers) → ParseResult."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from autofix.agents.base import AgentFormat, AgentRequest, Invocation
from autofix.agents.watch import EarlyStop, WatchSettings
from autofix.errors import ExecutableNotFoundError, RunnerError
from autofix.parser import ResponseParser, apply_fail_on
from autofix.redact import RedactedLog, redact
from autofix.result import (
    FAILURE_KINDS,
    FailureKind,
    ParseResult,
    format_error_message,
)
from autofix.runner import Runner
from autofix.task.judge import OutputJudge
from autofix.task.livelog import AgentLog, RawStreams
from autofix.task.spec import AgentTaskSpec

LogLine = Callable[[str], None]


class AttemptRunner:
    """Runs one task's agent invocations; ``kill`` stops the running one, from any thread."""

    def __init__(
        self,
        spec: AgentTaskSpec,
        parser: ResponseParser,
        log: RedactedLog,
        log_line: LogLine,
        watch: WatchSettings | None = None,
        raw_dir: Path | None = None,
    ) -> None:
        self.spec = spec
        self.parser = parser
        self.log = log
        self.watch = watch if watch is not None else WatchSettings()
        self._log_line = log_line
        self.raw_dir = raw_dir  # each attempt's raw stdout/stderr go here; None: not kept
        self._runner: Runner | None = None
        self._killed = False

    def kill(self) -> None:
        self._killed = True
        if self._runner is not None:
            self._runner.kill()

    @contextmanager
    def group(self, title: str) -> Iterator[None]:
        # Airflow's log view folds ::group:: sections.
        self._log_line(f"::group::{title}")
        try:
            yield
        finally:
            self._log_line("::endgroup::")

    def run(
        self,
        request: AgentRequest,
        attempt: int,
        agent_format: AgentFormat,
        command: list[str] | None,
    ) -> ParseResult:
        try:
            invocation = agent_format.command(request, command)
        except (ValueError, OSError) as exc:
            return self._not_started(f"cannot build the {agent_format.name} command: {exc}")
        try:
            return self._run(invocation, request, attempt, agent_format)
        finally:
            for directory in invocation.cleanup:  # the run's own config files
                shutil.rmtree(directory, ignore_errors=True)

    def _run(
        self,
        invocation: Invocation,
        request: AgentRequest,
        attempt: int,
        agent_format: AgentFormat,
    ) -> ParseResult:
        spec = self.spec
        operation = spec.operation
        judge = OutputJudge(
            agent_format,
            self.parser,
            operation,
            self.watch,
            answer_expected=agent_format.expects_answer(request.options),
            text_output=agent_format.asks_for_text(request.options),
            command=invocation.argv,
        )
        raw = None if self.raw_dir is None else RawStreams(self.raw_dir, f"attempt{attempt}")
        live = AgentLog.for_attempt(
            self._log_line, agent_format, self.parser.rules, operation, raw=raw
        )

        def stop_early(stop: EarlyStop) -> None:
            self.log.warning("autofix: %s; stopping the agent", redact(stop.message))
            runner.terminate()  # called from runner.run(): runner is bound by then

        def on_stdout(line: str) -> None:
            stop = judge.stdout_line(line)
            live.stdout(line)
            if stop is not None:
                stop_early(stop)

        def on_stderr(line: str) -> None:
            stop = judge.stderr_line(line)
            live.stderr(line)
            if stop is not None:
                stop_early(stop)

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
                max_stdout_line_chars=judge.stdout_line_cap,
            )
        except (RunnerError, ValueError) as exc:
            return self._start_failure(exc)
        self._runner = runner
        if self._killed:
            runner.kill()
        argv_shown = " ".join(invocation.argv[:3]) + (" …" if len(invocation.argv) > 3 else "")
        with self.group(f"prompt: {operation or 'agent'} call {attempt}"):
            self._log_line(redact(request.prompt))
        with self.group(f"{agent_format.name} output: {operation or 'agent'} call {attempt}"):
            self.log.info("running %s in %s", redact(argv_shown), spec.cwd or ".")
            try:
                with live:
                    run = runner.run()
            except RunnerError as exc:
                return self._start_failure(exc)
            except Exception as exc:  # a crash of our own machinery is reported, never hidden
                return self.parser.parse(None, operation=operation, crash=exc)
            finally:
                self._runner = None
        timeout_hit: float | None = None
        if run.timed_out is not None:
            timeout_hit = run.timeout_s or spec.timeout or run.duration_s
        result = judge.verdict(
            run.exit_code,
            run.stderr_tail,
            timed_out_after=timeout_hit,
            signal_name=run.signal_name,
            cancelled=run.cancelled,
        )
        return apply_fail_on(result, spec.fail_on)

    def _start_failure(self, exc: Exception) -> ParseResult:
        """The agent never started: a missing executable is its own kind, the rest is setup."""
        missing = isinstance(exc, ExecutableNotFoundError)
        kind = FailureKind.MISSING_CLI if missing else FailureKind.CONFIG
        return self._not_started(str(exc), kind)

    def _not_started(self, message: str, kind: FailureKind = FailureKind.CONFIG) -> ParseResult:
        status, retry_class = FAILURE_KINDS[kind]
        return ParseResult(
            success=False,
            status=status,
            operation=self.spec.operation,
            retry_class=retry_class,
            failure_kind=kind,
            error_message=format_error_message(self.spec.operation, [message]),
            agent=self.spec.agent,
        )
