"""The verification suite's real-CLI part: Claude Code, Codex and Gemini CLI (pinned in
.agents) against the scripted loopback APIs (tests/agent_apis), through ``AgentTask`` with
``verify=``.

The scripted API makes the real CLI run real tools: Claude's Write (``--permission-mode
acceptEdits``), Codex's shell command (``sandbox_mode="workspace-write"``), Gemini's write_file
(``--approval-mode=yolo``). Per CLI: a claim of a fix with no change, a claim of a file not
written, a file really written by the tool, a project already correct, and a first claim of a
file not written sent back by verify= after which the resumed CLI really writes it. Skipped when
``make agent-clis`` has not installed the CLIs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from agent_apis import anthropic as A
from agent_apis import gemini as G
from agent_apis import openai as O
from agent_apis.clis import CLIS, RunOptions, Sandbox, missing_reason
from agent_apis.core import Reply, Scenario
from agents.capture import SERVERS
from verification_suite.cases import (
    CHANGED,
    FIX_PROMPT,
    GOOD_REPORT,
    PYTEST,
    REPORT_COUNTS,
    REPORT_JSON,
    REPORT_PROMPT,
)
from verification_suite.projects import make_project
from verification_suite.score import resolve_verify

from autofix.config import AutofixConfig
from autofix.task.agent_task import AgentTask, AgentTaskSpec, TraceContext
from autofix.verify.checks import as_checks

MISSING = missing_reason()
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.timeout(600),
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
]

# The flags that let each CLI run its write tool headless (they go before autofix's own).
TOOL_FLAGS = {
    "claude": ["--permission-mode", "acceptEdits"],
    "codex": ["-c", 'sandbox_mode="workspace-write"'],
    "gemini": ["--approval-mode=yolo"],
}


def say(cli: str, answer: str) -> Reply:
    return {"claude": A.text, "codex": O.text, "gemini": G.text}[cli](answer)


def write_report(cli: str, work: Path) -> Reply:
    """The CLI's own tool writing report.json."""
    if cli == "claude":
        return A.tool_call(
            "Write", {"file_path": str(work / "report.json"), "content": GOOD_REPORT}
        )
    if cli == "codex":
        return O.function_call(
            "exec_command", {"cmd": f"printf '%s' '{GOOD_REPORT.strip()}' > report.json"}
        )
    return G.function_call("write_file", {"file_path": "report.json", "content": GOOD_REPORT})


@dataclass(frozen=True)
class RealCase:
    name: str
    project: str
    prompt: str
    replies: Callable[[str, Path], list[Reply]]
    verify: tuple[Any, ...]
    done: bool  # the work is really done at the end (with verify=)
    attempts: int  # agent calls with verify=


REAL_CASES = (
    RealCase(
        "claims_fix_no_change",
        "calc",
        FIX_PROMPT,
        lambda cli, w: [say(cli, "I fixed add() in calc.py and committed the fix.")],
        (CHANGED, PYTEST),
        False,
        2,
    ),
    RealCase(
        "claims_file_not_written",
        "report",
        REPORT_PROMPT,
        lambda cli, w: [say(cli, "Wrote report.json with the counts.")],
        (REPORT_JSON,),
        False,
        2,
    ),
    RealCase(
        "writes_file",
        "report",
        REPORT_PROMPT,
        lambda cli, w: [write_report(cli, w), say(cli, "Wrote report.json.")],
        (REPORT_JSON, REPORT_COUNTS),
        True,
        1,
    ),
    RealCase(
        "already_correct",
        "calc_ok",
        "Make sure `pytest` passes; fix calc.py if not.",
        lambda cli, w: [say(cli, "The tests already pass; nothing needed changing.")],
        (PYTEST,),
        True,
        1,
    ),
    RealCase(
        "claim_then_written",
        "report",
        REPORT_PROMPT,
        lambda cli, w: [
            say(cli, "Wrote report.json."),
            write_report(cli, w),
            say(cli, "Now report.json is really written."),
        ],
        (REPORT_JSON, REPORT_COUNTS),
        True,
        2,
    ),
)
CLI_CASES = [(cli, case) for cli in ("claude", "codex", "gemini") for case in REAL_CASES]


def run_real(cli: str, case: RealCase, root: Path, *, verified: bool) -> Any:
    sandbox = Sandbox(root).create()
    make_project(case.project, sandbox.work)
    scenario = Scenario(case.name, case.replies(cli, sandbox.work))
    with SERVERS[cli](scenario) as server:
        invocation = CLIS[cli].invocation(server.base_url, sandbox, RunOptions(prompt=case.prompt))
        argv = invocation.argv
        command = [argv[0]]
        if cli == "codex":  # the provider settings are root-level -c overrides
            command += [a for i, a in enumerate(argv) if argv[i - 1] == "-c" or a == "-c"]
        elif cli == "gemini":
            command.append("--skip-trust")
        command += TOOL_FLAGS[cli]
        items = resolve_verify(case.verify, sandbox.work)
        task = AgentTask(
            AgentTaskSpec(
                agent=cli,
                prompt=case.prompt,
                operation=case.name,
                command=command,
                env=invocation.env,
                cwd=str(sandbox.work),
                model=getattr(CLIS[cli], "default_model", None),
                agent_options={} if cli == "codex" else {"output_format": "stream-json"},
                timeout=90.0,
                grace=2.0,
                max_attempts=3,
                verify=as_checks(items) if verified else (),
            ),
            config=AutofixConfig(),
            trace=TraceContext(trace_id=f"real-{cli}-{case.name}"),
            log_line=lambda line: None,
        )
        return task.run()


@pytest.mark.parametrize(("cli", "case"), CLI_CASES, ids=[f"{c}-{k.name}" for c, k in CLI_CASES])
def test_real_cli_with_verify(cli: str, case: RealCase, tmp_path: Path) -> None:
    result = run_real(cli, case, tmp_path, verified=True)
    checks = [
        (v.attempt, [(c.name, c.passed, c.errors[:1]) for c in v.checks])
        for v in result.verification
    ]
    assert result.success is case.done, (result.error_message, checks)
    assert result.attempts == case.attempts, checks
    if not case.done:
        assert result.failure_kind.value == "verification_failed"


@pytest.mark.parametrize(
    ("cli", "case"),
    [(c, k) for c, k in CLI_CASES if not k.done or k.attempts > 1],
    ids=[f"{c}-{k.name}" for c, k in CLI_CASES if not k.done or k.attempts > 1],
)
def test_real_cli_without_verify_believes_the_claim(
    cli: str, case: RealCase, tmp_path: Path
) -> None:
    result = run_real(cli, case, tmp_path, verified=False)
    assert result.success and result.attempts == 1, result.error_message
