"""Judge every real capture as the operator would, and score it against the capture's truth.

    .venv/bin/python tests/agents/evaluate.py            # the two tables (tuning, held-out)
    .venv/bin/python tests/agents/evaluate.py --misses   # plus the tuning set's misses

For each ``tests/fixtures/agent_captures/<cli>/<scenario>/`` the saved stdout, stderr, exit
code and signal go through ``autofix.task.judge.judge_saved_output`` (the same event parser,
early-stop watcher and classifiers as a running task). A capture the harness stopped with its
wall-clock timeout is judged as autofix's own timeout; SIGKILL and SIGINT came from outside.

Scores, separately for the tuning set and the held-out set (``HELDOUT.txt``):
- false successes: a failed run judged a success (must be 0), the documented undetectable
  cases (``UNDETECTABLE``: the output shows a success) counted apart;
- kind and retry-class accuracy over the failures.
The held-out misses are never listed: nothing may be tuned on them.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from autofix.agents.registry import get_format
from autofix.result import ParseResult
from autofix.task.judge import judge_saved_output

CAPTURES = Path(__file__).resolve().parents[1] / "fixtures" / "agent_captures"
# What AIWrapperOperator raises per retry class (without an output schema).
ACTION = {
    "none": "success",
    "transient": "AirflowException",
    "error": "AirflowException",
    "invalid_output": "AgentPermanentError",
    "permanent": "AgentPermanentError",
}
# Scenarios (any variant) whose failure the output cannot show: counted apart, never hidden.
UNDETECTABLE = {
    "gemini/max_tokens_partial": "MAX_TOKENS after partial text ends as result/success, exit 0",
    "gemini/refusal_partial": "SAFETY after partial text ends as result/success, exit 0",
}


@dataclass(frozen=True)
class Judged:
    key: str
    group: str  # "tuning", "held-out" or "fresh" (see ``group_of``)
    truth_succeeded: bool
    truth_kind: str
    truth_retry: str
    result: ParseResult
    family: str = ""
    shown: bool = True  # the output shows the outcome (False: only the answer's words do)
    truth_warnings: tuple[str, ...] = ()

    @property
    def cli(self) -> str:
        return self.key.split("/", 1)[0]

    @property
    def heldout(self) -> bool:
        return self.group != "tuning"

    @property
    def kind(self) -> str:
        return "success" if self.result.success else str(self.result.failure_kind)

    @property
    def retry(self) -> str:
        return self.result.retry_class.value

    @property
    def false_success(self) -> bool:
        return self.result.success and not self.truth_succeeded

    @property
    def undetectable(self) -> bool:
        return not self.shown or self.key.split("__", 1)[0] in UNDETECTABLE

    @property
    def kind_ok(self) -> bool:
        return self.kind == self.truth_kind

    @property
    def retry_ok(self) -> bool:
        return self.retry == self.truth_retry

    @property
    def action_ok(self) -> bool:
        """The same exception either way: transient and ordinary failures both let Airflow's
        retries apply (an ordinary exception); invalid output and permanent both end the task."""
        return ACTION[self.retry] == ACTION[self.truth_retry]

    @property
    def warnings_ok(self) -> bool:
        """Every notice the truth names is in the verdict."""
        reported = {notice.code.value for notice in self.result.notices}
        return set(self.truth_warnings) <= reported


def heldout_keys(root: Path = CAPTURES) -> set[str]:
    lines = (root / "HELDOUT.txt").read_text().splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def fresh_digests(root: Path = CAPTURES) -> dict[str, str]:
    """FRESH.txt: each fresh capture's key and the digest of its frozen run."""
    digests = {}
    for line in (root / "FRESH.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, digest = line.split()
            digests[key] = digest
    return digests


def capture_dirs(root: Path = CAPTURES) -> Iterator[Path]:
    for cli_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        yield from sorted(p for p in cli_dir.iterdir() if (p / "meta.json").is_file())


def judge_capture(path: Path) -> ParseResult:
    """One capture, judged as the operator would have judged the run."""
    meta = json.loads((path / "meta.json").read_text())
    timed_out = meta.get("stopped_by") == "timeout"
    return judge_saved_output(
        get_format(meta["cli"]),
        (path / "stdout").read_bytes(),
        (path / "stderr").read_bytes(),
        meta.get("exit_code"),
        operation=meta["scenario"],
        signal_name=meta.get("signal"),
        timed_out_after=float(meta.get("duration_s") or 1.0) if timed_out else None,
    )


# Fresh batches already scored once (docs/agents/scores/): they joined the tuning set.
SCORED_BATCHES = frozenset({1, 2, 3, 4})


def group_of(meta: dict[str, object], key: str, held: set[str]) -> str:
    """The fresh batch not yet scored (frozen before the verdict changed), the first held-out
    set, or tuning (which a fresh batch joins once it has been scored)."""
    if meta.get("fresh"):
        return "tuning" if meta.get("variant") in SCORED_BATCHES else "fresh"
    return "held-out" if key in held else "tuning"


def judge_all(root: Path = CAPTURES) -> list[Judged]:
    held = heldout_keys(root)
    judged = []
    for path in capture_dirs(root):
        meta = json.loads((path / "meta.json").read_text())
        truth = meta["truth"]
        key = f"{path.parent.name}/{path.name}"
        judged.append(
            Judged(
                key,
                group_of(meta, key, held),
                bool(truth["succeeded"]),
                str(truth["kind"]),
                str(truth["retry_class"]),
                judge_capture(path),
                family=str(meta.get("family") or ""),
                shown=bool(truth.get("shown", True)),
                truth_warnings=tuple(truth.get("warnings") or ()),
            )
        )
    return judged


@dataclass(frozen=True)
class Score:
    captures: int
    failures: int  # whose outcome the output shows
    false_successes: int  # of those
    not_shown: int  # captures whose outcome the output cannot show, counted apart
    not_shown_reported_success: int  # of those, judged a success
    false_failures: int
    kind_right: int
    retry_right: int
    action_right: int
    warnings_expected: int
    warnings_right: int

    @property
    def kind_accuracy(self) -> float:
        return self.kind_right / self.failures if self.failures else 1.0

    @property
    def retry_accuracy(self) -> float:
        return self.retry_right / self.failures if self.failures else 1.0

    def row(self, name: str) -> str:
        warnings = (
            f"{self.warnings_right}/{self.warnings_expected}" if self.warnings_expected else "-"
        )
        return (
            f"| {name} | {self.captures} | {self.failures} | {self.false_successes} | "
            f"{self.false_failures} | {self.kind_right}/{self.failures} "
            f"({self.kind_accuracy:.1%}) | {self.retry_right}/{self.failures} "
            f"({self.retry_accuracy:.1%}) | {self.action_right}/{self.failures} | {warnings} | "
            f"{self.not_shown} ({self.not_shown_reported_success} judged success) |"
        )


HEADER = (
    "| set | captures | failures shown | false successes | false failures | kind right | "
    "retry class right | Airflow exception right | notices surfaced | outcome not shown |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


def score(items: list[Judged]) -> Score:
    shown = [item for item in items if not item.undetectable]
    failures = [item for item in shown if not item.truth_succeeded]
    hidden = [item for item in items if item.undetectable]
    with_warnings = [item for item in items if item.truth_warnings]
    return Score(
        captures=len(items),
        failures=len(failures),
        false_successes=sum(item.false_success for item in shown),
        not_shown=len(hidden),
        not_shown_reported_success=sum(item.result.success for item in hidden),
        false_failures=sum(item.truth_succeeded and not item.result.success for item in shown),
        kind_right=sum(item.kind_ok for item in failures),
        retry_right=sum(item.retry_ok for item in failures),
        action_right=sum(item.action_ok for item in failures),
        warnings_expected=len(with_warnings),
        warnings_right=sum(item.warnings_ok for item in with_warnings),
    )


DOCS = Path(__file__).resolve().parents[2] / "docs" / "agents"
_NAME = re.compile(r"`([A-Za-z0-9_*]+)`")


def _row_captures(cli: str, cell: str, known: set[str]) -> list[str]:
    """The captures a coverage-table row names: `name`, `__v2` (after a name), `glob_*`."""
    keys: list[str] = []
    last = ""
    for name in _NAME.findall(cell):
        if name.startswith("__"):
            name = last + name
        matches = sorted(k for k in known if fnmatch.fnmatch(k, f"{cli}/{name}"))
        keys += [k for k in matches if k not in keys]
        last = name.split("__", 1)[0] if matches else last
    return keys


def report_cell(items: list[Judged]) -> str:
    """What autofix reports for a row's captures: "same" or each capture that differs."""
    if not items:
        return "—"
    wrong = [
        f"`{item.key.split('/', 1)[1]}`: {item.kind} / {item.retry}"
        + ("" if item.warnings_ok else " (notice missing)")
        + (" (the output cannot show it)" if item.undetectable else "")
        for item in items
        if not (item.kind_ok and item.retry_ok and item.warnings_ok)
    ]
    return "; ".join(wrong) if wrong else f"same ({len(items)})"


def write_docs(judged: list[Judged], docs: Path = DOCS) -> None:
    """Fill the "autofix reports" column of each CLI's coverage table (docs/agents/<cli>.md)."""
    by_key = {item.key: item for item in judged if item.group != "fresh"}
    for cli in ("claude", "codex", "gemini"):
        path = docs / f"{cli}.md"
        lines = path.read_text().splitlines()
        section = False
        for number, line in enumerate(lines):
            if line.startswith("## "):
                section = line.startswith("## Every exit path in the source")
            cells = line.split(" | ")
            if not section or not line.startswith("| ") or len(cells) < 7 or "---" in line:
                continue
            if cells[0] == "| family":
                continue
            keys = _row_captures(cli, cells[3], set(by_key))
            cells[-1] = report_cell([by_key[key] for key in keys]) + " |"
            lines[number] = " | ".join(cells)
        path.write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--misses", action="store_true", help="list the tuning set's misses")
    parser.add_argument(
        "--docs",
        action="store_true",
        help="fill the autofix-reports column of the coverage tables in docs/agents/",
    )
    parser.add_argument(
        "--by",
        choices=("cli", "family"),
        help="also score each set per CLI or per family",
    )
    args = parser.parse_args(argv)
    judged = judge_all()
    if args.docs:
        write_docs(judged)
    print(HEADER)
    for group in ("tuning", "held-out", "fresh"):
        items = [item for item in judged if item.group == group]
        if not items:
            continue
        print(score(items).row(group))
        if args.by:
            keys = sorted({getattr(item, args.by) or "(first catalogue)" for item in items})
            for key in keys:
                part = [i for i in items if (getattr(i, args.by) or "(first catalogue)") == key]
                print(score(part).row(f"{group}: {key}"))
    print(score(judged).row("all"))
    if args.misses:
        for item in judged:
            if item.group != "tuning":
                continue  # nothing may be tuned on the held-out sets: their misses stay unlisted
            if item.false_success or not (item.kind_ok and item.retry_ok and item.warnings_ok):
                print(
                    f"  miss {item.key}: judged {item.kind}/{item.retry}, "
                    f"truth {item.truth_kind}/{item.truth_retry}: "
                    f"{item.result.error_message[:160]!r}"
                )
    return 1 if any(item.false_success and not item.undetectable for item in judged) else 0


if __name__ == "__main__":
    sys.exit(main())
