"""GitRemoteHook: an Airflow Connection as the git remote the fixing DAG pushes to."""

from __future__ import annotations

from typing import Any

from airflow.sdk import BaseHook
from airflow.sdk.exceptions import AirflowNotFoundException

from autofix.errors import FixingError
from autofix.fixing.forge import DEFAULT_API_URL
from autofix.fixing.publish import GitRemote
from autofix.hosting import bridge_airflow_masker
from autofix.redact import register_secret


class GitRemoteHook(BaseHook):
    """A git remote from a Connection of any type: the host is the remote URL (a path, an
    https:// or an ssh URL), the password a token (sent as an HTTP header, never in the URL),
    the login the user name sent with it (default ``x-access-token``). For pull requests the
    extra holds ``api_url`` (default https://api.github.com), ``repository`` (``owner/repo``;
    default: read from the URL) and ``base_branch`` (default: the branch the run started on,
    else the repository's default branch). The token is registered for redaction (and,
    through the bridge, with Airflow's masker) before anything can log it.
    """

    conn_name_attr = "git_conn_id"
    default_conn_name = "git_default"
    hook_name = "Git remote (autofix)"

    def __init__(self, git_conn_id: str = default_conn_name) -> None:
        super().__init__()
        self.git_conn_id = git_conn_id

    def get_conn(self) -> GitRemote:
        """The remote; FixingError (saying what to set) when the Connection is missing or its
        host is no usable remote URL."""
        bridge_airflow_masker()
        try:
            conn = self.get_connection(self.git_conn_id)
        except AirflowNotFoundException as exc:
            raise FixingError(
                f"git_conn_id {self.git_conn_id!r}: no such Connection. Next: create it (Admin → "
                "Connections, any type): host = the remote URL, password = a token"
            ) from exc
        if conn.password:
            register_secret(conn.password)  # and Airflow's mask_secret, through the bridge
        extra: dict[str, Any] = conn.extra_dejson or {}
        return GitRemote(
            url=str(conn.host or ""),
            token=conn.password or None,
            login=conn.login or None,
            api_url=str(extra.get("api_url") or DEFAULT_API_URL),
            repository=extra.get("repository") or None,
            base_branch=extra.get("base_branch") or None,
        )
