"""The ``apache_airflow_provider`` entry point: what Airflow learns about autofix without importing it.

Airflow validates the mapping against its ``provider_info.schema.json``. It makes ``airflow
providers list`` show autofix, gives the Connection form its connection types (each hook is
imported only when its type is used), registers ``@task.coding_agent`` (a name ``common.ai``'s
``@task.agent`` and ``@task.llm`` leave free) and adds the ``[autofix]`` section to airflow.cfg,
whose options ``autofix.config`` reads through ``autofix.hosting``.
"""

from __future__ import annotations

from typing import Any

from autofix import __version__
from autofix.connections import connection_types

PACKAGE_NAME = "airflow-autofix"
AUTOFIX = "autofix"
# (integration, its documentation, the hook's module); the connection types are in
# autofix.connections, with their form fields
AGENT_HOOKS = [
    (
        "Claude Code",
        "https://docs.anthropic.com/en/docs/claude-code",
        "autofix.hooks.claude_code",
    ),
    (
        "Codex",
        "https://github.com/openai/codex",
        "autofix.hooks.codex",
    ),
    (
        "Gemini CLI",
        "https://github.com/google-gemini/gemini-cli",
        "autofix.hooks.gemini_cli",
    ),
    (
        "OpenAI-compatible endpoint",
        "https://platform.openai.com/docs/api-reference/chat",
        "autofix.hooks.openai_endpoint",
    ),
]
OPERATOR_MODULES = [
    "autofix.operators.wrapper",
    "autofix.operators.branch",
    "autofix.operators.retry_group",
]
TASK_DECORATORS = [
    {"class-name": "autofix.decorators.coding_agent.coding_agent_task", "name": "coding_agent"},
]
# airflow.cfg's [autofix] (autofix.hosting.AIRFLOW_SECTION): only what a deployment sets once;
# everything else is in autofix.yaml, which ``config_file`` names.
CONFIG_OPTIONS: dict[str, dict[str, Any]] = {
    "config_file": {
        "description": "Path of autofix.yaml, autofix's own settings (validation, agents, "
        "audit, budgets, alerts, the fixing DAG). A relative path resolves against ``home``. "
        "The AUTOFIX_CONFIG environment variable wins over this option. Empty: "
        "<home>/config/autofix.yaml when it exists, else the built-in defaults.\n",
        "version_added": None,
        "type": "string",
        "example": "/opt/airflow/config/autofix.yaml",
        "default": "",
    },
    "home": {
        "description": "The directory relative paths of autofix resolve against: the config "
        "file, the JSONL audit log, failure reports, raw agent output and the state directory. "
        "The AUTOFIX_HOME environment variable wins over this option. Empty: the current "
        "directory of the process (of a worker: wherever it was started).\n",
        "version_added": None,
        "type": "string",
        "example": "/opt/airflow",
        "default": "",
    },
}


def get_provider_info() -> dict[str, Any]:
    return {
        "package-name": PACKAGE_NAME,
        "name": "autofix",
        "description": "Run AI coding agents as Airflow tasks that tell real failures from noise "
        "and fix their own invalid output.",
        "versions": [__version__],
        "integrations": [
            {"integration-name": AUTOFIX, "tags": ["ai"]},
            *(
                {"integration-name": name, "external-doc-url": url, "tags": ["ai"]}
                for name, url, *_ in AGENT_HOOKS
            ),
        ],
        "operators": [{"integration-name": AUTOFIX, "python-modules": OPERATOR_MODULES}],
        "hooks": [
            {"integration-name": name, "python-modules": [module]}
            for name, _, module, *_ in AGENT_HOOKS
        ],
        # With each type's form fields and field behaviour (Airflow 3.2+ reads them from here).
        "connection-types": connection_types(),
        "task-decorators": TASK_DECORATORS,
        "config": {
            AUTOFIX: {
                "description": "autofix's deployment settings; the rest is in autofix.yaml.",
                "options": CONFIG_OPTIONS,
            }
        },
    }
