"""The AirflowPlugin, registered through the ``airflow.plugins`` entry point."""

from __future__ import annotations

from airflow.plugins_manager import AirflowPlugin


class AutofixPlugin(AirflowPlugin):
    name = "autofix"
