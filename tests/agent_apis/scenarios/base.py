"""What every scenario is made of: a case, its truth, and the shapes all three CLIs share.

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

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
    "insufficient_quota, Anthropic credit balance / spend limit, Gemini 'limit: 0', prepayment "
    "credits, billing disabled); permanent: only a payment or a raised limit helps; never "
    "autofix's own budget",
    "loop_detected": "the CLI stopped the model repeating itself (Gemini's loop detection); "
    "invalid output",
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
    # False when nothing in the output shows the outcome (only the answer's words say it): such
    # cases are counted apart, never as a verdict's miss.
    shown: bool = True
    # What the CLI reported that the verdict should surface (ParseResult warnings), by code:
    # "denied_tool", "mcp_server_failed", "loop_detected", "compacted".
    warnings: tuple[str, ...] = ()


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
    # The exit-path family of the CLI's coverage table (docs/agents/<cli>.md) this case shows,
    # e.g. "debug_output", "missing_session"; "" for the first catalogue's cases.
    family: str = ""
    # The fresh held-out set of the agent-verdict issue: written from the coverage tables by
    # somebody who did not tune the verdict, captured and frozen before any verdict change
    # (tests/fixtures/agent_captures/FRESH.txt), scored once. Never tune on these.
    fresh: bool = False

    @property
    def fixture_name(self) -> str:
        if self.fresh:
            return f"{self.name}__f{self.variant}"
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
QUOTA = _t("quota_exhausted", "permanent")
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


def clock(ctx: Context, seconds: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ctx.now + seconds))


def stop_cases(cli: str, cut: Callable[[], Reply]) -> Iterator[Case]:
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
