"""Three sha256s that prove a change of corpus layout changed nothing a test can see.

    PYTHONPATH=plugins .venv/bin/python tests/corpus/verdict_hash.py

- ``runs``: every stored run's meta and the exact bytes of its streams;
- ``verdicts``: every run's verdict and evidence as the classifier gives them (the judge of
  tests/corpus/evaluate.py and tests/test_corpus_verdicts.py; for the tool captures, the two
  calls of tests/test_classify_captures.py);
- ``cases``: every case's fields (the file contents by sha256).

Only the hashes are printed: no id, count or verdict of a held-out run is shown.
"""

from __future__ import annotations

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
)

# (corpus, id, meta, stdout, stderr): "runs" is the classifier's run corpus, "captures" the
# older tool captures.
Stored = tuple[str, str, dict[str, Any], bytes, bytes]
# The verdict and the evidence for it.
VERDICT_FIELDS = {"success", "status", "failure_kind", "error_message", "matched_rules", "evidence"}


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


def verdict(exit_code: int | None, stdout: bytes, stderr: bytes, operation: str = "") -> object:
    import autofix

    result = autofix.classify_output(exit_code, stderr, stdout, operation=operation)
    return result.model_dump(mode="json", include=VERDICT_FIELDS)


def _digest(items: list[object]) -> str:
    text = "\n".join(json.dumps(item, sort_keys=True, ensure_ascii=True) for item in items)
    return hashlib.sha256(text.encode()).hexdigest()


def main() -> int:
    runs = sorted(stored_runs(), key=lambda run: run[:2])
    inputs: list[object] = []
    verdicts: list[object] = []
    for corpus, run_id, meta, out, err in runs:
        sums = [hashlib.sha256(out).hexdigest(), hashlib.sha256(err).hexdigest()]
        inputs.append([corpus, run_id, meta, sums])
        if corpus == "runs":
            verdicts.append([corpus, run_id, verdict(meta["exit_code"], out, err)])
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
