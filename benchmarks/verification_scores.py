"""The verification suite (tests/verification_suite) scored with and without ``verify=``.

Run: ``PYTHONPATH=plugins:tests .venv/bin/python benchmarks/verification_scores.py [--doc]``.

Every case runs twice through ``AgentTask`` with the scripted agent, in a fresh project: with
its ``verify=`` list and without. Printed per family and per part (tuned / held-out): false
successes, false failures, false claims caught, recoveries by retry, agent calls. ``--doc``
rewrites the figures table in docs/verification-suite.md (between its FIGURES markers).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from verification_suite.cases import Case
from verification_suite.manifest import MANIFEST, load
from verification_suite.score import Figures, Outcome, by_family, figures, run_case

DOC = Path(__file__).resolve().parents[1] / "docs" / "verification-suite.md"
BEGIN, END = "<!-- FIGURES:BEGIN -->", "<!-- FIGURES:END -->"
COLUMNS = "| part | cases | verify= | false successes | false failures | caught | recovered by retry | agent calls |"


def run_all(cases: tuple[Case, ...], verified: bool) -> list[Outcome]:
    outcomes = []
    for case in cases:
        with tempfile.TemporaryDirectory(prefix="vsuite-") as tmp:
            outcomes.append(run_case(case, Path(tmp), verified=verified))
    return outcomes


def row(label: str, verified: bool, f: Figures) -> str:
    return (
        f"| {label} | {f.cases} | {'with' if verified else 'without'} | {f.false_successes} | "
        f"{f.false_failures} | {f.caught} | {f.recovered} | {f.agent_calls} |"
    )


def freeze_commit() -> str:
    out = subprocess.run(
        ["git", "log", "--diff-filter=A", "--format=%h", "--", str(MANIFEST)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    return out[-1] if out else "(not committed)"


def table(results: dict[tuple[str, bool], list[Outcome]]) -> list[str]:
    lines = [COLUMNS, "|---|---:|---|---:|---:|---:|---:|---:|"]
    for part in ("held-out", "tuned"):
        for verified in (True, False):
            lines.append(row(f"**{part}**", verified, figures(results[(part, verified)])))
    for verified in (True, False):
        everything = results[("held-out", verified)] + results[("tuned", verified)]
        for family, f in by_family(everything).items():
            lines.append(row(f"all: {family}", verified, f))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--doc", action="store_true", help="rewrite the table in " + str(DOC))
    parser.add_argument("--json", type=Path, help="also write every outcome here")
    args = parser.parse_args()
    split = load()
    started = time.monotonic()
    results: dict[tuple[str, bool], list[Outcome]] = {}
    for part, cases in (("tuned", split.tuned), ("held-out", split.held_out)):
        for verified in (True, False):
            results[(part, verified)] = run_all(cases, verified)
    lines = table(results)
    wrong = [
        f"{o.case} ({'with' if o.verified else 'without'} verify=): {o.verdict}"
        for outcomes in results.values()
        for o in outcomes
        if o.verdict in ("false_success", "false_failure") and o.verified
    ]
    print("\n".join(lines))
    print(f"\nwrong verdicts with verify=: {wrong or 'none'}")
    print(f"freeze commit: {freeze_commit()}; {time.monotonic() - started:.0f} s")
    if args.json:
        args.json.write_text(
            json.dumps([o.__dict__ for rs in results.values() for o in rs], indent=1)
        )
    if args.doc:
        text = DOC.read_text()
        head, _, rest = text.partition(BEGIN)
        _, _, tail = rest.partition(END)
        DOC.write_text(f"{head}{BEGIN}\n" + "\n".join(lines) + f"\n{END}{tail}")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
