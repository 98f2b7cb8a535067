"""The Hyperscan engine path: built-in engine forms, rule modes, equality with the fallback path."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import examples
from corpus.reader import TOOL_CAPTURES, iter_streams, load_runs
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from autofix.classify.classifier import Classifier
from autofix.classify.stream_report import ClassifyReport
from autofix.patterns import engine
from autofix.patterns.compiled import CompiledRules, compile_rules
from autofix.patterns.loader import DEFAULT_RULES, defaults
from autofix.patterns.model import PatternSettings, Rule
from autofix.patterns.newlines import LineEndHits

pytestmark = pytest.mark.skipif(not engine.installed(), reason="needs the hyperscan wheel")

# The tool captures' streams as (the file name they once had, bytes), in that name's order.
CAPTURES = sorted(
    (f"{run_id}.{stream}", data) for run_id, stream, data in iter_streams(load_runs(TOOL_CAPTURES))
)
BY_ID = {rule.id: rule for rule in DEFAULT_RULES}
# The built-ins that carry a hand-written engine form (builtin_rules.yaml's `engine_form`,
# and the exact expressions of `engine_confirm`): all the expressions the engine runs for each.
ENGINE_FORMS = {
    rule.id: [
        *([rule.engine_form] if rule.engine_form else []),
        *(confirm.exact for confirm in rule.engine_confirm or ()),
    ]
    for rule in DEFAULT_RULES
    if rule.engine_form or rule.engine_confirm
}
# Each confirmed expression with its prefilter, which must hit every line the expression hits.
CONFIRMED = [
    (rule.id, k, confirm)
    for rule in DEFAULT_RULES
    for k, confirm in enumerate(rule.engine_confirm or ())
]

# Bits of real output around each engine form's tricky spots: anchors, lookbehind stand-ins,
# word boundaries and digits after a colon.
FORM_FRAGMENTS = [
    *[word for rule_id in ENGINE_FORMS for word in re.findall(r"[A-Za-z]{3,}", BY_ID[rule_id].pattern)],
    " ", "\t", ":", ": ", "1", "0", "3 ", "(", ")", ".", ",", "-", "[", "]", "|", ">", "$", "x", "_",
    "FAIL", "OK", "PASS", "ok  \t", "# fail 0", "Node.js", "=", "/", "'",
]  # fmt: skip


@cache
def form_db(rule_id: str, expression: str | None = None) -> Any:
    caseless = not BY_ID[rule_id].case_sensitive
    forms = ENGINE_FORMS[rule_id] if expression is None else [expression]
    return engine._compile(forms, [0] * len(forms), [engine._flags(caseless)] * len(forms))


def engine_matches(rule_id: str, line: str, expression: str | None = None) -> bool:
    db = form_db(rule_id, expression)
    found: list[int] = []
    db.scan(line.encode() + b"\n", match_event_handler=lambda *args: found.append(args[2]))
    assert all(end == len(line.encode()) for end in found), "a match must run to its line's end"
    return bool(found)


def stdlib_matches(rule_id: str, line: str) -> bool:
    rule = BY_ID[rule_id]
    flags = 0 if rule.case_sensitive else re.IGNORECASE
    return re.search(rule.pattern.encode(), line.encode(), flags) is not None


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rule_id=st.sampled_from(sorted(ENGINE_FORMS)),
    line=st.lists(st.sampled_from(FORM_FRAGMENTS), max_size=10).map("".join),
)
def test_engine_forms_give_the_rules_verdict(rule_id: str, line: str) -> None:
    assert engine_matches(rule_id, line) == stdlib_matches(rule_id, line), (rule_id, line)


def test_engine_forms_on_real_lines() -> None:
    lines = {line for _, data in CAPTURES for line in data.decode(errors="replace").splitlines()}
    for rule_id in ENGINE_FORMS:
        for line in lines:
            if line.isascii():
                assert engine_matches(rule_id, line) == stdlib_matches(rule_id, line), (
                    rule_id,
                    line,
                )
    for rule_id, k, confirm in CONFIRMED:
        for line in lines:
            if engine_matches(rule_id, line, confirm.exact):
                assert engine_matches(rule_id, line, confirm.prefilter), (rule_id, k, line)


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    confirmed=st.sampled_from(CONFIRMED),
    line=st.lists(st.sampled_from(FORM_FRAGMENTS), max_size=10).map("".join),
)
def test_a_prefilter_hits_every_line_its_expression_hits(
    confirmed: tuple[str, int, Any], line: str
) -> None:
    rule_id, _, confirm = confirmed
    if engine_matches(rule_id, line, confirm.exact):
        assert engine_matches(rule_id, line, confirm.prefilter), (rule_id, line)


def test_confirmed_lines_are_found_in_a_whole_chunk() -> None:
    """The second scan maps each confirmed hit back to its own line of the chunk."""
    rules = defaults()
    found = rules.ruleset("", "stderr").engine()
    assert found is not None and found.engine.confirm_db is not None
    lines = [
        b"plain text",
        b"tar: archive.tar: Cannot open: No such file or directory",  # program-error
        b"a warning that says error but is no program's",  # prefilter only
        b"src/app.ts:12:5: Unexpected any",  # tool-diagnostic, confirmed part
        b"x.c:3: foo ==> bar",  # tool-diagnostic, the other confirmed part
    ]
    data = b"\n".join(lines) + b"\n"
    ends = [data.index(line) + len(line) for line in lines]
    ids = {p: c.id for p, c in enumerate(rules.ruleset("", "stderr").rules)}
    by_line: dict[int, set[str]] = {}
    for value in found.engine.scan(data):
        i = value & engine.ID_MASK
        if i >= engine.N_FLAGS:
            by_line.setdefault(value >> engine.ID_BITS, set()).add(ids[i - engine.N_FLAGS])
    assert "program-error" in by_line[ends[1]]
    assert "program-error" not in by_line.get(ends[2], set())
    assert "tool-diagnostic" in by_line[ends[3]]
    assert "tool-diagnostic" in by_line[ends[4]]
    assert ends[0] not in by_line


@pytest.mark.parametrize(
    ("expression", "scanned"),
    [
        (r"(?:npm ERR!)[^\n]*$", "(?:npm ERR!)"),
        (r"a|b[^\n]*$", "a|b"),  # the same lines: each alternative's match is on one
        (r"^(?:FAIL)$", r"^(?:FAIL)$"),  # its own end anchor: kept
        (r"x\[^\n]*$", r"x\[^\n]*$"),  # an escaped ``[``: no tail to drop
        (r"[^\n]*$", r"[^\n]*$"),  # nothing would be left
    ],
)
def test_the_database_drops_only_a_true_tail(expression: str, scanned: str) -> None:
    assert engine._untailed(expression) == scanned


def test_repeated_and_mid_line_matches_report_their_lines_end() -> None:
    """Every hit names its line's newline, or the chunk's end, tailed or not."""
    rules = compile_rules(
        [Rule(id="boom", kind="error", type="substring", pattern="boom", reason="test")],
        PatternSettings(),
        "test",
        (),
    )
    found = rules.ruleset("", "stderr").engine()
    assert found is not None
    data = b"boom boom boom tail\nquiet\nx boom"  # the last line has no newline
    hits = sorted(found.engine.scan(data))
    ends = {value >> engine.ID_BITS for value in hits}
    assert ends == {data.index(b"\n"), len(data)}
    assert len(hits) == 2  # once per line: the tail (pure build), or the C handler's dedup


def test_a_flag_twinned_with_a_rule_is_still_reported() -> None:
    """The Python warning flag is ``python-warning``'s own expression: the native build scans it
    once and reports the rule's hits for the flag too; the pure build scans both."""
    rules = defaults().ruleset("", "stderr")
    found = rules.engine()
    assert found is not None
    position = next(p for p, rule in enumerate(rules.rules) if rule.id == "python-warning")
    twinned = ((engine.N_FLAGS + position, engine.F_PY_WARNING),)
    assert found.engine.also == (twinned if LineEndHits is not None else ())
    data = b"x.py:3: DeprecationWarning: old\nplain\n"
    ids = {value & engine.ID_MASK for value in found.engine.scan(data)}
    assert {engine.F_PY_WARNING, engine.N_FLAGS + position} <= ids


def test_every_built_in_runs_on_the_engine() -> None:
    modes = {c.id: c.plan.mode for c in defaults().compiled if c.plan is not None}
    assert set(modes) == {rule.id for rule in DEFAULT_RULES}
    assert set(modes.values()) == {engine.MODE_ENGINE}


def user(pattern: str, **extra: object) -> CompiledRules:
    rule = Rule.model_validate(
        {"id": "u", "kind": "error", "type": "regex", "pattern": pattern, "reason": "r", **extra}
    )
    return compile_rules([rule], PatternSettings(), "test", DEFAULT_RULES)


@pytest.mark.parametrize(
    ("pattern", "mode", "why"),
    [
        (r"^migration \d+ failed: ", engine.MODE_ENGINE, ""),
        (r"(a+)+$", engine.MODE_ENGINE, ""),  # linear on the engine whatever its shape
        (r"^\s+at .*\(node:internal/", engine.MODE_VERIFY, "newline"),
        (r"(?<!no )deadlock detected", engine.MODE_FALLBACK, "lookaround"),
        (r"(ab)\1", engine.MODE_FALLBACK, "backreference"),
        (r"x{,3}yz", engine.MODE_FALLBACK, "{,n}"),
        (r"\Afoo", engine.MODE_FALLBACK, "\\A"),
        (r"foo$|bar", engine.MODE_FALLBACK, "end anchor"),
    ],
)
def test_user_rule_modes(pattern: str, mode: str, why: str) -> None:
    plan = user(pattern).compiled[0].plan
    assert plan is not None and plan.mode == mode and why in plan.why


@pytest.mark.parametrize(
    ("pattern", "line", "hit"),
    [
        (r"(?<!no )deadlock detected", "deadlock detected in tx 4", True),
        (r"(?<!no )deadlock detected", "no deadlock detected", False),
        (r"^\s+at .*\(node:internal/", "    at x (node:internal/a.js:1:2)", True),
        (r"^\s+at .*\(node:internal/", "at x (node:internal/a.js:1:2)", False),
        (r"x{,3}yz", "xxyz", True),
        (r"foo$|bar", "a foo", True),
        (r"foo$|bar", "foo a", False),
    ],
)
def test_verified_and_fallback_rules_decide_right(pattern: str, line: str, hit: bool) -> None:
    rules = user(pattern)
    report = Classifier(rules, engine=True)
    report.feed(f"before\n{line}\nafter\n")
    assert (report.finish().rule_hits.get("u") == 1) is hit


def report(data: bytes, rules: CompiledRules, engine_on: bool, stream: str) -> ClassifyReport:
    classifier = Classifier(rules, stream=stream, engine=engine_on)
    for offset in range(0, len(data), 1 << 16):
        classifier.feed(data[offset : offset + (1 << 16)])
    return classifier.finish()


@pytest.mark.parametrize(("name", "data"), CAPTURES, ids=[name for name, _ in CAPTURES])
def test_engine_path_equals_fallback_on_captures(name: str, data: bytes) -> None:
    rules = defaults()
    stream = "stdout" if name.endswith(".stdout") else "stderr"
    assert report(data, rules, True, stream) == report(data, rules, False, stream)


def test_the_env_switch_forces_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(engine.ENGINE_ENV, "fallback")
    assert not engine.available()
    assert Classifier(compile_rules([], PatternSettings(), "t", DEFAULT_RULES))._engine is None


def test_patterns_check_prints_each_rule_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from autofix.cli import main

    path = tmp_path / "p.yaml"
    path.write_text(
        "rules:\n"
        "  - {id: fast, kind: error, type: regex, pattern: '^boom \\d+', reason: r}\n"
        "  - {id: look, kind: error, type: regex, pattern: '(?<!no )deadlock', reason: r}\n"
    )
    assert main(["patterns", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "  fast: engine\n" in out
    assert "  look: fallback (the engine has no lookaround)" in out
    assert f"{len(DEFAULT_RULES)} of {len(DEFAULT_RULES)} on the engine" in out


def test_engine_path_equals_fallback_on_the_tune_split() -> None:
    from test_corpus_verdicts import RUNS

    rules = defaults()
    differ = [
        (run_id, stream)
        for run_id, _, _, out, err, _ in RUNS
        for stream, data in (("stdout", out), ("stderr", err))
        if report(data, rules, True, stream) != report(data, rules, False, stream)
    ]
    assert differ == []


# The walk's short paths (warning heads with the one line their block may take, settled in
# bulk; a success summary; a retry notice whose block ends at once) and CRLF lines, wherever a
# feed cuts them: a warning head as a chunk's last line leaves its block open for the next
# chunk, and a head settled in bulk that an open block reaches is decided by the whole path.
WALK_LINES = [
    "/src/app/models.py:12: DeprecationWarning: datetime.utcnow() is deprecated",
    "  now = datetime.utcnow()",
    "(node:4242) [DEP0040] DeprecationWarning: The `punycode` module is deprecated.",
    "(Use `node --trace-deprecation ...` to show where the warning was created)",
    "/src/app/views.py:3: UserWarning: no layout found",
    "error: build failed",
    "/src/app/x.py:9: FutureWarning: the next line is the warning's own",
    "  Error: an indented line the warning's block takes, though it reads as an error",
    "ok: 0 errors, 0 failures in 12 files",
    "Success: no issues found in 12 source files",
    "npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported",
    "/src/app/y.py:1: UserWarning: followed by a blank line",
    "",
    "Build succeeded.\r",
    "\x1b[31merror\x1b[0m: coloured, with a CRLF ending\r",
    "WARNING: Retrying (Retry(total=2)) after connection broken by 'ReadTimeoutError': /simple/",
    "(node:52769) [DEP0066] DeprecationWarning: a head while the retry notice's block is open",
    "(Use `node --trace-deprecation ...` to show where the warning was created)",
    " 89932K .......... .......... ..........  76% 75.1M 38s",
    "error: an error block that takes the indented warning head below",
    "  /src/app/w.py:2: UserWarning: settled in bulk, then reached by the open block",
    "    w = warn()",
    "WARNING: Retrying (Retry(total=1)) after connection broken by 'ReadTimeoutError': /a/",
    "  an indented line the retry notice's block takes",
    "Collecting requests",
    "WARNING: Retrying (Retry(total=0)) after connection broken by 'ReadTimeoutError': /b/",
    "/src/app/v.py:4: UserWarning: a head right after a retry notice",
    "  v = warn()",
    "(node:7) Warning: the last line",
]


def test_the_walks_short_paths_wherever_a_feed_cuts() -> None:
    rules = defaults()
    data = ("\n".join(WALK_LINES) + "\n").encode()
    whole = report(data, rules, True, "stderr")
    assert whole == report(data, rules, False, "stderr")
    assert whole.error_lines == 5 and whole.success_summary_lines == 1
    cuts = [k + 1 for k, byte in enumerate(data) if byte == ord("\n")]
    for cut in [*cuts, *(k + 1 for k in cuts), 7, 100]:
        classifier = Classifier(rules, engine=True)
        classifier.feed(data[:cut])
        classifier.feed(data[cut:])
        assert classifier.finish() == whole, cut


# Lines for mixed streams: the short paths' shapes, lines that open or continue blocks (an
# error, a traceback, indented lines, a gutter), plain noise and neutral output.
MIXED_LINES = [
    *WALK_LINES,
    "Traceback (most recent call last):",
    '  File "/src/app/main.py", line 3, in <module>',
    "ValueError: bad value",
    "   |",
    "12 |     let x = 5;",
    "    at Object.<anonymous> (/src/app/index.js:1:7)",
    "plain output",
    "\tindented output",
]


@settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.lists(st.sampled_from(MIXED_LINES), min_size=1, max_size=24),
    cut=st.integers(min_value=0, max_value=4000),
)
@example(  # a head whose block takes an indented head settled in bulk, and that one's line
    picks=[
        "/src/app/models.py:12: DeprecationWarning: datetime.utcnow() is deprecated",
        "  /src/app/w.py:2: UserWarning: settled in bulk, then taken by the head above",
        "  now = datetime.utcnow()",
    ],
    cut=0,
)
def test_mixed_streams_match_the_fallback_at_any_cut(picks: list[str], cut: int) -> None:
    """Heads settled in bulk and unsettled, retry notices on their short path or not, blocks
    that reach them: the engine's report equals the fallback's, whole or cut anywhere."""
    rules = defaults()
    data = ("\n".join(picks) + "\n").encode()
    whole = report(data, rules, False, "stderr")
    classifier = Classifier(rules, engine=True)
    classifier.feed(data[: cut % (len(data) + 1)])
    classifier.feed(data[cut % (len(data) + 1) :])
    assert classifier.finish() == whole
