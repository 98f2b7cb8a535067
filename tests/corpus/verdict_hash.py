"""Three sha256s that prove a change of corpus layout changed nothing a test can see.

    PYTHONPATH=plugins .venv/bin/python tests/corpus/verdict_hash.py

- ``runs``: every stored run's meta and the exact bytes of its streams;
- ``verdicts``: every run's verdict and evidence as the classifier gives them (the judge of
  tests/corpus/evaluate.py and tests/test_corpus_verdicts.py; for the tool captures, the two
  calls of tests/test_classify_captures.py);
- ``cases``: every case's fields (the file contents by sha256).

Only the hashes are printed: no id, count or verdict of a held-out run is shown.

A change of rules is listed run by run:

    PYTHONPATH=plugins .venv/bin/python tests/corpus/verdict_hash.py --save before.json
    ... change the rules ...
    PYTHONPATH=plugins .venv/bin/python tests/corpus/verdict_hash.py --changes before.json

``--changes`` lists every tune run and tool capture whose verdict or evidence changed (id, label,
old and new verdict, the rules that decided); held-out runs only count, by split.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # where the corpus package lives

from corpus.reader import (  # noqa: E402
    TOOL_CAPTURES,
    load_cases,
    load_runs,
    load_tool_captures,
    read_split,
)

# (corpus, id, meta, stdout, stderr): "runs" is the classifier's run corpus, "captures" the
# older tool captures.
Stored = tuple[str, str, dict[str, Any], bytes, bytes]
# The verdict and the evidence for it; then what the classifier counted and kept (issue 26: a
# faster classifier must leave all of it unchanged).
VERDICT_FIELDS = {"success", "status", "failure_kind", "error_message", "matched_rules", "evidence"}
COUNT_FIELDS = {
    "noise_lines",
    "neutral_lines",
    "error_lines",
    "errors",
    "warnings",
    "stderr_sample",
    "retry_class",
}


def stored_runs() -> Iterator[Stored]:
    for run in load_runs():
        yield "runs", run.id, run.meta, run.stdout, run.stderr
    for run in load_runs(TOOL_CAPTURES):
        yield "captures", run.id, run.meta, run.stdout, run.stderr


def case_fields() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(corpus, id, fields) of every case as the capture scripts see it."""
    for c in load_cases():
        files = {name: hashlib.sha256(data).hexdigest() for name, data in c.files.items()}
        yield (
            "runs",
            c.id,
            {
                "tool": c.tool,
                "category": c.category,
                "label": c.label,
                "why": c.why,
                "cmd": c.cmd,
                "files": files,
                "setup": c.setup,
                "env": dict(c.env),
                "expect": c.expect,
                "confirm": c.confirm,
                "timeout": float(c.timeout),
                "needs": list(c.needs),
                "group": c.group,
            },
        )
    venv_bin = ROOT / ".venv" / "bin"  # what the capture script puts in for @VENV_BIN@
    for scenario in load_tool_captures():
        fields = {"needs": scenario.needs, "failure": scenario.failure}
        script = scenario.rendered(venv_bin).replace(str(ROOT), "<repo>")  # the same anywhere
        yield "captures", scenario.id, fields | {"script": script}


def verdict(
    exit_code: int | None,
    stdout: bytes,
    stderr: bytes,
    operation: str = "",
    command: str | list[str] | None = None,
) -> object:
    """A run's verdict; a corpus run is told its command line, as an operator is."""
    import autofix

    result = autofix.classify_output(
        exit_code, stderr, stdout, operation=operation, command=command
    )
    return result.model_dump(mode="json", include=VERDICT_FIELDS | COUNT_FIELDS)


def _digest(items: list[object]) -> str:
    text = "\n".join(json.dumps(item, sort_keys=True, ensure_ascii=True) for item in items)
    return hashlib.sha256(text.encode()).hexdigest()


def per_run() -> dict[str, dict[str, Any]]:
    """Each run's split, label, verdicts (success per judging) and their digest, by corpus/id."""
    sides = {run_id: row["split"] for run_id, row in read_split().items()}
    found: dict[str, dict[str, Any]] = {}
    for corpus, run_id, meta, out, err in stored_runs():
        if corpus == "runs":
            judged = [verdict(meta["exit_code"], out, err, command=meta.get("command"))]
            label = meta["label"]
        else:
            judged = [
                verdict(0, out, err, operation=run_id),
                verdict(meta["exit_code"], out, err, operation=run_id),
            ]
            label = "failure" if meta["failure"] else "success"
        found[f"{corpus}/{run_id}"] = {
            "split": sides.get(run_id, "tune") if corpus == "runs" else "captures",
            "label": label,
            "success": [item["success"] for item in judged],  # type: ignore[index]
            "rules": [item["matched_rules"] for item in judged],  # type: ignore[index]
            "counts": [
                {k: item[k] for k in ("noise_lines", "neutral_lines", "error_lines")}  # type: ignore[index]
                for item in judged
            ],
            "digest": _digest(judged),  # type: ignore[arg-type]
        }
    return found


def changes(before_path: Path) -> int:
    before = json.loads(before_path.read_text())
    now = per_run()
    hidden: dict[str, int] = {}
    shown = 0
    for key in sorted(now.keys() | before.keys()):
        old, new = before.get(key), now.get(key)
        if old is not None and new is not None and old["digest"] == new["digest"]:
            continue
        split = (new or old)["split"]  # type: ignore[index]
        if split not in ("tune", "captures"):
            hidden[split] = hidden.get(split, 0) + 1
            continue
        shown += 1
        if old is None or new is None:
            print(f"{key}: {'added' if old is None else 'removed'}")
            continue
        verdict_moved = old["success"] != new["success"]
        what = "VERDICT " if verdict_moved else "evidence "
        if not verdict_moved and old.get("counts") != new.get("counts"):
            what = f"counts {old.get('counts')} -> {new.get('counts')} "
        print(
            f"{key} [{new['label']}] {what}"
            f"{old['success']} -> {new['success']}; rules {old['rules']} -> {new['rules']}"
        )
    print(
        f"-- {shown} tune/capture runs changed"
        + "".join(
            f"; {count} {split} runs changed (ids not shown)"
            for split, count in sorted(hidden.items())
        )
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", type=Path, help="write each run's verdict digest to this file")
    parser.add_argument("--changes", type=Path, help="list the runs whose verdict changed since")
    args = parser.parse_args()
    if args.save:
        args.save.write_text(json.dumps(per_run(), indent=0, sort_keys=True))
        return 0
    if args.changes:
        return changes(args.changes)
    runs = sorted(stored_runs(), key=lambda run: run[:2])
    inputs: list[object] = []
    verdicts: list[object] = []
    for corpus, run_id, meta, out, err in runs:
        sums = [hashlib.sha256(out).hexdigest(), hashlib.sha256(err).hexdigest()]
        inputs.append([corpus, run_id, meta, sums])
        if corpus == "runs":
            judged = verdict(meta["exit_code"], out, err, command=meta.get("command"))
            verdicts.append([corpus, run_id, judged])
        else:  # as tests/test_classify_captures.py judges them: as if exit 0, and as run
            as_if_zero = verdict(0, out, err, operation=run_id)
            real = verdict(meta["exit_code"], out, err, operation=run_id)
            verdicts.append([corpus, run_id, as_if_zero, real])
    cases = sorted(case_fields(), key=lambda case: case[:2])
    print(f"runs      {_digest(inputs)}  ({len(inputs)} runs)")
    print(f"verdicts  {_digest(verdicts)}")
    print(f"cases     {_digest([list(case) for case in cases])}  ({len(cases)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
