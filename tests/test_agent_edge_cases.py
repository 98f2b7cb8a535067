"""Issue 12's edge cases through AgentTask with tiny fake agents (real subprocesses, no Airflow):
a megabyte result line, a UTF-8 BOM, exit 130 / SIGINT, Codex's empty turn, early stops."""

from __future__ import annotations

import json
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from autofix.agents.registry import get_format, parse_output
from autofix.agents.watch import WatchSettings
from autofix.audit.recorder import AuditRecorder
from autofix.audit.stores.memory import MemoryStore
from autofix.config import AgentSettings, AutofixConfig
from autofix.result import FailureKind, RetryClass, RunStatus, Status
from autofix.task.agent_task import AgentTask, AgentTaskSpec, TraceContext
from autofix.task.judge import judge_saved_output


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    answer: str


def fake_agent(tmp_path: Path, body: str) -> list[str]:
    """A Python script standing in for a CLI; ``state`` counts its runs (attempts)."""
    script = tmp_path / "agent.py"
    script.write_text(
        "import json, os, sys, time\n"
        f"STATE = {str(tmp_path / 'runs')!r}\n"
        "n = int(open(STATE).read()) + 1 if os.path.exists(STATE) else 1\n"
        "open(STATE, 'w').write(str(n))\n" + textwrap.dedent(body)
    )
    return [sys.executable, str(script)]


def run_task(tmp_path: Path, agent: str, body: str, **spec: Any) -> Any:
    agents = spec.pop("agents", AgentSettings())
    task = AgentTask(
        AgentTaskSpec(agent=agent, prompt="p", command=fake_agent(tmp_path, body), **spec),
        config=AutofixConfig(agents=agents),
        trace=TraceContext(trace_id="run-1"),
        recorder=AuditRecorder(MemoryStore()),
        log_line=lambda line: None,
    )
    return task.run()


def claude_result(text: str) -> str:
    return json.dumps(
        {"type": "result", "subtype": "success", "is_error": False, "result": text,
         "session_id": "s-1", "stop_reason": "end_turn"}
    )  # fmt: skip


def test_a_result_line_megabytes_long_is_still_a_success(tmp_path: Path) -> None:
    # Longer than the runner's default line cap (1 MB): the terminal event must arrive whole.
    big = "x" * 3_000_000
    result = run_task(tmp_path, "claude", f"print({claude_result(big)!r})\n", agent_options={})
    assert result.success, result.error_message
    assert result.final_text is not None and len(result.final_text) == 3_000_000


def test_utf8_bom_on_the_first_line_is_ignored(tmp_path: Path) -> None:
    line = claude_result("pong")
    assert parse_output("claude", "\ufeff" + line, 0).run_status is RunStatus.COMPLETED
    body = f"sys.stdout.buffer.write(b'\\xef\\xbb\\xbf' + {line!r}.encode() + b'\\n')\n"
    result = run_task(tmp_path, "claude", body)
    assert result.success and result.final_text == "pong"


def test_exit_130_is_cancelled(tmp_path: Path) -> None:
    result = run_task(tmp_path, "gemini", "sys.exit(130)\n")
    assert result.failure_kind is FailureKind.CANCELLED
    assert result.status is Status.CANCELLED and result.retry_class is RetryClass.TRANSIENT


def test_sigint_is_cancelled(tmp_path: Path) -> None:
    body = "import signal\nsignal.signal(signal.SIGINT, signal.SIG_DFL)\nos.kill(os.getpid(), 2)\n"
    result = run_task(tmp_path, "codex", body)
    assert result.failure_kind is FailureKind.CANCELLED, result.error_message


CODEX_EMPTY = """
print(json.dumps({"type": "thread.started", "thread_id": "t-1"}))
print(json.dumps({"type": "turn.started"}))
if n > 1:
    item = {"id": "i", "type": "agent_message", "text": json.dumps({"answer": "pong"})}
    print(json.dumps({"type": "item.completed", "item": item}))
print(json.dumps({"type": "turn.completed", "usage": {"input_tokens": 5, "output_tokens": 1}}))
"""


def test_codex_turn_without_agent_message_is_an_empty_answer(tmp_path: Path) -> None:
    result = run_task(tmp_path, "codex", CODEX_EMPTY.replace("n > 1", "False"))
    assert not result.success
    assert result.failure_kind is FailureKind.EMPTY_ANSWER
    assert result.retry_class is RetryClass.INVALID_OUTPUT


def test_codex_empty_answer_is_retried_with_feedback_under_a_schema(tmp_path: Path) -> None:
    result = run_task(tmp_path, "codex", CODEX_EMPTY, output_schema=Answer, max_attempts=3)
    assert result.success and result.attempts == 2
    assert result.data == {"answer": "pong"}


CODEX_401_FOREVER = """
print(json.dumps({"type": "thread.started", "thread_id": "t-1"}), flush=True)
for i in range(1, 50):
    message = f"Reconnecting... {i}/50 (unexpected status 401 Unauthorized: bad key)"
    print(json.dumps({"type": "error", "message": message}), flush=True)
    time.sleep(0.2)
"""


def test_a_hopeless_retry_loop_is_stopped_early(tmp_path: Path) -> None:
    started = time.monotonic()
    result = run_task(tmp_path, "codex", CODEX_401_FOREVER, timeout=60, grace=1)
    assert time.monotonic() - started < 10  # the loop runs 10 s; the wall clock 60 s
    assert result.failure_kind is FailureKind.AUTH
    assert result.retry_class is RetryClass.PERMANENT
    assert "stopped early" in result.error_message


def test_early_stop_can_be_turned_off(tmp_path: Path) -> None:
    off = AgentSettings(early_stop_hopeless_after=0, early_stop_repeated_after=0)
    result = run_task(tmp_path, "codex", CODEX_401_FOREVER, timeout=2, grace=1, agents=off)
    assert result.failure_kind is FailureKind.TIMEOUT


def test_codex_waiting_for_network_is_stopped_in_a_saved_run() -> None:
    lines = [
        json.dumps({"type": "error", "message": "Reconnecting... waiting for network (x)"}),
    ] * 3
    stdout = "\n".join(lines).encode()
    result = judge_saved_output(
        get_format("codex"),
        stdout,
        exit_code=None,
        signal_name="SIGTERM",
        watch=WatchSettings(hopeless_after=2),
    )
    assert result.failure_kind is FailureKind.CONNECTION and "stopped early" in result.error_message


def test_project_clis_only_when_asked_and_not_on_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from autofix.task.spec import project_cli

    local = tmp_path / ".agents" / "node_modules" / ".bin"
    local.mkdir(parents=True)
    (local / "codex").write_text("#!/bin/sh\n")
    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    codex = get_format("codex")
    empty_path = {"PATH": str(tmp_path / "nothing")}
    assert project_cli(codex, empty_path, None) is None  # not asked: never looked up
    assert project_cli(codex, empty_path, ".agents") == [str(local / "codex")]
    on_path = tmp_path / "bin"
    on_path.mkdir()
    (on_path / "codex").write_text("#!/bin/sh\n")
    (on_path / "codex").chmod(0o755)
    assert project_cli(codex, {"PATH": str(on_path)}, ".agents") is None  # the user's own wins
    assert project_cli(get_format("plain"), empty_path, ".agents") is None


HOSTILE = [
    '{"a":' * 5000 + "1" + "}" * 5000,  # nesting past the recursion limit
    '{"type":"result","subtype":["x"],"is_error":"yes","errors":{"a":1},"api_error_status":"4x"}',
    '{"type":"assistant","error":7,"message":{"content":"text","stop_reason":[1]}}',
    '{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","resetsAt":"soon"}}',
    '{"type":"turn.failed","error":"not an object"}',
    '{"type":"error","message":{"nested":true}}',
    '{"type":"item.completed","item":{"type":"agent_message","text":5}}',
    '{"type":"result","status":"error","error":{"type":3,"message":["x"],"code":"abc"}}',
    '{"type":"message","role":"assistant","content":{"x":1},"delta":"yes"}',
    '{"type":"result","status":"success","stats":"none"}',
    "\ufeff[" * 1000,
]


@pytest.mark.parametrize("fmt", ["claude", "codex", "gemini", "wrapper"])
def test_parsers_survive_wrong_types_and_deep_nesting(fmt: str) -> None:
    for line in HOSTILE:
        for exit_code in (0, 1, 130, 173, None):
            outcome = parse_output(fmt, [line, line], exit_code, stderr=line)
            assert outcome.run_status is not RunStatus.COMPLETED or outcome.errors is not None
            judged = judge_saved_output(get_format(fmt), (line + "\n").encode() * 2, b"", exit_code)
            assert not judged.success or exit_code == 0
