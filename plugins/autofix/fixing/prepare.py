"""The project's repository before the loop: clean tree and work branch, then the hooks commit."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from autofix import gitops
from autofix.errors import FixingError, GitError
from autofix.fixing.plan import HOOKS_FILE, ProjectPlan


class Prepared(BaseModel):
    """A project ready for fixing: clean tree, work branch checked out."""

    plan: ProjectPlan
    base_sha: str  # HEAD when the run started: the summary lists commits since this
    branch_created: bool
    repo_created: bool = False  # the folder was no repository: prepare made it one
    # The branch checked out before the work branch (None: detached, or the work branch
    # itself on a resumed run): a pull request's default base.
    start_branch: str | None = None


def prepare(plan: ProjectPlan) -> Prepared:
    """Check the repo and tree, create or resume the work branch. Raises FixingError."""
    path = Path(plan.project_path)
    try:
        top, made = gitops.ensure_repo(path)
        gitops.head(top)
        if not gitops.is_clean(top):
            dirty = gitops.dirty_paths(top)
            shown = ", ".join(line.strip() for line in dirty[:5])
            more = f" and {len(dirty) - 5} more" if len(dirty) > 5 else ""
            raise FixingError(
                f"{top} has uncommitted changes ({shown}{more}); commit or stash them first: "
                "autofix works on a clean tree so that every fix is its own commit"
            )
        created = not gitops.branch_exists(top, plan.work_branch)
        base = gitops.head(top)
        start = gitops.current_branch(top)
        gitops.create_branch(top, plan.work_branch)
    except GitError as exc:
        raise FixingError(str(exc)) from exc
    return Prepared(
        plan=plan.model_copy(update={"project_path": str(top)}),
        base_sha=base,
        branch_created=created,
        repo_created=made,
        start_branch=None if start == plan.work_branch else start,
    )


def verify_hooks(project: str | Path) -> str | None:
    """Trust the file, not the agent. Returns the sha of a commit made for left-over changes."""
    top = Path(project)
    if not (top / HOOKS_FILE).is_file():
        raise FixingError(
            f"configure_hooks: the agent reported success but {HOOKS_FILE} does not exist in "
            f"{top}; see the agent output above for what it did instead"
        )
    if gitops.is_clean(top):
        return None
    # The agent wrote the file but did not commit: commit it so the fix loop starts clean.
    return gitops.commit_all(top, f"Add {HOOKS_FILE}")
