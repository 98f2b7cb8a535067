"""What the plugin hands the api-server (``fastapi_apps``): the view's address, and the view
as an ASGI app that builds itself on its first request (every Airflow component loads the
plugin; only the api-server serves it, and FastAPI costs ~0.2 s at import)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI
    from starlette.types import Receive, Scope, Send

    from autofix.ui.access import UiAccess

UI_URL_PREFIX = "/autofix/ui"


class UiApp:
    """``access`` is built on the first request too: Airflow's security module costs every
    other component seconds at import."""

    def __init__(self, access: Callable[[], UiAccess]) -> None:
        self._access = access
        self._app: FastAPI | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._app is None:
            from autofix.ui.app import build_ui_app

            self._app = build_ui_app(self._access())
        await self._app(scope, receive, send)
