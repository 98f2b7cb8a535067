"""What a usage or rate limit does to an agent task (``on_limit``): retry, skip or fail.

A retry helps only when it can start after the limit's reset. The retries' reach is the
longest the remaining tries can wait in all: per retry, the longer of Airflow's own delay
(``retry_delay``, exponential backoff with its jitter, ``max_retry_delay``) and the longest wait
the retry policy grants a reset the output named (``agents.max_retry_wait_seconds``). Plain
Python: the operator passes the task's settings in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast, get_args

from autofix.config import OnLimit
from autofix.errors import ConfigError
from autofix.result import FailureKind

ON_LIMIT_VALUES: tuple[str, ...] = get_args(OnLimit)
# The limits that reset; an exhausted quota (billing) is permanent and no limit here.
LIMIT_KINDS = frozenset({FailureKind.USAGE_LIMIT, FailureKind.RATE_LIMIT})
# Airflow's ceiling on a backoff delay (core.max_task_retry_delay, its default).
AIRFLOW_MAX_RETRY_DELAY_S = 24 * 3600.0


def check_on_limit(value: object) -> OnLimit:
    """``value`` as an on_limit setting, else a ConfigError that lists the three."""
    if value not in ON_LIMIT_VALUES:
        valid = ", ".join(repr(name) for name in ON_LIMIT_VALUES)
        raise ConfigError(
            f"on_limit={value!r} is not one of {valid}. Next: pass one of them, or leave "
            "on_limit out to use agents.on_limit from config/autofix.yaml"
        )
    return cast(OnLimit, value)


@dataclass(frozen=True)
class RetrySchedule:
    """A task's retries as Airflow runs them, seen from the try that just ended."""

    try_number: int
    max_tries: int  # the task's retries
    retry_delay_s: float = 0.0
    backoff: float = 0.0  # retry_exponential_backoff; 0 or 1: a fixed delay
    max_retry_delay_s: float | None = None
    # The longest wait the retry policy grants a reset the output named: math.inf uncapped,
    # None when the task's retry policy ignores the output.
    output_wait_cap_s: float | None = None

    @property
    def retries_left(self) -> int:
        return max(0, self.max_tries + 1 - self.try_number)

    def longest_delay(self, try_number: int) -> float:
        """The longest delay Airflow puts after try ``try_number`` when the output names no
        wait (``TaskInstance.next_retry_datetime``: backoff plus a jitter below it, capped)."""
        if self.backoff <= 0 or self.backoff == 1.0:
            return self.retry_delay_s
        try:
            low = max(1.0, math.ceil(self.retry_delay_s * self.backoff ** (try_number - 1)))
        except OverflowError:
            low = AIRFLOW_MAX_RETRY_DELAY_S
        delay = min(2 * low - 1, AIRFLOW_MAX_RETRY_DELAY_S)
        return min(delay, self.max_retry_delay_s) if self.max_retry_delay_s else delay

    def reach_s(self) -> float:
        """The longest the remaining retries can wait in all (math.inf when uncapped)."""
        total = 0.0
        for number in range(self.try_number, self.max_tries + 1):
            total += max(self.longest_delay(number), self.output_wait_cap_s or 0.0)
        return total


def limit_action(
    on_limit: OnLimit,
    kind: FailureKind | None,
    reset_in_s: float | None,
    schedule: RetrySchedule,
) -> OnLimit | None:
    """What this try's failure does: None when it is no limit (its retry class decides).

    ``skip`` skips only a limit no retry can outlast: its reset lies beyond the retries' reach,
    or no retry is left. A reset time the output did not name counts as within reach.
    """
    if kind not in LIMIT_KINDS:
        return None
    if on_limit != "skip":
        return on_limit
    if schedule.retries_left == 0:
        return "skip"
    if reset_in_s is None:
        return "retry"
    return "skip" if reset_in_s > schedule.reach_s() else "retry"
