"""autofix: run AI coding agents as Airflow tasks that tell real failures from noise."""

from __future__ import annotations

__version__ = "0.1.0"
