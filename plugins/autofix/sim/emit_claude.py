"""Claude Code's output: ``stream-json`` events, or the single ``json`` result document."""

from __future__ import annotations

import time
import uuid
from typing import Any

from autofix.sim.context import DEFAULT_REFUSAL, Context, Emission, Emitter, Event, answer_text

_FAILURES: dict[str, tuple[str, int | None, str]] = {
    # failure: (result text, api_error_status, assistant error code)
    "usage_limit": ("You've hit your limit · resets {reset} (UTC)", 429, "rate_limit"),
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
_ERROR_SUBTYPES: dict[str, tuple[str, str]] = {
    "max_turns": ("error_max_turns", "Reached maximum number of turns ({turns})"),
    "budget": ("error_max_budget_usd", "Reached maximum budget ($0.50)"),
    "structured_output": (
        "error_max_structured_output_retries",
        "Failed to provide valid structured output after 5 attempts",
    ),
}

SIM_LIMIT_RESET_S = 3  # the scripted subscription limit's reset, seconds from now


def _reset_epoch() -> int:
    return int(time.time()) + SIM_LIMIT_RESET_S


def reset_clock(epoch: int) -> str:
    """A reset time as Claude Code words it: "5pm", "4:07pm" (UTC)."""
    moment = time.gmtime(epoch)
    hour = moment.tm_hour % 12 or 12
    suffix = "am" if moment.tm_hour < 12 else "pm"
    return f"{hour}{suffix}" if moment.tm_min == 0 else f"{hour}:{moment.tm_min:02d}{suffix}"


def claude_result(ctx: Context) -> Event:
    """The final ``result`` document (the wrapper reports it too, as the SDK's ResultMessage)."""
    step = ctx.step
    result: Event = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "duration_ms": 1500 + 700 * step.num_turns,
        "duration_api_ms": 1400 + 650 * step.num_turns,
        "num_turns": step.num_turns,
        "session_id": ctx.session_id,
        "total_cost_usd": step.cost_usd,
        "usage": {
            "input_tokens": max(0, step.usage.uncached_input_tokens),
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": step.usage.cached_input_tokens,
            "output_tokens": step.usage.output_tokens,
            "service_tier": "standard",
        },
        "permission_denials": [],
        "uuid": str(uuid.uuid4()),
    }
    failure = step.failure
    if failure in _ERROR_SUBTYPES:
        subtype, message = _ERROR_SUBTYPES[failure]
        result.update(
            subtype=subtype,
            is_error=True,
            stop_reason=None,
            errors=[step.message or message.format(turns=max(step.num_turns - 1, 1))],
            terminal_reason="max_turns" if failure == "max_turns" else "error",
        )
        return result
    if failure in _FAILURES:
        error_text, status, _ = _FAILURES[failure]
        error_text = error_text.replace("{reset}", reset_clock(_reset_epoch()))  # the real one
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
    text = answer_text(ctx)
    if failure == "refusal" and step.text == "Done.":
        text = step.message or DEFAULT_REFUSAL
    result.update(result=text or "", stop_reason=stop, terminal_reason="completed")
    if step.structured_output is not None and failure is None:
        result["structured_output"] = step.structured_output
    return result


def claude_events(ctx: Context) -> list[Event]:
    """``--output-format stream-json``: init, tool calls, the answer, the result."""
    step, sid, model = ctx.step, ctx.session_id, ctx.scenario.model
    events: list[Event] = [
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

    def assistant(content: list[dict[str, Any]], stop: str | None, **extra: Any) -> Event:
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
    if failure in _FAILURES:
        code = _FAILURES[failure][2]
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
                    "resetsAt": _reset_epoch(),
                    "rateLimitType": "five_hour",
                },
                "uuid": str(uuid.uuid4()),
                "session_id": sid,
            }
        )
    events.append(result)
    return events


def _failure_exit(failure: str) -> int:
    return 0 if failure in ("rate_limit", "refusal", "max_tokens") else 1


STREAM = Emitter(emit=lambda ctx: Emission(claude_events(ctx)), failure_exit=_failure_exit)
JSON = Emitter(emit=lambda ctx: Emission([claude_result(ctx)]), failure_exit=_failure_exit)
