"""Agent Connections without Airflow: each type's env and options, its form, its key check.

The env variable names are the pinned CLIs' own (autofix/connections/*.py say where each is
read); the key check runs against the scripted loopback APIs of tests/agent_apis.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from agent_apis.anthropic import AnthropicServer
from agent_apis.anthropic import text as claude_text
from agent_apis.core import RefusedPort, Scenario, ScriptedServer
from agent_apis.gemini import GeminiServer
from agent_apis.gemini import text as gemini_text
from agent_apis.openai import OpenAIResponsesServer
from agent_apis.openai import text as openai_text

from autofix.agents.base import AgentRequest
from autofix.agents.codex import CodexFormat
from autofix.connections import (
    CONNECTIONS,
    ConnectionValues,
    connection_for_agent,
    connection_types,
)
from autofix.connections.base import AgentConnection, IsolatedHome
from autofix.connections.check import http_check
from autofix.connections.claude import ClaudeCodeConnection
from autofix.connections.codex import CodexConnection
from autofix.connections.gemini import GeminiCliConnection
from autofix.connections.openai import OpenAIConnection
from autofix.errors import ConfigError, ConnectionSettingsError

KEY = "k-9Rr2Vb7Qx4Lm1Zt8Wc3Hy6"


def values(**fields: Any) -> ConnectionValues:
    extra = fields.pop("extra", {})
    return ConnectionValues(conn_id="agent_conn", extra=extra, **fields)


# -- env and options ----------------------------------------------------------------------


def test_claude_anthropic_api_key_base_url_and_model() -> None:
    conn = ClaudeCodeConnection(
        values(host="http://127.0.0.1:9000", password=KEY, extra={"model": "claude-opus-4-1"})
    )
    assert conn.environment({}) == (
        {
            "ANTHROPIC_BASE_URL": "http://127.0.0.1:9000",
            "ANTHROPIC_API_KEY": KEY,
            "ANTHROPIC_MODEL": "claude-opus-4-1",
        },
        {},
    )
    assert ClaudeCodeConnection(values()).environment({}) == ({}, {})  # the CLI's own login


def test_claude_bedrock_and_vertex() -> None:
    bedrock = ClaudeCodeConnection(
        values(password=KEY, extra={"api": "bedrock", "region": "eu-west-1"})
    )
    assert bedrock.environment({})[0] == {
        "CLAUDE_CODE_USE_BEDROCK": "1",
        "AWS_REGION": "eu-west-1",
        "AWS_BEARER_TOKEN_BEDROCK": KEY,
    }
    vertex = ClaudeCodeConnection(
        values(
            host="https://vertex.example",
            extra={"api": "vertex", "region": "us-east5", "project_id": "proj-1"},
        )
    )
    assert vertex.environment({})[0] == {
        "CLAUDE_CODE_USE_VERTEX": "1",
        "CLOUD_ML_REGION": "us-east5",
        "ANTHROPIC_VERTEX_PROJECT_ID": "proj-1",
        "ANTHROPIC_VERTEX_BASE_URL": "https://vertex.example",
    }


@pytest.mark.parametrize(
    ("connection", "fields", "words"),
    [
        (ClaudeCodeConnection, {"extra": {"api": "bedrock"}}, "region is empty but Bedrock"),
        (ClaudeCodeConnection, {"extra": {"api": "azure"}}, "api is 'azure'"),
        (
            ClaudeCodeConnection,
            {"password": KEY, "extra": {"api": "vertex", "region": "r", "project_id": "p"}},
            "password is set, but Vertex AI signs in",
        ),
        (ClaudeCodeConnection, {"extra": {"isolated_home": "maybe"}}, "not true or false"),
        (CodexConnection, {"extra": {"provider_id": "my.provider"}}, "provider_id is"),
        (CodexConnection, {"extra": {"env_key": "MY-KEY"}}, "env_key is 'MY-KEY'"),
        (GeminiCliConnection, {"extra": {"api": "vertex"}}, "project_id is empty"),
    ],
)
def test_a_field_the_agent_cannot_use_is_a_clear_error(
    connection: type[AgentConnection], fields: dict[str, Any], words: str
) -> None:
    with pytest.raises(ConnectionSettingsError) as caught:
        connection(values(**fields))
    message = str(caught.value)
    assert words in message
    assert message.startswith(f"Connection 'agent_conn' ({connection.conn_type}): ")
    assert "Next: " in message and KEY not in message


def test_codex_openai_key_and_model() -> None:
    conn = CodexConnection(values(password=KEY, extra={"model": "gpt-5.5"}))
    assert conn.environment({}) == (
        {"CODEX_API_KEY": KEY},
        {"config_overrides": {"model": '"gpt-5.5"'}},
    )


def test_codex_base_url_is_a_custom_provider_in_config_overrides() -> None:
    conn = CodexConnection(
        values(host="http://127.0.0.1:9000/v1", password=KEY, extra={"env_key": "GATEWAY_KEY"})
    )
    env, options = conn.environment({})
    assert env == {"GATEWAY_KEY": KEY}
    assert options["config_overrides"] == {
        "model_provider": '"autofix"',
        "model_providers.autofix": '{name="autofix", base_url="http://127.0.0.1:9000/v1", '
        'env_key="GATEWAY_KEY", wire_api="responses"}',
    }
    argv = CodexFormat().invocation(AgentRequest(prompt="hi", options=options), None).argv
    assert argv[:6] == [
        "codex",
        "exec",
        "--json",
        "--skip-git-repo-check",
        "-c",
        'model_provider="autofix"',
    ]
    assert KEY not in " ".join(argv)
    # A host without a scheme: https://host:port/v1, as for OpenAI-compatible endpoints.
    bare = CodexConnection(values(host="llm.internal", port=8443))
    assert bare.base_url == "https://llm.internal:8443/v1"


def test_gemini_api_key_and_vertex() -> None:
    conn = GeminiCliConnection(
        values(host="http://127.0.0.1:9000", password=KEY, extra={"model": "gemini-2.5-pro"})
    )
    assert conn.environment({})[0] == {
        "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:9000",
        "GEMINI_API_KEY": KEY,
        "GEMINI_MODEL": "gemini-2.5-pro",
    }
    vertex = GeminiCliConnection(
        values(extra={"api": "vertex", "project_id": "proj-1", "region": "us-central1"})
    )
    assert vertex.environment({})[0] == {
        "GOOGLE_GENAI_USE_VERTEXAI": "true",
        "GOOGLE_CLOUD_PROJECT": "proj-1",
        "GOOGLE_CLOUD_LOCATION": "us-central1",
    }
    express = GeminiCliConnection(values(password=KEY, extra={"api": "vertex"}))
    assert express.environment({})[0] == {
        "GOOGLE_GENAI_USE_VERTEXAI": "true",
        "GOOGLE_API_KEY": KEY,
    }


def test_openai_endpoint_reads_any_connection_type() -> None:
    http = OpenAIConnection(
        values(conn_type="http", host="127.0.0.1", port=8013, schema="http", password=KEY)
    )
    assert http.environment({"api_key_env": "LLM_KEY"}) == (
        {"LLM_KEY": KEY},
        {"base_url": "http://127.0.0.1:8013/v1"},
    )
    typed = OpenAIConnection(
        values(extra={"base_url": "http://gw/v1", "model": "qwen"}, password=KEY)
    )
    assert typed.environment({}) == (
        {"OPENAI_API_KEY": KEY},
        {"base_url": "http://gw/v1", "model": "qwen"},
    )
    # The task's own options win.
    assert typed.environment({"model": "mine", "base_url": "http://x/v1"})[1] == {}


def test_extra_fields_saved_with_the_older_prefixed_names_are_read() -> None:
    conn = ClaudeCodeConnection(
        values(extra={"extra__autofix_claude_code__model": "m", "isolated_home": "true"})
    )
    assert conn.model == "m" and conn.isolated_home


def test_isolated_home_points_each_cli_at_a_temporary_home(tmp_path: Path) -> None:
    assert ClaudeCodeConnection(values()).home_environment(tmp_path) == {
        "HOME": str(tmp_path),
        "CLAUDE_CONFIG_DIR": str(tmp_path / ".claude"),
    }
    assert CodexConnection(values()).home_environment(tmp_path) == {
        "HOME": str(tmp_path),
        "CODEX_HOME": str(tmp_path / ".codex"),
    }
    assert (tmp_path / ".codex").is_dir()  # Codex refuses a missing CODEX_HOME
    assert GeminiCliConnection(values()).home_environment(tmp_path) == {
        "HOME": str(tmp_path),
        "GEMINI_CLI_HOME": str(tmp_path),
    }
    assert ClaudeCodeConnection(values()).isolated_home is False  # off by default
    home = IsolatedHome()
    (home.path / ".claude").mkdir()
    home.close()
    assert not home.path.exists()


def test_each_agent_has_its_connection_type() -> None:
    assert connection_for_agent("claude") is ClaudeCodeConnection
    assert connection_for_agent("wrapper") is ClaudeCodeConnection
    assert connection_for_agent("codex") is CodexConnection
    assert connection_for_agent("gemini") is GeminiCliConnection
    assert connection_for_agent("openai") is OpenAIConnection
    with pytest.raises(ConfigError, match="conn_id works with agent claude, codex, gemini"):
        connection_for_agent("plain")


# -- the form (provider info) ----------------------------------------------------------------


def test_connection_types_carry_the_form_fields_and_behaviour() -> None:
    entries = {entry["connection-type"]: entry for entry in connection_types()}
    assert {name: entry["hook-class-name"] for name, entry in entries.items()} == {
        "autofix_claude_code": "autofix.hooks.claude_code.ClaudeCodeHook",
        "autofix_codex": "autofix.hooks.codex.CodexHook",
        "autofix_gemini_cli": "autofix.hooks.gemini_cli.GeminiCliHook",
        "autofix_openai": "autofix.hooks.openai_endpoint.OpenAIEndpointHook",
    }
    claude = entries["autofix_claude_code"]
    assert set(claude["conn-fields"]) == {"model", "api", "region", "project_id", "isolated_home"}
    assert claude["conn-fields"]["api"]["schema"]["enum"] == ["anthropic", "bedrock", "vertex"]
    assert claude["conn-fields"]["isolated_home"]["schema"]["default"] is False
    assert set(entries["autofix_codex"]["conn-fields"]) == {
        "model",
        "provider_id",
        "env_key",
        "isolated_home",
    }
    assert entries["autofix_gemini_cli"]["conn-fields"]["api"]["schema"]["enum"] == [
        "gemini",
        "vertex",
    ]
    for entry in entries.values():
        behaviour = entry["ui-field-behaviour"]
        assert behaviour["relabeling"]["password"] == "API key"
        assert "login" in behaviour["hidden-fields"]
        assert set(behaviour) == {"hidden-fields", "relabeling", "placeholders"}
        for spec in entry["conn-fields"].values():
            assert spec["label"] and "null" in spec["schema"]["type"]
    assert len(CONNECTIONS) == 4


# -- the key check (test_connection's request) against the scripted APIs ---------------------


def _serve(server: type[ScriptedServer], reply: Any) -> ScriptedServer:
    return server(Scenario("key_check", [reply]), api_key=KEY).start()


@pytest.mark.parametrize(
    ("server", "reply", "connection", "suffix"),
    [
        (AnthropicServer, claude_text("ok"), ClaudeCodeConnection, ""),
        (OpenAIResponsesServer, openai_text("ok"), CodexConnection, "/v1"),
        (OpenAIResponsesServer, openai_text("ok"), OpenAIConnection, "/v1"),
        (GeminiServer, gemini_text("ok"), GeminiCliConnection, ""),
    ],
)
def test_the_key_check_passes_refuses_and_says_unreachable(
    server: type[ScriptedServer], reply: Any, connection: type[AgentConnection], suffix: str
) -> None:
    api = _serve(server, reply)
    try:
        good = connection(values(host=api.origin + suffix, password=KEY)).probe()
        bad = connection(values(host=api.origin + suffix, password="k-wrong-0000000000")).probe()
        assert good is not None and bad is not None
        passed, said = http_check(good)
        assert passed and "HTTP 200, 1 model(s) listed" in said, said
        passed, said = http_check(bad)
        assert not passed and said.startswith("refused key: GET ") and "Next: put a valid" in said
        assert "k-wrong-0000000000" not in said
    finally:
        api.stop()
    refused = RefusedPort()
    try:
        probe = connection(
            values(host=f"http://127.0.0.1:{refused.port}{suffix}", password=KEY)
        ).probe()
        assert probe is not None
        passed, said = http_check(probe)
        assert not passed and said.startswith("unreachable host: GET http://127.0.0.1:")
        assert "Connection refused" in said
    finally:
        refused.close()


def test_without_a_key_or_with_a_cloud_the_cli_itself_is_asked() -> None:
    assert ClaudeCodeConnection(values()).probe() is None
    assert ClaudeCodeConnection(values(extra={"api": "bedrock", "region": "r"})).probe() is None
    assert GeminiCliConnection(values(password=KEY, extra={"api": "vertex"})).probe() is None
    assert CodexConnection(values()).probe() is None
    keyless_gateway = CodexConnection(values(host="http://127.0.0.1:1/v1")).probe()
    assert keyless_gateway is not None and keyless_gateway.headers == {}
