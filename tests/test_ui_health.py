"""The health page (AuditStore.health and GET /api/health): recovery by error category and by
strategy, cost per valid answer, recurring errors, noise per rule and the retry alert, per day
or hour. The scan of MemoryStore and the grouped SQL of SqlStore (SQLite and PostgreSQL)
answer alike, they agree with ``autofix report`` and ``autofix metrics``, a version-2 SQL
store is migrated to answer, and the route shows only the DAGs the user may read."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from audit_support import NOW, T0, known_history
from test_audit_sql_store import postgres, sql_store  # noqa: F401 (fixtures)
from ui_support import ui_client

from autofix.audit.envelope import Interaction
from autofix.audit.health import Health, HealthQuery, Recovery
from autofix.audit.metrics import compute_metrics
from autofix.audit.stores.base import AuditStore
from autofix.audit.stores.memory import MemoryStore
from autofix.audit.stores.sql import SqlStore
from autofix.audit.usage_report import build_report
from autofix.config import AlertSettings, AutofixConfig

pytestmark = pytest.mark.unit
M = timedelta(minutes=1)
BOTH = frozenset({"alpha", "beta"})
ALERT = AlertSettings(min_retries=2)
DAY_1 = datetime(2026, 2, 28, tzinfo=UTC)
DAY_2 = datetime(2026, 3, 1, tzinfo=UTC)


HEALTH_COLUMNS = ("valid", "chain_step", "chain_categories", "health_group", "noise_lines", "rules")


def as_user(name: str) -> dict[str, str]:  # tests/ui_support.py's stand-in for a signed-in user
    return {"X-Test-User": name}


def history() -> list[Interaction]:
    """The known history in two DAGs (run-b in beta, the rest in alpha); retries name their
    strategy: run-a/fix 2 and run-b/fix 2 feedback, run-b/fix 3 resample."""
    items = known_history()
    for item in items:
        item.envelope.dag_id = "beta" if item.trace_id == "run-b" else "alpha"
        item.envelope.task_id = item.operation
        if item.attempt >= 2:
            item.envelope.context["strategy"] = "resample" if item.attempt == 3 else "feedback"
    return items


def _filled(store: AuditStore) -> AuditStore:
    for item in history():
        store.append(item)
    return store


def _health(store: AuditStore, **query: object) -> Health:
    query.setdefault("dag_ids", BOTH)
    query.setdefault("alert", ALERT)
    return store.health(HealthQuery(**query))  # type: ignore[arg-type]


def _check(store: AuditStore) -> None:
    _filled(store)
    health = _health(store)
    assert [b.start for b in health.buckets] == [DAY_1, DAY_2]
    first, second = health.buckets
    assert (first.attempts, first.successes, first.valid_answers) == (1, 0, 0)
    assert first.cost_usd == pytest.approx(0.25) and first.cost_per_valid_answer is None
    assert first.by_category == {} and first.by_strategy == {}  # run-c is still in flight
    assert (second.attempts, second.successes, second.valid_answers) == (7, 2, 2)
    assert second.cost_per_valid_answer == pytest.approx(1.75 / 2)
    assert second.by_category == {
        "required_missing": Recovery(trials=1, recovered=1),
        "type_mismatch": Recovery(trials=2, recovered=1),
    }
    assert second.by_strategy == {
        "feedback": Recovery(trials=2, recovered=1),
        "resample": Recovery(trials=1, recovered=0),
    }
    assert [(e.error_key, e.count, e.last_seen, e.dag_id, e.run_id) for e in health.top_errors] == [
        ("type_mismatch: $.f#: bad", 3, T0 + 4 * M, "beta", "run-b"),
        ("[review] auth_failed", 1, T0 + 6 * M, "beta", "run-b"),
        ("pattern_violation: $.f#: bad", 1, T0 + 5 * M, "beta", "run-b"),
        ("range_violation: $.f#: bad", 1, T0 - timedelta(hours=11), "alpha", "run-c"),
    ]
    assert [(n.rule, n.calls, n.noise_lines) for n in health.noise] == [
        ("node-deprecation", 1, 3),
        ("auth-401", 1, 2),
    ]
    assert health.noise_lines == 5
    alert = health.alert
    assert (alert.retries, alert.recovered, alert.threshold) == (3, 1, 0.5)
    assert alert.below_threshold and health.alert_enabled

    alpha = _health(store, dag_ids=frozenset({"alpha"}))
    assert [(b.start, b.attempts, b.valid_answers) for b in alpha.buckets] == [
        (DAY_1, 1, 0),
        (DAY_2, 3, 2),
    ]
    assert alpha.buckets[1].cost_per_valid_answer == pytest.approx(0.375)
    assert alpha.buckets[1].by_strategy == {"feedback": Recovery(trials=1, recovered=1)}
    assert [e.error_key for e in alpha.top_errors] == [
        "type_mismatch: $.f#: bad",
        "range_violation: $.f#: bad",
    ]
    assert [n.rule for n in alpha.noise] == ["node-deprecation"] and alpha.noise_lines == 3
    assert (alpha.alert.retries, alpha.alert.recovered, alpha.alert.below_threshold) == (
        1,
        1,
        False,
    )
    assert _health(store, dag_ids=BOTH, dag_id="beta").buckets[0].attempts == 4
    assert _health(store, dag_ids=frozenset({"alpha"}), dag_id="beta").buckets == []
    assert _health(store, dag_ids=frozenset()).top_errors == []

    # A window: run-b/fix ends after it, so only run-a/fix's chain counts; the alert looks
    # at the retries up to its end.
    window = _health(store, since=T0, until=T0 + 4 * M)
    assert [(b.start, b.attempts) for b in window.buckets] == [(DAY_2, 5)]
    assert window.buckets[0].by_category == {
        "required_missing": Recovery(trials=1, recovered=1),
        "type_mismatch": Recovery(trials=1, recovered=1),
    }
    assert (window.alert.retries, window.alert.recovered, window.alert.below_threshold) == (
        2,
        1,
        False,
    )
    hourly = _health(store, bucket="hour", top=2)
    assert [(b.start, b.attempts) for b in hourly.buckets] == [
        (datetime(2026, 2, 28, 23, tzinfo=UTC), 1),
        (datetime(2026, 3, 1, 10, tzinfo=UTC), 7),
    ]
    assert len(hourly.top_errors) == 2


def test_health_by_scan() -> None:
    _check(MemoryStore())


def test_health_in_sql(sql_store: SqlStore) -> None:  # noqa: F811
    _check(sql_store)


def test_health_agrees_with_report_and_metrics() -> None:
    store = _filled(MemoryStore())
    health = _health(store)
    report = build_report(history(), now=NOW)
    rates: dict[str, Recovery] = {}
    for bucket in health.buckets:
        for category, row in bucket.by_category.items():
            total = rates.setdefault(category, Recovery())
            total.trials += row.trials
            total.recovered += row.recovered
    assert {
        row.category: Recovery(row.recovered + row.exhausted, row.recovered)
        for row in report.recovery_by_error_type
    } == rates
    cost = sum(b.cost_usd for b in health.buckets)
    valid = sum(b.valid_answers for b in health.buckets)
    assert report.avg_cost_per_validated_answer_usd == pytest.approx(cost / valid)
    metrics = compute_metrics(history(), now=NOW)
    assert {n.rule: n.calls for n in health.noise} == dict(metrics.rule_hits)
    assert health.noise_lines == metrics.noise_lines_suppressed


def test_a_version_2_store_is_migrated(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    store = _filled(SqlStore(url))
    expected = _health(store)
    with store.engine.begin() as conn:  # back to version 2: no health columns
        for index in ("health", "window"):
            conn.exec_driver_sql(f"DROP INDEX ix_autofix_interactions_{index}")
        for column in HEALTH_COLUMNS:
            conn.exec_driver_sql(f"ALTER TABLE autofix_interactions DROP COLUMN {column}")
        conn.exec_driver_sql("UPDATE autofix_schema_version SET version = 2")
    migrated = SqlStore(url)
    assert migrated.schema_version() == 3
    assert _health(migrated) == expected


def test_health_route_shows_only_readable_dags() -> None:
    config = AutofixConfig(alert=ALERT)
    client = ui_client(
        _filled(MemoryStore()), {"alice": {"alpha"}, "admin": set(BOTH)}, config=config
    )
    window = {"since": (T0 - timedelta(days=1)).isoformat(), "until": NOW.isoformat()}

    assert client.get("/api/health", params=window).status_code == 401
    assert client.get("/api/health", params=window, headers=as_user("mallory")).status_code == 403
    refused = client.get(
        "/api/health", params=window | {"dag_id": "beta"}, headers=as_user("alice")
    )
    assert refused.status_code == 403 and "beta" in refused.json()["detail"]

    alice = client.get("/api/health", params=window, headers=as_user("alice")).json()
    assert alice["dags"] == ["alpha"]
    assert [b["attempts"] for b in alice["buckets"]] == [1, 3]
    assert alice["buckets"][1]["cost_per_valid_answer"] == pytest.approx(0.375)
    assert alice["buckets"][1]["by_category"]["type_mismatch"] == {
        "trials": 1,
        "recovered": 1,
        "rate": 1.0,
    }
    assert alice["categories"] == ["required_missing", "type_mismatch"]
    assert alice["strategies"] == ["feedback"]
    assert {e["run_id"] for e in alice["top_errors"]} == {"run-a", "run-c"}
    assert alice["noise"] == [{"rule": "node-deprecation", "calls": 1, "noise_lines": 3}]
    assert alice["alert"] | {"threshold": None} == {
        "name": "autofix.retry_success_rate_low",
        "enabled": True,
        "firing": False,
        "rate": 1.0,
        "threshold": None,
        "retries": 1,
        "recovered": 1,
        "window": 20,
        "min_retries": 2,
    }

    admin = client.get("/api/health", params=window, headers=as_user("admin")).json()
    assert admin["dags"] == ["alpha", "beta"]
    assert [b["attempts"] for b in admin["buckets"]] == [1, 7]
    assert admin["alert"]["firing"] is True and admin["alert"]["rate"] == pytest.approx(1 / 3)
    beta = client.get("/api/health", params=window | {"dag_id": "beta"}, headers=as_user("admin"))
    assert [b["attempts"] for b in beta.json()["buckets"]] == [4]


def test_health_route_window() -> None:
    client = ui_client(_filled(MemoryStore()), {"admin": set(BOTH)})
    admin = as_user("admin")
    recent = client.get("/api/health", headers=admin).json()  # the last 14 days: nothing
    assert recent["buckets"] == [] and recent["top_errors"] == []
    assert datetime.fromisoformat(recent["until"]) - datetime.fromisoformat(
        recent["since"]
    ) == timedelta(days=14)
    hourly = client.get(
        "/api/health",
        params={"since": T0.isoformat(), "until": NOW.isoformat(), "bucket": "hour"},
        headers=admin,
    ).json()
    assert [b["start"] for b in hourly["buckets"]] == ["2026-03-01T10:00:00+00:00"]
    too_long = client.get(
        "/api/health",
        params={"since": (NOW - timedelta(days=40)).isoformat(), "bucket": "hour"},
        headers=admin,
    )
    assert too_long.status_code == 400 and "bucket=day" in too_long.json()["detail"]
    backwards = client.get(
        "/api/health", params={"since": NOW.isoformat(), "until": T0.isoformat()}, headers=admin
    )
    assert backwards.status_code == 400
    assert client.get("/api/health", params={"bucket": "week"}, headers=admin).status_code == 422
