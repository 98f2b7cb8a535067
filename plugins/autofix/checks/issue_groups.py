"""The issues of a check run grouped by file, most urgent first, and rendered for a fix prompt."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from autofix.checks.model import (
    TOOL_FAILED,
    TOOL_MISSING,
    TOOL_TIMEOUT,
    CheckIssue,
    CheckReport,
    counts_by_tool,
    error_count,
)

# Lower is more urgent: a broken tool or syntax hides everything else; failing tests are
# behaviour; type errors often explain test failures; lint is cheapest and last.
_TOOL_RANK = {"pytest": 1, "npm test": 1, "mypy": 2, "tsc": 2, "ruff": 3, "eslint": 3}
_BLOCKING_CODES = {
    TOOL_MISSING,
    TOOL_FAILED,
    TOOL_TIMEOUT,
    "invalid-syntax",  # ruff >= 0.12
    "syntax-error",  # older ruff: no code at all
    "syntax",  # mypy
    "parse-error",  # eslint fatal
    "error",  # pytest: collection or fixture error, not an assertion
}
_SEVERITY_RANK = {"error": 0, "warning": 1, "note": 2}


def _issue_rank(issue: CheckIssue) -> tuple[int, int]:
    blocking = issue.code in _BLOCKING_CODES and issue.severity == "error"
    return (_SEVERITY_RANK[issue.severity], 0 if blocking else _TOOL_RANK.get(issue.tool, 4))


def group_issues(reports: Iterable[CheckReport]) -> dict[str, list[CheckIssue]]:
    """Issues grouped by file (``<tool>`` for file-less ones), most urgent group first.

    Within a group issues are ordered by line, so an agent can fix a file top to bottom.
    """
    groups: dict[str, list[CheckIssue]] = {}
    for report in reports:
        for issue in report.issues:
            groups.setdefault(issue.path or f"<{issue.tool}>", []).append(issue)

    def group_key(item: tuple[str, list[CheckIssue]]) -> tuple[tuple[int, int], int, str]:
        key, issues = item
        errors = sum(1 for issue in issues if issue.severity == "error")
        return (min(_issue_rank(issue) for issue in issues), -errors, key)

    ordered = sorted(groups.items(), key=group_key)
    return {
        key: sorted(issues, key=lambda i: (i.line or 0, _issue_rank(i), i.tool, i.code))
        for key, issues in ordered
    }


def render_issues(
    reports: Sequence[CheckReport], max_chars: int = 6000, max_per_file: int = 15
) -> str:
    """Compact text of the grouped issues for a fix prompt, bounded to ``max_chars``.

    Most urgent files first (see ``group_issues``). Notes are left out (they repeat
    context the agent can read in the file). Whatever does not fit is counted in a final
    line, so the agent knows the list is partial.
    """
    groups = group_issues(reports)
    visible_groups = {
        key: [issue for issue in issues if issue.severity != "note"]
        for key, issues in groups.items()
    }
    total_visible = sum(len(issues) for issues in visible_groups.values())
    files_with_errors = sum(
        1 for issues in groups.values() if any(i.severity == "error" for i in issues)
    )
    header = f"{error_count(reports)} error(s) in {files_with_errors} file(s)"
    per_tool = ", ".join(f"{tool} {n}" for tool, n in counts_by_tool(reports).items() if n)
    if per_tool:
        header += f" ({per_tool})"
    lines = [header]
    budget = max_chars - 100  # room for the "showing N of M" line
    used = len(header)
    shown = 0
    full = False
    for key, issues in visible_groups.items():
        if not issues or full:
            continue
        block = [f"{key}:"]
        for issue in issues[:max_per_file]:
            where = str(issue.line) if issue.line is not None else "-"
            label = f"{issue.tool} {issue.code}".strip()
            prefix = "" if issue.severity == "error" else f"{issue.severity}: "
            line = f"  {where}: [{label}] {prefix}{issue.message}"
            if used + sum(len(x) + 1 for x in block) + len(line) + 1 > budget:
                full = True
                break
            block.append(line)
        if len(block) == 1:  # not even one issue of this file fits
            break
        if not full and len(issues) > max_per_file:
            block.append(f"  … {len(issues) - max_per_file} more in this file")
        lines.extend(block)
        used += sum(len(x) + 1 for x in block)
        shown += len(block) - 1 - (1 if block[-1].startswith("  … ") else 0)
    if shown < total_visible:
        lines.append(
            f"(showing {shown} of {total_visible} issues; the checks run again after your fix)"
        )
    return "\n".join(lines)[:max_chars]
