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
import json
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
    "invalid_output": "AirflowFailException",
    "permanent": "AirflowFailException",
}
# Scenarios (any variant) whose failure the output cannot show: counted apart, never hidden.
UNDETECTABLE = {
    "gemini/max_tokens_partial": "MAX_TOKENS after partial text ends as result/success, exit 0",
    "gemini/refusal_partial": "SAFETY after partial text ends as result/success, exit 0",
}


@dataclass(frozen=True)
class Judged:
    key: str
    heldout: bool
    truth_succeeded: bool
    truth_kind: str
    truth_retry: str
    result: ParseResult

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
        return self.key.split("__v", 1)[0] in UNDETECTABLE

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


def heldout_keys(root: Path = CAPTURES) -> set[str]:
    lines = (root / "HELDOUT.txt").read_text().splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


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
                key in held,
                bool(truth["succeeded"]),
                str(truth["kind"]),
                str(truth["retry_class"]),
                judge_capture(path),
            )
        )
    return judged


@dataclass(frozen=True)
class Score:
    captures: int
    failures: int
    false_successes: int  # all of them, the documented undetectable ones included
    undetectable: int  # of those, the documented undetectable ones
    false_failures: int
    kind_right: int
    retry_right: int
    action_right: int

    @property
    def kind_accuracy(self) -> float:
        return self.kind_right / self.failures if self.failures else 1.0

    @property
    def retry_accuracy(self) -> float:
        return self.retry_right / self.failures if self.failures else 1.0

    def row(self, name: str) -> str:
        return (
            f"| {name} | {self.captures} | {self.failures} | "
            f"{self.false_successes - self.undetectable} (+{self.undetectable} undetectable) | "
            f"{self.false_failures} | {self.kind_right}/{self.failures} "
            f"({self.kind_accuracy:.1%}) | {self.retry_right}/{self.failures} "
            f"({self.retry_accuracy:.1%}) | {self.action_right}/{self.failures} |"
        )


def score(items: list[Judged]) -> Score:
    failures = [item for item in items if not item.truth_succeeded]
    return Score(
        captures=len(items),
        failures=len(failures),
        false_successes=sum(item.false_success for item in items),
        undetectable=sum(item.false_success and item.undetectable for item in items),
        false_failures=sum(item.truth_succeeded and not item.result.success for item in items),
        kind_right=sum(item.kind_ok for item in failures),
        retry_right=sum(item.retry_ok for item in failures),
        action_right=sum(item.action_ok for item in failures),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--misses", action="store_true", help="list the tuning set's misses")
    args = parser.parse_args(argv)
    judged = judge_all()
    tuning = [item for item in judged if not item.heldout]
    held = [item for item in judged if item.heldout]
    print(
        "| set | captures | failures | false successes (+ documented undetectable) | "
        "false failures | kind right | retry class right | Airflow exception right |"
    )
    print("|---|---|---|---|---|---|---|---|")
    print(score(tuning).row("tuning"))
    print(score(held).row("held-out"))
    print(score(judged).row("all"))
    if args.misses:
        for item in tuning:
            if item.false_success or not (item.kind_ok and item.retry_ok):
                print(
                    f"  miss {item.key}: judged {item.kind}/{item.retry}, "
                    f"truth {item.truth_kind}/{item.truth_retry}: "
                    f"{item.result.error_message[:160]!r}"
                )
    return 1 if any(item.false_success and not item.undetectable for item in judged) else 0


if __name__ == "__main__":
    sys.exit(main())
