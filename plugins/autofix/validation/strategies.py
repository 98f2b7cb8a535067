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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from autofix.result import ErrorCategory, Status
from autofix.validation.feedback import rank_errors
from autofix.validation.outcome import ValidationOutcome

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
