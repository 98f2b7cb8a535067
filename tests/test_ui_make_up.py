"""The first minutes of ``make up`` off the happy path, as a person meets them (issue 22).

``make -s up`` runs for real from the checkout (scripts/up.sh: api-server, scheduler,
dag-processor, triggerer) in a session of its own, in a temp ``UP_STATE_DIR``, on a free port,
with a PATH that has no ``claude`` and an empty ``agent_clis_dir``; it is stopped at the end with
Ctrl-C (SIGINT to its process group), and no process of that instance may be left.
Headless Chromium (tests/browser_support.py) signs in with the password ``make up`` generated and
does what a person does: reads the home page, triggers four runs through the trigger form (a
missing ``project_path``, ``agent=claude``, and the defaults twice), reads the failing task's log,
each summary's log and each run's note.

The REST API only waits for the runs to finish and reads the task instances' states, which the
run page shows as a table of 22 rows (the screenshot has them). The audit log is a file on the
worker that the UI does not show: it is read from disk.

Screenshots go to $AUTOFIX_UI_SCREENSHOTS (docs/screenshots for the README), else to a temp folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
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
from live_airflow import ROOT, MakeUp

pytestmark = [
    pytest.mark.airflow,
    pytest.mark.e2e,
    pytest.mark.timeout(1200),
    pytest.mark.skipif(missing_browser_reason() is not None, reason=str(missing_browser_reason())),
]

DAG_ID = "autonomous_fixing"
SUMMARY = "fix_project.summary"
DEFAULT_RUNS = ("default_1", "default_2")
MISSING_LINE = "does not exist on this worker. Next: set project_path"
CLAUDE_LINE = "agent claude: its CLI `claude` is not on PATH nor in"


@dataclass
class Session:
    """``make up``, the signed-in browser page and what the tests found."""

    up: MakeUp
    page: Any
    shots: Path
    missing_project: Path
    runs: dict[str, str] = field(default_factory=dict)  # name → run id
    states: dict[str, str] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)
    shot_count: int = 0

    def shoot(self, name: str, **kwargs: Any) -> None:
        self.shot_count += 1
        shoot(self.page, self.shots, f"up-{self.shot_count:02d}-{name}", **kwargs)

    def run_url(self, name: str, suffix: str = "") -> str:
        run = urllib.parse.quote(self.runs[name])
        return f"{self.up.ui}/dags/{DAG_ID}/runs/{run}{suffix}"

    def task_log(self, name: str, task: str, shot: str) -> tuple[str, str]:
        """The task's log page, every group expanded: the log's text and the whole page's."""
        self.page.set_viewport_size({"width": 1400, "height": 2400})  # every line rendered
        self.page.goto(self.run_url(name, f"/tasks/{task}"))
        log = read_log(self.page)
        text = str(self.page.locator("body").inner_text())
        self.page.set_viewport_size({"width": 1400, "height": 1000})
        self.shoot(shot)
        return log, text

    def note(self, name: str) -> tuple[str, str]:
        """The run page's note line, and the note itself as the "Dag Run Note" dialog shows it
        (the pencil button beside the line opens it)."""
        page = self.page
        page.goto(self.run_url(name))
        settle(page, 1500)
        shown = page.get_by_text(re.compile(r"^autofix · run ")).first
        line = str(shown.inner_text())
        page.get_by_role("button", name="Edit note").click()
        dialog = page.get_by_role("dialog").filter(has_text="Dag Run Note")
        dialog.wait_for()
        page.wait_for_timeout(500)
        text = str(dialog.inner_text())
        self.shoot(f"note-{name}")
        page.keyboard.press("Escape")
        dialog.wait_for(state="hidden")
        return line, text


def person_path() -> str:
    """The venv and the system's programs: no ``claude`` anywhere on it."""
    path = os.pathsep.join([str(ROOT / ".venv" / "bin"), "/usr/bin", "/bin"])
    assert shutil.which("claude", path=path) is None, f"`claude` is on {path}"
    return path


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    # `make up` depends on the venv's stamp: a stale one would reinstall the venv this test
    # runs from.
    stale = subprocess.run(["make", "-s", "-q", ".venv/.installed"], cwd=ROOT, check=False)
    if stale.returncode != 0:
        pytest.fail("the venv is older than pyproject.toml: run `make venv` first")
    tmp = tmp_path_factory.mktemp("ui-make-up")
    shots = Path(os.environ.get("AUTOFIX_UI_SCREENSHOTS") or tmp / "screenshots")
    if not shots.is_absolute():
        shots = ROOT / shots
    state, clis = tmp / "state", tmp / "agent-clis"
    clis.mkdir()
    env = {
        "PATH": person_path(),
        "AUTOFIX__FIXING__AGENT_CLIS_DIR": str(clis),  # empty: no CLI there either
        "AUTOFIX__FIXING__AGENT_RETRY_DELAY_SECONDS": "1",
    }
    started = time.monotonic()
    up = MakeUp(state, env)
    left: list[str] = []
    try:
        up.start()
        facts: dict[str, Any] = {"startup_s": round(time.monotonic() - started, 1)}
        up.wait_dag(DAG_ID)  # parsed; unpaused if it is not already (up.sh: not paused)
        with chromium() as browser:
            page = new_page(browser, timeout_ms=45_000)
            login(page, up.ui, "admin", up.password)
            yield Session(up, page, shots, tmp / "no-such-project", facts=facts)
    finally:
        stopping = time.monotonic()
        left = up.stop()
        print(
            json.dumps(
                {
                    "stop_s": round(time.monotonic() - stopping, 1),
                    "total_s": round(time.monotonic() - started, 1),
                }
            )
            + f"\nscreenshots: {shots}\nmake up's output: {up.output}"
        )
    assert not left, f"processes of `make up` left after Ctrl-C (killed): {left}"


def trigger_through_the_form(session: Session) -> None:
    page, up = session.page, session.up
    for name in DEFAULT_RUNS:  # the long ones first: they run side by side
        dialog = open_trigger_form(page, up.ui, DAG_ID)
        session.runs[name] = submit_trigger_form(page, dialog, DAG_ID)

    dialog = open_trigger_form(page, up.ui, DAG_ID)
    # The field's label is not tied to its input (for= names another id): found by its name.
    dialog.locator("input[name=element_project_path]").fill(str(session.missing_project))
    session.shoot("form-missing-project")
    session.runs["missing_project"] = submit_trigger_form(page, dialog, DAG_ID)

    dialog = open_trigger_form(page, up.ui, DAG_ID)
    dialog.get_by_role("combobox", name="Agent").click()
    page.get_by_role("option", name="claude", exact=True).click()
    session.shoot("form-agent-claude")
    session.runs["claude"] = submit_trigger_form(page, dialog, DAG_ID)


@pytest.fixture(scope="module")
def runs(session: Session) -> Session:
    """The four runs, each triggered through the form, then waited for (at most 4 at once)."""
    try:
        trigger_through_the_form(session)
    except Exception:
        session.shoot("trigger-failed")  # what the page showed instead
        raise

    started, up = time.monotonic(), session.up
    for name, run_id in session.runs.items():
        session.states[name] = up.wait_run(DAG_ID, run_id, timeout=900)["state"]
        session.facts[f"{name}_done_s"] = round(time.monotonic() - started, 1)
    print(json.dumps(session.facts | {"runs": session.runs, "states": session.states}))
    return session


def failed_in_plan(session: Session, name: str) -> None:
    """The run failed in its first task: plan failed, no other task ran."""
    assert session.states[name] == "failed"
    states = {
        (ti["task_id"], ti["map_index"]): (ti["state"], ti["try_number"])
        for ti in session.up.task_instances(DAG_ID, session.runs[name])
    }
    assert states.pop(("plan", -1)) == ("failed", 1)
    ran = {task: state for task, state in states.items() if state != ("upstream_failed", 0)}
    assert states and not ran, f"tasks after plan: {ran}"
    session.page.goto(session.run_url(name))
    settle(session.page, 1500)
    session.shoot(f"run-{name}")


def one_line(log: str, needle: str) -> str:
    lines = [line for line in log.splitlines() if needle in line]
    assert len(lines) == 1, f"{len(lines)} lines with {needle!r} in:\n{log}"
    return lines[0]


def test_the_home_page_shows_no_plugin_import_error(session: Session) -> None:
    page = session.page
    page.goto(f"{session.up.ui}/")
    page.get_by_text("Dag Processor").first.wait_for()  # the health badges have loaded
    settle(page, 2000)
    session.shoot("home")
    text = str(page.locator("body").inner_text())
    assert "Plugin Import Error" not in text
    assert not re.search(r"import error", text, re.IGNORECASE), text


def test_a_missing_project_path_fails_plan_in_one_line(runs: Session) -> None:
    failed_in_plan(runs, "missing_project")
    log, page = runs.task_log("missing_project", "plan", "plan-log-missing-project")
    line = one_line(log, MISSING_LINE)
    assert re.search(r" ERROR - project_path \S+ does not exist", line), line
    assert str(runs.missing_project) in line
    assert "or leave it empty for a fresh copy of" in line  # the next step, on the same line
    assert "Traceback" not in page


def test_claude_without_its_cli_fails_plan_with_the_make_agent_clis_hint(runs: Session) -> None:
    failed_in_plan(runs, "claude")
    log, page = runs.task_log("claude", "plan", "plan-log-claude")
    line = one_line(log, CLAUDE_LINE)
    assert " ERROR - " in line
    assert line.index(CLAUDE_LINE) < line.index("Next: run `make agent-clis`"), line
    assert "Traceback" not in page


def test_each_default_run_calls_the_agent_on_a_fresh_copy(runs: Session) -> None:
    scratch = runs.up.state / "logs" / "autofix" / "cache" / "scratch"
    projects, calls = {}, {}
    for name in DEFAULT_RUNS:
        assert runs.states[name] == "success", name
        log, _ = runs.task_log(name, f"{SUMMARY}/mapped/0", f"summary-log-{name}")
        project = re.search(r"^project\s+(/\S+)$", log, re.MULTILINE)
        counted = re.search(r"^agent calls\s+(\d+) \(", log, re.MULTILINE)
        assert project and counted, log
        projects[name], calls[name] = Path(project[1]), int(counted[1])
    assert projects["default_1"] != projects["default_2"], projects
    for name, project in projects.items():
        assert project.is_relative_to(scratch), (name, project)
        assert calls[name] > 0, f"{name}: the agent was not called"

    # Each run's agent calls, as the audit log recorded them: in that run's own copy.
    cwds: dict[str, set[str]] = {name: set() for name in DEFAULT_RUNS}
    names = {runs.runs[name]: name for name in DEFAULT_RUNS}
    audit = runs.up.state / "logs" / "autofix" / "audit.jsonl"
    for line in audit.read_text().splitlines():
        record = json.loads(line)
        envelope = record.get("envelope") or {}
        name = names.get(record.get("trace_id") or envelope.get("trace_id"))
        if record.get("kind") == "interaction" and name:
            cwds[name].add(str(envelope.get("context", {}).get("cwd")))
    assert cwds == {name: {str(project)} for name, project in projects.items()}, cwds


def test_the_run_note_shows_the_outcome(runs: Session) -> None:
    for name in DEFAULT_RUNS:
        line, note = runs.note(name)
        assert line.startswith("autofix · run succeeded"), line
        assert re.search(r"sample_project: CLEAN · issues 5 → 0 · \d+ commit\(s\)", note), note
        assert "agent call(s) (sim)" in note and "already clean" not in note, note
    line, note = runs.note("missing_project")
    assert line.startswith("autofix · run failed"), line
    assert f"FAILED in plan: project_path {runs.missing_project} {MISSING_LINE}" in note, note
    line, note = runs.note("claude")
    assert line.startswith("autofix · run failed"), line
    # The note is Markdown: `claude` is shown as code, without its backticks.
    shown = CLAUDE_LINE.replace("`", "")
    assert f"FAILED in plan: {shown}" in note and "Next: run make agent-clis" in note, note
