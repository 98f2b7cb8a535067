"""Every transcript in shared/agent-formats/ parsed by its format, checked against expected.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autofix.agents.base import AgentRequest
from autofix.agents.registry import get_format, parse_output
from autofix.redact import redact
from autofix.result import FailureKind, FinishReason, RunStatus

# The CLI-specific failure kind in expected.json → our FailureKind and finish reason.
NATIVE_KINDS: dict[str, tuple[FailureKind, FinishReason]] = {
    "error_max_turns": (FailureKind.MAX_TURNS, FinishReason.MAX_TURNS),
    "api_error(success subtype, is_error true)": (
        FailureKind.RATE_LIMIT,
        FinishReason.ERROR,
    ),  # 429
    "turn.failed": (FailureKind.AUTH, FinishReason.ERROR),  # 401 Unauthorized
    "Error": (FailureKind.AUTH, FinishReason.ERROR),  # gemini exit 41
    "FatalTurnLimitedError": (FailureKind.MAX_TURNS, FinishReason.MAX_TURNS),
    "sdk_error": (
        FailureKind.MAX_TURNS,
        FinishReason.MAX_TURNS,
    ),  # the ResultMessage said error_max_turns
}


def _entries() -> list[dict[str, Any]]:
    from conftest import AGENT_FORMATS_DIR

    path = AGENT_FORMATS_DIR / "expected.json"
    if not path.exists():
        return []
    entries: list[dict[str, Any]] = json.loads(path.read_text())["entries"]
    return entries


def _format_for(entry: dict[str, Any]) -> str:
    cli = str(entry["cli"])
    return "wrapper" if cli.startswith("air-executor") else cli


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: str(e["file"]))
def test_transcript_matches_oracle(entry: dict[str, Any], agent_formats_dir: Path) -> None:
    text = (agent_formats_dir / entry["file"]).read_text(encoding="utf-8")
    exit_code = entry["expected_exit_code"]
    if entry["stream"] == "stderr":
        outcome = parse_output(_format_for(entry), "", exit_code, stderr=text)
    else:
        outcome = parse_output(_format_for(entry), text, exit_code)

    assert outcome.session_id == entry["session_id"]
    assert outcome.final_text == entry["final_text"]
    assert outcome.structured_output == entry.get("structured_output")
    assert outcome.non_json_lines == 0
    if entry["outcome"] == "success":
        assert outcome.run_status is RunStatus.COMPLETED
        assert outcome.failure_kind is None
        assert outcome.finish_reason is FinishReason.STOP
        assert outcome.errors == []
    else:
        assert outcome.run_status in (RunStatus.FAILED, RunStatus.LIMIT_REACHED)
        kind, finish = NATIVE_KINDS[entry["failure_kind"]]
        assert outcome.failure_kind is kind
        assert outcome.finish_reason is finish
        assert outcome.errors, "a failure always says why"
    if "total_cost_usd" in entry:
        assert outcome.cost_usd == pytest.approx(entry["total_cost_usd"])
    if "num_turns" in entry:
        assert outcome.num_turns == entry["num_turns"]
    for expected in entry.get("errors") or []:
        assert redact(expected) in outcome.errors
    if entry.get("error_message"):
        assert redact(entry["error_message"]) in outcome.errors
    if entry.get("usage"):
        usage = entry["usage"]
        assert outcome.usage.input_tokens == usage["input_tokens"]
        assert outcome.usage.cached_input_tokens == usage["cached_input_tokens"]
        assert outcome.usage.output_tokens == usage["output_tokens"]
    if entry.get("stats_total_tokens"):
        assert outcome.usage.total == entry["stats_total_tokens"]


def test_every_transcript_is_in_the_oracle(agent_formats_dir: Path) -> None:
    listed = {entry["file"] for entry in _entries()}
    on_disk = {p.name for p in agent_formats_dir.iterdir() if p.suffix in (".json", ".jsonl")}
    assert on_disk - {"expected.json", "air-executor-wrapper-stdin.jsonl"} <= listed


def test_wrapper_stdin_command_matches_the_sample(agent_formats_dir: Path) -> None:
    sample = json.loads((agent_formats_dir / "air-executor-wrapper-stdin.jsonl").read_text())
    request = AgentRequest(
        prompt=sample["prompt"],
        options={
            "wrapper_options": {
                "cwd": "/srv/example-project",
                "permission_mode": "bypassPermissions",
            }
        },
    )
    invocation = get_format("wrapper").command(request, ["python", "scripts/claude_wrapper.py"])
    assert invocation.stdin is not None and invocation.stdin.endswith("\n")
    assert json.loads(invocation.stdin) == sample


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: str(e["file"]))
def test_transcript_fed_line_by_line_equals_whole(
    entry: dict[str, Any], agent_formats_dir: Path
) -> None:
    """The streaming parser (one feed per line, as the runner delivers) gives the same outcome."""
    if entry["stream"] != "stdout":
        pytest.skip("stderr-only transcript")
    text = (agent_formats_dir / entry["file"]).read_text(encoding="utf-8")
    parser = get_format(_format_for(entry)).parser()
    for line in text.split("\n"):
        parser.feed(line)
    streamed = parser.finish(entry["expected_exit_code"], "")
    whole = parse_output(_format_for(entry), text, entry["expected_exit_code"])
    assert streamed.model_dump() == whole.model_dump()


def test_gemini_json_success_usage_sums_models(agent_formats_dir: Path) -> None:
    text = (agent_formats_dir / "gemini-json-success.json").read_text()
    outcome = parse_output("gemini", text, 0)
    # prompt tokens 3512 + 24939, cached 0 + 21263, candidates 41 + 96; totals equal Gemini's own.
    assert outcome.usage.input_tokens == 3512 + 24939
    assert outcome.usage.cached_input_tokens == 21263
    assert outcome.usage.output_tokens == 41 + 96
    assert outcome.usage.total == 3740 + 25447
    assert outcome.model == "gemini-2.5-pro"


def test_claude_fenced_transcript_ignores_rate_limit_event(agent_formats_dir: Path) -> None:
    text = (agent_formats_dir / "claude-stream-json-success-fenced-json.jsonl").read_text()
    outcome = parse_output("claude", text, 0)
    assert outcome.run_status is RunStatus.COMPLETED
    assert outcome.events == 6
    assert outcome.model == "claude-sonnet-4-5-20250929"
