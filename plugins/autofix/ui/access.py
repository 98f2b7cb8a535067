"""What the UI needs from its host: who is asking, and which DAGs they may read.

An app mounted through ``fastapi_apps`` inherits none of the api-server's checks, so every
route depends on ``user`` and filters by ``readable_dags``; the plugin builds this from
Airflow's auth manager (``autofix.plugin.access``), tests may build it from anything."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

RunKey = tuple[str, str]  # (dag_id, run_id)


def _no_states(runs: list[RunKey]) -> dict[RunKey, str]:
    return {}


@dataclass(frozen=True)
class UiAccess:
    """``user``: a FastAPI dependency that returns the signed-in user or raises
    ``HTTPException`` 401/403. ``readable_dags(user)``: every DAG id the user may read.
    ``run_states(runs)``: the DAG runs' states in Airflow ("running", "success", ...), for
    the runs it knows; a run's page polls while its run is in progress. ``ui_url``: the Airflow UI's base path.
    ``login_url(next)``: the sign-in page a refused page request is sent to (None: a 401)."""

    user: Callable[..., Any]
    readable_dags: Callable[[Any], frozenset[str]]
    run_states: Callable[[list[RunKey]], dict[RunKey, str]] = _no_states
    ui_url: str = ""
    login_url: Callable[[str], str] | None = None
