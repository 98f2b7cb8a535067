"""Airflow's own access control, live: a user allowed one DAG sees nothing of another.

The REAL api-server, scheduler and dag-processor (tests/live_airflow.py) in multi-team mode with
the simple auth manager: team alpha owns the bundle tests/ui_dags/alpha (``team_alpha_dag``),
team beta owns tests/ui_dags/beta (``team_beta_dag``). alice is a viewer in team alpha; admin
is an admin (every team). No fake auth manager: the tokens come from ``/auth/token`` and the
answers from Airflow's REST API (``/api/v2``) and its UI in headless Chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from browser_support import chromium, login, missing_browser_reason, new_page, settle
from live_airflow import ADMIN, PASSWORD, ROOT, LiveAirflow, User

pytestmark = [pytest.mark.airflow, pytest.mark.e2e, pytest.mark.timeout(420)]

UI_DAGS = ROOT / "tests" / "ui_dags"
ALPHA, BETA = "team_alpha_dag", "team_beta_dag"
ALICE = User("alice", "viewer", ("alpha",))


@dataclass
class Teams:
    af: LiveAirflow
    alice: httpx.Client
    alpha_run: str
    beta_run: str


@pytest.fixture(scope="module")
def teams(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Teams]:
    home = tmp_path_factory.mktemp("ui-access")
    folders = {"alpha": [UI_DAGS / "alpha"], "beta": [UI_DAGS / "beta"]}
    with LiveAirflow(home, None, teams=folders, users=[ADMIN, ALICE]) as af:
        af.wait_dag(ALPHA)
        af.wait_dag(BETA)
        runs = {dag_id: af.trigger(dag_id) for dag_id in (ALPHA, BETA)}  # as admin
        for dag_id, run_id in runs.items():
            assert af.wait_run(dag_id, run_id)["state"] == "success"
        with af.client_as(ALICE.name) as alice:
            yield Teams(af, alice, runs[ALPHA], runs[BETA])
        assert af.stop() == []


def dag_ids(client: httpx.Client) -> list[str]:
    response = client.get("/dags", params={"limit": 100})
    assert response.status_code == 200, response.text
    return sorted(dag["dag_id"] for dag in response.json()["dags"])


def test_a_team_viewer_lists_and_reads_only_her_teams_dag(teams: Teams) -> None:
    assert dag_ids(teams.alice) == [ALPHA]
    assert teams.alice.get(f"/dags/{ALPHA}").status_code == 200
    assert teams.alice.get(f"/dags/{BETA}").status_code == 403


def test_a_team_viewer_sees_no_run_of_another_teams_dag(teams: Teams) -> None:
    runs = teams.alice.get("/dags/~/dagRuns", params={"limit": 100})
    assert runs.status_code == 200, runs.text
    assert [run["dag_id"] for run in runs.json()["dag_runs"]] == [ALPHA]
    assert teams.alice.get(f"/dags/{ALPHA}/dagRuns/{teams.alpha_run}").status_code == 200
    assert teams.alice.get(f"/dags/{BETA}/dagRuns/{teams.beta_run}").status_code == 403
    assert teams.alice.get(f"/dags/{BETA}/dagRuns").status_code == 403


def test_an_admin_sees_every_teams_dag(teams: Teams) -> None:
    assert dag_ids(teams.af.client) == [ALPHA, BETA]
    assert teams.af.client.get(f"/dags/{BETA}/dagRuns/{teams.beta_run}").status_code == 200


def test_a_request_without_a_valid_token_gets_no_data(teams: Teams) -> None:
    api = f"{teams.af.base}/api/v2"
    assert httpx.get(f"{api}/dags", timeout=10).status_code == 401
    assert httpx.get(f"{api}/dags/{ALPHA}", timeout=10).status_code == 401
    # A token that does not verify: Airflow answers 403 "Invalid JWT token" (security.py).
    forged = httpx.get(f"{api}/dags", headers={"Authorization": "Bearer not-a-token"}, timeout=10)
    assert (forged.status_code, forged.json()) == (403, {"detail": "Invalid JWT token"})


@pytest.mark.skipif(missing_browser_reason() is not None, reason=str(missing_browser_reason()))
def test_the_ui_shows_a_team_viewer_only_her_teams_dag(teams: Teams) -> None:
    with chromium() as browser:
        page = new_page(browser)
        login(page, teams.af.base, ALICE.name, PASSWORD)
        page.goto(f"{teams.af.base}/dags")
        settle(page, 1500)
        page.get_by_text(ALPHA).first.wait_for()
        assert page.get_by_text(BETA).count() == 0
        # The browser's session cookie is what a same-origin page's fetches carry.
        own_api = page.request.get(f"{teams.af.base}/api/v2/dags")
        assert own_api.status == 200
        assert [dag["dag_id"] for dag in own_api.json()["dags"]] == [ALPHA]
        assert page.request.get(f"{teams.af.base}/api/v2/dags/{BETA}").status == 403
