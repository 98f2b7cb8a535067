"""Re-run every experiment of docs/ui-research.md against the real Airflow 3.3.2.

    .venv/bin/python docs/ui-research/experiments/run.py [--no-browser]

Starts api-server + scheduler + dag-processor on loopback (tests/live_airflow.py) with the DAGs
in experiments/dags, triggers them through REST and through the trigger form, writes what the
REST API and the UI showed to experiments/results.json and screenshots to ui-research/screenshots,
then stops every process (and checks that none is left). About 2-3 minutes on 2 cores.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
import urllib.parse
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from browser_support import chromium, login, new_page, settle, shoot  # noqa: E402
from live_airflow import PASSWORD, LiveAirflow  # noqa: E402

SHOTS = HERE.parent / "screenshots"
DAGS = ("exp_form", "exp_xcom", "exp_map", "exp_retry", "exp_rtif")


def iso(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def main() -> int:
    browser_on = "--no-browser" not in sys.argv
    results: dict[str, Any] = {}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="autofix-ui-research-") as tmp:
        home = Path(tmp)
        with LiveAirflow(home, HERE / "dags", {"AUTOFIX_HOME": str(home)}) as af:
            results["startup_s"] = round(time.monotonic() - started, 1)
            for dag_id in DAGS:
                af.wait_dag(dag_id)
            runs = {dag_id: af.trigger(dag_id) for dag_id in DAGS if dag_id != "exp_form"}

            # 6. rendered fields while render_override is still running
            seen: list[tuple[str, Any]] = []
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                ti = af.client.get(
                    f"/dags/exp_rtif/dagRuns/{runs['exp_rtif']}/taskInstances/render_override"
                ).json()
                if not seen or seen[-1] != (ti["state"], ti["rendered_fields"]):
                    seen.append((ti["state"], ti["rendered_fields"]))
                if ti["state"] in ("success", "failed"):
                    break
                time.sleep(1)
            results["rtif_render_override_over_time"] = seen

            finished = {dag_id: af.wait_run(dag_id, run_id) for dag_id, run_id in runs.items()}
            results["run_states"] = {dag_id: run["state"] for dag_id, run in finished.items()}
            collect(af, runs, results)
            if browser_on:
                results["browser"] = browse(af, runs)
        results["leftover_processes"] = af.leftovers()
    results["total_s"] = round(time.monotonic() - started, 1)
    out = HERE / "results.json"
    out.write_text(json.dumps(results, indent=2, default=str) + "\n")
    print(json.dumps(results, indent=2, default=str)[:6000])
    print(f"-> {out}")
    return 0


def collect(af: LiveAirflow, runs: dict[str, str], results: dict[str, Any]) -> None:
    # 2. XCom as REST returns it for the UI (deserialize=true, stringify=false) and the others
    xcom: dict[str, Any] = {}
    for task_id in ("push_model", "push_dict", "pull"):
        for mode, params in {
            "ui (deserialize=true)": {"deserialize": True},
            "native (default)": {},
            "stringify=true": {"deserialize": True, "stringify": True},
        }.items():
            value = af.xcom("exp_xcom", runs["exp_xcom"], task_id, **params)["value"]
            xcom[f"{task_id} / {mode}"] = {"type": type(value).__name__, "value": str(value)[:160]}
    results["xcom"] = xcom

    # 3. map index names
    instances = af.task_instances("exp_map", runs["exp_map"])
    results["rendered_map_index"] = sorted(
        {f"{ti['task_id']}[{ti['map_index']}] = {ti['rendered_map_index']}" for ti in instances}
    )

    # 4. per-try retry delay: when try 2 was scheduled after try 1 ended
    delays = {}
    for task_id, asked in (("exception_7s", 7), ("systemexit_3s", 3), ("no_policy_2s", 2)):
        tries = af.client.get(
            f"/dags/exp_retry/dagRuns/{runs['exp_retry']}/taskInstances/{task_id}/tries"
        ).json()["task_instances"]
        end1 = iso(tries[0]["end_date"])
        delays[task_id] = {
            "asked_s": asked,
            "static_retry_delay_s": 2 if task_id == "no_policy_2s" else 60,
            "try2_scheduled_after_s": round(
                (iso(tries[1]["scheduled_when"]) - end1).total_seconds(), 1
            ),
            "try2_started_after_s": round((iso(tries[1]["start_date"]) - end1).total_seconds(), 1),
        }
    results["retry_delay"] = delays

    # 5. how the failing try logged: traceback (error_detail) or not
    logs = {}
    for task_id in ("exception_7s", "systemexit_3s"):
        content = af.log("exp_retry", runs["exp_retry"], task_id, 1)
        failing = [
            line for line in content if isinstance(line, dict) and line.get("level") == "error"
        ]
        logs[task_id] = [
            {
                "event": line.get("event"),
                "has_traceback": "error_detail" in line,
                **({"exit_code": line["exit_code"]} if "exit_code" in line else {}),
            }
            for line in failing
        ]
    results["failure_log_lines"] = logs

    # 5. the task state store keeps every try's verdict
    store = af.client.get(
        f"/dags/exp_retry/dagRuns/{runs['exp_retry']}/taskInstances/exception_7s/state-store"
    ).json()
    results["task_state_store"] = {row["key"]: row["value"] for row in store["task_state_store"]}

    # 6. rendered fields after the run
    results["rendered_fields_after_run"] = {
        task_id: af.client.get(
            f"/dags/exp_rtif/dagRuns/{runs['exp_rtif']}/taskInstances/{task_id}"
        ).json()["rendered_fields"]
        for task_id in ("overwrite_after", "set_in_execute_only", "render_override")
    }


def browse(af: LiveAirflow, runs: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    quoted = {dag_id: urllib.parse.quote(run_id) for dag_id, run_id in runs.items()}
    with chromium() as browser:
        page = new_page(browser)
        login(page, af.base, "admin", PASSWORD)

        # 1. the trigger form: when is Trigger enabled?
        page.goto(f"{af.base}/dags/exp_form")
        page.get_by_role("button", name="Trigger Dag").click()
        dialog = page.get_by_role("dialog")
        trigger = dialog.get_by_role("button", name="Trigger", exact=True)
        trigger.wait_for()
        page.wait_for_timeout(1500)
        shoot(page, SHOTS, "research-form-defaults")
        states = [("defaults (A is type string, default '')", trigger.is_enabled())]

        def field(prefix: str) -> Any:
            return dialog.get_by_role("group").filter(has_text=prefix).get_by_role("textbox")

        def record(what: str) -> None:
            page.wait_for_timeout(300)
            states.append((what, trigger.is_enabled()))

        field("A: string").fill("x")
        record("A typed")
        field("D: array").fill("p")
        field("D: array").fill("")
        field("D: array").blur()
        record("D (type array) typed, then emptied")
        field("D: array").fill("p")
        record("D typed again")
        field("E: ").fill("q")
        field("E: ").fill("")
        field("E: ").blur()
        record("E (type [null, array]) typed, then emptied")
        field("C: ").fill("z")
        field("C: ").fill("")
        record("C (type [null, string]) typed, then emptied")
        out["form_trigger_enabled"] = states
        with page.expect_response(
            lambda r: "/dagRuns" in r.url and r.request.method == "POST"
        ) as posted:
            trigger.click()
        out["form_posted_conf"] = json.loads(posted.value.request.post_data or "{}").get("conf")

        # 2. the XCom tab (Storage → XCom) for a pydantic object and for its dict
        for task_id in ("push_model", "push_dict"):
            page.goto(f"{af.base}/dags/exp_xcom/runs/{quoted['exp_xcom']}/tasks/{task_id}/xcom")
            settle(page, 1500)
            page.get_by_role("button", name="Expand all extra JSON").click()
            page.wait_for_timeout(500)
            shoot(page, SHOTS, f"research-xcom-{task_id}")
            row = page.get_by_role("row").filter(has_text="return_value").first
            out[f"xcom_tab_{task_id}"] = row.inner_text()[:200]

        # 3. the graph: groups collapsed by default, then expanded; names per map index
        page.goto(f"{af.base}/dags/exp_map/runs/{quoted['exp_map']}")
        settle(page)
        page.get_by_role("button", name="Show Graph (Press g)").click()
        settle(page, 2000)
        shoot(page, SHOTS, "research-graph-collapsed")
        page.get_by_role("button", name="Expand all task groups").click()
        settle(page, 2000)
        page.get_by_role("button", name="Fit View").click()
        page.wait_for_timeout(800)
        shoot(page, SHOTS, "research-graph-expanded")
        page.goto(
            f"{af.base}/dags/exp_map/runs/{quoted['exp_map']}/tasks/per_project.prepare/mapped"
        )
        settle(page, 1500)
        shoot(page, SHOTS, "research-map-index-names")

        # 5. the failing try's log: traceback vs. one line; groups expanded by clicking them
        for task_id in ("exception_7s", "systemexit_3s"):
            page.goto(
                f"{af.base}/dags/exp_retry/runs/{quoted['exp_retry']}/tasks/{task_id}?try_number=1"
            )
            settle(page, 1500)
            for header in ("agent transcript", "Post Execute"):
                page.get_by_text(header).first.click()
                page.wait_for_timeout(300)
            shoot(page, SHOTS, f"research-log-{task_id}-try1")
            out[f"log_{task_id}_try1"] = page.get_by_role("code").first.inner_text()[:2500]
        page.goto(
            f"{af.base}/dags/exp_retry/runs/{quoted['exp_retry']}/tasks/exception_7s/task-state-store"
        )
        settle(page, 1500)
        shoot(page, SHOTS, "research-task-state-store")

        # 6. the Rendered Templates tab
        for task_id in ("overwrite_after", "set_in_execute_only"):
            page.goto(
                f"{af.base}/dags/exp_rtif/runs/{quoted['exp_rtif']}/tasks/{task_id}/rendered_templates"
            )
            settle(page, 1500)
            shoot(page, SHOTS, f"research-rendered-{task_id}")
    return out


if __name__ == "__main__":
    sys.exit(main())
