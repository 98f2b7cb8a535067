"""Where an ``agent="openai"`` task sends its requests when an Airflow Connection names it.

The hook (``autofix.hooks.openai_endpoint``) reads the Connection into an :class:`Endpoint`;
this module turns it into the task's env and agent options, without knowing where it came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from autofix.agents.openai.client import DEFAULT_API_KEY_ENV


@dataclass(frozen=True)
class Endpoint:
    """An OpenAI-compatible endpoint: its base URL (``…/v1``) and API key, either unknown."""

    base_url: str | None = None
    api_key: str | None = None


def endpoint_settings(
    endpoint: Endpoint, agent_options: Mapping[str, Any]
) -> tuple[dict[str, str], dict[str, Any]]:
    """(env, agent options) for ``endpoint``: the key goes into the variable ``api_key_env``
    names (default OPENAI_API_KEY), never into an option; the task's own ``base_url`` wins."""
    env: dict[str, str] = {}
    options: dict[str, Any] = {}
    if endpoint.base_url and "base_url" not in agent_options:
        options["base_url"] = endpoint.base_url
    if endpoint.api_key:
        key_env = str(agent_options.get("api_key_env") or DEFAULT_API_KEY_ENV)
        env[key_env] = endpoint.api_key
    return env, options
