"""The claude scenarios (see agent_apis.scenarios.base for Case, Truth and the shared shapes)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from agent_apis import anthropic as A
from agent_apis.clis import RunOptions
from agent_apis.core import Reply
from agent_apis.scenarios.base import (
    AUTH,
    BAD_MODEL,
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
    SCHEMA,
    SERVER,
    SPEND_CAP,
    STRUCTURED,
    SUCCESS,
    USAGE,
    Case,
    clock,
    stop_cases,
)
from agent_apis.scenarios.claude_exits import claude_exit_cases
from agent_apis.scenarios.claude_fresh import claude_fresh_cases

# ---------------------------------------------------------------------------------------------
# Claude Code ↔ Anthropic Messages API
# ---------------------------------------------------------------------------------------------

OAUTH = {"CLAUDE_CODE_OAUTH_TOKEN": "sk-ant-oat01-autofix-test-oauth-token-000000000000"}


def _claude_unified(window: str, seconds: int) -> Reply:
    """The subscription limit of ``window``, resetting ``seconds`` after this answer."""
    short = {"five_hour": "5h", "seven_day": "7d"}[window]
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


def _claude_cut(text: str) -> Reply:
    """Text streamed, then the connection held open without the end of the message."""
    reply = A.message(A.Text(text), end=False)
    return replace(reply, stall_after=len(reply.events), label="stall")


def claude_cases() -> Iterator[Case]:
    cli = "claude"
    schema = RunOptions(prompt=JSON_PROMPT, json_schema=SCHEMA)
    yield Case(cli, "success_text", SUCCESS, lambda c: [A.text("pong")])
    yield Case(
        cli,
        "success_json_fence",
        SUCCESS,
        lambda c: [A.text('```json\n{"answer": "pong"}\n```')],
        RunOptions(prompt=JSON_PROMPT),
    )
    yield Case(
        cli,
        "structured_output",
        SUCCESS,
        lambda c: [A.tool_call("StructuredOutput", {"answer": "pong"}), A.text("Done.")],
        schema,
        description="--json-schema: the model calls the StructuredOutput tool",
    )
    yield Case(
        cli,
        "structured_output_invalid",
        STRUCTURED,
        lambda c: [A.tool_call("StructuredOutput", {"answer": 5})],
        schema,
        description="StructuredOutput input never matches the schema",
    )
    yield Case(
        cli,
        "tool_then_answer",
        SUCCESS,
        lambda c: [
            A.tool_call("Read", {"file_path": str(c.work / "README.md")}, preface="Reading."),
            A.text("The README describes a demo project."),
        ],
    )
    for v, reply in enumerate(
        [
            lambda c: [A.error(401, "invalid x-api-key")],
            lambda c: [
                A.error(
                    401,
                    "OAuth token has expired. Please obtain a new token or refresh your "
                    "existing token.",
                )
            ],
        ],
        1,
    ):
        opts = RunOptions() if v == 1 else RunOptions(api_key=None, extra_env=OAUTH)
        yield Case(cli, "auth_invalid_key", AUTH, reply, opts, variant=v)
    yield Case(cli, "auth_missing", AUTH, lambda c: [A.text("pong")], RunOptions(api_key=None))
    yield Case(
        cli,
        "auth_missing",
        AUTH,
        lambda c: [A.text("pong")],
        RunOptions(api_key=""),
        variant=2,
        description="ANTHROPIC_API_KEY set but empty",
    )
    yield Case(
        cli,
        "permission_403",
        PERMISSION,
        lambda c: [
            A.error(403, "Your API key does not have permission to use the specified resource.")
        ],
    )
    yield Case(
        cli,
        "permission_403",
        PERMISSION,
        lambda c: [A.error(403, "This organization has been disabled.")],
        variant=2,
    )
    yield Case(
        cli,
        "rate_limit_persisting",
        RATE,
        lambda c: [
            A.error(
                429,
                "Number of request tokens has exceeded your per-minute rate limit "
                "(https://docs.claude.com/en/api/rate-limits); see the response headers for "
                "current usage. Please reduce the prompt length or the maximum tokens requested, "
                "or try again later.",
                headers={
                    "retry-after": "2",
                    "anthropic-ratelimit-requests-limit": "50",
                    "anthropic-ratelimit-requests-remaining": "0",
                    "anthropic-ratelimit-requests-reset": clock(c, 2),
                    "anthropic-ratelimit-tokens-limit": "40000",
                    "anthropic-ratelimit-tokens-remaining": "0",
                    "anthropic-ratelimit-tokens-reset": clock(c, 30),
                },
            )
        ],
    )
    yield Case(
        cli,
        "rate_limit_persisting",
        RATE,
        lambda c: [
            A.error(
                429,
                "This request would exceed the rate limit for your organization of 30,000 input "
                "tokens per minute. For details, refer to: https://docs.claude.com/en/api/"
                "rate-limits.",
                headers={
                    "retry-after": "1",
                    "anthropic-ratelimit-input-tokens-limit": "30000",
                    "anthropic-ratelimit-input-tokens-remaining": "0",
                    "anthropic-ratelimit-input-tokens-reset": clock(c, 45),
                },
            )
        ],
        variant=2,
    )
    yield Case(
        cli,
        "rate_limit_then_success",
        SUCCESS,
        lambda c: [
            A.error(429, "Rate limited", headers={"retry-after": "1"}),
            A.text("pong"),
        ],
    )
    yield Case(
        cli,
        "insufficient_quota",
        QUOTA,
        lambda c: [
            A.error(
                400,
                "Your credit balance is too low to access the Anthropic API. Please go to Plans "
                "& Billing to upgrade or purchase credits.",
            )
        ],
    )
    yield Case(
        cli,
        "insufficient_quota",
        QUOTA,
        lambda c: [
            A.error(
                429,
                "You have reached your specified workspace API usage limits. You will regain "
                "access on 2027-01-01 at 00:00 UTC.",
                details={"error_code": "enforced_spend_limit_reached"},
            )
        ],
        variant=2,
        description="the monthly spend limit: a 429 that is not a rate limit",
    )
    yield Case(
        cli,
        "usage_limit",
        USAGE,
        lambda c: [_claude_unified("five_hour", 3 * 3600)],
        RunOptions(api_key=None, extra_env=OAUTH),
        description="subscription (OAuth) 5-hour limit: unified rate-limit headers, rejected",
    )
    yield Case(
        cli,
        "usage_limit",
        USAGE,
        lambda c: [_claude_unified("seven_day", 4 * 86400)],
        RunOptions(api_key=None, extra_env=OAUTH),
        variant=2,
    )
    yield Case(cli, "server_500", SERVER, lambda c: [A.error(500, "Internal server error")])
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
        description="a proxy's HTML 502",
    )
    yield Case(cli, "server_503", SERVER, lambda c: [A.error(503, "Service Unavailable")])
    yield Case(
        cli,
        "server_503",
        SERVER,
        lambda c: [
            A.error(
                504,
                "upstream request timeout",
                error_type="timeout_error",
            )
        ],
        variant=2,
    )
    yield Case(cli, "overloaded", OVERLOADED, lambda c: [A.error(529, "Overloaded")])
    yield Case(
        cli,
        "overloaded",
        OVERLOADED,
        lambda c: [A.stream_error("Working on", "overloaded_error", "Overloaded")],
        variant=2,
        description="HTTP 200, then an SSE error event overloaded_error mid-stream",
    )
    yield Case(
        cli,
        "server_error_then_success",
        SUCCESS,
        lambda c: [A.error(500, "Internal server error"), A.text("pong")],
    )
    yield Case(
        cli,
        "stream_dropped",
        CONNECTION,
        lambda c: [A.text(PARTIAL + " more text follows here.", drop_after=5)],
        description="every attempt (streaming and the non-streaming fallback) is cut",
    )
    yield Case(
        cli,
        "stream_dropped",
        CONNECTION,
        lambda c: [A.text(PARTIAL, drop_after=1)],
        variant=2,
    )
    yield Case(cli, "connection_refused", CONNECTION, None, timeout_s=10.0)
    yield Case(cli, "connection_refused", CONNECTION, lambda c: [RESET], variant=2)
    yield Case(
        cli,
        "max_tokens_partial",
        MAX_TOKENS,
        lambda c: [A.text(PARTIAL, stop_reason="max_tokens")],
    )
    yield Case(
        cli,
        "max_tokens_partial",
        MAX_TOKENS,
        lambda c: [
            A.text("def solve():\n    total = 0\n    for item in", stop_reason="max_tokens")
        ],
        RunOptions(extra_env={"CLAUDE_CODE_MAX_OUTPUT_TOKENS": "4096"}),
        variant=2,
    )
    yield Case(cli, "max_tokens_empty", MAX_TOKENS, lambda c: [A.message(stop_reason="max_tokens")])
    yield Case(
        cli,
        "max_tokens_empty",
        MAX_TOKENS,
        lambda c: [A.message(stop_reason="max_tokens", output_tokens=8192)],
        RunOptions(extra_env={"CLAUDE_CODE_MAX_OUTPUT_TOKENS": "8192"}),
        variant=2,
    )
    yield Case(cli, "refusal_partial", REFUSAL, lambda c: [A.text(PARTIAL, stop_reason="refusal")])
    yield Case(
        cli,
        "refusal_partial",
        REFUSAL,
        lambda c: [A.text("Sure, the first step is", stop_reason="refusal")],
        RunOptions(model="claude-opus-4-1"),
        variant=2,
    )
    yield Case(cli, "refusal_empty", REFUSAL, lambda c: [A.message(stop_reason="refusal")])
    yield Case(
        cli,
        "refusal_empty",
        REFUSAL,
        lambda c: [A.message(stop_reason="refusal")],
        RunOptions(model="claude-haiku-4-5"),
        variant=2,
    )
    yield Case(cli, "empty_answer", EMPTY, lambda c: [A.message()])
    yield Case(cli, "empty_answer", EMPTY, lambda c: [A.text("  \n")], variant=2)
    yield Case(
        cli,
        "invalid_model",
        BAD_MODEL,
        lambda c: [A.error(404, "model: claude-nope-9")],
        RunOptions(model="claude-nope-9"),
    )
    yield Case(
        cli,
        "invalid_model",
        BAD_MODEL,
        lambda c: [A.error(400, "model: Input should be a valid model identifier")],
        RunOptions(model="claude sonnet"),
        variant=2,
    )
    yield Case(
        cli,
        "context_window",
        CONTEXT,
        lambda c: [A.error(400, "prompt is too long: 215000 tokens > 200000 maximum")],
    )
    yield Case(
        cli,
        "context_window",
        CONTEXT,
        lambda c: [
            A.error(
                400,
                "input length and `max_tokens` exceed context limit: 188240 + 32000 > 200000, "
                "decrease input length or `max_tokens` and try again",
            )
        ],
        variant=2,
    )
    yield Case(
        cli,
        "max_turns",
        MAX_TURNS,
        lambda c: [A.tool_call("Read", {"file_path": str(c.work / "README.md")})],
        RunOptions(max_turns=1),
    )
    yield Case(
        cli,
        "max_turns",
        MAX_TURNS,
        lambda c: [A.tool_call("Read", {"file_path": str(c.work / "README.md")})],
        RunOptions(max_turns=2),
        variant=2,
    )
    yield from stop_cases(cli, lambda: _claude_cut(KILL_MARKER))
    for v, budget in enumerate(("0.01", "0.25"), 1):
        yield Case(
            cli,
            "max_budget",
            SPEND_CAP,
            lambda c: [
                A.tool_call("Read", {"file_path": str(c.work / "README.md")}, input_tokens=900_000),
                A.text("done"),
            ],
            RunOptions(extra_args=("--max-budget-usd", budget)),
            variant=v,
            description="claude's own --max-budget-usd cap (error_max_budget_usd)",
        )
    yield Case(
        cli,
        "json_format_success",
        SUCCESS,
        lambda c: [A.text("pong")],
        RunOptions(output_format="json"),
    )
    yield Case(
        cli,
        "json_format_server_error",
        SERVER,
        lambda c: [A.error(500, "Internal server error")],
        RunOptions(output_format="json"),
    )
    yield from claude_exit_cases()
    yield from claude_fresh_cases()
