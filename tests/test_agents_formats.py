"""Agent formats: command building, and parser behaviour beyond the real captures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from autofix.agents.base import AgentRequest
from autofix.agents.limits import AgentLimits
from autofix.agents.registry import FORMAT_NAMES, get_format, parse_output
from autofix.result import FailureKind, FinishReason, RunStatus


def claude_result(**fields: Any) -> str:
    base: dict[str, Any] = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "num_turns": 1,
        "result": "done",
        "session_id": "s-1",
        "total_cost_usd": 0.01,
        "usage": {"input_tokens": 10, "cache_read_input_tokens": 5, "output_tokens": 3},
    }
    base.update(fields)
    return json.dumps(base)


# -- registry ----------------------------------------------------------------------------------


def test_registry_names_and_unknown() -> None:
    assert set(FORMAT_NAMES) == {"claude", "codex", "gemini", "wrapper", "plain", "sim", "openai"}
    for name in FORMAT_NAMES:
        fmt = get_format(name)
        assert fmt.name == name
        assert get_format(name) is not fmt  # fresh instances: sim keeps per-call state
    with pytest.raises(ValueError, match=r"unknown agent format 'cursor'; valid: claude, codex"):
        get_format("cursor")
    assert get_format("plain").has_event_stream is False
    assert get_format("claude").supports_resume is True


def test_importing_agents_does_not_import_sim() -> None:
    import subprocess
    import sys

    code = "import sys, autofix.agents; print('autofix.sim.format' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- commands ----------------------------------------------------------------------------------


def test_claude_command() -> None:
    request = AgentRequest(
        prompt="fix it",
        resume_session_id="-abc",
        model="opus",
        output_schema={"type": "object"},
        limits=AgentLimits(max_turns=4, extra_args=("--foo",)),
    )
    inv = get_format("claude").command(request)
    assert inv.argv[:6] == ["claude", "-p", "fix it", "--output-format", "stream-json", "--verbose"]
    assert "--resume=-abc" in inv.argv
    assert inv.argv[inv.argv.index("--json-schema") + 1] == '{"type":"object"}'
    assert inv.argv[inv.argv.index("--max-turns") + 1] == "4"
    assert inv.argv[inv.argv.index("--model") + 1] == "opus"
    assert inv.argv[-1] == "--foo"
    assert inv.stdin is None


def test_claude_command_prompt_on_stdin_when_argv_is_unsafe() -> None:
    fmt = get_format("claude")
    dashed = fmt.command(AgentRequest(prompt="--help me"), ["/opt/claude"])
    assert dashed.argv[:2] == ["/opt/claude", "-p"] and "--help me" not in dashed.argv
    assert dashed.stdin == "--help me"
    big = fmt.command(AgentRequest(prompt="x" * 200_000))
    assert big.stdin == "x" * 200_000 and all(len(a) < 1000 for a in big.argv)
    as_json = fmt.command(AgentRequest(prompt="q", options={"output_format": "json"}))
    assert "--verbose" not in as_json.argv and as_json.argv[-1] == "json"
    as_text = fmt.command(AgentRequest(prompt="q", options={"output_format": "text"}))
    assert "--verbose" not in as_text.argv and as_text.argv[-1] == "text"
    with pytest.raises(ValueError, match="output_format"):
        fmt.command(AgentRequest(prompt="q", options={"output_format": "yaml"}))


def test_codex_command(tmp_path: Path) -> None:
    fmt = get_format("codex")
    inv = fmt.command(AgentRequest(prompt="do it", model="gpt-5"))
    assert inv.argv == [
        "codex",
        "exec",
        "--json",
        "--skip-git-repo-check",
        "--model",
        "gpt-5",
        "do it",
    ]
    assert inv.stdin is None  # /dev/null: codex would otherwise wait for stdin EOF
    resumed = fmt.command(AgentRequest(prompt="-again", resume_session_id="019a"))
    assert resumed.argv[-5:] == ["--skip-git-repo-check", "resume", "019a", "--", "-again"]
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    with_schema = fmt.command(AgentRequest(prompt="p", output_schema=schema))
    path = Path(with_schema.argv[with_schema.argv.index("--output-schema") + 1])
    assert json.loads(path.read_text()) == schema
    again = fmt.command(AgentRequest(prompt="p", output_schema=schema))
    assert again.argv == with_schema.argv  # same schema, same file: nothing piles up in /tmp


def test_gemini_command() -> None:
    fmt = get_format("gemini")
    inv = fmt.command(AgentRequest(prompt="hi", resume_session_id="latest", model="gemini-2.5-pro"))
    assert inv.argv == [
        "gemini",
        "-p",
        "hi",
        "--output-format",
        "json",
        "--resume",
        "latest",
        "--model",
        "gemini-2.5-pro",
    ]
    assert fmt.command(AgentRequest(prompt="-x")).argv[1] == "--prompt=-x"


def test_wrapper_command_needs_a_command(monkeypatch: pytest.MonkeyPatch) -> None:
    fmt = get_format("wrapper")
    monkeypatch.delenv("AUTOFIX_WRAPPER_COMMAND", raising=False)
    with pytest.raises(ValueError, match="AUTOFIX_WRAPPER_COMMAND"):
        fmt.command(AgentRequest(prompt="p"))
    monkeypatch.setenv("AUTOFIX_WRAPPER_COMMAND", "python3 'my wrapper.py'")
    inv = fmt.command(
        AgentRequest(prompt="p", resume_session_id="s1", limits=AgentLimits(max_turns=3))
    )
    assert inv.argv == ["python3", "my wrapper.py"]
    assert json.loads(inv.stdin or "") == {
        "action": "prompt",
        "prompt": "p",
        "options": {"exit_on_complete": True, "resume": "s1", "max_turns": 3},
    }


def test_plain_command_and_parser() -> None:
    fmt = get_format("plain")
    with pytest.raises(ValueError, match="command"):
        fmt.command(AgentRequest(prompt="p"))
    assert fmt.command(AgentRequest(prompt="p"), ["fix.sh"]).stdin == "p"
    assert fmt.command(AgentRequest(prompt="p", options={"prompt_arg": True}), ["fix.sh"]).argv == [
        "fix.sh",
        "p",
    ]
    token = fmt.command(AgentRequest(prompt="p q"), ["fix.sh", "--task={prompt}"])
    assert token.argv == ["fix.sh", "--task=p q"] and token.stdin is None
    ok = parse_output("plain", "line 1\n{not json\nline 3", 0)
    assert ok.run_status is RunStatus.COMPLETED and ok.final_text == "line 1\n{not json\nline 3"
    failed = parse_output("plain", "", 2)
    assert failed.run_status is RunStatus.FAILED and failed.errors == [
        "plain: the command exited with 2"
    ]
    assert parse_output("plain", "", None).run_status is RunStatus.UNKNOWN


# -- claude parser -----------------------------------------------------------------------------


def test_claude_pretty_printed_object_and_noise_lines() -> None:
    pretty = json.dumps(json.loads(claude_result(result="multi\nline")), indent=2)
    stdout = "Warning: something on stdout\n" + pretty + "\n"
    outcome = parse_output("claude", stdout, 0)
    assert outcome.run_status is RunStatus.COMPLETED
    assert outcome.final_text == "multi\nline"
    assert outcome.non_json_lines == 1
    assert outcome.usage.input_tokens == 15 and outcome.usage.cached_input_tokens == 5


def test_claude_unknown_events_ignored_and_truncated_line_tolerated() -> None:
    lines = [
        '{"type":"system","subtype":"init","session_id":"s-0","model":"m"}',
        '{"type":"brand_new_event","x":1}',
        '{"type":"assistant","message":{"content":[{"type":"text","text":"aaa',  # cut by the line cap
        claude_result(new_field={"a": 1}),
    ]
    outcome = parse_output("claude", lines, 0)
    assert outcome.run_status is RunStatus.COMPLETED
    assert outcome.non_json_lines == 1
    assert outcome.model == "m"
    assert outcome.session_id == "s-1"


def test_claude_no_result_is_unknown_with_reason() -> None:
    outcome = parse_output("claude", '{"type":"system","subtype":"init","session_id":"s"}', None)
    assert outcome.run_status is RunStatus.UNKNOWN
    assert outcome.errors == ["claude: no terminal event in the output (no exit code)"]
    assert outcome.session_id == "s"
    # No event at all: read as the text output mode, which failed; the wording names the kind.
    auth = parse_output("claude", "", 1, stderr="Error: Invalid API key · Please run /login")
    assert auth.text_mode and auth.run_status is RunStatus.FAILED
    assert auth.failure_kind is FailureKind.AUTH


@pytest.mark.parametrize(
    ("fields", "status", "finish", "kind"),
    [
        (
            {"stop_reason": "refusal"},
            RunStatus.COMPLETED,
            FinishReason.REFUSAL,
            FailureKind.REFUSAL,
        ),
        (
            {"stop_reason": "max_tokens"},
            RunStatus.COMPLETED,
            FinishReason.LENGTH,
            FailureKind.MAX_TOKENS,
        ),
        (
            {"subtype": "error_max_budget_usd", "is_error": True, "errors": []},
            RunStatus.FAILED,
            FinishReason.ERROR,
            FailureKind.SPEND_CAP,  # claude's own --max-budget-usd, not autofix's budget
        ),
        (
            {"subtype": "error_max_structured_output_retries", "is_error": True},
            RunStatus.FAILED,
            FinishReason.ERROR,
            FailureKind.STRUCTURED_OUTPUT,
        ),
        (
            {"subtype": "error_during_execution", "is_error": True, "errors": ["boom"]},
            RunStatus.FAILED,
            FinishReason.ERROR,
            FailureKind.UNKNOWN,
        ),
        (
            {
                "is_error": True,
                "result": "You've hit your limit · resets 5pm",
                "api_error_status": 429,
            },
            RunStatus.LIMIT_REACHED,
            FinishReason.ERROR,
            FailureKind.USAGE_LIMIT,
        ),
        (
            {"is_error": True, "result": "Invalid API key", "api_error_status": 401},
            RunStatus.FAILED,
            FinishReason.ERROR,
            FailureKind.AUTH,
        ),
        (
            {"is_error": True, "result": "API Error", "api_error_status": 403},
            RunStatus.FAILED,
            FinishReason.ERROR,
            FailureKind.PERMISSION,
        ),
        (
            {
                "is_error": True,
                "result": "API Error: 400 prompt is too long",
                "api_error_status": 400,
            },
            RunStatus.FAILED,
            FinishReason.ERROR,
            FailureKind.CONTEXT_WINDOW,
        ),
        (
            {"is_error": True, "result": "API Error: Overloaded", "api_error_status": 529},
            RunStatus.FAILED,
            FinishReason.ERROR,
            FailureKind.OVERLOADED,
        ),
        (
            {
                "is_error": True,
                "result": "Your credit balance is too low; see /workspace/billing/budget.md",
                "api_error_status": 400,
            },
            RunStatus.LIMIT_REACHED,
            FinishReason.ERROR,
            FailureKind.QUOTA_EXHAUSTED,  # never autofix's budget, whatever the words
        ),
        (
            {"is_error": True, "result": "API Error: 500", "api_error_status": 500},
            RunStatus.FAILED,
            FinishReason.ERROR,
            FailureKind.SERVER_ERROR,
        ),
        (
            {"is_error": True, "result": "Request aborted"},
            RunStatus.FAILED,
            FinishReason.ERROR,
            FailureKind.API_ERROR,
        ),
        ({"subtype": "surprise"}, RunStatus.UNKNOWN, FinishReason.ERROR, FailureKind.UNKNOWN),
    ],
)
def test_claude_result_verdicts(
    fields: dict[str, Any], status: RunStatus, finish: FinishReason, kind: FailureKind | None
) -> None:
    outcome = parse_output("claude", claude_result(**fields), 0)
    assert (outcome.run_status, outcome.finish_reason, outcome.failure_kind) == (
        status,
        finish,
        kind,
    )
    if status is not RunStatus.COMPLETED:
        assert outcome.errors


def test_claude_stop_reason_from_last_assistant_message() -> None:
    assistant = json.dumps(
        {
            "type": "assistant",
            "message": {"content": [{"type": "text", "text": "cut"}], "stop_reason": "max_tokens"},
        }
    )
    result = json.loads(claude_result())
    del result["usage"]
    outcome = parse_output("claude", [assistant, json.dumps(result)], 0)
    assert outcome.finish_reason is FinishReason.LENGTH


def test_claude_errors_are_redacted() -> None:
    key = "sk-ant-api03-" + "A" * 40
    outcome = parse_output("claude", claude_result(is_error=True, result=f"bad key {key}"), 1)
    assert key not in json.dumps(outcome.model_dump())
    assert "[REDACTED]" in outcome.errors[0]


def test_claude_structured_output_tool_fallback() -> None:
    tool = json.dumps(
        {
            "type": "assistant",
            "message": {
                "content": [{"type": "tool_use", "name": "StructuredOutput", "input": {"a": 1}}]
            },
        }
    )
    outcome = parse_output("claude", [tool, claude_result()], 0)
    assert outcome.structured_output == {"a": 1}


# -- codex parser ------------------------------------------------------------------------------


def codex(*events: dict[str, Any]) -> list[str]:
    return [
        json.dumps({"type": "thread.started", "thread_id": "t-1"}),
        *(json.dumps(e) for e in events),
    ]


def test_codex_error_chatter_before_completion_is_ignored() -> None:
    lines = codex(
        {"type": "error", "message": "Reconnecting... 1/5 (stream disconnected)"},
        {"type": "item.completed", "item": {"id": "item_0", "type": "agent_message", "text": "ok"}},
        {
            "type": "turn.completed",
            "usage": {"input_tokens": 5, "cached_input_tokens": 1, "output_tokens": 2},
        },
    )
    outcome = parse_output("codex", lines, 0)
    assert outcome.run_status is RunStatus.COMPLETED and outcome.errors == []
    assert outcome.final_text == "ok" and outcome.structured_output is None
    assert outcome.num_turns == 1


@pytest.mark.parametrize(
    ("message", "status", "kind", "finish"),
    [
        (
            "You've hit your usage limit. Try again in 2 hours.",
            RunStatus.LIMIT_REACHED,
            FailureKind.USAGE_LIMIT,
            FinishReason.ERROR,
        ),
        (
            "exceeded retry limit, last status: 429 Too Many Requests",
            RunStatus.LIMIT_REACHED,
            FailureKind.RATE_LIMIT,
            FinishReason.ERROR,
        ),
        (
            "unexpected status 500 Internal Server Error",
            RunStatus.FAILED,
            FailureKind.SERVER_ERROR,
            FinishReason.ERROR,
        ),
        (
            "Incomplete response returned, reason: max_output_tokens",
            RunStatus.FAILED,
            FailureKind.MAX_TOKENS,
            FinishReason.LENGTH,
        ),
        (
            "Quota exceeded. Check your plan and billing details.",
            RunStatus.LIMIT_REACHED,
            FailureKind.QUOTA_EXHAUSTED,  # retried later; never autofix's budget
            FinishReason.ERROR,
        ),
        ("something odd", RunStatus.FAILED, FailureKind.API_ERROR, FinishReason.ERROR),
    ],
)
def test_codex_turn_failed_kinds(
    message: str, status: RunStatus, kind: FailureKind | None, finish: FinishReason
) -> None:
    outcome = parse_output(
        "codex", codex({"type": "turn.failed", "error": {"message": message}}), 1
    )
    assert (outcome.run_status, outcome.failure_kind, outcome.finish_reason) == (
        status,
        kind,
        finish,
    )
    assert outcome.errors == [message]


def test_codex_refusal_and_missing_terminal() -> None:
    refusal = codex(
        {
            "type": "item.completed",
            "item": {"type": "agent_message", "text": "no", "refusal": "I can't help."},
        },
        {"type": "turn.completed", "usage": {}},
    )
    outcome = parse_output("codex", refusal, 0)
    assert (
        outcome.finish_reason is FinishReason.REFUSAL
        and outcome.failure_kind is FailureKind.REFUSAL
    )
    cut = parse_output("codex", codex({"type": "error", "message": "429 Too Many Requests"}), None)
    assert cut.run_status is RunStatus.UNKNOWN and cut.failure_kind is FailureKind.RATE_LIMIT


# -- gemini parser -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "message", "status", "kind"),
    [
        (42, "No input provided via stdin.", RunStatus.FAILED, FailureKind.INVALID_REQUEST),
        (53, "Reached max session turns", RunStatus.FAILED, FailureKind.MAX_TURNS),
        (
            1,
            "[API Error: got status: 429 Too Many Requests.]",
            RunStatus.LIMIT_REACHED,
            FailureKind.RATE_LIMIT,
        ),
        (
            1,
            "[API Error: You have exhausted your daily quota]",
            RunStatus.LIMIT_REACHED,
            FailureKind.USAGE_LIMIT,
        ),
        # An API error with no HTTP status never got an answer: a connection failure.
        (1, "[API Error: something]", RunStatus.FAILED, FailureKind.CONNECTION),
        (1, "Error: something", RunStatus.FAILED, FailureKind.API_ERROR),
        (130, "cancelled", RunStatus.CANCELLED, FailureKind.CANCELLED),
    ],
)
def test_gemini_stderr_error_object(
    code: int, message: str, status: RunStatus, kind: FailureKind | None
) -> None:
    noise = "(node:1) [DEP0040] DeprecationWarning: The `punycode` module is deprecated.\n"
    doc = json.dumps(
        {"session_id": "g-1", "error": {"type": "Error", "message": message, "code": code}},
        indent=2,
    )
    outcome = parse_output("gemini", "", code, stderr=noise + doc + "\nbye\n")
    assert (outcome.run_status, outcome.failure_kind) == (status, kind)
    assert outcome.session_id is None  # a failed run saved no session to resume


def test_gemini_without_any_json_uses_the_exit_code() -> None:
    outcome = parse_output("gemini", "", 41, stderr="auth problem")
    assert outcome.run_status is RunStatus.FAILED and outcome.failure_kind is FailureKind.AUTH


def test_gemini_json_safety_block_is_a_refusal() -> None:
    doc = {
        "session_id": "g",
        "response": "",
        "error": {"type": "Error", "message": "The model response was blocked due to safety"},
    }
    outcome = parse_output("gemini", json.dumps(doc, indent=2), 1)
    assert (
        outcome.finish_reason is FinishReason.REFUSAL
        and outcome.failure_kind is FailureKind.REFUSAL
    )


# -- wrapper parser ----------------------------------------------------------------------------


def wrapper(*events: dict[str, Any]) -> list[str]:
    return [json.dumps({"event": "ready"}), *(json.dumps(e) for e in events)]


def test_wrapper_limit_reached_is_not_done() -> None:
    lines = wrapper(
        {"event": "run_started", "run_id": "r"},
        {"event": "limit_notice", "run_id": "r", "message": "Claude AI usage limit reached"},
        {
            "event": "run_completed",
            "run_id": "r",
            "reason": "limit_reached",
            "message": "usage limit reached",
        },
    )
    outcome = parse_output("wrapper", lines, 0)
    assert outcome.run_status is RunStatus.LIMIT_REACHED
    assert outcome.failure_kind is FailureKind.USAGE_LIMIT


def test_wrapper_cancel_pre_run_error_and_fatal() -> None:
    cancelled = parse_output(
        "wrapper", wrapper({"event": "run_started"}, {"event": "run_cancelled"}), 0
    )
    assert cancelled.run_status is RunStatus.CANCELLED
    bad = parse_output(
        "wrapper",
        wrapper({"event": "error", "error": "Invalid ClaudeCodeOptions", "details": "x"}),
        0,
    )
    assert bad.run_status is RunStatus.FAILED and bad.failure_kind is FailureKind.INVALID_REQUEST
    assert bad.errors == ["Invalid ClaudeCodeOptions: x"]
    fatal = parse_output("wrapper", wrapper({"event": "fatal", "error": "boom"}), 1)
    assert fatal.run_status is RunStatus.FAILED and fatal.errors == ["boom"]
    completed_without_result = parse_output(
        "wrapper", wrapper({"event": "run_completed", "reason": "ok"}), 0
    )
    assert completed_without_result.run_status is RunStatus.UNKNOWN


# -- robustness --------------------------------------------------------------------------------


@settings(max_examples=examples(150), deadline=None)
@given(
    name=st.sampled_from(["claude", "codex", "gemini", "wrapper"]),
    lines=st.lists(st.text(max_size=80), max_size=12),
    exit_code=st.one_of(st.none(), st.integers(min_value=-9, max_value=255)),
)
def test_garbage_never_crashes_and_never_succeeds(
    name: str, lines: list[str], exit_code: int | None
) -> None:
    parser = get_format(name).parser()
    parser.text_output = False  # a run asked for events (the default): text is no answer
    for line in lines:
        parser.feed(line)
    outcome = parser.finish(exit_code, "\n".join(lines))
    assert outcome.run_status is not RunStatus.COMPLETED
