"""TaskFlow decorators (the Airflow layer): ``@task.coding_agent``."""

from __future__ import annotations

from autofix.decorators.coding_agent import coding_agent_task

__all__ = ["coding_agent_task"]
