"""The seam between ``play`` and the per-format emitters: what they read and what they return."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from autofix.sim.scenario import Scenario, Step

Event = dict[str, Any]

# What Claude and Codex say when a refusal step keeps the default text.
DEFAULT_REFUSAL = "I can't help with that request."


@dataclass
class Context:
    """One run of one step: everything an emitter needs to build its events."""

    scenario: Scenario
    step: Step
    prompt: str
    session_id: str
    attempt: int
    cwd: str
    run_id: str  # the wrapper's run id


@dataclass
class Emission:
    """The event lines of a run, and what the format prints after them."""

    events: list[Event]
    after: list[Event] = field(default_factory=list)  # the wrapper's events after the run
    stderr_doc: Event | None = None  # gemini json: fatal errors go to stderr
    pretty: bool = False  # gemini json pretty-prints its document


@dataclass(frozen=True)
class Emitter:
    """One output format: its events, and the exit status the real CLI gives a failure."""

    emit: Callable[[Context], Emission]
    failure_exit: Callable[[str], int]


def answer_text(ctx: Context) -> str | None:
    """The final answer: the structured output as JSON text if there is no text; halved on max_tokens."""
    step = ctx.step
    if step.text is None and step.structured_output is not None:
        return json.dumps(step.structured_output)
    if step.failure == "max_tokens" and step.text:
        return step.text[: max(1, len(step.text) // 2)]
    return step.text
