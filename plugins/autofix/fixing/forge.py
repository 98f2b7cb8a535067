"""Pull requests through a forge's REST API (GitHub's, and the servers that speak it).

``POST {api_url}/repos/{owner}/{repo}/pulls`` with the token as a Bearer header. A pull
request that is open already for the branch is found and returned instead of failing, so a
second run on the same branch does not stop there. Every failure is a ``FixingError`` that
names the HTTP status, the forge's own message and what to do next; the token is never in it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import httpx

from autofix.errors import FixingError
from autofix.redact import redact, register_secret

DEFAULT_API_URL = "https://api.github.com"
API_TIMEOUT_S = 30.0
# https://host/owner/repo(.git), ssh://git@host/owner/repo(.git), git@host:owner/repo(.git)
_REPOSITORY_IN_URL = re.compile(r"(?:[:/])([\w.-]+)/([\w.-]+?)(?:\.git)?/?$")


@dataclass(frozen=True)
class PullRequest:
    number: int
    url: str
    existed: bool = False  # open already for this branch: found, not created


def repository_in(remote_url: str) -> str | None:
    """``owner/repo`` from a forge's clone URL; None for anything else (a local path)."""
    if "://" not in remote_url and not re.match(r"^[\w.-]+@[\w.-]+:", remote_url):
        return None
    found = _REPOSITORY_IN_URL.search(remote_url)
    return f"{found.group(1)}/{found.group(2)}" if found else None


class Forge:
    """One repository on a forge: its API base URL, ``owner/repo`` and the token."""

    def __init__(
        self,
        api_url: str,
        repository: str,
        token: str,
        *,
        timeout: float = API_TIMEOUT_S,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if not re.fullmatch(r"[\w.-]+/[\w.-]+", repository):
            raise FixingError(
                f"repository {repository!r} is not owner/repo: set extra.repository of the "
                'git connection, e.g. {"repository": "octo-org/octo-repo"}'
            )
        if not token:
            raise FixingError(
                "opening a pull request needs a token: put it in the git connection's password"
            )
        register_secret(token)
        self.api_url = api_url.rstrip("/")
        self.repository = repository
        self._client = httpx.Client(
            base_url=self.api_url,
            headers={
                "Authorization": f"Bearer {token}",
                "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": "2022-11-28",
                "User-Agent": "autofix",
            },
            timeout=timeout,
            transport=transport,
        )

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Forge:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            return self._client.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise FixingError(
                f"the forge API at {self.api_url} cannot be reached ({type(exc).__name__}: "
                f"{redact(str(exc))}): check extra.api_url of the git connection, then clear "
                "the publish task to try again"
            ) from exc

    def _failure(self, response: httpx.Response, doing: str) -> FixingError:
        status = response.status_code
        try:
            body = response.json()
        except ValueError:
            body = {}
        message = (
            str(body.get("message") or response.reason_phrase) if isinstance(body, dict) else ""
        )
        details = [
            str(item.get("message") or item.get("code") or "")
            for item in (body.get("errors") or [] if isinstance(body, dict) else [])
            if isinstance(item, dict)
        ]
        said = "; ".join(part for part in [message, *details] if part)
        if status in (401, 403):
            hint = "the token was refused: give the git connection a token that may write to it"
        elif status == 404:
            hint = (
                f"no repository {self.repository} at {self.api_url}, or the token cannot see it: "
                "check extra.repository and extra.api_url of the git connection"
            )
        else:
            hint = "see the forge's message; then clear the publish task to try again"
        return FixingError(f"{doing} failed: HTTP {status} ({redact(said)}): {hint}")

    def default_branch(self) -> str:
        """The repository's default branch (a pull request's base when none is set)."""
        response = self._request("GET", f"/repos/{self.repository}")
        if response.status_code != 200:
            raise self._failure(response, f"reading repository {self.repository}")
        return str(response.json().get("default_branch") or "main")

    def open_pull_request(self, *, head: str, base: str, title: str, body: str) -> PullRequest:
        """Open a pull request from ``head`` into ``base``, or return the one open already."""
        payload = {"title": title, "head": head, "base": base, "body": body}
        response = self._request("POST", f"/repos/{self.repository}/pulls", json=payload)
        if response.status_code == 201:
            data = response.json()
            return PullRequest(number=int(data["number"]), url=str(data["html_url"]))
        if response.status_code == 422 and "already exists" in response.text:
            found = self._open_for(head, base)
            if found is not None:
                return found
        raise self._failure(response, f"opening a pull request {head} → {base}")

    def _open_for(self, head: str, base: str) -> PullRequest | None:
        owner = self.repository.split("/")[0]
        params = {"head": f"{owner}:{head}", "base": base, "state": "open"}
        response = self._request("GET", f"/repos/{self.repository}/pulls", params=params)
        if response.status_code != 200 or not response.json():
            return None
        data = response.json()[0]
        return PullRequest(number=int(data["number"]), url=str(data["html_url"]), existed=True)
