"""The scripted agent end to end: SimFormat → Runner → the real format parsers."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest
import yaml

from autofix.agents.base import AgentOutcome, AgentRequest
from autofix.agents.registry import get_format
from autofix.errors import SimError
from autofix.result import FailureKind, FinishReason, RunStatus
from autofix.runner import Runner, RunResult
from autofix.sim.emit_claude import reset_clock
from autofix.sim.scenario import SCENARIOS_DIR, load_scenario, resolve_scenario

S, F, L, U = RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.LIMIT_REACHED, RunStatus.UNKNOWN


@dataclass
class SimRun:
    outcome: AgentOutcome
    result: RunResult
    stderr: list[str]


def run_sim(
    scenario: str | Path,
    state_dir: Path,
    prompt: str = "please fix it",
    *,
    operation: str = "fix_error",
    fmt: str | None = None,
    resume: str | None = None,
    cwd: Path | None = None,
    timeout: float = 30,
    grace: float = 5.0,
) -> SimRun:
    options: dict[str, Any] = {"scenario": str(scenario), "state_dir": str(state_dir)}
    if fmt:
        options["format"] = fmt
    sim = get_format("sim")
    invocation = sim.command(
        AgentRequest(prompt=prompt, resume_session_id=resume, operation=operation, options=options)
    )
    parser = sim.parser()
    stderr: list[str] = []
    result = Runner(
        invocation.argv,
        stdin=invocation.stdin,
        env=invocation.env,
        cwd=cwd,
        timeout=timeout,
        grace=grace,
        on_stdout=parser.feed,
        on_stderr=stderr.append,
    ).run()
    return SimRun(parser.finish(result.exit_code, result.stderr_tail), result, stderr)


def write_scenario(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


def test_bundled_scenarios_are_valid() -> None:
    names = sorted(p.stem for p in SCENARIOS_DIR.glob("*.yaml"))
    for required in (
        "noise_success",
        "traceback_exit0",
        "usage_limit",
        "auth_failure",
        "hang",
        "huge_output",
        "structured_retry",
    ):
        assert required in names
    for name in names:
        assert load_scenario(resolve_scenario(name)).steps


def test_noise_success(state: Path) -> None:
    run = run_sim("noise_success", state)
    assert run.result.exit_code == 0
    assert run.outcome.run_status is S and run.outcome.finish_reason is FinishReason.STOP
    assert run.outcome.final_text == "All 5 tests pass. No changes were needed."
    assert run.outcome.cost_usd == pytest.approx(0.0213)
    assert run.outcome.usage.input_tokens == 4200 and run.outcome.usage.cached_input_tokens == 3000
    assert run.outcome.model == "claude-sonnet-4-5-sim"
    stderr = "\n".join(run.stderr)
    assert re.search(r"\(node:\d+\) \[DEP0040\] DeprecationWarning: The `punycode` module", stderr)
    assert "(Use `node --trace-deprecation ...` to show where the warning was created)" in stderr
    assert "npm warn deprecated" in stderr and "Running pip as the 'root' user" in stderr
    assert (
        "  import pkg_resources" in run.stderr and "Cloning into 'example-project'..." in run.stderr
    )


def test_traceback_with_exit_0(state: Path) -> None:
    run = run_sim("traceback_exit0", state)
    assert run.result.exit_code == 0
    assert run.outcome.run_status is S  # the agent believes it; the stderr classifier must not
    assert "Traceback (most recent call last):" in run.result.stderr_tail
    assert run.stderr[-1] == "KeyError: 'repos'"


def test_sim_stderr_is_clean_without_noise(state: Path, tmp_path: Path) -> None:
    scenario = write_scenario(tmp_path / "quiet.yaml", {"steps": [{"text": "ok"}]})
    run = run_sim(scenario, state)
    assert run.outcome.run_status is S
    assert run.stderr == []  # e.g. no RuntimeWarning from "python -m autofix.sim"


# (format, failure) → (run status, failure kind, finish reason), as the real parser reads it.
CLAUDE = {
    None: (S, None, FinishReason.STOP),
    "usage_limit": (L, FailureKind.USAGE_LIMIT, FinishReason.ERROR),
    "rate_limit": (L, FailureKind.RATE_LIMIT, FinishReason.ERROR),
    "auth": (F, FailureKind.AUTH, FinishReason.ERROR),
    "server_error": (F, FailureKind.OVERLOADED, FinishReason.ERROR),  # the sim's is a 529
    "invalid_request": (F, FailureKind.CONTEXT_WINDOW, FinishReason.ERROR),  # prompt too long
    "api_error": (F, FailureKind.API_ERROR, FinishReason.ERROR),
    "max_turns": (F, FailureKind.MAX_TURNS, FinishReason.MAX_TURNS),
    "budget": (F, FailureKind.SPEND_CAP, FinishReason.ERROR),  # claude's own --max-budget-usd
    "structured_output": (F, FailureKind.STRUCTURED_OUTPUT, FinishReason.ERROR),
    "refusal": (S, FailureKind.REFUSAL, FinishReason.REFUSAL),
    "max_tokens": (S, FailureKind.MAX_TOKENS, FinishReason.LENGTH),
}
CODEX = {
    None: (S, None, FinishReason.STOP),
    "usage_limit": (L, FailureKind.USAGE_LIMIT, FinishReason.ERROR),
    "rate_limit": (L, FailureKind.RATE_LIMIT, FinishReason.ERROR),
    "auth": (F, FailureKind.AUTH, FinishReason.ERROR),
    "server_error": (F, FailureKind.SERVER_ERROR, FinishReason.ERROR),
    "invalid_request": (F, FailureKind.INVALID_REQUEST, FinishReason.ERROR),
    # "You exceeded your current quota, please check your plan and billing details.": out of
    # credits or at the monthly spend limit (OpenAI's error codes guide); never autofix's budget.
    "budget": (L, FailureKind.QUOTA_EXHAUSTED, FinishReason.ERROR),
    "refusal": (S, FailureKind.REFUSAL, FinishReason.REFUSAL),
    "max_tokens": (F, FailureKind.MAX_TOKENS, FinishReason.LENGTH),
}
GEMINI = {
    None: (S, None, FinishReason.STOP),
    "usage_limit": (L, FailureKind.USAGE_LIMIT, FinishReason.ERROR),
    "rate_limit": (L, FailureKind.RATE_LIMIT, FinishReason.ERROR),
    "auth": (F, FailureKind.AUTH, FinishReason.ERROR),
    "server_error": (F, FailureKind.OVERLOADED, FinishReason.ERROR),  # "model is overloaded"
    "invalid_request": (F, FailureKind.INVALID_REQUEST, FinishReason.ERROR),
    "max_turns": (F, FailureKind.MAX_TURNS, FinishReason.MAX_TURNS),
    # "[API Error: billing account is not active ...]": the provider's billing, which only a
    # payment lifts (quota_exhausted, permanent); never autofix's own budget.
    "budget": (L, FailureKind.QUOTA_EXHAUSTED, FinishReason.ERROR),
    "refusal": (F, FailureKind.REFUSAL, FinishReason.REFUSAL),
    "max_tokens": (F, FailureKind.MAX_TOKENS, FinishReason.LENGTH),
}
WRAPPER = {k: v for k, v in CLAUDE.items() if k not in ("invalid_request", "api_error")}

MATRIX = [
    *(
        (fmt, failure, expected)
        for fmt in ("claude", "claude-json")
        for failure, expected in CLAUDE.items()
    ),
    *(("codex", failure, expected) for failure, expected in CODEX.items()),
    *(
        (fmt, failure, expected)
        for fmt in ("gemini", "gemini-stream")
        for failure, expected in GEMINI.items()
        if fmt == "gemini" or failure not in ("refusal", "max_tokens")
    ),
    *(("wrapper", failure, expected) for failure, expected in WRAPPER.items()),
]


@pytest.mark.parametrize(
    ("fmt", "failure", "expected"),
    MATRIX,
    ids=lambda v: str(v) if isinstance(v, str | None) else "",
)
def test_every_format_and_failure(
    fmt: str,
    failure: str | None,
    expected: tuple[RunStatus, FailureKind | None, FinishReason],
    tmp_path: Path,
) -> None:
    step: dict[str, Any] = {"text": "The answer is 42.", "session_id": "sess-1", "cost_usd": 0.5}
    if failure:
        step["failure"] = failure
    scenario = write_scenario(tmp_path / "s.yaml", {"format": fmt, "steps": [step]})
    run = run_sim(scenario, tmp_path / "state")
    outcome = run.outcome
    assert (outcome.run_status, outcome.failure_kind, outcome.finish_reason) == expected, (
        outcome.errors
    )
    # A failed Gemini run saved no session to resume: its id is not reported.
    resumable = not (fmt.startswith("gemini") and outcome.run_status is not RunStatus.COMPLETED)
    assert outcome.session_id == ("sess-1" if resumable else None)
    assert outcome.non_json_lines == 0
    if failure is None:
        assert run.result.exit_code == 0
        assert outcome.final_text == "The answer is 42."
    elif expected[0] is not S:
        assert outcome.errors
    if fmt.startswith("gemini") and failure == "auth":
        assert run.result.exit_code == 41


def test_structured_retry_resumes_the_same_session(state: Path) -> None:
    first = run_sim("structured_retry", state, "List the test commands as JSON")
    assert first.outcome.run_status is S
    assert first.outcome.structured_output is None
    assert first.outcome.final_text is not None and '["pytest",]' in first.outcome.final_text
    session = first.outcome.session_id
    assert session
    second = run_sim("structured_retry", state, "Your JSON was invalid; fix it", resume=session)
    assert second.outcome.session_id == session
    assert second.outcome.structured_output == {
        "test_command": "pytest -q",
        "frameworks": ["pytest"],
    }


def test_attempt_counter_is_per_operation_and_resettable(state: Path, tmp_path: Path) -> None:
    scenario = write_scenario(
        tmp_path / "count.yaml",
        {
            "steps": [
                {"attempt": 1, "text": "one"},
                {"attempt": 2, "text": "two"},
                {"text": "later"},
            ]
        },
    )
    texts = [run_sim(scenario, state, operation="a").outcome.final_text for _ in range(3)]
    assert texts == ["one", "two", "later"]
    assert run_sim(scenario, state, operation="b").outcome.final_text == "one"
    cli = [
        sys.executable,
        "-m",
        "autofix.sim",
        "--scenario",
        str(scenario),
        "--state-dir",
        str(state),
    ]
    subprocess.run([*cli, "--reset"], check=True)
    assert run_sim(scenario, state, operation="a").outcome.final_text == "one"


def test_prompt_regex_and_resumed_conditions(state: Path, tmp_path: Path) -> None:
    scenario = write_scenario(
        tmp_path / "match.yaml",
        {
            "steps": [
                {"match": "(?i)discover tests", "text": "pytest"},
                {"resumed": True, "text": "continued"},
                {"text": "default"},
            ]
        },
    )
    assert run_sim(scenario, state, "Please DISCOVER TESTS now").outcome.final_text == "pytest"
    assert run_sim(scenario, state, "other", resume="s-9").outcome.final_text == "continued"
    assert run_sim(scenario, state, "other").outcome.final_text == "default"


def test_wrapper_protocol_over_stdin(state: Path, tmp_path: Path) -> None:
    scenario = write_scenario(
        tmp_path / "w.yaml",
        {
            "format": "wrapper",
            "steps": [{"match": "coverage", "text": "added tests"}, {"text": "other"}],
        },
    )
    run = run_sim(scenario, state, "improve coverage", resume="sess-w")
    assert run.outcome.run_status is S
    assert run.outcome.final_text == "added tests"
    assert run.outcome.session_id == "sess-w"
    assert run.result.exit_code == 0
    assert run.outcome.terminal_event == "run_completed/ok"


def test_files_patch_and_git_commit(state: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "calc.py").write_text("def divide(a, b):\n    return a / b\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "init"], cwd=repo, check=True)

    run = run_sim("fix_commit", state, cwd=repo)
    assert run.outcome.run_status is S, run.stderr
    assert "raise ZeroDivisionError" in (repo / "src" / "calc.py").read_text()
    log = subprocess.run(
        ["git", "log", "-1", "--format=%s|%an"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    assert log.stdout.strip() == "Guard divide() against b == 0|autofix-agent-sim"
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True, check=True
    )
    assert status.stdout == ""


def test_file_writes_stay_inside_cwd(state: Path, tmp_path: Path) -> None:
    scenario = write_scenario(
        tmp_path / "escape.yaml", {"steps": [{"files": [{"path": "../x.txt", "content": "no"}]}]}
    )
    work = tmp_path / "work"
    work.mkdir()
    run = run_sim(scenario, state, cwd=work)
    assert run.result.exit_code == 2
    assert not (tmp_path / "x.txt").exists()
    assert any("outside the working directory" in line for line in run.stderr)


def test_hang_is_killed_with_its_grandchild(state: Path) -> None:
    start = time.monotonic()
    run = run_sim("hang", state, timeout=1.5, grace=0.5)
    assert time.monotonic() - start < 1.5 + 0.5 + 2.0
    assert run.result.timed_out == "wall"
    assert run.result.signal_name == "SIGKILL"  # the scenario ignores SIGTERM
    assert run.outcome.run_status is U
    pids = [
        int(m.group(1)) for line in run.stderr if (m := re.search(r"grandchild pid=(\d+)", line))
    ]
    assert len(pids) == 1
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pids[0]).status() == psutil.STATUS_ZOMBIE:
                break
        except psutil.NoSuchProcess:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"grandchild {pids[0]} survived")


def test_crash_mid_stream(state: Path) -> None:
    run = run_sim("crash_midstream", state)
    assert run.result.signal_name == "SIGKILL" and run.result.describe() == "killed by SIGKILL"
    assert run.outcome.run_status is U
    assert run.outcome.session_id  # thread.started arrived before the crash
    assert run.outcome.errors == ["codex: no terminal event in the output (no exit code)"]


def test_huge_output(state: Path) -> None:
    run = run_sim("huge_output", state)
    assert run.result.stdout_lines == 200_000 + 3
    assert run.outcome.non_json_lines == 200_000
    assert run.outcome.run_status is S
    assert run.outcome.final_text == "The 200000 generated cases pass."


def test_scenario_from_env_and_errors(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AUTOFIX_SIM_SCENARIO", "usage_limit")
    sim = get_format("sim")
    invocation = sim.command(AgentRequest(prompt="p"))
    assert invocation.argv[:3] == [sys.executable, "-m", "autofix.sim"]
    assert str(SCENARIOS_DIR / "usage_limit.yaml") in invocation.argv
    assert "--prompt=p" in invocation.argv
    monkeypatch.delenv("AUTOFIX_SIM_SCENARIO")
    with pytest.raises(ValueError, match="AUTOFIX_SIM_SCENARIO"):
        get_format("sim").command(AgentRequest(prompt="p"))
    with pytest.raises(SimError, match=r"bundled scenarios: .*usage_limit"):
        resolve_scenario("no_such_scenario")
    bad = write_scenario(
        tmp_path / "bad.yaml", {"steps": [{"stderr_noise": ["nope"], "match": "("}]}
    )
    with pytest.raises(SimError) as info:
        load_scenario(bad)
    assert "unknown stderr_noise preset" in str(info.value) and "invalid regex" in str(info.value)
    # A catastrophic prompt regex is refused at load, as a user's pattern rule is.
    nested = write_scenario(tmp_path / "redos.yaml", {"steps": [{"match": "(a+)+$"}]})
    with pytest.raises(SimError, match=r"nested quantifier"):
        load_scenario(nested)


def test_console_script(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("autofix-agent-sim")
    listed = subprocess.run([str(script), "--list"], capture_output=True, text=True, check=True)
    assert "hang" in listed.stdout.split()
    missing = subprocess.run([str(script), "--scenario", "nope"], capture_output=True, text=True)
    assert missing.returncode == 2 and "scenario not found: nope" in missing.stderr
    played = subprocess.run(
        [
            str(script),
            "--scenario",
            "usage_limit",
            "--state-dir",
            str(tmp_path),
            "-p",
            "hi",
            "--format",
            "codex",
        ],
        capture_output=True,
        text=True,
    )
    events = [json.loads(line) for line in played.stdout.splitlines()]
    assert events[0]["type"] == "thread.started" and events[-1]["type"] == "turn.failed"
    assert played.returncode == 1


def test_scripted_usage_limit_names_its_real_reset_time(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("autofix-agent-sim")
    played = subprocess.run(
        [str(script), "--scenario", "usage_limit", "--state-dir", str(tmp_path), "-p", "hi"],
        capture_output=True,
        text=True,
    )
    events = [json.loads(line) for line in played.stdout.splitlines()]
    [limit] = [e for e in events if e["type"] == "rate_limit_event"]
    reset = limit["rate_limit_info"]["resetsAt"]
    said = {
        reset_clock(reset - 1),
        reset_clock(reset),
        reset_clock(reset + 1),
    }  # both read the clock once
    assert any(f"resets {clock} (UTC)" in events[-1]["result"] for clock in said), events[-1]
