"""autofix.runner with real subprocesses: streaming, timeouts, process-group kills, bounds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import psutil
import pytest

from autofix.errors import ExecutableNotFoundError, RunnerError
from autofix.runner import Runner, RunResult, run

PY = sys.executable


def py(code: str) -> list[str]:
    return [PY, "-c", textwrap.dedent(code)]


def gone(pid: int) -> bool:
    """True when the process no longer runs (a zombie waiting for init counts as gone)."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def wait_gone(pid: int, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if gone(pid):
            return True
        time.sleep(0.02)
    return gone(pid)


def test_exit_code_lines_and_tails() -> None:
    out: list[str] = []
    err: list[str] = []
    result = run(
        py("""
            import sys
            for i in range(5):
                print(f"out {i}")
            print("err line", file=sys.stderr)
            sys.exit(3)
        """),
        on_stdout=out.append,
        on_stderr=err.append,
    )
    assert result.exit_code == 3
    assert result.signal_name is None
    assert result.describe() == "exit 3"
    assert not result.ok
    assert out == [f"out {i}" for i in range(5)]
    assert err == ["err line"]
    assert result.stdout_lines == 5 and result.stderr_lines == 1
    assert result.stdout_tail.splitlines()[-1] == "out 4"
    assert result.stderr_tail == "err line"


def test_tail_is_bounded() -> None:
    result = run(py("for i in range(1000): print(i)"), tail_lines=10)
    assert result.stdout_lines == 1000
    assert result.stdout_tail.splitlines() == [str(i) for i in range(990, 1000)]


def test_env_overrides_and_cwd(tmp_path: Path) -> None:
    lines: list[str] = []
    result = run(
        py(
            "import os; print(os.environ['AUTOFIX_T']); print(os.getcwd()); print(os.environ.get('PATH') is not None)"
        ),
        env={"AUTOFIX_T": "from-env"},
        cwd=tmp_path,
        on_stdout=lines.append,
    )
    assert result.ok
    assert lines == ["from-env", str(tmp_path.resolve()), "True"]


def test_stdin_payload_is_delivered() -> None:
    lines: list[str] = []
    result = run(
        py("import sys; print(sys.stdin.read().upper())"), stdin="hello\n", on_stdout=lines.append
    )
    assert result.ok
    assert lines == ["HELLO", ""]


def test_no_stdin_means_empty_stdin() -> None:
    lines: list[str] = []
    result = run(
        py("import sys; print(repr(sys.stdin.read()))"), on_stdout=lines.append, timeout=10
    )
    assert result.ok and lines == ["''"]


def test_child_that_closes_stdin_early_is_fine() -> None:
    # 8 MB of stdin to a child that reads nothing and exits: the writer gets EPIPE.
    result = run(py("import os; os.close(0); print('bye')"), stdin=b"x" * (8 << 20), timeout=10)
    assert result.exit_code == 0
    assert result.stdout_tail == "bye"


def test_invalid_utf8_is_replaced_not_fatal() -> None:
    lines: list[str] = []
    result = run(
        py(
            r"import sys; sys.stdout.buffer.write(b'ok \xff\xfe bad\r\nnext\n'); sys.stdout.buffer.write(b'no newline')"
        ),
        on_stdout=lines.append,
    )
    assert result.ok
    assert lines == ["ok \ufffd\ufffd bad", "next", "no newline"]


def test_multi_megabyte_line_is_capped() -> None:
    lines: list[str] = []
    result = run(
        py("""
            import sys
            sys.stdout.write("a" * (5 << 20) + "\\n")
            sys.stdout.write("short\\n")
            sys.stdout.write("b" * (3 << 20))
        """),
        on_stdout=lines.append,
        max_line_chars=100_000,
    )
    assert result.ok
    assert len(lines) == 3
    assert lines[0].startswith("a" * 100_000) and "line truncated" in lines[0]
    assert len(lines[0]) < 100_100
    assert lines[1] == "short"
    assert lines[2].startswith("b" * 100_000) and len(lines[2]) < 100_100
    assert result.truncated_lines == 2
    assert len(result.stdout_tail) < 20_000  # the tail never holds whole huge lines


def test_exit_by_signal_is_named() -> None:
    result = run(py("import os, signal; os.kill(os.getpid(), signal.SIGKILL)"))
    assert result.exit_code is None
    assert result.signal_name == "SIGKILL"
    assert result.describe() == "killed by SIGKILL"


def test_missing_cwd_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    with pytest.raises(RunnerError, match=r"working directory does not exist: .*nope"):
        run(["true"], cwd=missing)


def test_missing_executable_names_it_and_path() -> None:
    with pytest.raises(RunnerError, match=r"executable not found: 'autofix-no-such-tool'.*PATH"):
        run(["autofix-no-such-tool", "--help"])


def test_a_missing_executable_is_its_own_error_with_the_reason_first(tmp_path: Path) -> None:
    with pytest.raises(ExecutableNotFoundError) as caught:
        run(["autofix-no-such-tool", "--help"], env={"PATH": str(tmp_path)})
    assert isinstance(caught.value, RunnerError)  # callers catching RunnerError still do
    message = str(caught.value)
    assert message.startswith("executable not found: 'autofix-no-such-tool' (not on PATH)")
    assert str(tmp_path) not in message  # no PATH dump
    assert caught.value.executable == "autofix-no-such-tool"


def test_a_missing_executable_path_is_not_blamed_on_path(tmp_path: Path) -> None:
    missing = tmp_path / "bin" / "tool"
    with pytest.raises(ExecutableNotFoundError, match=r"^executable not found: .*'.*") as caught:
        run([str(missing)])
    assert str(caught.value).startswith(f"executable not found: '{missing}' (no such file)")


def test_a_missing_cwd_is_not_a_missing_executable(tmp_path: Path) -> None:
    with pytest.raises(RunnerError) as caught:
        run(["true"], cwd=tmp_path / "nope")
    assert not isinstance(caught.value, ExecutableNotFoundError)


def test_shell_string_only_when_asked() -> None:
    lines: list[str] = []
    assert run("echo a; echo b", shell=True, on_stdout=lines.append).ok
    assert lines == ["a", "b"]
    lines.clear()
    # Without shell=True the string is split into argv: ";" is just an argument.
    assert run("echo a; echo b", on_stdout=lines.append).ok
    assert lines == ["a; echo b"]


def test_lines_arrive_live_before_exit() -> None:
    seen: list[tuple[str, float]] = []
    start = time.monotonic()
    result = run(
        py("""
            import time
            print("first", flush=True)
            time.sleep(1.0)
            print("second", flush=True)
        """),
        on_stdout=lambda line: seen.append((line, time.monotonic() - start)),
    )
    assert result.ok
    assert [line for line, _ in seen] == ["first", "second"]
    assert seen[0][1] < result.duration_s - 0.5  # the first line came well before the exit


def _hang_with_grandchild(ignore_term: bool) -> list[str]:
    trap = "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n" if ignore_term else ""
    child = f"import signal, time\n{trap}time.sleep(60)"
    return py(f"""
        import signal, subprocess, sys, time
        {trap.strip()}
        p = subprocess.Popen([sys.executable, "-c", {child!r}])
        print(p.pid, flush=True)
        time.sleep(60)
    """)


@pytest.mark.parametrize("ignore_term", [False, True])
def test_wall_timeout_kills_the_whole_group(ignore_term: bool) -> None:
    pids: list[str] = []
    start = time.monotonic()
    result = run(_hang_with_grandchild(ignore_term), timeout=1.0, grace=0.5, on_stdout=pids.append)
    elapsed = time.monotonic() - start
    assert result.timed_out == "wall"
    assert result.describe() == "timed out after 1s (wall clock)"
    assert elapsed < 1.0 + 0.5 + 1.5
    assert result.signal_name == ("SIGKILL" if ignore_term else "SIGTERM")
    grandchild = int(pids[0])
    assert wait_gone(grandchild), "grandchild survived the group kill"
    assert gone(result.pid or 0)


def test_idle_timeout_fires_only_without_output() -> None:
    result = run(
        py("""
            import time
            for i in range(6):
                print(i, flush=True)
                time.sleep(0.2)
            time.sleep(30)
        """),
        idle_timeout=0.8,
        grace=0.5,
    )
    assert result.timed_out == "idle"
    assert result.stdout_lines == 6  # it kept running while it talked
    assert "without output (idle)" in result.describe()
    assert result.duration_s < 1.2 + 0.8 + 1.0


def test_kill_from_another_thread() -> None:
    pids: list[str] = []
    runner = Runner(_hang_with_grandchild(True), grace=0.5, on_stdout=pids.append)
    box: dict[str, RunResult] = {}
    thread = threading.Thread(target=lambda: box.setdefault("r", runner.run()))
    thread.start()
    deadline = time.monotonic() + 10
    while not pids and time.monotonic() < deadline:
        time.sleep(0.02)
    start = time.monotonic()
    runner.kill()
    thread.join(10)
    assert time.monotonic() - start < 3
    result = box["r"]
    assert result.cancelled
    assert result.signal_name == "SIGKILL"
    assert result.describe() == "cancelled (killed by SIGKILL)"
    assert wait_gone(int(pids[0]))


def test_kill_from_a_signal_handler_on_the_running_thread() -> None:
    # Airflow calls on_kill from its SIGTERM handler, on the thread that runs the task.
    runner = Runner(py("import time; print('up', flush=True); time.sleep(60)"), grace=0.5)
    previous = signal.signal(signal.SIGUSR1, lambda *_: runner.kill())
    try:
        timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGUSR1))
        timer.start()
        start = time.monotonic()
        result = runner.run()
        assert time.monotonic() - start < 3
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert result.cancelled and result.signal_name == "SIGTERM"


def test_kill_before_run_prevents_a_long_run() -> None:
    runner = Runner(py("import time; time.sleep(30)"), grace=0.2)
    runner.kill()
    start = time.monotonic()
    result = runner.run()
    assert time.monotonic() - start < 2
    assert result.cancelled


def test_grandchild_holding_the_pipe_after_exit_is_cleaned_up() -> None:
    pids: list[str] = []
    start = time.monotonic()
    result = run(
        py("""
            import subprocess, sys
            p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            print(p.pid, flush=True)
        """),
        on_stdout=pids.append,
        timeout=30,
    )
    assert result.exit_code == 0
    assert time.monotonic() - start < 6
    assert wait_gone(int(pids[0]))


def test_callback_error_propagates_and_leaves_no_process() -> None:
    pids: list[str] = []

    def boom(line: str) -> None:
        pids.append(line)
        raise ValueError("callback failed")

    with pytest.raises(ValueError, match="callback failed"):
        run(py("import os, time; print(os.getpid(), flush=True); time.sleep(30)"), on_stdout=boom)
    assert wait_gone(int(pids[0]))


def test_callbacks_are_fast_enough() -> None:
    count = [0]

    def cb(_: str) -> None:
        count[0] += 1

    start = time.monotonic()
    result = run(py("import sys; sys.stdout.write(('y' * 60 + '\\n') * 300_000)"), on_stdout=cb)
    elapsed = time.monotonic() - start
    assert result.ok and count[0] == 300_000
    assert count[0] / elapsed > 50_000, f"{count[0] / elapsed:.0f} lines/s"


_MEMORY_PROBE = """
import json, resource, sys
from autofix.runner import run

base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
seen = [0, 0]
def out(line):
    seen[0] += 1
def err(line):
    seen[1] += 1
child = (
    "import sys\\n"
    "block = ('z' * 99 + '\\\\n') * 10000\\n"
    "for _ in range(190): sys.stdout.write(block)\\n"
    "sys.stdout.write('w' * (10 << 20) + '\\\\n')\\n"
    "sys.stderr.write(block)\\n"
)
result = run([sys.executable, "-c", child], on_stdout=out, on_stderr=err)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"base_kb": base, "peak_kb": peak, "bytes": result.stdout_bytes,
                  "lines": result.stdout_lines, "seen": seen, "exit": result.exit_code}))
"""


def test_memory_stays_bounded_for_200mb_of_output() -> None:
    done = subprocess.run(
        [PY, "-c", _MEMORY_PROBE], capture_output=True, text=True, timeout=120, check=True
    )
    report = json.loads(done.stdout)
    assert report["exit"] == 0
    assert report["bytes"] >= 200 * 1000 * 1000
    assert report["lines"] == 1_900_001
    assert report["seen"] == [1_900_001, 10_000]
    growth_mb = (report["peak_kb"] - report["base_kb"]) / 1024
    assert growth_mb < 40, f"RSS grew by {growth_mb:.1f} MB"


def test_timeout_holds_after_the_child_closes_its_pipes() -> None:
    result = run(
        py("import os, time; print('bye', flush=True); os.close(1); os.close(2); time.sleep(30)"),
        timeout=1.0,
        grace=0.5,
    )
    assert result.timed_out == "wall"
    assert result.duration_s < 3
    assert result.stdout_tail == "bye"
