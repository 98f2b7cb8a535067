"""The gemini scenarios (see agent_apis.scenarios.base for Case, Truth and the shared shapes)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from agent_apis import gemini as G
from agent_apis.clis import RunOptions
from agent_apis.core import Reply
from agent_apis.gemini import CONTINUE_MARKER
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
    MAX_TURNS,
    OVERLOADED,
    PARTIAL,
    PERMISSION,
    QUOTA,
    RATE,
    REFUSAL,
    RESET,
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
# Gemini CLI ↔ Gemini API
# ---------------------------------------------------------------------------------------------

GEMINI_QUOTA_TEXT = (
    "You exceeded your current quota, please check your plan and billing details. For more "
    "information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. "
    "To monitor your current usage, head to: https://ai.dev/usage?tab=rate-limit. \n"
    "* Quota exceeded for metric: {metric}, limit: {limit}, model: gemini-2.5-flash\n"
    "Please retry in {delay}."
)
FREE_REQUESTS = "generativelanguage.googleapis.com/generate_content_free_tier_requests"
FREE_INPUT = "generativelanguage.googleapis.com/generate_content_free_tier_input_token_count"


def _gemini_quota(quota_id: str, metric: str, limit: str, delay: str) -> Reply:
    return G.error(
        429,
        GEMINI_QUOTA_TEXT.format(metric=metric, limit=limit, delay=delay),
        [
            G.help_link(
                "Learn more about Gemini API quotas",
                "https://ai.google.dev/gemini-api/docs/rate-limits",
            ),
            G.quota_failure(quota_id, metric, limit),
            G.retry_info(delay.split(".")[0].rstrip("s") + "s"),
        ],
        label=f"429:{quota_id}",
    )


def _gemini_cut(text: str) -> Reply:
    reply = G.text(text, end=False)
    return replace(reply, stall_after=len(reply.events), label="stall")


def gemini_cases() -> Iterator[Case]:
    cli = "gemini"
    yield Case(cli, "success_text", SUCCESS, lambda c: [G.text("pong")])
    yield Case(
        cli,
        "success_json_fence",
        SUCCESS,
        lambda c: [G.text('```json\n{"answer": "pong"}\n```')],
        RunOptions(prompt=JSON_PROMPT),
    )
    yield Case(
        cli,
        "tool_then_answer",
        SUCCESS,
        lambda c: [
            G.function_call("read_file", {"file_path": "README.md"}),
            G.text("The README describes a demo project."),
        ],
    )
    yield Case(
        cli,
        "auth_invalid_key",
        AUTH,
        lambda c: [
            G.error(
                401,
                "Request had invalid authentication credentials. Expected OAuth 2 access token, "
                "login cookie or other valid authentication credential. See https://developers."
                "google.com/identity/sign-in/web/devconsole-project.",
                [G.error_info("ACCESS_TOKEN_TYPE_UNSUPPORTED")],
            )
        ],
        utility_fails_too=True,
    )
    yield Case(
        cli,
        "auth_invalid_key",
        AUTH,
        lambda c: [
            G.error(
                401,
                "API keys are not supported by this API. Expected OAuth2 access token or other "
                "authentication credentials that assert a principal.",
                [G.error_info("CREDENTIALS_MISSING")],
            )
        ],
        utility_fails_too=True,
        variant=2,
    )
    yield Case(
        cli,
        "auth_bad_key_400",
        AUTH,
        lambda c: [
            G.error(
                400,
                "API key not valid. Please pass a valid API key.",
                [G.error_info("API_KEY_INVALID")],
            )
        ],
        utility_fails_too=True,
    )
    yield Case(
        cli,
        "auth_bad_key_400",
        AUTH,
        lambda c: [
            G.error(
                400,
                "API key expired. Please renew the API key.",
                [G.error_info("API_KEY_INVALID")],
            )
        ],
        utility_fails_too=True,
        variant=2,
    )
    yield Case(cli, "auth_missing", AUTH, lambda c: [G.text("pong")], RunOptions(api_key=None))
    yield Case(
        cli,
        "auth_missing",
        AUTH,
        lambda c: [G.text("pong")],
        RunOptions(api_key=None, settings={"security": {"auth": {"selectedType": None}}}),
        variant=2,
        description="no key and no auth type selected in settings.json",
    )
    yield Case(
        cli,
        "permission_403",
        PERMISSION,
        lambda c: [
            G.error(
                403,
                "Permission denied: Consumer 'api_key:AIzaSyAutofixTestKey000000000000000000' "
                "has been suspended.",
                [G.error_info("CONSUMER_SUSPENDED")],
            )
        ],
        utility_fails_too=True,
    )
    yield Case(
        cli,
        "permission_403",
        PERMISSION,
        lambda c: [
            G.error(
                403,
                "Generative Language API has not been used in project 123456789 before or it is "
                "disabled. Enable it by visiting https://console.developers.google.com/apis/api/"
                "generativelanguage.googleapis.com/overview?project=123456789 then retry.",
                [G.error_info("SERVICE_DISABLED", consumer="projects/123456789")],
            )
        ],
        utility_fails_too=True,
        variant=2,
    )
    yield Case(
        cli,
        "rate_limit_persisting",
        RATE,
        lambda c: [
            _gemini_quota(
                "GenerateRequestsPerMinutePerProjectPerModel-FreeTier", FREE_REQUESTS, "10", "2.1s"
            )
        ],
        utility_fails_too=True,
    )
    yield Case(
        cli,
        "rate_limit_persisting",
        RATE,
        lambda c: [G.error(429, "Resource has been exhausted (e.g. check quota).")],
        utility_fails_too=True,
        variant=2,
        description="the short 429 without details",
    )
    yield Case(
        cli,
        "rate_limit_then_success",
        SUCCESS,
        lambda c: [
            _gemini_quota(
                "GenerateRequestsPerMinutePerProjectPerModel-FreeTier", FREE_REQUESTS, "10", "1s"
            ),
            G.text("pong"),
        ],
    )
    yield Case(
        cli,
        "insufficient_quota",
        QUOTA,
        lambda c: [
            _gemini_quota(
                "GenerateContentInputTokensPerModelPerMinute-FreeTier", FREE_INPUT, "0", "30s"
            )
        ],
        utility_fails_too=True,
        description="'limit: 0': this project has no quota for the model (billing needed)",
    )
    yield Case(
        cli,
        "insufficient_quota",
        QUOTA,
        lambda c: [
            _gemini_quota(
                "GenerateRequestsPerMinutePerProjectPerModel-FreeTier", FREE_REQUESTS, "0", "45s"
            )
        ],
        utility_fails_too=True,
        variant=2,
    )
    yield Case(
        cli,
        "usage_limit",
        USAGE,
        lambda c: [
            _gemini_quota(
                "GenerateRequestsPerDayPerProjectPerModel-FreeTier", FREE_REQUESTS, "250", "3600s"
            )
        ],
        utility_fails_too=True,
        description="the daily quota, with RetryInfo until the reset",
    )
    yield Case(
        cli,
        "usage_limit",
        USAGE,
        lambda c: [
            _gemini_quota(
                "GenerateContentInputTokensPerModelPerDay-FreeTier", FREE_INPUT, "1000000", "7200s"
            )
        ],
        utility_fails_too=True,
        variant=2,
    )
    yield Case(
        cli,
        "server_500",
        SERVER,
        lambda c: [
            G.error(
                500,
                "An internal error has occurred. Please retry or report in https://developers."
                "generativeai.google/guide/troubleshooting",
            )
        ],
        utility_fails_too=True,
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
        utility_fails_too=True,
        variant=2,
    )
    yield Case(
        cli,
        "server_503",
        SERVER,
        lambda c: [G.error(503, "The service is currently unavailable.")],
        utility_fails_too=True,
    )
    yield Case(
        cli,
        "server_503",
        SERVER,
        lambda c: [G.error(504, "Deadline expired before operation could complete.")],
        utility_fails_too=True,
        variant=2,
    )
    yield Case(
        cli,
        "overloaded",
        OVERLOADED,
        lambda c: [G.error(503, "The model is overloaded. Please try again later.")],
        utility_fails_too=True,
    )
    yield Case(
        cli,
        "overloaded",
        OVERLOADED,
        lambda c: [
            G.error(
                429,
                "No capacity available for model gemini-2.5-flash on the server",
                [G.error_info("MODEL_CAPACITY_EXHAUSTED", model="gemini-2.5-flash")],
            )
        ],
        utility_fails_too=True,
        variant=2,
    )
    yield Case(
        cli,
        "server_error_then_success",
        SUCCESS,
        lambda c: [G.error(500, "An internal error has occurred."), G.text("pong")],
    )
    yield Case(
        cli,
        "stream_dropped",
        CONNECTION,
        lambda c: [G.text(PARTIAL + " more text follows here.", drop_after=2)],
    )
    yield Case(
        cli, "stream_dropped", CONNECTION, lambda c: [G.text(PARTIAL, drop_after=0)], variant=2
    )
    yield Case(cli, "connection_refused", CONNECTION, None, timeout_s=25.0)
    yield Case(cli, "connection_refused", CONNECTION, lambda c: [RESET], variant=2)
    yield Case(
        cli,
        "max_tokens_partial",
        MAX_TOKENS,
        lambda c: [G.text(PARTIAL, finish_reason="MAX_TOKENS")],
    )
    yield Case(
        cli,
        "max_tokens_partial",
        MAX_TOKENS,
        lambda c: [
            G.text("def solve():\n    total = 0\n    for item in", finish_reason="MAX_TOKENS")
        ],
        variant=2,
    )
    yield Case(
        cli, "max_tokens_empty", MAX_TOKENS, lambda c: [G.content(finish_reason="MAX_TOKENS")]
    )
    yield Case(
        cli,
        "max_tokens_empty",
        MAX_TOKENS,
        lambda c: [G.content(finish_reason="MAX_TOKENS", model="gemini-2.5-pro")],
        RunOptions(model="gemini-2.5-pro"),
        variant=2,
    )
    yield Case(
        cli,
        "refusal_partial",
        REFUSAL,
        lambda c: [
            G.text(
                PARTIAL, finish_reason="SAFETY", safety_blocked="HARM_CATEGORY_DANGEROUS_CONTENT"
            )
        ],
    )
    yield Case(
        cli,
        "refusal_partial",
        REFUSAL,
        lambda c: [G.text("Sure, the lyrics go like this:", finish_reason="RECITATION")],
        variant=2,
    )
    yield Case(
        cli,
        "refusal_empty",
        REFUSAL,
        lambda c: [
            G.content(finish_reason="SAFETY", safety_blocked="HARM_CATEGORY_DANGEROUS_CONTENT")
        ],
    )
    yield Case(
        cli,
        "refusal_empty",
        REFUSAL,
        lambda c: [G.prompt_blocked("PROHIBITED_CONTENT")],
        variant=2,
        description="the prompt itself blocked: promptFeedback.blockReason, no candidates",
    )
    yield Case(cli, "empty_answer", EMPTY, lambda c: [G.content()])
    yield Case(cli, "empty_answer", EMPTY, lambda c: [G.text("  \n")], variant=2)
    yield Case(
        cli,
        "invalid_model",
        BAD_MODEL,
        lambda c: [
            G.error(
                404,
                "models/gemini-nope is not found for API version v1beta, or is not supported for "
                "generateContent. Call ListModels to see the list of available models and their "
                "supported methods.",
            )
        ],
        RunOptions(model="gemini-nope"),
        utility_fails_too=True,
    )
    yield Case(
        cli,
        "invalid_model",
        BAD_MODEL,
        lambda c: [G.error(400, "* GenerateContentRequest.model: unexpected model name format\n")],
        RunOptions(model="gemini 2.5"),
        utility_fails_too=True,
        variant=2,
    )
    yield Case(
        cli,
        "context_window",
        CONTEXT,
        lambda c: [
            G.error(
                400,
                "The input token count (1234567) exceeds the maximum number of tokens allowed "
                "(1048576).",
            )
        ],
        utility_fails_too=True,
    )
    yield Case(
        cli,
        "context_window",
        CONTEXT,
        lambda c: [
            G.error(
                400,
                "The input token count exceeds the maximum number of tokens allowed 1048576.",
            )
        ],
        utility_fails_too=True,
        variant=2,
    )
    yield Case(
        cli,
        "max_turns",
        MAX_TURNS,
        lambda c: [G.function_call("read_file", {"file_path": "README.md"})],
        RunOptions(max_turns=1),
        description="settings model.maxSessionTurns = 1",
    )
    yield Case(
        cli,
        "max_turns",
        MAX_TURNS,
        lambda c: [G.function_call("read_file", {"file_path": "README.md"})],
        RunOptions(max_turns=2),
        variant=2,
    )
    yield from stop_cases(cli, lambda: _gemini_cut(KILL_MARKER))
    yield Case(
        cli,
        "untrusted_workspace",
        CONFIG,
        lambda c: [G.text("pong")],
        RunOptions(trust_workspace=False),
        description="no --skip-trust: headless runs in an untrusted folder exit 55",
    )
    yield Case(
        cli,
        "json_format_success",
        SUCCESS,
        lambda c: [G.text("pong")],
        RunOptions(output_format="json"),
    )
    yield Case(
        cli,
        "json_format_server_error",
        SERVER,
        lambda c: [G.error(500, "An internal error has occurred.")],
        RunOptions(output_format="json"),
        utility_fails_too=True,
    )
    yield from _family_cases()
    yield from gemini_fresh_cases()


# ---------------------------------------------------------------------------------------------
# The exit-path families of docs/agents/gemini.md "Every exit path in the source" (variant 1)
# ---------------------------------------------------------------------------------------------

MISSING_SESSION = Truth(False, "config", "permanent", "missing_session")
INVALID_SETTINGS = Truth(False, "config", "permanent", "invalid_settings")
BAD_FLAG = Truth(False, "config", "permanent", "bad_flag")
SANDBOX_MISSING = Truth(False, "config", "permanent", "sandbox_unavailable")
BILLING = Truth(False, "quota_exhausted", "permanent", "billing")
LOOP = Truth(False, "loop_detected", "invalid_output", warnings=("loop_detected",))
DENIED_BUT_ANSWERED = Truth(True, "success", "none", warnings=("denied_tool",))
DENIED_TASK_UNDONE = Truth(False, "permission", "permanent", shown=False, warnings=("denied_tool",))
MCP_FAILED = Truth(True, "success", "none", warnings=("mcp_server_failed",))
GEMINI_WINDOW = 1_048_576  # tokenLimit() of the gemini-2.5 models
MISSING_FILE = "notes/missing.txt"
POLICY_DENY_SECRET = """\
[[rule]]
toolName = "read_file"
argsPattern = "secret"
decision = "deny"
priority = 500
denyMessage = "Reading secret files is not allowed here."
"""
# An MCP server that never answers `initialize` (stdio), and one whose command does not exist.
HANGING_MCP = {"command": "sleep", "args": ["30"], "timeout": 2000}
MISSING_MCP = {"command": "/nonexistent/bin/autofix-mcp-server", "args": ["--stdio"]}


def _mcp_settings(server: dict[str, object]) -> dict[str, object]:
    return {"mcpServers": {"autofix-tools": server}}


def _quota_429(message: str, details: list[dict[str, object]], label: str) -> Reply:
    return G.error(429, message, details, label=label)


def _family_cases() -> Iterator[Case]:
    cli = "gemini"
    pong = [G.text("pong")]

    # -- debug and log switches: diagnostics on stderr, the structured result says success ----
    yield Case(
        cli,
        "debug_flag_success",
        SUCCESS,
        lambda c: pong,
        RunOptions(extra_args=("--debug",)),
        family="debug_output",
        description="--debug: console.log/debug of the CLI go to stderr; the answer is pong",
    )
    yield Case(
        cli,
        "debug_env_success",
        SUCCESS,
        lambda c: pong,
        RunOptions(extra_env={"DEBUG": "1"}),
        family="debug_output",
        description="DEBUG=1 in the environment (isDebugMode reads DEBUG / DEBUG_MODE = 1|true)",
    )

    yield Case(
        cli,
        "text_raw_output_warning",
        SUCCESS,
        lambda c: pong,
        RunOptions(output_format="text", extra_args=("--raw-output",)),
        family="debug_output",
        description="text mode with --raw-output: '[WARNING] --raw-output is enabled...' on "
        "stderr, the answer on stdout",
    )

    # -- a tool failed, the agent recovered and answered --------------------------------------
    yield Case(
        cli,
        "tool_error_then_answer",
        SUCCESS,
        lambda c: [
            G.function_call("read_file", {"file_path": MISSING_FILE}),
            G.text("The notes file does not exist; the README is the only document. pong"),
        ],
        family="recovered_tool_error",
        description="read_file of a missing file (tool_result error, 'Error executing tool "
        "read_file' on stderr), then the answer",
    )
    yield Case(
        cli,
        "shell_exit_1_then_answer",
        SUCCESS,
        lambda c: [
            G.function_call(
                "run_shell_command",
                {"command": f"cat {MISSING_FILE}", "description": "Show the notes"},
            ),
            G.text("The notes file is missing (cat exited 1). pong"),
        ],
        RunOptions(extra_args=("--approval-mode", "yolo")),
        family="recovered_tool_error",
        description="--approval-mode yolo; a shell command that exits 1, then the answer",
    )

    # -- text and json output modes ------------------------------------------------------------
    yield Case(
        cli,
        "text_success",
        SUCCESS,
        lambda c: pong,
        RunOptions(output_format="text"),
        family="text_output",
    )
    yield Case(
        cli,
        "text_empty_answer",
        EMPTY,
        lambda c: [G.content()],
        RunOptions(output_format="text"),
        family="text_output",
        description="no text at all: '[ERROR] The model returned an empty response' on stderr, "
        "nothing on stdout, exit 0",
    )
    yield Case(
        cli,
        "text_server_error",
        SERVER,
        lambda c: [G.error(500, "An internal error has occurred.")],
        RunOptions(output_format="text"),
        utility_fails_too=True,
        family="text_output",
    )
    yield Case(
        cli,
        "text_usage_limit",
        USAGE,
        lambda c: [
            _gemini_quota(
                "GenerateRequestsPerDayPerProjectPerModel-FreeTier", FREE_REQUESTS, "250", "3600s"
            )
        ],
        RunOptions(output_format="text"),
        utility_fails_too=True,
        family="text_output",
    )
    yield Case(
        cli,
        "text_max_turns",
        MAX_TURNS,
        lambda c: [G.function_call("read_file", {"file_path": "README.md"})],
        RunOptions(output_format="text", max_turns=1),
        family="text_output",
    )
    yield Case(
        cli,
        "json_empty_answer",
        EMPTY,
        lambda c: [G.content()],
        RunOptions(output_format="json"),
        family="json_output",
        description="the json object on stdout with response '' and error INVALID_STREAM, exit 0",
    )
    yield Case(
        cli,
        "json_usage_limit",
        USAGE,
        lambda c: [
            _gemini_quota(
                "GenerateRequestsPerDayPerProjectPerModel-FreeTier", FREE_REQUESTS, "250", "3600s"
            )
        ],
        RunOptions(output_format="json"),
        utility_fails_too=True,
        family="json_output",
    )
    yield Case(
        cli,
        "json_max_turns",
        MAX_TURNS,
        lambda c: [G.function_call("read_file", {"file_path": "README.md"})],
        RunOptions(output_format="json", max_turns=1),
        family="json_output",
    )

    # -- setup failures ------------------------------------------------------------------------
    yield Case(
        cli,
        "resume_missing_session",
        MISSING_SESSION,
        lambda c: pong,
        RunOptions(extra_args=("--resume", "3f1c2a9e-0000-4000-8000-00000000dead")),
        family="missing_session",
        description="--resume with a session id this project never had: exit 42",
    )
    yield Case(
        cli,
        "session_file_missing",
        MISSING_SESSION,
        lambda c: pong,
        RunOptions(extra_args=("--session-file", "/nonexistent/autofix-session.json")),
        family="missing_session",
        description="--session-file naming no file: exit 42",
    )
    yield Case(
        cli,
        "resume_latest_no_sessions",
        SUCCESS,
        lambda c: pong,
        RunOptions(extra_args=("--resume", "latest")),
        family="missing_session",
        description="--resume latest with no session yet: a warning on stderr, a new session, "
        "the answer",
    )
    yield Case(
        cli,
        "settings_invalid_json",
        INVALID_SETTINGS,
        lambda c: pong,
        RunOptions(files={"work/.gemini/settings.json": '{"model": {"name": "gemini-2.5-flash",}'}),
        family="invalid_settings",
        description="a workspace settings.json that is not JSON: FatalConfigError, exit 52",
    )
    yield Case(
        cli,
        "settings_schema_warning",
        SUCCESS,
        lambda c: pong,
        RunOptions(settings={"ui": {"hideBanner": "yes please"}}),
        family="invalid_settings",
        description="a settings value of the wrong type: 'Invalid configuration in ...' on "
        "stderr, the run goes on and answers",
    )
    yield Case(
        cli,
        "unknown_flag",
        BAD_FLAG,
        lambda c: pong,
        RunOptions(extra_args=("--max-turns=3",)),
        family="bad_flag",
        description="a flag gemini does not have (claude's --max-turns): yargs strict mode, "
        "'Unknown arguments', the help text, exit 1",
    )
    yield Case(
        cli,
        "bad_flag_value",
        BAD_FLAG,
        lambda c: pong,
        RunOptions(extra_args=("--approval-mode", "sometimes")),
        family="bad_flag",
        description="a value outside the flag's choices: 'Invalid values', the help text, exit 1",
    )
    yield Case(
        cli,
        "empty_prompt",
        Truth(False, "config", "permanent", "empty_prompt"),
        lambda c: pong,
        RunOptions(prompt=""),
        family="bad_flag",
        description="--prompt= with nothing on stdin: 'No input provided via stdin', exit 42",
    )
    yield Case(
        cli,
        "sandbox_missing",
        SANDBOX_MISSING,
        lambda c: pong,
        RunOptions(extra_env={"GEMINI_SANDBOX": "podman"}),
        family="sandbox",
        description="GEMINI_SANDBOX names a container runtime that is not installed: "
        "FatalSandboxError, exit 44",
    )
    yield Case(
        cli,
        "mcp_server_missing",
        MCP_FAILED,
        lambda c: pong,
        RunOptions(settings=_mcp_settings(MISSING_MCP)),
        family="mcp_server_failed",
        description="settings mcpServers with a command that does not exist: a note on stderr, "
        "the run goes on and answers",
    )
    yield Case(
        cli,
        "debug_mcp_server_missing",
        MCP_FAILED,
        lambda c: pong,
        RunOptions(extra_args=("--debug",), settings=_mcp_settings(MISSING_MCP)),
        family="mcp_server_failed",
        description="the same with --debug: '[MCP error] Error during discovery for MCP server "
        "...' and a stack on stderr, then the answer",
    )
    yield Case(
        cli,
        "mcp_server_timeout",
        MCP_FAILED,
        lambda c: pong,
        RunOptions(settings=_mcp_settings(HANGING_MCP)),
        family="mcp_server_failed",
        description="an MCP server that never answers initialize, timeout 2 s: headless waits for "
        "discovery, then goes on and answers",
    )

    # -- tools denied by policy ------------------------------------------------------------------
    yield Case(
        cli,
        "excluded_tool_then_answer",
        DENIED_BUT_ANSWERED,
        lambda c: [
            G.function_call(
                "run_shell_command", {"command": "ls", "description": "List the files"}
            ),
            G.text("I cannot run shell commands here, but the answer is pong."),
        ],
        family="denied_tool",
        description="headless default approval mode: the non-interactive policy removes "
        "run_shell_command; the model calls it anyway ('Tool \"run_shell_command\" not found'), "
        "then answers",
    )
    yield Case(
        cli,
        "policy_denied_then_answer",
        DENIED_BUT_ANSWERED,
        lambda c: [
            G.function_call("read_file", {"file_path": "secret.txt"}),
            G.text("That file is off limits, but the answer is pong."),
        ],
        RunOptions(files={"home/.gemini/policies/autofix.toml": POLICY_DENY_SECRET}),
        family="denied_tool",
        description="a user policy rule denies read_file of secret*: 'Tool execution denied by "
        "policy.' in the tool result, then the answer",
    )
    yield Case(
        cli,
        "policy_denied_task_undone",
        DENIED_TASK_UNDONE,
        lambda c: [
            G.function_call("read_file", {"file_path": "secret.txt"}),
            G.text("I could not read secret.txt: the policy denies it, so I cannot summarise it."),
        ],
        RunOptions(
            prompt="Summarise secret.txt.",
            files={
                "home/.gemini/policies/autofix.toml": POLICY_DENY_SECRET,
                "work/secret.txt": "the launch code is 0000\n",
            },
        ),
        family="denied_tool",
        description="the denial leaves the task undone; the output is success-shaped",
    )
    yield Case(
        cli,
        "tools_exclude_then_answer",
        DENIED_BUT_ANSWERED,
        lambda c: [
            G.function_call("read_file", {"file_path": "README.md"}),
            G.text("I cannot read files here, but the answer is pong."),
        ],
        RunOptions(settings={"tools": {"exclude": ["read_file"]}}),
        family="denied_tool",
        description="settings tools.exclude removes read_file (a deprecation warning on stderr); "
        "the model calls it anyway, then answers",
    )

    # -- loop detection --------------------------------------------------------------------------
    yield Case(
        cli,
        "loop_tool_calls",
        LOOP,
        lambda c: [G.function_call("read_file", {"file_path": "README.md"})],
        family="loop_detected",
        description="the same read_file call every turn: the 5th identical call triggers a "
        "recovery prompt, the 6th stops the run ('Loop detected, stopping execution')",
    )
    yield Case(
        cli,
        "loop_content",
        LOOP,
        lambda c: [G.text("I will check the configuration file again now. " * 40)],
        family="loop_detected",
        description="one answer chanting the same sentence: content loop, recovery prompt, the "
        "same chant again stops the run",
    )
    yield Case(
        cli,
        "loop_recovered_then_answer",
        SUCCESS,
        lambda c: [
            *[G.function_call("read_file", {"file_path": "README.md"}) for _ in range(5)],
            G.text("pong"),
        ],
        family="loop_detected",
        description="five identical calls: the CLI injects its loop-recovery prompt (nothing on "
        "stdout) and the model answers",
    )

    # -- context: compression and the local overflow check ---------------------------------------
    yield Case(
        cli,
        "compressed_then_answer",
        SUCCESS,
        lambda c: [
            G.text(
                f"Half of the work is done {CONTINUE_MARKER}", prompt_tokens=GEMINI_WINDOW * 6 // 10
            ),
            G.text("pong"),
        ],
        RunOptions(settings={"model": {"skipNextSpeakerCheck": False}}),
        family="compaction",
        description="skipNextSpeakerCheck off: after a turn at 60 % of the window the CLI sends "
        "'Please continue.', compresses the history first (two summary calls), then the answer",
    )
    yield Case(
        cli,
        "context_overflow_local",
        CONTEXT,
        lambda c: [
            G.function_call(
                "read_file", {"file_path": "README.md"}, prompt_tokens=GEMINI_WINDOW - 8
            ),
            G.text("pong"),
        ],
        family="context_window",
        description="the last turn used all but 8 tokens of the window: the CLI's own check "
        "(ContextWindowWillOverflow) ends the turn before sending the tool result",
    )
    yield Case(
        cli,
        "context_overflow_local_exp_agent",
        CONTEXT,
        lambda c: [
            G.function_call(
                "read_file", {"file_path": "README.md"}, prompt_tokens=GEMINI_WINDOW - 8
            ),
            G.text("pong"),
        ],
        RunOptions(extra_env={"GEMINI_CLI_EXP_AGENT": "true"}),
        family="context_window",
        description="the same under GEMINI_CLI_EXP_AGENT=true (the agent-session loop)",
    )

    # -- turn caps -----------------------------------------------------------------------------
    yield Case(
        cli,
        "continuation_turn_cap",
        Truth(False, "max_turns", "permanent", "client_turn_bound", shown=False),
        lambda c: [G.text(f"Step {i} done {CONTINUE_MARKER}") for i in range(1, 102)],
        RunOptions(settings={"model": {"skipNextSpeakerCheck": False}}),
        family="max_turns",
        timeout_s=90.0,
        description="the model keeps saying it will go on: after 100 'Please continue.' turns "
        "the client's own bound (MAX_TURNS) ends the run silently: result success, exit 0",
    )

    # -- billing, credits and terminal quota forms ------------------------------------------------
    yield Case(
        cli,
        "prepayment_depleted",
        BILLING,
        lambda c: [
            _quota_429(
                "Your prepayment credits are depleted. Please go to AI Studio at "
                "https://ai.studio/projects to manage your project and billing.",
                [],
                "429:prepayment",
            )
        ],
        utility_fails_too=True,
        family="billing",
        description="429 RESOURCE_EXHAUSTED with no details: the CLI retries it as a transient "
        "quota error",
    )
    yield Case(
        cli,
        "billing_disabled_403",
        BILLING,
        lambda c: [
            G.error(
                403,
                "This API method requires billing to be enabled. Please enable billing on "
                "project #123456789 by visiting https://console.developers.google.com/billing/"
                "enable?project=123456789 then retry. If you enabled billing for this project "
                "recently, wait a few minutes for the action to propagate to our systems and "
                "retry.",
                [
                    G.error_info(
                        "BILLING_DISABLED", consumer="projects/123456789", containerInfo="123456789"
                    ),
                    G.help_link(
                        "Google developers console billing",
                        "https://console.developers.google.com/billing/enable?project=123456789",
                    ),
                ],
            )
        ],
        utility_fails_too=True,
        family="billing",
    )
    yield Case(
        cli,
        "credits_insufficient",
        BILLING,
        lambda c: [
            _quota_429(
                "Insufficient credits balance to use this model.",
                [
                    G.error_info(
                        "INSUFFICIENT_G1_CREDITS_BALANCE", domain="cloudcode-pa.googleapis.com"
                    )
                ],
                "429:INSUFFICIENT_G1_CREDITS_BALANCE",
            )
        ],
        utility_fails_too=True,
        family="billing",
        description="ErrorInfo INSUFFICIENT_G1_CREDITS_BALANCE: TerminalQuotaError "
        "(isInsufficientCredits), not retried",
    )
    yield Case(
        cli,
        "rate_limit_long_delay",
        RATE,
        lambda c: [
            _gemini_quota(
                "GenerateRequestsPerMinutePerProjectPerModel", FREE_REQUESTS, "15", "600s"
            )
        ],
        utility_fails_too=True,
        family="quota_terminal",
        description="a per-minute quota whose RetryInfo asks for 600 s (> 300 s): "
        "TerminalQuotaError 'Suggested retry after 600s.', not retried",
    )
    yield Case(
        cli,
        "cloudcode_rate_limit_no_delay",
        Truth(
            False,
            "rate_limit",
            "transient",
            "cli_terminal_quota_error: the CLI does not retry it itself",
        ),
        lambda c: [
            _quota_429(
                "Resource has been exhausted (e.g. check quota).",
                [G.error_info("RATE_LIMIT_EXCEEDED", domain="cloudcode-pa.googleapis.com")],
                "429:RATE_LIMIT_EXCEEDED",
            )
        ],
        utility_fails_too=True,
        family="quota_terminal",
        description="the Code Assist form: ErrorInfo RATE_LIMIT_EXCEEDED on cloudcode-pa with no "
        "RetryInfo, which the CLI's classifier makes a TerminalQuotaError: not retried",
    )
    yield Case(
        cli,
        "validation_required_403",
        Truth(False, "auth", "permanent", "account_validation_required"),
        lambda c: [
            G.error(
                403,
                "Verify your account to continue.",
                [
                    G.error_info(
                        "VALIDATION_REQUIRED",
                        domain="cloudcode-pa.googleapis.com",
                        validation_link="https://accounts.google.com/signin/continue?sarp=1",
                    ),
                    G.help_link(
                        "Verify your account", "https://accounts.google.com/signin/continue?sarp=1"
                    ),
                ],
            )
        ],
        utility_fails_too=True,
        family="auth",
        description="403 VALIDATION_REQUIRED (cloudcode-pa): ValidationRequiredError; headless "
        "has no validation handler",
    )
    yield Case(
        cli,
        "capacity_long_retry_delay",
        TIMEOUT,
        lambda c: [
            _quota_429(
                "No capacity available for model gemini-2.5-flash on the server",
                [
                    G.error_info("MODEL_CAPACITY_EXHAUSTED", model="gemini-2.5-flash"),
                    G.retry_info("3600s"),
                ],
                "429:MODEL_CAPACITY_EXHAUSTED+3600s",
            )
        ],
        utility_fails_too=True,
        stop=Stop("SIGTERM", when_requests=1, hold_s=6.0),
        family="capacity_wait",
        description="MODEL_CAPACITY_EXHAUSTED with RetryInfo 3600s: the CLI's silent capacity "
        "retry sleeps the full hour; autofix's timeout (SIGTERM) ends it",
    )
    yield Case(
        cli,
        "session_turns_in_continuation",
        MAX_TURNS,
        lambda c: [G.text(f"Step {i} done {CONTINUE_MARKER}") for i in range(1, 5)],
        RunOptions(max_turns=2, settings={"model": {"skipNextSpeakerCheck": False}}),
        family="max_turns",
        description="maxSessionTurns 2 reached inside the client's 'Please continue.' turns: an "
        "error event 'Maximum session turns exceeded', then result success, exit 0",
    )
    yield Case(
        cli,
        "json_loop_detected",
        LOOP,
        lambda c: [G.function_call("read_file", {"file_path": "README.md"})],
        RunOptions(output_format="json"),
        family="json_output",
        description="tool-call loop in json mode: warnings ['Loop detected, stopping execution']",
    )
    yield Case(
        cli,
        "text_loop_detected",
        Truth(False, "loop_detected", "invalid_output"),
        lambda c: [G.function_call("read_file", {"file_path": "README.md"})],
        RunOptions(output_format="text"),
        family="text_output",
        description="tool-call loop in text mode: the CLI prints nothing about it, exit 0",
    )
    yield Case(
        cli,
        "hook_stops_agent",
        Truth(False, "config", "permanent", "hook_stopped"),
        lambda c: pong,
        RunOptions(settings={"hooks": {"BeforeAgent": [{"hooks": [HOOK_STOP]}]}}),
        family="hooks",
        description="a BeforeAgent hook answers continue=false: no model call, result success "
        "with no answer",
    )
    yield Case(
        cli,
        "hook_blocks_agent",
        Truth(False, "config", "permanent", "hook_blocked"),
        lambda c: pong,
        RunOptions(settings={"hooks": {"BeforeAgent": [{"hooks": [HOOK_BLOCK_PROMPT]}]}}),
        family="hooks",
        description="a BeforeAgent hook answers decision=block: an error event (warning) 'Agent "
        "execution blocked: ...', no model call, result success",
    )
    yield Case(
        cli,
        "hook_blocks_tool_then_answer",
        DENIED_BUT_ANSWERED,
        lambda c: [
            G.function_call("read_file", {"file_path": "README.md"}),
            G.text("The hook blocked the read, but the answer is pong."),
        ],
        RunOptions(
            settings={"hooks": {"BeforeTool": [{"matcher": "read_file", "hooks": [HOOK_BLOCK]}]}}
        ),
        family="hooks",
        description="a BeforeTool hook exits 2: 'Tool execution blocked: ...' (policy_violation), "
        "then the answer",
    )
    yield Case(
        cli,
        "text_hook_stops_agent",
        Truth(False, "config", "permanent", "hook_stopped"),
        lambda c: pong,
        RunOptions(
            output_format="text",
            settings={"hooks": {"BeforeAgent": [{"hooks": [HOOK_STOP]}]}},
        ),
        family="hooks",
        description="the same in text mode: 'Agent execution stopped: <reason>' on stderr, "
        "nothing on stdout, exit 0",
    )


HOOK_STOP = {
    "type": "command",
    "command": 'echo \'{"continue": false, "stopReason": "Change freeze: agents are paused."}\'',
}
HOOK_BLOCK_PROMPT = {
    "type": "command",
    "command": 'echo \'{"decision": "block", "reason": "Prompts must name a ticket."}\'',
}
HOOK_BLOCK = {"type": "command", "command": "echo 'Reads are audited; denied.' >&2; exit 2"}


# ---------------------------------------------------------------------------------------------
# The fresh held-out set (FRESH.txt): written from the coverage table by someone who did not
# tune the verdict, each shape different from the tune cases above (other wording, status,
# flag or env spelling, output mode, tools, more steps). Captured and frozen before any verdict
# change; never tune on these.
# ---------------------------------------------------------------------------------------------

CHECK_SH = "test -f VERSION || { echo 'check: VERSION file missing' >&2; exit 1; }\necho ok\n"
# A project the CLI already knows (projects.json + .project_root), so session files planted in
# its chats/ directory are the ones --resume / --session-id look at.
KNOWN_PROJECT = {
    "home/.gemini/projects.json": '{\n  "projects": {\n    "{WORK}": "work"\n  }\n}\n',
    "home/.gemini/tmp/work/.project_root": "{WORK}",
}
EARLIER_SESSION = "7c0ffee1-0000-4000-8000-000000000001"
SESSION_FILE = "home/.gemini/tmp/work/chats/session-2026-11-20T09-15-7c0ffee1.jsonl"
SESSION_HEAD = (
    f'{{"sessionId":"{EARLIER_SESSION}","projectHash":"0","startTime":"2026-11-20T09:15:00.000Z",'
    '"lastUpdated":"2026-11-20T09:15:00.000Z","kind":"main"}\n'
)
GOOD_SESSION = SESSION_HEAD + (
    '{"id":"10795e24-919f-4424-aeb2-8119cfba45ef","timestamp":"2026-11-20T09:15:01.000Z",'
    '"type":"user","content":[{"text":"Summarise README.md"}]}\n'
    '{"id":"f42f2dea-d72d-45e5-8c0e-65eef5356e98","timestamp":"2026-11-20T09:15:02.000Z",'
    '"type":"gemini","content":"It is a demo project.","thoughts":[],"tokens":{"input":1800,'
    '"output":11,"cached":0,"thoughts":0,"tool":0,"total":1811},"model":"gemini-2.5-flash"}\n'
)
# The same session cut off mid-write (a crash, a full disk): the file is no longer a session.
CORRUPT_SESSION = SESSION_HEAD + '{"$set":{"messages":[{"id":"a","type":"user","content":[{"te\n'
SHELL_DENY_POLICY = """\
[[rule]]
toolName = "run_shell_command"
commandPrefix = "rm"
decision = "deny"
priority = 900
denyMessage = "Deleting files needs a human."
"""
HOOK_DENY_README = {
    "type": "command",
    "command": 'echo \'{"decision": "deny", "reason": "README reads are embargoed until '
    "release.\"}'",
}
HOOK_STOP_AT_TOOL = {
    "type": "command",
    "command": 'echo \'{"continue": false, "stopReason": "Budget window closed for today."}\'',
}


def gemini_fresh_cases() -> Iterator[Case]:
    cli = "gemini"
    fc = G.function_call
    pong = [G.text("pong")]

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

    # -- debug switches on runs that succeed ----------------------------------------------------
    yield case(
        "debug_mode_env_list_dir",
        "debug_output",
        SUCCESS,
        lambda c: [
            fc("list_directory", {"dir_path": "."}),
            G.text("The project has a single file, README.md."),
        ],
        RunOptions(prompt="What files does the project have?", extra_env={"DEBUG_MODE": "true"}),
        description="DEBUG_MODE=true: [DEBUG] [MemoryDiscovery], [PolicyEngine.check], "
        "Experiments loaded, heap size ... on stderr around a list_directory call and the answer",
    )
    yield case(
        "debug_short_flag_json",
        "debug_output",
        SUCCESS,
        lambda c: pong,
        RunOptions(output_format="json", extra_args=("-d",)),
        description="-d with --output-format json: debug lines on stderr, the json object with "
        "response 'pong' on stdout, exit 0",
    )

    # -- tool errors the agent recovered from ----------------------------------------------------
    yield case(
        "two_tool_errors_then_answer",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("read_file", {"file_path": "CHANGELOG.md"}),
            fc("list_directory", {"dir_path": "docs"}),
            fc("read_file", {"file_path": "README.md"}),
            G.text("There is no changelog or docs folder; README.md says this is a demo project."),
        ],
        RunOptions(prompt="What changed in the last release?"),
        description="read_file of a missing file and list_directory of a missing folder both "
        "fail (tool_result error, 'Error executing tool ...' twice on stderr), then a read "
        "works and the agent answers",
    )
    yield case(
        "yolo_check_fixed",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("run_shell_command", {"command": "sh check.sh", "description": "Run the check"}),
            fc("write_file", {"file_path": "VERSION", "content": "1.0.0\n"}),
            fc("run_shell_command", {"command": "sh check.sh", "description": "Run it again"}),
            G.text("check.sh passes now: the VERSION file was missing, so I created it."),
        ],
        RunOptions(
            prompt="Make check.sh pass.", extra_args=("--yolo",), files={"work/check.sh": CHECK_SH}
        ),
        description="--yolo: check.sh exits 1 ('VERSION file missing' in the tool output), the "
        "agent writes VERSION, the rerun passes, the answer",
    )
    yield case(
        "auto_edit_replace_retry",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc(
                "replace",
                {
                    "file_path": "README.md",
                    "old_string": "# Demo Project",
                    "new_string": "# Autofix demo",
                    "instruction": "rename the title",
                },
            ),
            fc("read_file", {"file_path": "README.md"}),
            fc(
                "replace",
                {
                    "file_path": "README.md",
                    "old_string": "# demo project",
                    "new_string": "# Autofix demo",
                    "instruction": "rename the title",
                },
            ),
            G.text("The README title is now 'Autofix demo'."),
        ],
        RunOptions(
            prompt="Rename the README title to 'Autofix demo'.",
            extra_args=("--approval-mode", "auto_edit"),
        ),
        description="--approval-mode auto_edit: the first replace misses (error "
        "edit_no_occurrence_found), the agent reads the file and the second replace works",
    )

    # -- output modes ---------------------------------------------------------------------------
    yield case(
        "text_max_tokens_empty",
        "text_output",
        MAX_TOKENS,
        lambda c: [G.content(finish_reason="MAX_TOKENS")],
        RunOptions(output_format="text", prompt="Write the release notes."),
        description="text mode, MAX_TOKENS with no text (twice): '[ERROR] Model response was "
        "truncated because it exceeded the token limit. ...' on stderr, stdout empty, exit 0",
    )
    yield case(
        "text_auth_expired_401",
        "text_output",
        AUTH,
        lambda c: [
            G.error(
                401,
                "Request had invalid authentication credentials.",
                [G.error_info("ACCESS_TOKEN_EXPIRED")],
            )
        ],
        RunOptions(output_format="text"),
        utility_fails_too=True,
        description="text mode, 401 ACCESS_TOKEN_EXPIRED: 'Error when talking to Gemini API "
        "Full report available at: ...' and 'An unexpected critical error occurred:[object "
        "Object]', exit 1",
    )
    yield case(
        "text_content_loop",
        "text_output",
        Truth(False, "loop_detected", "invalid_output", "text mode prints nothing", shown=False),
        lambda c: [G.text("Now I am going to re-check the build configuration file. " * 30)],
        RunOptions(output_format="text", prompt="Why does the build fail?"),
        description="text mode, a chanting answer: the loop detector stops the run; stdout holds "
        "the repeated sentence, stderr nothing, exit 0",
    )
    yield case(
        "json_rate_limit_region",
        "json_output",
        RATE,
        lambda c: [
            G.error(
                429,
                "Quota exceeded for quota metric 'Generate Content API requests per minute' and "
                "limit 'GenerateContent request limit per minute for a region' of service "
                "'generativelanguage.googleapis.com' for consumer 'project_number:123456789'.",
                [
                    G.error_info(
                        "RATE_LIMIT_EXCEEDED",
                        quota_metric="generativelanguage.googleapis.com/generate_content_requests",
                        quota_limit="GenerateContentRequestsPerMinutePerProjectPerRegion",
                    ),
                    G.retry_info("1s"),
                ],
            )
        ],
        RunOptions(output_format="json"),
        utility_fails_too=True,
        description="json mode, a per-region per-minute 429 with RetryInfo 1s: 'Attempt 1 "
        "failed: ... Retrying after ...ms', then the error object (code 429) on stderr, exit 173",
    )

    # -- sessions ---------------------------------------------------------------------------
    yield case(
        "resume_corrupt_session",
        "missing_session",
        Truth(False, "config", "permanent", "unresumable_session"),
        lambda c: pong,
        RunOptions(
            extra_args=("--resume", EARLIER_SESSION),
            files={**KNOWN_PROJECT, SESSION_FILE: CORRUPT_SESSION},
        ),
        description="--resume <uuid> whose session file was cut off mid-write: 'Error resuming "
        "session: No previous sessions found for this project.', exit 42",
    )
    yield case(
        "session_id_taken",
        "missing_session",
        Truth(False, "config", "permanent", "session_id_exists"),
        lambda c: pong,
        RunOptions(
            extra_args=("--session-id", EARLIER_SESSION),
            files={**KNOWN_PROJECT, SESSION_FILE: GOOD_SESSION},
        ),
        description="--session-id naming a session the project already has: 'Error starting "
        'session: Session ID "..." already exists. ...\', exit 42',
    )

    # -- settings and the command line -------------------------------------------------------
    yield case(
        "user_settings_truncated",
        "invalid_settings",
        INVALID_SETTINGS,
        lambda c: pong,
        RunOptions(
            files={
                "home/.gemini/settings.json": (
                    '{\n  "security": {"auth": {"selectedType": "gemini-api-key"}},\n'
                    '  "general": {"maxAttempts": 2\n'
                )
            }
        ),
        description="the user settings.json (not the workspace one) cut off: 'Error in "
        "<path>: ...' / 'Please fix the configuration file(s) and try again.', exit 52",
    )
    yield case(
        "settings_theme_number_crash",
        "invalid_settings",
        INVALID_SETTINGS,
        lambda c: pong,
        RunOptions(settings={"general": {"vimMode": "on"}, "ui": {"theme": 42}}),
        description="two values of the wrong type: 'Invalid configuration in ...' for "
        "general.vimMode and ui.theme, then 'An unexpected critical error occurred:TypeError: "
        "themeName.endsWith is not a function' and a stack, exit 1",
    )
    yield case(
        "unknown_flag_json_schema",
        "bad_flag",
        BAD_FLAG,
        lambda c: pong,
        RunOptions(extra_args=("--json-schema", '{"type": "object"}')),
        description="claude's --json-schema given to gemini: 'Unknown arguments: json-schema, "
        "jsonSchema' and the help text, exit 1",
    )
    yield case(
        "untrusted_json",
        "untrusted_workspace",
        CONFIG,
        lambda c: pong,
        RunOptions(output_format="json", trust_workspace=False),
        description="json mode without --skip-trust: the untrusted-directory message, exit 55",
    )
    yield case(
        "sandbox_invalid_command",
        "sandbox",
        SANDBOX_MISSING,
        lambda c: pong,
        RunOptions(extra_env={"GEMINI_SANDBOX": "firejail"}),
        description="GEMINI_SANDBOX names an unsupported runtime: 'Invalid sandbox command "
        "'firejail'. Must be one of docker, podman, ...', exit 44",
    )
    yield case(
        "vertex_without_project",
        "auth",
        Truth(False, "auth", "permanent", "vertex_ai_settings_missing"),
        lambda c: pong,
        RunOptions(settings={"security": {"auth": {"selectedType": "vertex-ai"}}}),
        description="auth type vertex-ai with a Gemini key but no GOOGLE_CLOUD_PROJECT / "
        "GOOGLE_CLOUD_LOCATION: 'When using Vertex AI, you must specify either: ...', exit 41",
    )

    # -- MCP servers ---------------------------------------------------------------------------
    yield case(
        "mcp_exits_immediately",
        "mcp_server_failed",
        MCP_FAILED,
        lambda c: pong,
        RunOptions(
            settings=_mcp_settings(
                {
                    "command": "sh",
                    "args": ["-c", "echo 'tickets-mcp: TICKETS_TOKEN is not set' >&2; exit 3"],
                }
            )
        ),
        description="an MCP server that prints an error and exits 3: 'MCP issues detected. Run "
        "/mcp list for status.' on stderr, then the answer",
    )
    yield case(
        "mcp_http_refused",
        "mcp_server_failed",
        MCP_FAILED,
        lambda c: pong,
        RunOptions(
            settings={
                "mcpServers": {"issues": {"httpUrl": "http://127.0.0.1:9/mcp", "timeout": 3000}}
            }
        ),
        description="an HTTP MCP server on a port nobody listens on: the same stderr note, "
        "then the answer",
    )

    # -- denied tools and hooks ---------------------------------------------------------------
    yield case(
        "write_file_denied_undone",
        "denied_tool",
        DENIED_TASK_UNDONE,
        lambda c: [
            fc("write_file", {"file_path": "CHANGELOG.md", "content": "## 1.0.1\n- fix\n"}),
            G.text("I cannot write files in this mode, so CHANGELOG.md was not created."),
        ],
        RunOptions(prompt="Create CHANGELOG.md with a 1.0.1 entry."),
        description="headless default approval mode: write_file is not registered "
        "(tool_not_registered), the agent says it could not; result success, exit 0",
    )
    yield case(
        "policy_flag_shell_denied_yolo",
        "denied_tool",
        DENIED_BUT_ANSWERED,
        lambda c: [
            fc("run_shell_command", {"command": "rm -rf dist", "description": "Clean the build"}),
            fc("read_file", {"file_path": "README.md"}),
            G.text("I was not allowed to delete dist/, but README.md says this is a demo project."),
        ],
        RunOptions(
            prompt="Clean dist/ and tell me what the project is.",
            extra_args=("--yolo", "--policy", "team-policy.toml"),
            files={"work/team-policy.toml": SHELL_DENY_POLICY},
        ),
        description="--yolo with a --policy file denying rm: tool_result policy_violation 'Tool "
        "execution denied by policy. Deleting files needs a human.', then a read and the answer",
    )
    yield case(
        "before_tool_hook_stop",
        "hooks",
        Truth(False, "config", "permanent", "hook_stopped", warnings=("denied_tool",)),
        lambda c: [fc("read_file", {"file_path": "README.md"}), G.text("pong")],
        RunOptions(
            settings={
                "hooks": {"BeforeTool": [{"matcher": "read_file", "hooks": [HOOK_STOP_AT_TOOL]}]}
            }
        ),
        description="a BeforeTool hook answers continue=false: tool_result error "
        "stop_execution 'Agent execution stopped by hook: ...', no answer, result success, exit 0",
    )
    yield case(
        "json_hook_deny_undone",
        "hooks",
        DENIED_TASK_UNDONE,
        lambda c: [
            fc("read_file", {"file_path": "README.md"}),
            G.text("The hook denied reading README.md, so I cannot summarise it."),
        ],
        RunOptions(
            prompt="Summarise README.md.",
            output_format="json",
            settings={
                "hooks": {"BeforeTool": [{"matcher": "read_file", "hooks": [HOOK_DENY_README]}]}
            },
        ),
        description="json mode, a BeforeTool hook answers decision=deny: 'Error executing tool "
        "read_file: Tool execution blocked: ...' on stderr, stats totalFail 1, a response that "
        "says the task was not done, exit 0",
    )

    # -- loops, compression, context, turns ---------------------------------------------------
    yield case(
        "loop_shell_yolo",
        "loop_detected",
        LOOP,
        lambda c: [fc("run_shell_command", {"command": "npm test", "description": "Run tests"})],
        RunOptions(prompt="Fix the failing tests.", extra_args=("--yolo",)),
        description="--yolo, the same failing npm test every turn: 'Loop detected, stopping "
        "execution' (error event, severity warning), result success, exit 0",
    )
    yield case(
        "json_loop_recovered",
        "loop_detected",
        SUCCESS,
        lambda c: [
            *[fc("grep_search", {"pattern": "TODO"}) for _ in range(5)],
            G.text("There are no TODOs in the project."),
        ],
        RunOptions(output_format="json", prompt="Find the TODOs."),
        description="json mode, five identical grep_search calls, the recovery prompt, then "
        "the answer: no warnings in the json object",
    )
    yield case(
        "compression_threshold",
        "compaction",
        SUCCESS,
        lambda c: [
            G.text(
                f"I have read the files; now the summary {CONTINUE_MARKER}",
                prompt_tokens=GEMINI_WINDOW * 3 // 10,
            ),
            G.text("pong"),
        ],
        RunOptions(
            settings={"model": {"skipNextSpeakerCheck": False, "compressionThreshold": 0.2}}
        ),
        description="model.compressionThreshold 0.2, a turn at 30 % of the window, a "
        "'Please continue.' turn: two summary calls compress the history (nothing printed), "
        "then the answer",
    )
    yield case(
        "text_local_overflow",
        "context_window",
        CONTEXT,
        lambda c: [
            fc("read_file", {"file_path": "README.md"}, prompt_tokens=GEMINI_WINDOW - 4),
            G.text("pong"),
        ],
        RunOptions(output_format="text"),
        description="text mode, the CLI's own overflow check ends the turn before the tool "
        "result is sent: stdout empty, stderr only the usual notes, exit 0",
    )
    yield case(
        "json_session_turns",
        "max_turns",
        MAX_TURNS,
        lambda c: [G.text(f"Part {i} written {CONTINUE_MARKER}") for i in range(1, 6)],
        RunOptions(
            output_format="json", max_turns=3, settings={"model": {"skipNextSpeakerCheck": False}}
        ),
        description="json mode, maxSessionTurns 3 reached in the client's 'Please continue.' "
        "turns: response 'Part 1 ... Part 3 ...', warnings ['Maximum session turns exceeded'], "
        "exit 0",
    )

    # -- billing and quota -------------------------------------------------------------------------
    yield case(
        "billing_disabled_json",
        "billing",
        BILLING,
        lambda c: [
            G.error(
                403,
                "Billing account for project 'projects/42' is not found or is closed. Billing "
                "must be enabled for activation of service(s) 'generativelanguage.googleapis.com' "
                "to proceed.",
                [G.error_info("BILLING_DISABLED", consumer="projects/42")],
            )
        ],
        RunOptions(output_format="json"),
        utility_fails_too=True,
        description="json mode, 403 BILLING_DISABLED (closed billing account): the error object "
        "(code 403) on stderr, exit 147",
    )
    yield case(
        "prepayment_text",
        "billing",
        BILLING,
        lambda c: [
            G.error(
                429,
                "Your prepaid credits have been used up. Top up your balance in Google AI Studio "
                "to continue.",
            )
        ],
        RunOptions(output_format="text"),
        utility_fails_too=True,
        description="text mode, a detail-less 429 saying the prepaid credits are used up: "
        "retried once ('Attempt 1 failed with status 429 ...'), then 'An unexpected critical "
        "error occurred', exit 1",
    )
    yield case(
        "retry_delay_900s",
        "quota_terminal",
        RATE,
        lambda c: [
            G.error(
                429,
                "Quota exceeded for metric: generativelanguage.googleapis.com/"
                "generate_content_paid_tier_input_token_count, limit: 4000000, model: "
                "gemini-2.5-flash. Please retry in 900s.",
                [
                    G.quota_failure(
                        "GenerateContentPaidTierInputTokensPerModelPerMinute",
                        "generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count",
                        "4000000",
                    ),
                    G.retry_info("900s"),
                ],
            )
        ],
        utility_fails_too=True,
        description="a paid-tier per-minute token quota with RetryInfo 900s (> 300 s): not "
        "retried, result error, exit 173",
    )
    yield case(
        "capacity_then_success",
        "capacity_wait",
        SUCCESS,
        lambda c: [
            G.error(
                429,
                "Resource exhausted: the model has exhausted your capacity on this model. Please "
                "try again later.",
                [
                    G.error_info("MODEL_CAPACITY_EXHAUSTED", model="gemini-2.5-flash"),
                    G.retry_info("1s"),
                ],
            ),
            G.text("pong"),
        ],
        description="MODEL_CAPACITY_EXHAUSTED with RetryInfo 1s, then an answer: 'Attempt 1 "
        "failed: ... Retrying after ...ms...' on stderr, result success",
    )
    yield case(
        "cancelled_499",
        "api_retry",
        Truth(False, "server_error", "transient", "grpc_cancelled_499"),
        lambda c: [G.error(499, "The operation was cancelled.")],
        utility_fails_too=True,
        description="a persisting 499 CANCELLED from the server: retried once, result error "
        "'[API Error: The operation was cancelled.]', exit 243",
    )
    yield case(
        "exp_agent_empty",
        "exp_agent_session",
        EMPTY,
        lambda c: [G.content()],
        RunOptions(extra_env={"GEMINI_CLI_EXP_AGENT": "true"}),
        description="GEMINI_CLI_EXP_AGENT=true, an empty answer (twice): error event 'The model "
        "returned an empty response ...', result status error, exit 0",
    )
    yield case(
        "sigterm_during_shell",
        "cancelled",
        TIMEOUT,
        lambda c: [
            fc("run_shell_command", {"command": "sleep 30", "description": "Wait for the build"}),
            G.text("done"),
        ],
        RunOptions(prompt="Wait for the build to finish.", extra_args=("--yolo",)),
        stop=Stop("SIGTERM", when_stdout_has='"tool_use"', hold_s=1.0),
        description="autofix's timeout (SIGTERM) while a shell command runs: the last event is "
        "the tool_use, no result, exit 0 (the relaunching parent swallows the signal)",
    )
