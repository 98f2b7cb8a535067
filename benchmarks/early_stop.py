"""Early stops: the time a hopeless run costs with the CLIs' default retry settings, with and
without autofix's early stop.

Run: ``.venv/bin/python benchmarks/early_stop.py [--cap 240] [--jobs 8] [--json PATH]``
(needs the pinned CLIs: ``make agent-clis``).

Each case runs the real CLI twice against the same persisting failure of the scripted loopback
API (tests/agent_apis), through ``AgentTask`` (autofix's runner, OutputJudge and watcher), with
the CLI's own retries at their defaults: ``CLAUDE_CODE_MAX_RETRIES`` unset (10), Codex's
``request_max_retries`` / ``stream_max_retries`` unset (4 / 5), Gemini's ``general.maxAttempts``
unset (10):

- early stop off (``agents.early_stop_* = 0``): the run ends when the CLI gives up, or at
  ``--cap`` seconds (autofix's wall-clock timeout);
- early stop on (the defaults: 2 notices of a failure no retry fixes, 4 of the same transient).

Reported per case: seconds and kind each way, and the time saved. Runs go ``--jobs`` at a time
(they mostly wait on the CLIs' backoff).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

TESTS_DIR = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS_DIR))

from agent_apis.clis import Sandbox, missing_reason  # noqa: E402
from agent_apis.core import RefusedPort  # noqa: E402
from agent_apis.scenarios import Case, Context, cases_by_key  # noqa: E402
from agents.capture import SERVERS  # noqa: E402
from agents.e2e import operator_kwargs  # noqa: E402

from autofix.config import AgentSettings, AutofixConfig  # noqa: E402
from autofix.task.agent_task import AgentTask, AgentTaskSpec, TraceContext  # noqa: E402

CASES = (
    "claude/overloaded",  # 529 on every try: 10 retries, backoff up to ~40 s
    "claude/server_500",
    "claude/rate_limit_persisting",  # 429 with retry-after 2 s
    "claude/auth_invalid_key__v2",  # an expired OAuth token: 401, retried
    "codex/auth_invalid_key",  # 401: "Reconnecting... N/5"
    "codex/server_503",
    "codex/overloaded",
    "codex/rate_limit_persisting",
    "codex/connection_refused",  # "Reconnecting... waiting for network" forever
    "gemini/server_500",  # "Attempt N failed with status 500", 5-30 s backoff, 10 attempts
    "gemini/rate_limit_persisting",
    "gemini/connection_refused",
)
OFF = AgentSettings(early_stop_hopeless_after=0, early_stop_repeated_after=0)
ON = AgentSettings()


def with_default_retries(case: Case) -> Case:
    """The CLI's own retry settings back at their defaults."""
    options = case.options
    if case.cli == "gemini":
        options = replace(options, settings={"general": {"maxAttempts": None}})
    return replace(case, options=options)


def run_once(case: Case, agents: AgentSettings, cap: float, root: Path) -> dict[str, Any]:
    sandbox = Sandbox(root / case.cli / case.fixture_name).create()
    scenario = case.scenario(Context(work=sandbox.work))
    server = SERVERS[case.cli](scenario).start() if scenario is not None else None
    refused = None if server else RefusedPort()
    url = server.base_url if server else SERVERS[case.cli].url_for_port(refused.port)
    try:
        kwargs = operator_kwargs(case, url, sandbox)
        env = dict(kwargs["env"])
        env.pop("CLAUDE_CODE_MAX_RETRIES", None)
        command = [
            arg.replace(", request_max_retries=1, stream_max_retries=1", "")
            for arg in kwargs["command"]
        ]
        spec = AgentTaskSpec(
            agent=kwargs["agent"],
            prompt=kwargs["prompt"],
            command=command,
            env=env,
            cwd=kwargs["cwd"],
            model=kwargs["model"],
            agent_options=kwargs["agent_options"],
            timeout=cap,
            grace=2.0,
        )
        task = AgentTask(
            spec,
            config=AutofixConfig(agents=agents),
            trace=TraceContext(trace_id="bench"),
            log_line=lambda line: None,
        )
        started = time.monotonic()
        result = task.run()
        seconds = time.monotonic() - started
    finally:
        if server is not None:
            server.stop()
        if refused is not None:
            refused.close()
    requests = len(server.model_requests()) if server is not None else None
    return {
        "seconds": round(seconds, 1),
        "kind": str(result.failure_kind),
        "retry_class": result.retry_class.value,
        "stopped_early": "stopped early" in result.error_message,
        "requests": requests,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cap", type=float, default=240.0, help="wall-clock timeout, seconds")
    parser.add_argument("--jobs", type=int, default=8)
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    reason = missing_reason()
    if reason:
        print(f"early_stop: {reason}", file=sys.stderr)
        return 2
    catalogue = cases_by_key()
    keys = [key for key in CASES if not args.only or key in args.only]
    root = Path(tempfile.mkdtemp(prefix="autofix-early-stop-"))
    jobs = [(key, mode) for key in keys for mode in ("off", "on")]

    def one(job: tuple[str, str]) -> tuple[str, str, dict[str, Any]]:
        key, mode = job
        case = with_default_retries(catalogue[key])
        settings = OFF if mode == "off" else ON
        return key, mode, run_once(case, settings, args.cap, root / mode)

    started = time.monotonic()
    rows: dict[str, dict[str, Any]] = {key: {} for key in keys}
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for key, mode, row in pool.map(one, jobs):
            rows[key][mode] = row
            print(f"{key:34s} {mode:3s} {row}", flush=True)
    print(f"\n{time.monotonic() - started:.0f} s wall\n")
    print(
        "| case | early stop off: s (kind, requests) | early stop on: s (kind, requests) | saved |"
    )
    print("|---|---|---|---|")
    for key in keys:
        off, on = rows[key]["off"], rows[key]["on"]
        capped = " (cap)" if off["seconds"] >= args.cap else ""
        print(
            f"| `{key}` | {off['seconds']:.1f}{capped} ({off['kind']}, {off['requests']}) | "
            f"{on['seconds']:.1f} ({on['kind']}, {on['requests']}) | "
            f"{off['seconds'] - on['seconds']:.1f} s |"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
