"""Subprocess execution only: start an agent in its own process group, stream its output, stop it.

One thread runs the child: a selector reads stdout and stderr in big chunks, splits lines
itself and hands each decoded line to the callbacks on the thread that called ``run()``.
Only bounded tails are kept, so memory does not grow with the amount of output.

Stopping (wall-clock timeout, idle timeout or ``kill()``): SIGTERM to the whole process group,
``grace`` seconds, then SIGKILL to the group. The child is always reaped.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from autofix.errors import ExecutableNotFoundError, RunnerError

__all__ = ["ExecutableNotFoundError", "RunResult", "Runner", "RunnerError", "replay_lines", "run"]

LineCallback = Callable[[str], None]

_CHUNK = 1 << 16  # 64 KiB reads: few syscalls, small enough to keep latency low
_POLL_S = 0.1  # how often the loop looks at timeouts and kill requests when the child is quiet
_EXIT_DRAIN_S = 2.0  # after the child exits, how long a grandchild may keep its pipes open
_ESCAPED_S = 2.0  # after SIGKILL, how long to wait for EOF before giving up on the pipes
_TAIL_LINE_CHARS = 8192  # per-line cap inside the tails, so tail_lines x line size stays small
_TRUNCATED = " …[line truncated: {n} more bytes]"


@dataclass(frozen=True)
class RunResult:
    """How one subprocess ended, with bounded tails of its output."""

    exit_code: int | None  # None when the process died by a signal
    signal_name: str | None  # e.g. "SIGKILL" when killed by a signal
    timed_out: Literal["wall", "idle"] | None
    duration_s: float
    stdout_lines: int
    stderr_lines: int
    stdout_tail: str
    stderr_tail: str
    cancelled: bool = False  # kill() was called
    timeout_s: float | None = None  # the limit that fired, for describe()
    truncated_lines: int = 0  # lines longer than max_line_chars (cut, not dropped)
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    leftovers_killed: bool = False  # group members still alive after the child exited were killed
    pid: int | None = None

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and self.timed_out is None and not self.cancelled

    def describe(self) -> str:
        """One short phrase: ``exit 0``, ``killed by SIGKILL``, ``timed out after 30s (wall clock)``."""
        if self.timed_out is not None:
            limit = _fmt_seconds(self.timeout_s if self.timeout_s is not None else self.duration_s)
            if self.timed_out == "wall":
                return f"timed out after {limit} (wall clock)"
            return f"timed out after {limit} without output (idle)"
        ended = f"killed by {self.signal_name}" if self.signal_name else f"exit {self.exit_code}"
        if self.cancelled:
            return f"cancelled ({ended})"
        return ended


def _sleep(seconds: float) -> list[tuple[selectors.SelectorKey, int]]:
    time.sleep(max(seconds, 0.0))
    return []


def _fmt_seconds(value: float) -> str:
    return f"{value:g}s" if value == int(value) else f"{value:.1f}s"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class _LineStream:
    """Splits one pipe's bytes into lines; caps line length; keeps a bounded tail."""

    __slots__ = (
        "_cap",
        "_dropped",
        "_emit",
        "_pending",
        "bytes",
        "lines",
        "tail",
        "truncated",
    )

    def __init__(self, emit: LineCallback | None, tail_lines: int, max_line_bytes: int) -> None:
        self._emit = emit
        self._cap = max_line_bytes
        self._pending = bytearray()
        self._dropped = 0  # bytes of the current (pending) line beyond the cap
        self.tail: deque[str] = deque(maxlen=max(tail_lines, 0))
        self.lines = 0
        self.bytes = 0
        self.truncated = 0

    def feed(self, chunk: bytes) -> None:
        self.bytes += len(chunk)
        parts = chunk.split(b"\n")
        rest = parts.pop()
        if parts:
            if self._pending or self._dropped:
                self._add_pending(parts[0])
                parts[0] = bytes(self._pending)
                self._pending.clear()
                first_dropped, self._dropped = self._dropped, 0
            else:
                first_dropped = 0
            cap = self._cap
            for index, raw in enumerate(parts):
                dropped = first_dropped if index == 0 else 0
                if len(raw) > cap:
                    dropped += len(raw) - cap
                    raw = raw[:cap]
                self._line(raw, dropped)
        if rest:
            self._add_pending(rest)

    def close(self) -> None:
        if self._pending or self._dropped:
            raw, dropped = bytes(self._pending), self._dropped
            self._pending.clear()
            self._dropped = 0
            self._line(raw, dropped)

    def _add_pending(self, data: bytes) -> None:
        room = self._cap - len(self._pending)
        if room >= len(data):
            self._pending += data
        else:
            if room > 0:
                self._pending += data[:room]
            self._dropped += len(data) - max(room, 0)

    def _line(self, raw: bytes, dropped: int) -> None:
        text = raw.decode("utf-8", "replace")
        if text.endswith("\r"):
            text = text[:-1]
        if dropped:
            self.truncated += 1
            text += _TRUNCATED.format(n=dropped)
        self.lines += 1
        self.tail.append(text if len(text) <= _TAIL_LINE_CHARS else text[:_TAIL_LINE_CHARS] + "…")
        if self._emit is not None:
            self._emit(text)

    def tail_text(self) -> str:
        return "\n".join(self.tail)


class Runner:
    """Run one command to completion (or timeout, or kill) and return a :class:`RunResult`.

    ``env`` is applied on top of ``os.environ``. ``stdin`` is written by a helper thread and the
    pipe closed afterwards; ``None`` gives the child an empty stdin (``/dev/null``). Callbacks
    run on the thread that called :meth:`run`, in arrival order per stream.
    """

    def __init__(
        self,
        argv: Sequence[str] | str,
        *,
        stdin: str | bytes | None = None,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        timeout: float | None = None,
        idle_timeout: float | None = None,
        grace: float = 5.0,
        shell: bool = False,
        on_stdout: LineCallback | None = None,
        on_stderr: LineCallback | None = None,
        tail_lines: int = 200,
        max_line_chars: int = 1_000_000,
        max_stdout_line_chars: int | None = None,
    ) -> None:
        if isinstance(argv, str):
            self._args: list[str] | str = argv if shell else shlex.split(argv)
        else:
            args = [str(a) for a in argv]
            self._args = shlex.join(args) if shell else args
        if not self._args:
            raise RunnerError("empty command: nothing to run")
        if timeout is not None and timeout <= 0:
            raise ValueError(f"timeout must be positive, got {timeout}")
        if idle_timeout is not None and idle_timeout <= 0:
            raise ValueError(f"idle_timeout must be positive, got {idle_timeout}")
        if max_line_chars < 1:
            raise ValueError(f"max_line_chars must be at least 1, got {max_line_chars}")
        if max_stdout_line_chars is not None and max_stdout_line_chars < 1:
            raise ValueError(
                f"max_stdout_line_chars must be at least 1, got {max_stdout_line_chars}"
            )
        self._stdin = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        self._env = dict(env) if env else {}
        self._cwd = Path(cwd) if cwd is not None else None
        self._timeout = timeout
        self._idle_timeout = idle_timeout
        self._grace = max(0.0, grace)
        self._shell = shell
        self._on_stdout = on_stdout
        self._on_stderr = on_stderr
        self._tail_lines = tail_lines
        self._max_line = max_line_chars
        # An agent's event stream may end with one huge result line: it must arrive whole.
        self._max_stdout_line = max_stdout_line_chars or max_line_chars

        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._run_thread: int | None = None
        self._done = threading.Event()
        self._cancel_requested = False
        self._term_at: float | None = None  # monotonic time SIGTERM went to the group
        self._kill_sent = False

    # -- public -------------------------------------------------------------------------

    def run(self) -> RunResult:
        """Start the process, stream its output, wait for it; always reaps the child."""
        with self._lock:
            if self._run_thread is not None:
                raise RunnerError("Runner.run() can only be called once per Runner")
            self._run_thread = threading.get_ident()
        proc = self._start()
        try:
            return self._supervise(proc)
        finally:
            # Whatever happened (a callback raised, KeyboardInterrupt), leave nothing behind.
            if proc.poll() is None:
                self._signal_group(signal.SIGKILL)
            with contextlib.suppress(Exception):
                proc.wait()
            for pipe in (proc.stdout, proc.stderr):
                if pipe is not None:
                    with contextlib.suppress(OSError):
                        pipe.close()
            self._done.set()

    def kill(self) -> None:
        """Stop the run: SIGTERM to the process group, ``grace`` seconds, then SIGKILL.

        Thread-safe. Safe to call from a signal handler on the thread running :meth:`run`
        (Airflow's ``on_kill``): it then waits for the child itself instead of for the loop.
        """
        with self._lock:
            self._cancel_requested = True
            proc = self._proc
            if proc is None or self._done.is_set():
                return
        self._begin_termination()
        if threading.get_ident() == self._run_thread:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=self._grace)
            self._send_kill()
            return
        if not self._done.wait(self._grace + _ESCAPED_S + 1.0):
            self._send_kill()

    def terminate(self) -> None:
        """Stop the run without waiting: SIGTERM to the group now, SIGKILL after ``grace``.

        Safe from an output callback (the early-stop watcher): the run loop keeps draining the
        pipes and reaps the child. Unlike :meth:`kill`, the result is not marked cancelled.
        """
        with self._lock:
            if self._proc is None or self._done.is_set():
                return
        self._begin_termination()

    # -- internals ----------------------------------------------------------------------

    def _start(self) -> subprocess.Popen[bytes]:
        if self._cwd is not None:
            if not self._cwd.exists():
                raise RunnerError(f"working directory does not exist: {self._cwd}")
            if not self._cwd.is_dir():
                raise RunnerError(f"working directory is not a directory: {self._cwd}")
        env = dict(os.environ)
        for key, value in self._env.items():
            if not isinstance(value, str):
                raise RunnerError(
                    f"environment value for {key!r} must be a string, got {type(value).__name__}"
                )
            env[key] = value
        try:
            proc = subprocess.Popen(
                self._args,
                stdin=subprocess.PIPE if self._stdin is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self._cwd,
                env=env,
                shell=self._shell,
                start_new_session=True,  # own process group: killpg reaches grandchildren
                bufsize=0,
            )
        except FileNotFoundError as exc:
            exe = self._args if isinstance(self._args, str) else self._args[0]
            if self._cwd is not None and exc.filename == str(self._cwd):
                raise RunnerError(f"working directory does not exist: {self._cwd}") from exc
            # A name without a slash is looked up on PATH; one with a slash is a file path.
            raise ExecutableNotFoundError(exe, searched_path=os.sep not in exe) from exc
        except PermissionError as exc:
            exe = self._args if isinstance(self._args, str) else self._args[0]
            raise RunnerError(f"permission denied starting {exe!r}: {exc.strerror}") from exc
        except OSError as exc:
            raise RunnerError(f"could not start {self._args!r}: {exc}") from exc
        with self._lock:
            self._proc = proc
            cancel = self._cancel_requested
        if cancel:
            self._begin_termination()
        return proc

    def _supervise(self, proc: subprocess.Popen[bytes]) -> RunResult:
        start = time.monotonic()
        out = _LineStream(self._on_stdout, self._tail_lines, self._max_stdout_line)
        err = _LineStream(self._on_stderr, self._tail_lines, self._max_line)
        writer = self._start_stdin_writer(proc)

        selector = selectors.DefaultSelector()
        assert proc.stdout is not None and proc.stderr is not None
        for pipe, line_stream in ((proc.stdout, out), (proc.stderr, err)):
            os.set_blocking(pipe.fileno(), False)
            selector.register(pipe, selectors.EVENT_READ, line_stream)

        timed_out: Literal["wall", "idle"] | None = None
        limit: float | None = None
        last_output = start
        exited_at: float | None = None
        killed_at: float | None = None
        try:
            # Until both pipes are at EOF *and* the child exited: a child may close its pipes
            # and keep running, and the timeouts must still hold then.
            while selector.get_map() or proc.poll() is None:
                now = time.monotonic()
                wait = _POLL_S
                if self._timeout is not None:
                    wait = min(wait, start + self._timeout - now)
                if self._idle_timeout is not None:
                    wait = min(wait, last_output + self._idle_timeout - now)
                ready = selector.select(max(wait, 0.0)) if selector.get_map() else _sleep(wait)
                for key, _ in ready:
                    stream: _LineStream = key.data
                    fileobj: IO[bytes] = key.fileobj  # type: ignore[assignment]
                    try:
                        data = os.read(fileobj.fileno(), _CHUNK)
                    except BlockingIOError:
                        continue
                    if data:
                        stream.feed(data)
                        last_output = time.monotonic()
                    else:
                        selector.unregister(fileobj)
                        stream.close()

                now = time.monotonic()
                if timed_out is None and self._term_at is None:
                    if self._timeout is not None and now - start >= self._timeout:
                        timed_out, limit = "wall", self._timeout
                        self._begin_termination()
                    elif self._idle_timeout is not None and now - last_output >= self._idle_timeout:
                        timed_out, limit = "idle", self._idle_timeout
                        self._begin_termination()

                if (
                    self._term_at is not None
                    and not self._kill_sent
                    and now - self._term_at >= self._grace
                ):
                    self._send_kill()
                if self._kill_sent:
                    killed_at = killed_at or now
                    if now - killed_at >= _ESCAPED_S:
                        break  # something outside the group holds the pipes; stop waiting

                if exited_at is None and proc.poll() is not None:
                    exited_at = now
                if (
                    exited_at is not None
                    and self._term_at is None
                    and now - exited_at >= _EXIT_DRAIN_S
                ):
                    # The child is gone but a grandchild keeps the pipes open: clean up the group.
                    self._send_kill()
        finally:
            selector.close()
            out.close()
            err.close()

        returncode = proc.wait()
        leftovers = self._reap_group_leftovers()
        if writer is not None:
            writer.join(timeout=1.0)
        duration = time.monotonic() - start
        exit_code: int | None = returncode
        sig: str | None = None
        if returncode < 0:
            exit_code, sig = None, _signal_name(-returncode)
        return RunResult(
            exit_code=exit_code,
            signal_name=sig,
            timed_out=timed_out,
            duration_s=duration,
            stdout_lines=out.lines,
            stderr_lines=err.lines,
            stdout_tail=out.tail_text(),
            stderr_tail=err.tail_text(),
            cancelled=self._cancel_requested,
            timeout_s=limit,
            truncated_lines=out.truncated + err.truncated,
            stdout_bytes=out.bytes,
            stderr_bytes=err.bytes,
            leftovers_killed=leftovers,
            pid=proc.pid,
        )

    def _start_stdin_writer(self, proc: subprocess.Popen[bytes]) -> threading.Thread | None:
        if self._stdin is None or proc.stdin is None:
            return None
        payload, pipe = self._stdin, proc.stdin

        def write() -> None:
            # A child that exits or closes stdin early gives EPIPE: that is its choice, not ours.
            try:
                pipe.write(payload)
            except (BrokenPipeError, ConnectionResetError, OSError, ValueError):
                pass
            finally:
                with contextlib.suppress(OSError, ValueError):
                    pipe.close()

        thread = threading.Thread(target=write, name="autofix-runner-stdin", daemon=True)
        thread.start()
        return thread

    def _signal_group(self, sig: int) -> bool:
        proc = self._proc
        if proc is None:
            return False
        try:
            os.killpg(proc.pid, sig)  # pgid == pid thanks to start_new_session
        except (ProcessLookupError, PermissionError):
            return False
        return True

    def _begin_termination(self) -> None:
        with self._lock:
            if self._term_at is not None:
                return
            self._term_at = time.monotonic()
        self._signal_group(signal.SIGTERM)

    def _send_kill(self) -> None:
        with self._lock:
            if self._kill_sent:
                return
            self._kill_sent = True
            if self._term_at is None:
                self._term_at = time.monotonic()
        self._signal_group(signal.SIGKILL)

    def _reap_group_leftovers(self) -> bool:
        """After the child exits, stop group members it left running (orphans of the task)."""
        proc = self._proc
        if proc is None or not _group_alive(proc.pid):
            return False
        # Members left: ask politely, then insist. Bounded by a short wait, not the full grace.
        self._signal_group(signal.SIGTERM)
        deadline = time.monotonic() + min(self._grace, 1.0)
        while time.monotonic() < deadline:
            if not _group_alive(proc.pid):
                return True
            time.sleep(0.02)
        self._signal_group(signal.SIGKILL)
        return True


def _group_alive(pgid: int) -> bool:
    """True if a live (non-zombie) process is in the group. Zombies cannot be killed, only reaped
    by their parent (init for orphans), so they must not count."""
    proc_dir = Path("/proc")
    if not proc_dir.is_dir():
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True
    for entry in proc_dir.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # Fields after the parenthesised command name: state, ppid, pgrp, ...
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) >= 3 and fields[2] == str(pgid) and fields[0] not in ("Z", "X"):
            return True
    return False


def replay_lines(
    data: bytes, emit: LineCallback, *, tail_lines: int = 200, max_line_chars: int = 1_000_000
) -> str:
    """Split saved output into lines exactly as a run does (caps, ``\\r``, invalid UTF-8);
    returns the tail a RunResult would hold."""
    stream = _LineStream(emit, tail_lines, max_line_chars)
    for offset in range(0, len(data), _CHUNK):
        stream.feed(data[offset : offset + _CHUNK])
    stream.close()
    return stream.tail_text()


def run(argv: Sequence[str] | str, **kwargs: Any) -> RunResult:
    """Shorthand for ``Runner(argv, **kwargs).run()``."""
    return Runner(argv, **kwargs).run()
