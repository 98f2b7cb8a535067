"""Replay every scenario against the real agent CLIs and rewrite the capture fixtures.

    make agent-clis                                   # once: the pinned CLIs in .agents/
    .venv/bin/python tests/agents/capture.py          # everything (~3-4 min, 3 jobs)
    .venv/bin/python tests/agents/capture.py --cli gemini --only 'rate_limit*'
    .venv/bin/python tests/agents/capture.py --list

Each case (tests/agent_apis/scenarios.py) runs the real binary against a scripted loopback API
server (tests/agent_apis/) in a fresh sandbox and writes
``tests/fixtures/agent_captures/<cli>/<scenario>/``:

- ``stdout``, ``stderr``: the raw bytes;
- ``meta.json``: argv and env (port, sandbox path and binary path replaced by placeholders,
  secrets redacted), exit code or signal, duration, CLI version, the server's request log and
  the **truth** (``succeeded``, ``kind``, ``retry_class``) the scenario defines.

The sandbox path is fixed per case (``$TMPDIR/autofix-agent-captures/<cli>/<scenario>``), so
paths inside the captures do not change between runs; timestamps, ids and ports do.

``HELDOUT.txt`` lists the held-out cases (see :func:`heldout`): keep them out of any tuning.
``--matrix`` rewrites the matrix in docs/agent-capture-notes.md from the fixtures on disk.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

TESTS_DIR = Path(__file__).resolve().parents[1]
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

from agent_apis import observe  # noqa: E402
from agent_apis.anthropic import AnthropicServer  # noqa: E402
from agent_apis.clis import BIN_DIR, CLIS, Invocation, Sandbox, missing_reason, run  # noqa: E402
from agent_apis.core import RefusedPort, ScriptedServer  # noqa: E402
from agent_apis.gemini import GeminiServer  # noqa: E402
from agent_apis.openai import OpenAIResponsesServer  # noqa: E402
from agent_apis.scenarios import Case, Context, all_cases  # noqa: E402

REPO_ROOT = TESTS_DIR.parent
OUT_DIR = TESTS_DIR / "fixtures" / "agent_captures"
NOTES = REPO_ROOT / "docs" / "agent-capture-notes.md"
SANDBOX_ROOT = Path(tempfile.gettempdir()) / "autofix-agent-captures"
SERVERS: dict[str, type[ScriptedServer]] = {
    "claude": AnthropicServer,
    "codex": OpenAIResponsesServer,
    "gemini": GeminiServer,
}
HELDOUT_PERCENT = 30


def heldout(case: Case) -> bool:
    """The held-out rule, fixed before any classifier is tuned on these captures.

    Every variant-2 case (a second shape of a failure, written for the held-out set), plus the
    variant-1 cases whose ``sha256("<cli>/<scenario>")`` ends in a value below 30 mod 100.
    """
    if case.fresh or case.variant != 1:
        return True
    digest = hashlib.sha256(f"{case.cli}/{case.name}".encode()).hexdigest()
    return int(digest, 16) % 100 < HELDOUT_PERCENT


def _placeholders(text: str, port: int, sandbox: Path, invocation: Invocation) -> str:
    for secret in invocation.secrets:
        text = text.replace(secret, "<redacted>")
    text = text.replace(str(BIN_DIR), "{AGENT_BIN}")
    text = text.replace(str(sandbox), "{SANDBOX}")
    return text.replace(f"127.0.0.1:{port}", "127.0.0.1:{PORT}")


SECRET_ENV = ("KEY", "TOKEN", "SECRET")


def _stop_condition(case: Case, server: ScriptedServer | None) -> Callable[[bytes], bool] | None:
    stop = case.stop
    if stop is None:
        return None
    condition: Callable[[bytes], bool]
    if stop.when_stdout_has:
        marker = stop.when_stdout_has.encode()

        def condition(out: bytes) -> bool:
            return marker in out

    elif stop.when_requests is not None and server is not None:
        wanted, api = stop.when_requests, server

        def condition(out: bytes) -> bool:
            return len(api.model_requests()) >= wanted

    else:
        return None
    if stop.hold_s <= 0:
        return condition
    held_since: list[float] = []

    def held(out: bytes) -> bool:
        if not held_since:
            if condition(out):
                held_since.append(time.monotonic())
            return False
        return time.monotonic() - held_since[0] >= stop.hold_s

    return held


def truth_meta(case: Case) -> dict[str, Any]:
    """What the catalogue says a case is: written into its meta.json."""
    return {
        "description": case.description,
        "family": case.family,
        "fresh": case.fresh,
        "heldout": heldout(case),
        "truth": {
            "succeeded": case.truth.succeeded,
            "kind": case.truth.kind,
            "retry_class": case.truth.retry_class,
            "detail": case.truth.detail,
            "shown": case.truth.shown,
            "warnings": list(case.truth.warnings),
        },
    }


def rewrite_truth(case: Case, out_dir: Path) -> bool:
    """The catalogue's truth written into an existing capture (the run itself untouched)."""
    path = out_dir / case.cli / case.fixture_name / "meta.json"
    if not path.is_file():
        return False
    meta = json.loads(path.read_text())
    updated = {**meta, **truth_meta(case)}
    if updated == meta:
        return False
    path.write_text(json.dumps(updated, indent=2, ensure_ascii=False) + "\n")
    return True


def capture(case: Case, out_dir: Path) -> dict[str, Any]:
    cli = CLIS[case.cli]
    sandbox = Sandbox(SANDBOX_ROOT / case.cli / case.fixture_name)
    if sandbox.root.exists():
        shutil.rmtree(sandbox.root)
    sandbox.create()
    ctx = Context(work=sandbox.work)
    scenario = case.scenario(ctx)
    server: ScriptedServer | None = None
    refused: RefusedPort | None = None
    if scenario is not None:
        server = SERVERS[case.cli](scenario).start()
        port = server.port
        base_url = server.base_url
    else:  # connection refused: nobody listens on this port
        refused = RefusedPort()
        port = refused.port
        base_url = SERVERS[case.cli].url_for_port(port)
    try:
        invocation = cli.invocation(base_url, sandbox, case.options)
        stop = case.stop
        result = run(
            invocation,
            timeout_s=case.timeout_s,
            grace_s=2.0,
            stop_signal=signal.Signals[stop.signal] if stop else signal.SIGKILL,
            stop_when=_stop_condition(case, server),
            stop_after_s=stop.after_s if stop else None,
        )
    finally:
        if server is not None:
            server.stop()
        if refused is not None:
            refused.close()
    target = out_dir / case.cli / case.fixture_name
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    (target / "stdout").write_bytes(result.stdout)
    (target / "stderr").write_bytes(result.stderr)

    def clean(text: str) -> str:
        return _placeholders(text, port, sandbox.root, invocation)

    env = {
        name: ("<redacted>" if any(s in name for s in SECRET_ENV) and value else clean(value))
        for name, value in sorted(invocation.env.items())
    }
    meta: dict[str, Any] = {
        "cli": case.cli,
        "cli_version": cli.version(),
        "scenario": case.name,
        "variant": case.variant,
        "fixture": case.fixture_name,
        **truth_meta(case),
        "argv": [clean(arg) for arg in invocation.argv],
        "env": env,
        "files": {clean(path): clean(text) for path, text in invocation.files.items()},
        "cwd": "{SANDBOX}/work",
        "port": port,
        "sandbox": str(sandbox.root),
        "exit_code": result.exit_code,
        "signal": result.signal,
        "stopped_by": "timeout" if result.stopped_by == "SIGTERM" else result.stopped_by,
        "stop": None
        if case.stop is None
        else {
            "signal": case.stop.signal,
            "when_stdout_has": case.stop.when_stdout_has,
            "when_requests": case.stop.when_requests,
            "after_s": case.stop.after_s,
            "hold_s": case.stop.hold_s,
        },
        "timeout_s": case.timeout_s,
        "duration_s": round(result.duration_s, 2),
        "server": server.log_summary() if server is not None else {"requests": 0, "refused": True},
    }
    meta["observed"] = observe.observe(case.cli, result.stdout, result.stderr)
    (target / "meta.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    return meta


def write_heldout(cases: list[Case], out_dir: Path) -> None:
    lines = [
        "# Held-out agent captures: never tune a classifier on these.",
        "# Rule (fixed before any tuning, tests/agents/capture.py:heldout):",
        "#   every '__v2' case (a second shape of each failure, written for this set), plus",
        f"#   the variant-1 cases with int(sha256('<cli>/<scenario>'), 16) % 100 < {HELDOUT_PERCENT}.",
        "# One <cli>/<fixture dir> per line.",
    ]
    lines += sorted(case.key for case in cases if heldout(case))
    (out_dir / "HELDOUT.txt").write_text("\n".join(lines) + "\n")


FRESH_HEADER = [
    "# The fresh held-out batches of the agent-verdict issue. A case's variant is its batch.",
    "# Each batch was written from the coverage tables (docs/agents/*.md) by someone who did",
    "# not change the verdict, captured and frozen here before the verdict changed, and scored",
    "# once; a batch already scored (tests/agents/evaluate.py SCORED_BATCHES) joins tuning.",
    "# <cli>/<fixture dir>  sha256 of its stdout, stderr and exit code (the frozen run)",
]


def capture_digest(folder: Path) -> str:
    """What a frozen capture is: its raw streams and how it ended (meta's truth may be
    corrected, the run may not)."""
    meta = json.loads((folder / "meta.json").read_text())
    digest = hashlib.sha256()
    for name in ("stdout", "stderr"):
        digest.update((folder / name).read_bytes())
    digest.update(json.dumps([meta.get("exit_code"), meta.get("signal")]).encode())
    return digest.hexdigest()


def write_fresh(cases: list[Case], out_dir: Path) -> int:
    """FRESH.txt: every fresh case captured so far, with the digest of its run."""
    lines = list(FRESH_HEADER)
    for case in sorted(cases, key=lambda c: c.key):
        folder = out_dir / case.cli / case.fixture_name
        if case.fresh and (folder / "meta.json").is_file():
            lines.append(f"{case.key}  {capture_digest(folder)}")
    (out_dir / "FRESH.txt").write_text("\n".join(lines) + "\n")
    return len(lines) - len(FRESH_HEADER)


def select(args: argparse.Namespace) -> list[Case]:
    cases = all_cases()
    if args.cli:
        wanted = set(args.cli.split(","))
        cases = [c for c in cases if c.cli in wanted]
    if args.only:
        cases = [
            c
            for c in cases
            if any(
                fnmatch.fnmatch(c.fixture_name, pattern) or fnmatch.fnmatch(c.key, pattern)
                for pattern in args.only
            )
        ]
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--cli", help="comma-separated: claude,codex,gemini (default: all)")
    parser.add_argument("--only", nargs="*", help="fixture-name or cli/fixture globs")
    parser.add_argument("--jobs", type=int, default=3, help="cases run at once (default 3)")
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("--matrix", action="store_true", help="only rewrite the docs matrix")
    parser.add_argument(
        "--freeze",
        action="store_true",
        help="only write FRESH.txt: the fresh cases captured, with their digests",
    )
    parser.add_argument(
        "--truth",
        action="store_true",
        help="only write the catalogue's truth into the existing captures (no CLI is run)",
    )
    args = parser.parse_args(argv)

    everything = all_cases()
    if args.list:
        for case in select(args):
            flag = " (held out)" if heldout(case) else ""
            print(f"{case.key:45s} {case.truth.kind:16s} {case.truth.retry_class}{flag}")
        return 0
    if args.matrix:
        observe.write_matrix(args.out, NOTES)
        return 0
    if args.freeze:
        print(f"FRESH.txt: {write_fresh(everything, args.out)} fresh capture(s) frozen")
        return 0
    if args.truth:
        changed = [case.key for case in select(args) if rewrite_truth(case, args.out)]
        write_heldout(everything, args.out)
        print(f"truth rewritten in {len(changed)} capture(s): {', '.join(changed) or '-'}")
        return 0
    reason = missing_reason()
    if reason:
        print(f"capture: {reason}", file=sys.stderr)
        return 2
    cases = select(args)
    args.out.mkdir(parents=True, exist_ok=True)
    write_heldout(everything, args.out)
    started = time.monotonic()
    per_cli: dict[str, float] = {}

    def one(case: Case) -> dict[str, Any]:
        meta = capture(case, args.out)
        per_cli[case.cli] = per_cli.get(case.cli, 0.0) + meta["duration_s"]
        obs = meta["observed"]
        print(
            f"{case.key:45s} exit={meta['exit_code']!s:>4} sig={meta['signal'] or '-':8s} "
            f"{meta['duration_s']:6.2f}s req={meta['server'].get('model_requests', 0)} "
            f"{obs.get('terminal', '')[:60]}",
            flush=True,
        )
        return meta

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(one, cases))
    wall = time.monotonic() - started
    sums = ", ".join(f"{cli} {secs:.0f}s" for cli, secs in sorted(per_cli.items()))
    print(f"captured {len(cases)} cases in {wall:.1f}s wall ({sums} of run time)")
    observe.write_matrix(args.out, NOTES)
    return 0


if __name__ == "__main__":
    sys.exit(main())
