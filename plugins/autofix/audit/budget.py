"""Run and day budgets, counted from the audit store before each agent call.

On the SQL store a call is *reserved* before it runs (check and reservation in one locked
transaction) and *settled* when its record is appended, so budgets hold across every worker
of a deployment: call-count budgets never overshoot; cost and token budgets overshoot by at
most the spend of the calls already in flight (their cost is unknown until they finish). A
reservation of a worker that died expires after ``reservation_ttl_seconds``. The JSONL, S3
and memory stores check without reserving: their budgets are per machine (JSONL, memory) or
racy (S3).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from autofix.audit.envelope import aware, new_id
from autofix.audit.stores.base import AuditStore, Usage
from autofix.config import BudgetSettings
from autofix.errors import BudgetExhaustedError
from autofix.redact import redact

log = logging.getLogger("autofix.audit")

# A task's reservation outlives its timeout by this much before it stops counting.
RESERVATION_MARGIN_S = 300.0
_warned_per_machine: set[str] = set()


@dataclass(frozen=True)
class BudgetStatus:
    """The spend that ``check`` counted (useful for the budget-spend metric)."""

    run: Usage
    day: Usage
    day_start: datetime


def day_start(now: datetime) -> datetime:
    return aware(now).astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


class BudgetGuard:
    """``check(trace_id)`` before each call; raises when the next call would exceed a limit.

    Call limits are reached when the count equals the limit (the next call would be one too
    many); cost and token limits when the spend reaches the limit, since the next call's is
    unknown. A call whose cost is unknown (no price for its model) adds nothing to the cost
    limits but its tokens to the token limits: set those too when such models run.
    Exceeding a budget is permanent for the run: the operator maps BudgetExhaustedError to
    AirflowFailException with status ``budget_exhausted``.
    """

    def __init__(
        self,
        store: AuditStore,
        settings: BudgetSettings,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.store = store
        self.settings = settings
        self._clock = clock

    @property
    def enabled(self) -> bool:
        return self._run_limited or self._day_limited

    @property
    def _run_limited(self) -> bool:
        s = self.settings
        limits = (s.max_calls_per_run, s.max_cost_per_run_usd, s.max_tokens_per_run)
        return any(limit is not None for limit in limits)

    @property
    def _day_limited(self) -> bool:
        s = self.settings
        limits = (s.max_calls_per_day, s.max_cost_per_day_usd, s.max_tokens_per_day)
        return any(limit is not None for limit in limits)

    def status(self, trace_id: str) -> BudgetStatus:
        start = day_start(self._clock())
        run = self.store.usage(trace_id=trace_id) if self._run_limited else Usage()
        day = self.store.usage(since=start) if self._day_limited else Usage()
        return BudgetStatus(run=run, day=day, day_start=start)

    def check(self, trace_id: str) -> BudgetStatus:
        """Raise BudgetExhaustedError if any budget is used up; otherwise return the spend."""
        if not self.enabled:
            return BudgetStatus(run=Usage(), day=Usage(), day_start=day_start(self._clock()))
        status = self.status(trace_id)
        raise_if_spent(self.settings, trace_id, status)
        return status

    def reserve(
        self, trace_id: str, *, timeout_s: float | None = None, hostname: str | None = None
    ) -> tuple[str, BudgetStatus]:
        """Check and reserve one call; the id the call's envelope must carry, and the spend.

        On a store that reserves (SQL), the check and the reservation are one transaction; the
        record appended under that envelope id settles it. Elsewhere this is ``check``."""
        reservation_id = new_id()
        now = self._clock()
        start = day_start(now)
        if not self.enabled:
            return reservation_id, BudgetStatus(run=Usage(), day=Usage(), day_start=start)
        seen: list[BudgetStatus] = []

        def check(run: Usage, day: Usage) -> None:
            status = BudgetStatus(run=run, day=day, day_start=start)
            seen.append(status)
            raise_if_spent(self.settings, trace_id, status)

        ttl = max(self.settings.reservation_ttl_seconds, (timeout_s or 0) + RESERVATION_MARGIN_S)
        reserved = self.store.reserve(
            trace_id,
            check,
            now=now,
            ttl_seconds=ttl,
            hostname=hostname,
            reservation_id=reservation_id,
        )
        if reserved is None:
            self._warn_per_machine()
            return reservation_id, self.check(trace_id)
        return reserved, seen[-1]

    def _warn_per_machine(self) -> None:
        where = self.store.describe()
        if where in _warned_per_machine:
            return
        _warned_per_machine.add(where)
        log.warning(
            "audit budgets on %s are counted per machine: workers that do not share this store "
            "each spend the whole budget; use audit.store: sql for budgets that hold across "
            "workers (docs/deployment.md)",
            where,
        )


def raise_if_spent(settings: BudgetSettings, trace_id: str, status: BudgetStatus) -> None:
    """BudgetExhaustedError for the first budget ``status`` has used up, in this order."""
    s, run, day = settings, status.run, status.day
    run_scope = f"for run {redact(trace_id)}"
    day_scope = f"on {status.day_start:%Y-%m-%d} (UTC)"
    for budget, limit, spend, spent, scope in (
        ("max_calls_per_run", s.max_calls_per_run, run, run.calls, run_scope),
        ("max_cost_per_run_usd", s.max_cost_per_run_usd, run, run.cost_usd, run_scope),
        ("max_tokens_per_run", s.max_tokens_per_run, run, run.tokens, run_scope),
        ("max_calls_per_day", s.max_calls_per_day, day, day.calls, day_scope),
        ("max_cost_per_day_usd", s.max_cost_per_day_usd, day, day.cost_usd, day_scope),
        ("max_tokens_per_day", s.max_tokens_per_day, day, day.tokens, day_scope),
    ):
        if limit is not None and spent >= limit:
            raise BudgetExhaustedError(
                budget, limit, spend.calls, spend.cost_usd, scope, tokens=spend.tokens
            )
