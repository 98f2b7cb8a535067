"""The third fresh held-out batch for the claude CLI (variant 3: fixtures `<name>__f3`).

Written from the coverage table (docs/agents/claude.md) after the first two batches were scored,
by someone who never saw the verdict code; frozen in FRESH.txt before the verdict changed.

Each case differs in shape from the tune cases (``claude.py``, ``claude_exits.py``) and the two
earlier fresh batches (``claude_fresh.py``, ``batch2_claude.py``): other provider wording,
statuses, error bodies and headers, other flag and env spellings, the same failure in another
output mode, other tools, prompts and step counts. The descriptions say what the pinned 2.1.332
binary did in the probes (every case was run at least twice before it was captured), so a
recapture that differs is a change of the CLI, not of the scenario. Never tune a verdict on
these.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from agent_apis import anthropic as A
from agent_apis.clis import RunOptions
from agent_apis.core import Reply
from agent_apis.scenarios.base import Case, Context, RetryClass, Stop, Truth

CLI = "claude"
OAUTH = {"CLAUDE_CODE_OAUTH_TOKEN": "sk-ant-oat01-autofix-batch3-oauth-token-00000000000000"}
SESSION = "5e2b8c71-4a3d-4f9e-b6c0-1d7a9e3f5b24"
OTHER_SESSION = "a4c6e8f0-1b3d-4e5f-8a7b-9c0d2e4f6a81"

SUCCESS = Truth(True, "success", "none")
DENIED_OK = Truth(True, "success", "none", warnings=("denied_tool",))
MCP_FAILED_OK = Truth(True, "success", "none", warnings=("mcp_server_failed",))
COMPACTED_OK = Truth(True, "success", "none", warnings=("compacted",))
# A tool was refused and the agent left the task undone; exit 0 and a success-shaped result, the
# refusal reported in the stream: only the answer's words say the work was not done.
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


# A stdio MCP server (newline-delimited JSON-RPC) whose one tool always fails (isError).
WIKI_MCP = """import json
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
            "serverInfo": {"name": "wiki", "version": "0.3.1"},
        }
    elif method == "tools/list":
        result = {"tools": [{
            "name": "search",
            "description": "Search the team wiki",
            "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}},
                            "required": ["query"]},
        }]}
    elif method == "tools/call":
        result = {"isError": True, "content": [
            {"type": "text", "text": "wiki backend returned 502 Bad Gateway"}]}
    else:
        reply = {"jsonrpc": "2.0", "id": msg["id"],
                 "error": {"code": -32601, "message": "method not found"}}
        sys.stdout.write(json.dumps(reply) + "\\n")
        sys.stdout.flush()
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}) + "\\n")
    sys.stdout.flush()
"""
PACKAGE_BROKEN = '{\n  "name": "demo",\n  "version": "1.0.0",\n}\n'
PACKAGE_FIXED = '{\n  "name": "demo",\n  "version": "1.0.0"\n}\n'
PYPROJECT = '[project]\nname = "demo"\nversion = "0.4.2"\n'
COUNT_SCHEMA = {
    "type": "object",
    "properties": {"files": {"type": "integer"}},
    "required": ["files"],
    "additionalProperties": False,
}


def claude_batch3_cases() -> Iterator[Case]:
    for case in (
        *_debug(),
        *_tools(),
        *_output_modes(),
        *_setup_failures(),
        *_denied_and_hooks(),
        *_loops_compaction_caps(),
        *_billing_and_limits(),
        *_api_errors(),
    ):
        yield replace(case, fresh=True, variant=3)


def _debug() -> Iterator[Case]:
    family = "debug_output"
    yield Case(
        CLI,
        "sdk_log_debug_text_overloaded",
        _t("overloaded", "transient"),
        lambda c: [A.error(529, "Overloaded", headers={"retry-after-ms": "200"})],
        RunOptions(
            output_format="text",
            extra_env={"ANTHROPIC_LOG": "debug", "CLAUDE_CODE_MAX_RETRIES": "2"},
        ),
        family=family,
        description="text mode, ANTHROPIC_LOG=debug and a persisting 529 (retry-after-ms 200, "
        "CLAUDE_CODE_MAX_RETRIES=2, 3 requests): ~200 lines of the SDK's request/response log on "
        "stdout, the last line 'API Error: 529 Overloaded. This is a server-side issue...', exit 1",
    )
    yield Case(
        CLI,
        "debug_stderr_json_tool_error",
        SUCCESS,
        lambda c: [
            _bash("cat VERSION", "Show the version file"),
            _bash("grep -m1 version pyproject.toml", "Find the version"),
            A.text("The project is at version 0.4.2."),
        ],
        RunOptions(
            prompt="Which version is the project at?",
            output_format="json",
            extra_args=("--debug-to-stderr", "--allowedTools", "Bash"),
            extra_env={"CLAUDE_CODE_DEBUG_LOG_LEVEL": "info"},
            files={"work/pyproject.toml": PYPROJECT},
        ),
        family=family,
        description="json mode, --debug-to-stderr with CLAUDE_CODE_DEBUG_LOG_LEVEL=info: 'cat "
        "VERSION' fails (no such file), grep finds the version; stderr holds '[ERROR] Failed to "
        "save config with lock', '[WARN] auto mode disabled' and '[INFO] [Stall] tool_dispatch' "
        "lines; one result/success, exit 0",
    )
    yield Case(
        CLI,
        "debug_negated_filter_credit_403",
        _t("quota_exhausted", "permanent", "credit_balance"),
        lambda c: [
            A.error(
                403,
                "Your credit balance is too low to access the Anthropic API. Please go to "
                "Plans & Billing to upgrade or purchase credits.",
            )
        ],
        RunOptions(extra_args=("--debug=!hooks,!mcp", "--debug-to-stderr")),
        family=family,
        description="--debug=!hooks,!mcp --debug-to-stderr and a 403 permission_error with the "
        "credit-balance text: ~130 debug lines on stderr, among them '[ERROR] API error (attempt "
        "1/2): 403 ...'; one request, assistant error billing_error, result 'Credit balance is "
        "too low', api_error_status 403, exit 1",
    )


def _tools() -> Iterator[Case]:
    family = "recovered_tool_error"
    yield Case(
        CLI,
        "json_config_fixed",
        SUCCESS,
        lambda c: [
            _bash("python3 -m json.tool package.json", "Validate package.json"),
            A.tool_call(
                "Write", {"file_path": str(c.work / "package.json"), "content": PACKAGE_FIXED}
            ),
            _read(c, "package.json"),
            A.tool_call(
                "Edit",
                {
                    "file_path": str(c.work / "package.json"),
                    "old_string": '"1.0.0",\n}',
                    "new_string": '"1.0.0"\n}',
                },
            ),
            _bash("python3 -m json.tool package.json", "Validate again"),
            A.text("Removed the trailing comma in package.json; it parses now."),
        ],
        RunOptions(
            prompt="package.json does not parse; fix it.",
            extra_args=("--permission-mode", "acceptEdits", "--allowedTools", "Bash(python3:*)"),
            files={"work/package.json": PACKAGE_BROKEN},
        ),
        family=family,
        description="acceptEdits: the validation command fails ('Exit code 1 / Expecting "
        "property name enclosed in double quotes'), a Write before any Read fails ('File has "
        "not been read yet'), Read, Edit, the validation passes, answer; 6 requests, exit 0",
    )
    yield Case(
        CLI,
        "mcp_tool_error_then_read",
        SUCCESS,
        lambda c: [
            A.tool_call("mcp__wiki__search", {"query": "project purpose"}),
            _read(c, "README.md"),
            A.text("The wiki was unreachable; README.md says it is a demo project."),
        ],
        RunOptions(
            prompt="What is the project for? Try the wiki first.",
            extra_args=(
                "--mcp-config",
                json.dumps({"mcpServers": {"wiki": {"command": "python3", "args": ["wiki.py"]}}}),
                "--allowedTools",
                "mcp__wiki__search",
            ),
            files={"work/wiki.py": WIKI_MCP},
        ),
        family=family,
        description="an MCP server that connects (init mcp_servers wiki connected) and whose tool "
        "answers isError 'wiki backend returned 502 Bad Gateway' (tool_result is_error); the "
        "agent reads README.md instead and answers, exit 0",
    )


def _output_modes() -> Iterator[Case]:
    yield Case(
        CLI,
        "text_schema_never_met",
        _t("structured_output", "invalid_output"),
        lambda c: [A.tool_call("StructuredOutput", {"files": "one"})],
        RunOptions(
            prompt="How many files are there?", output_format="text", json_schema=COUNT_SCHEMA
        ),
        family="text_output",
        description="text mode with --json-schema, the StructuredOutput input never fits (a "
        "string for an integer): 5 requests, stdout 'Error: Failed to provide valid structured "
        "output after 5 attempts — ... /files: must be integer', exit 1",
    )
    yield Case(
        CLI,
        "json_verbose_empty_answer",
        _t("empty_answer", "invalid_output"),
        lambda c: [A.message()],
        RunOptions(output_format="json", extra_args=("--verbose",)),
        family="json_output",
        description="--output-format json with --verbose: stdout is one JSON array (system/init, "
        'the synthetic "no visible output" user turn, result); the model answers nothing twice: '
        'result "", is_error false, terminal_reason completed, exit 0',
    )


def _setup_failures() -> Iterator[Case]:
    pong = lambda c: [A.text("pong")]  # noqa: E731
    yield Case(
        CLI,
        "session_id_with_resume",
        _config("flag_combination"),
        pong,
        RunOptions(extra_args=("--resume", SESSION, "--session-id", OTHER_SESSION)),
        family="missing_session",
        description="--resume <uuid> together with --session-id <uuid>: stderr 'Error: "
        "--session-id with --continue or --resume also needs --fork-session.', stdout empty, "
        "exit 1, no request",
    )
    yield Case(
        CLI,
        "mcp_uvx_missing_json_verbose",
        MCP_FAILED_OK,
        pong,
        RunOptions(
            output_format="json",
            extra_args=(
                "--verbose",
                "--mcp-config",
                json.dumps(
                    {"mcpServers": {"sentry": {"command": "uvx", "args": ["mcp-server-sentry"]}}}
                ),
            ),
        ),
        family="mcp_server_failed",
        description="json mode with --verbose, an MCP server launched with uvx, which is not "
        "installed: the JSON array's system/init lists mcp_servers sentry status failed; the "
        "run answers, exit 0",
    )
    yield Case(
        CLI,
        "local_settings_broken_text",
        SUCCESS,
        pong,
        RunOptions(
            output_format="text",
            files={
                "work/.claude/settings.local.json": '{"permissions": {"allow": ["Bash(npm:*)",]}'
            },
        ),
        family="invalid_settings",
        description="text mode, work/.claude/settings.local.json with a trailing comma: stderr "
        "'These settings did not load, so nothing in them is in effect ... settings.local.json: "
        "Invalid or malformed JSON'; stdout 'pong', exit 0",
    )
    yield Case(
        CLI,
        "max_turns_word_json",
        _config("bad_flag_value"),
        pong,
        RunOptions(output_format="json", extra_args=("--max-turns=ten",)),
        family="bad_flag",
        description="json mode, --max-turns=ten: stderr \"error: option '--max-turns <turns>' "
        "argument 'ten' is invalid. must be a number\", stdout empty, exit 1",
    )
    yield Case(
        CLI,
        "agents_file_missing",
        _config("missing_file"),
        pong,
        RunOptions(extra_args=("--agents", "config/agents.json")),
        family="bad_flag",
        description="--agents naming a file that does not exist: stderr 'Error: --agents file "
        "not found: <work>/config/agents.json (a value that is not a JSON object is read as a "
        "file path)', exit 1, no output",
    )


def _denied_and_hooks() -> Iterator[Case]:
    yield Case(
        CLI,
        "restricted_bash_undone",
        UNDONE,
        lambda c: [
            _bash("npm test", "Run the test suite"),
            A.text("I can't run commands in this session, so the tests were not run."),
        ],
        RunOptions(prompt="Run the test suite and report.", extra_args=("--restricted",)),
        family="denied_tool",
        description="--restricted removes Bash: tool error 'No such tool available: Bash. Bash "
        "is disabled for this session', permission_denials empty; the agent gives up, "
        "result/success, exit 0",
    )
    yield Case(
        CLI,
        "manual_mode_worked_around",
        DENIED_OK,
        lambda c: [
            _bash("mkdir -p out && cp README.md out/", "Copy the README"),
            _read(c, "README.md"),
            A.text("I could not copy it, but the first line of README.md is '# demo project'."),
        ],
        RunOptions(
            prompt="What is the first line of README.md?",
            extra_args=("--permission-mode", "manual"),
        ),
        family="denied_tool",
        description="--permission-mode manual: a compound mkdir/cp command is denied ('This Bash "
        "command contains multiple operations. The following parts require approval'), "
        "system/permission_denied, one permission_denials entry; the agent reads the file and "
        "answers, exit 0",
    )
    yield Case(
        CLI,
        "pretool_hook_text_undone",
        Truth(False, "permission", "permanent", "tool_denied", shown=False),
        lambda c: [
            _bash("git push origin main", "Push"),
            A.text("The push was blocked by a policy hook; nothing was pushed."),
        ],
        RunOptions(
            prompt="Push the main branch.",
            output_format="text",
            extra_args=("--allowedTools", "Bash"),
            files=_user_hook("PreToolUse", "echo 'pushes are disabled on CI' >&2; exit 2", "Bash"),
        ),
        family="hooks",
        description="text mode, a PreToolUse hook refuses the push (exit 2) and the agent gives "
        "up: stdout is its answer alone, stderr only the model retirement notice, exit 0",
    )
    yield Case(
        CLI,
        "stop_hook_json_decision_forever",
        _config("stop_hook_block_cap"),
        lambda c: [A.text("pong")],
        RunOptions(
            output_format="json",
            files={
                "work/.claude/settings.local.json": _hook_settings(
                    "Stop", _echo_json({"decision": "block", "reason": "run the linter first"})
                )
            },
        ),
        family="hooks",
        description='json mode, a Stop hook in the local project settings answers {"decision": '
        '"block"} every time: 9 requests, num_turns 10, result "", is_error false, '
        "terminal_reason completed, exit 0",
    )
    yield Case(
        CLI,
        "prompt_hook_continue_false_stdin_json",
        _config("hook_blocked_prompt"),
        lambda c: [A.text("pong")],
        RunOptions(
            prompt="",
            stdin="Deploy to production.\n",
            output_format="json",
            files=_user_hook(
                "UserPromptSubmit",
                _echo_json(
                    {
                        "continue": False,
                        "stopReason": "deploy prompts must go through the release bot",
                    }
                ),
            ),
        ),
        family="hooks",
        description='json mode, the prompt on stdin, a UserPromptSubmit hook answers {"continue": '
        "false}: no request, result 'Operation stopped by hook: deploy prompts must go through "
        "the release bot', is_error false, num_turns 0, no terminal_reason, exit 0",
    )


def _loops_compaction_caps() -> Iterator[Case]:
    yield Case(
        CLI,
        "malformed_input_loop_timeout",
        _t("timeout", "transient"),
        lambda c: [A.tool_call("Read", {"filename": "README.md"}) for _ in range(60)],
        RunOptions(prompt="Read README.md."),
        stop=Stop("SIGTERM", when_requests=8, hold_s=0.5),
        family="loop",
        description="the model calls Read with a wrong parameter name again and again: every "
        "call a tool error 'InputValidationError: ... The required parameter `file_path` is "
        "missing'; -p has no turn cap, so SIGTERM (the wall-clock timeout) ends it: exit 143, "
        "no result line",
    )
    yield Case(
        CLI,
        "reactive_compact_after_too_long",
        COMPACTED_OK,
        lambda c: [
            _read(c, "README.md", input_tokens=120_000),
            A.error(400, "prompt is too long: 204117 tokens > 200000 maximum"),
            A.text("<summary>The user asked what README.md says; it was read.</summary>"),
            A.text("README.md describes a demo project."),
        ],
        RunOptions(prompt="What does README.md say?"),
        family="compaction",
        description="a Read, then the API answers 400 'prompt is too long': Claude compacts "
        "(system/status compacting, compact_boundary), asks again and answers; exit 0",
    )
    yield Case(
        CLI,
        "max_turns_after_edits",
        _t("max_turns", "permanent"),
        lambda c: [
            A.tool_call(
                "Write", {"file_path": str(c.work / "CHANGELOG.md"), "content": "# Changelog\n"}
            ),
            A.tool_call(
                "Edit",
                {
                    "file_path": str(c.work / "README.md"),
                    "old_string": "# demo project",
                    "new_string": "# demo project (see CHANGELOG.md)",
                },
            ),
            _read(c, "README.md"),
            A.tool_call(
                "Edit",
                {
                    "file_path": str(c.work / "README.md"),
                    "old_string": "# demo project",
                    "new_string": "# demo project (see CHANGELOG.md)",
                },
            ),
            _read(c, "CHANGELOG.md"),
            A.text("done"),
        ],
        RunOptions(
            prompt="Add a changelog and link it from the README, then check both.",
            max_turns=3,
            extra_args=("--permission-mode", "acceptEdits"),
        ),
        family="max_turns",
        description="acceptEdits, --max-turns 3: Write of CHANGELOG.md, an Edit of the unread "
        "README ('File has not been read yet'), a Read, then result/error_max_turns 'Reached "
        "maximum number of turns (3)' before the edit is redone, exit 1",
    )
    yield Case(
        CLI,
        "budget_equals_three_turns",
        _t("spend_cap", "permanent", "cli_max_budget_usd"),
        lambda c: [
            _read(c, "README.md", input_tokens=40_000),
            _read(c, "README.md", input_tokens=45_000),
            _read(c, "README.md", input_tokens=50_000),
            A.text("done"),
        ],
        RunOptions(prompt="Summarise README.md carefully.", extra_args=("--max-budget-usd=0.3",)),
        family="max_budget",
        description="--max-budget-usd=0.3 (equals form), passed in the third turn: "
        "result/error_max_budget_usd 'Reached maximum budget ($0.3)', exit 1",
    )


def _billing_and_limits() -> Iterator[Case]:
    yield Case(
        CLI,
        "service_spend_limit_text",
        _t("quota_exhausted", "permanent", "service_spend_limit"),
        lambda c: [
            A.error(
                429,
                "service_spend_limit_reached: This workspace has reached the spend limit set "
                "for the Claude API service. Ask an admin to raise it.",
            )
        ],
        RunOptions(output_format="text"),
        family="billing",
        description="text mode, 429 rate_limit_error whose message names "
        "service_spend_limit_reached: not retried (one request), stdout 'API Error: Request "
        "rejected (429) · service_spend_limit_reached: ...', exit 1",
    )
    yield Case(
        CLI,
        "contract_spend_limit_json",
        _t("quota_exhausted", "permanent", "contract_spend_limit"),
        lambda c: [
            A.error(
                429,
                "Your organization has used all of the spend committed in its contract for this "
                "period. Contact your account team to extend it.",
                details={"error_code": "contract_spend_limit_reached"},
            )
        ],
        RunOptions(output_format="json"),
        family="billing",
        description="json mode, 429 with details.error_code contract_spend_limit_reached: "
        "retried once (2 requests), result 'API Error: Request rejected (429) · Your "
        "organization has used all of the spend committed...', api_error_code "
        "contract_spend_limit_reached, exit 1",
    )
    yield Case(
        CLI,
        "prepayment_exhausted_400",
        _t("quota_exhausted", "permanent", "prepaid"),
        lambda c: [
            A.error(
                400,
                "Your prepaid usage balance is exhausted and auto-reload is turned off. Add "
                "funds in Plans & Billing.",
                error_type="billing_error",
            )
        ],
        family="billing",
        description="400 billing_error without the credit-balance words: one request, assistant "
        "error unknown, result 'API Error: 400 Your prepaid usage balance is exhausted...', "
        "exit 1",
    )
    yield Case(
        CLI,
        "usage_limit_sonnet_weekly",
        _t("usage_limit", "transient", "seven_day_sonnet"),
        lambda c: [_unified("seven_day_sonnet", "7d_sonnet", 2 * 86400)],
        RunOptions(api_key=None, extra_env=OAUTH),
        family="rate_limit_event",
        description="subscription (OAuth), the weekly Sonnet window rejected: rate_limit_event, "
        "assistant error rate_limit with api_error usage_limit_reached, result \"You've hit your "
        'Sonnet limit · resets <date, time> (UTC)", one request, exit 1',
    )


def _api_errors() -> Iterator[Case]:
    yield Case(
        CLI,
        "server_errors_mixed",
        _t("server_error", "transient"),
        lambda c: [
            A.error(500, "Internal server error"),
            A.error(502, "Bad gateway", error_type="api_error"),
            A.error(503, "The service is temporarily unavailable."),
        ],
        RunOptions(extra_env={"CLAUDE_CODE_MAX_RETRIES": "2"}),
        family="api_error",
        description="CLAUDE_CODE_MAX_RETRIES=2 and three different 5xx answers (500, 502, 503): "
        "two api_retry events, assistant error server_error, api_error_status 503, result 'API "
        "Error: 503 The service is temporarily unavailable. This is a server-side issue...', "
        "exit 1",
    )
    yield Case(
        CLI,
        "tool_history_mismatch_400",
        _t("invalid_request", "permanent", "tool_history_mismatch"),
        lambda c: [
            _read(c, "README.md"),
            A.error(
                400,
                "messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: "
                "toolu_01XyZ. Each `tool_result` block must have a corresponding `tool_use` "
                "block in the previous message.",
            ),
        ],
        RunOptions(prompt="What does README.md say?"),
        family="do_not_retry",
        description="a Read, then 400 'unexpected `tool_use_id` found in `tool_result` blocks' "
        "(6 requests answered 400): assistant error invalid_request, result api_error "
        "tool_history_mismatch (the typed kind that says re-sending the history fails the same "
        "way), 'API Error: 400 orphaned tool_result in conversation history.', exit 1",
    )
    yield Case(
        CLI,
        "content_filter_400",
        _t("refusal", "permanent", "content_filter"),
        lambda c: [A.error(400, "Output blocked by content filtering policy")],
        RunOptions(prompt="Write out the full lyrics of a popular song."),
        family="api_error",
        description="400 invalid_request_error 'Output blocked by content filtering policy': one "
        "request, assistant error unknown, result 'API Error: 400 Output blocked by content "
        "filtering policy', exit 1",
    )
    yield Case(
        CLI,
        "max_tokens_over_model_limit",
        _t("invalid_request", "permanent", "max_tokens_too_large"),
        lambda c: [
            A.error(
                400,
                "max_tokens: 128000 > 64000, which is the maximum allowed number of output "
                "tokens for claude-sonnet-4-5",
            )
        ],
        RunOptions(extra_env={"CLAUDE_CODE_MAX_OUTPUT_TOKENS": "128000"}),
        family="api_error",
        description="CLAUDE_CODE_MAX_OUTPUT_TOKENS=128000 and the API refuses the max_tokens "
        "(400, 6 requests): assistant error unknown, result 'API Error: 400 max_tokens: 128000 "
        "> 64000, which is the maximum allowed...', exit 1",
    )
    yield Case(
        CLI,
        "input_too_long_gateway_wording",
        _t("context_window", "permanent"),
        lambda c: [A.error(400, "Input is too long for requested model.")],
        RunOptions(prompt="Summarise the whole repository."),
        family="api_error",
        description="400 'Input is too long for requested model.' (a gateway's wording): "
        "terminal_reason prompt_too_long, result 'Prompt is too long · this conversation is a "
        "single exchange and cannot be compacted...', exit 1",
    )
