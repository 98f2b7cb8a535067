"""The secret probe: plant secrets of every shape, run real tasks, grep every sink. 0 leaks.

Secrets (``SECRETS``) are planted in the task env, the worker's own environment, an Airflow
connection, a value registered only with ``mask_secret``, the prompt, stdout, stderr, the
structured answer (values and keys), the working directory and exceptions (the agent's
traceback and autofix's own error for a command that cannot start). The tasks run for real: plain commands and the scripted
agent, through ``dag.test()`` in a SQLite Airflow. Then every sink is read back and grepped:
the task log (what the task wrote to its output, and any log file under AIRFLOW_HOME/logs), the
``xcom`` table, the audit JSONL, the failure reports, the alert webhook's payloads, and the
output of ``autofix report`` (text, json, markdown) and ``autofix metrics``.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from airflow_support import airflow_home, run_dag
from audit_support import webhook_server

from autofix.operators.results import coerce_result

pytestmark = pytest.mark.airflow


def _token(n: int = 24) -> str:
    return secrets.token_urlsafe(n).replace("-", "x").replace("_", "y")


# Shapeless values are random each run: only their registration can mask them.
SECRETS = {
    "task env, secret-named key": f"te{_token()}",
    "worker env, secret-named key": f"we{_token()}",
    "mask_secret only (no name, no shape)": f"ms{_token()}",
    "airflow connection password": f"cp{_token()}",
    "URL password": f"pw{_token(12)}",
    "openai key": f"sk-proj-{_token(30)}",
    "anthropic key": f"sk-ant-api03-{_token(30)}",
    "google key": f"AIza{_token(30)}"[:39],
    "github token": "ghp_" + secrets.token_hex(18),
    "aws access key id": "AKIA" + secrets.token_hex(8).upper(),
    "aws secret key": _token(30)[:40],
}
S = SECRETS
EVERYTHING = (
    f"env {S['task env, secret-named key']} worker {S['worker env, secret-named key']} "
    f"masked {S['mask_secret only (no name, no shape)']} conn {S['airflow connection password']} "
    f"db https://probe:{S['URL password']}@db.internal/app keys {S['openai key']} "
    f"{S['anthropic key']} {S['google key']} {S['github token']} "
    f"aws {S['aws access key id']} aws_secret_access_key={S['aws secret key']}"
)

# A plain agent: prints every secret it can see on stdout and stderr, then answers in JSON
# with secrets as values and as keys. $PROBE_MODE picks how it ends.
AGENT = textwrap.dedent(
    """
    import json, os, sys
    seen = " ".join([
        os.environ["MY_API_KEY"], os.environ["MY_SERVICE_TOKEN"], os.environ["PLAIN_VALUE"],
        os.environ["CONN_VALUE"], sys.stdin.read(),
    ])
    print("agent sees:", seen, "\\x00 nul", flush=True)
    print("agent stderr:", seen, file=sys.stderr, flush=True)
    answer = {"note": seen, "extra": {os.environ["MY_SERVICE_TOKEN"]: os.environ["PLAIN_VALUE"],
                                      "sk-proj-" + "k" * 30: seen}}
    mode = os.environ["PROBE_MODE"]
    if mode == "crash":
        raise RuntimeError("cannot continue with " + seen)
    if mode == "invalid":
        answer = {"note": 5, "extra": seen}
    print(json.dumps(answer))
    """
)


@pytest.fixture
def webhook() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    with webhook_server() as server:
        yield server


DAG = """
import pendulum, sys
from pydantic import BaseModel
from airflow.sdk import DAG
from airflow.sdk.log import mask_secret
from autofix.operators import AIWrapperOperator

class Probe(BaseModel):
    note: str
    extra: dict[str, str]

class MaskingOperator(AIWrapperOperator):
    def execute(self, context):
        mask_secret({masked!r})  # a value with no secret name and no secret shape
        return super().execute(context)

ENV = {{
    "MY_API_KEY": {task_env!r},
    "PLAIN_VALUE": {masked!r},
    "CONN_VALUE": "{{{{ conn.probe.password }}}}",
}}
AGENT = [sys.executable, {agent!r}]
PROMPT = {prompt!r}

with DAG("secret_probe", schedule=None, start_date=pendulum.datetime(2025, 1, 1)) as dag:
    MaskingOperator(task_id="plain_valid", agent="plain", prompt=PROMPT, command=AGENT,
                    env={{**ENV, "PROBE_MODE": "valid"}}, output_schema=Probe, cwd={cwd!r})
    MaskingOperator(task_id="plain_invalid", agent="plain", prompt=PROMPT, command=AGENT,
                    env={{**ENV, "PROBE_MODE": "invalid"}}, output_schema=Probe, max_attempts=2)
    MaskingOperator(task_id="plain_crash", agent="plain", prompt=PROMPT, command=AGENT,
                    env={{**ENV, "PROBE_MODE": "crash"}})
    MaskingOperator(task_id="cannot_start", agent="plain", prompt=PROMPT,
                    command=[{missing!r}], env=ENV)
    MaskingOperator(task_id="sim_structured", agent="sim", prompt=PROMPT, env=ENV,
                    agent_options={{"scenario": {scenario!r}, "state_dir": {state!r}}})
"""


def _scenario(path: Path) -> Path:
    everything = json.dumps(EVERYTHING)
    path.write_text(
        textwrap.dedent(
            f"""
            format: claude
            steps:
              - text: {everything}
                structured_output:
                  note: {everything}
                  {json.dumps(S["github token"])}: {json.dumps(S["worker env, secret-named key"])}
                stdout: {everything}
                stderr: |
                  note: using {S["openai key"]} and {S["worker env, secret-named key"]}
                exit_code: 0
            """
        )
    )
    return path


def _cli(*args: str, env: dict[str, str]) -> str:
    proc = subprocess.run(
        [str(Path(sys.executable).with_name("autofix")), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout + proc.stderr


def test_secret_probe_finds_no_secret_in_any_sink(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
    webhook: tuple[str, list[dict[str, Any]]],
) -> None:
    url, posted = webhook
    audit, reports = tmp_path / "audit.jsonl", tmp_path / "reports"
    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    monkeypatch.setenv("AUTOFIX__AUDIT__PATH", str(audit))
    monkeypatch.setenv("AUTOFIX__VALIDATION__REPORT_DIR", str(reports))
    monkeypatch.setenv("AUTOFIX__ALERT__WEBHOOK_URL", url)
    monkeypatch.setenv("AUTOFIX__ALERT__MIN_RETRIES", "1")
    monkeypatch.setenv("AUTOFIX__ALERT__RETRY_SUCCESS_THRESHOLD", "1.0")
    # The worker's own environment: a token the README tells users to keep there.
    monkeypatch.setenv("MY_SERVICE_TOKEN", S["worker env, secret-named key"])
    monkeypatch.setenv(
        "AIRFLOW_CONN_PROBE",
        json.dumps({"conn_type": "generic", "password": S["airflow connection password"]}),
    )
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT)
    workdir = tmp_path / f"work-{S['worker env, secret-named key']}"  # the logged cwd
    workdir.mkdir()
    source = DAG.format(
        masked=S["mask_secret only (no name, no shape)"],
        task_env=S["task env, secret-named key"],
        agent=str(agent),
        prompt=f"Fix it. {EVERYTHING}",
        missing=str(tmp_path / f"bin-{S['openai key']}" / "agent"),
        cwd=str(workdir),
        scenario=str(_scenario(tmp_path / "probe.yaml")),
        state=str(tmp_path / "sim-state"),
    )
    outcome = run_dag("secret_probe", source)
    task_output = capfd.readouterr()

    # The tasks really ran and reached every path.
    assert outcome.task_states == {
        "plain_valid": "success",
        "plain_invalid": "failed",
        "plain_crash": "failed",
        "cannot_start": "failed",
        "sim_structured": "success",
    }
    valid = coerce_result(outcome.xcoms["plain_valid"])
    assert valid is not None
    assert valid.data["note"].startswith("[REDACTED] [REDACTED] [REDACTED] [REDACTED] Fix it.")
    log = task_output.out + task_output.err
    assert "agent sees" in log  # live output reached the log
    assert f"in {tmp_path}/work-[REDACTED]" in log  # the working directory line
    assert len(list(reports.glob("*.json"))) == 1
    assert posted, "the alert webhook was not called"

    home = airflow_home()
    with sqlite3.connect(home / "airflow.db") as db:
        xcom = [str(row) for row in db.execute("SELECT task_id, key, value FROM xcom")]
    assert any("plain_valid" in row for row in xcom) and any("parse_result" in row for row in xcom)
    cli_env = {**os.environ, "AUTOFIX_HOME": str(tmp_path)}
    sinks = {
        "task log (task output)": task_output.out + task_output.err,
        "task log files": "\n".join(
            p.read_text(errors="replace") for p in (home / "logs").rglob("*") if p.is_file()
        )
        if (home / "logs").is_dir()
        else "",
        "xcom table": "\n".join(xcom),
        "audit JSONL": audit.read_text(),
        "failure reports": "\n".join(p.read_text() for p in reports.glob("*.json")),
        "alert webhook": json.dumps(posted),
        "autofix report": "\n".join(
            _cli("report", "--store", str(audit), "--since", "all", "--format", fmt, env=cli_env)
            for fmt in ("text", "json", "markdown")
        ),
        "autofix metrics": _cli("metrics", "--store", str(audit), env=cli_env),
    }
    assert "[REDACTED]" in sinks["audit JSONL"] and "[REDACTED]" in sinks["xcom table"]
    leaks = [
        f"{name} in {sink}"
        for sink, text in sinks.items()
        for name, secret in SECRETS.items()
        if secret in text
    ]
    assert leaks == [], "secrets leaked:\n" + "\n".join(leaks)
    assert not any("\\u0000" in text or "\x00" in text for text in sinks.values())
