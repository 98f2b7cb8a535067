"""The Airflow layer: thin operators over autofix's plain-Python core."""

from __future__ import annotations

from autofix.operators.branch import ParseResultBranchOperator
from autofix.operators.retry_group import retry_with_feedback
from autofix.operators.wrapper import AIWrapperOperator

__all__ = ["AIWrapperOperator", "ParseResultBranchOperator", "retry_with_feedback"]
