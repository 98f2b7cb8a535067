"""A price for every call, with the real Codex and Gemini CLIs under ``dag.test()``.

Neither CLI reports a cost, only tokens; the scripted loopback API (tests/agent_apis) reports
them. Each chain of AIWrapperOperator tasks has its own config file (audit store, budgets):

- a known model: the first call shows a USD cost from the price table in its XCom, the verdict
  block and the audit record; a daily USD budget then stops the next call (budget_exhausted);
- a model no table knows: "cost unknown" (cost_usd None, never $0), and a daily token budget
  stops the next call.

Skipped, with the reason, when ``make agent-clis`` has not installed the pinned CLIs.
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from agent_apis.clis import Sandbox, missing_reason
from agent_apis.core import ScriptedServer
from agent_apis.scenarios import Context, cases_by_key
from agents.capture import SERVERS
from agents.e2e import operator_kwargs
from airflow_support import run_dag

from autofix.audit.stores.jsonl import JsonlStore
from autofix.operators.results import FAILED_RESULT_KEY

MISSING = missing_reason()
pytestmark = [
    pytest.mark.airflow,
    pytest.mark.e2e,
    pytest.mark.timeout(600),
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
]
UNPRICED = "autofix-unpriced-model-1"
# chain → (cli, model, budgets)
CHAINS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "gemini_known": ("gemini", "gemini-2.5-flash", {"max_cost_per_day_usd": 0.0001}),
    "codex_known": ("codex", "gpt-5.5", {"max_cost_per_day_usd": 0.0001}),
    "gemini_unpriced": ("gemini", UNPRICED, {"max_tokens_per_day": 100}),
}

DAG_SOURCE = """
import json
from pathlib import Path

import pendulum
from airflow.sdk import DAG

from autofix.operators import AIWrapperOperator

CHAINS = json.loads(Path({specs!r}).read_text())

with DAG("pricing_real_clis", schedule=None, start_date=pendulum.datetime(2025, 1, 1)) as dag:
    for tasks in CHAINS.values():
        first, second = (AIWrapperOperator(**kwargs) for kwargs in tasks)
        first >> second
"""


def _servers(stack: ExitStack, root: Path) -> dict[str, ScriptedServer]:
    """One scripted API per CLI; its success reply (with its token counts) repeats."""
    servers: dict[str, ScriptedServer] = {}
    for cli in ("codex", "gemini"):
        case = cases_by_key()[f"{cli}/success_text"]
        scenario = case.scenario(Context(work=root))
        assert scenario is not None
        servers[cli] = stack.enter_context(SERVERS[cli](scenario))
    return servers


def _chain(name: str, servers: dict[str, ScriptedServer], root: Path) -> list[dict[str, Any]]:
    """Two calls of one CLI and model, sharing a config (budgets, audit store) of their own."""
    cli, model, budgets = CHAINS[name]
    audit = root / name / "audit.jsonl"
    config = root / name / "autofix.yaml"
    config.parent.mkdir(parents=True)
    config.write_text(
        json.dumps(
            {
                "audit": {"path": str(audit), "raw_output_dir": None},
                "budgets": budgets,
                "agents": {"early_stop_hopeless_after": 0, "early_stop_repeated_after": 0},
            }
        )
    )
    base = cases_by_key()[f"{cli}/success_text"]
    case = replace(base, options=replace(base.options, model=model))
    tasks = []
    for step in (1, 2):
        sandbox = Sandbox(root / name / f"call{step}").create()
        kwargs = operator_kwargs(case, servers[cli].base_url, sandbox)
        kwargs.update(task_id=f"{name}_{step}", config_path=str(config), retries=0)
        tasks.append(kwargs)
    return tasks


def _records(root: Path, chain: str) -> list[Any]:
    return list(JsonlStore(root / chain / "audit.jsonl").iter_all())


def test_every_call_has_a_price_or_says_cost_unknown_and_budgets_stop_the_next(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    with ExitStack() as stack:
        servers = _servers(stack, tmp_path)
        chains = {name: _chain(name, servers, tmp_path) for name in CHAINS}
        specs = tmp_path / "chains.json"
        specs.write_text(json.dumps(chains))
        outcome = run_dag("pricing_real_clis", DAG_SOURCE.format(specs=str(specs)))
    log = capfd.readouterr().out

    # A known model: USD from the price table in the XCom, the verdict block and the audit
    # record; the daily USD budget then stops the next call before it runs.
    for chain in ("gemini_known", "codex_known"):
        _, model, _ = CHAINS[chain]
        first = outcome.xcoms[f"{chain}_1"]
        assert outcome.task_states[f"{chain}_1"] == "success", first
        assert first["model"] == model
        assert first["cost_source"] == "table"
        assert first["cost_usd"] > 0 and first["usage"]["input_tokens"] > 0
        assert f"cost ${first['cost_usd']:.4f} (table), model {model}" in log
        assert outcome.task_states[f"{chain}_2"] == "failed"
        stopped = outcome.xcoms_by_key(f"{chain}_2", FAILED_RESULT_KEY)
        assert stopped["status"] == "budget_exhausted"
        assert "max_cost_per_day_usd" in stopped["error_message"]
        [record] = _records(tmp_path, chain)  # the stopped call never ran
        assert record.result.cost_usd == pytest.approx(first["cost_usd"])
        assert (record.result.cost_source, record.result.model) == ("table", model)

    # A model no table knows: cost unknown (never $0), and the token budget stops the next call.
    first = outcome.xcoms["gemini_unpriced_1"]
    assert outcome.task_states["gemini_unpriced_1"] == "success", first
    assert first["model"] == UNPRICED
    assert first["cost_usd"] is None and first["cost_source"] == "unknown"
    assert first["usage"]["input_tokens"] > 100
    assert f"cost unknown, model {UNPRICED}" in log
    stopped = outcome.xcoms_by_key("gemini_unpriced_2", FAILED_RESULT_KEY)
    assert stopped["status"] == "budget_exhausted"
    assert "max_tokens_per_day" in stopped["error_message"]
    [record] = _records(tmp_path, "gemini_unpriced")
    assert record.result.cost_usd is None and record.result.cost_source == "unknown"
