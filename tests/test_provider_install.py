"""The built wheel in a fresh virtualenv at the lowest supported Airflow, beside common.ai.

What a team with its own Airflow does: build the wheel, install it with ``apache-airflow==3.3.0``
and ``apache-airflow-providers-common-ai==1.0.0`` into a new virtualenv (nothing from this
repository's .venv), migrate a SQLite metadata DB, then ``airflow providers list`` lists both
providers and a DAG with the scripted agent runs under ``dag.test()``, its ParseResult in XCom.

Cost: the install takes most of it (docs/benchmarks.md, "The provider install test").
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import autofix

pytestmark = [pytest.mark.airflow, pytest.mark.e2e, pytest.mark.timeout(1800)]

LOWEST_AIRFLOW = "3.3.0"
COMMON_AI = "1.0.0"
REPO = Path(__file__).resolve().parent.parent
# What the wheel is built from (the Dockerfile copies the same): no tests, docs or caches.
BUILD_INPUTS = ("pyproject.toml", "README.md", "plugins/autofix")

DAG = """
import pendulum
from airflow.sdk import DAG
from autofix.operators import AIWrapperOperator

with DAG("autofix_installed", schedule=None, start_date=pendulum.datetime(2025, 1, 1)) as dag:
    AIWrapperOperator(task_id="configure_hooks", agent="sim", prompt="configure hooks",
                      agent_options={"scenario": "noise_success", "state_dir": "sim-state"})
"""

# Runs in the new virtualenv: the DAG under dag.test(), then its XCom as the UI reads it.
DRIVER = """
import json, runpy, sys
import airflow, autofix
from airflow.models.xcom import XComModel
from airflow.utils.session import create_session
from autofix.operators.results import coerce_result

dag = runpy.run_path(sys.argv[1])["dag"]
run = dag.test()
with create_session() as session:
    rows = session.scalars(
        XComModel.get_many(run_id=run.run_id, dag_ids=dag.dag_id, key="return_value")
    ).all()
    xcoms = {row.task_id: XComModel.deserialize_value(row) for row in rows}
value = xcoms.get("configure_hooks")
result = coerce_result(value)
print("RESULT " + json.dumps({
    "airflow": airflow.__version__,
    "autofix_file": autofix.__file__,
    "state": str(run.state),
    "xcom_is_plain_json": isinstance(value, dict) and "__classname__" not in value,
    "result_type": type(result).__name__,
    "success": result.success if result is not None else None,
    "status": str(result.status.value) if result is not None else None,
    "agent": result.agent if result is not None else None,
}))
"""

DECORATORS = """
from airflow.sdk.providers_manager_runtime import ProvidersManagerTaskRuntime
print("RESULT " + " ".join(sorted(ProvidersManagerTaskRuntime().taskflow_decorators)))
"""


@dataclass(frozen=True)
class Installed:
    venv: Path
    env: dict[str, str]
    cwd: Path

    def run(self, *argv: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            list(argv),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            cwd=self.cwd,
            env=self.env,
        )
        assert done.returncode == 0, f"{argv}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        return done

    def python(self, code: str, *args: str) -> tuple[str, str]:
        """``code`` run by the virtualenv's Python: its line starting ``RESULT `` (less that),
        and everything it printed."""
        done = self.run(str(self.venv / "bin" / "python"), "-c", code, *args)
        lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
        assert lines, f"no RESULT line:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        return lines[-1].removeprefix("RESULT "), done.stdout + done.stderr


def _clean_environment() -> dict[str, str]:
    """This process's environment less what points at the repository's Python, Airflow or
    autofix settings (the test suite's own AIRFLOW_HOME among them)."""
    dropped = ("AIRFLOW", "AUTOFIX", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")
    return {name: value for name, value in os.environ.items() if not name.startswith(dropped)}


def _build_wheel(work: Path, env: dict[str, str]) -> Path:
    """The wheel, built from a copy of its inputs: a build in the checkout would leave
    ``build/`` and an egg-info in ``plugins/``, which Airflow would then find twice."""
    source = work / "source"
    for name in BUILD_INPUTS:
        origin = REPO / name
        if origin.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
            shutil.copytree(origin, source / name, ignore=ignore)
        else:
            source.mkdir(parents=True, exist_ok=True)
            shutil.copy2(origin, source / name)
    dist = work / "dist"
    build = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(dist)]
    subprocess.run([*build, str(source)], check=True, capture_output=True, timeout=600, env=env)
    (wheel,) = dist.glob("airflow_autofix-*.whl")
    return wheel


@pytest.fixture(scope="module")
def installed() -> Iterator[Installed]:
    base_env = _clean_environment()
    with tempfile.TemporaryDirectory(prefix="autofix-install-") as tmp:
        work = Path(tmp)
        wheel = _build_wheel(work, base_env)
        venv = work / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
        home = work / "airflow"
        (home / "dags").mkdir(parents=True)
        cwd = work / "autofix-home"
        cwd.mkdir()
        env = base_env | {
            "PATH": f"{venv / 'bin'}{os.pathsep}{base_env.get('PATH', '')}",
            "AIRFLOW_HOME": str(home),
            "AIRFLOW__CORE__DAGS_FOLDER": str(home / "dags"),
            "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
            "AUTOFIX_HOME": str(cwd),
        }
        box = Installed(venv, env, cwd)
        box.run(
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-compile",  # a third less install time; the modules used compile on import
            f"apache-airflow=={LOWEST_AIRFLOW}",
            f"apache-airflow-providers-common-ai=={COMMON_AI}",
            str(wheel),
            timeout=1500,
        )
        box.run(str(venv / "bin" / "airflow"), "db", "migrate")
        yield box


def test_airflow_lists_autofix_beside_common_ai(installed: Installed) -> None:
    done = installed.run(str(installed.venv / "bin" / "airflow"), "providers", "list", "-o", "json")
    providers = {entry["package_name"]: entry["version"] for entry in json.loads(done.stdout)}
    assert providers["airflow-autofix"] == autofix.__version__
    assert providers["apache-airflow-providers-common-ai"] == COMMON_AI
    # Both providers' @task names are registered, and neither shadows the other's.
    names, printed = installed.python(DECORATORS)
    assert {"coding_agent", "agent", "llm"} <= set(names.split())
    assert "already registered" not in printed


def test_an_agent_dag_runs_with_the_installed_package(installed: Installed) -> None:
    dag_file = Path(installed.env["AIRFLOW__CORE__DAGS_FOLDER"]) / "autofix_installed.py"
    dag_file.write_text(DAG, encoding="utf-8")
    seen: dict[str, Any] = json.loads(installed.python(DRIVER, str(dag_file))[0])
    assert seen.pop("airflow") == LOWEST_AIRFLOW
    assert Path(seen.pop("autofix_file")).is_relative_to(installed.venv)  # the wheel, not the repo
    assert seen == {
        "state": "success",
        "xcom_is_plain_json": True,
        "result_type": "ParseResult",
        "success": True,
        "status": "completed",
        "agent": "sim",
    }
