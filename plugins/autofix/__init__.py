"""autofix: run AI coding agents as Airflow tasks that tell real failures from noise.

This module is the public API: every name in ``__all__`` is supported, everything else is
internal and may move. The Airflow side (operators, the retry-with-feedback group) is
``autofix.operators`` and ``autofix.decorators`` (``coding_agent_task``, also here: it loads
Airflow when first used). Names load on first use, so ``import autofix`` stays cheap for the
agent subprocesses that import it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from autofix.agents.base import (
        AgentFormat,
        AgentOutcome,
        AgentRequest,
        AttemptOptions,
        EventParser,
        Invocation,
    )
    from autofix.agents.claude import ClaudeOptions
    from autofix.agents.codex import CodexOptions
    from autofix.agents.gemini import GeminiOptions
    from autofix.agents.limits import AgentLimits, McpServer
    from autofix.agents.openai.format import OpenAIOptions
    from autofix.agents.plain import PlainOptions
    from autofix.agents.registry import FORMAT_NAMES, get_format, parse_output
    from autofix.agents.wrapper import WrapperOptions
    from autofix.audit.envelope import Envelope, Interaction
    from autofix.audit.metrics import compute_metrics
    from autofix.audit.prometheus import to_prometheus
    from autofix.audit.recorder import AuditRecorder
    from autofix.audit.stores import build_store, store_from_uri
    from autofix.audit.stores.base import AuditStore
    from autofix.audit.stores.jsonl import JsonlStore
    from autofix.audit.stores.memory import MemoryStore
    from autofix.audit.stores.s3 import S3Store
    from autofix.audit.usage_report import build_report
    from autofix.classify.classifier import Classifier
    from autofix.classify.stream_report import ClassifyReport
    from autofix.config import AutofixConfig, ModelPrice, load_config
    from autofix.costs import CostSource
    from autofix.decorators.coding_agent import coding_agent_task
    from autofix.errors import (
        AgentOptionError,
        AuditWriteError,
        AutofixError,
        BudgetExhaustedError,
        ConfigError,
        ExecutableNotFoundError,
        FixingError,
        GitError,
        PatternFileError,
        PayloadError,
        RunnerError,
        SchemaImportError,
        SimError,
        ValidationExhaustedError,
        ValidationFailedError,
        ValidationRefusedError,
        VerifyConfigError,
    )
    from autofix.finish import FinishReason
    from autofix.notices import AgentNotice, NoticeCode
    from autofix.parser import ResponseParser
    from autofix.patterns.loader import PatternStore
    from autofix.patterns.model import Rule
    from autofix.pricing import PricedCall, Pricer
    from autofix.result import (
        BlockSource,
        ErrorBlock,
        ErrorCategory,
        FailureKind,
        FieldError,
        Outcome,
        ParseResult,
        RetryClass,
        RetryStrategy,
        RunStatus,
        Status,
        TokenUsage,
    )
    from autofix.runner import Runner, RunResult
    from autofix.sim.format import SimOptions
    from autofix.task.agent_task import AgentTask
    from autofix.task.spec import AgentTaskSpec, TraceContext
    from autofix.validation.api import generate_and_validate
    from autofix.validation.cross_field import (
        CrossFieldRule,
        CrossFieldRuleError,
        Exclusive,
        Ordered,
        Total,
        When,
    )
    from autofix.validation.outcome import ValidationOutcome
    from autofix.validation.policy import AttemptPolicy
    from autofix.validation.records import ValidationRun
    from autofix.validation.reply import LLMReply
    from autofix.validation.validator import OutputValidator
    from autofix.verification import CheckKind, CheckOutcome, Verification
    from autofix.verify.checks import (
        CallableCheck,
        Check,
        CommandCheck,
        ExpectChanges,
        ExpectFiles,
        ToolCheck,
    )

# Where each public name lives (the TYPE_CHECKING imports above say the same for type checkers;
# tests/test_public_api.py keeps the two in step).
_EXPORTS: dict[str, tuple[str, ...]] = {
    "autofix.result": (
        "BlockSource",
        "ErrorBlock",
        "ErrorCategory",
        "FailureKind",
        "FieldError",
        "Outcome",
        "ParseResult",
        "RetryClass",
        "RetryStrategy",
        "RunStatus",
        "Status",
        "TokenUsage",
    ),
    "autofix.errors": (
        "AgentOptionError",
        "AuditWriteError",
        "AutofixError",
        "BudgetExhaustedError",
        "ConfigError",
        "ExecutableNotFoundError",
        "FixingError",
        "GitError",
        "PatternFileError",
        "PayloadError",
        "RunnerError",
        "SchemaImportError",
        "SimError",
        "ValidationExhaustedError",
        "ValidationFailedError",
        "ValidationRefusedError",
        "VerifyConfigError",
    ),
    "autofix.finish": ("FinishReason",),
    "autofix.verification": ("CheckKind", "CheckOutcome", "Verification"),
    "autofix.verify.checks": (
        "CallableCheck",
        "Check",
        "CommandCheck",
        "ExpectChanges",
        "ExpectFiles",
        "ToolCheck",
    ),
    "autofix.parser": ("ResponseParser",),
    "autofix.notices": ("AgentNotice", "NoticeCode"),
    "autofix.config": ("AutofixConfig", "ModelPrice", "load_config"),
    "autofix.costs": ("CostSource",),
    "autofix.pricing": ("PricedCall", "Pricer"),
    "autofix.decorators.coding_agent": ("coding_agent_task",),
    "autofix.runner": ("RunResult", "Runner"),
    "autofix.patterns.loader": ("PatternStore",),
    "autofix.patterns.model": ("Rule",),
    "autofix.classify.classifier": ("Classifier",),
    "autofix.classify.stream_report": ("ClassifyReport",),
    "autofix.agents.base": (
        "AgentFormat",
        "AgentOutcome",
        "AgentRequest",
        "AttemptOptions",
        "EventParser",
        "Invocation",
    ),
    "autofix.agents.registry": ("FORMAT_NAMES", "get_format", "parse_output"),
    "autofix.agents.limits": ("AgentLimits", "McpServer"),
    "autofix.agents.claude": ("ClaudeOptions",),
    "autofix.agents.codex": ("CodexOptions",),
    "autofix.agents.gemini": ("GeminiOptions",),
    "autofix.agents.openai.format": ("OpenAIOptions",),
    "autofix.agents.plain": ("PlainOptions",),
    "autofix.agents.wrapper": ("WrapperOptions",),
    "autofix.sim.format": ("SimOptions",),
    "autofix.task.agent_task": ("AgentTask",),
    "autofix.task.spec": ("AgentTaskSpec", "TraceContext"),
    "autofix.validation.api": ("generate_and_validate",),
    "autofix.validation.cross_field": (
        "CrossFieldRule",
        "CrossFieldRuleError",
        "Exclusive",
        "Ordered",
        "Total",
        "When",
    ),
    "autofix.validation.outcome": ("ValidationOutcome",),
    "autofix.validation.policy": ("AttemptPolicy",),
    "autofix.validation.records": ("ValidationRun",),
    "autofix.validation.reply": ("LLMReply",),
    "autofix.validation.validator": ("OutputValidator",),
    "autofix.audit.recorder": ("AuditRecorder",),
    "autofix.audit.envelope": ("Envelope", "Interaction"),
    "autofix.audit.stores": ("build_store", "store_from_uri"),
    "autofix.audit.stores.base": ("AuditStore",),
    "autofix.audit.stores.jsonl": ("JsonlStore",),
    "autofix.audit.stores.memory": ("MemoryStore",),
    "autofix.audit.stores.s3": ("S3Store",),
    "autofix.audit.usage_report": ("build_report",),
    "autofix.audit.metrics": ("compute_metrics",),
    "autofix.audit.prometheus": ("to_prometheus",),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted(["__version__", "classify_output", *_MODULE_OF])


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'autofix' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup skips __getattr__
    return value


def __dir__() -> list[str]:
    return __all__


def classify_output(
    exit_code: int | None,
    stderr: str | bytes,
    stdout: str | bytes = "",
    run_status: str | None = None,
    operation: str = "",
    patterns: str | Path | PatternStore | None = None,
    command: str | Sequence[str] | None = None,
) -> ParseResult:
    """Verdict on one plain command: exit code, stderr and stdout (see autofix.parser).
    ``command``, the command line that ran, lets a masked exit status (``|| true``) be seen."""
    from autofix.parser import ResponseParser  # on first use: `import autofix` stays cheap

    return ResponseParser(patterns).parse(
        exit_code, stderr, stdout, run_status=run_status, operation=operation, command=command
    )
