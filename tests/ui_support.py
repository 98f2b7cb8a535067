"""The autofix view's app on a given store, with a stand-in for Airflow's access checks: the
user is named by an ``X-Test-User`` header (none: 401) and reads the DAGs ``users`` gives them.
The real checks (Airflow's auth manager) are tested against the live api-server."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import Header, HTTPException
from fastapi.testclient import TestClient

from autofix.audit.stores.base import AuditStore
from autofix.config import AutofixConfig
from autofix.ui.access import UiAccess
from autofix.ui.app import StoreSource, build_ui_app


class FixedSource(StoreSource):
    def __init__(self, store: AuditStore, config: AutofixConfig | None = None) -> None:
        super().__init__()
        self._fixed, self._config = store, config or AutofixConfig()

    def config(self) -> AutofixConfig:
        return self._config

    def store(self, config: AutofixConfig) -> AuditStore:
        return self._fixed


def ui_client(
    store: AuditStore,
    users: Mapping[str, set[str]],
    *,
    config: AutofixConfig | None = None,
    run_states: Mapping[tuple[str, str], str] | None = None,
) -> TestClient:
    def user(x_test_user: str | None = Header(default=None)) -> str:
        if not x_test_user:
            raise HTTPException(401, "Not authenticated")
        if x_test_user not in users:
            raise HTTPException(403, "Invalid JWT token")
        return x_test_user

    def readable_dags(name: Any) -> frozenset[str]:
        return frozenset(users[name])

    states = dict(run_states or {})
    access = UiAccess(
        user=user,
        readable_dags=readable_dags,
        run_states=lambda runs: {run: states[run] for run in runs if run in states},
    )
    return TestClient(build_ui_app(access, FixedSource(store, config)))
