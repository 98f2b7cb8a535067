"""The second fresh held-out batch for the gemini CLI (variant 2: fixtures `<name>__f2`).

Written from the coverage table (docs/agents/gemini.md) after the first batch was scored, by
someone who never saw the verdict code; frozen in FRESH.txt before the verdict changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from agent_apis import gemini as G
from agent_apis.clis import RunOptions
from agent_apis.core import Reply
from agent_apis.gemini import CONTINUE_MARKER
from agent_apis.scenarios.base import (
    CONTEXT,
    EMPTY,
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
UNKNOWN_SESSION = Truth(False, "config", "permanent", "session_not_resumable")
BAD_FLAG = Truth(False, "config", "permanent", "bad_flag")
HOOK_BLOCKED = Truth(False, "config", "permanent", "hook_blocked")
HOOK_STOPPED = Truth(False, "config", "permanent", "hook_stopped")
PAID_REQUESTS = "generativelanguage.googleapis.com/generate_content_paid_tier_requests"

# A calculator script whose check fails until the constant is fixed.
CALC_SH = 'RATE=0.2\necho "rate=$RATE"\n'
TEST_SH = (
    '. ./calc.sh >/dev/null\n[ "$RATE" = "0.25" ] || { echo "FAIL: expected RATE 0.25, got '
    '$RATE" >&2; exit 1; }\necho "PASS"\n'
)
ADMIN_NO_SHELL = """\
[[rule]]
toolName = "run_shell_command"
decision = "deny"
priority = 950
denyMessage = "Shell access is disabled on the build farm."
"""
ASK_ENV_POLICY = """\
[[rule]]
toolName = "read_file"
argsPattern = "\\\\.env"
decision = "ask_user"
priority = 600
"""
# Hooks: the deployment's own scripts (run by sh in the work dir).
HOOK_EXIT2_PROMPT = {
    "type": "command",
    "command": "echo 'Blocked: prompts mentioning production need an approved change ticket.' "
    ">&2; exit 2",
}
HOOK_BLOCK_PROMPT_TEXT = {
    "type": "command",
    "command": 'echo \'{"decision": "deny", "reason": "Outside business hours: agents may not '
    "run.\"}'",
}
HOOK_BLOCK_REPLACE = {
    "type": "command",
    "command": "echo 'In-place edits are not allowed; rewrite the whole file.' >&2; exit 2",
}
HOOK_AFTER_AGENT_ONCE = {
    "type": "command",
    "command": "if [ -f .after-agent-seen ]; then echo '{}'; else touch .after-agent-seen; "
    'echo \'{"decision": "block", "reason": "Also say which licence the project uses."}\'; fi',
}
HOOK_MODEL_BUDGET = {
    "type": "command",
    "command": 'if [ -f .model-calls ]; then echo \'{"continue": false, "stopReason": '
    "\"Model call budget for this task is used up.\"}'; else touch .model-calls; echo '{}'; fi",
}
OTHER_SESSION = "0ddba11-0000-4000-8000-0000000000aa"


def _quota(message: str, details: Sequence[dict[str, Any]], label: str, status: int = 429) -> Reply:
    return G.error(status, message, list(details), label=label)


def gemini_batch2_cases() -> Iterator[Case]:
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
        variant=2,
        **kw,
    )


# -- debug switches and environment variables, on runs that succeed and on runs that fail ------
def _debug_cases() -> Iterator[Case]:
    fc = G.function_call
    yield _case(
        "debug_true_env_text_grep",
        "debug_output",
        SUCCESS,
        lambda c: [
            fc("grep_search", {"pattern": "demo"}),
            G.text("README.md is the only file mentioning 'demo'."),
        ],
        RunOptions(
            prompt="Which files mention demo?",
            output_format="text",
            extra_env={"DEBUG": "true"},
        ),
        description="DEBUG=true (the word, not 1), text mode: debug lines on stderr around a "
        "grep_search call, the answer on stdout",
    )
    yield _case(
        "debug_flag_overloaded_json",
        "debug_output",
        OVERLOADED,
        lambda c: [G.error(503, "The model is overloaded. Please try again later.")],
        RunOptions(output_format="json", extra_args=("--debug",)),
        utility_fails_too=True,
        description="--debug in json mode, a persisting 503 'model is overloaded': retried once "
        "with the debug noise around it, then the error object (code 503) on stderr",
    )
    yield _case(
        "debug_mode_one_daily_quota",
        "debug_output",
        USAGE,
        lambda c: [
            _quota(
                "Quota exceeded for metric: generativelanguage.googleapis.com/"
                "generate_content_paid_tier_requests, limit: 10000, model: gemini-2.5-flash. "
                "Please retry in 14h22m5s.",
                [
                    G.quota_failure(
                        "GenerateRequestsPerDayPerProjectPerModel", PAID_REQUESTS, "10000"
                    ),
                    G.retry_info("51725s"),
                ],
                "429:PerDay-paid",
            )
        ],
        RunOptions(extra_env={"DEBUG_MODE": "1"}),
        utility_fails_too=True,
        description="DEBUG_MODE=1, a paid-tier daily request quota (QuotaFailure ...PerDay..., "
        "RetryInfo ~14 h): not retried, result error, exit 173",
    )
    yield _case(
        "debug_short_text_internal",
        "debug_output",
        SERVER,
        lambda c: [G.error(500, "Internal error encountered.")],
        RunOptions(output_format="text", extra_args=("-d",)),
        utility_fails_too=True,
        description="-d in text mode, a persisting 500 'Internal error encountered.': retried "
        "once, then the critical-error line, exit 1",
    )


# -- tool errors and failed commands the agent recovered from ----------------------------------
def _recovered_cases() -> Iterator[Case]:
    fc = G.function_call
    yield _case(
        "yolo_test_fixed_by_replace_json",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("run_shell_command", {"command": "sh test.sh", "description": "Run the test"}),
            fc(
                "replace",
                {
                    "file_path": "calc.sh",
                    "old_string": "RATE=0.2",
                    "new_string": "RATE=0.25",
                    "instruction": "fix the rate",
                },
            ),
            fc("run_shell_command", {"command": "sh test.sh", "description": "Run it again"}),
            G.text("test.sh passes: calc.sh had RATE=0.2 where 0.25 was expected."),
        ],
        RunOptions(
            prompt="Make test.sh pass.",
            output_format="json",
            extra_args=("--approval-mode=yolo",),
            files={"work/calc.sh": CALC_SH, "work/test.sh": TEST_SH},
        ),
        description="--approval-mode=yolo in json mode: test.sh fails (exit 1, FAIL in its "
        "output), a replace fixes calc.sh, the rerun passes, the answer",
    )
    yield _case(
        "write_outside_workspace_text",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("write_file", {"file_path": "/etc/autofix/app.conf", "content": "level=info\n"}),
            fc("write_file", {"file_path": "config/app.conf", "content": "level=info\n"}),
            G.text("Wrote config/app.conf (the workspace has no access to /etc)."),
        ],
        RunOptions(
            prompt="Create app.conf with level=info.", output_format="text", extra_args=("-y",)
        ),
        description="-y in text mode: write_file outside the workspace fails, the agent writes "
        "it inside the project instead and answers",
    )
    yield _case(
        "api_504_then_answer_text",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            G.error(504, "The request timed out. Please try again."),
            G.text("pong"),
        ],
        RunOptions(output_format="text"),
        description="text mode: one 504 DEADLINE_EXCEEDED, retried after ~5 s ('Attempt 1 "
        "failed with status 504 ...' on stderr), then the answer",
    )


# -- the text and json output modes ---------------------------------------------------------
def _mode_cases() -> Iterator[Case]:
    yield _case(
        "text_safety_harassment",
        "text_output",
        REFUSAL,
        lambda c: [G.content(finish_reason="SAFETY", safety_blocked="HARM_CATEGORY_HARASSMENT")],
        RunOptions(output_format="text", prompt="Write a reply to this angry customer."),
        description="text mode, SAFETY (harassment) with no text, twice: '[ERROR] The model "
        "response was blocked due to safety settings.' on stderr, stdout empty, exit 0",
    )
    yield _case(
        "text_location_unsupported",
        "text_output",
        Truth(False, "permission", "permanent", "region_not_supported"),
        lambda c: [
            G.error(
                400,
                "User location is not supported for the API use.",
                status_name="FAILED_PRECONDITION",
            )
        ],
        RunOptions(output_format="text"),
        utility_fails_too=True,
        description="text mode, 400 FAILED_PRECONDITION 'User location is not supported for "
        "the API use.': not retried, exit 1",
    )
    yield _case(
        "json_recitation_empty",
        "json_output",
        REFUSAL,
        lambda c: [G.content(finish_reason="RECITATION")],
        RunOptions(output_format="json", prompt="Print the full text of the GPL."),
        description="json mode, RECITATION with no text (twice): response '', error "
        "INVALID_STREAM with the recitation message, exit 0",
    )
    yield _case(
        "json_whitespace_answer",
        "json_output",
        EMPTY,
        lambda c: [G.text("\n\n   \n")],
        RunOptions(output_format="json", prompt="List the open issues."),
        description="json mode, an answer of only whitespace (twice): INVALID_STREAM error in "
        "the json object, exit 0",
    )
    yield _case(
        "json_invalid_payload_400",
        "json_output",
        Truth(False, "invalid_request", "permanent", "invalid_payload"),
        lambda c: [
            G.error(
                400,
                'Invalid JSON payload received. Unknown name "thinkingLevel" at '
                "'generation_config.thinking_config': Cannot find field.",
                [
                    {
                        "@type": "type.googleapis.com/google.rpc.BadRequest",
                        "fieldViolations": [
                            {
                                "field": "generation_config.thinking_config",
                                "description": "Invalid JSON payload received. Unknown name "
                                "\"thinkingLevel\" at 'generation_config.thinking_config': "
                                "Cannot find field.",
                            }
                        ],
                    }
                ],
            )
        ],
        RunOptions(output_format="json"),
        utility_fails_too=True,
        description="json mode, 400 INVALID_ARGUMENT with a BadRequest fieldViolations detail: "
        "not retried, the error object (code 400) on stderr",
    )


# -- sessions, settings and the command line ----------------------------------------------
def _setup_cases() -> Iterator[Case]:
    pong = lambda c: [G.text("pong")]  # noqa: E731
    known = {**KNOWN_PROJECT, SESSION_FILE: GOOD_SESSION}
    yield _case(
        "resume_other_uuid_json",
        "missing_session",
        UNKNOWN_SESSION,
        pong,
        RunOptions(output_format="json", extra_args=("--resume", OTHER_SESSION), files=known),
        description="json mode, --resume <uuid> in a project that has one other session: "
        "'Error resuming session: Invalid session identifier ...', exit 42",
    )
    yield _case(
        "session_file_not_a_session",
        "missing_session",
        UNKNOWN_SESSION,
        pong,
        RunOptions(
            extra_args=("--session-file", "handoff.json"),
            files={"work/handoff.json": '{"ticket": "OPS-112", "notes": ["resume me"]}\n'},
        ),
        description="--session-file naming a JSON file that is not a session: 'Error importing "
        "session from file: ...', exit 42",
    )
    yield _case(
        "session_id_bad_characters",
        "bad_flag",
        BAD_FLAG,
        pong,
        RunOptions(extra_args=("--session-id", "nightly run/42")),
        description="--session-id with a space and a slash: 'Invalid session ID ...', help "
        "text, exit 1",
    )
    yield _case(
        "yolo_and_approval_mode",
        "bad_flag",
        BAD_FLAG,
        pong,
        RunOptions(output_format="json", extra_args=("--yolo", "--approval-mode", "auto_edit")),
        description="json mode, --yolo together with --approval-mode: 'Cannot use both --yolo "
        "(-y) and --approval-mode together...', help text, exit 1",
    )
    yield _case(
        "system_settings_yaml_skipped",
        "invalid_settings",
        SUCCESS,
        pong,
        RunOptions(
            extra_env={"GEMINI_CLI_SYSTEM_SETTINGS_PATH": "system-settings.json"},
            files={"work/system-settings.json": "model:\n  name: gemini-2.5-flash\n"},
        ),
        description="GEMINI_CLI_SYSTEM_SETTINGS_PATH naming a YAML file under a world-writable "
        "/tmp: 'Security Warning: Skipping system settings file ...' on stderr, the file is "
        "never parsed, the run answers",
    )
    yield _case(
        "settings_path_is_directory",
        "invalid_settings",
        INVALID_SETTINGS,
        pong,
        RunOptions(files={"work/.gemini/settings.json/.keep": ""}),
        description="the workspace .gemini/settings.json is a directory (a container mount of a "
        "missing file): 'Error in ...: EISDIR: illegal operation on a directory, read', exit 52",
    )
    yield _case(
        "user_settings_top_level_array",
        "invalid_settings",
        INVALID_SETTINGS,
        pong,
        RunOptions(
            output_format="json",
            files={
                "home/.gemini/settings.json": (
                    '[\n  {"security": {"auth": {"selectedType": "gemini-api-key"}}},\n'
                    '  {"general": {"maxAttempts": 2}}\n]\n'
                )
            },
        ),
        description="json mode, the user settings.json is a JSON array: 'Settings file is not a "
        "valid JSON object.', exit 52",
    )
    yield _case(
        "mcp_garbage_stdout_debug",
        "mcp_server_failed",
        MCP_FAILED,
        pong,
        RunOptions(
            extra_env={"DEBUG": "1"},
            settings={
                "mcpServers": {
                    "legacy-tools": {
                        "command": "sh",
                        "args": ["-c", "echo 'legacy-tools 0.3 ready'; sleep 30"],
                        "timeout": 1500,
                    }
                }
            },
        ),
        description="DEBUG=1, an MCP server that prints a banner instead of JSON-RPC and never "
        "answers initialize (timeout 1.5 s): the MCP error on stderr, then the answer",
    )


# -- approval modes, policies, excluded tools and hooks ---------------------------------------
def _tool_policy_cases() -> Iterator[Case]:
    fc = G.function_call
    yield _case(
        "plan_mode_shell_denied",
        "denied_tool",
        DENIED_BUT_ANSWERED,
        lambda c: [
            fc("run_shell_command", {"command": "ls -R", "description": "List the tree"}),
            fc("list_directory", {"dir_path": "."}),
            G.text("Plan: 1. add a LICENSE file; 2. describe it in README.md."),
        ],
        RunOptions(
            prompt="Plan how to add a licence to the project.",
            extra_args=("--approval-mode", "plan"),
        ),
        description="--approval-mode plan: the plan policy leaves run_shell_command out of the "
        "tool list ('Tool \"run_shell_command\" not found', tool_not_registered), the agent "
        "lists the directory instead and answers with the plan",
    )
    yield _case(
        "admin_policy_shell_undone_text",
        "denied_tool",
        DENIED_TASK_UNDONE,
        lambda c: [
            fc("run_shell_command", {"command": "sh test.sh", "description": "Run the tests"}),
            G.text(
                "I could not run test.sh: shell access is disabled here, so I cannot say "
                "whether it passes."
            ),
        ],
        RunOptions(
            prompt="Run test.sh and tell me whether it passes.",
            output_format="text",
            extra_args=("--yolo", "--admin-policy", "admin.toml"),
            files={"work/admin.toml": ADMIN_NO_SHELL, "work/test.sh": "echo PASS\n"},
        ),
        description="text mode, --yolo with an --admin-policy denying the shell: the tool is "
        "not registered ('Error executing tool run_shell_command: Tool ... not found' on "
        "stderr), the agent says it could not run the tests; exit 0",
    )
    yield _case(
        "yolo_build_file_denied_undone",
        "denied_tool",
        DENIED_TASK_UNDONE,
        lambda c: [
            fc(
                "replace",
                {
                    "file_path": "pyproject.toml",
                    "old_string": 'version = "1.4.2"',
                    "new_string": 'version = "1.4.3"',
                    "instruction": "bump the patch version",
                },
            ),
            G.text(
                "I could not change pyproject.toml: edits to build files need confirmation, "
                "so the version is still 1.4.2."
            ),
        ],
        RunOptions(
            prompt="Bump the patch version in pyproject.toml.",
            extra_args=("--yolo",),
            files={"work/pyproject.toml": '[project]\nname = "demo"\nversion = "1.4.2"\n'},
        ),
        description="--yolo, a replace in pyproject.toml: headless build-file protection denies "
        "it ('Modifying build configuration files requires explicit user confirmation'), the "
        "agent says the version was not bumped; result success, exit 0",
    )
    yield _case(
        "hook_blocks_replace_rewrites",
        "denied_tool",
        DENIED_BUT_ANSWERED,
        lambda c: [
            fc(
                "replace",
                {
                    "file_path": "README.md",
                    "old_string": "A file the agent may read.",
                    "new_string": "A file the agent may edit.",
                    "instruction": "reword",
                },
            ),
            fc(
                "write_file",
                {
                    "file_path": "README.md",
                    "content": "# demo project\n\nA file the agent may edit.\n",
                },
            ),
            G.text("README.md now says the agent may edit it."),
        ],
        RunOptions(
            prompt="Change 'read' to 'edit' in README.md.",
            extra_args=("--approval-mode", "auto_edit"),
            settings={
                "hooks": {"BeforeTool": [{"matcher": "replace", "hooks": [HOOK_BLOCK_REPLACE]}]}
            },
        ),
        description="auto_edit mode, a BeforeTool hook refuses replace (exit 2): the agent "
        "rewrites the file with write_file and answers",
    )
    yield _case(
        "text_hook_denies_prompt",
        "hooks",
        HOOK_BLOCKED,
        lambda c: [G.text("pong")],
        RunOptions(
            output_format="text",
            settings={"hooks": {"BeforeAgent": [{"hooks": [HOOK_BLOCK_PROMPT_TEXT]}]}},
        ),
        description="text mode, a BeforeAgent hook answers decision=deny: '[WARNING] Agent "
        "execution blocked: ...' on stderr, no model call, exit 0",
    )
    yield _case(
        "json_before_agent_exit2",
        "hooks",
        HOOK_BLOCKED,
        lambda c: [G.text("pong")],
        RunOptions(
            output_format="json",
            prompt="Restart the production workers.",
            settings={"hooks": {"BeforeAgent": [{"hooks": [HOOK_EXIT2_PROMPT]}]}},
        ),
        description="json mode, a BeforeAgent hook exits 2 with its reason on stderr: warnings "
        "['Agent execution blocked: ...'], no model call, exit 0",
    )
    yield _case(
        "before_model_hook_budget_stop",
        "hooks",
        HOOK_STOPPED,
        lambda c: [
            fc("read_file", {"file_path": "README.md"}),
            G.text("The README describes a demo project."),
        ],
        RunOptions(
            prompt="Summarise README.md.",
            settings={"hooks": {"BeforeModel": [{"hooks": [HOOK_MODEL_BUDGET]}]}},
        ),
        description="a BeforeModel hook lets the first model call through and stops the second "
        "(continue=false): the tool ran, no answer, result success, exit 0",
    )
    yield _case(
        "after_agent_hook_blocks_once",
        "hooks",
        SUCCESS,
        lambda c: [
            G.text("The README describes a demo project."),
            G.text("It is a demo project; no licence file is present."),
        ],
        RunOptions(
            prompt="What is this project?",
            settings={"hooks": {"AfterAgent": [{"hooks": [HOOK_AFTER_AGENT_ONCE]}]}},
        ),
        description="an AfterAgent hook blocks the first finish once (decision=block): a "
        "warning event 'Agent execution blocked: ...', the agent answers again, result success",
    )


# -- loops, compression, turn caps, context ---------------------------------------------------
def _run_shape_cases() -> Iterator[Case]:
    fc = G.function_call
    yield _case(
        "debug_list_dir_loop",
        "loop_detected",
        LOOP,
        lambda c: [fc("list_directory", {"dir_path": "src"})],
        RunOptions(
            prompt="Find the entry point.",
            extra_args=("--debug",),
            files={"work/src/main.sh": "echo main\n"},
        ),
        description="--debug, the same list_directory call every turn: 'Iterative Loop "
        "Recovery' on stderr, then 'Loop detected, stopping execution', exit 0",
    )
    yield _case(
        "json_content_loop",
        "loop_detected",
        LOOP,
        lambda c: [G.text("Let me look at the deployment manifest one more time. " * 30)],
        RunOptions(output_format="json", prompt="Why does the deploy fail?"),
        description="json mode, a chanting answer: warnings ['Loop detected, stopping "
        "execution'], exit 0",
    )
    yield _case(
        "compression_json_debug",
        "compaction",
        SUCCESS,
        lambda c: [
            G.text(
                f"Collected the module list; next the summary {CONTINUE_MARKER}",
                prompt_tokens=GEMINI_WINDOW * 7 // 10,
            ),
            G.text("The project has one module, documented in README.md."),
        ],
        RunOptions(
            output_format="json",
            extra_args=("--debug",),
            settings={"model": {"skipNextSpeakerCheck": False}},
        ),
        description="json mode with --debug: a turn at 70 % of the window, a 'Please "
        "continue.' turn compresses the history first, then the answer",
    )
    yield _case(
        "text_session_turns_continuation",
        "max_turns",
        Truth(False, "max_turns", "permanent", "client_session_turns", shown=False),
        lambda c: [G.text(f"Chapter {i} drafted. {CONTINUE_MARKER}\n") for i in range(1, 6)],
        RunOptions(
            output_format="text",
            prompt="Draft the five chapters.",
            max_turns=2,
            settings={"model": {"skipNextSpeakerCheck": False}},
        ),
        description="text mode, maxSessionTurns 2 reached in the client's 'Please continue.' "
        "turns: the partial chapters on stdout, nothing about the cap anywhere, exit 0",
    )
    yield _case(
        "context_window_after_tool",
        "context_window",
        CONTEXT,
        lambda c: [
            G.function_call("read_file", {"file_path": "README.md"}, prompt_tokens=1_040_000),
            G.error(
                400,
                "The input token count (1049012) exceeds the maximum number of tokens allowed "
                "(1048576).",
            ),
        ],
        RunOptions(prompt="Read README.md and summarise it."),
        description="a read_file turn, then the next request is over the window: 400, exit 144",
    )


# -- billing, quota, capacity, server errors, refusals --------------------------------------
def _api_error_cases() -> Iterator[Case]:
    yield _case(
        "billing_delinquent_text",
        "billing",
        BILLING,
        lambda c: [
            G.error(
                403,
                "The billing account for the owning project is disabled in state delinquent",
                [
                    G.error_info(
                        "BILLING_DISABLED", consumer="projects/987654321", containerInfo="987654321"
                    )
                ],
            )
        ],
        RunOptions(output_format="text"),
        utility_fails_too=True,
        description="text mode, 403 BILLING_DISABLED for a delinquent billing account: exit 1",
    )
    yield _case(
        "spend_cap_429_json",
        "billing",
        BILLING,
        lambda c: [
            G.error(
                429,
                "Your project has exceeded its monthly spending cap. Raise the cap in Google AI "
                "Studio at https://aistudio.google.com/spend to continue.",
            )
        ],
        RunOptions(output_format="json"),
        utility_fails_too=True,
        description="json mode, a detail-less 429 for the project's monthly spend cap: retried "
        "once as a transient quota error, then the error object (code 429), exit 173",
    )
    yield _case(
        "credits_balance_ai_studio",
        "billing",
        BILLING,
        lambda c: [
            _quota(
                "You have insufficient Google AI credits to use gemini-2.5-flash. Purchase "
                "more credits to continue.",
                [
                    G.error_info("INSUFFICIENT_G1_CREDITS_BALANCE"),
                    G.help_link("Purchase credits", "https://aistudio.google.com/billing"),
                ],
                "429:G1_CREDITS",
            )
        ],
        utility_fails_too=True,
        description="429 ErrorInfo INSUFFICIENT_G1_CREDITS_BALANCE on googleapis.com with a "
        "Help link: TerminalQuotaError, not retried, exit 173",
    )
    yield _case(
        "retry_in_message_no_details",
        "quota_terminal",
        RATE,
        lambda c: [
            G.error(
                429,
                "Resource has been exhausted (e.g. check quota). Please retry in 1.5s.",
            )
        ],
        utility_fails_too=True,
        description="a detail-less 429 naming 'Please retry in 1.5s': RetryableQuotaError, "
        "retried once, result error, exit 173",
    )
    yield _case(
        "retry_in_420s_json",
        "quota_terminal",
        RATE,
        lambda c: [
            G.error(
                429,
                "Too many tokens per minute for gemini-2.5-flash on this project. Please retry "
                "in 420s.",
            )
        ],
        RunOptions(output_format="json"),
        utility_fails_too=True,
        description="json mode, a detail-less 429 naming 'Please retry in 420s' (> 300 s): "
        "TerminalQuotaError, not retried, exit 173",
    )
    yield _case(
        "code_assist_quota_reset",
        "quota_terminal",
        USAGE,
        lambda c: [
            _quota(
                "You have reached your daily Gemini Code Assist request limit. Your quota will "
                "reset after 7h42m.",
                [
                    G.error_info("QUOTA_EXHAUSTED", domain="cloudcode-pa.googleapis.com"),
                ],
                "429:QUOTA_EXHAUSTED",
            )
        ],
        utility_fails_too=True,
        description="the Code Assist form: ErrorInfo QUOTA_EXHAUSTED on cloudcode-pa, 'quota "
        "will reset after 7h42m': TerminalQuotaError, not retried, exit 173",
    )
    yield _case(
        "capacity_exceeded_503_text",
        "capacity_wait",
        OVERLOADED,
        lambda c: [
            G.error(503, "Model capacity exceeded for gemini-2.5-flash. Please try again later.")
        ],
        RunOptions(output_format="text"),
        utility_fails_too=True,
        description="text mode, a detail-less 503 saying 'capacity exceeded': the CLI's "
        "capacity retry after ~1 s ('Attempt 1 failed: ... Retrying after ...ms'), then 'Max "
        "attempts reached' and the critical-error line, exit 1",
    )
