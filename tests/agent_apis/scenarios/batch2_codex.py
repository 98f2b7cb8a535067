"""The second fresh held-out batch for the codex CLI (variant 2: fixtures `<name>__f2`).

Written from the coverage table (docs/agents/codex.md) after the first batch was scored, by
someone who never saw the verdict code; frozen in FRESH.txt before the verdict changed.

Every case differs in shape from the tune cases and the first fresh batch (codex.py): other
wording, statuses and error bodies, other flags, env spellings and settings, the other output
mode, other tools and step counts. Never tune on these.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from agent_apis import openai as O
from agent_apis.clis import RunOptions
from agent_apis.core import Reply
from agent_apis.scenarios.base import Case, Context, Stop, Truth

CLI = "codex"

SUCCESS = Truth(True, "success", "none")
EMPTY = Truth(False, "empty_answer", "invalid_output")
DENIED_OK = Truth(True, "success", "none", warnings=("denied_tool",))
COMPACTED = Truth(True, "success", "none", warnings=("compacted",))


def _t(kind: str, retry: str, detail: str = "", **more: Any) -> Truth:
    return Truth(False, kind, retry, detail, **more)  # type: ignore[arg-type]


def _config(detail: str) -> Truth:
    return _t("config", "permanent", detail)


def _paid(detail: str) -> Truth:
    """Credit, billing, spend-cap or prepayment exhaustion: only paying (or an owner) helps."""
    return _t("quota_exhausted", "permanent", detail)


def _undone(detail: str) -> Truth:
    """A refused command left the task undone; only the answer's words say so."""
    return _t("permission", "permanent", detail, shown=False, warnings=("denied_tool",))


def _text(**options: Any) -> RunOptions:
    return RunOptions(output_format="text", **options)


# -- fixtures the cases share ---------------------------------------------------------------

BUILD_SH = (
    "test -f config.env || { echo 'build: config.env missing (copy config.env.example)' >&2; "
    "exit 2; }\n"
    "echo 'build: ok'\n"
)
CONFIG_EXAMPLE = "APP_ENV=development\nAPP_PORT=8080\n"
BAD_PATCH = (
    "apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: README.md\n@@\n"
    "-# demo projekt\n+# Demo project\n*** End Patch\nPATCH\n"
)
GOOD_PATCH = (
    "apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: README.md\n@@\n"
    "-# demo project\n+# Demo project\n*** End Patch\nPATCH\n"
)
# A 1x1 PNG: a real image for the -i flag (the server then rejects it as invalid).
PIXEL_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)
MCP_HTTP_REQUIRED = (
    "[mcp_servers.issues]\n"
    'url = "http://127.0.0.1:9/mcp"\n'
    "startup_timeout_sec = 3\n"
    "required = true\n"
)
MCP_TOKEN_REQUIRED = (
    "[mcp_servers.wiki]\n"
    'url = "http://127.0.0.1:9/mcp"\n'
    'bearer_token_env_var = "WIKI_MCP_TOKEN"\n'
    "required = true\n"
)
MCP_OPTIONAL_EXITS = (
    "[mcp_servers.lint]\n"
    'command = "sh"\n'
    'args = ["-c", "echo lint-mcp: cannot open lint.yaml >&2; exit 2"]\n'
)
RULES_UNCLOSED = (
    'prefix_rule(\n    pattern = ["git", "reset", "--hard"],\n    decision = "forbidden"\n'
)
PUSH_FORBIDDEN = (
    'prefix_rule(pattern = ["git", "push"], decision = "forbidden", '
    'justification = "releases are pushed by CI only")\n'
)
CLEAN_FORBIDDEN = (
    "prefix_rule(\n"
    '    pattern = ["git", "clean"],\n'
    '    decision = "forbidden",\n'
    '    justification = "git clean deletes untracked work",\n'
    ")\n"
)
# An archived session: a well-formed rollout, but under archived_sessions/.
ARCHIVED_THREAD = "0199a213-81c0-7800-8aa1-bbab2a035a42"
ARCHIVED_ROLLOUT = (
    f"home/.codex/archived_sessions/rollout-2026-11-25T08-15-00-{ARCHIVED_THREAD}.jsonl"
)
ARCHIVED_LINES = "".join(
    json.dumps(line) + "\n"
    for line in (
        {
            "timestamp": "2026-11-25T08:15:00.000Z",
            "type": "session_meta",
            "payload": {
                "id": ARCHIVED_THREAD,
                "timestamp": "2026-11-25T08:15:00.000Z",
                "cwd": "{WORK}",
                "originator": "codex_exec",
                "cli_version": "0.171.0",
                "source": "exec",
                "model_provider": "autofix",
            },
        },
        {
            "timestamp": "2026-11-25T08:15:00.100Z",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Fix the flaky test in test_api.py."}],
            },
        },
    )
)
FORK_MISSING = "01a21990-4f0c-7000-9000-00000000f0a7"


def _write_png(work: Path) -> None:
    (work / "screenshot.png").write_bytes(PIXEL_PNG)


def _escalated(cmd: str, justification: str) -> Reply:
    return O.function_call(
        "exec_command",
        {"cmd": cmd, "sandbox_permissions": "require_escalated", "justification": justification},
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


def _usage_limit(
    c: Context, plan: str, seconds: int, message: str, headers: Mapping[str, str] | None = None
) -> Reply:
    return O.error(
        429,
        message,
        "usage_limit_reached",
        None,
        headers=headers,
        extra={"plan_type": plan, "resets_at": int(c.now) + seconds},
    )


def codex_batch2_cases() -> Iterator[Case]:
    fc = O.function_call

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
            variant=2,
            **kw,
        )

    # -- debug and log switches, on runs that succeed and on runs that fail ------------------
    yield case(
        "debug_text_context_overflow",
        "debug_output",
        _t("context_window", "permanent"),
        lambda c: [
            O.error(
                400,
                "Input tokens exceed the configured limit of 272000 tokens. Your messages "
                "resulted in 301233 tokens. Please reduce the length of the messages.",
                "invalid_request_error",
                "context_length_exceeded",
            )
        ],
        _text(
            prompt="Review every file in this repository for security problems.",
            extra_env={"RUST_LOG": "debug"},
        ),
        description="text mode with RUST_LOG=debug: DEBUG/INFO/WARN tracing lines among the "
        "banner on stderr, then a 400 context_length_exceeded: 'ERROR: Codex ran out of room in "
        "the model's context window. ...' twice, exit 1",
    )
    yield case(
        "log_info_usage_limit_credits",
        "debug_output",
        _t("usage_limit", "transient", "usage_limit_reached, resets in 20 min"),
        lambda c: [
            _usage_limit(
                c,
                "pro",
                1200,
                "You have used all of your Codex messages for this 5-hour window.",
                headers={
                    "x-codex-credits-has-credits": "false",
                    "x-codex-credits-balance": "0",
                    "x-codex-credits-unlimited": "false",
                },
            )
        ],
        RunOptions(extra_env={"RUST_LOG": "info"}),
        description="RUST_LOG=info, JSON mode: INFO/WARN tracing lines on stderr; a 429 "
        "usage_limit_reached (plan pro, resets_at in 20 min, x-codex-credits-* headers saying "
        "no credits): turn.failed 'You've hit your usage limit. ... try again at <time>.'",
    )
    yield case(
        "log_api_debug_reconnect_success",
        "debug_output",
        SUCCESS,
        lambda c: [
            O.text("Partial answer that the proxy cuts off", drop_after=5),
            O.text("pong"),
        ],
        RunOptions(extra_env={"RUST_LOG": "warn,codex_api=debug"}),
        description="RUST_LOG=warn,codex_api=debug: 'DEBUG codex_api::sse::responses: SSE "
        "Error: ...' and 'WARN codex_core::responses_retry: stream disconnected - retrying' on "
        "stderr, a Reconnecting error event in the JSONL, then the answer: exit 0",
    )
    yield case(
        "debug_text_missing_file_recovered",
        "debug_output",
        SUCCESS,
        lambda c: [
            fc("exec_command", {"cmd": "cat CONTRIBUTING.md"}),
            fc("exec_command", {"cmd": "ls -1"}),
            O.text("There is no CONTRIBUTING.md; the project only has a README.md."),
        ],
        _text(prompt="Summarise CONTRIBUTING.md.", extra_env={"RUST_LOG": "debug"}),
        description="text mode with RUST_LOG=debug: tracing noise, an exec block ' exited 1' "
        "with 'No such file or directory', a second command, the answer on stdout, exit 0",
    )

    # -- tool errors the agent recovered from ----------------------------------------------
    yield case(
        "apply_patch_mismatch_then_fixed",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("exec_command", {"cmd": BAD_PATCH}),
            fc("exec_command", {"cmd": GOOD_PATCH}),
            O.text("The README title is capitalised now: '# Demo project'."),
        ],
        RunOptions(
            prompt="Capitalise the README title.", extra_args=["--sandbox", "workspace-write"]
        ),
        description="--sandbox workspace-write: the first apply_patch does not match ('ERROR "
        "codex_core::tools::router: error=apply_patch verification failed: Failed to find "
        "expected lines ...' on stderr, no item), the second applies (a file_change item), "
        "the answer, exit 0",
    )
    yield case(
        "text_build_failed_then_fixed",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("exec_command", {"cmd": "sh build.sh"}),
            fc("exec_command", {"cmd": "cp config.env.example config.env"}),
            fc("exec_command", {"cmd": "sh build.sh"}),
            O.text(
                "The build passes now: config.env was missing, so I created it from the example."
            ),
        ],
        _text(
            prompt="Make the build pass.",
            extra_args=["--sandbox", "workspace-write"],
            files={"work/build.sh": BUILD_SH, "work/config.env.example": CONFIG_EXAMPLE},
        ),
        description="text mode, workspace-write: 'sh build.sh' exits 2 ('build: config.env "
        "missing'), the agent copies the example, the rerun succeeds, the answer on stdout",
    )

    # -- output modes: answers missing --------------------------------------------------------
    yield case(
        "text_output_file_empty",
        "text_mode",
        EMPTY,
        lambda c: [O.response()],
        _text(prompt="Write release notes for 1.2.0.", extra_args=["-o", "answer.md"]),
        description="text mode with -o answer.md and a completed response without a message: "
        "'Warning: no last agent message; wrote empty content to answer.md' on stderr, stdout "
        "empty, exit 0",
    )
    yield case(
        "text_commands_then_no_message",
        "text_mode",
        EMPTY,
        lambda c: [fc("exec_command", {"cmd": "ls -la"}), O.response()],
        _text(prompt="List the project files and say what each is for."),
        description="text mode: a command runs (exec block on stderr), then the model completes "
        "with no message: stdout empty, 'tokens used' last, exit 0",
    )

    # -- sessions that cannot be resumed ----------------------------------------------------
    yield case(
        "fork_missing_session",
        "missing_session",
        _config("missing_session"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["fork", FORK_MISSING]),
        description="exec fork <uuid> that no session has: 'Error: thread/read: thread/read "
        "failed: thread not loaded: <uuid> (code -32600)' on stderr, exit 1, no JSONL",
    )
    yield case(
        "resume_archived_session",
        "missing_session",
        _config("archived_session"),
        lambda c: [O.text("pong")],
        RunOptions(
            extra_args=["resume", ARCHIVED_THREAD], files={ARCHIVED_ROLLOUT: ARCHIVED_LINES}
        ),
        description="exec resume <uuid> whose rollout is in archived_sessions/: 'Error: "
        "thread/resume: thread/resume failed: session <uuid> is archived. Run `codex unarchive "
        "<uuid>` to unarchive it first. (code -32600)', exit 1, no JSONL",
    )

    # -- MCP servers at start-up ------------------------------------------------------------
    yield case(
        "mcp_required_http_refused",
        "mcp_startup",
        _config("mcp_required_failed"),
        lambda c: [O.text("pong")],
        RunOptions(files={"home/.codex/config.toml": MCP_HTTP_REQUIRED}),
        description="a required streamable-HTTP MCP server whose URL refuses connections: "
        "'ERROR rmcp::transport::worker: ...' lines, 'ERROR codex_core::session: Failed to "
        "create session: ... issues: handshaking with MCP server failed: ...' and 'Error: "
        "thread/start: ...', exit 1",
    )
    yield case(
        "mcp_required_token_env_unset",
        "mcp_startup",
        _config("mcp_required_failed"),
        lambda c: [O.text("pong")],
        RunOptions(files={"home/.codex/config.toml": MCP_TOKEN_REQUIRED}),
        description="a required HTTP MCP server whose bearer_token_env_var is not set: '... "
        "wiki: Environment variable WIKI_MCP_TOKEN for MCP server ...' in 'Error: "
        "thread/start: ...', exit 1, no request",
    )
    yield case(
        "mcp_optional_exits_text",
        "mcp_startup",
        Truth(True, "success", "none", "an optional MCP server's failure is reported nowhere"),
        lambda c: [O.text("pong")],
        _text(files={"home/.codex/config.toml": MCP_OPTIONAL_EXITS}),
        description="text mode, an optional MCP server that exits 2 at once: the banner and "
        "the answer, nothing about the server anywhere, exit 0",
    )

    # -- invalid configuration and files a flag names --------------------------------------
    yield case(
        "project_config_trusted_invalid",
        "invalid_config",
        _config("invalid_project_config"),
        lambda c: [O.text("pong")],
        RunOptions(
            extra_args=["--trust"],
            files={"work/.codex/config.toml": '[profile]\nmodel = "gpt-5.5\n'},
        ),
        description="--trust loads the project's .codex/config.toml, which has a broken "
        "string: 'Error: Error parsing project config file <path>: TOML parse error at line "
        "2 ...', exit 1",
    )
    yield case(
        "profile_config_invalid",
        "invalid_config",
        _config("invalid_profile_config"),
        lambda c: [O.text("pong")],
        RunOptions(
            extra_args=["-p", "nightly"],
            files={"home/.codex/nightly.config.toml": 'sandbox_mode = "readonly"\n'},
        ),
        description="-p nightly layers $CODEX_HOME/nightly.config.toml, whose sandbox_mode is "
        "misspelt: 'Error loading config.toml: unknown variant `readonly`, expected one of ...'"
        ", exit 1",
    )
    yield case(
        "rules_unclosed_call",
        "invalid_config",
        _config("invalid_rules_file"),
        lambda c: [O.text("pong")],
        RunOptions(files={"home/.codex/rules/git.rules": RULES_UNCLOSED}),
        description="a .rules file with an unclosed prefix_rule( call: 'Error loading rules:' "
        "/ '<path>:N: starlark error: error: Parse error: ...', exit 1",
    )
    yield case(
        "image_flag_missing_file",
        "invalid_config",
        _t("config", "permanent", "image_file_missing", shown=False),
        lambda c: [
            O.text("I could not read the attached screenshot, so I cannot say what it shows.")
        ],
        RunOptions(
            prompt="What does the attached screenshot show?",
            extra_args=["-i", "screenshot.png"],
        ),
        description="-i names an image that does not exist: Codex only tells the model "
        "('Codex could not read the local image ...' in the prompt), nothing on stderr or in "
        "the JSONL; the model says it cannot see it; turn.completed, exit 0",
    )
    yield case(
        "last_message_dir_missing",
        "invalid_config",
        _config("output_last_message_path_missing"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["--output-last-message", "/nonexistent/out/last.txt"]),
        description="--output-last-message into a directory that does not exist: 'Error: "
        "Failed to open last message file ...: No such file or directory (os error 2)', exit 1, "
        "no request",
    )

    # -- the command line -------------------------------------------------------------------
    yield case(
        "enable_unknown_feature",
        "bad_flag",
        _config("invalid_flag_value"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["--enable", "web_search_live"]),
        description="--enable with a feature name this version does not know: 'Error: Unknown "
        "feature flag: web_search_live', exit 1",
    )
    yield case(
        "last_message_flag_no_value",
        "bad_flag",
        _config("missing_flag_value"),
        lambda c: [O.text("pong")],
        _text(extra_args=["-o"]),
        description="text mode, -o given last without its file: clap's \"error: a value is "
        "required for '--output-last-message <FILE>' but none was supplied\", exit 2",
    )

    # -- sandboxes and approval policies that refuse commands ---------------------------------
    yield case(
        "workspace_write_outside_undone",
        "sandbox_denial",
        _undone("write outside the workspace-write roots"),
        lambda c: [
            fc("exec_command", {"cmd": "echo 'export PATH=$PATH:/opt/tools' >> /etc/profile"}),
            O.text("I could not update /etc/profile: the file system there is read-only to me."),
        ],
        RunOptions(
            prompt="Add /opt/tools to PATH in /etc/profile.",
            extra_args=["--sandbox", "workspace-write"],
        ),
        description="--sandbox workspace-write and the task is a write outside the workspace: "
        "command_execution status failed, 'Read-only file system'; the agent says it could not; "
        "turn.completed, exit 0",
    )
    yield case(
        "auto_review_denied_worked_around",
        "sandbox_denial",
        DENIED_OK,
        lambda c: [
            _escalated(
                "wc -l README.md > ~/.cache/readme-lines", "cache the line count in the home"
            ),
            _review("deny", "medium", "Writing into the home directory is not needed."),
            fc("exec_command", {"cmd": "wc -l README.md"}),
            O.text("README.md has 3 lines."),
        ],
        RunOptions(
            prompt="How many lines does README.md have? Cache the count if you can.",
            extra_args=["--approve-for-me"],
        ),
        description="--approve-for-me: the escalation goes to the automatic review (a model "
        "call with its own JSON schema), which denies it: a command_execution item with status "
        "'declined' and an ERROR router line; the agent counts without the cache, exit 0",
    )
    yield case(
        "auto_review_denied_undone",
        "sandbox_denial",
        _undone("automatic approval review denied the escalation"),
        lambda c: [
            _escalated(
                "cp hooks/pre-commit /usr/local/share/git-hooks/pre-commit",
                "install the shared pre-commit hook",
            ),
            _review("deny", "high", "Writes to a system directory outside the workspace."),
            O.text("I could not install the hook: the automatic review denied the write."),
        ],
        RunOptions(
            prompt="Install hooks/pre-commit into /usr/local/share/git-hooks.",
            extra_args=["--approve-for-me"],
        ),
        description="--approve-for-me and the task is the escalated write: the review denies "
        "it (a 'declined' command_execution item), the agent says it could not; turn.completed, "
        "exit 0",
    )

    # -- exec policies (.rules) that refuse commands ---------------------------------------
    yield case(
        "bypass_flag_rule_forbids_push",
        "policy_denial",
        _undone("execpolicy forbidden rule, even with the bypass flag"),
        lambda c: [
            fc("exec_command", {"cmd": "git push --force origin release"}),
            O.text("I could not push: a rule here forbids git push (releases are pushed by CI)."),
        ],
        RunOptions(
            prompt="Force-push the release branch to origin.",
            extra_args=["--dangerously-bypass-approvals-and-sandbox"],
            files={"home/.codex/rules/default.rules": PUSH_FORBIDDEN},
        ),
        description="--dangerously-bypass-approvals-and-sandbox does not lift a forbidden "
        "rule: 'ERROR codex_core::tools::router: error=exec_command failed: CreateProcess "
        "{ ... rejected: releases are pushed by CI only ... }' on stderr; the task is left "
        "undone, turn.completed, exit 0",
    )
    yield case(
        "text_rule_forbids_clean_worked_around",
        "policy_denial",
        DENIED_OK,
        lambda c: [
            fc("exec_command", {"cmd": "git clean -fdx"}),
            fc("exec_command", {"cmd": "ls -a"}),
            O.text("The project has one file, README.md; git clean was refused, nothing to clean."),
        ],
        _text(
            prompt="List the project files (clean out untracked build output first if any).",
            files={"home/.codex/rules/default.rules": CLEAN_FORBIDDEN},
        ),
        description="text mode: a forbidden rule refuses git clean (the ERROR router line "
        "between the transcript blocks), the agent lists the files and answers, exit 0",
    )

    # -- loops: nothing in Codex stops them ---------------------------------------------------
    yield case(
        "loop_failing_tests_text_timeout",
        "loop",
        _t("timeout", "transient"),
        lambda c: [fc("exec_command", {"cmd": "npm test"})],
        _text(prompt="Run the tests and fix what fails."),
        stop=Stop("SIGTERM", when_requests=7, hold_s=0.5),
        description="text mode: the model reruns the same failing 'npm test' (npm ENOENT "
        "errors in the exec blocks) forever; SIGTERM from autofix's wall-clock timeout",
    )
    yield case(
        "loop_reading_lines_killed",
        "loop",
        _t("killed", "transient"),
        lambda c: [
            fc("exec_command", {"cmd": f"sed -n '{i % 3 + 1}p' README.md"}) for i in range(60)
        ],
        RunOptions(prompt="Read README.md line by line until you understand it."),
        stop=Stop("SIGKILL", when_requests=5, hold_s=0.3),
        description="the model cycles through three sed commands forever; SIGKILL to the "
        "group (an OOM kill or an eviction) after five model calls",
    )

    # -- compaction ---------------------------------------------------------------------
    yield case(
        "compaction_then_bad_gateway",
        "compaction",
        _t("server_error", "transient", "502 after an auto-compaction"),
        lambda c: [
            fc("exec_command", {"cmd": "cat README.md"}),
            O.text("Summary: the user asked about README.md; it was read: a demo project."),
            O.error(502, "Bad gateway", "server_error", None),
        ],
        RunOptions(extra_args=["-c", "model_auto_compact_token_limit=1000"]),
        description="model_auto_compact_token_limit=1000: a tool call, a compaction (no JSONL "
        "trace), then the turn's next request gets 502 four times: turn.failed 'unexpected "
        "status 502 Bad Gateway: ...', exit 1",
    )
    yield case(
        "compaction_text_after_failed_command",
        "compaction",
        COMPACTED,
        lambda c: [
            fc("exec_command", {"cmd": "cat CHANGES.md"}),
            O.text("Summary: CHANGES.md does not exist; only README.md is in the project."),
            O.text("There is no changelog yet: CHANGES.md does not exist."),
        ],
        _text(
            prompt="What changed in the last release?",
            extra_args=["-c", "model_auto_compact_token_limit=900"],
        ),
        description="text mode: a command fails (' exited 1'), Codex compacts ('context "
        "compacted' on stderr), then the answer on stdout, exit 0",
    )

    # -- credit, billing, spend caps -----------------------------------------------------
    yield case(
        "billing_hard_limit_in_stream",
        "billing",
        _paid("billing_hard_limit_reached"),
        lambda c: [
            O.response(
                terminal="failed",
                error_code="billing_hard_limit_reached",
                error_message="Billing hard limit has been reached. Increase your limit at "
                "https://platform.openai.com/account/limits to continue.",
            )
        ],
        description="HTTP 200, then response.failed with code billing_hard_limit_reached: "
        "retried once as a stream error, then turn.failed 'stream disconnected before "
        "completion: Billing hard limit has been reached. ...', exit 1",
    )
    yield case(
        "account_not_active_403",
        "billing",
        _paid("billing_not_active"),
        lambda c: [
            O.error(
                403,
                "Your account is not active, please check your billing details on our website.",
                "billing_not_active",
                "billing_not_active",
            )
        ],
        description="403 billing_not_active: 'unexpected status 403 Forbidden: Your account is "
        "not active, please check your billing details ...', retried once, exit 1",
    )
    yield case(
        "text_workspace_member_spend_cap",
        "billing",
        _paid("workspace_member_usage_limit_reached"),
        lambda c: [
            O.error(
                429,
                "Spend cap reached for this workspace member.",
                "usage_limit_reached",
                None,
                headers={"x-codex-rate-limit-reached-type": "workspace_member_usage_limit_reached"},
                extra={"plan_type": "enterprise"},
            )
        ],
        _text(),
        description="text mode, 429 usage_limit_reached with x-codex-rate-limit-reached-type "
        "workspace_member_usage_limit_reached: 'ERROR: You hit your spend cap set by the owner "
        "of your workspace. ...' twice, exit 1",
    )

    # -- a do-not-retry signal the CLI does not pass on --------------------------------------
    yield case(
        "should_retry_false_daily_429",
        "do_not_retry",
        _t("rate_limit", "transient", "x_should_retry_false dropped; requests-per-day limit"),
        lambda c: [
            O.error(
                429,
                "Rate limit reached for gpt-5.5 in organization org-autofix on requests per day "
                "(RPD): Limit 10000, Used 10000, Requested 1. Please try again in 8h38m24s.",
                "requests",
                "rate_limit_exceeded",
                headers={
                    "x-should-retry": "false",
                    **O.rate_limit_headers(reset_requests="8h38m24s", retry_after=None),
                },
            )
        ],
        description="429 requests-per-day limit with x-should-retry: false: Codex never reads "
        "the header; one request, turn.failed 'exceeded retry limit, last status: 429 Too Many "
        "Requests, ...', exit 1",
    )

    # -- rate limits, server errors, overload -------------------------------------------------
    yield case(
        "rate_limit_in_stream_then_success",
        "rate_limit",
        SUCCESS,
        lambda c: [
            O.response(
                terminal="failed",
                error_code="rate_limit_exceeded",
                error_message="Rate limit reached for gpt-5.5 on requests per min (RPM): Limit "
                "60, Used 60, Requested 1. Please try again in 250ms.",
            ),
            O.text("pong"),
        ],
        description="response.failed rate_limit_exceeded 'try again in 250ms', then a normal "
        "answer: a Reconnecting error event in the JSONL, turn.completed, exit 0",
    )
    yield case(
        "text_gateway_timeout_html",
        "server_error",
        _t("server_error", "transient", "504 from a proxy"),
        lambda c: [
            Reply(
                504,
                headers={"content-type": "text/html"},
                body="<html><body><h1>504 Gateway Time-out</h1>The server didn't respond in "
                "time.</body></html>",
                label="504:html",
            )
        ],
        _text(),
        description="text mode, a proxy's HTML 504 on every request: 'ERROR: Reconnecting... "
        "1/1', then 'ERROR: unexpected status 504 Gateway Timeout: <html>...' twice, exit 1",
    )
    yield case(
        "engine_overloaded_503",
        "overloaded",
        _t("overloaded", "transient", "503 engine_overloaded"),
        lambda c: [
            O.error(
                503,
                "That model is currently overloaded with other requests. You can retry your "
                "request, or contact us through our help center at help.openai.com if the "
                "error persists.",
                "server_error",
                "engine_overloaded",
            )
        ],
        description="503 code engine_overloaded (not one of Codex's overload codes): retried, "
        "then turn.failed 'unexpected status 503 Service Unavailable: That model is currently "
        "overloaded ...', exit 1",
    )

    # -- refusals and policy blocks ---------------------------------------------------------
    yield case(
        "invalid_prompt_400",
        "api_policy",
        _t("refusal", "permanent", "invalid_prompt"),
        lambda c: [
            O.error(
                400,
                "Invalid prompt: your prompt was flagged as potentially violating our usage "
                "policy. Please try again with a different prompt.",
                "invalid_request_error",
                "invalid_prompt",
            )
        ],
        description="400 code invalid_prompt: turn.failed with the body's message, not "
        "retried, exit 1",
    )
    yield case(
        "text_safety_system_in_stream",
        "refusal",
        _t("refusal", "permanent", "content_policy_violation"),
        lambda c: [
            O.response(
                terminal="failed",
                error_code="content_policy_violation",
                error_message="Your request was rejected as a result of our safety system.",
            )
        ],
        _text(prompt="Write a working keylogger for Windows."),
        description="text mode, response.failed code content_policy_violation: 'ERROR: Your "
        "request was rejected as a result of our safety system.' twice, exit 1",
    )

    # -- malformed requests ----------------------------------------------------------------
    yield case(
        "invalid_image_400",
        "invalid_request",
        _t("invalid_request", "permanent", "invalid_image"),
        lambda c: [
            O.error(
                400,
                "The image data you provided does not represent a valid image. Please check "
                "your input and try again.",
                "invalid_request_error",
                "invalid_value",
            )
        ],
        RunOptions(
            prompt="What is in this screenshot?",
            extra_args=["-i", "screenshot.png"],
            setup=_write_png,
        ),
        description="-i with an image the API rejects (400 'does not represent a valid "
        "image'): turn.failed 'Invalid image in your last message. Please remove it and try "
        "again.', exit 1",
    )
    yield case(
        "text_unsupported_parameter",
        "invalid_request",
        _t("invalid_request", "permanent", "unsupported_parameter"),
        lambda c: [
            O.error(
                400,
                "Unsupported parameter: 'reasoning.effort' is not supported with this model.",
                "invalid_request_error",
                "unsupported_parameter",
            )
        ],
        _text(extra_args=["-c", 'model_reasoning_effort="high"']),
        description='text mode, 400 unsupported_parameter: \'ERROR: {"error": {"message": '
        "\"Unsupported parameter: ...' (the raw body) twice, exit 1",
    )
