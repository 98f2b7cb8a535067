"""What a person does in the Airflow 3.3 UI, in headless Debian Chromium (issue 15).

The REAL api-server, scheduler and dag-processor run on loopback (tests/live_airflow.py, the
approach of test_scheduler_live.py); Playwright drives /usr/bin/chromium (nothing is downloaded).
One module-scoped scenario does every step once, each step named and timed; a step that fails is
recorded and the scenario goes on where it can (a form that cannot be submitted falls back to
the REST API, so the later steps still run). Two tests read the record:

- ``test_user_triggers_with_defaults_and_reads_the_run``: the mechanics (login, trigger form
  with its defaults, success, every page opens);
- ``test_issue_15_readability``: what issue 15 asks a person to find (transcript, noise marks,
  one-line transient failure, ParseResult as a JSON tree, prompt, project names). Marked xfail
  (strict) until the issue is done, so it turns red the day it starts passing.

Screenshots go to $AUTOFIX_UI_SCREENSHOTS (e.g. docs/screenshots), else to a temp folder.
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import Steps, chromium, login, missing_browser_reason, new_page, settle, shoot
from live_airflow import PASSWORD, ROOT, LiveAirflow

from autofix.fixing import gitops

pytestmark = [
    pytest.mark.airflow,
    pytest.mark.timeout(900),
    pytest.mark.skipif(missing_browser_reason() is not None, reason=str(missing_browser_reason())),
]

DAG_ID = "autonomous_fixing"
MECHANICS = (
    "log in",
    "trigger form: Trigger enabled with the defaults",
    "trigger form: submit with the defaults",
    "run succeeds",
    "open a fix task's log",
    "open the usage-limit try's log",
    "open the XCom tab",
    "open the Rendered Templates tab",
    "open the Graph view",
)
READABILITY = (
    "log: a readable transcript, no raw JSON at INFO",
    "log: noise lines are marked",
    "log: the verdict block",
    "usage-limit try: one retry line, no traceback",
    "XCom: ParseResult rendered as a JSON tree with cost_usd",
    "Rendered Templates: the prompt is visible",
    "map index names the project",
)


class Scenario:
    def __init__(self, af: LiveAirflow, shots: Path) -> None:
        self.af = af
        self.shots = shots
        self.steps = Steps()
        self.run_id: str | None = None
        self.facts: dict[str, Any] = {}
        self.shot_count = 0

    def shoot(self, page: Any, name: str, **kwargs: Any) -> None:
        self.shot_count += 1
        shoot(page, self.shots, f"ui-{self.shot_count:02d}-{name}", **kwargs)

    def url(self, suffix: str = "") -> str:
        run = urllib.parse.quote(self.run_id or "")
        return f"{self.af.base}/dags/{DAG_ID}/runs/{run}{suffix}"

    def read_log(self, page: Any) -> str:
        """The whole log as text: every group expanded (Log Settings → Expand), page tall enough
        that the virtualized list renders every line."""
        settle(page, 1500)
        page.get_by_role("button", name="Log Settings").click()
        page.get_by_role("menuitem", name=re.compile("^Expand")).click()
        page.wait_for_timeout(800)
        return str(page.get_by_role("code").first.inner_text())


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scenario]:
    tmp = tmp_path_factory.mktemp("ui-browser")
    shots = Path(os.environ.get("AUTOFIX_UI_SCREENSHOTS") or tmp / "screenshots")
    if not shots.is_absolute():
        shots = ROOT / shots
    project = tmp / "sample_project"
    gitops.init_scratch_copy(ROOT / "examples" / "sample_project", project, exclude=["FIXES.md"])
    env = {
        "AUTOFIX_HOME": str(tmp),
        "AUTOFIX_CONFIG": str(ROOT / "config" / "autofix.yaml"),
        # what `make up` sets: an empty trigger form fixes this scratch project
        "AUTOFIX__FIXING__PROJECTS": json.dumps([str(project)]),
        "AUTOFIX__FIXING__AGENT_RETRY_DELAY_SECONDS": "1",
    }
    started = time.monotonic()
    with LiveAirflow(tmp, ROOT / "airflow_dags", env) as af:
        sc = Scenario(af, shots)
        sc.facts["startup_s"] = round(time.monotonic() - started, 1)
        af.wait_dag(DAG_ID)  # parsed and unpaused (setup, not a user step)
        with chromium() as browser:
            page = new_page(browser, timeout_ms=45_000)
            run_steps(sc, page)
        sc.facts["total_s"] = round(time.monotonic() - started, 1)
        summary = sc.steps.table() + f"\n{json.dumps(sc.facts)}\nscreenshots: {shots}"
        print(summary)
        (tmp / "steps.txt").write_text(summary + "\n")
        yield sc


def run_steps(sc: Scenario, page: Any) -> None:
    af, steps = sc.af, sc.steps
    with steps.step("log in"):
        login(page, af.base, "admin", PASSWORD)

    page.goto(f"{af.base}/dags/{DAG_ID}")
    dialog = page.get_by_role("dialog")
    trigger = dialog.get_by_role("button", name="Trigger", exact=True)
    with steps.step("trigger form: Trigger enabled with the defaults"):
        page.get_by_role("button", name="Trigger Dag").click()
        trigger.wait_for()
        page.wait_for_timeout(1500)  # the form validates its fields after rendering
        sc.shoot(page, "trigger-form-defaults")
        assert trigger.is_enabled(), "Trigger is disabled with the defaults"
    with steps.step("trigger form: submit with the defaults"):
        with page.expect_response(
            lambda r: r.url.endswith(f"/dags/{DAG_ID}/dagRuns") and r.request.method == "POST"
        ) as posted:
            trigger.click(timeout=5_000)
        assert posted.value.status == 200, posted.value.text()
        sc.run_id = posted.value.json()["dag_run_id"]
    if sc.run_id is None:  # go on with what a user would have to do today: the REST API
        sc.run_id = af.trigger(DAG_ID)
        sc.facts["triggered_by"] = "REST (form could not be submitted)"
    else:
        sc.facts["triggered_by"] = "the trigger form"

    with steps.step("run succeeds"):
        start = time.monotonic()
        run = af.wait_run(DAG_ID, sc.run_id, timeout=420)
        sc.facts["run_s"] = round(time.monotonic() - start, 1)
        page.goto(sc.url())
        settle(page, 1500)
        sc.shoot(page, "run")
        assert run["state"] == "success", run["state"]
    instances = af.task_instances(DAG_ID, sc.run_id)
    tries = {ti["task_id"]: ti["try_number"] for ti in instances if ti["map_index"] == 0}
    retried = sorted(t for t, n in tries.items() if ".fix_" in t and n > 1)
    names = {str(ti["rendered_map_index"]) for ti in instances if ti["map_index"] == 0}
    sc.facts["retried"] = retried
    sc.facts["map_index_names"] = sorted(names)

    page.set_viewport_size({"width": 1400, "height": 2400})  # room for every log line
    log = ""
    with steps.step("open a fix task's log"):
        page.goto(sc.url("/tasks/fix_project.fix_1/mapped/0"))
        log = sc.read_log(page)
        sc.shoot(page, "fix-log")
        assert "fix_1" in page.url
    sc.facts["fix_log_chars"] = len(log)
    with steps.step("log: the verdict block"):
        assert "autofix verdict: SUCCESS" in log
    with steps.step("log: noise lines are marked"):
        assert re.search(r"\[noise[:\]]", log), "no [noise…] mark in the log"
    with steps.step("log: a readable transcript, no raw JSON at INFO"):
        raw = [line for line in log.splitlines() if re.search(r'INFO - \{"', line)]
        assert not raw, f"raw JSON lines at INFO: {raw[:2]}"

    retry_log = ""
    with steps.step("open the usage-limit try's log"):
        assert retried, "no fix task was retried"
        page.goto(sc.url(f"/tasks/{retried[0]}/mapped/0?try_number=1"))
        retry_log = sc.read_log(page)
        sc.shoot(page, "usage-limit-try-1")
    with steps.step("usage-limit try: one retry line, no traceback"):
        assert re.search(r"transient.*retr", retry_log, re.IGNORECASE), "no retry line"
        assert "Task failed with exception" not in retry_log, "a traceback is logged"
    page.set_viewport_size({"width": 1400, "height": 1000})

    xcom = ""
    with steps.step("open the XCom tab"):
        page.goto(sc.url("/tasks/fix_project.fix_1/mapped/0/xcom"))
        settle(page, 1500)
        expand = page.get_by_role("button", name="Expand all extra JSON")
        if expand.count():
            expand.click()
            page.wait_for_timeout(500)
        row = page.get_by_role("row").filter(has_text="return_value").first
        xcom = str(row.inner_text())
        sc.shoot(page, "xcom")
    with steps.step("XCom: ParseResult rendered as a JSON tree with cost_usd"):
        assert "ParseResult@version" not in xcom, "rendered as one flat string"
        assert "cost_usd" in xcom

    prompt = ""
    with steps.step("open the Rendered Templates tab"):
        page.goto(sc.url("/tasks/fix_project.fix_1/mapped/0/rendered_templates"))
        settle(page, 1500)
        prompt = str(page.get_by_role("row").filter(has_text="prompt").first.inner_text())
        sc.shoot(page, "rendered-templates")
    with steps.step("Rendered Templates: the prompt is visible"):
        assert len(prompt.replace("prompt", "").replace("Copy", "").strip()) > 20, prompt

    with steps.step("open the Graph view"):
        page.goto(sc.url())
        settle(page)
        page.get_by_role("button", name=re.compile("Show Graph")).click()
        settle(page, 2000)
        sc.shoot(page, "graph")
    with steps.step("map index names the project"):
        assert names and not names & {"0", "None"}, f"map index shown as {sorted(names)}"


def test_user_triggers_with_defaults_and_reads_the_run(scenario: Scenario) -> None:
    failed = [r for r in scenario.steps.failed if r["step"] in MECHANICS]
    assert not failed, scenario.steps.table()


@pytest.mark.xfail(strict=True, reason="issue 15: logs, XCom, prompt and map names not done yet")
def test_issue_15_readability(scenario: Scenario) -> None:
    failed = [r for r in scenario.steps.failed if r["step"] in READABILITY]
    assert not failed, scenario.steps.table()
