"""Three sha256s that prove a change of corpus layout changed nothing a test can see.

    PYTHONPATH=plugins .venv/bin/python tests/corpus/verdict_hash.py

- ``runs``: every stored run's meta and the exact bytes of its streams;
- ``verdicts``: every run's verdict and evidence as the classifier gives them (the judge of
  corpus/evaluate.py and tests/test_corpus_verdicts.py; for the older tool captures, the two
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
CORPUS = ROOT / "corpus"
CAPTURES = ROOT / "tests" / "fixtures" / "captures"

# (corpus, id, meta, stdout, stderr): "runs" is the classifier's run corpus, "captures" the
# older tool captures.
Stored = tuple[str, str, dict[str, Any], bytes, bytes]
# The verdict and the evidence for it.
VERDICT_FIELDS = {"success", "status", "failure_kind", "error_message", "matched_rules", "evidence"}


def stored_runs() -> Iterator[Stored]:
    for meta_path in sorted((CORPUS / "runs").glob("*/meta.json")):
        folder = meta_path.parent
        meta = json.loads(meta_path.read_text())
        yield (
            "runs",
            folder.name,
            meta,
            (folder / "stdout").read_bytes(),
            (folder / "stderr").read_bytes(),
        )
    for meta_path in sorted(CAPTURES.glob("*.json")):
        name = meta_path.stem
        meta = json.loads(meta_path.read_text())
        out = (CAPTURES / f"{name}.stdout").read_bytes()
        yield "captures", name, meta, out, (CAPTURES / f"{name}.stderr").read_bytes()


def case_fields() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(corpus, id, fields) of every case as the capture scripts see it."""
    sys.path.insert(0, str(CORPUS))
    sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
    from capture import load_cases
    from capture_tools import SCENARIOS

    for c in load_cases():
        files = {
            name: hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()
            for name, data in c.files.items()
        }
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
    for name, (needs, failure, script) in SCENARIOS.items():
        yield "captures", name, {"needs": needs, "failure": failure, "script": script}


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
