"""The fresh held-out Claude Code cases (``fresh=True``, fixtures ``<name>__f<variant>``).

Written from the coverage table of docs/agents/claude.md ("Every exit path in the source") by a
helper who never read or ran the verdict code, captured against the pinned 2.1.332 binary and
frozen in tests/fixtures/agent_captures/FRESH.txt before any verdict change; scored once. Each
case differs in shape from the tune cases of ``claude.py`` / ``claude_exits.py``: other
wording, status or error details, flag or env spelling, output mode, tools, more steps.
Never tune a verdict on these.

The descriptions say what the binary did in the probes (each case was run at least twice), so
a recapture that differs is a change of the CLI, not of the scenario.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from agent_apis import anthropic as A
from agent_apis.clis import RunOptions
from agent_apis.core import Reply
from agent_apis.scenarios.base import (
    AUTH,
    CONTEXT,
    EMPTY,
    MAX_TURNS,
    QUOTA,
    RATE,
    REFUSAL,
    SERVER,
    SPEND_CAP,
    SUCCESS,
    TIMEOUT,
    USAGE,
    Case,
    Context,
    Stop,
    Truth,
)

CLI = "claude"
OAUTH = {"CLAUDE_CODE_OAUTH_TOKEN": "sk-ant-oat01-autofix-fresh-oauth-token-0000000000000"}
SESSION = "0b7e5d1c-2f4a-4c3e-9d8b-5a6f7e8d9c0b"

DENIED_OK = Truth(True, "success", "none", warnings=("denied_tool",))
MCP_FAILED_OK = Truth(True, "success", "none", warnings=("mcp_server_failed",))
COMPACTED_OK = Truth(True, "success", "none", warnings=("compacted",))
# The agent was refused a tool and left the task undone; the output is success-shaped (exit 0,
# result/success) and lists the refusal: only the answer's words say the work was not done.
UNDONE = Truth(
    False, "permission", "permanent", "tool_denied", shown=False, warnings=("denied_tool",)
)


def _config(detail: str) -> Truth:
    return Truth(False, "config", "permanent", detail)


def _bash(command: str, description: str, **options: Any) -> Reply:
    return A.tool_call("Bash", {"command": command, "description": description}, **options)


def _read(c: Context, name: str, **options: Any) -> Reply:
    return A.tool_call("Read", {"file_path": str(c.work / name)}, **options)


def _edit(c: Context, name: str, old: str, new: str) -> Reply:
    return A.tool_call(
        "Edit", {"file_path": str(c.work / name), "old_string": old, "new_string": new}
    )


def _hooks(event: str, command: str, matcher: str | None = None) -> dict[str, str]:
    """User settings (CLAUDE_CONFIG_DIR/settings.json) with one command hook for ``event``."""
    entry: dict[str, Any] = {"hooks": [{"type": "command", "command": command}]}
    if matcher:
        entry["matcher"] = matcher
    return {"home/.claude/settings.json": json.dumps({"hooks": {event: [entry]}}, indent=2)}


def _echo_json(payload: Mapping[str, Any]) -> str:
    return "echo '" + json.dumps(payload) + "'"


def _unified(window: str, short: str, seconds: int, extra: Mapping[str, str]) -> Reply:
    """A subscription (OAuth) window rejected, resetting ``seconds`` after the answer."""
    reply = A.error(
        429,
        "Error",
        headers={
            "anthropic-ratelimit-unified-status": "rejected",
            "anthropic-ratelimit-unified-representative-claim": window,
            f"anthropic-ratelimit-unified-{short}-status": "rejected",
            f"anthropic-ratelimit-unified-{short}-utilization": "1.02",
            **extra,
        },
        label=f"429:unified_{window}",
    )
    resets = ("anthropic-ratelimit-unified-reset", f"anthropic-ratelimit-unified-{short}-reset")
    return replace(reply, clock_headers=dict.fromkeys(resets, seconds))


def _session_dir(work: Path) -> Path:
    """Where Claude keeps the transcripts of the sessions started in ``work``."""
    projects = work.parent / "home" / ".claude" / "projects"
    return projects / re.sub(r"[^a-zA-Z0-9]", "-", str(work))


def _earlier_session(work: Path) -> None:
    """A transcript of session SESSION in this directory (one user message)."""
    folder = _session_dir(work)
    folder.mkdir(parents=True, exist_ok=True)
    line = {
        "type": "user",
        "uuid": "11111111-1111-4111-8111-111111111111",
        "parentUuid": None,
        "sessionId": SESSION,
        "cwd": str(work),
        "timestamp": "2026-11-26T10:00:00.000Z",
        "message": {"role": "user", "content": "Summarise README.md."},
    }
    (folder / f"{SESSION}.jsonl").write_text(json.dumps(line) + "\n")


def _git_repo(work: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work), "GIT_CONFIG_GLOBAL": "/dev/null"}
    ident = ["-c", "user.email=ci@example.invalid", "-c", "user.name=ci"]
    for args in (["init", "-q"], [*ident, "add", "README.md"], [*ident, "commit", "-qm", "init"]):
        subprocess.run(["git", *args], cwd=work, env=env, check=True)


CALC = "def add(a, b):\n    return a - b\n"
TEST_CALC = (
    "from calc import add\n\nassert add(2, 3) == 5, f'add(2, 3) = {add(2, 3)}'\nprint('ok')\n"
)
WAIT_SCRIPT = "#!/bin/sh\n# wait until the database answers\nsleep 30\n"
CREDIT = (
    "Your credit balance is too low to access the Claude API. Please go to Plans & Billing to "
    "upgrade or purchase credits."
)


def claude_fresh_cases() -> Iterator[Case]:
    for case in (
        *_debug(),
        *_tools(),
        *_compaction_caps_and_stops(),
        *_denied(),
        *_hooks_cases(),
        *_setup_failures(),
        *_billing_and_retry(),
        *_output_modes(),
    ):
        yield replace(case, fresh=True)


def _debug() -> Iterator[Case]:
    family = "debug_output"
    yield Case(
        CLI,
        "debug_filter_stderr_read",
        SUCCESS,
        lambda c: [_read(c, "README.md"), A.text("README.md describes a demo project.")],
        RunOptions(
            prompt="What does README.md describe?",
            extra_args=("--debug=api,hooks", "--debug-to-stderr"),
        ),
        family=family,
        description="--debug=api,hooks --debug-to-stderr: the category filter leaves two "
        "'[DEBUG] Hooks: checkForNewResponses ...' lines on stderr around a Read and the answer; "
        "exit 0, result/success",
    )
    yield Case(
        CLI,
        "sdk_log_info_json_rate_limit",
        RATE,
        lambda c: [
            replace(
                A.error(
                    429,
                    "This request would exceed your organization's rate limit of 8,000 output "
                    "tokens per minute. For details, refer to: "
                    "https://docs.claude.com/en/api/rate-limits.",
                    headers={
                        "retry-after": "1",
                        "anthropic-ratelimit-output-tokens-limit": "8000",
                        "anthropic-ratelimit-output-tokens-remaining": "0",
                    },
                ),
                clock_headers={"anthropic-ratelimit-output-tokens-reset": 40},
            )
        ],
        RunOptions(output_format="json", extra_env={"ANTHROPIC_LOG": "info"}),
        family=family,
        description="ANTHROPIC_LOG=info with --output-format json and a persisting 429 on output "
        "tokens per minute (retry-after 1): SDK log lines on stdout before the JSON result "
        "'API Error: Request rejected (429) · ...'",
    )
    yield Case(
        CLI,
        "debug_stderr_text_503",
        SERVER,
        lambda c: [A.error(503, "upstream connect error or disconnect/reset before headers")],
        RunOptions(output_format="text", extra_args=("-d2e",)),
        family=family,
        description="-d2e (short --debug-to-stderr) in text mode: a persisting 503, 'API Error: "
        "503 upstream connect error...' on stdout, ~190 debug lines on stderr, exit 1",
    )
    yield Case(
        CLI,
        "sdk_log_debug_json_auth",
        AUTH,
        lambda c: [A.error(401, "x-api-key header is invalid")],
        RunOptions(output_format="json", extra_env={"ANTHROPIC_LOG": "debug"}),
        family=family,
        description="ANTHROPIC_LOG=debug with --output-format json and a 401: ~65 lines of the "
        "SDK's request/response log on stdout before the JSON result 'Invalid API key'",
    )


def _tools() -> Iterator[Case]:
    family = "recovered_tool_error"
    yield Case(
        CLI,
        "edit_errors_then_fixed",
        SUCCESS,
        lambda c: [
            _edit(c, "README.md", "# demo project", "# demo project v2"),
            _read(c, "README.md"),
            _edit(c, "README.md", "# Demo Project", "# demo project v2"),
            _edit(c, "README.md", "# demo project\n", "# demo project v2\n"),
            A.text("Renamed the heading to '# demo project v2'."),
        ],
        RunOptions(
            prompt="Rename the README heading to 'demo project v2'.",
            extra_args=("--permission-mode", "acceptEdits"),
        ),
        family=family,
        description="acceptEdits: Edit before Read ('File has not been read yet'), Read, Edit of "
        "a string that is not there ('String to replace not found'), the right Edit, answer",
    )
    yield Case(
        CLI,
        "failing_test_fixed",
        SUCCESS,
        lambda c: [
            _bash("python3 test_calc.py", "Run the tests"),
            _read(c, "calc.py"),
            _edit(c, "calc.py", "return a - b", "return a + b"),
            _bash("python3 test_calc.py", "Run the tests again"),
            A.text("Fixed add() in calc.py (it subtracted); test_calc.py passes now."),
        ],
        RunOptions(
            prompt="Make test_calc.py pass.",
            extra_args=("--permission-mode", "acceptEdits", "--allowedTools", "Bash(python3:*)"),
            files={"work/calc.py": CALC, "work/test_calc.py": TEST_CALC},
        ),
        family=family,
        description="the test command fails (AssertionError traceback, 'Exit code 1'), the agent "
        "reads and edits calc.py, the rerun prints ok, answer",
    )


def _compaction_caps_and_stops() -> Iterator[Case]:
    yield Case(
        CLI,
        "compaction_env_window",
        COMPACTED_OK,
        lambda c: [
            _bash("ls -la", "List files", input_tokens=30_000),
            _read(c, "README.md", input_tokens=160_000),
            A.text("<summary>Listed the files and read README.md.</summary>"),
            A.text("The project holds only README.md, a demo description."),
        ],
        RunOptions(
            prompt="Describe the project.",
            extra_args=("--allowedTools", "Bash(ls:*)"),
            extra_env={"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "120000"},
        ),
        family="compaction",
        description="CLAUDE_CODE_AUTO_COMPACT_WINDOW=120000 (the env, not --autocompact): after a "
        "160k-token answer system/status compacting, compact_result success, compact_boundary "
        "trigger auto, then the answer",
    )
    yield Case(
        CLI,
        "debug_file_max_turns",
        MAX_TURNS,
        lambda c: [_bash("grep -rn TODO .", "Search for TODOs")],
        RunOptions(
            prompt="Find every TODO in the project.",
            max_turns=2,
            extra_args=("--debug-file", "logs/claude-debug.log"),
        ),
        family="max_turns",
        description="--debug-file logs/claude-debug.log (the debug log in a file of the work dir) "
        "on a run that greps until --max-turns 2: result/error_max_turns, exit 1",
    )
    yield Case(
        CLI,
        "max_budget_text_opus",
        SPEND_CAP,
        lambda c: [_read(c, "README.md", input_tokens=400_000), A.text("done")],
        RunOptions(
            prompt="Summarise README.md.",
            model="claude-opus-4-1",
            output_format="text",
            extra_args=("--max-budget-usd", "0.5"),
        ),
        family="max_budget",
        description="text mode, --max-budget-usd 0.5 on Opus (400k input tokens): stdout 'Error: "
        "Exceeded USD budget (0.5)', stderr the Opus remap notice, exit 1",
    )
    yield Case(
        CLI,
        "bash_loop_text_timeout",
        TIMEOUT,
        lambda c: [_bash("ls -R", "List everything")],
        RunOptions(prompt="Map the project layout.", output_format="text"),
        stop=Stop("SIGTERM", after_s=6.0),
        family="loop",
        description="text mode: the model lists the tree for ever (no turn cap in -p); SIGTERM at "
        "6 s: exit 143, stdout empty",
    )
    yield Case(
        CLI,
        "timeout_during_bash",
        TIMEOUT,
        lambda c: [_bash("sh scripts/wait_for_db.sh", "Wait for the database"), A.text("done")],
        RunOptions(
            prompt="Wait for the database, then report.",
            extra_args=("--allowedTools", "Bash(sh:*)"),
            files={"work/scripts/wait_for_db.sh": WAIT_SCRIPT},
        ),
        stop=Stop("SIGTERM", when_stdout_has='"name":"Bash"', hold_s=1.5),
        family="cancelled",
        description="SIGTERM (the wall-clock timeout) 1.5 s into a Bash script that sleeps: the "
        "script dies (tool_result is_error 'Exit code 137'), exit 143, no result line",
    )


def _denied() -> Iterator[Case]:
    family = "denied_tool"
    yield Case(
        CLI,
        "denied_git_fetch_dont_ask",
        DENIED_OK,
        lambda c: [
            _bash("git fetch origin", "Fetch the remote"),
            _bash("git status --short", "Show the status"),
            A.text("The working tree is clean."),
        ],
        RunOptions(
            prompt="Is the working tree clean?",
            extra_args=("--permission-mode", "dontAsk", "--allowedTools", "Bash(git status:*)"),
            setup=_git_repo,
        ),
        family=family,
        description="dontAsk with only 'Bash(git status:*)' allowed, in a git repo: git fetch "
        "denied (system/permission_denied, decision_reason_type mode), git status runs, answer",
    )
    yield Case(
        CLI,
        "permission_prompts_none",
        DENIED_OK,
        lambda c: [
            _bash(
                "python3 -c \"print(len(open('README.md').read().splitlines()))\"", "Count lines"
            ),
            _read(c, "README.md"),
            A.text("README.md has 3 lines."),
        ],
        RunOptions(
            prompt="How many lines does README.md have?",
            extra_args=("--permission-prompts", "none"),
        ),
        family=family,
        description="--permission-prompts none: the python one-liner is denied at once ('no "
        "approval surface', decision_reason_type asyncAgent); the agent reads the file, answers",
    )
    yield Case(
        CLI,
        "denied_write_gave_up_json",
        UNDONE,
        lambda c: [
            A.tool_call(
                "Write", {"file_path": str(c.work / "LICENSE"), "content": "MIT License\n"}
            ),
            A.text("I wasn't able to create LICENSE: writing files requires permission."),
        ],
        RunOptions(prompt="Add an MIT LICENSE file.", output_format="json"),
        family=family,
        description="json mode, default permission mode: Write denied, the agent gives up; exit "
        "0, one result/success with is_error false and one permission_denials entry",
    )


def _hooks_cases() -> Iterator[Case]:
    family = "hooks"
    deny_write = _echo_json(
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "writes are frozen during the release",
            }
        }
    )
    yield Case(
        CLI,
        "hook_deny_json_gave_up",
        UNDONE,
        lambda c: [
            A.tool_call(
                "Write", {"file_path": str(c.work / "notes.txt"), "content": "release notes\n"}
            ),
            A.text("The write was refused (writes are frozen during the release); nothing done."),
        ],
        RunOptions(
            prompt="Create notes.txt with the release notes.",
            extra_args=("--permission-mode", "acceptEdits"),
            files=_hooks("PreToolUse", deny_write, "Write|Edit"),
        ),
        family=family,
        description="acceptEdits, a PreToolUse hook answers permissionDecision deny (JSON, exit 0) "
        "for Write: tool error 'PreToolUse:Write hook error: writes are frozen...', one "
        "permission_denials entry; the agent gives up, exit 0",
    )
    yield Case(
        CLI,
        "hook_deny_bash_text_worked_around",
        SUCCESS,
        lambda c: [
            _bash("cat README.md", "Show README"),
            _read(c, "README.md"),
            A.text("README.md describes a demo project."),
        ],
        RunOptions(
            prompt="What does README.md describe?",
            output_format="text",
            extra_args=("--allowedTools", "Bash"),
            files=_hooks("PreToolUse", "echo 'use the Read tool for files' >&2; exit 2", "Bash"),
        ),
        family=family,
        description="text mode: a PreToolUse hook refuses Bash (exit 2), the agent reads instead; "
        "stdout is the answer alone, the refusal leaves no trace",
    )
    yield Case(
        CLI,
        "hook_prompt_decision_block",
        _config("hook_blocked_prompt"),
        lambda c: [A.text("pong")],
        RunOptions(
            files=_hooks(
                "UserPromptSubmit",
                _echo_json({"decision": "block", "reason": "prompts must name a ticket"}),
            )
        ),
        family=family,
        description='a UserPromptSubmit hook answers {"decision": "block"} (JSON, exit 0): no '
        "request, system/informational 'UserPromptSubmit operation blocked by hook', "
        "result/success is_error false, num_turns 0, exit 0",
    )
    yield Case(
        CLI,
        "stop_hook_blocks_once",
        SUCCESS,
        lambda c: [
            A.text("The README describes a demo project."),
            A.text("Checked again: README.md describes a demo project."),
        ],
        RunOptions(
            prompt="What does README.md describe?",
            files=_hooks(
                "Stop",
                "if [ -f .stop-seen ]; then exit 0; fi; touch .stop-seen; "
                "echo 'double-check the answer' >&2; exit 2",
            ),
        ),
        family=family,
        description="a Stop hook blocks the first stop once (exit 2): 'Stop hook feedback' turn, "
        "system/notification 'stop hook problem', the agent answers again, exit 0",
    )


def _setup_failures() -> Iterator[Case]:
    pong = lambda c: [A.text("pong")]  # noqa: E731
    yield Case(
        CLI,
        "resume_fork_missing_text",
        _config("session_not_found"),
        pong,
        RunOptions(output_format="text", extra_args=("-r", SESSION, "--fork-session")),
        family="missing_session",
        description="text mode, -r <uuid> --fork-session of no session: stdout empty, stderr "
        "'No conversation found with session ID', exit 1, no request",
    )
    yield Case(
        CLI,
        "session_id_in_use",
        _config("session_in_use"),
        pong,
        RunOptions(extra_args=("--session-id", SESSION), setup=_earlier_session),
        family="missing_session",
        description="--session-id of a session that already has a transcript here: 'Error: "
        "Session ID <id> is already in use.', exit 1, no output",
    )
    yield Case(
        CLI,
        "mcp_http_server_refused",
        MCP_FAILED_OK,
        pong,
        RunOptions(
            extra_args=(
                "--mcp-config",
                json.dumps(
                    {"mcpServers": {"docs": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}}
                ),
            )
        ),
        family="mcp_server_failed",
        description="an http MCP server on a closed loopback port: init mcp_servers docs status "
        "failed, the run answers",
    )
    yield Case(
        CLI,
        "mcp_failed_json_output",
        SUCCESS,
        pong,
        RunOptions(
            output_format="json",
            extra_args=(
                "--mcp-config",
                json.dumps(
                    {
                        "mcpServers": {
                            "db": {"command": "python3", "args": ["-c", "raise SystemExit(2)"]}
                        }
                    }
                ),
            ),
        ),
        family="mcp_server_failed",
        description="json mode: an MCP server that exits 2 at once; the single result says "
        "nothing of it (no init event in json mode)",
    )
    yield Case(
        CLI,
        "settings_inline_unparsable",
        _config("settings_file"),
        pong,
        RunOptions(extra_args=("--settings", '{"model": ')),
        family="invalid_settings",
        description="--settings with a JSON string that does not parse, taken for a path: "
        "'Error: Settings file not found: <work>/{\"model\": ', exit 1",
    )
    yield Case(
        CLI,
        "setting_sources_invalid",
        _config("bad_flag_value"),
        pong,
        RunOptions(extra_args=("--setting-sources", "user,global")),
        family="bad_flag",
        description="--setting-sources user,global: 'Error processing --setting-sources: Invalid "
        "setting source: global', exit 1",
    )
    yield Case(
        CLI,
        "unknown_flag_typo",
        _config("unknown_flag"),
        pong,
        RunOptions(extra_args=("--max-turn", "3")),
        family="bad_flag",
        description="--max-turn (a typo of --max-turns): \"error: unknown option '--max-turn'\", "
        "exit 1",
    )
    yield Case(
        CLI,
        "append_prompt_file_missing",
        _config("missing_file"),
        pong,
        RunOptions(extra_args=("--append-system-prompt-file", "prompts/house-rules.md")),
        family="bad_flag",
        description="--append-system-prompt-file naming no file: 'Error: Append system prompt "
        "file not found: <path>', exit 1",
    )
    yield Case(
        CLI,
        "effort_unknown_warning",
        SUCCESS,
        pong,
        RunOptions(extra_args=("--effort", "turbo")),
        family="bad_flag",
        description="--effort turbo: stderr \"Warning: Unknown --effort value 'turbo' — ignoring "
        'it", the run answers, exit 0',
    )
    yield Case(
        CLI,
        "input_stream_json_text_output",
        _config("input_format"),
        pong,
        RunOptions(
            prompt="",
            output_format="text",
            extra_args=("--input-format", "stream-json"),
            stdin=json.dumps({"type": "user", "message": {"role": "user", "content": "pong?"}})
            + "\n",
        ),
        family="input_format",
        description="--input-format stream-json with --output-format text: 'Error: "
        "--input-format=stream-json requires output-format=stream-json.', exit 1",
    )


def _billing_and_retry() -> Iterator[Case]:
    yield Case(
        CLI,
        "credit_low_json",
        QUOTA,
        lambda c: [A.error(400, CREDIT)],
        RunOptions(output_format="json"),
        family="billing",
        description="json mode, 400 invalid_request_error with the Claude API credit wording: "
        "result 'Credit balance is too low', api_error_status 400",
    )
    yield Case(
        CLI,
        "out_of_credits_429",
        QUOTA,
        lambda c: [
            A.error(
                429,
                "Your organization is out of usage credits. Add credits in the Console to "
                "continue.",
                details={"error_code": "out_of_credits"},
            )
        ],
        family="billing",
        description="429 rate_limit_error with details.error_code out_of_credits: retried once "
        "(api_retry), then error rate_limit, result api_error_code out_of_credits",
    )
    yield Case(
        CLI,
        "prepaid_exhausted_402_text",
        QUOTA,
        lambda c: [
            A.error(
                402,
                "Your prepaid credit balance has been exhausted. Add funds to keep using the API.",
            )
        ],
        RunOptions(output_format="text"),
        family="billing",
        description="text mode, 402 billing_error: stdout 'API Error: 402 Your prepaid credit "
        "balance has been exhausted...', exit 1",
    )
    yield Case(
        CLI,
        "overloaded_503_should_not_retry",
        Truth(False, "overloaded", "transient", "503 overloaded_error"),
        lambda c: [
            A.error(
                503,
                "Overloaded",
                error_type="overloaded_error",
                headers={"x-should-retry": "false"},
            )
        ],
        family="do_not_retry",
        description="503 overloaded_error with x-should-retry: false: still retried once "
        "(api_retry error overloaded), error server_error, api_error_type overloaded_error; "
        "nothing in the output carries the header",
    )
    yield Case(
        CLI,
        "dlp_denied_403",
        Truth(False, "permission", "permanent", "dlp_request_denied"),
        lambda c: [
            A.error(
                403,
                "This request was blocked by your organization's data loss prevention policy.",
                details={"error_code": "dlp_request_denied"},
            )
        ],
        family="do_not_retry",
        description="403 with details.error_code dlp_request_denied: one request, assistant error "
        "invalid_request, result api_error and api_error_code dlp_request_denied (the typed "
        "'must not be sent again' kind)",
    )
    yield Case(
        CLI,
        "fallback_after_model_403",
        SUCCESS,
        lambda c: [
            A.error(
                403,
                "model: claude-opus-4-1 is not available for this organization",
                error_type="permission_error",
            ),
            A.text("pong", model="claude-sonnet-4-5"),
        ],
        RunOptions(model="claude-opus-4-1", extra_args=("--fallback-model", "claude-sonnet-4-5")),
        family="fallback_model",
        description="--fallback-model after a 403 permission_error naming the model: "
        "system/model_fallback trigger permission_denied, then the answer",
    )
    yield Case(
        CLI,
        "fallback_then_server_error",
        SERVER,
        lambda c: [*[A.error(529, "Overloaded")] * 3, A.error(500, "Internal server error")],
        RunOptions(
            extra_args=("--fallback-model", "claude-haiku-4-5"),
            extra_env={"CLAUDE_CODE_MAX_RETRIES": "3"},
        ),
        family="fallback_model",
        description="three 529s switch to the fallback model (system/model_fallback trigger "
        "overloaded), which answers 500 every time: 3 api_retry, error server_error 500, exit 1",
    )
    yield Case(
        CLI,
        "usage_limit_json_overage_disabled",
        USAGE,
        lambda c: [
            _unified(
                "five_hour",
                "5h",
                2 * 3600,
                {
                    "anthropic-ratelimit-unified-overage-status": "rejected",
                    "anthropic-ratelimit-unified-overage-disabled-reason": "org_level_disabled",
                },
            )
        ],
        RunOptions(output_format="json", api_key=None, extra_env=OAUTH),
        family="rate_limit_event",
        description="json mode, subscription 5-hour window rejected and extra usage disabled: "
        'result "You\'ve hit your 5-hour limit · resets <time>", api_error usage_limit_reached',
    )
    yield Case(
        CLI,
        "rate_limit_twice_then_success",
        SUCCESS,
        lambda c: [
            A.error(429, "Too many requests", headers={"retry-after-ms": "300"}),
            A.error(429, "Too many requests", headers={"retry-after-ms": "300"}),
            A.text("pong"),
        ],
        RunOptions(extra_env={"CLAUDE_CODE_MAX_RETRIES": "3"}),
        family="api_error",
        description="two 429s with retry-after-ms 300 (CLAUDE_CODE_MAX_RETRIES=3): two api_retry "
        "events, then the answer",
    )


def _output_modes() -> Iterator[Case]:
    yield Case(
        CLI,
        "text_whitespace_answer",
        EMPTY,
        lambda c: [A.text("\n\n")],
        RunOptions(output_format="text"),
        family="text_output",
        description="text mode: the model answers only newlines, twice: stdout is blank lines, "
        "exit 0",
    )
    yield Case(
        CLI,
        "text_refusal",
        REFUSAL,
        lambda c: [A.text("I can start with", stop_reason="refusal")],
        RunOptions(output_format="text"),
        family="text_output",
        description="text mode, stop_reason refusal after partial text: stdout 'API Error: Sonnet "
        "4.5 can't help with this...' with the AUP link and request id, exit 1",
    )
    yield Case(
        CLI,
        "json_context_window",
        CONTEXT,
        lambda c: [A.error(400, "prompt is too long: 201734 tokens > 200000 maximum")],
        RunOptions(output_format="json"),
        family="json_output",
        description="json mode, prompt too long: terminal_reason prompt_too_long, result 'Prompt "
        "is too long · ...', exit 1",
    )
