"""Retry strategies: what the attempt after an invalid answer sends.

    feedback           the previous answer and its errors (the retry issue's shape; the default)
    resample           the same prompt again with a new seed; the errors are not shown
    feedback+resample  the errors as a short note, *without* the previous answer, and a new seed
    history            the whole conversation so far plus the errors (Instructor / pydantic-ai)
    constrained        the JSON schema goes to the endpoint as ``response_format`` on every
                       attempt, with a new seed on retries; ``constrained=True`` adds the schema
                       to any other strategy
    adaptive           per error category, the strategy with the best recovery rate observed in
                       the audit store (``AdaptiveAdvisor``), a fixed table without history;
                       with ``constrained=True`` attempt 1 sends the schema and each retry also
                       chooses whether to (an "arm": strategy x schema)
    auto               the default: ``adaptive`` + ``constrained`` for agents that take a seed and
                       a schema (``agent="openai"``), ``feedback`` for the CLI agents

Why the hybrid leaves the old answer out: a small model shown its own wrong answer tends to copy
it (the retry issue measured naive feedback *below* blind resampling on Gemma 3 270M), while a
fresh sample conditioned on the error note keeps resampling's diversity and still gets the hint.

Two renderings: ``instructions`` (chat and agent models, markdown feedback from
``feedback.build_feedback``) and ``completion`` (base models: the note and the prompt's last
paragraph are appended so the natural continuation is the corrected answer).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from autofix.redact import redact
from autofix.result import ErrorCategory, FieldError, Status
from autofix.validation.feedback import rank_errors
from autofix.validation.validator import ValidationOutcome

log = logging.getLogger("autofix.validation")

FEEDBACK = "feedback"
RESAMPLE = "resample"
HYBRID = "feedback+resample"
HISTORY = "history"
CONSTRAINED = "constrained"
ADAPTIVE = "adaptive"
AUTO = "auto"

FIXED_STRATEGIES: tuple[str, ...] = (FEEDBACK, RESAMPLE, HYBRID, HISTORY, CONSTRAINED)
STRATEGIES: tuple[str, ...] = (*FIXED_STRATEGIES, ADAPTIVE, AUTO)
RESAMPLING: frozenset[str] = frozenset({RESAMPLE, HYBRID, CONSTRAINED})

FeedbackStyle = Literal["instructions", "completion"]
TRUNCATED = "truncated"  # a pseudo category: the answer was cut off

# Without history: what recovers each category best on small models (docs/benchmarks.md).
DEFAULT_ADAPTIVE_TABLE: dict[str, str] = {
    TRUNCATED: RESAMPLE,
    ErrorCategory.STRUCTURAL_ERROR.value: RESAMPLE,
    ErrorCategory.TYPE_MISMATCH.value: HYBRID,
    ErrorCategory.REQUIRED_MISSING.value: HYBRID,
    ErrorCategory.PATTERN_VIOLATION.value: HYBRID,
    ErrorCategory.RANGE_VIOLATION.value: HYBRID,
    ErrorCategory.SEMANTIC_ERROR.value: HYBRID,
}
# With a schema-capable endpoint: a fresh sample under the schema for every category. On Gemma
# 3 270M it recovered semantic errors as well as or better than adding the error note
# (docs/benchmarks.md); the store's rates overrule it per category.
SCHEMA_ADAPTIVE_TABLE: dict[str, str] = {
    category: CONSTRAINED for category in DEFAULT_ADAPTIVE_TABLE
}
SCHEMA_CANDIDATES: tuple[str, ...] = (CONSTRAINED, f"{HYBRID}+{CONSTRAINED}", RESAMPLE, HYBRID)
SEED_STRIDE = 7919  # attempt n of a resampling strategy uses seed + (n - 1) * SEED_STRIDE


def check_strategy(name: str) -> str:
    if name not in STRATEGIES:
        raise ValueError(f"unknown retry strategy {name!r}; valid: {', '.join(STRATEGIES)}")
    return name


def resolve_auto(samples: bool) -> tuple[str, bool]:
    """What ``auto`` means for an agent: (strategy, constrained). ``samples``: the agent takes a
    seed and a schema per call (docs/benchmarks.md, "Local LLM end to end", for why)."""
    return (ADAPTIVE, True) if samples else (FEEDBACK, False)


def arm(strategy: str, schema: bool) -> str:
    """The name a (strategy, schema sent?) pair is counted under: resample + schema is
    ``constrained``, any other strategy with the schema gets a ``+constrained`` suffix."""
    if not schema or strategy == CONSTRAINED:
        return strategy
    return CONSTRAINED if strategy == RESAMPLE else f"{strategy}+{CONSTRAINED}"


def arm_parts(name: str) -> tuple[str, bool]:
    """(strategy, schema sent?) for an arm name; the inverse of ``arm``."""
    suffix = f"+{CONSTRAINED}"
    if name.endswith(suffix):
        return name[: -len(suffix)], True
    return name, name == CONSTRAINED


def primary_category(outcome: ValidationOutcome) -> str:
    """The category a retry is chosen for: truncation, else the most critical error's category."""
    if outcome.status is Status.TRUNCATED:
        return TRUNCATED
    ranked = rank_errors(outcome.errors)
    return ranked[0].category.value if ranked else ErrorCategory.STRUCTURAL_ERROR.value


# ---------------------------------------------------------------------------- adaptive


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
    """

    stats: RecoveryStats = field(default_factory=RecoveryStats)
    min_trials: int = 5
    default_table: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_ADAPTIVE_TABLE))
    candidates: tuple[str, ...] = (RESAMPLE, HYBRID, FEEDBACK, HISTORY)

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
        )

    def choose(self, category: str) -> str:
        """The table's choice until it has ``min_trials`` observations (the prior is measured
        before it is overruled), then the best measured rate among the candidates."""
        fallback = self.default_table.get(category)
        if fallback not in self.candidates:
            fallback = self.candidates[0]
        if self.stats.rate(category, fallback)[1] < self.min_trials:
            return fallback
        scored = [
            (rate, strategy)
            for strategy in self.candidates
            for rate, n in [self.stats.rate(category, strategy)]
            if n >= self.min_trials
        ]
        return max(scored)[1]


# ---------------------------------------------------------------------------- rendering


def error_note(errors: Sequence[FieldError], status: Status, limit: int = 5) -> str:
    """One line naming what to fix, for completion-style prompts."""
    if status is Status.TRUNCATED:
        return "# Note: keep the answer short and complete; close every bracket."
    parts: list[str] = []
    for error in rank_errors(errors)[:limit]:
        text = f"{error.path}: {error.message.rstrip('.')}"
        if error.expected and error.expected not in text:
            text += f" (expected {error.expected})"
        parts.append(text)
    return (
        redact("# Note: " + "; ".join(parts) + ".") if parts else "# Note: answer with valid JSON."
    )


def last_paragraph(prompt: str) -> tuple[str, str]:
    """Split a few-shot prompt into (head, final paragraph): the final paragraph is the query slot."""
    body = prompt.rstrip()
    index = body.rfind("\n\n")
    if index < 0:
        return "", body
    return body[: index + 2], body[index + 2 :]


def completion_feedback(original_prompt: str, outcome: ValidationOutcome) -> str:
    """Base models: the answer stays where it was, the note follows, the query slot repeats."""
    _, slot = last_paragraph(original_prompt)
    answer = outcome.raw_output.rstrip("\n")
    note = error_note(outcome.errors, outcome.status)
    return f"{original_prompt}{answer}\n{note}\n\n{slot}"


def completion_hybrid(original_prompt: str, outcome: ValidationOutcome) -> str:
    """Base models: the original prompt with the note placed just before the query slot."""
    head, slot = last_paragraph(original_prompt)
    note = error_note(outcome.errors, outcome.status)
    trailing = original_prompt[len(original_prompt.rstrip()) :]
    return f"{head}{note}\n{slot}{trailing}"


def history_messages(
    original_prompt: str,
    outcomes: Sequence[ValidationOutcome],
    feedbacks: Sequence[str],
) -> list[dict[str, str]]:
    """[user: prompt, assistant: answer 1, user: feedback 1, assistant: answer 2, ...]."""
    messages = [{"role": "user", "content": original_prompt}]
    for outcome, text in zip(outcomes, feedbacks, strict=True):
        messages.append({"role": "assistant", "content": outcome.raw_output})
        messages.append({"role": "user", "content": text})
    return messages


def completion_history_turn(original_prompt: str, outcome: ValidationOutcome) -> str:
    """One user turn of a completion-style history: newline, the note, the query slot again."""
    _, slot = last_paragraph(original_prompt)
    return f"\n{error_note(outcome.errors, outcome.status)}\n\n{slot}"
