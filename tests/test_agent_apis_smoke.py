"""Smoke tests for the scripted loopback APIs (tests/agent_apis) and the real agent CLIs.

The server tests need nothing but the standard library. The CLI tests run one success scenario
per real CLI and are skipped, with the reason, when ``make agent-clis`` has not installed them.
The full scenario matrix is replayed by tests/agents/capture.py.
"""

from __future__ import annotations

import http.client
import json
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from agent_apis import anthropic, gemini, openai
from agent_apis.clis import CLIS, Sandbox, missing_reason, run
from agent_apis.core import Reply, Scenario, ScriptedServer
from agent_apis.scenarios import Context, cases_by_key

SERVERS: dict[str, type[ScriptedServer]] = {
    "claude": anthropic.AnthropicServer,
    "codex": openai.OpenAIResponsesServer,
    "gemini": gemini.GeminiServer,
}


def _post(url: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", **(headers or {})},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _sse_data(raw: bytes) -> list[Any]:
    return [
        json.loads(line[len("data: ") :])
        for line in raw.decode().splitlines()
        if line.startswith("data: ")
    ]


def test_anthropic_server_streams_then_repeats_the_last_reply() -> None:
    scenario = Scenario(
        "429 then text",
        [anthropic.error(429, "slow down", headers={"retry-after": "1"}), anthropic.text("pong")],
    )
    with anthropic.AnthropicServer(scenario) as api:
        url = f"{api.base_url}/v1/messages?beta=true"
        status, body = _post(url, {"stream": True}, {"x-api-key": "sk-ant-secret"})
        assert status == 429
        assert json.loads(body)["error"]["type"] == "rate_limit_error"
        status, body = _post(url, {"stream": True})
        events = _sse_data(body)
        assert status == 200
        assert events[0]["type"] == "message_start"
        assert events[-2]["delta"]["stop_reason"] == "end_turn"
        text = "".join(
            e["delta"].get("text", "") for e in events if e["type"] == "content_block_delta"
        )
        assert text == "pong"
        status, body = _post(url, {"stream": False})  # the last reply repeats, as JSON this time
        assert json.loads(body)["content"] == [{"type": "text", "text": "pong"}]
    assert [r.status for r in api.model_requests()] == [429, 200, 200]
    assert api.requests[0].headers["x-api-key"] == "<redacted>"
    assert api.requests[0].query == {"beta": "true"}


def test_openai_server_reports_a_failed_response_in_stream() -> None:
    failed = openai.response(terminal="failed", error_code="context_length_exceeded")
    with openai.OpenAIResponsesServer(Scenario("ctx", [failed])) as api:
        status, body = _post(f"{api.base_url}/responses", {"stream": True})
    events = _sse_data(body)
    assert status == 200
    assert events[-1]["type"] == "response.failed"
    assert events[-1]["response"]["error"]["code"] == "context_length_exceeded"
    assert [e["sequence_number"] for e in events] == list(range(len(events)))


def test_gemini_server_drops_the_stream_mid_answer() -> None:
    cut = gemini.text("a long answer that never ends", drop_after=1)
    with gemini.GeminiServer(Scenario("drop", [cut])) as api:
        models = f"{api.base_url}/v1beta/models/gemini-2.5-flash"
        request = urllib.request.Request(
            f"{models}:streamGenerateContent?alt=sse", data=b"{}", method="POST"
        )
        with (
            pytest.raises(http.client.IncompleteRead),
            urllib.request.urlopen(request, timeout=10) as response,
        ):
            response.read()  # the chunked body ends without its final chunk
        status, body = _post(f"{models}:countTokens", {})
    assert api.model_requests()[0].outcome == "dropped"
    assert api.model_requests()[0].events_sent == 1
    assert (status, json.loads(body)) == (200, {"totalTokens": 1800})


def test_every_scenario_builds() -> None:
    cases = cases_by_key()
    assert len(cases) > 100
    ctx = Context(work=Path(tempfile.gettempdir()))
    for case in cases.values():
        scenario = case.scenario(ctx)
        assert scenario is None or all(isinstance(r, Reply) for r in scenario.replies)


MISSING = missing_reason()


@pytest.mark.e2e
@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
@pytest.mark.parametrize("cli", ["claude", "codex", "gemini"])
def test_real_cli_answers_from_the_fake_api(cli: str, tmp_path: Path) -> None:
    case = cases_by_key()[f"{cli}/success_text"]
    sandbox = Sandbox(tmp_path).create()
    scenario = case.scenario(Context(work=sandbox.work))
    assert scenario is not None
    with SERVERS[cli](scenario) as api:
        invocation = CLIS[cli].invocation(api.base_url, sandbox, case.options)
        result = run(invocation, timeout_s=60)
    assert result.exit_code == 0, result.stderr.decode(errors="replace")[-2000:]
    assert b"pong" in result.stdout
    model_calls = api.model_requests()
    assert [r.status for r in model_calls] == [200]
    headers = model_calls[0].headers
    credential = next(
        headers[k] for k in ("x-api-key", "authorization", "x-goog-api-key") if k in headers
    )
    assert credential == "<redacted>"
