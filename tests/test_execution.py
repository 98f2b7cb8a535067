"""AgentTask, the core behind AIWrapperOperator, with real agent subprocesses (no Airflow)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

from pydantic import BaseModel, Field

from autofix.audit.recorder import AuditRecorder
from autofix.audit.stores.memory import MemoryStore
from autofix.config import AutofixConfig, BudgetSettings, EscalationSettings, ValidationSettings
from autofix.result import FailureKind, RetryClass, Status
from autofix.task.agent_task import AgentTask, AgentTaskSpec, TraceContext


def make_task(tmp_path: Path, **spec: object) -> tuple[AgentTask, list[str]]:
    lines: list[str] = []
    options = dict(spec.pop("agent_options", {}) or {})  # type: ignore[call-overload]
    if spec.get("agent", "sim") == "sim":
        options.setdefault("state_dir", str(tmp_path / "sim-state"))
    task = AgentTask(
        AgentTaskSpec(agent_options=options, **spec),  # type: ignore[arg-type]
        config=AutofixConfig(),
        trace=TraceContext(trace_id="run-1", causation_id="dag.task#try1"),
        recorder=AuditRecorder(MemoryStore()),
        log_line=lines.append,
    )
    return task, lines


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); it is dead for our purposes once reaped by init.
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and ") Z " not in stat.read_text()


def test_hang_is_killed_within_timeout_plus_grace_with_its_grandchild(tmp_path: Path) -> None:
    task, lines = make_task(
        tmp_path,
        agent="sim",
        prompt="fix",
        operation="fix_error",
        timeout=1.5,
        grace=1.0,
        agent_options={"scenario": "hang"},
    )
    started = time.monotonic()
    result = task.run()
    elapsed = time.monotonic() - started
    assert elapsed < 1.5 + 1.0 + 4.0  # timeout + grace + interpreter start under load
    assert result.status is Status.TIMED_OUT
    assert result.retry_class is RetryClass.TRANSIENT
    assert result.error_message == "[fix_error] Operation timed out after 1.5s"
    pids = [int(m) for line in lines for m in re.findall(r"grandchild pid=(\d+)", line)]
    assert pids, "the scenario did not report its grandchild"
    deadline = time.monotonic() + 2
    while pid_alive(pids[0]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not pid_alive(pids[0]), "grandchild survived the process-group kill"


def test_kill_from_another_thread_stops_the_agent(tmp_path: Path) -> None:
    task, _ = make_task(
        tmp_path, agent="sim", prompt="fix", grace=0.5, agent_options={"scenario": "hang"}
    )
    threading.Timer(0.8, task.kill).start()
    started = time.monotonic()
    result = task.run()
    assert time.monotonic() - started < 5
    assert not result.success


def test_huge_output_keeps_memory_bounded(tmp_path: Path) -> None:
    # 200k stdout lines plus noise, in a fresh interpreter so peak RSS is ours alone.
    script = textwrap.dedent(
        f"""
        import resource, sys
        from autofix.audit.recorder import AuditRecorder
        from autofix.audit.stores.memory import MemoryStore
        from autofix.config import AutofixConfig
        from autofix.task.agent_task import AgentTask, AgentTaskSpec, TraceContext
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        count = [0]
        def sink(line):
            count[0] += line.count("\\n") + 1  # blocks of lines
        task = AgentTask(
            AgentTaskSpec(agent="sim", prompt="p", agent_options={{"scenario": "huge_output",
                          "state_dir": {str(tmp_path)!r}}}),
            config=AutofixConfig(), trace=TraceContext("run"), recorder=AuditRecorder(MemoryStore()),
            log_line=sink)
        result = task.run()
        grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        print(result.success, count[0], round(grown, 1))
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=240, check=True
    )
    success, lines, grown_mb = proc.stdout.split()
    assert success == "True"
    assert int(lines) >= 200_000
    assert float(grown_mb) < 48, f"peak RSS grew {grown_mb} MB"


def test_plain_command_failure_summary_on_stdout_fails_at_exit_zero(tmp_path: Path) -> None:
    script = tmp_path / "tests.sh"
    script.write_text("echo 'collected 3 items'\necho '1 failed, 2 passed in 0.12s'\nexit 0\n")
    task, _ = make_task(
        tmp_path, agent="plain", prompt="", command=["bash", str(script)], operation="run_tests"
    )
    result = task.run()
    assert not result.success
    assert "1 failed, 2 passed" in result.error_message


def test_plain_command_that_hides_its_exit_status_is_judged_by_its_findings(
    tmp_path: Path,
) -> None:
    """The task tells the verdict its argv: `|| true` makes exit 0 prove nothing (issue 29)."""
    lint = tmp_path / "lint.sh"  # prints one ansible-lint pep8 finding and fails, as the tool does
    lint.write_text(
        "echo 'site.yml:4: yaml[truthy]: Truthy value should be one of [false, true]'\nexit 2\n"
    )
    masked = ["bash", "-c", f"bash {lint} || true"]
    task, _ = make_task(tmp_path, agent="plain", prompt="", command=masked, operation="lint")
    result = task.run()
    assert not result.success
    assert result.evidence[0].rule_id == "masked-exit-finding"
    assert "`|| true`" in result.error_message
    task, _ = make_task(tmp_path, agent="plain", prompt="", command=["bash", "-c", f"bash {lint}"])
    assert task.run().exit_code == 2  # the status reaches the run: the exit code decides


def test_plain_command_output_is_validated_against_output_schema(tmp_path: Path) -> None:
    """agent="plain" + output_schema: the command's stdout is the answer, retried with feedback."""
    script = tmp_path / "answer.py"
    script.write_text(
        textwrap.dedent(
            """
            import pathlib, sys
            prompt = sys.stdin.read()
            marker = pathlib.Path(sys.argv[1])
            if not marker.exists():  # first attempt: an invalid answer
                marker.write_text("1")
                print('{"test_command": "pytest", "frameworks": []}')
            else:  # the retry carries the feedback in its prompt
                assert "frameworks" in prompt, prompt
                print("Here it is:")
                print('{"test_command": "pytest -q", "frameworks": ["pytest"]}')
            """
        )
    )
    task, _ = make_task(
        tmp_path,
        agent="plain",
        prompt="How are tests run? Answer in JSON.",
        command=[sys.executable, str(script), str(tmp_path / "attempted")],
        output_schema=_TestConfig,
        max_attempts=2,
    )
    result = task.run()
    assert result.success, result.error_message
    assert result.attempt == 2
    assert result.data == {"test_command": "pytest -q", "frameworks": ["pytest"]}


def test_missing_cwd_is_a_clear_permanent_failure(tmp_path: Path) -> None:
    task, _ = make_task(
        tmp_path,
        agent="sim",
        prompt="p",
        cwd=str(tmp_path / "nope"),
        agent_options={"scenario": "noise_success"},
    )
    result = task.run()
    assert result.retry_class is RetryClass.PERMANENT
    assert "nope" in result.error_message


def test_a_missing_agent_cli_is_its_own_permanent_kind(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    task, lines = make_task(tmp_path, agent="claude", prompt="p", env={"PATH": str(empty)})
    result = task.run()
    assert not result.success
    assert result.failure_kind is FailureKind.MISSING_CLI
    assert result.retry_class is RetryClass.PERMANENT
    assert result.exit_code is None and result.run_status is None  # nothing ran
    assert result.error_message == (
        "executable not found: 'claude' (not on PATH); install it or pass its absolute path"
    )
    assert all(str(empty) not in line for line in lines)  # no PATH dump in the log either


def test_a_missing_cwd_stays_a_config_failure(tmp_path: Path) -> None:
    task, _ = make_task(
        tmp_path, agent="plain", prompt="", command=["true"], cwd=str(tmp_path / "nope")
    )
    result = task.run()
    assert result.failure_kind is FailureKind.CONFIG


def test_secret_env_values_never_reach_the_log_or_result(tmp_path: Path) -> None:
    secret = "zq7Xv2mNp9Lr4Tw8Kd3"  # matches no built-in pattern: masked because of its env name
    script = tmp_path / "leak.sh"
    script.write_text('echo "using key $MY_SERVICE_TOKEN" >&2\nexit 1\n')
    task, lines = make_task(
        tmp_path,
        agent="plain",
        prompt="",
        command=["bash", str(script)],
        env={"MY_SERVICE_TOKEN": secret},
    )
    result = task.run()
    assert not result.success
    assert all(secret not in line for line in lines)
    assert secret not in result.model_dump_json()


STUBBORN = (
    'format: claude\nsteps:\n  - text: "{\\"test_command\\": \\"pytest\\", \\"frameworks\\": []}"\n'
)


class _TestConfig(BaseModel):
    test_command: str = Field(min_length=1)
    frameworks: list[str] = Field(min_length=1)


def test_budget_is_checked_before_every_call(tmp_path: Path) -> None:
    store = MemoryStore()
    config = AutofixConfig(budgets=BudgetSettings(max_calls_per_run=1))
    task = AgentTask(
        AgentTaskSpec(
            agent="sim",
            prompt="p",
            operation="fix",
            agent_options={"scenario": "noise_success", "state_dir": str(tmp_path)},
        ),
        config=config,
        trace=TraceContext(trace_id="run-budget"),
        recorder=AuditRecorder(store, budgets=config.budgets),
        log_line=lambda _: None,
    )
    assert task.run().success
    second = task.run()
    assert second.status is Status.BUDGET_EXHAUSTED
    assert second.retry_class is RetryClass.PERMANENT
    assert "max_calls_per_run=1" in second.error_message
    assert len(store.by_trace("run-budget")) == 1  # the refused call never ran


def test_escalation_switches_the_model_for_one_last_attempt(tmp_path: Path) -> None:
    scenario = tmp_path / "stubborn.yaml"
    scenario.write_text(STUBBORN)
    store = MemoryStore()
    config = AutofixConfig(
        validation=ValidationSettings(escalation=EscalationSettings(model="bigger-model"))
    )
    task = AgentTask(
        AgentTaskSpec(
            agent="sim",
            prompt="How are tests run?",
            operation="discover_tests",
            model="small-model",
            output_schema=_TestConfig,
            agent_options={"scenario": str(scenario), "state_dir": str(tmp_path)},
        ),
        config=config,
        trace=TraceContext(trace_id="run-escalate"),
        recorder=AuditRecorder(store),
        log_line=lambda _: None,
    )
    result = task.run()
    assert not result.success and result.attempts == 3
    models = [
        r.envelope.model
        for r in sorted(store.by_trace("run-escalate"), key=lambda r: r.result.attempt_number)
    ]
    assert models == ["small-model", "small-model", "bigger-model"]
