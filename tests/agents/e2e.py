"""The end-to-end matrix: every scenario × CLI through ``AIWrapperOperator`` under ``dag.test()``.

Real binary → scripted loopback API → autofix's runner → format parser → ParseResult → what
Airflow does with it (success; an ordinary exception and the retry's delay; retry with feedback;
``AgentPermanentError``), for variant 1 of every scenario in tests/agent_apis/scenarios.py,
plus two cases whose next Airflow try must wait the delay the output gave.

Why worker processes: ``dag.test()`` runs one DAG's tasks one after another, and one SQLite
Airflow cannot serve several ``dag.test()`` at once. The matrix (≈ 90 CLI runs; a Gemini run is
2-10 s) takes 6-8 minutes in one process; split over ``--workers`` processes, each with its own
copy of the migrated Airflow DB and its own DAG of a share of the cases (longest first, spread
evenly), it takes about 2 minutes on 2 cores.

Every task has ``retries=1`` and ``retry_delay`` of an hour: a transient failure shows as
``up_for_retry`` with its ``retry_delay_override`` (set by the retry policy from the output's
delay) and is not run again; a worker returns as soon as every task's first try has ended (the
delay cases run to their second try). Callbacks record what each try raised.

    .venv/bin/python tests/agents/e2e.py                  # the whole matrix, a table on stdout
    .venv/bin/python tests/agents/e2e.py --only 'gemini/*' --workers 2
Used by tests/test_e2e_real_clis.py.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

TESTS_DIR = Path(__file__).resolve().parents[1]
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

from agent_apis import anthropic as A  # noqa: E402
from agent_apis import gemini as G  # noqa: E402
from agent_apis.clis import CLIS, RunOptions, Sandbox  # noqa: E402
from agent_apis.core import RefusedPort, ScriptedServer  # noqa: E402
from agent_apis.scenarios import SUCCESS, Case, Context, all_cases  # noqa: E402
from agent_apis.scenarios.claude import OAUTH, _claude_unified  # noqa: E402
from agent_apis.scenarios.gemini import FREE_REQUESTS, _gemini_quota  # noqa: E402
from agents.capture import SERVERS  # noqa: E402

CAPTURES = TESTS_DIR / "fixtures" / "agent_captures"
WORKER_DEADLINE_S = 270.0  # a worker gives up (and reports what it has) after this long
MAX_RETRY_WAIT_S = 600.0  # agents.max_retry_wait_seconds in the matrix (a 3 h reset → 600 s)
# The operator's wall-clock timeout for the "timeout" scenario (the API never answers).
HANG_TIMEOUT_S = {"claude": 6.0, "codex": 6.0, "gemini": 14.0}

# Cases the operator path cannot run, with the reason.
SKIPPED = {
    "codex/untrusted_workspace": "AIWrapperOperator always passes --skip-git-repo-check",
}
# Scenarios whose failure the output cannot show without a schema: run with one (validation
# catches them). docs/agents/gemini.md, "What the output cannot tell".
SCHEMA_CATCHES = frozenset({"gemini/max_tokens_partial", "gemini/refusal_partial"})


def delay_cases() -> list[Case]:
    """Try 1 fails with a reset time / retry-after in the output, try 2 succeeds."""
    claude = Case(
        "claude",
        "delay_usage_limit_then_success",
        SUCCESS,
        lambda c: [_claude_unified("five_hour", 20), A.text("pong")],
        RunOptions(api_key=None, extra_env=OAUTH),
        description="a 5-hour limit that resets 20 s after the API's answer, then an answer",
    )
    quota = _gemini_quota(
        "GenerateRequestsPerMinutePerProjectPerModel-FreeTier", FREE_REQUESTS, "10", "2.1s"
    )
    gemini = Case(
        "gemini",
        "delay_rate_limit_then_success",
        SUCCESS,
        lambda c: [quota, quota, G.text("pong")],
        description="two 429s 'Please retry in 2.1s' (the CLI's own 2 attempts), then an answer",
    )
    return [claude, gemini]


# Cases of the exit-path families (docs/agents/*.md) run through the operator too: one per
# decision the operator takes differently, all from the tuning set. The rest of those families
# are judged from their captures (tests/test_agent_captures.py).
FAMILY_CASES = (
    "claude/success_debug_stderr",  # debug lines on stderr beside a structured success
    "claude/text_format_success",  # the text output mode
    "claude/text_format_rate_limit",
    "claude/billing_error",  # credit exhausted: permanent, fails at try 1
    "claude/hook_blocks_prompt",  # no model turn: the hook's message is no answer
    "claude/denied_tool_dont_ask",  # a denied tool, failed by fail_on
    "codex/debug_log_success",  # RUST_LOG=debug
    "codex/tool_failed_then_fixed",
    "codex/text_empty_answer",
    "codex/text_insufficient_quota",
    "codex/workspace_spend_cap",
    "codex/mcp_required_failed",  # a setup failure codex names on stderr
    "gemini/tool_error_then_answer",  # a recovered tool error on stderr
    "gemini/text_success",
    "gemini/text_max_turns",
    "gemini/loop_tool_calls",  # loop detection: invalid output, feedback
    "gemini/policy_denied_then_answer",
)
# fail_on per case: what the CLI reported that the task fails on.
FAIL_ON = {"claude/denied_tool_dont_ask": ["denied_tool"]}


def matrix_cases(patterns: Iterable[str] = ()) -> list[Case]:
    """Variant 1 of every scenario × CLI of the first catalogue, the exit-path families'
    ``FAMILY_CASES``, the two delay cases, minus SKIPPED."""
    cases = [
        c
        for c in all_cases()
        if c.variant == 1
        and not c.fresh
        and (not c.family or c.key in FAMILY_CASES)
        and c.key not in SKIPPED
    ] + delay_cases()
    wanted = list(patterns)
    if wanted:
        cases = [c for c in cases if any(fnmatch.fnmatch(c.key, p) for p in wanted)]
    return cases


def is_delay_case(case: Case) -> bool:
    return case.name.startswith("delay_")


def uses_schema(case: Case) -> bool:
    """The scenario asks for structured output, or its failure is invalid output."""
    return (
        case.options.json_schema is not None
        or case.truth.retry_class == "invalid_output"
        or case.key in SCHEMA_CATCHES
    )


def task_id(case: Case) -> str:
    return f"{case.cli}__{case.name}"


def expected_seconds(case: Case) -> float:
    """From the capture's duration (loaded machine), for balancing the workers."""
    meta = CAPTURES / case.cli / case.fixture_name / "meta.json"
    if meta.is_file():
        return float(json.loads(meta.read_text()).get("duration_s") or 5.0) + 1.0
    return 12.0


# -- one task's operator arguments ------------------------------------------------------------


def operator_kwargs(case: Case, base_url: str, sandbox: Sandbox) -> dict[str, Any]:
    """AIWrapperOperator keyword arguments that run ``case`` as the test bed runs it: the same
    binary, settings, environment and work dir (tests/agent_apis/clis.py)."""
    cli = CLIS[case.cli]
    options = case.options
    # The turn cap is the operator's own max_turns=, which autofix maps onto the CLI (a flag,
    # or a settings file); the test bed adds none of its own.
    bed_options = replace(options, max_turns=None)
    invocation = cli.invocation(base_url, sandbox, bed_options)  # also writes settings files
    argv = invocation.argv
    command = [argv[0]]
    agent_options: dict[str, Any] = {}
    if case.cli == "codex":
        # The provider and settings, as root-level -c overrides (codex -c k=v exec ...).
        command += [arg for i, arg in enumerate(argv) if argv[i - 1] == "-c" or arg == "-c"]
        if options.output_format == "text":
            agent_options["output_format"] = "text"
    else:
        agent_options["output_format"] = options.output_format
        if case.cli == "gemini" and options.trust_workspace:
            command.append("--skip-trust")
    command += list(options.extra_args)
    timeout = 60.0
    if case.name == "timeout":
        timeout = HANG_TIMEOUT_S[case.cli]
    return {
        "task_id": task_id(case),
        "agent": case.cli,
        "prompt": options.prompt,
        "command": command,
        "env": invocation.env,
        "cwd": str(sandbox.work),
        "model": options.model or getattr(cli, "default_model", None),
        "agent_options": agent_options,
        "timeout": timeout,
        "grace": 2.0,
        "max_attempts": 2,
        "fail_on": FAIL_ON.get(case.key, []),
        "max_turns": options.max_turns,
    }


# -- the worker: one dag.test() over a share of the cases --------------------------------------

DAG_TEMPLATE = '''
import json
from datetime import timedelta
from pathlib import Path

import pendulum
from pydantic import BaseModel, ConfigDict
from airflow.sdk import DAG

from autofix.operators import AIWrapperOperator
from autofix.operators.results import FAILED_RESULT_KEY

SPECS = json.loads(Path({specs!r}).read_text())
RECORDS = Path({records!r})


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    answer: str


def record(context):
    """What this try ended with, as Airflow saw it (the exception) and autofix said it."""
    ti = context["ti"]
    exc = context.get("exception")
    key = "return_value" if exc is None else FAILED_RESULT_KEY
    result = ti.xcom_pull(task_ids=ti.task_id, key=key)
    data = {{
        "try_number": ti.try_number,
        "exception": None if exc is None else type(exc).__name__,
        "result": result if isinstance(result, dict) else None,  # the ParseResult as JSON
        "at": pendulum.now("UTC").isoformat(),
    }}
    (RECORDS / f"{{ti.task_id}}.{{ti.try_number}}.json").write_text(json.dumps(data))


with DAG({dag_id!r}, schedule=None, start_date=pendulum.datetime(2025, 1, 1)) as dag:
    for spec in SPECS:
        AIWrapperOperator(
            **spec["kwargs"],
            output_schema=Answer if spec["schema"] else None,
            retries=1,
            retry_delay=timedelta(hours=1),
            on_success_callback=record,
            on_failure_callback=record,
            on_retry_callback=record,
        )
'''


@dataclass
class Running:
    case: Case
    server: ScriptedServer | None
    sandbox: Sandbox
    refused: RefusedPort | None = None  # held until the run ends


def _groups_in(root: Path) -> set[int]:
    """Process groups of the processes whose work dir is under ``root`` (the CLIs)."""
    groups: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            cwd = os.readlink(entry / "cwd")
            if cwd == str(root) or cwd.startswith(str(root) + os.sep):
                groups.add(os.getpgid(int(entry.name)))
    groups.discard(os.getpgid(0))
    return groups


def _stopper(run: Running) -> Callable[[], None]:
    """Stop the run from outside, as the capture does: SIGKILL (killed) or SIGINT (cancelled)
    once the server has the request and the partial answer had time to stream."""
    stop = run.case.stop
    assert stop is not None and run.server is not None
    server = run.server
    wanted = stop.when_requests or 1
    hold = stop.hold_s if stop.when_requests is not None else 1.0

    def watch() -> None:
        deadline = time.monotonic() + WORKER_DEADLINE_S  # the task may run late in its worker
        while len(server.model_requests()) < wanted and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(hold)
        for group in _groups_in(run.sandbox.work):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.Signals[stop.signal])

    return watch


def worker(shard_path: Path, out_path: Path) -> None:
    shard = json.loads(shard_path.read_text())
    root = Path(shard["root"])
    records = root / "records"
    records.mkdir(parents=True, exist_ok=True)
    keys = set(shard["cases"])
    cases = [c for c in matrix_cases() if c.key in keys]
    runs: list[Running] = []
    specs = []
    for case in cases:
        sandbox = Sandbox(root / "sandboxes" / case.cli / case.name).create()
        scenario = case.scenario(Context(work=sandbox.work))
        server = SERVERS[case.cli](scenario).start() if scenario is not None else None
        refused = None if server else RefusedPort()
        url = server.base_url if server else SERVERS[case.cli].url_for_port(refused.port)
        runs.append(Running(case, server, sandbox, refused))
        kwargs = operator_kwargs(case, url, sandbox)
        specs.append({"kwargs": kwargs, "schema": uses_schema(case)})
    specs_file = root / "specs.json"
    specs_file.write_text(json.dumps(specs))
    dag_id = f"e2e_{shard['name']}"
    dag_file = Path(os.environ["AIRFLOW__CORE__DAGS_FOLDER"]) / f"{dag_id}.py"
    dag_file.write_text(
        DAG_TEMPLATE.format(specs=str(specs_file), records=str(records), dag_id=dag_id)
    )
    for run in runs:  # killed / cancelled: stopped from outside, like an OOM kill or a Ctrl-C
        if run.case.stop is not None and run.case.stop.signal != "SIGTERM":
            threading.Thread(target=_stopper(run), daemon=True).start()

    import importlib.util

    spec = importlib.util.spec_from_file_location(dag_id, dag_file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    started = time.monotonic()
    wanted = {task_id(c): (2 if is_delay_case(c) else 1) for c in cases}
    finishing = threading.Lock()

    def finish(errors: list[str]) -> None:
        """Report and leave: dag.test() would otherwise wait an hour for every retry."""
        finishing.acquire()  # once; a second caller waits here for the exit
        elapsed = time.monotonic() - started
        results = {run.case.key: _collect(run, dag_id, records, shard["name"]) for run in runs}
        out_path.write_text(
            json.dumps({"elapsed_s": elapsed, "errors": errors, "results": results})
        )
        for group in _groups_in(root):  # a retry started meanwhile: leave nothing behind
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
        for run in runs:
            if run.server is not None:
                run.server.stop()
            if run.refused is not None:
                run.refused.close()
        sys.stdout.flush()
        os._exit(0)

    def watch() -> None:
        while time.monotonic() - started < WORKER_DEADLINE_S:
            done = {".".join(p.name.split(".")[:2]) for p in records.iterdir()}
            if all(_finished(tid, tries, done, records) for tid, tries in wanted.items()):
                finish([])
            time.sleep(0.5)
        finish([f"deadline: not every first try ended in {WORKER_DEADLINE_S:g}s"])

    # dag.test() installs signal handlers, so it runs on the main thread; the watcher ends it.
    threading.Thread(target=watch, daemon=True).start()
    try:
        module.dag.test()
    except Exception as exc:
        time.sleep(1.0)  # records written by callbacks of the last task
        finish([f"dag.test: {type(exc).__name__}: {exc}"])
    time.sleep(1.0)
    finish([])


def _finished(tid: str, tries: int, done: set[str], records: Path) -> bool:
    """The first try ended (any outcome), or for a delay case: it succeeded or tried twice."""
    if f"{tid}.1" not in done:
        return False
    if tries == 1:
        return True
    first = json.loads((records / f"{tid}.1.json").read_text())
    return first["exception"] is None or f"{tid}.2" in done


def _collect(run: Running, dag_id: str, records: Path, shard: str) -> dict[str, Any]:
    """Try records, and Airflow's own view of try 1 (state, retry_delay_override) from the DB."""
    from airflow.models.taskinstance import TaskInstance
    from airflow.models.taskinstancehistory import TaskInstanceHistory
    from airflow.utils.session import create_session

    tid = task_id(run.case)
    tries = {}
    for path in sorted(records.glob(f"{tid}.*.json")):
        tries[path.name.rsplit(".", 2)[1]] = json.loads(path.read_text())
    airflow: dict[str, Any] = {}
    with create_session() as session:
        for model in (TaskInstanceHistory, TaskInstance):
            for row in session.query(model).filter(model.dag_id == dag_id, model.task_id == tid):
                airflow[str(row.try_number)] = {
                    "state": str(row.state),
                    "retry_delay_override": row.retry_delay_override,
                    "retry_reason": row.retry_reason,
                    "start": row.start_date.isoformat() if row.start_date else None,
                    "end": row.end_date.isoformat() if row.end_date else None,
                    "duration_s": row.duration,
                }
    requests = run.server.log_summary() if run.server is not None else {"refused": True}
    return {
        "key": run.case.key,
        "worker": shard,
        "schema": uses_schema(run.case),
        "tries": tries,
        "airflow": airflow,
        "server": {k: v for k, v in requests.items() if k != "log"},
    }


# -- the parent: share the cases out, run the workers at once ----------------------------------

WORKER_ENV_KEEP = ("PATH", "LANG", "LC_ALL", "TZ", "PYTHONPATH", "VIRTUAL_ENV", "SYSTEMROOT")


def run_matrix(
    cases: list[Case], airflow_db: Path, workers: int = 4, scratch: Path | None = None
) -> dict[str, Any]:
    """Run ``cases`` over ``workers`` processes; returns {"results": {key: ...}, "wall_s", ...}."""
    scratch = Path(scratch or tempfile.mkdtemp(prefix="autofix-e2e-"))
    # Longest first onto the least loaded worker (LPT): the slow Gemini runs spread out.
    shares: list[list[Case]] = [[] for _ in range(max(1, workers))]
    loads = [0.0] * len(shares)
    for case in sorted(cases, key=expected_seconds, reverse=True):
        if is_delay_case(case):
            continue
        index = loads.index(min(loads))
        shares[index].append(case)
        loads[index] += expected_seconds(case)
    # The delay cases get a worker of their own: their reset times count from its start.
    shares.append([case for case in cases if is_delay_case(case)])
    procs = []
    started = time.monotonic()
    for index, share in enumerate(shares):
        if not share:
            continue
        name = f"w{index}"
        home = scratch / name / "airflow"
        (home / "dags").mkdir(parents=True, exist_ok=True)
        shutil.copy2(airflow_db, home / "airflow.db")
        shard = scratch / name / "shard.json"
        shard.write_text(
            json.dumps({"name": name, "root": str(scratch / name), "cases": [c.key for c in share]})
        )
        env = {key: os.environ[key] for key in WORKER_ENV_KEEP if key in os.environ}
        env.update(
            {
                "HOME": str(scratch / name),
                "AIRFLOW_HOME": str(home),
                "AIRFLOW__CORE__DAGS_FOLDER": str(home / "dags"),
                "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
                "AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES": "airflow.* autofix.*",
                "AIRFLOW__CORE__UNIT_TEST_MODE": "False",
                "AIRFLOW__LOGGING__LOGGING_LEVEL": os.environ.get("E2E_LOG_LEVEL", "WARNING"),
                "AUTOFIX_HOME": str(scratch / name),
                "AUTOFIX__AUDIT__PATH": str(scratch / name / "audit.jsonl"),
                "AUTOFIX__AGENTS__MAX_RETRY_WAIT_SECONDS": str(MAX_RETRY_WAIT_S),
            }
        )
        out = scratch / name / "result.json"
        log = (scratch / name / "worker.log").open("wb")
        proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", str(shard), "--out", str(out)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        procs.append((name, proc, out, len(share)))
    merged: dict[str, Any] = {"results": {}, "workers": {}, "scratch": str(scratch)}
    for name, proc, out, count in procs:
        try:
            proc.wait(timeout=WORKER_DEADLINE_S + 60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if out.is_file():
            data = json.loads(out.read_text())
            merged["results"].update(data["results"])
            merged["workers"][name] = {
                "cases": count,
                "elapsed_s": data["elapsed_s"],
                "errors": data["errors"],
            }
        else:
            merged["workers"][name] = {
                "cases": count,
                "errors": [f"no result (exit {proc.returncode})"],
            }
    merged["wall_s"] = time.monotonic() - started
    return merged


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--only", nargs="*", default=[], help="cli/scenario globs")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    args = parser.parse_args(argv)
    if args.worker is not None:
        worker(args.worker, args.out)
        return 0
    from agent_apis.clis import missing_reason

    reason = missing_reason()
    if reason:
        print(f"e2e: {reason}", file=sys.stderr)
        return 2
    scratch = Path(tempfile.mkdtemp(prefix="autofix-e2e-"))
    db = _migrated_db(scratch)
    merged = run_matrix(matrix_cases(args.only), db, args.workers, scratch)
    if args.json:
        args.json.write_text(json.dumps(merged, indent=2))
    from agents.e2e_report import markdown_matrix

    print(markdown_matrix(merged))
    return 0


def _migrated_db(scratch: Path) -> Path:
    home = scratch / "template"
    home.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "AIRFLOW_HOME": str(home), "AIRFLOW__CORE__LOAD_EXAMPLES": "False"}
    airflow = Path(sys.executable).with_name("airflow")
    subprocess.run(
        [str(airflow), "db", "migrate"], env=env, check=True, capture_output=True, timeout=300
    )
    return home / "airflow.db"


if __name__ == "__main__":
    sys.exit(main())
