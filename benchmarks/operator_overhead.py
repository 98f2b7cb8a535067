"""AIWrapperOperator's task time against BashOperator's, and live log-streaming throughput.

Both operators run the same trivial command in the same DAG run (``dag.test()``, SQLite
Airflow in a temporary home), interleaved so machine noise hits both alike. Task time is the
task instance's own start→end. Prints the median ratio, then lines/s streamed into the task log.

    .venv/bin/python benchmarks/operator_overhead.py [--tasks 15] [--lines 200000]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

DAG_TEMPLATE = """
import pendulum
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from autofix.operators import AIWrapperOperator

with DAG("{dag_id}", schedule=None, start_date=pendulum.datetime(2025, 1, 1)) as dag:
    previous = None
    for n in range({tasks}):
        bash = BashOperator(task_id=f"bash_{{n}}", bash_command="true")
        wrapper = AIWrapperOperator(task_id=f"autofix_{{n}}", agent="plain", prompt="",
                                    command=["true"])
        for task in (bash, wrapper):
            if previous is not None:
                previous >> task
            previous = task
    AIWrapperOperator(task_id="stream", agent="plain", prompt="",
                      command=["seq", "{lines}"])
"""


def prepare_home() -> Path:
    home = Path(tempfile.mkdtemp(prefix="autofix-bench-airflow-"))
    os.environ.update(
        {
            "AIRFLOW_HOME": str(home),
            "AIRFLOW__CORE__DAGS_FOLDER": str(home / "dags"),
            "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
            "AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES": "airflow.* autofix.*",
            "AIRFLOW__LOGGING__LOGGING_LEVEL": "INFO",  # lines really reach the task log
            "AUTOFIX_HOME": str(home),
        }
    )
    (home / "dags").mkdir()
    airflow = Path(sys.executable).with_name("airflow")
    subprocess.run([str(airflow), "db", "migrate"], check=True, capture_output=True)
    return home


def run(tasks: int, lines: int) -> None:
    home = prepare_home()
    dag_id = "operator_overhead"
    dag_file = home / "dags" / f"{dag_id}.py"
    dag_file.write_text(
        textwrap.dedent(DAG_TEMPLATE.format(dag_id=dag_id, tasks=tasks, lines=lines))
    )
    spec = importlib.util.spec_from_file_location(dag_id, dag_file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    dag_run = module.dag.test()
    durations: dict[str, list[float]] = {"bash": [], "autofix": []}
    stream_seconds = 0.0
    for ti in dag_run.get_task_instances():
        if ti.state != "success":
            raise SystemExit(f"task {ti.task_id} ended {ti.state}")
        seconds = (ti.end_date - ti.start_date).total_seconds()
        if ti.task_id == "stream":
            stream_seconds = seconds
        elif ti.task_id != "bash_0":  # the first task pays the in-process API server start
            durations[ti.task_id.split("_")[0]].append(seconds)
    bash = statistics.median(durations["bash"])
    ours = statistics.median(durations["autofix"])
    print(f"tasks per operator:         {len(durations['autofix'])}")
    print(f"BashOperator median:        {bash * 1000:8.1f} ms")
    print(f"AIWrapperOperator median:   {ours * 1000:8.1f} ms")
    print(f"ratio (target <= 1.2x):     {ours / bash:8.2f}x")
    print(
        f"log streaming:              {lines / stream_seconds:8.0f} lines/s "
        f"({lines} lines in {stream_seconds:.2f}s task time, target >= 50k lines/s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=15)
    parser.add_argument("--lines", type=int, default=200_000)
    args = parser.parse_args()
    run(args.tasks, args.lines)


if __name__ == "__main__":
    main()
