"""An agent's output in the task log, as a person reads it, live and redacted.

:class:`AgentLog` shows one attempt: stdout as a readable transcript (agents/transcript.py),
stderr lines marked with the classifier's verdict and rule (``[noise: node-warning] …``,
``[error: python-traceback] …``), and the raw streams kept in files beside the audit, not in
the log, so the log stays readable even with every group expanded.

:class:`LiveLog` batches the lines: a logging call costs tens of microseconds in Airflow's task
logger, so a chatty agent would be throttled by its own log. Lines are flushed as one
multi-line record when a batch fills, when it gets old, and by a small timer thread while the
agent is quiet, so nothing waits long.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO

from autofix.agents.base import AgentFormat
from autofix.agents.transcript import Transcript, transcript_for
from autofix.classify.classifier import Classifier
from autofix.patterns.compiled import CompiledRules
from autofix.redact import redact

MAX_LINE_CHARS = 4000
BATCH_LINES = 500
MAX_DELAY_S = 0.2
MARKED_LINES = 20_000  # per stream; later lines are shown unmarked (a runaway stream's cost)
RAW_MAX_BYTES = 64 * 1024 * 1024  # per raw file; the rest is counted
_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]+")


def clip(line: str) -> str:
    if len(line) <= MAX_LINE_CHARS:
        return line
    return line[:MAX_LINE_CHARS] + f" …[{len(line) - MAX_LINE_CHARS} more chars]"


class LiveLog:
    """Collects lines from any thread; ``emit`` receives redacted multi-line blocks in order."""

    def __init__(
        self,
        emit: Callable[[str], None],
        *,
        batch_lines: int = BATCH_LINES,
        max_delay_s: float = MAX_DELAY_S,
    ) -> None:
        self._emit = emit
        self._batch_lines = batch_lines
        self._max_delay = max_delay_s
        self._lines: list[str] = []
        self._first_at = 0.0
        self._lock = threading.Lock()
        self._emit_lock = threading.Lock()  # keeps blocks in order across threads
        self._stop = threading.Event()
        self._timer: threading.Thread | None = None

    def __enter__(self) -> LiveLog:
        self._timer = threading.Thread(target=self._tick, name="autofix-livelog", daemon=True)
        self._timer.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._timer is not None:
            self._timer.join()
        self.flush()

    def line(self, text: str) -> None:
        with self._lock:
            if not self._lines:
                self._first_at = time.monotonic()
            self._lines.append(clip(text))
            full = len(self._lines) >= self._batch_lines
            stale = time.monotonic() - self._first_at >= self._max_delay
        if full or stale:
            self.flush()

    def flush(self) -> None:
        with self._emit_lock:
            with self._lock:
                lines, self._lines = self._lines, []
            if lines:
                self._emit(redact("\n".join(lines)))

    def _tick(self) -> None:
        while not self._stop.wait(self._max_delay / 2):
            with self._lock:
                due = bool(self._lines) and time.monotonic() - self._first_at >= self._max_delay
            if due:
                self.flush()


def safe_name(text: str) -> str:
    """A file or folder name from a run id, task id or operation."""
    return _UNSAFE.sub("_", text).strip("._") or "_"


class LineMarks:
    """Marks each line with the classifier's own verdict on it and the deciding rule.

    It feeds a classifier of the same rules line by line and reads its per-line verdicts
    (``explain``), so what is marked is what the verdict counted, rule for rule."""

    def __init__(
        self,
        rules: CompiledRules,
        operation: str,
        stream: str,
        *,
        neutral: str = "",
        diagnostics: bool = False,
    ) -> None:
        self._classifier = Classifier(rules, operation, stream=stream, explain=True)
        self._neutral = neutral  # the prefix of lines judged neither noise nor error
        # A CLI whose structured result decides: its error lines are its own diagnostics.
        self._error_word = "diagnostic" if diagnostics else "error"
        self._left = MARKED_LINES

    def mark(self, line: str) -> list[str]:
        if self._left <= 0:
            return [self._neutral + line]
        self._left -= 1
        self._classifier.feed_line(line)
        verdicts = self._classifier.explained
        assert verdicts is not None  # explain=True
        verdict = verdicts[-1] if verdicts else None
        verdicts.clear()
        marked = [self._neutral + line]
        if verdict is not None and verdict.verdict != "neutral" and verdict.rule_id:
            word = self._error_word if verdict.verdict == "error" else verdict.verdict
            marked = [f"[{word}: {verdict.rule_id}] {line}"]
        if not self._left:
            marked.append(f"[autofix] lines after {MARKED_LINES} are not marked")
        return marked


class RawStreams:
    """One attempt's raw stdout and stderr, redacted, in ``<folder>/<stem>.stdout|.stderr``.

    Files are opened on the first line; each stops at ``max_bytes`` with a note."""

    def __init__(self, folder: Path, stem: str, max_bytes: int = RAW_MAX_BYTES) -> None:
        self.folder = folder
        self.stem = stem
        self.max_bytes = max_bytes
        self._files: dict[str, IO[str]] = {}
        self._sizes: dict[str, int] = {}
        self.paths: list[Path] = []
        self.error: str | None = None

    def write(self, stream: str, line: str) -> None:
        if self.error is not None:
            return
        size = self._sizes.get(stream, 0)
        if size > self.max_bytes:
            return
        try:
            handle = self._files.get(stream) or self._open(stream)
            text = redact(line) + "\n"
            size += len(text)
            if size > self.max_bytes:
                text = f"[autofix] cut at {self.max_bytes} bytes\n"
            handle.write(text)
        except OSError as exc:  # a full disk must not fail the task: the log still shows it
            self.error = f"raw output not kept: {exc}"
            return
        self._sizes[stream] = size

    def _open(self, stream: str) -> IO[str]:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{self.stem}.{stream}"
        handle = path.open("w", encoding="utf-8", errors="replace")
        self._files[stream] = handle
        self.paths.append(path)
        return handle

    def close(self) -> None:
        for handle in self._files.values():
            handle.close()
        self._files.clear()


class AgentLog:
    """One attempt in the task log: the transcript, the marked stderr, where the raw streams are.

    ``stdout``/``stderr`` are called from the runner's reader threads (one each)."""

    def __init__(
        self,
        emit: Callable[[str], None],
        transcript: Transcript,
        stderr: LineMarks,
        stdout: LineMarks | None = None,
        raw: RawStreams | None = None,
    ) -> None:
        self._live = LiveLog(emit)
        self._transcript = transcript
        self._stderr = stderr
        self._stdout = stdout
        self._raw = raw

    @classmethod
    def for_attempt(
        cls,
        emit: Callable[[str], None],
        agent_format: AgentFormat,
        rules: CompiledRules,
        operation: str,
        raw: RawStreams | None = None,
    ) -> AgentLog:
        # Without an event stream stdout is the output itself: marked, not transcribed.
        stdout = None if agent_format.has_event_stream else LineMarks(rules, operation, "stdout")
        stderr = LineMarks(
            rules,
            operation,
            "stderr",
            neutral="[stderr] ",
            diagnostics=agent_format.structured_result,
        )
        return cls(emit, transcript_for(agent_format), stderr, stdout, raw)

    def stdout(self, line: str) -> None:
        if self._raw is not None:
            self._raw.write("stdout", line)
        for shown in self._transcript.feed(line):
            self._show(shown, self._stdout)

    def stderr(self, line: str) -> None:
        if self._raw is not None:
            self._raw.write("stderr", line)
        self._show(line, self._stderr)

    def _show(self, line: str, marks: LineMarks | None) -> None:
        for shown in marks.mark(line) if marks is not None else [line]:
            self._live.line(shown)

    def __enter__(self) -> AgentLog:
        self._live.__enter__()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            for shown in self._transcript.finish():
                self._show(shown, self._stdout)
            if self._raw is not None:
                self._raw.close()
                if self._raw.error is not None:
                    self._live.line(f"[autofix] {self._raw.error}")
                elif self._raw.paths:
                    where = ", ".join(str(path) for path in self._raw.paths)
                    self._live.line(f"[autofix] raw output: {where}")
        finally:
            self._live.__exit__(exc_type, exc, tb)
