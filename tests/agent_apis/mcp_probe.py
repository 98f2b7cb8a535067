"""A minimal stdio MCP server with one tool, ``echo_probe``: a CLI that lists the tool in its
model request has read the MCP config autofix wrote for it.

Newline-delimited JSON-RPC 2.0 on stdin/stdout (the MCP stdio transport): ``initialize``
(echoing the client's protocol version), ``tools/list``, ``tools/call``, ``ping``; every other
request is "method not found", notifications get no answer. With ``MCP_PROBE_LOG`` set, every
method it received is appended to that file, one a line. Stdlib only.

    MCP_PROBE_LOG=/tmp/probe.log python tests/agent_apis/mcp_probe.py
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

TOOL_NAME = "echo_probe"
TOOL = {
    "name": TOOL_NAME,
    "description": "Echo a text back (a probe: the test only checks the tool is offered).",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
}


def answer(request: dict[str, Any]) -> dict[str, Any] | None:
    method = request.get("method")
    if "id" not in request:
        return None  # a notification (notifications/initialized, cancelled, ...)
    reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request["id"]}
    params = request.get("params") or {}
    if method == "initialize":
        reply["result"] = {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "autofix-probe", "version": "1.0.0"},
        }
    elif method == "tools/list":
        reply["result"] = {"tools": [TOOL]}
    elif method == "tools/call":
        text = str((params.get("arguments") or {}).get("text", ""))
        reply["result"] = {"content": [{"type": "text", "text": text}], "isError": False}
    elif method == "ping":
        reply["result"] = {}
    else:
        reply["error"] = {"code": -32601, "message": f"method not found: {method}"}
    return reply


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError:
            continue
        if not isinstance(request, dict):
            continue
        log = os.environ.get("MCP_PROBE_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as handle:
                handle.write(f"{request.get('method')}\n")
        reply = answer(request)
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
