"""OpenAIEndpointHook: an Airflow Connection as an OpenAI-compatible endpoint (``agent="openai"``)."""

from __future__ import annotations

from typing import ClassVar

from autofix.agents.openai.endpoint import Endpoint
from autofix.connections.openai import OpenAIConnection
from autofix.hooks.base import AgentConnectionHook


class OpenAIEndpointHook(AgentConnectionHook):
    """The base URL, API key and model of an OpenAI-compatible endpoint, from an
    ``autofix_openai`` Connection or one of any other type (e.g. ``http``).

    The base URL is ``extra.base_url``, else built from the host: ``<schema or https>://<host>
    [:<port>]/v1``; the key is the password. The key is registered for redaction (and, through
    the bridge, with Airflow's masker) before anything can log it.
    """

    connection_class: ClassVar[type[OpenAIConnection]] = OpenAIConnection
    conn_type = OpenAIConnection.conn_type
    default_conn_name = OpenAIConnection.default_conn_id
    hook_name = OpenAIConnection.hook_name

    def get_conn(self) -> Endpoint:
        connection = self.agent_connection
        assert isinstance(connection, OpenAIConnection)
        return connection.endpoint()
