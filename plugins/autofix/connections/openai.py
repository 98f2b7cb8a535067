"""The ``autofix_openai`` Connection: an OpenAI-compatible endpoint for ``agent="openai"``.

It reads a Connection of any type (``http`` ones written before this type existed keep
working): the base URL is ``extra.base_url``, else the host (``<schema or https>://<host>
[:<port>]/v1`` when the host is no URL); the key is the password; ``extra.model`` is the model
when the task sets none. There is no CLI: the request runs in autofix's bundled client.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from autofix.agents.openai.endpoint import Endpoint, endpoint_settings
from autofix.connections.base import (
    MODEL_FIELD,
    AgentConnection,
    ConnectionValues,
    EnvAndOptions,
    HttpProbe,
)

OPENAI_URL = "https://api.openai.com/v1"


class OpenAIConnection(AgentConnection):
    conn_type: ClassVar[str] = "autofix_openai"
    hook_class_name: ClassVar[str] = "autofix.hooks.openai_endpoint.OpenAIEndpointHook"
    hook_name: ClassVar[str] = "OpenAI-compatible endpoint (autofix)"
    default_conn_id: ClassVar[str] = "openai_default"
    agent: ClassVar[str] = "openai"
    cli: ClassVar[str | None] = None
    base_url_suffix: ClassVar[str] = "/v1"
    fields: ClassVar[Mapping[str, Mapping[str, Any]]] = {"model": MODEL_FIELD}
    behaviour: ClassVar[Mapping[str, Any]] = {
        "hidden-fields": ["login"],
        "relabeling": {"host": "Base URL or host", "password": "API key"},
        "placeholders": {
            "host": f"empty: {OPENAI_URL}; a URL ending in /v1, or a host name (then schema "
            "and port build http(s)://host:port/v1)",
            "password": "sk-... (empty for a local server without keys)",
            "model": "gpt-4o-mini",
        },
    }

    def __init__(self, values: ConnectionValues) -> None:
        super().__init__(values)
        self.base_url = self.text("base_url") or self.base_url

    def endpoint(self) -> Endpoint:
        return Endpoint(base_url=self.base_url, api_key=self.key)

    def environment(self, agent_options: Mapping[str, Any]) -> EnvAndOptions:
        env, options = endpoint_settings(self.endpoint(), agent_options)
        if self.model and "model" not in agent_options:
            options["model"] = self.model
        return env, options

    def probe(self) -> HttpProbe | None:
        """GET <base URL>/models with the key, if any: OpenAI's and most compatible servers'
        cheapest authenticated request."""
        headers = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        return HttpProbe(
            url=(self.base_url or OPENAI_URL).rstrip("/") + "/models",
            headers=headers,
            secret_headers=("Authorization",),
        )
