"""Gemini CLI's failure forms: kinds from its Fatal*Error types and exit codes, the Google error
JSON its API errors quote, its InvalidStream and quota messages, what it reports during a run
(loops, turn caps, hooks), and the lines it prints on stderr (docs/agents/gemini.md).

Structured first: the ``Fatal*Error`` type and its exit code; for API errors the HTTP status
(``error.code`` in json mode, else the exit code: Gemini exits with the status mod 256, 429 →
173) and the Google error JSON (``status``, ``ErrorInfo`` reason, ``QuotaFailure``,
``RetryInfo``); the CLI's own fixed messages; the rest of the wording only breaks ties.
"""

from __future__ import annotations

import json
import re
from typing import Any

from autofix.agents.events import as_dict
from autofix.agents.failures import (
    SIGINT_EXIT,
    http_status,
    kind_from_message,
    kind_from_text,
    refine,
    retry_after_from_text,
    status_for_kind,
)
from autofix.agents.fatal import FatalForm, FatalForms, NoticeForm, NoticeForms
from autofix.finish import normalise_finish_reason
from autofix.notices import NoticeCode
from autofix.result import FailureKind, FinishReason, RunStatus

K = FailureKind

# FatalError subclasses and their exit codes (packages/core/src/utils/errors.ts).
EXIT_CODE_KINDS: dict[int, FailureKind] = {
    41: K.AUTH,
    42: K.INVALID_REQUEST,
    44: K.CONFIG,
    52: K.CONFIG,
    53: K.MAX_TURNS,
    55: K.CONFIG,
    SIGINT_EXIT: K.CANCELLED,
}
ERROR_TYPE_KINDS: dict[str, FailureKind] = {
    "FatalAuthenticationError": K.AUTH,
    "FatalInputError": K.INVALID_REQUEST,
    "FatalSandboxError": K.CONFIG,
    "FatalConfigError": K.CONFIG,
    "FatalTurnLimitedError": K.MAX_TURNS,
    "FatalUntrustedWorkspaceError": K.CONFIG,
    "FatalCancellationError": K.CANCELLED,
}
# The ``error`` event texts of the InvalidStream types (nonInteractiveCli, utils/constants.ts).
_CONTENT_ERRORS: tuple[tuple[str, FailureKind, FinishReason], ...] = (
    (
        "The model returned an empty response with no text or thoughts",
        K.EMPTY_ANSWER,
        FinishReason.STOP,
    ),
    (
        "The model returned reasoning thoughts but no final response text",
        K.EMPTY_ANSWER,
        FinishReason.STOP,
    ),
    (
        "Model response was truncated because it exceeded the token limit",
        K.MAX_TOKENS,
        FinishReason.LENGTH,
    ),
    ("The model response was blocked due to", K.REFUSAL, FinishReason.REFUSAL),
    # No finish reason: a prompt blocked before any candidate, or a stream that just stopped;
    # the output cannot tell which, so it is reported as what it shows: no answer.
    ("Model stream ended without a finish reason", K.EMPTY_ANSWER, FinishReason.STOP),
    ("Model stream ended with malformed function call", K.STRUCTURED_OUTPUT, FinishReason.ERROR),
    ("Model stream ended with unexpected tool call", K.STRUCTURED_OUTPUT, FinishReason.ERROR),
    ("Model stream ended with empty response text", K.EMPTY_ANSWER, FinishReason.STOP),
)
# google.rpc status names and ErrorInfo reasons.
_RPC_STATUS: dict[str, FailureKind] = {
    "UNAUTHENTICATED": K.AUTH,
    "PERMISSION_DENIED": K.PERMISSION,
    "RESOURCE_EXHAUSTED": K.RATE_LIMIT,
    "INVALID_ARGUMENT": K.INVALID_REQUEST,
    "FAILED_PRECONDITION": K.INVALID_REQUEST,
    "NOT_FOUND": K.INVALID_REQUEST,
    "UNAVAILABLE": K.SERVER_ERROR,
    "INTERNAL": K.SERVER_ERROR,
    "DEADLINE_EXCEEDED": K.SERVER_ERROR,
}
_REASONS: dict[str, FailureKind] = {
    "API_KEY_INVALID": K.AUTH,
    "API_KEY_EXPIRED": K.AUTH,
    "CONSUMER_SUSPENDED": K.PERMISSION,
    "SERVICE_DISABLED": K.PERMISSION,
    "API_KEY_SERVICE_BLOCKED": K.PERMISSION,
    "ACCESS_TOKEN_SCOPE_INSUFFICIENT": K.PERMISSION,
    "RATE_LIMIT_EXCEEDED": K.RATE_LIMIT,
    "MODEL_CAPACITY_EXHAUSTED": K.OVERLOADED,
    "MODEL_CAPACITY_EXCEEDED": K.OVERLOADED,
    "INSUFFICIENT_G1_CREDITS_BALANCE": K.QUOTA_EXHAUSTED,
    "BILLING_DISABLED": K.QUOTA_EXHAUSTED,
}
# The CLI's own quota wording (utils/googleQuotaErrors.ts, classifyGoogleError).
_DAILY_QUOTA = "You have exhausted your daily quota"
_NO_QUOTA = re.compile(r"limit:\s*0(?!\d|\.\d)", re.IGNORECASE)
_CAPACITY = re.compile(r"exhausted your capacity|capacity exceeded|MODEL_CAPACITY_EXHAUSTED", re.I)
_API_ERROR = "[API Error:"
_GOOGLE_QUOTA = re.compile(
    r"exceeded your current quota|Quota exceeded for (?:quota )?metric", re.I
)
_FINISH_REASON = re.compile(r"\bfinish reason:? ([A-Z][A-Z_]+)\b")
_DURATION = re.compile(r"^(\d+(?:\.\d+)?)(ms|s)$")


# What nonInteractiveCli reports during a run, as ``error`` events (stream-json), ``warnings``
# (json) or stderr lines (text): the run then ends as ``result/success``, exit 0.
LOOP = "Loop detected"  # LoopDetectionService stopped the turn (severity warning)
_MAX_SESSION_TURNS = "Maximum session turns exceeded"  # model.maxSessionTurns (severity error)
# A hook's decision to block or stop the agent ("Agent execution blocked: ...", "... stopped: ...").
_AGENT_HOOK_DECISIONS = ("Agent execution blocked", "Agent execution stopped")
# A tool call the CLI refused: its policy engine or a hook (policy_violation), or a tool the
# headless mode or tools.exclude left out (tool_not_registered).
DENIED_TOOL_ERRORS = frozenset({"policy_violation", "tool_not_registered", "stop_execution"})
# A hook (BeforeTool / AfterTool ``continue: false``) stopped the agent at a tool call.
HOOK_STOP_ERROR = "stop_execution"


def reported_failure(messages: list[str], answered: bool = False) -> FailureKind | None:
    """What the CLI's own reports during a "successful" run say went wrong, if anything. A
    hook's block ends the run only where no answer followed it (an AfterAgent hook's block
    sends the agent back to work)."""
    content = content_error(messages)
    if content is not None:
        return content[0]
    for message in messages:
        if message.startswith(_MAX_SESSION_TURNS):
            return K.MAX_TURNS
        if message.startswith(LOOP):
            return K.LOOP_DETECTED
        if message.startswith(_AGENT_HOOK_DECISIONS) and not answered:
            return K.CONFIG  # the deployment's own hook kept the prompt from the model
    return None


def _code(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def status_from_exit(exit_code: int | None) -> int | None:
    """Gemini exits with an API error's HTTP status mod 256: 144..255 are 400..511."""
    if exit_code is not None and 144 <= exit_code <= 255:
        return exit_code + 256
    return None


def google_error(message: str) -> dict[str, Any]:
    """The ``{"error": {...}}`` JSON a message quotes (``[API Error: {...}]``), or {}."""
    start = message.find("{")
    if start < 0 or len(message) > 200_000:
        return {}
    try:
        value, _ = json.JSONDecoder().raw_decode(message[start:])
    except (ValueError, RecursionError):
        return {}
    error = as_dict(value).get("error") if isinstance(value, dict) else None
    return error if isinstance(error, dict) else {}


def _details(error: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    details = error.get("details")
    return [
        item
        for item in (details if isinstance(details, list) else [])
        if isinstance(item, dict) and str(item.get("@type", "")).endswith(kind)
    ]


def retry_delay(error: dict[str, Any], message: str) -> float | None:
    for info in _details(error, "RetryInfo"):
        match = _DURATION.match(str(info.get("retryDelay", "")))
        if match is not None:
            return float(match.group(1)) * (0.001 if match.group(2) == "ms" else 1.0)
    return retry_after_from_text(message)


def api_error_kind(message: str, status: int | None) -> FailureKind:
    """An API error's kind from its status, the Google error JSON and the CLI's fixed wording."""
    if _DAILY_QUOTA in message:
        return K.USAGE_LIMIT
    error = google_error(message)
    status = status or http_status(error.get("code"))
    for info in _details(error, "ErrorInfo"):
        reason = _REASONS.get(str(info.get("reason", "")))
        if reason is not None:
            return reason
    for failure in _details(error, "QuotaFailure"):
        violations = failure.get("violations")
        for violation in violations if isinstance(violations, list) else []:
            quota_id = str(as_dict(violation).get("quotaId", ""))
            if "PerDay" in quota_id or "Daily" in quota_id:
                return K.USAGE_LIMIT
    if status in (429, 499, 503) and _NO_QUOTA.search(message):
        return K.QUOTA_EXHAUSTED  # no quota at all: billing must be set up
    if _GOOGLE_QUOTA.search(message) and kind_from_text(message) is not K.USAGE_LIMIT:
        # Google's per-minute quotas: "You exceeded your current quota ... Quota exceeded for
        # metric ..." is a rate limit with a reset (OpenAI uses the words for its credit).
        return K.RATE_LIMIT
    if _CAPACITY.search(message):
        return K.OVERLOADED
    if status is not None:
        return kind_from_message(message, status) or K.API_ERROR
    by_rpc = _RPC_STATUS.get(str(error.get("status", "")))
    if by_rpc is not None:
        return refine(by_rpc, message)
    worded = kind_from_message(message)
    if worded is None and message.lstrip().startswith(_API_ERROR):
        return K.CONNECTION  # an API error without any HTTP answer: it never reached the API
    return worded or K.API_ERROR


def content_error(messages: list[str]) -> tuple[FailureKind, FinishReason] | None:
    for message in reversed(messages):
        for prefix, kind, finish in _CONTENT_ERRORS:
            if message.startswith(prefix):
                return kind, finish
        named = _FINISH_REASON.search(message)  # older builds: "... with finish reason SAFETY."
        reason = normalise_finish_reason(named.group(1)) if named is not None else None
        if reason is FinishReason.LENGTH:
            return K.MAX_TOKENS, reason
        if reason is FinishReason.REFUSAL:
            return K.REFUSAL, reason
    return None


def error_verdict(
    error: dict[str, Any], exit_code: int | None
) -> tuple[RunStatus, FinishReason, FailureKind]:
    err_type = str(error.get("type") or "")
    message = str(error.get("message") or "")
    code = _code(error.get("code"))
    kind = ERROR_TYPE_KINDS.get(err_type)
    if kind is None:
        fatal = code if code is not None and code < 100 else exit_code
        kind = EXIT_CODE_KINDS.get(fatal) if fatal is not None else None
    if kind is None:
        content = content_error([message])
        if content is not None:
            return status_for_kind(content[0]), content[1], content[0]
        status = http_status(code) or status_from_exit(exit_code)
        kind = api_error_kind(message, status)
    if kind is K.CANCELLED:
        return RunStatus.CANCELLED, FinishReason.ERROR, kind
    reason = FinishReason.MAX_TURNS if kind is K.MAX_TURNS else FinishReason.ERROR
    return status_for_kind(kind), reason, kind


def text_mode_kind(text: str, exit_code: int | None) -> FailureKind:
    """A text-mode failure: the Fatal*Error exit codes, else the API error Gemini printed."""
    if exit_code in EXIT_CODE_KINDS:
        return EXIT_CODE_KINDS[exit_code]
    return api_error_kind(text, status_from_exit(exit_code))


_REPORT = re.compile(r"Full report available at: \S+ (\w+): (.*)", re.DOTALL)


def _api_error_line_kind(line: str) -> FailureKind | None:
    """``Error when talking to Gemini API Full report available at: <file> <Class>: <msg>``."""
    match = _REPORT.search(line)
    message = match.group(2) if match is not None else line
    kind = api_error_kind(message, None)
    return None if kind is K.API_ERROR else kind


def _content_line_kind(line: str) -> FailureKind | None:
    """``[ERROR] <message>`` (text mode): an InvalidStream message, or another report."""
    message = line.removeprefix("[ERROR]").strip()
    return reported_failure([message]) or kind_from_message(message)


_CLI = "packages/cli/src"
# What gemini prints on stderr when a run ends (0.61.0; docs/agents/gemini.md has the table).
FATAL_FORMS = FatalForms(
    [
        FatalForm(r"Unknown arguments?: ", K.CONFIG, f"{_CLI}/config/config.ts (yargs), exit 1"),
        FatalForm(r"Invalid values?:", K.CONFIG, f"{_CLI}/config/config.ts (yargs), exit 1"),
        FatalForm(r"Not enough arguments following: ", K.CONFIG, "yargs, exit 1"),
        FatalForm(r"When using Gemini API, you must specify", K.AUTH, "auth validation, exit 41"),
        FatalForm(r"Error resuming session: ", K.CONFIG, f"{_CLI}/gemini.tsx, exit 42"),
        FatalForm(r"Error importing session from file: ", K.CONFIG, f"{_CLI}/gemini.tsx, exit 42"),
        FatalForm(r"Error starting session: ", K.CONFIG, f"{_CLI}/gemini.tsx, exit 42"),
        FatalForm(r"No input provided via stdin", K.CONFIG, f"{_CLI}/gemini.tsx, exit 42"),
        FatalForm(r"Error: The --prompt-interactive flag", K.CONFIG, f"{_CLI}/gemini.tsx, exit 42"),
        FatalForm(r"Missing sandbox command ", K.CONFIG, "sandboxConfig.ts, exit 44"),
        FatalForm(r"Invalid sandbox command ", K.CONFIG, "sandboxConfig.ts, exit 44"),
        FatalForm(r"GEMINI_SANDBOX is true but failed", K.CONFIG, "sandboxConfig.ts, exit 44"),
        FatalForm(r"Please fix the configuration file", K.CONFIG, "config/settings.ts, exit 52"),
        FatalForm(r"Reached max session turns", K.MAX_TURNS, f"{_CLI}/utils/errors.ts, exit 53"),
        FatalForm(r"Gemini CLI is not running in a trusted", K.CONFIG, "trust check, exit 55"),
        # A hook (the deployment's own script) stopped or blocked the run: its setup decides.
        FatalForm(r"Agent execution stopped: ", K.CONFIG, "nonInteractiveCli.ts (hook stop)"),
        FatalForm(
            r"\[WARNING\] Agent execution blocked: ",
            K.CONFIG,
            "nonInteractiveCli.ts (an AfterAgent block is followed by an answer)",
            evidence=False,
        ),
        # yargs prints the usage after rejecting the arguments (a conflict, a bad value).
        FatalForm(r"Usage: gemini \[options\]", K.CONFIG, "config.ts (yargs)", evidence=False),
        FatalForm(r"\[ERROR\] ", None, "nonInteractiveCli.ts (text mode)", read=_content_line_kind),
        FatalForm(r"An unexpected critical error occurred", None, f"{_CLI}/index.ts, exit 1"),
        # Printed for every API error that ended a turn; says which one when the run failed.
        FatalForm(
            r"Error when talking to Gemini API",
            None,
            "core/utils/errorReporting.ts",
            evidence=False,
            read=_api_error_line_kind,
        ),
    ]
)
NOTICE_FORMS = NoticeForms(
    [
        # The recovered-tool-error line, when its error is a refusal (json and text modes have
        # no tool_result events to read it from).
        NoticeForm(
            r"Error executing tool \S+: Tool (?:execution (?:denied|blocked)|\"[^\"]{1,80}\" not found"
            r"|execution for \"[^\"]{1,80}\" requires user confirmation)",
            NoticeCode.DENIED_TOOL,
            "core/utils/errors.ts",
        ),
        NoticeForm(r"MCP issues detected", NoticeCode.MCP_SERVER_FAILED, "MCP discovery"),
        NoticeForm(r"\[MCP error\] ", NoticeCode.MCP_SERVER_FAILED, "MCP discovery (debug)"),
    ]
)
