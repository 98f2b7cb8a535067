"""The docs site inside Airflow: mounted as the api-server mounts plugins, read with a token
Airflow's own auth manager signed, and found at the address the Providers page links to."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin

import pytest
from airflow_support import ensure_db
from fastapi import FastAPI
from fastapi.testclient import TestClient

pytestmark = pytest.mark.airflow

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


@pytest.fixture(scope="module")
def api_server() -> Iterator[tuple[TestClient, str]]:
    """The plugin's apps on a FastAPI app, by Airflow's own ``init_plugins``, and a token."""
    from airflow.api_fastapi.app import init_auth_manager, init_plugins
    from airflow.api_fastapi.auth.managers.simple.user import SimpleAuthManagerUser

    ensure_db()  # a token's id is looked up among the revoked ones
    app = FastAPI()
    auth_manager = init_auth_manager(app)
    init_plugins(app)
    token = auth_manager.generate_jwt(SimpleAuthManagerUser(username="admin", role="ADMIN"))
    with TestClient(app) as client:
        yield client, token


def test_the_documentation_url_opens_the_served_docs() -> None:
    from autofix.docsite.mount import DOCS_URL_PREFIX
    from autofix.plugin import AutofixPlugin

    documentation = tomllib.loads(PYPROJECT.read_text())["project"]["urls"]["Documentation"]
    docs_app = next(app for app in AutofixPlugin.fastapi_apps if app["name"] == "autofix docs")
    assert docs_app["url_prefix"] == DOCS_URL_PREFIX
    # The Providers page is <base>/providers; a relative link resolves under the same base.
    for base in ("http://localhost:8080/", "https://example.org/airflow/"):
        assert urljoin(f"{base}providers", documentation) == urljoin(
            base, DOCS_URL_PREFIX[1:] + "/"
        )


def test_no_token_is_refused_with_airflows_sign_in_link(api_server: tuple[TestClient, str]) -> None:
    client, _ = api_server
    client.cookies.clear()
    refused = client.get("/autofix/docs/architecture")
    assert refused.status_code == 401
    assert 'href="/auth/login?next=http' in refused.text
    assert "Architecture" not in refused.text


def test_a_forged_token_is_refused(api_server: tuple[TestClient, str]) -> None:
    client, _ = api_server
    client.cookies.clear()
    refused = client.get("/autofix/docs/", headers={"Authorization": "Bearer not-a-jwt"})
    assert refused.status_code == 403
    assert "Sign in to Airflow" in refused.text


@pytest.mark.parametrize("carrier", ["cookie", "bearer"])
def test_a_signed_in_user_reads_the_docs(api_server: tuple[TestClient, str], carrier: str) -> None:
    client, token = api_server
    client.cookies.clear()
    headers = {}
    if carrier == "cookie":
        client.cookies.set("_token", token)  # as the UI's browser sends it
    else:
        headers["Authorization"] = f"Bearer {token}"
    index = client.get("/autofix/docs/", headers=headers)
    assert index.status_code == 200
    assert 'href="/autofix/docs/architecture"' in index.text
    page = client.get("/autofix/docs/architecture", headers=headers)
    assert page.status_code == 200
    assert "<title>Architecture: the living map · autofix docs</title>" in page.text


def test_the_view_is_mounted_with_airflows_own_checks(api_server: tuple[TestClient, str]) -> None:
    """The view's API answers a signed-in user (a bearer token or the UI's cookie) and refuses
    a request without one; its page sends the browser to Airflow's sign-in."""
    client, token = api_server
    signed = client.get("/autofix/ui/api/runs", headers={"Authorization": f"Bearer {token}"})
    assert signed.status_code == 200, signed.text
    assert {"total", "runs", "dags"} <= set(signed.json())
    client.cookies.set("_token", token)
    try:
        assert client.get("/autofix/ui/api/runs").status_code == 200
    finally:
        client.cookies.clear()
    assert client.get("/autofix/ui/api/runs").status_code == 401
    bad = client.get("/autofix/ui/api/runs", headers={"Authorization": "Bearer not-a-jwt"})
    assert bad.status_code in (401, 403) and "runs" not in bad.text
    page = client.get("/autofix/ui/", follow_redirects=False)
    assert page.status_code == 303 and "login" in page.headers["location"]
