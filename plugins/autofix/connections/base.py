"""An agent's Airflow Connection as plain values, and what it gives a task: env and options.

The hooks (``autofix.hooks``) read a Connection into :class:`ConnectionValues`; each agent
family's :class:`AgentConnection` (``claude.py``, ``codex.py``, ``gemini.py``, ``openai.py``)
checks the fields and turns them into the environment and agent options the task starts its
agent with. Nothing here imports Airflow: the provider info's form metadata, the hooks and the
tests share these classes.
"""

from __future__ import annotations

import re
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from autofix.errors import ConnectionSettingsError

# What a Connection gives a task: env vars and agent options.
EnvAndOptions = tuple[dict[str, str], dict[str, Any]]
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off", ""})

# The form fields every CLI connection type has beside its own (provider-info "conn-fields").
MODEL_FIELD: dict[str, Any] = {
    "label": "Model",
    "schema": {"type": ["string", "null"]},
    "description": "Used when the task sets no model; empty: the CLI's default.",
}
# The agent CLIs' forms: the base URL and the key; a CLI has no schema, port or login.
CLI_FORM: dict[str, Any] = {
    "hidden-fields": ["schema", "port", "login"],
    "relabeling": {"host": "Base URL", "password": "API key"},
}
ISOLATED_HOME_FIELD: dict[str, Any] = {
    "label": "Temporary home per task",
    "schema": {"type": ["boolean", "null"], "default": False},
    "description": "Start the CLI with its own empty HOME, removed after the task, so nothing "
    "it writes lands in a shared home. Off: the worker's home, where a CLI logged in with a "
    "subscription keeps its credentials.",
}


@dataclass(frozen=True)
class ConnectionValues:
    """An Airflow Connection's fields as plain values (what a hook read)."""

    conn_id: str
    conn_type: str | None = None
    host: str | None = None
    schema: str | None = None
    port: int | None = None
    login: str | None = None
    password: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class HttpProbe:
    """The cheapest authenticated request an API offers for a key: ``GET url`` with headers."""

    url: str
    headers: Mapping[str, str]
    secret_headers: tuple[str, ...] = ()  # never shown


@dataclass
class AgentSettings:
    """What a Connection gives an agent task: env vars, agent options and, when asked for, the
    temporary home those env vars point the CLI at."""

    env: dict[str, str]
    options: dict[str, Any]
    home: Path | None = None


class IsolatedHome:
    """A per-task temporary HOME: what the CLI writes (config, sessions, caches, a login it is
    given) stays out of a shared home, and goes when the task ends (or, at the latest, when the
    process exits)."""

    def __init__(self) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="autofix-home-", ignore_cleanup_errors=True)
        self.path = Path(self._dir.name)

    def close(self) -> None:
        self._dir.cleanup()


def env_name(value: str) -> bool:
    return bool(_ENV_NAME.match(value))


class AgentConnection(ABC):
    """One agent family's Connection: its form, its checks, its env; subclasses fill the
    class attributes and the two methods."""

    conn_type: ClassVar[str]
    hook_class_name: ClassVar[str]
    hook_name: ClassVar[str]
    default_conn_id: ClassVar[str]
    agent: ClassVar[str]  # the autofix agent format it serves ("claude")
    cli: ClassVar[str | None]  # the executable test_connection checks; None: no CLI
    fields: ClassVar[Mapping[str, Mapping[str, Any]]]  # provider-info "conn-fields"
    behaviour: ClassVar[Mapping[str, Any]]  # provider-info "ui-field-behaviour"
    # What a host given without a scheme gets after ``https://host[:port]`` ("/v1").
    base_url_suffix: ClassVar[str] = ""

    def __init__(self, values: ConnectionValues) -> None:
        self.values = values
        self.key = values.password or None
        self.model = self.text("model")
        self.isolated_home = self.flag("isolated_home")
        self.base_url = self.url_from_host()

    # -- reading the fields ------------------------------------------------------------

    def raw(self, name: str) -> Any:
        """An extra field, by its name or the ``extra__<conn_type>__<name>`` form older UIs
        saved."""
        extra = self.values.extra
        value = extra.get(name)
        if value is None:
            value = extra.get(f"extra__{self.conn_type}__{name}")
        return value

    def text(self, name: str) -> str | None:
        value = self.raw(name)
        if value is None:
            return None
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            raise self.problem(name, f"is {type(value).__name__}, not text", f"set {name} to text")
        return str(value).strip() or None

    def flag(self, name: str) -> bool:
        value = self.raw(name)
        if value is None or isinstance(value, bool):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise self.problem(name, f"is {value!r}, not true or false", f"set {name} to true or false")

    def choice(self, name: str, choices: tuple[str, ...]) -> str:
        """A field with fixed values; empty means the first."""
        value = (self.text(name) or choices[0]).lower()
        if value not in choices:
            raise self.problem(name, f"is {value!r}", f"set {name} to one of {', '.join(choices)}")
        return value

    def url_from_host(self) -> str | None:
        """The host as a base URL: a URL as given; a bare host name as
        ``<schema or https>://host[:port]`` plus ``base_url_suffix``."""
        host = (self.values.host or "").strip()
        if not host:
            return None
        if "://" in host:
            return host
        port = f":{self.values.port}" if self.values.port else ""
        return f"{self.values.schema or 'https'}://{host}{port}{self.base_url_suffix}"

    def problem(self, name: str, reason: str, next_step: str) -> ConnectionSettingsError:
        return ConnectionSettingsError(
            f"Connection {self.values.conn_id!r} ({self.conn_type}): {name} {reason}. "
            f"Next: {next_step} in Admin → Connections"
        )

    def require(self, name: str, value: str | None, why: str) -> str:
        if not value:
            raise self.problem(name, f"is empty but {why} needs it", f"set {name}")
        return value

    # -- what it gives a task ----------------------------------------------------------

    @abstractmethod
    def environment(self, agent_options: Mapping[str, Any]) -> EnvAndOptions:
        """(env, agent options) for a task of ``agent``; the task's own ``agent_options`` win."""

    @abstractmethod
    def probe(self) -> HttpProbe | None:
        """The request test_connection makes with the key; None: ask the CLI itself."""

    def home_environment(self, home: Path) -> dict[str, str]:
        """The env that points the CLI at ``home`` instead of the worker's."""
        return {"HOME": str(home)}

    # What test_connection's one-word prompt adds when it asks the CLI itself.
    def prompt_options(self) -> dict[str, Any]:
        return {}

    def prompt_env(self) -> dict[str, str]:
        return {}

    def describe_key(self) -> str:
        return "the key" if self.key else "no key"

    @classmethod
    def provider_entry(cls) -> dict[str, Any]:
        """This type's entry in the provider info's ``connection-types``."""
        return {
            "hook-class-name": cls.hook_class_name,
            "hook-name": cls.hook_name,
            "connection-type": cls.conn_type,
            "conn-fields": {name: dict(spec) for name, spec in cls.fields.items()},
            "ui-field-behaviour": {
                "hidden-fields": list(cls.behaviour["hidden-fields"]),
                "relabeling": dict(cls.behaviour["relabeling"]),
                "placeholders": dict(cls.behaviour["placeholders"]),
            },
        }
