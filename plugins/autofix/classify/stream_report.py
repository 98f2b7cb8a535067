"""What the classifier reports: per stream (ClassifyReport) and per line (LineVerdict)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from autofix.redact import redact_stored, redact_stored_each
from autofix.result import MAX_BLOCK_CHARS, ErrorBlock, Evidence, truncate_block

Verdict = Literal["noise", "neutral", "error", "success"]


class ClassifyReport(BaseModel):
    """What one stream contained."""

    noise_lines: int = 0
    neutral_lines: int = 0
    error_lines: int = 0
    blocks: list[ErrorBlock] = Field(default_factory=list)
    blocks_dropped: int = 0  # error blocks past ``max_blocks``: counted, not kept
    # Of the dropped blocks: how many of each weight, and the line of the last that counts.
    dropped_weights: dict[str, int] = Field(default_factory=dict)
    dropped_last_line: int = 0
    # The first failure summaries and the last success summaries (SUMMARY_LINES each), with
    # the totals and the line of the last success summary (errors after it are not outweighed).
    summaries: list[Evidence] = Field(default_factory=list)
    failure_summary_lines: int = 0
    success_summary_lines: int = 0
    last_success_line: int = 0
    rule_hits: dict[str, int] = Field(default_factory=dict)
    disabled_rules: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    patterns_source: str = "defaults"
    stream: str = "stderr"
    tail: list[str] = Field(default_factory=list)  # last non-blank lines, for messages

    @property
    def total_lines(self) -> int:
        return self.noise_lines + self.neutral_lines + self.error_lines

    def sample(self, limit: int = 40) -> list[str]:
        """Distinct non-noise lines seen: every kept block's lines, then the tail."""
        lines = [line for block in self.blocks for line in block.text.splitlines()]
        found = dict.fromkeys(line.strip() for line in [*lines, *self.tail] if line.strip())
        return [line for line in found if not line.startswith("… (")][:limit]


class LineVerdict(BaseModel):
    """One line's verdict, for ``autofix patterns explain``."""

    line_no: int
    verdict: Verdict
    rule_id: str | None = None
    in_block: bool = False
    text: str = ""


_MARGIN = MAX_BLOCK_CHARS + 2048


def _ends(text: str) -> str:
    """A long block's start and end, each with a margin, joined by the mark truncate_block
    leaves (so the cut lands there)."""
    if len(text) <= 2 * _MARGIN:
        return text
    return text[:_MARGIN] + "\n…\n" + text[-_MARGIN:]


def error_blocks(fields: list[dict[str, Any]]) -> list[ErrorBlock]:
    """ErrorBlocks with their text bounded and redacted as ErrorBlock's validator does, but
    in one pass over all of them (a 16 KB parse has up to 20 blocks)."""
    if not fields:
        return []
    # Only the first and last MAX_BLOCK_CHARS are kept (truncate_block); the margins keep any
    # secret that reaches into them whole for the redactor.
    texts = redact_stored_each([_ends(f["text"]) for f in fields])
    # A few rules find most blocks: each id is redacted once.
    rule_ids = {i: i and redact_stored(i) for i in {f.get("rule_id") for f in fields}}
    return [
        ErrorBlock.model_construct(
            **{**f, "text": truncate_block(text), "rule_id": rule_ids[f.get("rule_id")]}
        )
        for f, text in zip(fields, texts, strict=True)
    ]
