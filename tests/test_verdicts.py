"""What a try tells a person (operators/verdicts.py) and where a step's sibling lives."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest

from autofix.errors import AgentRetryLater, AutofixError
from autofix.operators.fixing import sibling_id
from autofix.operators.verdicts import (
    TRY_KEY,
    earlier_spend,
    failure_line,
    remember_try,
    retry_delay,
)
from autofix.operators.wrapper import AIWrapperOperator
from autofix.result import AttemptSpend, ParseResult, RetryClass, Status, TokenUsage

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
        ("fix_project.iteration_3.fix_3", "check_2", "fix_project.iteration_2.check_2"),
        ("fix_project.iteration_1.fix_1", "check_0", "fix_project.check_0"),
        ("fix_project.iteration_1.fix_1", "prepare", "fix_project.prepare"),
        ("fix_project.summary", "check_4", "fix_project.iteration_4.check_4"),
        ("fix_project.check_0", "discover_tests", "fix_project.discover_tests"),
        ("iteration_2.fix_2", "check_1", "iteration_1.check_1"),  # no project group around
        ("summary", "prepare", "prepare"),
    ],
)
def test_sibling_ids_know_the_iteration_groups(task_id: str, name: str, expected: str) -> None:
    assert sibling_id(task_id, name) == expected
