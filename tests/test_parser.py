"""ResponseParser decisions: fail-safe, agent outcomes, plain commands."""

from __future__ import annotations

import logging

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from autofix import classify_output
from autofix.agents.base import AgentOutcome
from autofix.parser import ResponseParser
from autofix.result import (
    FAILURE_KINDS,
    MAX_BLOCK_CHARS,
    FailureKind,
    FinishReason,
    RetryClass,
    RunStatus,
    Status,
    TokenUsage,
)

NOISE = "npm warn deprecated inflight@1.0.6: leaks memory\n(node:1) [DEP0040] DeprecationWarning: punycode\n"
TRACEBACK = (
    'Traceback (most recent call last):\n  File "a.py", line 1, in <module>\nValueError: boom\n'
)


@pytest.fixture(scope="module")
def parser() -> ResponseParser:
    return ResponseParser()


def test_noise_only_exit0_is_success(
    parser: ResponseParser, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="autofix.parser")
    result = parser.parse(0, NOISE, operation="fix")
    assert (
        result.success
        and result.status is Status.COMPLETED
        and result.retry_class is RetryClass.NONE
    )
    assert result.noise_lines == 2 and result.matched_rules == ["npm-warn", "node-warning"]
    assert result.patterns_source == "defaults" or result.patterns_source.endswith(
        "error_patterns.yaml"
    )
    assert any(
        "npm warn deprecated" in r.getMessage() for r in caplog.records
    )  # raw stderr at debug


def test_exit0_with_traceback_fails_and_quotes_it(parser: ResponseParser) -> None:
    result = parser.parse(0, NOISE + TRACEBACK, operation="fix")
    assert not result.success and result.status is Status.FAILED
    assert result.error_message == "[fix] ValueError: boom"
    assert result.errors[0].text.startswith("Traceback") and result.error_lines == 3


def test_a_long_tracebacks_message_is_its_exception_line(parser: ResponseParser) -> None:
    """A block over MAX_BLOCK_CHARS keeps its start and its end: the exception line survives."""
    frames = "".join(
        f'  File "/srv/app/module_{n:02d}/package/handler.py", line {n}0, in handle\n'
        "    result = self.process(payload, context=context)\n"
        for n in range(1, 11)
    )
    stderr = f"Traceback (most recent call last):\n{frames}KeyError: 'tenant_id'\n"
    result = parser.parse(1, stderr, operation="fix")
    assert len(stderr) > MAX_BLOCK_CHARS and not result.success
    assert result.error_message.splitlines()[0] == "[fix] KeyError: 'tenant_id'"
    assert (
        result.errors[0].text.startswith("Traceback")
        and len(result.errors[0].text) <= MAX_BLOCK_CHARS
    )


def test_nonzero_exit_fails_with_tail_when_no_blocks(parser: ResponseParser) -> None:
    result = parser.parse(3, "compiling things\nstopped early\n", operation="build")
    assert not result.success and result.exit_code == 3
    assert result.error_message == "[build] Exit code 3\ncompiling things\nstopped early"


def test_stdout_failure_summary_counts_for_plain_commands(parser: ResponseParser) -> None:
    for stdout in (
        "=== 1 failed, 2 passed in 0.1s ===\n",
        "src/a.ts(1,1): error TS2322: bad\n",
        "FAIL: test_x (m.T)\n",
    ):
        assert not parser.parse(0, "", stdout).success, stdout
    # words about errors are program output on stdout (an `error:` label is evidence anywhere)
    assert parser.parse(0, "", "ERROR lines in app.log: 0\nerrors per hour: 0.2\n").success


def test_stdout_is_not_classified_with_an_event_stream(parser: ResponseParser) -> None:
    outcome = AgentOutcome(
        run_status=RunStatus.COMPLETED,
        final_text="done",
        session_id="s1",
        cost_usd=0.1,
        usage=TokenUsage(input_tokens=5),
        num_turns=2,
        finish_reason=FinishReason.STOP,
    )
    result = parser.parse(
        0,
        NOISE,
        '{"type":"result","text":"1 failed"}\n',
        agent_outcome=outcome,
        has_event_stream=True,
    )
    assert result.success and result.session_id == "s1" and result.final_text == "done"
    assert result.cost_usd == 0.1 and result.usage.input_tokens == 5 and result.num_turns == 2
    assert result.finish_reason == "stop" and result.run_status == "completed"


@pytest.mark.parametrize(
    ("kind", "status", "retry"),
    [(kind, status, retry) for kind, (status, retry) in FAILURE_KINDS.items()],
    ids=lambda value: str(value),
)
def test_agent_failure_kinds(
    parser: ResponseParser, kind: FailureKind, status: Status, retry: RetryClass
) -> None:
    outcome = AgentOutcome(run_status=RunStatus.FAILED, failure_kind=kind, errors=["API said no"])
    result = parser.parse(1, "", agent_outcome=outcome, operation="fix")
    assert (result.success, result.status, result.retry_class) == (False, status, retry)
    assert result.failure_kind is kind
    assert result.error_message == "[fix] API said no"


def test_every_kind_has_one_retry_class() -> None:
    assert set(FAILURE_KINDS) == set(FailureKind)
    # Only autofix's budget check makes budget_exhausted; rate limits retry later, and credit
    # or billing exhaustion (the provider's quota) waits for a person.
    assert FAILURE_KINDS[FailureKind.RATE_LIMIT][1] is RetryClass.TRANSIENT
    assert FAILURE_KINDS[FailureKind.QUOTA_EXHAUSTED][1] is RetryClass.PERMANENT
    assert FAILURE_KINDS[FailureKind.SPEND_CAP][0] is not Status.BUDGET_EXHAUSTED


def test_agent_edge_cases(parser: ResponseParser) -> None:
    truncated = AgentOutcome(run_status=RunStatus.COMPLETED, finish_reason=FinishReason.LENGTH)
    assert parser.parse(0, agent_outcome=truncated).status is Status.TRUNCATED
    unknown = AgentOutcome(run_status=RunStatus.UNKNOWN)
    result = parser.parse(0, agent_outcome=unknown)
    assert not result.success and "No terminal event" in result.error_message
    done = AgentOutcome(run_status=RunStatus.COMPLETED)
    assert not parser.parse(1, agent_outcome=done).success
    assert not parser.parse(0, TRACEBACK, agent_outcome=done).success
    assert parser.parse(0, NOISE, agent_outcome=done).success
    assert not parser.parse(0, has_event_stream=True).success  # events promised, none parsed


def test_crash_timeout_signal(parser: ResponseParser) -> None:
    crashed = parser.parse(None, crash=RuntimeError("boom"), operation="fix")
    assert (
        crashed.status is Status.CRASHED
        and crashed.error_message == "[fix] Wrapper crashed: RuntimeError: boom"
    )
    timed = parser.parse(None, timed_out_after=30, operation="fix")
    assert timed.status is Status.TIMED_OUT and timed.retry_class is RetryClass.TRANSIENT
    assert timed.error_message == "[fix] Operation timed out after 30s"
    killed = parser.parse(-9, signal_name="SIGKILL")
    assert not killed.success and "killed by SIGKILL" in killed.error_message
    assert killed.failure_kind is FailureKind.KILLED and killed.retry_class is RetryClass.TRANSIENT


@pytest.mark.parametrize(
    ("exit_code", "signal_name", "cancelled", "kind"),
    [
        (130, None, False, FailureKind.CANCELLED),
        (None, "SIGINT", False, FailureKind.CANCELLED),
        (None, "SIGTERM", True, FailureKind.CANCELLED),  # autofix's own kill (on_kill)
        (None, "SIGTERM", False, FailureKind.KILLED),
        (137, None, False, FailureKind.KILLED),
    ],
)
def test_cancelled_and_killed(
    parser: ResponseParser,
    exit_code: int | None,
    signal_name: str | None,
    cancelled: bool,
    kind: FailureKind,
) -> None:
    for outcome in (None, AgentOutcome(run_status=RunStatus.UNKNOWN)):
        result = parser.parse(
            exit_code, "", agent_outcome=outcome, signal_name=signal_name, cancelled=cancelled
        )
        assert not result.success and result.failure_kind is kind
        assert result.retry_class is RetryClass.TRANSIENT


def test_missing_exit_code_and_bad_run_status_fail(parser: ResponseParser) -> None:
    assert not parser.parse(None, NOISE).success
    assert parser.parse(0, NOISE, run_status="cancelled").status is Status.CANCELLED
    assert not parser.parse(0, NOISE, run_status="weird").success
    assert parser.parse(0, NOISE, run_status="completed").success


NOISE_LINES = [
    "npm warn deprecated x@1.0.0: old",
    "(node:77) ExperimentalWarning: VM Modules is an experimental feature",
    "WARNING: Running pip as the 'root' user can result in broken permissions",
    "Cloning into 'x'...",
    "   Compiling foo v0.1.0",
    "warning: unused import: `std::io`",
    "2024-01-01 00:00:00 INFO done after error: retried",
]


@given(
    lines=st.lists(st.sampled_from(NOISE_LINES), min_size=1, max_size=30),
    operation=st.text(max_size=10),
)
@settings(max_examples=examples(100), deadline=None)
def test_noise_only_is_success(lines: list[str], operation: str) -> None:
    result = classify_output(0, "\n".join(lines) + "\n", operation=operation)
    assert result.success and result.noise_lines == len(lines) and result.error_lines == 0


def test_secrets_are_redacted(parser: ResponseParser) -> None:
    result = parser.parse(
        1,
        "Error: auth failed for https://bob:hunter2secret@example.com with key sk-ant-abcdefghijklmnop\n",
    )
    assert (
        "hunter2secret" not in result.error_message
        and "sk-ant-abcdefghijklmnop" not in result.errors[0].text
    )


def test_unicode_safe(parser: ResponseParser) -> None:
    result = parser.parse(0, "Ошибка: 💥 Error: 失败\n".encode() + b"\xc3(\n")
    assert not result.success and "失败" in result.error_message


def test_classify_output_accepts_patterns(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "p.yaml"
    path.write_text(
        "rules:\n  - {id: mine, kind: error, type: substring, pattern: frob, reason: r}\n"
    )
    result = classify_output(0, "frob\n", patterns=path)
    assert (
        not result.success
        and result.matched_rules == ["mine"]
        and result.patterns_source == str(path)
    )
