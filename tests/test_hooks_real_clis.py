"""The hooks with the real Claude Code, Codex and Gemini CLIs against the scripted loopback APIs.

``test_connection`` runs the pinned CLI's ``--version`` and one request with the Connection's
key: it passes with the key the API accepts, and says what failed for a refused key, an
unreachable host (a bound port nobody listens on) and a missing binary. A Connection without a
key is checked by the CLI itself answering a one-word prompt with its own credentials.

Then one DAG under ``dag.test()`` runs ``AIWrapperOperator(conn_id=...)`` for every agent, each
API accepting only the Connection's key, each model echoing it back: the tasks succeed, the
Connection's model reaches the API, and the key is in no task log, XCom or audit record.
Skipped, with the reason, when ``make agent-clis`` has not installed the pinned CLIs.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from agent_apis import anthropic as A
from agent_apis import gemini as G
from agent_apis import openai as O
from agent_apis.clis import AGENTS_DIR, CLIS, RunOptions, Sandbox, missing_reason
from agent_apis.core import RefusedPort, Scenario, ScriptedServer
from airflow_support import airflow_home, run_dag
from openai_support import chat_answer, fake_openai

from autofix.hooks import ClaudeCodeHook, CodexHook, GeminiCliHook
from autofix.hooks.base import AgentConnectionHook
from autofix.operators.results import coerce_result

MISSING = missing_reason()
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.airflow,
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
]

# Shapeless (no provider prefix): only its registration as a secret can mask it.
KEY = "zq" + secrets.token_hex(16)
SERVERS: dict[str, type[ScriptedServer]] = {
    "claude": A.AnthropicServer,
    "codex": O.OpenAIResponsesServer,
    "gemini": G.GeminiServer,
}
HOOKS: dict[str, type[AgentConnectionHook]] = {
    "claude": ClaudeCodeHook,
    "codex": CodexHook,
    "gemini": GeminiCliHook,
}
CONN_TYPES = {
    "claude": "autofix_claude_code",
    "codex": "autofix_codex",
    "gemini": "autofix_gemini_cli",
}
MODELS = {"claude": "claude-sonnet-4-5", "codex": "gpt-5.5", "gemini": "gemini-2.5-flash"}
VERSIONS = {"claude": "(Claude Code)", "codex": "codex-cli ", "gemini": "0."}
# The CLI's base-URL variable: the Connection's host takes its place in these tests.
URL_ENV = {"claude": "ANTHROPIC_BASE_URL", "gemini": "GOOGLE_GEMINI_BASE_URL"}


def reply(cli: str, text: str) -> Any:
    return {"claude": A.text, "codex": O.text, "gemini": G.text}[cli](text)


def base_url(cli: str, origin: str) -> str:
    return origin + ("/v1" if cli == "codex" else "")


def add_connection(
    monkeypatch: pytest.MonkeyPatch, conn_id: str, conn_type: str, **fields: Any
) -> None:
    monkeypatch.setenv(
        f"AIRFLOW_CONN_{conn_id.upper()}", json.dumps({"conn_type": conn_type, **fields})
    )


@pytest.fixture
def api(request: pytest.FixtureRequest) -> Iterator[ScriptedServer]:
    cli = request.param
    server = SERVERS[cli](Scenario("pong", [reply(cli, "pong")]), api_key=KEY).start()
    yield server
    server.stop()


def check(
    monkeypatch: pytest.MonkeyPatch, cli: str, agent_clis_dir: Path = AGENTS_DIR, **fields: Any
) -> tuple[bool, str]:
    add_connection(monkeypatch, f"check_{cli}", CONN_TYPES[cli], **fields)
    hook = HOOKS[cli](f"check_{cli}", agent_clis_dir=str(agent_clis_dir))
    return hook.test_connection()


@pytest.mark.parametrize("api", ["claude", "codex", "gemini"], indirect=True)
def test_test_connection_passes_with_the_key_and_names_a_refused_one(
    monkeypatch: pytest.MonkeyPatch, api: ScriptedServer
) -> None:
    cli = next(name for name, server in SERVERS.items() if isinstance(api, server))
    url = base_url(cli, api.origin)
    passed, message = check(monkeypatch, cli, host=url, password=KEY)
    assert passed, message
    assert message.startswith(f"`{cli} --version`: ") and VERSIONS[cli] in message
    assert "with the key: HTTP 200, 1 model(s) listed" in message
    passed, message = check(monkeypatch, cli, host=url, password="zq-not-the-key-000000")
    assert not passed and "; refused key: GET " in message, message
    assert "Next: put a valid API key in the Connection's password" in message
    assert KEY not in message


@pytest.mark.parametrize("cli", ["claude", "codex", "gemini"])
def test_test_connection_names_an_unreachable_host_and_a_missing_binary(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cli: str
) -> None:
    refused = RefusedPort()
    try:
        url = base_url(cli, f"http://127.0.0.1:{refused.port}")
        passed, message = check(monkeypatch, cli, host=url, password=KEY)
    finally:
        refused.close()
    assert not passed and "; unreachable host: GET http://127.0.0.1:" in message, message
    assert "Connection refused" in message
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    passed, message = check(monkeypatch, cli, tmp_path, host=url, password=KEY)
    assert not passed
    assert message.startswith(
        f"missing binary: the CLI `{cli}` is not on PATH nor in {tmp_path}/node_modules/.bin. "
    )
    assert "Next: install it on this machine (`make agent-clis`" in message


@pytest.mark.parametrize("cli", ["claude", "gemini"])
def test_without_a_key_in_the_connection_the_cli_answers_a_one_word_prompt(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cli: str
) -> None:
    """The CLI's own credentials (here its key variable in the worker's environment)."""
    sandbox = Sandbox(tmp_path).create()
    for server_key, expected in ((KEY, True), ("zq-not-the-key-000000", False)):
        server = SERVERS[cli](Scenario("ok", [reply(cli, "ok")]), api_key=KEY).start()
        try:
            invocation = CLIS[cli].invocation(
                server.base_url, sandbox, RunOptions(api_key=server_key)
            )
            for name, value in invocation.env.items():
                monkeypatch.setenv(name, value)
            monkeypatch.delenv(URL_ENV[cli])
            passed, message = check(monkeypatch, cli, host=server.origin)
        finally:
            server.stop()
        assert passed is expected, message
        if expected:
            assert message.endswith(
                f"a one-word prompt through `{cli}` with the CLI's own login: answered"
            )
            assert len(server.model_requests()) >= 1
        else:
            assert f"a one-word prompt through `{cli}` with the CLI's own login: auth" in message
        assert KEY not in message


# -- AIWrapperOperator(conn_id=...) per agent under dag.test() ------------------------------------

DAG = """
import json
from pathlib import Path

import pendulum
from airflow.sdk import DAG

from autofix.operators import AIWrapperOperator

TASKS = json.loads(Path({tasks!r}).read_text())

with DAG("hooks_real_clis", schedule=None, start_date=pendulum.datetime(2025, 1, 1)) as dag:
    for kwargs in TASKS:
        AIWrapperOperator(**kwargs)
"""


def cli_task(cli: str, server: ScriptedServer, root: Path, isolated: bool) -> dict[str, Any]:
    """The test bed's binary, settings and env for ``cli`` (tests/agent_apis/clis.py), minus
    what the Connection gives: the key, the base URL and the model (and, with ``isolated``, the
    home)."""
    sandbox = Sandbox(root / cli).create()
    invocation = CLIS[cli].invocation(server.base_url, sandbox, RunOptions(api_key=None))
    argv, env = invocation.argv, dict(invocation.env)
    env.pop(URL_ENV.get(cli, ""), None)
    command = [argv[0]]
    options: dict[str, Any] = {}
    if cli == "codex":  # the test bed's quiet settings; the provider comes from the Connection
        command += ["-c", "analytics.enabled=false", "-c", "check_for_update_on_startup=false"]
    else:
        options["output_format"] = "stream-json"
    if cli == "gemini":
        command.append("--skip-trust")
    if isolated:
        for name in ("HOME", "CODEX_HOME", "CLAUDE_CONFIG_DIR"):
            env.pop(name, None)
    return {
        "task_id": cli,
        "agent": cli,
        "conn_id": f"run_{cli}",
        "prompt": "Reply with the word pong.",
        "command": command,
        "env": env,
        "cwd": str(sandbox.work),
        "agent_options": options,
        "timeout": 90.0,
        "grace": 2.0,
    }


def test_every_agent_runs_with_its_connection_and_the_key_leaks_nowhere(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    audit = tmp_path / "audit.jsonl"
    monkeypatch.setenv("AUTOFIX_HOME", str(tmp_path))
    monkeypatch.setenv("AUTOFIX__AUDIT__PATH", str(audit))
    shared_home = tmp_path / "shared-home"  # the worker's own home, which codex must not touch
    shared_home.mkdir()
    monkeypatch.setenv("HOME", str(shared_home))
    temp_root = tmp_path / "tmp"
    temp_root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp_root))  # where a temporary home goes
    servers = {
        cli: SERVERS[cli](Scenario("echo", [reply(cli, f"pong {KEY}")]), api_key=KEY).start()
        for cli in SERVERS
    }
    tasks = []
    try:
        for cli, server in servers.items():
            isolated = cli == "codex"
            add_connection(
                monkeypatch,
                f"run_{cli}",
                CONN_TYPES[cli],
                host=base_url(cli, server.origin),
                password=KEY,
                extra={"model": MODELS[cli], "isolated_home": isolated},
            )
            tasks.append(cli_task(cli, server, tmp_path / "sandboxes", isolated))
        with fake_openai(chat_answer(f"pong {KEY}")) as llm:
            add_connection(
                monkeypatch,
                "run_openai",
                "autofix_openai",
                host=llm.base_url,
                password=KEY,
                extra={"model": "fake-model"},
            )
            tasks.append(
                {"task_id": "openai", "agent": "openai", "conn_id": "run_openai", "prompt": "Hi."}
            )
            tasks_file = tmp_path / "tasks.json"
            tasks_file.write_text(json.dumps(tasks))
            outcome = run_dag("hooks_real_clis", DAG.format(tasks=str(tasks_file)))
            openai_requests, openai_headers = list(llm.requests), list(llm.headers)
    finally:
        for server in servers.values():
            server.stop()
    output = capfd.readouterr()

    assert outcome.task_states == dict.fromkeys(["claude", "codex", "gemini", "openai"], "success")
    for task in ("claude", "codex", "gemini", "openai"):
        result = coerce_result(outcome.xcoms[task])
        assert result is not None and result.final_text == "pong [REDACTED]", task
    # The key reached each API (it refuses any other), and so did the Connection's model.
    bodies = {cli: [r.body for r in server.model_requests()] for cli, server in servers.items()}
    assert bodies["claude"] and all(b["model"] == MODELS["claude"] for b in bodies["claude"])
    assert bodies["codex"] and all(b["model"] == MODELS["codex"] for b in bodies["codex"])
    gemini_paths = [r.path for r in servers["gemini"].model_requests()]
    assert gemini_paths and all(f"/models/{MODELS['gemini']}:" in p for p in gemini_paths)
    assert openai_requests and openai_requests[0]["model"] == "fake-model"
    assert openai_headers[0]["authorization"] == f"Bearer {KEY}"
    # The temporary home: codex used it, the shared home stayed empty, and it is gone.
    assert list(shared_home.iterdir()) == []
    assert not list(temp_root.glob("autofix-home-*"))

    with sqlite3.connect(airflow_home() / "airflow.db") as db:
        xcom = "\n".join(str(row) for row in db.execute("SELECT task_id, key, value FROM xcom"))
    sinks = {
        "task log": output.out + output.err,
        "xcom table": xcom,
        "audit JSONL": audit.read_text(),
    }
    assert "pong [REDACTED]" in sinks["task log"] and "[REDACTED]" in sinks["xcom table"]
    assert [sink for sink, text in sinks.items() if KEY in text] == []
