"""The third fresh held-out batch for the codex CLI (variant 3: fixtures `<name>__f3`).

Written from the coverage table (docs/agents/codex.md) after the first two batches were scored,
by someone who never saw the verdict code; frozen in FRESH.txt before the verdict changed.

Every case differs in shape from the tune cases and the first two fresh batches (codex.py,
batch2_codex.py): other wording, statuses and error bodies, other flags, env spellings and
settings, other tools (view_image, unknown tools), the other output mode, other step counts,
reasoning items without a message. Never tune on these.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from agent_apis import openai as O
from agent_apis.clis import RunOptions
from agent_apis.core import Reply
from agent_apis.scenarios.base import Case, Context, Stop, Truth

CLI = "codex"

SUCCESS = Truth(True, "success", "none")


def _t(kind: str, retry: str, detail: str = "", **more: Any) -> Truth:
    return Truth(False, kind, retry, detail, **more)  # type: ignore[arg-type]


def _config(detail: str) -> Truth:
    return _t("config", "permanent", detail)


def _paid(detail: str, **more: Any) -> Truth:
    """Credit, billing, spend or prepayment exhaustion: only paying (or an owner) helps."""
    return _t("quota_exhausted", "permanent", detail, **more)


def _text(**options: Any) -> RunOptions:
    return RunOptions(output_format="text", **options)


# -- fixtures the cases share -------------------------------------------------------------

CALC_PY = "def total(xs):\n    return sum(xs\n\nprint(total([1, 2, 3]))\n"
FIX_CALC = "sed -i 's/return sum(xs$/return sum(xs)/' calc.py"
KUBECTL_RULES = (
    "prefix_rule(\n"
    '    pattern = ["kubectl", ["apply", "delete", "rollout"]],\n'
    '    decision = "prompt",\n'
    '    justification = "cluster changes need an operator",\n'
    ")\n"
)
CHECK_CHANGELOG_PY = (
    "import pathlib, sys\n"
    "text = pathlib.Path('CHANGELOG.md').read_text()\n"
    "sys.exit(0 if text.startswith('# Changelog') else 1)\n"
)
CHECK_AND_COMMIT = (
    "python3 scripts/check_changelog.py && git add CHANGELOG.md && "
    "git -c user.email=bot@example.com -c user.name=bot commit -m 'docs: changelog'"
)
WRITE_CACHE = "python3 -c \"import pathlib; pathlib.Path('.lint-cache').write_text('1: demo')\""
MCP_JS_REQUIRED = '[mcp_servers.jira]\ncommand = "{WORK}/tools/jira-mcp.js"\nrequired = true\n'
MCP_HTTP_OPTIONAL = (
    '[mcp_servers.sentry]\nurl = "http://127.0.0.1:9/mcp"\nstartup_timeout_sec = 3\n'
)
MCP_NO_TRANSPORT = (
    "[mcp_servers.jira]\n"
    'env = { JIRA_URL = "https://jira.example.com" }\n'
    "startup_timeout_sec = 20\n"
)
# A session whose rollout file exists but is empty (a crash before the first write).
EMPTY_THREAD = "0199a213-81c0-7800-8aa1-bbab2a035b07"
EMPTY_ROLLOUT = f"home/.codex/sessions/2026/11/24/rollout-2026-11-24T09-00-00-{EMPTY_THREAD}.jsonl"
VERIFY_ORG = (
    "Your organization must be verified to stream this model. Please go to: "
    "https://platform.openai.com/settings/organization/general and click on Verify "
    "Organization. If you just verified, it can take up to 15 minutes for access to propagate."
)


def _js_mcp_without_shebang(work: Path) -> None:
    """An executable MCP server script that has no #! line (exec fails: ENOEXEC)."""
    script = work / "tools" / "jira-mcp.js"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text("const server = require('./server');\nserver.start();\n")
    os.chmod(script, 0o755)


def _git_repo_with_change(work: Path) -> None:
    """A git repository with one commit and an uncommitted change to CHANGELOG.md."""
    ident = ["-c", "user.email=dev@example.com", "-c", "user.name=dev"]
    (work / "CHANGELOG.md").write_text("# Changelog\n")
    subprocess.run(["git", "init", "-q"], cwd=work, check=True)
    subprocess.run(["git", *ident, "add", "-A"], cwd=work, check=True)
    subprocess.run(["git", *ident, "commit", "-qm", "init"], cwd=work, check=True)
    (work / "CHANGELOG.md").write_text("# Changelog\n\n- fix the build\n")


def codex_batch3_cases() -> Iterator[Case]:
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
            variant=3,
            **kw,
        )

    # -- debug and log switches, on a run that succeeds and on one that fails ---------------
    yield case(
        "trace_backtrace_git_log_recovered",
        "debug_output",
        SUCCESS,
        lambda c: [
            fc("exec_command", {"cmd": "git log --oneline -1"}),
            fc("exec_command", {"cmd": "ls"}),
            O.text("This is not a git repository yet; the only file is README.md."),
        ],
        RunOptions(
            prompt="What was the last commit?",
            extra_env={"RUST_LOG": "trace", "RUST_BACKTRACE": "1"},
        ),
        description="RUST_LOG=trace and RUST_BACKTRACE=1: hundreds of TRACE/DEBUG/INFO/WARN "
        "lines on stderr (plugin-sync WARN ... error=...); git log fails (exit 128, 'not a git "
        "repository'), ls works, the answer; turn.completed, exit 0",
    )
    yield case(
        "debug_text_org_unverified_400",
        "debug_output",
        _t("permission", "permanent", "organization_not_verified"),
        lambda c: [
            O.error(
                400,
                VERIFY_ORG,
                "invalid_request_error",
                "unsupported_value",
                extra={"param": "stream"},
            )
        ],
        _text(extra_env={"RUST_LOG": "debug"}),
        description="text mode with RUST_LOG=debug: tracing noise around the banner, then a "
        "400 'Your organization must be verified to stream this model' (param stream): 'ERROR: "
        '{"error": {...}}\' (the raw body) twice, exit 1, not retried',
    )

    # -- tool errors the agent recovered from, failed commands it fixed ----------------------
    yield case(
        "view_image_missing_then_listed",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("view_image", {"path": "docs/architecture.png"}),
            fc("exec_command", {"cmd": "ls"}),
            O.text("There is no architecture diagram: the project only has README.md."),
        ],
        RunOptions(prompt="Describe docs/architecture.png."),
        description="view_image on a missing file: 'ERROR codex_core::tools::router: "
        "error=unable to locate image at ...' on stderr (no item), then ls and the answer; "
        "exit 0",
    )
    yield case(
        "python_traceback_fixed_bypass",
        "recovered_tool_error",
        SUCCESS,
        lambda c: [
            fc("exec_command", {"cmd": "python3 calc.py"}),
            fc("exec_command", {"cmd": FIX_CALC}),
            fc("exec_command", {"cmd": "python3 calc.py"}),
            O.text("calc.py runs now and prints 6: total() was missing a closing parenthesis."),
        ],
        RunOptions(
            prompt="calc.py crashes; fix it.",
            extra_args=["--dangerously-bypass-approvals-and-sandbox"],
            files={"work/calc.py": CALC_PY},
        ),
        description="--dangerously-bypass-approvals-and-sandbox: python3 calc.py fails (exit 1, "
        "SyntaxError traceback in aggregated_output), sed fixes it, the rerun prints 6, the "
        "answer; exit 0",
    )

    # -- output modes ----------------------------------------------------------------------
    yield case(
        "text_last_message_file_success",
        "text_mode",
        SUCCESS,
        lambda c: [O.text("Fixed the crash when the config file is missing.")],
        _text(prompt="Write a one-line release note.", extra_args=["-o", "release-note.txt"]),
        description="text mode with -o release-note.txt: the answer on stdout and in the file, "
        "the transcript on stderr, exit 0",
    )
    yield case(
        "reasoning_only_no_message",
        "success",
        _t("empty_answer", "invalid_output", "reasoning item, no message"),
        lambda c: [
            O.response(
                O.Reasoning(
                    "**Planning the fix**\n\nThe test fails because the fixture path is wrong; "
                    "I should update conftest.py."
                )
            )
        ],
        RunOptions(prompt="Fix the failing test."),
        description="a completed response with only a reasoning item: an item.completed of "
        "type reasoning, turn.completed with no agent_message, exit 0",
    )

    # -- sessions that cannot be resumed -----------------------------------------------------
    yield case(
        "fork_name_not_found",
        "missing_session",
        _config("missing_session"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["fork", "release-prep"]),
        description="exec fork <name> where no thread has that name (exec resume <name> would "
        "silently start a new thread): 'Error: Session not found: release-prep', exit 1, no "
        "JSONL",
    )
    yield case(
        "resume_empty_rollout",
        "missing_session",
        _config("unresumable_session"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["resume", EMPTY_THREAD], files={EMPTY_ROLLOUT: ""}),
        description="exec resume <uuid> whose rollout file is empty: 'Error: thread/resume: "
        "thread/resume failed: failed to read thread: ... rollout at <path> is empty (code "
        "-32603)', exit 1, no JSONL",
    )

    # -- MCP servers at start-up -------------------------------------------------------------
    yield case(
        "mcp_required_exec_format_error",
        "mcp_startup",
        _config("mcp_required_failed"),
        lambda c: [O.text("pong")],
        RunOptions(
            setup=_js_mcp_without_shebang, files={"home/.codex/config.toml": MCP_JS_REQUIRED}
        ),
        description="a required MCP server whose command is an executable .js file without a "
        "#! line: '... required MCP servers failed to initialize: jira: Exec format error (os "
        "error 8)' in the ERROR session line and 'Error: thread/start: ...', exit 1",
    )
    yield case(
        "mcp_optional_http_refused",
        "mcp_startup",
        Truth(True, "success", "none", warnings=("mcp_server_failed",)),
        lambda c: [O.text("pong")],
        RunOptions(files={"home/.codex/config.toml": MCP_HTTP_OPTIONAL}),
        description="an optional streamable-HTTP MCP server whose URL refuses connections: "
        "'ERROR rmcp::transport::worker: worker quit with fatal: ... http/request failed ...' "
        "lines on stderr, the run answers, exit 0",
    )

    # -- invalid configuration and the command line --------------------------------------------
    yield case(
        "mcp_server_without_transport",
        "invalid_config",
        _config("invalid_config_value"),
        lambda c: [O.text("pong")],
        RunOptions(files={"home/.codex/config.toml": MCP_NO_TRANSPORT}),
        description="config.toml has an [mcp_servers.jira] table with neither command nor url: "
        "'Error loading config.toml: invalid transport' / 'in `mcp_servers.jira`', exit 1",
    )
    yield case(
        "unknown_flag_output_format",
        "bad_flag",
        _config("unknown_flag"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["--output-format", "json"]),
        description="claude's --output-format given to codex exec: \"error: unexpected argument "
        "'--output-format' found\", a tip naming --output-schema, the usage, exit 2",
    )
    yield case(
        "sandbox_value_underscore",
        "bad_flag",
        _config("invalid_flag_value"),
        lambda c: [O.text("pong")],
        RunOptions(extra_args=["-s", "workspace_write"]),
        description="-s workspace_write (underscore): \"error: invalid value 'workspace_write' "
        "for '--sandbox <SANDBOX_MODE>'\", the possible values and a tip naming workspace-write, "
        "exit 2",
    )

    # -- sandboxes and exec policies that refuse commands ---------------------------------------
    yield case(
        "workspace_write_git_commit_undone",
        "sandbox_denial",
        _t(
            "permission",
            "permanent",
            "workspace-write keeps .git read-only; the commit failed",
            shown=False,
            warnings=("denied_tool",),
        ),
        lambda c: [
            fc("exec_command", {"cmd": CHECK_AND_COMMIT}),
            O.text("I could not commit: git cannot write to .git in this sandbox."),
        ],
        RunOptions(
            prompt="Check CHANGELOG.md and commit it.",
            extra_args=["--sandbox", "workspace-write"],
            files={"work/scripts/check_changelog.py": CHECK_CHANGELOG_PY},
            setup=_git_repo_with_change,
        ),
        description="--sandbox workspace-write in a git repository: the check script passes, "
        "but .git stays read-only, so git add fails (command_execution status failed, exit "
        "128, 'Unable to create .../.git/index.lock': Read-only file system); the agent says "
        "it could not commit; turn.completed, exit 0",
    )
    yield case(
        "text_read_only_cache_worked_around",
        "sandbox_denial",
        Truth(True, "success", "none", warnings=("denied_tool",)),
        lambda c: [
            fc("exec_command", {"cmd": WRITE_CACHE}),
            fc("exec_command", {"cmd": "grep -n demo README.md"}),
            O.text("README.md line 1 mentions the demo project."),
        ],
        _text(
            prompt="Which README lines mention demo? Cache results if useful.",
            extra_args=["--sandbox", "read-only"],
        ),
        description="text mode, --sandbox read-only: an exec block for the python cache write "
        "' exited 1' with a traceback ending 'OSError: [Errno 30] Read-only file system' on "
        "stderr, then grep works and the answer is on stdout, exit 0",
    )
    yield case(
        "text_prompt_rule_kubectl_undone",
        "policy_denial",
        _t(
            "permission",
            "permanent",
            "execpolicy prompt rule, exec cannot ask",
            shown=False,
            warnings=("denied_tool",),
        ),
        lambda c: [
            fc("exec_command", {"cmd": "kubectl rollout restart deployment/api"}),
            O.text(
                "I could not restart the deployment: kubectl rollout needs an operator's "
                "approval here."
            ),
        ],
        _text(
            prompt="Restart the api deployment.",
            files={"home/.codex/rules/cluster.rules": KUBECTL_RULES},
        ),
        description="text mode, a rule with alternatives (kubectl apply|delete|rollout) says "
        "prompt: 'ERROR codex_core::tools::router: ... Rejected(\"approval required by policy, "
        "but AskForApproval is set to Never\")' on stderr, the task is left undone, exit 0",
    )

    # -- loops -------------------------------------------------------------------------------
    yield case(
        "loop_view_image_interrupted",
        "loop",
        _t("cancelled", "transient"),
        lambda c: [fc("view_image", {"path": "screenshots/failing-test.png"})],
        RunOptions(prompt="Look at the failing test's screenshot and fix the test."),
        stop=Stop("SIGINT", when_requests=6, hold_s=0.3),
        description="the model asks for the same missing screenshot over and over (one 'ERROR "
        "codex_core::tools::router: error=unable to locate image ...' line each time); SIGINT "
        "(an operator's Ctrl-C) ends it: exit 1, the last event turn.started",
    )

    # -- compaction ------------------------------------------------------------------------
    yield case(
        "text_compaction_then_quota",
        "compaction",
        _paid("insufficient_quota after an auto-compaction", warnings=("compacted",)),
        lambda c: [
            fc("exec_command", {"cmd": "cat README.md"}),
            O.text("Summary: README.md read: a demo project."),
            O.error(
                429,
                "You exceeded your current quota, please check your plan and billing details.",
                "insufficient_quota",
                "insufficient_quota",
            ),
        ],
        _text(
            prompt="Explain the project.",
            extra_args=["-c", "model_auto_compact_token_limit=1000"],
        ),
        description="text mode: a command, 'context compacted' on stderr, then the next "
        "request is a 429 insufficient_quota: 'ERROR: Quota exceeded. Check your plan and "
        "billing details.' twice, exit 1",
    )

    # -- credit, billing, prepayment -------------------------------------------------------
    yield case(
        "billing_hard_limit_400",
        "billing",
        _paid("billing_hard_limit_reached"),
        lambda c: [
            O.error(
                400,
                "Billing hard limit has been reached",
                "invalid_request_error",
                "billing_hard_limit_reached",
            )
        ],
        description="HTTP 400 code billing_hard_limit_reached: turn.failed whose message is the "
        "raw error body JSON, not retried, exit 1",
    )
    yield case(
        "quota_after_tool_call",
        "billing",
        _paid("insufficient_quota mid-task"),
        lambda c: [
            fc("exec_command", {"cmd": "wc -l README.md"}),
            O.error(
                429,
                "Your prepaid credits are used up. Add credits to continue using the API.",
                "insufficient_quota",
                "insufficient_quota",
            ),
        ],
        RunOptions(prompt="How long is README.md?"),
        description="a command runs (command_execution completed), then the next request is a "
        "429 insufficient_quota with a prepaid-credits message: turn.failed 'Quota exceeded. "
        "Check your plan and billing details.', exit 1",
    )
    yield case(
        "gateway_402_credits",
        "billing",
        _paid("gateway_insufficient_credits"),
        lambda c: [
            Reply(
                402,
                body={
                    "error": {
                        "message": "This request requires more credits, or fewer max_tokens. "
                        "You requested up to 32000 tokens, but can only afford 5123. To "
                        "increase, add credits to your account.",
                        "code": 402,
                    }
                },
                label="402:credits",
            )
        ],
        description="an OpenAI-compatible gateway's 402 (numeric code, no type): 'Reconnecting..."
        " 1/1 (unexpected status 402 Payment Required: This request requires more credits ...)'"
        " then turn.failed with the same text, exit 1",
    )

    # -- rate and usage limits -------------------------------------------------------------
    yield case(
        "usage_limit_free_plan",
        "usage_limit",
        _t("usage_limit", "transient", "free plan, resets in 5 days"),
        lambda c: [
            O.error(
                429,
                "You have reached the usage limit of your plan.",
                "usage_limit_reached",
                None,
                extra={"plan_type": "free", "resets_at": int(c.now) + 5 * 86400},
            )
        ],
        description="429 usage_limit_reached, plan free, resets_at in 5 days: turn.failed "
        "'You've hit your usage limit. Upgrade to Plus to continue using Codex (...), or try "
        "again at <local date>.', exit 1",
    )
    yield case(
        "text_rate_limit_in_stream",
        "rate_limit",
        _t("rate_limit", "transient", "requests per minute, in-stream"),
        lambda c: [
            O.response(
                terminal="failed",
                error_code="rate_limit_exceeded",
                error_message="Rate limit reached for gpt-5.5 in organization org-autofix on "
                "requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s.",
            )
        ],
        _text(),
        description="text mode, HTTP 200 then response.failed rate_limit_exceeded 'try again "
        "in 1s', every time: 'ERROR: Reconnecting... 1/1', then 'ERROR: rate limit exceeded: "
        "...' twice, exit 1",
    )

    # -- a do-not-retry signal, server errors, overload ---------------------------------------
    yield case(
        "should_retry_false_502",
        "do_not_retry",
        _t("server_error", "transient", "x_should_retry_false dropped; 502 from the API"),
        lambda c: [
            O.error(
                502,
                "Bad gateway: the upstream closed the connection.",
                "server_error",
                None,
                headers={"x-should-retry": "false"},
            )
        ],
        description="502 JSON with x-should-retry: false: Codex never reads the header, "
        "retries (4 requests) and ends with turn.failed 'unexpected status 502 Bad Gateway: "
        "...', exit 1",
    )
    yield case(
        "server_error_in_stream",
        "server_error",
        _t("server_error", "transient", "response.failed server_error"),
        lambda c: [
            O.response(
                terminal="failed",
                error_code="server_error",
                error_message="An error occurred while processing your request. You can retry "
                "your request, or contact us through our help center at help.openai.com if the "
                "error persists. Please include the request ID req_7f3a in your message.",
            )
        ],
        description="HTTP 200 then response.failed code server_error, every time: one "
        "reconnect, then turn.failed 'stream disconnected before completion: An error occurred "
        "while processing your request. ...', exit 1",
    )
    yield case(
        "text_overloaded_529",
        "overloaded",
        _t("overloaded", "transient", "529 from a gateway"),
        lambda c: [
            O.error(529, "The service is overloaded, please retry later", "overloaded_error", None)
        ],
        _text(),
        description="text mode, 529 every time: 'ERROR: Reconnecting... 1/1', then 'ERROR: "
        "unexpected status 529 <unknown status code>: The service is overloaded, ...' twice, "
        "exit 1",
    )

    # -- refusals, invalid requests, context overflow, auth -------------------------------------
    yield case(
        "text_cyber_policy_in_stream",
        "api_policy",
        _t("refusal", "permanent", "cyber_policy"),
        lambda c: [
            O.response(
                terminal="failed",
                error_code="cyber_policy",
                error_message="This content was flagged for possible cybersecurity risk.",
            )
        ],
        _text(prompt="Write a scanner that finds open RDP ports on the internet."),
        description="text mode, response.failed code cyber_policy: 'ERROR: This content was "
        "flagged for possible cybersecurity risk.' twice, not retried, exit 1",
    )
    yield case(
        "text_model_not_found_404",
        "invalid_request",
        _t("invalid_request", "permanent", "model_not_found"),
        lambda c: [
            O.error(
                404,
                "The model `gpt-5.5-codex-max` does not exist or you do not have access to it.",
                "invalid_request_error",
                "model_not_found",
            )
        ],
        _text(model="gpt-5.5-codex-max"),
        description="text mode, --model gpt-5.5-codex-max and a 404 model_not_found: 'ERROR: The "
        "model `gpt-5.5-codex-max` does not exist ...' twice, exit 1",
    )
    yield case(
        "text_context_after_tools",
        "context_window",
        _t("context_window", "permanent"),
        lambda c: [
            fc("exec_command", {"cmd": "ls -la"}),
            fc("exec_command", {"cmd": "cat README.md"}),
            O.response(
                terminal="failed",
                error_code="context_length_exceeded",
                error_message="Your input exceeds the context window of this model. Please "
                "adjust your input and try again.",
            ),
        ],
        _text(prompt="Read the whole project and explain it."),
        description="text mode: two exec blocks, then response.failed context_length_exceeded: "
        "'ERROR: Codex ran out of room in the model's context window. ...' twice, exit 1",
    )
    yield case(
        "auth_proxy_401_plaintext",
        "auth",
        _t("auth", "permanent", "revoked key, proxy's plain-text 401"),
        lambda c: [
            Reply(
                401,
                headers={
                    "content-type": "text/plain",
                    "www-authenticate": 'Bearer realm="api-gateway", error="invalid_token"',
                },
                body="Unauthorized: API key revoked\n",
                label="401:text",
            )
        ],
        description="a gateway's plain-text 401 with www-authenticate: 'Reconnecting... 1/1 "
        "(unexpected status 401 Unauthorized: Unauthorized: API key revoked, url: ...)', then "
        "turn.failed with the same text, exit 1",
    )
