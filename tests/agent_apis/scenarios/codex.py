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
    USAGE,
    Case,
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
