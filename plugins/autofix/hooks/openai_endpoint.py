"""OpenAIEndpointHook: an Airflow Connection as an OpenAI-compatible endpoint (``agent="openai"``)."""

from __future__ import annotations

from airflow.sdk import BaseHook

from autofix.agents.openai.endpoint import Endpoint
from autofix.hosting import bridge_airflow_masker
from autofix.redact import register_secret


class OpenAIEndpointHook(BaseHook):
    """The base URL and API key of an OpenAI-compatible endpoint, from a Connection of any type.

    The base URL is ``extra.base_url``, else built from the host: ``<schema or https>://<host>
    [:<port>]/v1``; the key is the password. The key is registered for redaction (and, through
    the bridge, with Airflow's masker) before anything can log it.
    """

    conn_name_attr = "conn_id"
    default_conn_name = "openai_default"
    hook_name = "OpenAI-compatible endpoint (autofix)"

    def __init__(self, conn_id: str = default_conn_name) -> None:
        super().__init__()
        self.conn_id = conn_id

    def get_conn(self) -> Endpoint:
        bridge_airflow_masker()
        conn = self.get_connection(self.conn_id)
        extra = conn.extra_dejson or {}
        base_url = extra.get("base_url") or conn.host
        if base_url and "://" not in base_url:
            port = f":{conn.port}" if conn.port else ""
            base_url = f"{conn.schema or 'https'}://{base_url}{port}/v1"
        if conn.password:
            register_secret(conn.password)  # and Airflow's mask_secret, through the bridge
        return Endpoint(base_url=base_url or None, api_key=conn.password or None)
