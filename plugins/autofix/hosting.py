"""Whether this process runs Airflow, decided without importing it.

Importing ``airflow`` configures logging (root level, handlers), which belongs to whoever
hosts autofix. So Airflow-only features (stats, the secrets masker, airflow.cfg's ``[autofix]``
section) are used only when Airflow is already imported: inside a task, a DAG test or an
Airflow component.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

from autofix.redact import REDACTED, add_listener, add_masker

AIRFLOW_MARKER = "airflow.sdk"
# airflow.cfg's section for autofix; autofix.provider_info declares its options.
AIRFLOW_SECTION = "autofix"


def running_airflow() -> bool:
    return AIRFLOW_MARKER in sys.modules


def airflow_module(name: str) -> ModuleType | None:
    """``name`` imported, when this process already runs Airflow; None otherwise or on error."""
    if not running_airflow():
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def airflow_setting(option: str) -> str | None:
    """``[autofix] <option>`` of Airflow's configuration (airflow.cfg, or the environment's
    ``AIRFLOW__AUTOFIX__<OPTION>``) when this process runs Airflow and the value is not empty;
    None otherwise."""
    module = airflow_module("airflow.sdk.configuration")
    if module is None:
        return None
    value = module.conf.get(AIRFLOW_SECTION, option, fallback=None)
    return str(value) if value else None


def _airflow_redact(text: str) -> str:
    module = sys.modules.get("airflow.sdk.log")
    if module is None:
        return text
    return str(module.redact(text, replacement=REDACTED))


def _airflow_mask(value: str) -> None:
    module = sys.modules.get("airflow.sdk.log")
    if module is not None:
        module.mask_secret(value)


def bridge_airflow_masker() -> bool:
    """Inside Airflow, share secrets both ways with its secrets masker: autofix also masks the
    values registered with ``mask_secret``, and Airflow learns every value autofix knows, so
    its own log lines (tracebacks included) are masked too. False outside Airflow."""
    if airflow_module("airflow.sdk.log") is None:
        return False
    add_masker(_airflow_redact)
    add_listener(_airflow_mask)
    return True
