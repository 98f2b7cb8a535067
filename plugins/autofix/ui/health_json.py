"""The health page's answer as JSON: ``Health`` (autofix.audit.health) with the rates worked
out, the series' names listed once, and the alert's state."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from autofix.audit.alert import ALERT_NAME
from autofix.audit.health import Health, HealthBucket, Recovery


def _rates(table: dict[str, Recovery]) -> dict[str, dict[str, Any]]:
    return {
        name: {"trials": row.trials, "recovered": row.recovered, "rate": row.rate}
        for name, row in table.items()
    }


def _bucket(bucket: HealthBucket) -> dict[str, Any]:
    return {
        "start": bucket.start.isoformat(),
        "attempts": bucket.attempts,
        "successes": bucket.successes,
        "valid_answers": bucket.valid_answers,
        "cost_usd": bucket.cost_usd,
        "cost_per_valid_answer": bucket.cost_per_valid_answer,
        "by_category": _rates(bucket.by_category),
        "by_strategy": _rates(bucket.by_strategy),
    }


def health_json(
    health: Health, *, since: datetime, until: datetime, dag_id: str | None
) -> dict[str, Any]:
    alert = health.alert
    return {
        "since": since.isoformat(),
        "until": until.isoformat(),
        "bucket": health.bucket,
        "dag_id": dag_id,
        "buckets": [_bucket(bucket) for bucket in health.buckets],
        "categories": sorted({name for b in health.buckets for name in b.by_category}),
        "strategies": sorted({name for b in health.buckets for name in b.by_strategy}),
        "top_errors": [
            {
                "error_key": error.error_key,
                "count": error.count,
                "last_seen": error.last_seen.isoformat(),
                "dag_id": error.dag_id,
                "run_id": error.run_id,
            }
            for error in health.top_errors
        ],
        "noise": [
            {"rule": row.rule, "calls": row.calls, "noise_lines": row.noise_lines}
            for row in health.noise
        ],
        "noise_lines": health.noise_lines,
        "alert": {
            "name": ALERT_NAME,
            "enabled": health.alert_enabled,
            "firing": health.alert_enabled and alert.below_threshold,
            "rate": alert.rate,
            "threshold": alert.threshold,
            "retries": alert.retries,
            "recovered": alert.recovered,
            "window": alert.window,
            "min_retries": alert.min_retries,
        },
    }
