"""What a person does in the Airflow 3.3 UI, in headless Debian Chromium (issues 15 and 25).

The REAL api-server, scheduler and dag-processor run on loopback (tests/live_airflow.py, the
approach of test_scheduler_live.py); Playwright drives /usr/bin/chromium (nothing is downloaded;
``make chromium``, called by ``make test``, installs the Debian package when it is missing).
Airflow runs once, in multi-team mode with its own simple auth manager: team ``fixing`` owns
airflow_dags (the demo's ``autonomous_fixing``), team ``beta`` owns tests/ui_dags/beta
(``team_beta_dag``: one agent call with a feedback retry). alice is a viewer in team beta; admin
sees every DAG. The audit store is the SQL store (SQLite) the workers write and the api-server
reads.

One module-scoped scenario does every step once, on one demo run, each step named and timed; a
step that fails is recorded and the scenario goes on where it can (a form that cannot be
submitted falls back to the REST API, so the later steps still run). admin triggers the beta DAG,
then the demo from its trigger form, watches the run's autofix tab grow while it runs, then reads
the finished run. The tests read the record:

- ``test_user_triggers_with_defaults_and_reads_the_run``: the mechanics (login, the trigger form
  with its defaults and descriptions, success, every page opens);
- ``test_a_person_can_read_the_run``: what issue 15 asks a person to find: the prompt, a readable
  transcript with the noise marked and the verdict, the usage-limit try's one retry line and no
  traceback, every try's verdict in the Task State Store, the ParseResult as a JSON tree with its
  summed cost, the project's name as the map index, one fix task in the Graph;
- the autofix view (issue 25), on the same run: the tree growing while the run was in progress,
  the runs (in Airflow's navigation), a run's tree with the demo's feedback retry and a diff of
  two attempts, the health charts, the pattern tester's verdicts, alice seeing none of the demo
  and refused its run, and a request without a token refused.

Screenshots (``ui-NN-*`` for issue 15, ``view-NN-*`` for the view) go to $AUTOFIX_UI_SCREENSHOTS
(docs/screenshots for the README), else to a temp folder.
"""

from __future__ import annotations

import json
import re
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_support import (
    Steps,
    chromium,
    login,
    missing_browser_reason,
    new_page,
    open_trigger_form,
    read_log,
    settle,
    shoot,
    submit_trigger_form,
)
from live_airflow import (
    ADMIN,
    PASSWORD,
    ROOT,
    LiveAirflow,
    User,
    demo_environment,
    screenshots_folder,
)

from autofix.patterns.loader import DEFAULT_RULES

pytestmark = [
    pytest.mark.airflow,
    pytest.mark.e2e,
    # The first test also waits for the scenario: Airflow's start, the demo run, every step.
    pytest.mark.timeout(1200),
    pytest.mark.skipif(missing_browser_reason() is not None, reason=str(missing_browser_reason())),
]

DAG_ID = "autonomous_fixing"
DEMO, BETA = DAG_ID, "team_beta_dag"
ALICE = User("alice", "viewer", ("beta",))
VIEW = "/autofix/ui/"
TEAMS = {"fixing": [ROOT / "airflow_dags"], "beta": [ROOT / "tests" / "ui_dags" / "beta"]}
G = "fix_project"  # the mapped group
FIX = f"{G}.fix"  # the sample scenario's usage limit on its 2nd call: Airflow retries it
MECHANICS = (
    "log in",
    "trigger form: Trigger enabled with the defaults",
    "trigger form: every field has its description",
    "trigger form: submit with the defaults",
    "run succeeds",
    "open a fix task's log",
    "open the usage-limit try's log",
    "open the Task State Store",
    "open the XCom tab",
    "open the Rendered Templates tab",
    "open the Graph view",
)
READABILITY = (
    "log: the prompt is the first group",
    "log: a readable transcript, no raw JSON at INFO",
    "log: noise lines are marked with their rule",
    "log: the verdict block",
    "usage-limit try: one retry line, no traceback",
    "Task State Store: each try's verdict",
    "XCom: ParseResult rendered as a JSON tree with the summed cost",
    "XCom: the fix task's commit and both tries' spend",
    "Rendered Templates: the prompt is visible",
    "map index names the project",
    "Graph: one fix task, its checks inside it",
)
WATCH = "autofix tab: watch the tree while the run is in progress"
RETRY_LINE = re.compile(r"transient \([^)]+\): Airflow retries in [^,]+, try 1 of 3")


@dataclass
class Live:
    """The view's tests' handle on the shared run: the demo's run, the beta run, the growth."""

    af: LiveAirflow
    shots: Path
    demo_run: str
    beta_run: str
    growth: list[tuple[float, str, int]] = field(default_factory=list)  # (s, state, nodes)

    def view(self, fragment: str, **params: str) -> str:
        query = urllib.parse.urlencode(params)
        return f"{self.af.base}{VIEW}#/{fragment}{'?' + query if query else ''}"


class Scenario:
    def __init__(self, af: LiveAirflow, shots: Path, beta_run: str) -> None:
        self.af = af
        self.shots = shots
        self.beta_run = beta_run
        self.steps = Steps()
        self.run_id: str | None = None
        self.live: Live | None = None  # once the demo is triggered
        self.facts: dict[str, Any] = {}
        self.shot_count = 0

    def shoot(self, page: Any, name: str, **kwargs: Any) -> None:
        self.shot_count += 1
        shoot(page, self.shots, f"ui-{self.shot_count:02d}-{name}", **kwargs)

    def url(self, suffix: str = "") -> str:
        run = urllib.parse.quote(self.run_id or "")
        return f"{self.af.base}/dags/{DAG_ID}/runs/{run}{suffix}"

    def xcom(self, task_id: str) -> Any:
        """The value as the XCom tab asks for it (deserialize=true, stringify=false)."""
        assert self.run_id is not None
        entry = self.af.xcom(DAG_ID, self.run_id, task_id, map_index=0, deserialize=True)
        return entry["value"]


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scenario]:
    tmp = tmp_path_factory.mktemp("ui-browser")
    shots = screenshots_folder(tmp)
    env = {**demo_environment(tmp), "AUTOFIX__AUDIT__STORE": "sql"}
    started = time.monotonic()
    with LiveAirflow(tmp, None, env, teams=TEAMS, users=[ADMIN, ALICE]) as af:
        af.wait_dag(DAG_ID)  # parsed and unpaused (setup, not a user step)
        af.wait_dag(BETA)
        sc = Scenario(af, shots, beta_run=af.trigger(BETA))
        sc.facts["startup_s"] = round(time.monotonic() - started, 1)
        with chromium() as browser:
            page = new_page(browser, timeout_ms=45_000)
            run_steps(sc, page)
        sc.facts["total_s"] = round(time.monotonic() - started, 1)
        summary = sc.steps.table() + f"\n{json.dumps(sc.facts)}\nscreenshots: {shots}"
        print(summary)
        (tmp / "steps.txt").write_text(summary + "\n")
        yield sc
        assert af.stop() == []


@pytest.fixture(scope="module")
def live(scenario: Scenario) -> Live:
    """The view's tests need the demo run watched and both runs finished."""
    assert scenario.live is not None, scenario.steps.table()
    af, sc = scenario.af, scenario.live
    for dag_id, run_id in ((DEMO, sc.demo_run), (BETA, sc.beta_run)):
        assert af.wait_run(dag_id, run_id, timeout=420)["state"] == "success"
    return sc


def run_steps(sc: Scenario, page: Any) -> None:
    trigger_with_defaults(sc, page)
    sc.live = Live(sc.af, sc.shots, str(sc.run_id), sc.beta_run)
    with sc.steps.step(WATCH):
        watch_the_tree_grow(sc.live, page)
    with sc.steps.step("run succeeds"):
        start = time.monotonic()
        run = sc.af.wait_run(DAG_ID, str(sc.run_id), timeout=420)
        sc.facts["run_s"] = round(time.monotonic() - start, 1)
        page.goto(sc.url())
        settle(page, 1500)
        sc.shoot(page, "run")
        assert run["state"] == "success", run["state"]
    read_the_logs(sc, page)
    read_the_storage(sc, page)
    read_the_prompt_and_the_graph(sc, page)


def trigger_with_defaults(sc: Scenario, page: Any) -> None:
    af, steps = sc.af, sc.steps
    with steps.step("log in"):
        login(page, af.base, "admin", PASSWORD)

    dialog = page.get_by_role("dialog")
    trigger = dialog.get_by_role("button", name="Trigger", exact=True)
    with steps.step("trigger form: Trigger enabled with the defaults"):
        open_trigger_form(page, af.base, DAG_ID)
        sc.shoot(page, "trigger-form-defaults")
        assert trigger.is_enabled(), "Trigger is disabled with the defaults"
    with steps.step("trigger form: every field has its description"):
        texts = [str(dialog.inner_text())]
        params = af.client.get(f"/dags/{DAG_ID}/details").json()["params"]
        # The sections are an accordion: one is open at a time. Every section the DAG declares.
        sections = {
            param.get("section") or (param.get("schema") or {}).get("section")
            for param in params.values()
        } - {None}
        assert len(sections) >= 3, params  # the check sees them
        for section in sorted(sections):
            dialog.get_by_role("button", name=section, exact=True).click()
            page.wait_for_timeout(400)
            texts.append(str(dialog.inner_text()))
        shown = " ".join(" ".join(texts).replace("\xa0", " ").split())
        missing = [
            name
            for name, param in params.items()
            if not param.get("description") or " ".join(param["description"].split()) not in shown
        ]
        assert not missing, f"no description shown for {missing}"
        assert trigger.is_enabled(), "Trigger disabled after opening the sections"
    with steps.step("trigger form: submit with the defaults"):
        sc.run_id = submit_trigger_form(page, dialog, DAG_ID)
    if sc.run_id is None:  # go on with what a user would have to do then: the REST API
        sc.run_id = af.trigger(DAG_ID)
        sc.facts["triggered_by"] = "REST (form could not be submitted)"
    else:
        sc.facts["triggered_by"] = "the trigger form"


def read_the_logs(sc: Scenario, page: Any) -> None:
    steps = sc.steps
    page.set_viewport_size({"width": 1400, "height": 2400})  # room for every log line
    log = ""
    with steps.step("open a fix task's log"):
        # Try 1: the first fix call, then the usage limit on the second.
        page.goto(sc.url(f"/tasks/{FIX}/mapped/0?try_number=1"))
        log = read_log(page)
        page.set_viewport_size({"width": 1400, "height": 1350})
        sc.shoot(page, "fix-log")
        assert FIX in page.url
    sc.facts["fix_log_chars"] = len(log)
    with steps.step("log: the prompt is the first group"):
        prompt, output = log.find("prompt: fix call 1"), log.find("sim output: fix call 1")
        assert 0 <= prompt < output, "no prompt group before the agent's output"
        assert "[ruff F401]" in log[prompt:output]
    with steps.step("log: a readable transcript, no raw JSON at INFO"):
        raw = [line for line in log.splitlines() if re.search(r'INFO - \{"', line)]
        assert not raw, f"raw JSON lines at INFO: {raw[:2]}"
        assert re.search(r"^session: .* model claude-sonnet-4-5-sim", log, re.M), "no session"
        assert re.search(r"^tool: Edit inventory/report\.py$", log, re.M), "no tool call"
        assert re.search(r"^  ↳ All checks passed!$", log, re.M), "no tool result"
        assert "assistant: Removed the unused `os` import" in log, "no assistant text"
        assert re.search(r"^result: success · 3 turn\(s\) · .*\$0\.0213", log, re.M)
        # Call 1 fixed one problem; its checks found the others: recorded as not yet verified.
        assert re.search(r"INFO - audit: fix call 1 \(sim\) · invalid_output · \$0\.0213", log)
    with steps.step("log: noise lines are marked with their rule"):
        assert re.search(r"\[noise: node-warning\] \(node:\d+\) \[DEP0040\]", log), "unmarked"
        assert not re.search(r"^\(node:\d+\)", log, re.M), "a noise line without its mark"
    with steps.step("log: the verdict block"):
        assert "autofix: verification after attempt 1: FAILED" in log  # sent back
        assert "autofix verdict: FAILED (usage limit) [fix]" in log
        # not "0 rules": the count of every built-in rule, whatever it is today
        assert f"no user rules; the {len(DEFAULT_RULES)} built-in rules apply" in log

    page.set_viewport_size({"width": 1400, "height": 2400})
    retry_log = ""
    with steps.step("open the usage-limit try's log"):
        page.goto(sc.url(f"/tasks/{FIX}/mapped/0?try_number=1"))
        retry_log = read_log(page)
        page.set_viewport_size({"width": 1400, "height": 1350})
        sc.shoot(page, "usage-limit-try-1")
    with steps.step("usage-limit try: one retry line, no traceback"):
        lines = RETRY_LINE.findall(retry_log)
        assert len(lines) == 1, f"{len(lines)} retry lines"
        assert "Task failed with exception" not in retry_log, "a traceback is logged"
        assert "Traceback" not in retry_log and "AgentRetryLater" not in retry_log
        assert "autofix verdict: FAILED (usage limit) [fix]" in retry_log
    page.set_viewport_size({"width": 1400, "height": 1000})


def read_the_storage(sc: Scenario, page: Any) -> None:
    steps = sc.steps
    store = ""
    with steps.step("open the Task State Store"):
        page.goto(sc.url(f"/tasks/{FIX}/mapped/0/task-state-store"))
        settle(page, 1500)
        page.get_by_text('"verdict"').nth(1).wait_for()  # each value's editor has loaded
        page.wait_for_timeout(300)
        store = str(page.locator("body").inner_text())
        sc.shoot(page, "task-state-store")
    with steps.step("Task State Store: each try's verdict"):
        text = " ".join(store.replace("\xa0", " ").split())
        assert "try_1" in text and "try_2" in text
        assert RETRY_LINE.search(text), "try 1's verdict is gone"
        assert '"verdict": "success"' in text

    shown = ""
    with steps.step("open the XCom tab"):
        page.goto(sc.url(f"/tasks/{G}.discover_tests/mapped/0/xcom"))
        settle(page, 1500)
        page.get_by_role("button", name="Expand all extra JSON").click()
        page.wait_for_timeout(500)
        row = page.get_by_role("row").filter(has_text="return_value").first
        shown = str(row.inner_text())
        # The JSON editor draws only the lines in view: scroll it to the cost and the status that
        # follow the answer (to_xcom's order), as a person would.
        row.get_by_text('"final_text"').first.hover()
        for _ in range(15):
            if row.get_by_text('"status"').count():
                break
            page.mouse.wheel(0, 150)
            page.wait_for_timeout(200)
        shown += str(row.inner_text())
        sc.shoot(page, "xcom")
    with steps.step("XCom: ParseResult rendered as a JSON tree with the summed cost"):
        assert "ParseResult@version" not in shown, "rendered as one flat string"
        text = shown.replace("\xa0", " ")
        assert '"success": true,' in text and '"status": "completed",' in text, "not a tree"
        # discover_tests' two validation attempts: 0.0118 + 0.0041
        assert '"cost_usd": 0.0159' in text, "not the summed cost"
        value = sc.xcom(f"{G}.discover_tests")
        assert isinstance(value, dict)
        assert [a["cost_usd"] for a in value["per_attempt"]] == [0.0118, 0.0041]
    with steps.step("XCom: the fix task's commit and both tries' spend"):
        value = sc.xcom(FIX)
        assert value["commits"][0]["subject"] == "Sort imports in pricing module"
        assert sorted({a["try_number"] for a in value["per_attempt"]}) == [1, 2]


def read_the_prompt_and_the_graph(sc: Scenario, page: Any) -> None:
    steps = sc.steps
    prompt = ""
    with steps.step("open the Rendered Templates tab"):
        page.goto(sc.url(f"/tasks/{FIX}/mapped/0/rendered_templates"))
        settle(page, 1500)
        prompt = str(page.get_by_role("row").filter(has_text="prompt").first.inner_text())
        sc.shoot(page, "rendered-templates")
    with steps.step("Rendered Templates: the prompt is visible"):
        # The editor splits a line into tokens: compare words. Its first lines are in view.
        words = " ".join(prompt.replace("\xa0", " ").split())
        assert "Fix the failing checks of the project in" in words, words[:300]
        ti = sc.af.client.get(f"/dags/{DAG_ID}/dagRuns/{sc.run_id}/taskInstances/{FIX}/0").json()
        # The rest of the same field: the retry's prompt, from the tree try 1 left.
        assert "[ruff I001]" in ti["rendered_fields"]["prompt"]

    with steps.step("map index names the project"):
        instances = sc.af.task_instances(DAG_ID, str(sc.run_id))
        mine = [ti for ti in instances if ti["map_index"] == 0]
        sc.facts["map_index_names"] = sorted(
            {(ti["rendered_map_index"], ti["state"], ti["try_number"]) for ti in mine}, key=str
        )
        # A task the scheduler skipped never ran, so nothing rendered its name.
        names = {str(ti["rendered_map_index"]) for ti in mine if ti["try_number"]}
        assert names == {"sample_project"}, f"map index shown as {sorted(names)}"

    nodes: list[str] = []
    with steps.step("open the Graph view"):
        page.set_viewport_size({"width": 1800, "height": 560})
        page.goto(sc.url())
        settle(page)
        page.get_by_role("button", name=re.compile("Show Graph")).click()
        settle(page, 2000)
        page.get_by_text(re.compile(r"^\+ \d+ Tasks$")).first.click()  # open the project
        settle(page, 1500)
        page.get_by_role("button", name="Collapse Details Panel").click()
        page.get_by_role("button", name="Fit View").click()
        page.wait_for_timeout(800)
        nodes = [t.split("\n")[0] for t in page.locator(".react-flow__node").all_inner_texts()]
        sc.shoot(page, "graph")
        page.set_viewport_size({"width": 1400, "height": 1000})
    with steps.step("Graph: one fix task, its checks inside it"):
        assert "fix [0]" in nodes and "check_0 [0]" in nodes, nodes
        unrolled = [node for node in nodes if re.match(r"(iteration|fix|check)_[1-9]", node)]
        assert not unrolled, f"iterations drawn unrolled: {unrolled}"


def _nodes(frame: Any) -> tuple[str, int]:
    state = frame.locator("#run-state")
    text = str(state.inner_text()) if state.count() else ""
    return text, int(frame.locator("#tree .node").count())


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


def test_user_triggers_with_defaults_and_reads_the_run(scenario: Scenario) -> None:
    failed = [r for r in scenario.steps.failed if r["step"] in MECHANICS]
    assert not failed, scenario.steps.table()


def test_a_person_can_read_the_run(scenario: Scenario) -> None:
    failed = [r for r in scenario.steps.failed if r["step"] in READABILITY]
    assert not failed, scenario.steps.table()
    assert {r["step"] for r in scenario.steps.results} >= set(READABILITY)


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
