"""Before any agent runs: the project, the agent's CLI and its credentials, each checked once.

A run whose project path is wrong, whose CLI is missing or whose key is unset would otherwise
fail minutes later, deep in a task, in words about something else. Each check returns a
:class:`Problem` whose line starts with the reason and ends with the next step; the plan task
fails on the first, in one line. The checks ask the CLIs themselves where they can
(``claude auth status``, ``codex login status``) and otherwise follow each CLI's own rules
(Gemini CLI's ``getAuthTypeFromEnv`` and its settings file); a setup they cannot judge passes,
and the first agent call reports it.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from autofix import gitops
from autofix.agents.registry import format_class
from autofix.connections.check import cli_version
from autofix.connections.logins import LOGIN_STEPS
from autofix.redact import redact
from autofix.task.spec import installed_cli

STATUS_TIMEOUT_S = 30.0  # a login status call


@dataclass(frozen=True)
class Problem:
    """A setup mistake: what is wrong, then what to do."""

    reason: str
    next_step: str

    def line(self) -> str:
        return f"{self.reason}. Next: {self.next_step}"


@dataclass(frozen=True)
class CliFound:
    """The agent's CLI: where it runs from and the version it reports."""

    path: str
    version: str


Run = Callable[[list[str], Mapping[str, str]], "subprocess.CompletedProcess[str] | None"]


def run_cli(argv: list[str], env: Mapping[str, str]) -> subprocess.CompletedProcess[str] | None:
    """A login status call; None when it cannot start or hangs."""
    try:
        return subprocess.run(
            argv,
            env=dict(env),
            capture_output=True,
            text=True,
            timeout=STATUS_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None


def check_project(path: Path, *, empty_hint: str) -> Problem | None:
    """The project is a git repository, or a writable folder ``prepare`` turns into one."""
    if not path.exists():
        return Problem(
            f"project_path {path} does not exist on this worker",
            f"set project_path to a git repository on the worker, or {empty_hint}",
        )
    if not path.is_dir():
        return Problem(
            f"project_path {path} is a file, not a folder",
            "set project_path to the repository's top folder",
        )
    if gitops.repo_top(path) is None and not os.access(path, os.W_OK):
        return Problem(
            f"project_path {path} is not a git repository and this worker cannot write to it",
            "run `git init` and commit it, or make it writable by the worker's user",
        )
    return None


def find_cli(
    agent: str, env: Mapping[str, str], agent_clis_dir: str | None
) -> CliFound | Problem | None:
    """The agent's CLI with its version (where a task finds it: ``connections.check``'s
    ``cli_version``); a Problem when it is nowhere the task looks or does not run; None for an
    agent without a CLI (the scripted stand-in)."""
    command = getattr(format_class(agent), "default_command", None)  # a CLI agent's own name
    if not command:
        return None
    name = command[0]
    if installed_cli(name, env, agent_clis_dir) is None:
        where = (
            f"on PATH nor in {agent_clis_dir}/node_modules/.bin" if agent_clis_dir else "on PATH"
        )
        return Problem(
            f"agent {agent}: its CLI `{name}` is not {where}",
            "run `make agent-clis` (into .agents, see fixing.agent_clis_dir) or put "
            f"`{name}` on the worker's PATH",
        )
    found = cli_version(name, env, agent_clis_dir)
    if isinstance(found, str):  # it is there, but `--version` failed: "<what>. Next: <step>"
        reason, _, step = redact(found).partition(". Next: ")
        return Problem(f"agent {agent}: {reason}", step or "reinstall it (`make agent-clis`)")
    return CliFound(found[0], redact(found[1]))


def _claude_credentials(cli: str, env: Mapping[str, str], run: Run) -> Problem | None:
    done = run([cli, "auth", "status", "--json"], env)
    if done is None or done.returncode == 0:
        return None
    try:
        logged_in = json.loads(done.stdout).get("loggedIn")
    except (ValueError, AttributeError):
        return None  # an older CLI without `auth status`: the first call will tell
    if logged_in is not False:
        return None
    return Problem(
        "agent claude has no credentials: `claude auth status` says not logged in and "
        "ANTHROPIC_API_KEY is not set",
        LOGIN_STEPS["claude"],
    )


def _codex_credentials(cli: str, env: Mapping[str, str], run: Run) -> Problem | None:
    if env.get("CODEX_API_KEY") or env.get("OPENAI_API_KEY"):
        return None
    home = Path(env.get("CODEX_HOME") or Path(env.get("HOME") or "~").expanduser() / ".codex")
    settings = home / "config.toml"
    if settings.is_file() and "model_provider" in settings.read_text(errors="replace"):
        return None  # a custom provider names its own key variable (env_key)
    done = run([cli, "login", "status"], env)
    if done is None or done.returncode == 0:
        return None
    return Problem(
        "agent codex has no credentials: `codex login status` says not logged in and neither "
        "CODEX_API_KEY nor OPENAI_API_KEY is set",
        LOGIN_STEPS["codex"],
    )


# Gemini CLI's getAuthTypeFromEnv (packages/core/src/core/contentGenerator.ts): any of these
# selects an auth type without a settings file.
_GEMINI_AUTH_ENV = (
    ("GOOGLE_GENAI_USE_GCA", "true"),
    ("GOOGLE_GENAI_USE_VERTEXAI", "true"),
    ("GOOGLE_GEMINI_BASE_URL", None),
    ("GEMINI_API_KEY", None),
    ("CLOUD_SHELL", "true"),
    ("GEMINI_CLI_USE_COMPUTE_ADC", "true"),
)


def _gemini_credentials(project: Path, env: Mapping[str, str], run: Run) -> Problem | None:
    for name, wanted in _GEMINI_AUTH_ENV:
        value = env.get(name)
        if value and (wanted is None or value == wanted):
            return None
    home = Path(env.get("GEMINI_CLI_HOME") or env.get("HOME") or "~").expanduser()
    for settings in (home / ".gemini" / "settings.json", project / ".gemini" / "settings.json"):
        if settings.is_file() and "selected" in settings.read_text(errors="replace"):
            return None  # security.auth.selectedType (or the older selectedAuthType)
    for dotenv in (project / ".gemini" / ".env", project / ".env", home / ".gemini" / ".env"):
        if dotenv.is_file() and "GEMINI_API_KEY" in dotenv.read_text(errors="replace"):
            return None  # the CLI loads the first .env it finds
    return Problem(
        "agent gemini has no credentials: GEMINI_API_KEY is not set and no auth method is "
        f"selected in {home / '.gemini' / 'settings.json'}",
        LOGIN_STEPS["gemini"],
    )


def check_credentials(
    agent: str, cli: str, project: Path, env: Mapping[str, str], run: Run = run_cli
) -> Problem | None:
    """A key in the environment, or a login the CLI reports."""
    if agent == "claude":
        return _claude_credentials(cli, env, run)
    if agent == "codex":
        return _codex_credentials(cli, env, run)
    if agent == "gemini":
        return _gemini_credentials(project, env, run)
    return None


def preflight(
    project: Path,
    agent: str,
    agent_clis_dir: str | None,
    *,
    empty_hint: str,
    env: Mapping[str, str] | None = None,
    run: Run = run_cli,
) -> CliFound | Problem | None:
    """Every check of one project in order; the first Problem, else the CLI found (None for an
    agent without a CLI)."""
    env = os.environ if env is None else env
    problem = check_project(project, empty_hint=empty_hint)
    if problem is not None:
        return problem
    cli = find_cli(agent, env, agent_clis_dir)
    if not isinstance(cli, CliFound):
        return cli
    return check_credentials(agent, cli.path, project, env, run) or cli
