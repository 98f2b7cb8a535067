"""The real CLIs' captures (tests/fixtures/agent_captures), judged exactly as the operator would.

- No failed run whose output shows the failure is ever judged a success, and no success is
  judged a failure, on every capture (tuning, held-out and fresh). Runs whose outcome the
  output cannot show (``truth.shown`` false, and Gemini's MAX_TOKENS / SAFETY after partial
  text) are counted apart; validation with a schema catches the Gemini ones.
- On the tuning set, kind and retry class match the truth except the listed, explained misses,
  and every notice the CLI reported is in the verdict.
- The held-out and fresh sets are only scored (docs/agent-capture-notes.md), never asserted per
  capture: they are not something to tune on. The fresh set is frozen: its runs are the ones
  FRESH.txt recorded before the verdict changed.
- The hand-written transcripts kept in tests/fixtures/transcripts (README there says why).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from agents.capture import capture_digest
from agents.evaluate import (
    Judged,
    capture_dirs,
    fresh_digests,
    heldout_keys,
    judge_all,
    judge_capture,
    score,
)
from conftest import CAPTURES_DIR, TRANSCRIPTS_DIR

from autofix.agents.base import AgentRequest
from autofix.agents.registry import get_format, parse_output
from autofix.result import FailureKind, FinishReason, RetryClass, RunStatus

# Tuning captures whose kind (not whether they failed) the output cannot show.
KNOWN_MISSES = {
    "codex/cancelled": "SIGINT: codex exits 1 with no event at all; reported unknown "
    "(an ordinary exception, as for cancelled)",
    "codex/refusal_empty": "codex drops a refusal content part: an empty answer is all it shows",
    "codex/billing_hard_limit": "a 429 billing_hard_limit_reached prints exactly the rate-limit "
    "message: a rate limit is what it shows",
    "gemini/context_overflow_local": "the CLI's own overflow check ends the turn silently: an "
    "empty answer is all it shows",
    "gemini/hook_stops_agent": "a BeforeAgent hook's stop prints nothing in stream-json: an "
    "empty answer is all it shows",
    "gemini/text_loop_detected": "text mode prints nothing about the loop: an empty answer",
    # The first fresh batch, scored once, then tuning:
    "codex/cancelled_during_command__f1": "SIGINT: codex exits 1 with no event (as cancelled)",
    "codex/error_event_mid_stream__f1": "a server's error event mid-stream reaches the output "
    "only as a stream that closed early: connection (transient, as server_error)",
    "gemini/cancelled_499__f1": "a 499 from the API reads as a cancelled request (transient, as "
    "the server_error the coverage table files it under)",
    "gemini/settings_theme_number_crash__f1": "a settings value of the wrong type crashes the "
    "CLI with a TypeError after its own warning: nothing says it is the settings",
    "gemini/text_local_overflow__f1": "the CLI's own overflow check ends the turn silently: an "
    "empty answer is all it shows",
    # The second fresh batch, scored once, then tuning:
    "gemini/before_model_hook_budget_stop__f2": "a BeforeModel hook's stop leaves no event: an "
    "empty answer is all it shows",
    # The third fresh batch, scored once, then tuning:
    "claude/stop_hook_json_decision_forever__f3": "a Stop hook that blocks every stop ends with "
    "no answer and no word of the hook: an empty answer is all it shows",
    "codex/loop_view_image_interrupted__f3": "SIGINT: codex exits 1 with no event (as cancelled)",
    "gemini/json_after_tool_hook_stop__f3": "an AfterTool hook's stop leaves no report in json "
    "mode: an empty answer is all it shows",
    "gemini/json_prohibited_content_empty__f3": "a PROHIBITED_CONTENT block reaches the output "
    "only as the CLI's empty-response message",
    "gemini/text_prompt_blocklist__f3": "a blocked prompt reaches the output only as 'Model "
    "stream ended without a finish reason'",
    # The fourth fresh batch, scored once, then tuning:
    "codex/slow_down_in_stream__f4": "codex relays slow_down as 'rate limit exceeded': a rate "
    "limit (transient, as overloaded)",
    "gemini/after_model_hook_stop__f4": "an AfterModel hook's stop leaves no event: an empty "
    "answer is all it shows",
    "gemini/json_prompt_blocked_safety__f4": "a blocked prompt reaches the output only as 'Model "
    "stream ended without a finish reason'",
    "gemini/text_free_tier_daily_limit_zero__f4": "text mode prints the 429's body as "
    "'[object Object]': exit 173 (a 429) is all it shows",
}
HELD = heldout_keys()


@pytest.fixture(scope="module")
def judged() -> dict[str, Judged]:
    return {item.key: item for item in judge_all()}


def test_every_capture_is_judged(judged: dict[str, Judged]) -> None:
    assert len(judged) == len(list(capture_dirs())) >= 400
    # Held out: the first held-out set and every fresh batch, less those scored once already.
    scored = {key for key in fresh_digests() if judged[key].group == "tuning"}
    assert {key for key, item in judged.items() if item.heldout} == HELD - scored


def test_every_fresh_batch_is_the_frozen_one(judged: dict[str, Judged]) -> None:
    frozen = fresh_digests()
    assert {key for key, item in judged.items() if item.group == "fresh"} <= set(frozen)
    assert len(frozen) >= 100
    changed = [
        key for key, digest in frozen.items() if capture_digest(CAPTURES_DIR / key) != digest
    ]
    assert changed == []


def test_no_failed_run_is_judged_a_success(judged: dict[str, Judged]) -> None:
    false = sorted(key for key, item in judged.items() if item.false_success)
    assert [key for key in false if not judged[key].undetectable] == []
    assert score(list(judged.values())).false_successes == 0


def test_no_success_is_judged_a_failure(judged: dict[str, Judged]) -> None:
    wrong = {
        key: item.result.error_message
        for key, item in judged.items()
        if item.truth_succeeded and not item.result.success
    }
    assert wrong == {}


def test_tuning_set_kinds_and_retry_classes(judged: dict[str, Judged]) -> None:
    misses = {
        key: f"{item.kind}/{item.retry} != {item.truth_kind}/{item.truth_retry}"
        for key, item in judged.items()
        if item.group == "tuning" and not item.undetectable and not (item.kind_ok and item.retry_ok)
    }
    assert set(misses) == {key for key in KNOWN_MISSES if judged[key].group == "tuning"}, misses
    tuning = score([item for item in judged.values() if item.group == "tuning"])
    assert tuning.false_successes == tuning.false_failures == 0
    assert tuning.kind_accuracy >= 0.9 and tuning.retry_accuracy >= 0.9
    assert tuning.warnings_right == tuning.warnings_expected


def test_undetectable_cases_are_caught_by_validation(judged: dict[str, Judged]) -> None:
    from pydantic import BaseModel, ConfigDict

    from autofix.validation.validator import OutputValidator

    class Answer(BaseModel):
        model_config = ConfigDict(extra="forbid")
        answer: str

    for key in ("gemini/max_tokens_partial", "gemini/refusal_partial"):
        result = judged[key].result
        assert result.success  # what the output says
        outcome = OutputValidator(Answer).validate(result.final_text or "", result.finish_reason)
        assert not outcome.ok  # "Here is the first part of the answer, and then" is no Answer


def test_quota_and_billing_wording_never_exhaust_autofix_budget(
    judged: dict[str, Judged],
) -> None:
    for item in judged.values():
        assert item.result.failure_kind is not FailureKind.BUDGET_EXHAUSTED, item.key
    quota = judged["codex/insufficient_quota"].result  # "Check your plan and billing details."
    assert quota.failure_kind is FailureKind.QUOTA_EXHAUSTED
    assert quota.retry_class is RetryClass.PERMANENT  # only a payment helps
    rate = judged["gemini/rate_limit_persisting"].result  # "...check your plan and billing..."
    assert rate.failure_kind is FailureKind.RATE_LIMIT and rate.retry_after_s == 2.1


def test_retry_delays_from_the_output(judged: dict[str, Judged]) -> None:
    usage = judged["claude/usage_limit"].result  # rate_limit_event.resetsAt (epoch seconds)
    assert usage.failure_kind is FailureKind.USAGE_LIMIT and usage.retry_after_s is not None
    assert judged["claude/server_500"].result.retry_after_s is None


@pytest.mark.parametrize("path", list(capture_dirs()), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_line_by_line_equals_whole(path: Path) -> None:
    """The streaming parser (one feed per line, as the runner delivers) equals a whole parse."""
    meta = json.loads((path / "meta.json").read_text())
    text = (path / "stdout").read_bytes().decode("utf-8", "replace")
    stderr = (path / "stderr").read_bytes().decode("utf-8", "replace")
    parser = get_format(meta["cli"]).parser()
    for line in text.split("\n"):
        parser.feed(line)
    streamed = parser.finish(meta["exit_code"], stderr).model_dump()
    whole = parse_output(meta["cli"], text, meta["exit_code"], stderr=stderr).model_dump()
    # A reset time is turned into seconds from now, read at each finish.
    assert streamed.pop("retry_after_s") == pytest.approx(whole.pop("retry_after_s"), abs=1)
    assert streamed == whole


def test_real_success_fields() -> None:
    claude = judge_capture(CAPTURES_DIR / "claude" / "tool_then_answer")
    assert claude.success and claude.final_text == "The README describes a demo project."
    assert claude.session_id and claude.num_turns == 2
    codex = judge_capture(CAPTURES_DIR / "codex" / "structured_output")
    assert codex.data == {"answer": "pong"} and codex.usage.output_tokens == 9
    gemini = judge_capture(CAPTURES_DIR / "gemini" / "tool_then_answer")
    assert gemini.final_text == "The README describes a demo project."
    assert gemini.usage.total == 3621
    json_mode = judge_capture(CAPTURES_DIR / "gemini" / "json_format_success")
    assert json_mode.success and json_mode.final_text == "pong" and json_mode.session_id


# -- the hand-written transcripts kept (tests/fixtures/transcripts/README.md) -------------------


def _entries() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads((TRANSCRIPTS_DIR / "expected.json").read_text())[
        "entries"
    ]
    return entries


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: str(e["file"]))
def test_kept_transcript(entry: dict[str, Any]) -> None:
    fmt = "wrapper" if str(entry["cli"]).startswith("air-executor") else str(entry["cli"])
    text = (TRANSCRIPTS_DIR / entry["file"]).read_text(encoding="utf-8")
    outcome = parse_output(fmt, text, entry["expected_exit_code"])
    assert outcome.session_id == entry["session_id"]
    assert outcome.final_text == entry["final_text"]
    assert outcome.non_json_lines == 0
    if entry["outcome"] == "success":
        assert outcome.run_status is RunStatus.COMPLETED and outcome.failure_kind is None
        assert outcome.finish_reason is FinishReason.STOP
    else:
        assert outcome.failure_kind is FailureKind.MAX_TURNS and outcome.errors
    if entry.get("usage"):
        assert outcome.usage.input_tokens == entry["usage"]["input_tokens"]
        assert outcome.usage.output_tokens == entry["usage"]["output_tokens"]


def test_gemini_json_usage_sums_models() -> None:
    outcome = parse_output("gemini", (TRANSCRIPTS_DIR / "gemini-json-success.json").read_text(), 0)
    # prompt tokens 3512 + 24939, cached 0 + 21263, candidates 41 + 96; totals equal Gemini's own.
    assert outcome.usage.input_tokens == 3512 + 24939
    assert outcome.usage.cached_input_tokens == 21263
    assert outcome.usage.output_tokens == 41 + 96
    assert outcome.usage.total == 3740 + 25447
    assert outcome.model == "gemini-2.5-pro"


def test_wrapper_stdin_command_matches_the_sample() -> None:
    sample = json.loads((TRANSCRIPTS_DIR / "air-executor-wrapper-stdin.jsonl").read_text())
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


def test_claude_allowed_rate_limit_event_is_not_a_limit() -> None:
    lines = [
        '{"type":"rate_limit_event","rate_limit_info":{"status":"allowed","resetsAt":1900000000,'
        '"rateLimitType":"five_hour"}}',
        '{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s"}',
    ]
    outcome = parse_output("claude", lines, 0)
    assert outcome.run_status is RunStatus.COMPLETED and outcome.failure_kind is None
    assert outcome.retry_after_s is None
