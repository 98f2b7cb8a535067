"""Capture the corpus: run every case in a fresh scratch directory and store the raw bytes.

    bash tests/corpus/setup_tools.sh            # once: Debian tools, a scratch venv and npm prefix
    .venv/bin/python tests/corpus/capture.py    # every case
    .venv/bin/python tests/corpus/capture.py --only 'pytest-*'  # ids (or tools) matching a glob
    .venv/bin/python tests/corpus/capture.py --list     # the cases, categories, labels and splits
    .venv/bin/python tests/corpus/capture.py --freeze-split   # add new cases to split.tsv
    .venv/bin/python tests/corpus/capture.py --freeze-split --fresh 'fresh-*'   # ... as split fresh
    .venv/bin/python tests/corpus/capture.py --freeze-split --fresh 'fresh8-*' --fresh-split fresh8
    .venv/bin/python tests/corpus/capture.py --freeze-split --fresh 'fresh9-*' --fresh-split fresh9
    .venv/bin/python tests/corpus/capture.py --freeze-split --fresh 'fresh10-*' --fresh-split fresh10
    .venv/bin/python tests/corpus/capture.py --freeze-split --fresh 'fresh11-*' --fresh-split fresh11
    .venv/bin/python tests/corpus/capture.py --freeze-split --fresh 'fresh12-*' --fresh-split fresh12

The cases are the records in ``tests/corpus/cases/<batch>.yaml`` (with their file trees); each
run goes into its batch's ``tests/corpus/runs/<batch>.jsonl.gz`` (``reader``). A run whose exit
(or signal) differs from what the case was built to do, or whose ``confirm`` text is missing, is
not stored: its label would not describe it. One case whose setup fails does not stop the others.
"""

from __future__ import annotations

import argparse
import datetime as dt
import fnmatch
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/, where the corpus package lives

from corpus.reader import (  # noqa: E402
    CATEGORIES,
    RUNS,
    SPLIT,
    SPLIT_HEADER,
    SPLITS,
    Case,
    StoredRun,
    load_cases,
    load_runs,
    read_runs,
    read_split,
    run_batches,
    write_runs,
)
from corpus.servers import Servers  # noqa: E402

# Tools whose name is not the program that runs them.
TOOL_EXE: dict[str, str] = {
    "unittest": "python3",
    "node-test": "node",
    "pip": "pip",
    "coverage": "coverage",
    "lua": "lua5.4",
    "tcl": "tclsh",
    "g++": "g++",
}
TOOLS = Path(os.environ.get("AUTOFIX_CORPUS_TOOLS", HERE / ".tools"))
MAX_STREAM = 256 * 1024
HALF = MAX_STREAM // 2
SETUP_TIMEOUT = 180.0


# ---------------------------------------------------------------------------------------------
# The split. Fixed before any tuning and committed in split.tsv; the rule below only assigns
# cases that are not in that file yet.


def _h(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def stratified_split(cases: list[Case]) -> dict[str, str]:
    """Groups (a scenario and its variants) go to one side together.

    Each group is filed under the tool and the (category, label) of its first case. Per tool,
    groups are ordered by (category, label, sha256(group)) and every third one, starting at an
    offset of sha256(tool) mod 3, is held out: about 1/3 of every tool, spread systematically
    over its categories and labels, so every category and nearly every tool is on both sides.
    """
    groups: dict[str, list[Case]] = {}
    for c in cases:
        groups.setdefault(c.split_group, []).append(c)
    by_tool: dict[str, list[tuple[str, str, str, str]]] = {}
    for name, members in groups.items():
        first = members[0]
        by_tool.setdefault(first.tool, []).append((first.category, first.label, _h(name), name))
    side: dict[str, str] = {}
    for tool, entries in by_tool.items():
        entries.sort()
        offset = int(_h(tool), 16) % 3
        for i, entry in enumerate(entries):
            side[entry[3]] = "heldout" if (i + offset) % 3 == 0 else "tune"
    return {c.id: side[c.split_group] for c in cases}


def late_split(c: Case, known_groups: dict[str, str]) -> str:
    """A case added after the freeze: its group's side, else sha256(group) mod 3 == 0."""
    if c.split_group in known_groups:
        return known_groups[c.split_group]
    return "heldout" if int(_h(c.split_group), 16) % 3 == 0 else "tune"


def freeze_split(
    cases: list[Case], fresh: list[str] | None = None, fresh_split: str = "fresh"
) -> None:
    """Write split.tsv. Existing rows never move; a new case whose id matches a ``fresh`` glob
    goes to the split ``fresh_split`` (``fresh``, or a batch's own held-out split such as
    ``fresh8`` to ``fresh12``), any other new case to ``late_split``."""
    if fresh_split not in SPLITS or fresh_split in ("tune", "heldout"):
        raise SystemExit(f"--fresh-split {fresh_split!r}: use one of {list(SPLITS[2:])}")
    existing = read_split()
    fresh = fresh or []

    def is_fresh(c: Case) -> bool:
        return any(fnmatch.fnmatchcase(c.id, p) for p in fresh)

    if existing:
        groups = {row["group"]: row["split"] for row in existing.values()}
        sides: dict[str, str] = {}
        for c in sorted(cases, key=lambda c: c.id):
            if c.id in existing:
                sides[c.id] = existing[c.id]["split"]
            elif is_fresh(c):
                # Held out in its own split, scored once; a group that has a side keeps it.
                sides[c.id] = groups.get(c.split_group, fresh_split)
                groups.setdefault(c.split_group, sides[c.id])
            else:
                sides[c.id] = late_split(c, groups)
    else:
        sides = stratified_split([c for c in cases if not is_fresh(c)])
        sides.update({c.id: fresh_split for c in cases if is_fresh(c)})
    kept = {i: r for i, r in existing.items() if i not in {c.id for c in cases}}
    lines = [SPLIT_HEADER]
    for c in sorted(cases, key=lambda c: c.id):
        lines.append("\t".join((c.id, c.tool, c.category, c.label, c.split_group, sides[c.id])))
    for _i, r in sorted(kept.items()):  # a case whose record was removed keeps its frozen row
        lines.append("\t".join(r[k] for k in SPLIT_HEADER.split("\t")))
    SPLIT.write_text("\n".join(lines) + "\n")
    added = [c for c in cases if c.id not in existing]
    n_fresh = sum(1 for c in added if sides[c.id] == fresh_split)
    print(f"split.tsv: {len(lines) - 1} rows ({len(added)} added, {n_fresh} of them {fresh_split})")


# ---------------------------------------------------------------------------------------------
# Running one case.


def base_env(servers: Servers | None) -> dict[str, str]:
    """A small, explicit environment: the same on every machine, whatever the caller's is."""
    path = [str(TOOLS / "venv" / "bin"), str(TOOLS / "node" / "node_modules" / ".bin")]
    path += [p for p in os.environ.get("PATH", "").split(os.pathsep) if "pyenv" not in p]
    for extra in ("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"):
        if extra not in path:
            path.append(extra)
    env = {
        "PATH": os.pathsep.join(path),
        "HOME": os.environ.get("HOME", "/root"),
        "USER": os.environ.get("USER", "root"),
        "SHELL": "/bin/bash",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TZ": "UTC",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_NO_INDEX": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "npm_config_offline": "true",
        "npm_config_update_notifier": "false",
        "npm_config_fund": "false",
        "npm_config_audit": "false",
        "npm_config_userconfig": str(HERE / "npmrc"),
        "GOFLAGS": "-mod=mod",
        "GOPROXY": "off",
        "GOTOOLCHAIN": "local",
        "GOCACHE": str(TOOLS / "gocache"),
        "GOPATH": str(TOOLS / "gopath"),
        "CARGO_NET_OFFLINE": "true",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Corpus",
        "GIT_AUTHOR_EMAIL": "corpus@example.invalid",
        "GIT_COMMITTER_NAME": "Corpus",
        "GIT_COMMITTER_EMAIL": "corpus@example.invalid",
        "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
        "MAVEN_OPTS": "-Xmx256m",
    }
    for name in ("CARGO_HOME", "RUSTUP_HOME", "JAVA_HOME", "RUSTUP_TOOLCHAIN"):
        if name in os.environ:
            env[name] = os.environ[name]
    if servers is not None:
        env.update(servers.env)
    return env


def _write_files(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        if name.endswith(".sh") or data.startswith(b"#!"):
            target.chmod(0o755)


@dataclass
class Run:
    returncode: int
    stdout: bytes
    stderr: bytes
    duration_s: float
    timed_out: bool


def _kill_group(pid: int, sig: int = signal.SIGKILL) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


def execute(c: Case, cwd: Path, env: dict[str, str]) -> Run:
    argv = c.cmd if isinstance(c.cmd, list) else ["bash", "-c", c.cmd]
    start = time.monotonic()
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    timed_out = False
    try:
        out, err = proc.communicate(timeout=c.timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc.pid)
        out, err = proc.communicate()
    duration = time.monotonic() - start
    _kill_group(proc.pid)  # leftovers of the case's own process group
    return Run(proc.returncode, out, err, duration, timed_out)


def _signal_name(num: int) -> str:
    try:
        return signal.Signals(num).name
    except ValueError:
        return f"SIG{num}"


def check(c: Case, run: Run) -> str:
    """Empty when the run went as the case was built; else why its label would not hold."""
    want = c.expected
    rc = run.returncode
    got = _signal_name(-rc) if rc < 0 else rc
    if want == "nonzero":
        if rc == 0:
            return "exited 0, built to fail with a non-zero exit"
    elif isinstance(want, str):
        if got != want:
            return f"ended with {got!r}, built to end with {want}"
    elif rc != want:
        return f"exited {got!r}, built to exit {want}"
    both = run.stdout + b"\n" + run.stderr
    if c.confirm and not re.search(c.confirm.encode(), both):
        return f"output lacks {c.confirm!r}"
    if c.category == "coloured_output" and b"\x1b[" not in both:
        return "no ANSI escape in the output of a coloured_output case"
    if c.category == "non_utf8" and all(_utf8(s) for s in (run.stdout, run.stderr)):
        return "both streams are valid UTF-8 in a non_utf8 case"
    return ""


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _stream(data: bytes) -> tuple[bytes, dict[str, object]]:
    info: dict[str, object] = {
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "truncated": None,
    }
    if len(data) > MAX_STREAM:
        info["truncated"] = {"kept_head": HALF, "kept_tail": HALF, "dropped": len(data) - 2 * HALF}
        data = data[:HALF] + data[-HALF:]
    return data, info


class Batches:
    """The stored runs of the batches a capture touches; a batch is rewritten at each new run,
    so an interrupted capture keeps what it stored."""

    def __init__(self) -> None:
        self._runs: dict[str, dict[str, StoredRun]] = {}

    def _batch(self, name: str) -> dict[str, StoredRun]:
        if name not in self._runs:
            self._runs[name] = {run.id: run for run in read_runs(name)}
        return self._runs[name]

    def put(self, run: StoredRun) -> None:
        batch = self._batch(run.batch)
        batch[run.id] = run
        write_runs(run.batch, batch.values())

    def prune(self, known: set[str]) -> None:
        """Drop the stored runs whose case record is gone."""
        for name in run_batches():
            batch = self._batch(name)
            for run_id in sorted(set(batch) - known):
                del batch[run_id]
                print(f"pruned {run_id} from {name}")
            write_runs(name, batch.values())


def store(c: Case, run: Run, batches: Batches) -> None:
    out, out_info = _stream(run.stdout)
    err, err_info = _stream(run.stderr)
    rc = run.returncode
    meta = {
        "id": c.id,
        "tool": c.tool,
        "category": c.category,
        "label": c.label,
        "why": c.why,
        "group": c.split_group,
        "output_shows": c.output_shows,
        "command": c.cmd,
        "shell": isinstance(c.cmd, str),
        "setup": c.setup,
        "files": sorted(c.files),
        "env": dict(c.env),
        "exit_code": rc if rc >= 0 else None,
        "signal": _signal_name(-rc) if rc < 0 else None,
        "returncode": rc,
        "timed_out": run.timed_out,
        "timeout_s": c.timeout,
        "duration_s": round(run.duration_s, 3),
        "stdout": out_info,
        "stderr": err_info,
        "captured_at": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    batches.put(StoredRun(c.batch, c.id, meta, out, err))


def missing_tools(c: Case) -> list[str]:
    env_path = base_env(None)["PATH"]
    needs = c.needs or (TOOL_EXE.get(c.tool, c.tool),)
    return [n for n in needs if shutil.which(n, path=env_path) is None]


def capture_one(c: Case, env: dict[str, str], scratch: Path, batches: Batches) -> str:
    """Run and store one case; returns a one-line status."""
    missing = missing_tools(c)
    if missing:
        return f"SKIP   {c.id}: missing {', '.join(missing)}"
    cwd = scratch / c.id
    if cwd.exists():
        shutil.rmtree(cwd, ignore_errors=True)
    cwd.mkdir(parents=True)
    try:
        _write_files(cwd, c.files)
        if c.setup:
            prep = subprocess.run(
                ["bash", "-ec", c.setup],
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=SETUP_TIMEOUT,
            )
            if prep.returncode != 0:
                tail = (prep.stderr or prep.stdout).decode("utf-8", "replace").strip()[-300:]
                return f"SETUP  {c.id}: setup exited {prep.returncode}: {tail}"
        run = execute(c, cwd, env)
    except Exception as exc:  # a broken case must not stop the others
        return f"ERROR  {c.id}: {type(exc).__name__}: {exc}"
    finally:
        shutil.rmtree(cwd, ignore_errors=True)
    problem = check(c, run)
    rc = run.returncode
    shown = f"exit {rc}" if rc >= 0 else _signal_name(-rc)
    if problem:
        tail = (run.stderr or run.stdout)[-400:].decode("utf-8", "replace")
        return f"MISMATCH {c.id}: {problem}; not stored\n    {tail!r}"
    store(c, run, batches)
    return f"ok     {c.id}: {shown}, {run.duration_s:.1f}s, {len(run.stdout)}B out, {len(run.stderr)}B err"


def stats(split: dict[str, dict[str, str]]) -> str:
    """Markdown tables: category x split x label, and runs per tool and split."""
    rows = [run.meta for run in load_runs()]
    for r in rows:
        r["split"] = split.get(r["id"], {}).get("split", "-")
    out = [f"{len(rows)} runs, {len({r['tool'] for r in rows})} tools.", ""]
    columns = [(s, lab) for s in SPLITS for lab in ("success", "failure")]
    out += [
        "| category | " + " | ".join(f"{s} {lab}" for s, lab in columns) + " | total |",
        "| --- |" + " ---: |" * (len(columns) + 1),
    ]
    by_cell = Counter((r["category"], r["split"], r["label"]) for r in rows)
    by_tool = Counter((r["tool"], r["split"]) for r in rows)
    for cat in CATEGORIES:
        cells = [by_cell[cat, s, lab] for s, lab in columns]
        out.append(f"| {cat} | " + " | ".join(map(str, cells)) + f" | {sum(cells)} |")
    by_side = Counter((r["split"], r["label"]) for r in rows)
    tot = [by_side[column] for column in columns]
    out.append("| **all** | " + " | ".join(map(str, tot)) + f" | {sum(tot)} |")
    out += [
        "",
        "| tool | " + " | ".join(SPLITS) + " | total |",
        "| --- |" + " ---: |" * (len(SPLITS) + 1),
    ]
    for tool in sorted({r["tool"] for r in rows}):
        n = [by_tool[tool, s] for s in SPLITS]
        out.append(f"| {tool} | " + " | ".join(map(str, n)) + f" | {sum(n)} |")
    return "\n".join(out)


def select(cases: Iterable[Case], patterns: list[str]) -> Iterator[Case]:
    for c in cases:
        if not patterns or any(
            fnmatch.fnmatchcase(c.id, p) or fnmatch.fnmatchcase(c.tool, p) for p in patterns
        ):
            yield c


@contextmanager
def _scratch() -> Iterator[Path]:
    root = Path(tempfile.mkdtemp(prefix="autofix-corpus-"))
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--only", action="append", default=[], help="glob on case id or tool")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--freeze-split", action="store_true", help="write split.tsv and exit")
    ap.add_argument(
        "--fresh",
        action="append",
        default=[],
        metavar="GLOB",
        help="with --freeze-split: new cases whose id matches go to the split --fresh-split",
    )
    ap.add_argument(
        "--fresh-split",
        default="fresh",
        choices=SPLITS[2:],
        help="with --fresh: the held-out split those cases go to (default: fresh)",
    )
    ap.add_argument("--prune", action="store_true", help="drop stored runs of unknown ids")
    ap.add_argument("--stats", action="store_true", help="markdown count tables of stored runs")
    args = ap.parse_args(argv)

    cases = load_cases()
    split = read_split()
    if args.freeze_split:
        freeze_split(cases, args.fresh, args.fresh_split)
        return 0
    if args.stats:
        print(stats(split))
        return 0
    chosen = list(select(cases, args.only))
    if args.list:
        for c in chosen:
            side = split.get(c.id, {}).get("split", "-")
            print(f"{c.id:50} {c.tool:12} {c.category:24} {c.label:8} {side}")
        print(f"{len(chosen)} cases, {len({c.tool for c in chosen})} tools")
        return 0
    batches = Batches()
    if args.prune:
        batches.prune({c.id for c in cases})

    RUNS.mkdir(exist_ok=True)
    counts: dict[str, int] = {}
    started = time.monotonic()
    with _scratch() as scratch, Servers(scratch / "_servers") as servers:
        env = base_env(servers)
        for c in chosen:
            env_c = {**env, **c.env}
            status = capture_one(c, env_c, scratch, batches)
            counts[status.split()[0]] = counts.get(status.split()[0], 0) + 1
            print(status, flush=True)
    took = time.monotonic() - started
    print(
        f"{len(chosen)} cases in {took:.0f}s: " + ", ".join(f"{k} {v}" for k, v in counts.items())
    )
    bad = sum(v for k, v in counts.items() if k != "ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
