"""The second fresh held-out batch for the claude CLI (variant 2: fixtures `<name>__f2`).

Written from the coverage table (docs/agents/claude.md) after the first batch was scored, by
someone who never saw the verdict code; frozen in FRESH.txt before the verdict changed.

Each case differs in shape from the tune cases (``claude.py``, ``claude_exits.py``) and the first
fresh batch (``claude_fresh.py``): other provider wording, statuses, error bodies and headers,
other flag and env spellings, the same failure in another output mode, other tools, prompts
and step counts. The descriptions say what the pinned 2.1.332 binary did in the probes (every
case was run at least twice before it was captured), so a recapture that differs is a change of
the CLI, not of the scenario. Never tune a verdict on these.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from agent_apis import anthropic as A
from agent_apis.clis import RunOptions
from agent_apis.core import Reply, SseEvent
from agent_apis.scenarios.base import Case, Context, RetryClass, Stop, Truth

CLI = "claude"
OAUTH = {"CLAUDE_CODE_OAUTH_TOKEN": "sk-ant-oat01-autofix-batch2-oauth-token-00000000000000"}
SESSION = "3c9a1e57-8d2b-4f60-a1c4-7e5b9d0f2a68"

SUCCESS = Truth(True, "success", "none")
DENIED_OK = Truth(True, "success", "none", warnings=("denied_tool",))
MCP_FAILED_OK = Truth(True, "success", "none", warnings=("mcp_server_failed",))
# A tool was refused and the agent left the task undone; exit 0 and a success-shaped result that
# lists the refusal: only the answer's words say the work was not done.
UNDONE = Truth(
    False, "permission", "permanent", "tool_denied", shown=False, warnings=("denied_tool",)
)


def _t(kind: str, retry: RetryClass, detail: str = "") -> Truth:
    return Truth(False, kind, retry, detail)


def _config(detail: str) -> Truth:
    return _t("config", "permanent", detail)


def _bash(command: str, description: str, **options: Any) -> Reply:
    return A.tool_call("Bash", {"command": command, "description": description}, **options)


def _read(c: Context, name: str, **options: Any) -> Reply:
    return A.tool_call("Read", {"file_path": str(c.work / name)}, **options)


def _echo_json(payload: Mapping[str, Any]) -> str:
    return "echo '" + json.dumps(payload) + "'"


def _hook_settings(event: str, command: str, matcher: str | None = None) -> str:
    entry: dict[str, Any] = {"hooks": [{"type": "command", "command": command}]}
    if matcher:
        entry["matcher"] = matcher
    return json.dumps({"hooks": {event: [entry]}}, indent=2)


def _user_hook(event: str, command: str, matcher: str | None = None) -> dict[str, str]:
    """User settings (CLAUDE_CONFIG_DIR/settings.json) with one command hook for ``event``."""
    return {"home/.claude/settings.json": _hook_settings(event, command, matcher)}


def _unified(window: str, short: str, seconds: int) -> Reply:
    """A subscription (OAuth) window rejected, resetting ``seconds`` after the answer."""
    reply = A.error(
        429,
        "Error",
        headers={
            "anthropic-ratelimit-unified-status": "rejected",
            "anthropic-ratelimit-unified-representative-claim": window,
            f"anthropic-ratelimit-unified-{short}-status": "rejected",
            f"anthropic-ratelimit-unified-{short}-utilization": "1.0",
        },
        label=f"429:unified_{window}",
    )
    resets = ("anthropic-ratelimit-unified-reset", f"anthropic-ratelimit-unified-{short}-reset")
    return replace(reply, clock_headers=dict.fromkeys(resets, seconds))


def _stream_error_with_details(
    partial: str, error_type: str, text: str, details: Mapping[str, Any]
) -> Reply:
    """HTTP 200, some text, then an SSE ``error`` event whose error carries ``details``."""
    base = A.stream_error(partial, error_type, text)
    error = {"type": error_type, "message": text, "details": dict(details)}
    events = (*base.events[:-1], SseEvent({"type": "error", "error": error}, "error"))
    return replace(base, events=events, label=f"stream_error:{details.get('error_code')}")


def _project_dir(work: Path) -> Path:
    """Where Claude keeps the transcripts of the sessions started in ``work``."""
    projects = work.parent / "home" / ".claude" / "projects"
    return projects / re.sub(r"[^a-zA-Z0-9]", "-", str(work))


def _earlier_session(work: Path) -> None:
    """A finished session SESSION in this directory: one question, one answer."""
    first, second = "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333"
    common = {"sessionId": SESSION, "cwd": str(work)}
    lines = [
        {
            "type": "user",
            "uuid": first,
            "parentUuid": None,
            "timestamp": "2026-11-25T09:00:00.000Z",
            "message": {"role": "user", "content": "What does README.md describe?"},
            **common,
        },
        {
            "type": "assistant",
            "uuid": second,
            "parentUuid": first,
            "timestamp": "2026-11-25T09:00:02.000Z",
            "message": {
                "id": "msg_earlier",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [{"type": "text", "text": "A demo project."}],
                "stop_reason": "end_turn",
                "stop_sequence": None,
                "usage": {"input_tokens": 100, "output_tokens": 5},
            },
            **common,
        },
    ]
    folder = _project_dir(work)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{SESSION}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))


BUILD_SH = (
    "#!/bin/sh\nset -e\nmkdir -p dist\nif [ -f src/app.txt ] then\n  cp src/app.txt "
    "dist/app.txt\nfi\necho built\n"
)
CALC_OK = "def add(a, b):\n    return a + b\n"
TEST_CALC = "from calc import add\n\nassert add(2, 3) == 5\nprint('ok')\n"
# A stdio MCP server with one tool (newline-delimited JSON-RPC, as the MCP stdio transport is).
NOTES_MCP = """import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    method = msg.get("method")
    if method == "initialize":
        result = {
            "protocolVersion": msg["params"].get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "notes", "version": "1.0.0"},
        }
    elif method == "tools/list":
        result = {"tools": [{
            "name": "lookup",
            "description": "Look up a project note by key",
            "inputSchema": {"type": "object", "properties": {"key": {"type": "string"}},
                            "required": ["key"]},
        }]}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": "owner: platform team"}]}
    else:
        reply = {"jsonrpc": "2.0", "id": msg["id"],
                 "error": {"code": -32601, "message": "method not found"}}
        sys.stdout.write(json.dumps(reply) + "\\n")
        sys.stdout.flush()
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}) + "\\n")
    sys.stdout.flush()
"""


def claude_batch2_cases() -> Iterator[Case]:
    for case in (
        *_debug(),
        *_tools(),
        *_compaction_loops_caps(),
        *_denied_and_hooks(),
        *_setup_failures(),
        *_billing(),
        *_api_errors(),
        *_output_modes(),
    ):
        yield replace(case, fresh=True, variant=2)


def _debug() -> Iterator[Case]:
    family = "debug_output"
    yield Case(
        CLI,
        "sdk_log_debug_text_tool",
        SUCCESS,
        lambda c: [_read(c, "README.md"), A.text("README.md describes a demo project.")],
        RunOptions(
            prompt="What does README.md describe?",
            output_format="text",
            extra_env={"ANTHROPIC_LOG": "debug"},
        ),
        family=family,
        description="text mode with ANTHROPIC_LOG=debug around a Read: ~175 lines of the SDK's "
        "request/response log on stdout, the answer as the last line; exit 0",
    )
    yield Case(
        CLI,
        "sdk_log_info_overload_then_tool",
        SUCCESS,
        lambda c: [
            A.error(529, "Overloaded"),
            _read(c, "README.md"),
            A.text("README.md describes a demo project."),
        ],
        RunOptions(prompt="What does README.md describe?", extra_env={"ANTHROPIC_LOG": "info"}),
        family=family,
        description="ANTHROPIC_LOG=info, a 529 retried once (api_retry overloaded), then a Read "
        "and the answer: stdout holds the SDK line '... failed with status 529 ... - error; no "
        "more retries left' between the events, on a run that succeeds (exit 0)",
    )
    yield Case(
        CLI,
        "debug_stderr_warn_level_success",
        SUCCESS,
        lambda c: [A.text("pong")],
        RunOptions(
            extra_args=("--debug-to-stderr",),
            extra_env={"CLAUDE_CODE_DEBUG_LOG_LEVEL": "warn"},
        ),
        family=family,
        description="--debug-to-stderr with CLAUDE_CODE_DEBUG_LOG_LEVEL=warn: stderr is only "
        "'[ERROR] Failed to save config with lock: ... ENOENT ...' and '[WARN] auto mode "
        "disabled ...' on a run that succeeds",
    )
    yield Case(
        CLI,
        "sdk_log_info_permission_403",
        _t("permission", "permanent", "model_access"),
        lambda c: [
            A.error(
                403,
                "Your organization does not have access to claude-opus-4-1. Contact your "
                "administrator to request access.",
            )
        ],
        RunOptions(model="claude-opus-4-1", extra_env={"ANTHROPIC_LOG": "info"}),
        family=family,
        description="ANTHROPIC_LOG=info and a 403 permission_error for the model: one SDK line "
        "'... failed with status 403 ... not retryable' on stdout, assistant error "
        "authentication_failed, result 'Failed to authenticate. API Error: 403 ...', exit 1",
    )


def _tools() -> Iterator[Case]:
    family = "recovered_tool_error"
    yield Case(
        CLI,
        "build_script_fixed_json",
        SUCCESS,
        lambda c: [
            _bash("sh build.sh", "Run the build"),
            _read(c, "build.sh"),
            A.tool_call(
                "Edit",
                {
                    "file_path": str(c.work / "build.sh"),
                    "old_string": "] then",
                    "new_string": "]; then",
                },
            ),
            _bash("sh build.sh", "Run the build again"),
            A.text("Fixed the missing ';' before 'then' in build.sh; the build prints 'built'."),
        ],
        RunOptions(
            prompt="The build is broken; fix build.sh.",
            output_format="json",
            extra_args=("--permission-mode", "acceptEdits", "--allowedTools", "Bash(sh:*)"),
            files={"work/build.sh": BUILD_SH, "work/src/app.txt": "app\n"},
        ),
        family=family,
        description="json mode: 'sh build.sh' fails ('Exit code 2 ... Syntax error'), the agent "
        "reads and edits the script, the rerun prints 'built'; one result/success, num_turns 5",
    )
    yield Case(
        CLI,
        "bash_tool_timeout_then_ls",
        SUCCESS,
        lambda c: [
            A.tool_call(
                "Bash",
                {"command": "sleep 20", "description": "Wait for the server", "timeout": 1500},
            ),
            _bash("ls", "List files"),
            A.text("The server never came up; the project holds only README.md."),
        ],
        RunOptions(
            prompt="Start the dev server and list the files.",
            extra_args=("--allowedTools", "Bash"),
        ),
        family=family,
        description="a Bash call with its own 1.5 s timeout: tool_result is_error 'Exit code "
        "143 / Command timed out after 1s', then ls and the answer; exit 0",
    )
    yield Case(
        CLI,
        "command_not_found_text",
        SUCCESS,
        lambda c: [
            _bash("pnpm test", "Run the tests"),
            _bash("python3 test_calc.py", "Run the tests with python"),
            A.text("pnpm is not installed; python3 test_calc.py passes (ok)."),
        ],
        RunOptions(
            prompt="Run the tests.",
            output_format="text",
            extra_args=("--allowedTools", "Bash"),
            files={"work/calc.py": CALC_OK, "work/test_calc.py": TEST_CALC},
        ),
        family=family,
        description="text mode: 'pnpm test' fails ('Exit code 127 ... pnpm: command not found'), "
        "python3 test_calc.py prints ok; stdout is the answer alone, exit 0",
    )


def _compaction_loops_caps() -> Iterator[Case]:
    yield Case(
        CLI,
        "compaction_json_mode",
        SUCCESS,
        lambda c: [
            _read(c, "README.md", input_tokens=12_000),
            _bash("ls -la", "List files", input_tokens=25_000),
            _read(c, "README.md", input_tokens=170_000),
            A.text("<summary>Read README.md and listed the files.</summary>"),
            A.text("The project is a demo with a single README.md."),
        ],
        RunOptions(
            prompt="Describe the project.",
            output_format="json",
            extra_args=("--autocompact", "120000", "--allowedTools", "Bash(ls:*)"),
        ),
        family="compaction",
        description="json mode, --autocompact 120000 and a 170k-token answer: the conversation "
        "is compacted (5 requests, the 4th the summary) and answered; the single result says "
        "nothing of the compaction",
    )
    yield Case(
        CLI,
        "compaction_thrashing",
        Truth(
            False, "context_window", "permanent", "autocompact_thrashing", warnings=("compacted",)
        ),
        lambda c: [
            _read(c, "README.md", input_tokens=10_000),
            _bash("ls", "List files", input_tokens=20_000),
            _read(c, "README.md", input_tokens=150_000),
            A.text("<summary>README read.</summary>"),
            _read(c, "README.md", input_tokens=150_000),
            A.text("<summary>README read again.</summary>"),
            _read(c, "README.md", input_tokens=150_000),
            A.text("<summary>README read a third time.</summary>"),
            _read(c, "README.md", input_tokens=150_000),
            A.text("<summary>README read a fourth time.</summary>"),
            A.text("done"),
        ],
        RunOptions(
            prompt="Summarise README.md.",
            extra_args=("--autocompact", "100000", "--allowedTools", "Bash(ls:*)"),
        ),
        family="compaction",
        description="--autocompact 100000 and every answer after a compaction back at 150k "
        "tokens: three compact_boundary events, then assistant error invalid_request, result "
        "'Autocompact is thrashing: the context refilled to the limit within 3 turns ...', "
        "api_error autocompact_thrashing, terminal_reason rapid_refill_breaker, exit 1",
    )
    yield Case(
        CLI,
        "grep_loop_json_timeout",
        _t("timeout", "transient"),
        lambda c: [_bash("grep -rn TODO .", "Search for TODOs")],
        RunOptions(
            prompt="Find the TODOs.",
            output_format="json",
            extra_args=("--allowedTools", "Bash(grep:*)"),
        ),
        stop=Stop("SIGTERM", after_s=6.0),
        family="loop",
        description="json mode: the model greps for ever (no turn cap in -p); SIGTERM at 6 s: "
        "exit 143, stdout empty (json mode writes only at the end)",
    )
    yield Case(
        CLI,
        "find_loop_json_max_turns",
        _t("max_turns", "permanent"),
        lambda c: [_bash("find . -name '*.py'", "Find Python files")],
        RunOptions(
            prompt="List the Python files.",
            output_format="json",
            max_turns=4,
            extra_args=("--allowedTools", "Bash(find:*)"),
        ),
        family="max_turns",
        description="json mode, the model runs find again and again until --max-turns 4: one "
        "result/error_max_turns 'Reached maximum number of turns (4)', exit 1",
    )
    yield Case(
        CLI,
        "failing_test_max_turns_text",
        _t("max_turns", "permanent"),
        lambda c: [_bash("python3 test_calc.py", "Run the tests")],
        RunOptions(
            prompt="Make test_calc.py pass.",
            output_format="text",
            max_turns=3,
            extra_args=("--allowedTools", "Bash(python3:*)"),
            files={
                "work/calc.py": "def add(a, b):\n    return a * b\n",
                "work/test_calc.py": TEST_CALC,
            },
        ),
        family="max_turns",
        description="text mode: the agent reruns a failing test until --max-turns 3; stdout "
        "'Error: Reached max turns (3)' (no newline), exit 1",
    )
    yield Case(
        CLI,
        "max_budget_json_haiku",
        _t("spend_cap", "permanent", "cli_max_budget_usd"),
        lambda c: [
            _read(c, "README.md", input_tokens=60_000, model="claude-haiku-4-5"),
            _bash("ls", "List files", input_tokens=60_000, model="claude-haiku-4-5"),
            A.text("done", model="claude-haiku-4-5"),
        ],
        RunOptions(
            prompt="Describe the project.",
            model="claude-haiku-4-5",
            output_format="json",
            extra_args=("--max-budget-usd", "0.05", "--allowedTools", "Bash(ls:*)"),
        ),
        family="max_budget",
        description="json mode, Haiku, --max-budget-usd 0.05 passed after the first 60k-token "
        "answer: result/error_max_budget_usd 'Reached maximum budget ($0.05)', exit 1",
    )


def _denied_and_hooks() -> Iterator[Case]:
    yield Case(
        CLI,
        "plan_mode_edit_undone_text",
        Truth(False, "permission", "permanent", "tool_denied", shown=False),
        lambda c: [
            A.tool_call(
                "Edit",
                {
                    "file_path": str(c.work / "calc.py"),
                    "old_string": "return a - b",
                    "new_string": "return a + b",
                },
            ),
            A.text("I could not change calc.py while in plan mode. Plan: make add() return a + b."),
        ],
        RunOptions(
            prompt="Fix add() in calc.py.",
            output_format="text",
            extra_args=("--permission-mode", "plan"),
            files={"work/calc.py": "def add(a, b):\n    return a - b\n"},
        ),
        family="denied_tool",
        description="text mode, --permission-mode plan: the Edit is refused and the agent answers "
        "with a plan instead of the fix; stdout is that answer, exit 0: nothing shows the denial",
    )
    yield Case(
        CLI,
        "settings_deny_rule_worked_around",
        DENIED_OK,
        lambda c: [
            _bash("curl -s https://example.invalid/README.md", "Fetch the upstream README"),
            _read(c, "README.md"),
            A.text("The local README.md describes a demo project."),
        ],
        RunOptions(
            prompt="What does the README describe?",
            extra_args=("--allowedTools", "Bash"),
            files={
                "home/.claude/settings.json": json.dumps(
                    {"permissions": {"deny": ["Bash(curl:*)"]}}, indent=2
                )
            },
        ),
        family="denied_tool",
        description="a deny rule Bash(curl:*) in the user settings: system/permission_denied "
        "(decision_reason_type subcommandResults), one permission_denials entry; the agent reads "
        "the local file and answers, exit 0",
    )
    yield Case(
        CLI,
        "accept_edits_pip_undone",
        UNDONE,
        lambda c: [
            _bash("pip install -r requirements.txt", "Install the requirements"),
            A.text("I was not allowed to run pip, so the requirements are not installed."),
        ],
        RunOptions(
            prompt="Install the requirements.",
            extra_args=("--permission-mode", "acceptEdits"),
            files={"work/requirements.txt": "requests==2.32.3\n"},
        ),
        family="denied_tool",
        description="acceptEdits: 'pip install' needs approval nobody can give (permission_denied "
        "'This command requires approval', decision_reason_type other); the agent gives up, "
        "result/success, exit 0",
    )
    yield Case(
        CLI,
        "pretool_hook_decision_block",
        DENIED_OK,
        lambda c: [
            _bash("cat README.md", "Show README"),
            _read(c, "README.md"),
            A.text("README.md describes a demo project."),
        ],
        RunOptions(
            prompt="What does README.md describe?",
            extra_args=("--allowedTools", "Bash"),
            files=_user_hook(
                "PreToolUse",
                _echo_json({"decision": "block", "reason": "use the Read tool for files"}),
                "Bash",
            ),
        ),
        family="hooks",
        description='a PreToolUse hook answers the older {"decision": "block"} JSON for Bash: '
        "tool error 'PreToolUse:Bash hook error: use the Read tool for files', one "
        "permission_denials entry; the agent reads instead, exit 0",
    )
    yield Case(
        CLI,
        "project_hook_blocks_prompt_text",
        _config("hook_blocked_prompt"),
        lambda c: [A.text("pong")],
        RunOptions(
            output_format="text",
            files={
                "work/.claude/settings.json": _hook_settings(
                    "UserPromptSubmit",
                    _echo_json({"decision": "block", "reason": "CI prompts need a ticket id"}),
                )
            },
        ),
        family="hooks",
        description="text mode, a UserPromptSubmit hook of the project settings "
        '(work/.claude/settings.json) answers {"decision": "block"}: no request, stdout '
        "'UserPromptSubmit operation blocked by hook: / CI prompts need a ticket id / Original "
        "prompt: ...', exit 0",
    )
    yield Case(
        CLI,
        "pretool_hook_continue_false_json",
        _config("hook_stopped"),
        lambda c: [_bash("ls", "List files"), A.text("The project holds README.md.")],
        RunOptions(
            prompt="List the files.",
            output_format="json",
            extra_args=("--allowedTools", "Bash"),
            files=_user_hook(
                "PreToolUse",
                _echo_json({"continue": False, "stopReason": "maintenance window"}),
                "Bash",
            ),
        ),
        family="hooks",
        description='json mode, a PreToolUse hook answers {"continue": false}: the command still '
        'runs, then the run stops: result "", is_error false, terminal_reason hook_stopped, '
        "exit 0",
    )


def _setup_failures() -> Iterator[Case]:
    pong = lambda c: [A.text("pong")]  # noqa: E731
    yield Case(
        CLI,
        "resume_existing_session",
        SUCCESS,
        lambda c: [A.text("It is a demo project with one README.")],
        RunOptions(
            prompt="Say it again in one sentence.",
            extra_args=("--resume", SESSION),
            setup=_earlier_session,
        ),
        family="missing_session",
        description="--resume of a session that exists in this directory: init carries its "
        "session_id, one request, the answer; exit 0",
    )
    yield Case(
        CLI,
        "resume_at_missing_message",
        _config("session_not_found"),
        pong,
        RunOptions(
            extra_args=(
                "--resume",
                SESSION,
                "--resume-session-at",
                "99999999-9999-4999-8999-999999999999",
            ),
            setup=_earlier_session,
        ),
        family="missing_session",
        description="--resume of an existing session with --resume-session-at a message uuid it "
        "does not hold: stderr 'No message found with message.uuid of: ...', one "
        "result/error_during_execution, exit 1, no request",
    )
    yield Case(
        CLI,
        "mcp_one_of_two_failed_tool_used",
        MCP_FAILED_OK,
        lambda c: [
            A.tool_call("mcp__notes__lookup", {"key": "owner"}),
            A.text("The platform team owns the project."),
        ],
        RunOptions(
            prompt="Who owns the project? Use the notes server.",
            extra_args=("--mcp-config", "mcp-servers.json", "--allowedTools", "mcp__notes__lookup"),
            files={
                "work/tools/notes_mcp.py": NOTES_MCP,
                "work/mcp-servers.json": json.dumps(
                    {
                        "mcpServers": {
                            "notes": {"command": "python3", "args": ["tools/notes_mcp.py"]},
                            "events": {"type": "sse", "url": "http://127.0.0.1:9/sse"},
                        }
                    },
                    indent=2,
                ),
            },
        ),
        family="mcp_server_failed",
        description="--mcp-config file with a working stdio server and an sse server on a closed "
        "port: init mcp_servers notes connected, events failed; the agent calls "
        "mcp__notes__lookup and answers, exit 0",
    )
    yield Case(
        CLI,
        "mcp_failed_text_mode",
        SUCCESS,
        pong,
        RunOptions(
            output_format="text",
            files={
                "work/.mcp.json": json.dumps(
                    {
                        "mcpServers": {
                            "jira": {"command": "node", "args": ["/opt/jira-mcp/missing.js"]}
                        }
                    }
                )
            },
        ),
        family="mcp_server_failed",
        description="text mode, the work dir's .mcp.json names a node server whose script does "
        "not exist: stdout 'pong', stderr only the model retirement notice; nothing shows the "
        "failed server",
    )
    yield Case(
        CLI,
        "settings_file_not_json",
        SUCCESS,
        pong,
        RunOptions(
            extra_args=("--settings", "ci-settings.json"),
            files={"work/ci-settings.json": "permissions:\n  allow: [Bash]\n"},
        ),
        family="invalid_settings",
        description="--settings naming a file that exists but is YAML, not JSON: ignored without "
        "a word (no event, no stderr), the run answers, exit 0",
    )
    yield Case(
        CLI,
        "system_prompt_file_missing_json",
        _config("missing_file"),
        pong,
        RunOptions(output_format="json", extra_args=("--system-prompt-file", "prompts/system.md")),
        family="bad_flag",
        description="json mode, --system-prompt-file naming no file: stdout empty, stderr "
        "'Error: System prompt file not found: <work>/prompts/system.md', exit 1",
    )
    yield Case(
        CLI,
        "bypass_mode_as_root_json",
        _config("root_skip_permissions"),
        pong,
        RunOptions(output_format="json", extra_args=("--permission-mode", "bypassPermissions")),
        family="bad_flag",
        description="json mode, --permission-mode bypassPermissions as root: stdout empty, stderr "
        "'--dangerously-skip-permissions cannot be used with root/sudo privileges for security "
        "reasons', exit 1",
    )


def _billing() -> Iterator[Case]:
    family = "billing"
    yield Case(
        CLI,
        "credit_low_text_billing_type",
        _t("quota_exhausted", "permanent", "credit_balance"),
        lambda c: [
            A.error(
                400,
                "This organization's credit balance is too low to make this request. Purchase "
                "more credits at https://console.anthropic.com/settings/billing.",
                error_type="billing_error",
            )
        ],
        RunOptions(output_format="text"),
        family=family,
        description="text mode, 400 billing_error with the organization wording: stdout 'Credit "
        "balance is too low', exit 1, one request",
    )
    yield Case(
        CLI,
        "spend_cap_header_429",
        _t("quota_exhausted", "permanent", "org_spend_cap"),
        lambda c: [
            A.error(
                429,
                "Your organization has reached its monthly spend cap. An admin can raise it in "
                "the Console under Limits.",
                headers={
                    "anthropic-ratelimit-unified-overage-disabled-reason": "org_spend_cap_reached"
                },
            )
        ],
        family=family,
        description="429 rate_limit_error with the overage-disabled-reason header "
        "org_spend_cap_reached: not retried (one request), assistant error rate_limit, result "
        "'API Error: Request rejected (429) · Your organization has reached its monthly spend "
        "cap...', exit 1",
    )
    yield Case(
        CLI,
        "trial_ended_402_json",
        _t("quota_exhausted", "permanent", "payment_required"),
        lambda c: [
            A.error(
                402,
                "Your free trial has ended. Add a payment method and buy prepaid credits to keep "
                "using the API.",
            )
        ],
        RunOptions(output_format="json"),
        family=family,
        description="json mode, 402 billing_error without the credit-balance words: result "
        "'API Error: 402 Your free trial has ended...', api_error_type billing_error, exit 1",
    )
    yield Case(
        CLI,
        "usage_credits_ran_out_mid_stream",
        _t("quota_exhausted", "permanent", "extra_usage_out_of_credits"),
        lambda c: [
            _stream_error_with_details(
                "Starting the summary",
                "billing_error",
                "Usage credits ran out.",
                {"error_code": "extra_usage_out_of_credits"},
            )
        ],
        family=family,
        description="HTTP 200, partial text, then an SSE error event billing_error with "
        "details.error_code extra_usage_out_of_credits: one request, assistant error unknown, "
        "result 'API Error: Usage credits ran out before the response was finished.', "
        "api_error_code extra_usage_out_of_credits, exit 1",
    )


def _api_errors() -> Iterator[Case]:
    yield Case(
        CLI,
        "concurrency_rate_limit_retry_after_ms",
        _t("rate_limit", "transient", "concurrency"),
        lambda c: [
            A.error(
                429,
                "Number of concurrent connections has exceeded your rate limit. Please try again "
                "later or contact sales at https://www.anthropic.com/contact-sales to discuss "
                "your options for a rate limit increase.",
                headers={"retry-after-ms": "400"},
            )
        ],
        RunOptions(extra_env={"CLAUDE_CODE_MAX_RETRIES": "2"}),
        family="api_error",
        description="a persisting 429 on concurrent connections with retry-after-ms 400 and "
        "CLAUDE_CODE_MAX_RETRIES=2: two api_retry events, then 'API Error: Request rejected "
        "(429) · Number of concurrent connections...', exit 1",
    )
    yield Case(
        CLI,
        "usage_limit_opus_weekly_text",
        _t("usage_limit", "transient", "seven_day_opus"),
        lambda c: [_unified("seven_day_opus", "7d_opus", 3 * 86400)],
        RunOptions(output_format="text", model="claude-opus-4-1", api_key=None, extra_env=OAUTH),
        family="rate_limit_event",
        description="text mode, subscription (OAuth), the weekly Opus window rejected: stdout "
        '"You\'ve hit your Opus limit · resets <date, time> (UTC)", stderr the Opus remap '
        "notice, exit 1, one request",
    )
    yield Case(
        CLI,
        "overloaded_text_after_retries",
        _t("overloaded", "transient"),
        lambda c: [A.error(529, "Overloaded", headers={"retry-after": "1"})],
        RunOptions(output_format="text", extra_env={"CLAUDE_CODE_MAX_RETRIES": "2"}),
        family="api_error",
        description="text mode, a persisting 529 (retry-after 1, CLAUDE_CODE_MAX_RETRIES=2, 3 "
        "requests): stdout 'API Error: 529 Overloaded. This is a server-side issue, usually "
        "temporary...', exit 1",
    )
    yield Case(
        CLI,
        "api_error_event_mid_stream_json",
        _t("server_error", "transient"),
        lambda c: [
            A.stream_error(
                "Let me look at the repository first", "api_error", "Internal server error"
            )
        ],
        RunOptions(output_format="json"),
        family="api_error",
        description="json mode, every stream ends in an SSE error event api_error after partial "
        "text: 4 requests, result 'API Error: Server error mid-response. The response above may "
        "be incomplete.', api_error_status null, exit 1",
    )
    yield Case(
        CLI,
        "policy_blocked_400",
        _t("refusal", "permanent", "policy_blocked"),
        lambda c: [
            A.error(
                400,
                "This request was blocked by the usage policy for this organization.",
                error_type="policy_blocked",
            )
        ],
        family="api_error",
        description="400 with error.type policy_blocked: one request, assistant error unknown, "
        "result 'API Error: 400 This request was blocked by the usage policy...', "
        "api_error_type policy_blocked, exit 1",
    )
    yield Case(
        CLI,
        "version_too_old_400",
        _t("invalid_request", "permanent", "claude_code_version_too_old"),
        lambda c: [
            A.error(
                400,
                "Claude Code 2.1.332 is older than the minimum version required by your "
                "organization's policy. Update Claude Code to continue.",
                details={"error_code": "claude_code_version_too_old"},
            )
        ],
        family="do_not_retry",
        description="400 with details.error_code claude_code_version_too_old: 4 requests, "
        "assistant error invalid_request, result api_error and api_error_code "
        "claude_code_version_too_old (a typed kind the SDK says not to send again), exit 1",
    )
    yield Case(
        CLI,
        "bad_gateway_should_retry_false_text",
        _t("server_error", "transient"),
        lambda c: [A.error(502, "Bad gateway", headers={"x-should-retry": "false"})],
        RunOptions(output_format="text"),
        family="do_not_retry",
        description="text mode, 502 with x-should-retry: false: one request (no retry), stdout "
        "'API Error: 502 Bad gateway. This is a server-side issue...', exit 1; nothing in the "
        "output carries the header",
    )
    yield Case(
        CLI,
        "context_overflow_text_mid_run",
        _t("context_window", "permanent"),
        lambda c: [
            _read(c, "README.md"),
            _bash("cat README.md", "Show README"),
            A.error(400, "prompt is too long: 248113 tokens > 200000 maximum"),
        ],
        RunOptions(output_format="text", extra_args=("--allowedTools", "Bash(cat:*)")),
        family="text_output",
        description="text mode, two tool calls, then 'prompt is too long' (Claude tries to "
        "recover: 4 requests answered 400): stdout 'Prompt is too long', exit 1",
    )


def _output_modes() -> Iterator[Case]:
    yield Case(
        CLI,
        "refusal_json_after_tool",
        _t("refusal", "permanent"),
        lambda c: [_read(c, "README.md"), A.message(stop_reason="refusal")],
        RunOptions(output_format="json", model="claude-opus-4-1"),
        family="json_output",
        description="json mode, Opus (remapped), a Read, then stop_reason refusal with no text: "
        'result "API Error: Opus 5.5\'s safeguards flagged this message...", exit 1',
    )
    yield Case(
        CLI,
        "empty_after_tool_json",
        _t("empty_answer", "invalid_output"),
        lambda c: [_read(c, "README.md"), A.message()],
        RunOptions(prompt="Summarise README.md.", output_format="json"),
        family="json_output",
        description='json mode: a Read, then empty answers: result "", is_error false, '
        "terminal_reason completed, exit 0",
    )
