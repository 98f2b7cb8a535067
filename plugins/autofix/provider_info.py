"""The ``apache_airflow_provider`` entry point: makes ``airflow providers list`` show autofix."""

from __future__ import annotations

from typing import Any

from autofix import __version__


def get_provider_info() -> dict[str, Any]:
    return {
        "package-name": "airflow-autofix",
        "name": "autofix",
        "description": "Run AI coding agents as Airflow tasks that tell real failures from noise "
        "and fix their own invalid output.",
        "versions": [__version__],
        # Informational (Airflow discovers hooks by connection type; this one reads any type).
        "hooks": [
            {
                "integration-name": "OpenAI-compatible endpoint",
                "python-modules": ["autofix.hooks.openai_endpoint"],
            }
        ],
    }
