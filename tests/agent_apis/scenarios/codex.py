"""The codex scenarios (see agent_apis.scenarios.base for Case, Truth and the shared shapes)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from agent_apis import openai as O
from agent_apis.clis import RunOptions
from agent_apis.core import Reply
from agent_apis.scenarios.base import (
    AUTH,
    BAD_MODEL,
    CANCELLED,
    CONFIG,
    CONNECTION,
    CONTEXT,
    EMPTY,
    JSON_PROMPT,
    KILL_MARKER,
    MAX_TOKENS,
    OVERLOADED,
    PARTIAL,
    PERMISSION,
    QUOTA,
    RATE,
    REFUSAL,
    RESET,
    SCHEMA,
    SERVER,
    SUCCESS,
    TIMEOUT,
    USAGE,
    Case,
    Context,
    Stop,
    Truth,
    stop_cases,
)

# ---------------------------------------------------------------------------------------------
# Codex CLI ↔ OpenAI Responses API
# ---------------------------------------------------------------------------------------------


def _codex_cut(text: str) -> Reply:
    reply = O.response(O.Text(text), end=False)
    return replace(reply, stall_after=len(reply.events), label="stall")


def codex_cases() -> Iterator[Case]:
    cli = "codex"
    yield Case(cli, "success_text", SUCCESS, lambda c: [O.text("pong")])
    yield Case(
        cli,
        "success_json_fence",
        SUCCESS,
        lambda c: [O.text('```json\n{"answer": "pong"}\n```')],
        RunOptions(prompt=JSON_PROMPT),
    )
    yield Case(
        cli,
        "structured_output",
        SUCCESS,
        lambda c: [O.text('{"answer":"pong"}')],
        RunOptions(prompt=JSON_PROMPT, json_schema=SCHEMA),
        description="--output-schema: the request carries text.format json_schema",
    )
    yield Case(
        cli,
        "tool_then_answer",
        SUCCESS,
        lambda c: [
            O.function_call("exec_command", {"cmd": "cat README.md"}),
            O.text("The README describes a demo project."),
        ],
    )
    yield Case(
        cli,
        "auth_invalid_key",
        AUTH,
        lambda c: [
            O.error(
                401,
                "Incorrect API key provided: sk-proj-****0000. You can find your API key at "
                "https://platform.openai.com/account/api-keys.",
                "invalid_request_error",
                "invalid_api_key",
            )
        ],
    )
    yield Case(
        cli,
        "auth_invalid_key",
        AUTH,
        lambda c: [
            O.error(
                401,
                "Your authentication token has expired. Please try signing in again.",
                "invalid_request_error",
                "token_expired",
            )
        ],
        variant=2,
    )
    yield Case(cli, "auth_missing", AUTH, lambda c: [O.text("pong")], RunOptions(api_key=None))
    yield Case(
        cli, "auth_missing", AUTH, lambda c: [O.text("pong")], RunOptions(api_key=""), variant=2
    )
    yield Case(
        cli,
        "permission_403",
        PERMISSION,
        lambda c: [
            O.error(
                403,
                "You are not allowed to sample from this model",
                "invalid_request_error",
                None,
            )
        ],
    )
    yield Case(
        cli,
        "permission_403",
        PERMISSION,
        lambda c: [
            O.error(
                403,
                "Country, region, or territory not supported",
                "request_forbidden",
                "unsupported_country_region_territory",
            )
        ],
        variant=2,
    )
    yield Case(
        cli,
        "rate_limit_persisting",
        RATE,
        lambda c: [
            O.error(
                429,
                "Rate limit reached for gpt-5.5 in organization org-autofix on requests per min "
                "(RPM): Limit 500, Used 500, Requested 1. Please try again in 2s. Visit "
                "https://platform.openai.com/account/rate-limits to learn more.",
                "requests",
                "rate_limit_exceeded",
                headers=O.rate_limit_headers(reset_requests="2s", retry_after="2"),
            )
        ],
    )
    yield Case(
        cli,
        "rate_limit_persisting",
        RATE,
        lambda c: [
            O.error(
                429,
                "Rate limit reached for gpt-5.5 in organization org-autofix on tokens per min "
                "(TPM): Limit 30000, Used 29874, Requested 1672. Please try again in 1.092s. "
                "Visit https://platform.openai.com/account/rate-limits to learn more.",
                "tokens",
                "rate_limit_exceeded",
                headers=O.rate_limit_headers(
                    reset_requests="120ms", reset_tokens="1.092s", retry_after=None
                ),
            )
        ],
        variant=2,
    )
    yield Case(
        cli,
        "rate_limit_then_success",
        SUCCESS,
        lambda c: [
            O.error(
                429,
                "Rate limit reached for gpt-5.5. Please try again in 1s.",
                "requests",
                "rate_limit_exceeded",
                headers=O.rate_limit_headers(retry_after="1"),
            ),
            O.text("pong"),
        ],
    )
    yield Case(
        cli,
        "insufficient_quota",
        QUOTA,
        lambda c: [
            O.error(
                429,
                "You exceeded your current quota, please check your plan and billing details. "
                "For more information on this error, read the docs: "
                "https://platform.openai.com/docs/guides/error-codes/api-errors.",
                "insufficient_quota",
                "insufficient_quota",
            )
        ],
    )
    yield Case(
        cli,
        "insufficient_quota",
        QUOTA,
        lambda c: [
            O.response(
                terminal="failed",
                error_code="insufficient_quota",
                error_message="You exceeded your current quota, please check your plan and "
                "billing details.",
            )
        ],
        variant=2,
        description="the same failure reported in-stream by response.failed",
    )
    yield Case(
        cli,
        "usage_limit",
        USAGE,
        lambda c: [
            O.error(
                429,
                "The usage limit has been reached",
                "usage_limit_reached",
                None,
                extra={
                    "plan_type": "plus",
                    "resets_at": int(c.now) + 2 * 3600,
                    "resets_in_seconds": 2 * 3600,
                },
            )
        ],
        description="the ChatGPT-plan usage limit with its reset time",
    )
    yield Case(
        cli,
        "usage_limit",
        USAGE,
        lambda c: [
            O.error(
                429,
                "You've hit your usage limit.",
                "usage_limit_reached",
                None,
                extra={
                    "plan_type": "team",
                    "resets_at": int(c.now) + 3 * 86400,
                    "resets_in_seconds": 3 * 86400,
                },
            )
        ],
        variant=2,
    )
    yield Case(
        cli,
        "server_500",
        SERVER,
        lambda c: [
            O.error(
                500,
                "The server had an error while processing your request. Sorry about that!",
                "server_error",
                None,
            )
        ],
    )
    yield Case(
        cli,
        "server_500",
        SERVER,
        lambda c: [
            Reply(
                502,
                headers={"content-type": "text/html"},
                body="<html><head><title>502 Bad Gateway</title></head><body>"
                "<center><h1>502 Bad Gateway</h1></center></body></html>",
                label="502:html",
            )
        ],
        variant=2,
    )
    yield Case(
        cli,
        "server_503",
        SERVER,
        lambda c: [O.error(503, "Service Unavailable", "server_error", None)],
    )
    yield Case(
        cli,
        "server_503",
        SERVER,
        lambda c: [
            O.error(
                503,
                "upstream connect error or disconnect/reset before headers",
                "server_error",
                None,
                headers={"retry-after": "1"},
            )
        ],
        variant=2,
    )
    yield Case(
        cli,
        "overloaded",
        OVERLOADED,
        lambda c: [O.error(529, "Overloaded", "overloaded_error", None)],
        description="529 (an Anthropic-style gateway in front of the Responses API)",
    )
    yield Case(
        cli,
        "overloaded",
        OVERLOADED,
        lambda c: [
            O.response(
                terminal="failed",
                error_code="server_is_overloaded",
                error_message="Our servers are currently overloaded. Please try again later.",
            )
        ],
        variant=2,
    )
    yield Case(
        cli,
        "server_error_then_success",
        SUCCESS,
        lambda c: [
            O.error(500, "The server had an error while processing your request.", "server_error"),
            O.text("pong"),
        ],
    )
    yield Case(
        cli,
        "stream_dropped",
        CONNECTION,
        lambda c: [O.text(PARTIAL + " more text follows here.", drop_after=6)],
    )
    yield Case(
        cli, "stream_dropped", CONNECTION, lambda c: [O.text(PARTIAL, drop_after=1)], variant=2
    )
    yield Case(cli, "connection_refused", CONNECTION, None, timeout_s=10.0)
    yield Case(cli, "connection_refused", CONNECTION, lambda c: [RESET], variant=2)
    yield Case(
        cli,
        "max_tokens_partial",
        MAX_TOKENS,
        lambda c: [O.text(PARTIAL, terminal="incomplete", incomplete_reason="max_output_tokens")],
    )
    yield Case(
        cli,
        "max_tokens_partial",
        MAX_TOKENS,
        lambda c: [
            O.text(
                "def solve():\n    total = 0\n    for item in",
                terminal="incomplete",
                incomplete_reason="max_output_tokens",
            )
        ],
        variant=2,
    )
    yield Case(
        cli,
        "max_tokens_empty",
        MAX_TOKENS,
        lambda c: [O.response(terminal="incomplete", incomplete_reason="max_output_tokens")],
    )
    yield Case(
        cli,
        "max_tokens_empty",
        MAX_TOKENS,
        lambda c: [
            O.response(
                terminal="incomplete", incomplete_reason="max_output_tokens", model="gpt-5.4"
            )
        ],
        RunOptions(model="gpt-5.4"),
        variant=2,
    )
    yield Case(
        cli,
        "refusal_partial",
        REFUSAL,
        lambda c: [O.text(PARTIAL, terminal="incomplete", incomplete_reason="content_filter")],
        description="incomplete_details.reason content_filter after partial text",
    )
    yield Case(
        cli,
        "refusal_partial",
        REFUSAL,
        lambda c: [O.response(O.Refusal("I can't help with that.", partial="Sure, first"))],
        variant=2,
        description="a refusal content part after partial text",
    )
    yield Case(
        cli,
        "refusal_empty",
        REFUSAL,
        lambda c: [O.response(O.Refusal("I'm sorry, but I can't assist with that request."))],
        description="a message whose only content is a refusal part",
    )
    yield Case(
        cli,
        "refusal_empty",
        REFUSAL,
        lambda c: [O.response(terminal="incomplete", incomplete_reason="content_filter")],
        variant=2,
    )
    yield Case(cli, "empty_answer", EMPTY, lambda c: [O.response()])
    yield Case(cli, "empty_answer", EMPTY, lambda c: [O.text("  \n")], variant=2)
    yield Case(
        cli,
        "invalid_model",
        BAD_MODEL,
        lambda c: [
            O.error(
                404,
                "The model `gpt-nope` does not exist or you do not have access to it.",
                "invalid_request_error",
                "model_not_found",
            )
        ],
        RunOptions(model="gpt-nope"),
    )
    yield Case(
        cli,
        "invalid_model",
        BAD_MODEL,
        lambda c: [
            O.error(
                400,
                "The requested model 'gpt 5' is not supported.",
                "invalid_request_error",
                "model_not_supported",
            )
        ],
        RunOptions(model="gpt 5"),
        variant=2,
    )
    yield Case(
        cli,
        "context_window",
        CONTEXT,
        lambda c: [
            O.response(
                terminal="failed",
                error_code="context_length_exceeded",
                error_message="Your input exceeds the context window of this model. Please "
                "adjust your input and try again.",
            )
        ],
    )
    yield Case(
        cli,
        "context_window",
        CONTEXT,
        lambda c: [
            O.error(
                400,
                "This model's maximum context length is 400000 tokens. However, your messages "
                "resulted in 412345 tokens. Please reduce the length of the messages.",
                "invalid_request_error",
                "context_length_exceeded",
            )
        ],
        variant=2,
    )
    yield from stop_cases(cli, lambda: _codex_cut(KILL_MARKER))
    yield Case(
        cli,
        "untrusted_workspace",
        CONFIG,
        lambda c: [O.text("pong")],
        RunOptions(trust_workspace=False),
        description="no --skip-git-repo-check in a directory that is not a git repository",
    )
    yield from codex_exit_path_cases()
    yield from codex_fresh_cases()


# ---------------------------------------------------------------------------------------------
# Every exit path of `codex exec` 0.171.0 (docs/agents/codex.md, "Every exit path in the
# source"): one case per family the first catalogue lacked. All variant 1 (the tune set).
# ---------------------------------------------------------------------------------------------

TEXT = RunOptions(output_format="text")  # `codex exec` without --json
# A thread id that parses as a UUID and that no session in the run's fresh CODEX_HOME has.
MISSING_SESSION = "0199a213-81c0-7800-8aa1-bbab2a035a53"
SCRATCH_PROMPT = "What does README.md say? Keep notes in notes.txt if that helps."
WRITE_PROMPT = "Create result.txt containing the word done."
README_ANSWER = "README.md says it is a demo project: a file the agent may read."
FORBID_RM_RULES = (
    "prefix_rule(\n"
    '    pattern = ["rm"],\n'
    '    decision = "forbidden",\n'
    '    justification = "deleting files is not allowed in this repository",\n'
    ")\n"
)
PROMPT_PUSH_RULES = 'prefix_rule(\n    pattern = ["git", "push"],\n    decision = "prompt",\n)\n'
MISSING_MCP = '[mcp_servers.docs]\ncommand = "/nonexistent/bin/docs-mcp"\nargs = ["--stdio"]\n'


def _config(detail: str) -> Truth:
    return Truth(False, "config", "permanent", detail)


def _paid(detail: str) -> Truth:
    """Credit, billing or spend-limit exhaustion: only paying (or an owner) helps."""
    return Truth(False, "quota_exhausted", "permanent", detail)


DENIED_OK = Truth(True, "success", "none", warnings=("denied_tool",))
DENIED_UNDONE = Truth(False, "permission", "permanent", shown=False, warnings=("denied_tool",))
COMPACTED = Truth(True, "success", "none", warnings=("compacted",))


def _text(options: RunOptions) -> RunOptions:
    return replace(options, output_format="text")


def codex_exit_path_cases() -> Iterator[Case]:
    cli = "codex"
    fc = O.function_call

    # -- debug and log output on a run whose structured result says success ------------------
    yield Case(
        cli,
        "debug_log_success",
        SUCCESS,
        lambda c: [O.text("pong")],
        RunOptions(extra_env={"RUST_LOG": "debug"}),
        family="debug_output",
        description="RUST_LOG=debug: tracing lines (DEBUG/INFO/WARN, incl. 'WARN ... failed to "
        "sync curated plugins repo ... error=...') on stderr; JSONL success on stdout",
    )
    yield Case(
        cli,
        "debug_log_success_text",
        SUCCESS,
        lambda c: [O.text("pong")],
        _text(RunOptions(extra_env={"RUST_LOG": "info"})),
        family="debug_output",
        description="text mode with RUST_LOG=info: INFO/WARN tracing lines interleaved with the "
        "transcript on stderr, the answer on stdout",
    )
    yield Case(
        cli,
        "debug_log_auth_failure",
        AUTH,
        lambda c: [
            O.error(
                401,
                "Incorrect API key provided: sk-proj-****0000.",
                "invalid_request_error",
                "invalid_api_key",
            )
        ],
        RunOptions(extra_env={"RUST_LOG": "debug"}),
        family="debug_output",
        description="a real failure (401) under RUST_LOG=debug: turn.failed on stdout, tracing "
        "noise on stderr",
    )
    yield Case(
        cli,
        "model_metadata_warning",
        SUCCESS,
        lambda c: [O.text("pong", model="gpt-autofix-custom")],
        RunOptions(model="gpt-autofix-custom"),
        family="debug_output",
        description="a model name Codex has no metadata for: a non-fatal item.completed of type "
        "error ('Model metadata for ... not found') before a normal success",
    )

    # -- a tool error the agent met and recovered from ---------------------------------------
    fixed = [
        fc("exec_command", {"cmd": "cat notes.txt"}),
        fc("exec_command", {"cmd": "cat README.md"}),
        O.text("The README describes a demo project."),
    ]
    yield Case(
        cli,
        "tool_failed_then_fixed",
        SUCCESS,
        lambda c: fixed,
        RunOptions(prompt="What does the project's notes file say?"),
        family="recovered_tool_error",
        description="the first command exits 1 (command_execution status failed, exit_code 1), "
        "the agent reads another file and answers",
    )
    yield Case(
        cli,
        "tool_failed_then_fixed_text",
        SUCCESS,
        lambda c: fixed,
        _text(RunOptions(prompt="What does the project's notes file say?")),
        family="recovered_tool_error",
        description="text mode: the transcript of the failed command (' exited 1 in ...ms:' and "
        "'cat: notes.txt: No such file or directory') on stderr, the answer on stdout",
    )

    # -- text mode (no --json): transcript on stderr, final message on stdout -----------------
    yield Case(
        cli,
        "text_success",
        SUCCESS,
        lambda c: [O.text("pong")],
        TEXT,
        family="text_mode",
        description="text mode: the banner, prompt, 'codex' and 'tokens used' on stderr; only "
        "the final message on stdout",
    )
    yield Case(
        cli,
        "text_empty_answer",
        EMPTY,
        lambda c: [O.response()],
        TEXT,
        family="text_mode",
        description="text mode, a completed response with no message: exit 0, stdout empty",
    )
    yield Case(
        cli,
        "text_retry_then_success",
        SUCCESS,
        lambda c: [O.text(PARTIAL, drop_after=4), O.text("pong")],
        TEXT,
        family="text_mode",
        description="text mode: the first stream drops, Codex reconnects ('ERROR: Reconnecting..."
        " 1/1' on stderr) and the second answers: exit 0",
    )
    yield Case(
        cli,
        "text_auth_invalid_key",
        AUTH,
        lambda c: [
            O.error(
                401,
                "Incorrect API key provided: sk-proj-****0000. You can find your API key at "
                "https://platform.openai.com/account/api-keys.",
                "invalid_request_error",
                "invalid_api_key",
            )
        ],
        TEXT,
        family="text_mode",
        description="text mode: 'ERROR: unexpected status 401 Unauthorized: ...' on stderr, exit 1",
    )
    yield Case(
        cli,
        "text_rate_limit",
        RATE,
        lambda c: [
            O.error(
                429,
                "Rate limit reached for gpt-5.5 in organization org-autofix on requests per min "
                "(RPM): Limit 500, Used 500, Requested 1. Please try again in 2s.",
                "requests",
                "rate_limit_exceeded",
                headers=O.rate_limit_headers(reset_requests="2s", retry_after="2"),
            )
        ],
        TEXT,
        family="text_mode",
        description="text mode: 'ERROR: exceeded retry limit, last status: 429 Too Many "
        "Requests' on stderr, exit 1",
    )
    yield Case(
        cli,
        "text_server_error",
        SERVER,
        lambda c: [
            O.error(
                500,
                "The server had an error while processing your request. Sorry about that!",
                "server_error",
                None,
            )
        ],
        TEXT,
        family="text_mode",
        description="text mode: 'ERROR: We're currently experiencing high demand...' (every 500) "
        "on stderr, exit 1",
    )
    yield Case(
        cli,
        "text_insufficient_quota",
        _paid("insufficient_quota"),
        lambda c: [
            O.error(
                429,
                "You exceeded your current quota, please check your plan and billing details.",
                "insufficient_quota",
                "insufficient_quota",
            )
        ],
        TEXT,
        family="text_mode",
        description="text mode: 'ERROR: Quota exceeded. Check your plan and billing details.' on "
        "stderr, exit 1, one request (not retried)",
    )

    # -- resuming a session -----------------------------------------------------------------
    yield Case(
        cli,
        "resume_missing_session",
        _config("missing_session"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["resume", MISSING_SESSION]),
        family="missing_session",
        description="exec resume <uuid> with no such session: 'Error: thread/resume: "
        "thread/resume failed: no rollout found for thread id ...' on stderr, exit 1, no JSONL",
    )
    yield Case(
        cli,
        "resume_last_none",
        Truth(True, "success", "none", "resume_last_without_session"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["resume", "--last"]),
        family="missing_session",
        description="exec resume --last with no recorded session: Codex silently starts a new "
        "thread and answers (exit 0, a new thread id)",
    )
    yield Case(
        cli,
        "resume_name_not_found",
        Truth(True, "success", "none", "resume_name_without_session"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["resume", "nightly-fix"]),
        family="missing_session",
        description="exec resume <name> where no thread has that name: Codex silently starts a "
        "new thread and answers (exit 0)",
    )

    # -- MCP servers at start-up --------------------------------------------------------------
    yield Case(
        cli,
        "mcp_required_failed",
        _config("mcp_required_failed"),
        lambda c: [O.text("pong")],
        RunOptions(
            files={"home/.codex/config.toml": MISSING_MCP + "required = true\n"},
        ),
        family="mcp_startup",
        description="[mcp_servers.docs] required = true whose command does not exist: 'ERROR "
        "codex_core::session: Failed to create session: required MCP servers failed to "
        "initialize' and 'Error: thread/start: ... Fatal error: ...' on stderr, exit 1, no JSONL",
    )
    yield Case(
        cli,
        "mcp_optional_failed",
        Truth(True, "success", "none", "an optional MCP server's failure is reported nowhere"),
        lambda c: [O.text("pong")],
        RunOptions(files={"home/.codex/config.toml": MISSING_MCP}),
        family="mcp_startup",
        description="the same server without required: Codex 0.171 exec reports nothing at all "
        "(no JSONL event, nothing on stderr) and succeeds",
    )

    # -- invalid configuration --------------------------------------------------------------
    yield Case(
        cli,
        "config_toml_invalid",
        _config("invalid_config_toml"),
        lambda c: [O.text("pong")],
        RunOptions(files={"home/.codex/config.toml": 'model = "gpt-5.5\nsandbox_mode = 3\n'}),
        family="invalid_config",
        description="a TOML syntax error: 'Error loading config.toml:' with the file:line:col "
        "and a caret on stderr, exit 1",
    )
    yield Case(
        cli,
        "config_value_invalid",
        _config("invalid_config_value"),
        lambda c: [O.text("pong")],
        RunOptions(files={"home/.codex/config.toml": 'sandbox_mode = "sometimes"\n'}),
        family="invalid_config",
        description="a value of the wrong variant: 'Error loading config.toml: unknown variant "
        "`sometimes`, expected one of ...' on stderr, exit 1",
    )
    yield Case(
        cli,
        "config_unknown_field_strict",
        _config("unknown_config_field"),
        lambda c: [O.text("pong")],
        RunOptions(
            extra_args=["--strict-config"],
            files={"home/.codex/config.toml": "no_such_setting = 1\n"},
        ),
        family="invalid_config",
        description="--strict-config with an unknown key: 'Error loading config.toml: ... "
        "unknown configuration field `no_such_setting`', exit 1",
    )
    yield Case(
        cli,
        "rules_file_invalid",
        _config("invalid_rules_file"),
        lambda c: [O.text("pong")],
        RunOptions(
            files={
                "home/.codex/rules/default.rules": (
                    'prefix_rule(pattern = ["rm"], decision = "sometimes")\n'
                )
            }
        ),
        family="invalid_config",
        description="an execpolicy .rules file with a bad decision: 'Error loading rules:' ... "
        "'invalid decision: sometimes' on stderr, exit 1",
    )
    yield Case(
        cli,
        "approval_policy_unsupported",
        _config("unsupported_approval_policy"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["-c", 'approval_policy="untrusted"']),
        family="invalid_config",
        description='-c approval_policy="untrusted": \'Error: approval_policy = "untrusted" is '
        "no longer supported; remove this setting', exit 1",
    )
    yield Case(
        cli,
        "codex_home_missing",
        _config("codex_home_missing"),
        lambda c: [O.text("pong")],
        RunOptions(extra_env={"CODEX_HOME": "/nonexistent/codex-home"}),
        family="invalid_config",
        description="CODEX_HOME names a missing directory: a 'WARNING: proceeding, ...' line, "
        "then 'Error finding codex home: ...' on stderr, exit 1",
    )
    yield Case(
        cli,
        "output_schema_missing",
        _config("output_schema_missing"),
        lambda c: [O.text('{"answer":"pong"}')],
        RunOptions(extra_args=["--output-schema", "/nonexistent/schema.json"]),
        family="invalid_config",
        description="--output-schema naming a missing file: 'Failed to read output schema file "
        "...' on stderr, exit 1",
    )

    # -- the command line -------------------------------------------------------------------
    yield Case(
        cli,
        "unknown_flag",
        _config("unknown_flag"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["--max-turns", "3"]),
        family="bad_flag",
        description="an option codex exec does not have: clap's \"error: unexpected argument "
        "'--max-turns' found\" and the usage on stderr, exit 2",
    )
    yield Case(
        cli,
        "bad_flag_value",
        _config("invalid_flag_value"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["--sandbox", "sometimes"]),
        family="bad_flag",
        description="--sandbox sometimes: \"error: invalid value 'sometimes' for '--sandbox "
        "<SANDBOX_MODE>'\" on stderr, exit 2",
    )
    yield Case(
        cli,
        "bad_config_override",
        _config("invalid_config_override"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["-c", "sandbox_mode"]),
        family="bad_flag",
        description="-c without '=': 'Error parsing -c overrides: Invalid override (missing "
        "'='): sandbox_mode' on stderr, exit 1",
    )
    yield Case(
        cli,
        "bad_config_override_value",
        _config("invalid_config_override"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["-c", 'sandbox_mode="sometimes"']),
        family="bad_flag",
        description="-c with a value of the wrong variant: reported as 'Error loading config.toml:"
        " unknown variant ...' on stderr, exit 1",
    )
    yield Case(
        cli,
        "no_prompt",
        _config("no_prompt"),
        lambda c: [O.text("pong")],
        RunOptions(prompt="-", stdin=""),
        family="bad_flag",
        description="prompt '-' (read stdin) with an empty stdin: 'No prompt provided via "
        "stdin.' on stderr, exit 1",
    )

    # -- sandbox and policy denials (approval policy never: exec's fixed default) ------------
    yield Case(
        cli,
        "sandbox_denied_worked_around",
        Truth(True, "success", "none", "denial not reported: no item, no log line"),
        lambda c: [
            fc("exec_command", {"cmd": "cp README.md notes.txt"}),
            fc("exec_command", {"cmd": "cat README.md"}),
            O.text(README_ANSWER),
        ],
        RunOptions(prompt=SCRATCH_PROMPT, extra_args=["--sandbox", "read-only"]),
        family="sandbox_denial",
        description="--sandbox read-only: the scratch write fails ('Read-only file system', exit "
        "1; its command_execution item is often missing from the JSONL), the agent reads the "
        "file and answers",
    )
    yield Case(
        cli,
        "sandbox_denied_task_undone",
        DENIED_UNDONE,
        lambda c: [
            fc("exec_command", {"cmd": "echo done > result.txt"}),
            O.text("I could not create result.txt: the file system is read-only here."),
        ],
        RunOptions(prompt=WRITE_PROMPT, extra_args=["--sandbox", "read-only"]),
        family="sandbox_denial",
        description="--sandbox read-only and the task is a write: the write fails, the agent "
        "says so, turn.completed, exit 0; only the answer's words tell",
    )
    yield Case(
        cli,
        "escalation_rejected",
        DENIED_UNDONE,
        lambda c: [
            fc(
                "exec_command",
                {
                    "cmd": "echo done > result.txt",
                    "sandbox_permissions": "require_escalated",
                    "justification": "write result.txt outside the read-only sandbox",
                },
            ),
            O.text("I could not create result.txt: running outside the sandbox was refused."),
        ],
        RunOptions(prompt=WRITE_PROMPT, extra_args=["--sandbox", "read-only"]),
        family="sandbox_denial",
        description="the agent asks for an unsandboxed run; approval policy never rejects it: "
        "'ERROR codex_core::tools::router: error=approval policy is Never; reject command ...' "
        "on stderr, no command item, exit 0",
    )
    yield Case(
        cli,
        "policy_forbidden_worked_around",
        DENIED_OK,
        lambda c: [
            fc("exec_command", {"cmd": "rm -rf build"}),
            fc("exec_command", {"cmd": "wc -l README.md"}),
            O.text("README.md has 3 lines. I was not allowed to remove build/."),
        ],
        RunOptions(
            prompt="Tell me how many lines README.md has (remove any build directory first).",
            files={"home/.codex/rules/default.rules": FORBID_RM_RULES},
        ),
        family="policy_denial",
        description="an execpolicy rule forbids rm: 'ERROR codex_core::tools::router: "
        'error=exec_command failed: CreateProcess { message: "Rejected(...)" }\' on stderr, the '
        "agent still answers the question",
    )
    yield Case(
        cli,
        "policy_approval_rejected",
        DENIED_UNDONE,
        lambda c: [
            fc("exec_command", {"cmd": "git push origin main"}),
            O.text("I could not push: the push needs an approval nobody can give here."),
        ],
        RunOptions(
            prompt="Push the current branch to origin.",
            files={"home/.codex/rules/default.rules": PROMPT_PUSH_RULES},
        ),
        family="policy_denial",
        description="an execpolicy rule says prompt; exec never asks: 'Rejected(\"approval "
        "required by policy, but AskForApproval is set to Never\")' on stderr, exit 0",
    )

    # -- credit, billing and spend limits -----------------------------------------------------
    yield Case(
        cli,
        "usage_not_included",
        Truth(False, "permission", "permanent", "usage_not_included"),
        lambda c: [O.error(429, "Codex is not included in your plan.", "usage_not_included")],
        family="billing",
        description="429 error.type usage_not_included (UsageNotIncluded): 'To use Codex with "
        "your ChatGPT plan, upgrade to Plus: ...', one request",
    )
    yield Case(
        cli,
        "workspace_credits_depleted",
        _paid("workspace_owner_credits_depleted"),
        lambda c: [
            O.error(
                429,
                "The usage limit has been reached",
                "usage_limit_reached",
                None,
                headers={"x-codex-rate-limit-reached-type": "workspace_owner_credits_depleted"},
                extra={"plan_type": "business"},
            )
        ],
        family="billing",
        description="429 usage_limit_reached with x-codex-rate-limit-reached-type: "
        "workspace_owner_credits_depleted: 'Your workspace is out of credits. Add credits to "
        "continue.'",
    )
    yield Case(
        cli,
        "workspace_spend_cap",
        _paid("workspace_member_usage_limit_reached"),
        lambda c: [
            O.error(
                429,
                "The usage limit has been reached",
                "usage_limit_reached",
                None,
                headers={"x-codex-rate-limit-reached-type": "workspace_member_usage_limit_reached"},
                extra={"plan_type": "business"},
            )
        ],
        family="billing",
        description="the same with workspace_member_usage_limit_reached: 'You hit your spend cap "
        "set by the owner of your workspace. Ask an owner to increase your spend cap ...'",
    )
    yield Case(
        cli,
        "billing_hard_limit",
        _paid("billing_hard_limit_reached"),
        lambda c: [
            O.error(
                429,
                "You have reached your billing hard limit. Raise it in the billing settings to "
                "continue.",
                "invalid_request_error",
                "billing_hard_limit_reached",
            )
        ],
        family="billing",
        description="429 billing_hard_limit_reached: Codex prints only 'exceeded retry limit, "
        "last status: 429 Too Many Requests' (the same words as a rate limit)",
    )
    yield Case(
        cli,
        "payment_required_402",
        _paid("payment_required"),
        lambda c: [
            O.error(
                402,
                "Your credit balance is too low to access the API. Please go to Plans & "
                "Billing to purchase credits.",
                "billing_error",
                "insufficient_balance",
            )
        ],
        family="billing",
        description="402: 'unexpected status 402 Payment Required: <message>', retried once by "
        "the stream loop",
    )

    # -- a structured do-not-retry signal -------------------------------------------------
    yield Case(
        cli,
        "should_retry_false",
        Truth(
            False,
            "server_error",
            "transient",
            "x_should_retry_false: codex drops the header, so the status decides",
        ),
        lambda c: [
            O.error(
                500,
                "The server had an error while processing your request.",
                "server_error",
                None,
                headers={"x-should-retry": "false"},
            )
        ],
        family="do_not_retry",
        description="500 with x-should-retry: false: Codex does not read the header, retries (4 "
        "requests) and fails with the usual 500 words; nothing in the output shows the signal",
    )

    # -- API-side policy refusals -------------------------------------------------------
    yield Case(
        cli,
        "cyber_policy",
        Truth(False, "refusal", "permanent", "cyber_policy"),
        lambda c: [
            O.error(
                400,
                "This request has been flagged for potentially high-risk cyber activity.",
                "invalid_request_error",
                "cyber_policy",
            )
        ],
        family="api_policy",
        description="400 code cyber_policy (CyberPolicy): the body's message only, not retried",
    )

    yield Case(
        cli,
        "cloudflare_blocked_403",
        Truth(False, "permission", "permanent", "cloudflare_blocked"),
        lambda c: [
            Reply(
                403,
                headers={"content-type": "text/html", "cf-ray": "8f1e2d3c4b5a6978-FRA"},
                body="<html><head><title>Attention Required! | Cloudflare</title></head><body>"
                "<h1>Sorry, you have been blocked</h1></body></html>",
                label="403:cloudflare",
            )
        ],
        family="api_policy",
        description="a 403 HTML page that names Cloudflare and 'blocked': Codex's own 'Access "
        "blocked by Cloudflare. This usually happens when connecting from a restricted region "
        "(status 403 Forbidden), ..., cf-ray: ...'",
    )

    # -- context compaction -------------------------------------------------------------
    compact = ["-c", "model_auto_compact_token_limit=1000"]
    compacting = [
        fc("exec_command", {"cmd": "cat README.md"}),
        O.text("Summary: the user asked what README.md says; it was read: a demo project."),
        O.text("The README describes a demo project."),
    ]
    yield Case(
        cli,
        "compaction_success",
        Truth(True, "success", "none", "compaction not reported in JSON mode"),
        lambda c: compacting,
        RunOptions(extra_args=compact),
        family="compaction",
        description="model_auto_compact_token_limit=1000: after the tool call Codex compacts "
        "(a summary request), then answers; the JSONL shows no trace of the compaction",
    )
    yield Case(
        cli,
        "compaction_success_text",
        COMPACTED,
        lambda c: compacting,
        _text(RunOptions(extra_args=compact)),
        family="compaction",
        description="the same in text mode: 'context compacted' on stderr",
    )
    yield Case(
        cli,
        "compaction_context_error_recovered",
        COMPACTED,
        lambda c: [
            fc("exec_command", {"cmd": "cat README.md"}),
            O.response(
                terminal="failed",
                error_code="context_length_exceeded",
                error_message="Your input exceeds the context window of this model.",
            ),
            O.text("Summary: README.md was read: a demo project."),
            O.text("The README describes a demo project."),
        ],
        RunOptions(extra_args=compact),
        family="compaction",
        description="the compaction request itself overflows: 'ERROR codex_core::compact: "
        "Context window exceeded while compacting; removing oldest history item. Error: Codex "
        "ran out of room ...' on stderr, then the retry compacts and the run succeeds",
    )

    # -- no loop detection and no turn cap --------------------------------------------------
    yield Case(
        cli,
        "tool_loop_until_timeout",
        TIMEOUT,
        lambda c: [fc("exec_command", {"cmd": "ls"})],
        stop=Stop("SIGTERM", when_requests=6, hold_s=0.5),
        family="loop",
        description="the model repeats the same command forever: Codex has no loop detector or "
        "turn cap, so only autofix's wall-clock timeout (SIGTERM) ends it",
    )


# ---------------------------------------------------------------------------------------------
# The fresh held-out set (FRESH.txt): written from the coverage table by someone who did not
# tune the verdict, each shape different from the tune cases above (other wording, status,
# flag or env spelling, output mode, tools, more steps). Captured and frozen before any verdict
# change; never tune on these.
# ---------------------------------------------------------------------------------------------

CHECK_SH = "test -f VERSION || { echo 'check: VERSION file missing' >&2; exit 1; }\necho ok\n"
CHECK_PROMPT = "Make check.sh pass."
FIXED_ANSWER = "check.sh passes now: the VERSION file was missing, so I created it."
COMMIT_RULES = (
    "prefix_rule(\n"
    '    pattern = ["git", "commit"],\n'
    '    decision = "forbidden",\n'
    '    justification = "commits are made by the release bot",\n'
    ")\n"
)
CURL_RULES = 'prefix_rule(pattern = ["curl"], decision = "prompt")\n'
# A rollout file that exists for the thread id but is not a rollout (a truncated write).
CORRUPT_THREAD = "0199a213-81c0-7800-8aa1-bbab2a035a99"
CORRUPT_ROLLOUT = (
    f"home/.codex/sessions/2026/11/20/rollout-2026-11-20T10-00-00-{CORRUPT_THREAD}.jsonl"
)
EXITING_MCP = (
    "[mcp_servers.tickets]\n"
    'command = "sh"\n'
    'args = ["-c", "echo tickets-mcp: TICKETS_TOKEN is not set >&2; exit 3"]\n'
    "required = true\n"
)
HANGING_MCP_ARGS = [
    "-c",
    'mcp_servers.search.command="sleep"',
    "-c",
    'mcp_servers.search.args=["30"]',
    "-c",
    "mcp_servers.search.startup_timeout_sec=2",
]


def _usage_limit(c: Context, plan: str, seconds: int, message: str) -> Reply:
    return O.error(
        429,
        message,
        "usage_limit_reached",
        None,
        extra={
            "plan_type": plan,
            "resets_at": int(c.now) + seconds,
            "resets_in_seconds": seconds,
        },
    )


def _workspace_limit(reached_type: str, plan: str) -> Reply:
    return O.error(
        429,
        "The usage limit has been reached",
        "usage_limit_reached",
        None,
        headers={"x-codex-rate-limit-reached-type": reached_type},
        extra={"plan_type": plan},
    )


def codex_fresh_cases() -> Iterator[Case]:
    cli = "codex"
    fc = O.function_call

    def case(
        name: str,
        family: str,
        truth: Truth,
        build: Callable[[Context], Sequence[Reply]],
        options: RunOptions | None = None,
        **kw: Any,
    ) -> Case:
        return Case(
            cli, name, truth, build, options or RunOptions(), family=family, fresh=True, **kw
        )

    # -- debug and log switches on runs that succeed ------------------------------------------
    yield case(
        "debug_module_filter_tool",
        "debug_output",
        SUCCESS,
        lambda c: [
            fc("exec_command", {"cmd": "head -n 3 README.md"}),
            O.text("README.md starts with the title 'demo project'."),
        ],
        RunOptions(
            prompt="What is the README's title?",
            extra_env={"RUST_LOG": "codex_core=trace,codex_exec=debug"},
        ),
        description="RUST_LOG with a per-module filter (codex_core=trace,codex_exec=debug): "
        "TRACE/DEBUG/INFO/WARN tracing lines (incl. the plugin-sync WARN ... error=...) on "
        "stderr around a tool call and a JSONL success",
    )
    yield case(
        "debug_warn_text_retry",
        "debug_output",
        SUCCESS,
        lambda c: [O.error(503, "upstream request timeout", "server_error", None), O.text("pong")],
        RunOptions(output_format="text", extra_env={"RUST_LOG": "warn"}),
        description="text mode with RUST_LOG=warn: WARN plugin-sync lines (error=...) among "
        "the banner and transcript; a 503 is retried silently (request retry, no Reconnecting "
        "line), then the answer on stdout, exit 0",
    )

    # -- tool errors the agent recovered from ------------------------------------------------
    yield case(
        "two_failed_commands_then_answer",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("exec_command", {"cmd": "ls docs"}),
            fc("exec_command", {"cmd": "grep -rn TODO src"}),
            fc("exec_command", {"cmd": "grep -n TODO README.md || true"}),
            O.text("There are no TODOs: no docs/ or src/ directory, and README.md has none."),
        ],
        RunOptions(prompt="Find the TODOs in this project."),
        description="two commands fail (exit 2 each, command_execution status failed), the "
        "third works, the agent answers: turn.completed, exit 0",
    )
    yield case(
        "failing_check_fixed",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("exec_command", {"cmd": "sh check.sh"}),
            fc("exec_command", {"cmd": "echo 1.0.0 > VERSION"}),
            fc("exec_command", {"cmd": "sh check.sh"}),
            O.text(FIXED_ANSWER),
        ],
        RunOptions(
            prompt=CHECK_PROMPT,
            extra_args=["--sandbox", "workspace-write"],
            files={"work/check.sh": CHECK_SH},
        ),
        description="--sandbox workspace-write: check.sh fails (exit 1, 'VERSION file "
        "missing'), the agent writes VERSION, the rerun passes, the answer",
    )

    # -- output modes and answers ---------------------------------------------------------
    yield case(
        "text_whitespace_answer",
        "text_mode",
        EMPTY,
        lambda c: [O.text("\n\n   \n")],
        TEXT,
        description="text mode, a completed message of blank lines: exit 0, stdout only "
        "whitespace, the 'codex' block on stderr is blank",
    )
    yield case(
        "schema_empty_answer",
        "success",
        EMPTY,
        lambda c: [O.response()],
        RunOptions(prompt=JSON_PROMPT, json_schema=SCHEMA),
        description="--output-schema and a completed response without any message: "
        "turn.completed with no agent_message, exit 0",
    )

    # -- sessions --------------------------------------------------------------------------
    yield case(
        "resume_corrupt_rollout",
        "missing_session",
        _config("unresumable_session"),
        lambda c: [O.text("pong")],
        RunOptions(
            extra_args=["resume", CORRUPT_THREAD],
            files={CORRUPT_ROLLOUT: 'not json at all\n{"truncated": \n'},
        ),
        description="exec resume <id> whose rollout file exists but is garbage: 'Error: "
        "thread/resume: thread/resume failed: failed to read thread: thread-store internal "
        "error: failed to read session metadata ...' on stderr, exit 1, no JSONL",
    )
    yield case(
        "resume_missing_session_text",
        "missing_session",
        _config("missing_session"),
        lambda c: [O.text("pong")],
        _text(RunOptions(extra_args=["resume", "01a21990-0000-7000-8000-0000deadbeef"])),
        description="text mode, exec resume <uuid> nobody recorded: only 'Error: thread/resume: "
        "... no rollout found for thread id ...' on stderr, exit 1",
    )

    # -- MCP servers at start-up -------------------------------------------------------------
    yield case(
        "mcp_required_exits",
        "mcp_startup",
        _config("mcp_required_failed"),
        lambda c: [O.text("pong")],
        RunOptions(files={"home/.codex/config.toml": EXITING_MCP}),
        description="a required MCP server that starts and exits 3 at once: 'ERROR "
        "codex_core::session: ... required MCP servers failed to initialize: tickets: "
        "handshaking with MCP server failed: ...' and 'Error: thread/start: ...', exit 1",
    )
    yield case(
        "mcp_required_timeout_cli",
        "mcp_startup",
        _config("mcp_required_failed"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=[*HANGING_MCP_ARGS, "-c", "mcp_servers.search.required=true"]),
        description="a required MCP server given by -c overrides that never answers the "
        "handshake (startup_timeout_sec=2): '... search: timed out handshaking with MCP server "
        "after 2s ...', exit 1",
    )
    yield case(
        "mcp_optional_timeout",
        "mcp_startup",
        Truth(True, "success", "none", "an optional MCP server's timeout is reported nowhere"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=HANGING_MCP_ARGS),
        description="the same hanging server without required: the run does not wait for it "
        "and answers; nothing in JSONL or on stderr tells of the server",
    )

    # -- invalid configuration and the command line ------------------------------------------
    yield case(
        "config_duplicate_key",
        "invalid_config",
        _config("invalid_config_toml"),
        lambda c: [O.text("pong")],
        RunOptions(
            files={
                "home/.codex/config.toml": (
                    'model = "gpt-5.5"\nmodel_reasoning_effort = "high"\nmodel = "gpt-5.4"\n'
                )
            }
        ),
        description="config.toml sets model twice: 'Error loading config.toml:' / "
        "'<path>:3:1: duplicate key' and a caret excerpt on stderr, exit 1",
    )
    yield case(
        "output_schema_not_json",
        "invalid_config",
        _config("output_schema_invalid"),
        lambda c: [O.text('{"answer": "pong"}')],
        RunOptions(
            prompt=JSON_PROMPT,
            extra_args=["--output-schema", "answer.schema.json"],
            files={
                "work/answer.schema.json": (
                    '{"type": "object", "properties": {"answer": {"type": "string"}},\n'
                )
            },
        ),
        description="--output-schema naming a truncated JSON file: 'Output schema file "
        "answer.schema.json is not valid JSON: EOF while parsing ...', exit 1",
    )
    yield case(
        "unknown_flag_approval_mode",
        "bad_flag",
        _config("unknown_flag"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["--approval-mode", "never"]),
        description="gemini's --approval-mode given to codex exec: \"error: unexpected argument "
        "'--approval-mode' found\", a tip and the usage, exit 2",
    )
    yield case(
        "cd_missing_dir",
        "bad_flag",
        _config("invalid_flag_value"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["-C", "/nonexistent/checkout"]),
        description="-C naming a directory that does not exist: only 'Error: No such file or "
        "directory (os error 2)' on stderr, exit 1",
    )

    # -- sandbox and policy denials ------------------------------------------------------------
    yield case(
        "sandbox_default_write_undone",
        "sandbox_denial",
        Truth(
            False,
            "permission",
            "permanent",
            "default read-only sandbox; the denial leaves no trace",
            shown=False,
        ),
        lambda c: [
            fc("exec_command", {"cmd": "echo '- fix the build' >> CHANGELOG.md"}),
            O.text("I could not append to CHANGELOG.md: writing is not permitted here."),
        ],
        RunOptions(prompt="Append '- fix the build' to CHANGELOG.md."),
        description="no --sandbox flag (exec's default read-only sandbox): the append is "
        "refused, no command item reaches the JSONL, the agent says it could not; exit 0",
    )
    yield case(
        "escalation_rejected_worked_around",
        "sandbox_denial",
        DENIED_OK,
        lambda c: [
            fc(
                "exec_command",
                {
                    "cmd": "mkdir -p .cache && cp README.md .cache/",
                    "sandbox_permissions": "require_escalated",
                    "justification": "cache the README outside the sandbox",
                },
            ),
            fc("exec_command", {"cmd": "head -n 1 README.md"}),
            O.text("The README's title is 'demo project'."),
        ],
        RunOptions(prompt="What is the README's title?"),
        description="the agent asks for an unsandboxed run, exec's approval policy never "
        "rejects it ('ERROR codex_core::tools::router: error=approval policy is Never; reject "
        "command ...' on stderr), the agent reads the file another way and answers",
    )
    yield case(
        "policy_forbidden_commit_undone",
        "policy_denial",
        DENIED_UNDONE,
        lambda c: [
            fc("exec_command", {"cmd": "git commit -am 'docs: update README'"}),
            O.text("I could not commit: a rule here forbids git commit."),
        ],
        RunOptions(
            prompt="Commit the README change.",
            files={"home/.codex/rules/default.rules": COMMIT_RULES},
        ),
        description="an execpolicy rule forbids git commit: 'ERROR codex_core::tools::router: "
        "... Rejected(... rejected: commits are made by the release bot)' on stderr, the task "
        "is left undone, turn.completed, exit 0",
    )
    yield case(
        "policy_prompt_curl_worked_around",
        "policy_denial",
        DENIED_OK,
        lambda c: [
            fc("exec_command", {"cmd": "curl -s https://example.com/docs.txt"}),
            fc("exec_command", {"cmd": "cat README.md"}),
            O.text("I could not fetch the docs, but README.md says this is a demo project."),
        ],
        RunOptions(
            prompt="Summarise the project docs.",
            files={"home/.codex/rules/network.rules": CURL_RULES},
        ),
        description="a rules file (network.rules) says prompt for curl; exec cannot ask: "
        "'Rejected(\"approval required by policy, but AskForApproval is set to Never\")' on "
        "stderr, the agent reads the README instead and answers",
    )

    # -- rate and usage limits --------------------------------------------------------------
    yield case(
        "rate_limit_in_stream",
        "rate_limit",
        RATE,
        lambda c: [
            O.response(
                terminal="failed",
                error_code="rate_limit_exceeded",
                error_message="Rate limit reached for gpt-5.5 on tokens per min (TPM): Limit "
                "30000, Used 30000, Requested 900. Please try again in 1.5s.",
            )
        ],
        description="HTTP 200 then response.failed rate_limit_exceeded 'try again in 1.5s', "
        "every time: one reconnect, then turn.failed 'rate limit exceeded: ...', exit 1",
    )
    yield case(
        "text_usage_limit_reset",
        "usage_limit",
        USAGE,
        lambda c: [
            _usage_limit(c, "pro", 2700, "You have reached your Codex usage limit for this period.")
        ],
        TEXT,
        description="text mode, 429 usage_limit_reached (plan pro, resets in 45 min): 'ERROR: "
        "You've hit your usage limit. Visit ... to purchase more credits or try again at "
        "<local time>.' twice on stderr, exit 1",
    )

    # -- credit, billing and spend limits -------------------------------------------------
    yield case(
        "workspace_member_credits_depleted",
        "billing",
        _paid("workspace_member_credits_depleted"),
        lambda c: [_workspace_limit("workspace_member_credits_depleted", "enterprise")],
        description="x-codex-rate-limit-reached-type: workspace_member_credits_depleted: "
        "turn.failed 'Your workspace is out of credits. Ask your workspace owner to refill in "
        "order to continue.'",
    )
    yield case(
        "workspace_owner_spend_cap",
        "billing",
        _paid("workspace_owner_usage_limit_reached"),
        lambda c: [_workspace_limit("workspace_owner_usage_limit_reached", "business")],
        description="x-codex-rate-limit-reached-type: workspace_owner_usage_limit_reached: "
        "turn.failed 'You hit your spend cap set in your workspace. Increase your spend cap to "
        "continue.'",
    )
    yield case(
        "payment_required_text",
        "billing",
        _paid("payment_required"),
        lambda c: [
            O.error(
                402,
                "Your organization has no remaining prepaid credits. Add credits at "
                "https://platform.openai.com/settings/organization/billing.",
                "insufficient_balance",
                "billing_not_active",
            )
        ],
        TEXT,
        description="text mode, 402 with a prepaid-credits message: 'ERROR: Reconnecting... "
        "1/1', then 'ERROR: unexpected status 402 Payment Required: ...' twice, exit 1",
    )

    # -- a do-not-retry signal, server and transport errors -------------------------------
    yield case(
        "should_retry_false_503_text",
        "do_not_retry",
        Truth(
            False,
            "server_error",
            "transient",
            "x_should_retry_false: codex drops the header, so the status decides",
        ),
        lambda c: [
            O.error(
                503,
                "The service is temporarily unable to serve this request for this organization.",
                "server_error",
                None,
                headers={"x-should-retry": "false"},
            )
        ],
        TEXT,
        description="text mode, 503 with x-should-retry: false: Codex ignores the header, "
        "retries (ERROR: Reconnecting...) and ends with 'ERROR: unexpected status 503 Service "
        "Unavailable: ...' twice, exit 1",
    )
    yield case(
        "error_event_mid_stream",
        "server_error",
        SERVER,
        lambda c: [
            O.stream_error_event(
                "internal_error",
                "The server had an error processing your request. Sorry about that! You can "
                "retry your request.",
                partial="Checking",
            )
        ],
        description="HTTP 200, partial text, then a bare error event (internal_error) and no "
        "terminal event: an agent_message 'Checking', a reconnect, the same again, turn.failed "
        "'stream disconnected before completion: stream closed before response.completed'",
    )
    yield case(
        "text_overloaded_503",
        "overloaded",
        OVERLOADED,
        lambda c: [
            O.error(
                503,
                "The engine is currently overloaded, please try again later.",
                "server_error",
                "server_is_overloaded",
            )
        ],
        TEXT,
        description="text mode, HTTP 503 code server_is_overloaded: 'ERROR: Selected model is "
        "at capacity. Please try a different model.' twice on stderr, exit 1",
    )
    yield case(
        "stream_idle_timeout",
        "connection",
        Truth(False, "connection", "transient", "cli_stream_idle_timeout"),
        lambda c: [O.text("Partial answer here and then", stall_after=6)],
        RunOptions(extra_args=["-c", "model_providers.autofix.stream_idle_timeout_ms=1500"]),
        description="the stream stalls after a few events; the provider's idle timeout (1.5 s) "
        "fires twice: turn.failed 'stream disconnected before completion: idle timeout waiting "
        "for SSE', exit 1",
    )
    yield case(
        "text_max_tokens_partial",
        "max_tokens",
        MAX_TOKENS,
        lambda c: [
            O.text(
                "The three steps are: first, install the package; second,",
                terminal="incomplete",
                incomplete_reason="max_output_tokens",
            )
        ],
        _text(RunOptions(prompt="List the three setup steps.")),
        description="text mode, partial text then response.incomplete max_output_tokens: the "
        "partial 'codex' block and 'ERROR: Incomplete response returned, reason: "
        "max_output_tokens' twice on stderr, stdout empty, exit 1",
    )
    yield case(
        "bio_policy_in_stream",
        "api_policy",
        Truth(False, "refusal", "permanent", "bio_policy"),
        lambda c: [
            O.response(
                terminal="failed",
                error_code="bio_policy",
                error_message="This request was blocked under our biological safety policy.",
            )
        ],
        description="response.failed with code bio_policy: turn.failed with the message only, "
        "not retried",
    )
    yield case(
        "text_content_filter",
        "refusal",
        REFUSAL,
        lambda c: [O.response(terminal="incomplete", incomplete_reason="content_filter")],
        _text(RunOptions(prompt="Write the exploit for CVE-2026-0001.")),
        description="text mode, response.incomplete content_filter with no text (retried "
        "once): 'ERROR: stream disconnected before completion: Incomplete response returned, "
        "reason: content_filter' on stderr, exit 1",
    )
    yield case(
        "input_too_long_400",
        "invalid_request",
        Truth(False, "invalid_request", "permanent", "string_above_max_length"),
        lambda c: [
            O.error(
                400,
                "Invalid 'input[0].content[0].text': string too long. Expected a string with "
                "maximum length 10485760, but got a string with length 10485912 instead.",
                "invalid_request_error",
                "string_above_max_length",
            )
        ],
        description="400 string_above_max_length: turn.failed whose message is the raw error "
        "body JSON, not retried",
    )
    yield case(
        "context_after_tool_call",
        "context_window",
        CONTEXT,
        lambda c: [
            fc("exec_command", {"cmd": "cat README.md"}),
            O.response(
                terminal="failed",
                error_code="context_length_exceeded",
                error_message="Your input exceeds the context window of this model.",
            ),
        ],
        description="a tool call succeeds, the next request overflows (response.failed "
        "context_length_exceeded): turn.failed 'Codex ran out of room in the model's context "
        "window. ...'",
    )

    # -- compaction -----------------------------------------------------------------------
    yield case(
        "compaction_json_two_tools",
        "compaction",
        Truth(True, "success", "none", "compaction twice, not reported in JSON mode"),
        lambda c: [
            fc("exec_command", {"cmd": "ls -la"}),
            O.text("Checkpoint 1: listed the directory."),
            fc("exec_command", {"cmd": "cat README.md"}),
            O.text("Checkpoint 2: README.md read (a demo project)."),
            O.text("The project has one file, README.md, describing a demo project."),
        ],
        RunOptions(
            prompt="List the project files and say what they are.",
            extra_args=["-c", "model_auto_compact_token_limit=1200"],
        ),
        description="model_auto_compact_token_limit=1200: a compaction after each of two tool "
        "calls (five requests), then the answer; the JSONL shows only the two commands and the "
        "answer",
    )
    yield case(
        "compaction_text_info_log",
        "compaction",
        COMPACTED,
        lambda c: [
            fc("exec_command", {"cmd": "wc -w README.md"}),
            O.text("Checkpoint: README.md has 10 words."),
            O.text("README.md has 10 words."),
        ],
        _text(
            RunOptions(
                prompt="How many words are in README.md?",
                extra_env={"RUST_LOG": "info"},
                extra_args=["-c", "model_auto_compact_token_limit=1500"],
            )
        ),
        description="text mode with RUST_LOG=info: INFO tracing lines, the exec block, "
        "'context compacted' on stderr, the answer on stdout",
    )

    # -- loops, signals, credentials -----------------------------------------------------------
    yield case(
        "loop_alternating_until_timeout",
        "loop",
        TIMEOUT,
        lambda c: [
            fc("exec_command", {"cmd": "git status --short" if i % 2 == 0 else "ls -a"})
            for i in range(60)
        ],
        stop=Stop("SIGTERM", when_requests=8, hold_s=0.5),
        description="the model alternates two commands (git status fails with 128, ls works) "
        "forever; nothing in Codex stops it: SIGTERM from autofix's wall-clock timeout",
    )
    yield case(
        "cancelled_during_command",
        "cancelled",
        CANCELLED,
        lambda c: [fc("exec_command", {"cmd": "sleep 20"}), O.text("done")],
        RunOptions(prompt="Wait for the build to finish."),
        stop=Stop("SIGINT", when_stdout_has='"status":"in_progress"', hold_s=0.5),
        description="SIGINT while a command runs: the last event is the command's "
        "item.started, exit 1",
    )
    yield case(
        "env_key_missing",
        "auth",
        Truth(False, "auth", "permanent", "provider_env_key_unset"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["-c", 'model_providers.autofix.env_key="AUTOFIX_OPENAI_KEY"']),
        description="the provider's env_key names a variable that is not set: turn.failed "
        "'Missing environment variable: `AUTOFIX_OPENAI_KEY`.', no request",
    )
