"""Claude Code exit paths beyond the first catalogue (docs/agents/claude.md, "Every exit path in
the source"): each case names its ``family``, the row group of that table it shows.

Every case here was first run by hand against the pinned 2.1.332 binary; the comments say what
the binary did, so a recapture that differs is a change of the CLI, not of the scenario.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

from agent_apis import anthropic as A
from agent_apis.clis import RunOptions
from agent_apis.core import Reply
from agent_apis.scenarios.base import (
    AUTH,
    CANCELLED,
    OVERLOADED,
    QUOTA,
    RATE,
    SERVER,
    SUCCESS,
    TIMEOUT,
    Case,
    Context,
    Stop,
    Truth,
)

OAUTH = {"CLAUDE_CODE_OAUTH_TOKEN": "sk-ant-oat01-autofix-test-oauth-token-000000000000"}
MISSING_SESSION = "6f1d2c3b-0000-4000-8000-000000000000"

# Successes the verdict should still flag (ParseResult warnings, by code: base.Truth).
DENIED_OK = Truth(True, "success", "none", warnings=("denied_tool",))
MCP_FAILED_OK = Truth(True, "success", "none", warnings=("mcp_server_failed",))
COMPACTED_OK = Truth(True, "success", "none", warnings=("compacted",))
# The agent answered that it could not do the work because a tool was denied: the output shows
# the denial, only the answer's words show that it was fatal.
GAVE_UP = Truth(
    False, "permission", "permanent", "tool_denied", shown=False, warnings=("denied_tool",)
)


def _config(detail: str) -> Truth:
    return Truth(False, "config", "permanent", detail)


def _bash(command: str) -> Reply:
    return A.tool_call("Bash", {"command": command, "description": "Run the command"})


def _read(c: Context, name: str = "README.md") -> Reply:
    return A.tool_call("Read", {"file_path": str(c.work / name)})


README_ANSWER = "The README describes a demo project."


def _hook(event: str, command: str, matcher: str | None = None) -> dict[str, str]:
    """User settings (CLAUDE_CONFIG_DIR/settings.json) with one command hook for ``event``."""
    entry: dict[str, object] = {"hooks": [{"type": "command", "command": command}]}
    if matcher:
        entry["matcher"] = matcher
    return {"home/.claude/settings.json": json.dumps({"hooks": {event: [entry]}}, indent=2)}


def _no_retry(reply: Reply) -> Reply:
    """The same answer with ``x-should-retry: false`` (Claude then makes no second request)."""
    return replace(
        reply, headers={**reply.headers, "x-should-retry": "false"}, label=reply.label + ":no_retry"
    )


def _mcp(command: str, *args: str) -> str:
    return json.dumps({"mcpServers": {"tracker": {"command": command, "args": list(args)}}})


def claude_exit_cases() -> Iterator[Case]:
    yield from _debug_cases()
    yield from _tool_cases()
    yield from _denied_cases()
    yield from _session_cases()
    yield from _mcp_cases()
    yield from _settings_and_flag_cases()
    yield from _billing_and_retry_cases()
    yield from _hook_cases()
    yield from _output_mode_cases()


def _debug_cases() -> Iterator[Case]:
    cli, family = "claude", "debug_output"
    pong = lambda c: [A.text("pong")]  # noqa: E731
    yield Case(
        cli,
        "success_debug_stderr",
        SUCCESS,
        pong,
        RunOptions(extra_args=("--debug-to-stderr",)),
        family=family,
        description="--debug-to-stderr: ~180 '[DEBUG]' lines on stderr, among them '[ERROR] Failed "
        "to save config with lock' and '[WARN]' lines, on a run that succeeds",
    )
    yield Case(
        cli,
        "success_debug",
        SUCCESS,
        pong,
        RunOptions(extra_args=("--debug",)),
        family=family,
        description="--debug: the log goes to CLAUDE_CONFIG_DIR/debug/<session>.txt; stdout and "
        "stderr as without it",
    )
    yield Case(
        cli,
        "success_sdk_log",
        SUCCESS,
        pong,
        RunOptions(extra_env={"ANTHROPIC_LOG": "debug"}),
        family=family,
        description="ANTHROPIC_LOG=debug: the API SDK's request/response log (~87 non-JSON lines) "
        "on stdout, between the stream-json events",
    )
    yield Case(
        cli,
        "success_sdk_log_json",
        SUCCESS,
        pong,
        RunOptions(output_format="json", extra_env={"ANTHROPIC_LOG": "info"}),
        family=family,
        description="ANTHROPIC_LOG=info with --output-format json: one SDK log line on stdout "
        "before the single JSON result",
    )
    yield Case(
        cli,
        "success_debug_env",
        SUCCESS,
        pong,
        RunOptions(extra_env={"DEBUG": "1", "CLAUDE_CODE_DEBUG_LOG_LEVEL": "info"}),
        family=family,
        description="DEBUG=1 turns debug logging on like --debug (to the debug file)",
    )
    yield Case(
        cli,
        "auth_invalid_key_debug",
        AUTH,
        lambda c: [A.error(401, "invalid x-api-key")],
        RunOptions(extra_args=("--debug-to-stderr",)),
        family=family,
        description="a 401 with --debug-to-stderr: the debug log around the failure",
    )
    yield Case(
        cli,
        "rate_limit_sdk_log",
        RATE,
        lambda c: [A.error(429, "Rate limited", headers={"retry-after": "1"})],
        RunOptions(extra_env={"ANTHROPIC_LOG": "debug"}),
        family=family,
        description="a persisting 429 with ANTHROPIC_LOG=debug: the SDK's retry log on stdout",
    )


def _tool_cases() -> Iterator[Case]:
    cli = "claude"
    yield Case(
        cli,
        "tool_error_then_answer",
        SUCCESS,
        lambda c: [
            _bash("grep -q pong README.md"),
            _bash("grep -n demo README.md"),
            A.text("The README mentions a demo project (line 1)."),
        ],
        RunOptions(extra_args=("--allowedTools", "Bash")),
        family="recovered_tool_error",
        description="Bash exits 1 (tool_result is_error 'Exit code 1'), the agent runs another "
        "command and answers",
    )
    yield Case(
        cli,
        "tool_error_read_missing",
        SUCCESS,
        lambda c: [_read(c, "MISSING.md"), _read(c), A.text(README_ANSWER)],
        family="recovered_tool_error",
        description="Read of a file that does not exist (tool_result is_error), then the right file",
    )
    yield Case(
        cli,
        "success_after_compaction",
        COMPACTED_OK,
        lambda c: [
            A.tool_call("Read", {"file_path": str(c.work / "README.md")}, input_tokens=10_000),
            A.tool_call("Read", {"file_path": str(c.work / "README.md")}, input_tokens=20_000),
            A.tool_call("Read", {"file_path": str(c.work / "README.md")}, input_tokens=150_000),
            A.text("<summary>The user asked for pong; the README was read.</summary>"),
            A.text("pong"),
        ],
        RunOptions(extra_args=("--autocompact", "100000")),
        family="compaction",
        description="auto-compaction (--autocompact 100000, 150k tokens in the last answer): "
        "system/status compacting, system/compact_boundary trigger auto, then the answer",
    )
    yield Case(
        cli,
        "tool_loop_timeout",
        TIMEOUT,
        lambda c: [_read(c)],
        stop=Stop("SIGTERM", after_s=8.0),
        family="loop",
        description="the model calls Read for ever: -p has no default turn cap, so only "
        "autofix's wall-clock timeout (SIGTERM at 8 s) ends it",
    )
    yield Case(
        cli,
        "cancelled_during_tool",
        CANCELLED,
        lambda c: [_bash("python3 -c 'import time; time.sleep(30)'"), A.text("done")],
        RunOptions(extra_args=("--allowedTools", "Bash")),
        stop=Stop("SIGINT", when_stdout_has='"name":"Bash"', hold_s=1.0),
        family="cancelled",
        description="SIGINT while a Bash tool runs: terminal_reason aborted_tools",
    )


def _denied_cases() -> Iterator[Case]:
    cli, family = "claude", "denied_tool"
    yield Case(
        cli,
        "denied_tool_worked_around",
        DENIED_OK,
        lambda c: [_bash("touch notes.txt"), _read(c), A.text(README_ANSWER)],
        family=family,
        description="default mode: Bash 'touch' needs approval nobody can give in -p "
        "(system/permission_denied, result.permission_denials); the agent reads instead",
    )
    yield Case(
        cli,
        "denied_tool_dont_ask",
        DENIED_OK,
        lambda c: [_bash("touch notes.txt"), _read(c), A.text(README_ANSWER)],
        RunOptions(extra_args=("--permission-mode", "dontAsk")),
        family=family,
        description="--permission-mode dontAsk: denied by the mode (decision_reason_type mode)",
    )
    yield Case(
        cli,
        "denied_tool_disallowed",
        DENIED_OK,
        lambda c: [_bash("ls"), _read(c), A.text(README_ANSWER)],
        RunOptions(extra_args=("--disallowedTools", "Bash")),
        family=family,
        description="--disallowedTools Bash: 'No such tool available: Bash' tool error; "
        "permission_denials stays empty",
    )
    yield Case(
        cli,
        "denied_tool_plan_mode",
        DENIED_OK,
        lambda c: [
            A.tool_call("Write", {"file_path": str(c.work / "notes.txt"), "content": "hi"}),
            A.text("Plan: create notes.txt with the greeting."),
        ],
        RunOptions(extra_args=("--permission-mode", "plan")),
        family=family,
        description="--permission-mode plan: 'Cannot write ... while in plan mode'; the agent "
        "answers with the plan",
    )
    yield Case(
        cli,
        "denied_tool_gave_up",
        GAVE_UP,
        lambda c: [
            A.tool_call("Write", {"file_path": str(c.work / "notes.txt"), "content": "hi"}),
            A.text("I could not create notes.txt: permission to write files was not granted."),
        ],
        RunOptions(prompt="Create notes.txt containing hi."),
        family=family,
        description="default mode: Write denied, the agent gives up; exit 0, result/success",
    )
    yield Case(
        cli,
        "denied_tool_gave_up_dont_ask",
        GAVE_UP,
        lambda c: [
            _bash("touch notes.txt"),
            A.text("I can't run commands in this session, so notes.txt was not created."),
        ],
        RunOptions(
            prompt="Create notes.txt.",
            extra_args=("--allowedTools", "Read", "--permission-mode", "dontAsk"),
        ),
        family=family,
        description="--allowedTools Read --permission-mode dontAsk: Bash denied, the agent gives up",
    )
    yield Case(
        cli,
        "permission_prompt_tool_missing",
        _config("permission_prompt_tool_missing"),
        lambda c: [_bash("touch notes.txt"), A.text("done")],
        RunOptions(extra_args=("--permission-prompt-tool", "mcp__approver__approve")),
        family=family,
        description="--permission-prompt-tool names an MCP tool that does not exist: the first "
        "permission check ends the run, exit 1, no result line",
    )


def _session_cases() -> Iterator[Case]:
    cli, family = "claude", "missing_session"
    pong = lambda c: [A.text("pong")]  # noqa: E731
    yield Case(
        cli,
        "resume_missing_session",
        _config("session_not_found"),
        pong,
        RunOptions(extra_args=("--resume", MISSING_SESSION)),
        family=family,
        description="--resume <uuid> of no session: result/error_during_execution 'No "
        "conversation found with session ID', exit 1, no request",
    )
    yield Case(
        cli,
        "resume_missing_title",
        _config("session_not_found"),
        pong,
        RunOptions(extra_args=("--resume", "nightly-fix")),
        family=family,
        description="--resume <title> that matches no session: the same result with the "
        "'--resume requires a valid session ID or session title' error",
    )
    yield Case(
        cli,
        "continue_without_session",
        SUCCESS,
        pong,
        RunOptions(extra_args=("--continue",)),
        family=family,
        description="--continue with no earlier session in the directory starts a new one",
    )


def _mcp_cases() -> Iterator[Case]:
    cli, family = "claude", "mcp_server_failed"
    pong = lambda c: [A.text("pong")]  # noqa: E731
    missing = _mcp("/nonexistent/bin/tracker-mcp")
    yield Case(
        cli,
        "mcp_server_failed",
        MCP_FAILED_OK,
        pong,
        RunOptions(extra_args=("--mcp-config", missing)),
        family=family,
        description="--mcp-config server whose command does not exist: init mcp_servers "
        "status failed, the run goes on",
    )
    yield Case(
        cli,
        "mcp_server_failed_strict",
        MCP_FAILED_OK,
        pong,
        RunOptions(extra_args=("--mcp-config", missing, "--strict-mcp-config")),
        family=family,
        description="the same with --strict-mcp-config: still not fatal",
    )
    yield Case(
        cli,
        "mcp_server_exits",
        MCP_FAILED_OK,
        pong,
        RunOptions(
            extra_args=("--mcp-config", _mcp("sh", "-c", "echo tracker: no token >&2; exit 3"))
        ),
        family=family,
        description="an MCP server that starts and exits 3 at once",
    )
    yield Case(
        cli,
        "mcp_project_server_failed",
        MCP_FAILED_OK,
        pong,
        RunOptions(files={"work/.mcp.json": missing}),
        family=family,
        description="the work dir's .mcp.json (used in -p without a trust prompt): source "
        "project, status failed",
    )
    yield Case(
        cli,
        "mcp_config_missing_file",
        _config("mcp_config"),
        pong,
        RunOptions(extra_args=("--mcp-config", "/nonexistent/mcp.json")),
        family=family,
        description="--mcp-config file that does not exist: 'Error: Invalid MCP configuration', "
        "exit 1 before any output",
    )


def _settings_and_flag_cases() -> Iterator[Case]:
    cli = "claude"
    pong = lambda c: [A.text("pong")]  # noqa: E731
    yield Case(
        cli,
        "settings_malformed",
        SUCCESS,
        pong,
        RunOptions(files={"home/.claude/settings.json": '{ "permissions": { "allow": [ "Bash" '}),
        family="invalid_settings",
        description="user settings.json that is not JSON: ignored in -p without a word",
    )
    yield Case(
        cli,
        "settings_invalid_schema",
        SUCCESS,
        pong,
        RunOptions(files={"work/.claude/settings.json": '{"permissions": {"allow": 5}}'}),
        family="invalid_settings",
        description="project settings that fail validation: ignored in -p without a word",
    )
    yield Case(
        cli,
        "settings_flag_missing_file",
        _config("settings_file"),
        pong,
        RunOptions(extra_args=("--settings", "/nonexistent/settings.json")),
        family="invalid_settings",
        description="--settings naming no file: 'Error: Settings file not found', exit 1",
    )
    yield Case(
        cli,
        "unknown_flag",
        _config("unknown_flag"),
        pong,
        RunOptions(extra_args=("--no-such-flag",)),
        family="bad_flag",
        description="commander: \"error: unknown option '--no-such-flag'\", exit 1",
    )
    yield Case(
        cli,
        "bad_flag_value",
        _config("bad_flag_value"),
        pong,
        RunOptions(extra_args=("--permission-mode", "yolo")),
        family="bad_flag",
        description="a value outside the choices: \"error: option '--permission-mode <mode>' "
        "argument 'yolo' is invalid\", exit 1",
    )
    yield Case(
        cli,
        "bad_flag_value_budget",
        _config("bad_flag_value"),
        pong,
        RunOptions(extra_args=("--max-budget-usd", "-1")),
        family="bad_flag",
    )
    yield Case(
        cli,
        "stream_json_without_verbose",
        _config("bad_flag_value"),
        pong,
        RunOptions(output_format="text", extra_args=("--output-format", "stream-json")),
        family="bad_flag",
        description="stream-json without --verbose (the last --output-format wins): 'Error: When "
        "using --print, --output-format=stream-json requires --verbose', exit 1",
    )
    yield Case(
        cli,
        "skip_permissions_as_root",
        _config("root_skip_permissions"),
        pong,
        RunOptions(extra_args=("--dangerously-skip-permissions",)),
        family="bad_flag",
        description="as root (the capture machine, autofix's container): "
        "'--dangerously-skip-permissions cannot be used with root/sudo privileges', exit 1; "
        "IS_SANDBOX=1 lifts it",
    )
    yield Case(
        cli,
        "no_prompt",
        _config("no_input"),
        pong,
        RunOptions(prompt=""),
        family="bad_flag",
        description="-p with an empty prompt and no stdin: 'Error: Input must be provided', exit 1",
    )
    yield Case(
        cli,
        "success_stdin_prompt",
        SUCCESS,
        pong,
        RunOptions(prompt="", stdin="Reply with the word pong.\n"),
        family="input_format",
        description="the prompt on stdin",
    )
    yield Case(
        cli,
        "success_input_stream_json",
        SUCCESS,
        pong,
        RunOptions(
            prompt="",
            extra_args=("--input-format", "stream-json"),
            stdin=json.dumps(
                {
                    "type": "user",
                    "message": {"role": "user", "content": "Reply with the word pong."},
                }
            )
            + "\n",
        ),
        family="input_format",
        description="--input-format stream-json with one user message on stdin",
    )
    yield Case(
        cli,
        "input_stream_json_invalid",
        _config("input_format"),
        pong,
        RunOptions(
            prompt="",
            extra_args=("--input-format", "stream-json"),
            stdin="Reply with the word pong.\n",
        ),
        family="input_format",
        description="--input-format stream-json fed plain text: 'Error parsing streaming input "
        "line', exit 1, no output",
    )


def _billing_and_retry_cases() -> Iterator[Case]:
    cli = "claude"
    credit = (
        "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing "
        "to upgrade or purchase credits."
    )
    yield Case(
        cli,
        "billing_error",
        QUOTA,
        lambda c: [A.error(400, credit, error_type="billing_error")],
        family="billing",
        description="400 with error.type billing_error: assistant error billing_error, "
        "'Credit balance is too low'",
    )
    yield Case(
        cli,
        "billing_error_402",
        QUOTA,
        lambda c: [A.error(402, credit)],
        family="billing",
        description="402 billing_error with the credit-balance text",
    )
    yield Case(
        cli,
        "billing_payment_402",
        Truth(False, "quota_exhausted", "permanent", "payment_method"),
        lambda c: [
            A.error(
                402,
                "There is an issue with your payment method. Please update your billing "
                "information.",
            )
        ],
        family="billing",
        description="402 billing_error without the credit words: assistant error 'unknown', "
        "'API Error: 402 ...'",
    )
    yield Case(
        cli,
        "spend_limit_no_retry",
        QUOTA,
        lambda c: [
            _no_retry(
                A.error(
                    429,
                    "You have reached your specified workspace API usage limits. You will regain "
                    "access on 2027-01-01 at 00:00 UTC.",
                    details={"error_code": "enforced_spend_limit_reached"},
                )
            )
        ],
        family="billing",
        description="the monthly spend limit as the API sends it, x-should-retry: false: one "
        "request, assistant error rate_limit",
    )
    yield Case(
        cli,
        "server_500_no_retry",
        SERVER,
        lambda c: [_no_retry(A.error(500, "Internal server error"))],
        family="do_not_retry",
        description="500 with x-should-retry: false: one request, no api_retry event",
    )
    yield Case(
        cli,
        "rate_limit_no_retry",
        RATE,
        lambda c: [_no_retry(A.error(429, "Rate limited"))],
        family="do_not_retry",
        description="429 with x-should-retry: false: one request",
    )
    yield Case(
        cli,
        "overloaded_no_retry",
        OVERLOADED,
        lambda c: [_no_retry(A.error(529, "Overloaded"))],
        family="do_not_retry",
        description="529 with x-should-retry: false: one request, error server_error",
    )
    yield Case(
        cli,
        "fallback_model_not_found",
        SUCCESS,
        lambda c: [A.error(404, "model: claude-nope-9"), A.text("pong", model="claude-haiku-4-5")],
        RunOptions(model="claude-nope-9", extra_args=("--fallback-model", "claude-haiku-4-5")),
        family="fallback_model",
        description="--fallback-model after a 404: system/model_fallback trigger model_not_found",
    )
    yield Case(
        cli,
        "fallback_model_overloaded",
        SUCCESS,
        lambda c: [*[A.error(529, "Overloaded")] * 3, A.text("pong", model="claude-haiku-4-5")],
        RunOptions(
            extra_args=("--fallback-model", "claude-haiku-4-5"),
            extra_env={"CLAUDE_CODE_MAX_RETRIES": "5"},
        ),
        family="fallback_model",
        description="three 529s in a row switch to --fallback-model (system/model_fallback "
        "trigger overloaded); needs CLAUDE_CODE_MAX_RETRIES of 2 or more",
    )
    warn = {
        "anthropic-ratelimit-unified-status": "allowed_warning",
        "anthropic-ratelimit-unified-representative-claim": "five_hour",
        "anthropic-ratelimit-unified-5h-status": "allowed_warning",
        "anthropic-ratelimit-unified-5h-utilization": "0.93",
    }
    resets = ("anthropic-ratelimit-unified-reset", "anthropic-ratelimit-unified-5h-reset")
    yield Case(
        cli,
        "success_rate_limit_warning",
        SUCCESS,
        lambda c: [
            replace(A.text("pong", headers=warn), clock_headers=dict.fromkeys(resets, 3600))
        ],
        RunOptions(api_key=None, extra_env=OAUTH),
        family="rate_limit_event",
        description="subscription at 93% of its 5-hour window: rate_limit_event status allowed, "
        "window allowed_warning, then success",
    )


def _hook_cases() -> Iterator[Case]:
    cli, family = "claude", "hooks"
    pong = lambda c: [A.text("pong")]  # noqa: E731
    yield Case(
        cli,
        "hook_blocks_prompt",
        _config("hook_blocked_prompt"),
        pong,
        RunOptions(files=_hook("UserPromptSubmit", "echo 'prompts are frozen' >&2; exit 2")),
        family=family,
        description="UserPromptSubmit hook exits 2: no request, system/informational "
        "prevent_continuation, result/success is_error false with the hook's message, exit 0",
    )
    yield Case(
        cli,
        "hook_stops_prompt",
        _config("hook_blocked_prompt"),
        pong,
        RunOptions(
            files=_hook(
                "UserPromptSubmit",
                'echo \'{"continue": false, "stopReason": "prompts are frozen"}\'',
            )
        ),
        family=family,
        description='UserPromptSubmit hook answers {"continue": false}: "Operation stopped by hook"',
    )
    yield Case(
        cli,
        "hook_blocks_tool",
        DENIED_OK,
        lambda c: [_bash("ls"), _read(c), A.text(README_ANSWER)],
        RunOptions(
            extra_args=("--allowedTools", "Bash"),
            files=_hook("PreToolUse", "echo 'Bash is blocked by policy' >&2; exit 2", "Bash"),
        ),
        family=family,
        description="PreToolUse hook exits 2 for Bash: tool error 'PreToolUse:Bash hook error', "
        "listed in permission_denials; the agent reads instead",
    )
    yield Case(
        cli,
        "hook_stops_after_tool",
        _config("hook_stopped"),
        lambda c: [_read(c), A.text(README_ANSWER)],
        RunOptions(
            files=_hook("PostToolUse", 'echo \'{"continue": false, "stopReason": "halt"}\'')
        ),
        family=family,
        description='PostToolUse hook {"continue": false}: terminal_reason hook_stopped, '
        'result "", exit 0',
    )
    yield Case(
        cli,
        "stop_hook_prevented",
        SUCCESS,
        pong,
        RunOptions(files=_hook("Stop", 'echo \'{"continue": false, "stopReason": "enough"}\'')),
        family=family,
        description='Stop hook {"continue": false} after the answer: terminal_reason '
        "stop_hook_prevented, the answer kept",
    )
    yield Case(
        cli,
        "stop_hook_block_cap",
        _config("stop_hook_block_cap"),
        pong,
        RunOptions(files=_hook("Stop", "echo 'keep going' >&2; exit 2")),
        family=family,
        description="Stop hook exits 2 every time: 9 more turns, then 'A hook blocked the turn "
        'from ending 9 consecutive times\', result "", exit 0',
    )
    yield Case(
        cli,
        "session_start_hook_fails",
        SUCCESS,
        pong,
        RunOptions(files=_hook("SessionStart", "exit 1")),
        family=family,
        description="SessionStart hook exits 1: system/hook_response outcome error, the run goes on",
    )


def _output_mode_cases() -> Iterator[Case]:
    cli = "claude"
    replies = {
        "success": (SUCCESS, lambda c: [A.text("pong")], {}),
        "empty_answer": (
            Truth(False, "empty_answer", "invalid_output"),
            lambda c: [A.message()],
            {},
        ),
        "auth": (AUTH, lambda c: [A.error(401, "invalid x-api-key")], {}),
        "rate_limit": (
            RATE,
            lambda c: [A.error(429, "Rate limited", headers={"retry-after": "1"})],
            {},
        ),
        "server_error": (SERVER, lambda c: [A.error(500, "Internal server error")], {}),
        "max_turns": (
            Truth(False, "max_turns", "permanent"),
            lambda c: [_read(c)],
            {"max_turns": 1},
        ),
        "resume_missing": (
            _config("session_not_found"),
            lambda c: [A.text("pong")],
            {"extra_args": ("--resume", MISSING_SESSION)},
        ),
        "hook_blocked_prompt": (
            _config("hook_blocked_prompt"),
            lambda c: [A.text("pong")],
            {"files": _hook("UserPromptSubmit", "echo 'prompts are frozen' >&2; exit 2")},
        ),
    }
    for fmt in ("text", "json"):
        for what, (truth, build, extra) in replies.items():
            name = f"{fmt}_format_{what}"
            if name in ("json_format_success", "json_format_server_error"):
                continue  # in the first catalogue
            yield Case(
                cli,
                name,
                truth,
                build,
                RunOptions(output_format=fmt, **extra),  # type: ignore[arg-type]
                family=f"{fmt}_output",
                description=f"--output-format {fmt}",
            )
