"""Validate structured agent output and retry with error feedback.

Plain Python: ``generate_and_validate(prompt, Model, llm)``. Step-wise, for operators:
``OutputValidator.validate`` (one output → ValidationOutcome), ``AttemptPolicy.decide``
(history → accept / retry / escalate / stop), ``AttemptPolicy.feedback`` (the prompt for
the next attempt), or ``AttemptLoop.run`` to loop in one task. No Airflow imports here.
"""

from __future__ import annotations

from autofix.errors import (
    PayloadError,
    SchemaImportError,
    ValidationExhaustedError,
    ValidationFailedError,
    ValidationRefusedError,
)
from autofix.validation.adaptive import AdaptiveAdvisor, RecoveryStats
from autofix.validation.api import LLMCallable, generate_and_validate, messages_for
from autofix.validation.diagnose import Repair
from autofix.validation.escalation import Escalation
from autofix.validation.feedback import build_feedback, quote_output, rank_errors
from autofix.validation.field_errors import validate_value
from autofix.validation.loop import AgentCall, AttemptLoop
from autofix.validation.outcome import ValidationOutcome, error_keys
from autofix.validation.policy import Action, AttemptPolicy, AttemptRequest, Decision
from autofix.validation.records import AttemptRecord, ValidationRun, raise_for_run
from autofix.validation.repair import Payload, parse_payload
from autofix.validation.reply import LLMReply, coerce_reply
from autofix.validation.report import write_failure_report
from autofix.validation.schema import resolve_schema
from autofix.validation.strategies import STRATEGIES
from autofix.validation.validator import OutputValidator

__all__ = [
    "STRATEGIES",
    "Action",
    "AdaptiveAdvisor",
    "AgentCall",
    "AttemptLoop",
    "AttemptPolicy",
    "AttemptRecord",
    "AttemptRequest",
    "Decision",
    "Escalation",
    "LLMCallable",
    "LLMReply",
    "OutputValidator",
    "Payload",
    "PayloadError",
    "RecoveryStats",
    "Repair",
    "SchemaImportError",
    "ValidationExhaustedError",
    "ValidationFailedError",
    "ValidationOutcome",
    "ValidationRefusedError",
    "ValidationRun",
    "build_feedback",
    "coerce_reply",
    "error_keys",
    "generate_and_validate",
    "messages_for",
    "parse_payload",
    "quote_output",
    "raise_for_run",
    "rank_errors",
    "resolve_schema",
    "validate_value",
    "write_failure_report",
]
