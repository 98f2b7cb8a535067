"""Preflight: a wrong project path, a missing CLI or missing credentials stop a run before any
agent runs, in one line that starts with the reason and ends with the next step.

The CLI checks run the real pinned CLIs (``make agent-clis`` installs them into .agents), each
in an empty HOME, so a login of the machine's user never leaks in.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from autofix import gitops
from autofix.fixing.preflight import CliFound, Problem, check_project, find_cli, preflight

ROOT = Path(__file__).resolve().parent.parent
AGENTS = ROOT / ".agents"
PINS = {
    line.rsplit("@", 1)[0].split("/")[-1]: line.rsplit("@", 1)[1]
    for line in (ROOT / "config" / "agent-clis.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
}
HINT = "leave it empty for a fresh copy of examples/sample_project"


def test_a_missing_path_a_file_and_a_folder(tmp_path: Path) -> None:
    missing = check_project(tmp_path / "nope", empty_hint=HINT)
    assert isinstance(missing, Problem)
    assert missing.line() == (
        f"project_path {tmp_path / 'nope'} does not exist on this worker. Next: set "
        f"project_path to a git repository on the worker, or {HINT}"
    )
    (tmp_path / "file.txt").write_text("x")
    not_a_folder = check_project(tmp_path / "file.txt", empty_hint=HINT)
    assert isinstance(not_a_folder, Problem) and "is a file, not a folder" in not_a_folder.reason
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "app.py").write_text("x = 1\n")
    assert check_project(plain, empty_hint=HINT) is None  # prepare makes it a repository
    gitops.init_scratch_copy(plain, tmp_path / "repo")
    assert check_project(tmp_path / "repo", empty_hint=HINT) is None


def test_a_cli_nowhere_the_task_looks_names_make_agent_clis(tmp_path: Path) -> None:
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}
    problem = find_cli("claude", env, str(tmp_path / "agents"))
    assert isinstance(problem, Problem)
    line = problem.line()
    assert line.startswith(f"agent claude: its CLI `claude` is not on PATH nor in {tmp_path}")
    assert "Next: run `make agent-clis`" in line and "fixing.agent_clis_dir" in line
    assert len(line) - len(str(tmp_path)) < 190  # read without scrolling
    assert find_cli("sim", env, None) is None  # the scripted agent has no CLI to find


def _env(home: Path, **extra: str) -> dict[str, str]:
    return {"PATH": os.environ["PATH"], "HOME": str(home), **extra}


needs_clis = pytest.mark.skipif(
    not (AGENTS / "node_modules" / ".bin" / "claude").exists(),
    reason="the pinned agent CLIs are not installed: run `make agent-clis`",
)


@needs_clis
@pytest.mark.e2e
@pytest.mark.parametrize(
    ("agent", "package", "key", "variable"),
    [
        ("claude", "claude-code", "ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY"),
        ("codex", "codex", "CODEX_API_KEY", "CODEX_API_KEY"),
        ("gemini", "gemini-cli", "GEMINI_API_KEY", "GEMINI_API_KEY"),
    ],
)
def test_the_real_cli_is_found_with_its_version_and_its_credentials_checked(
    tmp_path: Path, agent: str, package: str, key: str, variable: str
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    # No key and no login: the reason names the variable, the next step says how to set it.
    problem = preflight(project, agent, str(AGENTS), empty_hint=HINT, env=_env(home))
    assert isinstance(problem, Problem), problem
    assert problem.reason.startswith(f"agent {agent} has no credentials")
    assert variable in problem.reason and variable in problem.next_step
    # With a key: the CLI from .agents, at its pinned version.
    found = preflight(
        project, agent, str(AGENTS), empty_hint=HINT, env=_env(home, **{key: "k-test"})
    )
    assert isinstance(found, CliFound), found
    assert found.path == str(AGENTS / "node_modules" / ".bin" / agent)
    assert PINS[package] in found.version


@needs_clis
@pytest.mark.e2e
def test_a_claude_login_the_cli_reports_is_enough(tmp_path: Path) -> None:
    """`claude auth status` knows every way Claude Code logs in (here: a cloud provider)."""
    env = _env(tmp_path, CLAUDE_CODE_USE_BEDROCK="1")
    found = preflight(tmp_path, "claude", str(AGENTS), empty_hint=HINT, env=env)
    assert isinstance(found, CliFound), found
    status = subprocess.run(
        [found.path, "auth", "status"], env=env, capture_output=True, text=True, check=False
    )
    assert status.returncode == 0 and '"loggedIn": true' in status.stdout
