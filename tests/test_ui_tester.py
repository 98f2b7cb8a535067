"""The pattern tester (autofix.ui.tester, ``POST /api/patterns/test``): the real parser's
verdict and the rule that decided each line, against the live rulebook or an edited one, and
nothing written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import CAPTURES_DIR
from fastapi.testclient import TestClient
from ui_support import ui_client

from autofix.agents.registry import SAVED_OUTPUT_FORMATS, get_format
from autofix.audit.stores.memory import MemoryStore
from autofix.patterns.loader import PATTERNS_ENV, STATE_DIR_ENV, PatternStore, last_good_path
from autofix.task.judge import judge_saved_output
from autofix.ui import tester
from autofix.ui.app import MAX_TEST_BODY_BYTES

pytestmark = pytest.mark.unit

NODE_WARNING = (
    "(node:1234) [DEP0040] DeprecationWarning: The `punycode` module is deprecated. "
    "Please use a userland alternative instead.\n"
    "(Use `node --trace-deprecation ...` to show where the warning was created)\n"
)
TRACEBACK = """Traceback (most recent call last):
  File "/opt/airflow/dags/etl/load.py", line 48, in <module>
    main()
  File "/opt/airflow/dags/etl/load.py", line 22, in read_rows
    return json.loads(path.read_text())
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
"""
# The deployment's own rulebook: one rule of its own, then the built-in rules.
LIVE_RULES = """mode: extend
rules:
  - id: ours-build-chatter
    kind: noise
    type: substring
    pattern: "[build] cache warm"
    reason: our build's progress line
"""
CACHE_LINE = "ERROR: cache miss for key etl-2024 (harmless, refetched)\n"
EDITED_RULES = (
    LIVE_RULES
    + """  - id: ours-cache-miss
    kind: noise
    type: substring
    pattern: "cache miss for key"
    reason: the cache refetches on a miss
"""
)
BAD_RULES = """rules:
  - id: bad-regex
    kind: noise
    type: regex
    pattern: "([a-z]+"
    reason: unclosed group
  - id: slow-regex
    kind: noise
    type: regex
    pattern: "^(a+)+$"
    reason: nested repeat
"""
CAPTURE = CAPTURES_DIR / "claude" / "debug_stderr_warn_level_success__f2"


@pytest.fixture
def deployment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An AUTOFIX_HOME with a live rulebook and its own state dir (both under ``tmp_path``)."""
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    (home / "config" / "error_patterns.yaml").write_text(LIVE_RULES)
    monkeypatch.setenv("AUTOFIX_HOME", str(home))
    monkeypatch.setenv(STATE_DIR_ENV, str(tmp_path / "state"))
    monkeypatch.delenv(PATTERNS_ENV, raising=False)
    monkeypatch.setattr(tester, "_live", None)  # a fresh live store: no rules of another test
    return tmp_path


def snapshot(root: Path) -> dict[str, tuple[int, bytes]]:
    return {
        str(path.relative_to(root)): (path.stat().st_mtime_ns, path.read_bytes())
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def by_number(answer: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {line["line_no"]: line for line in answer["lines"]}


def test_a_node_deprecation_warning_at_exit_0_is_noise_and_a_success(deployment: Path) -> None:
    answer = tester.test_patterns(NODE_WARNING, exit_code=0)

    verdict = answer["verdict"]
    assert verdict["success"] is True
    assert verdict["status"] == "completed"
    assert verdict["retry_class"] == "none"
    assert verdict["failure_kind"] is None
    assert answer["counts"]["noise"] == 2 and answer["counts"]["error"] == 0
    first, second = answer["lines"]
    assert first["decision"] == "noise" and first["rule_id"] == "node-warning"
    assert first["built_in"] is True and first["decided_by"] == "built-in rule 'node-warning'"
    assert second["decision"] == "noise" and second["in_block"] is True
    assert answer["rules"]["used"]["node-warning"]["kind"] == "noise"
    assert answer["rules"]["source"] == str(deployment / "home" / "config" / "error_patterns.yaml")


def test_a_python_traceback_at_exit_1_fails_on_its_error_lines(deployment: Path) -> None:
    answer = tester.test_patterns(TRACEBACK, exit_code=1)

    verdict = answer["verdict"]
    assert verdict["success"] is False
    assert verdict["status"] == "failed"
    assert verdict["failure_kind"] == "unknown"
    assert verdict["retry_class"] == "error"
    assert "JSONDecodeError: Expecting value" in verdict["error_message"]
    assert verdict["evidence"][0]["rule_id"] == "python-traceback"
    assert answer["counts"]["error"] == 6
    lines = by_number(answer)
    assert lines[1]["decision"] == "error" and lines[1]["rule_id"] == "python-traceback"
    assert lines[6]["decision"] == "error" and lines[6]["in_block"] is True
    assert lines[6]["decided_by"] == "the block its built-in rule 'python-traceback' opened"


def test_without_an_exit_code_the_output_alone_is_judged_at_exit_0(deployment: Path) -> None:
    answer = tester.test_patterns(TRACEBACK, exit_code=None)

    assert answer["verdict"]["success"] is False  # the uncaught traceback decides at exit 0
    assert answer["verdict"]["exit_code"] is None and answer["verdict"]["judged_at_exit"] == 0


def test_the_deployments_own_rule_decides_its_line(deployment: Path) -> None:
    answer = tester.test_patterns("[build] cache warm 12/40\n", exit_code=0)

    line = answer["lines"][0]
    assert line["decision"] == "noise" and line["rule_id"] == "ours-build-chatter"
    assert line["built_in"] is False and line["decided_by"] == "rule 'ours-build-chatter'"
    assert answer["rules"]["summary"].startswith("1 user + ")


def test_a_transcript_is_judged_as_the_operator_judges_it(deployment: Path) -> None:
    meta = json.loads((CAPTURE / "meta.json").read_text())
    stdout, stderr = (CAPTURE / "stdout").read_text(), (CAPTURE / "stderr").read_text()

    answer = tester.test_patterns(
        stderr, transcript=stdout, agent_format="claude", exit_code=meta["exit_code"]
    )

    expected = judge_saved_output(
        get_format("claude"), stdout.encode(), stderr.encode(), meta["exit_code"]
    )
    verdict = answer["verdict"]
    assert verdict["success"] is expected.success is meta["truth"]["succeeded"]
    assert verdict["retry_class"] == expected.retry_class.value == meta["truth"]["retry_class"]
    agent = answer["agent"]
    assert agent["format"] == "claude" and agent["run_status"] == "completed"
    assert agent["final_text"] == expected.final_text
    assert [event["type"] for event in agent["events"]] == [
        "system/init",
        "assistant",
        "result/success",
    ]
    # The CLI's [ERROR] debug line matches an error rule, but its structured result decided.
    first = answer["lines"][0]
    assert first["decision"] == "error" and first["rule_id"] == "error-label"
    assert "diagnostic" in first["note"]
    assert answer["counts"]["diagnostic"] == 1


def test_an_edited_rulebook_turns_a_line_to_noise_before_it_is_saved(deployment: Path) -> None:
    live = tester.test_patterns(CACHE_LINE, exit_code=0)
    edited = tester.test_patterns(CACHE_LINE, exit_code=0, rules_text=EDITED_RULES)

    assert live["verdict"]["success"] is False
    assert live["lines"][0]["decision"] == "error"
    assert edited["verdict"]["success"] is True
    assert edited["lines"][0]["decision"] == "noise"
    assert edited["lines"][0]["rule_id"] == "ours-cache-miss"
    assert edited["rules"]["edited"] is True
    assert edited["rules"]["source"] == tester.EDITED_SOURCE
    rulebook = deployment / "home" / "config" / "error_patterns.yaml"
    assert rulebook.read_text() == LIVE_RULES


def test_an_invalid_rulebook_answers_every_problem_with_its_line(deployment: Path) -> None:
    with pytest.raises(tester.PatternTestError) as caught:
        tester.test_patterns(CACHE_LINE, exit_code=0, rules_text=BAD_RULES)

    error = caught.value
    assert error.status == 422
    problems = {(p.rule_id, p.line): p.message for p in error.problems}
    assert "invalid regex" in problems[("bad-regex", 5)]
    assert "nested quantifier" in problems[("slow-regex", 10)]
    detail = error.detail()
    assert isinstance(detail, dict) and len(detail["problems"]) == 2
    assert "nothing was saved" in detail["message"]


@pytest.mark.parametrize(
    ("stderr", "rules_text", "status", "wording"),
    [
        ("x" * (tester.MAX_INPUT_BYTES + 1) + "\n", None, 413, "at most 1,048,576 bytes"),
        ("e\n" * (tester.MAX_INPUT_LINES + 1), None, 413, "at most 20,000"),
        ("e\n", "#" * (1024 * 1024 + 1), 413, "a pattern file may be at most"),
    ],
    ids=["bytes", "lines", "rulebook"],
)
def test_oversized_input_is_refused_with_what_to_do(
    deployment: Path, stderr: str, rules_text: str | None, status: int, wording: str
) -> None:
    with pytest.raises(tester.PatternTestError) as caught:
        tester.test_patterns(stderr, exit_code=0, rules_text=rules_text)

    assert caught.value.status == status
    assert wording in caught.value.message


def test_an_unknown_agent_format_names_the_valid_ones(deployment: Path) -> None:
    with pytest.raises(tester.PatternTestError) as caught:
        tester.test_patterns("", transcript="{}", agent_format="cursor", exit_code=0)

    assert caught.value.status == 422
    assert all(name in caught.value.message for name in SAVED_OUTPUT_FORMATS)
    with pytest.raises(tester.PatternTestError, match="needs its agent format"):
        tester.test_patterns("", transcript="{}", exit_code=0)


def test_the_tester_writes_nothing(deployment: Path) -> None:
    """No last good copy, no audit record, no rule file: the whole tree is as it was."""
    before = snapshot(deployment)

    tester.test_patterns(NODE_WARNING, exit_code=0)
    tester.test_patterns(CACHE_LINE, exit_code=0, rules_text=EDITED_RULES)
    tester.test_patterns((CAPTURE / "stderr").read_text(), transcript="{}", agent_format="codex")
    with pytest.raises(tester.PatternTestError):
        tester.test_patterns(CACHE_LINE, rules_text=BAD_RULES)
    tester.live_rules_text()

    assert snapshot(deployment) == before
    rulebook = deployment / "home" / "config" / "error_patterns.yaml"
    assert not last_good_path(rulebook).exists()
    # The control: the store tasks use keeps a copy on the same load, so the check above bites.
    PatternStore(None).current()
    assert last_good_path(rulebook).read_text() == LIVE_RULES


def test_the_live_rules_come_with_their_source(deployment: Path) -> None:
    rules = tester.live_rules_text()

    path = str(deployment / "home" / "config" / "error_patterns.yaml")
    assert rules["path"] == path and rules["exists"] is True
    assert rules["text"] == LIVE_RULES
    assert rules["in_effect"] == path
    assert rules["problems"] == []
    assert rules["agent_formats"] == list(SAVED_OUTPUT_FORMATS)


def test_an_invalid_live_file_shows_its_problems_and_what_is_in_effect(deployment: Path) -> None:
    (deployment / "home" / "config" / "error_patterns.yaml").write_text(BAD_RULES)

    rules = tester.live_rules_text()

    assert rules["text"] == BAD_RULES
    assert [problem["line"] for problem in rules["problems"]] == [5, 10]
    assert "defaults" in rules["in_effect"]  # no last good copy was kept: the built-ins apply


# ---- the route ---------------------------------------------------------------------------


USER = {"X-Test-User": "ada"}


@pytest.fixture
def client(deployment: Path) -> TestClient:
    return ui_client(MemoryStore(), {"ada": {"etl"}})


def test_the_route_refuses_a_request_without_a_user(client: TestClient) -> None:
    tested = client.post("/api/patterns/test", json={"stderr": NODE_WARNING})
    rules = client.get("/api/patterns/rules")

    assert tested.status_code == 401 and "verdict" not in tested.text
    assert rules.status_code == 401 and "rules:" not in rules.text


def test_the_route_answers_the_verdict_and_the_lines(client: TestClient) -> None:
    answer = client.post(
        "/api/patterns/test", json={"stderr": TRACEBACK, "exit_code": 1}, headers=USER
    )

    assert answer.status_code == 200
    body = answer.json()
    assert body["verdict"]["success"] is False
    assert body["lines"][0]["rule_id"] == "python-traceback"


def test_the_route_answers_422_with_the_edited_rules_problems(client: TestClient) -> None:
    answer = client.post(
        "/api/patterns/test",
        json={"stderr": CACHE_LINE, "rules_text": BAD_RULES},
        headers=USER,
    )

    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert [problem["line"] for problem in detail["problems"]] == [5, 10]


@pytest.mark.parametrize(
    ("send", "status", "wording"),
    [
        ({"content": b"stderr=x", "headers": {"Content-Type": "text/plain"}}, 415, "JSON"),
        ({"json": {"stderr": "x", "exit_code": 1000}}, 422, "exit_code"),
        ({"json": {"stderr": "x", "patterns": "y"}}, 422, "patterns"),
        ({"json": {"stderr": "x", "agent_format": "cursor", "transcript": "{}"}}, 422, "claude"),
        ({"json": {"stderr": "e\n" * (tester.MAX_INPUT_LINES + 1)}}, 413, "at most 20,000"),
        ({"json": {"stderr": "x" * (MAX_TEST_BODY_BYTES + 1)}}, 413, "larger than 8 MiB"),
    ],
    ids=["not-json", "exit-code", "unknown-field", "format", "lines", "body"],
)
def test_the_route_refuses_bad_input_with_what_to_do(
    client: TestClient, send: dict[str, Any], status: int, wording: str
) -> None:
    headers = {**USER, **send.pop("headers", {})}

    answer = client.post("/api/patterns/test", headers=headers, **send)

    assert answer.status_code == status
    assert wording in json.dumps(answer.json()["detail"])


def test_the_route_serves_the_live_rules(client: TestClient, deployment: Path) -> None:
    answer = client.get("/api/patterns/rules", headers=USER)

    assert answer.status_code == 200
    assert answer.json()["text"] == LIVE_RULES


def test_the_page_builds_its_markup_without_innerhtml_or_inline_styles() -> None:
    script = (Path(tester.__file__).parent / "static" / "tester.js").read_text()

    assert "innerHTML" not in script and "style=" not in script and ".style" not in script
    assert 'Autofix.views.tester = { title: "Pattern tester", render }' in script
