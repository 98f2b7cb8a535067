"""``autofix report``: what was asked, what came back, what it cost, which errors recur."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Literal

from pydantic import BaseModel, Field, computed_field

from autofix.audit.envelope import Interaction, aware
from autofix.audit.metrics import (
    Chain,
    ChainOutcome,
    MetricsSnapshot,
    build_chains,
    compute_metrics,
)
from autofix.costs import CostSource, describe_cost
from autofix.result import truncate

ReportFormat = Literal["text", "json", "markdown"]

_SINCE_RE = re.compile(r"^\s*(\d+)\s*([mhdw])\s*$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_since(value: str | None, now: datetime | None = None) -> datetime | None:
    """``7d``, ``24h``, ``30m``, ``2w``, an ISO date or time, or ``all`` / empty for everything."""
    if value is None or value.strip().lower() in {"", "all"}:
        return None
    now = now or datetime.now(UTC)
    match = _SINCE_RE.match(value)
    if match:
        amount, unit = int(match.group(1)), match.group(2)
        return now - timedelta(**{_UNITS[unit]: amount})
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError as exc:
        raise ValueError(
            f"--since {value!r}: use 7d, 24h, 30m, 2w or an ISO date like 2026-01-31"
        ) from exc
    return aware(moment)


class ErrorTypeRow(BaseModel):
    category: str
    count: int
    share: float


class RecoveryRow(BaseModel):
    category: str
    recovered: int
    exhausted: int

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rate(self) -> float:
        total = self.recovered + self.exhausted
        return self.recovered / total if total else 0.0


class VerificationRow(BaseModel):
    """One verify= check: the attempts it failed, and the chains it failed in by their end."""

    check: str
    failed_attempts: int
    recovered: int
    exhausted: int


class RetryStats(BaseModel):
    finished_chains: int = 0
    in_flight_chains: int = 0
    first_attempt_success_rate: float = 0.0
    retried_chains: int = 0
    retries_used: int = 0
    retries_allowed: int = 0
    utilisation: float = 0.0  # retries used / retries allowed
    recovered: int = 0
    exhausted: int = 0
    exhaustion_rate: float = 0.0  # exhausted / retried chains


class OperationStat(BaseModel):
    operation: str
    calls: int
    avg_latency_ms: float
    p95_latency_ms: float
    max_latency_ms: float
    cost_usd: float  # of the calls whose cost is known
    avg_cost_usd: float
    cost_unknown_calls: int = 0  # calls of a model without a price


class AttemptLine(BaseModel):
    attempt: int
    envelope_id: str
    status: str
    validation_passed: bool
    error: str | None
    error_categories: list[str]
    latency_ms: float
    cost_usd: float | None
    cost_source: CostSource | None = None
    recorded_at: datetime


class FailureEntry(BaseModel):
    trace_id: str
    operation: str
    final_status: str
    attempts: list[AttemptLine]


class Report(BaseModel):
    store: str
    generated_at: datetime
    since: datetime | None
    calls: int = 0
    chains: int = 0
    validated_answers: int = 0
    total_cost_usd: float = 0.0  # of the calls whose cost is known
    cost_unknown_calls: int = 0  # calls of a model without a price: not in total_cost_usd
    total_tokens: int = 0
    top_error_types: list[ErrorTypeRow] = Field(default_factory=list)
    failure_statuses: dict[str, int] = Field(default_factory=dict)
    recovery_by_error_type: list[RecoveryRow] = Field(default_factory=list)
    verification_by_check: list[VerificationRow] = Field(default_factory=list)
    retry: RetryStats = Field(default_factory=RetryStats)
    avg_calls_per_validated_answer: float | None = None
    avg_cost_per_validated_answer_usd: float | None = None
    slowest_operations: list[OperationStat] = Field(default_factory=list)
    most_expensive_operations: list[OperationStat] = Field(default_factory=list)
    recent_failures: list[FailureEntry] = Field(default_factory=list)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = max(0, min(len(ordered) - 1, round(share * (len(ordered) - 1))))
    return ordered[index]


def _operation_stats(items: list[Interaction]) -> list[OperationStat]:
    grouped: dict[str, list[Interaction]] = {}
    for item in items:
        grouped.setdefault(item.operation, []).append(item)
    stats = []
    for operation, calls in grouped.items():
        latencies = [c.result.latency_ms for c in calls]
        cost = sum(c.result.cost_usd or 0.0 for c in calls)
        unknown = sum(1 for c in calls if c.result.cost_source is CostSource.UNKNOWN)
        stats.append(
            OperationStat(
                operation=operation,
                calls=len(calls),
                avg_latency_ms=round(sum(latencies) / len(calls), 3),
                p95_latency_ms=round(_percentile(latencies, 0.95), 3),
                max_latency_ms=round(max(latencies), 3),
                cost_usd=round(cost, 6),
                avg_cost_usd=round(cost / len(calls), 6),
                cost_unknown_calls=unknown,
            )
        )
    return stats


def _failure_entry(chain: Chain) -> FailureEntry:
    return FailureEntry(
        trace_id=chain.trace_id,
        operation=chain.operation,
        final_status=chain.last.result.status.value,
        attempts=[
            AttemptLine(
                attempt=item.attempt,
                envelope_id=item.envelope_id,
                status=item.result.status.value,
                validation_passed=item.result.validation_passed,
                error=truncate(item.result.error, 300) if item.result.error else None,
                error_categories=item.result.error_categories,
                latency_ms=round(item.result.latency_ms, 3),
                cost_usd=item.result.cost_usd,
                cost_source=item.result.cost_source,
                recorded_at=item.recorded_at,
            )
            for item in chain.attempts
        ],
    )


def build_report(
    interactions: Iterable[Interaction],
    *,
    store: str = "",
    since: datetime | None = None,
    now: datetime | None = None,
    top: int = 5,
    failures: int = 5,
) -> Report:
    items = list(interactions)
    now = now or datetime.now(UTC)
    snap = compute_metrics(items, now=now)
    chains = build_chains(items)
    finished = [chain for chain in chains if chain.final]
    retried = [chain for chain in finished if chain.retries > 0]
    validated = snap.validation_final_success
    total_errors = sum(snap.validation_error_types.values())

    recovery: dict[str, RecoveryRow] = {}
    for (category, outcome), count in snap.retry_recovery.items():
        row = recovery.setdefault(
            category, RecoveryRow(category=category, recovered=0, exhausted=0)
        )
        if outcome is ChainOutcome.RECOVERED:
            row.recovered += count
        else:
            row.exhausted += count

    retries_used = sum(chain.retries for chain in finished)
    retries_allowed = sum(chain.max_attempts - 1 for chain in finished)
    operations = _operation_stats(items)
    failed_chains = [chain for chain in finished if not chain.succeeded]
    failed_chains.sort(key=lambda chain: chain.last.recorded_at, reverse=True)
    statuses = Counter(item.result.status.value for item in items if not item.result.success)

    return Report(
        store=store,
        generated_at=now,
        since=since,
        calls=len(items),
        chains=len(chains),
        validated_answers=validated,
        total_cost_usd=round(snap.cost_usd, 6),
        cost_unknown_calls=snap.cost_unknown_calls,
        total_tokens=sum(snap.tokens.values()),
        top_error_types=[
            ErrorTypeRow(category=category, count=count, share=round(count / total_errors, 4))
            for category, count in sorted(
                snap.validation_error_types.items(), key=lambda kv: (-kv[1], kv[0])
            )[:top]
        ],
        failure_statuses=dict(statuses.most_common()),
        recovery_by_error_type=sorted(
            recovery.values(), key=lambda row: (-(row.recovered + row.exhausted), row.category)
        ),
        verification_by_check=_verification_rows(snap),
        retry=RetryStats(
            finished_chains=len(finished),
            in_flight_chains=snap.chains_in_flight,
            first_attempt_success_rate=round(snap.first_attempt_success_rate, 4),
            retried_chains=len(retried),
            retries_used=retries_used,
            retries_allowed=retries_allowed,
            utilisation=round(retries_used / retries_allowed, 4) if retries_allowed else 0.0,
            recovered=snap.retry_success_count,
            exhausted=snap.retry_exhausted_count,
            exhaustion_rate=round(snap.retry_exhausted_count / len(retried), 4) if retried else 0.0,
        ),
        avg_calls_per_validated_answer=round(len(items) / validated, 4) if validated else None,
        avg_cost_per_validated_answer_usd=round(snap.cost_usd / validated, 6)
        if validated
        else None,
        slowest_operations=sorted(operations, key=lambda op: (-op.avg_latency_ms, op.operation))[
            :top
        ],
        most_expensive_operations=sorted(operations, key=lambda op: (-op.cost_usd, op.operation))[
            :top
        ],
        recent_failures=[_failure_entry(chain) for chain in failed_chains[:failures]],
    )


def _verification_rows(snap: MetricsSnapshot) -> list[VerificationRow]:
    checks = set(snap.verification_failures) | {c for c, _ in snap.verification_recovery}
    rows = [
        VerificationRow(
            check=check,
            failed_attempts=snap.verification_failures[check],
            recovered=snap.verification_recovery[(check, ChainOutcome.RECOVERED)],
            exhausted=snap.verification_recovery[(check, ChainOutcome.EXHAUSTED)],
        )
        for check in checks
    ]
    return sorted(rows, key=lambda row: (-row.failed_attempts, row.check))


# --------------------------------------------------------------------------- rendering


def _money(value: float | None) -> str:
    return "-" if value is None else f"${value:.4f}"


def _known_cost(value: float, unknown: int) -> str:
    """A sum that leaves out calls of unknown cost says so, never passing for the whole."""
    if not unknown:
        return _money(value)
    return f"{_money(value)} + {unknown} call(s) of unknown cost"


def _attempt_cost(attempt: AttemptLine) -> str:
    if attempt.cost_source is None:  # a record from before costs had a source
        return _money(attempt.cost_usd)
    return describe_cost(attempt.cost_usd, attempt.cost_source)


def _pct(value: float) -> str:
    return f"{value:.0%}"


def _table(headers: list[str], rows: list[list[str]], markdown: bool) -> list[str]:
    if not rows:
        return ["(none)"]
    if markdown:
        lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
        lines += [
            "| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows
        ]
        return lines
    widths = [max(len(headers[i]), *(len(row[i]) for row in rows)) for i in range(len(headers))]
    lines = ["  ".join(headers[i].ljust(widths[i]) for i in range(len(headers))).rstrip()]
    lines += [
        "  ".join(row[i].ljust(widths[i]) for i in range(len(headers))).rstrip() for row in rows
    ]
    return lines


def render(report: Report, fmt: ReportFormat = "text") -> str:
    if fmt == "json":
        return report.model_dump_json(indent=2)
    md = fmt == "markdown"
    out: list[str] = []

    def heading(title: str) -> None:
        out.append("")
        out.append(f"## {title}" if md else f"{title}\n{'-' * len(title)}")

    since = report.since.isoformat(timespec="seconds") if report.since else "the beginning"
    title = f"autofix audit report: {report.store or 'store'} since {since}"
    out.append(f"# {title}" if md else title)
    r = report.retry
    out.append("")
    summary = [
        f"calls: {report.calls}, chains: {report.chains} ({r.in_flight_chains} in flight), "
        f"validated answers: {report.validated_answers}",
        f"cost: {_known_cost(report.total_cost_usd, report.cost_unknown_calls)}, "
        f"tokens: {report.total_tokens}",
        f"avg calls per validated answer: "
        f"{'-' if report.avg_calls_per_validated_answer is None else f'{report.avg_calls_per_validated_answer:.2f}'}, "
        f"avg cost per validated answer: {_money(report.avg_cost_per_validated_answer_usd)}",
    ]
    out += [f"- {line}" for line in summary] if md else summary

    heading("Top error types")
    out += _table(
        ["category", "count", "share"],
        [[row.category, str(row.count), _pct(row.share)] for row in report.top_error_types],
        md,
    )
    if report.failure_statuses:
        out.append("")
        out.append(
            "failed calls by status: "
            + ", ".join(f"{k} {v}" for k, v in report.failure_statuses.items())
        )

    heading("Recovery by error type")
    out += _table(
        ["category", "recovered", "exhausted", "recovery rate"],
        [
            [row.category, str(row.recovered), str(row.exhausted), _pct(row.rate)]
            for row in report.recovery_by_error_type
        ],
        md,
    )

    heading("Verification (verify= checks)")
    out += _table(
        ["check", "failed attempts", "recovered", "exhausted"],
        [
            [row.check, str(row.failed_attempts), str(row.recovered), str(row.exhausted)]
            for row in report.verification_by_check
        ],
        md,
    )

    heading("Retries")
    retry_lines = [
        f"first-attempt success rate: {_pct(r.first_attempt_success_rate)} of {r.finished_chains} finished chains",
        f"retry utilisation: {r.retries_used} of {r.retries_allowed} allowed retries used ({_pct(r.utilisation)})",
        f"retried chains: {r.retried_chains}, recovered {r.recovered}, exhausted {r.exhausted} "
        f"(exhaustion rate {_pct(r.exhaustion_rate)})",
    ]
    out += [f"- {line}" for line in retry_lines] if md else retry_lines

    op_headers = ["operation", "calls", "avg ms", "p95 ms", "max ms", "cost", "avg cost"]

    def op_rows(ops: list[OperationStat]) -> list[list[str]]:
        return [
            [
                op.operation,
                str(op.calls),
                f"{op.avg_latency_ms:.0f}",
                f"{op.p95_latency_ms:.0f}",
                f"{op.max_latency_ms:.0f}",
                _known_cost(op.cost_usd, op.cost_unknown_calls),
                _money(op.avg_cost_usd),
            ]
            for op in ops
        ]

    heading("Slowest operations")
    out += _table(op_headers, op_rows(report.slowest_operations), md)
    heading("Most expensive operations")
    out += _table(op_headers, op_rows(report.most_expensive_operations), md)

    heading("Recent failures")
    if not report.recent_failures:
        out.append("(none)")
    for failure in report.recent_failures:
        out.append(
            f"{'- **' if md else '* '}{failure.operation}{'**' if md else ''} in run {failure.trace_id}: "
            f"{failure.final_status} after {len(failure.attempts)} attempt(s)"
        )
        for attempt in failure.attempts:
            first_line = attempt.error.splitlines()[0] if attempt.error else ""
            detail = ", ".join(attempt.error_categories) or first_line
            verdict = "valid" if attempt.validation_passed else attempt.status
            out.append(
                f"{'    - ' if md else '    '}attempt {attempt.attempt} [{attempt.envelope_id[:12]}]: {verdict}"
                f", {attempt.latency_ms:.0f} ms, {_attempt_cost(attempt)}"
                + (f": {detail}" if detail else "")
            )
    return "\n".join(out).strip() + "\n"
