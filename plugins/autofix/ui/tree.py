"""A DAG run's agent calls as trees, for the UI: attempt → feedback → next attempt, an
escalation as its own branch. Built from the audit store's records of the run (already
redacted and bounded when they were made); plain values, ready for JSON."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

from autofix.audit.envelope import Interaction, aware
from autofix.audit.events import AuditEvent, summarize_run
from autofix.audit.runs import dag_of

# A page shows this much of an attempt's output and feedback; the audit record keeps more.
MAX_SHOWN_CHARS = 12_000


def _shown(text: str) -> str:
    if len(text) <= MAX_SHOWN_CHARS:
        return text
    return text[:MAX_SHOWN_CHARS] + f"\n… ({len(text) - MAX_SHOWN_CHARS} more characters)"


def ranked_errors(item: Interaction) -> list[str]:
    """What this attempt failed with, most telling first: the verdict's own error, the output's
    validation errors, then the failed verify= checks' errors."""
    result = item.result
    errors: list[str] = []
    if result.error and not result.success:
        errors.append(result.error)
    errors += [
        f"{error.path}: {error.message} ({error.category.value})"
        for error in result.validation_errors
    ]
    for verification in result.verification:
        for check in verification.failed:
            errors += [f"[{check.name}] {line}" for line in check.errors] or [
                f"[{check.name}] failed"
            ]
    return list(dict.fromkeys(errors))


def _node(item: Interaction, ui_url: str) -> dict[str, Any]:
    envelope, result = item.envelope, item.result
    escalated = bool(envelope.context.get("escalated"))
    feedback = envelope.instructions if item.attempt > 1 else ""
    return {
        "id": envelope.envelope_id,
        "parent_id": envelope.causation_id,
        "kind": "escalation" if escalated else "attempt",
        "attempt": item.attempt,
        "operation": envelope.operation,
        "task_id": envelope.task_id,
        "map_index": envelope.map_index,
        "try_number": envelope.try_number,
        "agent": envelope.agent_id,
        "model": result.model or envelope.model,
        "strategy": envelope.context.get("strategy"),
        "status": result.status.value,
        "success": result.success,
        "final": item.is_final,
        "failure_kind": result.failure_kind.value if result.failure_kind else None,
        "retry_class": result.retry_class.value,
        "error_categories": result.error_categories,
        "errors": ranked_errors(item),
        "feedback": _shown(feedback),
        "prompt": _shown(envelope.instructions) if item.attempt == 1 else "",
        "output": _shown(result.raw_output),
        "output_chars": result.raw_output_chars,
        "finish_reason": result.finish_reason,
        "cost_usd": result.cost_usd,
        "cost_source": result.cost_source.value if result.cost_source else None,
        "tokens": {
            "input": result.input_tokens,
            "output": result.output_tokens,
            "thinking": result.thinking_tokens,
            "cached_input": result.cached_input_tokens,
            "total": result.total_tokens,
        },
        "latency_ms": result.latency_ms,
        "recorded_at": aware(item.recorded_at).isoformat(),
        "noise_lines": result.noise_lines,
        "matched_rules": result.matched_rules,
        "notices": [notice.model_dump(mode="json") for notice in result.notices],
        "verification": [v.model_dump(mode="json") for v in result.verification],
        "links": task_links(ui_url, item),
        "children": [],
    }


def task_links(ui_url: str, item: Interaction) -> dict[str, str]:
    """The Airflow UI's pages of the task try that made this call."""
    envelope = item.envelope
    if not (envelope.dag_id and envelope.task_id):
        return {}
    base = ui_url.rstrip("/")
    path = (
        f"{base}/dags/{quote(envelope.dag_id, safe='')}/runs/{quote(item.trace_id, safe='')}"
        f"/tasks/{quote(envelope.task_id, safe='')}"
    )
    if envelope.map_index >= 0:
        path += f"/mapped/{envelope.map_index}"
    links = {"task_instance": path}
    if envelope.try_number is not None:
        links["log"] = f"{path}?try_number={envelope.try_number}"
    return links


def run_tree(
    dag_id: str,
    run_id: str,
    interactions: Iterable[Interaction],
    events: Iterable[AuditEvent],
    *,
    ui_url: str = "",
) -> dict[str, Any]:
    """The run's calls (each a tree of attempts), its totals and its ordered events."""
    known: dict[str, str | None] = {}
    mine = [item for item in interactions if dag_of(item, known) == dag_id]
    ids = {item.envelope_id for item in mine}
    nodes: dict[str, dict[str, Any]] = {}
    calls: list[dict[str, Any]] = []
    for item in mine:
        node = nodes[item.envelope_id] = _node(item, ui_url)
        parent = nodes.get(item.envelope.causation_id or "")
        if parent is not None:
            parent["children"].append(node)
        else:
            calls.append(node)
    ordered = [event for event in events if event.envelope_id is None or event.envelope_id in ids]
    summary = summarize_run(run_id, ordered)
    return {
        "dag_id": dag_id,
        "run_id": run_id,
        "calls": calls,
        "totals": {
            "calls": len(calls),
            "attempts": len(mine),
            "retries": len(mine) - len(calls),
            "succeeded": sum(item.result.success for item in mine),
            "cost_usd": sum(item.result.cost_usd or 0.0 for item in mine),
            "tokens": sum(item.result.total_tokens for item in mine),
        },
        "events": [
            {
                "name": event.name,
                "operation": event.operation,
                "envelope_id": event.envelope_id,
                "attempt": event.attempt,
                "timestamp": aware(event.timestamp).isoformat(),
            }
            for event in ordered
        ],
        "event_order_violations": summary.violations,
        "version": f"{len(mine)}.{len(ordered)}",
    }
