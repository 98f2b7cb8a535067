"""The autofix view in the real Airflow UI, driven in headless Debian Chromium (issue 25).

The REAL api-server, scheduler and dag-processor (tests/live_airflow.py) in multi-team mode with
Airflow's own simple auth manager: team ``fixing`` owns airflow_dags (the demo's
``autonomous_fixing``), team ``beta`` owns tests/ui_dags/beta (``team_beta_dag``: one agent call
with a feedback retry). alice is a viewer in team beta; admin sees every DAG. The audit store is
the SQL store (SQLite) the workers write and the api-server reads.

One module-scoped scenario runs both DAGs and watches the demo's tree grow while it runs; the
tests then read what a user sees: the runs (in Airflow's navigation), a run's tree with the
demo's feedback retry and a diff of two attempts, the health charts, the pattern tester's
verdicts, alice seeing none of the demo and refused its run, and a request without a token
refused. Screenshots go to $AUTOFIX_UI_SCREENSHOTS (docs/screenshots), else a temp folder.
"""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_support import chromium, login, missing_browser_reason, new_page, settle, shoot
from live_airflow import (
    ADMIN,
    PASSWORD,
    ROOT,
    LiveAirflow,
    User,
    demo_environment,
    screenshots_folder,
)

pytestmark = [
    pytest.mark.airflow,
    pytest.mark.e2e,
    pytest.mark.timeout(900),
    pytest.mark.skipif(missing_browser_reason() is not None, reason=str(missing_browser_reason())),
]

DEMO, BETA = "autonomous_fixing", "team_beta_dag"
ALICE = User("alice", "viewer", ("beta",))
VIEW = "/autofix/ui/"


@dataclass
class Live:
    af: LiveAirflow
    shots: Path
    demo_run: str
    beta_run: str
    growth: list[tuple[float, str, int]] = field(default_factory=list)  # (s, state, nodes)

    def view(self, fragment: str, **params: str) -> str:
        query = urllib.parse.urlencode(params)
        return f"{self.af.base}{VIEW}#/{fragment}{'?' + query if query else ''}"


def _nodes(frame: Any) -> tuple[str, int]:
    state = frame.locator("#run-state")
    text = str(state.inner_text()) if state.count() else ""
    return text, int(frame.locator("#tree .node").count())


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    home = tmp_path_factory.mktemp("ui-view")
    shots = screenshots_folder(home)
    env = {**demo_environment(home), "AUTOFIX__AUDIT__STORE": "sql"}
    teams = {"fixing": [ROOT / "airflow_dags"], "beta": [ROOT / "tests" / "ui_dags" / "beta"]}
    with LiveAirflow(home, None, env, teams=teams, users=[ADMIN, ALICE]) as af:
        af.wait_dag(DEMO)
        af.wait_dag(BETA)
        beta_run = af.trigger(BETA)
        with chromium() as browser:
            page = new_page(browser, timeout_ms=45_000)
            login(page, af.base, ADMIN.name, PASSWORD)
            demo_run = af.trigger(DEMO)
            sc = Live(af, shots, demo_run, beta_run)
            watch_the_tree_grow(sc, page)
        for dag_id, run_id in ((DEMO, demo_run), (BETA, beta_run)):
            assert af.wait_run(dag_id, run_id, timeout=420)["state"] == "success"
        yield sc
        assert af.stop() == []


def watch_the_tree_grow(sc: Live, page: Any) -> None:
    """The run's autofix tab in Airflow's run page, sampled every second while it runs."""
    run = urllib.parse.quote(sc.demo_run, safe="")
    page.goto(f"{sc.af.base}/dags/{DEMO}/runs/{run}/plugin/autofix-run")
    frame = page.frame_locator("iframe[title='autofix']")
    frame.locator("#tree").wait_for()
    began, shot = time.monotonic(), False
    while time.monotonic() - began < 400:
        state, count = _nodes(frame)
        sc.growth.append((round(time.monotonic() - began, 1), state, count))
        if count >= 2 and state == "running" and not shot:
            shoot(page, sc.shots, "view-01-tree-live")
            shot = True
        if state in ("success", "failed"):
            break
        page.wait_for_timeout(1000)


def test_the_tree_grows_while_the_run_is_in_progress(live: Live) -> None:
    running = [count for _, state, count in live.growth if state == "running"]
    assert running, f"never saw the run in progress: {live.growth}"
    assert max(running) > min(running), f"the tree did not grow while running: {live.growth}"
    assert running == sorted(running), f"the tree shrank: {live.growth}"


def test_the_runs_page_in_airflows_navigation_shows_the_demo(live: Live) -> None:
    demo = live.af.client.get(f"/dags/{DEMO}/dagRuns/{live.demo_run}").json()
    assert demo["state"] == "success"
    with chromium() as browser:
        page = new_page(browser)
        login(page, live.af.base, ADMIN.name, PASSWORD)
        page.goto(f"{live.af.base}/plugin/autofix")
        frame = page.frame_locator("iframe[title='autofix']")
        rows = frame.locator("#runs tbody tr")
        rows.first.wait_for()
        settle(page, 1000)
        shoot(page, live.shots, "view-02-runs")
        text = " ".join(str(t) for t in rows.all_inner_texts())
        assert live.demo_run in text and live.beta_run in text
        demo_row = frame.locator(f"#runs tbody tr[data-run='{live.demo_run}']")
        cells = [str(c) for c in demo_row.locator("td").all_inner_texts()]
        api = page.request.get(f"{live.af.base}{VIEW}api/runs?dag_id={DEMO}").json()
        [row] = [r for r in api["runs"] if r["run_id"] == live.demo_run]
        assert cells[0] == DEMO and cells[2] == "success" == row["state"]
        assert int(cells[4]) == row["calls"] >= 3  # the demo's agent calls
        assert int(cells[6]) == row["retries"] >= 1


def test_a_runs_tree_shows_the_demos_feedback_retry_and_a_diff(live: Live) -> None:
    with chromium() as browser:
        page = new_page(browser)
        page.set_viewport_size({"width": 1500, "height": 1100})
        login(page, live.af.base, ADMIN.name, PASSWORD)
        page.goto(live.view("run", dag_id=DEMO, run_id=live.demo_run))
        page.locator("#tree .node").first.wait_for()
        retried = page.locator("#tree .node", has=page.locator(".edge", has_text="feedback"))
        assert retried.count() >= 1
        retried.first.click()
        feedback = page.locator("#feedback")
        feedback.wait_for()
        assert len(str(feedback.inner_text())) > 20
        detail = str(page.locator("#detail").inner_text())
        for label in ("Failure kind", "Retry class", "Strategy", "Cost", "Tokens"):
            assert label in detail
        assert page.locator("#detail a", has_text="Task log").count() == 1
        shoot(page, live.shots, "view-03-tree")
        boxes = page.locator("#tree .node input[type=checkbox]")
        boxes.nth(0).click()
        retried.first.locator("input[type=checkbox]").click()
        page.locator("#diff").wait_for()
        assert page.locator("#diff span.add").count() + page.locator("#diff span.del").count()
        shoot(page, live.shots, "view-04-diff")


def test_health_charts(live: Live) -> None:
    with chromium() as browser:
        page = new_page(browser)
        page.set_viewport_size({"width": 1400, "height": 1600})
        login(page, live.af.base, ADMIN.name, PASSWORD)
        page.goto(live.view("health"))
        page.locator("#view svg").first.wait_for()
        settle(page, 800)
        shoot(page, live.shots, "view-05-health", full_page=True)
        assert page.locator("#view svg").count() >= 3


def test_the_pattern_tester_judges_a_node_warning_and_a_traceback(live: Live) -> None:
    with chromium() as browser:
        page = new_page(browser)
        page.set_viewport_size({"width": 1400, "height": 1200})
        login(page, live.af.base, ADMIN.name, PASSWORD)
        page.goto(live.view("tester"))
        verdicts = {}
        for example, shot in (
            ("Node deprecation warning", "view-06-tester-node"),
            ("Python traceback", "view-06-tester-traceback"),
        ):
            page.get_by_role("button", name=example).click()
            with page.expect_response(lambda r: r.url.endswith("api/patterns/test")) as answer:
                page.locator("#tester-run").click()
            assert answer.value.status == 200, answer.value.text()
            verdict = page.locator("#tester-verdict")
            verdict.wait_for()
            lines = page.locator("tr.tester-line")
            decisions = {
                str(d) for d in lines.evaluate_all("rows => rows.map(r => r.dataset.decision)")
            }
            rules = {str(r) for r in lines.evaluate_all("rows => rows.map(r => r.dataset.rule)")}
            verdicts[example] = (verdict.get_attribute("data-success"), decisions, rules - {""})
            shoot(page, live.shots, shot, full_page=True)
        success, decisions, rules = verdicts["Node deprecation warning"]
        assert success == "true" and decisions <= {"noise", "blank"} and rules
        success, decisions, rules = verdicts["Python traceback"]
        assert success == "false" and "error" in decisions and rules


def test_a_one_dag_user_sees_none_of_another_dags_runs(live: Live) -> None:
    with chromium() as browser:
        page = new_page(browser)
        login(page, live.af.base, ALICE.name, PASSWORD)
        page.goto(live.view("runs"))
        page.locator("#runs tbody tr").first.wait_for()
        settle(page, 500)
        text = str(page.locator("#runs").inner_text())
        assert BETA in text and DEMO not in text and live.demo_run not in text
        api = page.request.get(f"{live.af.base}{VIEW}api/runs")
        assert api.status == 200 and api.json()["dags"] == [BETA]
        assert {r["dag_id"] for r in api.json()["runs"]} == {BETA}
        other = f"{live.af.base}{VIEW}api/run?dag_id={DEMO}&run_id={live.demo_run}"
        assert page.request.get(other).status == 403
        assert page.request.get(f"{live.af.base}{VIEW}api/runs?dag_id={DEMO}").status == 403
        page.goto(live.view("run", dag_id=DEMO, run_id=live.demo_run))
        refused = page.locator("#view .error")
        refused.wait_for()
        assert "Access refused" in str(refused.inner_text())
        shoot(page, live.shots, "view-08-refused")
        # Airflow's own API agrees: alice reads team beta's DAG only.
        with live.af.client_as(ALICE.name) as alice:
            dags = alice.get("/dags", params={"limit": 100}).json()["dags"]
            assert [dag["dag_id"] for dag in dags] == [BETA]
            assert alice.get(f"/dags/{DEMO}/dagRuns/{live.demo_run}").status_code == 403


def test_a_request_without_a_signed_in_user_gets_no_data(live: Live) -> None:
    base = f"{live.af.base}{VIEW}"
    assert httpx.get(f"{base}api/runs", timeout=10).status_code == 401
    forged = httpx.get(f"{base}api/runs", headers={"Authorization": "Bearer x"}, timeout=10)
    assert forged.status_code == 403 and "runs" not in forged.json()
    tester = httpx.post(f"{base}api/patterns/test", json={"stderr": "x"}, timeout=10)
    assert tester.status_code == 401
    page = httpx.get(base, timeout=10, follow_redirects=False)
    assert page.status_code == 303 and "login" in page.headers["location"]
