"""The typed agent limits against the real CLIs: ``max_turns=2`` ends the run as ``max_turns``
after two turns, and the MCP servers and tool lists autofix writes are what the CLI offers the
model.

Each run: the pinned CLI, a scripted loopback API (tests/agent_apis) whose model calls a tool
turn after turn, the test bed's sandbox (its own HOME, env and settings, with no turn cap of its
own), and autofix's AgentTask with an ``AgentLimits``: every flag and config file for the limits
comes from the agent format. Skipped when ``make agent-clis`` has not installed the CLIs.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from agent_apis import anthropic as A
from agent_apis import gemini as G
from agent_apis import openai as O
from agent_apis.clis import Sandbox, missing_reason
from agent_apis.core import RecordedRequest, ScriptedServer
from agent_apis.mcp_probe import TOOL_NAME
from agent_apis.scenarios import SUCCESS, Case, Context, cases_by_key
from agents.capture import SERVERS
from agents.e2e import operator_kwargs

from autofix.agents.limits import AgentLimits
from autofix.config import AutofixConfig
from autofix.result import FailureKind, ParseResult, RetryClass
from autofix.task.agent_task import AgentTask, AgentTaskSpec, TraceContext

MISSING = missing_reason()
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.timeout(300),
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
]
PROBE = Path(__file__).parent / "agent_apis" / "mcp_probe.py"


def run_case(case: Case, tmp_path: Path, limits: AgentLimits) -> tuple[ParseResult, ScriptedServer]:
    """``case`` as the e2e matrix runs it (tests/agents/e2e.py), through AgentTask with
    ``limits``; returns the verdict and the stopped server (its request log)."""
    sandbox = Sandbox(tmp_path).create()
    scenario = case.scenario(Context(work=sandbox.work))
    assert scenario is not None
    server = SERVERS[case.cli](scenario).start()
    try:
        kwargs = operator_kwargs(case, server.base_url, sandbox)
        spec = AgentTaskSpec(
            agent=kwargs["agent"],
            prompt=kwargs["prompt"],
            command=kwargs["command"],
            env=kwargs["env"],
            cwd=kwargs["cwd"],
            model=kwargs["model"],
            agent_options=kwargs["agent_options"],
            limits=limits,
            timeout=90.0,
            grace=2.0,
        )
        task = AgentTask(
            spec,
            config=AutofixConfig(),
            trace=TraceContext(trace_id="limits"),
            log_line=lambda line: None,
            raw_dir=tmp_path / "raw",
        )
        result = task.run()
    finally:
        server.stop()
    return result, server


@pytest.mark.parametrize("cli", ["claude", "gemini"])
def test_max_turns_reaches_the_cli_and_is_reported(cli: str, tmp_path: Path) -> None:
    # The model calls read_file / Read on every turn; the test bed sets no cap of its own.
    case = cases_by_key()[f"{cli}/max_turns__v2"]
    assert case.options.max_turns == 2
    result, server = run_case(case, tmp_path, AgentLimits(max_turns=2))
    assert result.failure_kind is FailureKind.MAX_TURNS, result.error_message
    assert result.retry_class is RetryClass.PERMANENT
    assert len(server.model_requests()) == 2  # the cap, not the scenario, ended the run


def _tool_names(request: RecordedRequest) -> set[str]:
    """Every ``name`` in the request's tool declarations (Anthropic, OpenAI, Gemini shapes)."""

    def walk(value: Any) -> Iterator[str]:
        if isinstance(value, dict):
            name = value.get("name")
            if isinstance(name, str):
                yield name
            for child in value.values():
                yield from walk(child)
        elif isinstance(value, list):
            for child in value:
                yield from walk(child)

    body = request.body if isinstance(request.body, dict) else {}
    return set(walk(body.get("tools")))


PONG = {"claude": A.text("pong"), "codex": O.text("pong"), "gemini": G.text("pong")}
SERVER = "autofix_probe"
# A tool each CLI declares by default (claude 2.1.332; gemini 0.61.0 in yolo mode) that the run
# denies (codex has no denylist).
DENIED = {"claude": "Write", "gemini": "glob"}
# Gemini leaves out of a headless run's declarations every tool that would ask first (an
# untrusted MCP server's too); "yolo" lets them in.
MODE = {"gemini": "yolo"}


@pytest.mark.parametrize("cli", ["claude", "codex", "gemini"])
def test_mcp_servers_and_denied_tools_reach_the_model_request(cli: str, tmp_path: Path) -> None:
    case = Case(cli, "mcp_probe", SUCCESS, lambda c: [PONG[cli]])
    probe_log = tmp_path / "probe.log"
    server_config = {
        "command": sys.executable,
        "args": [str(PROBE)],
        "env": {"MCP_PROBE_LOG": str(probe_log)},
    }
    limits = AgentLimits.model_validate(
        {
            "mcp_servers": {SERVER: server_config},
            "disallowed_tools": [DENIED[cli]] if cli in DENIED else [],
            "permission_mode": MODE.get(cli),
        }
    )
    result, server = run_case(case, tmp_path, limits)
    assert result.success, result.error_message
    # The CLI started the server from the config autofix wrote, and listed its tools ...
    assert "tools/list" in probe_log.read_text().split(), probe_log.read_text()
    requests = server.model_requests()
    assert requests, server.log_summary()
    # ... and offers them to the model: declared, or named as a deferred tool (claude, codex).
    sent = json.dumps(requests[0].body)
    assert TOOL_NAME in sent or f"mcp__{SERVER}" in sent, sorted(_tool_names(requests[0]))
    if cli in DENIED:
        assert DENIED[cli] not in _tool_names(requests[0])
