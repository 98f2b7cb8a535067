"""Gemini CLI's output: the ``json`` document, or ``stream-json`` events."""

from __future__ import annotations

import time

from autofix.sim.context import Context, Emission, Emitter, Event, answer_text

_FAILURES: dict[str, tuple[str, str, int]] = {
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


def _gemini_stats(ctx: Context) -> Event:
    usage = ctx.step.usage
    return {
        "models": {
            ctx.scenario.model: {
                "api": {
                    "totalRequests": max(ctx.step.num_turns, 1),
                    "totalErrors": 0,
                    "totalLatencyMs": 1200,
                },
                "tokens": {
                    "input": usage.uncached_input_tokens,
                    "prompt": usage.input_tokens,
                    "candidates": usage.output_tokens,
                    "total": usage.total_tokens,
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


def gemini_json(ctx: Context) -> Emission:
    """The one pretty-printed document: on stdout, or on stderr for a fatal error."""
    failure = ctx.step.failure
    doc: Event = {"session_id": ctx.session_id, "response": "", "stats": _gemini_stats(ctx)}
    if failure is None:
        doc["response"] = answer_text(ctx) or ""
        return Emission([doc], pretty=True)
    err_type, message, code = _FAILURES[failure]
    error = {"type": err_type, "message": ctx.step.message or message, "code": code}
    if err_type == "INVALID_STREAM":  # a broken stream still ends in the stdout document
        return Emission([{**doc, "error": error}], pretty=True)
    return Emission([], stderr_doc={"session_id": ctx.session_id, "error": error}, pretty=True)


def gemini_stream_events(ctx: Context) -> list[Event]:
    """``--output-format stream-json``: init, prompt, tool calls, the answer in two deltas, result."""
    step = ctx.step
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    events: list[Event] = [
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
        "total_tokens": usage.total_tokens,
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cached": usage.cached_input_tokens,
        "input": usage.uncached_input_tokens,
        "duration_ms": 1200,
        "tool_calls": len(step.tools),
    }
    if step.failure is None:
        text = answer_text(ctx) or ""
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
    err_type, message, _ = _FAILURES[step.failure]
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


def _failure_exit(failure: str) -> int:
    return _FAILURES[failure][2]


JSON = Emitter(emit=gemini_json, failure_exit=_failure_exit)
STREAM = Emitter(emit=lambda ctx: Emission(gemini_stream_events(ctx)), failure_exit=_failure_exit)
