"""``agent="openai"``: any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp server, gateways).

The request runs in the bundled client subprocess (``autofix.agents.openai.client``), so it goes
through the same runner, parser, validation and audit path as the CLI agents. Settings are the
``agent_options`` (OpenAIOptions). Per attempt, the retry strategy adds a seed offset
(resample), the conversation (history) and whether the schema is a constraint
(``AgentRequest.attempt``; see ``autofix.validation.strategies``).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, cast

from pydantic import with_config
from typing_extensions import TypedDict

from autofix.agents.base import AgentFormat, AgentOutcome, AgentRequest, EventParser, Invocation
from autofix.agents.events import JsonEventParser, add_error, as_float, as_int
from autofix.agents.limits import LIMIT_NAMES, LimitSupport
from autofix.agents.openai.client import DEFAULT_API_KEY_ENV, ClientRequest, ConstrainedAs, Mode
from autofix.finish import normalise_finish_reason
from autofix.result import FailureKind, FinishReason, RunStatus, TokenUsage

BASE_URL_ENVS = ("AUTOFIX_OPENAI_BASE_URL", "OPENAI_BASE_URL")
DEFAULT_BASE_URL = "https://api.openai.com/v1"
CLIENT_MODULE = "autofix.agents.openai.client"


@with_config(extra="forbid")
class OpenAIOptions(TypedDict, total=False):
    """``agent_options`` for ``agent="openai"``."""

    # Default: $AUTOFIX_OPENAI_BASE_URL, $OPENAI_BASE_URL, then https://api.openai.com/v1.
    base_url: str
    model: str  # when the task sets no model
    mode: Mode  # "chat" (default) or "completions" (base models: completion-style prompts)
    temperature: float
    seed: int
    max_tokens: int
    stop: list[str]
    timeout_s: float
    max_retries: int
    # The env var holding the key (default OPENAI_API_KEY); filled from ``conn_id`` by the operator.
    api_key_env: str
    extra_body: dict[str, Any]
    # How a schema travels when it is a constraint: "json_schema" (OpenAI, vLLM; the chat
    # default), "json_object" (llama-cpp-python chat) or "grammar" (llama.cpp GBNF; the
    # completions default).
    constrained_as: ConstrainedAs


_CLIENT_KEYS = tuple(
    key for key in OpenAIOptions.__annotations__ if key not in ("base_url", "model", "seed")
)

_KINDS: dict[str, FailureKind] = {
    "rate_limit": FailureKind.RATE_LIMIT,
    "server_error": FailureKind.SERVER_ERROR,
    "timeout": FailureKind.TIMEOUT,
    "connection": FailureKind.CONNECTION,
    "auth": FailureKind.AUTH,
    "invalid_request": FailureKind.INVALID_REQUEST,
    "quota_exhausted": FailureKind.QUOTA_EXHAUSTED,
    "api_error": FailureKind.API_ERROR,
}


def base_url_from(options: Mapping[str, Any], environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    explicit = options.get("base_url")
    if isinstance(explicit, str) and explicit:
        return explicit
    for name in BASE_URL_ENVS:
        if env.get(name):
            return env[name]
    return DEFAULT_BASE_URL


def client_request(request: AgentRequest) -> ClientRequest:
    """The client's request for this AgentRequest (raises ValueError on bad options)."""
    options = cast(OpenAIOptions, request.options)
    attempt = request.attempt
    data: dict[str, Any] = {
        "base_url": base_url_from(options),
        "prompt": request.prompt,
        "model": request.model or options.get("model"),
        "json_schema": dict(attempt.schema)
        if attempt.schema is not None
        else request.output_schema,
        "seed": attempt.seed_for(options.get("seed")),
        "messages": [dict(m) for m in attempt.messages] if attempt.messages is not None else None,
        "constrained": attempt.constrained,
        "schema_optional": attempt.schema_optional or None,
    }
    for key in _CLIENT_KEYS:
        data[key] = options.get(key)
    data = {key: value for key, value in data.items() if value is not None}
    data.setdefault("api_key_env", DEFAULT_API_KEY_ENV)
    return ClientRequest.from_json(data)


class OpenAIParser(JsonEventParser):
    """Client event lines → AgentOutcome."""

    agent_name = "openai"

    def __init__(self) -> None:
        super().__init__()
        self._response: dict[str, Any] | None = None
        self._error: dict[str, Any] | None = None
        self._retries: list[str] = []

    def _handle(self, event: dict[str, Any]) -> None:
        self._events += 1
        name = event.get("event")
        if name == "response":
            self._response = event
        elif name == "error":
            self._error = event
        elif name == "retry":
            self._retries.append(str(event.get("reason") or "transient error"))

    def _finish(self, exit_code: int | None, stderr_tail: str) -> AgentOutcome:
        for value in self._reader.finish():
            if isinstance(value, dict):
                self._handle(value)
        outcome = AgentOutcome(events=self._events, non_json_lines=self._reader.non_json_lines)
        response, error = self._response, self._error
        if response is not None:
            text = response.get("text")
            outcome.final_text = text if isinstance(text, str) else ""
            raw_usage = response.get("usage")
            usage: dict[str, Any] = raw_usage if isinstance(raw_usage, dict) else {}
            outcome.usage = TokenUsage(
                input_tokens=as_int(usage.get("prompt_tokens")),
                output_tokens=as_int(usage.get("completion_tokens")),
            )
            model = response.get("model")
            outcome.model = model if isinstance(model, str) else None
            session = response.get("id")
            outcome.session_id = session if isinstance(session, str) else None
            outcome.terminal_event = "response"
            refusal = response.get("refusal")
            if isinstance(refusal, str) and refusal:
                outcome.run_status = RunStatus.COMPLETED
                outcome.finish_reason = FinishReason.REFUSAL
                add_error(outcome.errors, f"refusal: {refusal}")
                return outcome
            outcome.run_status = RunStatus.COMPLETED
            # An unknown finish reason is not "stop": validation decides on the text alone.
            outcome.finish_reason = normalise_finish_reason(response.get("finish_reason"))
            return outcome
        if error is not None:
            kind = _KINDS.get(str(error.get("kind")), FailureKind.UNKNOWN)
            outcome.run_status = (
                RunStatus.LIMIT_REACHED if kind is FailureKind.RATE_LIMIT else RunStatus.FAILED
            )
            outcome.finish_reason = FinishReason.ERROR
            outcome.failure_kind = kind
            outcome.retry_after_s = as_float(error.get("retry_after_s"))
            outcome.terminal_event = f"error/{kind.value}"
            message = str(error.get("message") or kind.value)
            tries = error.get("tries")
            if isinstance(tries, int) and tries > 1:
                message += f" (tried {tries} times)"
            add_error(outcome.errors, message)
            return outcome
        outcome.run_status = RunStatus.FAILED
        outcome.finish_reason = FinishReason.ERROR
        ended = "no exit code" if exit_code is None else f"exit {exit_code}"
        add_error(outcome.errors, f"openai client: no response or error event ({ended})")
        for line in self._reader.non_json_tail[-2:]:
            add_error(outcome.errors, line)
        if stderr_tail.strip():
            add_error(outcome.errors, stderr_tail.strip().splitlines()[-1])
        return outcome


class OpenAIFormat(AgentFormat):
    """Runs ``python -m autofix.agents.openai.client`` with the request on stdin.

    ``base_command`` replaces the interpreter part (e.g. another venv's python).
    """

    name: ClassVar[str] = "openai"
    options_type: ClassVar[type[Mapping[str, Any]]] = OpenAIOptions
    # One chat or completion request per call: no turns, tools, MCP servers or CLI of its own.
    limit_support: ClassVar[LimitSupport] = LimitSupport(
        missing=MappingProxyType(
            {
                name: "an OpenAI-compatible endpoint gets one request per call, not an agent run"
                for name in LIMIT_NAMES
            }
        )
    )
    samples: ClassVar[bool] = True

    def invocation(self, request: AgentRequest, base_command: list[str] | None) -> Invocation:
        payload = client_request(request)
        argv = list(base_command) if base_command else [sys.executable, "-m", CLIENT_MODULE]
        body = {key: getattr(payload, key) for key in payload.__dataclass_fields__}
        return Invocation(argv=argv, stdin=json.dumps(body, ensure_ascii=False) + "\n")

    def parser(self) -> EventParser:
        return OpenAIParser()

    def completes_text(self, options: Mapping[str, Any]) -> bool:
        return options.get("mode") == "completions"
