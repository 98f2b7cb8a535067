"""The audit trail: every agent call recorded, counted and explainable."""

from __future__ import annotations

from autofix.audit.alert import RetryAlert
from autofix.audit.budget import BudgetGuard, BudgetStatus
from autofix.audit.envelope import (
    Envelope,
    EnvelopeBudget,
    Interaction,
    InteractionResult,
    RetryPolicy,
    interaction_from_parse_result,
)
from autofix.audit.events import (
    AttemptNode,
    AuditEvent,
    EventName,
    RunSummary,
    attempt_tree,
    summarize_run,
)
from autofix.audit.metrics import MetricsSnapshot, build_chains, compute_metrics
from autofix.audit.prometheus import to_prometheus
from autofix.audit.recorder import AuditRecorder
from autofix.audit.report import Report, build_report, parse_since, render
from autofix.audit.stores import (
    AuditStore,
    JsonlStore,
    MemoryStore,
    S3Store,
    Usage,
    build_store,
    store_from_uri,
)
from autofix.errors import AuditWriteError, BudgetExhaustedError

# The operator needs only AuditRecorder, Envelope and EventName. Nothing here imports
# Airflow at import time (tests/test_audit_store.py checks it).
__all__ = [
    "AttemptNode",
    "AuditEvent",
    "AuditRecorder",
    "AuditStore",
    "AuditWriteError",
    "BudgetExhaustedError",
    "BudgetGuard",
    "BudgetStatus",
    "Envelope",
    "EnvelopeBudget",
    "EventName",
    "Interaction",
    "InteractionResult",
    "JsonlStore",
    "MemoryStore",
    "MetricsSnapshot",
    "Report",
    "RetryAlert",
    "RetryPolicy",
    "RunSummary",
    "S3Store",
    "Usage",
    "attempt_tree",
    "build_chains",
    "build_report",
    "build_store",
    "compute_metrics",
    "interaction_from_parse_result",
    "parse_since",
    "render",
    "store_from_uri",
    "summarize_run",
    "to_prometheus",
]
