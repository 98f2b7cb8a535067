"""The task suite of the real-model benchmark (benchmarks/e2e_local_llm.py).

Eight task schemas, completion-style few-shot prompts for a base model. Together they cover
regex-constrained strings, enums, nested lists of objects, optional and nullable fields,
bounded numbers, and cross-field rules of three shapes: a conditional requirement (`When`),
a sum or an ordering (`Total`, `Ordered`) and mutually exclusive fields (`Exclusive`), plus
one opaque rule written as a plain function (test_config).

`job_schedule` and `quality_check` are the held-out tasks: written and committed before any
strategy was run on them or tuned, and scored once. Every task's examples are valid answers
(tests/test_llm_tasks.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from autofix.validation.cross_field import Exclusive, Ordered, Total, When
from autofix.validation.validator import OutputValidator


class Strategy(BaseModel):
    name: str = Field(pattern=r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
    indicators: list[str] = Field(min_length=2)
    period: int = Field(ge=1, le=250)
    threshold: float = Field(ge=0, le=100)


class TestConfig(BaseModel):
    __test__ = False
    model_config = ConfigDict(extra="forbid")

    framework: Literal["pytest", "unittest", "jest", "vitest", "go", "cargo"]
    test_command: str = Field(min_length=1)
    test_paths: list[str]
    checks: list[Literal["ruff", "mypy", "flake8", "black", "eslint", "tsc", "gofmt", "clippy"]] = (
        Field(min_length=1)
    )

    # The command runs the framework: a conditional requirement per framework (it was a
    # function, which no grammar sees; docs/benchmarks.md has both).
    __autofix_rules__ = [
        When({"framework": framework}, {"test_command": {"pattern": runs}})
        for framework, runs in {
            "pytest": "pytest",
            "unittest": "unittest",
            "jest": "jest",
            "vitest": "vitest",
            "go": "go test",
            "cargo": "cargo test",
        }.items()
    ]


class Recommendation(BaseModel):
    type: Literal["recommendation", "no_action"]
    items: list[str]
    confidence: float = Field(ge=0, le=1)

    # A conditional requirement each way (was a function until the cross-field rules).
    __autofix_rules__ = [
        When({"type": "recommendation"}, {"items": {"minItems": 1}}),
        When({"type": "no_action"}, {"items": {"maxItems": 0}}),
    ]


@dataclass(frozen=True)
class Task:
    name: str
    schema: type[BaseModel]
    header: str
    examples: Sequence[tuple[str, str]]
    inputs: Sequence[str]
    label: str
    rules: Callable[[Any], list[str]] | None = None  # an opaque semantic rule (a function)
    max_tokens: int = 96
    # An answer whose every collection is empty is refused unless the task means it
    # (recommendation's no_action has no items).
    allow_empty: bool = False
    held_out: bool = False  # fixed before tuning; never tuned on (docs/benchmarks.md)

    def validator(self) -> OutputValidator:
        rules = [self.rules] if self.rules else []
        return OutputValidator(self.schema, semantic_validators=rules, allow_empty=self.allow_empty)

    def prompt(self, index: int) -> str:
        shots = "\n\n".join(f"{self.label}: {q}\nJSON: {a}" for q, a in self.examples)
        return f"{self.header}\n\n{shots}\n\n{self.label}: {self.inputs[index % len(self.inputs)]}\nJSON:"


STRATEGY_TASK = Task(
    name="strategy",
    schema=Strategy,
    header="Trading strategies as JSON. name is snake_case; indicators lists at least 2 "
    "indicators; period is 1 to 250; threshold is 0 to 100.",
    label="Idea",
    examples=(
        (
            "RSI and SMA: buy oversold dips while price is above the 200-day average",
            '{"name": "rsi_trend_filter", "indicators": ["rsi", "sma"], "period": 200, "threshold": 30}',
        ),
        (
            "MACD and volume: sell when MACD crosses down on a volume spike",
            '{"name": "macd_volume_exit", "indicators": ["macd", "volume"], "period": 26, "threshold": 70}',
        ),
        (
            "Bollinger bands and ATR: buy breakouts above the upper band",
            '{"name": "bollinger_atr_breakout", "indicators": ["bollinger", "atr"], "period": 20, "threshold": 55}',
        ),
    ),
    inputs=(
        "stochastic and EMA: momentum entries on crossovers",
        "RSI and volume: mean reversion at RSI extremes",
        "ADX and SMA: follow strong trends",
        "Keltner channel and RSI: buy dips at the lower channel",
        "OBV and RSI: short on divergence",
        "VWAP and EMA: intraday scalping",
        "Ichimoku and MACD: swing trades on cloud breaks",
        "parabolic SAR and MACD: exit on flips",
        "CCI and SMA: accumulate below -100 in an uptrend",
        "z-score and correlation: pairs trading",
        "SMA and EMA: golden cross",
        "Bollinger and Keltner: volatility squeeze",
    ),
)

TEST_CONFIG_TASK = Task(
    name="test_config",
    schema=TestConfig,
    header="How each project runs its tests, as JSON. framework is one of pytest, unittest, jest, "
    "vitest, go, cargo; test_command runs that framework; checks lists at least one of ruff, "
    "mypy, flake8, black, eslint, tsc, gofmt, clippy.",
    label="Project",
    examples=(
        (
            "a Python library with tests/ and a pyproject.toml using ruff and mypy",
            '{"framework": "pytest", "test_command": "pytest -q tests", "test_paths": ["tests"], "checks": ["ruff", "mypy"]}',
        ),
        (
            "a TypeScript web app with vitest and eslint",
            '{"framework": "vitest", "test_command": "npx vitest run", "test_paths": ["src"], "checks": ["eslint", "tsc"]}',
        ),
        (
            "a Rust crate",
            '{"framework": "cargo", "test_command": "cargo test", "test_paths": ["tests"], "checks": ["clippy"]}',
        ),
    ),
    inputs=(
        "a Django site with pytest-django and flake8",
        "a Go service with a Makefile",
        "a Node.js API tested with jest",
        "a small Python script collection using unittest and black",
        "a React component library with vitest",
        "a data pipeline in Python with pytest, ruff and mypy",
        "a CLI written in Rust with integration tests",
        "a TypeScript monorepo using jest and tsc",
        "a Flask app with tests in app/tests",
        "a Go library formatted with gofmt",
    ),
)

RECOMMENDATION_TASK = Task(
    name="recommendation",
    schema=Recommendation,
    header="Code review verdicts as JSON. type is recommendation or no_action; items lists the "
    "changes to make (empty for no_action, not empty for recommendation); confidence is 0 to 1.",
    label="Review",
    examples=(
        (
            "function parse() swallows every exception",
            '{"type": "recommendation", "items": ["catch only ValueError in parse()", "log the error"], "confidence": 0.8}',
        ),
        (
            "clean small change with tests",
            '{"type": "no_action", "items": [], "confidence": 0.9}',
        ),
        (
            "SQL query built with string formatting",
            '{"type": "recommendation", "items": ["use query parameters"], "confidence": 0.95}',
        ),
    ),
    inputs=(
        "a loop that opens a file on every iteration",
        "typo fix in a docstring",
        "password compared with == instead of a constant-time compare",
        "new endpoint without input validation",
        "renamed a variable for clarity",
        "global mutable default argument in a helper",
        "README wording update",
        "retry loop without any backoff",
        "tests added for an edge case",
        "hard-coded API token in config.py",
    ),
    allow_empty=True,
)


# -- tuned on ----------------------------------------------------------------------------------


class ReleaseWindow(BaseModel):
    version: str = Field(pattern=r"^\d+\.\d+\.\d+$")
    risk: Literal["low", "medium", "high"]
    start_hour: int = Field(ge=0, le=23)
    end_hour: int = Field(ge=0, le=23)
    rollback_plan: str | None = None

    __autofix_rules__ = [Ordered(("start_hour", "end_hour"), strict=True)]


RELEASE_WINDOW_TASK = Task(
    name="release_window",
    schema=ReleaseWindow,
    header="Release windows as JSON. version is MAJOR.MINOR.PATCH; risk is low, medium or "
    "high; start_hour and end_hour are 0 to 23, start_hour before end_hour; rollback_plan is "
    "text or null.",
    label="Release",
    examples=(
        (
            "ship 2.4.1 of the billing API tonight, low risk, between 20 and 23 o'clock",
            '{"version": "2.4.1", "risk": "low", "start_hour": 20, "end_hour": 23, "rollback_plan": null}',
        ),
        (
            "major upgrade 3.0.0 of the search cluster, risky, 1 am to 5 am, revert by restoring the snapshot",
            '{"version": "3.0.0", "risk": "high", "start_hour": 1, "end_hour": 5, "rollback_plan": "restore the snapshot"}',
        ),
        (
            "patch 1.12.7 for the mobile backend in the morning, medium risk",
            '{"version": "1.12.7", "risk": "medium", "start_hour": 8, "end_hour": 11, "rollback_plan": "redeploy 1.12.6"}',
        ),
    ),
    inputs=(
        "hotfix 4.2.3 for payments late at night",
        "deploy 0.9.0 of the new dashboard after lunch",
        "roll out 5.1.0 of the auth service overnight, high risk",
        "minor release 2.7.0 of the docs site during office hours",
        "upgrade the database client to 1.3.2 at dawn",
        "release 7.0.0 of the data platform in the evening",
        "ship 3.3.3 of the CLI before the morning standup",
        "emergency fix 6.0.1 of the gateway around midnight",
        "canary 2.2.0 of recommendations in the afternoon",
        "push 10.4.2 of the ledger service after close of business",
        "release 1.0.0 of the SDK at noon",
        "upgrade 4.4.4 of the cache layer from 22 to 2 o'clock",
    ),
    max_tokens=128,
)


class Service(BaseModel):
    name: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    replicas: int = Field(ge=1, le=10)


class ResourceSplit(BaseModel):
    team: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    services: list[Service] = Field(min_length=1, max_length=3)
    cpu_pct: int = Field(ge=0, le=100)
    memory_pct: int = Field(ge=0, le=100)
    storage_pct: int = Field(ge=0, le=100)

    __autofix_rules__ = [Total(("cpu_pct", "memory_pct", "storage_pct"), equals=100)]


def distinct_services(value: Any) -> str | None:
    """An opaque rule (a plain function, no path): the grammar cannot see it."""
    names = [service.name for service in value.services]
    return None if len(set(names)) == len(names) else f"services must have distinct names: {names}"


RESOURCE_SPLIT_TASK = Task(
    name="resource_split",
    schema=ResourceSplit,
    header="Team budgets as JSON. team and service names are lower-case with dashes; 1 to 3 "
    "services with 1 to 10 replicas; cpu_pct, memory_pct and storage_pct split the budget "
    "and add up to 100.",
    label="Team",
    examples=(
        (
            "search team: the indexer and the query API, mostly CPU-bound",
            '{"team": "search", "services": [{"name": "indexer", "replicas": 3}, {"name": "query-api", "replicas": 4}], "cpu_pct": 60, "memory_pct": 30, "storage_pct": 10}',
        ),
        (
            "archive team: one cold-storage writer",
            '{"team": "archive", "services": [{"name": "cold-writer", "replicas": 1}], "cpu_pct": 10, "memory_pct": 20, "storage_pct": 70}',
        ),
        (
            "cache team: a Redis proxy and a warmer, memory heavy",
            '{"team": "cache", "services": [{"name": "redis-proxy", "replicas": 6}, {"name": "warmer", "replicas": 2}], "cpu_pct": 25, "memory_pct": 65, "storage_pct": 10}',
        ),
    ),
    inputs=(
        "payments team: the checkout API and a fraud scorer",
        "media team: a video transcoder, CPU heavy",
        "analytics team: a warehouse loader and a query engine",
        "auth team: one token service",
        "ml team: a trainer, a feature store and a model server",
        "logs team: a shipper and a long-term store, storage heavy",
        "web team: the frontend and an image resizer",
        "mail team: a sender and a bounce handler",
        "maps team: a tile renderer and a geocoder",
        "billing team: an invoice generator",
    ),
    rules=distinct_services,
    max_tokens=160,
)


class Incident(BaseModel):
    severity: Literal["sev1", "sev2", "sev3", "sev4"]
    summary: str = Field(min_length=10, max_length=120)
    page_on_call: bool
    ticket_url: str | None = Field(
        default=None, pattern=r"^https://tickets\.example\.com/[A-Z]+-\d+$"
    )
    chat_channel: str | None = Field(default=None, pattern=r"^#[a-z0-9-]+$")

    __autofix_rules__ = [
        When({"severity": "sev1"}, {"page_on_call": True}),
        Exclusive(("ticket_url", "chat_channel"), required=True),
    ]


INCIDENT_TASK = Task(
    name="incident",
    schema=Incident,
    header="Incidents as JSON. severity is sev1 (worst) to sev4; summary is 10 to 120 "
    "characters; a sev1 always pages on call; give exactly one of ticket_url "
    "(https://tickets.example.com/KEY-123) or chat_channel (#name).",
    label="Report",
    examples=(
        (
            "checkout is down for every customer, tracked in OPS-4411",
            '{"severity": "sev1", "summary": "checkout down for all customers", "page_on_call": true, "ticket_url": "https://tickets.example.com/OPS-4411"}',
        ),
        (
            "a typo on the pricing page, discuss in #web-team",
            '{"severity": "sev4", "summary": "typo on the pricing page", "page_on_call": false, "chat_channel": "#web-team"}',
        ),
        (
            "search results are slow for some users, ticket SRCH-88",
            '{"severity": "sev3", "summary": "slow search results for some users", "page_on_call": false, "ticket_url": "https://tickets.example.com/SRCH-88"}',
        ),
    ),
    inputs=(
        "the login page returns 500 for everyone",
        "nightly report arrived two hours late, see #data-ops",
        "disk 90% full on a replica, ticket DB-212",
        "payments double-charged a few customers, ticket PAY-901",
        "a broken link in the footer",
        "the mobile app crashes on start for all Android users",
        "staging deploys are failing, talk in #release",
        "an expired certificate on an internal dashboard",
        "the API is rate limiting a partner, ticket API-77",
        "all emails are stuck in the queue",
    ),
    max_tokens=128,
)


# -- held out: fixed before any run, never tuned on ------------------------------------------


class Owner(BaseModel):
    name: str = Field(pattern=r"^[a-z]+(\.[a-z]+)?$")
    on_call: bool


class JobSchedule(BaseModel):
    job: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    cron: str = Field(pattern=r"^[0-9*/,-]+( [0-9*/,-]+){4}$")
    timezone: Literal["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo"]
    retries: int = Field(ge=0, le=5)
    retry_delay_s: int | None = Field(default=None, ge=10, le=3600)
    owners: list[Owner] = Field(min_length=1, max_length=3)

    __autofix_rules__ = [When({"retries": {"minimum": 1}}, {"retry_delay_s": {"present": True}})]


JOB_SCHEDULE_TASK = Task(
    name="job_schedule",
    schema=JobSchedule,
    header="Scheduled jobs as JSON. job is snake_case; cron has five fields; timezone is UTC, "
    "Europe/Berlin, America/New_York or Asia/Tokyo; retries is 0 to 5, and a job that "
    "retries gives retry_delay_s (10 to 3600); 1 to 3 owners.",
    label="Job",
    examples=(
        (
            "rebuild the search index every night at 2 in Berlin, retry twice, anna is on call",
            '{"job": "rebuild_search_index", "cron": "0 2 * * *", "timezone": "Europe/Berlin", "retries": 2, "retry_delay_s": 300, "owners": [{"name": "anna", "on_call": true}]}',
        ),
        (
            "send the weekly digest on Mondays at 9 New York time, no retries, owned by bo.chen",
            '{"job": "weekly_digest", "cron": "0 9 * * 1", "timezone": "America/New_York", "retries": 0, "retry_delay_s": null, "owners": [{"name": "bo.chen", "on_call": false}]}',
        ),
        (
            "sync invoices every 15 minutes in UTC, retry up to 5 times, owners kim and lee (lee on call)",
            '{"job": "sync_invoices", "cron": "*/15 * * * *", "timezone": "UTC", "retries": 5, "retry_delay_s": 60, "owners": [{"name": "kim", "on_call": false}, {"name": "lee", "on_call": true}]}',
        ),
    ),
    inputs=(
        "back up the database every day at 3 in Tokyo, retry three times",
        "clean temp files hourly in UTC, owned by ops",
        "export metrics every 5 minutes, retry once, sam is on call",
        "close the books on the first of each month at midnight New York time",
        "refresh the currency rates every 30 minutes in Berlin, retry 4 times",
        "rotate logs every Sunday at 1 in UTC, owners ana and raj",
        "warm the cache at 6 every weekday in Tokyo, no retries",
        "compact the event store nightly at 4 UTC, retry twice, mia on call",
        "email the sales report on Fridays at 17 in New York",
        "rebuild thumbnails every 10 minutes in Berlin, retry 5 times, owners jo and max",
    ),
    max_tokens=192,
    held_out=True,
)


class QualityCheck(BaseModel):
    column: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    min_value: float
    max_value: float
    action: Literal["warn", "fail", "quarantine"]
    quarantine_table: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9_]*$")
    alert_email: str | None = Field(default=None, pattern=r"^[a-z.]+@example\.com$")
    alert_webhook: str | None = Field(default=None, pattern=r"^https://hooks\.example\.com/\S+$")

    __autofix_rules__ = [
        Ordered(("min_value", "max_value")),
        When({"action": "quarantine"}, {"quarantine_table": {"present": True}}),
        Exclusive(("alert_email", "alert_webhook")),
    ]


QUALITY_CHECK_TASK = Task(
    name="quality_check",
    schema=QualityCheck,
    header="Data quality checks as JSON. column is snake_case; min_value is at most max_value; "
    "action is warn, fail or quarantine, and quarantine names a quarantine_table; at most "
    "one of alert_email (name@example.com) or alert_webhook (https://hooks.example.com/...).",
    label="Check",
    examples=(
        (
            "order totals must be between 0 and 10000, fail the load, mail data.team",
            '{"column": "order_total", "min_value": 0, "max_value": 10000, "action": "fail", "quarantine_table": null, "alert_email": "data.team@example.com", "alert_webhook": null}',
        ),
        (
            "ages from 0 to 120, move bad rows aside into bad_ages",
            '{"column": "age", "min_value": 0, "max_value": 120, "action": "quarantine", "quarantine_table": "bad_ages", "alert_email": null, "alert_webhook": null}',
        ),
        (
            "temperatures between -40.5 and 55.0, just warn on the ops webhook",
            '{"column": "temperature_c", "min_value": -40.5, "max_value": 55.0, "action": "warn", "quarantine_table": null, "alert_email": null, "alert_webhook": "https://hooks.example.com/ops"}',
        ),
    ),
    inputs=(
        "discount percentages from 0 to 100, fail and mail finance",
        "latitude between -90 and 90, quarantine bad rows",
        "response times from 0 to 30000 ms, warn on the sre webhook",
        "ratings between 1 and 5, warn",
        "invoice amounts from 0.01 to 50000, quarantine and alert billing by mail",
        "humidity between 0 and 100 percent, fail the load",
        "exchange rates from 0.0001 to 10000, warn the fx team by mail",
        "battery levels from 0 to 1, quarantine into bad_battery",
        "page views per session from 1 to 500, warn on the analytics webhook",
        "sensor voltages between -5.0 and 5.0, fail",
    ),
    max_tokens=192,
    held_out=True,
)

TASKS: dict[str, Task] = {
    t.name: t
    for t in (
        STRATEGY_TASK,
        TEST_CONFIG_TASK,
        RECOMMENDATION_TASK,
        RELEASE_WINDOW_TASK,
        RESOURCE_SPLIT_TASK,
        INCIDENT_TASK,
        JOB_SCHEDULE_TASK,
        QUALITY_CHECK_TASK,
    )
}
HELD_OUT: tuple[str, ...] = tuple(name for name, task in TASKS.items() if task.held_out)
