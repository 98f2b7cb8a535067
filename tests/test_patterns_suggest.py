"""`autofix patterns suggest`: noise rules learned from green runs in a real JSONL audit store."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import autofix
from autofix.audit.envelope import Envelope, interaction_from_parse_result
from autofix.audit.stores.jsonl import JsonlStore
from autofix.cli import main
from autofix.patterns.loader import load_file, validate_text
from autofix.patterns.suggest import normalise, to_rule_pattern

GREEN_STDERR = [
    "Using cache dir /var/cache/tool/{n}\nsync took {n} ms for 3f9a2c{n}e1\nlegacy config key 'x' ignored\n",
    "Using cache dir /var/cache/tool/{n}\nsync took {n} ms for 77b0c1{n}aa\n",
]
RED_STDERR = (
    "Using cache dir /var/cache/tool/9\nlegacy config key 'x' ignored\nError: upload failed\n"
)


def record(stderr: str, exit_code: int, stdout: str = "") -> object:
    result = autofix.classify_output(exit_code, stderr, stdout, operation="sync")
    envelope = Envelope(trace_id="t", operation="sync", agent_type="wrapper", instructions="go")
    return interaction_from_parse_result(envelope, result)


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "audit.jsonl"
    jsonl = JsonlStore(path)
    for n in range(3):
        for template in GREEN_STDERR:
            jsonl.append(record(template.format(n=n + 1), 0))  # type: ignore[arg-type]
    jsonl.append(record(RED_STDERR, 1))  # type: ignore[arg-type]
    return path


def test_the_audit_keeps_non_noise_stderr_lines(store: Path) -> None:
    records = list(JsonlStore(store).iter_all())
    assert records[0].result.stderr_sample[-1] == "legacy config key 'x' ignored"
    assert all(len(line) <= 300 for r in records for line in r.result.stderr_sample)


def test_normalise_and_rule_shapes() -> None:
    assert normalise("sync took 12 ms for 3f9a2c7e1 in /a/b.txt") == (
        "sync took <n> ms for <hash> in <path>"
    )
    assert to_rule_pattern("plain words here") == ("substring", "plain words here")
    kind, pattern = to_rule_pattern("took <n> ms (<path>)")
    assert kind == "regex" and pattern.startswith("^took ") and pattern.endswith("$")


def test_suggest_proposes_lines_of_green_runs_only(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [
                "patterns",
                "suggest",
                "--store",
                str(store),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "from 6 green and 1 failed run(s)" in out
    rules = yaml.safe_load(out)
    by_pattern = {rule["pattern"]: rule for rule in rules}
    assert any(p.startswith("^sync took ") for p in by_pattern), (
        out
    )  # numbers and hashes normalised
    # seen in the failed run too: never proposed
    assert not any("legacy config" in p or "cache dir" in p for p in by_pattern)
    assert "# 6 green runs (sync); e.g.: sync took" in out
    parsed, problems = validate_text(yaml.safe_dump({"rules": rules}))
    assert parsed is not None and not problems
    learned = autofix.classify_output(0, "sync took 815 ms for abc1234def\n", patterns=None)
    assert learned.noise_lines == 0  # not yet: the rules are only proposed


def test_suggest_write_appends_after_a_backup(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shipped = Path(__file__).resolve().parent.parent / "config" / "error_patterns.yaml"
    target = tmp_path / "error_patterns.yaml"
    target.write_text(shipped.read_text())
    assert main(["patterns", "suggest", "--store", str(store), "--write", str(target)]) == 0
    out = capsys.readouterr().out
    assert "rule(s) appended to" in out
    backups = list(tmp_path.glob("error_patterns.yaml.*.bak"))
    assert len(backups) == 1 and backups[0].read_text() == shipped.read_text()
    text = target.read_text()
    assert text.startswith(shipped.read_text().split("rules: []")[0])  # comments kept
    rules = load_file(target)
    assert (
        autofix.classify_output(0, "sync took 815 ms for abc1234def\n", patterns=target).noise_lines
        == 1
    )
    assert any(c.id.startswith("learned-") for c in rules.compiled if not c.trusted)
    # a second run adds nothing new and writes no second backup
    assert main(["patterns", "suggest", "--store", str(store), "--write", str(target)]) == 0
    assert "0 rule(s) appended" in capsys.readouterr().out
    assert len(list(tmp_path.glob("error_patterns.yaml.*.bak"))) == 1
