"""The scenario catalogue: every case the real CLIs are run through, with its expected truth.

A :class:`Case` is one (cli, scenario, variant): the scripted server replies, the run options,
how the run is stopped (if it is), and the **truth** — did the run succeed from the user's point
of view, what kind of failure it is and how it should be retried — decided from what the
scenario *is* (a 401 is an auth failure whatever the CLI prints), never from a classifier.

Variant 1 of a scenario is the shape the classifier may be tuned on; variant 2 (failure
scenarios only) is the same failure with other message text, status detail or header values,
kept for the held-out set (tests/fixtures/agent_captures/HELDOUT.txt).

Kinds: autofix's own ``FailureKind`` names where they fit (rate_limit, usage_limit,
server_error, timeout, connection, auth, invalid_request, refusal, max_turns,
structured_output) plus the new ones listed in ``NEW_KINDS``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from agent_apis import anthropic as A
from agent_apis import gemini as G
from agent_apis import openai as O
from agent_apis.clis import RunOptions
from agent_apis.core import Reply, Scenario

RetryClass = Literal["none", "transient", "invalid_output", "permanent"]

# Kinds this catalogue added to autofix's FailureKind (autofix/result.py).
NEW_KINDS: dict[str, str] = {
    "success": "the run succeeded (no failure)",
    "overloaded": "the provider is overloaded (Anthropic 529, Gemini 503 'model is overloaded'); "
    "transient",
    "permission": "403: the key is valid but not allowed (suspended, region, model access); "
    "permanent",
    "quota_exhausted": "the account is out of credit or has no quota (OpenAI "
    "insufficient_quota, Anthropic credit balance / spend limit, Gemini 'limit: 0'); transient: "
    "retried later (issue 12), never autofix's own budget",
    "context_window": "the prompt does not fit the model's context window; permanent",
    "max_tokens": "the answer was cut by the output-token limit; invalid output",
    "empty_answer": "the run ended without any answer text; invalid output",
    "killed": "the process was killed (SIGKILL) from outside; transient",
    "cancelled": "the run was interrupted (SIGINT / exit 130); transient",
    "config": "the CLI refused to start with this setup (untrusted work dir, bad settings); "
    "permanent",
    "spend_cap": "the CLI's own per-run cost cap (claude --max-budget-usd); permanent; not "
    "autofix's budget_exhausted",
}

PROMPT = "Reply with the word pong."
JSON_PROMPT = 'Answer in JSON: {"answer": string}.'
SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
    "additionalProperties": False,
}
KILL_MARKER = "Partial answer before the cut"
STOP_MARKER = "Partial answer"  # what the capture waits for: short enough for one stream chunk


@dataclass(frozen=True)
class Truth:
    succeeded: bool
    kind: str
    retry_class: RetryClass
    detail: str = ""  # a finer label (e.g. "model_not_found") for humans, not a kind


SUCCESS = Truth(True, "success", "none")


@dataclass(frozen=True)
class Context:
    """What a scenario may depend on: the run's work dir and the capture's clock."""

    work: Path
    now: float = field(default_factory=time.time)


@dataclass(frozen=True)
class Stop:
    """How the capture ends the run from outside (the CLI is not allowed to finish)."""

    # SIGTERM stands for autofix's wall-clock timeout: SIGTERM to the group, SIGKILL 2 s later.
    signal: Literal["SIGKILL", "SIGINT", "SIGTERM"]
    when_stdout_has: str | None = None  # as soon as stdout contains this text
    when_requests: int | None = None  # or once the server has received this many model calls
    after_s: float | None = None  # or this long after the start
    hold_s: float = 0.0  # wait this long after the condition holds (a hung request, a stall)


@dataclass(frozen=True)
class Case:
    cli: str
    name: str
    truth: Truth
    build: Callable[[Context], Sequence[Reply]] | None  # None: no server (connection refused)
    options: RunOptions = field(default_factory=RunOptions)
    utility_fails_too: bool = False  # the same error for utility calls (a dead key fails all)
    stop: Stop | None = None
    timeout_s: float = 40.0
    variant: int = 1
    description: str = ""

    @property
    def fixture_name(self) -> str:
        return self.name if self.variant == 1 else f"{self.name}__v{self.variant}"

    @property
    def key(self) -> str:
        return f"{self.cli}/{self.fixture_name}"

    def scenario(self, ctx: Context) -> Scenario | None:
        if self.build is None:
            return None
        replies = list(self.build(ctx))
        utility = replies[-1] if self.utility_fails_too else None
        return Scenario(self.fixture_name, replies, utility=utility, description=self.description)


def _t(kind: str, retry: RetryClass, detail: str = "") -> Truth:
    return Truth(False, kind, retry, detail)


AUTH = _t("auth", "permanent")
PERMISSION = _t("permission", "permanent")
RATE = _t("rate_limit", "transient")
QUOTA = _t("quota_exhausted", "transient")
USAGE = _t("usage_limit", "transient")
SERVER = _t("server_error", "transient")
OVERLOADED = _t("overloaded", "transient")
CONNECTION = _t("connection", "transient")
MAX_TOKENS = _t("max_tokens", "invalid_output")
REFUSAL = _t("refusal", "permanent")
EMPTY = _t("empty_answer", "invalid_output")
BAD_MODEL = _t("invalid_request", "permanent", "model_not_found")
CONTEXT = _t("context_window", "permanent")
MAX_TURNS = _t("max_turns", "permanent")
KILLED = _t("killed", "transient")
TIMEOUT = _t("timeout", "transient")
CANCELLED = _t("cancelled", "transient")
STRUCTURED = _t("structured_output", "invalid_output")
CONFIG = _t("config", "permanent", "untrusted_workspace")
SPEND_CAP = _t("spend_cap", "permanent", "cli_max_budget_usd")
PARTIAL = "Here is the first part of the answer, and then"
HANG = Reply(hang=True, label="hang")
RESET = Reply(reset=True, label="reset")


def _clock(ctx: Context, seconds: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ctx.now + seconds))


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
                    "anthropic-ratelimit-requests-reset": _clock(c, 2),
                    "anthropic-ratelimit-tokens-limit": "40000",
                    "anthropic-ratelimit-tokens-remaining": "0",
                    "anthropic-ratelimit-tokens-reset": _clock(c, 30),
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
                    "anthropic-ratelimit-input-tokens-reset": _clock(c, 45),
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
    yield from _stop_cases(cli, lambda: _claude_cut(KILL_MARKER))
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


def _stop_cases(cli: str, cut: Callable[[], Reply]) -> Iterator[Case]:
    """killed, timeout and cancelled: the same three shapes for every CLI."""
    yield Case(
        cli,
        "killed",
        KILLED,
        lambda c: [cut()],
        stop=Stop("SIGKILL", when_stdout_has=STOP_MARKER),
        description="SIGKILL to the process group once partial text is on stdout",
    )
    yield Case(
        cli,
        "killed",
        KILLED,
        lambda c: [HANG],
        stop=Stop("SIGKILL", when_requests=1),
        variant=2,
        description="SIGKILL while the request is still unanswered",
    )
    yield Case(
        cli,
        "timeout",
        TIMEOUT,
        lambda c: [HANG],
        stop=Stop("SIGTERM", when_requests=1, hold_s=2.0),
        description="the server never answers; 2 s after the request, what autofix's "
        "wall-clock timeout does: SIGTERM to the group, SIGKILL 2 s later",
    )
    yield Case(
        cli,
        "timeout",
        TIMEOUT,
        lambda c: [cut()],
        stop=Stop("SIGTERM", when_stdout_has=STOP_MARKER, hold_s=2.0),
        variant=2,
        description="partial text, then the stream stalls; SIGTERM 2 s into the stall",
    )
    yield Case(
        cli,
        "cancelled",
        CANCELLED,
        lambda c: [cut()],
        stop=Stop("SIGINT", when_stdout_has=STOP_MARKER),
        description="SIGINT (Ctrl-C) to the process group once partial text is on stdout",
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
    yield from _stop_cases(cli, lambda: _codex_cut(KILL_MARKER))
    yield Case(
        cli,
        "untrusted_workspace",
        CONFIG,
        lambda c: [O.text("pong")],
        RunOptions(trust_workspace=False),
        description="no --skip-git-repo-check in a directory that is not a git repository",
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
    yield from _stop_cases(cli, lambda: _gemini_cut(KILL_MARKER))
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


def all_cases() -> list[Case]:
    return [*claude_cases(), *codex_cases(), *gemini_cases()]


def cases_by_key() -> dict[str, Case]:
    cases = all_cases()
    keys = [case.key for case in cases]
    duplicates = {k for k in keys if keys.count(k) > 1}
    if duplicates:
        raise ValueError(f"duplicate cases: {sorted(duplicates)}")
    return {case.key: case for case in cases}
