"""What becomes of an approved work branch: nothing, a push to a remote, or a pull request.

The remote comes from a Connection (read by ``autofix.hooks.git_remote``) as a
:class:`GitRemote`. Its token reaches git only as an ``http.extraHeader`` set through
``GIT_CONFIG_*`` environment variables: never in a URL, an argv, ``.git/config`` or a log
line, and it is registered for redaction. The branch is pushed to the URL itself, so no
remote is added to the project's configuration.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from autofix import gitops
from autofix.errors import FixingError, GitError
from autofix.fixing.approval import Decision, changes_overview, nothing_to_review
from autofix.fixing.forge import DEFAULT_API_URL, Forge, PullRequest, repository_in
from autofix.fixing.plan import ProjectPlan
from autofix.fixing.prepare import Prepared
from autofix.fixing.summary import ProjectSummary
from autofix.redact import redact, register_secret

PUSH_TIMEOUT_S = 300.0
DEFAULT_LOGIN = "x-access-token"  # the user name GitHub takes with a token; any for GitLab


@dataclass(frozen=True)
class GitRemote:
    """A git remote and how to reach it and its forge, as a Connection describes it."""

    url: str  # a path, file://, https:// or ssh URL; never with credentials in it
    token: str | None = None
    login: str | None = None  # the user name sent with the token (default x-access-token)
    api_url: str = DEFAULT_API_URL
    repository: str | None = None  # owner/repo; default: read from the URL
    base_branch: str | None = None  # a pull request's base; default: see pull_request_base

    def __post_init__(self) -> None:
        if not self.url.strip():
            raise FixingError(
                "the git connection has no host: set its host to the remote URL "
                "(a path, or an https:// or ssh URL)"
            )
        if urlsplit(self.url).password is not None:
            raise FixingError(
                "the git connection's host carries a password in the URL: remove it and put "
                "the token in the connection's password field, which autofix keeps out of logs"
            )
        register_secret(self.token)

    def pull_request_repository(self) -> str:
        """``owner/repo`` of the pull request: ``repository``, else read from the URL."""
        repository = self.repository or repository_in(self.url)
        if repository is None:
            raise FixingError(
                f"no owner/repo for a pull request: {redact(self.url)} is no forge URL. Next: "
                'set extra.repository of the git connection, e.g. {"repository": "octo-org/repo"}'
            )
        return repository

    def check_for(self, push: str) -> None:
        """Raise FixingError now, before any agent runs, when ``push`` cannot work."""
        if push == "pull_request":
            if not self.token:
                raise FixingError(
                    "push is pull_request but the git connection has no password. Next: put a "
                    "token that may open pull requests in its password"
                )
            self.pull_request_repository()

    def git_env(self) -> dict[str, str]:
        """The environment of a git call to this remote: the token as an HTTP header."""
        if not self.token:
            return gitops.env_with({})
        pair = f"{self.login or DEFAULT_LOGIN}:{self.token}".encode()
        encoded = base64.b64encode(pair).decode()
        register_secret(encoded)
        inherited = gitops.env_with({})
        count = int(inherited.get("GIT_CONFIG_COUNT") or 0)  # keep the worker's own settings
        return gitops.env_with(
            {
                "GIT_CONFIG_COUNT": str(count + 1),
                f"GIT_CONFIG_KEY_{count}": "http.extraHeader",
                f"GIT_CONFIG_VALUE_{count}": f"Authorization: Basic {encoded}",
            }
        )


def push_branch(project: Path, branch: str, remote: GitRemote) -> str:
    """Push ``branch`` to the same name at ``remote``; its sha. Raises FixingError."""
    try:
        sha = gitops.git(project, "rev-parse", "--verify", f"refs/heads/{branch}").stdout.strip()
        gitops.git(
            project,
            "push",
            "--porcelain",
            remote.url,
            f"refs/heads/{branch}:refs/heads/{branch}",
            env=remote.git_env(),
            timeout=PUSH_TIMEOUT_S,
        )
    except GitError as exc:
        raise FixingError(
            f"git push of {branch} to {redact(remote.url)} failed: {exc}. Next: check the "
            "connection's host and token (write access), and that the remote branch has no "
            "commits of its own; then clear the publish task to push again"
        ) from exc
    return sha


def pull_request_base(remote: GitRemote, prepared: Prepared, forge: Forge) -> str:
    """The base a pull request goes into: the connection's ``base_branch``, else the branch
    the run started from, else the repository's default branch."""
    return remote.base_branch or prepared.start_branch or forge.default_branch()


@dataclass(frozen=True)
class Published:
    """What publishing did: ``pushed`` the sha (None: nothing pushed) and ``pull_request``."""

    push: str
    pushed: str | None = None
    pull_request: PullRequest | None = None
    skipped: str = ""  # why nothing was pushed


def publish_skip_reason(
    plan: ProjectPlan, summary: ProjectSummary | None, decision: Decision | None
) -> str | None:
    """Why the branch is not pushed; None when it is."""
    handoff = plan.handoff
    if handoff.push == "none":
        return "push is none"
    reason = nothing_to_review(plan, summary)
    if reason is not None:
        return f"nothing to push: {reason}"
    if summary is not None and not summary.ok:
        return f"the project is not clean ({summary.outcome}): only a clean branch is pushed"
    if handoff.approval and (decision is None or not decision.approved):
        return "no approval was recorded, so nothing is pushed"
    return None


def pull_request_text(
    prepared: Prepared, summary: ProjectSummary, decision: Decision | None
) -> tuple[str, str]:
    """(title, body) of the pull request."""
    plan = prepared.plan
    name = plan.name or Path(plan.project_path).name
    before = "-" if summary.errors_before is None else str(summary.errors_before)
    after = "-" if summary.errors_after is None else str(summary.errors_after)
    title = f"autofix: {name}: issues {before} → {after}"
    approved = (
        f"Approved by {decision.by} in Airflow"
        if decision is not None and decision.by
        else "Opened without an approval step"
    )
    body = "\n\n".join(
        [
            changes_overview(prepared, summary),
            f"{approved} (run `{summary.run_id}`, agent {summary.agent}).",
        ]
    )
    return redact(title), redact(body)


def publish(
    prepared: Prepared,
    summary: ProjectSummary,
    decision: Decision | None,
    remote: GitRemote,
    *,
    forge: Forge | None = None,
) -> Published:
    """Do what ``push`` says for a clean, approved (or ungated) branch. ``forge``: the pull
    request API (default: the remote's ``api_url``). Raises FixingError."""
    plan = prepared.plan
    sha = push_branch(Path(plan.project_path), plan.work_branch, remote)
    if plan.handoff.push != "pull_request":
        return Published(push=plan.handoff.push, pushed=sha)
    if forge is None:
        forge = Forge(remote.api_url, remote.pull_request_repository(), remote.token or "")
    with forge:
        base = pull_request_base(remote, prepared, forge)
        title, body = pull_request_text(prepared, summary, decision)
        pull = forge.open_pull_request(head=plan.work_branch, base=base, title=title, body=body)
    return Published(push="pull_request", pushed=sha, pull_request=pull)


def publish_note(plan: ProjectPlan, decision: Decision | None, published: Published) -> str | None:
    """The run note's line: who approved, and what became of the branch. None when there was
    neither an approval nor a push (the summary's line says it all)."""
    name = plan.name or Path(plan.project_path).name
    branch = plan.work_branch
    if decision is None and published.pushed is None:
        return None
    head = (
        f"**{name}**: APPROVED {decision.who(plan.handoff.approval_timeout)}"
        if decision is not None
        else f"**{name}**: approval off"
    )
    if published.pull_request is not None:
        pull = published.pull_request
        how = "open already" if pull.existed else "opened"
        return f"{head} · pull request {pull.url} {how} for `{branch}`"
    if published.pushed is not None:
        conn = plan.handoff.git_conn_id
        return f"{head} · pushed `{branch}` ({published.pushed[:8]}) to connection `{conn}`"
    return f"{head} · `{branch}` not pushed: {published.skipped}"
