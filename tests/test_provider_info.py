"""get_provider_info: valid for Airflow's schema, and airflow.cfg's [autofix] options work."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from autofix import config, hosting
from autofix.provider_info import get_provider_info

PLUGINS = Path(config.__file__).resolve().parent.parent
# common.ai 1.0.0's @task names (its get_provider_info): autofix's must differ from each.
COMMON_AI_DECORATORS = {
    "agent",
    "llm",
    "llm_batch",
    "llm_file_analysis",
    "llm_branch",
    "llm_sql",
    "llm_schema_compare",
}


def _airflow_schema() -> dict[str, Any]:
    spec = importlib.util.find_spec("airflow")  # finds the package without importing it
    assert spec is not None and spec.submodule_search_locations
    for folder in spec.submodule_search_locations:
        schema = Path(folder) / "provider_info.schema.json"
        if schema.is_file():
            return json.loads(schema.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    raise AssertionError("the installed Airflow has no provider_info.schema.json")


def test_the_provider_info_is_valid_for_airflows_schema() -> None:
    jsonschema.validate(get_provider_info(), _airflow_schema())


def test_one_connection_type_per_agent_family_each_with_its_hook() -> None:
    info = get_provider_info()
    types = {
        entry["connection-type"]: entry["hook-class-name"] for entry in info["connection-types"]
    }
    assert types == {
        "autofix_claude_code": "autofix.hooks.claude_code.ClaudeCodeHook",
        "autofix_codex": "autofix.hooks.codex.CodexHook",
        "autofix_gemini_cli": "autofix.hooks.gemini_cli.GeminiCliHook",
        "autofix_openai": "autofix.hooks.openai_endpoint.OpenAIEndpointHook",
    }
    integrations = {entry["integration-name"] for entry in info["integrations"]}
    for section in ("hooks", "operators"):
        for entry in info[section]:
            assert entry["integration-name"] in integrations, (section, entry)
    hook_modules = {module for entry in info["hooks"] for module in entry["python-modules"]}
    assert hook_modules == {path.rpartition(".")[0] for path in types.values()}


def test_the_task_decorator_leaves_common_ais_names_free() -> None:
    decorators = get_provider_info()["task-decorators"]
    assert decorators == [
        {"class-name": "autofix.decorators.coding_agent.coding_agent_task", "name": "coding_agent"}
    ]
    assert not {entry["name"] for entry in decorators} & COMMON_AI_DECORATORS


def test_the_config_section_is_what_autofix_reads() -> None:
    sections = get_provider_info()["config"]
    assert list(sections) == [hosting.AIRFLOW_SECTION]
    options = sections[hosting.AIRFLOW_SECTION]["options"]
    assert set(options) == {config.AIRFLOW_CONFIG_OPTION, config.AIRFLOW_HOME_OPTION}
    for option in options.values():
        assert option["default"] == ""  # unset: the environment, then autofix's own default


# Passes once the hook and decorator modules are merged: the provider info names
# autofix.hooks.{claude_code,codex,gemini_cli}.* and autofix.decorators.coding_agent, written by
# other parts of the same change. Skipped nowhere on purpose: a name that points nowhere fails.
@pytest.mark.airflow
def test_every_class_and_module_the_provider_info_names_imports() -> None:
    info = get_provider_info()
    modules = [
        m for section in ("hooks", "operators") for e in info[section] for m in e["python-modules"]
    ]
    classes = [e["hook-class-name"] for e in info["connection-types"]]
    classes += [e["class-name"] for e in info["task-decorators"]]
    missing = []
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            missing.append(f"{module}: {exc}")
    for path in classes:
        module, _, name = path.rpartition(".")
        try:
            getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as exc:
            missing.append(f"{path}: {exc}")
    assert not missing, "the provider info names what does not import:\n" + "\n".join(missing)


PROBE = """
import json, sys
if sys.argv[1] == "airflow":
    import airflow.sdk
from autofix import config
found = config.find_config_file()
print(json.dumps({
    "config_file": str(found) if found else None,
    "home": str(config.autofix_home()),
    "max_attempts": config.load_config().validation.max_attempts,
}))
"""


def _probe(
    tmp_path: Path, host: str, env: dict[str, str], cfg: str | None = None
) -> dict[str, Any]:
    """``find_config_file``, ``autofix_home`` and the loaded config in a fresh process, run
    ``host`` ("airflow": Airflow imported first; "plain": not) from ``tmp_path/cwd``."""
    cwd = tmp_path / "cwd"
    cwd.mkdir(exist_ok=True)
    base = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(
            ("AUTOFIX_CONFIG", "AUTOFIX_HOME", "AIRFLOW__AUTOFIX__", "AUTOFIX__")
        )
    }
    cfg_file = tmp_path / "airflow.cfg"
    cfg_file.write_text(cfg or "", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", PROBE, host],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
        env=base | {"PYTHONPATH": str(PLUGINS), "AIRFLOW_CONFIG": str(cfg_file)} | env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _autofix_yaml(path: Path, max_attempts: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"validation:\n  max_attempts: {max_attempts}\n", encoding="utf-8")
    return path


@pytest.mark.airflow
def test_airflow_cfg_names_the_config_file_and_the_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _autofix_yaml(home / "settings" / "autofix.yaml", 7)
    cfg = f"[autofix]\nconfig_file = settings/autofix.yaml\nhome = {home}\n"
    seen = _probe(tmp_path, "airflow", {}, cfg)
    assert seen == {
        "config_file": str(home / "settings" / "autofix.yaml"),  # relative: against home
        "home": str(home),
        "max_attempts": 7,
    }


@pytest.mark.airflow
def test_airflows_environment_variables_set_them_too(tmp_path: Path) -> None:
    yaml_file = _autofix_yaml(tmp_path / "elsewhere.yaml", 4)
    env = {"AIRFLOW__AUTOFIX__CONFIG_FILE": str(yaml_file), "AIRFLOW__AUTOFIX__HOME": "/srv/af"}
    seen = _probe(tmp_path, "airflow", env)
    assert seen == {"config_file": str(yaml_file), "home": "/srv/af", "max_attempts": 4}


@pytest.mark.airflow
def test_autofixs_own_variables_win_over_airflow_cfg(tmp_path: Path) -> None:
    mine = _autofix_yaml(tmp_path / "mine.yaml", 2)
    _autofix_yaml(tmp_path / "theirs.yaml", 9)
    cfg = f"[autofix]\nconfig_file = {tmp_path / 'theirs.yaml'}\nhome = /srv/theirs\n"
    env = {"AUTOFIX_CONFIG": str(mine), "AUTOFIX_HOME": str(tmp_path)}
    seen = _probe(tmp_path, "airflow", env, cfg)
    assert seen == {"config_file": str(mine), "home": str(tmp_path), "max_attempts": 2}


@pytest.mark.airflow
def test_unset_options_keep_autofixs_defaults(tmp_path: Path) -> None:
    seen = _probe(tmp_path, "airflow", {}, "[autofix]\nconfig_file =\n")
    assert seen == {"config_file": None, "home": str(tmp_path / "cwd"), "max_attempts": 3}


def test_outside_airflow_the_airflow_settings_are_not_read(tmp_path: Path) -> None:
    yaml_file = _autofix_yaml(tmp_path / "elsewhere.yaml", 4)
    env = {"AIRFLOW__AUTOFIX__CONFIG_FILE": str(yaml_file), "AIRFLOW__AUTOFIX__HOME": "/srv/af"}
    seen = _probe(tmp_path, "plain", env, "[autofix]\nhome = /srv/cfg\n")
    assert seen == {"config_file": None, "home": str(tmp_path / "cwd"), "max_attempts": 3}
