"""Completion-style retry prompts for base models: the answer's natural continuation is the fix."""

from __future__ import annotations

from collections.abc import Sequence

from autofix.redact import redact
from autofix.result import FieldError, Status
from autofix.validation.feedback import rank_errors
from autofix.validation.outcome import ValidationOutcome


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


# Why the hybrid leaves the old answer out: a small model shown its own wrong answer tends to copy
# it (the retry issue measured naive feedback *below* blind resampling on Gemma 3 270M), while a
# fresh sample conditioned on the error note keeps resampling's diversity and still gets the hint.
def completion_hybrid(original_prompt: str, outcome: ValidationOutcome) -> str:
    """Base models: the original prompt with the note placed just before the query slot."""
    head, slot = last_paragraph(original_prompt)
    note = error_note(outcome.errors, outcome.status)
    trailing = original_prompt[len(original_prompt.rstrip()) :]
    return f"{head}{note}\n{slot}{trailing}"


def completion_history_turn(original_prompt: str, outcome: ValidationOutcome) -> str:
    """One user turn of a completion-style history: newline, the note, the query slot again."""
    _, slot = last_paragraph(original_prompt)
    return f"\n{error_note(outcome.errors, outcome.status)}\n\n{slot}"
