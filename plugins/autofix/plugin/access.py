"""Airflow's own access checks for the autofix view (``autofix.ui``): the signed-in user
(``get_user``: a JWT as a bearer token or in the UI's ``_token`` cookie), the DAGs the auth
manager lets them read, and a DAG run's state. Built on the view's first request."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from autofix.ui.access import RunKey, UiAccess


def airflow_ui_access() -> UiAccess:
    from airflow.api_fastapi.app import get_auth_manager
    from airflow.api_fastapi.core_api.security import get_user
    from airflow.configuration import conf

    def readable_dags(user: Any) -> frozenset[str]:
        return frozenset(get_auth_manager().get_authorized_dag_ids(user=user, method="GET"))

    base_path = urlsplit(conf.get("api", "base_url", fallback="") or "").path.rstrip("/")

    def login_url(next_url: str) -> str:
        return get_auth_manager().get_url_login(next_url=next_url)

    return UiAccess(
        user=get_user,
        readable_dags=readable_dags,
        run_states=dag_run_states,
        ui_url=base_path,
        login_url=login_url,
    )


def dag_run_states(runs: list[RunKey]) -> dict[RunKey, str]:
    """The runs' states in Airflow's database ("queued", "running", "success", "failed")."""
    from airflow.models.dagrun import DagRun
    from airflow.utils.session import create_session
    from sqlalchemy import select, tuple_

    if not runs:
        return {}
    with create_session() as session:
        found = session.execute(
            select(DagRun.dag_id, DagRun.run_id, DagRun.state).where(
                tuple_(DagRun.dag_id, DagRun.run_id).in_(runs)
            )
        ).all()
    return {(dag_id, run_id): str(state) for dag_id, run_id, state in found if state}
