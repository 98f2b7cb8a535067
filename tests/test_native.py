"""The compiled classifier (setup.py, `make native`) against the same code interpreted.

`make test` builds it first and sets AUTOFIX_EXPECT_NATIVE=1, so a build that compiled nothing
fails here instead of testing pure Python twice. Without a build (`make test-fast` on a fresh
checkout) the comparison has nothing to compare and says so.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autofix.native_modules import NATIVE_MODULES, compiled_modules

REPO = Path(__file__).resolve().parent.parent
EXPECTED = os.environ.get("AUTOFIX_EXPECT_NATIVE") == "1"

_REPORT = (
    "import json, sys; from autofix.native_modules import compiled_modules; "
    "print(json.dumps(compiled_modules()))"
)


def _run(pythonpath: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args],
        env={**os.environ, "PYTHONPATH": str(pythonpath)},
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_make_test_runs_the_compiled_classifier() -> None:
    if not EXPECTED:
        pytest.skip("only under `make test`, which builds the compiled classifier first")
    assert compiled_modules() == list(NATIVE_MODULES)


def test_every_native_module_is_compiled_or_none_is() -> None:
    # A partial build (one module failed, an old .so left behind) mixes two builds' code.
    assert compiled_modules() in ([], list(NATIVE_MODULES))


def _both_ways(root: Path, script: str, *args: str) -> tuple[str, str]:
    """``script``'s output with the compiled modules, then without them, from one copy of the
    checkout at ``root`` (the benchmark inputs hold their checkout's path): plugins/ and
    benchmarks/ copied, tests/ the repository's."""
    if not compiled_modules():
        pytest.skip("no compiled classifier in this checkout (`make native` builds it)")
    shutil.copytree(
        REPO / "plugins", root / "plugins", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(REPO / "benchmarks", root / "benchmarks")
    (root / "tests").symlink_to(REPO / "tests")
    plugins = root / "plugins"
    assert json.loads(_run(plugins, "-c", _REPORT)) == list(NATIVE_MODULES)
    compiled = _run(plugins, str(root / script), *args)
    for built in plugins.rglob("*.so"):
        built.unlink()
    assert json.loads(_run(plugins, "-c", _REPORT)) == []
    return compiled, _run(plugins, str(root / script), *args)


def test_compiled_and_interpreted_judge_the_corpus_alike(tmp_path: Path) -> None:
    # Every corpus run's verdict and evidence, and the tool captures' (three hashes).
    compiled, interpreted = _both_ways(tmp_path, "tests/corpus/verdict_hash.py")
    assert "verdicts" in compiled
    assert compiled == interpreted


def test_compiled_and_interpreted_report_alike_on_every_benchmark_input(tmp_path: Path) -> None:
    # Each input's whole report, fed in 1 MB pieces and in 4,099-byte pieces that cut lines and
    # UTF-8 sequences.
    compiled, interpreted = _both_ways(tmp_path, "benchmarks/report_digest.py", "--mb", "1")
    assert "noise-dense" in compiled
    assert compiled == interpreted


def test_the_c_newline_work_keeps_its_definition() -> None:
    # The C count against bytes.count, and the C match handler against its definition (each
    # hit at the first newline from its match's end, or the data's end, its twin flag beside
    # it, ascending and once each; the candidate lines joined, ascending and once each, and the
    # hits on them back on their own lines; each line's smallest id), on random bytes, ranges
    # and matches (ascending, as the engine reports them, and shuffled).
    if "autofix.patterns._newlines" not in compiled_modules():
        pytest.skip("no compiled classifier in this checkout (`make native` builds it)")
    from autofix.patterns import _newlines

    rng = random.Random(7)
    handler = _newlines.Hits(10, 1023, [(7, 1)])  # a hit of 7 counts for flag 1 too
    exact = _newlines.Hits(10, 1023)
    for _ in range(3000):
        data = bytes(rng.choice(b"ab\n\xff") for _ in range(rng.randrange(0, 300)))
        start, end = rng.randrange(-400, 400), rng.randrange(-400, 400)
        assert _newlines.count(data, start, end) == data.count(b"\n", start, end)
        ends = sorted(rng.randrange(0, len(data) + 1) for _ in range(rng.randrange(0, 20)))
        if rng.random() < 0.2:
            rng.shuffle(ends)
        hits, marked = [], set()
        for match_end in ends:
            i = rng.choice([3, 7, 1023])
            handler(i, 0, match_end, 0, None)
            line_end = data.find(b"\n", match_end)
            line_end = len(data) if line_end < 0 else line_end
            if i == 1023:
                marked.add(line_end)
            else:
                hits.append(line_end << 10 | i)
                if i == 7:
                    hits.append(line_end << 10 | 1)
        lines = [data[data.rfind(b"\n", 0, end) + 1 : end] + b"\n" for end in sorted(marked)]
        assert handler.candidate_lines(data) == b"".join(lines)
        offset = 0
        for end, line in zip(sorted(marked), lines, strict=True):
            for _ in range(rng.randrange(0, 3)):  # a match may end anywhere on its line
                i = rng.choice([4, 7])
                exact(i, 0, offset + rng.randrange(0, len(line)), 0, None)
                hits += [end << 10 | i] + ([end << 10 | 1] if i == 7 else [])
            offset += len(line)
        handler.absorb(exact)
        ascending = sorted(set(hits))
        first = {value >> 10: value & 1023 for value in reversed(ascending)}
        taken = handler.take(data)
        assert taken == (ascending, first)
        assert list(taken[1]) == list(first)  # filled by descending end, as the pure build's
    handler(5, 0, 9, 0, None)
    with pytest.raises(ValueError, match="outside data"):
        handler.take(b"ab\n")
    handler(1023, 0, 1, 0, None)
    assert handler.candidate_lines(b"ab\n") == b"ab\n"
    exact(4, 0, 4, 0, None)
    with pytest.raises(ValueError, match="outside the joined candidate lines"):
        handler.absorb(exact)
    with pytest.raises(ValueError, match="same bits"):
        handler.absorb(_newlines.Hits(9, 511))
    with pytest.raises(ValueError, match="at most 4"):
        _newlines.Hits(10, 1023, [(1, 2)] * 5)


def test_the_c_line_summary_equals_the_pure_one() -> None:
    # Each first id's count (in a Counter's order: it reaches the report's rule order) and the
    # special lines, ascending, from dicts filled in any order.
    if "autofix.patterns._newlines" not in compiled_modules():
        pytest.skip("no compiled classifier in this checkout (`make native` builds it)")
    from autofix.patterns import _newlines, newlines

    rng = random.Random(11)
    special = tuple(rng.random() < 0.4 for _ in range(40))
    for _ in range(500):
        ends = rng.sample(range(10_000), rng.randrange(0, 60))
        if rng.random() < 0.7:
            ends.sort(reverse=True)  # as the engine fills it
        first = {end: rng.randrange(40) for end in ends}
        in_c, pure = _newlines.summary(first, special), newlines._summary(first, special)
        assert in_c == (dict(pure[0]), pure[1])
        assert list(in_c[0]) == list(pure[0])
    with pytest.raises(ValueError, match="outside special"):
        _newlines.summary({1: 40}, special)
