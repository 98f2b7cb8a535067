"""Real tool output captured by tests/corpus/capture_tools.py: verdicts must hold."""

from __future__ import annotations

import pytest
from corpus.reader import TOOL_CAPTURES, load_runs

from autofix import classify_output

CAPTURES = {run.id: run for run in load_runs(TOOL_CAPTURES)}
NAMES = sorted(CAPTURES)


def test_corpus_is_wide() -> None:
    tools = {CAPTURES[n].meta["tool"] for n in NAMES}
    assert len(NAMES) >= 50 and {"node", "npm", "git", "gcc", "cargo", "bash"} <= tools


@pytest.mark.parametrize("name", NAMES)
def test_capture_verdict(name: str) -> None:
    meta = CAPTURES[name].meta
    stderr = CAPTURES[name].stderr
    stdout = CAPTURES[name].stdout
    as_if_zero = classify_output(0, stderr, stdout, operation=name)
    assert as_if_zero.success is not meta["failure"], (
        as_if_zero.error_message or as_if_zero.matched_rules
    )
    real = classify_output(meta["exit_code"], stderr, stdout, operation=name)
    assert real.success is (meta["exit_code"] == 0 and not meta["failure"])
    if not real.success:
        assert real.error_message.startswith(f"[{name}] ")
        assert len(real.error_message) <= 500 and len(real.error_message.splitlines()) <= 3
