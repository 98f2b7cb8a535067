"""A price for every call (autofix.pricing): the CLI's figure, the config's, the genai-prices
table, or "cost unknown"; and the token budgets that still count a call of unknown cost.

The calls here are real subprocesses of the scripted agent speaking Codex's and Gemini's
formats (no Airflow); tests/test_pricing_real_clis.py runs the real CLIs under ``dag.test()``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from audit_support import attempt
from genai_prices import Usage, calc_price

from autofix.audit.envelope import InteractionResult
from autofix.audit.recorder import AuditRecorder
from autofix.audit.stores.jsonl import JsonlStore
from autofix.audit.stores.memory import MemoryStore
from autofix.audit.usage_report import build_report, render
from autofix.config import AutofixConfig, BudgetSettings, ModelPrice, load_config
from autofix.costs import CostSource, combined_source, describe_cost
from autofix.errors import BudgetExhaustedError, ConfigError
from autofix.pricing import (
    PricedCall,
    Pricer,
    billed_tokens,
    codex_config_model,
    model_from_argv,
    requested_model,
)
from autofix.result import AttemptSpend, ParseResult, Status, TokenUsage
from autofix.task.agent_task import AgentTask, AgentTaskSpec, TraceContext

USAGE = TokenUsage(input_tokens=12_000, cached_input_tokens=2_000, output_tokens=800)
UNPRICED = "autofix-unpriced-model-1"


def _table(model: str, provider: str, input_tokens: int, cached: int, output: int) -> float:
    usage = Usage(input_tokens=input_tokens, cache_read_tokens=cached, output_tokens=output)
    return round(float(calc_price(usage, model, provider_id=provider).total_price), 6)


# -- the price of one call -------------------------------------------------------------------


def test_a_known_model_is_priced_by_the_table() -> None:
    price = Pricer().price(USAGE, PricedCall("codex", "gpt-5.5"))
    assert price.source is CostSource.TABLE
    assert price.cost_usd == _table("gpt-5.5", "openai", 12_000, 2_000, 800)
    assert price.cost_usd is not None and price.cost_usd > 0
    gemini = Pricer().price(USAGE, PricedCall("gemini", "gemini-2.5-flash"))
    assert gemini.cost_usd == _table("gemini-2.5-flash", "google", 12_000, 2_000, 800)


def test_the_config_price_wins_over_the_table_in_any_case() -> None:
    prices = {
        "GPT-5.5": ModelPrice(
            input_usd_per_mtok=2, output_usd_per_mtok=10, cached_input_usd_per_mtok=0.5
        ),
        "local-coder": ModelPrice(input_usd_per_mtok=0, output_usd_per_mtok=0),
    }
    price = Pricer(prices).price(USAGE, PricedCall("codex", "gpt-5.5"))
    # 10 000 uncached × $2 + 2 000 cached × $0.5 + 800 out × $10, per million
    assert (price.cost_usd, price.source) == (0.029, CostSource.CONFIG)
    free = Pricer(prices).price(USAGE, PricedCall("openai", "local-coder", api_url="http://x/v1"))
    assert (free.cost_usd, free.source) == (0.0, CostSource.CONFIG)


def test_cached_input_without_its_own_price_is_charged_as_input() -> None:
    prices = {"m": ModelPrice(input_usd_per_mtok=1, output_usd_per_mtok=0)}
    assert Pricer(prices).price(USAGE, PricedCall("gemini", "m")).cost_usd == 0.012


def test_an_unknown_model_or_none_is_cost_unknown_never_zero() -> None:
    for call in (
        PricedCall("gemini", UNPRICED),
        PricedCall("codex", None),
        PricedCall("openai", "llama3", api_url="http://127.0.0.1:8012/v1"),
    ):
        price = Pricer().price(USAGE, call)
        assert (price.cost_usd, price.source) == (None, CostSource.UNKNOWN), call
    assert "prices:" in Pricer().price(USAGE, PricedCall("gemini", UNPRICED)).detail
    assert "set the task's model" in Pricer().price(USAGE, PricedCall("codex", None)).detail


def test_an_openai_compatible_endpoint_is_known_by_its_url() -> None:
    call = PricedCall("openai", "gpt-4o-mini", api_url="https://api.openai.com/v1")
    price = Pricer().price(USAGE, call)
    assert price.source is CostSource.TABLE
    assert price.cost_usd == _table("gpt-4o-mini", "openai", 12_000, 2_000, 800)


def test_the_cost_the_cli_reported_wins() -> None:
    reported = ParseResult(
        success=True, status=Status.COMPLETED, cost_usd=0.5, usage=USAGE, model="claude-x"
    )
    prices = {"claude-x": ModelPrice(input_usd_per_mtok=1, output_usd_per_mtok=1)}
    kept = Pricer(prices).price_result(reported, PricedCall("claude", "sonnet"))
    assert (kept.cost_usd, kept.cost_source, kept.model) == (0.5, CostSource.REPORTED, "claude-x")


def test_the_reported_model_wins_over_the_requested_one() -> None:
    result = ParseResult(success=True, status=Status.COMPLETED, usage=USAGE, model=UNPRICED)
    priced = Pricer().price_result(result, PricedCall("gemini", "gemini-2.5-flash"))
    assert (priced.model, priced.cost_source, priced.cost_usd) == (
        UNPRICED,
        CostSource.UNKNOWN,
        None,
    )
    asked = result.model_copy(update={"model": None})
    priced = Pricer().price_result(asked, PricedCall("gemini", "gemini-2.5-flash"))
    assert (priced.model, priced.cost_source) == ("gemini-2.5-flash", CostSource.TABLE)


def test_reasoning_tokens_are_billed_once() -> None:
    usage = TokenUsage(input_tokens=100, output_tokens=50, thinking_tokens=30)
    # Codex's reasoning tokens are part of its output tokens; Gemini's thoughts come on top.
    assert billed_tokens(usage, "codex") == (100, 0, 50)
    assert billed_tokens(usage, "gemini") == (100, 0, 80)
    assert billed_tokens(TokenUsage(input_tokens=5, cached_input_tokens=9), "codex") == (5, 5, 0)


# -- which model a call asked for --------------------------------------------------------------


def test_the_model_a_command_line_names() -> None:
    assert model_from_argv(["codex", "-c", 'model="o3"', "exec"]) == "o3"
    assert model_from_argv(["gemini", "-m", "gemini-2.5-pro"]) == "gemini-2.5-pro"
    assert model_from_argv(["claude", "--model=opus", "--model", "sonnet"]) == "sonnet"
    assert model_from_argv(["codex", "-c", "model_provider=x"]) is None
    assert model_from_argv(None) is None


def test_codex_config_names_the_model_its_events_never_do(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(
        'model = "gpt-5.5"\nprofile = "fast"\n[profiles.fast]\nmodel = "gpt-5-mini"\n'
    )
    env = {"CODEX_HOME": str(tmp_path)}
    assert codex_config_model(env) == "gpt-5-mini"
    (tmp_path / "config.toml").write_text('model = "gpt-5.5"\n')
    assert requested_model("codex", None, ["codex"], env) == "gpt-5.5"
    # The task's model and its command come first; other formats never read Codex's file.
    assert requested_model("codex", "o3", ["codex", "-m", "o4"], env) == "o3"
    assert requested_model("codex", None, ["codex", "-m", "o4"], env) == "o4"
    assert requested_model("gemini", None, None, env) is None
    (tmp_path / "config.toml").write_text("model = [broken")
    assert codex_config_model(env) is None


# -- sums, the verdict's words, the report -----------------------------------------------------


def test_one_call_of_unknown_cost_makes_the_sum_unknown() -> None:
    def spend(cost: float | None, source: CostSource | None, n: int) -> AttemptSpend:
        return AttemptSpend(attempt=n, status=Status.COMPLETED, cost_usd=cost, cost_source=source)

    result = ParseResult(success=True, status=Status.COMPLETED)
    known = result.with_spend([spend(0.1, CostSource.TABLE, 1), spend(0.2, CostSource.REPORTED, 2)])
    assert (known.cost_usd, known.cost_source) == (pytest.approx(0.3), CostSource.TABLE)
    mixed = result.with_spend([spend(0.1, CostSource.TABLE, 1), spend(None, CostSource.UNKNOWN, 2)])
    assert (mixed.cost_usd, mixed.cost_source) == (None, CostSource.UNKNOWN)
    assert combined_source([None, CostSource.REPORTED, CostSource.CONFIG]) is CostSource.CONFIG
    assert combined_source([None]) is None


def test_the_verdict_says_cost_unknown_never_zero() -> None:
    assert describe_cost(None, CostSource.UNKNOWN) == "cost unknown"
    assert describe_cost(0.01234, CostSource.TABLE) == "$0.0123 (table)"
    assert describe_cost(0.0, CostSource.CONFIG) == "$0.0000 (config)"
    assert describe_cost(None, None) == "$0.0000"  # no call was made (e.g. a budget stopped it)


def _priced(interaction: Any, cost: float | None, source: CostSource, model: str) -> Any:
    result = interaction.result.model_dump()
    result.update(cost_usd=cost, cost_source=source, model=model)
    return interaction.model_copy(update={"result": InteractionResult.model_validate(result)})


def test_autofix_report_counts_calls_of_unknown_cost_apart() -> None:
    at = datetime(2026, 3, 1, 10, tzinfo=UTC)
    items = [
        _priced(attempt("run-1", "fix", 1, at=at), 0.25, CostSource.TABLE, "gpt-5.5"),
        _priced(
            attempt("run-1", "fix", 1, status=Status.FAILED, max_attempts=1, at=at),
            None,
            CostSource.UNKNOWN,
            UNPRICED,
        ),
    ]
    report = build_report(items, now=at)
    assert (report.total_cost_usd, report.cost_unknown_calls) == (0.25, 1)
    text = render(report)
    assert "cost: $0.2500 + 1 call(s) of unknown cost, tokens: 300" in text
    assert "cost unknown" in text  # the failed attempt's own line
    assert render(report, "json").count('"cost_source": "unknown"') == 1


def test_the_audit_record_keeps_the_model_and_the_cost_source(tmp_path: Path) -> None:
    store = JsonlStore(tmp_path / "audit.jsonl")
    at = datetime.now(UTC)
    store.append(_priced(attempt("run-1", "fix", 1, at=at), None, CostSource.UNKNOWN, UNPRICED))
    [record] = store.iter_all()
    assert (record.result.cost_usd, record.result.cost_source) == (None, CostSource.UNKNOWN)
    assert record.result.model == UNPRICED


# -- budgets -----------------------------------------------------------------------------------


def _recorder(store: MemoryStore, **budgets: float) -> AuditRecorder:
    return AuditRecorder(store, budgets=BudgetSettings(**budgets))


def test_token_budgets_count_calls_of_unknown_cost() -> None:
    store = MemoryStore()
    now = datetime.now(UTC)
    unknown = attempt("run-1", "fix", 1, at=now)  # 150 tokens
    store.append(_priced(unknown, None, CostSource.UNKNOWN, UNPRICED))
    # The dollar budgets see nothing...
    _recorder(store, max_cost_per_run_usd=0.01, max_cost_per_day_usd=0.01).check_budget("run-1")
    # ... the token budgets see its tokens.
    with pytest.raises(BudgetExhaustedError) as caught:
        _recorder(store, max_tokens_per_run=150).check_budget("run-1")
    assert str(caught.value) == (
        "budget max_tokens_per_run=150 exhausted: spent 150 tokens in 1 calls for run run-1"
    )
    assert caught.value.tokens == 150
    _recorder(store, max_tokens_per_run=151).check_budget("run-1")
    _recorder(store, max_tokens_per_run=150).check_budget("run-2")
    with pytest.raises(BudgetExhaustedError, match=r"^budget max_tokens_per_day=100 exhausted"):
        _recorder(store, max_tokens_per_day=100).check_budget("run-2")
    [event] = store.events("run-2")
    assert event.data["budget"] == "max_tokens_per_day" and event.data["tokens"] == 150


def test_prices_and_token_budgets_in_the_config_file(tmp_path: Path) -> None:
    path = tmp_path / "autofix.yaml"
    path.write_text(
        "budgets:\n  max_tokens_per_day: 5000\n"
        "prices:\n  local-coder:\n    input_usd_per_mtok: 0\n    output_usd_per_mtok: 0\n"
    )
    environ = {"AUTOFIX__PRICES__GPT-5": "{input_usd_per_mtok: 1, output_usd_per_mtok: 8}"}
    config = load_config(path, environ=environ)
    assert config.budgets.max_tokens_per_day == 5000
    assert config.prices["local-coder"].output_usd_per_mtok == 0
    assert config.prices["gpt-5"].output_usd_per_mtok == 8
    path.write_text("prices:\n  local-coder:\n    input_usd_per_mtok: -1\n")
    with pytest.raises(ConfigError, match=r"line 3: prices\.local-coder\.input_usd_per_mtok"):
        load_config(path, environ={})


# -- end to end without Airflow: the scripted agent speaking Codex and Gemini ----------------


def _scenario(tmp_path: Path, fmt: str, reported: str) -> str:
    """One answer with its tokens; Gemini's events name ``reported`` as the model."""
    path = tmp_path / f"{fmt}.yaml"
    path.write_text(
        f"format: {fmt}\nmodel: {reported}\nsteps:\n"
        "  - text: pong\n    usage: {input_tokens: 1800, output_tokens: 20}\n"
    )
    return str(path)


def _task(
    tmp_path: Path, store: MemoryStore, config: AutofixConfig, fmt: str, reported: str, **spec: Any
) -> AgentTask:
    scenario = _scenario(tmp_path, fmt, reported)
    options = {"scenario": scenario, "state_dir": str(tmp_path / "state")}
    return AgentTask(
        AgentTaskSpec(agent="sim", prompt="ping", operation="ping", agent_options=options, **spec),
        config=config,
        trace=TraceContext(trace_id="run-1"),
        recorder=AuditRecorder(store, budgets=config.budgets),
    )


def test_a_daily_usd_budget_stops_the_call_after_a_priced_codex_call(tmp_path: Path) -> None:
    store = MemoryStore()
    config = AutofixConfig(budgets=BudgetSettings(max_cost_per_day_usd=0.0001))
    # Codex's events never name the model: the task's model prices the call.
    first = _task(tmp_path, store, config, "codex", "sim-model", model="gpt-5.5").run()
    assert first.success and (first.model, first.cost_source) == ("gpt-5.5", CostSource.TABLE)
    assert first.cost_usd == _table("gpt-5.5", "openai", 1800, 0, 20)
    [record] = store.iter_all()
    assert (record.result.cost_usd, record.result.model) == (first.cost_usd, "gpt-5.5")
    second = _task(tmp_path, store, config, "codex", "sim-model", model="gpt-5.5").run()
    assert second.status is Status.BUDGET_EXHAUSTED
    assert "max_cost_per_day_usd" in second.error_message
    assert len(list(store.iter_all())) == 1


def test_an_unknown_gemini_model_is_cost_unknown_and_a_token_budget_stops_the_next(
    tmp_path: Path,
) -> None:
    store = MemoryStore()
    config = AutofixConfig(budgets=BudgetSettings(max_tokens_per_day=1000))
    # Gemini's init event names the model: it wins over the task's.
    first = _task(tmp_path, store, config, "gemini", UNPRICED, model="gemini-2.5-flash").run()
    assert first.success and first.model == UNPRICED
    assert (first.cost_usd, first.cost_source) == (None, CostSource.UNKNOWN)
    second = _task(tmp_path, store, config, "gemini", UNPRICED).run()
    assert second.status is Status.BUDGET_EXHAUSTED
    assert "max_tokens_per_day=1000 exhausted: spent 1820 tokens" in second.error_message


def test_a_config_price_makes_a_local_model_known(tmp_path: Path) -> None:
    prices = {UNPRICED: ModelPrice(input_usd_per_mtok=1, output_usd_per_mtok=2)}
    config = AutofixConfig(prices=prices)
    result = _task(tmp_path, MemoryStore(), config, "gemini", UNPRICED).run()
    # 1800 in × $1 + 20 out × $2, per million
    assert (result.cost_usd, result.cost_source) == (0.00184, CostSource.CONFIG)
