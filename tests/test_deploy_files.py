"""Dockerfile and docker-compose.yaml: structure, wiring and no secrets.

`docker compose config` (or the v1 `docker-compose config`) validates the file against
the Compose schema when a client is installed; the YAML checks run everywhere.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "docker-compose.yaml"
DOCKERFILE = ROOT / "Dockerfile"
CELERY_SETTINGS = ROOT / "scripts" / "celery" / "settings.env"
# settings.env's host and port placeholders → the compose services (make up-celery: loopback).
COMPOSE_HOSTS = {
    "AF_PG_HOST": "postgres",
    "AF_PG_PORT": "5432",
    "AF_REDIS_HOST": "redis",
    "AF_REDIS_PORT": "6379",
    "AF_API_HOST": "airflow-apiserver",
    "AF_API_PORT": "8080",
}

AIRFLOW_SERVICES = {
    "airflow-apiserver": "api-server",
    "airflow-scheduler": "scheduler",
    "airflow-dag-processor": "dag-processor",
    "airflow-worker": "celery worker",
    "airflow-triggerer": "triggerer",
}
API_KEYS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _env(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    assert isinstance(env, dict), "environment must be a mapping (anchors merge into it)"
    return {str(k): str(v) for k, v in env.items()}


def test_compose_has_the_official_celery_topology(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert {"postgres", "redis", "airflow-init", *AIRFLOW_SERVICES} <= set(services)
    for name, command in AIRFLOW_SERVICES.items():
        service = services[name]
        assert service["command"] == command
        assert service["image"] == "${AIRFLOW_IMAGE_NAME:-airflow-autofix:latest}"
        assert service["build"]["context"] == "."
        assert "healthcheck" in service
        assert (
            service["depends_on"]["airflow-init"]["condition"] == "service_completed_successfully"
        )
        env = _env(service)
        assert env["AIRFLOW__CORE__EXECUTOR"] == "CeleryExecutor"
        assert env["AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES"] == "airflow.* autofix.*"
        assert env["AIRFLOW__CELERY__BROKER_URL"].startswith("redis://")
        assert env["AIRFLOW__DATABASE__SQL_ALCHEMY_CONN"].startswith("postgresql")
    assert _env(services["airflow-init"])["_AIRFLOW_DB_MIGRATE"] == "true"
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")


def test_compose_mounts_dags_config_logs(compose: dict[str, Any]) -> None:
    volumes = compose["services"]["airflow-worker"]["volumes"]
    for host, container in [
        ("./airflow_dags", "/opt/airflow/dags"),
        ("./config", "/opt/airflow/config"),
        ("./logs", "/opt/airflow/logs"),
    ]:
        assert f"{host}:{container}" in volumes
    assert (ROOT / "config").is_dir()


def test_compose_s3_audit_store_wired_to_optional_minio(compose: dict[str, Any]) -> None:
    services = compose["services"]
    env = _env(services["airflow-worker"])
    assert env["AUTOFIX__AUDIT__STORE"] == "${AUTOFIX_AUDIT_STORE:-sql}"
    assert env["AUTOFIX__AUDIT__BUCKET"] == "${AUTOFIX_AUDIT_BUCKET:-autofix-audit}"
    assert env["AWS_ENDPOINT_URL_S3"] == "${AWS_ENDPOINT_URL_S3:-}"
    assert env["AUTOFIX_CONFIG"] == "/opt/airflow/config/autofix.yaml"
    assert services["minio"]["profiles"] == ["minio"]
    assert services["minio-init"]["profiles"] == ["minio"]
    assert "${AUTOFIX_AUDIT_BUCKET}" in "".join(services["minio-init"]["command"]).replace(
        "$$", "$"
    )
    # MinIO is optional: no always-on service may depend on it
    for name, service in services.items():
        if "minio" not in name:
            assert "minio" not in (service.get("depends_on") or {}), name
    assert (ROOT / "config" / "autofix.yaml").is_file()


def _celery_settings() -> dict[str, str]:
    settings = {}
    for line in CELERY_SETTINGS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, value = line.partition("=")
            for placeholder, host in COMPOSE_HOSTS.items():
                value = value.replace(f"${{{placeholder}}}", host)
            settings[key] = value
    return settings


def test_compose_uses_the_settings_of_make_up_celery(compose: dict[str, Any]) -> None:
    settings = _celery_settings()
    assert {"AIRFLOW__CORE__EXECUTOR", "AIRFLOW__CELERY__BROKER_URL", "AUTOFIX__AUDIT__URL"} <= set(
        settings
    )
    assert not [value for value in settings.values() if "${AF_" in value], "unknown placeholder"
    for name in AIRFLOW_SERVICES:
        env = _env(compose["services"][name])
        differ = {
            key: (value, env.get(key)) for key, value in settings.items() if env.get(key) != value
        }
        assert not differ, f"{name}: (settings.env, compose) differ: {differ}"
    # The audit database both create (compose: on the postgres volume's first start).
    mounts = compose["services"]["postgres"]["volumes"]
    assert (
        "./scripts/celery/init-audit-db.sql:/docker-entrypoint-initdb.d/init-audit-db.sql:ro"
        in mounts
    )
    audit_db = settings["AUTOFIX__AUDIT__URL"].rstrip("}").rsplit("/", 1)[1]
    assert f"CREATE DATABASE {audit_db} " in (ROOT / "scripts/celery/init-audit-db.sql").read_text()


def test_api_keys_are_pass_through_only(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        env = _env(service)
        for key in API_KEYS:
            if key in env:
                assert env[key] == f"${{{key}:-}}", f"{name}: {key} must be a pass-through"
    assert all(key in _env(compose["services"]["airflow-worker"]) for key in API_KEYS)
    text = COMPOSE.read_text(encoding="utf-8") + DOCKERFILE.read_text(encoding="utf-8")
    for shape in (
        r"sk-ant-[A-Za-z0-9]",
        r"sk-[A-Za-z0-9]{20}",
        r"AKIA[0-9A-Z]{16}",
        r"AIza[0-9A-Za-z_\-]{30}",
    ):
        assert not re.search(shape, text), f"something shaped like a key ({shape}) is hard-coded"


def test_dockerfile(compose: dict[str, Any]) -> None:
    text = DOCKERFILE.read_text(encoding="utf-8")
    assert re.search(r"^FROM apache/airflow:3\.3\.2$", text, re.MULTILINE)
    assert re.search(r"^ARG INSTALL_AGENT_CLIS=false$", text, re.MULTILINE)
    # The same pinned CLI versions as `make agent-clis` and the tests: one file.
    assert "COPY config/agent-clis.txt /opt/autofix/config/agent-clis.txt" in text
    assert (
        "npm install -g --no-audit --no-fund $(sed -e 's/#.*//' /opt/autofix/config/agent-clis.txt)"
        in text
    )
    assert 'AIRFLOW__CORE__ALLOWED_DESERIALIZATION_CLASSES="airflow.* autofix.*"' in text
    assert re.search(r"pip install .*/opt/autofix", text)
    # everything COPY'd must exist, or the build fails on a fresh clone
    for line in re.findall(r"^COPY (?:--\S+ )*(.+)$", text, re.MULTILINE):
        *sources, _dest = line.split()
        for source in sources:
            assert (ROOT / source).exists(), f"Dockerfile copies missing {source}"
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".env", ".venv", ".git"} <= set(ignored)


def _compose_client() -> list[str] | None:
    if shutil.which("docker"):
        probe = subprocess.run(["docker", "compose", "version"], capture_output=True, check=False)
        if probe.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None


@pytest.mark.skipif(_compose_client() is None, reason="no docker compose client installed")
@pytest.mark.parametrize("profile", [None, "minio"])
def test_compose_config_validates(profile: str | None) -> None:
    client = _compose_client()
    assert client is not None
    argv = [*client, "-f", str(COMPOSE)]
    if profile:
        argv += ["--profile", profile]
    done = subprocess.run(
        [*argv, "config", "--services"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    services = set(done.stdout.split())
    assert {"postgres", "redis", "airflow-init", *AIRFLOW_SERVICES} <= services
    if profile == "minio":  # v1 lists every service; v2 hides inactive profiles
        assert {"minio", "minio-init"} <= services
