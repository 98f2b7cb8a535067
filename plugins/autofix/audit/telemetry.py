"""Live signals per attempt: Airflow stats (imported lazily, if installed) and one log line."""

from __future__ import annotations

import logging
import re
from collections import Counter
from typing import Any, Protocol

from autofix.audit.envelope import Interaction
from autofix.audit.metrics import PREFIX, safe_label
from autofix.costs import describe_cost
from autofix.hosting import airflow_module

log = logging.getLogger("autofix.audit")

_STAT_SAFE = re.compile(r"[^A-Za-z0-9_.\-]")


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
    """Drops every metric: the sink when Airflow is absent, and for tests."""

    def incr(self, *args: object, **kwargs: object) -> None:
        return None

    def gauge(self, *args: object, **kwargs: object) -> None:
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
    """Airflow's stats inside Airflow; a no-op sink elsewhere (importing Airflow would
    reconfigure the host's logging)."""
    global _stats
    if _stats is None:
        module = airflow_module("airflow.sdk.observability.stats")
        if module is None:
            return NullStats()  # not cached: Airflow may be loaded later in this process
        _stats = _AirflowStats(module)
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
        passed = result.valid
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


def attempt_log_line(interaction: Interaction) -> str:
    """The one log line per attempt: what it was, its verdict and spend, and which record holds
    the rest. No prompt or output text; the audit store has the full record."""
    env, result = interaction.envelope, interaction.result
    verdict = result.status.value
    if result.error_categories:
        verdict += f" ({', '.join(result.error_categories)})"
    parts = [
        f"audit: {env.operation} call {result.attempt_number}"
        + (f" ({env.agent_type})" if env.agent_type else ""),
        verdict,
        describe_cost(result.cost_usd, result.cost_source)
        if result.cost_usd is not None or result.cost_source is not None
        else None,
        f"tokens in {result.input_tokens} out {result.output_tokens}"
        if result.input_tokens or result.output_tokens
        else None,
        f"{result.latency_ms / 1000:.1f} s",
        f"record {env.envelope_id[:12]}",
    ]
    return " · ".join(part for part in parts if part)


def log_attempt(interaction: Interaction, logger: logging.Logger = log) -> None:
    logger.info("%s", attempt_log_line(interaction))
