"""The fourth fresh held-out batch for the codex CLI (variant 4: fixtures `<name>__f4`).

Written from the coverage table (docs/agents/codex.md) after the first three batches were scored,
by someone who never saw the verdict code; frozen in FRESH.txt before the verdict changed.

Every case differs in shape from the tune cases and the first three fresh batches (codex.py,
batch2_codex.py, batch3_codex.py): other wording, statuses and error bodies, other flags, env
spellings and settings, other tools (the freeform ``apply_patch``, ``write_stdin``, a tool that
does not exist), the other output mode, other step counts. Never tune on these.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from agent_apis import openai as O
from agent_apis.clis import RunOptions
from agent_apis.core import Reply
from agent_apis.scenarios.base import Case, Context, Stop, Truth

CLI = "codex"

SUCCESS = Truth(True, "success", "none")


def _t(kind: str, retry: str, detail: str = "", **more: Any) -> Truth:
    return Truth(False, kind, retry, detail, **more)  # type: ignore[arg-type]


def _config(detail: str, **more: Any) -> Truth:
    return _t("config", "permanent", detail, **more)


def _paid(detail: str) -> Truth:
    """Credit, billing, spend or prepayment exhaustion: only paying (or an owner) helps."""
    return _t("quota_exhausted", "permanent", detail)


def _undone(detail: str) -> Truth:
    """A refused command left the task undone; only the answer's words say so."""
    return _t("permission", "permanent", detail, shown=False, warnings=("denied_tool",))


def _text(**options: Any) -> RunOptions:
    return RunOptions(output_format="text", **options)


# -- fixtures the cases share -------------------------------------------------------------

USAGE_PATCH = (
    "*** Begin Patch\n"
    "*** Update File: README.md\n"
    "@@\n"
    " A file the agent may read.\n"
    "+\n"
    "+## Usage\n"
    "+\n"
    "+Run `make` to build the project.\n"
    "*** End Patch\n"
)
NOTES_PATCH = (
    "*** Begin Patch\n"
    "*** Add File: NOTES.md\n"
    "+# Release notes\n"
    "+\n"
    "+- 1.3.0: the importer skips blank rows.\n"
    "*** End Patch\n"
)
SETTINGS_PATCH = "*** Begin Patch\n*** Add File: settings.py\n+PORT = 8080\n*** End Patch\n"
TEST_SETTINGS = (
    "import unittest\n"
    "\n"
    "import settings\n"
    "\n"
    "\n"
    "class SettingsTest(unittest.TestCase):\n"
    "    def test_port(self):\n"
    "        self.assertEqual(settings.PORT, 8080)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    unittest.main()\n"
)
VERSION_SCHEMA = {
    "type": "object",
    "properties": {"version": {"type": "string"}, "breaking": {"type": "boolean"}},
    "required": ["version", "breaking"],
    "additionalProperties": False,
}
# A stdio MCP server (python, no dependencies) that answers `initialize` with a JSON-RPC error
# (it only speaks an older protocol); everything else gets an empty result.
OLD_PROTOCOL_MCP = (
    "import json\n"
    "import sys\n"
    "\n"
    "for line in sys.stdin:\n"
    "    try:\n"
    "        msg = json.loads(line)\n"
    "    except ValueError:\n"
    "        continue\n"
    "    if msg.get('id') is None:\n"
    "        continue\n"
    "    if msg.get('method') == 'initialize':\n"
    "        error = {'code': -32602, 'message': sys.argv[1]}\n"
    "        reply = {'jsonrpc': '2.0', 'id': msg['id'], 'error': error}\n"
    "    else:\n"
    "        reply = {'jsonrpc': '2.0', 'id': msg['id'], 'result': {}}\n"
    "    sys.stdout.write(json.dumps(reply) + '\\n')\n"
    "    sys.stdout.flush()\n"
)


def _old_protocol_mcp(server: str, message: str, required: bool) -> str:
    return (
        f"[mcp_servers.{server}]\n"
        'command = "python3"\n'
        f'args = ["{{WORK}}/tools/{server}_mcp.py", "{message}"]\n'
        + ("required = true\n" if required else "")
    )


AZURE_CHAT_CONFIG = (
    'model = "gpt-5.5"\n'
    "\n"
    "[model_providers.azure]\n"
    'name = "Azure OpenAI"\n'
    'base_url = "https://autofix-prod.openai.azure.com/openai"\n'
    'env_key = "AZURE_OPENAI_API_KEY"\n'
    'wire_api = "chat"\n'
)
COMPOSE_DOWN_RULES = (
    "prefix_rule(\n"
    '    pattern = ["docker", "compose", "down"],\n'
    '    decision = "prompt",\n'
    '    justification = "tearing down the stack needs an operator",\n'
    ")\n"
)
# A rollout file named for one thread whose session_meta records another thread id.
MISMATCH_THREAD = "0199a213-81c0-7800-8aa1-bbab2a035c11"
MISMATCH_ROLLOUT = (
    f"home/.codex/sessions/2026/11/23/rollout-2026-11-23T07-30-00-{MISMATCH_THREAD}.jsonl"
)
MISMATCH_LINES = (
    json.dumps(
        {
            "timestamp": "2026-11-23T07:30:00.000Z",
            "type": "session_meta",
            "payload": {
                "id": "0199a213-81c0-7800-8aa1-bbab2a035c99",
                "timestamp": "2026-11-23T07:30:00.000Z",
                "cwd": "{WORK}",
                "originator": "codex_exec",
                "cli_version": "0.171.0",
                "source": "exec",
                "model_provider": "autofix",
            },
        }
    )
    + "\n"
)
FORK_MISSING_TEXT = "01a21990-4f0c-7000-9000-00000000beef"
CONTEXT_NO_CODE = (
    "This model's maximum context length is 128000 tokens. However, you requested 131072 "
    "tokens (127072 in the messages, 4000 in the completion). Please reduce the length of the "
    "messages or completion."
)


def _review(outcome: str, risk: str, rationale: str) -> Reply:
    """The answer to `--approve-for-me`'s automatic review request (its own JSON schema)."""
    verdict = {
        "risk_level": risk,
        "user_authorization": "unknown",
        "outcome": outcome,
        "rationale": rationale,
    }
    return O.text(json.dumps(verdict), label=f"review:{outcome}")


def codex_batch4_cases() -> Iterator[Case]:
    fc = O.function_call
    patch = O.custom_tool_call

    def case(
        name: str,
        family: str,
        truth: Truth,
        build: Callable[[Context], Sequence[Reply]],
        options: RunOptions | None = None,
        **kw: Any,
    ) -> Case:
        return Case(
            CLI,
            name,
            truth,
            build,
            options or RunOptions(),
            family=family,
            fresh=True,
            variant=4,
            **kw,
        )

    # -- debug and log switches, on a run that succeeds and on runs that fail ----------------
    yield case(
        "debug_upper_patch_workspace",
        "debug_output",
        SUCCESS,
        lambda c: [
            patch("apply_patch", USAGE_PATCH),
            O.text("README.md has a Usage section now."),
        ],
        RunOptions(
            prompt="Add a short Usage section to README.md.",
            extra_env={"RUST_LOG": "DEBUG"},
            extra_args=["--sandbox", "workspace-write"],
        ),
        description="RUST_LOG=DEBUG (upper case), --sandbox workspace-write: 150+ DEBUG/INFO/WARN "
        "tracing lines on stderr; the freeform apply_patch tool edits README.md (a file_change "
        "item), the answer, turn.completed, exit 0",
    )
    yield case(
        "text_info_tokens_per_day_429",
        "debug_output",
        _t("rate_limit", "transient", "tokens per day, retry-after-ms"),
        lambda c: [
            O.error(
                429,
                "Rate limit reached for gpt-5.5 in organization org-autofix on tokens per day "
                "(TPD): Limit 2000000, Used 1999310, Requested 4120. Please try again in "
                "3m17.28s. Visit https://platform.openai.com/account/rate-limits to learn more.",
                "tokens",
                "rate_limit_exceeded",
                headers={
                    **O.rate_limit_headers(reset_tokens="3m17.28s", retry_after=None),
                    "retry-after-ms": "197280",
                },
            )
        ],
        _text(extra_env={"RUST_LOG": "info"}),
        description="text mode with RUST_LOG=info: INFO/WARN tracing lines among the banner; a "
        "429 tokens-per-day limit (retry-after-ms, x-ratelimit-reset-tokens 3m17.28s): 'ERROR: "
        "exceeded retry limit, last status: 429 Too Many Requests, ...' twice, exit 1",
    )
    yield case(
        "debug_filter_gateway_context_overflow",
        "debug_output",
        _t("context_window", "permanent", "gateway wording, no error code"),
        lambda c: [
            O.error(
                400,
                CONTEXT_NO_CODE,
                "invalid_request_error",
                None,
                extra={"param": "messages"},
            )
        ],
        RunOptions(
            prompt="Summarise every log file under logs/.",
            extra_env={"RUST_LOG": "warn,codex_core=debug"},
        ),
        description="RUST_LOG=warn,codex_core=debug: WARN/INFO/DEBUG lines on stderr; a 400 "
        "whose message is the chat-completions context-length wording with code null: "
        "turn.failed with the raw error body JSON, not retried, exit 1",
    )

    # -- tool errors the agent recovered from, failed commands it fixed ----------------------
    yield case(
        "unknown_tool_read_file_recovered",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("read_file", {"path": "README.md"}),
            fc("exec_command", {"cmd": "cat README.md"}),
            O.text("README.md introduces a demo project and says the agent may read it."),
        ],
        RunOptions(prompt="What does README.md say?"),
        description="the model calls a tool Codex does not have (read_file): 'ERROR "
        "codex_core::tools::router: error=unsupported call: read_file' on stderr, no item; then "
        "cat works and the agent answers, exit 0",
    )
    yield case(
        "text_exec_bad_arguments_recovered",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("exec_command", {"command": ["wc", "-l", "README.md"]}),
            fc("exec_command", {"cmd": "wc -l README.md"}),
            O.text("README.md has 3 lines."),
        ],
        _text(prompt="How many lines does README.md have?"),
        description="text mode: the first exec_command call has the wrong argument shape "
        "('ERROR codex_core::tools::router: error=failed to parse function arguments: missing "
        "field `cmd` ...'), the second runs (an exec block), the answer on stdout, exit 0",
    )
    yield case(
        "unittest_import_fixed_by_patch",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("exec_command", {"cmd": "python3 -m unittest -q test_settings"}),
            fc("exec_command", {"cmd": "ls *.py"}),
            patch("apply_patch", SETTINGS_PATCH),
            fc("exec_command", {"cmd": "python3 -m unittest -q test_settings"}),
            O.text("The test passes now: settings.py was missing, so I added it with PORT = 8080."),
        ],
        RunOptions(
            prompt="Make the unit tests pass.",
            extra_args=["-c", 'sandbox_mode="workspace-write"'],
            files={"work/test_settings.py": TEST_SETTINGS},
        ),
        description='-c sandbox_mode="workspace-write": the unit test fails (exit 1, '
        "ImportError traceback in aggregated_output), ls, apply_patch adds settings.py (a "
        "file_change item), the rerun passes, the answer; exit 0",
    )

    # -- output modes ------------------------------------------------------------------------
    yield case(
        "text_schema_answer",
        "text_mode",
        SUCCESS,
        lambda c: [O.text('{"version":"1.4.2","breaking":false}')],
        _text(
            prompt="Report the release version and whether it is breaking.",
            json_schema=VERSION_SCHEMA,
        ),
        description="text mode with --output-schema: the JSON answer alone on stdout, the "
        "banner and the 'codex' block on stderr, exit 0",
    )
    yield case(
        "text_reasoning_only_empty",
        "text_mode",
        _t("empty_answer", "invalid_output", "reasoning summary, no message"),
        lambda c: [
            O.response(
                O.Reasoning(
                    "**Checking the config**\n\nThe port is set in config.env; I need to read it "
                    "first."
                )
            )
        ],
        _text(prompt="Which port does the app listen on?"),
        description="text mode, a completed response with only a reasoning item: the reasoning "
        "summary on stderr, no 'codex' block, stdout empty, exit 0",
    )

    # -- sessions that cannot be resumed -----------------------------------------------------
    yield case(
        "resume_thread_id_mismatch",
        "missing_session",
        _config("unresumable_session"),
        lambda c: [O.text("pong")],
        RunOptions(
            extra_args=["resume", MISMATCH_THREAD], files={MISMATCH_ROLLOUT: MISMATCH_LINES}
        ),
        description="exec resume <uuid> whose rollout file records another thread id in its "
        "session_meta: 'Error: thread/resume: thread/resume failed: thread source changed "
        "during resume; retry with the current thread ID or path (code -32600)', exit 1, no JSONL",
    )
    yield case(
        "text_fork_missing_session",
        "missing_session",
        _config("missing_session"),
        lambda c: [O.text("pong")],
        _text(extra_args=["fork", FORK_MISSING_TEXT]),
        description="text mode, exec fork <uuid> that no session has: only 'Error: "
        "thread/read: thread/read failed: thread not loaded: <uuid> (code -32600)' on stderr, "
        "no banner, exit 1",
    )

    # -- MCP servers at start-up -------------------------------------------------------------
    yield case(
        "mcp_required_initialize_rpc_error",
        "mcp_startup",
        _config("mcp_required_failed"),
        lambda c: [O.text("pong")],
        RunOptions(
            files={
                "work/tools/tickets_mcp.py": OLD_PROTOCOL_MCP,
                "home/.codex/config.toml": _old_protocol_mcp(
                    "tickets", "Unsupported protocol version: server speaks 2024-11-05 only", True
                ),
            }
        ),
        description="a required stdio MCP server that answers initialize with a JSON-RPC error "
        "(-32602): '... required MCP servers failed to initialize: tickets: handshaking with "
        "MCP server failed: JSON-RPC error: -32602: Unsupported protocol version ...' in the "
        "ERROR session line and 'Error: thread/start: ...', exit 1, no JSONL",
    )
    yield case(
        "mcp_optional_initialize_rpc_error",
        "mcp_startup",
        Truth(True, "success", "none", "an optional MCP server's failure is reported nowhere"),
        lambda c: [
            fc("exec_command", {"cmd": "ls"}),
            O.text("The project has a README.md and a tools/ directory."),
        ],
        RunOptions(
            prompt="List the project's top-level files.",
            files={
                "work/tools/wiki_mcp.py": OLD_PROTOCOL_MCP,
                "home/.codex/config.toml": _old_protocol_mcp(
                    "wiki", "wiki-mcp: protocol version not supported", False
                ),
            },
        ),
        description="the same kind of server without required: nothing about it in the JSONL "
        "or on stderr; a command and the answer, exit 0",
    )

    # -- invalid configuration, files a flag names, the command line ----------------------
    yield case(
        "config_provider_wire_api_chat",
        "invalid_config",
        _config("removed_setting_value"),
        lambda c: [O.text("pong")],
        RunOptions(files={"home/.codex/config.toml": AZURE_CHAT_CONFIG}),
        description='config.toml defines an (unused) Azure provider with wire_api = "chat": '
        "'Error loading config.toml: `wire_api = \"chat\"` is no longer supported.' / 'How to "
        "fix: ...' / 'in `model_providers.azure.wire_api`', exit 1",
    )
    yield case(
        "profile_file_missing",
        "invalid_config",
        _config("profile_file_missing: ignored silently", shown=False),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["-p", "ci"]),
        description="-p ci when $CODEX_HOME/ci.config.toml does not exist: Codex ignores the "
        "profile without a word and runs with the base config; turn.completed, exit 0",
    )
    yield case(
        "unknown_flag_full_auto",
        "bad_flag",
        _config("unknown_flag"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["--full-auto"]),
        description="--full-auto (older codex releases' flag, still in many scripts): \"error: "
        "unexpected argument '--full-auto' found\", a tip and the usage, exit 2",
    )
    yield case(
        "cyber_program_bad_value",
        "bad_flag",
        _config("invalid_flag_value"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["--cyber-access-program", "gold"]),
        description="--cyber-access-program gold: \"error: invalid value 'gold' for "
        "'--cyber-access-program <PROGRAM>'\" and the possible values, exit 2",
    )

    # -- sandboxes, approval reviews and exec policies that refuse commands ---------------
    yield case(
        "patch_read_only_undone",
        "sandbox_denial",
        _undone("apply_patch rejected by the read-only sandbox"),
        lambda c: [
            patch("apply_patch", NOTES_PATCH),
            O.text("I could not create NOTES.md: writing is blocked in this read-only sandbox."),
        ],
        RunOptions(
            prompt="Create NOTES.md with the release note for 1.3.0.",
            extra_args=["-c", 'sandbox_mode="read-only"'],
        ),
        description='-c sandbox_mode="read-only" and the task is a new file: the freeform '
        "apply_patch is refused ('ERROR codex_core::tools::router: error=patch rejected: "
        "writing is blocked by read-only sandbox; rejected by user approval settings'), no "
        "item; the agent says it could not; turn.completed, exit 0",
    )
    yield case(
        "text_escalated_install_worked_around",
        "sandbox_denial",
        Truth(True, "success", "none", warnings=("denied_tool",)),
        lambda c: [
            fc(
                "exec_command",
                {
                    "cmd": "pip install --user ruff",
                    "sandbox_permissions": "require_escalated",
                    "justification": "install the linter",
                },
            ),
            fc("exec_command", {"cmd": "python3 -m pyflakes --version || grep -c '' README.md"}),
            O.text("README.md has 3 lines; I could not install ruff to lint it."),
        ],
        _text(
            prompt="Lint the project if you can, and tell me how long README.md is.",
            extra_args=["--sandbox", "workspace-write"],
        ),
        description="text mode, workspace-write: the escalated pip install is refused ('ERROR "
        "codex_core::tools::router: error=approval policy is Never; reject command ...'), the "
        "fallback command runs (an exec block), the answer on stdout, exit 0",
    )
    yield case(
        "auto_review_denies_prompt_rule_undone",
        "policy_denial",
        _undone("execpolicy prompt rule, denied by the automatic review"),
        lambda c: [
            fc("exec_command", {"cmd": "docker compose down -v"}),
            _review("deny", "high", "Removing the volumes deletes the database data."),
            O.text("I could not reset the stack: the review refused 'docker compose down -v'."),
        ],
        RunOptions(
            prompt="Reset the local docker stack, volumes included.",
            extra_args=["--approve-for-me"],
            files={"home/.codex/rules/default.rules": COMPOSE_DOWN_RULES},
        ),
        description="--approve-for-me and a rule that says prompt for docker compose down: the "
        "automatic review (a model call) denies it: a command_execution item with status "
        "'declined', 'ERROR codex_core::tools::router: ... Rejected(\"This action was rejected "
        "due to unacceptable risk. ...\")'; the task is left undone, turn.completed, exit 0",
    )

    # -- loops: nothing in Codex stops them ------------------------------------------------
    yield case(
        "loop_polling_exited_process",
        "loop",
        _t("timeout", "transient"),
        lambda c: [fc("write_stdin", {"session_id": 7, "chars": "", "yield_time_ms": 1000})],
        RunOptions(prompt="Wait for the dev server started earlier to print 'ready'."),
        stop=Stop("SIGTERM", when_requests=7, hold_s=0.5),
        description="the model polls a process that does not exist with write_stdin over and "
        "over ('ERROR codex_core::tools::router: error=write_stdin failed: Unknown process id 7' "
        "each time, no item); SIGTERM from autofix's wall-clock timeout",
    )

    # -- compaction ---------------------------------------------------------------------
    yield case(
        "text_compaction_then_max_tokens",
        "compaction",
        _t(
            "max_tokens",
            "invalid_output",
            "cut by the output limit after an auto-compaction",
            warnings=("compacted",),
        ),
        lambda c: [
            fc("exec_command", {"cmd": "cat README.md"}),
            O.text("Summary: README.md was read; it describes a demo project."),
            O.text(
                "The README describes a demo project that the agent",
                terminal="incomplete",
                incomplete_reason="max_output_tokens",
            ),
        ],
        _text(
            prompt="Explain what README.md is for.",
            extra_args=["-c", "model_context_window=1600"],
        ),
        description="text mode with model_context_window=1600: 'warning: Exceeded skills "
        "context budget ...', an exec block, 'context compacted', the partial 'codex' block, "
        "then 'ERROR: Incomplete response returned, reason: max_output_tokens' twice, exit 1",
    )

    # -- credit, billing, spend and prepayment exhaustion --------------------------------------
    yield case(
        "litellm_budget_exceeded_400",
        "billing",
        _paid("gateway_budget_exceeded"),
        lambda c: [
            Reply(
                400,
                body={
                    "error": {
                        "message": "Budget has been exceeded! Current cost: 25.0173, Max "
                        "budget: 25.0",
                        "type": "budget_exceeded",
                        "param": None,
                        "code": "400",
                    }
                },
                label="400:budget_exceeded",
            )
        ],
        description="an LLM proxy's spend budget for the key is used up (400, type "
        "budget_exceeded, code '400'): turn.failed with the raw error body JSON, not retried, "
        "exit 1",
    )
    yield case(
        "text_prepaid_credits_in_stream",
        "billing",
        _paid("insufficient_quota in-stream"),
        lambda c: [
            O.response(
                terminal="failed",
                error_code="insufficient_quota",
                error_message="You've run out of prepaid credits. Add credits in the billing "
                "settings to keep using the API.",
            )
        ],
        _text(),
        description="text mode, HTTP 200 then response.failed insufficient_quota with a "
        "prepaid-credits message: 'ERROR: Quota exceeded. Check your plan and billing "
        "details.' twice, one request, exit 1",
    )

    # -- a do-not-retry signal the CLI does not pass on ---------------------------------------
    yield case(
        "should_retry_false_504",
        "do_not_retry",
        _t("server_error", "transient", "x_should_retry_false dropped; 504 from the API"),
        lambda c: [
            O.error(
                504,
                "Gateway timeout: the upstream model server did not respond in time.",
                "server_error",
                "upstream_timeout",
                headers={"x-should-retry": "false", "retry-after-ms": "0"},
            )
        ],
        description="504 JSON with x-should-retry: false and retry-after-ms: 0: Codex never "
        "reads the headers, retries (4 requests) and ends with turn.failed 'unexpected status "
        "504 Gateway Timeout: ...', exit 1",
    )

    # -- usage limits, server errors, overload -----------------------------------------------
    yield case(
        "usage_limit_in_stream",
        "usage_limit",
        _t("usage_limit", "transient", "response.failed usage_limit_reached, resets in 3 h"),
        lambda c: [
            O.response(
                terminal="failed",
                error_code="usage_limit_reached",
                error_message="You've reached your usage limit. Try again in 3 hours.",
            )
        ],
        description="HTTP 200 then response.failed code usage_limit_reached: retried once as a "
        "stream error, then turn.failed 'stream disconnected before completion: You've reached "
        "your usage limit. Try again in 3 hours.', exit 1",
    )
    yield case(
        "server_500_after_git_status",
        "server_error",
        _t("server_error", "transient", "500 mid-task, after the CLI's retries"),
        lambda c: [
            fc("exec_command", {"cmd": "git status --short"}),
            O.error(500, "Internal server error", "server_error", None),
        ],
        RunOptions(prompt="Which files have uncommitted changes?"),
        description="a command runs (git status fails with 128, command_execution failed), "
        "then every request is a 500: 'Reconnecting... 1/1 (We're currently experiencing high "
        "demand, ...)', turn.failed with the same words, exit 1",
    )
    yield case(
        "slow_down_in_stream",
        "overloaded",
        _t("overloaded", "transient", "response.failed slow_down"),
        lambda c: [
            O.response(
                terminal="failed",
                error_code="slow_down",
                error_message="We are experiencing unusually high load. Please slow down your "
                "request rate.",
            )
        ],
        description="HTTP 200 then response.failed code slow_down, every time: one reconnect, "
        "then turn.failed 'rate limit exceeded: We are experiencing unusually high load. ...', "
        "exit 1",
    )

    # -- refusals, invalid requests, auth ----------------------------------------------------
    yield case(
        "content_policy_violation_400",
        "api_policy",
        _t("refusal", "permanent", "content_policy_violation"),
        lambda c: [
            O.error(
                400,
                "Your request was rejected as a result of our safety system. Your prompt may "
                "contain text that is not allowed by our safety system.",
                "invalid_request_error",
                "content_policy_violation",
            )
        ],
        RunOptions(prompt="Write a script that floods a competitor's signup form."),
        description="HTTP 400 code content_policy_violation: turn.failed with the body's "
        "message, not retried, exit 1",
    )
    yield case(
        "gateway_422_validation",
        "invalid_request",
        _t("invalid_request", "permanent", "gateway rejects the request body (422)"),
        lambda c: [
            Reply(
                422,
                body={
                    "detail": [
                        {
                            "type": "literal_error",
                            "loc": ["body", "tools", 3, "type"],
                            "msg": "Input should be 'function'",
                            "input": "custom",
                            "ctx": {"expected": "'function'"},
                        }
                    ]
                },
                label="422:validation",
            )
        ],
        description="an OpenAI-compatible server validates the body and rejects the freeform "
        "tool (422 with a pydantic-style detail list): 'Reconnecting... 1/1 (unexpected status "
        "422 Unprocessable Entity: ...)', then turn.failed with the same text, exit 1",
    )
    yield case(
        "organization_mismatch_401",
        "auth",
        _t("auth", "permanent", "mismatched_organization"),
        lambda c: [
            O.error(
                401,
                "OpenAI-Organization header should match organization for API key",
                "invalid_request_error",
                "mismatched_organization",
            )
        ],
        description="401 mismatched_organization: 'Reconnecting... 1/1 (unexpected status 401 "
        "Unauthorized: OpenAI-Organization header should match ...)', then turn.failed with "
        "the same text, exit 1",
    )
