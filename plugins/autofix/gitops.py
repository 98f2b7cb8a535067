"""Git helpers for the fixing loop: argv-only subprocess calls, errors that say what failed.

Core module: no Airflow imports.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from autofix.errors import GitError
from autofix.redact import redact

GIT_TIMEOUT_S = 120.0

# Identity used only when the repository has none, so a commit never fails on a bare worker.
FALLBACK_NAME = "autofix"
FALLBACK_EMAIL = "autofix@localhost"

# Never copied into a scratch project: build/tool state and another repo's history.
_SCRATCH_IGNORE = (
    ".git",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
)


class Commit(BaseModel):
    model_config = ConfigDict(frozen=True)

    sha: str
    subject: str


def git_error(
    command: Sequence[str], returncode: int | None, stderr: str, hint: str = ""
) -> GitError:
    """A GitError whose command, stderr and hint are redacted: its message reaches the task log."""
    return GitError([redact(part) for part in command], returncode, redact(stderr), redact(hint))


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["GIT_TERMINAL_PROMPT"] = "0"  # never hang waiting for credentials inside a task
    env["LC_ALL"] = "C"  # stable, English messages for the error text
    env.pop("GIT_DIR", None)  # an inherited GIT_DIR would point every call at another repo
    env.pop("GIT_WORK_TREE", None)
    return env


def env_with(extra: Mapping[str, str]) -> dict[str, str]:
    """The environment every git call gets, plus ``extra`` (e.g. settings given as
    ``GIT_CONFIG_*`` variables, which no command line and no config file then shows)."""
    return {**_env(), **extra}


def git(
    path: Path,
    *args: str,
    check: bool = True,
    env: dict[str, str] | None = None,
    timeout: float = GIT_TIMEOUT_S,
) -> subprocess.CompletedProcess[str]:
    """Run ``git -C path args...``; raise ``GitError`` on failure when ``check``."""
    argv = ["git", "-C", str(path), *args]
    try:
        done = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            errors="replace",
            env=env or _env(),
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except FileNotFoundError as exc:
        raise git_error(argv, None, str(exc), "is git installed on this worker?") from exc
    except subprocess.TimeoutExpired as exc:
        raise git_error(argv, None, f"timed out after {timeout:g}s") from exc
    if check and done.returncode != 0:
        stderr = done.stderr or done.stdout
        hint = ""
        if "dubious ownership" in stderr:
            # Common in containers where the repo is mounted with another owner.
            hint = f"run `git config --global --add safe.directory {path}` as the worker user"
        raise git_error(argv, done.returncode, stderr, hint)
    return done


def repo_top(path: Path) -> Path | None:
    """The top-level folder of the repository ``path`` is in; None when it is in none."""
    done = git(path, "rev-parse", "--show-toplevel", check=False)
    return Path(done.stdout.strip()) if done.returncode == 0 else None


def ensure_repo(path: Path) -> tuple[Path, bool]:
    """The repository's top-level folder, and whether it was made now: a folder in no
    repository becomes one, its files the first commit. Raises ``GitError`` saying what to do."""
    path = Path(path)
    if not path.is_dir():
        raise git_error(
            ["git", "-C", str(path)],
            None,
            f"project_path {path} does not exist",
            "set project_path to a git repository on the worker",
        )
    top = repo_top(path)
    if top is not None:
        return top, False
    git(path, "init", "--quiet")
    git(path, "add", "--all")
    git(
        path,
        "commit",
        "--no-verify",
        "--quiet",
        "--allow-empty",
        "-m",
        "Initial commit",
        env=_identity_env(path),
    )
    return path.resolve(), True


def is_clean(path: Path) -> bool:
    """True when there is nothing staged, modified or untracked (ignored files do not count)."""
    return git(path, "status", "--porcelain", "--untracked-files=normal").stdout.strip() == ""


def dirty_paths(path: Path) -> list[str]:
    """The ``git status --porcelain`` lines, for an error message that names the files."""
    return [line for line in git(path, "status", "--porcelain").stdout.splitlines() if line]


def head(path: Path) -> str:
    """The full sha of HEAD."""
    done = git(path, "rev-parse", "--verify", "HEAD", check=False)
    if done.returncode != 0:
        raise git_error(
            ["git", "-C", str(path), "rev-parse", "--verify", "HEAD"],
            done.returncode,
            done.stderr,
            "the repository has no commits yet; make an initial commit",
        )
    return done.stdout.strip()


def current_branch(path: Path) -> str | None:
    """The checked-out branch name, or None on a detached HEAD."""
    done = git(path, "symbolic-ref", "--quiet", "--short", "HEAD", check=False)
    return done.stdout.strip() or None


def branch_exists(path: Path, name: str) -> bool:
    done = git(path, "rev-parse", "--verify", "--quiet", f"refs/heads/{name}", check=False)
    return done.returncode == 0


def create_branch(path: Path, name: str, *, reset: bool = False) -> str:
    """Check out work branch ``name`` and return its HEAD sha.

    - absent: created at the current HEAD;
    - present and ``reset`` is False (default): checked out as it is, so a re-run resumes
      on top of the commits an earlier run made instead of throwing them away;
    - present and ``reset`` is True: moved to the current HEAD (``checkout -B``); its old
      commits stay reachable through the reflog.
    The tree must be clean (checked by the caller); git refuses a checkout that would
    overwrite local changes and that refusal is raised as ``GitError``.
    """
    git(path, "check-ref-format", "--branch", name)
    if not branch_exists(path, name):
        git(path, "checkout", "-b", name)
    elif reset:
        git(path, "checkout", "-B", name)
    elif current_branch(path) != name:
        git(path, "checkout", name)
    return head(path)


def commits_between(path: Path, a: str, b: str = "HEAD") -> list[Commit]:
    """Commits reachable from ``b`` but not from ``a`` (``a..b``), oldest first."""
    done = git(path, "log", "--reverse", "--format=%H%x1f%s", f"{a}..{b}", "--")
    commits = []
    for line in done.stdout.splitlines():
        sha, _, subject = line.partition("\x1f")
        commits.append(Commit(sha=sha, subject=subject))
    return commits


def diff_stat(path: Path, a: str, b: str, max_files: int = 40) -> str:
    """``git diff --stat a..b``: one line per file (at most ``max_files``, then how many more)
    and the totals line (files changed, insertions, deletions)."""
    lines = git(path, "diff", "--stat=100", f"{a}..{b}", "--").stdout.rstrip().splitlines()
    if not lines:
        return "no changes"
    files, total = lines[:-1], lines[-1]
    if len(files) > max_files:
        files = [*files[:max_files], f" ... and {len(files) - max_files} more file(s)"]
    return "\n".join([*files, total])


def _identity_env(path: Path) -> dict[str, str]:
    env = _env()
    name = git(path, "config", "user.name", check=False).stdout.strip()
    email = git(path, "config", "user.email", check=False).stdout.strip()
    if not name:
        env.setdefault("GIT_AUTHOR_NAME", FALLBACK_NAME)
        env.setdefault("GIT_COMMITTER_NAME", FALLBACK_NAME)
    if not email:
        env.setdefault("GIT_AUTHOR_EMAIL", FALLBACK_EMAIL)
        env.setdefault("GIT_COMMITTER_EMAIL", FALLBACK_EMAIL)
    return env


def commit_all(path: Path, message: str) -> str | None:
    """Stage everything (respecting .gitignore) and commit; the new sha, or None if nothing changed."""
    if not message.strip():
        raise ValueError("commit message must not be empty")
    git(path, "add", "--all")
    if git(path, "diff", "--cached", "--quiet", check=False).returncode == 0:
        return None
    # --no-verify: the project's own hooks run as checks in the loop, not as a commit gate.
    git(path, "commit", "--no-verify", "--quiet", "-m", message, env=_identity_env(path))
    return head(path)


def init_scratch_copy(
    src: Path,
    dst: Path,
    *,
    branch: str = "main",
    message: str = "Initial commit",
    user_name: str = FALLBACK_NAME,
    user_email: str = FALLBACK_EMAIL,
    exclude: Sequence[str] = (),
) -> str:
    """Copy ``src`` into a new git repository at ``dst`` with one commit; return its sha.

    ``dst`` must not exist or be empty. Caches, virtualenvs and any ``.git`` are not copied,
    nor names matching ``exclude`` (glob patterns, e.g. the sample project's ``FIXES.md``,
    which must not be visible to the agent).
    """
    src, dst = Path(src), Path(dst)
    if not src.is_dir():
        raise git_error(["cp", str(src), str(dst)], None, f"{src}: no such directory")
    if dst.exists() and any(dst.iterdir()):
        raise git_error(["cp", str(src), str(dst)], None, f"{dst} exists and is not empty")
    shutil.copytree(
        src, dst, ignore=shutil.ignore_patterns(*_SCRATCH_IGNORE, *exclude), dirs_exist_ok=True
    )
    git(dst, "init", "--quiet", f"--initial-branch={branch}")
    git(dst, "config", "user.name", user_name)
    git(dst, "config", "user.email", user_email)
    git(dst, "config", "commit.gpgsign", "false")
    git(dst, "add", "--all")
    git(dst, "commit", "--no-verify", "--quiet", "-m", message)
    return head(dst)
