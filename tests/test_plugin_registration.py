"""The plugin is registered once: no plugin import error on the home page, no warning."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.airflow

# A fresh interpreter: Airflow caches its plugins per process.
PROBE = """
import json
from airflow import plugins_manager
plugins, errors = plugins_manager._get_plugins()
print(json.dumps({"plugins": [p.name for p in plugins], "errors": errors}))
"""


# Providers load lazily by default; eagerly, Airflow also loads every provider's `plugins`.
@pytest.mark.parametrize("lazy", ["True", "False"])
def test_the_plugin_loads_once_without_an_import_error(lazy: str) -> None:
    env = os.environ | {"AIRFLOW__CORE__LAZY_LOAD_PROVIDERS": lazy}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env=env,
    )
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded["plugins"].count("autofix") == 1
    assert loaded["errors"] == {}
    assert "already registered" not in done.stderr
