"""gitops: real git repositories in tmp dirs."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from autofix import gitops
from autofix.errors import GitError
from autofix.gitops import (
    commit_all,
    commits_between,
    create_branch,
    current_branch,
    ensure_repo,
    head,
    init_scratch_copy,
    is_clean,
)

SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "sample_project"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    (src / "pkg").mkdir(parents=True)
    (src / "pkg" / "a.py").write_text("A = 1\n", encoding="utf-8")
    (src / ".gitignore").write_text("*.log\n", encoding="utf-8")
    init_scratch_copy(src, tmp_path / "repo")
    return tmp_path / "repo"


def test_init_scratch_copy_makes_one_commit_and_skips_caches(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "__pycache__").mkdir(parents=True)
    (src / "__pycache__" / "x.pyc").write_bytes(b"\0")
    (src / ".venv" / "bin").mkdir(parents=True)
    (src / "keep.py").write_text("x = 1\n", encoding="utf-8")
    (src / "FIXES.md").write_text("answers\n", encoding="utf-8")
    dst = tmp_path / "dst"
    sha = init_scratch_copy(src, dst, exclude=["FIXES.md"])
    assert len(sha) == 40 and head(dst) == sha
    assert sorted(p.name for p in dst.iterdir()) == [".git", "keep.py"]
    assert current_branch(dst) == "main"
    assert is_clean(dst)
    with pytest.raises(GitError, match="exists and is not empty"):
        init_scratch_copy(src, dst)


def test_ensure_repo_makes_a_folder_a_repository_and_says_what_to_do(
    tmp_path: Path, repo: Path
) -> None:
    assert ensure_repo(repo / "pkg") == (repo.resolve(), False)
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "app.py").write_text("x = 1\n", encoding="utf-8")
    assert ensure_repo(plain) == (plain.resolve(), True)
    assert is_clean(plain) and len(head(plain)) == 40  # its files are the first commit
    assert ensure_repo(plain) == (plain.resolve(), False)
    with pytest.raises(GitError) as missing:
        ensure_repo(tmp_path / "missing")
    # The reason first, the next step after it, the command last.
    assert str(missing.value).startswith(f"project_path {tmp_path / 'missing'} does not exist: ")
    assert "set project_path to a git repository" in str(missing.value)


def test_head_on_an_empty_repo_says_no_commits(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    with pytest.raises(GitError, match="no commits yet"):
        head(tmp_path)


def test_is_clean_sees_modified_and_untracked_but_not_ignored(repo: Path) -> None:
    assert is_clean(repo)
    (repo / "debug.log").write_text("ignored\n", encoding="utf-8")
    assert is_clean(repo)
    (repo / "new.py").write_text("", encoding="utf-8")
    assert not is_clean(repo)
    assert gitops.dirty_paths(repo) == ["?? new.py"]
    (repo / "new.py").unlink()
    (repo / "pkg" / "a.py").write_text("A = 2\n", encoding="utf-8")
    assert not is_clean(repo)


def test_commit_all_returns_new_sha_or_none(repo: Path) -> None:
    base = head(repo)
    assert commit_all(repo, "nothing") is None
    assert head(repo) == base
    (repo / "pkg" / "b.py").write_text("B = 2\n", encoding="utf-8")
    (repo / "pkg" / "a.py").unlink()
    sha = commit_all(repo, "Add b, drop a")
    assert sha is not None and sha != base and head(repo) == sha
    assert is_clean(repo)
    assert commits_between(repo, base, sha) == [gitops.Commit(sha=sha, subject="Add b, drop a")]
    with pytest.raises(ValueError):
        commit_all(repo, "  ")


def test_commit_all_without_identity_uses_fallback(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    subprocess.run(["git", "-C", str(repo), "config", "--unset", "user.name"], check=True)
    subprocess.run(["git", "-C", str(repo), "config", "--unset", "user.email"], check=True)
    monkeypatch.setenv("HOME", str(repo.parent))  # no global identity either
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    (repo / "c.py").write_text("", encoding="utf-8")
    commit_all(repo, "fallback identity")
    author = subprocess.run(
        ["git", "-C", str(repo), "log", "-1", "--format=%an <%ae>"], capture_output=True, text=True
    ).stdout.strip()
    assert author == "autofix <autofix@localhost>"


def test_commits_between_oldest_first(repo: Path) -> None:
    base = head(repo)
    for n in range(3):
        (repo / f"f{n}.txt").write_text(str(n), encoding="utf-8")
        commit_all(repo, f"commit {n}")
    assert [c.subject for c in commits_between(repo, base)] == ["commit 0", "commit 1", "commit 2"]
    assert commits_between(repo, head(repo), head(repo)) == []


def test_create_branch_new_resume_and_reset(repo: Path) -> None:
    base = head(repo)
    assert create_branch(repo, "autofix/work") == base
    assert current_branch(repo) == "autofix/work"
    (repo / "fix.py").write_text("", encoding="utf-8")
    fixed = commit_all(repo, "a fix")
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "main"], check=True)
    # default: resume the existing branch with its commits
    assert create_branch(repo, "autofix/work") == fixed
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "main"], check=True)
    # reset: back to where we branch from
    assert create_branch(repo, "autofix/work", reset=True) == base
    assert current_branch(repo) == "autofix/work"


def test_create_branch_rejects_bad_names(repo: Path) -> None:
    with pytest.raises(GitError, match="check-ref-format"):
        create_branch(repo, "bad..name")


def test_git_error_carries_command_and_redacted_stderr(repo: Path) -> None:
    token = "ghp_" + "a" * 36
    with pytest.raises(GitError) as info:
        gitops.git(repo, "checkout", f"branch-{token}")
    error = info.value
    assert error.command[:4] == ["git", "-C", str(repo), "checkout"]
    assert (
        token not in str(error)
        and token not in error.stderr
        and token not in " ".join(error.command)
    )
    assert "[REDACTED]" in str(error)
    assert error.returncode == 1


def test_sample_project_scratch_copy_excludes_answers(tmp_path: Path) -> None:
    dst = tmp_path / "sample"
    init_scratch_copy(SAMPLE, dst, exclude=["FIXES.md"])
    assert (dst / "inventory" / "pricing.py").is_file()
    assert not (dst / "FIXES.md").exists()
    assert is_clean(dst)
