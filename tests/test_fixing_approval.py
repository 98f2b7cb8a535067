"""The human gate of the autonomous_fixing DAG, run with dag.test() in a real SQLite Airflow.

The approval task parks in ``awaiting_input`` and ``dag.test()`` waits until a response is
recorded from outside. Here that is a thread playing the person: it waits for the task, reads
the request and answers through the REST API of Airflow's own api-server app (``create_app``,
in this process, on the same metadata DB), as the Required Actions page does. The timeout is
the scheduler's own sweep (``SchedulerJobRunner.check_awaiting_input_timeouts``). The remote
is a bare repository in tmp; the pull request goes to the scripted forge in
``tests/forge_api.py``.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from airflow_support import DagRunOutcome, ensure_db, run_dag_file
from forge_api import ForgeServer

from autofix import gitops

pytestmark = pytest.mark.airflow

ROOT = Path(__file__).resolve().parent.parent
DAG_FILE = ROOT / "airflow_dags" / "autonomous_fixing.py"
GATE = "fix_project.approval"
PUBLISH = "fix_project.publish"
BRANCH = "autofix/fixes"
TOKEN = "ghp_approvalTestToken0123456789abcdefXY"
CONN_ID = "autofix_remote"
WAIT_FOR_GATE_S = 240.0  # the run's tasks before the gate, on a loaded machine

SCENARIO = """format: claude
steps:
  - match: "(?i)discover how the tests"
    text: '{"framework": "pytest", "test_command": "pytest -q", "checks": ["ruff"]}'
    cost_usd: 0.01
  - match: "(?i)fix"
    files: [{path: pkg/__init__.py, content: "VALUE = 1\\n"}]
    git_commit: "Remove unused import"
    cost_usd: 0.02
"""


@pytest.fixture(scope="module")
def api() -> Iterator[Any]:
    """Airflow's api-server app (the core API) in this process, and an admin's token."""
    from airflow.api_fastapi.app import create_app, get_auth_manager
    from airflow.api_fastapi.auth.managers.simple.user import SimpleAuthManagerUser
    from fastapi.testclient import TestClient

    ensure_db()
    app = create_app("core")
    token = get_auth_manager().generate_jwt(SimpleAuthManagerUser(username="admin", role="ADMIN"))
    with TestClient(app, base_url="http://localhost/api/v2") as client:
        client.headers["Authorization"] = f"Bearer {token}"
        yield client


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    monkeypatch.delenv("AUTOFIX_CONFIG", raising=False)
    (tmp_path / "scenario.yaml").write_text(SCENARIO, encoding="utf-8")
    return tmp_path


def project_with_one_issue(home: Path) -> Path:
    """A project on main whose one ruff issue (F401) the scripted agent fixes in one commit."""
    source = home / "shop-src"
    (source / "pkg").mkdir(parents=True)
    (source / "pyproject.toml").write_text(
        '[project]\nname = "pkg"\nversion = "0"\n[tool.ruff.lint]\nselect = ["E", "F"]\n'
    )
    (source / "pkg" / "__init__.py").write_text("import os\n\nVALUE = 1\n")
    (source / ".pre-commit-config.yaml").write_text("repos: []\n")
    gitops.init_scratch_copy(source, home / "shop")
    return home / "shop"


def bare_remote(home: Path) -> Path:
    remote = home / "remote.git"
    subprocess.run(["git", "init", "--bare", "--quiet", str(remote)], check=True)
    return remote


def remote_branches(remote: Path) -> list[str]:
    done = subprocess.run(
        ["git", "-C", str(remote), "for-each-ref", "--format=%(refname)", "refs/heads"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.split()


def connect(monkeypatch: pytest.MonkeyPatch, remote: Path, extra: dict[str, str]) -> None:
    conn = {"conn_type": "generic", "host": str(remote), "password": TOKEN, "extra": extra}
    monkeypatch.setenv(f"AIRFLOW_CONN_{CONN_ID.upper()}", json.dumps(conn))


@dataclass
class Person:
    """A thread that waits for the gate and answers it (``answer`` None: lets it time out)."""

    api: Any
    answer: str | None
    seen: dict[str, Any] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _waiting_gate(self) -> Any:
        from airflow.models.pool import Pool
        from airflow.models.taskinstance import TaskInstance
        from airflow.utils.session import create_session

        deadline = time.monotonic() + WAIT_FOR_GATE_S
        while time.monotonic() < deadline:
            with create_session() as session:
                ti = (
                    session.query(TaskInstance)
                    .filter_by(dag_id="autonomous_fixing", task_id=GATE, state="awaiting_input")
                    .one_or_none()
                )
                if ti is not None:
                    self.seen["occupied_pool_slots"] = Pool.get_default_pool(
                        session=session
                    ).occupied_slots(session=session)
                    self.seen["trigger_id"] = ti.trigger_id
                    self.seen["next_method"] = ti.next_method
                    self.seen["timeout_at"] = ti.trigger_timeout
                    return ti.run_id, ti.map_index
            time.sleep(0.5)
        self.errors.append(f"the gate was not awaiting input within {WAIT_FOR_GATE_S:g}s")
        return None

    def _run(self) -> None:
        found = self._waiting_gate()
        if found is None:
            return
        run_id, map_index = found
        path = f"/dags/autonomous_fixing/dagRuns/{run_id}/taskInstances/{GATE}/{map_index}"
        try:
            detail = self.api.get(f"{path}/hitlDetails")
            self.seen["request"] = detail.json()
            if self.answer is None:
                self._sweep_after(self.seen["timeout_at"])
                return
            answered = self.api.patch(
                f"{path}/hitlDetails", json={"chosen_options": [self.answer], "params_input": {}}
            )
            if answered.status_code != 200:
                self.errors.append(f"answer refused: {answered.status_code} {answered.text}")
                self._sweep_after(None)  # end the run: the test fails on the error
        except Exception as exc:
            self.errors.append(repr(exc))
            self._sweep_after(None)

    @staticmethod
    def _sweep_after(deadline: Any) -> None:
        """What the scheduler does every loop: resolve the requests whose time is up."""
        from airflow._shared.timezones import timezone
        from airflow.jobs.job import Job
        from airflow.jobs.scheduler_job_runner import SchedulerJobRunner
        from airflow.models.taskinstance import TaskInstance
        from airflow.utils.session import create_session

        if deadline is None:  # make the time up now
            with create_session() as session:
                session.query(TaskInstance).filter_by(
                    dag_id="autonomous_fixing", task_id=GATE, state="awaiting_input"
                ).update({"trigger_timeout": timezone.utcnow()})
        else:
            while timezone.utcnow() <= deadline:
                time.sleep(0.2)
        time.sleep(0.2)
        SchedulerJobRunner(job=Job(), executors=[]).check_awaiting_input_timeouts()

    def done(self) -> None:
        self.thread.join(timeout=30)
        assert not self.errors, self.errors


def run_gated(
    api: Any, project: Path, answer: str | None, **conf: Any
) -> tuple[DagRunOutcome, Person]:
    person = Person(api, answer)
    outcome = run_dag_file(
        DAG_FILE,
        {
            "project_path": str(project),
            "scenario": str(project.parent / "scenario.yaml"),
            "checks": ["ruff"],
            "approval": True,
            **conf,
        },
    )
    person.done()
    return outcome, person


def assert_waited_without_a_slot(person: Person) -> None:
    # Parked, not running: no trigger, no pool slot; execute_complete runs on the answer.
    assert person.seen["occupied_pool_slots"] == 0
    assert person.seen["trigger_id"] is None
    assert person.seen["next_method"] == "execute_complete"


def test_approved_branch_is_pushed_to_the_remote(
    api: Any, home: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    project = project_with_one_issue(home)
    remote = bare_remote(home)
    connect(monkeypatch, remote, {})
    outcome, person = run_gated(api, project, "Approve", push="branch", git_conn_id=CONN_ID)
    assert outcome.state == "success", outcome.task_states
    assert outcome.task_states[f"{GATE}[0]"] == "success"
    assert outcome.task_states[f"{PUBLISH}[0]"] == "success"
    assert_waited_without_a_slot(person)

    request = person.seen["request"]
    assert request["subject"] == f"autofix: approve 1 commit(s) on {BRANCH} in shop?"
    assert request["options"] == ["Approve", "Reject"] and request["defaults"] == ["Reject"]
    body = request["body"]
    assert "| before | 1 | ruff 1 |" in body and "| after | 0 | ruff 0 |" in body
    assert "**Cost**: $0.0300 for 2 agent call(s) (sim, 0 failed)" in body
    assert "Remove unused import" in body
    assert "1 file changed, 2 deletions(-)" in body
    assert f"**Approve**: push `{BRANCH}` to the remote of connection `{CONN_ID}`." in body

    local = gitops.head(project)
    assert remote_branches(remote) == [f"refs/heads/{BRANCH}"]
    assert (
        subprocess.run(
            ["git", "-C", str(remote), "rev-parse", BRANCH], capture_output=True, text=True
        ).stdout.strip()
        == local
    )
    assert TOKEN not in (project / ".git" / "config").read_text()
    assert outcome.xcoms[f"{GATE}[0]"]["approved"] is True
    assert outcome.xcoms[f"{PUBLISH}[0]"]["pushed"] == local
    assert outcome.state_store(GATE, map_index=0)["decision"]["decision"] == "approved"
    note = outcome.note() or ""
    assert note.splitlines()[2] == (
        f"- **shop**: APPROVED by admin · pushed `{BRANCH}` ({local[:8]}) to connection `{CONN_ID}`"
    )
    assert TOKEN not in capfd.readouterr().out


def test_rejected_branch_is_kept_and_the_run_ends_rejected(
    api: Any, home: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    project = project_with_one_issue(home)
    remote = bare_remote(home)
    connect(monkeypatch, remote, {})
    outcome, person = run_gated(api, project, "Reject", push="branch", git_conn_id=CONN_ID)
    assert outcome.state == "failed"
    assert outcome.task_states["fix_project.summary[0]"] == "success"
    assert outcome.task_states[f"{GATE}[0]"] == "failed"
    assert outcome.task_states[f"{PUBLISH}[0]"] == "upstream_failed"
    assert_waited_without_a_slot(person)
    assert remote_branches(remote) == []  # nothing pushed
    assert gitops.current_branch(project) == BRANCH  # the branch and its commits are kept
    assert [c.subject for c in gitops.commits_between(project, "main")] == ["Remove unused import"]
    assert outcome.state_store(GATE, map_index=0)["decision"]["decision"] == "rejected"
    note = outcome.note() or ""
    assert note.startswith("autofix · run failed\n- **shop**: CLEAN")
    assert (
        note.splitlines()[2]
        == f"- **shop**: REJECTED by admin · branch `{BRANCH}` kept, not pushed"
    )
    log = capfd.readouterr().out
    assert re.search(
        rf"\[error\s*\] rejected by admin: branch {BRANCH} is kept in {project}, nothing was "
        r"pushed\. Next: change the branch by hand, or run again",
        log,
    ), log[-3000:]


def test_no_answer_in_time_rejects_by_default(api: Any, home: Path) -> None:
    project = project_with_one_issue(home)
    outcome, person = run_gated(api, project, None, approval_timeout=1)
    assert outcome.state == "failed"
    assert outcome.task_states[f"{GATE}[0]"] == "failed"
    assert outcome.task_states[f"{PUBLISH}[0]"] == "upstream_failed"
    assert_waited_without_a_slot(person)
    assert "no answer within 1s" in person.seen["request"]["body"]
    decision = outcome.state_store(GATE, map_index=0)["decision"]
    assert decision["decision"] == "rejected" and decision["timed_out"] is True
    assert decision["by"] is None
    assert gitops.current_branch(project) == BRANCH
    assert (outcome.note() or "").splitlines()[2] == (
        f"- **shop**: REJECTED by default: no answer within 1s · branch `{BRANCH}` kept, not pushed"
    )


def test_approved_pull_request_reaches_the_forge(
    api: Any, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = project_with_one_issue(home)
    remote = bare_remote(home)
    with ForgeServer(token=TOKEN, repository="octo-org/shop") as forge:
        connect(monkeypatch, remote, {"api_url": forge.origin, "repository": "octo-org/shop"})
        outcome, _ = run_gated(api, project, "Approve", push="pull_request", git_conn_id=CONN_ID)
        requests = list(forge.requests)
    assert outcome.state == "success", outcome.task_states
    (request,) = requests
    assert (request.method, request.path, request.status) == (
        "POST",
        "/repos/octo-org/shop/pulls",
        201,
    )
    assert request.authorized and request.accept == "application/vnd.github+json"
    assert request.body["head"] == BRANCH and request.body["base"] == "main"
    assert request.body["title"] == "autofix: shop: issues 1 → 0"
    assert "Remove unused import" in request.body["body"]
    assert "Approved by admin in Airflow" in request.body["body"]
    assert remote_branches(remote) == [f"refs/heads/{BRANCH}"]
    assert outcome.xcoms[f"{PUBLISH}[0]"]["pull_request"] == forge.pull_url(42)
    assert (outcome.note() or "").splitlines()[2] == (
        f"- **shop**: APPROVED by admin · pull request {forge.pull_url(42)} opened for `{BRANCH}`"
    )


def test_a_missing_connection_stops_the_run_in_plan(home: Path) -> None:
    project = project_with_one_issue(home)
    outcome = run_dag_file(
        DAG_FILE, {"project_path": str(project), "push": "branch", "git_conn_id": "no_such"}
    )
    assert outcome.state == "failed" and outcome.task_states["plan"] == "failed"
    assert outcome.note() == (
        "autofix · run failed\n- FAILED in plan: git_conn_id 'no_such': no such Connection. "
        "Next: create it (Admin → Connections, any type): host = the remote URL, password = a "
        "token"
    )
