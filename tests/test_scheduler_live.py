"""autonomous_fixing under the REAL Airflow services: api-server, scheduler and dag-processor.

Each service is its own process group on 127.0.0.1 (a free port chosen at run time) with a
SQLite metadata DB in a temp AIRFLOW_HOME and the LocalExecutor (Airflow 3 workers talk to
the Execution API, not to the DB, so SQLite is fine for one machine). The DAG is unpaused,
triggered and read back through the public REST API with a token from the simple auth
manager's ``/auth/token``, like a user would. Every wait is bounded; teardown stops every
process group (SIGTERM, then SIGKILL).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from autofix import gitops

pytestmark = [pytest.mark.airflow, pytest.mark.e2e, pytest.mark.timeout(420)]

ROOT = Path(__file__).resolve().parent.parent
AIRFLOW = Path(sys.executable).with_name("airflow")
DAG_ID = "autonomous_fixing"
PASSWORD = "autofix-test-password"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(what: str, check: Callable[[], Any], timeout: float, logs: Path) -> Any:
    """Poll ``check`` until it returns something truthy; fail naming ``what`` and the logs."""
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        try:
            value = check()
            if value:
                return value
        except (httpx.HTTPError, OSError) as exc:
            last_error = exc
        time.sleep(1.0)
    tails = "\n".join(
        f"--- {path.name}\n{path.read_text(errors='replace')[-1500:]}"
        for path in sorted(logs.glob("*.log"))
    )
    pytest.fail(f"timed out after {timeout:g}s waiting for {what} ({last_error})\n{tails}")


class Services:
    """The Airflow services as process groups, with their output in ``logs/<name>.log``."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env = env
        self.logs = logs
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str, *args: str) -> None:
        out = (self.logs / f"{name}.log").open("wb")
        self.procs[name] = subprocess.Popen(
            [str(AIRFLOW), *args],
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own group: stopping it also stops its workers
        )
        out.close()

    def check_alive(self) -> bool:
        dead = {name: p.returncode for name, p in self.procs.items() if p.poll() is not None}
        if dead:
            raise OSError(f"airflow service(s) exited: {dead}")
        return True

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 30
        for proc in self.procs.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        for proc in self.procs.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # stragglers, and any orphaned workers
            if proc.poll() is None:
                proc.wait(timeout=10)


@pytest.fixture
def airflow_services(tmp_path: Path) -> Iterator[tuple[str, Services, Path]]:
    home = tmp_path / "airflow"
    logs = tmp_path / "service-logs"
    home.mkdir()
    logs.mkdir()
    port = free_port()
    passwords = home / "passwords.json"
    passwords.write_text(json.dumps({"admin": PASSWORD}))
    env = {
        **os.environ,
        "AIRFLOW_HOME": str(home),
        "AIRFLOW__CORE__DAGS_FOLDER": str(ROOT / "airflow_dags"),
        "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
        "AIRFLOW__CORE__EXECUTOR": "LocalExecutor",
        "AIRFLOW__CORE__PARALLELISM": "4",
        "AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES": "airflow.* autofix.*",
        "AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION": "True",  # the test unpauses via the API
        "AIRFLOW__CORE__UNIT_TEST_MODE": "False",
        "AIRFLOW__DATABASE__SQL_ALCHEMY_CONN": f"sqlite:///{home / 'airflow.db'}",
        "AIRFLOW__CORE__EXECUTION_API_SERVER_URL": f"http://127.0.0.1:{port}/execution/",
        "AIRFLOW__API__HOST": "127.0.0.1",
        "AIRFLOW__API__PORT": str(port),
        "AIRFLOW__API__BASE_URL": f"http://127.0.0.1:{port}",
        "AIRFLOW__API_AUTH__JWT_SECRET": "autofix-live-test-" + os.urandom(8).hex(),
        "AIRFLOW__CORE__AUTH_MANAGER": (
            "airflow.api_fastapi.auth.managers.simple.simple_auth_manager.SimpleAuthManager"
        ),
        "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS": "admin:admin",
        "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE": str(passwords),
        "AIRFLOW__SCHEDULER__SCHEDULER_HEARTBEAT_SEC": "1",
        "AIRFLOW__LOGGING__LOGGING_LEVEL": "INFO",
        "AUTOFIX_HOME": str(tmp_path),
        "AUTOFIX_CONFIG": str(ROOT / "config" / "autofix.yaml"),
        "AUTOFIX__FIXING__AGENT_RETRY_DELAY_SECONDS": "1",
    }
    env.pop("AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_ALL_ADMINS", None)
    migrate = subprocess.run(
        [str(AIRFLOW), "db", "migrate"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert migrate.returncode == 0, migrate.stderr[-2000:]
    services = Services(env, logs)
    try:
        services.start("api-server", "api-server", "--host", "127.0.0.1", "--port", str(port))
        services.start("scheduler", "scheduler")
        services.start("dag-processor", "dag-processor")
        yield f"http://127.0.0.1:{port}", services, tmp_path
    finally:
        services.stop()


FIX = "fix_project.fix"  # one fix task; its checks run after each attempt (verify=)


def test_real_scheduler_runs_the_dag_triggered_through_the_rest_api(
    airflow_services: tuple[str, Services, Path],
) -> None:
    base, services, tmp = airflow_services
    logs = services.logs
    project = tmp / "sample_project"
    gitops.init_scratch_copy(ROOT / "examples" / "sample_project", project, exclude=["FIXES.md"])

    def healthy() -> bool:
        services.check_alive()
        return httpx.get(f"{base}/api/v2/monitor/health", timeout=5).status_code == 200

    wait_for("the api-server", healthy, 120, logs)
    login = httpx.post(
        f"{base}/auth/token", json={"username": "admin", "password": PASSWORD}, timeout=10
    )
    assert login.status_code == 201, login.text
    api = httpx.Client(
        base_url=f"{base}/api/v2",
        headers={"Authorization": f"Bearer {login.json()['access_token']}"},
        timeout=30,
    )
    assert httpx.get(f"{base}/api/v2/dags", timeout=10).status_code == 401  # auth is on

    def dag_parsed() -> bool:
        services.check_alive()
        return api.get(f"/dags/{DAG_ID}").status_code == 200

    wait_for("the dag-processor to parse the DAG", dag_parsed, 120, logs)
    unpaused = api.patch(f"/dags/{DAG_ID}", json={"is_paused": False})
    assert unpaused.status_code == 200 and unpaused.json()["is_paused"] is False

    conf = {"project_path": str(project), "checks": ["ruff"], "max_iterations": 4}
    created = api.post(f"/dags/{DAG_ID}/dagRuns", json={"logical_date": None, "conf": conf})
    assert created.status_code == 200, created.text
    run_id = created.json()["dag_run_id"]

    def finished() -> dict[str, Any] | None:
        services.check_alive()
        run: dict[str, Any] = api.get(f"/dags/{DAG_ID}/dagRuns/{run_id}").json()
        return run if run["state"] in ("success", "failed") else None

    run = wait_for("the DAG run to finish", finished, 240, logs)
    instances = api.get(
        f"/dags/{DAG_ID}/dagRuns/{run_id}/taskInstances", params={"limit": 100}
    ).json()["task_instances"]
    states = {(ti["task_id"], ti["map_index"]): (ti["state"], ti["try_number"]) for ti in instances}
    assert run["state"] == "success", states
    assert states[("plan", -1)] == ("success", 1)
    # ruff's three errors, one commit each; the usage limit on the second call → Airflow retry
    assert states[(FIX, 0)] == ("success", 2)
    assert states[("fix_project.summary", 0)][0] == "success"
    subjects = [c.subject for c in gitops.commits_between(project, "main")]
    assert subjects[1:] == [
        "Remove unused os import from report module",
        "Sort imports in pricing module",
        "Catch only ValueError when parsing quantities",
    ]

    def task_log(task_id: str, try_number: int) -> str:
        response = api.get(
            f"/dags/{DAG_ID}/dagRuns/{run_id}/taskInstances/{task_id}/logs/{try_number}",
            params={"map_index": 0},
            headers={"Accept": "application/json"},
        )
        assert response.status_code == 200, response.text
        return json.dumps(response.json()["content"])

    first_try = task_log(FIX, 1)
    assert "autofix verdict: FAILED (usage limit) [fix]" in first_try
    assert "transient (usage limit): Airflow retries in" in first_try
    second_try = task_log(FIX, 2)
    assert "autofix verdict: SUCCESS [fix]" in second_try
    assert "new commit" in second_try and "Sort imports in pricing module" in second_try
    summary_log = task_log("fix_project.summary", 1)
    assert "CLEAN: all checks pass" in summary_log

    xcom = api.get(
        f"/dags/{DAG_ID}/dagRuns/{run_id}/taskInstances/fix_project.summary/xcomEntries/return_value",
        params={"map_index": 0, "deserialize": True},
    )
    assert xcom.status_code == 200, xcom.text
    value = xcom.json()["value"]
    summary = value if isinstance(value, dict) else json.loads(value)
    assert (summary["errors_before"], summary["errors_after"]) == (3, 0)
