"""The fourth fresh held-out batch for the codex CLI (variant 4: fixtures `<name>__f4`).

Written from the coverage table (docs/agents/codex.md) after the first three batches were scored,
by someone who never saw the verdict code; frozen in FRESH.txt before the verdict changed.
"""

from __future__ import annotations

from collections.abc import Iterator

from agent_apis.scenarios.base import Case


def codex_batch4_cases() -> Iterator[Case]:
    yield from ()
