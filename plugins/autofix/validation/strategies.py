"""Retry strategies (result.RetryStrategy): their vocabulary, arm names and the retry category."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from autofix.result import ErrorCategory, RetryStrategy, Status
from autofix.validation.feedback import rank_errors
from autofix.validation.outcome import ValidationOutcome

STRATEGIES: tuple[RetryStrategy, ...] = tuple(RetryStrategy)
# What one retry sends; adaptive and auto choose among these.
FIXED_STRATEGIES: tuple[RetryStrategy, ...] = (
    RetryStrategy.FEEDBACK,
    RetryStrategy.RESAMPLE,
    RetryStrategy.HYBRID,
    RetryStrategy.HISTORY,
    RetryStrategy.CONSTRAINED,
    RetryStrategy.TARGETED,
)
RESAMPLING: frozenset[RetryStrategy] = frozenset(
    {
        RetryStrategy.RESAMPLE,
        RetryStrategy.HYBRID,
        RetryStrategy.CONSTRAINED,
        RetryStrategy.TARGETED,
    }
)
# Strategies that always send a schema: an arm of their own, never with a "+constrained" suffix.
SCHEMA_STRATEGIES: frozenset[RetryStrategy] = frozenset(
    {RetryStrategy.CONSTRAINED, RetryStrategy.TARGETED}
)
TRUNCATED = "truncated"  # a pseudo category: the answer was cut off


class FeedbackStyle(StrEnum):
    """How a retry prompt is rendered."""

    INSTRUCTIONS = "instructions"  # chat and agent models: feedback.build_feedback's markdown
    COMPLETION = "completion"  # base models: completion.py, the note before the query slot


def check_strategy(name: str) -> RetryStrategy:
    if name not in STRATEGIES:
        raise ValueError(f"unknown retry strategy {name!r}; valid: {', '.join(STRATEGIES)}")
    return RetryStrategy(name)


def resolve_auto(samples: bool) -> tuple[RetryStrategy, bool]:
    """What ``auto`` means for an agent: (strategy, constrained). ``samples``: the agent takes a
    seed and a schema per call (docs/benchmarks.md, "Local LLM end to end", for why)."""
    return (RetryStrategy.ADAPTIVE, True) if samples else (RetryStrategy.FEEDBACK, False)


def arm(strategy: str, schema: bool) -> str:
    """The name a (strategy, schema sent?) pair is counted under: resample + schema is
    ``constrained``, any other strategy with the schema gets a ``+constrained`` suffix."""
    if not schema or strategy in SCHEMA_STRATEGIES:
        return strategy
    if strategy == RetryStrategy.RESAMPLE:
        return RetryStrategy.CONSTRAINED
    return f"{strategy}+{RetryStrategy.CONSTRAINED}"


def arm_parts(name: str) -> tuple[RetryStrategy, bool]:
    """(strategy, schema sent?) for an arm name; the inverse of ``arm``."""
    suffix = f"+{RetryStrategy.CONSTRAINED}"
    if name.endswith(suffix):
        return RetryStrategy(name[: -len(suffix)]), True
    return RetryStrategy(name), name in SCHEMA_STRATEGIES


def primary_category(outcome: ValidationOutcome) -> str:
    """The category a retry is chosen for: truncation, else the most critical error's category."""
    if outcome.status is Status.TRUNCATED:
        return TRUNCATED
    ranked = rank_errors(outcome.errors)
    return ranked[0].category.value if ranked else ErrorCategory.STRUCTURAL_ERROR.value


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
