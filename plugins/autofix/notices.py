"""What a CLI reports about its own run without deciding the verdict: a denied tool, a failed
MCP server, a detected loop, a compaction (``ParseResult.notices``; docs/failure-kinds.md)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, field_validator

from autofix.redact import redact_stored

MAX_DETAIL_CHARS = 200
MAX_NOTICES = 20  # kept per run: a CLI may repeat one per tool call


class NoticeCode(StrEnum):
    """What a CLI reports about its own run that does not by itself decide the verdict."""

    DENIED_TOOL = "denied_tool"  # a tool call refused by a permission mode, policy or sandbox
    MCP_SERVER_FAILED = "mcp_server_failed"  # an MCP server that did not start or connect
    LOOP_DETECTED = "loop_detected"  # the CLI saw the model repeat itself
    COMPACTED = "compacted"  # the conversation was compacted to fit the context window


class AgentNotice(BaseModel):
    """One thing the CLI reported in its structured output: a denied tool, a failed MCP server,
    a detected loop, a compaction. Shown in the verdict; ``fail_on`` can make it a failure."""

    model_config = ConfigDict(frozen=True)

    code: NoticeCode
    detail: str = ""  # the tool, the server, the CLI's own words

    @field_validator("detail")
    @classmethod
    def _bound_and_redact(cls, value: str) -> str:
        value = redact_stored(value)
        return value if len(value) <= MAX_DETAIL_CHARS else value[: MAX_DETAIL_CHARS - 1] + "…"

    def describe(self) -> str:
        words = self.code.value.replace("_", " ")
        return f"{words}: {self.detail}" if self.detail else words


def add_notice(notices: list[AgentNotice], notice: AgentNotice) -> None:
    """``notice`` added to a run's ``notices`` once, up to ``MAX_NOTICES``."""
    if notice not in notices and len(notices) < MAX_NOTICES:
        notices.append(notice)
