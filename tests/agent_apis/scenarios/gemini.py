"""The gemini scenarios (see agent_apis.scenarios.base for Case, Truth and the shared shapes)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from agent_apis import gemini as G
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
    USAGE,
    Case,
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
