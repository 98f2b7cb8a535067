"""What a try tells a person (operators/verdicts.py) and where a step's sibling lives."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest

from autofix.errors import AgentRetryLater, AutofixError
from autofix.operators.fixing import sibling_id
from autofix.operators.verdicts import (
    DEFAULT_NEXT_STEP,
    NEXT_STEP,
    NEXT_STEP_BY_KIND,
    TRY_KEY,
    did_not_start,
    earlier_spend,
    failure_line,
    next_step,
    remember_try,
    retry_delay,
)
from autofix.operators.wrapper import AIWrapperOperator
from autofix.result import (
    FAILURE_KINDS,
    AttemptSpend,
    FailureKind,
    ParseResult,
    RetryClass,
    Status,
    TokenUsage,
)

pytestmark = pytest.mark.airflow


def operator(**kwargs: Any) -> AIWrapperOperator:
    return AIWrapperOperator(task_id="fix", prompt="p", agent="sim", **kwargs)


def limit(**update: Any) -> ParseResult:
    return ParseResult(
        success=False,
        status=Status.LIMIT_REACHED,
        retry_class=RetryClass.TRANSIENT,
        error_message="[fix] You've hit your limit",
        **update,
    )


def test_retry_delay_follows_airflows_backoff() -> None:
    task = operator(retries=3, retry_delay=timedelta(seconds=5), retry_exponential_backoff=2.0)
    # TaskInstance.next_retry_datetime: ceil(delay * 2 ** (try - 1)) plus a jitter below it.
    assert retry_delay(task, 1) == "5–9 s"
    assert retry_delay(task, 2) == "10–19 s"
    assert retry_delay(operator(retry_delay=timedelta(seconds=60)), 3) == "60 s"  # no backoff
    capped = operator(
        retry_delay=timedelta(minutes=10),
        retry_exponential_backoff=2.0,
        max_retry_delay=timedelta(minutes=15),
    )
    assert retry_delay(capped, 2) == "15 min"
    assert retry_delay(task, 1, retry_after_s=300) == "5 min"  # the output's own wait wins
    slow = operator(retry_delay=timedelta(seconds=60), retry_exponential_backoff=2.0)
    assert retry_delay(slow, 1) == "60 s – 2 min"


def test_a_transient_try_says_kind_next_step_when_and_which_try() -> None:
    task = operator(retries=2, retry_delay=timedelta(seconds=5))
    line = failure_line(limit(), task, SimpleNamespace(try_number=1, max_tries=2))
    assert line == "transient (limit reached): Airflow retries in 5 s, try 1 of 3"
    last = failure_line(limit(), task, SimpleNamespace(try_number=3, max_tries=2))
    assert last == "transient (limit reached): no retries left, try 3 of 3: the task fails"


def test_a_permanent_failure_says_what_to_do_next() -> None:
    result = ParseResult(
        success=False,
        status=Status.AUTH_FAILED,
        retry_class=RetryClass.PERMANENT,
        error_message="[fix] Invalid API key · Please run /login",
    )
    line = failure_line(result, operator(), SimpleNamespace(try_number=1, max_tries=0))
    assert line.startswith("permanent (auth failed): [fix] Invalid API key · Please run /login.")
    assert "Next: check the agent's credentials" in line


def failed(kind: FailureKind, **update: Any) -> ParseResult:
    status, retry_class = FAILURE_KINDS[kind]
    fields: dict[str, Any] = {"error_message": f"[fix] {kind.value} happened", **update}
    return ParseResult(
        success=False, status=status, retry_class=retry_class, failure_kind=kind, **fields
    )


NOT_RETRIED = [
    kind
    for kind, (_, retry_class) in FAILURE_KINDS.items()
    if retry_class in (RetryClass.PERMANENT, RetryClass.INVALID_OUTPUT)
]


@pytest.mark.parametrize("kind", NOT_RETRIED, ids=str)
def test_each_kind_gets_advice_written_for_it_never_another_kinds(kind: FailureKind) -> None:
    step = next_step(failed(kind))
    others = {text for other, text in NEXT_STEP_BY_KIND.items() if other is not kind}
    assert step in (NEXT_STEP_BY_KIND.get(kind), DEFAULT_NEXT_STEP)
    assert step not in others
    # Its status's advice (for results without a kind) is not what a kind falls back to.
    assert kind in NEXT_STEP_BY_KIND, f"{kind.value} has no advice of its own"


def test_a_result_without_a_kind_is_advised_by_its_status() -> None:
    result = ParseResult(success=False, status=Status.AUTH_FAILED, retry_class=RetryClass.PERMANENT)
    assert next_step(result) == NEXT_STEP[Status.AUTH_FAILED]
    unknown = ParseResult(success=False, status=Status.FAILED, retry_class=RetryClass.PERMANENT)
    assert next_step(unknown) == DEFAULT_NEXT_STEP


def test_a_missing_cli_names_its_kind_and_how_to_install_it() -> None:
    result = failed(
        FailureKind.MISSING_CLI,
        error_message="[fix] executable not found: 'claude' (not on PATH); install it or pass "
        "its absolute path",
    )
    line = failure_line(result, operator(), SimpleNamespace(try_number=1, max_tries=0))
    assert line.startswith("permanent (missing cli): [fix] executable not found: 'claude'")
    assert "make agent-clis" in line and 'agent_clis_dir=".agents"' in line
    assert "model name" not in line  # invalid_request's advice, not this kind's
    config = failure_line(failed(FailureKind.CONFIG), operator(), SimpleNamespace(try_number=1))
    assert "make agent-clis" not in config and "model name" not in config


def test_the_summary_names_the_kind_in_the_words_of_the_retry_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    operator()._log_summary(failed(FailureKind.MISSING_CLI))  # Airflow's log goes to stdout
    text = capsys.readouterr().out
    assert "autofix verdict: FAILED (missing cli) [fix]" in text
    assert "invalid_request" not in text
    assert "  the agent CLI did not start, retry class permanent" in text
    assert "exit code None" not in text


def test_a_run_that_started_shows_its_exit_code_and_calls(
    capsys: pytest.CaptureFixture[str],
) -> None:
    operator()._log_summary(failed(FailureKind.CONFIG, exit_code=1, attempts=2))
    text = capsys.readouterr().out
    assert "autofix verdict: FAILED (config) [fix]" in text
    assert "  exit code 1, run status None, 2 call(s) in this try, retry class permanent" in text
    # A killed or crashed run has no exit code either, but it did start.
    assert did_not_start(failed(FailureKind.MISSING_CLI))
    assert not did_not_start(failed(FailureKind.KILLED))
    assert not did_not_start(failed(FailureKind.CRASHED))


def test_the_retry_exception_is_one_line_for_airflow_and_an_exception_for_callers() -> None:
    error = AgentRetryLater("transient (rate limit): Airflow retries in 5 s, try 1 of 3", limit())
    # Airflow's task runner logs a SystemExit as "Task exited exit_code=<code>", no traceback.
    assert isinstance(error, SystemExit) and error.code == error.message
    # ... and code that wraps an operator in `except Exception` still catches it.
    assert isinstance(error, AutofixError) and isinstance(error, Exception)
    assert error.result is not None and error.result.status is Status.LIMIT_REACHED


class FakeStore:
    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def set(self, key: str, value: Any) -> None:
        assert value is not None
        self.values[key] = value


def test_each_try_is_remembered_and_summed_by_the_next(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    log = logging.getLogger("test")
    store = FakeStore()
    first = {"task_state_store": store, "ti": SimpleNamespace(try_number=1)}
    failed = limit(cost_usd=0.01, usage=TokenUsage(input_tokens=100, output_tokens=5))
    remember_try(first, failed, "transient (limit reached): …", log)  # type: ignore[arg-type]
    assert store.values[TRY_KEY.format(1)]["verdict"] == "transient (limit reached): …"

    second = {"task_state_store": store, "ti": SimpleNamespace(try_number=2)}
    earlier = earlier_spend(second, log)  # type: ignore[arg-type]
    assert [(s.try_number, s.status, s.cost_usd) for s in earlier] == [
        (1, Status.LIMIT_REACHED, 0.01)
    ]
    ok = ParseResult(success=True, status=Status.COMPLETED, cost_usd=0.02)
    total = ok.with_spend([*earlier, ok.spend(2)])
    assert total.cost_usd == pytest.approx(0.03)
    assert total.usage.input_tokens == 100
    assert [s.try_number for s in total.per_attempt] == [1, 2]


def test_a_broken_state_store_never_fails_the_task(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    class Broken(FakeStore):
        def get(self, key: str, default: Any = None) -> Any:
            raise RuntimeError("no supervisor")

        def set(self, key: str, value: Any) -> None:
            raise RuntimeError("no supervisor")

    context = {"task_state_store": Broken(), "ti": SimpleNamespace(try_number=2)}
    log = logging.getLogger("test")
    with caplog.at_level("WARNING"):
        assert earlier_spend(context, log) == []  # type: ignore[arg-type]
        remember_try(context, limit(), "x", log)  # type: ignore[arg-type]
    assert "task state store" in caplog.text


def test_a_single_call_keeps_its_own_figures() -> None:
    one = ParseResult(success=True, status=Status.COMPLETED, cost_usd=0.5)
    assert one.with_spend([one.spend()]).per_attempt == []
    assert one.with_spend([one.spend()]).cost_usd == 0.5
    spend = [AttemptSpend(status=Status.FAILED), AttemptSpend(status=Status.COMPLETED)]
    assert one.with_spend(spend).cost_usd is None  # no call reported a cost


@pytest.mark.parametrize(
    ("task_id", "name", "expected"),
    [
        ("fix_project.configure_hooks", "prepare", "fix_project.prepare"),
        ("fix_project.fix", "check_0", "fix_project.check_0"),
        ("fix_project.summary", "fix", "fix_project.fix"),
        ("fix_project.check_0", "discover_tests", "fix_project.discover_tests"),
        ("fix", "check_0", "check_0"),  # no project group around
        ("summary", "prepare", "prepare"),
    ],
)
def test_sibling_ids_are_in_the_project_group(task_id: str, name: str, expected: str) -> None:
    assert sibling_id(task_id, name) == expected


@pytest.mark.parametrize(
    ("agent", "variable"),
    [("claude", "ANTHROPIC_API_KEY"), ("codex", "CODEX_API_KEY"), ("gemini", "GEMINI_API_KEY")],
)
def test_a_failed_login_names_where_that_agent_reads_its_key(agent: str, variable: str) -> None:
    result = failed(FailureKind.AUTH).model_copy(update={"agent": agent})
    step = next_step(result)
    assert variable in step and step.endswith("then clear this task")
    assert next_step(failed(FailureKind.AUTH)) == NEXT_STEP_BY_KIND[FailureKind.AUTH]  # no agent
