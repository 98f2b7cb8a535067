"""Audit metrics computed from recorded attempts: chains of retries and one snapshot of counts."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum

from autofix.audit.envelope import Interaction, aware
from autofix.costs import CostSource
from autofix.redact import REDACTED, redact

PREFIX = "autofix"  # of every metric name, Prometheus and Airflow stats alike
MAX_LABEL_CHARS = 64
_LABEL_SAFE = re.compile(r"[^A-Za-z0-9_.:\-/\[\]]")


def safe_label(value: object) -> str:
    """A metric label value: redacted, restricted charset, bounded. Never a secret."""
    text = redact(str(value))
    if REDACTED in text:
        return "redacted"
    return _LABEL_SAFE.sub("_", text)[:MAX_LABEL_CHARS] or "none"


class ChainOutcome(StrEnum):
    """How a retried chain ended: a Prometheus label value and a report column."""

    RECOVERED = "recovered"
    EXHAUSTED = "exhausted"


@dataclass
class Chain:
    """One operation's attempts within one DAG run.

    Attempt 1 starts a chain, each feedback retry (attempt 2, 3, ...) continues it. A chain is
    *final* once its last attempt says no further attempt will follow (success, a non-feedback
    failure, or attempts used up); chains still in flight are counted apart so they never
    count as exhausted.
    """

    trace_id: str
    operation: str
    attempts: list[Interaction] = field(default_factory=list)

    @property
    def first(self) -> Interaction:
        return self.attempts[0]

    @property
    def last(self) -> Interaction:
        return self.attempts[-1]

    @property
    def retries(self) -> int:
        return len(self.attempts) - 1

    @property
    def final(self) -> bool:
        return self.last.is_final

    @property
    def succeeded(self) -> bool:
        return self.last.result.valid

    @property
    def max_attempts(self) -> int:
        return self.first.envelope.retry_policy.max_attempts

    @property
    def cost_usd(self) -> float:
        return sum(item.result.cost_usd or 0.0 for item in self.attempts)


def build_chains(interactions: Iterable[Interaction]) -> list[Chain]:
    """Group attempts into chains, in order of their first attempt."""
    ordered = sorted(interactions, key=lambda item: aware(item.recorded_at))
    chains: list[Chain] = []
    open_chains: dict[tuple[str, str], Chain] = {}
    for item in ordered:
        key = (item.trace_id, item.operation)
        chain = open_chains.get(key)
        if chain is None or item.attempt <= 1 or item.attempt <= chain.last.attempt:
            chain = Chain(trace_id=item.trace_id, operation=item.operation)
            chains.append(chain)
            open_chains[key] = chain
        chain.attempts.append(item)
    return chains


@dataclass
class MetricsSnapshot:
    """Everything ``autofix metrics`` prints, as plain numbers."""

    agent_calls: Counter[tuple[str, str, str]] = field(
        default_factory=Counter
    )  # (operation, agent_type, status)
    tokens: Counter[str] = field(default_factory=Counter)  # input | output | thinking
    cost_usd: float = 0.0  # the calls whose cost is known
    cost_unknown_calls: int = 0  # calls of a model without a price (their tokens still count)
    latency_ms_sum: float = 0.0
    chains: int = 0
    chains_final: int = 0
    chains_in_flight: int = 0
    retry_attempts_hist: Counter[int] = field(default_factory=Counter)  # retries per final chain
    max_retries_bucket: int = 0
    validation_final_success: int = 0
    validation_final_failure: int = 0
    first_attempt_success: int = 0
    retry_success_count: int = 0
    retry_exhausted_count: int = 0
    validation_error_types: Counter[str] = field(default_factory=Counter)
    retry_recovery: Counter[tuple[str, ChainOutcome]] = field(
        default_factory=Counter
    )  # (category of attempt 1, outcome)
    # verify= checks: failed attempts per check, and per check how its chains ended
    verification_failures: Counter[str] = field(default_factory=Counter)
    verification_recovery: Counter[tuple[str, ChainOutcome]] = field(default_factory=Counter)
    noise_lines_suppressed: int = 0
    rule_hits: Counter[str] = field(default_factory=Counter)
    budget_day_calls: int = 0
    budget_day_cost_usd: float = 0.0

    @property
    def first_attempt_success_rate(self) -> float:
        return self.first_attempt_success / self.chains_final if self.chains_final else 0.0

    @property
    def agent_calls_total(self) -> int:
        return sum(self.agent_calls.values())


def compute_metrics(
    interactions: Iterable[Interaction],
    *,
    now: datetime | None = None,
    histogram_max: int | None = None,
) -> MetricsSnapshot:
    """All metrics for a history of interactions. ``now`` sets the budget day (UTC)."""
    items = list(interactions)
    snap = MetricsSnapshot()
    today = (now or datetime.now(UTC)).astimezone(UTC).date()
    for item in items:
        result = item.result
        snap.agent_calls[
            (
                safe_label(item.operation),
                safe_label(item.envelope.agent_type or "unknown"),
                result.status.value,
            )
        ] += 1
        snap.tokens["input"] += result.input_tokens
        snap.tokens["output"] += result.output_tokens
        snap.tokens["thinking"] += result.thinking_tokens
        snap.cost_usd += result.cost_usd or 0.0
        if result.cost_source is CostSource.UNKNOWN:
            snap.cost_unknown_calls += 1
        snap.latency_ms_sum += result.latency_ms
        snap.noise_lines_suppressed += result.noise_lines
        for rule in result.matched_rules:
            snap.rule_hits[safe_label(rule)] += 1
        for error in result.validation_errors:
            snap.validation_error_types[error.category.value] += 1
        for verification in result.verification:
            for check in verification.failed:
                snap.verification_failures[safe_label(check.name)] += 1
        if aware(item.recorded_at).astimezone(UTC).date() == today:
            snap.budget_day_calls += 1
            snap.budget_day_cost_usd += result.cost_usd or 0.0

    chains = build_chains(items)
    snap.chains = len(chains)
    for chain in chains:
        if not chain.final:
            snap.chains_in_flight += 1
            continue
        snap.chains_final += 1
        snap.retry_attempts_hist[chain.retries] += 1
        _count_verification(snap, chain)
        if chain.succeeded:
            snap.validation_final_success += 1
        else:
            snap.validation_final_failure += 1
        if chain.first.result.valid:
            snap.first_attempt_success += 1
        if chain.retries == 0:
            continue
        if chain.succeeded:
            snap.retry_success_count += 1
        else:
            snap.retry_exhausted_count += 1
        outcome = ChainOutcome.RECOVERED if chain.succeeded else ChainOutcome.EXHAUSTED
        for category in chain.first.result.error_categories:
            snap.retry_recovery[(category, outcome)] += 1
    observed = max(snap.retry_attempts_hist, default=0)
    snap.max_retries_bucket = max(observed, histogram_max or 0)
    return snap


def _count_verification(snap: MetricsSnapshot, chain: Chain) -> None:
    """Each check that failed in a finished chain: recovered when the chain ended verified."""
    failed = {
        safe_label(check.name)
        for item in chain.attempts
        for verification in item.result.verification
        for check in verification.failed
    }
    outcome = ChainOutcome.RECOVERED if chain.succeeded else ChainOutcome.EXHAUSTED
    for name in failed:
        snap.verification_recovery[(name, outcome)] += 1
