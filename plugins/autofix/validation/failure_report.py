"""The failure report: one redacted JSON file per run that gave up."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from autofix.config import resolve
from autofix.redact import redact_value
from autofix.result import ParseResult, Status, truncate
from autofix.validation.records import AttemptRecord, HistoryItem, outcome_of

DEFAULT_REPORT_DIR = "logs/autofix/reports"
REPORT_OUTPUT_CHARS = 4000


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:80] or "run"


def write_failure_report(
    directory: str | Path | None,
    *,
    run: str,
    operation: str,
    original_prompt: str,
    attempts: Sequence[HistoryItem],
    final_status: Status | str,
    reason: str = "",
) -> Path:
    """Write ``{run, operation, original_prompt, attempts: [{attempt, errors}], final_status}``
    (plus reason and the last output, all redacted) to ``directory``; return the file path."""
    target_dir = resolve(directory or DEFAULT_REPORT_DIR)
    target_dir.mkdir(parents=True, exist_ok=True)
    entries: list[dict[str, Any]] = []
    for index, item in enumerate(attempts, 1):
        outcome = outcome_of(item)
        entry: dict[str, Any] = {
            "attempt": item.attempt if isinstance(item, AttemptRecord | ParseResult) else index,
            "status": outcome.status.value,
            "errors": [e.model_dump(mode="json") for e in outcome.errors],
            "repairs": list(outcome.repairs),
            "finish_reason": outcome.finish_reason,
        }
        if isinstance(item, AttemptRecord):
            entry.update(mode=item.mode, escalated=item.escalated)
        entries.append(entry)
    last_output = outcome_of(attempts[-1]).raw_output if attempts else ""
    report = {
        "run": run,
        "operation": operation,
        "original_prompt": original_prompt,
        "attempts": entries,
        "final_status": str(getattr(final_status, "value", final_status)),
        "reason": reason,
        "last_output": truncate(last_output, REPORT_OUTPUT_CHARS),
        "written_at": datetime.now(UTC).isoformat(),
    }
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    path = target_dir / f"{_slug(operation or 'validation')}-{_slug(run)}-{stamp}.json"
    path.write_text(
        json.dumps(redact_value(report), indent=2, ensure_ascii=False), encoding="utf-8"
    )
    return path
