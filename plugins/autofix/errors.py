"""Every exception autofix raises, under one root: ``except autofix.AutofixError`` catches them.

Each class also keeps the builtin base its callers used to catch (``ValueError`` for bad input,
``RuntimeError`` for a failed step), so ``except ValueError`` still works where it did.

    AutofixError
    ├── ConfigError (ValueError)           a config file or setting is invalid; a retry won't help
    │   ├── ConfigFileError                a config file cannot be read or parsed (file, line)
    │   ├── PatternFileError               error_patterns.yaml cannot be used
    │   ├── AgentOptionError               an agent option its CLI cannot take, or given twice
    │   ├── SchemaImportError (ImportError) an output_schema import path names no pydantic model
    │   ├── ConnectionSettingsError        an agent's Airflow Connection has a field it cannot use
    │   └── VerifyConfigError              a verify= item is none of the check forms
    ├── RunnerError                        the agent process could not be started
    │   └── ExecutableNotFoundError        its executable is not installed (not on PATH)
    ├── PayloadError (ValueError)          no JSON/YAML payload in an agent's answer
    ├── ValidationFailedError              no valid answer after the attempt policy ran out
    │   ├── ValidationExhaustedError
    │   └── ValidationRefusedError
    ├── BudgetExhaustedError (RuntimeError) a per-run or per-day budget is spent
    ├── AuditWriteError (RuntimeError)     an audit record could not be stored
    ├── FixingError (RuntimeError)         an autonomous-fixing step cannot go on
    ├── GitError (RuntimeError)            a git command failed
    ├── SimError                           the scripted agent's scenario is unusable
    ├── DocsPageNotFoundError (LookupError) the docs site serves no page or image by that name
    ├── AgentRetryLater (SystemExit)       a transient agent failure: the task's try ends and
    │                                      Airflow retries it, logging one line, no traceback
    └── PermanentTaskError (SystemExit)    a failure no retry can fix: the task fails at once,
                                           its reason logged in one line, no traceback

This module is the package's ground floor: every module may import it, and it imports nothing
from autofix (tests/test_import_graph.py). So an error carries plain values, or the caller's
own objects typed ``Any``, and it does not redact: whoever puts outside text (a command's
stderr, an agent's answer) into an error redacts it first, as it does for a log line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal


class AutofixError(Exception):
    """The root of every autofix exception."""


class ConfigError(AutofixError, ValueError):
    """The configuration is invalid; the message names the file, the key and the reason."""


class ConfigFileError(ConfigError):
    """A config file cannot be read or parsed; the message names the file and the line."""

    def __init__(self, path: str, reason: str, line: int | None = None) -> None:
        self.path = path
        self.reason = reason
        self.line = line
        where = f"line {line}: " if line else ""
        super().__init__(f"{path}: {where}{reason}")


class PatternFileError(ConfigError):
    """A pattern file that cannot be used; ``problems`` lists everything wrong with it
    (``autofix.patterns.loader.Problem``: message, line, rule id; ``str()`` says all three)."""

    def __init__(self, path: str, problems: list[Any]) -> None:
        self.path = path
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(str(p) for p in problems))


class AgentOptionError(ConfigError):
    """An agent option that cannot be used as given: the agent's CLI has no such option, the
    value is not one it takes, or the same setting was given twice. ``supported`` lists what
    that agent does take (the option names, or the values of ``option``)."""

    def __init__(
        self, message: str, *, agent: str, option: str, supported: Sequence[str] = ()
    ) -> None:
        self.agent = agent
        self.option = option
        self.supported = tuple(supported)
        super().__init__(message)


class SchemaImportError(ConfigError, ImportError):
    """The schema import path does not name a pydantic model."""


class ConnectionSettingsError(ConfigError):
    """An agent Connection's field is missing or invalid; the message names the conn_id, the
    field and what to put there (never the key)."""


class VerifyConfigError(ConfigError):
    """A ``verify=`` item is none of the check forms, or has a bad option."""


class RunnerError(AutofixError):
    """The process could not be started; the message says what to fix."""


class ExecutableNotFoundError(RunnerError):
    """The executable to start does not exist: not on PATH, or no file at the path given."""

    def __init__(self, executable: str, searched_path: bool) -> None:
        self.executable = executable
        self.searched_path = searched_path
        where = "not on PATH" if searched_path else "no such file"
        super().__init__(
            f"executable not found: {executable!r} ({where}); install it or pass its absolute path"
        )


class PayloadError(AutofixError, ValueError):
    """No payload could be parsed. ``reason`` is ``empty``, ``not_found`` or ``unparseable``."""

    def __init__(
        self,
        reason: Literal["empty", "not_found", "unparseable"],
        message: str,
        truncated: bool = False,
    ):
        super().__init__(message)
        self.reason = reason
        self.truncated = truncated


class ValidationFailedError(AutofixError):
    """No valid output. Carries every attempt's errors, the last output and the report path.

    ``run`` is the :class:`autofix.validation.records.ValidationRun` that failed;
    ``last_output`` is its last answer as the raiser redacted it (``raise_for_run``).
    """

    def __init__(self, message: str, run: Any, operation: str = "", last_output: str = "") -> None:
        super().__init__(message)
        self.run = run
        self.operation = operation
        self.status = run.status
        self.reason = run.reason
        self.attempts = run.attempts
        self.report_path = run.report_path
        self.last_output = last_output

    def errors_by_attempt(self) -> dict[int, list[Any]]:
        """Each attempt's ``autofix.result.FieldError`` list, by attempt number."""
        errors: dict[int, list[Any]] = self.run.errors_by_attempt()
        return errors


class ValidationExhaustedError(ValidationFailedError):
    """Attempts ran out, or two in a row failed the same way (and escalation did not help)."""


class ValidationRefusedError(ValidationFailedError):
    """The agent refused; refusals are not retried."""


class BudgetExhaustedError(AutofixError, RuntimeError):
    """A budget is used up. The message names the budget, its limit and the spend."""

    def __init__(
        self,
        budget: str,
        limit: float,
        calls: int,
        cost_usd: float,
        scope: str,
        tokens: int | None = None,
    ) -> None:
        self.budget = budget
        self.limit = limit
        self.calls = calls
        self.cost_usd = cost_usd
        self.scope = scope
        self.tokens = tokens
        shown = f"{limit:.2f}" if budget.endswith("_usd") else f"{int(limit)}"
        spent = f"{tokens} tokens" if "_tokens_" in budget else f"${cost_usd:.2f}"
        super().__init__(
            f"budget {budget}={shown} exhausted: spent {spent} in {calls} calls {scope}"
        )


class AuditWriteError(AutofixError, RuntimeError):
    """The audit record could not be written. Raised to the task when ``audit.required`` is true."""


class FixingError(AutofixError, RuntimeError):
    """A step cannot go on; the message says what to do (shown as the task's failure)."""


class GitError(AutofixError, RuntimeError):
    """A git command failed. ``command`` and ``stderr`` come redacted (``gitops``)."""

    def __init__(self, command: Sequence[str], returncode: int | None, stderr: str, hint: str = ""):
        self.command = list(command)
        self.returncode = returncode
        self.stderr = stderr.strip()
        self.hint = hint
        detail = self.stderr.splitlines()[-1] if self.stderr else f"exit code {returncode}"
        # The reason first: a long command line must not push it off the screen.
        message = f"{detail}: {hint}" if hint else detail
        super().__init__(f"{message} (`{' '.join(self.command)}`)")


class SimError(AutofixError):
    """The scenario or the command line is wrong; the scripted agent exits 2 with this message."""


class DocsPageNotFoundError(AutofixError, LookupError):
    """The docs site (``autofix.docsite``) serves no page or image by ``name``: only README.md
    and the files under docs/ are served, by names without ``..``, dots or a leading slash."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"no docs page {name!r}: pick one from the docs index")


class AgentRetryLater(AutofixError, SystemExit):
    """An agent try failed for a reason a later try may not meet (usage limit, timeout, ...).

    Also a ``SystemExit``, because that is the one failure Airflow's task runner logs as a single
    line (``Task exited exit_code=<message>``) instead of a traceback, while still applying the
    task's retries and retry policy. Also an ``AutofixError`` (an ``Exception``), so code that
    wraps an autofix operator in ``except Exception`` still catches it. ``result`` is the try's
    ``autofix.result.ParseResult``; ``message`` (also ``code``) says the kind, what Airflow does
    next, and when.
    """

    def __init__(self, message: str, result: Any = None) -> None:
        super().__init__(message)
        self.code = message
        self.message = message
        self.result = result


class PermanentTaskError(AutofixError, SystemExit):
    """A task failed for a reason no retry can fix (a missing project, CLI or key, a refusal).

    A ``SystemExit`` like :class:`AgentRetryLater`, so Airflow's task runner logs
    ``Task exited exit_code=1`` instead of a traceback; the reason was logged before it, in one
    line that ends with the next step. autofix's operators carry a retry policy that fails this
    exception without a retry (a plain ``retries`` would otherwise apply to a ``SystemExit``).
    """

    def __init__(self, message: str, result: Any = None) -> None:
        super().__init__(message)
        self.code = 1
        self.message = message
        self.result = result

    def __str__(self) -> str:
        return self.message
