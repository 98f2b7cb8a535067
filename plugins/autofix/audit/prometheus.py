"""Prometheus text exposition (format 0.0.4) of a metrics snapshot, for ``autofix metrics``."""

from __future__ import annotations

import math

from autofix.audit.metrics import PREFIX, MetricsSnapshot


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
        "verification_failures_total", "counter", "Attempts in which a verify= check failed."
    )
    for check, count in sorted(snap.verification_failures.items()):
        out.sample("verification_failures_total", count, check=check)
    out.family(
        "verification_recovery_total",
        "counter",
        "Finished chains in which a verify= check failed, by how they ended.",
    )
    for (check, outcome), count in sorted(snap.verification_recovery.items()):
        out.sample("verification_recovery_total", count, check=check, outcome=outcome)

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
