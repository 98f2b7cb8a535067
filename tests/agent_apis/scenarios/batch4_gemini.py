"""The fourth fresh held-out batch for the gemini CLI (variant 4: fixtures `<name>__f4`).

Written from the coverage table (docs/agents/gemini.md) after the first three batches were scored,
by someone who never saw the verdict code; frozen in FRESH.txt before the verdict changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from agent_apis import gemini as G
from agent_apis.clis import RunOptions
from agent_apis.core import Reply
from agent_apis.gemini import CONTINUE_MARKER
from agent_apis.scenarios.base import (
    CONNECTION,
    CONTEXT,
    EMPTY,
    MAX_TURNS,
    OVERLOADED,
    RATE,
    REFUSAL,
    RESET,
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
    KNOWN_PROJECT,
    LOOP,
    MCP_FAILED,
)

CLI = "gemini"
UNRESUMABLE = Truth(False, "config", "permanent", "session_not_resumable")
INVALID_SETTINGS = Truth(False, "config", "permanent", "invalid_settings")
BAD_FLAG = Truth(False, "config", "permanent", "bad_flag")
HOOK_STOPPED = Truth(False, "config", "permanent", "hook_stopped")
AUTH_MISSING = Truth(False, "auth", "permanent", "api_key_empty")

# A session the CLI started and never wrote a message to (the run died at start-up): only its
# metadata line, so there is nothing to resume.
EMPTY_SESSION_ID = "5e551011-0000-4000-8000-0000000000e4"
EMPTY_SESSION_FILE = "home/.gemini/tmp/work/chats/session-2026-12-01T06-00-5e551011.jsonl"
EMPTY_SESSION = (
    f'{{"sessionId":"{EMPTY_SESSION_ID}","projectHash":"0","startTime":'
    '"2026-12-01T06:00:00.000Z","lastUpdated":"2026-12-01T06:00:00.000Z","kind":"main"}\n'
)
DEPLOY_SH = 'set -e\nTARGET="${1:-staging}"\necho "deploying to $TARGET"\n'
# A README with the same sentence twice, so a one-occurrence replace is ambiguous.
TWICE_README = "# demo project\n\nStatus: draft.\n\nSee below.\n\nStatus: draft.\n"
ASK_WRITE_POLICY = """\
[[rule]]
toolName = "write_file"
decision = "ask_user"
priority = 700
"""
HOOK_AFTER_MODEL_STOP = {
    "type": "command",
    "command": 'echo \'{"continue": false, "stopReason": "Output scanner: responses are held '
    "for review.\"}'",
}
HOOK_NEEDS_TICKET = {
    "type": "command",
    "command": "if grep -q 'OPS-[0-9]'; then echo '{}'; else echo '{\"continue\": false, "
    '"stopReason": "No change ticket in the prompt; the agent does not start."}\'; fi',
}
HOOK_SHELL_JSON_BLOCK = {
    "type": "command",
    "command": 'echo \'{"decision": "block", "reason": "Shell is off for documentation tasks."}\'',
}


def _logs_dir(work: Path) -> None:
    (work / "logs").mkdir(exist_ok=True)


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
        variant=4,
        **kw,
    )


def gemini_batch4_cases() -> Iterator[Case]:
    yield from _debug_cases()
    yield from _recovered_cases()
    yield from _mode_cases()
    yield from _setup_cases()
    yield from _tool_policy_cases()
    yield from _run_shape_cases()
    yield from _api_error_cases()


# -- debug switches and debug environment variables ----------------------------------------
def _debug_cases() -> Iterator[Case]:
    fc = G.function_call
    yield _case(
        "debug_log_file_text_glob_read",
        "debug_output",
        SUCCESS,
        lambda c: [
            fc("glob", {"pattern": "**/*.md"}),
            fc("read_file", {"file_path": "README.md"}),
            G.text("The only document is README.md: a demo project."),
        ],
        RunOptions(
            prompt="Summarise the Markdown docs.",
            output_format="text",
            extra_env={"GEMINI_DEBUG_LOG_FILE": "logs/gemini-cli.log"},
            setup=_logs_dir,
        ),
        description="text mode, GEMINI_DEBUG_LOG_FILE into logs/ (the debug lines go to the "
        "file): glob, read_file, then the answer on stdout",
    )
    yield _case(
        "debug_flag_text_reset",
        "debug_output",
        CONNECTION,
        lambda c: [RESET],
        RunOptions(output_format="text", extra_args=("--debug",)),
        utility_fails_too=True,
        description="--debug in text mode, every connection reset before a byte of answer: "
        "retried, then the critical-error line",
    )
    yield _case(
        "debug_mode_retry_info_only",
        "debug_output",
        RATE,
        lambda c: [
            G.error(
                429,
                "Rate limit exceeded for requests to gemini-2.5-flash. Slow down and retry "
                "shortly.",
                [G.retry_info("1s")],
            )
        ],
        RunOptions(extra_env={"DEBUG_MODE": "true"}),
        utility_fails_too=True,
        description="DEBUG_MODE=true, a persisting 429 whose only detail is RetryInfo 1s: "
        "retried, then result error, exit 173",
    )


# -- tool errors and failed commands the agent recovered from ----------------------------------
def _recovered_cases() -> Iterator[Case]:
    fc = G.function_call
    yield _case(
        "missing_linter_then_syntax_check",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc(
                "run_shell_command",
                {"command": "shellcheck deploy.sh", "description": "Lint deploy.sh"},
            ),
            fc("run_shell_command", {"command": "sh -n deploy.sh", "description": "Syntax check"}),
            G.text("shellcheck is not installed; 'sh -n deploy.sh' finds no syntax errors."),
        ],
        RunOptions(
            prompt="Check deploy.sh for errors.",
            extra_args=("--approval-mode", "yolo"),
            files={"work/deploy.sh": DEPLOY_SH},
        ),
        description="yolo: shellcheck is not installed (exit 127), the agent falls back to "
        "'sh -n', which passes, and answers",
    )
    yield _case(
        "json_replace_ambiguous_then_all",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc(
                "replace",
                {
                    "file_path": "README.md",
                    "old_string": "Status: draft.",
                    "new_string": "Status: final.",
                    "instruction": "mark the README final",
                },
            ),
            fc(
                "replace",
                {
                    "file_path": "README.md",
                    "old_string": "Status: draft.",
                    "new_string": "Status: final.",
                    "instruction": "mark the README final everywhere",
                    "allow_multiple": True,
                },
            ),
            G.text("Both status lines in README.md now say final."),
        ],
        RunOptions(
            prompt="Mark README.md as final.",
            output_format="json",
            extra_args=("--approval-mode=auto_edit",),
            files={"work/README.md": TWICE_README},
        ),
        description="json mode, auto_edit: a replace whose text occurs twice fails, the agent "
        "retries with allow_multiple and answers",
    )


# -- the text and json output modes ---------------------------------------------------------
def _mode_cases() -> Iterator[Case]:
    fc = G.function_call
    yield _case(
        "text_model_overloaded",
        "text_output",
        OVERLOADED,
        lambda c: [G.error(503, "The model is overloaded. Please try again later.")],
        RunOptions(output_format="text"),
        utility_fails_too=True,
        description="text mode, a persisting 503 'The model is overloaded': retried once, "
        "then the critical-error line, exit 1",
    )
    yield _case(
        "json_context_after_two_reads",
        "json_output",
        CONTEXT,
        lambda c: [
            fc("list_directory", {"dir_path": "."}, prompt_tokens=700_000),
            fc("read_file", {"file_path": "README.md"}, prompt_tokens=1_020_000),
            G.error(
                400,
                "The input token count (1056301) exceeds the maximum number of tokens allowed "
                "(1048576).",
            ),
        ],
        RunOptions(output_format="json", prompt="Read everything and summarise it."),
        description="json mode, two tool turns, then the request is over the window: 400, the "
        "error object (code 400) on stderr",
    )
    yield _case(
        "json_prompt_blocked_safety",
        "json_output",
        REFUSAL,
        lambda c: [G.prompt_blocked("SAFETY")],
        RunOptions(output_format="json", prompt="Explain how to disable the alarm system."),
        description="json mode, the prompt blocked (promptFeedback SAFETY, no candidates), "
        "twice: response '' and an INVALID_STREAM error, exit 0",
    )
    yield _case(
        "json_empty_after_glob",
        "json_output",
        EMPTY,
        lambda c: [fc("glob", {"pattern": "src/**/*.py"}), G.content()],
        RunOptions(output_format="json", prompt="Which Python modules are there?"),
        description="json mode, a glob turn, then an empty answer: after a tool result the "
        "CLI takes it as the end, response '' with no error, exit 0",
    )


# -- sessions, settings and the command line ----------------------------------------------
def _setup_cases() -> Iterator[Case]:
    pong = lambda c: [G.text("pong")]  # noqa: E731
    yield _case(
        "json_resume_short_flag_empty_session",
        "missing_session",
        UNRESUMABLE,
        pong,
        RunOptions(
            output_format="json",
            extra_args=("-r", EMPTY_SESSION_ID),
            files={**KNOWN_PROJECT, EMPTY_SESSION_FILE: EMPTY_SESSION},
        ),
        description="json mode, -r <uuid> of a session that has no message (its run died at "
        "start-up): 'Error resuming session: ...', exit 42",
    )
    yield _case(
        "yolo_disabled_by_settings",
        "invalid_settings",
        INVALID_SETTINGS,
        pong,
        RunOptions(extra_args=("--yolo",), settings={"security": {"disableYoloMode": True}}),
        description="--yolo where settings security.disableYoloMode is true: FatalConfigError, "
        "exit 52",
    )
    yield _case(
        "telemetry_target_env_invalid",
        "invalid_settings",
        INVALID_SETTINGS,
        pong,
        RunOptions(output_format="json", extra_env={"GEMINI_TELEMETRY_TARGET": "otlp"}),
        description="json mode, GEMINI_TELEMETRY_TARGET=otlp (not local or gcp): 'Invalid "
        "telemetry configuration: ...', exit 52",
    )
    yield _case(
        "json_sandbox_flag_given_value",
        "bad_flag",
        BAD_FLAG,
        pong,
        RunOptions(output_format="json", extra_args=("--sandbox", "podman")),
        description="json mode, '--sandbox podman' (a boolean flag given a value): the value "
        "becomes a positional prompt next to --prompt, 'Cannot use both ...', exit 1",
    )
    yield _case(
        "text_worktree_not_enabled",
        "bad_flag",
        BAD_FLAG,
        pong,
        RunOptions(output_format="text", extra_args=("--worktree", "fix-4411")),
        description="text mode, --worktree without experimental.worktrees in the settings: "
        "the flag is refused with the help text, exit 1",
    )
    yield _case(
        "json_empty_api_key",
        "auth",
        AUTH_MISSING,
        pong,
        RunOptions(output_format="json", api_key=""),
        description="json mode, GEMINI_API_KEY set to the empty string: the headless auth "
        "check, exit 41",
    )
    yield _case(
        "json_mcp_bad_cwd",
        "mcp_server_failed",
        MCP_FAILED,
        pong,
        RunOptions(
            output_format="json",
            settings={
                "mcpServers": {
                    "repo-index": {
                        "command": "sh",
                        "args": ["-c", "exec ./index-server --stdio"],
                        "cwd": "/nonexistent/repo-index",
                    }
                }
            },
        ),
        description="json mode, an MCP server whose cwd does not exist (spawn fails): the MCP "
        "note on stderr, the json answer",
    )


# -- approval modes, policies, excluded tools and hooks ---------------------------------------
def _tool_policy_cases() -> Iterator[Case]:
    fc = G.function_call
    yield _case(
        "tools_core_allowlist_glob",
        "denied_tool",
        DENIED_BUT_ANSWERED,
        lambda c: [
            fc("glob", {"pattern": "**/*.md"}),
            fc("list_directory", {"dir_path": "."}),
            G.text("The project has one Markdown file: README.md."),
        ],
        RunOptions(
            prompt="Which Markdown files are there?",
            settings={"tools": {"core": ["read_file", "list_directory"]}},
        ),
        description="settings tools.core limits the tools to read_file and list_directory: glob "
        "is not registered, the agent lists the directory and answers",
    )
    yield _case(
        "auto_edit_shell_undone",
        "denied_tool",
        DENIED_TASK_UNDONE,
        lambda c: [
            fc("run_shell_command", {"command": "sh deploy.sh prod", "description": "Deploy"}),
            G.text("I could not run deploy.sh in this mode, so nothing was deployed to prod."),
        ],
        RunOptions(
            prompt="Deploy to prod with deploy.sh.",
            extra_args=("--approval-mode", "auto_edit"),
            files={"work/deploy.sh": DEPLOY_SH},
        ),
        description="--approval-mode auto_edit: the shell is not allowed headless, the agent "
        "says nothing was deployed; result success, exit 0",
    )
    yield _case(
        "text_settings_policy_ask_write",
        "denied_tool",
        DENIED_BUT_ANSWERED,
        lambda c: [
            fc("write_file", {"file_path": "notes.md", "content": "README: demo project\n"}),
            fc("read_file", {"file_path": "README.md"}),
            G.text("README.md says this is a demo project."),
        ],
        RunOptions(
            prompt="What does README.md say?",
            output_format="text",
            extra_args=("--yolo",),
            settings={"policyPaths": ["ci/ask-writes.toml"]},
            files={"work/ci/ask-writes.toml": ASK_WRITE_POLICY},
        ),
        description="text mode, --yolo with a policy file from settings policyPaths that asks "
        "before write_file (ask becomes deny headless): the note is not written, the agent "
        "reads and answers",
    )
    yield _case(
        "after_model_hook_stop",
        "hooks",
        HOOK_STOPPED,
        lambda c: [G.text("The README describes a demo project.")],
        RunOptions(
            prompt="What is this project?",
            settings={"hooks": {"AfterModel": [{"hooks": [HOOK_AFTER_MODEL_STOP]}]}},
        ),
        description="an AfterModel hook answers continue=false on the first chunk: no answer, "
        "result success, exit 0",
    )
    yield _case(
        "json_before_agent_needs_ticket",
        "hooks",
        HOOK_STOPPED,
        lambda c: [G.text("pong")],
        RunOptions(
            output_format="json",
            prompt="Rotate the staging credentials.",
            settings={"hooks": {"BeforeAgent": [{"hooks": [HOOK_NEEDS_TICKET]}]}},
        ),
        description="json mode, a BeforeAgent hook that reads the prompt and stops the agent "
        "(continue=false) when it names no ticket: no model call, exit 0",
    )
    yield _case(
        "hook_json_blocks_shell_then_read",
        "hooks",
        DENIED_BUT_ANSWERED,
        lambda c: [
            fc("run_shell_command", {"command": "cat README.md", "description": "Show README"}),
            fc("read_file", {"file_path": "README.md"}),
            G.text("README.md describes a demo project."),
        ],
        RunOptions(
            prompt="Show me what README.md says.",
            extra_args=("-y",),
            settings={
                "hooks": {
                    "BeforeTool": [
                        {"matcher": "run_shell_command", "hooks": [HOOK_SHELL_JSON_BLOCK]}
                    ]
                }
            },
        ),
        description="-y, a BeforeTool hook answers decision=block for the shell: 'Tool "
        "execution blocked: ...', the agent reads the file instead and answers",
    )


# -- loops, compression, turn caps ------------------------------------------------------------
def _run_shape_cases() -> Iterator[Case]:
    fc = G.function_call
    yield _case(
        "auto_edit_replace_loop",
        "loop_detected",
        LOOP,
        lambda c: [
            fc(
                "replace",
                {
                    "file_path": "README.md",
                    "old_string": "# Demo Project",
                    "new_string": "# Demo project",
                    "instruction": "fix the title case",
                },
            )
        ],
        RunOptions(prompt="Fix the README title.", extra_args=("--approval-mode", "auto_edit")),
        description="auto_edit, the same failing replace every turn: loop recovery, then "
        "'Loop detected, stopping execution', exit 0",
    )
    yield _case(
        "compressed_then_tool_then_answer",
        "compaction",
        SUCCESS,
        lambda c: [
            G.text(
                f"I have the overview; next I check the README {CONTINUE_MARKER}",
                prompt_tokens=GEMINI_WINDOW * 65 // 100,
            ),
            fc("read_file", {"file_path": "README.md"}),
            G.text("The README confirms it is a demo project."),
        ],
        RunOptions(
            prompt="Give me an overview, then check the README.",
            settings={"model": {"skipNextSpeakerCheck": False}},
        ),
        description="a turn at 65 % of the window and a 'Please continue.' turn: the history "
        "is compressed (nothing printed), then a read and the answer",
    )
    yield _case(
        "json_yolo_five_turn_cap",
        "max_turns",
        MAX_TURNS,
        lambda c: [
            fc("list_directory", {"dir_path": "."}),
            fc("write_file", {"file_path": "NOTES.md", "content": "todo\n"}),
            fc("run_shell_command", {"command": "wc -l NOTES.md", "description": "Count"}),
            fc("read_file", {"file_path": "NOTES.md"}),
            fc("grep_search", {"pattern": "todo"}),
            fc("glob", {"pattern": "*"}),
        ],
        RunOptions(
            prompt="Write notes and check them.",
            output_format="json",
            max_turns=5,
            extra_args=("--approval-mode=yolo",),
        ),
        description="json mode, yolo, maxSessionTurns 5 with five different tool turns: "
        "FatalTurnLimitedError, exit 53",
    )


# -- billing, quota, capacity, server errors, invalid requests ------------------------------------
def _api_error_cases() -> Iterator[Case]:
    yield _case(
        "text_free_tier_daily_limit_zero",
        "billing",
        BILLING,
        lambda c: [
            G.error(
                429,
                "You exceeded your current quota, please check your plan and billing details. "
                "* Quota exceeded for metric: generativelanguage.googleapis.com/"
                "generate_content_free_tier_requests, limit: 0, model: gemini-2.5-flash",
                [
                    G.quota_failure(
                        "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
                        "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                        "0",
                    ),
                    G.retry_info("41s"),
                ],
            )
        ],
        RunOptions(output_format="text"),
        utility_fails_too=True,
        description="text mode, a free-tier daily request quota of 'limit: 0': not retried, "
        "the critical-error line, exit 1",
    )
    yield _case(
        "json_g1_credits_exhausted",
        "billing",
        BILLING,
        lambda c: [
            G.error(
                429,
                "Your Google AI credits are exhausted. Buy more credits or switch to a paid "
                "plan to keep using this model.",
                [G.error_info("INSUFFICIENT_G1_CREDITS_BALANCE", domain="googleapis.com")],
            )
        ],
        RunOptions(output_format="json"),
        utility_fails_too=True,
        description="json mode, ErrorInfo INSUFFICIENT_G1_CREDITS_BALANCE: TerminalQuotaError, "
        "not retried, the error object (code 429), exit 173",
    )
    yield _case(
        "daily_quota_id_daily_spelling",
        "quota_terminal",
        USAGE,
        lambda c: [
            G.error(
                429,
                "Quota exceeded for metric: generativelanguage.googleapis.com/"
                "generate_content_paid_tier_input_token_count, limit: 50000000, model: "
                "gemini-2.5-flash. The daily quota resets at 00:00 America/Los_Angeles.",
                [
                    G.quota_failure(
                        "GenerateContentDailyInputTokensPerProjectPerModel",
                        "generativelanguage.googleapis.com/"
                        "generate_content_paid_tier_input_token_count",
                        "50000000",
                    ),
                    G.retry_info("31873s"),
                ],
            )
        ],
        utility_fails_too=True,
        description="a paid-tier daily token quota whose quotaId says 'Daily' (not PerDay), "
        "RetryInfo ~9 h: TerminalQuotaError, not retried, exit 173",
    )
    yield _case(
        "json_deadline_exceeded",
        "json_output",
        SERVER,
        lambda c: [G.error(504, "Deadline exceeded while waiting for the model response.")],
        RunOptions(output_format="json"),
        utility_fails_too=True,
        description="json mode, a persisting 504 DEADLINE_EXCEEDED: retried once, then the "
        "error object (code 504), exit 248",
    )
    yield _case(
        "json_pro_thinking_budget_zero",
        "json_output",
        Truth(False, "invalid_request", "permanent", "thinking_budget"),
        lambda c: [G.error(400, "Budget 0 is invalid. This model only works in thinking mode.")],
        RunOptions(output_format="json", model="gemini-2.5-pro"),
        utility_fails_too=True,
        description="json mode, gemini-2.5-pro, 400 INVALID_ARGUMENT 'Budget 0 is invalid. "
        "This model only works in thinking mode.': not retried, exit 144",
    )
