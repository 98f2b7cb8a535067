"""``config/autofix.yaml``: schema, file lookup and ``AUTOFIX__SECTION__KEY`` env overrides.

Each section belongs to the module named in its docstring; the modules read their section
from here and never parse the file themselves.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from autofix import hosting, yamlfile
from autofix.errors import ConfigError, ConfigFileError

CONFIG_ENV = "AUTOFIX_CONFIG"
HOME_ENV = "AUTOFIX_HOME"
ENV_PREFIX = "AUTOFIX__"
# The same two settings in airflow.cfg's [autofix] section, read inside Airflow only; the
# environment variables above win, as they are the more specific.
AIRFLOW_CONFIG_OPTION = "config_file"
AIRFLOW_HOME_OPTION = "home"
# fixing.max_unrolled_iterations: the DAG no longer unrolls fix/check task pairs (one fix task
# with verify= instead); max_iterations alone bounds the attempts.
RETIRED_FIXING_KEYS = frozenset({"max_unrolled_iterations"})


OnLimit = Literal["retry", "skip", "fail"]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EscalationSettings(_Section):
    """autofix.validation.escalation: one extra attempt before giving up on identical errors."""

    agent: str | None = None
    model: str | None = None
    context_file: str | None = None
    context_callable: str | None = None  # "package.module:function" returning extra context text


class ValidationSettings(_Section):
    """autofix.validation.policy: the attempt policy."""

    retry_enabled: bool = True
    max_attempts: int = Field(default=3, ge=1, le=20)
    retry_delay_seconds: float = Field(default=0.0, ge=0)
    abort_on_identical_errors: bool = True
    max_errors_shown: int = Field(default=5, ge=1, le=50)
    escalation: EscalationSettings | None = None
    # Failure report JSON files; None = <AUTOFIX_HOME>/logs/autofix/reports.
    report_dir: str | None = None
    # How much of the invalid output is quoted back in feedback.
    max_output_chars: int = Field(default=4000, ge=200, le=200_000)
    strict_repairs: bool = False  # True: a repair that may change meaning makes the output invalid
    # Retry strategy (autofix.validation.strategies): auto | feedback | resample |
    # feedback+resample | history | constrained | adaptive. constrained=True also sends the
    # schema with any strategy. auto: adaptive + constrained where the agent takes a seed and a
    # schema (agent="openai"), feedback for the CLI agents.
    strategy: Literal[
        "auto", "feedback", "resample", "feedback+resample", "history", "constrained", "adaptive"
    ] = "auto"
    constrained: bool = False


class OtelSettings(_Section):
    """autofix.audit.otel: OpenTelemetry GenAI spans of every agent call and its attempts."""

    # auto: on when OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
    # OTEL_TRACES_EXPORTER is set (OTEL_TRACES_EXPORTER=none and OTEL_SDK_DISABLED=true: off).
    enabled: Literal["auto"] | bool = "auto"
    # The redacted prompt and answer as gen_ai.input.messages / gen_ai.output.messages.
    capture_content: bool = False
    max_content_chars: int = Field(default=4000, ge=100, le=200_000)
    service_name: str = Field(default="autofix", min_length=1)


class AuditSettings(_Section):
    """autofix.audit.stores: where every agent call is recorded."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    store: Literal["jsonl", "sql", "s3", "memory"] = "jsonl"
    path: str = "logs/autofix/audit.jsonl"
    bucket: str | None = None
    prefix: str = "autofix/audit"
    # store: sql. url: a SQLAlchemy URL (None: sqlite:///<home>/logs/autofix/audit.db);
    # conn_id: an Airflow connection instead, resolved inside Airflow only; schema: the
    # PostgreSQL schema of the autofix_* tables (None: the connection's default).
    url: str | None = None
    conn_id: str | None = None
    schema_: str | None = Field(default=None, alias="schema")
    required: bool = False
    rotate_max_bytes: int | None = Field(default=64 * 1024 * 1024, ge=1024)
    rotate_daily: bool = False
    # Each attempt's raw agent stdout/stderr (redacted); the task log shows the transcript.
    raw_output_dir: str | None = "logs/autofix/raw"
    otel: OtelSettings = Field(default_factory=OtelSettings)


class BudgetSettings(_Section):
    """autofix.audit.budget: limits counted from the audit store. None = unlimited."""

    max_calls_per_run: int | None = Field(default=None, ge=1)
    max_cost_per_run_usd: float | None = Field(default=None, gt=0)
    max_tokens_per_run: int | None = Field(default=None, ge=1)
    max_calls_per_day: int | None = Field(default=None, ge=1)
    max_cost_per_day_usd: float | None = Field(default=None, gt=0)
    max_tokens_per_day: int | None = Field(default=None, ge=1)
    # audit.store sql: a reservation of a worker that died stops counting after this long
    # (at least the task's timeout plus a margin is used).
    reservation_ttl_seconds: float = Field(default=3900.0, gt=0)


class ModelPrice(_Section):
    """autofix.audit.pricing: one model's price in USD per million tokens (``prices:``)."""

    input_usd_per_mtok: float = Field(ge=0)
    output_usd_per_mtok: float = Field(ge=0)
    # Cache reads; None: charged as ordinary input.
    cached_input_usd_per_mtok: float | None = Field(default=None, ge=0)


class AlertSettings(_Section):
    """autofix.audit.alert: warn when retries stop recovering."""

    enabled: bool = True
    retry_success_threshold: float = Field(default=0.5, ge=0, le=1)
    window: int = Field(default=20, ge=1)
    webhook_url: str | None = None
    # Fewer retries than this in the window: no verdict yet.
    min_retries: int = Field(default=5, ge=1)
    webhook_timeout_seconds: float = Field(default=5.0, gt=0)


class FixingSettings(_Section):
    """autofix.fixing: the autonomous_fixing DAG (read when the DAG file is parsed and per run)."""

    projects: list[str] = Field(default_factory=list)  # fixed when a run names no project
    # ... else a fresh copy of this folder for every such run (its files, a new repository),
    # leaving out the names in scratch_exclude; None: such a run fails and says what to set.
    scratch_from: str | None = None
    scratch_exclude: list[str] = Field(default_factory=list)
    # Where `make agent-clis` installed the pinned CLIs; used for a CLI not on PATH.
    agent_clis_dir: str | None = ".agents"
    agent_retries: int = Field(default=2, ge=0, le=10)  # Airflow retries of agent tasks (transient)
    agent_retry_delay_seconds: float = Field(default=60.0, ge=0)  # first delay; backoff doubles it
    cache_dir: str = "logs/autofix/cache"  # discover_tests results, one file per project
    test_config_max_age_hours: float = Field(default=24.0, ge=0)  # 0 = always ask the agent
    runs_dir: str = "logs/autofix/runs"  # per-run summaries (JSON + Markdown)
    # After each project's summary: ask a person first (approval), then push the work branch
    # (none | branch | pull_request) to the remote of the Connection git_conn_id names.
    approval: bool = False
    approval_timeout_seconds: int = Field(default=24 * 3600, ge=1)  # no answer: rejected
    push: Literal["none", "branch", "pull_request"] = "none"
    git_conn_id: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _drop_retired(cls, data: Any) -> Any:
        """Keys of older versions load without effect instead of failing the whole file."""
        if isinstance(data, dict) and RETIRED_FIXING_KEYS & data.keys():
            data = {k: v for k, v in data.items() if k not in RETIRED_FIXING_KEYS}
        return data


class AgentSettings(_Section):
    """autofix.task: running the agent CLIs (early stops, retry delays)."""

    # A reset time or retry-after in the output sets the next Airflow retry's delay, at most this.
    max_retry_wait_seconds: float = Field(default=6 * 3600.0, ge=0)
    # Stop a run whose CLI retried a failure no retry can fix (4xx, network gone) this many times.
    early_stop_hopeless_after: int = Field(default=2, ge=0, le=100)  # 0 = never
    # ... or the same transient failure (429, 5xx, 529) this many times.
    early_stop_repeated_after: int = Field(default=4, ge=0, le=100)  # 0 = never
    # A usage or rate limit: retry | skip (when the reset is beyond the retries' reach) | fail;
    # an operator's on_limit= wins (autofix.task.limit_action).
    on_limit: OnLimit = "retry"


class AutofixConfig(_Section):
    validation: ValidationSettings = Field(default_factory=ValidationSettings)
    agents: AgentSettings = Field(default_factory=AgentSettings)
    audit: AuditSettings = Field(default_factory=AuditSettings)
    budgets: BudgetSettings = Field(default_factory=BudgetSettings)
    # Model name (as the agent reports it, any case) → price; wins over the genai-prices table.
    prices: dict[str, ModelPrice] = Field(default_factory=dict)
    alert: AlertSettings = Field(default_factory=AlertSettings)
    schedule: str | None = None  # the autonomous_fixing DAG's schedule; None = manual
    fixing: FixingSettings = Field(default_factory=FixingSettings)
    source: str = Field(default="defaults", exclude=True)


def autofix_home() -> Path:
    """Where relative config paths resolve: ``AUTOFIX_HOME`` > airflow.cfg's ``[autofix] home``
    (inside Airflow) > the current directory."""
    return Path(
        os.environ.get(HOME_ENV) or hosting.airflow_setting(AIRFLOW_HOME_OPTION) or Path.cwd()
    )


def resolve(path: str | Path) -> Path:
    candidate = Path(path).expanduser()
    return candidate if candidate.is_absolute() else autofix_home() / candidate


def find_config_file(explicit: str | Path | None = None) -> Path | None:
    """explicit argument > ``AUTOFIX_CONFIG`` > airflow.cfg's ``[autofix] config_file`` (inside
    Airflow) > ``<home>/config/autofix.yaml`` > None (defaults)."""
    if explicit:
        return resolve(explicit)
    if os.environ.get(CONFIG_ENV):
        return resolve(os.environ[CONFIG_ENV])
    from_airflow = hosting.airflow_setting(AIRFLOW_CONFIG_OPTION)
    if from_airflow:
        return resolve(from_airflow)
    default = resolve("config/autofix.yaml")
    return default if default.is_file() else None


def _env_overrides(environ: dict[str, str]) -> tuple[dict[str, Any], dict[tuple[str, ...], str]]:
    """The overrides as a nested mapping, and which variable set each key path."""
    overrides: dict[str, Any] = {}
    origins: dict[tuple[str, ...], str] = {}
    for name, value in environ.items():
        if not name.startswith(ENV_PREFIX):
            continue
        keys = [part.lower() for part in name[len(ENV_PREFIX) :].split("__") if part]
        if not keys:
            continue
        node = overrides
        for key in keys[:-1]:
            node = node.setdefault(key, {})
        try:
            node[keys[-1]] = yaml.load(value, Loader=yamlfile.SafeLoader) if value else None
        except yaml.YAMLError as exc:
            reason = " ".join(str(exc).split())
            raise ConfigError(
                f"environment variable {name}: invalid YAML value: {reason}"
            ) from None
        origins[tuple(keys)] = name
    return overrides, origins


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _describe(
    error: ValidationError,
    source: str,
    root: yaml.Node | None,
    origins: dict[tuple[str, ...], str],
) -> str:
    """Every problem with where it comes from: the file and line, or the env variable."""
    problems = []
    for item in error.errors():
        loc = tuple(str(part) for part in item["loc"])
        variable = next((name for keys, name in origins.items() if loc[: len(keys)] == keys), None)
        if variable is not None:
            where = f"{variable}: "
        else:
            line = yamlfile.line_of(root, tuple(item["loc"])) if root is not None else None
            where = f"line {line}: " if line else ""
        problems.append(f"{where}{'.'.join(loc) or '<root>'}: {item['msg']}")
    return f"invalid autofix config ({source}): " + "; ".join(problems)


def load_config(
    path: str | Path | None = None, environ: dict[str, str] | None = None
) -> AutofixConfig:
    """Load, merge env overrides, and validate. Raises ConfigError naming the file, the line
    (or the env variable), the key and the reason."""
    env = dict(os.environ if environ is None else environ)
    config_file = find_config_file(path)
    raw: dict[str, Any] = {}
    root: yaml.Node | None = None
    source = "defaults"
    if config_file is not None:
        name = str(config_file)
        text = yamlfile.read_text(config_file, "autofix config")
        root, loaded = yamlfile.parse(text, name)
        if loaded is not None and not isinstance(loaded, dict):
            raise ConfigFileError(name, "the top level must be a mapping of sections", 1)
        raw = loaded or {}
        source = name
    overrides, origins = _env_overrides(env)
    if overrides:
        raw = _merge(raw, overrides)
        source += " + env"
    try:
        config = AutofixConfig.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, source, root, origins)) from None
    config.source = source
    return config
