"""The third fresh held-out batch for the codex CLI (variant 3: fixtures `<name>__f3`).

Written from the coverage table (docs/agents/codex.md) after the first two batches were scored,
by someone who never saw the verdict code; frozen in FRESH.txt before the verdict changed.
"""

from __future__ import annotations

from collections.abc import Iterator

from agent_apis.scenarios.base import Case


def codex_batch3_cases() -> Iterator[Case]:
    yield from ()
