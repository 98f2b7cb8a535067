"""agent="openai" against a scripted OpenAI-compatible server on 127.0.0.1: HTTP errors map onto
DESIGN.md's retry classes, Retry-After is honoured, the key never shows, strategies reach the wire."""

from __future__ import annotations

import json
import re
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from openai_support import Reply, chat_answer, fake_openai
from pydantic import BaseModel, Field

from autofix.agents.base import AgentRequest
from autofix.agents.openai.client import ClientRequest, call, retry_after_seconds
from autofix.agents.registry import get_format, parse_output
from autofix.audit.recorder import AuditRecorder
from autofix.audit.stores.memory import MemoryStore
from autofix.config import AutofixConfig, ValidationSettings
from autofix.result import FailureKind, FinishReason, RetryClass, Status
from autofix.task.agent_task import AgentTask, AgentTaskSpec, TraceContext
from autofix.validation.cross_field import Ordered
from autofix.validation.policy import AttemptPolicy

SECRET = "sk-test-Zq8Lw3nV5pR2tY7uK1xM"


class Strategy(BaseModel):
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    indicators: list[str] = Field(min_length=2)
    period: int = Field(ge=1, le=250)
    threshold: float = Field(ge=0, le=100)


VALID = '{"name": "rsi_cross", "indicators": ["rsi", "sma"], "period": 14, "threshold": 30}'
BAD_PERIOD = '{"name": "rsi_cross", "indicators": ["rsi", "sma"], "period": 900, "threshold": 30}'


def run_client(
    base_url: str, **fields: Any
) -> tuple[dict[str, Any], list[dict[str, Any]], list[float]]:
    events: list[dict[str, Any]] = []
    waits: list[float] = []
    request = ClientRequest.from_json({"base_url": base_url, "prompt": "hi", **fields})
    last = call(request, events.append, environ={}, sleep=waits.append)
    return last, events, waits


def make_task(
    base_url: str, tmp_path: Path, **spec: Any
) -> tuple[AgentTask, MemoryStore, list[str]]:
    store = MemoryStore()
    lines: list[str] = []
    options = {"base_url": base_url, "max_retries": 0, **spec.pop("agent_options", {})}
    config = AutofixConfig(validation=ValidationSettings(report_dir=str(tmp_path / "reports")))
    task = AgentTask(
        AgentTaskSpec(
            agent="openai",
            prompt=spec.pop("prompt", "give JSON"),
            operation="strategy",
            agent_options=options,
            timeout=60,
            **spec,
        ),
        config=config,
        trace=TraceContext(trace_id="run-openai"),
        recorder=AuditRecorder(store),
        log_line=lines.append,
    )
    return task, store, lines


# -- the client's HTTP error mapping -----------------------------------------------------------


def test_429_waits_for_retry_after_then_succeeds() -> None:
    with fake_openai(
        Reply(429, {"error": {"message": "slow down"}}, {"Retry-After": "3"}),
        Reply(429, {"error": {"message": "slow down"}}, {"Retry-After": "1.5"}),
        chat_answer(VALID),
    ) as server:
        last, events, waits = run_client(server.base_url, max_retries=2)
    assert waits == [3.0, 1.5]
    assert last["event"] == "response" and last["text"] == VALID
    assert [e["event"] for e in events] == [
        "request",
        "retry",
        "request",
        "retry",
        "request",
        "response",
    ]
    assert events[1]["status"] == 429 and "slow down" in events[1]["reason"]


def test_429_that_persists_is_a_transient_rate_limit() -> None:
    with fake_openai(
        Reply(429, {"error": {"message": "rate limited"}}, {"Retry-After": "0"})
    ) as server:
        last, _, waits = run_client(server.base_url, max_retries=1)
        outcome = parse_output("openai", [json.dumps(last)], exit_code=1)
    assert waits == [0.0]
    assert last["kind"] == "rate_limit" and last["tries"] == 2
    assert outcome.failure_kind is FailureKind.RATE_LIMIT
    assert "HTTP 429" in outcome.errors[0] and "tried 2 times" in outcome.errors[0]


def test_retry_after_longer_than_the_cap_is_left_to_airflow() -> None:
    with fake_openai(Reply(429, {"error": "busy"}, {"Retry-After": "3600"})) as server:
        last, _, waits = run_client(server.base_url, max_retries=3)
    assert waits == [] and last["kind"] == "rate_limit"
    assert "Retry-After 3600s is longer than" in last["message"]


def test_retry_after_as_http_date() -> None:
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert retry_after_seconds("soon") is None and retry_after_seconds(None) is None


@pytest.mark.parametrize(
    ("status", "kind", "failure"),
    [
        (401, "auth", FailureKind.AUTH),
        (403, "auth", FailureKind.AUTH),
        (400, "invalid_request", FailureKind.INVALID_REQUEST),
    ],
)
def test_client_errors_are_not_retried(status: int, kind: str, failure: FailureKind) -> None:
    with fake_openai(Reply(status, {"error": {"message": "nope"}})) as server:
        last, events, waits = run_client(server.base_url, max_retries=3)
        assert len(server.requests) == 1
    assert waits == [] and last["kind"] == kind and last["status"] == status
    outcome = parse_output("openai", [json.dumps(e) for e in events], exit_code=1)
    assert outcome.failure_kind is failure


def test_500_retries_with_exponential_backoff() -> None:
    with fake_openai(Reply(500, {"error": {"message": "boom"}})) as server:
        last, _, waits = run_client(server.base_url, max_retries=2)
        assert len(server.requests) == 3
    assert last["kind"] == "server_error"
    assert 1.0 <= waits[0] <= 1.25 and 2.0 <= waits[1] <= 2.5


def test_request_body_and_key_header() -> None:
    schema = Strategy.model_json_schema()
    with fake_openai(chat_answer(VALID)) as server:
        request = ClientRequest.from_json(
            {
                "base_url": server.base_url,
                "prompt": "p",
                "model": "m",
                "temperature": 0.5,
                "seed": 7,
                "max_tokens": 64,
                "json_schema": schema,
                "constrained": True,
            }
        )
        call(request, lambda e: None, environ={"OPENAI_API_KEY": SECRET})
        body, headers = server.requests[0], server.headers[0]
    assert body["_path"] == "/v1/chat/completions"
    assert body["messages"] == [{"role": "user", "content": "p"}]
    assert (body["model"], body["temperature"], body["seed"], body["max_tokens"]) == (
        "m",
        0.5,
        7,
        64,
    )
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"] == schema
    assert headers["authorization"] == f"Bearer {SECRET}"


def test_completions_mode_renders_history_as_one_prompt() -> None:
    with fake_openai(
        Reply(200, {"choices": [{"text": " x", "finish_reason": "length"}]})
    ) as server:
        last, _, _ = run_client(
            server.base_url,
            mode="completions",
            messages=[
                {"role": "user", "content": "Q: 1\nA:"},
                {"role": "assistant", "content": " 2"},
            ],
        )
        assert server.requests[0]["_path"] == "/v1/completions"
        assert server.requests[0]["prompt"] == "Q: 1\nA: 2"
    assert last["finish_reason"] == "length"


def test_bad_request_options_fail_before_any_call() -> None:
    with pytest.raises(ValueError, match="base_url is required"):
        ClientRequest.from_json({"prompt": "x"})
    with pytest.raises(ValueError, match="unknown request keys: colour"):
        ClientRequest.from_json({"base_url": "http://x/v1", "colour": 1})


# -- through AgentTask: subprocess, parser, validation, audit ----------------------------------


def test_valid_answer_records_usage_finish_reason_and_latency(tmp_path: Path) -> None:
    with fake_openai(chat_answer(VALID, prompt_tokens=120, completion_tokens=33)) as server:
        task, store, _ = make_task(server.base_url, tmp_path, output_schema=Strategy)
        result = task.run()
    assert result.success and result.data["name"] == "rsi_cross"
    assert result.finish_reason == "stop" and result.usage.input_tokens == 120
    [record] = list(store.iter_all())
    assert (record.result.input_tokens, record.result.output_tokens) == (120, 33)
    assert record.result.finish_reason == "stop" and record.result.latency_ms > 0
    assert record.envelope.agent_type == "openai"


def test_invalid_answer_is_retried_with_feedback(tmp_path: Path) -> None:
    with fake_openai(chat_answer(BAD_PERIOD), chat_answer(VALID)) as server:
        task, store, _ = make_task(
            server.base_url,
            tmp_path,
            output_schema=Strategy,
            retry_strategy="feedback",
        )
        result = task.run()
        second = server.requests[1]["messages"][0]["content"]
    assert result.success and result.attempts == 2
    assert "period" in second and "<= 250" in second and "900" in second  # feedback shape
    assert [r.result.validation_passed for r in store.iter_all()] == [False, True]


@pytest.mark.parametrize(
    ("status", "expected", "retry"),
    [
        (401, Status.AUTH_FAILED, RetryClass.PERMANENT),
        (403, Status.AUTH_FAILED, RetryClass.PERMANENT),
        (400, Status.INVALID_REQUEST, RetryClass.PERMANENT),
        (429, Status.LIMIT_REACHED, RetryClass.TRANSIENT),
        (500, Status.FAILED, RetryClass.TRANSIENT),
    ],
)
def test_http_status_becomes_the_retry_class(
    status: int, expected: Status, retry: RetryClass, tmp_path: Path
) -> None:
    with fake_openai(Reply(status, {"error": {"message": f"status {status}"}})) as server:
        task, _, _ = make_task(server.base_url, tmp_path, output_schema=Strategy)
        result = task.run()
    assert (result.status, result.retry_class) == (expected, retry)
    assert f"HTTP {status}" in result.error_message and result.error_message.startswith(
        "[strategy]"
    )


def test_api_key_from_env_is_sent_but_never_logged(tmp_path: Path) -> None:
    with fake_openai(Reply(401, {"error": {"message": f"bad key {SECRET}"}})) as server:
        task, store, lines = make_task(
            server.base_url,
            tmp_path,
            env={"MY_LLM_KEY": SECRET},
            agent_options={"api_key_env": "MY_LLM_KEY"},
        )
        result = task.run()
        assert server.headers[0]["authorization"] == f"Bearer {SECRET}"
    dumped = json.dumps([r.model_dump(mode="json") for r in store.iter_all()])
    assert SECRET not in result.error_message and SECRET not in "\n".join(lines)
    assert SECRET not in dumped and result.status is Status.AUTH_FAILED


def test_no_server_is_a_transient_connection_error_naming_the_url(tmp_path: Path) -> None:
    # Bound, never listening: the connection is refused, and no other server can take the port.
    with socket.socket() as refused:
        refused.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{refused.getsockname()[1]}/v1"
        task, store, lines = make_task(
            url, tmp_path, output_schema=Strategy, agent_options={"max_retries": 1}
        )
        started = time.monotonic()
        result = task.run()
        assert time.monotonic() - started < 30
        assert result.status is Status.FAILED and result.retry_class is RetryClass.TRANSIENT
        assert url in result.error_message and "connection refused" in result.error_message
        assert "tried 2 times" in result.error_message
        # retried inside the task first, as the transcript shows it
        assert any(re.search(r"^retry in [\d.]+ s: ", line, re.M) for line in lines), lines
        [record] = list(store.iter_all())
        assert record.result.retry_class is RetryClass.TRANSIENT


def test_refusal_and_length_map_to_finish_reasons() -> None:
    refused = {"event": "response", "text": "", "refusal": "I can't", "finish_reason": "stop"}
    outcome = parse_output("openai", [json.dumps(refused)])
    assert outcome.finish_reason is FinishReason.REFUSAL
    cut = {"event": "response", "text": "{", "finish_reason": "length", "usage": {}}
    assert parse_output("openai", [json.dumps(cut)]).finish_reason is FinishReason.LENGTH


def test_command_keeps_the_key_out_of_argv_and_stdin() -> None:
    fmt = get_format("openai")
    invocation = fmt.command(
        AgentRequest(prompt="p", options={"base_url": "http://127.0.0.1:1/v1", "seed": 3})
    )
    assert invocation.argv[-2:] == ["-m", "autofix.agents.openai.client"]
    payload = json.loads(invocation.stdin or "")
    assert payload["seed"] == 3 and payload["api_key_env"] == "OPENAI_API_KEY"
    assert "api_key" not in payload


# -- strategies reach the wire -----------------------------------------------------------------


def test_resample_sends_the_same_prompt_with_a_new_seed(tmp_path: Path) -> None:
    with fake_openai(
        chat_answer(BAD_PERIOD), chat_answer(BAD_PERIOD), chat_answer(VALID)
    ) as server:
        task, store, _ = make_task(
            server.base_url,
            tmp_path,
            output_schema=Strategy,
            agent_options={"seed": 5},
            retry_strategy="resample",
        )
        result = task.run()
        bodies = server.requests
    assert result.success and result.attempts == 3  # identical errors do not stop a resampler
    assert [b["messages"] for b in bodies] == [bodies[0]["messages"]] * 3
    assert [b["seed"] for b in bodies] == [5, 5 + 7919, 5 + 2 * 7919]
    contexts = [r.envelope.context for r in store.iter_all()]
    assert [c.get("strategy") for c in contexts] == ["resample"] * 3
    assert contexts[1]["retry_for"] == "range_violation"


def test_constrained_sends_the_schema_every_attempt(tmp_path: Path) -> None:
    with fake_openai(chat_answer(VALID)) as server:
        task, _, _ = make_task(
            server.base_url,
            tmp_path,
            output_schema=Strategy,
            retry_strategy="constrained",
        )
        assert task.run().success
        sent = server.requests[0]["response_format"]["json_schema"]["schema"]
    assert sent["properties"]["period"]["maximum"] == 250


class Window(BaseModel):
    name: str
    start_hour: int = Field(ge=0, le=23)
    end_hour: int = Field(ge=0, le=23)

    __autofix_rules__ = [Ordered(("start_hour", "end_hour"), strict=True)]


def test_targeted_keeps_the_valid_fields_and_decodes_the_broken_one_again(
    tmp_path: Path,
) -> None:
    broken = '{"name": "nightly", "start_hour": 22, "end_hour": 6}'
    fixed = '{"name": "nightly", "start_hour": 22, "end_hour": 23}'
    with fake_openai(chat_answer(broken), chat_answer(fixed)) as server:
        task, store, _ = make_task(
            server.base_url,
            tmp_path,
            output_schema=Window,
            agent_options={"seed": 5},
            retry_strategy="targeted",
        )
        result = task.run()
        first, second = (b["response_format"]["json_schema"]["schema"] for b in server.requests)
    assert result.success and result.attempts == 2
    assert first["properties"]["end_hour"]["maximum"] == 23  # the output schema as is
    assert list(second["properties"]) == ["name", "start_hour", "end_hour"]
    assert second["properties"]["name"] == {"const": "nightly"}
    assert second["properties"]["start_hour"] == {"const": 22}
    assert second["properties"]["end_hour"]["exclusiveMinimum"] == 22
    contexts = [r.envelope.context for r in store.iter_all()]
    assert contexts[1]["strategy"] == "targeted" and contexts[1]["retry_for"] == "semantic_error"


def test_history_resends_the_whole_conversation(tmp_path: Path) -> None:
    with fake_openai(
        chat_answer("not json"), chat_answer(BAD_PERIOD), chat_answer(VALID)
    ) as server:
        task, _, _ = make_task(
            server.base_url,
            tmp_path,
            output_schema=Strategy,
            retry_strategy="history",
        )
        assert task.run().success
        third = server.requests[2]["messages"]
    assert [m["role"] for m in third] == ["user", "assistant", "user", "assistant", "user"]
    assert third[1]["content"] == "not json" and third[3]["content"] == BAD_PERIOD


def test_auto_default_sends_the_schema_and_decodes_the_failing_field_again(
    tmp_path: Path,
) -> None:
    with fake_openai(chat_answer(BAD_PERIOD), chat_answer(VALID)) as server:
        task, store, _ = make_task(
            server.base_url, tmp_path, output_schema=Strategy, agent_options={"seed": 5}
        )
        result = task.run()
        bodies = server.requests
    assert result.success and result.attempts == 2
    assert all(b["response_format"]["type"] == "json_schema" for b in bodies)
    assert bodies[1]["messages"] == bodies[0]["messages"]  # the same prompt, a fresh draw
    assert [b["seed"] for b in bodies] == [5, 5 + 7919]
    # a range error: the valid fields kept, only the period decoded again
    retry_schema = bodies[1]["response_format"]["json_schema"]["schema"]
    assert retry_schema["properties"]["name"] == {"const": "rsi_cross"}
    assert list(retry_schema["properties"])[-1] == "period"
    retry = [r.envelope.context for r in store.iter_all()][1]
    assert retry == {
        "strategy": "targeted",
        "constrained": True,
        "retry_for": "range_violation",
    } | {k: v for k, v in retry.items() if k not in ("strategy", "constrained", "retry_for")}


def test_auto_sends_no_schema_again_to_an_endpoint_that_rejects_it(tmp_path: Path) -> None:
    rejected = Reply(400, {"error": {"message": "Unrecognized request argument: response_format"}})
    with fake_openai(rejected, chat_answer(VALID)) as server:
        task, _, lines = make_task(server.base_url, tmp_path, output_schema=Strategy)
        result = task.run()
        bodies = server.requests
    assert result.success and len(bodies) == 2
    assert "response_format" in bodies[0] and "response_format" not in bodies[1]
    assert any("the schema was not usable" in line for line in lines)


def test_an_explicit_schema_the_endpoint_rejects_is_an_invalid_request(tmp_path: Path) -> None:
    rejected = Reply(400, {"error": {"message": "Unrecognized request argument: response_format"}})
    with fake_openai(rejected, chat_answer(VALID)) as server:
        task, _, _ = make_task(
            server.base_url,
            tmp_path,
            output_schema=Strategy,
            constrained=True,
        )
        result = task.run()
        sent = len(server.requests)
    assert result.status is Status.INVALID_REQUEST and sent == 1
    assert "response_format" in result.error_message


def test_auto_means_feedback_for_cli_agents(tmp_path: Path) -> None:
    spec = AgentTaskSpec(agent="claude", prompt="p", output_schema=Strategy)
    config = AutofixConfig(validation=ValidationSettings(report_dir=str(tmp_path)))
    policy = AgentTask(spec, config=config, trace=TraceContext(trace_id="t"))._policy()
    assert (policy.strategy, policy.constrained) == ("feedback", False)
    assert config.validation.strategy == "auto"
    resolved = AttemptPolicy().resolved(samples=True)
    assert (resolved.strategy, resolved.constrained, resolved.schema_optional) == (
        "adaptive",
        True,
        True,
    )


def test_strategy_from_config_and_unknown_names() -> None:
    policy = AttemptPolicy.from_settings(ValidationSettings(strategy="feedback+resample"))
    assert policy.strategy == "feedback+resample"
    with pytest.raises(ValueError, match="unknown retry strategy 'magic'"):
        AttemptPolicy(strategy="magic")


def test_schema_shapes_for_llama_cpp() -> None:
    schema = Strategy.model_json_schema()
    chat = ClientRequest.from_json(
        {
            "base_url": "http://x/v1",
            "json_schema": schema,
            "constrained": True,
            "constrained_as": "json_object",
        }
    ).body()
    assert chat["response_format"] == {"type": "json_object", "schema": schema}
    unconstrained = ClientRequest.from_json({"base_url": "http://x/v1", "json_schema": schema})
    assert "response_format" not in unconstrained.body()
    completion = ClientRequest.from_json(
        {
            "base_url": "http://x/v1",
            "json_schema": schema,
            "constrained": True,
            "mode": "completions",
        }
    ).body()
    assert "response_format" not in completion and "root ::=" in completion["grammar"]
    with pytest.raises(ValueError, match="constrained_as must be"):
        ClientRequest.from_json({"base_url": "http://x/v1", "constrained_as": "regex"})


def test_local_llm_discover_dag_parses_and_keeps_the_newline_stop() -> None:
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "airflow_dags" / "local_llm_discover.py"
    spec = importlib.util.spec_from_file_location("local_llm_discover_dag", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    dag = next(value for value in vars(module).values() if type(value).__name__ == "DAG")
    task = dag.task_dict["discover_tests"]
    assert task.agent == "openai" and task.agent_options["mode"] == "completions"
    assert task.retry_strategy == "auto"
    assert dag.jinja_environment_kwargs == {"keep_trailing_newline": True}
    rendered = dag.get_template_env().from_string("\n").render()
    assert rendered == "\n"  # the stop sequence survives templating


def test_operator_takes_base_url_and_key_from_an_airflow_connection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from autofix.operators import AIWrapperOperator
    from autofix.redact import redact

    key = "sk-conn-Hq7Vb2Lm9Xc4Rt8Wz1"
    monkeypatch.setenv(
        "AIRFLOW_CONN_MY_LLM",
        json.dumps(
            {
                "conn_type": "http",
                "host": "127.0.0.1",
                "port": 8013,
                "schema": "http",
                "password": key,
            }
        ),
    )
    op = AIWrapperOperator(
        task_id="t",
        prompt="p",
        agent="openai",
        conn_id="my_llm",
        retry_strategy="resample",
        agent_options={"api_key_env": "LLM_KEY"},
    )
    env, options = op._connection_settings()
    assert env == {"LLM_KEY": key} and options == {"base_url": "http://127.0.0.1:8013/v1"}
    assert key not in redact(f"token {key}")  # registered as a secret
    assert op.retry_strategy == "resample"
    with pytest.raises(ValueError, match="unknown retry strategy"):
        AIWrapperOperator(task_id="u", prompt="p", agent="openai", retry_strategy="guess")
