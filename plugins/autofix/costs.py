"""Where a call's USD cost came from, and how a cost is shown (autofix.pricing fills it in)."""

from __future__ import annotations

from enum import StrEnum


class CostSource(StrEnum):
    """Where a call's ``cost_usd`` came from (autofix.pricing), in order of precedence."""

    REPORTED = "reported"  # the CLI's own figure (Claude Code): it wins over any price
    CONFIG = "config"  # tokens × the config's ``prices:`` entry for the model
    TABLE = "table"  # tokens × the genai-prices table
    UNKNOWN = "unknown"  # no price for the model (or no model): cost_usd stays None, never $0


# Summing calls: the sum is only as certain as its least certain part.
_SOURCE_RANK = {source: rank for rank, source in enumerate(CostSource)}


def combined_source(sources: list[CostSource | None]) -> CostSource | None:
    """The cost source of a sum of calls: the least certain of theirs (None: nothing priced)."""
    known = [source for source in sources if source is not None]
    return max(known, key=_SOURCE_RANK.__getitem__) if known else None


def describe_cost(cost_usd: float | None, source: CostSource | None) -> str:
    """``$0.0123 (table)``, or ``cost unknown``: never $0 for a price nobody knows."""
    if source is CostSource.UNKNOWN or (cost_usd is None and source is not None):
        return "cost unknown"
    shown = f"${cost_usd or 0:.4f}"
    return f"{shown} ({source.value})" if source is not None else shown
