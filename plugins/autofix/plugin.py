"""The AirflowPlugin, registered once, by the ``airflow.plugins`` entry point: Airflow loads a
provider's ``plugins`` only when providers load eagerly, and a plugin registered both ways is
reported as a plugin import error ("already registered")."""

from __future__ import annotations

from airflow.plugins_manager import AirflowPlugin


class AutofixPlugin(AirflowPlugin):
    name = "autofix"
