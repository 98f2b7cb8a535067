"""Reading ParseResults back from XCom, whatever shape an upstream task pushed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from autofix.result import ParseResult, RetryClass, Status

if TYPE_CHECKING:
    from airflow.sdk import Context

FAILED_RESULT_KEY = "parse_result"


def coerce_result(value: Any, task_id: str = "") -> ParseResult | None:
    """A ParseResult from a ParseResult, its JSON dict, or a plain task's ``{"success": bool}``/bool."""
    if value is None or isinstance(value, ParseResult):
        return value
    if isinstance(value, bool):
        value = {"success": value}
    if isinstance(value, dict):
        if "status" in value and "success" in value:
            return ParseResult.model_validate(value)
        if "success" in value:
            success = bool(value["success"])
            return ParseResult(
                success=success,
                status=Status.COMPLETED if success else Status.FAILED,
                operation=str(value.get("operation", task_id)),
                retry_class=RetryClass.NONE if success else RetryClass.ERROR,
                error_message=str(value.get("error_message", "")),
            )
    raise TypeError(
        f"task {task_id!r} pushed {type(value).__name__}, not a ParseResult; "
        "is it an AIWrapperOperator, and is 'autofix.*' in allowed_deserialization_classes?"
    )


def pull_here(context: Context, task_id: str, key: str = "return_value") -> Any:
    """``task_id``'s XCom as this task sees it: inside a mapped task group, the sibling's value
    at this task's own map index (Airflow 3 would return every index's as a list); an unmapped
    upstream's single value otherwise."""
    ti = context["ti"]
    map_index = getattr(ti, "map_index", -1)
    if map_index is None or map_index < 0:
        return ti.xcom_pull(task_ids=task_id, key=key)
    value = ti.xcom_pull(task_ids=task_id, key=key, map_indexes=map_index)
    if value is None:  # an unmapped upstream of a mapped task
        value = ti.xcom_pull(task_ids=task_id, key=key, map_indexes=-1)
    return value


def pull_result(context: Context, task_id: str) -> ParseResult | None:
    """The upstream task's ParseResult: its return value, or the one kept when it failed."""
    value = pull_here(context, task_id)
    if value is None:
        value = pull_here(context, task_id, key=FAILED_RESULT_KEY)
    return coerce_result(value, task_id)


def pull_results(context: Context, task_ids: Sequence[str]) -> list[ParseResult]:
    """Results of the tasks that ran, in the given order (skipped tasks have none)."""
    results = []
    for task_id in task_ids:
        result = pull_result(context, task_id)
        if result is not None:
            results.append(result)
    return results
