"""The Air-Executor wrapper's output: its JSON-lines protocol around the Claude SDK's messages."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autofix.sim.context import Context, Emission, Emitter, Event
from autofix.sim.emit_claude import claude_result

# Result fields the Claude SDK's ResultMessage does not carry.
_NOT_IN_SDK_RESULT = (
    "type",
    "uuid",
    "permission_denials",
    "terminal_reason",
    "api_error_status",
    "errors",
)
_SDK_ERROR = (
    "Command failed with exit code 1 (exit code: 1)\nError output: Check stderr output for details"
)


def wrapper_event(name: str, **fields: Any) -> Event:
    """A protocol line: Python ``json.dumps`` style, with a naive UTC timestamp."""
    return {
        "event": name,
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000000", time.gmtime()),
        **fields,
    }


def ready_event(cwd: Path) -> Event:
    """The line the wrapper prints at boot, before it reads its command."""
    return wrapper_event(
        "ready",
        state="idle",
        cwd=str(cwd),
        project=cwd.name,
        version=1,
        outcome="running",
        reason="boot",
        tags=[],
    )


def shutdown_event(session_id: str | None) -> Event:
    """The line the wrapper prints when its stdin closes."""
    return wrapper_event(
        "shutdown",
        state="idle",
        last_session_id=session_id,
        version=1,
        outcome="shutdown",
        reason="graceful",
        tags=[],
    )


@dataclass(frozen=True)
class Command:
    """The wrapper's stdin command: a prompt and resume id, or the error event that refuses it."""

    prompt: str = ""
    resume: str | None = None
    error: Event | None = None


def parse_command(line: str) -> Command:
    try:
        command = json.loads(line) if line.strip() else {}
    except ValueError:
        return Command(error={"event": "error", "error": "Invalid JSON payload", "raw": line[:200]})
    if not isinstance(command, dict) or command.get("action", "prompt") != "prompt":
        return Command(error={"event": "error", "error": "Unknown action", "payload": command})
    prompt = str(command.get("prompt") or command.get("command") or "")
    if not prompt:
        return Command(error={"event": "error", "error": "Missing prompt"})
    raw_options = command.get("options")
    options: dict[str, Any] = raw_options if isinstance(raw_options, dict) else {}
    return Command(prompt, str(options["resume"]) if options.get("resume") else None)


def wrapper_events(ctx: Context) -> Emission:
    """The run's events, then the ones after it (auto shutdown, idle state)."""
    step, sid, run_id, model = ctx.step, ctx.session_id, ctx.run_id, ctx.scenario.model

    def stream(payload: Event) -> Event:
        return wrapper_event("stream", run_id=run_id, payload=payload)

    run: list[Event] = [
        wrapper_event(
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
                    "model": model,
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
                    "model": model,
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
    payload = {k: v for k, v in result.items() if k not in _NOT_IN_SDK_RESULT}
    payload["message_type"] = "ResultMessage"
    if "result" not in payload:
        payload["result"] = None
    text = result.get("result")
    if isinstance(text, str) and text:
        run.append(
            stream(
                {
                    "content": [{"text": text}],
                    "model": model,
                    "parent_tool_use_id": None,
                    "message_type": "AssistantMessage",
                }
            )
        )

    failure = step.failure
    limited = failure in ("usage_limit", "rate_limit")
    ended: dict[str, Any] = {"run_id": run_id, "version": 1}
    notice = step.message or (
        "Claude AI usage limit reached"
        if failure == "usage_limit"
        else "API Error: rate limit reached"
    )
    if limited:
        run.append(wrapper_event("limit_notice", run_id=run_id, message=notice))
    run.append(stream(payload))
    if limited:
        run.append(
            wrapper_event(
                "run_completed",
                **ended,
                outcome="completed",
                reason="limit_reached",
                tags=["limit"],
                message=notice,
            )
        )
    elif failure in (None, "refusal", "max_tokens"):
        run.append(
            wrapper_event("run_completed", **ended, outcome="completed", reason="ok", tags=[])
        )
    else:
        run.append(
            wrapper_event(
                "run_failed",
                **ended,
                outcome="failed",
                reason="sdk_error",
                tags=[],
                error=_SDK_ERROR,
            )
        )
    after: list[Event] = []
    if run[-1]["event"] == "run_completed":
        after.append(
            wrapper_event(
                "auto_shutdown", reason="exit_on_complete", **ended, outcome="shutdown", tags=[]
            )
        )
    after.append(wrapper_event("state", state="idle", last_session_id=sid))
    return Emission(run, after=after)


# The wrapper itself exits 0; the run's failure is in its events.
EMITTER = Emitter(emit=wrapper_events, failure_exit=lambda failure: 0)
