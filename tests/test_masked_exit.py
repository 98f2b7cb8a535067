"""A command line that hides its work's exit status, and the findings that then decide (issue 29).

The command lines follow the bash manual (lists, pipelines, ``pipefail``) and the exit-code
options the tools document; the finding lines follow the output formats documented by hadolint,
golangci-lint, yamllint, shellcheck (``-f gcc``), ESLint's unix formatter, cppcheck's gcc
template, ansible-lint's pep8 format, mypy, GNU diff, jq, Python's json module and HTML Tidy.
None is taken from the corpus.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import autofix
from autofix.classify.masked_exit import MASKED_EXIT_RULE, findings, masked_exit
from autofix.cli import main

MASKED = [
    # bash: `a || b` runs b when a fails; the list's status is b's.
    "hadolint Dockerfile || true",
    "golangci-lint run ./... || echo 'lint found issues'",
    "yamllint -f parsable . || :",
    "shellcheck -f gcc deploy.sh || exit 0",
    # bash: a list's status is its last command's.
    "ansible-lint -p site.yml; echo 'lint stage done'",
    "cppcheck --template=gcc src\necho finished",
    # bash: without pipefail a pipeline's status is its last command's.
    "eslint -f unix src 2>&1 | tee eslint.log",
    "mypy app | tail -n 20",
    "golangci-lint run | grep -v vendor",
    # bash: a loop's status is its last iteration's.
    'for f in *.sh; do shellcheck -f gcc "$f"; done',
    # the tools' own options for exiting 0 whatever they find
    "flake8 --exit-zero src",
    "pylint --exit-zero pkg",
    "bandit -r src --exit-zero",
    "hadolint --no-fail Dockerfile",
    "checkov -d . --soft-fail",
    "newman run api.json --suppress-exit-code",
    "trivy fs --exit-code 0 .",
    "gitleaks detect --exit-code=0",
    "lintian --fail-on none pkg.deb",
    "cfn-lint --non-zero-exit-code=none stack.yaml",
    "make -i all",
    "mvn -Dmaven.test.failure.ignore=true test",
    ["bash", "-c", "ruff check . || true"],
    ["sh", "-c", "yamllint . | tee lint.txt"],
    ["flake8", "--exit-zero", "."],
]

NOT_MASKED = [
    "hadolint Dockerfile",
    "golangci-lint run && echo 'lint passed'",  # && runs echo only after a success
    "set -o pipefail; eslint -f unix src | tee eslint.log",
    "cat files.txt | xargs shellcheck",  # the work is the last stage
    "echo '{}' | jq .",  # the first stage is no work
    "cd src; mypy .",  # the list ends with the work
    "trivy fs --exit-code 1 .",
    "ty check --exit-zero-on-warning app.py",  # errors still fail
    "lintian --fail-on error pkg.deb",
    "mypy app || exit",  # a bare exit keeps the failing status
    "tool 'unclosed",  # cannot be told
    ["golangci-lint", "run"],
    ["bash", "-c", "pytest -q"],
    "",
    None,
]


@pytest.mark.parametrize("command", MASKED, ids=str)
def test_a_hidden_exit_status_is_seen(command: str | list[str]) -> None:
    reason = masked_exit(command)
    assert reason and "`" in reason


@pytest.mark.parametrize("command", NOT_MASKED, ids=str)
def test_an_exit_status_that_reaches_the_run_is_not_masked(command: str | list[str] | None) -> None:
    assert masked_exit(command) is None


FINDINGS = [
    "Dockerfile.prod:4 DL3007 error: Using latest is prone to errors",  # hadolint
    "main.go:12:2: ineffectual assignment to err (ineffassign)",  # golangci-lint
    'config/app.yaml:3:1: [error] duplication of key "port" in mapping (key-duplicates)',  # yamllint
    "deploy.sh:7:1: error: Couldn't parse this test expression. [SC1073]",  # shellcheck -f gcc
    "/src/app.js:1:10: 'foo' is defined but never used. [Error/no-unused-vars]",  # eslint unix
    "src/buf.c:5:3: error: Array 'a[10]' accessed at index 10 [arrayIndexOutOfBounds]",  # cppcheck
    "site.yml:4: yaml[truthy]: Truthy value should be one of [false, true]",  # ansible-lint pep8
    'app.py:3: error: Name "x" is not defined  [name-defined]',  # mypy
    "DL3007 Using latest is prone to errors",  # a coded finding without its location
    "requests.exceptions.ConnectionError: HTTPConnectionPool(host='api', port=80)",
    "java.lang.IllegalStateException: pool closed",
    "@@ -1,3 +1,4 @@",  # GNU diff -u: a check that shows what it would change
    "parse error: Expected separator between values at line 1, column 10",  # jq
    "Expecting value: line 1 column 1 (char 0)",  # Python's json module
    "line 4 column 3 - Error: <blink> is not recognized!",  # HTML Tidy
]

NOT_FINDINGS = [
    "Dockerfile:2 DL3008 warning: Pin versions in apt get install.",  # hadolint, below error
    "config/app.yaml:1:1: [warning] missing document start (document-start)",  # yamllint
    "deploy.sh:3:6: warning: Double quote to prevent globbing [SC2086]",  # shellcheck
    "/src/app.js:2:1: Missing semicolon. [Warning/semi]",  # eslint unix
    "app.py:3: note: Revealed type is 'builtins.int'",  # mypy
    "src/buf.c:9:1: style: The scope of 'i' can be reduced. [variableScope]",  # cppcheck
    "setup.py:12: DeprecationWarning: pkg_resources is deprecated",
    "Processed 500 records in 2.1s",
    "main.tf:3:1",  # a location alone
    "Listening on 127.0.0.1:8080",
    "All checks passed!",
    "Error: see above",  # not this module's to decide: the rules' (error-line-start)
    "line 1 column 1 - Warning: missing <!DOCTYPE> declaration",  # HTML Tidy
    "Read 12 lines",
]


@pytest.mark.parametrize("line", FINDINGS)
def test_a_finding_at_error_or_untagged_severity_is_found(line: str) -> None:
    assert findings([line]) == [line]


@pytest.mark.parametrize("line", NOT_FINDINGS)
def test_warnings_notes_and_data_are_not_findings(line: str) -> None:
    assert findings([line]) == []


def test_colour_and_long_lines_are_read_bounded() -> None:
    coloured = "\x1b[1mmain.go:12:2:\x1b[0m ineffectual assignment to err"
    assert findings([coloured]) == ["main.go:12:2: ineffectual assignment to err"]
    assert findings(["a" * 200_000]) == []
    assert findings(["x.go:1:1: " + "a" * 200_000])[0].startswith("x.go:1:1: aaa")


def test_a_finding_under_a_masked_exit_decides_failure() -> None:
    # ansible-lint's pep8 format: a finding no pattern rule decides on its own.
    out = b"site.yml:4: yaml[truthy]: Truthy value should be one of [false, true]\ndone\n"
    told = autofix.classify_output(0, b"", out, command="ansible-lint -p site.yml; echo done")
    assert not told.success
    assert told.evidence[0].rule_id == MASKED_EXIT_RULE
    assert told.evidence[0].role == "finding under a masked exit status"
    assert "`; echo`" in (told.error_message or "")
    # The same output without the command line, or with one that keeps the status: exit 0
    # is the tool's own verdict.
    assert autofix.classify_output(0, b"", out).success
    assert autofix.classify_output(0, b"", out, command="ansible-lint -p site.yml").success


def test_warnings_under_a_masked_exit_stay_harmless() -> None:
    out = b"deploy.sh:3:6: warning: Double quote to prevent globbing [SC2086]\n"
    assert autofix.classify_output(0, b"", out, command="shellcheck -f gcc x.sh || true").success


def test_a_non_zero_exit_is_judged_as_before() -> None:
    out = b"main.go:12:2: ineffectual assignment to err (ineffassign)\n"
    masked = autofix.classify_output(1, b"", out, command="golangci-lint run | tee log")
    plain = autofix.classify_output(1, b"", out)
    assert not masked.success and masked.error_message == plain.error_message


LINT_LOG = "site.yml:4: yaml[truthy]: Truthy value should be one of [false, true]\nlint done\n"


def test_explain_shows_the_masked_exit_and_the_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "lint.log"
    log.write_text(LINT_LOG)
    masked = "ansible-lint -p site.yml; echo 'lint done'"
    assert main(["patterns", "explain", "defaults", str(log), "--command", masked]) == 0
    out = capsys.readouterr().out
    assert "-- at exit 0 this output says: failure" in out
    assert "-- the command line: the command ends with `; echo`" in out
    assert f"finding under a masked exit status [{MASKED_EXIT_RULE}] stderr: site.yml:4:" in out
    assert main(["patterns", "explain", "defaults", str(log), "--command", "ansible-lint"]) == 0
    out = capsys.readouterr().out
    assert "says: success" in out and "its exit status is its work's" in out


def test_classify_cli_takes_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "out.log"
    log.write_text(LINT_LOG)
    args = ["classify", "--exit-code", "0", "--stdout", str(log), "--json"]
    assert main([*args, "--command", "ansible-lint -p site.yml | tee lint.txt"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["evidence"][0]["rule_id"] == MASKED_EXIT_RULE
    assert main(args) == 0


def test_a_finding_that_holds_a_secret_is_redacted() -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    out = f"site.yml:4: yaml[truthy]: password=hunter2secret {token}\n".encode()
    told = autofix.classify_output(0, b"", out, command="ansible-lint -p site.yml || true")
    assert not told.success
    shown = told.model_dump_json()
    assert "hunter2secret" not in shown and token not in shown
    assert "[REDACTED]" in told.evidence[0].text and "[REDACTED]" in (told.error_message or "")
