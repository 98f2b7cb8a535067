"""AIWrapperOperator: an AI agent CLI as an Airflow task, pushing a ParseResult to XCom."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from airflow.sdk import BaseOperator
from airflow.sdk.exceptions import AirflowSkipException

from autofix.agents.limits import McpServer, agent_limits
from autofix.agents.registry import format_class
from autofix.audit.recorder import AuditRecorder
from autofix.config import AgentSettings, AutofixConfig, OnLimit, load_config, resolve
from autofix.connections import connection_for_agent
from autofix.costs import describe_cost
from autofix.errors import AgentOptionError, AgentRetryLater, ConfigError
from autofix.hooks import AgentConnectionHook, hook_for_agent
from autofix.hooks.audit_db import with_connection_url
from autofix.hosting import bridge_airflow_masker
from autofix.operators.results import FAILED_RESULT_KEY, pull_result
from autofix.operators.retry_policy import (
    AgentPermanentError,
    AgentRetryPolicy,
    describe_wait,
    fail_now,
    limit_line,
    retry_schedule,
)
from autofix.operators.verdicts import (
    did_not_start,
    earlier_spend,
    failure_line,
    kind_of,
    remember_try,
)
from autofix.parser import check_fail_on
from autofix.redact import (
    RedactedLog,
    redact,
    register_environment,
    register_secrets,
    secret_env_values,
)
from autofix.result import ParseResult, RetryClass
from autofix.task.agent_task import AgentTask
from autofix.task.limit_action import check_on_limit, limit_action
from autofix.task.livelog import safe_name
from autofix.task.spec import AgentTaskSpec, TraceContext
from autofix.validation.strategies import check_strategy
from autofix.verify.checks import as_checks

if TYPE_CHECKING:
    from airflow.sdk import Context
    from pydantic import BaseModel


def _map_index(ti: Any) -> int:
    index = getattr(ti, "map_index", -1)
    return -1 if index is None else int(index)


def task_trace(context: Context) -> TraceContext:
    ti = context["ti"]
    return TraceContext(
        trace_id=str(context["run_id"]),
        causation_id=f"{ti.dag_id}.{ti.task_id}#try{ti.try_number}",
        hostname=str(getattr(ti, "hostname", "") or ""),
        dag_id=ti.dag_id,
        task_id=ti.task_id,
        map_index=_map_index(ti),
        try_number=ti.try_number,
    )


def load_task_config(log: Any, path: str | None = None) -> AutofixConfig:
    """The config; else the task fails at once, naming the file, the key and the reason."""
    try:
        config = load_config(path)
        # audit.conn_id names an Airflow connection: its URL is known only in here.
        return config.model_copy(update={"audit": with_connection_url(config.audit)})
    except ConfigError as exc:
        fail_now(log, f"{exc}. Next: fix the config file, then clear this task")


def _check_option_names(agent: str, options: dict[str, Any]) -> None:
    """A misspelt agent option fails at DAG parse time; values are checked after rendering."""
    known = format_class(agent).options_type.__annotations__
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise AgentOptionError(
            f"agent_options for {agent!r}: unknown {', '.join(map(repr, unknown))}; "
            f"valid: {', '.join(sorted(known)) or 'none'}",
            agent=agent,
            option=unknown[0],
            supported=sorted(known),
        )


def _as_tuple(values: Sequence[str] | None) -> Any:
    """A list argument as a tuple; a lone string is left for AgentLimits to refuse by name."""
    if values is None or isinstance(values, str):
        return values
    return tuple(values)


def raw_output_dir(config: AutofixConfig, context: Context) -> Path | None:
    """Where this try's raw agent output goes: ``<audit.raw_output_dir>/<run>/<task>[.<map
    index>]/try<n>``; None when the config keeps none."""
    if not config.audit.raw_output_dir:
        return None
    ti = context["ti"]
    task = ti.task_id
    map_index = getattr(ti, "map_index", -1)
    if map_index is not None and map_index >= 0:
        task += f".{map_index}"
    return (
        resolve(config.audit.raw_output_dir)
        / safe_name(str(context["run_id"]))
        / safe_name(task)
        / f"try{ti.try_number}"
    )


def build_recorder(config: AutofixConfig) -> AuditRecorder:
    return AuditRecorder.from_config(config)


# What a person looks for first in the XCom tab, which shows a value's first lines folded open:
# the answer, why it failed, then (``lead``, e.g. a fix's commits) and the cost.
XCOM_HEAD = ("final_text", "data", "failure_kind")
XCOM_AFTER_LEAD = ("cost_usd", "cost_source", "success", "status", "error_message")


def to_xcom(result: ParseResult, **lead: Any) -> dict[str, Any]:
    """A ParseResult as its XCom: plain JSON, which the UI draws as a tree (a serde-registered
    class would show as one flat string), what people look for first; ``coerce_result`` turns
    it back into the model (it ignores ``lead``'s keys)."""
    dumped = result.model_dump(mode="json")
    ordered = {key: dumped.pop(key) for key in XCOM_HEAD}
    ordered.update(lead)
    ordered.update({key: dumped.pop(key) for key in XCOM_AFTER_LEAD})
    return {**ordered, **dumped}


class AIWrapperOperator(BaseOperator):
    """Run an AI coding agent (claude | codex | gemini | wrapper | plain | sim | openai) as a subprocess.

    The agent's output streams live into the task log. Its exit code, its own events and its
    stderr become one ParseResult, returned to XCom. With ``output_schema`` the final answer is
    validated and corrected through retry-with-feedback inside this task (``max_attempts``).

    The XCom is the ParseResult as JSON (a tree in the UI); ``coerce_result``/``pull_result``
    rebuild the model downstream, and ``run_spec`` returns it to Python callers. Its cost and
    tokens are summed over every call of the task, earlier Airflow tries included.

    Failures raise by retry class (docs/failure-kinds.md): transient (rate, usage or quota limit,
    overload, server error, connection, timeout, cancelled, killed) → ``AgentRetryLater``, so
    Airflow's ``retries`` apply and the try logs one line, not a traceback; when the output
    carried a reset time or retry-after the next try waits that long (``AgentRetryPolicy``, the
    default ``retry_policy``). Permanent (auth, invalid request, refusal, budget, exhausted
    validation) → ``AgentPermanentError``, no retry and no traceback, after one line that says
    the kind, the reason and what to do next. ``fail_on_error=False`` always returns the result and lets a
    ``ParseResultBranchOperator`` decide.

    ``on_limit``: what a usage or rate limit does (None: ``agents.on_limit``, default
    ``"retry"``): ``"retry"`` as above; ``"skip"`` skips the task, its reset time in the log,
    when the reset is beyond the retries' reach (``autofix.task.limit_action``); ``"fail"``
    fails it at once. Either way the ParseResult goes to the ``parse_result`` XCom.

    ``retry_strategy`` / ``constrained``: what a validation retry sends (docs/openai_agent.md);
    ``conn_id``: an Airflow Connection with the agent's key, base URL, model and cloud settings,
    read by the agent's hook (claude → ``ClaudeCodeHook``, codex → ``CodexHook``, gemini →
    ``GeminiCliHook``, openai → ``OpenAIEndpointHook``; docs/connections.md).
    ``agent_clis_dir``: the CLIs ``make agent-clis`` pinned (e.g. ``".agents"``, relative to
    AUTOFIX_HOME), used when the agent's command is not on PATH; unset, nothing is looked up.

    The agent's own limits and tools, typed (``autofix.agents.limits.AgentLimits``), each mapped
    onto the agent's CLI (docs/agents/options.md): ``max_turns``, ``allowed_tools``,
    ``disallowed_tools``, ``permission_mode`` (the CLI's permission, sandbox or approval mode),
    ``mcp_servers`` (``{name: {"command": ..., "args": [...], "env": {...}}}`` or
    ``{name: {"url": ..., "headers": {...}}}``, written in the CLI's own config format),
    ``fallback_model`` and ``extra_args`` (appended to the CLI's command line). One the agent
    cannot take, a value it does not accept, or one also given by its older ``agent_options``
    key raises ``autofix.errors.AgentOptionError`` when the DAG is parsed.

    ``verify``: checks run in ``cwd`` after the agent reports success (a command, a known tool,
    ``"expect_changes"``, ``{"expect_files": [...]}``, a callable; docs/verification.md). A
    failed check is ``verification_failed``: the agent is resumed with the checks' errors, up
    to ``max_attempts``, and each attempt's check results are in the XCom and the audit.
    """

    template_fields: Sequence[str] = (
        "prompt",
        "operation",
        "cwd",
        "env",
        "command",
        "model",
        "agent_options",
    )
    template_fields_renderers: ClassVar[dict[str, str]] = {
        "prompt": "md",
        "env": "json",
        "agent_options": "json",
    }
    ui_color = "#d8ecff"

    def __init__(
        self,
        *,
        prompt: str,
        agent: str = "claude",
        operation: str = "",
        command: list[str] | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        timeout: float | None = 3600.0,
        idle_timeout: float | None = None,
        grace: float = 10.0,
        patterns: str | None = None,
        resume_from: str | None = None,
        fail_on_error: bool = True,
        output_schema: type[BaseModel] | str | None = None,
        max_attempts: int | None = None,
        retry_enabled: bool | None = None,
        model: str | None = None,
        agent_options: dict[str, Any] | None = None,
        config_path: str | None = None,
        audit: bool = True,
        retry_strategy: str | None = None,
        constrained: bool | None = None,
        conn_id: str | None = None,
        agent_clis_dir: str | None = None,
        fail_on: Sequence[str] | None = None,
        max_turns: int | None = None,
        allowed_tools: Sequence[str] | None = None,
        disallowed_tools: Sequence[str] | None = None,
        permission_mode: str | None = None,
        mcp_servers: Mapping[str, Mapping[str, Any] | McpServer] | None = None,
        fallback_model: str | None = None,
        extra_args: Sequence[str] | None = None,
        verify: Sequence[Any] | None = None,
        on_limit: OnLimit | None = None,
        **kwargs: Any,
    ) -> None:
        # Airflow 3.3's per-try delay: the wait the agent's output asked for (a user's own
        # policy replaces it; chain AgentRetryPolicy first to keep both).
        kwargs.setdefault("retry_policy", AgentRetryPolicy())
        super().__init__(**kwargs)
        self.prompt = prompt
        self.agent = agent
        self.operation = operation or self.task_id
        self.command = command
        self.cwd = cwd
        self.env = env or {}
        self.timeout = timeout
        self.idle_timeout = idle_timeout
        self.grace = grace
        self.patterns = patterns
        self.resume_from = resume_from
        self.fail_on_error = fail_on_error
        self.output_schema = output_schema
        self.max_attempts = max_attempts
        self.retry_enabled = retry_enabled
        self.model = model
        self.agent_options = agent_options or {}
        if isinstance(self.agent_options, dict):  # not an XComArg or a mapped argument
            _check_option_names(agent, self.agent_options)
        # Typed and checked here, at parse time: an option the CLI cannot take fails the DAG.
        self.limits = agent_limits(
            agent,
            max_turns=max_turns,
            allowed_tools=_as_tuple(allowed_tools),
            disallowed_tools=_as_tuple(disallowed_tools),
            permission_mode=permission_mode,
            mcp_servers=mcp_servers,
            fallback_model=fallback_model,
            extra_args=_as_tuple(extra_args),
        )
        option_names = self.agent_options if isinstance(self.agent_options, dict) else ()
        format_class(agent).check_limits(self.limits, option_names)
        self.config_path = config_path
        self.audit = audit
        # Retry strategy (validation.strategy in config/autofix.yaml when None).
        self.retry_strategy = check_strategy(retry_strategy) if retry_strategy else None
        self.constrained = constrained
        # The agent's Connection (docs/connections.md): an agent without a hook fails here.
        self.conn_id = conn_id
        if conn_id:
            connection_for_agent(agent)
        # The project's pinned CLIs (`make agent-clis`, e.g. ".agents"), used only when the
        # agent's command is not on PATH, and only when set: never a silent switch.
        self.agent_clis_dir = agent_clis_dir
        # Notices of the CLI that fail the task although its result says success.
        self.fail_on = check_fail_on(fail_on)
        # Checks after a claimed success (autofix.verify); a bad item fails the DAG's parse.
        self.verify = as_checks(verify)
        # A usage or rate limit: retry, skip or fail (None: agents.on_limit); checked here.
        self.on_limit = check_on_limit(on_limit) if on_limit is not None else None
        self._task: AgentTask | None = None

    # -- execution ----------------------------------------------------------------------

    def _mask_env(self, env: dict[str, str]) -> None:
        # Airflow's masker learns them too (bridge), so its own log lines are masked.
        bridge_airflow_masker()
        register_secrets(secret_env_values(env))
        register_environment()

    @cached_property
    def _connection_hook(self) -> AgentConnectionHook | None:
        """The hook that reads ``conn_id`` for this agent; None without a ``conn_id``."""
        if not self.conn_id:
            return None
        return hook_for_agent(self.agent)(self.conn_id, agent_clis_dir=self.agent_clis_dir)

    def _connection_settings(self) -> tuple[dict[str, str], dict[str, Any]]:
        """(env, agent options) from ``conn_id``: the key goes into the env, masked, never logged."""
        try:
            hook = self._connection_hook
            if hook is None:
                return {}, {}
            settings = hook.agent_settings(self.agent_options)
        except ConfigError as exc:  # a field the agent cannot use: the message says which
            fail_now(self.log, str(exc))
        return settings.env, settings.options

    def _close_connection(self) -> None:
        """Remove the Connection's temporary home, if it made one (isolated_home)."""
        hook = self.__dict__.get("_connection_hook")
        if hook is not None:
            hook.close()

    def _spec(self, context: Context) -> AgentTaskSpec:
        conn_env, conn_options = self._connection_settings()
        resume_session_id = None
        if self.resume_from:
            previous = pull_result(context, self.resume_from)
            resume_session_id = previous.session_id if previous is not None else None
            if resume_session_id is None:
                self.log.warning(
                    "resume_from=%s has no session id; starting a new session", self.resume_from
                )
        return AgentTaskSpec(
            agent=self.agent,
            prompt=self.prompt,
            operation=self.operation,
            command=list(self.command) if self.command else None,
            cwd=self.cwd,
            env={**conn_env, **{str(k): str(v) for k, v in self.env.items()}},
            timeout=self.timeout,
            idle_timeout=self.idle_timeout,
            grace=self.grace,
            model=self.model,
            agent_options={**conn_options, **self.agent_options},
            limits=self.limits,
            resume_session_id=resume_session_id,
            output_schema=self.output_schema,
            max_attempts=self.max_attempts,
            retry_enabled=self.retry_enabled,
            retry_strategy=self.retry_strategy,
            constrained=self.constrained,
            patterns=self.patterns,
            agent_clis_dir=self.agent_clis_dir,
            fail_on=self.fail_on,
            verify=self.verify,
        )

    def execute(self, context: Context) -> dict[str, Any]:
        return to_xcom(self.run_spec(context, self._spec(context)))

    def run_spec(self, context: Context, spec: AgentTaskSpec) -> ParseResult:
        """Run ``spec`` as this task: log, audit, keep the verdict, raise by retry class."""
        config = load_task_config(self.log, self.config_path)
        self._mask_env(spec.env)
        recorder = build_recorder(config) if self.audit else None
        task = AgentTask(
            spec,
            config=config,
            trace=task_trace(context),
            recorder=recorder,
            log=self.log,  # type: ignore[arg-type]
            raw_dir=raw_output_dir(config, context),
            verify_context=context,
        )
        self._task = task
        try:
            result = self._run(context, task)
        except ConfigError as exc:  # e.g. an output_schema that names no model
            fail_now(self.log, f"{exc}. Next: fix the task's arguments, then clear this task")
        finally:
            self._task = None
            self._close_connection()
        try_number = context["ti"].try_number
        spend = earlier_spend(context, self.log)  # type: ignore[arg-type]
        result = result.with_spend(spend + [call.spend(try_number) for call in task.calls])
        return self._finish(context, result, config.agents)

    def _run(self, context: Context, task: AgentTask) -> ParseResult:
        return task.run()

    def _finish(
        self, context: Context, result: ParseResult, agents: AgentSettings | None = None
    ) -> ParseResult:
        ti = context["ti"]
        agents = agents or AgentSettings()
        max_wait_s = agents.max_retry_wait_seconds
        wait = result.retry_after_s
        schedule = retry_schedule(self, ti, max_wait_s)
        action = None
        if not result.success and self.fail_on_error:
            on_limit = self.on_limit or agents.on_limit
            action = limit_action(on_limit, result.failure_kind, wait, schedule)
        self._log_summary(result, skipped=action == "skip")
        if action in ("skip", "fail"):  # the line names the reset, uncapped
            verdict = redact(limit_line(kind_of(result), action, wait, schedule))
        else:
            if wait is not None and wait > max_wait_s:
                self.log.warning(
                    "autofix: the agent's output asks to wait %s; capped at %s "
                    "(agents.max_retry_wait_seconds)",
                    describe_wait(wait),
                    describe_wait(max_wait_s),
                )
                result = result.model_copy(update={"retry_after_s": max_wait_s})
            verdict = "success" if result.success else redact(failure_line(result, self, ti))
        remember_try(context, result, verdict, self.log)  # type: ignore[arg-type]
        if result.success or not self.fail_on_error:
            return result
        # Keep the verdict readable downstream even though the task fails or skips.
        ti.xcom_push(key=FAILED_RESULT_KEY, value=to_xcom(result))
        if action == "skip":
            self.log.warning("%s", verdict)
            raise AirflowSkipException(verdict)
        if action != "fail" and result.retry_class in (RetryClass.TRANSIENT, RetryClass.ERROR):
            raise AgentRetryLater(verdict, result)  # Airflow logs the line, no traceback
        fail_now(self.log, verdict, error=AgentPermanentError, result=result)

    def _log_summary(self, result: ParseResult, skipped: bool = False) -> None:
        # The kind, in the same words as the retry-class line that follows (failure_line).
        verdict = "SUCCESS" if result.success else f"FAILED ({kind_of(result)})"
        if skipped:
            verdict = f"SKIPPED ({kind_of(result)}, on_limit='skip')"
        process = (
            "the agent CLI did not start"
            if did_not_start(result)
            else f"exit code {result.exit_code}, run status {result.run_status}, "
            f"{result.attempts} call(s) in this try"
        )
        tokens = result.usage
        lines = [
            f"autofix verdict: {verdict} [{self.operation}]",
            f"  {process}, retry class {result.retry_class.value}",
            f"  stderr: {result.noise_lines} noise line(s), {result.error_lines} error line(s) "
            f"(marked [noise: rule] / [error: rule] above), patterns: {result.patterns_source}",
            f"  cost {describe_cost(result.cost_usd, result.cost_source)}"
            + (f", model {result.model}" if result.model else "")
            + f", tokens in {tokens.input_tokens} out {tokens.output_tokens}"
            + (f" (sum of {len(result.per_attempt)} calls)" if result.per_attempt else ""),
        ]
        for item in result.per_attempt:
            lines.append(
                f"    try {item.try_number} call {item.attempt}: {item.status.value}, "
                f"{describe_cost(item.cost_usd, item.cost_source)}, tokens in "
                f"{item.usage.input_tokens} out {item.usage.output_tokens}"
            )
        if result.repairs:
            lines.append(f"  repairs: {', '.join(result.repairs)}")
        for notice in result.notices:
            failing = " (fail_on: fails the task)" if notice.code in self.fail_on else ""
            lines.append(f"  the CLI reported {notice.describe()}{failing}")
        if result.diagnostic_lines:
            lines.append(
                f"  {result.diagnostic_lines} error line(s) on stderr were the CLI's own "
                "diagnostics (its structured result decided)"
            )
        for block in result.errors[:3]:
            lines.append("  error: " + block.text.replace("\n", "\n         "))
        redacted = RedactedLog(self.log)
        log = redacted.info if result.success else redacted.warning if skipped else redacted.error
        log("\n".join(lines))

    def on_kill(self) -> None:
        if self._task is not None:
            self._task.kill()
