"""Code that reads untrusted text (agent output, model answers, tool output) runs in linear time.

Each input below once took quadratic (or worse) time in the function named: from 20 s to many
minutes at these sizes. They now take milliseconds; the bound is far above that and far below
the old times, so machine noise cannot fail a test and a regression cannot pass one.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from autofix import redact
from autofix.agents.events import json_docs
from autofix.checks.parsers import parse_mypy_text
from autofix.classify.normalize import normalize_line
from autofix.patterns.suggest import normalise
from autofix.validation.extract import fenced_blocks

BOUND_SECONDS = 5.0


def _write_one_char_at_a_time(count: int) -> str:
    out = io.StringIO()
    writer = redact.RedactingWriter(out)
    for _ in range(count):
        writer.write("x")
    writer.flush()
    return out.getvalue()


CASES: dict[str, Callable[[], object]] = {
    # redaction shapes: a long run re-read from every start
    "secret-word-then-dotted-name": lambda: redact.redact("token " + "a." * 100_000),
    "secret-word-then-dashed-name": lambda: redact.redact("password " + "a-" * 100_000),
    "url-then-long-scheme-run": lambda: redact.redact("see http://x " + "a" * 200_000),
    "jwt-prefix-in-a-dashed-run": lambda: redact.redact("eyJ-" * 100_000),
    # redaction bookkeeping
    "many-keys-redacted-alike": lambda: redact.redact_value(
        {f"token=abcd{i:08d}": 1 for i in range(8_000)}, by_name=False
    ),
    "cli-writes-one-char-at-a-time": lambda: _write_one_char_at_a_time(1_600_000),
    # an agent's stdout: a pretty document opened and never closed, many closing lines
    "open-document-many-closers": lambda: json_docs("{\n" + "}x\n" * 130_000),
    # a fence opener with a long run of blanks or fence characters, and no end
    "fence-then-blanks": lambda: fenced_blocks("```" + " " * 100_000 + "`"),
    "tilde-fence-then-tildes": lambda: fenced_blocks("~~~" + "~" * 100_000 + "`"),
    # mypy's text output with a long run of blanks in a message
    "mypy-message-with-blanks": lambda: parse_mypy_text(
        "a.py:1: error: x" + " " * 100_000 + "y", Path("/work")
    ),
    # noise suggestions from a long word without a slash
    "suggest-long-word": lambda: normalise("a" * 120_000),
    # a progress line redrawn many times over a long first draw
    "many-carriage-returns": lambda: normalize_line("a" * 1_000_000 + "\rb" * 500_000, 4096),
}


@pytest.mark.parametrize("name", list(CASES))
def test_long_adversarial_input_takes_linear_time(name: str) -> None:
    began = time.process_time()
    CASES[name]()
    assert time.process_time() - began < BOUND_SECONDS


def test_the_linear_rewrites_give_the_same_answers() -> None:
    """Spot checks beside the randomised comparisons made when each was rewritten."""
    assert (
        redact.redact("a eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX3h5eg b")
        == "a [REDACTED] b"
    )
    assert (
        redact.redact("x-eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX3h5eg")
        == "x-[REDACTED]"
    )
    assert redact.redact_value({"token=abcd1234": 1, "token=wxyz9876": 2}, by_name=False) == {
        "token=[REDACTED]": 1,
        "token=[REDACTED]'": 2,
    }
    assert normalize_line("downloading 10%\rdownloading 100%\rdone", 100) == "doneloading 100%"
    [issue] = parse_mypy_text("a.py:3: error: bad  value  [arg-type]  ", Path("/work"))
    assert (issue.line, issue.code, issue.message) == (3, "arg-type", "bad value")
    [block] = fenced_blocks('Here: ```json\n{"a": 1}\n```\n')
    assert (block.lang, block.body.strip(), block.closed) == ("json", '{"a": 1}', True)
    assert json_docs('{\n  "a": "}",\n  "b": [1, {"c": "\\\\"}]\n}\nnoise\n') == [
        {"a": "}", "b": [1, {"c": "\\"}]}
    ]
    assert normalise("error in /tmp/build-7f3a9c1/out.o after 12 s").startswith("error in <path>")
