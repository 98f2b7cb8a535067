"""Everything that reads one attempt's output and judges it.

:class:`OutputJudge` holds the format's event parser, its early-stop watcher and the
stderr/stdout classifiers; it is fed lines as they arrive and then asked for the verdict. The
running task (task/attempt.py, fed live by the runner) and ``autofix classify --agent`` (fed
from saved files by :func:`judge_saved_output`) both use it, so a saved transcript is judged
exactly as the running task judged it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from autofix.agents.base import AgentFormat, AgentOutcome
from autofix.agents.fatal import FatalLine, FatalScan
from autofix.agents.watch import EarlyStop, WatchSettings
from autofix.classify.stream_report import ClassifyReport
from autofix.notices import MAX_NOTICES, AgentNotice, add_notice
from autofix.parser import ResponseParser, empty_answer
from autofix.result import ParseResult
from autofix.runner import replay_lines

# An event stream's terminal event may be one line of many megabytes (a long answer, a big
# structured output): such lines reach the event parser whole, up to this size.
EVENT_LINE_CAP = 64 * 1024 * 1024
TEXT_LINE_CAP = 1_000_000  # the runner's default for other output


class _ChunkFeed:
    """Feeds a classifier in chunks: ten times faster than line by line."""

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


class OutputJudge:
    """One attempt's output → ParseResult. ``stdout_line``/``stderr_line`` return an
    :class:`EarlyStop` once, when the watcher decides the run is hopeless."""

    def __init__(
        self,
        agent_format: AgentFormat,
        parser: ResponseParser,
        operation: str = "",
        watch: WatchSettings | None = None,
        answer_expected: bool = True,
        text_output: bool | None = None,
        command: Sequence[str] | None = None,
    ) -> None:
        self.parser = parser
        # The argv: a plain program's `bash -c "lint || true"` hides its exit status; the parser
        # reads it only where no agent outcome decides (masked_exit).
        self.command = command
        self.agent = agent_format.name
        self.answer_expected = answer_expected
        self.operation = operation
        self.has_event_stream = agent_format.has_event_stream
        # Plain formats too: their stdout is the answer that output_schema validates.
        self.events = agent_format.parser()
        self.events.text_output = text_output
        # Without early stops the watcher still recognises the CLI's retry notices.
        self.watcher = agent_format.watcher(watch or WatchSettings(0, 0))
        self._stop_reported = False
        self._stderr = parser.classifier(operation, "stderr")
        self._stdout = None if self.has_event_stream else parser.classifier(operation, "stdout")
        self._stderr_batch = _ChunkFeed(self._stderr.feed)
        self._stdout_batch = _ChunkFeed(self._stdout.feed) if self._stdout is not None else None
        self._stderr_lines = 0
        self._stdout_lines = 0
        self._notice_lines: set[int] = set()  # stderr lines that are the CLI's retry notices
        self.fatal: FatalLine | None = None  # the CLI's own line on how the run ended (verdict)
        self.structured_result = agent_format.structured_result
        forms = agent_format.fatal_forms()
        # The CLI's own lines on how the run ended (agents/fatal.py), and its notices.
        self._fatal = FatalScan(forms) if forms is not None else None
        self._notice_forms = agent_format.notice_forms()
        self._notices: list[AgentNotice] = []
        if self.watcher is not None:
            self.events.listener = self.watcher.on_event

    @property
    def retry_notice_lines(self) -> frozenset[int]:
        """The stderr lines (1-based) the watcher read as the CLI's own retry notices."""
        return frozenset(self._notice_lines)

    @property
    def early_stop(self) -> EarlyStop | None:
        return self.watcher.stopped if self.watcher is not None else None

    @property
    def stdout_line_cap(self) -> int:
        return EVENT_LINE_CAP if self.has_event_stream else TEXT_LINE_CAP

    def stdout_line(self, line: str) -> EarlyStop | None:
        self._stdout_lines += 1
        if self._stdout_batch is not None:
            self._stdout_batch.add(line)
        self.events.feed(line)
        if self._fatal is not None:
            self._fatal.feed(line, "stdout", self._stdout_lines)
        return self._new_stop()

    def stderr_line(self, line: str) -> EarlyStop | None:
        self._stderr_lines += 1
        self._stderr_batch.add(line)
        if self._fatal is not None:
            self._fatal.feed(line, "stderr", self._stderr_lines)
        if self._notice_forms is not None and len(self._notices) < MAX_NOTICES:
            notice = self._notice_forms.match(line)
            if notice is not None:
                add_notice(self._notices, notice)
        if self.watcher is not None and self.watcher.on_stderr(line) is not None:
            self._notice_lines.add(self._stderr_lines)
        return self._new_stop()

    def _new_stop(self) -> EarlyStop | None:
        stop = self.early_stop
        if stop is None or self._stop_reported:
            return None
        self._stop_reported = True
        return stop

    def _stderr_report(self) -> ClassifyReport:
        """The stderr verdict without the CLI's own retry chatter: a retry notice and the error
        dump under it are understood from their structure (the watcher), not as errors."""
        report = self._stderr.finish()
        kept = [block for block in report.blocks if block.line_no not in self._notice_lines]
        if len(kept) == len(report.blocks):
            return report
        note = f"{len(report.blocks) - len(kept)} retry notice(s) of the agent CLI on stderr"
        return report.model_copy(update={"blocks": kept, "warnings": [*report.warnings, note]})

    def verdict(
        self,
        exit_code: int | None,
        stderr_tail: str = "",
        *,
        timed_out_after: float | None = None,
        signal_name: str | None = None,
        cancelled: bool = False,
    ) -> ParseResult:
        self._stderr_batch.flush()
        if self._stdout_batch is not None:
            self._stdout_batch.flush()
        read = self.events.finish(exit_code, stderr_tail)
        outcome: AgentOutcome | None = read if self.has_event_stream else None
        self.fatal = self._fatal.line(exit_code) if self._fatal is not None else None
        result = self.parser.parse(
            exit_code,
            self._stderr_report(),
            self._stdout.finish() if self._stdout is not None else "",
            operation=self.operation,
            agent_outcome=outcome,
            has_event_stream=self.has_event_stream,
            timed_out_after=timed_out_after,
            signal_name=None if timed_out_after is not None else signal_name,
            cancelled=cancelled,
            early_stop=self.early_stop,
            fatal=self.fatal,
            notices=self._notices,
            structured_result=self.structured_result,
            agent_errors=not self.has_event_stream,
            command=self.command,
        )
        if outcome is not None and outcome.structured_output is not None and result.data is None:
            result = result.model_copy(update={"data": outcome.structured_output})
        if outcome is None and result.final_text is None and read.final_text:
            result = result.model_copy(update={"final_text": read.final_text})  # plain's stdout
        if outcome is None and self.answer_expected:
            result = empty_answer(result, self.agent)
        return result


def judge_saved_output(
    agent_format: AgentFormat,
    stdout: bytes,
    stderr: bytes = b"",
    exit_code: int | None = 0,
    *,
    parser: ResponseParser | None = None,
    operation: str = "",
    signal_name: str | None = None,
    timed_out_after: float | None = None,
    watch: WatchSettings | None = None,
) -> ParseResult:
    """Judge a saved run as the operator would have: same line splitting, same watcher (output
    after an early stop is ignored: the operator would have stopped the run there)."""
    judge = OutputJudge(
        agent_format, parser or ResponseParser(), operation, watch or WatchSettings()
    )
    return replay_saved_output(
        judge,
        stdout,
        stderr,
        exit_code,
        signal_name=signal_name,
        timed_out_after=timed_out_after,
    )


def replay_saved_output(
    judge: OutputJudge,
    stdout: bytes,
    stderr: bytes = b"",
    exit_code: int | None = 0,
    *,
    signal_name: str | None = None,
    timed_out_after: float | None = None,
) -> ParseResult:
    """Feed a saved run to ``judge`` line by line, as the runner would, and return its verdict
    (a caller that keeps the judge can then ask it what it saw)."""

    def on_stdout(line: str) -> None:
        if judge.early_stop is None:
            judge.stdout_line(line)

    def on_stderr(line: str) -> None:
        if judge.early_stop is None:
            judge.stderr_line(line)

    replay_lines(stdout, on_stdout, max_line_chars=judge.stdout_line_cap)
    stderr_tail = replay_lines(stderr, on_stderr, max_line_chars=TEXT_LINE_CAP)
    return judge.verdict(
        exit_code, stderr_tail, timed_out_after=timed_out_after, signal_name=signal_name
    )
