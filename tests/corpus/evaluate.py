"""Score a success/failure judge on the corpus, per split.

    .venv/bin/python tests/corpus/evaluate.py                     # both built-in judges
    .venv/bin/python tests/corpus/evaluate.py --judge autofix     # one of them
    .venv/bin/python tests/corpus/evaluate.py --judge mypkg.mod:judge
    .venv/bin/python tests/corpus/evaluate.py --fail-on-false-success   # exit 1: a tune false success

A judge is ``(exit_code, stdout_bytes, stderr_bytes) -> bool`` (True: the run succeeded); a
judge with a ``command`` parameter also gets the command line that ran (a string or an argv).
``exit_code`` is None for a run that a signal ended. A false success is a failure judged a
success; a false failure is the reverse. Case ids are listed for the tune split only: the
held-out splits (``heldout``, ``fresh``, ``fresh8`` ... ``fresh12``) print counts, never ids,
unless ``--show-heldout`` is given (do not use it while tuning). ``fresh`` is a batch added after
``heldout`` had been scored several times; it is meant to be scored once (tests/corpus/README.md,
"The fresh batches"). ``fresh8`` to ``fresh11`` held the eighth to eleventh fresh batches until
their one score (their runs are tune now); ``fresh12`` holds the twelfth, scored once. Each
split also reports its false successes among the failures whose output shows the failure (a
case's ``output_shows``, README "Case records").
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from inspect import signature
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, where the corpus lives

from corpus.reader import CASES, RUNS, SPLIT, SPLITS, load_cases, load_runs, read_split

Judge = Callable[..., bool]


@dataclass(frozen=True)
class Run:
    id: str
    tool: str
    category: str
    label: str
    split: str
    exit_code: int | None
    stdout: bytes
    stderr: bytes
    # False for a failure built so that its output holds no evidence of it (README, "Case records").
    output_shows: bool = True
    command: str | list[str] = ""  # the command line that ran, as the case recorded it

    @property
    def failed(self) -> bool:
        return self.label == "failure"


def load(runs: Path = RUNS, split: Path = SPLIT, cases: Path = CASES) -> Iterator[Run]:
    sides = {run_id: row["split"] for run_id, row in read_split(split).items()}
    shows = {c.id: c.output_shows for c in load_cases(cases)} if cases.is_dir() else {}
    for stored in load_runs(runs_dir=runs):
        meta = stored.meta
        side = sides.get(meta["id"])
        if side is None:
            raise SystemExit(f"{meta['id']} has a stored run but no row in {split.name}")
        if side not in SPLITS:
            raise SystemExit(f"{meta['id']}: unknown split {side!r} in {split.name}")
        yield Run(
            id=meta["id"],
            tool=meta["tool"],
            category=meta["category"],
            label=meta["label"],
            split=side,
            exit_code=meta["exit_code"],
            stdout=stored.stdout,
            stderr=stored.stderr,
            command=meta.get("command") or "",
            output_shows=shows.get(meta["id"], bool(meta.get("output_shows", True))),
        )


def exit_code_judge(exit_code: int | None, stdout: bytes, stderr: bytes) -> bool:
    """The baseline: success means exit code 0."""
    return exit_code == 0


def autofix_judge(
    exit_code: int | None, stdout: bytes, stderr: bytes, command: str | list[str] = ""
) -> bool:
    """The current autofix verdict on a plain command, told the command line that ran."""
    import autofix

    return bool(autofix.classify_output(exit_code, stderr, stdout, command=command).success)


BUILTIN: dict[str, Judge] = {"exit-code": exit_code_judge, "autofix": autofix_judge}


def resolve(name: str) -> Judge:
    if name in BUILTIN:
        return BUILTIN[name]
    module, _, attr = name.partition(":")
    if not attr:
        raise SystemExit(f"--judge {name!r}: use one of {sorted(BUILTIN)} or module:function")
    judge: Judge = getattr(importlib.import_module(module), attr)
    return judge


@dataclass
class Score:
    n: int = 0
    failures: int = 0
    shown_failures: int = 0
    shown_false_success: int = 0
    false_success: list[str] = field(default_factory=list)
    false_failure: list[str] = field(default_factory=list)


def score(runs: list[Run], judge: Judge) -> tuple[Score, dict[str, Counter[str]]]:
    total = Score()
    by_category: dict[str, Counter[str]] = {}
    takes_command = "command" in signature(judge).parameters
    for run in runs:
        told = {"command": run.command} if takes_command else {}
        ok = judge(run.exit_code, run.stdout, run.stderr, **told)
        total.n += 1
        total.failures += run.failed
        total.shown_failures += run.failed and run.output_shows
        cat = by_category.setdefault(run.category, Counter())
        cat["n"] += 1
        if run.failed and ok:
            total.false_success.append(run.id)
            total.shown_false_success += run.output_shows
            cat["false_success"] += 1
        elif not run.failed and not ok:
            total.false_failure.append(run.id)
            cat["false_failure"] += 1
    return total, by_category


def report(name: str, runs: list[Run], judge: Judge, show_heldout: bool) -> int:
    print(f"== judge: {name}")
    tune_false_success = 0
    for side in SPLITS:
        part = [r for r in runs if r.split == side]
        if not part and side not in ("tune", "heldout"):
            continue
        total, by_category = score(part, judge)
        fs, ff = total.false_success, total.false_failure
        successes = total.n - total.failures
        print(
            f"  {side:8} {total.n:4} runs ({total.failures} failed, {successes} succeeded): "
            f"false successes {len(fs)} ({_pct(len(fs), total.failures)} of failures), "
            f"false failures {len(ff)} ({_pct(len(ff), successes)} of successes)"
        )
        shown, unseen = total.shown_false_success, total.failures - total.shown_failures
        print(
            f"  {'':8} false successes among failures the output shows: {shown} of "
            f"{total.shown_failures} ({_pct(shown, total.shown_failures)}); "
            f"{unseen} failures whose output cannot show it"
        )
        for category in sorted(by_category):
            c = by_category[category]
            if c["false_success"] or c["false_failure"]:
                print(
                    f"    {category:26} n={c['n']:3}  false successes {c['false_success']:3}"
                    f"  false failures {c['false_failure']:3}"
                )
        if side == "tune" or show_heldout:
            for kind, ids in (("false success", fs), ("false failure", ff)):
                for run_id in ids:
                    print(f"    {kind}: {run_id}")
        if side == "tune":
            tune_false_success = len(fs)
    return tune_false_success


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--judge", action="append", default=[], help="exit-code, autofix, or module:fn")
    ap.add_argument(
        "--show-heldout", action="store_true", help="list held-out and fresh case ids too"
    )
    ap.add_argument(
        "--fail-on-false-success",
        action="store_true",
        help="exit 1 if the (last) judge has any false success on the tune split",
    )
    args = ap.parse_args(argv)
    runs = list(load())
    counts = Counter(r.split for r in runs)
    print(
        f"corpus: {len(runs)} runs, {len({r.tool for r in runs})} tools; "
        + ", ".join(f"{side} {counts[side]}" for side in SPLITS)
    )
    tune_false_success = 0
    for name in args.judge or list(BUILTIN):
        tune_false_success = report(name, runs, resolve(name), args.show_heldout)
    return 1 if args.fail_on_false_success and tune_false_success else 0


if __name__ == "__main__":
    sys.exit(main())
