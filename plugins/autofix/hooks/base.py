"""AgentConnectionHook: what autofix's four hooks share.

A hook reads its Airflow Connection once into the agent family's ``AgentConnection``
(``autofix.connections``), which checks the fields; ``agent_settings`` gives a task its env and
agent options, ``test_connection`` checks the CLI and the key. The key is registered for
redaction (and through the bridge with Airflow's masker) before anything else sees it.

The Connection form's fields and field behaviour are the provider info's ``conn-fields`` and
``ui-field-behaviour`` (``autofix.connections.connection_types``): Airflow 3.3 reads those
without importing the hook, and treats the older ``get_connection_form_widgets`` /
``get_ui_field_behaviour`` hook methods as deprecated (they need flask-appbuilder's widgets,
which an Airflow 3 api-server need not have).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, ClassVar

from airflow.sdk import BaseHook

from autofix.connections import AgentConnection, AgentSettings, ConnectionValues
from autofix.connections.base import IsolatedHome
from autofix.connections.check import check_connection
from autofix.errors import AutofixError
from autofix.hosting import bridge_airflow_masker
from autofix.redact import redact, register_secret


class AgentConnectionHook(BaseHook):
    """An agent family's Connection for a task: its env and options, and test_connection.

    ``isolated_home`` (default: the Connection's ``isolated_home`` field, off) starts the CLI
    with a temporary HOME that ``close()`` removes; ``agent_clis_dir`` is where test_connection
    also looks for the CLI, as the operator's argument of that name.
    """

    connection_class: ClassVar[type[AgentConnection]]
    conn_name_attr = "conn_id"

    def __init__(
        self,
        conn_id: str | None = None,
        *,
        isolated_home: bool | None = None,
        agent_clis_dir: str | None = None,
    ) -> None:
        super().__init__()
        self.conn_id = conn_id or self.connection_class.default_conn_id
        self.isolated_home = isolated_home
        self.agent_clis_dir = agent_clis_dir
        self._home: IsolatedHome | None = None

    @cached_property
    def agent_connection(self) -> AgentConnection:
        """The Connection read and checked; ConnectionSettingsError names a bad field."""
        bridge_airflow_masker()
        conn = self.get_connection(self.conn_id)
        register_secret(conn.password)  # and Airflow's mask_secret, through the bridge
        values = ConnectionValues(
            conn_id=self.conn_id,
            conn_type=conn.conn_type,
            host=conn.host,
            schema=conn.schema,
            port=conn.port,
            login=conn.login,
            password=conn.password,
            extra=conn.extra_dejson or {},
        )
        connection = self.connection_class(values)
        if self.isolated_home is not None:
            connection.isolated_home = self.isolated_home
        return connection

    def get_conn(self) -> Any:
        return self.agent_connection

    def agent_settings(self, agent_options: Mapping[str, Any] | None = None) -> AgentSettings:
        """The env and agent options a task starts its agent with (the task's own
        ``agent_options`` win), and the temporary home when the Connection asks for one."""
        connection = self.agent_connection
        env, options = connection.environment(agent_options or {})
        if not connection.isolated_home or connection.cli is None:
            return AgentSettings(env, options)
        if self._home is None:
            self._home = IsolatedHome()
        env.update(connection.home_environment(self._home.path))
        return AgentSettings(env, options, self._home.path)

    def close(self) -> None:
        """Remove the temporary home, if one was made."""
        if self._home is not None:
            self._home.close()
            self._home = None

    def test_connection(self) -> tuple[bool, str]:
        """(passed, message): the CLI's version, then one cheap authenticated request."""
        try:
            connection = self.agent_connection
        except AutofixError as exc:
            return False, redact(str(exc))
        except Exception as exc:  # e.g. Airflow's "conn_id isn't defined"
            return False, redact(f"cannot read Connection {self.conn_id!r}: {exc}")
        return check_connection(connection, agent_clis_dir=self.agent_clis_dir)
