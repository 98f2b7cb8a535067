"""Codex CLI's output: ``codex exec --json`` events."""

from __future__ import annotations

import json

from autofix.sim.context import DEFAULT_REFUSAL, Context, Emission, Emitter, Event, answer_text
from autofix.sim.scenario import Step

_FAILURES: dict[str, str] = {
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


def codex_events(ctx: Context) -> list[Event]:
    """Thread and turn events around one item per tool call and the agent message."""
    step = ctx.step
    events: list[Event] = [
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
    text = answer_text(ctx)
    if failure == "refusal":
        refusal = step.message or DEFAULT_REFUSAL
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
    message = step.message or _FAILURES[failure]
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


EMITTER = Emitter(
    emit=lambda ctx: Emission(codex_events(ctx)),
    failure_exit=lambda failure: 0 if failure == "refusal" else 1,
)
