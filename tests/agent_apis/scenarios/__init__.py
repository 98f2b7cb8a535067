"""The scenario catalogue: every case the real CLIs are run through, with its expected truth.

``base.py`` holds the shared types (:class:`Case`, :class:`Truth`, ...) and shapes; each CLI's
cases live in their own module (``claude.py``, ``codex.py``, ``gemini.py``).
"""

from __future__ import annotations

from agent_apis.scenarios.base import *  # noqa: F403  (the shared names, as before the split)
from agent_apis.scenarios.base import Case
from agent_apis.scenarios.batch2_claude import claude_batch2_cases
from agent_apis.scenarios.batch2_codex import codex_batch2_cases
from agent_apis.scenarios.batch2_gemini import gemini_batch2_cases
from agent_apis.scenarios.batch3_claude import claude_batch3_cases
from agent_apis.scenarios.batch3_codex import codex_batch3_cases
from agent_apis.scenarios.batch3_gemini import gemini_batch3_cases
from agent_apis.scenarios.batch4_claude import claude_batch4_cases
from agent_apis.scenarios.batch4_codex import codex_batch4_cases
from agent_apis.scenarios.batch4_gemini import gemini_batch4_cases
from agent_apis.scenarios.claude import claude_cases
from agent_apis.scenarios.codex import codex_cases
from agent_apis.scenarios.gemini import gemini_cases


def all_cases() -> list[Case]:
    return [
        *claude_cases(),
        *codex_cases(),
        *gemini_cases(),
        *claude_batch2_cases(),
        *codex_batch2_cases(),
        *gemini_batch2_cases(),
        *claude_batch3_cases(),
        *codex_batch3_cases(),
        *gemini_batch3_cases(),
        *claude_batch4_cases(),
        *codex_batch4_cases(),
        *gemini_batch4_cases(),
    ]


def cases_by_key() -> dict[str, Case]:
    cases = all_cases()
    keys = [case.key for case in cases]
    duplicates = {k for k in keys if keys.count(k) > 1}
    if duplicates:
        raise ValueError(f"duplicate cases: {sorted(duplicates)}")
    return {case.key: case for case in cases}
