"""``autofix classify``: exit codes, formats, stdin, streaming, bad patterns."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from autofix.cli import main
from autofix.result import ParseResult


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_success_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stderr = write(tmp_path / "e.log", "npm warn deprecated x@1: old\n")
    assert main(["classify", "--exit-code", "0", "--stderr", stderr, "--operation", "fix"]) == 0
    result = ParseResult.model_validate_json(capsys.readouterr().out)
    assert result.success and result.operation == "fix" and result.noise_lines == 1


def test_failure_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stderr = write(tmp_path / "e.log", "fatal: not a git repository\n")
    assert main(["classify", "--exit-code", "0", "--stderr", stderr, "--format", "text"]) == 1
    out = capsys.readouterr().out
    assert "verdict: failure" in out and "fatal: not a git repository" in out


def test_stdout_summary_and_run_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stdout = write(tmp_path / "o.log", "1 failed, 3 passed in 0.2s\n")
    assert main(["classify", "--exit-code", "0", "--stdout", stdout]) == 1
    assert main(["classify", "--exit-code", "0", "--run-status", "cancelled"]) == 1
    keys = json.loads(capsys.readouterr().out.split("\n}\n")[0] + "\n}")
    assert {
        "success",
        "status",
        "errors",
        "error_message",
        "matched_rules",
        "patterns_source",
    } <= set(keys)


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"Cloning into 'x'...\n")))
    assert main(["classify", "--exit-code", "0", "--stderr", "-"]) == 0


def test_usage_and_config_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["classify"])
    assert exc.value.code == 2
    assert main(["classify", "--exit-code", "0", "--stderr", str(tmp_path / "missing.log")]) == 2
    evil = write(
        tmp_path / "p.yaml",
        "rules:\n  - {id: evil, kind: error, type: regex, pattern: '(a+)+$', reason: r}\n",
    )
    assert main(["classify", "--exit-code", "0", "--patterns", evil]) == 2
    assert "nested quantifier" in capsys.readouterr().err


def test_custom_patterns_change_verdict(tmp_path: Path) -> None:
    stderr = write(tmp_path / "e.log", "Error: flaky upstream, ignored\n")
    assert main(["classify", "--exit-code", "0", "--stderr", stderr]) == 1
    rules = write(
        tmp_path / "p.yaml",
        "rules:\n  - {id: flaky, kind: noise, type: substring, pattern: 'flaky upstream', reason: known}\n",
    )
    assert main(["classify", "--exit-code", "0", "--stderr", stderr, "--patterns", rules]) == 0


def test_console_script_streams_a_large_file(tmp_path: Path) -> None:
    big = tmp_path / "big.log"
    with big.open("wb") as handle:
        for _ in range(40):
            handle.write(b"   Compiling crate v1.0.0\nplain progress line\n" * 10_000)
        handle.write(b"Error: last line\n")
    proc = subprocess.run(
        [sys.executable, "-m", "autofix.cli", "classify", "--exit-code", "0", "--stderr", str(big)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    result = json.loads(proc.stdout)
    assert result["noise_lines"] == 400_000 and result["error_lines"] == 1


def test_a_reader_that_leaves_stops_the_cli_quietly(tmp_path: Path) -> None:
    """`autofix patterns explain ... | head -1`: the pipe closes early; no traceback, exit 141."""
    log = tmp_path / "many.log"
    log.write_text("plain line\n" * 20_000)
    command = [sys.executable, "-m", "autofix.cli", "patterns", "explain", "defaults", str(log)]
    writer = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert writer.stdout is not None and writer.stderr is not None
    first = writer.stdout.readline()
    writer.stdout.close()  # the reader leaves after one line
    errors = writer.stderr.read()
    assert writer.wait(timeout=120) == 141
    assert b"plain line" in first and errors == b""


# -- saved agent runs (--agent): judged exactly as the operator judges a live run --------------


def _capture(key: str) -> tuple[str, str, int | None]:
    from conftest import CAPTURES_DIR

    path = CAPTURES_DIR / key
    meta = json.loads((path / "meta.json").read_text())
    return str(path / "stdout"), str(path / "stderr"), meta["exit_code"]


def test_agent_success_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    stdout, stderr, code = _capture("claude/success_text")
    argv = ["classify", "--agent", "claude", "--stdout", stdout, "--stderr", stderr]
    assert main([*argv, "--exit-code", str(code)]) == 0
    out = capsys.readouterr().out
    assert "verdict: success" in out and "kind: -" in out and "pong" in out
    assert "session id: " in out and "session id: -" not in out


def test_agent_failure_json_matches_the_judge(capsys: pytest.CaptureFixture[str]) -> None:
    from agents.evaluate import judge_capture
    from conftest import CAPTURES_DIR

    stdout, stderr, code = _capture("gemini/rate_limit_persisting")
    argv = ["classify", "--agent", "gemini", "--stdout", stdout, "--stderr", stderr, "--json"]
    assert main([*argv, "--exit-code", str(code), "--operation", "rate_limit_persisting"]) == 1
    printed = json.loads(capsys.readouterr().out)
    expected = judge_capture(CAPTURES_DIR / "gemini" / "rate_limit_persisting")
    assert printed["failure_kind"] == "rate_limit" == expected.failure_kind
    assert printed["retry_class"] == "transient" and printed["retry_after_s"] == 2.1
    assert printed["error_message"] == expected.error_message


def test_agent_signal_and_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stdout, _, _ = _capture("claude/killed")
    argv = ["classify", "--agent", "claude", "--stdout", stdout, "--exit-code", "0"]
    assert main([*argv, "--signal", "SIGKILL"]) == 1
    assert "kind: killed" in capsys.readouterr().out
    assert main(["classify", "--agent", "claude", "--exit-code", "0"]) == 2  # no --stdout
    missing = str(tmp_path / "missing")
    assert main(["classify", "--agent", "codex", "--stdout", missing, "--exit-code", "0"]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["classify", "--agent", "nope", "--stdout", stdout, "--exit-code", "0"])
    assert exc.value.code == 2
