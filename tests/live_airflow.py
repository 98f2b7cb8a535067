"""The REAL Airflow services (api-server, scheduler, dag-processor) for live tests and research.

``LiveAirflow``: the approach of ``test_scheduler_live.py``: every service is its own process
group on 127.0.0.1 (a free port), SQLite metadata DB in a temp AIRFLOW_HOME, LocalExecutor with a
small ``parallelism``. With ``teams=`` it runs in Airflow's multi-team mode: one DAG bundle per
team folder, and simple auth manager ``users`` who see only their teams' DAGs.
``MakeUp``: ``make up`` itself (scripts/up.sh), stopped with Ctrl-C.
Both use the REST API with a token from the simple auth manager (``AirflowRest``). Every wait is
bounded; ``stop()`` stops everything and checks with the process table that nothing is left.
Usable as context managers from tests and from scripts (docs/ui-research/experiments/run.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple, Self

import httpx

ROOT = Path(__file__).resolve().parent.parent
AIRFLOW = Path(sys.executable).with_name("airflow")
PASSWORD = "autofix-test-password"


class LiveAirflowError(RuntimeError):
    """A service died or a bounded wait ran out; the message has the services' log tails."""


class User(NamedTuple):
    """A simple auth manager user, signed in with ``PASSWORD``. ``role``: viewer, user, op or
    admin. ``teams``: in multi-team mode the teams whose DAGs the user may see (an admin sees
    every DAG); a DAG bundle without a team is open to every role that may read DAGs."""

    name: str
    role: str
    teams: tuple[str, ...] = ()


ADMIN = User("admin", "admin")
# airflow/cli/commands/team_command.py
TEAM_NAME = re.compile(r"^[a-zA-Z0-9_-]{3,50}$")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class AirflowRest:
    """The REST API of a running Airflow: ``client`` is an ``httpx.Client`` on ``/api/v2`` with
    a token from the simple auth manager; every wait is bounded. Subclasses start the services
    and say how to tell one died (``check_alive``) and what it logged (``tails``)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.api: httpx.Client | None = None
        self.token = ""

    # A context manager: ``with LiveAirflow(...) as af:`` starts the services and stops them
    # (also when the start fails half-way).
    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> list[str]:
        raise NotImplementedError

    def check_alive(self) -> None:
        """Raise LiveAirflowError when a service has exited."""

    def tails(self, chars: int = 1500) -> str:
        return ""

    def sign_in(self, username: str, password: str) -> None:
        """Make ``client`` (``self.api``) act as this user."""
        self.token = self.token_for(username, password)
        self.api = self.client_with(self.token)

    def token_for(self, username: str, password: str = PASSWORD) -> str:
        """A JWT from the simple auth manager's ``/auth/token``, as the UI's login form gets."""
        login = httpx.post(
            f"{self.base}/auth/token", json={"username": username, "password": password}, timeout=10
        )
        if login.status_code != 201:
            raise LiveAirflowError(
                f"login of {username!r} failed: {login.status_code} {login.text}"
            )
        return str(login.json()["access_token"])

    def client_with(self, token: str) -> httpx.Client:
        """An ``httpx.Client`` on ``/api/v2`` sending ``token``; the caller closes it."""
        return httpx.Client(
            base_url=f"{self.base}/api/v2",
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )

    def client_as(self, username: str, password: str = PASSWORD) -> httpx.Client:
        """A second REST client acting as another user (``client`` stays as it is)."""
        return self.client_with(self.token_for(username, password))

    # -- waiting --------------------------------------------------------------------------

    def wait_for(self, what: str, check: Callable[[], Any], timeout: float = 180) -> Any:
        deadline = time.monotonic() + timeout
        last_error: Exception | None = None
        while time.monotonic() < deadline:
            self.check_alive()
            try:
                value = check()
                if value:
                    return value
            except (httpx.HTTPError, OSError, KeyError) as exc:
                last_error = exc
            time.sleep(1.0)
        raise LiveAirflowError(
            f"timed out after {timeout:g}s waiting for {what} ({last_error})\n{self.tails()}"
        )

    # -- REST helpers ---------------------------------------------------------------------

    @property
    def client(self) -> httpx.Client:
        if self.api is None:
            raise LiveAirflowError("not started")
        return self.api

    def wait_dag(self, dag_id: str, unpause: bool = True, timeout: float = 180) -> None:
        self.wait_for(
            f"the dag-processor to parse {dag_id}",
            lambda: self.client.get(f"/dags/{dag_id}").status_code == 200,
            timeout,
        )
        if unpause and self.client.get(f"/dags/{dag_id}").json()["is_paused"]:
            response = self.client.patch(f"/dags/{dag_id}", json={"is_paused": False})
            response.raise_for_status()

    def trigger(self, dag_id: str, conf: Mapping[str, Any] | None = None) -> str:
        response = self.client.post(
            f"/dags/{dag_id}/dagRuns", json={"logical_date": None, "conf": dict(conf or {})}
        )
        if response.status_code != 200:
            raise LiveAirflowError(f"trigger failed: {response.status_code} {response.text}")
        return str(response.json()["dag_run_id"])

    def wait_run(self, dag_id: str, run_id: str, timeout: float = 300) -> dict[str, Any]:
        def finished() -> dict[str, Any] | None:
            run: dict[str, Any] = self.client.get(f"/dags/{dag_id}/dagRuns/{run_id}").json()
            return run if run["state"] in ("success", "failed") else None

        result: dict[str, Any] = self.wait_for(f"run {run_id} to finish", finished, timeout)
        return result

    def task_instances(self, dag_id: str, run_id: str) -> list[dict[str, Any]]:
        response = self.client.get(
            f"/dags/{dag_id}/dagRuns/{run_id}/taskInstances", params={"limit": 100}
        )
        response.raise_for_status()
        return list(response.json()["task_instances"])

    def log(
        self, dag_id: str, run_id: str, task_id: str, try_number: int, map_index: int = -1
    ) -> Any:
        response = self.client.get(
            f"/dags/{dag_id}/dagRuns/{run_id}/taskInstances/{task_id}/logs/{try_number}",
            params={"map_index": map_index},
            headers={"Accept": "application/json"},
        )
        response.raise_for_status()
        return response.json()["content"]

    def xcom(
        self,
        dag_id: str,
        run_id: str,
        task_id: str,
        key: str = "return_value",
        map_index: int = -1,
        **params: Any,
    ) -> Any:
        response = self.client.get(
            f"/dags/{dag_id}/dagRuns/{run_id}/taskInstances/{task_id}/xcomEntries/{key}",
            params={"map_index": map_index, **params},
        )
        response.raise_for_status()
        return response.json()


class LiveAirflow(AirflowRest):
    """Start with ``with LiveAirflow(home, dags_folder, extra_env) as af:``; ``af.api`` is an
    authenticated ``httpx.Client`` on ``/api/v2`` acting as the first of ``users``; ``af.base``
    the UI address.

    ``teams={"alpha": [folder], ...}`` turns on multi-team mode (``[core] multi_team``): each
    folder is a DAG bundle (``<team>`` or ``<team>-<n>``) owned by its team, ``dags_folder``
    (may then be None) a bundle of no team, and ``start()`` creates the teams in the metadata DB
    (``airflow teams sync``) before the api-server checks its users' teams against it. Every user
    signs in with ``PASSWORD``; ``af.client_as("alice")`` is a REST client acting as alice."""

    def __init__(
        self,
        home: Path,
        dags_folder: Path | None,
        extra_env: Mapping[str, str] | None = None,
        services: tuple[str, ...] = ("api-server", "scheduler", "dag-processor"),
        *,
        teams: Mapping[str, Sequence[Path]] | None = None,
        users: Sequence[User] = (ADMIN,),
    ) -> None:
        self.home = home
        self.logs = home / "service-logs"
        self.port = free_port()
        super().__init__(f"http://127.0.0.1:{self.port}")
        self.services = services
        self.teams = dict(teams or {})
        self.users = tuple(users)
        check_users(self.users, self.teams, dags_folder)
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        airflow_home = home / "airflow"
        airflow_home.mkdir(parents=True, exist_ok=True)
        self.logs.mkdir(parents=True, exist_ok=True)
        shared_bundle = dags_folder
        if dags_folder is None:  # only team bundles: the dags folder setting still needs a path
            dags_folder = airflow_home / "dags"
            dags_folder.mkdir(exist_ok=True)
        passwords = airflow_home / "passwords.json"
        passwords.write_text(json.dumps({user.name: PASSWORD for user in self.users}))
        self.env = {
            **os.environ,
            "AIRFLOW_HOME": str(airflow_home),
            "AIRFLOW__CORE__DAGS_FOLDER": str(dags_folder),
            "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
            "AIRFLOW__CORE__EXECUTOR": "LocalExecutor",
            "AIRFLOW__CORE__PARALLELISM": "4",
            "AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES": "airflow.* autofix.*",
            "AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION": "True",
            "AIRFLOW__CORE__UNIT_TEST_MODE": "False",
            "AIRFLOW__DATABASE__SQL_ALCHEMY_CONN": f"sqlite:///{airflow_home / 'airflow.db'}",
            "AIRFLOW__CORE__EXECUTION_API_SERVER_URL": f"{self.base}/execution/",
            "AIRFLOW__API__HOST": "127.0.0.1",
            "AIRFLOW__API__PORT": str(self.port),
            "AIRFLOW__API__BASE_URL": self.base,
            "AIRFLOW__API__WORKERS": "1",
            "AIRFLOW__API_AUTH__JWT_SECRET": "autofix-live-" + os.urandom(8).hex(),
            "AIRFLOW__CORE__AUTH_MANAGER": (
                "airflow.api_fastapi.auth.managers.simple.simple_auth_manager.SimpleAuthManager"
            ),
            "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS": ",".join(map(user_spec, self.users)),
            "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE": str(passwords),
            "AIRFLOW__SCHEDULER__SCHEDULER_HEARTBEAT_SEC": "1",
            "AIRFLOW__DAG_PROCESSOR__REFRESH_INTERVAL": "5",
            "AIRFLOW__LOGGING__LOGGING_LEVEL": "INFO",
            **team_settings(self.teams, shared_bundle),
            **dict(extra_env or {}),
        }
        self.env.pop("AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_ALL_ADMINS", None)

    # -- lifecycle ------------------------------------------------------------------------

    def _airflow_command(self, *args: str, timeout: float) -> None:
        done = subprocess.run(
            [str(AIRFLOW), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if done.returncode != 0:
            raise LiveAirflowError(f"airflow {' '.join(args)} failed: {done.stderr[-2000:]}")

    def start(self) -> None:
        self._airflow_command("db", "migrate", timeout=300)
        if self.teams:
            # The teams of the bundle config, into the DB: the auth manager refuses to start
            # when a user's team is not there (BaseAuthManager.init).
            self._airflow_command("teams", "sync", timeout=120)
        for name in self.services:
            args = [name]
            if name == "api-server":
                args += ["--host", "127.0.0.1", "--port", str(self.port)]
            if name in ("scheduler", "triggerer"):
                # no log server: it would listen on every interface (serve_logs/core.py,
                # host=""), and the api-server reads the task logs from the local files
                args.append("--skip-serve-logs")
            self._start(name, *args)
        self.wait_for(
            "the api-server", lambda: httpx.get(f"{self.base}/api/v2/monitor/health").is_success
        )
        self.sign_in(self.users[0].name, PASSWORD)

    def _start(self, name: str, *args: str) -> None:
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

    def stop(self) -> list[str]:
        """Stop every group; return the command lines of anything still alive (should be [])."""
        if self.api is not None:
            self.api.close()
        for proc in self.procs.values():
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
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
        return self.leftovers()

    def leftovers(self) -> list[str]:
        alive = []
        for proc in self.procs.values():
            found = subprocess.run(
                ["pgrep", "-a", "-g", str(proc.pid)], capture_output=True, text=True, check=False
            )
            alive += [
                line
                for line in found.stdout.splitlines()
                if line.strip() and not is_zombie(int(line.split()[0]))
            ]
        return alive

    def check_alive(self) -> None:
        dead = {name: p.returncode for name, p in self.procs.items() if p.poll() is not None}
        if dead:
            raise LiveAirflowError(f"airflow service(s) exited: {dead}\n{self.tails()}")

    def tails(self, chars: int = 1500) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-chars:]}"
            for path in sorted(self.logs.glob("*.log"))
        )


def is_zombie(pid: int) -> bool:
    """Exited, not yet reaped: a container whose PID 1 does not reap orphans keeps these
    ``<defunct>`` entries in the group after a killed parent; they run nothing and hold nothing."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # gone since pgrep listed it
    return stat.rpartition(")")[2].split()[0] == "Z"


def user_spec(user: User) -> str:
    """``[core] simple_auth_manager_users`` syntax: ``name:role`` or ``name:role:team1|team2``."""
    return ":".join([user.name, user.role, *(["|".join(user.teams)] if user.teams else [])])


def check_users(
    users: Sequence[User], teams: Mapping[str, Sequence[Path]], dags: Path | None
) -> None:
    """Refuse, with what to change, what Airflow would refuse later in a service's log."""
    if not users:
        raise LiveAirflowError("users is empty: give at least one, e.g. users=[ADMIN]")
    if dags is None and not teams:
        raise LiveAirflowError("dags_folder is None and there are no teams: give one or both")
    for team, folders in teams.items():
        if not TEAM_NAME.match(team):
            raise LiveAirflowError(f"team {team!r}: Airflow wants 3-50 of [a-zA-Z0-9_-]; rename it")
        if not folders:
            raise LiveAirflowError(f"team {team!r} has no DAG folder: give at least one")
    for user in users:
        unknown = sorted(set(user.teams) - set(teams))
        if unknown:
            raise LiveAirflowError(
                f"user {user.name!r} is in team(s) {unknown} that teams= does not define: "
                f"add them to teams= (defined: {sorted(teams) or 'none'})"
            )


def team_settings(teams: Mapping[str, Sequence[Path]], shared: Path | None) -> dict[str, str]:
    """Multi-team mode: one LocalDagBundle per team folder, owned by the team, and ``shared`` as
    a bundle of no team. The global LocalExecutor runs every team's tasks (the scheduler falls
    back to it when a team has no executor of its own)."""
    if not teams:
        return {}
    local = "airflow.dag_processing.bundles.local.LocalDagBundle"
    bundles: list[dict[str, Any]] = []
    if shared is not None:
        bundles.append({"name": "dags-folder", "classpath": local, "kwargs": {"path": str(shared)}})
    for team, folders in teams.items():
        for index, folder in enumerate(folders):
            bundles.append(
                {
                    "name": team if index == 0 else f"{team}-{index}",
                    "classpath": local,
                    "kwargs": {"path": str(folder)},
                    "team_name": team,
                }
            )
    return {
        "AIRFLOW__CORE__MULTI_TEAM": "True",
        "AIRFLOW__DAG_PROCESSOR__DAG_BUNDLE_CONFIG_LIST": json.dumps(bundles),
    }


class MakeUp(AirflowRest):
    """``make up`` as a person runs it, from the checkout, in a session of its own (the terminal's
    process group): ``with MakeUp(state, env) as up:``. ``UP_STATE_DIR`` puts its Airflow home
    (``<state>/.airflow``, with the generated admin password) and autofix's ``logs/`` under
    ``state``; ``up.ui`` is the address the UI is configured with, ``up.base`` the loopback one
    the REST client uses. ``stop()`` is Ctrl-C: SIGINT to the group, then a bounded wait until no
    process of this instance (found by its AIRFLOW_HOME) is left; any still there are killed and
    returned."""

    def __init__(self, state: Path, extra_env: Mapping[str, str], stop_timeout: float = 90) -> None:
        self.port = free_port()
        super().__init__(f"http://127.0.0.1:{self.port}")
        self.ui = f"http://localhost:{self.port}"  # up.sh's AIRFLOW__API__BASE_URL
        self.state = state
        self.airflow_home = state / ".airflow"
        self.output = state / "make-up.log"
        self.stop_timeout = stop_timeout
        self.password = ""
        self.proc: subprocess.Popen[bytes] | None = None
        # A person's shell: none of the test session's Airflow or autofix settings, no make
        # jobserver; the checkout's own package first on sys.path.
        inherited = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("AIRFLOW", "AUTOFIX", "MAKE", "MFLAGS"))
        }
        self.env = {
            **inherited,
            "PORT": str(self.port),
            "UP_STATE_DIR": str(state),
            "PYTHONPATH": os.pathsep.join(
                filter(None, [str(ROOT / "plugins"), os.environ.get("PYTHONPATH")])
            ),
            **dict(extra_env),
        }

    def start(self, timeout: float = 180) -> None:
        self.state.mkdir(parents=True, exist_ok=True)
        out = self.output.open("wb")
        self.proc = subprocess.Popen(
            ["make", "-s", "up"],
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        out.close()
        self.wait_for(
            "make up's api-server",
            lambda: httpx.get(f"{self.base}/api/v2/monitor/health").is_success,
            timeout,
        )
        passwords = self.airflow_home / "autofix_passwords.json"
        self.password = str(json.loads(passwords.read_text())["admin"])
        self.sign_in("admin", self.password)

    def check_alive(self) -> None:
        if self.proc is not None and self.proc.poll() is not None:
            raise LiveAirflowError(f"make up exited ({self.proc.returncode})\n{self.tails()}")

    def tails(self, chars: int = 3000) -> str:
        if not self.output.exists():
            return ""
        return f"--- {self.output}\n{self.output.read_text(errors='replace')[-chars:]}"

    def processes(self) -> dict[int, str]:
        """Live processes of this instance (zombies excluded): make's own group, and every
        process whose environment names this AIRFLOW_HOME (up.sh's components and their
        workers, whatever group they moved to). Pid → command line."""
        marker = f"AIRFLOW_HOME={self.airflow_home}".encode()
        group = self.proc.pid if self.proc is not None else None
        found = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                stat = (entry / "stat").read_text()
                fields = stat[stat.rindex(")") + 2 :].split()
                if fields[0] == "Z":
                    continue
                environ = (entry / "environ").read_bytes().split(b"\0")
                if marker in environ or (group is not None and int(fields[2]) == group):
                    found[int(entry.name)] = (
                        (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
                    )
            except (OSError, ValueError, IndexError):
                continue  # ended while being read
        return found

    def stop(self) -> list[str]:
        """Ctrl-C; the command lines of processes that outlived the wait (killed), or []."""
        if self.api is not None:
            self.api.close()
        if self.proc is None:
            return []
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGINT)
        deadline = time.monotonic() + self.stop_timeout
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=self.stop_timeout)
        left = self.processes()
        while left and time.monotonic() < deadline:
            time.sleep(1)
            left = self.processes()
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if self.proc.poll() is None:
            self.proc.wait(timeout=10)
        return [f"{pid} {cmd}" for pid, cmd in sorted(left.items())]


def demo_environment(home: Path) -> dict[str, str]:
    """What ``make up`` sets for the demo, in ``home``: a scratch copy of the sample project
    that an empty trigger form fixes, and a short retry delay."""
    from autofix import gitops

    project = home / "sample_project"
    gitops.init_scratch_copy(ROOT / "examples" / "sample_project", project, exclude=["FIXES.md"])
    return {
        "AUTOFIX_HOME": str(home),
        "AUTOFIX_CONFIG": str(ROOT / "config" / "autofix.yaml"),
        "AUTOFIX__FIXING__PROJECTS": json.dumps([str(project)]),
        "AUTOFIX__FIXING__AGENT_RETRY_DELAY_SECONDS": "1",
    }


def screenshots_folder(home: Path) -> Path:
    """$AUTOFIX_UI_SCREENSHOTS (relative to the repository: docs/screenshots), else ``home``."""
    shots = Path(os.environ.get("AUTOFIX_UI_SCREENSHOTS") or home / "screenshots")
    return shots if shots.is_absolute() else ROOT / shots
