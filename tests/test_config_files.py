"""Bad config files get a message with the file and the line; last good survives new processes."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from autofix import yamlfile
from autofix.config import load_config
from autofix.errors import ConfigError, ConfigFileError, PatternFileError
from autofix.parser import ResponseParser
from autofix.patterns.loader import (
    PatternStore,
    last_good_path,
    load_file,
    store_for,
    validate_text,
)

RULE = (
    "  - id: {id}\n    kind: {kind}\n    type: substring\n    pattern: {pattern}\n    reason: r\n"
)
# A user error rule: without it, the line "DEPLOY ABORTED" is neutral and the run a success.
USER_RULES = "mode: extend\nrules:\n" + RULE.format(
    id="deploy", kind="error", pattern="DEPLOY ABORTED"
)


def write(path: Path, content: str | bytes) -> Path:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def bump(path: Path, content: str) -> None:
    """Rewrite with a later mtime, so an edit within one clock tick is still seen."""
    stat = path.stat()
    write(path, content)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))


def problem(path: Path) -> str:
    with pytest.raises(PatternFileError) as caught:
        load_file(path)
    return str(caught.value)


def test_the_c_loader_parses_once() -> None:
    assert yamlfile.SafeLoader is yaml.CSafeLoader


def test_duplicate_rule_id_points_at_the_duplicate(tmp_path: Path) -> None:
    text = "rules:\n" + RULE.format(id="a", kind="noise", pattern="x")
    text += RULE.format(id="b", kind="noise", pattern="y") + RULE.format(
        id="a", kind="error", pattern="z"
    )
    message = problem(write(tmp_path / "p.yaml", text))
    assert message == (
        f"{tmp_path / 'p.yaml'}: line 12: rule 'a': duplicate rule id 'a' (first used on line 2)"
    )


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("rules:\n  - id: a\n    kind: noise\x00\n", "line 3: character #x0000 is not allowed"),
        (b"rules: []\n# caf\xe9\n", "line 2: not UTF-8: byte 0xe9 at column 6"),
        ("", "line 1: the file has no `rules:` list"),
        ("# only comments\n", "line 1: the file has no `rules:` list"),
        ("mode: extend\nmax_line_length: 4096\n", "line 1: the file has no `rules:` list"),
        ("rules:\n  - id: a\n    kind: [x\n", "line 4: invalid YAML"),
        ("rules: []\n" + "#" * (yamlfile.MAX_CONFIG_BYTES + 1), "larger than the 1024 KiB limit"),
    ],
)
def test_every_pattern_file_problem_names_the_file_and_the_line(
    tmp_path: Path, content: str | bytes, expected: str
) -> None:
    path = write(tmp_path / "p.yaml", content)
    assert problem(path).startswith(f"{path}: {expected}")


def test_a_directory_is_not_a_pattern_file(tmp_path: Path) -> None:
    assert problem(tmp_path).endswith("is a directory; expected the pattern file")


def test_an_explicitly_empty_rule_list_is_fine() -> None:
    parsed, problems = validate_text("rules: []\n")
    assert parsed is not None and problems == []


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"validation:\n  max_attempts: 3 # \xff\n", "line 2: not UTF-8: byte 0xff at column 21"),
        ("validation:\n  max_attempts: 3\x00\n", "line 2: character #x0000 is not allowed"),
        ("validation:\n  max_attempts: [3\n", "line 3: invalid YAML"),
        ("- a list\n", "line 1: the top level must be a mapping"),
        ("#" * (yamlfile.MAX_CONFIG_BYTES + 1), "larger than the 1024 KiB limit"),
    ],
)
def test_every_autofix_yaml_problem_names_the_file_and_the_line(
    tmp_path: Path, content: str | bytes, expected: str
) -> None:
    path = write(tmp_path / "autofix.yaml", content)
    with pytest.raises(ConfigFileError) as caught:
        load_config(path, environ={})
    assert str(caught.value).startswith(f"{path}: {expected}")


def test_autofix_yaml_schema_errors_name_the_line_or_the_variable(tmp_path: Path) -> None:
    path = write(
        tmp_path / "autofix.yaml", "audit:\n  store: jsonl\nvalidation:\n  max_attempts: 99\n"
    )
    with pytest.raises(
        ConfigError, match=r"line 4: validation\.max_attempts: Input should be less"
    ):
        load_config(path, environ={})
    with pytest.raises(ConfigError, match=r"AUTOFIX__AUDIT__STORE: audit\.store: Input should be"):
        load_config(path, environ={"AUTOFIX__AUDIT__STORE": "ftp"})
    with pytest.raises(ConfigError, match=r"AUTOFIX__VALIDATION__MAX_ATTEMPTS: invalid YAML"):
        load_config(path, environ={"AUTOFIX__VALIDATION__MAX_ATTEMPTS": "[3"})


def test_a_directory_is_not_an_autofix_yaml(tmp_path: Path) -> None:
    with pytest.raises(ConfigFileError, match="is a directory; expected the autofix config file"):
        load_config(tmp_path, environ={})


def test_half_written_file_on_hot_reload_keeps_the_users_rules(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = write(tmp_path / "p.yaml", USER_RULES)
    store = PatternStore(path)
    good = store.current()
    caplog.set_level(logging.WARNING, logger="autofix.patterns.loader")
    bump(path, "")  # an editor truncated the file before writing it again
    assert store.current() is good
    bump(path, "mode: extend\n")
    assert store.current() is good
    assert len([r for r in caplog.records if "ignoring the invalid" in r.getMessage()]) == 2


def test_parsers_built_per_call_share_one_store(tmp_path: Path) -> None:
    path = write(tmp_path / "p.yaml", USER_RULES)
    assert ResponseParser(path)._store is ResponseParser(str(path))._store is store_for(path)
    verdict = ResponseParser(path).parse(0, "DEPLOY ABORTED\n")
    assert not verdict.success and verdict.matched_rules == ["deploy"]


# A new process classifies "DEPLOY ABORTED" with the pattern file, twice, each time with a
# parser built for the call; it prints the verdicts, then its log on stderr.
CHILD = textwrap.dedent(
    """
    import logging, sys
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    from autofix import classify_output
    for _ in range(2):
        result = classify_output(0, "DEPLOY ABORTED\\n", patterns=sys.argv[1])
        print(result.success, result.patterns_source)
    """
)


def new_process(path: Path, state: Path) -> tuple[list[str], str]:
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, "AUTOFIX_STATE_DIR": str(state)},
    )
    return proc.stdout.splitlines(), proc.stderr


def test_last_good_survives_a_new_process(tmp_path: Path) -> None:
    path = write(tmp_path / "error_patterns.yaml", USER_RULES)
    state = tmp_path / "state"
    verdicts, log = new_process(path, state)
    assert verdicts == [f"False {path}"] * 2  # the user's error rule decides
    copy = last_good_path(path).relative_to(last_good_path(path).parents[1])
    assert (state / copy).read_text() == USER_RULES

    write(path, USER_RULES.replace("kind: error", "kind: eror"))  # a broken edit
    verdicts, log = new_process(path, state)
    assert [line.split()[0] for line in verdicts] == ["False", "False"]  # still a failure
    assert "last good copy" in verdicts[0] and str(state / copy) in verdicts[0]
    warnings = [line for line in log.splitlines() if line.startswith("WARNING")]
    assert len(warnings) == 1, log  # once per process
    assert str(path) in warnings[0] and "line 4: rule 'deploy'" in warnings[0]
    assert f"using the last good copy {state / copy}" in warnings[0]

    verdicts, log = new_process(path, tmp_path / "empty-state")  # no copy: said so
    assert verdicts[0].startswith("True defaults")
    assert "the built-in defaults (no last good copy in" in log


@pytest.mark.airflow
def test_config_errors_fail_the_task_without_retry_or_traceback_noise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    from airflow_support import run_dag

    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    bad = write(tmp_path / "autofix.yaml", b"validation:\n  max_attempts: 3 # \xff\n")
    outcome = run_dag(
        "bad_config",
        f"""
import pendulum
from datetime import timedelta
from airflow.sdk import DAG
from autofix.operators import AIWrapperOperator

with DAG("bad_config", schedule=None, start_date=pendulum.datetime(2025, 1, 1)) as dag:
    AIWrapperOperator(task_id="agent", agent="plain", prompt="p", command=["true"],
                      config_path={str(bad)!r}, retries=2, retry_delay=timedelta(seconds=0))
""",
    )
    log = capfd.readouterr()
    output = log.out + log.err
    assert outcome.task_states == {"agent": "failed"}
    assert outcome.try_numbers == {"agent": 1}  # a permanent failure: no retry
    # One ERROR line, the reason first, then the next step; no traceback.
    assert f"{bad}: line 2: not UTF-8: byte 0xff at column 21" in output
    assert "Next: fix the config file, then clear this task" in output
    assert "UnicodeDecodeError" not in output and "Traceback" not in output
