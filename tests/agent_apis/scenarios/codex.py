"""The codex scenarios (see agent_apis.scenarios.base for Case, Truth and the shared shapes)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from agent_apis import openai as O
from agent_apis.clis import RunOptions
from agent_apis.core import Reply
from agent_apis.scenarios.base import (
    AUTH,
    BAD_MODEL,
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
        Truth(False, "server_error", "permanent", "x_should_retry_false"),
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
