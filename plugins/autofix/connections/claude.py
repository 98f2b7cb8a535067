"""The ``autofix_claude_code`` Connection: Claude Code's key, base URL, model and cloud.

``api`` picks where Claude Code sends its requests: the Anthropic API (the key in
ANTHROPIC_API_KEY), Amazon Bedrock (CLAUDE_CODE_USE_BEDROCK, AWS_REGION; the password, if set,
is a Bedrock API key, else the worker's AWS credentials) or Google Vertex AI
(CLAUDE_CODE_USE_VERTEX, CLOUD_ML_REGION, ANTHROPIC_VERTEX_PROJECT_ID; the worker's Google
credentials). Every variable name below is read by the pinned CLI
(@anthropic-ai/claude-code 2.1.332: ``grep -a NAME .agents/node_modules/@anthropic-ai/claude-code/bin/claude.exe``).
"""

from __future__ import annotations

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
)

APIS = ("anthropic", "bedrock", "vertex")
ANTHROPIC_URL = "https://api.anthropic.com"
ANTHROPIC_VERSION = "2023-06-01"  # the Messages API version header every request carries
# api → (the switch, the base URL variable, the key variable)
_API_ENV: dict[str, tuple[str | None, str, str | None]] = {
    "anthropic": (None, "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"),
    "bedrock": (
        "CLAUDE_CODE_USE_BEDROCK",
        "ANTHROPIC_BEDROCK_BASE_URL",
        "AWS_BEARER_TOKEN_BEDROCK",
    ),
    "vertex": ("CLAUDE_CODE_USE_VERTEX", "ANTHROPIC_VERTEX_BASE_URL", None),
}


class ClaudeCodeConnection(AgentConnection):
    conn_type: ClassVar[str] = "autofix_claude_code"
    hook_class_name: ClassVar[str] = "autofix.hooks.claude_code.ClaudeCodeHook"
    hook_name: ClassVar[str] = "Claude Code (autofix)"
    default_conn_id: ClassVar[str] = "autofix_claude_code_default"
    agent: ClassVar[str] = "claude"
    cli: ClassVar[str | None] = "claude"
    fields: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "model": MODEL_FIELD,
        "api": {
            "label": "API",
            "schema": {"type": ["string", "null"], "default": "anthropic", "enum": list(APIS)},
            "description": "anthropic (the key), bedrock (Amazon Bedrock) or vertex (Google "
            "Vertex AI).",
        },
        "region": {
            "label": "Region",
            "schema": {"type": ["string", "null"]},
            "description": "bedrock: the AWS region (AWS_REGION); vertex: the Vertex AI region "
            "(CLOUD_ML_REGION).",
        },
        "project_id": {
            "label": "Vertex AI project",
            "schema": {"type": ["string", "null"]},
            "description": "vertex: the Google Cloud project (ANTHROPIC_VERTEX_PROJECT_ID).",
        },
        "isolated_home": ISOLATED_HOME_FIELD,
    }
    behaviour: ClassVar[Mapping[str, Any]] = {
        **CLI_FORM,
        "placeholders": {
            "host": f"empty: {ANTHROPIC_URL} (or the cloud's own endpoint)",
            "password": "sk-ant-... (bedrock: a Bedrock API key, or empty for AWS credentials)",
            "model": "claude-sonnet-4-5",
            "region": "us-east-1 (bedrock) or us-east5 (vertex)",
        },
    }

    def __init__(self, values: ConnectionValues) -> None:
        super().__init__(values)
        self.api = self.choice("api", APIS)
        self.region = self.text("region")
        self.project_id = self.text("project_id")
        if self.api == "bedrock":
            self.require("region", self.region, "Bedrock (AWS_REGION)")
        if self.api == "vertex":
            self.require("region", self.region, "Vertex AI (CLOUD_ML_REGION)")
            self.require("project_id", self.project_id, "Vertex AI")
            if self.key:
                raise self.problem(
                    "password",
                    "is set, but Vertex AI signs in with the worker's Google credentials",
                    "clear the password (and give the worker Application Default Credentials)",
                )

    def environment(self, agent_options: Mapping[str, Any]) -> EnvAndOptions:
        switch, url_env, key_env = _API_ENV[self.api]
        env: dict[str, str] = {}
        if switch:
            env[switch] = "1"
        if self.api == "bedrock" and self.region:
            env["AWS_REGION"] = self.region
        if self.api == "vertex" and self.region and self.project_id:
            env["CLOUD_ML_REGION"] = self.region
            env["ANTHROPIC_VERTEX_PROJECT_ID"] = self.project_id
        if self.base_url:
            env[url_env] = self.base_url
        if self.key and key_env:
            env[key_env] = self.key
        if self.model:
            env["ANTHROPIC_MODEL"] = self.model  # the task's --model wins over it
        return env, {}

    def home_environment(self, home: Path) -> dict[str, str]:
        return {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude")}

    def probe(self) -> HttpProbe | None:
        """GET /v1/models with the key: listed for any valid key, billed to nobody. Bedrock and
        Vertex sign requests with the cloud's own credentials, and a Connection without a key
        means the CLI's own login: those ask the CLI."""
        if self.api != "anthropic" or not self.key:
            return None
        return HttpProbe(
            url=(self.base_url or ANTHROPIC_URL).rstrip("/") + "/v1/models",
            headers={"x-api-key": self.key, "anthropic-version": ANTHROPIC_VERSION},
            secret_headers=("x-api-key",),
        )

    def prompt_options(self) -> dict[str, Any]:
        return {"output_format": "json"}

    def describe_key(self) -> str:
        if self.api != "anthropic":
            return f"{self.api}'s credentials"
        return "the key" if self.key else "the CLI's own login"
