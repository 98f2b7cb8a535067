"""The attempt policy and generate_and_validate, with a scripted plain-callable LLM."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from validation_support import VALID, ScriptedLLM, Strategy, TestConfig, fenced, valid_json

from autofix.config import EscalationSettings, ValidationSettings, load_config
from autofix.errors import ConfigError, ValidationExhaustedError, ValidationRefusedError
from autofix.result import ParseResult, Status, TokenUsage
from autofix.validation.api import generate_and_validate
from autofix.validation.escalation import Escalation
from autofix.validation.loop import AttemptLoop
from autofix.validation.policy import Action, AttemptPolicy, AttemptRequest
from autofix.validation.records import AttemptRecord
from autofix.validation.reply import LLMReply
from autofix.validation.validator import OutputValidator

PROMPT = "Propose a trend-following strategy. Answer with JSON only."
BAD_RISK = valid_json(risk=2)  # one range error at `risk`
BAD_NAME = valid_json(indicators={"technical_indicators": [{"name": "RSI", "period": 14}]})


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    for name in list(__import__("os").environ):
        if name.startswith("AUTOFIX__") or name == "AUTOFIX_CONFIG":
            monkeypatch.delenv(name)
    return tmp_path


def reports(home: Path) -> list[dict[str, Any]]:
    return [
        json.loads(p.read_text()) for p in sorted((home / "logs/autofix/reports").glob("*.json"))
    ]


def test_first_valid_answer_costs_exactly_one_call(_home: Path) -> None:
    llm = ScriptedLLM([fenced(valid_json())])
    run = generate_and_validate(PROMPT, Strategy, llm)
    assert isinstance(run.value, Strategy) and run.value.name == "trend_follow"
    assert run.calls == 1 and llm.calls == [[{"role": "user", "content": PROMPT}]]
    assert run.attempts[0].repairs == ("removed markdown fence (```json)",)
    assert not (_home / "logs").exists()  # no report on success


def test_invalid_then_valid_takes_two_calls() -> None:
    llm = ScriptedLLM([BAD_RISK, valid_json()])
    run = generate_and_validate(PROMPT, Strategy, llm)
    assert run.ok and run.calls == 2 and len(llm.calls) == 2
    retry = llm.prompts[1]
    assert retry.startswith(f"## Original requirements\n\n{PROMPT}\n")
    assert "This is retry attempt 2/3." in retry and BAD_RISK in retry
    assert "[range_violation] `risk`" in retry
    assert [r.status for r in run.attempts] == [Status.INVALID_OUTPUT, Status.COMPLETED]


def test_identical_errors_stop_after_two(_home: Path, caplog: pytest.LogCaptureFixture) -> None:
    llm = ScriptedLLM([BAD_RISK, valid_json(risk=3), valid_json()])
    with pytest.raises(ValidationExhaustedError) as caught:
        generate_and_validate(PROMPT, Strategy, llm, policy=AttemptPolicy(max_attempts=3))
    assert len(llm.calls) == 2
    assert caught.value.reason == "identical_errors"
    assert (
        "calls 1 and 2 failed with the same errors (risk (range_violation)); stopping"
        in caplog.text
    )
    assert reports(_home)[0]["final_status"] == "invalid_output"


def test_without_identical_abort_all_attempts_run() -> None:
    llm = ScriptedLLM([BAD_RISK, BAD_RISK, valid_json()])
    run = generate_and_validate(
        PROMPT, Strategy, llm, policy=AttemptPolicy(abort_on_identical_errors=False)
    )
    assert run.calls == 3 and run.ok
    assert "The last two attempts failed with the same errors" in llm.prompts[2]


def test_exhausted_lists_every_attempt_and_writes_the_report(_home: Path) -> None:
    secret = "sk-ant-api03-" + "z" * 32
    answers = [BAD_RISK, BAD_NAME, "I think the answer is clear. " + secret]
    llm = ScriptedLLM(answers)
    with pytest.raises(ValidationExhaustedError) as caught:
        generate_and_validate(PROMPT, Strategy, llm, run_id="run-42", operation="plan_strategy")
    error = caught.value
    assert (
        len(llm.calls) == 3
        and error.reason == "exhausted"
        and error.status is Status.INVALID_OUTPUT
    )
    message = str(error)
    assert message.splitlines()[0] == (
        "[plan_strategy] no valid output after 3 call(s): invalid_output (exhausted)"
    )
    assert "  call 1: risk (range_violation)" in message
    assert "  call 2: indicators.technical_indicators.0.name (pattern_violation)" in message
    assert "  call 3: (root) (structural_error)" in message
    assert secret not in error.last_output and secret not in message
    assert sorted(error.errors_by_attempt()) == [1, 2, 3]
    assert (
        error.report_path is not None and error.report_path.parent == _home / "logs/autofix/reports"
    )
    report = json.loads(error.report_path.read_text())
    assert {"run", "operation", "original_prompt", "attempts", "final_status"} <= set(report)
    assert (report["run"], report["operation"], report["original_prompt"]) == (
        "run-42",
        "plan_strategy",
        PROMPT,
    )
    assert [a["attempt"] for a in report["attempts"]] == [1, 2, 3]
    assert report["attempts"][0]["errors"][0]["path"] == "risk"
    assert secret not in error.report_path.read_text()


def test_refusal_is_not_retried(_home: Path) -> None:
    llm = ScriptedLLM([LLMReply("I can't help with that.", finish_reason="refusal")])
    with pytest.raises(ValidationRefusedError) as caught:
        generate_and_validate(PROMPT, Strategy, llm)
    assert len(llm.calls) == 1 and caught.value.status is Status.REFUSED
    assert reports(_home)[0]["final_status"] == "refused"


def test_truncation_is_retried_with_truncation_feedback() -> None:
    llm = ScriptedLLM([LLMReply(valid_json()[:50], finish_reason="length"), valid_json()])
    run = generate_and_validate(PROMPT, Strategy, llm)
    assert run.calls == 2 and run.attempts[0].status is Status.TRUNCATED
    assert "## Your previous answer was cut off" in llm.prompts[1]
    assert "Answer again, shorter: send only the JSON payload" in llm.prompts[1]


def test_retry_disabled_means_one_attempt() -> None:
    llm = ScriptedLLM([BAD_RISK, valid_json()])
    with pytest.raises(ValidationExhaustedError) as caught:
        generate_and_validate(PROMPT, Strategy, llm, policy=AttemptPolicy(retry_enabled=False))
    assert len(llm.calls) == 1 and caught.value.reason == "retry_disabled"


def test_retry_delay_between_attempts_only() -> None:
    slept: list[float] = []
    llm = ScriptedLLM([BAD_RISK, BAD_NAME, valid_json()])
    generate_and_validate(
        PROMPT, Strategy, llm, policy=AttemptPolicy(retry_delay_seconds=2.5), sleep=slept.append
    )
    assert slept == [2.5, 2.5]


def test_full_mode_never_grows_and_resumed_mode_sends_only_feedback() -> None:
    llm = ScriptedLLM([BAD_RISK, BAD_NAME, valid_json()])
    generate_and_validate(PROMPT, Strategy, llm, system="You are a quant.")
    assert all(len(call) == 2 and call[0]["role"] == "system" for call in llm.calls)
    assert BAD_RISK not in llm.prompts[2] and BAD_NAME in llm.prompts[2]
    resumed = ScriptedLLM([BAD_RISK, valid_json()])
    generate_and_validate(PROMPT, Strategy, resumed, system="You are a quant.", resumable=True)
    assert resumed.calls[1] == [{"role": "user", "content": resumed.prompts[1]}]
    assert PROMPT not in resumed.prompts[1] and BAD_RISK not in resumed.prompts[1]


def test_yaml_answers() -> None:
    llm = ScriptedLLM(
        [
            "```yaml\nsuite: unit\nparallel: 0\npaths: [tests]\n```",
            "suite: unit\nparallel: 2\npaths: [tests]\n",
        ]
    )
    run = generate_and_validate("Write the test config as YAML.", TestConfig, llm)
    assert run.calls == 2 and run.value is not None and run.value.parallel == 2
    assert "send the complete corrected YAML payload only" in llm.prompts[1]


@dataclass
class AnthropicLike:
    content: list[dict[str, str]]
    stop_reason: str


@dataclass
class Choice:
    message: dict[str, str]
    finish_reason: str


@dataclass
class OpenAILike:
    choices: list[Choice]
    usage: dict[str, int]


def test_reply_objects_and_on_attempt_records() -> None:
    records: list[AttemptRecord] = []
    llm = ScriptedLLM(
        [
            AnthropicLike([{"type": "text", "text": valid_json()[:30]}], "max_tokens"),
            OpenAILike(
                [Choice({"content": valid_json()}, "stop")],
                {"prompt_tokens": 120, "completion_tokens": 40},
            ),
        ]
    )
    generate_and_validate(PROMPT, Strategy, llm, on_attempt=records.append)
    first, second = records
    assert (first.attempt, first.prompt, first.status, first.finish_reason) == (
        1,
        PROMPT,
        Status.TRUNCATED,
        "length",
    )
    assert first.raw_output == valid_json()[:30] and first.errors
    assert (second.status, second.finish_reason, second.usage) == (
        Status.COMPLETED,
        "stop",
        TokenUsage(input_tokens=120, output_tokens=40),
    )
    assert second.to_dict()["usage"]["input_tokens"] == 120


def context_from_history(history: Sequence[AttemptRecord]) -> str:
    return f"Indicator names are lower_snake_case (seen {len(history)} failures)."


def test_escalation_on_identical_errors_uses_the_other_llm_and_context(tmp_path: Path) -> None:
    main = ScriptedLLM([BAD_NAME, BAD_NAME])
    stronger = ScriptedLLM([valid_json()])
    (tmp_path / "style.md").write_text("Use lowercase names.")
    escalation = Escalation(
        llm=stronger, context_file="style.md", context_callable=context_from_history
    )
    run = generate_and_validate(PROMPT, Strategy, main, policy=AttemptPolicy(escalation=escalation))
    assert run.ok and run.calls == 3 and [r.escalated for r in run.attempts] == [False, False, True]
    prompt = stronger.prompts[0]
    assert (
        "## Additional context\n\nUse lowercase names.\n\nIndicator names are lower_snake_case (seen 2 failures)."
        in prompt
    )
    assert prompt.startswith("## Original requirements")  # another agent: full mode


def test_escalation_failing_stops_and_escalation_may_exceed_max_attempts() -> None:
    llm = ScriptedLLM([BAD_RISK, BAD_NAME, BAD_NAME, BAD_NAME])
    models: list[str | None] = []

    def main_llm(messages: list[dict[str, str]], model: str | None = None) -> object:
        models.append(model)
        return llm(messages)

    with pytest.raises(ValidationExhaustedError) as caught:
        generate_and_validate(
            PROMPT,
            Strategy,
            main_llm,
            policy=AttemptPolicy(escalation=Escalation(model="bigger-model")),
        )
    # Identical errors on the last regular attempt (3/3): one more, escalated, then stop.
    assert caught.value.reason == "escalation_failed"
    assert models == [None, None, None, "bigger-model"]
    assert "This is retry attempt 4/4." in llm.prompts[3]


def test_escalation_with_model_needs_an_llm_that_accepts_it() -> None:
    with pytest.raises(ValueError, match="accepts a model= keyword"):
        generate_and_validate(
            PROMPT,
            Strategy,
            ScriptedLLM([]),
            policy=AttemptPolicy(escalation=Escalation(model="x")),
        )


def test_config_and_env_override_max_attempts(tmp_path: Path) -> None:
    config = tmp_path / "autofix.yaml"
    config.write_text("validation:\n  max_attempts: 4\n  abort_on_identical_errors: false\n")
    settings = load_config(config, environ={"AUTOFIX__VALIDATION__MAX_ATTEMPTS": "2"}).validation
    assert settings.max_attempts == 2
    llm = ScriptedLLM([BAD_RISK, BAD_RISK, valid_json()])
    with pytest.raises(ValidationExhaustedError):
        generate_and_validate(PROMPT, Strategy, llm, policy=AttemptPolicy.from_settings(settings))
    assert len(llm.calls) == 2
    assert AttemptPolicy.from_config(config, environ={}).max_attempts == 4
    assert (
        AttemptPolicy.from_config(config, environ={}, max_attempts=None).max_attempts == 4
    )  # None = keep


def test_invalid_config_fails_fast_naming_key_and_reason(tmp_path: Path) -> None:
    with pytest.raises(
        ConfigError, match=r"validation\.max_attempts: Input should be greater than or equal to 1"
    ):
        AttemptPolicy.from_config(environ={"AUTOFIX__VALIDATION__MAX_ATTEMPTS": "0"})
    with pytest.raises(ConfigError, match=r"validation\.retry_enabled"):
        load_config(environ={"AUTOFIX__VALIDATION__RETRY_ENABLED": "maybe"})
    bad = ValidationSettings(escalation=EscalationSettings(context_callable="no_such_mod_xyz:f"))
    with pytest.raises(
        ConfigError, match=r"validation\.escalation\.context_callable: cannot import"
    ):
        AttemptPolicy.from_settings(bad)
    missing = ValidationSettings(escalation=EscalationSettings(context_file="nope.md"))
    with pytest.raises(ConfigError, match=r"validation\.escalation\.context_file: file not found"):
        AttemptPolicy.from_settings(missing)


# ---------------------------------------------------------------------------- step-wise (operator / Grid)


def test_step_wise_parse_results_reach_the_same_decisions_as_the_loop() -> None:
    """One attempt per task: history travels as ParseResult JSON through XCom."""
    validator = OutputValidator(f"{Strategy.__module__}:Strategy")
    policy = AttemptPolicy(max_attempts=3)
    answers = [BAD_RISK, BAD_NAME, valid_json()]
    xcom: list[dict[str, Any]] = []
    prompts = [PROMPT]
    for index, answer in enumerate(answers, 1):
        outcome = validator.validate(answer)
        result = outcome.to_parse_result(
            operation="plan", attempt=index, attempts=policy.max_attempts
        )
        xcom.append(result.model_dump(mode="json"))  # what the operator pushes
        history = [ParseResult.model_validate(item) for item in xcom]
        decision = policy.decide(history, escalation_used=False)
        if decision.done:
            break
        assert decision.action is Action.RETRY and decision.next_attempt == index + 1
        prompts.append(policy.feedback(history, original_prompt=PROMPT, model=validator.model))
    assert decision.action is Action.ACCEPT and len(xcom) == 3
    assert ParseResult.model_validate(xcom[-1]).data["name"] == "trend_follow"
    llm = ScriptedLLM(answers)
    generate_and_validate(PROMPT, Strategy, llm)
    assert llm.prompts == prompts


def test_policy_decisions() -> None:
    validator = OutputValidator(Strategy)
    bad, worse, good = (validator.validate(t) for t in (BAD_RISK, BAD_NAME, valid_json()))
    refused = validator.validate("", "refusal")
    policy = AttemptPolicy(max_attempts=3)
    assert policy.decide([]).next_attempt == 1
    assert policy.decide([bad, good]).action is Action.ACCEPT
    assert policy.decide([refused]).reason == "refused"
    assert policy.decide([bad, bad]).reason == "identical_errors"
    assert policy.decide([bad, worse]).action is Action.RETRY
    assert policy.decide([bad, worse, bad]).reason == "exhausted"
    with_escalation = AttemptPolicy(escalation=Escalation(context_callable=context_from_history))
    assert with_escalation.decide([bad, bad]).action is Action.ESCALATE
    assert (
        with_escalation.decide([bad, bad, bad], escalation_used=True).reason == "escalation_failed"
    )
    failed = ParseResult(success=False, status=Status.AUTH_FAILED)
    assert policy.decide([failed]).reason == "not_retryable"
    with pytest.raises(ValueError, match="max_attempts"):
        AttemptPolicy(max_attempts=0)


def test_attempt_loop_resumes_cli_sessions_by_id() -> None:
    requests: list[AttemptRequest] = []

    def agent(request: AttemptRequest) -> LLMReply:
        requests.append(request)
        text = BAD_RISK if request.attempt == 1 else json.dumps(VALID)
        return LLMReply(text, finish_reason="stop", session_id="sess-1")

    loop = AttemptLoop(OutputValidator(Strategy), resume="with_session_id", operation="plan")
    run = loop.run(PROMPT, agent)
    assert run.ok and [r.mode for r in requests] == ["initial", "resumed"]
    assert requests[1].resume_session_id == "sess-1" and PROMPT not in requests[1].prompt
    assert run.to_parse_result().attempts == 2


def test_feedback_from_xcom_history_keeps_schema_hints() -> None:
    outcome = OutputValidator(Strategy).validate(valid_json(indicators=["rsi", "macd"]))
    restored = ParseResult.model_validate(
        outcome.to_parse_result(operation="plan").model_dump(mode="json")
    )
    feedback = AttemptPolicy().feedback([restored], original_prompt=PROMPT, model=Strategy)
    assert (
        "- `indicators` must be an object with a `technical_indicators` array of objects, not a flat array."
        in feedback
    )
