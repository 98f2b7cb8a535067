"""agent="openai" against the real local model: llama.cpp's server with Gemma 3 270M (a base model).

One server for the session (``local_llm`` fixture). Every request here is small: the whole file
stays well under three minutes on two cores.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from llm_support import local_llm  # noqa: F401  (the session fixture)
from pydantic import BaseModel, Field

from autofix.audit.recorder import AuditRecorder
from autofix.audit.stores.memory import MemoryStore
from autofix.config import AutofixConfig, ValidationSettings
from autofix.devtools.local_llm import MODEL_NAME, LocalServer
from autofix.result import RetryClass, Status
from autofix.task.agent_task import AgentTask, AgentTaskSpec, TraceContext
from autofix.validation.cross_field import Total

pytestmark = pytest.mark.e2e  # the real local model (llama.cpp)

FEW_SHOT = """Trading strategies as JSON. name is snake_case; indicators lists at least 2 indicators; period is 1 to 250; threshold is 0 to 100.

Idea: RSI and SMA: buy oversold dips while price is above the 200-day average
JSON: {"name": "rsi_trend_filter", "indicators": ["rsi", "sma"], "period": 200, "threshold": 30}

Idea: MACD and volume: sell when MACD crosses down on a volume spike
JSON: {"name": "macd_volume_exit", "indicators": ["macd", "volume"], "period": 26, "threshold": 70}

Idea: Bollinger bands and ATR: buy breakouts above the upper band
JSON: {"name": "bollinger_atr_breakout", "indicators": ["bollinger", "atr"], "period": 20, "threshold": 55}

Idea: Bollinger and Keltner: volatility squeeze
JSON:"""


class Strategy(BaseModel):
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    indicators: list[str] = Field(min_length=2)
    period: int = Field(ge=1, le=250)
    threshold: float = Field(ge=0, le=100)


class Greeting(BaseModel):
    greeting: str
    language_code: str = Field(min_length=2, max_length=2)


def run_task(
    server: LocalServer, tmp_path: Path, prompt: str, schema: type[BaseModel], **options: Any
) -> tuple[Any, MemoryStore]:
    store = MemoryStore()
    spec_options = {
        key: options.pop(key) for key in ("retry_strategy", "constrained") if key in options
    }
    agent_options = {
        "base_url": server.base_url,
        "mode": "completions",
        "temperature": 0.0,
        "seed": 7,
        "max_tokens": 96,
        "stop": ["\n"],
        "max_retries": 0,
        **options,
    }
    agent_options = {key: value for key, value in agent_options.items() if value is not None}
    task = AgentTask(
        AgentTaskSpec(
            agent="openai",
            prompt=prompt,
            operation="strategy",
            model=MODEL_NAME,
            agent_options=agent_options,
            output_schema=schema,
            timeout=120,
            **spec_options,
        ),
        config=AutofixConfig(validation=ValidationSettings(report_dir=str(tmp_path / "reports"))),
        trace=TraceContext(trace_id="run-local-llm"),
        recorder=AuditRecorder(store),
        log_line=lambda line: None,
    )
    return task.run(), store


def test_valid_answer_with_usage_in_the_audit_record(
    local_llm: LocalServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    result, store = run_task(local_llm, tmp_path, FEW_SHOT, Strategy)
    assert result.success, result.error_message
    assert Strategy.model_validate(result.data).period >= 1
    records = list(store.iter_all())
    assert records[-1].result.validation_passed and records[-1].result.finish_reason == "stop"
    for record in records:
        assert record.result.input_tokens > 50 and record.result.output_tokens > 0
        assert record.result.latency_ms > 0 and record.envelope.agent_type == "openai"
    # The default ("auto") sent the schema as a llama.cpp grammar on attempt 1.
    context = records[0].envelope.context
    assert (context["strategy"], context["constrained"]) == ("adaptive", True)


def test_truncation_gives_length_and_the_truncation_feedback(
    local_llm: LocalServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    # Chat mode on the same server: the instruction-style feedback of the retry issue.
    result, store = run_task(
        local_llm,
        tmp_path,
        FEW_SHOT,
        Strategy,
        mode="chat",
        max_tokens=4,
        stop=None,
        retry_strategy="feedback",
    )
    assert not result.success and result.status is Status.TRUNCATED
    records = list(store.iter_all())
    assert len(records) == 2  # cut off twice the same way: the loop stops (identical errors)
    assert all(r.result.finish_reason == "length" for r in records)
    assert all(r.result.status is Status.TRUNCATED for r in records)
    retry_prompt = records[1].envelope.instructions
    assert "Your previous answer was cut off" in retry_prompt and "shorter" in retry_prompt


def test_schema_sent_as_response_format_shapes_the_answer(
    local_llm: LocalServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    # Nothing in this prompt asks for JSON: only the grammar from the schema can produce it.
    prompt = "Write a short friendly sentence about the weather in Paris:"
    result, store = run_task(
        local_llm,
        tmp_path,
        prompt,
        Greeting,
        mode="chat",
        constrained=True,
        constrained_as="json_object",  # llama-cpp-python's response_format shape
        stop=None,
        max_tokens=64,
    )
    assert result.success, result.error_message
    assert set(json.loads(store.by_trace("run-local-llm")[0].result.raw_output)) == {
        "greeting",
        "language_code",
    }
    assert next(r.envelope.context["constrained"] for r in store.iter_all()) is True


class Split(BaseModel):
    team: str = Field(pattern=r"^[a-z][a-z-]*$")
    cpu_pct: int = Field(ge=0, le=100)
    memory_pct: int = Field(ge=0, le=100)
    storage_pct: int = Field(ge=0, le=100)

    __autofix_rules__ = [Total(("cpu_pct", "memory_pct", "storage_pct"), equals=100)]


# Examples that break the rule (each adds up to 120): the model copies the habit on attempt 1.
SPLIT_PROMPT = """Team budgets as JSON.

Team: search, CPU-bound
JSON: {"team": "search", "cpu_pct": 60, "memory_pct": 40, "storage_pct": 20}

Team: archive, storage heavy
JSON: {"team": "archive", "cpu_pct": 20, "memory_pct": 30, "storage_pct": 70}

Team: cache, memory heavy
JSON: {"team": "cache", "cpu_pct": 30, "memory_pct": 70, "storage_pct": 20}

Team: media, CPU heavy
JSON:"""


def test_targeted_retry_keeps_the_answer_and_solves_the_broken_total(
    local_llm: LocalServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    result, store = run_task(local_llm, tmp_path, SPLIT_PROMPT, Split, retry_strategy="targeted")
    records = list(store.iter_all())
    first, last = (json.loads(r.result.raw_output) for r in (records[0], records[-1]))
    assert first["cpu_pct"] + first["memory_pct"] + first["storage_pct"] != 100, first
    assert result.success and len(records) == 2, result.error_message
    assert records[1].envelope.context["strategy"] == "targeted"
    kept = ("team", "cpu_pct", "memory_pct")
    assert {k: last[k] for k in kept} == {k: first[k] for k in kept}
    assert last["storage_pct"] == 100 - first["cpu_pct"] - first["memory_pct"]


def test_stopped_server_is_a_transient_error_naming_the_url(
    local_llm: LocalServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    gone = LocalServer(port=local_llm.port + 1 if local_llm.port < 65000 else 1025)
    if gone.healthy():
        pytest.skip(f"something answers on {gone.base_url}")
    result, _ = run_task(gone, tmp_path, FEW_SHOT, Strategy, max_retries=1)
    assert result.retry_class is RetryClass.TRANSIENT and result.status is Status.FAILED
    assert gone.base_url in result.error_message and "tried 2 times" in result.error_message
