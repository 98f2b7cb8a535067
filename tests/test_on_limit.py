"""on_limit=: what a usage or rate limit does to an agent task (retry, skip or fail).

The reach arithmetic is plain Python (autofix.task.limit_action); the operator runs are real
subprocesses of the scripted agent, in a real SQLite Airflow or called directly.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from airflow.sdk.exceptions import AirflowSkipException
from airflow_support import run_dag

from autofix.config import AgentSettings
from autofix.errors import AgentRetryLater, ConfigError
from autofix.operators.results import FAILED_RESULT_KEY, coerce_result
from autofix.operators.retry_policy import AgentPermanentError, limit_line, retry_schedule
from autofix.operators.wrapper import AIWrapperOperator
from autofix.result import FailureKind
from autofix.task.limit_action import (
    AIRFLOW_MAX_RETRY_DELAY_S,
    RetrySchedule,
    check_on_limit,
    limit_action,
)

HOUR = 3600.0
WEEKLY_RESET_S = 72 * HOUR  # the usage_limit_weekly scenario: "try again in 72 hours"
RESET_LINE = re.compile(r"it resets at \d{4}-\d\d-\d\d \d\d:\d\d UTC, in 7[12]h \d+m")


# -- the reach arithmetic ---------------------------------------------------------------------


def test_a_fixed_delay_reaches_its_retries_times_the_longer_wait() -> None:
    fixed = RetrySchedule(try_number=1, max_tries=2, retry_delay_s=60)
    assert fixed.retries_left == 2
    assert fixed.reach_s() == 120
    # The retry policy waits up to agents.max_retry_wait_seconds for a reset the output named.
    capped = RetrySchedule(try_number=1, max_tries=2, retry_delay_s=60, output_wait_cap_s=6 * HOUR)
    assert capped.reach_s() == 12 * HOUR
    assert RetrySchedule(try_number=2, max_tries=2, output_wait_cap_s=HOUR).reach_s() == HOUR
    last = RetrySchedule(try_number=3, max_tries=2, output_wait_cap_s=HOUR)
    assert last.retries_left == 0 and last.reach_s() == 0
    uncapped = RetrySchedule(try_number=1, max_tries=1, output_wait_cap_s=math.inf)
    assert uncapped.reach_s() == math.inf


def test_exponential_backoff_counts_its_jitter_and_caps() -> None:
    # TaskInstance.next_retry_datetime: ceil(delay * factor ** (try - 1)), plus a jitter below it.
    backoff = RetrySchedule(try_number=1, max_tries=3, retry_delay_s=5, backoff=2.0)
    assert [backoff.longest_delay(n) for n in (1, 2, 3)] == [9, 19, 39]
    assert backoff.reach_s() == 9 + 19 + 39
    assert RetrySchedule(try_number=2, max_tries=3, retry_delay_s=5, backoff=2.0).reach_s() == 58
    capped = RetrySchedule(
        try_number=1, max_tries=3, retry_delay_s=600, backoff=2.0, max_retry_delay_s=900
    )
    assert [capped.longest_delay(n) for n in (1, 2, 3)] == [900, 900, 900]
    # A zero delay still backs off from 1 s; a factor of 1 is a fixed delay.
    assert RetrySchedule(try_number=1, max_tries=1, backoff=2.0).longest_delay(1) == 1
    assert RetrySchedule(try_number=1, max_tries=1, retry_delay_s=7, backoff=1.0).reach_s() == 7
    # Airflow's own ceiling, also where the power overflows.
    huge = RetrySchedule(try_number=1, max_tries=1, retry_delay_s=HOUR, backoff=10.0)
    assert huge.longest_delay(6) == AIRFLOW_MAX_RETRY_DELAY_S
    assert huge.longest_delay(5000) == AIRFLOW_MAX_RETRY_DELAY_S
    # Per retry the longer of the schedule and the policy's cap counts.
    mixed = RetrySchedule(
        try_number=1, max_tries=2, retry_delay_s=HOUR, backoff=2.0, output_wait_cap_s=2 * HOUR
    )
    assert mixed.reach_s() == 2 * HOUR + (4 * HOUR - 1)


def test_skip_only_a_limit_beyond_the_retries_reach() -> None:
    schedule = RetrySchedule(
        try_number=1, max_tries=2, retry_delay_s=60, output_wait_cap_s=6 * HOUR
    )
    usage = FailureKind.USAGE_LIMIT
    assert limit_action("skip", usage, WEEKLY_RESET_S, schedule) == "skip"
    assert limit_action("skip", FailureKind.RATE_LIMIT, 13 * HOUR, schedule) == "skip"
    assert limit_action("skip", usage, 5 * HOUR, schedule) == "retry"
    assert limit_action("skip", usage, None, schedule) == "retry"  # no reset named: try again
    spent = RetrySchedule(try_number=3, max_tries=2, output_wait_cap_s=6 * HOUR)
    assert limit_action("skip", usage, None, spent) == "skip"  # no retry left
    assert limit_action("skip", usage, 3, spent) == "skip"
    assert limit_action("retry", usage, WEEKLY_RESET_S, schedule) == "retry"
    assert limit_action("fail", usage, 3, schedule) == "fail"
    # Not a limit that resets: the retry class decides, as before.
    assert limit_action("skip", FailureKind.QUOTA_EXHAUSTED, None, spent) is None
    assert limit_action("fail", FailureKind.SERVER_ERROR, 3, schedule) is None
    assert limit_action("skip", None, None, spent) is None


def test_a_bad_on_limit_names_the_three_values() -> None:
    assert check_on_limit("skip") == "skip"
    with pytest.raises(
        ConfigError, match=r"on_limit='later' is not one of 'retry', 'skip', 'fail'"
    ):
        check_on_limit("later")


# -- the operator -------------------------------------------------------------------------------


@pytest.mark.airflow
def test_the_operator_checks_on_limit_when_the_dag_is_parsed() -> None:
    with pytest.raises(ConfigError, match=r"'retry', 'skip', 'fail'"):
        AIWrapperOperator(task_id="fix", prompt="p", agent="sim", on_limit="wait")  # type: ignore[arg-type]
    assert AIWrapperOperator(task_id="fix", prompt="p", agent="sim").on_limit is None
    from autofix.decorators.coding_agent import _CodingAgentDecoratedOperator

    decorated = _CodingAgentDecoratedOperator(
        task_id="fix", python_callable=lambda: "p", agent="sim", on_limit="skip"
    )
    assert decorated.on_limit == "skip"


@pytest.mark.airflow
def test_the_skip_line_names_the_reset_and_the_reach() -> None:
    task = AIWrapperOperator(
        task_id="fix", prompt="p", agent="sim", retries=2, retry_delay=timedelta(seconds=60)
    )
    schedule = retry_schedule(task, SimpleNamespace(try_number=1, max_tries=2), 6 * HOUR)
    assert schedule.output_wait_cap_s == 6 * HOUR and schedule.retry_delay_s == 60
    now = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
    line = limit_line("usage limit", "skip", WEEKLY_RESET_S, schedule, now)
    assert line.startswith(
        "skipped (usage limit): it resets at 2026-03-05 09:30 UTC, in 72h 0m; beyond the "
        "retries' reach: 2 retries left can wait 12h 0m in all (on_limit='skip')"
    )
    fail = limit_line("usage limit", "fail", WEEKLY_RESET_S, schedule, now)
    assert fail.startswith("failed (usage limit): it resets at 2026-03-05 09:30 UTC")
    unknown = limit_line("rate limit", "skip", None, RetrySchedule(try_number=1, max_tries=0))
    assert unknown.startswith("skipped (rate limit): its reset time is unknown; no retries left")


class _TaskInstance(SimpleNamespace):
    def xcom_push(self, key: str, value: Any) -> None:
        self.pushed[key] = value


def _one_try(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scenario: str, **kwargs: Any
) -> tuple[Callable[[], object], _TaskInstance]:
    """One try of the operator outside a DAG run, and its task instance's XComs."""
    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    task = AIWrapperOperator(
        task_id="fix",
        prompt="p",
        agent="sim",
        audit=False,
        retries=2,
        retry_delay=timedelta(seconds=60),
        agent_options={"scenario": scenario, "state_dir": str(tmp_path / "sim-state")},
        **kwargs,
    )
    ti = _TaskInstance(try_number=1, max_tries=2, task_id="fix", dag_id="d", map_index=-1)
    ti.pushed = {}
    return (lambda: task.execute({"ti": ti, "run_id": "run1"})), ti  # type: ignore[arg-type]


@pytest.mark.airflow
def test_retry_raises_agent_retry_later_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run, _ = _one_try(tmp_path, monkeypatch, "usage_limit_weekly", on_limit="retry")
    with pytest.raises(AgentRetryLater) as raised:
        run()
    assert str(raised.value) == "transient (usage limit): Airflow retries in 6.0 h, try 1 of 3"
    assert raised.value.result is not None
    assert raised.value.result.retry_after_s == 6 * HOUR  # capped, as before


@pytest.mark.airflow
def test_skip_and_fail_push_the_result_and_raise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run, ti = _one_try(tmp_path, monkeypatch, "usage_limit_weekly", on_limit="skip")
    with pytest.raises(AirflowSkipException, match=r"skipped \(usage limit\): it resets at "):
        run()
    assert ti.pushed[FAILED_RESULT_KEY]["failure_kind"] == "usage_limit"
    run, ti = _one_try(tmp_path, monkeypatch, "usage_limit_weekly", on_limit="fail")
    with pytest.raises(AgentPermanentError, match=r"failed \(usage limit\): it resets at "):
        run()
    assert ti.pushed[FAILED_RESULT_KEY]["failure_kind"] == "usage_limit"


@pytest.mark.airflow
def test_skip_retries_a_limit_that_resets_within_reach(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The scripted 5-hour limit resets in seconds: a retry outlasts it.
    run, _ = _one_try(tmp_path, monkeypatch, "usage_limit", on_limit="skip")
    with pytest.raises(AgentRetryLater):
        run()


@pytest.mark.airflow
def test_skip_and_fail_in_a_dag_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("AUTOFIX__AUDIT__PATH", str(tmp_path / "audit.jsonl"))
    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    monkeypatch.setenv("AUTOFIX__AGENTS__ON_LIMIT", "skip")  # the config's default
    sim = {"state_dir": str(tmp_path / "sim-state"), "scenario": "usage_limit_weekly"}
    outcome = run_dag(
        "op_on_limit",
        f"""
import pendulum
from datetime import timedelta
from airflow.sdk import DAG
from autofix.operators import AIWrapperOperator

with DAG("op_on_limit", schedule=None, start_date=pendulum.datetime(2025, 1, 1)) as dag:
    AIWrapperOperator(task_id="weekly_skip", agent="sim", prompt="fix", retries=2,
                      retry_delay=timedelta(seconds=1), agent_options={sim!r})
    AIWrapperOperator(task_id="weekly_fail", agent="sim", prompt="fix", retries=2,
                      retry_delay=timedelta(seconds=1), on_limit="fail",
                      agent_options={sim!r})
""",
    )
    assert outcome.task_states["weekly_skip"] == "skipped"
    assert outcome.try_numbers["weekly_skip"] == 1
    assert outcome.task_states["weekly_fail"] == "failed"  # the operator's on_limit wins
    assert outcome.try_numbers["weekly_fail"] == 1  # no retry
    log = capfd.readouterr().out
    assert "autofix verdict: SKIPPED (usage limit, on_limit='skip') [weekly_skip]" in log
    skip_line = next(line for line in log.splitlines() if "skipped (usage limit): " in line)
    assert RESET_LINE.search(skip_line), skip_line
    assert "2 retries left can wait 12h 0m in all" in skip_line
    fail_line = next(line for line in log.splitlines() if "failed (usage limit): " in line)
    assert RESET_LINE.search(fail_line) and "on_limit='fail'" in fail_line
    # Downstream can still read why, and the try's verdict is kept.
    for task_id in ("weekly_skip", "weekly_fail"):
        result = coerce_result(outcome.xcoms_by_key(task_id, "parse_result"))
        assert result is not None and result.failure_kind is FailureKind.USAGE_LIMIT
    assert outcome.state_store("weekly_skip")["try_1"]["verdict"].startswith(
        "skipped (usage limit): it resets at "
    )


def test_the_config_default_is_retry() -> None:
    assert AgentSettings().on_limit == "retry"
    with pytest.raises(ValueError, match="on_limit"):
        AgentSettings(on_limit="later")  # type: ignore[arg-type]
