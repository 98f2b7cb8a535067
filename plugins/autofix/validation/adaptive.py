"""The adaptive strategy: per error category, the retry arm with the best observed recovery rate."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from autofix.result import ErrorCategory, RetryStrategy
from autofix.validation.strategies import FIXED_STRATEGIES, TRUNCATED, arm

log = logging.getLogger("autofix.validation")

# Without history: what recovers each category best on small models (docs/benchmarks.md).
DEFAULT_ADAPTIVE_TABLE: dict[str, str] = {
    TRUNCATED: RetryStrategy.RESAMPLE,
    ErrorCategory.STRUCTURAL_ERROR.value: RetryStrategy.RESAMPLE,
    ErrorCategory.TYPE_MISMATCH.value: RetryStrategy.HYBRID,
    ErrorCategory.REQUIRED_MISSING.value: RetryStrategy.HYBRID,
    ErrorCategory.PATTERN_VIOLATION.value: RetryStrategy.HYBRID,
    ErrorCategory.RANGE_VIOLATION.value: RetryStrategy.HYBRID,
    ErrorCategory.SEMANTIC_ERROR.value: RetryStrategy.HYBRID,
}
# With a schema-capable endpoint: the answer's valid fields kept and the failing ones decoded
# again under the schema (targeted), a fresh constrained sample where nothing is worth keeping.
# On Gemma 3 270M targeted recovered what a fresh sample could not (a broken total, an opaque
# rule on one field; docs/benchmarks.md); the store's rates overrule it per category.
SCHEMA_ADAPTIVE_TABLE: dict[str, str] = {
    category: (
        RetryStrategy.CONSTRAINED
        if category in (TRUNCATED, ErrorCategory.STRUCTURAL_ERROR.value)
        else RetryStrategy.TARGETED
    )
    for category in DEFAULT_ADAPTIVE_TABLE
}
# The schema arms tried when the table's arm disappoints on a category (``explore``).
SCHEMA_EXPLORE: tuple[str, ...] = (RetryStrategy.TARGETED, RetryStrategy.CONSTRAINED)
SCHEMA_CANDIDATES: tuple[str, ...] = (
    RetryStrategy.CONSTRAINED,
    RetryStrategy.TARGETED,
    arm(RetryStrategy.HYBRID, True),
    RetryStrategy.RESAMPLE,
    RetryStrategy.HYBRID,
)


@dataclass
class RecoveryStats:
    """Retries seen per (category, strategy): how many, how many ended valid."""

    trials: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    recovered: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))

    def add(self, category: str, strategy: str, ok: bool) -> None:
        self.trials[(category, strategy)] += 1
        if ok:
            self.recovered[(category, strategy)] += 1

    def rate(self, category: str, strategy: str) -> tuple[float, int]:
        """Laplace-smoothed recovery rate and the number of trials behind it."""
        n = self.trials.get((category, strategy), 0)
        return (self.recovered.get((category, strategy), 0) + 1) / (n + 2), n

    def table(self) -> dict[str, dict[str, tuple[int, int]]]:
        """{category: {strategy: (recovered, trials)}} for reports."""
        out: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
        for (category, strategy), n in sorted(self.trials.items()):
            out[category][strategy] = (self.recovered.get((category, strategy), 0), n)
        return dict(out)


def observations_from_interactions(
    interactions: Iterable[Any], operation: str | None = None
) -> RecoveryStats:
    """Recovery stats from audit Interactions: every retry records, in its envelope context,
    the strategy it used (``strategy``), whether the schema went with it (``constrained``) and
    the category it retried (``retry_for``)."""
    stats = RecoveryStats()
    for interaction in interactions:
        if operation is not None and interaction.operation != operation:
            continue
        context = interaction.envelope.context
        strategy, category = context.get("strategy"), context.get("retry_for")
        if (
            interaction.attempt < 2
            or not isinstance(strategy, str)
            or not isinstance(category, str)
        ):
            continue
        if strategy not in FIXED_STRATEGIES:
            continue
        name = arm(strategy, context.get("constrained") is True)
        stats.add(category, name, bool(interaction.result.validation_passed))
    return stats


@dataclass
class AdaptiveAdvisor:
    """Picks the retry strategy for a category from observed recovery rates.

    A strategy needs ``min_trials`` observations for the category before its rate counts;
    until then the fixed ``default_table`` decides. ``candidates`` limits the choice; they are
    arm names (``arm``), so ``for_schema`` also chooses whether a retry sends the schema.
    ``explore``: when the table's arm recovers less than ``explore_below`` of its first
    ``min_trials`` retries of a category, these arms are tried ``min_trials`` times each before
    the rates decide (explore, then commit). It costs nothing while the table's arm does well,
    and at most ``min_trials`` retries per category for each explored arm otherwise.
    """

    stats: RecoveryStats = field(default_factory=RecoveryStats)
    min_trials: int = 5
    default_table: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_ADAPTIVE_TABLE))
    candidates: tuple[str, ...] = (
        RetryStrategy.RESAMPLE,
        RetryStrategy.HYBRID,
        RetryStrategy.FEEDBACK,
        RetryStrategy.HISTORY,
    )
    explore: tuple[str, ...] = ()
    explore_below: float = 0.5

    @classmethod
    def from_store(cls, store: Any, operation: str | None = None, **kwargs: Any) -> AdaptiveAdvisor:
        """From an audit store (anything with ``iter_all()``); an unreadable store means no history."""
        try:
            stats = observations_from_interactions(store.iter_all(), operation)
        except Exception as exc:  # the advisor must never fail a task
            log.warning("adaptive retry policy: audit store not readable (%s); using defaults", exc)
            stats = RecoveryStats()
        return cls(stats=stats, **kwargs)

    def for_schema(self) -> AdaptiveAdvisor:
        """The same observations, choosing among arms with and without the schema."""
        return AdaptiveAdvisor(
            stats=self.stats,
            min_trials=self.min_trials,
            default_table=dict(SCHEMA_ADAPTIVE_TABLE),
            candidates=SCHEMA_CANDIDATES,
            explore=SCHEMA_EXPLORE,
        )

    def choose(self, category: str) -> str:
        """The table's choice until it has ``min_trials`` observations (the prior is measured
        before it is overruled); if it disappoints, each ``explore`` arm in turn until it has
        as many; then the best measured rate among the candidates."""
        fallback = self.default_table.get(category)
        if fallback not in self.candidates:
            fallback = self.candidates[0]
        rate, trials = self.stats.rate(category, fallback)
        if trials < self.min_trials:
            return fallback
        if rate < self.explore_below:
            for trying in self.explore:
                if (
                    trying in self.candidates
                    and self.stats.rate(category, trying)[1] < self.min_trials
                ):
                    return trying
        scored = [
            (rate, strategy)
            for strategy in self.candidates
            for rate, n in [self.stats.rate(category, strategy)]
            if n >= self.min_trials
        ]
        return max(scored)[1]
