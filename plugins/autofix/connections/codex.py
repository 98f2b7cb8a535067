"""The ``autofix_codex`` Connection: Codex CLI's key, base URL (a custom provider) and model.

Without a base URL Codex talks to OpenAI and reads the key from CODEX_API_KEY (``codex exec``'s
API-key variable). With one, the task adds a custom model provider as ``-c`` config overrides,
the way tests/agent_apis/clis.py starts Codex against its loopback API:
``-c model_provider="<id>" -c model_providers.<id>={name=..., base_url=..., env_key=...,
wire_api="responses"}``; the key goes into the variable ``env_key`` names, never into argv.
Names checked in the pinned CLI (@openai/codex 0.171.0: ``strings`` of
``codex-linux-x64/vendor/*/bin/codex`` has CODEX_API_KEY, CODEX_HOME, model_providers,
env_key, wire_api; ``codex exec --help`` documents ``-c key=value``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from autofix.connections.base import (
    CLI_FORM,
    ISOLATED_HOME_FIELD,
    MODEL_FIELD,
    AgentConnection,
    ConnectionValues,
    EnvAndOptions,
    HttpProbe,
    env_name,
)

OPENAI_URL = "https://api.openai.com/v1"
DEFAULT_PROVIDER_ID = "autofix"
DEFAULT_ENV_KEY = "OPENAI_API_KEY"
OPENAI_KEY_ENV = "CODEX_API_KEY"


def toml_string(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's for the characters a URL or name has)."""
    return json.dumps(value)


class CodexConnection(AgentConnection):
    conn_type: ClassVar[str] = "autofix_codex"
    hook_class_name: ClassVar[str] = "autofix.hooks.codex.CodexHook"
    hook_name: ClassVar[str] = "Codex CLI (autofix)"
    default_conn_id: ClassVar[str] = "autofix_codex_default"
    agent: ClassVar[str] = "codex"
    cli: ClassVar[str | None] = "codex"
    base_url_suffix: ClassVar[str] = "/v1"
    fields: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "model": MODEL_FIELD,
        "provider_id": {
            "label": "Provider id",
            "schema": {"type": ["string", "null"], "default": DEFAULT_PROVIDER_ID},
            "description": "With a base URL: the custom provider's name in Codex's config "
            "(model_providers.<id>).",
        },
        "env_key": {
            "label": "Key variable",
            "schema": {"type": ["string", "null"], "default": DEFAULT_ENV_KEY},
            "description": "With a base URL: the environment variable the provider reads the "
            "key from (its env_key).",
        },
        "isolated_home": ISOLATED_HOME_FIELD,
    }
    behaviour: ClassVar[Mapping[str, Any]] = {
        **CLI_FORM,
        "placeholders": {
            "host": f"empty: {OPENAI_URL}; else an OpenAI-compatible URL ending in /v1",
            "password": "sk-...",
            "model": "gpt-5.5",
        },
    }

    def __init__(self, values: ConnectionValues) -> None:
        super().__init__(values)
        self.provider_id = self.text("provider_id") or DEFAULT_PROVIDER_ID
        self.env_key = self.text("env_key") or DEFAULT_ENV_KEY
        if not self.provider_id.replace("_", "").replace("-", "").isalnum():
            raise self.problem(
                "provider_id",
                f"is {self.provider_id!r}",
                "use letters, digits, '-' and '_' only (it is a key in Codex's config)",
            )
        if not env_name(self.env_key):
            raise self.problem(
                "env_key", f"is {self.env_key!r}", "give an environment variable name"
            )

    def config_overrides(self) -> dict[str, str]:
        """Codex ``-c`` overrides, key → TOML value."""
        overrides: dict[str, str] = {}
        if self.model:
            overrides["model"] = toml_string(self.model)  # the task's --model wins over it
        if self.base_url:
            provider = ", ".join(
                f"{name}={toml_string(value)}"
                for name, value in (
                    ("name", self.provider_id),
                    ("base_url", self.base_url),
                    ("env_key", self.env_key),
                    ("wire_api", "responses"),  # the only wire API current Codex accepts
                )
            )
            overrides["model_provider"] = toml_string(self.provider_id)
            overrides[f"model_providers.{self.provider_id}"] = "{" + provider + "}"
        return overrides

    def environment(self, agent_options: Mapping[str, Any]) -> EnvAndOptions:
        env: dict[str, str] = {}
        if self.key:
            env[self.env_key if self.base_url else OPENAI_KEY_ENV] = self.key
        overrides = self.config_overrides()
        return env, ({"config_overrides": overrides} if overrides else {})

    def home_environment(self, home: Path) -> dict[str, str]:
        codex_home = home / ".codex"
        codex_home.mkdir(parents=True, exist_ok=True)  # Codex refuses a CODEX_HOME that is missing
        return {"HOME": str(home), "CODEX_HOME": str(codex_home)}

    def probe(self) -> HttpProbe | None:
        """GET <base URL>/models (OpenAI's models list) with the key. Without a key or a base
        URL Codex signs in with its own login (ChatGPT): that asks the CLI."""
        if not self.key and not self.base_url:
            return None
        headers = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        return HttpProbe(
            url=(self.base_url or OPENAI_URL).rstrip("/") + "/models",
            headers=headers,
            secret_headers=("Authorization",),
        )

    def prompt_options(self) -> dict[str, Any]:
        return {"sandbox": "read-only", "config_overrides": self.config_overrides()}

    def describe_key(self) -> str:
        return "the key" if self.key else ("no key" if self.base_url else "the CLI's own login")
