"""The AirflowPlugin, registered once, by the ``airflow.plugins`` entry point: Airflow loads a
provider's ``plugins`` only when providers load eagerly, and a plugin registered both ways is
reported as a plugin import error ("already registered")."""

from __future__ import annotations

from typing import Any

from airflow.plugins_manager import AirflowPlugin

from autofix.listeners import run_note


class AutofixPlugin(AirflowPlugin):
    name = "autofix"
    listeners: list[Any] = [run_note]  # noqa: RUF012  # the run note says how an autofix run ended
