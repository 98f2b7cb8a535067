"""The view's API and pages through FastAPI's TestClient: runs filtered to the DAGs a user
may read, a run's attempt tree (feedback, escalation, links, redaction), 401/403."""

from __future__ import annotations

from datetime import timedelta

import pytest
from audit_support import T0, TM, attempt
from ui_support import ui_client

from autofix.audit.envelope import Interaction, InteractionResult
from autofix.audit.events import AuditEvent, EventName
from autofix.audit.stores.memory import MemoryStore
from autofix.config import AutofixConfig, BudgetSettings
from autofix.result import FieldError

pytestmark = pytest.mark.unit
M = timedelta(minutes=1)
SECRET = "sk-ant-api03-" + "Q" * 40
USERS = {"alice": {"alpha"}, "admin": {"alpha", "beta"}}


def _task(item: Interaction, dag: str, map_index: int = -1) -> Interaction:
    item.envelope.dag_id, item.envelope.task_id = dag, "fix_project.fix"
    item.envelope.map_index, item.envelope.try_number = map_index, 1
    item.envelope.agent_id = "claude"
    return item


def _store() -> MemoryStore:
    store = MemoryStore()
    first = _task(attempt("run_1", "fix", 1, errors=(TM,), at=T0), "alpha", 0)
    first.result.validation_errors = [FieldError(path="$.count", category=TM, message="not int")]
    first.result.raw_output = '{"count": "three"}'
    second = _task(attempt("run_1", "fix", 2, at=T0 + M), "alpha", 0)
    second.envelope.causation_id = first.envelope_id
    second.envelope.instructions = "Your answer failed validation: $.count: not int"
    escalated = _task(attempt("run_1", "fix", 3, at=T0 + 2 * M), "alpha", 0)
    escalated.envelope.causation_id = first.envelope_id
    escalated.envelope.context["escalated"] = True
    other = _task(attempt("run_1", "lint", 1, at=T0 + 3 * M), "beta")  # same run id, other DAG
    other.result = InteractionResult.model_validate(
        {**other.result.model_dump(), "raw_output": f"key {SECRET}"}
    )  # redacted as every record is when it is built
    for item in (first, second, escalated, other):
        store.append(item)
    store.append_event(
        AuditEvent(
            name=EventName.AGENT_STARTED,
            trace_id="run_1",
            operation="fix",
            envelope_id=first.envelope_id,
            attempt=1,
        )
    )
    return store


def test_runs_show_only_readable_dags_and_refuse_others() -> None:
    client = ui_client(_store(), USERS)
    assert client.get("/api/runs").status_code == 401
    assert client.get("/api/runs", headers={"X-Test-User": "mallory"}).status_code == 403
    alice = client.get("/api/runs", headers={"X-Test-User": "alice"}).json()
    assert [(r["dag_id"], r["run_id"]) for r in alice["runs"]] == [("alpha", "run_1")]
    assert alice["dags"] == ["alpha"] and "claude" in alice["choices"]["agents"]
    row = alice["runs"][0]
    assert (row["calls"], row["attempts"], row["retries"]) == (1, 3, 2)
    admin = client.get("/api/runs", headers={"X-Test-User": "admin"}).json()
    assert {r["dag_id"] for r in admin["runs"]} == {"alpha", "beta"}
    refused = client.get("/api/runs?dag_id=beta", headers={"X-Test-User": "alice"})
    assert refused.status_code == 403 and "beta" in refused.json()["detail"]
    assert (
        client.get(
            "/api/run?dag_id=beta&run_id=run_1", headers={"X-Test-User": "alice"}
        ).status_code
        == 403
    )
    assert client.get("/", headers={}).status_code == 401  # the page itself too


def test_budget_used_is_the_largest_share_of_a_run_limit() -> None:
    config = AutofixConfig(budgets=BudgetSettings(max_cost_per_run_usd=1.0, max_calls_per_run=4))
    client = ui_client(_store(), USERS, config=config)
    row = client.get("/api/runs", headers={"X-Test-User": "alice"}).json()["runs"][0]
    assert row["budget_used"] == pytest.approx(0.75)  # 3 x $0.25 of $1 (1 of 4 calls is less)


def test_a_runs_tree_has_feedback_and_an_escalation_branch() -> None:
    client = ui_client(_store(), USERS, run_states={("alpha", "run_1"): "running"})
    tree = client.get("/api/run?dag_id=alpha&run_id=run_1", headers={"X-Test-User": "alice"}).json()
    assert tree["state"] == "running" and tree["totals"]["attempts"] == 3
    [call] = tree["calls"]
    assert call["errors"][:2] == ["[fix] invalid_output", "$.count: not int (type_mismatch)"]
    assert call["retry_class"] == "invalid_output" and call["output"] == '{"count": "three"}'
    retry, escalation = call["children"]
    assert retry["kind"] == "attempt" and retry["feedback"].startswith("Your answer failed")
    assert escalation["kind"] == "escalation"
    assert call["links"] == {
        "task_instance": "/dags/alpha/runs/run_1/tasks/fix_project.fix/mapped/0",
        "log": "/dags/alpha/runs/run_1/tasks/fix_project.fix/mapped/0?try_number=1",
    }
    assert [e["name"] for e in tree["events"]] == ["agent.started"]


def test_outputs_are_shown_redacted() -> None:
    client = ui_client(_store(), USERS)
    text = client.get("/api/run?dag_id=beta&run_id=run_1", headers={"X-Test-User": "admin"}).text
    assert SECRET not in text and "lint" in text


def test_the_page_and_its_files_are_served_with_a_strict_policy() -> None:
    client = ui_client(MemoryStore(), USERS)
    page = client.get("/", headers={"X-Test-User": "alice"})
    assert page.status_code == 200 and "static/app.js" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/static/run.js", headers={"X-Test-User": "alice"}).status_code == 200
    assert client.get("/static/../app.py", headers={"X-Test-User": "alice"}).status_code == 404
