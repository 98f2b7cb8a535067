"""Audit metrics: computed from the store (Prometheus text) and emitted live through Airflow stats.

A *chain* is one operation's attempts within one DAG run: attempt 1 starts a chain, each
feedback retry (attempt 2, 3, ...) continues it. A chain is *final* once its last attempt says
no further attempt will follow (success, a non-feedback failure, or attempts used up); chains
still in flight are counted apart so they never count as exhausted.

Airflow is imported lazily, on the first live emission, and only if it is installed.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from autofix.audit.envelope import Interaction
from autofix.redact import REDACTED, redact

log = logging.getLogger("autofix.audit")

PREFIX = "autofix"
MAX_LABEL_CHARS = 64
_LABEL_SAFE = re.compile(r"[^A-Za-z0-9_.:\-/\[\]]")
_STAT_SAFE = re.compile(r"[^A-Za-z0-9_.\-]")


def safe_label(value: object) -> str:
    """A metric label value: redacted, restricted charset, bounded. Never a secret."""
    text = redact(str(value))
    if REDACTED in text:
        return "redacted"
    return _LABEL_SAFE.sub("_", text)[:MAX_LABEL_CHARS] or "none"


# --------------------------------------------------------------------------- chains


@dataclass
class Chain:
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
        return self.last.result.success and self.last.result.validation_passed

    @property
    def max_attempts(self) -> int:
        return self.first.envelope.retry_policy.max_attempts

    @property
    def cost_usd(self) -> float:
        return sum(item.result.cost_usd or 0.0 for item in self.attempts)


def build_chains(interactions: Iterable[Interaction]) -> list[Chain]:
    """Group attempts into chains, in order of their first attempt."""
    ordered = sorted(interactions, key=lambda item: _aware(item.recorded_at))
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


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


# --------------------------------------------------------------------------- snapshot


@dataclass
class MetricsSnapshot:
    """Everything ``autofix metrics`` prints, as plain numbers."""

    agent_calls: Counter[tuple[str, str, str]] = field(
        default_factory=Counter
    )  # (operation, agent_type, status)
    tokens: Counter[str] = field(default_factory=Counter)  # input | output | thinking
    cost_usd: float = 0.0
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
    retry_recovery: Counter[tuple[str, str]] = field(
        default_factory=Counter
    )  # (category, recovered|exhausted)
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
        snap.latency_ms_sum += result.latency_ms
        snap.noise_lines_suppressed += result.noise_lines
        for rule in result.matched_rules:
            snap.rule_hits[safe_label(rule)] += 1
        for error in result.validation_errors:
            snap.validation_error_types[error.category.value] += 1
        if _aware(item.recorded_at).astimezone(UTC).date() == today:
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
        if chain.succeeded:
            snap.validation_final_success += 1
        else:
            snap.validation_final_failure += 1
        if chain.first.result.success and chain.first.result.validation_passed:
            snap.first_attempt_success += 1
        if chain.retries == 0:
            continue
        if chain.succeeded:
            snap.retry_success_count += 1
        else:
            snap.retry_exhausted_count += 1
        outcome = "recovered" if chain.succeeded else "exhausted"
        for category in chain.first.result.error_categories:
            snap.retry_recovery[(category, outcome)] += 1
    observed = max(snap.retry_attempts_hist, default=0)
    snap.max_retries_bucket = max(observed, histogram_max or 0)
    return snap


# --------------------------------------------------------------------------- Prometheus text


def _labels(**labels: str) -> str:
    if not labels:
        return ""
    parts = []
    for name, value in labels.items():
        escaped = value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')
        parts.append(f'{name}="{escaped}"')
    return "{" + ",".join(parts) + "}"


def _num(value: float) -> str:
    if isinstance(value, int):
        return str(value)
    if math.isfinite(value) and value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(round(value, 9))


class _Exposition:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def family(self, name: str, kind: str, help_text: str) -> None:
        self.lines.append(f"# HELP {PREFIX}_{name} {help_text}")
        self.lines.append(f"# TYPE {PREFIX}_{name} {kind}")

    def sample(self, name: str, value: float, **labels: str) -> None:
        self.lines.append(f"{PREFIX}_{name}{_labels(**labels)} {_num(value)}")

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def to_prometheus(snap: MetricsSnapshot) -> str:
    """Prometheus text exposition format 0.0.4."""
    out = _Exposition()
    out.family("agent_calls_total", "counter", "Agent calls recorded in the audit store.")
    for (operation, agent_type, status), count in sorted(snap.agent_calls.items()):
        out.sample(
            "agent_calls_total", count, operation=operation, agent_type=agent_type, status=status
        )
    out.family("agent_tokens_total", "counter", "Tokens used by agent calls.")
    for kind in ("input", "output", "thinking"):
        out.sample("agent_tokens_total", snap.tokens[kind], kind=kind)
    out.family("agent_cost_usd_total", "counter", "Cost of agent calls in US dollars.")
    out.sample("agent_cost_usd_total", snap.cost_usd)
    out.family("agent_latency_ms_sum", "counter", "Summed agent call latency in milliseconds.")
    out.sample("agent_latency_ms_sum", snap.latency_ms_sum)

    out.family("validation_retry_attempts", "histogram", "Feedback retries per finished chain.")
    cumulative = 0
    for bucket in range(snap.max_retries_bucket + 1):
        cumulative += snap.retry_attempts_hist[bucket]
        out.sample("validation_retry_attempts_bucket", cumulative, le=str(bucket))
    out.sample("validation_retry_attempts_bucket", snap.chains_final, le="+Inf")
    out.sample(
        "validation_retry_attempts_sum",
        sum(retries * count for retries, count in snap.retry_attempts_hist.items()),
    )
    out.sample("validation_retry_attempts_count", snap.chains_final)

    out.family(
        "validation_final_success_total", "counter", "Finished chains, by final validation result."
    )
    out.sample("validation_final_success_total", snap.validation_final_success, result="success")
    out.sample("validation_final_success_total", snap.validation_final_failure, result="failure")
    out.family(
        "validation_chains_in_flight", "gauge", "Chains whose last attempt may still be retried."
    )
    out.sample("validation_chains_in_flight", snap.chains_in_flight)
    out.family(
        "validation_error_types_total", "counter", "Validation errors by category, all attempts."
    )
    for category, count in sorted(snap.validation_error_types.items()):
        out.sample("validation_error_types_total", count, category=category)
    out.family("first_attempt_success_rate", "gauge", "Finished chains that passed on attempt 1.")
    out.sample("first_attempt_success_rate", round(snap.first_attempt_success_rate, 6))
    out.family("retry_success_count", "counter", "Retried chains that ended valid.")
    out.sample("retry_success_count", snap.retry_success_count)
    out.family("retry_exhausted_count", "counter", "Retried chains that ended invalid.")
    out.sample("retry_exhausted_count", snap.retry_exhausted_count)
    out.family(
        "retry_recovery_by_error_type_total",
        "counter",
        "Retried chains by the error categories of attempt 1 and how they ended.",
    )
    for (category, outcome), count in sorted(snap.retry_recovery.items()):
        out.sample("retry_recovery_by_error_type_total", count, category=category, outcome=outcome)

    out.family(
        "classifier_noise_lines_suppressed_total", "counter", "Stderr lines classified as noise."
    )
    out.sample("classifier_noise_lines_suppressed_total", snap.noise_lines_suppressed)
    out.family("classifier_rule_hits_total", "counter", "Calls in which a pattern rule matched.")
    for rule, count in sorted(snap.rule_hits.items()):
        out.sample("classifier_rule_hits_total", count, rule=rule)

    out.family("budget_spend_usd", "gauge", "Spend counted against the daily budget (UTC day).")
    out.sample("budget_spend_usd", snap.budget_day_cost_usd, scope="day")
    out.family("budget_calls", "gauge", "Calls counted against the daily budget (UTC day).")
    out.sample("budget_calls", snap.budget_day_calls, scope="day")
    return out.text()


# --------------------------------------------------------------------------- live emission


class StatsSink(Protocol):
    """The subset of Airflow's ``Stats`` we use."""

    def incr(
        self, stat: str, count: int = 1, rate: float = 1, *, tags: dict[str, str] | None = None
    ) -> None: ...

    def gauge(
        self,
        stat: str,
        value: float,
        rate: float = 1,
        delta: bool = False,
        *,
        tags: dict[str, str] | None = None,
    ) -> None: ...


class NullStats:
    def incr(
        self, stat: str, count: int = 1, rate: float = 1, *, tags: dict[str, str] | None = None
    ) -> None:
        return None

    def gauge(
        self,
        stat: str,
        value: float,
        rate: float = 1,
        delta: bool = False,
        *,
        tags: dict[str, str] | None = None,
    ) -> None:
        return None


class _AirflowStats:
    """Adapts ``airflow.sdk.observability.stats`` (StatsD or OpenTelemetry, as Airflow is set up)."""

    def __init__(self, module: Any) -> None:
        self._module = module

    def incr(
        self, stat: str, count: int = 1, rate: float = 1, *, tags: dict[str, str] | None = None
    ) -> None:
        self._module.incr(stat, count=count, rate=rate, tags=tags)

    def gauge(
        self,
        stat: str,
        value: float,
        rate: float = 1,
        delta: bool = False,
        *,
        tags: dict[str, str] | None = None,
    ) -> None:
        self._module.gauge(stat, value, rate=rate, delta=delta, tags=tags)


_stats: StatsSink | None = None


def airflow_stats() -> StatsSink:
    """Airflow's stats, imported on first use; a no-op sink when Airflow is not importable."""
    global _stats
    if _stats is None:
        try:
            from airflow.sdk.observability import stats as airflow_stats_module
        except ImportError:
            _stats = NullStats()
        else:
            _stats = _AirflowStats(airflow_stats_module)
    return _stats


def stat_name(name: str) -> str:
    return f"{PREFIX}.{_STAT_SAFE.sub('_', name)}"


def _tags(**tags: object) -> dict[str, str]:
    return {key: safe_label(value) for key, value in tags.items()}


def emit_interaction(interaction: Interaction, stats: StatsSink) -> None:
    """Per-attempt live metrics. Never raises: metrics must not fail a task."""
    try:
        _emit(interaction, stats)
    except Exception:  # a broken stats backend is logged, not fatal
        log.warning("could not emit audit metrics", exc_info=True)


def _emit(interaction: Interaction, stats: StatsSink) -> None:
    result = interaction.result
    base = _tags(
        operation=interaction.operation, agent_type=interaction.envelope.agent_type or "unknown"
    )
    stats.incr(stat_name("agent_calls"), 1, tags={**base, "status": result.status.value})
    for kind, count in (
        ("input", result.input_tokens),
        ("output", result.output_tokens),
        ("thinking", result.thinking_tokens),
    ):
        if count:
            stats.incr(stat_name("agent_tokens"), count, tags={**base, "kind": kind})
    if result.cost_usd:
        # Counters are integers in StatsD: cost goes out in micro-dollars.
        stats.incr(stat_name("agent_cost_micro_usd"), round(result.cost_usd * 1_000_000), tags=base)
    for category, count in Counter(
        error.category.value for error in result.validation_errors
    ).items():
        stats.incr(stat_name("validation_error_types"), count, tags={**base, "category": category})
    if result.noise_lines:
        stats.incr(stat_name("classifier_noise_lines_suppressed"), result.noise_lines, tags=base)
    for rule in result.matched_rules:
        stats.incr(stat_name("classifier_rule_hits"), 1, tags={**base, "rule": safe_label(rule)})
    if interaction.is_final:
        retries = interaction.attempt - 1
        passed = result.success and result.validation_passed
        stats.incr(
            stat_name("validation_retry_attempts"), 1, tags={**base, "retries": str(retries)}
        )
        stats.incr(
            stat_name("validation_final_success"),
            1,
            tags={**base, "result": "success" if passed else "failure"},
        )
        if retries:
            stats.incr(
                stat_name("retry_success_count" if passed else "retry_exhausted_count"),
                1,
                tags=base,
            )


def emit_write_failure(stats: StatsSink, store: str) -> None:
    try:
        stats.incr(stat_name("audit_write_failures"), 1, tags=_tags(store=store.split(":", 1)[0]))
    except Exception:
        log.warning("could not emit the audit_write_failures metric", exc_info=True)


def emit_budget_spend(stats: StatsSink, run_cost_usd: float, day_cost_usd: float) -> None:
    try:
        stats.gauge(stat_name("budget_spend_usd"), run_cost_usd, tags={"scope": "run"})
        stats.gauge(stat_name("budget_spend_usd"), day_cost_usd, tags={"scope": "day"})
    except Exception:
        log.warning("could not emit the budget spend metric", exc_info=True)


def attempt_log_record(interaction: Interaction) -> dict[str, Any]:
    """The one JSON log line per attempt: ids, verdict, spend. No prompt or output text."""
    env, result = interaction.envelope, interaction.result
    return {
        "event": "autofix.attempt",
        "trace_id": env.trace_id,
        "causation_id": env.causation_id,
        "envelope_id": env.envelope_id,
        "envelope_hash": env.envelope_hash,
        "operation": env.operation,
        "agent_type": env.agent_type,
        "model": env.model,
        "attempt": result.attempt_number,
        "success": result.success,
        "status": result.status.value,
        "validation_passed": result.validation_passed,
        "error_categories": result.error_categories,
        "latency_ms": round(result.latency_ms, 3),
        "input_tokens": result.input_tokens,
        "output_tokens": result.output_tokens,
        "thinking_tokens": result.thinking_tokens,
        "cost_usd": result.cost_usd,
        "output_hash": result.output_hash,
        "final": interaction.is_final,
    }


def log_attempt(interaction: Interaction, logger: logging.Logger = log) -> None:
    logger.info(json.dumps(attempt_log_record(interaction), separators=(",", ":"), default=str))
