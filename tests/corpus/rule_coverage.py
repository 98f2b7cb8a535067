"""Which alternatives of the built-in rules decide which runs, and which can go.

    PYTHONPATH=plugins .venv/bin/python tests/corpus/rule_coverage.py            # the table
    PYTHONPATH=plugins .venv/bin/python tests/corpus/rule_coverage.py --prune    # + what can go

A rule's pattern is split into its top-level alternatives (`a|b|c`). A run counts for an
alternative when a line of it is decided by the rule (the first rule that matches, as
`autofix patterns explain` shows) and the alternative matches that line. Only the tune split and
the tool captures are read: held-out runs never inform a rule.

``--prune`` tries, for each alternative that decides exactly one run, the rules without it, on
that run (the only run whose lines it decides): when the run's verdict and evidence stay the
same (another rule now decides the line the same way) or only its evidence moves to another
rule with the same verdict, the alternative is listed as removable. Rules with an
``engine_form`` are listed, not tried (their engine form must change with them).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from autofix.classify.classifier import Classifier  # noqa: E402
from autofix.patterns.compiled import CompiledRules, compile_rules  # noqa: E402
from autofix.patterns.loader import DEFAULT_RULES, PatternStore  # noqa: E402
from autofix.patterns.model import PatternSettings, Rule  # noqa: E402
from corpus.reader import TOOL_CAPTURES, load_runs, read_split  # noqa: E402

# (key, exit code, stdout, stderr, operation)
Run = tuple[str, int | None, bytes, bytes, str]


def alternatives(pattern: str) -> list[str]:
    """The pattern's top-level alternatives (outside any group or class)."""
    parts, depth, in_class, escaped, start = [], 0, False, False, 0
    for i, char in enumerate(pattern):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]" or pattern[i - 1] == "["
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
    parts.append(pattern[start:])
    return parts


def tune_runs() -> list[Run]:
    sides = {run_id: row["split"] for run_id, row in read_split().items()}
    runs: list[Run] = [
        (f"runs/{r.id}", r.meta["exit_code"], r.stdout, r.stderr, "")
        for r in load_runs()
        if sides.get(r.id) == "tune"
    ]
    for r in load_runs(TOOL_CAPTURES):  # judged as tests/test_classify_captures.py does
        runs.append((f"captures/{r.id}", 0, r.stdout, r.stderr, r.id))
    return runs


def deciding_lines(rules: CompiledRules, run: Run) -> list[tuple[str, str]]:
    """(rule id, line) of every line a rule decided (not lines taken into an open block)."""
    _, _, out, err, operation = run
    found = []
    for stream, data in (("stdout", out), ("stderr", err)):
        classifier = Classifier(rules, operation, stream=stream, explain=True)
        classifier.feed(data)
        classifier.finish()
        assert classifier.explained is not None
        found += [(v.rule_id, v.text) for v in classifier.explained if v.rule_id and not v.in_block]
    return found


def coverage(runs: list[Run]) -> dict[tuple[str, int], set[str]]:
    """(rule id, alternative index) -> the runs it decides a line of."""
    rules = compile_rules([], PatternSettings(), "coverage", DEFAULT_RULES)
    by_id = {rule.id: rule for rule in DEFAULT_RULES}
    compiled: dict[str, list[re.Pattern[str]]] = {
        rule.id: [
            re.compile(alt, 0 if rule.case_sensitive else re.IGNORECASE)
            for alt in alternatives(rule.pattern)
        ]
        for rule in DEFAULT_RULES
        if rule.type == "regex"
    }
    found: dict[tuple[str, int], set[str]] = defaultdict(set)
    for run in runs:
        for rule_id, line in deciding_lines(rules, run):
            if rule_id not in by_id:
                continue
            for index, regex in enumerate(compiled.get(rule_id, [])):
                if regex.search(line):
                    found[(rule_id, index)].add(run[0])
    return found


class _FixedStore(PatternStore):
    """A pattern store that always answers one rule set (for trying a rule change)."""

    def __init__(self, rules: CompiledRules) -> None:
        super().__init__(None)
        self._fixed = rules

    def current(self) -> CompiledRules:
        return self._fixed


def judged(rules: tuple[Rule, ...], run: Run) -> tuple[bool, list[str]]:
    import autofix

    store = _FixedStore(compile_rules([], PatternSettings(), "coverage", rules))
    _, code, out, err, operation = run
    result = autofix.classify_output(code, err, out, operation=operation, patterns=store)
    return bool(result.success), [str(e.rule_id) for e in result.evidence]


def without(rule: Rule, index: int) -> Rule:
    parts = alternatives(rule.pattern)
    return rule.model_copy(update={"pattern": "|".join(parts[:index] + parts[index + 1 :])})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prune", action="store_true", help="try removing one-run alternatives")
    args = parser.parse_args()
    runs = tune_runs()
    found = coverage(runs)
    by_key = {run[0]: run for run in runs}
    total = sum(len(alternatives(r.pattern)) for r in DEFAULT_RULES if r.type == "regex")
    one_run = sorted(key for key, hits in found.items() if len(hits) == 1)
    unused = total - len(found)
    print(
        f"{len(DEFAULT_RULES)} rules, {total} regex alternatives: {len(found)} decide a tune "
        f"line, {len(one_run)} of them in exactly one run, {unused} in none"
    )
    removable: list[dict[str, Any]] = []
    for rule_id, index in one_run:
        rule = next(r for r in DEFAULT_RULES if r.id == rule_id)
        (run_key,) = found[(rule_id, index)]
        alt = alternatives(rule.pattern)[index]
        line = f"  {rule_id}[{index}] {alt[:70]!r} <- {run_key}"
        if not args.prune:
            print(line)
            continue
        if rule.engine_form is not None or len(alternatives(rule.pattern)) == 1:
            print(line + "  (not tried: engine form or only alternative)")
            continue
        before = judged(DEFAULT_RULES, by_key[run_key])
        trial = tuple(without(r, index) if r.id == rule_id else r for r in DEFAULT_RULES)
        after = judged(trial, by_key[run_key])
        same = before[0] == after[0]
        print(f"{line}  {'REMOVABLE' if same else 'kept'}: {before} -> {after}")
        if same:
            removable.append({"rule": rule_id, "index": index, "alternative": alt})
    if args.prune:
        print(f"-- {len(removable)} removable")
    return 0


if __name__ == "__main__":
    sys.exit(main())
