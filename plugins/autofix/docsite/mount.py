"""What the plugin hands the api-server (``fastapi_apps``): the docs site's address, and the
site as an ASGI app that builds itself on its first request."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from autofix.docsite.source import DocsSource, find_docs

if TYPE_CHECKING:
    from fastapi import FastAPI
    from starlette.types import Receive, Scope, Send

# Where the api-server serves the site; pyproject's Documentation URL is this path, relative.
DOCS_URL_PREFIX = "/autofix/docs"
SignIn = Callable[[], Callable[..., Any]]
LoginUrl = Callable[[str], str]


class DocsApp:
    """The site, built on its first request: every Airflow component loads the plugin, only the
    api-server serves it, and importing FastAPI costs ~0.2 s.

    ``sign_in`` returns the FastAPI dependency that refuses a request without a signed-in user
    (raising ``HTTPException`` 401 or 403); ``login_url`` gives the sign-in page's address for
    a page to come back to."""

    def __init__(
        self, sign_in: SignIn, login_url: LoginUrl, source: DocsSource | None = None
    ) -> None:
        self._sign_in = sign_in
        self._login_url = login_url
        self._source = source
        self._app: FastAPI | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._app is None:
            # Imported here, not at the top: see the class's docstring.
            from autofix.docsite.app import build_docs_app

            source = self._source or find_docs()
            self._app = build_docs_app(self._sign_in(), self._login_url, source)
        await self._app(scope, receive, send)
