"""One agent invocation: the process, its live log, its event parser and classifiers → ParseResult."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from autofix.agents.base import AgentFormat, AgentOutcome, AgentRequest
from autofix.errors import RunnerError
from autofix.parser import ResponseParser
from autofix.redact import redact
from autofix.result import ParseResult, RetryClass, Status, format_error_message
from autofix.runner import Runner
from autofix.task.livelog import AgentLog, RawStreams
from autofix.task.spec import AgentTaskSpec

LogLine = Callable[[str], None]


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


class AttemptRunner:
    """Runs one task's agent invocations; ``kill`` stops the running one, from any thread."""

    def __init__(
        self,
        spec: AgentTaskSpec,
        parser: ResponseParser,
        log: logging.Logger,
        log_line: LogLine,
        raw_dir: Path | None = None,
    ) -> None:
        self.spec = spec
        self.parser = parser
        self.log = log
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
        raw = None if self.raw_dir is None else RawStreams(self.raw_dir, f"attempt{attempt}")
        live = AgentLog.for_attempt(
            self._log_line, agent_format, self.parser.rules, operation, raw=raw
        )

        def on_stdout(line: str) -> None:
            if stdout_batch is not None:
                stdout_batch.add(line)
            else:
                events.feed(line)
            live.stdout(line)

        def on_stderr(line: str) -> None:
            stderr_batch.add(line)
            live.stderr(line)

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
        with self.group(f"prompt: {operation or 'agent'} attempt {attempt}"):
            self._log_line(redact(request.prompt))
        with self.group(f"{agent_format.name} output: {operation or 'agent'} attempt {attempt}"):
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
