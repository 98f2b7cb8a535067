"""Failure kinds and retry delays from what an agent reports.

Structured fields decide first: HTTP statuses (``kind_from_status``), the CLIs' own error codes
and exit codes (each format module has its tables). The wording of the agent's *error messages*
only breaks ties (``kind_from_text``): whole-word patterns, ordered most specific first, never run
on an answer, tool output or a file path. No rule here can produce autofix's own budget kind
(``FailureKind.BUDGET_EXHAUSTED``): only autofix's budget check does ("billing" is not a kind).
"""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta

from autofix.result import FailureKind, RunStatus

# Error text is cut to this before any pattern runs: bounded work on hostile output.
MAX_TEXT_CHARS = 8000
LIMIT_KINDS = frozenset(
    {FailureKind.RATE_LIMIT, FailureKind.USAGE_LIMIT, FailureKind.QUOTA_EXHAUSTED}
)
# Exit codes 128 + n are "killed by signal n" in shells and many CLIs.
SIGINT_EXIT = 130
SIGNAL_EXITS = frozenset({137, 143})  # SIGKILL, SIGTERM


def http_status(value: object) -> int | None:
    """``value`` as an HTTP status (100..599), or None (bools, floats and junk are not)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, int) and 100 <= value <= 599:
        return value
    return None


def kind_from_status(status: object) -> FailureKind | None:
    """The failure kind an HTTP status stands for, or None for a status that is not an error."""
    code = http_status(status)
    if code is None or code < 400:
        return None
    fixed = {
        401: FailureKind.AUTH,
        402: FailureKind.QUOTA_EXHAUSTED,  # payment required: the provider's credit, not ours
        403: FailureKind.PERMISSION,
        408: FailureKind.TIMEOUT,
        429: FailureKind.RATE_LIMIT,
        499: FailureKind.CANCELLED,  # the client closed the request
        529: FailureKind.OVERLOADED,
    }
    if code in fixed:
        return fixed[code]
    return FailureKind.INVALID_REQUEST if code < 500 else FailureKind.SERVER_ERROR


def _rules(*pairs: tuple[FailureKind, str]) -> tuple[tuple[FailureKind, re.Pattern[str]], ...]:
    return tuple((kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in pairs)


# Tie-breakers, in order: the first kind whose pattern matches wins. The wording is the
# providers' own, from their error catalogues (docs.claude.com/en/api/errors,
# developers.openai.com/docs/guides/error-codes, ai.google.dev/gemini-api/docs/troubleshooting)
# and the CLIs' sources (docs/agents/*.md): a family of messages per pattern, not one message.
_TEXT_RULES = _rules(
    (
        FailureKind.CONTEXT_WINDOW,
        r"\bcontext[ _](?:window|length)\b|\bprompt is too long\b|\bmaximum context length\b"
        r"|\btoken count\b.{0,60}\bexceeds\b|\btoken count is \d+ but\b"
        r"|\bmodel only supports up to\b|\binput is too long\b",
    ),
    # An account's spend limit reads like a usage limit: it is one that only money lifts.
    (
        FailureKind.QUOTA_EXHAUSTED,
        r"\bAPI usage limits?\b|\bspend(?:ing)? (?:limit|cap)\b|\b(?:contract|committed) spend\b"
        r"|\bspend committed\b|\bbudget (?:has been )?exceeded\b|\bbudget_exceeded\b"
        r"|\bexceeded (?:your |the )?(?:max(?:imum)? )?budget\b",
    ),
    (
        FailureKind.USAGE_LIMIT,
        r"\busage[ _]limit|\bdaily quota\b|\bhit your (?:[\w-]+ )?limit\b"
        r"|\b(?:daily|weekly|monthly) (?:[\w-]+ ){0,4}(?:limit|quota)\b|\bquota will reset\b"
        r"|\b(?:requests|tokens) per day\b",
    ),
    # Credit, billing and quota that only a payment lifts ("You exceeded your current quota,
    # please check your plan and billing details": out of credits or at the monthly limit).
    # With a wait named in the same message it is a rate limit (kind_from_message).
    (
        FailureKind.QUOTA_EXHAUSTED,
        r"\binsufficient[ _]quota\b|\bcredits? balance\b|\bout of (?:[\w-]+ )?credits?\b"
        r"|\bspend cap\b|\binsufficient (?:[\w-]+ ){0,3}credits?\b|\badd (?:more )?credits?\b"
        r"|\bbilling (?:hard )?limit\b|\baccount is not active\b|\bexceeded your current quota\b"
        r"|\bbilling account\b[^.\n]{0,60}?\b(?:disabled|delinquent|closed|suspended)\b"
        r"|\b(?:prepaid|prepayment) credits?\b"
        r"|\bcredits? (?:are |is |have been )?(?:depleted|exhausted|used up)\b"
        r"|\brequires billing to be enabled\b|\bbilling (?:is )?(?:disabled|not enabled)\b"
        r"|\b(?:enable|set up) billing\b",
    ),
    (
        FailureKind.RATE_LIMIT,
        r"\brate[ _-]?limit|\btoo many requests\b|\bresource[ _]exhausted\b"
        r"|\bresource has been exhausted\b|\bquota exceeded for\b|\bplease slow down\b",
    ),
    (
        FailureKind.OVERLOADED,
        r"\boverloaded\b|\bat capacity\b|\bcapacity (?:exhausted|exceeded)\b"
        r"|\bexhausted your capacity\b",
    ),
    (FailureKind.MAX_TOKENS, r"\bmax_output_tokens\b|\boutput token (?:limit|maximum)\b"),
    (
        FailureKind.AUTH,
        r"\bunauthori[sz]ed\b|\b(?:invalid|incorrect) (?:x-)?api[ -]?key\b"
        r"|\bapi key (?:not valid|expired|was reported as leaked)\b|\binvalid authentication\b"
        r"|\bnot logged in\b|\brun /login\b|\bauthentication[ _](?:failed|error|required)\b"
        r"|\b(?:oauth|access|authentication) token (?:has )?(?:expired|been revoked)\b"
        r"|\bmust be a member of an organization\b",
    ),
    (
        FailureKind.PERMISSION,
        r"\bpermission[ _]denied\b|\bforbidden\b|\bnot allowed to\b|\bdoes not have permission\b"
        r"|\blocation is not supported\b|\bnot (?:available|supported) in your (?:country|region)\b"
        r"|\b(?:country|region|territory) not supported\b|\bip not authorized\b"
        r"|\borganization must be verified\b",
    ),
    (
        FailureKind.CONNECTION,
        r"\bECONN(?:REFUSED|RESET|ABORTED)\b|\bconnection (?:refused|reset|lost|failed|dropped)\b"
        r"|\bfetch failed\b|\bstream disconnected\b|\bnetwork error\b|\bsocket hang up\b"
        r"|\bENOTFOUND\b|\bEAI_AGAIN\b|\berror sending request\b|\bwaiting for network\b",
    ),
    (
        FailureKind.SERVER_ERROR,
        r"\binternal (?:server )?error\b|\bservice unavailable\b|\bbad gateway\b"
        r"|\bgateway timeout\b|\bserver[ _-]error\b|\bserver-side issue\b"
        r"|\bserver had an error\b|\berror occurred while processing your request\b",
    ),
    (FailureKind.TIMEOUT, r"\btimed out\b|\btimeout\b|\bETIMEDOUT\b|\bdeadline exceeded\b"),
    (
        FailureKind.REFUSAL,
        r"\b(?:request|prompt|input|content) (?:has been|was) flagged\b"
        r"|\bviolat\w* (?:our |the )?(?:usage |content )?polic(?:y|ies)\b"
        r"|\b(?:was|has been) blocked (?:under|by) (?:our|the) [\w ]{0,40}?polic(?:y|ies)\b"
        r"|\bcan(?:'|\u2019|no)t help with (?:this|that)\b|\b(?:our|the) safety system\b"
        r"|\bcontent filter(?:ing)?\b",
    ),
    # The CLI's own per-run cost cap (claude --max-budget-usd), never autofix's budget.
    (FailureKind.SPEND_CAP, r"\b(?:USD|maximum) budget\b"),
    (
        FailureKind.INVALID_REQUEST,
        r"\binvalid[ _](?:request|argument)\b|\binvalid (?:image|input)\b|\bbad request\b"
        r"|\bdoes not exist\b"
        r"|\bis not found\b|\bnot supported\b",
    ),
)

# Where an HTTP status sits in the CLIs' error wording (Codex, Gemini, Claude, Google JSON).
_STATUS_PATTERNS = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        r"\bunexpected status (\d{3})\b",
        r"\blast status: (\d{3})\b",
        r"\bfailed with status (\d{3})\b",
        r"\bAPI Error: (\d{3})\b",
        r"\brejected \((\d{3})\)",
        r"\"code\"\s*:\s*(\d{3})\b",
        r"\bstatus(?: code)?[ :=]+(\d{3})\b",
    )
)


# An API error body's own "do not retry" field, as a CLI quotes the body in its error text.
_NO_RETRY_FIELD = re.compile(r'"(?:should_retry|shouldRetry|is_retryable|retryable)"\s*:\s*false\b')


def says_no_retry(text: str) -> bool:
    """The quoted error body says, in a field of its own, that retrying will not help."""
    return _NO_RETRY_FIELD.search(_bounded(text)) is not None


def _bounded(text: str) -> str:
    return text if len(text) <= MAX_TEXT_CHARS else text[:MAX_TEXT_CHARS]


def kind_from_text(text: str) -> FailureKind | None:
    """The kind an error message's wording points to, or None. A tie-breaker only."""
    bounded = _bounded(text)
    for kind, pattern in _TEXT_RULES:
        if pattern.search(bounded):
            return kind
    return None


# What an agent API's error names in any program's output (a script wrapping a CLI): the other
# tie-breakers (a missing file, a timeout, "permission denied") name any program's failures too.
_AGENT_TEXT_KINDS = frozenset(
    {
        FailureKind.CONTEXT_WINDOW,
        FailureKind.USAGE_LIMIT,
        FailureKind.QUOTA_EXHAUSTED,
        FailureKind.RATE_LIMIT,
        FailureKind.OVERLOADED,
        FailureKind.MAX_TOKENS,
        FailureKind.AUTH,
    }
)


def agent_error_kind(text: str) -> FailureKind | None:
    """The kind of an agent API error quoted in a program's output: an HTTP status in an API
    error's wording, or wording only agent APIs use; None for anything else."""
    status = status_from_text(text)
    if status is not None:
        return kind_from_message(text, status)
    worded = kind_from_text(text)
    return worded if worded in _AGENT_TEXT_KINDS else None


def status_from_text(text: str) -> int | None:
    """An HTTP status quoted in an error message (``unexpected status 401``, ``"code": 429``)."""
    bounded = _bounded(text)
    for pattern in _STATUS_PATTERNS:
        match = pattern.search(bounded)
        if match is not None:
            code = http_status(match.group(1))
            if code is not None and code >= 400:
                return code
    return None


def kind_from_message(text: str, status: int | None = None) -> FailureKind | None:
    """An error message's kind: its HTTP status (given, or quoted in it), narrowed by its wording
    where the status is ambiguous (a 429 can be a usage limit, a 400 a context window). A quota
    that names when to retry is a rate limit: waiting lifts it, not a payment."""
    by_status = kind_from_status(status if status is not None else status_from_text(text))
    kind = kind_from_text(text) if by_status is None else refine(by_status, text)
    if kind is FailureKind.QUOTA_EXHAUSTED and _names_a_wait(text):
        return FailureKind.RATE_LIMIT
    return kind


def refine(kind: FailureKind, text: str) -> FailureKind:
    """``kind`` (from a status or an error code), or the more specific kind the wording names."""
    worded = kind_from_text(text)
    if worded is not None and worded in _REFINEMENTS.get(kind, frozenset()):
        return worded
    return kind


# A status's kind → the more specific kinds the wording may narrow it to.
_REFINEMENTS: dict[FailureKind, frozenset[FailureKind]] = {
    FailureKind.RATE_LIMIT: frozenset(
        {FailureKind.USAGE_LIMIT, FailureKind.QUOTA_EXHAUSTED, FailureKind.OVERLOADED}
    ),
    FailureKind.INVALID_REQUEST: frozenset(
        {
            FailureKind.CONTEXT_WINDOW,
            FailureKind.AUTH,
            FailureKind.QUOTA_EXHAUSTED,
            FailureKind.REFUSAL,  # a 400 that a usage policy blocked
            FailureKind.PERMISSION,  # a 400 for a region the API does not serve
        }
    ),
    FailureKind.SERVER_ERROR: frozenset({FailureKind.OVERLOADED}),
    FailureKind.AUTH: frozenset({FailureKind.PERMISSION}),
    FailureKind.PERMISSION: frozenset({FailureKind.AUTH, FailureKind.QUOTA_EXHAUSTED}),
}


def _names_a_wait(text: str) -> bool:
    """A retry delay in the wording ("Please retry in 2.1s", "try again in 20m")."""
    bounded = _bounded(text)
    return any(pattern.search(bounded) for pattern in _DELAY_PATTERNS)


def status_for_kind(kind: FailureKind | None) -> RunStatus:
    """A failed run stopped by a rate, usage or quota limit is reported as limit_reached."""
    return RunStatus.LIMIT_REACHED if kind in LIMIT_KINDS else RunStatus.FAILED


def kind_from_exit_code(exit_code: int | None) -> FailureKind | None:
    """130 (SIGINT) → cancelled; 137/143 (SIGKILL/SIGTERM from outside) → killed."""
    if exit_code == SIGINT_EXIT:
        return FailureKind.CANCELLED
    if exit_code in SIGNAL_EXITS:
        return FailureKind.KILLED
    return None


def no_terminal_failure(
    agent: str, exit_code: int | None, stderr_tail: str, non_json_tail: list[str]
) -> tuple[FailureKind | None, str]:
    """What we can say when the agent printed no terminal event (killed, crashed, bad flags).

    Exit 0 without one is an interrupted run: the CLIs write their terminal event at every
    other end (Claude and Gemini exit 0 on SIGINT, the latter through its relaunching parent).
    """
    kind = kind_from_exit_code(exit_code)
    if exit_code == 0:
        kind = FailureKind.CANCELLED
    elif kind is None and exit_code is not None:
        kind = kind_from_message("\n".join([*non_json_tail, stderr_tail[-4000:]]))
    ended = "no exit code" if exit_code is None else f"exit {exit_code}"
    return kind, f"{agent}: no terminal event in the output ({ended})"


# ------------------------------------------------------------------------- retry delays

_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
_DURATION = r"(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hours?)\b"
_DELAY_PATTERNS = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        r"\bretry in " + _DURATION,  # Gemini: "Please retry in 2.1s."
        r"\bretry after " + _DURATION,  # Gemini: "Suggested retry after 2s."
        r"\btry again in " + _DURATION,  # OpenAI / Codex: "Please try again in 1.2s."
        r"\bretry-after:?\s*" + _DURATION,
    )
)
_CLOCK = re.compile(r"\btry again at (\d{1,2}:\d{2}\s*[AP]M)\b", re.IGNORECASE)
_DATE_CLOCK = re.compile(
    r"\btry again at ([A-Z][a-z]{2}) (\d{1,2})(?:st|nd|rd|th), (\d{4}) (\d{1,2}:\d{2}\s*[AP]M)\b"
)
_EPOCH = re.compile(r"\blimit reached\|(\d{10})\b", re.IGNORECASE)  # claude's legacy form


def _seconds(amount: str, unit: str) -> float:
    key = unit.lower()
    if key.startswith("ms") or key.startswith("milli"):
        return float(amount) * _UNITS["ms"]
    return float(amount) * _UNITS[key[0]]


def seconds_until(epoch: object, now: float | None = None) -> float | None:
    """Seconds from ``now`` to a reset time given in epoch seconds (0 when it has passed)."""
    if isinstance(epoch, bool) or not isinstance(epoch, int | float):
        return None
    if not 1e9 <= epoch <= 1e11:  # not an epoch in seconds
        return None
    return max(0.0, float(epoch) - (time.time() if now is None else now))


def retry_after_from_text(text: str, now: float | None = None) -> float | None:
    """The wait an error message asks for: a duration ("retry in 2.1s", "try again in 20m") or a
    reset time (Codex's local "try again at 1:40 PM", Claude's "limit reached|<epoch>")."""
    bounded = _bounded(text)
    for pattern in _DELAY_PATTERNS:
        match = pattern.search(bounded)
        if match is not None:
            return _seconds(match.group(1), match.group(2))
    match = _EPOCH.search(bounded)
    if match is not None:
        return seconds_until(int(match.group(1)), now)
    return _local_reset(bounded, time.time() if now is None else now)


def _local_reset(text: str, now: float) -> float | None:
    """Codex prints the usage-limit reset in the machine's local time: the same clock we read."""
    local_now = datetime.fromtimestamp(now).astimezone()
    match = _DATE_CLOCK.search(text)
    if match is not None:
        month, day, year, clock = match.groups()
        try:
            when = datetime.strptime(f"{month} {day} {year} {clock.upper()}", "%b %d %Y %I:%M %p")
        except ValueError:
            return None
        return max(0.0, when.astimezone().timestamp() - now)
    match = _CLOCK.search(text)
    if match is None:
        return None
    try:
        clock_time = datetime.strptime(match.group(1).upper().replace(" ", ""), "%I:%M%p").time()
    except ValueError:
        return None
    when = datetime.combine(local_now.date(), clock_time).astimezone()
    if when.timestamp() < now - 60:  # a time earlier today means tomorrow
        when += timedelta(days=1)
    return max(0.0, when.timestamp() - now)
