"""Metrics and the report on a known history; live stats; the CLI commands."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from audit_support import NOW, attempt, known_history

from autofix.audit.metrics import compute_metrics
from autofix.audit.prometheus import to_prometheus
from autofix.audit.stores.jsonl import JsonlStore
from autofix.audit.telemetry import (
    NullStats,
    _AirflowStats,
    airflow_stats,
    emit_interaction,
    log_attempt,
)
from autofix.audit.usage_report import build_report, render
from autofix.cli.audit import register


def _samples(text: str) -> dict[str, float]:
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            values[name] = float(value)
    return values


def test_metrics_for_known_history() -> None:
    snap = compute_metrics(known_history(), now=NOW)
    assert (snap.chains, snap.chains_final, snap.chains_in_flight) == (5, 4, 1)
    assert dict(snap.retry_attempts_hist) == {0: 2, 1: 1, 2: 1}
    assert (snap.validation_final_success, snap.validation_final_failure) == (2, 2)
    assert snap.first_attempt_success_rate == 0.25
    assert (snap.retry_success_count, snap.retry_exhausted_count) == (1, 1)
    assert dict(snap.validation_error_types) == {
        "type_mismatch": 3,
        "required_missing": 1,
        "pattern_violation": 1,
        "range_violation": 1,
    }
    assert dict(snap.retry_recovery) == {
        ("type_mismatch", "recovered"): 1,
        ("required_missing", "recovered"): 1,
        ("type_mismatch", "exhausted"): 1,
    }
    assert snap.noise_lines_suppressed == 5
    assert dict(snap.rule_hits) == {"node-deprecation": 1, "auth-401": 1}
    assert snap.agent_calls_total == 8 and snap.cost_usd == 2.0
    assert dict(snap.tokens) == {"input": 800, "output": 400, "thinking": 0}
    assert (snap.budget_day_calls, snap.budget_day_cost_usd) == (7, 1.75)

    samples = _samples(to_prometheus(snap))
    assert samples == {
        'autofix_agent_calls_total{operation="fix",agent_type="claude",status="completed"}': 1,
        'autofix_agent_calls_total{operation="fix",agent_type="claude",status="invalid_output"}': 5,
        'autofix_agent_calls_total{operation="lint",agent_type="claude",status="completed"}': 1,
        'autofix_agent_calls_total{operation="review",agent_type="codex",status="auth_failed"}': 1,
        'autofix_agent_tokens_total{kind="input"}': 800,
        'autofix_agent_tokens_total{kind="output"}': 400,
        'autofix_agent_tokens_total{kind="thinking"}': 0,
        "autofix_agent_cost_usd_total": 2,
        "autofix_agent_latency_ms_sum": 11200,
        'autofix_validation_retry_attempts_bucket{le="0"}': 2,
        'autofix_validation_retry_attempts_bucket{le="1"}': 3,
        'autofix_validation_retry_attempts_bucket{le="2"}': 4,
        'autofix_validation_retry_attempts_bucket{le="+Inf"}': 4,
        "autofix_validation_retry_attempts_sum": 3,
        "autofix_validation_retry_attempts_count": 4,
        'autofix_validation_final_success_total{result="success"}': 2,
        'autofix_validation_final_success_total{result="failure"}': 2,
        "autofix_validation_chains_in_flight": 1,
        'autofix_validation_error_types_total{category="pattern_violation"}': 1,
        'autofix_validation_error_types_total{category="range_violation"}': 1,
        'autofix_validation_error_types_total{category="required_missing"}': 1,
        'autofix_validation_error_types_total{category="type_mismatch"}': 3,
        "autofix_first_attempt_success_rate": 0.25,
        "autofix_retry_success_count": 1,
        "autofix_retry_exhausted_count": 1,
        'autofix_retry_recovery_by_error_type_total{category="required_missing",outcome="recovered"}': 1,
        'autofix_retry_recovery_by_error_type_total{category="type_mismatch",outcome="exhausted"}': 1,
        'autofix_retry_recovery_by_error_type_total{category="type_mismatch",outcome="recovered"}': 1,
        "autofix_classifier_noise_lines_suppressed_total": 5,
        'autofix_classifier_rule_hits_total{rule="auth-401"}': 1,
        'autofix_classifier_rule_hits_total{rule="node-deprecation"}': 1,
        'autofix_budget_spend_usd{scope="day"}': 1.75,
        'autofix_budget_calls{scope="day"}': 7,
    }


def test_histogram_covers_configured_range() -> None:
    text = to_prometheus(compute_metrics(known_history(), now=NOW, histogram_max=4))
    assert 'autofix_validation_retry_attempts_bucket{le="4"} 4' in text


def test_report_for_known_history() -> None:
    report = build_report(known_history(), store="jsonl:x", now=NOW)
    assert (report.calls, report.chains, report.validated_answers) == (8, 5, 2)
    assert (report.total_cost_usd, report.total_tokens) == (2.0, 1200)
    assert [(r.category, r.count, r.share) for r in report.top_error_types] == [
        ("type_mismatch", 3, 0.5),
        ("pattern_violation", 1, 0.1667),
        ("range_violation", 1, 0.1667),
        ("required_missing", 1, 0.1667),
    ]
    assert report.failure_statuses == {"invalid_output": 5, "auth_failed": 1}
    assert [
        (r.category, r.recovered, r.exhausted, r.rate) for r in report.recovery_by_error_type
    ] == [
        ("type_mismatch", 1, 1, 0.5),
        ("required_missing", 1, 0, 1.0),
    ]
    retry = report.retry
    assert (retry.finished_chains, retry.in_flight_chains, retry.retried_chains) == (4, 1, 2)
    assert (retry.retries_used, retry.retries_allowed, retry.utilisation) == (3, 4, 0.75)
    assert (retry.recovered, retry.exhausted, retry.exhaustion_rate) == (1, 1, 0.5)
    assert retry.first_attempt_success_rate == 0.25
    assert report.avg_calls_per_validated_answer == 4.0
    assert report.avg_cost_per_validated_answer_usd == 1.0
    assert [op.operation for op in report.slowest_operations] == ["review", "fix", "lint"]
    assert report.slowest_operations[0].avg_latency_ms == 5000
    assert [(op.operation, op.cost_usd) for op in report.most_expensive_operations] == [
        ("fix", 1.5),
        ("lint", 0.25),
        ("review", 0.25),
    ]
    assert [(f.operation, f.final_status, len(f.attempts)) for f in report.recent_failures] == [
        ("review", "auth_failed", 1),
        ("fix", "invalid_output", 3),
    ]
    assert [a.error_categories for a in report.recent_failures[1].attempts] == [
        ["type_mismatch"],
        ["type_mismatch"],
        ["pattern_violation"],
    ]

    text = render(report, "text")
    assert "retry utilisation: 3 of 4 allowed retries used (75%)" in text
    assert "exhaustion rate 50%" in text
    assert "avg calls per validated answer: 4.00, avg cost per validated answer: $1.0000" in text
    assert "fix in run run-b: invalid_output after 3 attempt(s)" in text
    markdown = render(report, "markdown")
    assert "| type_mismatch | 3 | 50% |" in markdown and markdown.startswith(
        "# autofix audit report"
    )
    data = json.loads(render(report, "json"))
    assert data["retry"]["exhaustion_rate"] == 0.5
    assert data["recovery_by_error_type"][0] == {
        "category": "type_mismatch",
        "recovered": 1,
        "exhausted": 1,
        "rate": 0.5,
    }


def _cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="autofix")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


def test_cli_report_and_metrics(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "audit.jsonl"
    store = JsonlStore(path)
    for item in known_history():
        store.append(item)
    assert _cli(["report", "--store", str(path), "--since", "all", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["calls"] == 8 and data["validated_answers"] == 2
    assert _cli(["report", "--store", str(path), "--since", "7d", "--format", "markdown"]) == 0
    assert (
        "calls: 0" in capsys.readouterr().out
    )  # the history is from 2026-03-01, before the last 7 days
    assert _cli(["metrics", "--store", str(path)]) == 0
    assert "autofix_retry_exhausted_count 1" in capsys.readouterr().out
    assert _cli(["report", "--store", str(path), "--since", "yesterday"]) == 2
    assert "--since 'yesterday'" in capsys.readouterr().err
    assert _cli(["metrics", "--config", str(tmp_path / "missing.yaml")]) == 2
    assert "not found" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["report", "metrics"])
def test_cli_store_that_is_not_there_is_an_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    missing = tmp_path / "missing.jsonl"
    assert _cli([command, "--store", str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"no audit store at {missing}" in err and "audit.path" in err
    assert not missing.exists()  # reading never creates it


class _Recording(NullStats):
    def __init__(self) -> None:
        self.calls: list[tuple[str, int, dict[str, str] | None]] = []

    def incr(
        self, stat: str, count: int = 1, rate: float = 1, *, tags: dict[str, str] | None = None
    ) -> None:
        self.calls.append((stat, count, tags))


def test_live_stats_per_attempt() -> None:
    stats = _Recording()
    history = known_history()
    emit_interaction(history[2], stats)  # run-a/fix attempt 2: valid after one retry
    names = [
        (
            name,
            count,
            (tags or {}).get("retries") or (tags or {}).get("kind") or (tags or {}).get("result"),
        )
        for name, count, tags in stats.calls
    ]
    assert ("autofix.agent_calls", 1, None) in names
    assert ("autofix.agent_tokens", 100, "input") in names
    assert ("autofix.agent_cost_micro_usd", 250000, None) in names
    assert ("autofix.validation_retry_attempts", 1, "1") in names
    assert ("autofix.validation_final_success", 1, "success") in names
    assert ("autofix.retry_success_count", 1, None) in names
    assert all(tags and tags["operation"] == "fix" for _, _, tags in stats.calls)


@pytest.mark.airflow
def test_airflow_stats_adapter(monkeypatch: pytest.MonkeyPatch) -> None:
    import airflow.sdk  # noqa: F401  (inside Airflow: outside, the sink is NullStats)

    monkeypatch.setattr("autofix.audit.telemetry._stats", None)
    sink = airflow_stats()
    assert isinstance(sink, _AirflowStats)
    sent: list[tuple[str, dict[str, object]]] = []
    monkeypatch.setattr(sink._module, "incr", lambda stat, **kw: sent.append((stat, kw)))
    emit_interaction(attempt("run-x", "fix", 1, at=NOW), sink)
    assert sent[0] == (
        "autofix.agent_calls",
        {
            "count": 1,
            "rate": 1,
            "tags": {"operation": "fix", "agent_type": "claude", "status": "completed"},
        },
    )


def test_one_compact_log_line_per_attempt(caplog: pytest.LogCaptureFixture) -> None:
    interaction = known_history()[1]
    with caplog.at_level("INFO", logger="autofix.audit"):
        log_attempt(interaction)
    [record] = caplog.records
    line = record.getMessage()
    assert "\n" not in line and len(line) < 200, line
    assert line.startswith(f"audit: {interaction.operation} call 1 (")
    assert "(type_mismatch, required_missing)" in line
    assert f"record {interaction.envelope.envelope_id[:12]}" in line
    assert "{" not in line  # a summary, not the record as JSON
