"""The third fresh held-out batch for the gemini CLI (variant 3: fixtures `<name>__f3`).

Written from the coverage table (docs/agents/gemini.md) after the first two batches were scored,
by someone who never saw the verdict code; frozen in FRESH.txt before the verdict changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from agent_apis import gemini as G
from agent_apis.clis import RunOptions
from agent_apis.core import Reply, SseEvent
from agent_apis.gemini import CONTINUE_MARKER
from agent_apis.scenarios.base import (
    CONTEXT,
    EMPTY,
    MAX_TOKENS,
    MAX_TURNS,
    OVERLOADED,
    RATE,
    REFUSAL,
    SERVER,
    SUCCESS,
    USAGE,
    Case,
    Context,
    Truth,
)
from agent_apis.scenarios.gemini import (
    BILLING,
    DENIED_BUT_ANSWERED,
    DENIED_TASK_UNDONE,
    GEMINI_WINDOW,
    GOOD_SESSION,
    INVALID_SETTINGS,
    KNOWN_PROJECT,
    LOOP,
    MCP_FAILED,
    SESSION_FILE,
)

CLI = "gemini"
BAD_FLAG = Truth(False, "config", "permanent", "bad_flag")
UNRESUMABLE = Truth(False, "config", "permanent", "session_not_resumable")
HOOK_STOPPED = Truth(False, "config", "permanent", "hook_stopped")
HOOK_BLOCKED = Truth(False, "config", "permanent", "hook_blocked")

# A build script that needs an out/ folder nobody created yet.
BUILD_SH = "cp README.md out/README.md || exit 1\necho 'build: out/README.md written'\n"
# A user policy that keeps pushes for the release bot.
PUSH_POLICY = """\
[[rule]]
toolName = "run_shell_command"
commandPrefix = "git push"
decision = "deny"
priority = 800
denyMessage = "Pushing is reserved for the release bot."
"""
# An MCP server that answers the initialize request with a JSON-RPC error and stays up.
MCP_RPC_ERROR = (
    "IFS= read -r line; "
    "id=$(printf '%s' \"$line\" | sed -n 's/.*\"id\":\\([0-9]*\\).*/\\1/p'); "
    'printf \'{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"license server '
    'unreachable: seat check failed"}}\\n\' "${id:-0}"; sleep 20'
)
HOOK_AFTER_READ_STOP = {
    "type": "command",
    "command": 'echo \'{"continue": false, "stopReason": "Audit log volume is full; agent '
    "halted.\"}'",
}
HOOK_NO_SHELL = {
    "type": "command",
    "command": "echo 'Deploys need a change ticket; shell refused.' >&2; exit 2",
}
HOOK_SCRIPT_MISSING = {"type": "command", "command": "sh /opt/autofix-hooks/check-ticket.sh"}


def _thoughts_only(label: str = "thoughts_only") -> Reply:
    """A model turn holding only a thought part (no answer text), finish reason STOP."""
    data = {
        "candidates": [
            {
                "index": 0,
                "content": {
                    "parts": [
                        {
                            "text": "The user wants the open issues listed. I should look at "
                            "the tracker export first.",
                            "thought": True,
                        }
                    ],
                    "role": "model",
                },
                "finishReason": "STOP",
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 1800,
            "candidatesTokenCount": 0,
            "thoughtsTokenCount": 24,
            "totalTokenCount": 1824,
        },
        "modelVersion": G.DEFAULT_MODEL,
        "responseId": "resp-thoughts-0001",
    }
    return Reply(200, body=data, events=(SseEvent(data),), label=label)


def gemini_batch3_cases() -> Iterator[Case]:
    yield from _debug_cases()
    yield from _recovered_cases()
    yield from _mode_cases()
    yield from _setup_cases()
    yield from _tool_policy_cases()
    yield from _run_shape_cases()
    yield from _api_error_cases()


def _case(
    name: str,
    family: str,
    truth: Truth,
    build: Callable[[Context], Sequence[Reply]],
    options: RunOptions | None = None,
    **kw: Any,
) -> Case:
    return Case(
        CLI,
        name,
        truth,
        build,
        options or RunOptions(),
        family=family,
        fresh=True,
        variant=3,
        **kw,
    )


# -- debug switches and debug environment variables, on runs that succeed and runs that fail ---
def _debug_cases() -> Iterator[Case]:
    fc = G.function_call
    yield _case(
        "debug_eq_true_glob",
        "debug_output",
        SUCCESS,
        lambda c: [
            fc("glob", {"pattern": "**/*.md"}),
            G.text("Only one Markdown file exists: README.md."),
        ],
        RunOptions(
            prompt="Which Markdown files does the project have?", extra_args=("--debug=true",)
        ),
        description="--debug=true (the flag with an explicit value): debug lines on stderr "
        "around a glob call, then the answer, result success",
    )
    yield _case(
        "debug_env_json_max_tokens",
        "debug_output",
        MAX_TOKENS,
        lambda c: [G.content(finish_reason="MAX_TOKENS")],
        RunOptions(
            output_format="json",
            prompt="Write the full migration guide.",
            extra_env={"DEBUG": "1"},
        ),
        description="DEBUG=1 in json mode, MAX_TOKENS with no text (twice): the json object's "
        "INVALID_STREAM error among the debug lines, exit 0",
    )
    yield _case(
        "debug_log_file_unavailable",
        "debug_output",
        SERVER,
        lambda c: [
            G.error(
                503,
                "Visibility check was unavailable. Please retry the request and contact support "
                "if the problem persists",
            )
        ],
        RunOptions(extra_env={"GEMINI_DEBUG_LOG_FILE": "gemini-debug.log"}),
        utility_fails_too=True,
        description="GEMINI_DEBUG_LOG_FILE set (the debug log goes to a file in the work dir), "
        "a persisting 503 UNAVAILABLE: retried once, result error, exit 247",
    )


# -- tool errors and failed commands the agent recovered from ----------------------------------
def _recovered_cases() -> Iterator[Case]:
    fc = G.function_call
    yield _case(
        "json_list_file_as_dir",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("list_directory", {"dir_path": "README.md"}),
            fc("read_file", {"file_path": "README.md"}),
            G.text("README.md is a file, not a folder; it describes a demo project."),
        ],
        RunOptions(output_format="json", prompt="What is in README.md?"),
        description="json mode: list_directory on a file fails (tool error), read_file works, "
        "the answer; stats count one failed tool call",
    )
    yield _case(
        "text_yolo_build_dir_fixed",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("run_shell_command", {"command": "sh build.sh", "description": "Run the build"}),
            fc("run_shell_command", {"command": "mkdir -p out", "description": "Create out/"}),
            fc("run_shell_command", {"command": "sh build.sh", "description": "Build again"}),
            G.text("build.sh works now: it needed an out/ folder, which I created."),
        ],
        RunOptions(
            prompt="Make build.sh work.",
            output_format="text",
            extra_args=("--yolo",),
            files={"work/build.sh": BUILD_SH},
        ),
        description="text mode, --yolo: build.sh fails (cp: cannot create ... out/), mkdir, the "
        "rerun passes, the answer on stdout",
    )


# -- the text and json output modes ---------------------------------------------------------
def _mode_cases() -> Iterator[Case]:
    yield _case(
        "text_prompt_blocklist",
        "text_output",
        REFUSAL,
        lambda c: [G.prompt_blocked("BLOCKLIST")],
        RunOptions(output_format="text", prompt="Write a reply that uses the customer's slur."),
        description="text mode, the prompt blocked (promptFeedback.blockReason BLOCKLIST, no "
        "candidates), twice: '[ERROR] Model stream ended without a finish reason.', exit 0",
    )
    yield _case(
        "text_key_reported_leaked",
        "text_output",
        Truth(False, "auth", "permanent", "api_key_leaked"),
        lambda c: [
            G.error(403, "Your API key was reported as leaked. Please use another API key.")
        ],
        RunOptions(output_format="text"),
        utility_fails_too=True,
        description="text mode, 403 PERMISSION_DENIED 'Your API key was reported as leaked': "
        "not retried, the critical-error line, exit 1",
    )
    yield _case(
        "text_bad_function_schema",
        "text_output",
        Truth(False, "invalid_request", "permanent", "invalid_tool_schema"),
        lambda c: [
            G.error(
                400,
                "* GenerateContentRequest.tools[0].function_declarations[3].parameters."
                "properties[dir_path].type: must be specified when not using one_of or any_of\n",
            )
        ],
        RunOptions(output_format="text"),
        utility_fails_too=True,
        description="text mode, 400 INVALID_ARGUMENT about a tool declaration field: not "
        "retried, exit 1",
    )
    yield _case(
        "json_thoughts_only",
        "json_output",
        EMPTY,
        lambda c: [_thoughts_only()],
        RunOptions(output_format="json", prompt="List the open issues."),
        description="json mode, a turn with only a thought part and finish STOP (twice): "
        "response '', INVALID_STREAM error, exit 0",
    )
    yield _case(
        "json_prohibited_content_empty",
        "json_output",
        Truth(False, "refusal", "permanent", "prohibited_content"),
        lambda c: [G.content(finish_reason="PROHIBITED_CONTENT")],
        RunOptions(output_format="json", prompt="Describe the leaked documents in detail."),
        description="json mode, finishReason PROHIBITED_CONTENT with no text (twice): the CLI "
        "reports it as an empty response (INVALID_STREAM), exit 0",
    )


# -- sessions, settings and the command line ----------------------------------------------
def _setup_cases() -> Iterator[Case]:
    pong = lambda c: [G.text("pong")]  # noqa: E731
    yield _case(
        "text_resume_index_beyond",
        "missing_session",
        UNRESUMABLE,
        pong,
        RunOptions(
            output_format="text",
            extra_args=("--resume", "4"),
            files={**KNOWN_PROJECT, SESSION_FILE: GOOD_SESSION},
        ),
        description="text mode, --resume 4 (an index) in a project with one session: 'Error "
        'resuming session: Invalid session identifier "4" ...\', exit 42',
    )
    yield _case(
        "text_workspace_settings_two_objects",
        "invalid_settings",
        INVALID_SETTINGS,
        pong,
        RunOptions(
            output_format="text",
            files={
                "work/.gemini/settings.json": (
                    '{"model": {"name": "gemini-2.5-flash"}}\n{"general": {"vimMode": false}}\n'
                )
            },
        ),
        description="text mode, a workspace settings.json holding two JSON objects (a bad "
        "merge): 'Error in <path>: Unexpected non-whitespace character after JSON ...', exit 52",
    )
    yield _case(
        "output_format_yaml",
        "bad_flag",
        BAD_FLAG,
        pong,
        RunOptions(output_format="yaml"),
        description="--output-format yaml: 'Invalid values: Argument: output-format, Given: "
        '"yaml" ...\' and the help text, exit 1',
    )
    yield _case(
        "json_unknown_flag_skip_permissions",
        "bad_flag",
        BAD_FLAG,
        pong,
        RunOptions(output_format="json", extra_args=("--dangerously-skip-permissions",)),
        description="json mode, claude's --dangerously-skip-permissions given to gemini: "
        "'Unknown arguments: ...' and the help text, exit 1",
    )
    yield _case(
        "text_mcp_initialize_rpc_error",
        "mcp_server_failed",
        MCP_FAILED,
        pong,
        RunOptions(
            output_format="text",
            settings={
                "mcpServers": {
                    "license-gate": {
                        "command": "sh",
                        "args": ["-c", MCP_RPC_ERROR],
                        "timeout": 5000,
                    }
                }
            },
        ),
        description="text mode, an MCP server that answers initialize with a JSON-RPC error "
        "(-32603): 'MCP issues detected' on stderr, the answer on stdout",
    )


# -- approval modes, policies, excluded tools and hooks ---------------------------------------
def _tool_policy_cases() -> Iterator[Case]:
    fc = G.function_call
    yield _case(
        "web_fetch_unregistered_answer",
        "denied_tool",
        DENIED_BUT_ANSWERED,
        lambda c: [
            fc("web_fetch", {"prompt": "Summarise https://example.com/changelog"}),
            fc("read_file", {"file_path": "README.md"}),
            G.text("I cannot fetch web pages here; README.md says this is a demo project."),
        ],
        RunOptions(prompt="Read https://example.com/changelog and tell me what the project is."),
        description="headless default approval mode: web_fetch is not registered "
        "(tool_not_registered), the agent reads README.md instead and answers",
    )
    yield _case(
        "json_policy_git_push_undone",
        "denied_tool",
        DENIED_TASK_UNDONE,
        lambda c: [
            fc("run_shell_command", {"command": "git push origin main", "description": "Push"}),
            G.text(
                "I could not push: the policy reserves pushing for the release bot, so main "
                "is not on origin yet."
            ),
        ],
        RunOptions(
            prompt="Push the main branch to origin.",
            output_format="json",
            extra_args=("--yolo",),
            files={"home/.gemini/policies/release.toml": PUSH_POLICY},
        ),
        description="json mode, --yolo with a user policy denying 'git push': the push is "
        "denied, the response says it was not done, exit 0",
    )
    yield _case(
        "text_hook_refuses_shell_undone",
        "hooks",
        DENIED_TASK_UNDONE,
        lambda c: [
            fc("run_shell_command", {"command": "sh deploy.sh", "description": "Deploy"}),
            G.text("The deploy hook refused the shell command, so nothing was deployed."),
        ],
        RunOptions(
            prompt="Run deploy.sh.",
            output_format="text",
            extra_args=("--yolo",),
            files={"work/deploy.sh": "echo deployed\n"},
            settings={
                "hooks": {
                    "BeforeTool": [{"matcher": "run_shell_command", "hooks": [HOOK_NO_SHELL]}]
                }
            },
        ),
        description="text mode, --yolo, a BeforeTool hook refuses the shell (exit 2): the agent "
        "says nothing was deployed, exit 0",
    )
    yield _case(
        "json_after_tool_hook_stop",
        "hooks",
        HOOK_STOPPED,
        lambda c: [
            fc("read_file", {"file_path": "README.md"}),
            G.text("README.md describes a demo project."),
        ],
        RunOptions(
            prompt="Summarise README.md.",
            output_format="json",
            settings={
                "hooks": {"AfterTool": [{"matcher": "read_file", "hooks": [HOOK_AFTER_READ_STOP]}]}
            },
        ),
        description="json mode, an AfterTool hook answers continue=false once the read has run: "
        "the run stops before the model answers, response '', exit 0",
    )
    yield _case(
        "before_agent_hook_script_missing",
        "hooks",
        HOOK_BLOCKED,
        lambda c: [G.text("pong")],
        RunOptions(settings={"hooks": {"BeforeAgent": [{"hooks": [HOOK_SCRIPT_MISSING]}]}}),
        description="a BeforeAgent hook 'sh <script>' whose script is missing: sh exits 2 "
        "('cannot open'), which the CLI reads as a block: 'Agent execution blocked: sh: 0: "
        "cannot open ...', no model call, result success",
    )


# -- loops, compression, turn caps, context ---------------------------------------------------
def _run_shape_cases() -> Iterator[Case]:
    fc = G.function_call
    yield _case(
        "read_then_content_loop",
        "loop_detected",
        LOOP,
        lambda c: [
            fc("read_file", {"file_path": "README.md"}),
            G.text("I should double-check the README before I answer the question. " * 30),
        ],
        RunOptions(prompt="Is the README complete?"),
        description="a read_file turn, then an answer chanting one sentence: loop recovery, the "
        "same chant again stops the run ('Loop detected, stopping execution'), exit 0",
    )
    yield _case(
        "text_compression_default_threshold",
        "compaction",
        SUCCESS,
        lambda c: [
            G.text(
                f"Scanned the repository; drafting the report {CONTINUE_MARKER}",
                prompt_tokens=GEMINI_WINDOW * 8 // 10,
            ),
            G.text("Report: one module, documented in README.md."),
        ],
        RunOptions(
            output_format="text",
            prompt="Report on the repository.",
            settings={"model": {"skipNextSpeakerCheck": False}},
        ),
        description="text mode, default threshold, a turn at 80 % of the window and a 'Please "
        "continue.' turn: the history is compressed (nothing printed), then the answer",
    )
    yield _case(
        "three_tools_session_cap",
        "max_turns",
        MAX_TURNS,
        lambda c: [
            fc("list_directory", {"dir_path": "."}),
            fc("read_file", {"file_path": "README.md"}),
            fc("grep_search", {"pattern": "TODO"}),
            fc("glob", {"pattern": "**/*"}),
        ],
        RunOptions(prompt="Audit the project for TODOs.", max_turns=3),
        description="maxSessionTurns 3 in the headless loop, three different tool turns: "
        "FatalTurnLimitedError, exit 53",
    )
    yield _case(
        "text_token_count_vertex_wording",
        "context_window",
        CONTEXT,
        lambda c: [
            G.error(
                400,
                "Unable to submit request because the input token count is 1130472 but model "
                "only supports up to 1048576. Reduce the input token count and try again. You "
                "can also use the CountTokens API to calculate prompt token count and billable "
                "characters.",
            )
        ],
        RunOptions(output_format="text"),
        utility_fails_too=True,
        description="text mode, 400 with the other wording of a context overflow: not retried, "
        "exit 1",
    )


# -- billing, quota, capacity ---------------------------------------------------------------
def _api_error_cases() -> Iterator[Case]:
    yield _case(
        "json_pro_free_tier_limit_zero",
        "billing",
        BILLING,
        lambda c: [
            G.error(
                429,
                "You exceeded your current quota, please check your plan and billing details. "
                "* Quota exceeded for metric: generativelanguage.googleapis.com/"
                "generate_content_free_tier_input_token_count, limit: 0, model: gemini-2.5-pro",
                [
                    G.quota_failure(
                        "GenerateContentInputTokensPerModelPerDay-FreeTier",
                        "generativelanguage.googleapis.com/"
                        "generate_content_free_tier_input_token_count",
                        "0",
                    ),
                    G.retry_info("25s"),
                ],
            )
        ],
        RunOptions(output_format="json", model="gemini-2.5-pro"),
        utility_fails_too=True,
        description="json mode, gemini-2.5-pro on the free tier: 'limit: 0' (no quota without "
        "billing), not retried, the error object (code 429), exit 173",
    )
    yield _case(
        "text_credits_balance_zero",
        "billing",
        BILLING,
        lambda c: [
            G.error(
                429,
                "Credit balance exhausted for this account (0 credits remaining). Add credits "
                "to continue using gemini-2.5-flash.",
                [
                    G.error_info(
                        "INSUFFICIENT_G1_CREDITS_BALANCE", domain="cloudcode-pa.googleapis.com"
                    )
                ],
            )
        ],
        RunOptions(output_format="text"),
        utility_fails_too=True,
        description="text mode, ErrorInfo INSUFFICIENT_G1_CREDITS_BALANCE: TerminalQuotaError, "
        "not retried, exit 1",
    )
    yield _case(
        "free_tier_country_enable_billing",
        "billing",
        Truth(False, "quota_exhausted", "permanent", "billing_required"),
        lambda c: [
            G.error(
                400,
                "Gemini API free tier is not available in your country. Please enable billing "
                "on your project in Google AI Studio.",
                status_name="FAILED_PRECONDITION",
            )
        ],
        utility_fails_too=True,
        description="400 FAILED_PRECONDITION: the free tier is not offered here, billing "
        "would fix it; not retried, exit 144",
    )
    yield _case(
        "text_tokens_per_minute_retry",
        "quota_terminal",
        RATE,
        lambda c: [
            G.error(
                429,
                "Quota exceeded for metric: generativelanguage.googleapis.com/"
                "generate_content_paid_tier_input_token_count, limit: 2000000, model: "
                "gemini-2.5-flash. Please retry in 1.4s.",
                [
                    G.quota_failure(
                        "GenerateContentPaidTierInputTokensPerModelPerMinute",
                        "generativelanguage.googleapis.com/"
                        "generate_content_paid_tier_input_token_count",
                        "2000000",
                    ),
                    G.retry_info("1.4s"),
                ],
            )
        ],
        RunOptions(output_format="text"),
        utility_fails_too=True,
        description="text mode, a paid-tier tokens-per-minute quota with RetryInfo 1.4s: "
        "retried once, then the critical-error line, exit 1",
    )
    yield _case(
        "daily_errorinfo_reset_midnight",
        "quota_terminal",
        USAGE,
        lambda c: [
            G.error(
                429,
                "Quota exceeded for quota metric 'Generate Content API requests per day' and "
                "limit 'GenerateContent request limit per day per project per model' of service "
                "'generativelanguage.googleapis.com' for consumer 'project_number:123456789'. "
                "The quota resets at midnight Pacific time.",
                [
                    G.error_info(
                        "RATE_LIMIT_EXCEEDED",
                        quota_metric="generativelanguage.googleapis.com/generate_content_requests",
                        quota_limit="GenerateRequestsPerDayPerProjectPerModel",
                        quota_limit_value="1500",
                    )
                ],
            )
        ],
        utility_fails_too=True,
        description="a daily request quota named only in ErrorInfo metadata (no QuotaFailure, "
        "no RetryInfo): the CLI retries it as a transient quota error, then exit 173",
    )
    yield _case(
        "capacity_exhausted_persisting",
        "capacity_wait",
        OVERLOADED,
        lambda c: [
            G.error(
                429,
                "You have exhausted your capacity on this model. Your quota will reset after 2s.",
            )
        ],
        utility_fails_too=True,
        description="a detail-less 429 'You have exhausted your capacity on this model' (the "
        "server's capacity, whatever the quota says): the CLI's capacity retry, then result "
        "error, exit 173",
    )
