"""The docs site's routes: "/" is the README with a list of the docs pages, "/<name>" the page
docs/<name>.md, "/<name>.png" an image under docs/. Every route asks the ``require_user``
dependency first; a request it refuses gets a page with a sign-in link, an unknown name a 404
page."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import FileResponse, HTMLResponse, Response
from starlette.exceptions import HTTPException

from autofix.docsite.render import (
    html_document,
    not_found_body,
    pages_list,
    render_markdown,
    sign_in_body,
)
from autofix.docsite.source import DocsSource
from autofix.errors import DocsPageNotFoundError

# Only the site's own styles and images: the pages carry no script, and no other origin.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'",
    "X-Content-Type-Options": "nosniff",
}


def base_of(request: Request) -> str:
    """The site's own address: where the api-server mounted it, under its base path if any."""
    return str(request.scope.get("root_path", "")).rstrip("/") + "/"


def html(request: Request, title: str, body: str, status_code: int = 200) -> HTMLResponse:
    document = html_document(title, body, base_of(request))
    return HTMLResponse(document, status_code=status_code, headers=SECURITY_HEADERS)


def build_docs_app(
    require_user: Callable[..., Any], login_url: Callable[[str], str], source: DocsSource
) -> FastAPI:
    app = FastAPI(
        title="autofix docs",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        dependencies=[Depends(require_user)],
    )

    @app.get("/")
    def index(request: Request) -> Response:
        base = base_of(request)
        page = render_markdown(source.readme_text(), "README.md", source, base)
        return html(request, page.title, page.body + pages_list(source.page_names(), base))

    @app.get("/{name:path}")
    def page(name: str, request: Request) -> Response:
        if posixpath.splitext(name)[1]:
            path, media_type = source.image(name)
            return FileResponse(path, media_type=media_type, headers=SECURITY_HEADERS)
        markdown = source.page_text(name)
        rendered = render_markdown(markdown, f"docs/{name}.md", source, base_of(request))
        return html(request, rendered.title, rendered.body)

    @app.exception_handler(DocsPageNotFoundError)
    def not_found(request: Request, error: DocsPageNotFoundError) -> Response:
        return html(request, "Not found", not_found_body(error.name, base_of(request)), 404)

    @app.exception_handler(HTTPException)
    async def refused(request: Request, error: HTTPException) -> Response:
        if error.status_code not in (401, 403):
            return await http_exception_handler(request, error)
        body = sign_in_body(str(error.detail), login_url(str(request.url)))
        return html(request, "Sign in", body, error.status_code)

    return app
