"""The human gate's plain-Python side: the approval request, the push, the pull request.

Real git (a bare repository in tmp as the remote), a loopback HTTP server that records what
git sends, and the scripted forge in ``tests/forge_api.py``; no Airflow.
"""

from __future__ import annotations

import base64
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from forge_api import ForgeServer

from autofix import gitops
from autofix.config import AutofixConfig
from autofix.errors import FixingError
from autofix.fixing.approval import (
    Decision,
    approval_request,
    decision_from,
    describe_seconds,
    gate_skip_reason,
    markdown_text,
    rejection,
)
from autofix.fixing.forge import Forge, repository_in
from autofix.fixing.plan import Handoff, ProjectPlan, plan_projects
from autofix.fixing.prepare import Prepared, prepare
from autofix.fixing.publish import (
    GitRemote,
    Published,
    publish,
    publish_note,
    publish_skip_reason,
    push_branch,
)
from autofix.fixing.summary import AgentCalls, ProjectSummary

TOKEN = "ghp_publishTestToken0123456789abcdefXYZ"
BRANCH = "autofix/fixes"


def run_git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


@pytest.fixture
def work(tmp_path: Path) -> Prepared:
    """A project on main, its work branch with two commits, as prepare left it."""
    project = tmp_path / "shop"
    (project / "pkg").mkdir(parents=True)
    (project / "pkg" / "__init__.py").write_text("import os\n\nVALUE = 1\n")
    (project / "pkg" / "util.py").write_text("def f(x):\n    return x\n")
    gitops.init_scratch_copy(project, tmp_path / "repo")
    repo = tmp_path / "repo"
    handoff = Handoff(push="branch", git_conn_id="remote")
    plan = ProjectPlan(project_path=str(repo), name="shop", handoff=handoff)
    prepared = prepare(plan)
    (repo / "pkg" / "__init__.py").write_text("VALUE = 1\n")
    gitops.commit_all(repo, "Remove the unused os import")
    (repo / "pkg" / "util.py").write_text("def f(x: int) -> int:\n    return x\n")
    gitops.commit_all(repo, "Type `f` [mypy] <b>bold</b> *now*")
    return prepared


def summary_for(prepared: Prepared, outcome: str = "clean") -> ProjectSummary:
    plan = prepared.plan
    return ProjectSummary(
        run_id="manual__2026-01-01",
        project_path=plan.project_path,
        work_branch=plan.work_branch,
        agent="claude",
        outcome=outcome,
        reason="all checks pass" if outcome == "clean" else "no progress",
        errors_before=3,
        errors_after=0 if outcome == "clean" else 1,
        by_tool_before={"ruff": 2, "mypy": 1},
        by_tool_after={} if outcome == "clean" else {"mypy": 1},
        iterations=2,
        commits=gitops.commits_between(Path(plan.project_path), prepared.base_sha),
        agent_calls=AgentCalls(calls=3, failed=1, cost_usd=0.0421),
    )


def bare_remote(tmp_path: Path) -> Path:
    remote = tmp_path / "remote.git"
    run_git("init", "--bare", "--quiet", str(remote))
    return remote


def test_the_request_shows_diff_checks_cost_and_commits(work: Prepared) -> None:
    request = approval_request(work, summary_for(work))
    assert request.subject == f"autofix: approve 2 commit(s) on {BRANCH} in shop?"
    body = request.body
    assert "| before | 3 | ruff 2, mypy 1 |" in body
    assert "| after | 0 | - |" in body
    assert "**Cost**: $0.0421 for 3 agent call(s) (claude, 1 failed)" in body
    assert "Remove the unused os import" in body
    # An agent's commit subject is text, never markup.
    assert r"Type \`f\` \[mypy\] \<b\>bold\</b\> \*now\*" in body
    assert f"git diff --stat {work.base_sha[:8]}..{BRANCH}" in body
    assert "pkg/__init__.py | 2 --" in body
    assert "2 files changed, 1 insertion(+), 3 deletions(-)" in body
    assert "**Approve**: push `autofix/fixes` to the remote of connection `remote`." in body
    assert "**Reject**, or no answer within 24h: the branch stays in the project" in body


def test_nobody_is_asked_without_approval_or_commits(work: Prepared) -> None:
    plan = work.plan
    assert gate_skip_reason(plan, summary_for(work)) == (
        "approval is off (the run's approval param, or fixing.approval)"
    )
    gated = plan.model_copy(update={"handoff": Handoff(approval=True)})
    assert gate_skip_reason(gated, summary_for(work)) is None
    empty = summary_for(work).model_copy(update={"commits": []})
    assert (
        gate_skip_reason(gated, empty) == f"nothing to approve: no commit on {BRANCH} in this run"
    )
    assert gate_skip_reason(gated, None) == (
        "nothing to approve: the summary did not finish, so nothing is known about the branch"
    )


def test_decisions_and_their_lines(work: Prepared) -> None:
    approved = decision_from(["Approve"], {"id": "7", "name": "alice"}, "2026-01-01T00:00", False)
    assert approved.approved and approved.by == "alice"
    timed_out = decision_from(["Reject"], None, "2026-01-01T00:00", True)
    plan = work.plan.model_copy(update={"handoff": Handoff(approval=True, approval_timeout=5400)})
    failure, note = rejection(plan, timed_out)
    assert failure == (
        f"rejected by default: no answer within 1h 30m: branch {BRANCH} is kept in "
        f"{plan.project_path}, nothing was pushed. Next: run again and answer within "
        "approval_timeout, or raise it"
    )
    assert (
        note
        == f"**shop**: REJECTED by default: no answer within 1h 30m · branch `{BRANCH}` kept, not pushed"
    )
    assert describe_seconds(86400) == "24h" and describe_seconds(45) == "45s"
    assert markdown_text("a\nb  `c`") == r"a b \`c\`"


def test_push_sends_the_branch_and_writes_no_remote_or_token(
    work: Prepared, tmp_path: Path
) -> None:
    remote = bare_remote(tmp_path)
    project = Path(work.plan.project_path)
    config_before = (project / ".git" / "config").read_text()
    sha = push_branch(project, BRANCH, GitRemote(url=str(remote), token=TOKEN))
    assert sha == gitops.head(project)
    assert run_git("-C", str(remote), "rev-parse", f"refs/heads/{BRANCH}").strip() == sha
    assert (project / ".git" / "config").read_text() == config_before  # no remote added
    assert TOKEN not in (project / ".git" / "config").read_text()


class _RecordingHandler(BaseHTTPRequestHandler):
    seen: ClassVar[list[dict[str, str]]]

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.seen.append({"path": self.path, **dict(self.headers.items())})
        self.send_response(403)
        self.send_header("Content-Length", "0")
        self.end_headers()


@pytest.fixture
def recording_http() -> Iterator[tuple[str, list[dict[str, str]]]]:
    seen: list[dict[str, str]] = []
    handler = type("Handler", (_RecordingHandler,), {"seen": seen})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/octo-org/shop.git", seen
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_the_token_travels_as_an_http_header_only(
    work: Prepared, recording_http: tuple[str, list[dict[str, str]]]
) -> None:
    url, seen = recording_http
    project = Path(work.plan.project_path)
    with pytest.raises(FixingError) as failed:
        push_branch(project, BRANCH, GitRemote(url=url, token=TOKEN, login="bot"))
    expected = base64.b64encode(f"bot:{TOKEN}".encode()).decode()
    assert seen and seen[0]["path"].startswith("/octo-org/shop.git/info/refs")
    assert seen[0]["Authorization"] == f"Basic {expected}"
    message = str(failed.value)
    assert message.startswith(f"git push of {BRANCH} to {url} failed: ")
    assert "Next: check the connection's host and token" in message
    assert TOKEN not in message and expected not in message
    assert TOKEN not in (project / ".git" / "config").read_text()


def test_a_url_with_a_password_is_refused() -> None:
    with pytest.raises(FixingError, match="carries a password in the URL"):
        GitRemote(url=f"https://bot:{TOKEN}@github.com/octo-org/shop.git")
    with pytest.raises(FixingError, match="has no host"):
        GitRemote(url="")


def test_repository_from_forge_urls_only() -> None:
    assert repository_in("https://github.com/octo-org/shop.git") == "octo-org/shop"
    assert repository_in("git@github.com:octo-org/shop.git") == "octo-org/shop"
    assert repository_in("ssh://git@gitlab.example/team/shop") == "team/shop"
    assert repository_in("/srv/git/shop.git") is None
    with pytest.raises(FixingError, match=r"set extra\.repository"):
        GitRemote(url="/srv/git/shop.git", token=TOKEN).check_for("pull_request")
    with pytest.raises(FixingError, match="has no password"):
        GitRemote(url="https://github.com/octo-org/shop.git").check_for("pull_request")


def test_pull_request_is_pushed_then_opened(work: Prepared, tmp_path: Path) -> None:
    remote = bare_remote(tmp_path)
    prepared = work.model_copy(
        update={
            "plan": work.plan.model_copy(
                update={"handoff": Handoff(push="pull_request", git_conn_id="r")}
            )
        }
    )
    decision = Decision(approved=True, by="alice", at="2026-01-01T00:00:00")
    with ForgeServer(token=TOKEN, repository="octo-org/shop") as forge:
        git_remote = GitRemote(
            url=str(remote), token=TOKEN, api_url=forge.origin, repository="octo-org/shop"
        )
        published = publish(prepared, summary_for(prepared), decision, git_remote)
        assert published.pull_request is not None
        assert published.pull_request.url == forge.pull_url(42)
        (request,) = forge.requests
        assert (request.method, request.path, request.status) == (
            "POST",
            "/repos/octo-org/shop/pulls",
            201,
        )
        assert request.authorized
        assert request.accept == "application/vnd.github+json"
        assert request.api_version == "2022-11-28"
        assert request.body["head"] == BRANCH and request.body["base"] == "main"
        assert request.body["title"] == "autofix: shop: issues 3 → 0"
        assert "Remove the unused os import" in request.body["body"]
        assert "Approved by alice in Airflow" in request.body["body"]
        assert TOKEN not in request.body["body"]
        # A second run on the same branch finds the open pull request.
        again = publish(prepared, summary_for(prepared), decision, git_remote)
        assert again.pull_request is not None and again.pull_request.existed
        assert again.pull_request.url == forge.pull_url(42)
    assert run_git("-C", str(remote), "rev-parse", f"refs/heads/{BRANCH}").strip() == (
        gitops.head(Path(prepared.plan.project_path))
    )
    note = publish_note(prepared.plan, decision, published)
    assert (
        note
        == f"**shop**: APPROVED by alice · pull request {forge.pull_url(42)} opened for `{BRANCH}`"
    )


def test_forge_failures_say_what_to_fix(work: Prepared) -> None:
    with ForgeServer(token=TOKEN, repository="octo-org/shop", default_branch="trunk") as forge:
        with Forge(forge.origin, "octo-org/shop", TOKEN) as api:
            assert api.default_branch() == "trunk"  # no base given, no start branch
        wrong = Forge(forge.origin, "octo-org/shop", "ghp_wrong_token_0123456789")
        with wrong, pytest.raises(FixingError) as refused:
            wrong.open_pull_request(head=BRANCH, base="main", title="t", body="b")
        assert "HTTP 401 (Bad credentials): the token was refused" in str(refused.value)
        assert "ghp_wrong_token" not in str(refused.value)
        other = Forge(forge.origin, "octo-org/other", TOKEN)
        with other, pytest.raises(FixingError, match=r"HTTP 404 .* no repository octo-org/other"):
            other.open_pull_request(head=BRANCH, base="main", title="t", body="b")
    gone = Forge("http://127.0.0.1:9", "octo-org/shop", TOKEN, timeout=5)
    with gone, pytest.raises(FixingError, match="cannot be reached"):
        gone.default_branch()


def test_what_gets_pushed(work: Prepared) -> None:
    plan = work.plan  # push branch, approval off
    clean, unfinished = summary_for(work), summary_for(work, "tripped")
    assert publish_skip_reason(plan, clean, None) is None
    assert publish_skip_reason(plan, unfinished, None) == (
        "the project is not clean (tripped): only a clean branch is pushed"
    )
    gated = plan.model_copy(
        update={"handoff": Handoff(approval=True, push="branch", git_conn_id="r")}
    )
    yes = Decision(approved=True, by="bob")
    assert publish_skip_reason(gated, clean, yes) is None
    assert (
        publish_skip_reason(gated, clean, None) == "no approval was recorded, so nothing is pushed"
    )
    local = plan.model_copy(update={"handoff": Handoff(approval=True)})
    assert publish_skip_reason(local, clean, yes) == "push is none"
    skipped = Published(push="none", skipped="push is none")
    assert (
        publish_note(local, yes, skipped)
        == f"**shop**: APPROVED by bob · `{BRANCH}` not pushed: push is none"
    )
    assert publish_note(plan, None, Published(push="branch", skipped="x")) is None


def test_a_push_without_a_connection_stops_the_plan(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    with pytest.raises(FixingError) as failed:
        plan_projects({"project_path": str(project), "push": "branch"}, AutofixConfig(), run_id="r")
    assert str(failed.value) == (
        f"project {project}: push is branch but git_conn_id is empty: set git_conn_id to a "
        "Connection whose host is the remote URL (and password a token), or set push to none"
    )
    with pytest.raises(FixingError, match="approval_timeout: Input should be greater than 0"):
        plan_projects(
            {"project_path": str(project), "approval_timeout": 0}, AutofixConfig(), run_id="r"
        )
    (plan,) = plan_projects(
        {
            "project_path": str(project),
            "approval": True,
            "push": "pull_request",
            "git_conn_id": "gh",
        },
        AutofixConfig(),
        run_id="r",
    )
    assert plan.handoff == Handoff(
        approval=True, approval_timeout=86400, push="pull_request", git_conn_id="gh"
    )
