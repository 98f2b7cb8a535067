"""autofix on a real CeleryExecutor deployment on this machine (scripts/up_celery.sh).

PostgreSQL, Redis, the api-server, scheduler, dag-processor and two Celery workers (worker1,
worker2: their own working directories and hostnames) on 127.0.0.1, started once for the module
with the DAGs of tests/celery_dags/. The audit trail is the SQL store in the stack's PostgreSQL.
Three claims: agent tasks land on both workers and the audit rows name both; a daily budget of K
calls allows exactly K across both workers; a worker killed mid-call loses no audit record and
its task is retried on the other worker. PostgreSQL and Redis are Debian packages, installed
with apt-get when missing (root); where that is impossible the module is skipped, saying why.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from live_airflow import ROOT, AirflowRest, LiveAirflowError, free_port

from autofix.audit.envelope import Interaction
from autofix.audit.stores.sql import SqlStore

pytestmark = [pytest.mark.airflow, pytest.mark.e2e, pytest.mark.timeout(900)]

SCRIPT = ROOT / "scripts" / "up_celery.sh"
DAGS = ROOT / "tests" / "celery_dags"
WORKERS = ("worker1", "worker2")
AGENT_TASKS = 6  # tasks per run of celery_spread and celery_budget (celery_fleet.py)
BUDGET_K = 3
HEARTBEAT_TIMEOUT_S = 20  # the scheduler's [scheduler] task_instance_heartbeat_timeout here
CANNOT_INSTALL = "installing them here needs root and apt-get"


class CeleryStack(AirflowRest):
    """scripts/up_celery.sh start / stop with its state in ``state``; the REST API on ``base``."""

    def __init__(self, state: Path) -> None:
        self.port = free_port()
        super().__init__(f"http://127.0.0.1:{self.port}")
        self.state = state
        self.logs = state / "logs"
        self.killed: set[str] = set()
        inherited = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("AIRFLOW", "AUTOFIX", "MAKE", "MFLAGS"))
        }
        self.env = {
            **inherited,
            "UP_STATE_DIR": str(state),
            "PORT": str(self.port),
            "DAGS_FOLDER": str(DAGS),
            "READY_TIMEOUT": "300",
            "PYTHONPATH": os.pathsep.join(
                filter(None, [str(ROOT / "plugins"), os.environ.get("PYTHONPATH")])
            ),
            # A killed worker's task is found within seconds, not Airflow's 5 minutes.
            "AIRFLOW__SCHEDULER__TASK_INSTANCE_HEARTBEAT_TIMEOUT": str(HEARTBEAT_TIMEOUT_S),
            "AIRFLOW__SCHEDULER__TASK_INSTANCE_HEARTBEAT_TIMEOUT_DETECTION_INTERVAL": "3",
            "AIRFLOW__SCHEDULER__SCHEDULER_HEARTBEAT_SEC": "1",
            "AIRFLOW__DAG_PROCESSOR__REFRESH_INTERVAL": "5",
        }
        self.output = ""

    def start(self) -> None:
        done = subprocess.run(
            ["bash", str(SCRIPT), "start"],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        self.output = done.stdout + done.stderr
        if done.returncode != 0:
            if CANNOT_INSTALL in self.output:
                pytest.skip(self.output.strip().splitlines()[-1])
            raise LiveAirflowError(f"up_celery.sh start failed:\n{self.output[-4000:]}")
        password = json.loads((self.state / "airflow" / "passwords.json").read_text())["admin"]
        self.sign_in("admin", password)
        ports = dict(
            line.split("=", 1) for line in (self.state / "ports.env").read_text().splitlines()
        )
        self.audit_url = (
            f"postgresql+psycopg://airflow:airflow@127.0.0.1:{ports['PG_PORT']}/autofix"
        )

    def stop(self) -> list[str]:
        if self.api is not None:
            self.api.close()
        done = subprocess.run(
            ["bash", str(SCRIPT), "stop"],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        return [] if "0 processes left" in done.stdout else [done.stdout + done.stderr]

    def pid(self, component: str) -> int | None:
        try:
            pid = int((self.state / "run" / f"{component}.pid").read_text())
            os.kill(pid, 0)
        except (OSError, ValueError):
            return None
        return pid

    def check_alive(self) -> None:
        components = ("postgres", "redis", "api-server", "scheduler", "dag-processor", *WORKERS)
        dead = [name for name in components if name not in self.killed and not self.pid(name)]
        if dead:
            raise LiveAirflowError(f"component(s) exited: {dead}\n{self.tails()}")

    def tails(self, chars: int = 2000) -> str:
        return "\n".join(
            f"--- {path}\n{path.read_text(errors='replace')[-chars:]}"
            for path in sorted(self.logs.glob("*.log"))
            if path.name not in ("initdb.log",)
        )

    def kill_worker(self, worker: str) -> list[int]:
        """The machine dies: SIGKILL every process of this worker at once. Its processes are
        its descendants (Celery's pool, the task supervisors that started sessions of their
        own, the agent) and anything carrying its environment; setproctitle rewrites the
        Celery processes' environment, so the tree, not the environment, is what finds them."""
        self.killed.add(worker)
        root = self.pid(worker)
        assert root is not None, f"{worker} is not running"
        marker = f"AUTOFIX_WORKER_HOSTNAME={worker}".encode()
        state = f"AUTOFIX_CELERY_STATE={self.state}".encode()

        def members() -> set[int]:
            children: dict[int, list[int]] = {}
            marked: set[int] = set()
            for entry in Path("/proc").iterdir():
                if not entry.name.isdigit():
                    continue
                with contextlib.suppress(OSError, ValueError, IndexError):
                    stat = (entry / "stat").read_text()
                    parent = int(stat.rsplit(")", 1)[1].split()[1])
                    children.setdefault(parent, []).append(int(entry.name))
                    environ = (entry / "environ").read_bytes().split(b"\0")
                    if marker in environ and state in environ:
                        marked.add(int(entry.name))
            found, todo = set(), [root, *marked]
            while todo:
                pid = todo.pop()
                if pid not in found:
                    found.add(pid)
                    todo += children.get(pid, [])
            return found

        # Stopped first (a stopped process forks nothing), then looked for again, then killed:
        # none of them writes anything after the kill.
        stopped: set[int] = set()
        for _ in range(3):
            fresh = members() - stopped
            if not fresh:
                break
            for pid in fresh:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGSTOP)
            stopped |= fresh
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        return sorted(stopped)

    def run_all(self, dag_id: str, runs: int) -> list[str]:
        self.wait_dag(dag_id, timeout=240)
        run_ids = [self.trigger(dag_id) for _ in range(runs)]
        for run_id in run_ids:
            self.wait_run(dag_id, run_id, timeout=420)
        return run_ids

    def tis(self, dag_id: str, run_ids: list[str]) -> list[dict[str, Any]]:
        return [ti for run_id in run_ids for ti in self.task_instances(dag_id, run_id)]

    def task_log(self, ti: dict[str, Any]) -> str:
        path = (
            self.state
            / "airflow"
            / "logs"
            / f"dag_id={ti['dag_id']}"
            / f"run_id={ti['dag_run_id']}"
            / f"task_id={ti['task_id']}"
            / f"attempt={ti['try_number']}.log"
        )
        return path.read_text(errors="replace") if path.exists() else ""


@pytest.fixture(scope="module")
def stack() -> Iterator[CeleryStack]:
    # PostgreSQL runs as the postgres user under root: every parent of its data dir must be
    # searchable by it (pytest's tmp_path base is private to root).
    state = Path(tempfile.mkdtemp(prefix="autofix-celery-"))
    state.chmod(0o711)
    try:
        with CeleryStack(state) as running:
            yield running
    finally:
        shutil.rmtree(state, ignore_errors=True)


@pytest.fixture(scope="module")
def audit(stack: CeleryStack) -> SqlStore:
    return SqlStore(stack.audit_url)


def _calls(audit: SqlStore, run_ids: list[str]) -> list[Interaction]:
    wanted = set(run_ids)
    return [record for record in audit.iter_all() if record.envelope.trace_id in wanted]


def _today_calls(audit: SqlStore) -> int:
    now = datetime.now(UTC)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    return audit.usage(since=midnight).calls + audit.live_reservations(now)


def _write_budget(stack: CeleryStack, max_calls_per_day: int) -> None:
    (stack.state / "budget.yaml").write_text(
        f"budgets:\n  max_calls_per_day: {max_calls_per_day}\n"
    )


def test_agent_tasks_land_on_both_workers_and_the_audit_names_both(
    stack: CeleryStack, audit: SqlStore
) -> None:
    run_ids = stack.run_all("celery_spread", runs=2)
    tis = stack.tis("celery_spread", run_ids)
    assert len(tis) == 2 * AGENT_TASKS
    assert {ti["state"] for ti in tis} == {"success"}, [
        (ti["task_id"], ti["state"], ti["hostname"]) for ti in tis
    ]
    assert {ti["hostname"] for ti in tis} == set(WORKERS)
    calls = _calls(audit, run_ids)
    assert len(calls) == 2 * AGENT_TASKS
    assert {call.envelope.hostname for call in calls} == set(WORKERS)


def test_a_daily_budget_of_k_calls_allows_exactly_k_across_both_workers(
    stack: CeleryStack, audit: SqlStore
) -> None:
    _write_budget(stack, _today_calls(audit) + BUDGET_K)
    run_ids = stack.run_all("celery_budget", runs=2)
    tis = stack.tis("celery_budget", run_ids)
    succeeded = [ti for ti in tis if ti["state"] == "success"]
    exhausted = [ti for ti in tis if ti["state"] == "failed"]
    assert len(succeeded) == BUDGET_K, [(ti["task_id"], ti["state"]) for ti in tis]
    assert len(exhausted) == 2 * AGENT_TASKS - BUDGET_K
    assert len(_calls(audit, run_ids)) == BUDGET_K
    for ti in exhausted:  # failed at once: retries=1 in the DAG, none used
        assert ti["try_number"] == 1, ti
        assert "budget_exhausted" in stack.task_log(ti), ti
    assert {ti["hostname"] for ti in tis} == set(WORKERS)


def test_a_worker_killed_mid_call_loses_nothing_and_its_task_retries_elsewhere(
    stack: CeleryStack, audit: SqlStore
) -> None:
    # Room for the hanging call and its retry, nothing more.
    _write_budget(stack, _today_calls(audit) + 2)
    before = {record.envelope.envelope_id for record in audit.iter_all()}
    assert before, "the earlier tests recorded calls"
    stack.wait_dag("celery_kill", timeout=240)
    run_id = stack.trigger("celery_kill")
    sim_state = stack.state / "sim" / ".autofix-sim-state.json"

    def hanging() -> str | None:
        (ti,) = stack.task_instances("celery_kill", run_id)
        counters = json.loads(sim_state.read_text()) if sim_state.exists() else {}
        started = any("hang_then_succeed" in key for key in counters)
        return str(ti["hostname"]) if ti["state"] == "running" and started else None

    victim = stack.wait_for("the agent call to hang on a worker", hanging, timeout=240)
    assert stack.kill_worker(victim), f"no process of {victim} found"
    killed_at = datetime.now(UTC)
    run = stack.wait_run("celery_kill", run_id, timeout=HEARTBEAT_TIMEOUT_S + 300)
    (ti,) = stack.task_instances("celery_kill", run_id)
    assert run["state"] == "success", (ti, stack.tails())
    assert ti["try_number"] == 2
    survivor = next(worker for worker in WORKERS if worker != victim)
    assert ti["hostname"] == survivor
    after = {record.envelope.envelope_id for record in audit.iter_all()}
    assert before <= after, f"lost audit records: {sorted(before - after)}"
    # The killed call may have its own row (written before the kill); every row after it is
    # the retry's, on the surviving worker.
    calls = _calls(audit, [run_id])
    late = [c for c in calls if c.recorded_at > killed_at]
    assert [c.envelope.hostname for c in late] == [survivor], [
        (c.envelope.hostname, c.envelope.causation_id, c.result.status, c.recorded_at) for c in late
    ]
    assert all(call.recorded_at <= killed_at for call in calls if call.envelope.hostname == victim)
    # The killed call's reservation lapses: it holds a slot until its expiry, not forever.
    latest_expiry = killed_at + timedelta(seconds=300 + 3600)
    assert audit.live_reservations(latest_expiry) == 0
