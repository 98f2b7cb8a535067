"""The agent verdict's decision rule (docs/failure-kinds.md, "Whose stderr counts").

- A CLI's structured terminal result decides success: its other stderr lines (debug and log
  output, warnings, errors of tools it recovered from) are its diagnostics, counted, never
  the verdict; only its own fatal forms count against the result.
- A program without a structured result (plain, wrapper) fails on real error lines at exit 0.
- No answer is an empty answer in every format, text modes included.
- What the CLI reported (denied tools, failed MCP servers, loops, compaction) is kept as
  notices; ``fail_on`` makes them failures. A structured "do not retry" is permanent.

Lines here are written from the CLIs' own source forms (docs/agents/*.md); the real captures
are judged in tests/test_agent_captures.py.
"""

from __future__ import annotations

import json

import pytest

from autofix.agents.registry import get_format
from autofix.notices import NoticeCode
from autofix.parser import apply_fail_on, check_fail_on
from autofix.result import FailureKind, RetryClass
from autofix.task.judge import judge_saved_output


def _lines(*events: dict[str, object]) -> bytes:
    return "".join(json.dumps(event) + "\n" for event in events).encode()


CLAUDE_SUCCESS = _lines(
    {"type": "system", "subtype": "init", "session_id": "s1", "model": "claude-sonnet-4-5"},
    {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "result": "pong",
        "session_id": "s1",
        "terminal_reason": "completed",
    },
)
GEMINI_SUCCESS = _lines(
    {"type": "init", "session_id": "g1", "model": "gemini-2.5-flash"},
    {"type": "message", "role": "assistant", "content": "pong", "delta": True},
    {"type": "result", "status": "success", "stats": {}},
)
CODEX_SUCCESS = _lines(
    {"type": "thread.started", "thread_id": "t1"},
    {"type": "item.completed", "item": {"type": "agent_message", "text": "pong"}},
    {"type": "turn.completed", "usage": {"input_tokens": 1, "output_tokens": 1}},
)
PY_TRACEBACK = (
    b"Traceback (most recent call last):\n"
    b'  File "tool.py", line 3, in <module>\n'
    b"FileNotFoundError: [Errno 2] No such file or directory: 'notes.txt'\n"
)


@pytest.mark.parametrize(
    ("agent", "stdout", "stderr"),
    [
        # A debug switch or a log level a deployment sets: the CLI's own log lines.
        ("claude", CLAUDE_SUCCESS, b"[ERROR] Failed to load plugin marketplace: ENOENT\n"),
        (
            "codex",
            CODEX_SUCCESS,
            b"2026-11-26T20:12:46.799758Z ERROR codex_core::plugins: git sync failed\n",
        ),
        # A tool error the agent recovered from (Gemini prints these on stderr).
        ("gemini", GEMINI_SUCCESS, b"Error executing tool read_file: File not found.\n"),
        # The transcript of a failed command before the agent fixed it.
        ("gemini", GEMINI_SUCCESS, PY_TRACEBACK),
        ("claude", CLAUDE_SUCCESS, b"error: could not compile `demo` due to 2 previous errors\n"),
    ],
)
def test_a_structured_success_outweighs_the_clis_diagnostics(
    agent: str, stdout: bytes, stderr: bytes
) -> None:
    result = judge_saved_output(get_format(agent), stdout, stderr, 0)
    assert result.success, result.error_message
    assert result.diagnostic_lines >= 1
    assert any("diagnostics" in warning for warning in result.warnings)
    assert [item.role for item in result.evidence] == ["CLI diagnostic (not counted)"]


def test_a_program_without_a_structured_result_keeps_the_classifier_rule() -> None:
    plain = get_format("plain")
    assert not judge_saved_output(plain, b"done\n", PY_TRACEBACK, 0).success
    assert judge_saved_output(plain, b"done\n", b"npm warn deprecated x@1\n", 0).success


@pytest.mark.parametrize(
    ("agent", "stderr", "kind"),
    [
        ("codex", b"Error loading config.toml: bad key\n", FailureKind.CONFIG),
        ("gemini", b"Error resuming session: No previous sessions found.\n", FailureKind.CONFIG),
        ("gemini", b"Reached max session turns for this session.\n", FailureKind.MAX_TURNS),
    ],
)
def test_the_clis_own_fatal_forms_count_against_a_success(
    agent: str, stderr: bytes, kind: FailureKind
) -> None:
    success = {"codex": CODEX_SUCCESS, "gemini": GEMINI_SUCCESS}[agent]
    result = judge_saved_output(get_format(agent), success, stderr, 0)
    assert not result.success and result.failure_kind is kind


def test_a_fatal_form_names_the_kind_of_a_run_without_a_result() -> None:
    stderr = (
        b"Error: thread/resume: thread/resume failed: no rollout found for thread id "
        b"0199 (code -32600)\n"
    )
    result = judge_saved_output(get_format("codex"), b"", stderr, 1)
    assert result.failure_kind is FailureKind.CONFIG
    assert result.retry_class is RetryClass.PERMANENT
    assert "no rollout found" in result.error_message


def test_an_explaining_line_names_a_kind_but_never_decides() -> None:
    api_error = (
        b"Error when talking to Gemini API Full report available at: /tmp/r.json "
        b'_ApiError: {"error":{"code":401,"message":"bad","status":"UNAUTHENTICATED"}}\n'
    )
    assert judge_saved_output(get_format("gemini"), GEMINI_SUCCESS, api_error, 0).success
    text_failure = api_error + b"An unexpected critical error occurred:[object Object]\n"
    failed = judge_saved_output(get_format("gemini"), b"", text_failure, 1)
    assert failed.failure_kind is FailureKind.AUTH


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_text_mode_answer_empty_answer_and_failure(agent: str) -> None:
    fmt = get_format(agent)
    answered = judge_saved_output(fmt, b"The README describes a demo project.\n", b"", 0)
    assert answered.success and answered.final_text == "The README describes a demo project."
    empty = judge_saved_output(fmt, b"", b"", 0)
    assert empty.failure_kind is FailureKind.EMPTY_ANSWER
    assert empty.retry_class is RetryClass.INVALID_OUTPUT
    failed = judge_saved_output(fmt, b"", b"API Error: 429 rate limit exceeded\n", 1)
    assert not failed.success and failed.failure_kind is FailureKind.RATE_LIMIT


def test_codex_text_mode_names_the_codex_error_it_printed() -> None:
    stderr = (
        b"ERROR: Reconnecting... 1/1\n"
        b"ERROR: Quota exceeded. Check your plan and billing details.\n"
        b"ERROR: Quota exceeded. Check your plan and billing details.\n"
    )
    result = judge_saved_output(get_format("codex"), b"", stderr, 1)
    assert result.failure_kind is FailureKind.QUOTA_EXHAUSTED
    assert result.retry_class is RetryClass.PERMANENT


def test_plain_no_answer_is_an_empty_answer_unless_the_command_only_edits() -> None:
    plain = get_format("plain")
    assert judge_saved_output(plain, b"", b"", 0).failure_kind is FailureKind.EMPTY_ANSWER
    from autofix.parser import ResponseParser
    from autofix.task.judge import OutputJudge

    judge = OutputJudge(plain, ResponseParser(), answer_expected=False)
    assert judge.verdict(0).success


def test_plain_names_an_agent_api_error_it_quoted() -> None:
    stderr = b'API Error: 401 {"type":"error","error":{"type":"authentication_error"}}\n'
    result = judge_saved_output(get_format("plain"), b"", stderr, 1)
    assert result.failure_kind is FailureKind.AUTH and result.retry_class is RetryClass.PERMANENT
    generic = judge_saved_output(
        get_format("plain"), b"", b"cp: cannot stat 'a': No such file\n", 1
    )
    assert generic.failure_kind is FailureKind.UNKNOWN  # any program's failure: no agent kind


def test_notices_are_kept_and_fail_on_turns_them_into_failures() -> None:
    stdout = _lines(
        {"type": "init", "session_id": "g1", "model": "gemini-2.5-flash"},
        {"type": "tool_use", "tool_name": "read_file", "tool_id": "t1", "parameters": {}},
        {
            "type": "tool_result",
            "tool_id": "t1",
            "status": "error",
            "error": {"type": "policy_violation", "message": "Tool execution denied by policy."},
        },
        {"type": "message", "role": "assistant", "content": "pong", "delta": True},
        {"type": "result", "status": "success", "stats": {}},
    )
    stderr = b"MCP issues detected. Run /mcp list for status.\n"
    result = judge_saved_output(get_format("gemini"), stdout, stderr, 0)
    assert result.success
    assert {notice.code for notice in result.notices} == {
        NoticeCode.DENIED_TOOL,
        NoticeCode.MCP_SERVER_FAILED,
    }
    failed = apply_fail_on(result, check_fail_on(["denied_tool"]))
    assert failed.failure_kind is FailureKind.PERMISSION
    assert "denied tool" in failed.error_message
    assert apply_fail_on(result, check_fail_on(["loop_detected"])).success
    with pytest.raises(ValueError, match="valid: denied_tool, mcp_server_failed"):
        check_fail_on(["denied"])


def test_gemini_loop_detection_ends_the_run_as_loop_detected() -> None:
    stdout = _lines(
        {"type": "init", "session_id": "g1", "model": "gemini-2.5-flash"},
        {"type": "error", "severity": "warning", "message": "Loop detected, stopping execution"},
        {"type": "result", "status": "success", "stats": {}},
    )
    result = judge_saved_output(get_format("gemini"), stdout, b"", 0)
    assert result.failure_kind is FailureKind.LOOP_DETECTED
    assert result.retry_class is RetryClass.INVALID_OUTPUT
    assert [notice.code for notice in result.notices] == [NoticeCode.LOOP_DETECTED]


def test_credit_exhaustion_is_permanent_and_says_what_to_do() -> None:
    stdout = _lines(
        {"type": "thread.started", "thread_id": "t1"},
        {
            "type": "turn.failed",
            "error": {"message": "Your workspace is out of credits. Add credits to continue."},
        },
    )
    result = judge_saved_output(get_format("codex"), stdout, b"", 1)
    assert result.failure_kind is FailureKind.QUOTA_EXHAUSTED
    assert result.retry_class is RetryClass.PERMANENT and result.retry_after_s is None
