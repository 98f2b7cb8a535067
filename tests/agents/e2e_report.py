"""What the end-to-end matrix should show for each case, what it showed, and the docs table.

``expected(case)``: the scenario's truth (tests/agent_apis/scenarios.py) turned into what
autofix and Airflow must do, with the few documented exceptions (cases the output cannot tell,
caught by a schema or reported as what they show). ``observed(result)``: the same fields read
from one worker result (tests/agents/e2e.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from agent_apis.scenarios import Case
from agents.e2e import SCHEMA_CATCHES, is_delay_case, matrix_cases, uses_schema

# Cases whose kind the output cannot show (docs/agents/codex.md): what autofix reports instead.
# The Airflow action stays the one the truth asks for.
REPORTED_AS = {
    "codex/cancelled": ("unknown", "error"),  # exit 1, no event: an ordinary exception anyway
    "codex/refusal_empty": ("empty_answer", "invalid_output"),  # the refusal part is dropped
}
ACTIONS = {
    "none": "success",
    "transient": "retry",
    "error": "retry",
    "invalid_output": "fail",
    "permanent": "fail",
}


@dataclass(frozen=True)
class Verdict:
    succeeded: bool
    kind: str
    retry_class: str
    action: str  # success | retry (ordinary exception, up_for_retry) | fail (AgentPermanentError)
    feedback: bool = False  # retried with feedback inside the task (attempts > 1)


# What fail_on (agents.e2e.FAIL_ON) makes of a success whose CLI reported a notice.
FAILED_ON = {"claude/denied_tool_dont_ask": ("permission", "permanent")}


def expected(case: Case) -> Verdict:
    truth = case.truth
    kind, retry = truth.kind, truth.retry_class
    if case.key in FAILED_ON:
        kind, retry = FAILED_ON[case.key]
        return Verdict(False, kind, retry, ACTIONS[retry], False)
    if case.key in SCHEMA_CATCHES:  # undetectable from the output; validation catches it
        kind, retry = "structured_output", "invalid_output"
    kind, retry = REPORTED_AS.get(case.key, (kind, retry))
    succeeded = truth.succeeded and case.key not in SCHEMA_CATCHES
    action = ACTIONS[retry] if not succeeded else "success"
    feedback = not succeeded and retry == "invalid_output" and uses_schema(case)
    return Verdict(succeeded, kind if not succeeded else "success", retry, action, feedback)


def first_result(result: dict[str, Any]) -> dict[str, Any]:
    return result["tries"].get("1", {}).get("result") or {}


def action_of(result: dict[str, Any]) -> str:
    """What Airflow did with try 1: its exception and the state it put the task in."""
    record = result["tries"].get("1", {})
    airflow = result["airflow"]
    if record.get("exception") is None and "1" in result["tries"]:
        return "success"
    retried = "2" in airflow or airflow.get("1", {}).get("state") == "up_for_retry"
    if record.get("exception") == "AgentRetryLater" and retried:
        return "retry"
    if record.get("exception") == "AgentPermanentError" and not retried:
        return "fail"
    return f"unexpected ({record.get('exception')}, {airflow.get('1', {}).get('state')})"


def observed(result: dict[str, Any]) -> Verdict:
    parsed = first_result(result)
    succeeded = bool(parsed.get("success"))
    return Verdict(
        succeeded,
        "success" if succeeded else str(parsed.get("failure_kind")),
        str(parsed.get("retry_class")),
        action_of(result),
        int(parsed.get("attempts") or 1) > 1,
    )


def retry_delay(result: dict[str, Any]) -> float | None:
    value = result["airflow"].get("1", {}).get("retry_delay_override")
    return float(value) if value is not None else None


def seconds(result: dict[str, Any]) -> float:
    """The agent's own time in try 1 (all feedback attempts)."""
    duration = result["airflow"].get("1", {}).get("duration_s")
    return float(duration) if duration is not None else float("nan")


def waited(result: dict[str, Any]) -> float | None:
    """Seconds between try 1's end and try 2's start (the delay cases)."""
    first, second = result["airflow"].get("1"), result["airflow"].get("2")
    if not first or not second or not first.get("end") or not second.get("start"):
        return None
    end = datetime.fromisoformat(first["end"])
    return (datetime.fromisoformat(second["start"]) - end).total_seconds()


def delay_kept(result: dict[str, Any]) -> bool:
    """A delay case: try 1 failed transiently with a delay, try 2 came no sooner and succeeded."""
    delay, wait = retry_delay(result), waited(result)
    second = result["tries"].get("2", {})
    return (
        action_of(result) == "retry"
        and delay is not None
        and delay > 0
        and wait is not None
        and wait >= delay - 0.5
        and second.get("exception") is None
        and bool((second.get("result") or {}).get("success"))
    )


def markdown_matrix(merged: dict[str, Any]) -> str:
    """Scenario × CLI: verdict, kind, retry class, Airflow action, seconds (try 1's task time)."""
    results = merged["results"]
    cases = [c for c in matrix_cases() if c.key in results]
    names = sorted({c.name for c in cases}, key=lambda n: (n.startswith("delay_"), n))
    by_key = {c.key: c for c in cases}
    lines = [
        "| scenario | claude | codex | gemini |",
        "|---|---|---|---|",
    ]
    for name in names:
        cells = []
        for cli in ("claude", "codex", "gemini"):
            key = f"{cli}/{name}"
            if key not in results:
                cells.append("n/a")
                continue
            got = observed(results[key])
            if is_delay_case(by_key[key]):
                ok = delay_kept(results[key])
            else:
                ok = got == expected(by_key[key])
            mark = "" if ok else " ✗"
            text = "success" if got.succeeded else f"{got.kind} / {got.retry_class}"
            extra = []
            if got.feedback:
                extra.append("feedback")
            delay = retry_delay(results[key])
            asked = first_result(results[key]).get("retry_after_s")
            if delay is not None:
                capped = asked is not None and float(asked) > delay + 0.5
                extra.append(
                    f"waits {delay:.1f}s"
                    + (f" of {float(asked) / 3600:.1f}h asked" if capped else "")
                )
            wait = waited(results[key])
            if is_delay_case(by_key[key]) and wait is not None:
                extra.append(f"retried after {wait:.1f}s")
            suffix = f" ({', '.join(extra)})" if extra else ""
            cells.append(f"{text} → {got.action}{suffix}, {seconds(results[key]):.1f}s{mark}")
        lines.append(f"| `{name}` | " + " | ".join(cells) + " |")
    workers = merged.get("workers", {})
    lines.append("")
    lines.append(
        f"Wall time {merged.get('wall_s', 0):.0f} s over {len(workers)} workers "
        + ", ".join(
            f"{name}: {w.get('cases')} cases {w.get('elapsed_s', 0):.0f} s"
            for name, w in sorted(workers.items())
        )
        + "."
    )
    return "\n".join(lines)
