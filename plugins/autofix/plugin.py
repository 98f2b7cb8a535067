"""The AirflowPlugin, registered once, by the ``airflow.plugins`` entry point: Airflow loads a
provider's ``plugins`` only when providers load eagerly, and a plugin registered both ways is
reported as a plugin import error ("already registered").

It serves the docs (``autofix.docsite``) on the api-server at ``DOCS_URL_PREFIX``, the page the
provider's Documentation link opens, to users signed in to Airflow; its listener
(``autofix.listeners.run_note``) writes how an autofix run ended into the run's note."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from airflow.plugins_manager import AirflowPlugin

from autofix.docsite.mount import DOCS_URL_PREFIX, DocsApp
from autofix.listeners import run_note


# Both imported on the docs' first request: only the api-server has them set up, and the
# security module costs every other component seconds at import.
def airflow_sign_in() -> Callable[..., Any]:
    """Airflow's own check, as its UI and REST API make it: a valid JWT as a bearer token or in
    the UI's ``_token`` cookie, else 401 (none, or expired) or 403 (invalid)."""
    from airflow.api_fastapi.core_api.security import requires_authenticated

    return requires_authenticated()


def airflow_login_url(next_url: str) -> str:
    from airflow.api_fastapi.app import get_auth_manager

    return get_auth_manager().get_url_login(next_url=next_url)


class AutofixPlugin(AirflowPlugin):
    name = "autofix"
    listeners: list[Any] = [run_note]  # noqa: RUF012  # the run note says how an autofix run ended
    fastapi_apps = [  # noqa: RUF012 (a class attribute, as AirflowPlugin declares it)
        {
            "app": DocsApp(airflow_sign_in, airflow_login_url),
            "url_prefix": DOCS_URL_PREFIX,
            "name": "autofix docs",
        }
    ]
