"""Rule model, pattern file validation, ReDoS guard, loading order and hot reload."""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

import pytest

from autofix.cli import main
from autofix.patterns.compiled import compile_rule
from autofix.patterns.loader import (
    BUILT_IN_RULES_PATH,
    DEFAULT_RULES,
    PATTERNS_ENV,
    PatternStore,
    load_file,
    validate_text,
)
from autofix.patterns.model import BUILT_IN_ONLY, PatternFile, Rule
from autofix.patterns.redos import can_match_newline, check_regex, required_literals

GOOD = """\
mode: extend
rules:
  - id: my-noise
    kind: noise
    type: substring
    pattern: "harmless chatter"
    reason: test
  - id: my-error
    kind: error
    type: regex
    pattern: '^boom \\d+$'
    reason: test
"""


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def bump(path: Path, text: str) -> None:
    """Rewrite and move mtime forward, so a same-size edit within one tick is still seen."""
    stat = path.stat()
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))


@pytest.mark.parametrize(
    ("pattern", "shape"),
    [
        (r"(a+)+", "nested quantifier"),
        (r"(\w+\s?)*$", "nested quantifier"),
        (r"(.*,){12}x", "nested quantifier"),
        (r"(a|aa)*", "overlapping alternation"),
        (r"(?:foo|fo)+bar", "overlapping alternation"),
        (r"\d+\d+", "adjacent overlapping"),
        (r".*.*", "adjacent overlapping"),
        (r"\w+\s*\w+", "adjacent overlapping"),
    ],
)
def test_static_check_rejects_dangerous_shapes(pattern: str, shape: str) -> None:
    problems = check_regex(pattern)
    assert problems and shape in problems[0]


@pytest.mark.parametrize(
    "pattern", [r"^error\[E\d+\]: ", r"(ab){3}", r"\s*\S+", r"foo.*bar", r"^(?:a|b)c+$"]
)
def test_static_check_accepts_safe_patterns(pattern: str) -> None:
    assert check_regex(pattern) == []


def test_invalid_regex_is_reported() -> None:
    assert "invalid regex" in check_regex("(unclosed")[0]


def test_required_literals() -> None:
    assert required_literals(r"^npm (?:warn|WARN)\b") == ["npm "]
    assert required_literals(r"\bpanicked at|^panic: ") == ["panicked at", "panic: "]
    assert required_literals(r"^\d+$") is None


def test_builtin_rules_are_vetted() -> None:
    assert len(DEFAULT_RULES) >= 50
    ids = [rule.id for rule in DEFAULT_RULES]
    assert len(ids) == len(set(ids))
    # First match wins: retries that ran out, retry notices, lines that only look like
    # summaries or warnings (a numbered job that failed, a passed test's name, a shell trace),
    # a fixer's success lines that hold a failure count, failure summaries, success summaries,
    # noise, then errors (builtin_rules.yaml says why).
    groups = [
        kind
        for k, kind in enumerate(r.kind for r in DEFAULT_RULES)
        if k == 0 or DEFAULT_RULES[k - 1].kind != kind
    ]
    assert groups == [
        "error",
        "retry",
        "error",
        "noise",
        "success_summary",
        "failure_summary",
        "success_summary",
        "noise",
        "error",
    ]
    for rule in DEFAULT_RULES:
        if rule.type == "regex":
            assert check_regex(rule.pattern, rule.case_sensitive) == [], rule.id
            assert not can_match_newline(rule.pattern, rule.case_sensitive), rule.id
            assert required_literals(rule.pattern, rule.case_sensitive), (
                f"{rule.id} has no scan key"
            )
            assert "(?P<" not in rule.pattern
        # Without the engine, one rule without a key of 2+ bytes sends every line to every rule.
        assert compile_rule(rule, True).keys is not None, f"{rule.id}: no fallback key"


def test_rule_model_rejects_bad_fields() -> None:
    with pytest.raises(ValueError):
        Rule(id="x", kind="noise", type="substring", pattern="a\nb", reason="r")
    with pytest.raises(ValueError):
        Rule(id="bad id", kind="noise", type="substring", pattern="a", reason="r")
    with pytest.raises(ValueError):
        Rule.model_validate(
            {"id": "x", "kind": "info", "type": "substring", "pattern": "a", "reason": "r"}
        )


def test_validate_reports_every_problem_with_line_and_rule_id() -> None:
    text = """\
rules:
  - id: ok
    kind: noise
    type: substring
    pattern: fine
    reason: ok
  - id: evil
    kind: error
    type: regex
    pattern: '(a+)+$'
    reason: bad
  - id: typo
    kind: eror
    type: substring
    pattern: x
    reason: y
"""
    parsed, problems = validate_text(text)
    assert parsed is None
    assert any(p.rule_id == "typo" and p.line == 13 and "kind" in p.message for p in problems)
    fixed = text.replace("kind: eror", "kind: error")
    parsed, problems = validate_text(fixed)
    assert parsed is None
    assert [(p.rule_id, p.line) for p in problems] == [("evil", 10)]
    assert "nested quantifier" in problems[0].message


def test_validate_yaml_error_names_line() -> None:
    parsed, problems = validate_text("rules:\n  - id: a\n    kind: [unclosed\n")
    assert parsed is None and problems[0].line is not None and "YAML" in problems[0].message


def test_duplicate_ids_and_unknown_settings() -> None:
    rule = "  - {id: a, kind: noise, type: substring, pattern: x, reason: r}\n"
    _, problems = validate_text("rules:\n" + rule + rule)
    assert "duplicate rule id" in problems[0].message
    _, problems = validate_text("moed: extend\nrules: []\n")
    assert "moed" in problems[0].message


def test_shipped_config_is_valid() -> None:
    root = Path(__file__).resolve().parent.parent
    rules = load_file(root / "config" / "error_patterns.yaml")
    assert rules.settings.mode == "extend"
    assert len(rules.compiled) == len(DEFAULT_RULES)


def test_extend_puts_user_rules_first_and_replace_drops_defaults(tmp_path: Path) -> None:
    rules = load_file(write(tmp_path / "p.yaml", GOOD))
    assert [c.id for c in rules.compiled[:2]] == ["my-noise", "my-error"]
    assert len(rules.compiled) == 2 + len(DEFAULT_RULES)
    replaced = load_file(write(tmp_path / "r.yaml", GOOD.replace("mode: extend", "mode: replace")))
    assert [c.id for c in replaced.compiled] == ["my-noise", "my-error"]


def test_store_path_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    monkeypatch.delenv(PATTERNS_ENV, raising=False)
    assert PatternStore().current().source == "defaults"
    (tmp_path / "config").mkdir()
    home_file = write(tmp_path / "config" / "error_patterns.yaml", GOOD)
    assert PatternStore().current().source == str(home_file)
    env_file = write(tmp_path / "env.yaml", GOOD)
    monkeypatch.setenv(PATTERNS_ENV, "env.yaml")
    assert PatternStore().current().source == str(env_file)
    explicit = write(tmp_path / "explicit.yaml", GOOD)
    assert PatternStore(explicit).current().source == str(explicit)


def test_hot_reload_and_last_good(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = write(tmp_path / "p.yaml", GOOD)
    store = PatternStore(path)
    first = store.current()
    assert store.current() is first  # unchanged: cached
    bump(path, GOOD.replace("harmless chatter", "other chatter!!"))
    second = store.current()
    assert second is not first and second.compiled[0].rule.pattern == "other chatter!!"
    caplog.set_level(logging.WARNING, logger="autofix.patterns.loader")
    bump(path, GOOD.replace("'^boom \\d+$'", "'(x+x+)+y'"))
    assert store.current() is second  # invalid edit: last good kept
    assert store.current() is second
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    message = warnings[0].getMessage()
    assert str(path) in message and "line 11" in message and "my-error" in message
    path.unlink()
    assert store.current().source == "defaults"  # missing file: defaults


def test_hot_reload_check_is_cheap(tmp_path: Path) -> None:
    store = PatternStore(write(tmp_path / "p.yaml", GOOD))
    store.current()
    started = time.perf_counter()
    for _ in range(1000):
        store.current()
    # Generous bound: only guards against re-reading the file on every call.
    assert (time.perf_counter() - started) / 1000 < 0.001


def test_cli_patterns_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["patterns", "check", str(write(tmp_path / "ok.yaml", GOOD))]) == 0
    bad = GOOD.replace("'^boom \\d+$'", "'(a|aa)*b'").replace("kind: noise", "kind: nois")
    assert main(["patterns", "check", str(write(tmp_path / "bad.yaml", bad))]) == 2
    out = capsys.readouterr().out
    assert (
        "line 4: rule 'my-noise'" in out
        and "line 11: rule 'my-error'" in out
        and "2 problem(s)" in out
    )


def test_cli_patterns_check_lists_every_regex_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = GOOD.replace("harmless chatter", "x").replace("'^boom \\d+$'", "'(a|aa)*b'")
    bad += "  - {id: second, kind: error, type: regex, pattern: '\\d+\\d+', reason: r}\n"
    assert main(["patterns", "check", str(write(tmp_path / "bad.yaml", bad))]) == 2
    out = capsys.readouterr().out
    assert "'my-error'" in out and "'second'" in out and "2 problem(s)" in out


def test_cli_patterns_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["patterns", "schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema == PatternFile.model_json_schema()
    assert "rules" in schema["properties"]


def test_cli_patterns_explain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = write(tmp_path / "x.log", "harmless chatter\nboom 3\nplain\n")
    assert main(["patterns", "explain", str(write(tmp_path / "p.yaml", GOOD)), str(log)]) == 0
    out = capsys.readouterr().out
    assert "[my-noise]" in out and "ERROR" in out and "[my-error]" in out
    assert "1 noise, 1 neutral, 1 error" in out


def test_built_in_rules_are_a_pattern_file_in_the_users_format() -> None:
    parsed, problems = validate_text(BUILT_IN_RULES_PATH.read_text(encoding="utf-8"), trusted=True)
    assert problems == [] and parsed is not None
    assert tuple(parsed.rules) == DEFAULT_RULES
    # Only the forms the engine cannot derive are written out.
    assert any(rule.engine_form for rule in DEFAULT_RULES)


def test_engine_form_is_for_built_in_rules_only() -> None:
    text = GOOD + "    engine_form: '^boom \\d+$'\n"
    parsed, problems = validate_text(text)
    assert parsed is None
    assert [(p.line, p.rule_id) for p in problems] == [(13, "my-error")]
    assert "engine_form is for the built-in rules only; remove it" in problems[0].message
    parsed, problems = validate_text(text, trusted=True)
    assert parsed is not None and parsed.rules[1].engine_form == "^boom \\d+$"


def test_engine_confirm_is_for_built_in_rules_only() -> None:
    text = GOOD + "    engine_confirm:\n      - {prefilter: 'boom', exact: '^boom \\d+$'}\n"
    parsed, problems = validate_text(text)
    assert parsed is None
    assert "engine_confirm is for the built-in rules only; remove it" in problems[0].message
    parsed, problems = validate_text(text, trusted=True)
    assert parsed is not None and problems == []
    confirm = parsed.rules[1].engine_confirm
    assert confirm is not None and confirm[0].exact == "^boom \\d+$"


def test_cli_patterns_list_defaults_prints_a_users_pattern_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["patterns", "list", "--defaults"]) == 0
    out = capsys.readouterr().out
    parsed, problems = validate_text(out)  # as a user's file: no engine_form, every check
    assert problems == [] and parsed is not None
    without_form = [rule.model_copy(update=dict.fromkeys(BUILT_IN_ONLY)) for rule in DEFAULT_RULES]
    assert parsed.rules == without_form
    assert main(["patterns", "check", str(write(tmp_path / "copy.yaml", out))]) == 0


def test_cli_patterns_list_shows_the_rules_in_effect(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["patterns", "list", str(write(tmp_path / "p.yaml", GOOD))]) == 0
    out = capsys.readouterr().out
    parsed, problems = validate_text(out)
    assert problems == [] and parsed is not None
    ids = [rule.id for rule in parsed.rules]
    assert ids == ["my-noise", "my-error", *(rule.id for rule in DEFAULT_RULES)]
    assert "2 user + " in out
    assert main(["patterns", "list", "--defaults", str(tmp_path / "p.yaml")]) == 2
