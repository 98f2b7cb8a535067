"""The ``autofix_gemini_cli`` Connection: Gemini CLI's key, base URL, model and Vertex AI.

``api`` is ``gemini`` (the Gemini API: GEMINI_API_KEY, GOOGLE_GEMINI_BASE_URL) or ``vertex``
(GOOGLE_GENAI_USE_VERTEXAI=true with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION and the
worker's Google credentials, or a Vertex AI express-mode key in GOOGLE_API_KEY;
GOOGLE_VERTEX_BASE_URL). The model goes into GEMINI_MODEL (the CLI's order: ``--model``, then
GEMINI_MODEL, then settings). Names checked in the pinned CLI (@google/gemini-cli 0.61.0:
``getAuthTypeFromEnv`` and ``createContentGeneratorConfig`` in bundle/chunk-5FZXKDXH.js; the
home is GEMINI_CLI_HOME, its ``homedir()``; GEMINI_CLI_TRUST_WORKSPACE in ``checkPathTrust``).
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

APIS = ("gemini", "vertex")
GEMINI_URL = "https://generativelanguage.googleapis.com"


class GeminiCliConnection(AgentConnection):
    conn_type: ClassVar[str] = "autofix_gemini_cli"
    hook_class_name: ClassVar[str] = "autofix.hooks.gemini_cli.GeminiCliHook"
    hook_name: ClassVar[str] = "Gemini CLI (autofix)"
    default_conn_id: ClassVar[str] = "autofix_gemini_cli_default"
    agent: ClassVar[str] = "gemini"
    cli: ClassVar[str | None] = "gemini"
    fields: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "model": MODEL_FIELD,
        "api": {
            "label": "API",
            "schema": {"type": ["string", "null"], "default": "gemini", "enum": list(APIS)},
            "description": "gemini (the Gemini API key) or vertex (Google Vertex AI).",
        },
        "project_id": {
            "label": "Vertex AI project",
            "schema": {"type": ["string", "null"]},
            "description": "vertex: the Google Cloud project (GOOGLE_CLOUD_PROJECT).",
        },
        "region": {
            "label": "Vertex AI location",
            "schema": {"type": ["string", "null"]},
            "description": "vertex: the location (GOOGLE_CLOUD_LOCATION), e.g. us-central1.",
        },
        "isolated_home": ISOLATED_HOME_FIELD,
    }
    behaviour: ClassVar[Mapping[str, Any]] = {
        **CLI_FORM,
        "placeholders": {
            "host": f"empty: {GEMINI_URL} (or Vertex AI's endpoint)",
            "password": "AIza... (vertex: an express-mode key, or empty for Google credentials)",
            "model": "gemini-2.5-flash",
            "region": "us-central1",
        },
    }

    def __init__(self, values: ConnectionValues) -> None:
        super().__init__(values)
        self.api = self.choice("api", APIS)
        self.project_id = self.text("project_id")
        self.region = self.text("region")
        if self.api == "vertex" and not self.key:
            # The CLI's own rule: an express-mode key, or a project and a location.
            self.require("project_id", self.project_id, "Vertex AI without a key")
            self.require("region", self.region, "Vertex AI without a key")

    def environment(self, agent_options: Mapping[str, Any]) -> EnvAndOptions:
        env: dict[str, str] = {}
        vertex = self.api == "vertex"
        if vertex:
            env["GOOGLE_GENAI_USE_VERTEXAI"] = "true"
            if self.project_id:
                env["GOOGLE_CLOUD_PROJECT"] = self.project_id
            if self.region:
                env["GOOGLE_CLOUD_LOCATION"] = self.region
        if self.base_url:
            env["GOOGLE_VERTEX_BASE_URL" if vertex else "GOOGLE_GEMINI_BASE_URL"] = self.base_url
        if self.key:
            env["GOOGLE_API_KEY" if vertex else "GEMINI_API_KEY"] = self.key
        if self.model:
            env["GEMINI_MODEL"] = self.model
        return env, {}

    def home_environment(self, home: Path) -> dict[str, str]:
        return {"HOME": str(home), "GEMINI_CLI_HOME": str(home)}

    def probe(self) -> HttpProbe | None:
        """GET /v1beta/models (the Gemini API's models list) with the key. Vertex AI signs in
        with Google credentials, and no key means the CLI's own login: those ask the CLI."""
        if self.api != "gemini" or not self.key:
            return None
        return HttpProbe(
            url=(self.base_url or GEMINI_URL).rstrip("/") + "/v1beta/models",
            headers={"x-goog-api-key": self.key},
            secret_headers=("x-goog-api-key",),
        )

    def prompt_options(self) -> dict[str, Any]:
        return {"output_format": "json"}

    def prompt_env(self) -> dict[str, str]:
        # The one-word prompt runs in an empty folder, which headless Gemini CLI would refuse
        # as untrusted (exit 55).
        return {"GEMINI_CLI_TRUST_WORKSPACE": "true"}

    def describe_key(self) -> str:
        if self.api == "vertex":
            return "the express-mode key" if self.key else "the worker's Google credentials"
        return "the key" if self.key else "the CLI's own login"
