"""The AirflowPlugin, registered once, by the ``airflow.plugins`` entry point: Airflow loads a
provider's ``plugins`` only when providers load eagerly, and a plugin registered both ways is
reported as a plugin import error ("already registered").

It serves the docs (``autofix.docsite``) on the api-server at ``DOCS_URL_PREFIX``, the page the
provider's Documentation link opens, to users signed in to Airflow, and the autofix view
(``autofix.ui``) at ``UI_URL_PREFIX``, placed in the UI's navigation and on the DAG, DAG run and
task-instance pages (``external_views``) and checked by Airflow's auth manager
(``autofix.plugin.access``); its listener
(``autofix.listeners.run_note``) writes how an autofix run ended into the run's note."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from airflow.plugins_manager import AirflowPlugin

from autofix.docsite.mount import DOCS_URL_PREFIX, DocsApp
from autofix.listeners import run_note
from autofix.plugin.access import airflow_ui_access
from autofix.ui.mount import UI_URL_PREFIX, UiApp


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
        },
        {"app": UiApp(airflow_ui_access), "url_prefix": UI_URL_PREFIX, "name": "autofix view"},
    ]
    # The view in the UI's frame (same origin: the browser sends the user's token cookie). The
    # UI fills {DAG_ID}, {RUN_ID}, {TASK_ID} and {MAP_INDEX} on the DAG's own pages.
    external_views = [  # noqa: RUF012
        {
            "name": "autofix",
            "href": f"{UI_URL_PREFIX}/#/runs",
            "destination": "nav",
            "url_route": "autofix",
            "category": "browse",
        },
        {
            "name": "autofix",
            "href": f"{UI_URL_PREFIX}/?dag_id={{DAG_ID}}#/runs",
            "destination": "dag",
            "url_route": "autofix-dag",
        },
        {
            "name": "autofix",
            "href": f"{UI_URL_PREFIX}/?dag_id={{DAG_ID}}&run_id={{RUN_ID}}#/run",
            "destination": "dag_run",
            "url_route": "autofix-run",
        },
        {
            "name": "autofix",
            "href": (
                f"{UI_URL_PREFIX}/?dag_id={{DAG_ID}}&run_id={{RUN_ID}}&task_id={{TASK_ID}}"
                "&map_index={MAP_INDEX}#/run"
            ),
            "destination": "task_instance",
            "url_route": "autofix-task",
        },
    ]
