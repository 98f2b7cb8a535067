"""Run the real agent CLIs (installed by ``make agent-clis``) against the loopback fakes.

Each :class:`AgentCli` builds the argv and a from-scratch environment for one run: its own
``HOME`` (and config dir) in a fresh directory, no inherited credentials or settings, the API
pointed at the fake server, telemetry, update checks and other non-essential traffic off, and
the CLI's own retries capped so a failing scenario ends in seconds. ``SETTINGS`` below lists
every variable, flag and setting with the reason; docs/agent-capture-notes.md repeats it for
users.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
AGENTS_DIR = Path(os.environ.get("AUTOFIX_AGENT_CLIS_DIR", REPO_ROOT / ".agents"))
BIN_DIR = AGENTS_DIR / "node_modules" / ".bin"
VERSIONS_FILE = REPO_ROOT / "config" / "agent-clis.txt"

# Fake credentials: shaped like the real ones, valid nowhere.
FAKE_KEYS = {
    "claude": "sk-ant-api03-autofix-test-key-0000000000000000000000000000",
    "codex": "sk-proj-autofix-test-key-00000000000000000000000000000000",
    "gemini": "AIzaSyAutofixTestKey000000000000000000",
}


def pinned_versions(path: Path = VERSIONS_FILE) -> dict[str, str]:
    """``{"@openai/codex": "0.169.0", ...}`` from config/agent-clis.txt."""
    versions: dict[str, str] = {}
    for line in path.read_text().splitlines():
        spec = line.split("#", 1)[0].strip()
        if spec:
            name, _, version = spec.rpartition("@")
            versions[name] = version
    return versions


def installed(cli: str) -> bool:
    return (BIN_DIR / cli).exists()


def missing_reason() -> str | None:
    """Why the real CLIs cannot run here, or None when all three are installed."""
    absent = [cli for cli in ("claude", "codex", "gemini") if not installed(cli)]
    if absent:
        return (
            f"agent CLIs not installed ({', '.join(absent)} missing in {BIN_DIR}); "
            "run `make agent-clis`"
        )
    if shutil.which("node") is None:
        return "node is not on PATH (the codex and gemini launchers are node scripts)"
    return None


@dataclass(frozen=True)
class RunOptions:
    """What one run asks of the CLI (the scenario decides these)."""

    prompt: str = "Reply with the word pong."
    model: str | None = None
    json_schema: Mapping[str, Any] | None = None
    max_turns: int | None = None
    # claude/gemini: stream-json | json | text; codex: stream-json (= --json) | text (no --json)
    output_format: str = "stream-json"
    api_key: str | None = "fake"  # None: no credentials at all ("not logged in")
    extra_args: Sequence[str] = ()
    extra_env: Mapping[str, str] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)  # gemini settings.json overrides
    # gemini --skip-trust / codex --skip-git-repo-check; False reproduces the untrusted-dir exit
    trust_workspace: bool = True
    # Files written before the run, by path relative to the sandbox root ("home/.codex/config.toml",
    # "work/.mcp.json"); "{SANDBOX}" and "{WORK}" in the content become the real paths.
    files: Mapping[str, str] = field(default_factory=dict)
    # Run in the work dir before the CLI starts (git init, an earlier session, ...).
    setup: Callable[[Path], None] | None = None
    stdin: str | None = None  # piped to the CLI instead of /dev/null


@dataclass(frozen=True)
class Invocation:
    argv: list[str]
    env: dict[str, str]
    cwd: Path
    stdin: bytes | None = None
    files: dict[str, str] = field(default_factory=dict)  # extra files written, path → content
    secrets: tuple[str, ...] = ()  # values to redact in recorded env/argv


@dataclass
class Sandbox:
    """A fresh directory tree for one run: home, work (the cwd) and tmp."""

    root: Path

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def work(self) -> Path:
        return self.root / "work"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    def create(self) -> Sandbox:
        for path in (self.home, self.work, self.tmp):
            path.mkdir(parents=True, exist_ok=True)
        (self.work / "README.md").write_text("# demo project\n\nA file the agent may read.\n")
        return self


def write_files(sandbox: Sandbox, options: RunOptions) -> dict[str, str]:
    """The scenario's own files (``RunOptions.files``) and setup; returns path → content."""
    written: dict[str, str] = {}
    for relative, content in options.files.items():
        path = sandbox.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        text = content.replace("{SANDBOX}", str(sandbox.root)).replace("{WORK}", str(sandbox.work))
        path.write_text(text)
        written[str(path)] = text
    if options.setup is not None:
        options.setup(sandbox.work)
    return written


def _stdin(options: RunOptions) -> bytes | None:
    return options.stdin.encode() if options.stdin is not None else None


def _base_env(sandbox: Sandbox) -> dict[str, str]:
    node = shutil.which("node")
    path_dirs = [str(Path(node).parent)] if node else []
    path_dirs += ["/usr/local/bin", "/usr/bin", "/bin"]
    return {
        "PATH": os.pathsep.join(dict.fromkeys(path_dirs)),
        "HOME": str(sandbox.home),
        "TMPDIR": str(sandbox.tmp),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
        "CI": "1",
    }


class AgentCli:
    name: str = ""
    package: str = ""

    @property
    def binary(self) -> Path:
        return BIN_DIR / self.name

    def version(self) -> str:
        return pinned_versions().get(self.package, "unknown")

    def invocation(self, base_url: str, sandbox: Sandbox, options: RunOptions) -> Invocation:
        raise NotImplementedError


class ClaudeCli(AgentCli):
    """Claude Code: ``claude -p PROMPT --output-format stream-json --verbose``."""

    name = "claude"
    package = "@anthropic-ai/claude-code"
    default_model = "claude-sonnet-4-5"

    # Every variable autofix sets, and why (docs/agent-capture-notes.md has the user-facing form).
    SETTINGS: Mapping[str, str] = {
        "ANTHROPIC_BASE_URL": "the API endpoint (here: the loopback fake)",
        "ANTHROPIC_API_KEY": "API-key auth; unset for the 'not logged in' scenario",
        "CLAUDE_CONFIG_DIR": "config, sessions and credentials in the run's own HOME, never the user's",
        "CLAUDE_CODE_MAX_RETRIES": "the CLI's own API retries (default 10, with backoff up to minutes)",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "no update checks, telemetry, error reports, feature flags",
        "DISABLE_AUTOUPDATER": "never self-update during a task",
        "DISABLE_TELEMETRY": "no usage telemetry",
        "DISABLE_ERROR_REPORTING": "no crash reports to a third party",
        "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY": "no survey prompts",
    }

    def invocation(self, base_url: str, sandbox: Sandbox, options: RunOptions) -> Invocation:
        env = _base_env(sandbox)
        env.update(
            {
                "ANTHROPIC_BASE_URL": base_url,
                "CLAUDE_CONFIG_DIR": str(sandbox.home / ".claude"),
                "CLAUDE_CODE_MAX_RETRIES": "1",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                "DISABLE_AUTOUPDATER": "1",
                "DISABLE_TELEMETRY": "1",
                "DISABLE_ERROR_REPORTING": "1",
                "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY": "1",
            }
        )
        secrets: tuple[str, ...] = ()
        if options.api_key is not None:
            key = FAKE_KEYS["claude"] if options.api_key == "fake" else options.api_key
            env["ANTHROPIC_API_KEY"] = key
            secrets = (key,) if key else ()
        env.update(options.extra_env)
        argv = [
            str(self.binary),
            "-p",
            options.prompt,
            "--output-format",
            options.output_format,
            "--model",
            options.model or self.default_model,
        ]
        if options.output_format == "stream-json":
            argv.append("--verbose")
        if options.max_turns is not None:
            argv += ["--max-turns", str(options.max_turns)]
        if options.json_schema is not None:
            argv += ["--json-schema", json.dumps(options.json_schema)]
        argv += list(options.extra_args)
        files = write_files(sandbox, options)
        return Invocation(
            argv=argv,
            env=env,
            cwd=sandbox.work,
            stdin=_stdin(options),
            files=files,
            secrets=secrets,
        )


class CodexCli(AgentCli):
    """Codex CLI: ``codex exec --json`` with a custom model provider given by ``-c`` overrides."""

    name = "codex"
    package = "@openai/codex"
    default_model = "gpt-5.5"
    provider_id = "autofix"
    key_env = "OPENAI_API_KEY"

    SETTINGS: Mapping[str, str] = {
        "CODEX_HOME": "config, sessions, logs and auth in the run's own directory, never ~/.codex",
        "OPENAI_API_KEY": "the key, read by the provider's env_key; unset for 'not logged in'",
        "-c model_provider / model_providers.autofix.*": (
            "a custom provider: base_url, env_key, wire_api='responses' (the only value current "
            "Codex accepts)"
        ),
        "model_providers.autofix.request_max_retries": "HTTP retries per request (default 4)",
        "model_providers.autofix.stream_max_retries": "reconnects of a dropped stream (default 5)",
        "model_providers.autofix.stream_idle_timeout_ms": "idle stream timeout (default 300000)",
        "analytics.enabled=false": "no analytics events",
        "check_for_update_on_startup=false": "no update check",
        "--skip-git-repo-check": "the work dir need not be a git repository",
        "--ephemeral": "no session files kept",
        "stdin=/dev/null": "codex exec reads extra input from a piped stdin",
    }

    def invocation(self, base_url: str, sandbox: Sandbox, options: RunOptions) -> Invocation:
        env = _base_env(sandbox)
        codex_home = sandbox.home / ".codex"
        codex_home.mkdir(parents=True, exist_ok=True)
        env["CODEX_HOME"] = str(codex_home)
        secrets: tuple[str, ...] = ()
        if options.api_key is not None:
            key = FAKE_KEYS["codex"] if options.api_key == "fake" else options.api_key
            env[self.key_env] = key
            secrets = (key,) if key else ()
        env.update(options.extra_env)
        provider = (
            "{"
            f'name="autofix", base_url="{base_url}", env_key="{self.key_env}", '
            'wire_api="responses", request_max_retries=1, stream_max_retries=1, '
            "stream_idle_timeout_ms=10000"
            "}"
        )
        argv = [
            str(self.binary),
            "exec",
            *(["--json"] if options.output_format != "text" else []),
            *(["--skip-git-repo-check"] if options.trust_workspace else []),
            "--ephemeral",
            "--color",
            "never",
            "-c",
            f'model_provider="{self.provider_id}"',
            "-c",
            f"model_providers.{self.provider_id}={provider}",
            "-c",
            "analytics.enabled=false",
            "-c",
            "check_for_update_on_startup=false",
            "--model",
            options.model or self.default_model,
        ]
        files = write_files(sandbox, options)
        if options.json_schema is not None:
            schema_path = sandbox.root / "schema.json"
            schema_path.write_text(json.dumps(options.json_schema))
            files[str(schema_path)] = schema_path.read_text()
            argv += ["--output-schema", str(schema_path)]
        argv += list(options.extra_args)
        argv += ["--", options.prompt]
        return Invocation(
            argv=argv,
            env=env,
            cwd=sandbox.work,
            stdin=_stdin(options),
            files=files,
            secrets=secrets,
        )


class GeminiCli(AgentCli):
    """Gemini CLI: ``gemini -p PROMPT --output-format stream-json --skip-trust``."""

    name = "gemini"
    package = "@google/gemini-cli"
    default_model = "gemini-2.5-flash"

    SETTINGS: Mapping[str, str] = {
        "GOOGLE_GEMINI_BASE_URL": "the API endpoint (here: the loopback fake)",
        "GEMINI_API_KEY": "API-key auth; unset for the 'not logged in' scenario",
        "HOME": "settings.json, sessions and caches in the run's own HOME, never ~/.gemini",
        "security.auth.selectedType=gemini-api-key": "use the key, never an OAuth browser login",
        "general.maxAttempts": "the CLI's own attempts per model call (default 10, backoff from 5 s)",
        "general.enableAutoUpdate / enableAutoUpdateNotification = false": "no update checks",
        "privacy.usageStatisticsEnabled=false, telemetry.enabled=false": "no usage statistics",
        "model.name": "the model (an explicit one: 'auto' adds a routing call per prompt)",
        "model.maxSessionTurns": "the turn cap, only for the turn-cap scenario",
        "--skip-trust": "trust the work dir for this run (headless runs of untrusted dirs exit 55)",
        "stdin=/dev/null": "gemini -p appends piped stdin to the prompt",
    }

    def settings(self, options: RunOptions) -> dict[str, Any]:
        settings: dict[str, Any] = {
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "general": {
                "maxAttempts": 2,
                "enableAutoUpdate": False,
                "enableAutoUpdateNotification": False,
            },
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "model": {"name": options.model or self.default_model},
        }
        if options.max_turns is not None:
            settings["model"]["maxSessionTurns"] = options.max_turns
        _deep_update(settings, options.settings)
        return settings

    def invocation(self, base_url: str, sandbox: Sandbox, options: RunOptions) -> Invocation:
        env = _base_env(sandbox)
        env["GOOGLE_GEMINI_BASE_URL"] = base_url
        secrets: tuple[str, ...] = ()
        if options.api_key is not None:
            key = FAKE_KEYS["gemini"] if options.api_key == "fake" else options.api_key
            env["GEMINI_API_KEY"] = key
            secrets = (key,) if key else ()
        env.update(options.extra_env)
        settings_path = sandbox.home / ".gemini" / "settings.json"
        settings_path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.settings(options), indent=2)
        settings_path.write_text(text)
        argv = [
            str(self.binary),
            *(["--skip-trust"] if options.trust_workspace else []),
            "--output-format",
            options.output_format,
            "--model",
            options.model or self.default_model,
        ]
        argv += list(options.extra_args)
        argv.append(f"--prompt={options.prompt}")
        files = {str(settings_path): text, **write_files(sandbox, options)}
        return Invocation(
            argv=argv,
            env=env,
            cwd=sandbox.work,
            stdin=_stdin(options),
            files=files,
            secrets=secrets,
        )


def _deep_update(target: dict[str, Any], changes: Mapping[str, Any]) -> None:
    for key, value in changes.items():
        if value is None:
            target.pop(key, None)
        elif isinstance(value, Mapping) and isinstance(target.get(key), dict):
            _deep_update(target[key], value)
        else:
            target[key] = value


CLIS: dict[str, AgentCli] = {cli.name: cli for cli in (ClaudeCli(), CodexCli(), GeminiCli())}


@dataclass
class RunResult:
    stdout: bytes
    stderr: bytes
    exit_code: int | None
    signal: str | None  # the signal that ended the process, e.g. "SIGKILL"
    duration_s: float
    stopped_by: str | None = None  # "timeout", "SIGKILL" or "SIGINT" when we ended it


def run(
    invocation: Invocation,
    *,
    timeout_s: float = 30.0,
    grace_s: float = 2.0,
    stop_signal: signal.Signals = signal.SIGKILL,
    stop_when: Callable[[bytes], bool] | None = None,
    stop_after_s: float | None = None,
) -> RunResult:
    """Run the CLI to its end, or end it from outside.

    At ``timeout_s``: SIGTERM to the process group, then SIGKILL after ``grace_s`` (what
    autofix's runner does). As soon as ``stop_when(stdout so far)`` is true (checked on every
    stdout chunk and every 20 ms), or at
    ``stop_after_s``: ``stop_signal`` to the group (SIGKILL: a killed run; SIGINT: Ctrl-C),
    then SIGKILL after ``grace_s`` if it is still there.
    """
    started = time.monotonic()
    proc = subprocess.Popen(
        invocation.argv,
        cwd=invocation.cwd,
        env=invocation.env,
        stdin=subprocess.PIPE if invocation.stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    out = bytearray()
    err = bytearray()
    stop_now = threading.Event()

    def pump(stream: Any, sink: bytearray, watch: bool) -> None:
        while True:
            chunk = stream.read1(65536)
            if not chunk:
                break
            sink.extend(chunk)
            if watch and stop_when is not None and not stop_now.is_set() and stop_when(bytes(sink)):
                stop_now.set()

    threads = [
        threading.Thread(target=pump, args=(proc.stdout, out, True), daemon=True),
        threading.Thread(target=pump, args=(proc.stderr, err, False), daemon=True),
    ]
    for thread in threads:
        thread.start()
    if invocation.stdin is not None and proc.stdin is not None:
        try:
            proc.stdin.write(invocation.stdin)
            proc.stdin.close()
        except BrokenPipeError:
            pass
    stopped_by: str | None = None
    deadline = started + timeout_s
    stop_at = started + stop_after_s if stop_after_s is not None else None
    while proc.poll() is None:
        now = time.monotonic()
        if stop_when is not None and not stop_now.is_set() and stop_when(bytes(out)):
            stop_now.set()  # also polled here: a condition may watch the server, not stdout
        if stop_now.is_set() or (stop_at is not None and now >= stop_at):
            stopped_by = stop_signal.name
            _signal_group(proc, stop_signal)
            _wait_or_kill(proc, grace_s)
            break
        if now >= deadline:
            stopped_by = "timeout"
            _signal_group(proc, signal.SIGTERM)
            _wait_or_kill(proc, grace_s)
            break
        stop_now.wait(0.02)
    _signal_group(proc, signal.SIGKILL)  # stragglers left in the group (the CLI's children)
    for thread in threads:
        thread.join(timeout=5)
    duration = time.monotonic() - started
    code = proc.returncode
    sig = signal.Signals(-code).name if code is not None and code < 0 else None
    return RunResult(
        stdout=bytes(out),
        stderr=bytes(err),
        exit_code=None if sig else code,
        signal=sig,
        duration_s=duration,
        stopped_by=stopped_by,
    )


def _wait_or_kill(proc: subprocess.Popen[bytes], grace_s: float) -> None:
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        _signal_group(proc, signal.SIGKILL)
        proc.wait()


def _signal_group(proc: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)
