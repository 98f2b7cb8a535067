"""What a person reads of an agent's output in the task log (issue 15): a transcript for every
format, stderr lines marked with the classifier's verdict and rule, the raw streams in files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from autofix.agents.registry import get_format
from autofix.agents.transcript import (
    ClaudeTranscript,
    CodexTranscript,
    GeminiTranscript,
    OpenAITranscript,
    Transcript,
    WrapperTranscript,
    transcript_for,
)
from autofix.audit.recorder import AuditRecorder
from autofix.audit.stores.memory import MemoryStore
from autofix.config import AutofixConfig
from autofix.patterns.loader import defaults
from autofix.task.agent_task import AgentTask, AgentTaskSpec, TraceContext
from autofix.task.livelog import LineMarks, RawStreams

CAPTURES = Path(__file__).parent / "fixtures" / "agent_captures"
JSON_LINE = re.compile(r"^[\[{]\"")  # an event as it came, not text quoting JSON


def render(transcript: Transcript, stdout: str) -> list[str]:
    lines: list[str] = []
    for line in stdout.splitlines():
        lines += transcript.feed(line)
    return lines + transcript.finish()


def capture(cli: str, name: str) -> str:
    return (CAPTURES / cli / name / "stdout").read_text()


@pytest.mark.parametrize(
    ("cli", "transcript", "call", "result"),
    [
        ("claude", ClaudeTranscript, "tool: Read /tmp/", "  ↳ 1\t# demo project"),
        ("codex", CodexTranscript, "tool: shell /bin/bash -lc 'cat README.md'", "  ↳ exit 0"),
        ("gemini", GeminiTranscript, "tool: read_file README.md", "  ↳ (no output)"),
    ],
)
def test_a_real_tool_run_reads_as_text_tool_call_and_result(
    cli: str, transcript: type[Transcript], call: str, result: str
) -> None:
    lines = render(transcript(), capture(cli, "tool_then_answer"))
    assert not [line for line in lines if JSON_LINE.match(line)], lines
    assert any(line.startswith(call) for line in lines), lines
    assert any(line.startswith(result) for line in lines), lines
    assert "assistant: The README describes a demo project." in lines
    # The answer comes after the tool's result, and the run's end comes last.
    assert lines.index("assistant: The README describes a demo project.") > max(
        i for i, line in enumerate(lines) if line.startswith("  ↳")
    )
    assert lines[-1].startswith("result: ")


@pytest.mark.parametrize("cli", ["claude", "codex", "gemini"])
def test_a_usage_limit_shows_the_error_once_and_the_end(cli: str) -> None:
    lines = render(_TRANSCRIPTS[cli](), capture(cli, "usage_limit"))
    text = "\n".join(lines)
    assert "limit" in text.lower() and "error" in text
    assert any(line.startswith("result: ") for line in lines)
    errors = [line for line in lines if line.startswith("error: ") and "limit" in line.lower()]
    assert len(errors) == len(set(errors)), "the same error message repeated"


_TRANSCRIPTS: dict[str, type[Transcript]] = {
    "claude": ClaudeTranscript,
    "codex": CodexTranscript,
    "gemini": GeminiTranscript,
}


def test_every_capture_renders_without_raw_json() -> None:
    for folder in sorted(CAPTURES.glob("*/*")):
        if not (folder / "stdout").is_file():
            continue
        lines = render(_TRANSCRIPTS[folder.parent.name](), (folder / "stdout").read_text())
        raw = [line for line in lines if JSON_LINE.match(line)]
        assert not raw, f"{folder}: {raw[:1]}"


def test_claude_json_document_shows_the_answer_and_the_spend() -> None:
    lines = render(ClaudeTranscript(), capture("claude", "json_format_success"))
    assert lines[0] == "assistant: pong"
    assert re.match(r"result: success · 1 turn\(s\) · [\d.]+ s · \$0\.0037 · tokens in", lines[1])


def test_gemini_deltas_become_one_assistant_line() -> None:
    lines = render(GeminiTranscript(), capture("gemini", "tool_then_answer"))
    assert [line for line in lines if line.startswith("assistant:")] == [
        "assistant: The README describes a demo project."
    ]


def test_wrapper_events_read_like_claude() -> None:
    stream = [
        {"event": "ready", "state": "idle"},
        {"event": "run_started", "run_id": "r1"},
        {
            "event": "stream",
            "payload": {
                "message_type": "SystemMessage",
                "subtype": "init",
                "data": {"session_id": "s-1", "model": "claude-x", "cwd": "/repo"},
            },
        },
        {
            "event": "stream",
            "payload": {
                "message_type": "AssistantMessage",
                "content": [{"id": "t1", "name": "Bash", "input": {"command": "pytest -q"}}],
            },
        },
        {
            "event": "stream",
            "payload": {
                "message_type": "UserMessage",
                "content": [{"tool_use_id": "t1", "content": "3 failed", "is_error": True}],
            },
        },
        {
            "event": "stream",
            "payload": {"message_type": "AssistantMessage", "content": [{"text": "Tests fail."}]},
        },
        {"event": "limit_notice", "message": "Claude AI usage limit reached"},
        {
            "event": "stream",
            "payload": {
                "message_type": "ResultMessage",
                "subtype": "success",
                "is_error": True,
                "result": "Claude AI usage limit reached",
                "num_turns": 1,
                "total_cost_usd": 0,
            },
        },
        {"event": "run_completed", "reason": "limit_reached"},
    ]
    lines = render(WrapperTranscript(), "\n".join(json.dumps(event) for event in stream))
    assert lines == [
        "run: started",
        "session: s-1 · model claude-x · in /repo",
        "tool: Bash pytest -q",
        "  ↳ error: 3 failed",
        "assistant: Tests fail.",
        "error: limit notice: Claude AI usage limit reached",
        "result: error · 1 turn(s) · $0.0000",
        "error: Claude AI usage limit reached",
        "run: completed (limit_reached)",
    ]


def test_openai_client_events() -> None:
    stream = [
        {"event": "request", "url": "http://127.0.0.1:8012/v1/chat/completions", "try": 1},
        {"event": "retry", "kind": "rate_limit", "wait_s": 2.0, "reason": "HTTP 429 from …"},
        {"event": "request", "url": "http://127.0.0.1:8012/v1/chat/completions", "try": 2},
        {
            "event": "response",
            "text": '{"a": 1}\nsecond line',
            "finish_reason": "stop",
            "usage": {"prompt_tokens": 12, "completion_tokens": 5},
            "model": "gemma",
            "latency_ms": 840.0,
        },
    ]
    lines = render(OpenAITranscript(), "\n".join(json.dumps(event) for event in stream))
    assert lines == [
        "request: POST http://127.0.0.1:8012/v1/chat/completions (HTTP request 1)",
        "retry in 2 s: HTTP 429 from …",
        "request: POST http://127.0.0.1:8012/v1/chat/completions (HTTP request 2)",
        'assistant: {"a": 1}',
        "           second line",
        "result: stop · gemma · tokens in 12 out 5 · 0.8 s",
    ]


def test_a_line_that_is_not_an_event_is_shown_as_it_came() -> None:
    lines = render(
        ClaudeTranscript(), 'Warning: something odd\n{"type":"result","subtype":"success"}'
    )
    assert lines == ["Warning: something odd", "result: success"]


def test_the_renderer_follows_the_parser_so_sim_reads_as_the_cli_it_imitates() -> None:
    from autofix.agents.base import AgentRequest

    sim = get_format("sim")
    sim.command(AgentRequest(prompt="p", options={"scenario": "noise_success", "format": "codex"}))
    assert type(transcript_for(sim)) is CodexTranscript
    assert type(transcript_for(get_format("claude"))) is ClaudeTranscript
    assert type(transcript_for(get_format("plain"))) is Transcript


def test_line_marks_carry_the_verdict_and_the_rule() -> None:
    marks = LineMarks(defaults(), "", "stderr", neutral="[stderr] ")
    shown = [
        marks.mark(line)[0]
        for line in (
            "(node:123) [DEP0040] DeprecationWarning: The `punycode` module is deprecated.",
            "(Use `node --trace-deprecation ...` to show where the warning was created)",
            "just a line",
            "Traceback (most recent call last):",
            '  File "x.py", line 1, in <module>',
            "ValueError: boom",
        )
    ]
    assert shown[0].startswith("[noise: node-warning] (node:123)")
    assert shown[1].startswith("[noise: node-warning] (Use `node")
    assert shown[2] == "[stderr] just a line"
    rule = re.match(r"\[error: ([\w-]+)\] Traceback", shown[3])
    assert rule, shown[3]
    assert shown[5] == f"[error: {rule.group(1)}] ValueError: boom"


def test_raw_streams_are_redacted_and_bounded(tmp_path: Path) -> None:
    raw = RawStreams(tmp_path / "raw", "attempt1", max_bytes=60)
    raw.write("stdout", "token sk-ant-api03-" + "a" * 40)
    for n in range(10):
        raw.write("stderr", f"line {n}")
    raw.close()
    stdout = (tmp_path / "raw" / "attempt1.stdout").read_text()
    assert "sk-ant-api03-aaaa" not in stdout
    stderr = (tmp_path / "raw" / "attempt1.stderr").read_text().splitlines()
    assert stderr[0] == "line 0" and stderr[-1] == "[autofix] cut at 60 bytes"
    assert len("\n".join(stderr)) < 100


@pytest.mark.parametrize(
    "fmt", ["claude", "claude-json", "codex", "gemini", "gemini-stream", "wrapper"]
)
def test_the_task_log_shows_a_transcript_and_marked_noise_for_every_sim_format(
    tmp_path: Path, fmt: str
) -> None:
    lines: list[str] = []
    task = AgentTask(
        AgentTaskSpec(
            agent="sim",
            prompt="run the tests",
            operation="check",
            agent_options={
                "scenario": "noise_success",
                "format": fmt,
                "state_dir": str(tmp_path / "state"),
            },
        ),
        config=AutofixConfig(),
        trace=TraceContext(trace_id="run-1"),
        recorder=AuditRecorder(MemoryStore()),
        log_line=lines.append,
        raw_dir=tmp_path / "raw",
    )
    result = task.run()
    assert result.success
    log = "\n".join(lines).splitlines()
    assert "::group::prompt: check call 1" in log and "run the tests" in log
    assert not [line for line in log if JSON_LINE.match(line)], "raw JSON in the task log"
    assert "assistant: All 5 tests pass. No changes were needed." in log
    if fmt not in ("claude-json", "gemini"):  # these two formats carry no tool calls
        call = r'tool: (Bash python -m pytest -q|shell bash -lc "python -m pytest -q")'
        assert any(re.match(call, line) for line in log), log
        assert any(line.startswith("  ") and "5 passed in 0.12s" in line for line in log), log
    noise = [line for line in log if line.startswith("[noise: ")]
    if fmt == "gemini":  # a pretty document on stdout; its noise is on stderr all the same
        assert noise
    assert len(noise) == result.noise_lines, (noise, result.noise_lines)
    raw = [line for line in log if line.startswith("[autofix] raw output: ")]
    assert raw and str(tmp_path / "raw" / "attempt1.stdout") in raw[0]
    assert '"' in (tmp_path / "raw" / "attempt1.stdout").read_text()  # the events as they came


def test_plain_stdout_is_marked_not_transcribed(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text(
        "echo 'collected 3 items'\necho 'npm warn deprecated x@1'\necho '1 failed, 2 passed'\n"
    )
    lines: list[str] = []
    task = AgentTask(
        AgentTaskSpec(agent="plain", prompt="", command=["bash", str(script)]),
        config=AutofixConfig(),
        trace=TraceContext(trace_id="run-1"),
        log_line=lines.append,
    )
    task.run()
    log = "\n".join(lines).splitlines()
    assert "collected 3 items" in log
    assert "[noise: npm-warn] npm warn deprecated x@1" in log
    assert any(re.match(r"\[error: [\w-]+\] 1 failed, 2 passed", line) for line in log), log
