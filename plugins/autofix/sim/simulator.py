"""The offline scripted agent: plays a scenario YAML as if it were claude, codex, gemini or the wrapper.

The scenario schema is documented in docs/simulator.md. ``autofix-agent-sim`` (``sim.main``)
parses the command line and calls :func:`play`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from autofix.errors import SimError

SCENARIOS_DIR = Path(__file__).resolve().parent / "scenarios"
STATE_DIR_ENV = "AUTOFIX_SIM_STATE_DIR"
STATE_FILE = ".autofix-sim-state.json"

OutputFormat = Literal["claude", "claude-json", "codex", "gemini", "gemini-stream", "wrapper"]
OUTPUT_FORMATS: tuple[str, ...] = (
    "claude",
    "claude-json",
    "codex",
    "gemini",
    "gemini-stream",
    "wrapper",
)
Failure = Literal[
    "usage_limit",
    "rate_limit",
    "auth",
    "api_error",
    "server_error",
    "invalid_request",
    "max_turns",
    "budget",
    "structured_output",
    "refusal",
    "max_tokens",
]

# Realistic stderr noise, as the real CLIs and their tools print it.
NOISE_PRESETS: dict[str, str] = {
    "node_punycode": (
        "(node:{pid}) [DEP0040] DeprecationWarning: The `punycode` module is deprecated. "
        "Please use a userland alternative instead.\n"
        "(Use `node --trace-deprecation ...` to show where the warning was created)"
    ),
    "node_experimental": (
        "(node:{pid}) ExperimentalWarning: CommonJS module /usr/lib/node_modules/npm/node_modules/debug/src/node.js "
        "is loading ES Module /usr/lib/node_modules/npm/node_modules/supports-color/index.js using require().\n"
        "Support for loading ES Module in require() is an experimental feature and might change at any time\n"
        "(Use `node --trace-warnings ...` to show where the warning was created)"
    ),
    "npm_warn": (
        "npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory. Do not use it. "
        "Check out lru-cache if you want a good and tested way to coalesce async requests by a key value, "
        "which is much more comprehensive and powerful.\n"
        "npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported"
    ),
    "pip_root": (
        "WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour "
        "with the system package manager, possibly rendering your system unusable. It is recommended to use "
        "a virtual environment instead: https://pip.pypa.io/warnings/venv. Use the --root-user-action option "
        "if you know what you are doing and want to suppress this warning."
    ),
    "python_deprecation": (
        "/usr/lib/python3/dist-packages/example/compat.py:12: DeprecationWarning: pkg_resources is deprecated "
        "as an API. See https://setuptools.pypa.io/en/latest/pkg_resources.html\n"
        "  import pkg_resources"
    ),
    "git_clone": "Cloning into 'example-project'...",
}


# -- scenario schema ------------------------------------------------------------------------


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Replacement(_Model):
    old: str
    new: str
    count: int = Field(default=1, ge=0)  # 0 = every occurrence


class FileEdit(_Model):
    path: str
    content: str | None = None  # write the whole file
    replace: list[Replacement] = Field(default_factory=list)  # patch old → new
    append: str | None = None
    delete: bool = False


class ToolCall(_Model):
    name: str = "Bash"
    input: dict[str, Any] = Field(default_factory=lambda: {"command": "ls"})
    output: str = ""
    is_error: bool = False


class Usage(_Model):
    input_tokens: int = Field(default=1200, ge=0)
    output_tokens: int = Field(default=80, ge=0)
    cached_input_tokens: int = Field(default=0, ge=0)


class Lines(_Model):
    count: int = Field(ge=0)
    stream: Literal["stdout", "stderr"] = "stdout"
    text: str = "sim output line {n}"


class Crash(_Model):
    after_events: int = Field(default=1, ge=0)  # event lines written before the crash
    signal: str | None = None  # e.g. SIGKILL, SIGSEGV; otherwise exit with exit_code
    exit_code: int = 1

    @field_validator("signal")
    @classmethod
    def _known_signal(cls, value: str | None) -> str | None:
        if value is not None:
            _signal_number(value)
        return value


SIM_LIMIT_RESET_S = 3  # the scripted subscription limit's reset, seconds from now


class Hang(_Model):
    after_events: int = Field(default=1, ge=0)
    seconds: float = Field(default=3600, gt=0)
    grandchild: bool = False  # also start a child process that hangs (process-group kill tests)
    ignore_sigterm: bool = False  # only SIGKILL stops it (grace-period tests)


class Step(_Model):
    # When this step plays: all given conditions must hold; the first matching step wins.
    attempt: int | list[int] | None = None
    match: str | None = None  # regex searched in the prompt
    resumed: bool | None = None  # only when (not) resuming a session

    # What the agent reports.
    text: str | None = "Done."
    structured_output: Any = None
    session_id: str | None = None
    cost_usd: float = Field(default=0.0123, ge=0)
    usage: Usage = Field(default_factory=Usage)
    num_turns: int = Field(default=1, ge=0)
    failure: Failure | None = None
    message: str | None = None  # overrides the failure's default wording
    tools: list[ToolCall] = Field(default_factory=list)
    emit: bool = True  # False: no events at all (e.g. a CLI that dies on bad flags)

    # Side effects and process behaviour.
    stderr_noise: list[str] = Field(default_factory=list)
    stderr: str | None = None  # raw text, e.g. a traceback (written after the events)
    stdout: str | None = None  # raw non-JSON text written before the events
    lines: Lines | None = None
    files: list[FileEdit] = Field(default_factory=list)
    git_commit: str | None = None
    sleep: float = Field(default=0.0, ge=0)
    event_delay: float = Field(default=0.0, ge=0)
    crash: Crash | None = None
    hang: Hang | bool = False
    exit_code: int | None = None  # default: what the real CLI exits with for this outcome

    @field_validator("match")
    @classmethod
    def _regex(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"invalid regex {value!r}: {exc}") from exc
        return value

    @field_validator("stderr_noise")
    @classmethod
    def _presets(cls, value: list[str]) -> list[str]:
        unknown = [name for name in value if name not in NOISE_PRESETS]
        if unknown:
            raise ValueError(
                f"unknown stderr_noise preset(s) {unknown}; valid: {sorted(NOISE_PRESETS)}"
            )
        return value

    def hang_spec(self) -> Hang | None:
        if isinstance(self.hang, Hang):
            return self.hang
        return Hang() if self.hang else None


class Scenario(_Model):
    name: str | None = None
    description: str | None = None
    format: OutputFormat = "claude"
    model: str = "sim-model-1"
    session_id: str | None = None
    steps: list[Step] = Field(min_length=1)


def resolve_scenario(value: str | os.PathLike[str]) -> Path:
    """A path, or the bare name of a bundled scenario (``usage_limit``)."""
    text = os.fspath(value)
    path = Path(text).expanduser()
    if path.is_file():
        return path.resolve()
    if "/" not in text and os.sep not in text:
        for candidate in (SCENARIOS_DIR / text, SCENARIOS_DIR / f"{text}.yaml"):
            if candidate.is_file():
                return candidate
    bundled = ", ".join(sorted(p.stem for p in SCENARIOS_DIR.glob("*.yaml")))
    raise SimError(f"scenario not found: {text} (bundled scenarios: {bundled})")


def load_scenario(path: Path) -> Scenario:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SimError(f"cannot read scenario {path}: {exc}") from exc
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        raise SimError(f"invalid scenario {path}:\n{exc}") from exc


# -- attempt counter --------------------------------------------------------------------------


def default_state_dir(scenario_path: Path) -> Path:
    env = os.environ.get(STATE_DIR_ENV)
    if env:
        return Path(env)
    if os.access(scenario_path.parent, os.W_OK) and scenario_path.parent != SCENARIOS_DIR:
        return scenario_path.parent
    return Path(tempfile.gettempdir()) / "autofix-sim"


@contextlib.contextmanager
def _locked_state(state_dir: Path) -> Iterator[tuple[dict[str, int], Path]]:
    state_dir.mkdir(parents=True, exist_ok=True)
    path = state_dir / STATE_FILE
    with open(state_dir / (STATE_FILE + ".lock"), "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # parallel tasks share one counter file
        try:
            state: dict[str, int] = json.loads(path.read_text()) if path.exists() else {}
        except ValueError:
            state = {}
        yield state, path


def next_attempt(scenario_path: Path, operation: str, state_dir: Path) -> int:
    key = f"{scenario_path}::{operation}"
    with _locked_state(state_dir) as (state, path):
        state[key] = int(state.get(key, 0)) + 1
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(state, indent=1, sort_keys=True))
        os.replace(tmp, path)
        return state[key]


def reset_attempts(scenario_path: Path, state_dir: Path, operation: str | None = None) -> None:
    prefix = f"{scenario_path}::"
    with _locked_state(state_dir) as (state, path):
        for key in [k for k in state if k.startswith(prefix)]:
            if operation is None or key == prefix + operation:
                del state[key]
        path.write_text(json.dumps(state, indent=1, sort_keys=True))


def choose_step(scenario: Scenario, attempt: int, prompt: str, resumed: bool) -> Step:
    """First step whose conditions hold; if none does, the last step that has no prompt regex."""
    for step in scenario.steps:
        if step.attempt is not None:
            wanted = step.attempt if isinstance(step.attempt, list) else [step.attempt]
            if attempt not in wanted:
                continue
        if step.match is not None and not re.search(step.match, prompt):
            continue
        if step.resumed is not None and step.resumed != resumed:
            continue
        return step
    fallbacks = [s for s in scenario.steps if s.match is None and s.resumed is None]
    return fallbacks[-1] if fallbacks else scenario.steps[-1]


# -- events per format ------------------------------------------------------------------------


@dataclass
class Context:
    scenario: Scenario
    step: Step
    fmt: str
    prompt: str
    session_id: str
    attempt: int
    cwd: str


_CLAUDE_FAILURES: dict[str, tuple[str, int | None, str]] = {
    # failure: (result text, api_error_status, assistant error code)
    "usage_limit": ("You've hit your limit · resets 5pm (UTC)", 429, "rate_limit"),
    "rate_limit": ("API Error: Rate limit reached", 429, "rate_limit"),
    "auth": ("Invalid API key · Please run /login", 401, "authentication_failed"),
    "server_error": (
        'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
        529,
        "server_error",
    ),
    "invalid_request": (
        'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long"}}',
        400,
        "invalid_request",
    ),
    "api_error": ("API Error: Request was aborted.", None, "unknown"),
}
_CLAUDE_ERROR_SUBTYPES: dict[str, tuple[str, str]] = {
    "max_turns": ("error_max_turns", "Reached maximum number of turns ({turns})"),
    "budget": ("error_max_budget_usd", "Reached maximum budget ($0.50)"),
    "structured_output": (
        "error_max_structured_output_retries",
        "Failed to provide valid structured output after 5 attempts",
    ),
}


def _answer_text(ctx: Context) -> str | None:
    step = ctx.step
    if step.text is None and step.structured_output is not None:
        return json.dumps(step.structured_output)
    if step.failure == "max_tokens" and step.text:
        return step.text[: max(1, len(step.text) // 2)]
    return step.text


def claude_result(ctx: Context) -> dict[str, Any]:
    step = ctx.step
    result: dict[str, Any] = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "duration_ms": 1500 + 700 * step.num_turns,
        "duration_api_ms": 1400 + 650 * step.num_turns,
        "num_turns": step.num_turns,
        "session_id": ctx.session_id,
        "total_cost_usd": step.cost_usd,
        "usage": {
            "input_tokens": max(0, step.usage.input_tokens - step.usage.cached_input_tokens),
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": step.usage.cached_input_tokens,
            "output_tokens": step.usage.output_tokens,
            "service_tier": "standard",
        },
        "permission_denials": [],
        "uuid": str(uuid.uuid4()),
    }
    failure = step.failure
    if failure in _CLAUDE_ERROR_SUBTYPES:
        subtype, message = _CLAUDE_ERROR_SUBTYPES[failure]
        result.update(
            subtype=subtype,
            is_error=True,
            stop_reason=None,
            errors=[step.message or message.format(turns=max(step.num_turns - 1, 1))],
            terminal_reason="max_turns" if failure == "max_turns" else "error",
        )
        return result
    if failure in _CLAUDE_FAILURES:
        error_text, status, _ = _CLAUDE_FAILURES[failure]
        result.update(
            is_error=True,
            result=step.message or error_text,
            stop_reason="stop_sequence",
            api_error_status=status,
            terminal_reason="api_error",
            total_cost_usd=0,
        )
        return result
    stop = {"refusal": "refusal", "max_tokens": "max_tokens"}.get(failure or "", "end_turn")
    text = _answer_text(ctx)
    if failure == "refusal" and step.text == "Done.":
        text = step.message or "I can't help with that request."
    result.update(result=text or "", stop_reason=stop, terminal_reason="completed")
    if step.structured_output is not None and failure is None:
        result["structured_output"] = step.structured_output
    return result


def claude_events(ctx: Context) -> list[dict[str, Any]]:
    step, sid, model = ctx.step, ctx.session_id, ctx.scenario.model
    events: list[dict[str, Any]] = [
        {
            "type": "system",
            "subtype": "init",
            "cwd": ctx.cwd,
            "session_id": sid,
            "tools": ["Task", "Bash", "Glob", "Grep", "Read", "Edit", "Write"],
            "mcp_servers": [],
            "model": model,
            "permissionMode": "bypassPermissions",
            "apiKeySource": "none",
            "claude_code_version": "2.1.999-sim",
            "uuid": str(uuid.uuid4()),
        }
    ]

    def assistant(content: list[dict[str, Any]], stop: str | None, **extra: Any) -> dict[str, Any]:
        return {
            "type": "assistant",
            "message": {
                "model": model,
                "id": f"msg_sim_{uuid.uuid4().hex[:20]}",
                "type": "message",
                "role": "assistant",
                "content": content,
                "stop_reason": stop,
                "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 5},
            },
            "parent_tool_use_id": None,
            "session_id": sid,
            "uuid": str(uuid.uuid4()),
            **extra,
        }

    for index, tool in enumerate(step.tools):
        tool_id = f"toolu_sim_{ctx.attempt}_{index}"
        events.append(
            assistant(
                [{"type": "tool_use", "id": tool_id, "name": tool.name, "input": tool.input}], None
            )
        )
        events.append(
            {
                "type": "user",
                "message": {
                    "role": "user",
                    "content": [
                        {
                            "tool_use_id": tool_id,
                            "type": "tool_result",
                            "content": tool.output,
                            "is_error": tool.is_error,
                        }
                    ],
                },
                "parent_tool_use_id": None,
                "session_id": sid,
                "uuid": str(uuid.uuid4()),
            }
        )
    result = claude_result(ctx)
    failure = step.failure
    if failure in ("rate_limit", "server_error"):
        events.append(
            {
                "type": "system",
                "subtype": "api_retry",
                "attempt": 1,
                "max_retries": 10,
                "retry_delay_ms": 500,
                "error_status": result.get("api_error_status"),
                "error": failure,
                "session_id": sid,
            }
        )
    if failure in _CLAUDE_FAILURES:
        code = _CLAUDE_FAILURES[failure][2]
        events.append(
            {
                **assistant([{"type": "text", "text": result["result"]}], "stop_sequence"),
                "error": code,
                "is_api_error_message": True,
            }
        )
        events[-1]["message"]["model"] = "<synthetic>"
    elif step.structured_output is not None and failure is None:
        events.append(
            assistant(
                [
                    {
                        "type": "tool_use",
                        "id": "toolu_sim_so",
                        "name": "StructuredOutput",
                        "input": step.structured_output,
                    }
                ],
                None,
            )
        )
        events.append(
            assistant(
                [{"type": "text", "text": result.get("result", "")}], result.get("stop_reason")
            )
        )
    elif "result" in result:
        events.append(
            assistant([{"type": "text", "text": result["result"]}], result.get("stop_reason"))
        )
    if failure == "usage_limit":
        events.append(
            {
                "type": "rate_limit_event",
                "rate_limit_info": {
                    "status": "rejected",
                    # Soon: autofix makes Airflow's next try wait until the reset (retry_policy),
                    # and the demo should show that wait, not sit through an hour of it.
                    "resetsAt": int(time.time()) + SIM_LIMIT_RESET_S,
                    "rateLimitType": "five_hour",
                },
                "uuid": str(uuid.uuid4()),
                "session_id": sid,
            }
        )
    events.append(result)
    return events


_CODEX_FAILURES: dict[str, str] = {
    "auth": "unexpected status 401 Unauthorized: Missing bearer or basic authentication in header, url: https://api.openai.com/v1/responses",
    "rate_limit": "exceeded retry limit, last status: 429 Too Many Requests",
    "usage_limit": "You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing) or try again in 2 hours.",
    "server_error": "unexpected status 500 Internal Server Error: upstream error",
    "invalid_request": "unexpected status 400 Bad Request: Invalid schema for response_format 'codex_output_schema'",
    "api_error": "stream error: stream disconnected before completion",
    "max_turns": "turn aborted: maximum number of model requests reached",
    "budget": "You exceeded your current quota, please check your plan and billing details.",
    "structured_output": "model output did not match the output schema",
    "max_tokens": "Incomplete response returned, reason: max_output_tokens",
}


def codex_events(ctx: Context) -> list[dict[str, Any]]:
    step = ctx.step
    events: list[dict[str, Any]] = [
        {"type": "thread.started", "thread_id": ctx.session_id},
        {"type": "turn.started"},
    ]
    item = 0
    for tool in step.tools:
        item_id = f"item_{item}"
        item += 1
        if tool.name.lower() in ("bash", "shell", "command"):
            command = str(tool.input.get("command", "ls"))
            base = {
                "id": item_id,
                "type": "command_execution",
                "command": f"bash -lc {json.dumps(command)}",
            }
            events.append(
                {
                    "type": "item.started",
                    "item": {
                        **base,
                        "aggregated_output": "",
                        "exit_code": None,
                        "status": "in_progress",
                    },
                }
            )
            done = {"aggregated_output": tool.output, "exit_code": 1 if tool.is_error else 0}
            events.append(
                {
                    "type": "item.completed",
                    "item": {**base, **done, "status": "failed" if tool.is_error else "completed"},
                }
            )
        else:
            call = {
                "id": item_id,
                "type": "mcp_tool_call",
                "server": "sim",
                "tool": tool.name,
                "arguments": tool.input,
            }
            events.append(
                {
                    "type": "item.started",
                    "item": {**call, "result": None, "error": None, "status": "in_progress"},
                }
            )
            outcome = {
                "result": {
                    "content": [{"type": "text", "text": tool.output}],
                    "structured_content": None,
                },
                "error": None,
            }
            events.append(
                {"type": "item.completed", "item": {**call, **outcome, "status": "completed"}}
            )
    failure = step.failure
    text = _answer_text(ctx)
    if failure == "refusal":
        refusal = step.message or "I can't help with that request."
        events.append(
            {
                "type": "item.completed",
                "item": {
                    "id": f"item_{item}",
                    "type": "agent_message",
                    "text": refusal,
                    "refusal": refusal,
                },
            }
        )
        events.append({"type": "turn.completed", "usage": _codex_usage(step)})
        return events
    if failure in (None, "max_tokens") and text is not None:
        events.append(
            {
                "type": "item.completed",
                "item": {"id": f"item_{item}", "type": "agent_message", "text": text},
            }
        )
    if failure is None:
        events.append({"type": "turn.completed", "usage": _codex_usage(step)})
        return events
    message = step.message or _CODEX_FAILURES[failure]
    if failure in ("auth", "rate_limit", "server_error"):
        events += [
            {"type": "error", "message": f"Reconnecting... {n}/3 ({message})"} for n in (1, 2, 3)
        ]
    events.append({"type": "error", "message": message})
    events.append({"type": "turn.failed", "error": {"message": message}})
    return events


def _codex_usage(step: Step) -> dict[str, int]:
    return {
        "input_tokens": step.usage.input_tokens,
        "cached_input_tokens": step.usage.cached_input_tokens,
        "output_tokens": step.usage.output_tokens,
    }


_GEMINI_FAILURES: dict[str, tuple[str, str, int]] = {
    # failure: (error type, message, exit code)
    "auth": (
        "Error",
        "The enforced authentication type is 'gemini-api-key', but the current type is 'oauth-personal'. "
        "Please re-authenticate with the correct type.",
        41,
    ),
    "invalid_request": (
        "FatalInputError",
        "No input provided via stdin. Input can be provided by piping data.",
        42,
    ),
    "max_turns": (
        "FatalTurnLimitedError",
        "Reached max session turns for this session. Increase the number of turns by specifying maxSessionTurns in settings.json.",
        53,
    ),
    "rate_limit": (
        "Error",
        "[API Error: got status: 429 Too Many Requests. Resource has been exhausted (e.g. check quota).]",
        1,
    ),
    "usage_limit": (
        "Error",
        "[API Error: You have exhausted your daily quota on this model. Quota resets at midnight Pacific time.]",
        1,
    ),
    "server_error": (
        "Error",
        "[API Error: got status: 503 Service Unavailable. The model is overloaded.]",
        1,
    ),
    "api_error": ("Error", "[API Error: An unexpected error occurred.]", 1),
    "budget": ("Error", "[API Error: billing account is not active for this project.]", 1),
    "structured_output": (
        "INVALID_STREAM",
        "Model stream ended with an invalid chunk or missing finish reason.",
        1,
    ),
    "refusal": ("INVALID_STREAM", "Model stream ended with finish reason SAFETY.", 1),
    "max_tokens": ("INVALID_STREAM", "Model stream ended with finish reason MAX_TOKENS.", 1),
}


def _gemini_stats(ctx: Context) -> dict[str, Any]:
    usage = ctx.step.usage
    prompt = usage.input_tokens
    return {
        "models": {
            ctx.scenario.model: {
                "api": {
                    "totalRequests": max(ctx.step.num_turns, 1),
                    "totalErrors": 0,
                    "totalLatencyMs": 1200,
                },
                "tokens": {
                    "input": prompt - usage.cached_input_tokens,
                    "prompt": prompt,
                    "candidates": usage.output_tokens,
                    "total": prompt + usage.output_tokens,
                    "cached": usage.cached_input_tokens,
                    "thoughts": 0,
                    "tool": 0,
                },
            }
        },
        "tools": {
            "totalCalls": len(ctx.step.tools),
            "totalSuccess": len(ctx.step.tools),
            "totalFail": 0,
        },
        "files": {"totalLinesAdded": 0, "totalLinesRemoved": 0},
    }


def gemini_json(ctx: Context) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(stdout document, stderr document): fatal errors go to stderr, stream errors to stdout."""
    failure = ctx.step.failure
    if failure is None:
        return {
            "session_id": ctx.session_id,
            "response": _answer_text(ctx) or "",
            "stats": _gemini_stats(ctx),
        }, None
    err_type, message, code = _GEMINI_FAILURES[failure]
    error = {"type": err_type, "message": ctx.step.message or message, "code": code}
    if err_type == "INVALID_STREAM":
        return {
            "session_id": ctx.session_id,
            "response": "",
            "stats": _gemini_stats(ctx),
            "error": error,
        }, None
    return None, {"session_id": ctx.session_id, "error": error}


def gemini_stream_events(ctx: Context) -> list[dict[str, Any]]:
    step = ctx.step
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    events: list[dict[str, Any]] = [
        {
            "type": "init",
            "timestamp": stamp,
            "session_id": ctx.session_id,
            "model": ctx.scenario.model,
        },
        {"type": "message", "timestamp": stamp, "role": "user", "content": ctx.prompt[:2000]},
    ]
    for index, tool in enumerate(step.tools):
        tool_id = f"{tool.name}__sim_{index}"
        events.append(
            {
                "type": "tool_use",
                "timestamp": stamp,
                "tool_name": tool.name,
                "tool_id": tool_id,
                "parameters": tool.input,
            }
        )
        events.append(
            {
                "type": "tool_result",
                "timestamp": stamp,
                "tool_id": tool_id,
                "status": "error" if tool.is_error else "success",
                "output": tool.output,
            }
        )
    usage = step.usage
    stats = {
        "total_tokens": usage.input_tokens + usage.output_tokens,
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cached": usage.cached_input_tokens,
        "input": usage.input_tokens - usage.cached_input_tokens,
        "duration_ms": 1200,
        "tool_calls": len(step.tools),
    }
    if step.failure is None:
        text = _answer_text(ctx) or ""
        half = len(text) // 2
        for part in (text[:half], text[half:]):
            if part:
                events.append(
                    {
                        "type": "message",
                        "timestamp": stamp,
                        "role": "assistant",
                        "content": part,
                        "delta": True,
                    }
                )
        events.append({"type": "result", "timestamp": stamp, "status": "success", "stats": stats})
        return events
    err_type, message, _ = _GEMINI_FAILURES[step.failure]
    events.append(
        {
            "type": "result",
            "timestamp": stamp,
            "status": "error",
            "error": {"type": err_type, "message": step.message or message},
            "stats": {**stats, "duration_ms": 0},
        }
    )
    return events


def wrapper_events(ctx: Context, run_id: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(events of the run, events after it). Python ``json.dumps`` style, naive UTC timestamps."""
    step, sid = ctx.step, ctx.session_id

    def event(name: str, **fields: Any) -> dict[str, Any]:
        return {
            "event": name,
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000000", time.gmtime()),
            **fields,
        }

    def stream(payload: dict[str, Any]) -> dict[str, Any]:
        return event("stream", run_id=run_id, payload=payload)

    run: list[dict[str, Any]] = [
        event(
            "run_started",
            run_id=run_id,
            options={"exit_on_complete": True},
            state="executing",
            cwd=ctx.cwd,
        ),
        stream(
            {
                "subtype": "init",
                "data": {
                    "type": "system",
                    "subtype": "init",
                    "cwd": ctx.cwd,
                    "session_id": sid,
                    "model": ctx.scenario.model,
                },
                "message_type": "SystemMessage",
            }
        ),
    ]
    for index, tool in enumerate(step.tools):
        tool_id = f"toolu_sim_{index}"
        run.append(
            stream(
                {
                    "content": [{"id": tool_id, "name": tool.name, "input": tool.input}],
                    "model": ctx.scenario.model,
                    "parent_tool_use_id": None,
                    "message_type": "AssistantMessage",
                }
            )
        )
        run.append(
            stream(
                {
                    "content": [
                        {"tool_use_id": tool_id, "content": tool.output, "is_error": tool.is_error}
                    ],
                    "parent_tool_use_id": None,
                    "message_type": "UserMessage",
                }
            )
        )
    result = claude_result(ctx)
    payload = {
        k: v
        for k, v in result.items()
        if k
        not in (
            "type",
            "uuid",
            "permission_denials",
            "terminal_reason",
            "api_error_status",
            "errors",
        )
    }
    payload["message_type"] = "ResultMessage"
    if "result" not in payload:
        payload["result"] = None
    text = result.get("result")
    if isinstance(text, str) and text:
        run.append(
            stream(
                {
                    "content": [{"text": text}],
                    "model": ctx.scenario.model,
                    "parent_tool_use_id": None,
                    "message_type": "AssistantMessage",
                }
            )
        )
    failure = step.failure
    after: list[dict[str, Any]] = []

    def shutdown() -> dict[str, Any]:
        return event(
            "auto_shutdown",
            reason="exit_on_complete",
            run_id=run_id,
            version=1,
            outcome="shutdown",
            tags=[],
        )

    if failure in ("usage_limit", "rate_limit"):
        notice = step.message or (
            "Claude AI usage limit reached"
            if failure == "usage_limit"
            else "API Error: rate limit reached"
        )
        run.append(event("limit_notice", run_id=run_id, message=notice))
        run.append(stream(payload))
        run.append(
            event(
                "run_completed",
                run_id=run_id,
                version=1,
                outcome="completed",
                reason="limit_reached",
                tags=["limit"],
                message=notice,
            )
        )
        after.append(shutdown())
    elif failure in (None, "refusal", "max_tokens"):
        run.append(stream(payload))
        run.append(
            event(
                "run_completed", run_id=run_id, version=1, outcome="completed", reason="ok", tags=[]
            )
        )
        after.append(shutdown())
    else:
        run.append(stream(payload))
        run.append(
            event(
                "run_failed",
                run_id=run_id,
                version=1,
                outcome="failed",
                reason="sdk_error",
                tags=[],
                error="Command failed with exit code 1 (exit code: 1)\nError output: Check stderr output for details",
            )
        )
    after.append(event("state", state="idle", last_session_id=sid))
    return run, after


# -- playing a step ---------------------------------------------------------------------------


@dataclass
class SimArgs:
    scenario_path: Path
    fmt: str | None
    operation: str
    prompt: str | None
    resume: str | None
    state_dir: Path | None
    attempt: int | None
    cwd: Path


class _Out:
    """Line writer for stdout/stderr that survives a reader that went away."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.written = 0

    def event(self, obj: dict[str, Any], *, pretty: bool = False) -> None:
        text = json.dumps(obj, indent=2) if pretty else json.dumps(obj, separators=(",", ":"))
        self.stdout(text)
        self.written += 1
        if self.delay:
            time.sleep(self.delay)

    @staticmethod
    def stdout(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    @staticmethod
    def stderr(text: str) -> None:
        sys.stderr.write(text if text.endswith("\n") else text + "\n")
        sys.stderr.flush()


def _apply_files(step: Step, cwd: Path) -> None:
    root = cwd.resolve()
    for edit in step.files:
        target = (root / edit.path).resolve()
        if not target.is_relative_to(root):
            raise SimError(f"file edit outside the working directory: {edit.path}")
        if edit.delete:
            target.unlink(missing_ok=True)
            continue
        if edit.content is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(edit.content, encoding="utf-8")
        if edit.replace:
            if not target.is_file():
                raise SimError(f"cannot patch {edit.path}: no such file in {root}")
            text = target.read_text(encoding="utf-8")
            for rep in edit.replace:
                if rep.old not in text:
                    raise SimError(f"cannot patch {edit.path}: text not found: {rep.old[:80]!r}")
                text = text.replace(rep.old, rep.new, rep.count or -1)
            target.write_text(text, encoding="utf-8")
        if edit.append is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("a", encoding="utf-8") as handle:
                handle.write(edit.append)


def _git_commit(message: str, cwd: Path) -> None:
    env = dict(os.environ)
    for key, value in (
        ("GIT_AUTHOR_NAME", "autofix-agent-sim"),
        ("GIT_AUTHOR_EMAIL", "agent-sim@autofix.invalid"),
        ("GIT_COMMITTER_NAME", "autofix-agent-sim"),
        ("GIT_COMMITTER_EMAIL", "agent-sim@autofix.invalid"),
    ):
        env.setdefault(key, value)
    for args in (["git", "add", "-A"], ["git", "commit", "-q", "-m", message]):
        done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
        if done.stdout:
            _Out.stderr(done.stdout)  # an agent's tool output is diagnostics, never stdout
        if done.stderr:
            _Out.stderr(done.stderr)
        if done.returncode != 0:
            raise SimError(f"{' '.join(args[:2])} failed with exit {done.returncode} in {cwd}")


def _write_lines(spec: Lines) -> None:
    stream = sys.stdout if spec.stream == "stdout" else sys.stderr
    block: list[str] = []
    for n in range(spec.count):
        block.append(spec.text.replace("{n}", str(n)))
        if len(block) >= 4096:
            stream.write("\n".join(block) + "\n")
            block.clear()
    if block:
        stream.write("\n".join(block) + "\n")
    stream.flush()


def _hang(spec: Hang) -> None:
    if spec.ignore_sigterm:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if spec.grandchild:
        code = "import signal, time\n"
        if spec.ignore_sigterm:
            code += "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        code += f"time.sleep({spec.seconds!r})\n"
        child = subprocess.Popen(
            [sys.executable, "-c", code]
        )  # inherits our pipes, like a stuck tool
        _Out.stderr(f"autofix-agent-sim: started grandchild pid={child.pid}")
    time.sleep(spec.seconds)


def _default_exit(fmt: str, failure: str | None) -> int:
    if failure is None:
        return 0
    if fmt in ("claude", "claude-json"):
        return 0 if failure in ("rate_limit", "refusal", "max_tokens") else 1
    if fmt == "codex":
        return 0 if failure == "refusal" else 1
    if fmt in ("gemini", "gemini-stream"):
        return _GEMINI_FAILURES[failure][2]
    return 0  # the wrapper itself exits 0; the run's failure is in its events


def _session_for(inv: SimArgs, scenario: Scenario, step: Step, attempt: int) -> str:
    if step.session_id:
        return step.session_id
    if inv.resume:
        return inv.resume  # a resumed run continues the same session, as the real CLIs do
    if scenario.session_id:
        return scenario.session_id
    return str(
        uuid.uuid5(uuid.NAMESPACE_URL, f"autofix-sim:{inv.scenario_path}:{inv.operation}:{attempt}")
    )


def play(inv: SimArgs) -> int:
    """Play one step of the scenario; returns the exit code."""
    scenario = load_scenario(inv.scenario_path)
    fmt = inv.fmt or scenario.format
    if fmt not in OUTPUT_FORMATS:
        raise SimError(f"unknown format {fmt!r}; valid: {', '.join(OUTPUT_FORMATS)}")

    ready: dict[str, Any] | None = None
    prompt = inv.prompt
    resume = inv.resume
    run_id = str(uuid.uuid4())
    out = _Out(0.0)
    if fmt == "wrapper":
        ready = {
            "event": "ready",
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000000", time.gmtime()),
            "state": "idle",
            "cwd": str(inv.cwd),
            "project": inv.cwd.name,
            "version": 1,
            "outcome": "running",
            "reason": "boot",
            "tags": [],
        }
        out.event(ready)
        line = sys.stdin.readline()
        try:
            command = json.loads(line) if line.strip() else {}
        except ValueError:
            out.event({"event": "error", "error": "Invalid JSON payload", "raw": line[:200]})
            _drain_stdin_then_shutdown(out, None)
            return 0
        if not isinstance(command, dict) or command.get("action", "prompt") != "prompt":
            out.event({"event": "error", "error": "Unknown action", "payload": command})
            _drain_stdin_then_shutdown(out, None)
            return 0
        prompt = str(command.get("prompt") or command.get("command") or "")
        if not prompt:
            out.event({"event": "error", "error": "Missing prompt"})
            _drain_stdin_then_shutdown(out, None)
            return 0
        raw_options = command.get("options")
        options: dict[str, Any] = raw_options if isinstance(raw_options, dict) else {}
        resume = resume or (str(options["resume"]) if options.get("resume") else None)
    elif prompt is None:
        prompt = "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read()

    state_dir = inv.state_dir or default_state_dir(inv.scenario_path)
    attempt = (
        inv.attempt
        if inv.attempt is not None
        else next_attempt(inv.scenario_path, inv.operation, state_dir)
    )
    step = choose_step(scenario, attempt, prompt or "", resume is not None)
    inv_resumed = dataclasses.replace(inv, resume=resume)
    ctx = Context(
        scenario=scenario,
        step=step,
        fmt=fmt,
        prompt=prompt or "",
        session_id=_session_for(inv_resumed, scenario, step, attempt),
        attempt=attempt,
        cwd=str(inv.cwd),
    )
    out.delay = step.event_delay

    if step.sleep:
        time.sleep(step.sleep)
    pid = os.getpid()
    for name in step.stderr_noise:
        out.stderr(NOISE_PRESETS[name].replace("{pid}", str(pid)))
    _apply_files(step, inv.cwd)
    if step.git_commit:
        _git_commit(step.git_commit, inv.cwd)
    if step.stdout:
        out.stdout(step.stdout.rstrip("\n"))
    if step.lines is not None:
        _write_lines(step.lines)

    stop_after = None
    if step.crash is not None:
        stop_after = step.crash.after_events
    hang = step.hang_spec()
    if hang is not None:
        stop_after = hang.after_events

    stderr_doc: dict[str, Any] | None = None
    after: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    pretty = False
    if step.emit:
        if fmt == "claude":
            events = claude_events(ctx)
        elif fmt == "claude-json":
            events = [claude_result(ctx)]
        elif fmt == "codex":
            events = codex_events(ctx)
        elif fmt == "gemini":
            doc, stderr_doc = gemini_json(ctx)
            events = [doc] if doc is not None else []
            pretty = True  # Gemini pretty-prints its json output
        elif fmt == "gemini-stream":
            events = gemini_stream_events(ctx)
        else:
            events, after = wrapper_events(ctx, run_id)

    for index, event in enumerate(events):
        if stop_after is not None and index >= stop_after:
            break
        out.event(event, pretty=pretty)

    if step.crash is not None:
        if step.stderr:
            out.stderr(step.stderr)
        sys.stdout.flush()
        if step.crash.signal:
            os.kill(os.getpid(), _signal_number(step.crash.signal))
            time.sleep(5)  # the signal is asynchronous; never fall through to a clean exit
        os._exit(step.crash.exit_code)
    if hang is not None:
        _hang(hang)

    if stderr_doc is not None:
        out.stderr(json.dumps(stderr_doc, indent=2))
    if step.stderr:
        out.stderr(step.stderr)
    if fmt == "wrapper":
        for event in after:
            out.event(event)
        _drain_stdin_then_shutdown(out, ctx.session_id)
    return step.exit_code if step.exit_code is not None else _default_exit(fmt, step.failure)


def _drain_stdin_then_shutdown(out: _Out, session_id: str | None) -> None:
    """The wrapper waits for EOF on stdin, then says goodbye."""
    with contextlib.suppress(OSError, ValueError):
        while sys.stdin.readline():
            pass
    out.event(
        {
            "event": "shutdown",
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000000", time.gmtime()),
            "state": "idle",
            "last_session_id": session_id,
            "version": 1,
            "outcome": "shutdown",
            "reason": "graceful",
            "tags": [],
        }
    )


def _signal_number(name: str) -> int:
    upper = name.upper()
    try:
        return int(signal.Signals[upper if upper.startswith("SIG") else "SIG" + upper])
    except KeyError:
        raise ValueError(f"unknown signal {name!r}") from None
