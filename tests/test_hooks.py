"""The hooks: each reads its Airflow Connection, hides the key, and serves AIWrapperOperator.

Connections come from ``AIRFLOW_CONN_*`` variables, as a secrets backend would give them. The
provider's registration (the four connection types in ``ProvidersManager``, with their form
fields) is read in a fresh interpreter, since Airflow caches providers per process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from agent_apis import openai as O
from agent_apis.core import Scenario

from autofix.connections import connection_types
from autofix.errors import ConfigError, PermanentTaskError
from autofix.hooks import (
    ClaudeCodeHook,
    CodexHook,
    GeminiCliHook,
    OpenAIEndpointHook,
    hook_for_agent,
)
from autofix.operators import AIWrapperOperator
from autofix.redact import redact

pytestmark = pytest.mark.airflow

KEY = "k7Qw2Er9Ty4Ui1Op8As3Df6"
HOOKS = {
    "autofix_claude_code": ClaudeCodeHook,
    "autofix_codex": CodexHook,
    "autofix_gemini_cli": GeminiCliHook,
    "autofix_openai": OpenAIEndpointHook,
}


def add_connection(
    monkeypatch: pytest.MonkeyPatch, conn_id: str, conn_type: str, **fields: Any
) -> None:
    monkeypatch.setenv(
        f"AIRFLOW_CONN_{conn_id.upper()}", json.dumps({"conn_type": conn_type, **fields})
    )


def test_each_hook_declares_what_airflow_reads_off_the_class() -> None:
    entries = {entry["connection-type"]: entry for entry in connection_types()}
    for conn_type, hook in HOOKS.items():
        assert hook.conn_type == conn_type
        assert hook.conn_name_attr == "conn_id"
        assert hook.default_conn_name and hook.hook_name.endswith("(autofix)")
        assert entries[conn_type]["hook-class-name"] == f"{hook.__module__}.{hook.__name__}"
        assert entries[conn_type]["hook-name"] == hook.hook_name
    assert hook_for_agent("claude") is ClaudeCodeHook
    assert hook_for_agent("wrapper") is ClaudeCodeHook
    assert hook_for_agent("codex") is CodexHook
    assert hook_for_agent("gemini") is GeminiCliHook
    assert hook_for_agent("openai") is OpenAIEndpointHook


def test_a_hook_reads_its_connection_and_registers_the_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    add_connection(
        monkeypatch,
        "claude_conn",
        "autofix_claude_code",
        host="http://127.0.0.1:9100",
        password=KEY,
        extra={"model": "claude-sonnet-4-5"},
    )
    settings = ClaudeCodeHook("claude_conn").agent_settings()
    assert settings.env == {
        "ANTHROPIC_BASE_URL": "http://127.0.0.1:9100",
        "ANTHROPIC_API_KEY": KEY,
        "ANTHROPIC_MODEL": "claude-sonnet-4-5",
    }
    assert settings.options == {} and settings.home is None  # no temporary home by default
    assert KEY not in redact(f"the key is {KEY}")


def test_the_openai_hook_still_reads_connections_of_other_types(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    add_connection(monkeypatch, "old_llm", "http", host="llm.local", port=8080, password=KEY)
    endpoint = OpenAIEndpointHook("old_llm").get_conn()
    assert endpoint.base_url == "https://llm.local:8080/v1" and endpoint.api_key == KEY


def test_isolated_home_from_the_connection_or_the_hook_is_removed_on_close(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    add_connection(
        monkeypatch, "codex_conn", "autofix_codex", password=KEY, extra={"isolated_home": True}
    )
    hook = CodexHook("codex_conn")
    settings = hook.agent_settings()
    assert settings.home is not None and settings.home.is_dir()
    assert settings.env["HOME"] == str(settings.home)
    assert settings.env["CODEX_HOME"] == str(settings.home / ".codex")
    assert hook.agent_settings().home == settings.home  # one home per task
    hook.close()
    assert not settings.home.exists()
    # The hook's own argument wins over the Connection's field.
    assert CodexHook("codex_conn", isolated_home=False).agent_settings().home is None


def test_the_operator_delegates_to_the_agents_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    add_connection(
        monkeypatch,
        "gemini_conn",
        "autofix_gemini_cli",
        password=KEY,
        extra={"isolated_home": "true", "model": "gemini-2.5-pro"},
    )
    op = AIWrapperOperator(task_id="t", prompt="p", agent="gemini", conn_id="gemini_conn")
    assert isinstance(op._connection_hook, GeminiCliHook)
    assert op._connection_hook is op._connection_hook  # one hook per operator
    env, options = op._connection_settings()
    home = env["HOME"]
    assert env["GEMINI_API_KEY"] == KEY and env["GEMINI_CLI_HOME"] == home
    assert env["GEMINI_MODEL"] == "gemini-2.5-pro" and options == {}
    op._close_connection()
    assert not os.path.exists(home)
    assert AIWrapperOperator(task_id="u", prompt="p", agent="claude")._connection_settings() == (
        {},
        {},
    )


def test_conn_id_for_an_agent_without_a_hook_fails_at_parse_time() -> None:
    with pytest.raises(ConfigError, match="conn_id works with agent claude, codex, gemini"):
        AIWrapperOperator(task_id="t", prompt="p", agent="plain", conn_id="x")


def test_a_bad_field_fails_the_task_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    add_connection(monkeypatch, "bedrock", "autofix_claude_code", extra={"api": "bedrock"})
    op = AIWrapperOperator(task_id="t", prompt="p", agent="claude", conn_id="bedrock")
    with pytest.raises(PermanentTaskError, match="region is empty but Bedrock"):
        op._connection_settings()


def test_the_openai_hook_checks_the_key_with_the_models_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No CLI to ask for a version: the client is autofix's own."""
    server = O.OpenAIResponsesServer(Scenario("models", [O.text("ok")]), api_key=KEY).start()
    try:
        for password, expected in ((KEY, True), ("k-not-the-key-0000", False)):
            add_connection(
                monkeypatch, "llm", "autofix_openai", host=server.base_url, password=password
            )
            passed, message = OpenAIEndpointHook("llm").test_connection()
            assert passed is expected, message
            assert message.startswith(("GET ", "refused key: GET ")) and KEY not in message
    finally:
        server.stop()


def test_test_connection_names_a_missing_connection() -> None:
    passed, message = ClaudeCodeHook("no_such_conn").test_connection()
    assert not passed and message.startswith("cannot read Connection 'no_such_conn': ")


# A fresh interpreter: Airflow caches its providers per process.
PROVIDERS = """
import json
from airflow.providers_manager import ProvidersManager
pm = ProvidersManager()
types = [t for t in pm.hooks if t.startswith("autofix_")]
print(json.dumps({
    "hooks": {t: pm.hooks[t].hook_class_name for t in types},
    "testable": {t: pm.hooks[t].connection_testable for t in types},
    "widgets": sorted(k for k in pm.connection_form_widgets if k.startswith("extra__autofix_")),
    "behaviours": {t: pm.field_behaviours.get(t) for t in types},
}))
"""


def test_the_provider_registers_the_four_connection_types_with_their_forms() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROVIDERS],
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
        env=os.environ | {"AIRFLOW__CORE__LAZY_LOAD_PROVIDERS": "False"},
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["hooks"] == {
        "autofix_claude_code": "autofix.hooks.claude_code.ClaudeCodeHook",
        "autofix_codex": "autofix.hooks.codex.CodexHook",
        "autofix_gemini_cli": "autofix.hooks.gemini_cli.GeminiCliHook",
        "autofix_openai": "autofix.hooks.openai_endpoint.OpenAIEndpointHook",
    }
    assert all(found["testable"].values())
    expected = {
        f"extra__{entry['connection-type']}__{name}"
        for entry in connection_types()
        for name in entry["conn-fields"]
    }
    assert set(found["widgets"]) == expected
    claude = found["behaviours"]["autofix_claude_code"]
    assert claude["relabeling"] == {"host": "Base URL", "password": "API key"}
    assert "extra__autofix_claude_code__model" in claude["placeholders"]
