"""verify=: checks after a claimed success, fed back to the agent (real subprocesses: the
scripted agent, git, shell commands; no Airflow)."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path
from typing import Any

import pytest

from autofix.audit.events import EventName
from autofix.audit.recorder import AuditRecorder
from autofix.audit.stores.memory import MemoryStore
from autofix.config import AutofixConfig
from autofix.errors import VerifyConfigError
from autofix.result import FailureKind, RetryClass, Status
from autofix.task.agent_task import AgentTask, AgentTaskSpec, TraceContext
from autofix.verification import CheckKind
from autofix.verify.checks import (
    CallableCheck,
    CommandCheck,
    ExpectChanges,
    ExpectFiles,
    ToolCheck,
    as_checks,
)


def git_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    for args in (
        ["init", "-q"],
        ["config", "user.email", "t@example.com"],
        ["config", "user.name", "t"],
    ):
        subprocess.run(["git", "-C", str(path), *args], check=True)
    (path / "README.md").write_text("x\n")
    subprocess.run(["git", "-C", str(path), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(path), "commit", "-qm", "init"], check=True)
    return path


def scenario(tmp_path: Path, steps: str, fmt: str = "claude") -> str:
    path = tmp_path / "scenario.yaml"
    path.write_text(
        f"name: verify_case\nformat: {fmt}\nsteps:\n"
        + textwrap.indent(textwrap.dedent(steps), "  ")
    )
    return str(path)


def run(
    tmp_path: Path, steps: str, verify: list[Any], *, fmt: str = "claude", **spec: Any
) -> tuple[Any, MemoryStore]:
    project = git_repo(tmp_path / "project")
    store = MemoryStore()
    task = AgentTask(
        AgentTaskSpec(
            agent="sim",
            prompt="Make the tests pass.",
            operation="fix",
            cwd=str(project),
            agent_options={
                "scenario": scenario(tmp_path, steps, fmt),
                "state_dir": str(tmp_path / "state"),
            },
            verify=verify,
            **spec,
        ),
        config=AutofixConfig(),
        trace=TraceContext(trace_id="run-v"),
        recorder=AuditRecorder(store),
        log_line=lambda line: None,
    )
    return task.run(), store


CLAIMS_WITHOUT_CHANGE = """
- attempt: 1
  text: "Fixed it and committed."
- files:
    - {path: ok.txt, content: "done\\n"}
  git_commit: "Write ok.txt"
  text: "Now really fixed."
"""


def test_a_claim_without_changes_is_sent_back_and_the_second_attempt_passes(tmp_path: Path) -> None:
    result, store = run(tmp_path, CLAIMS_WITHOUT_CHANGE, ["expect_changes", "test -f ok.txt"])
    assert result.success, result.error_message
    assert result.attempts == 2
    first, second = result.verification
    assert (first.attempt, first.passed, second.attempt, second.passed) == (1, False, 2, True)
    assert {c.name for c in first.failed} == {"expect_changes", "test -f ok.txt"}
    assert "no new commit" in first.failed[0].errors[0]
    assert "expect_changes" in first.feedback
    # Each attempt's audit record carries its own checks; the events say so in order.
    records = store.by_trace("run-v")
    assert [r.result.failure_kind for r in records] == [FailureKind.VERIFICATION_FAILED, None]
    assert [len(r.result.verification) for r in records] == [1, 1]
    names = [e.name for e in store.events("run-v")]
    assert names.index(EventName.VERIFICATION_FAILED) < names.index(EventName.RETRY_STARTED)
    assert names[-2:] == [EventName.VERIFICATION_PASSED, EventName.RESULT_ACCEPTED]


def test_the_same_errors_twice_stop_early(tmp_path: Path) -> None:
    steps = '- text: "All done."\n'
    result, _ = run(tmp_path, steps, ["expect_changes"], max_attempts=5)
    assert not result.success
    assert result.failure_kind is FailureKind.VERIFICATION_FAILED
    assert result.retry_class is RetryClass.INVALID_OUTPUT
    assert result.status is Status.INVALID_OUTPUT
    assert len(result.verification) == 2  # identical errors: stopped before the 5th
    assert "verification_failed" in result.error_message


def test_without_verify_the_claim_is_believed(tmp_path: Path) -> None:
    result, _ = run(tmp_path, '- text: "All done."\n', [])
    assert result.success and result.verification == []


def test_a_failed_call_is_not_verified(tmp_path: Path) -> None:
    result, _ = run(tmp_path, "- failure: auth\n", ["expect_changes"])
    assert result.failure_kind is FailureKind.AUTH
    assert result.verification == []


def test_a_command_checks_output_is_ranked_errors(tmp_path: Path) -> None:
    # mypy-style text from the user's own command: the feedback names file, line and code.
    script = (
        "echo 'pkg/a.py:3: error: Incompatible return value type  [return-value]'; "
        "echo 'pkg/b.py:9:1: F401 os imported but unused'; exit 1"
    )
    result, _ = run(
        tmp_path, '- text: "done"\n', [{"command": script, "name": "lint"}], max_attempts=1
    )
    check = result.verification[0].checks[0]
    assert check.kind is CheckKind.COMMAND and check.exit_code == 1
    assert any("pkg/a.py:3" in e and "return-value" in e for e in check.errors)
    assert any("pkg/b.py:9" in e and "F401" in e for e in check.errors)


def test_a_command_check_is_killed_at_its_timeout(tmp_path: Path) -> None:
    check = {"command": "sleep 30 & sleep 30", "timeout": 1, "name": "slow"}
    result, _ = run(tmp_path, '- text: "done"\n', [check], max_attempts=1)
    outcome = result.verification[0].checks[0]
    assert outcome.timed_out and not outcome.passed and outcome.duration_s < 15


def test_expect_files_globs_non_empty_and_valid(tmp_path: Path) -> None:
    steps = """
- files:
    - {path: out/a.json, content: "{\\"a\\": 1}"}
    - {path: out/b.json, content: "{not json"}
    - {path: empty.txt, content: ""}
  text: "wrote them"
"""
    verify = [
        {"expect_files": ["out/*.json"], "valid": "json"},
        {"expect_files": "empty.txt", "non_empty": True, "name": "empty"},
        {"expect_files": "missing.md", "name": "missing"},
    ]
    result, _ = run(tmp_path, steps, verify, max_attempts=1)
    errors = {c.name: c.errors for c in result.verification[0].checks}
    assert errors["expect_files out/*.json"] == [
        next(e for e in errors["expect_files out/*.json"] if "out/b.json is not valid JSON" in e)
    ]
    assert errors["empty"] == ["empty.txt is empty"]
    assert "missing.md: no such file" in errors["missing"][0]


def test_a_callable_gets_the_result_and_its_messages_are_the_errors(tmp_path: Path) -> None:
    seen: list[str] = []

    def mentions_tests(result: Any, context: Any) -> list[str]:
        seen.append(result.final_text)
        return [] if "tests" in (result.final_text or "") else ["the answer never mentions tests"]

    def raises(result: Any, context: Any) -> None:
        raise RuntimeError("boom")

    result, _ = run(tmp_path, '- text: "done"\n', [mentions_tests, raises], max_attempts=1)
    by_name = {c.name: c for c in result.verification[0].checks}
    assert seen == ["done"]
    assert by_name[mentions_tests.__qualname__].errors == ["the answer never mentions tests"]
    assert by_name[raises.__qualname__].errors == ["RuntimeError: boom"]


def test_secrets_in_check_output_are_redacted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SERVICE_API_KEY", "sk-verify-secret-123456789")
    check = {"command": "echo key=$SERVICE_API_KEY; exit 1", "name": "leaky"}
    result, store = run(tmp_path, '- text: "done"\n', [check], max_attempts=1)
    dumped = json.dumps(result.model_dump(mode="json")) + "".join(
        r.model_dump_json() for r in store.by_trace("run-v")
    )
    assert "sk-verify-secret-123456789" not in dumped
    assert "leaky" in dumped


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ("pytest -q", CommandCheck(name="pytest -q", command="pytest -q")),
        ("ruff", ToolCheck(name="ruff")),
        ("npm test", ToolCheck(name="npm test")),
        ("expect_changes", ExpectChanges(name="expect_changes")),
        (
            {"expect_changes": True, "commit": True, "since": "attempt"},
            ExpectChanges(name="expect_changes", commit=True, since="attempt"),
        ),
        (
            {"expect_files": "a.json", "valid": "json"},
            ExpectFiles(name="expect_files a.json", patterns=("a.json",), valid="json"),
        ),
    ],
)
def test_verify_items_become_checks(item: Any, expected: Any) -> None:
    assert as_checks([item]) == (expected,)


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("", "is empty"),
        (42, "is none of"),
        ({"command": ""}, "non-empty string"),
        ({"expect_files": []}, "must list paths"),
        ({"expect_files": "a", "valid": "toml"}, "'json' or 'yaml'"),
        ({"command": "x", "timeout": 0}, "positive number"),
        ({"command": "x", "retries": 2}, "unknown key(s) retries"),
        ({"nothing": 1}, "is none of"),
    ],
)
def test_a_bad_verify_item_says_what_is_allowed(item: Any, message: str) -> None:
    with pytest.raises(VerifyConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        as_checks([item])


def test_two_checks_with_one_name_are_refused() -> None:
    with pytest.raises(VerifyConfigError, match="more than once"):
        as_checks(["pytest -q", {"command": "make", "name": "pytest -q"}])


def test_callable_check_instances_pass_through() -> None:
    check = CallableCheck(name="mine", function=lambda r, c: None)
    assert as_checks([check]) == (check,)


def test_metrics_and_the_report_count_verification_by_check(tmp_path: Path) -> None:
    from autofix.audit.metrics import ChainOutcome, compute_metrics
    from autofix.audit.prometheus import to_prometheus
    from autofix.audit.usage_report import build_report, render

    result, store = run(tmp_path, CLAIMS_WITHOUT_CHANGE, ["expect_changes", "test -f ok.txt"])
    assert result.success
    items = list(store.iter_all())
    snap = compute_metrics(items)
    assert snap.verification_failures == {"expect_changes": 1, "test_-f_ok.txt": 1}
    assert snap.verification_recovery[("expect_changes", ChainOutcome.RECOVERED)] == 1
    assert 'autofix_verification_recovery_total{check="expect_changes",outcome="recovered"} 1' in (
        to_prometheus(snap)
    )
    report = build_report(items, store="memory")
    rows = {row.check: row for row in report.verification_by_check}
    assert (rows["expect_changes"].failed_attempts, rows["expect_changes"].recovered) == (1, 1)
    assert "Verification (verify= checks)" in render(report)


def test_a_stopped_verification_chain_is_finished_not_in_flight(tmp_path: Path) -> None:
    from autofix.audit.metrics import ChainOutcome, compute_metrics

    _, store = run(tmp_path, '- text: "All done."\n', ["expect_changes"], max_attempts=5)
    snap = compute_metrics(store.iter_all())
    assert (snap.chains_final, snap.chains_in_flight) == (1, 0)
    assert snap.verification_recovery[("expect_changes", ChainOutcome.EXHAUSTED)] == 1


def test_expect_changes_sees_an_edit_to_an_untracked_file_and_leaves_the_index_alone(
    tmp_path: Path,
) -> None:
    from autofix.verify.run import tree_state

    repo = git_repo(tmp_path / "r")
    (repo / "notes.txt").write_text("draft\n")  # untracked before the agent runs
    before = tree_state(repo)
    index = (repo / ".git" / "index").read_bytes()
    (repo / "notes.txt").write_text("final\n")
    after = tree_state(repo)
    assert before is not None and after is not None
    assert before.head == after.head and before.tree != after.tree
    assert (repo / ".git" / "index").read_bytes() == index
    plain = tmp_path / "plain"
    plain.mkdir()
    assert tree_state(plain) is None
