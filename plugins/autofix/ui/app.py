"""The view's routes. Pages: ``/`` (one page; its script draws runs, a run's tree, health and
the pattern tester). API: ``/api/runs``, ``/api/run``, ``/api/health``, ``/api/patterns/test``
and ``/api/patterns/rules`` (the pattern tester: autofix.ui.tester).

Every route depends on ``access.user`` (401/403 without a signed-in user); lists keep only the
DAGs the user may read, and one run of another DAG answers 403. Reads go through the
configured audit store's query API; nothing here writes."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from autofix.agents.registry import FORMAT_NAMES
from autofix.audit.envelope import aware
from autofix.audit.health import Bucket, HealthQuery
from autofix.audit.runs import MAX_PAGE, RunQuery, RunRow
from autofix.audit.stores import build_store
from autofix.audit.stores.base import AuditStore
from autofix.config import AutofixConfig, BudgetSettings, load_config
from autofix.errors import ConfigError
from autofix.result import FailureKind
from autofix.ui import tester
from autofix.ui.access import UiAccess
from autofix.ui.health_json import health_json
from autofix.ui.tree import run_tree

STATIC = Path(__file__).resolve().parent / "static"
STATIC_FILES = {"app.js", "app.css", "runs.js", "run.js", "health.js", "tester.js"}
# The page's own script and styles only; it is framed by the Airflow UI (same origin).
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
# The tester's request: its texts (each bounded by autofix.ui.tester) as JSON, escapes included.
MAX_TEST_BODY_BYTES = 8 * 1024 * 1024
HEALTH_DEFAULT_WINDOW = timedelta(days=14)
HEALTH_MAX_HOURLY = timedelta(days=31)  # a longer window by the hour is too many points to draw


class StoreSource:
    """The configured audit store, opened once per configuration (the config is re-read on
    every request, so an edited config applies without a restart)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: str | None = None
        self._store: AuditStore | None = None

    def config(self) -> AutofixConfig:
        try:
            return load_config()
        except ConfigError as exc:
            raise HTTPException(503, f"the autofix config cannot be read: {exc}") from None

    def store(self, config: AutofixConfig) -> AuditStore:
        key = config.audit.model_dump_json()
        with self._lock:
            if self._store is None or key != self._key:
                try:
                    self._store, self._key = build_store(config.audit), key
                except ConfigError as exc:
                    raise HTTPException(503, f"the audit store cannot be opened: {exc}") from None
            return self._store


def budget_used(row: RunRow, budget: BudgetSettings) -> float | None:
    """The largest share of a per-run limit this run used; None without run limits."""
    shares = [
        used / limit
        for used, limit in (
            (row.calls, budget.max_calls_per_run),
            (row.cost_usd, budget.max_cost_per_run_usd),
            (row.tokens, budget.max_tokens_per_run),
        )
        if limit
    ]
    return max(shares) if shares else None


def run_json(row: RunRow, budget: BudgetSettings) -> dict[str, Any]:
    return {
        "dag_id": row.dag_id,
        "run_id": row.run_id,
        "outcome": row.outcome,
        "calls": row.calls,
        "attempts": row.attempts,
        "succeeded": row.succeeded,
        "success_rate": row.success_rate,
        "retries": row.retries,
        "cost_usd": row.cost_usd,
        "tokens": row.tokens,
        "budget_used": budget_used(row, budget),
        "first_at": row.first_at.isoformat(),
        "last_at": row.last_at.isoformat(),
        "agents": list(row.agents),
        "operations": list(row.operations),
        "failure_kinds": list(row.failure_kinds),
    }


async def bounded_json_body(request: Request, limit: int) -> bytes:
    """A JSON request body of at most ``limit`` bytes (413 past it, 415 for another type: a
    cross-site form cannot send JSON without a preflight)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise HTTPException(415, "send the request as JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length", "")
    too_large = f"the request is larger than {limit // (1024 * 1024)} MiB; send less text"
    if declared.isdigit() and int(declared) > limit:
        raise HTTPException(413, too_large)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise HTTPException(413, too_large)
    return bytes(body)


def build_ui_app(access: UiAccess, source: StoreSource | None = None) -> FastAPI:
    source = source or StoreSource()
    app = FastAPI(
        title="autofix",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        dependencies=[Depends(access.user)],
    )

    signed_in = Depends(access.user)

    def readable(user: Any) -> frozenset[str]:
        return access.readable_dags(user)

    def require_dag(user: Any, dag_id: str) -> None:
        if dag_id not in readable(user):
            raise HTTPException(403, f"you may not read the DAG {dag_id!r}")

    @app.get("/")
    def index() -> Response:
        return FileResponse(STATIC / "index.html", headers=SECURITY_HEADERS)

    @app.get("/static/{name}")
    def static(name: str) -> Response:
        if name not in STATIC_FILES:
            raise HTTPException(404, f"no file {name!r}")
        return FileResponse(STATIC / name, headers=SECURITY_HEADERS)

    @app.get("/api/runs")
    def runs(
        user: Any = signed_in,
        dag_id: str | None = None,
        agent: str | None = None,
        operation: str | None = None,
        outcome: Literal["all_valid", "had_failures"] | None = None,
        failure_kind: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        offset: Annotated[int, Query(ge=0)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
    ) -> dict[str, Any]:
        dags = readable(user)
        if dag_id is not None:
            require_dag(user, dag_id)
        query = RunQuery(
            dag_ids=dags,
            dag_id=dag_id or None,
            agent=agent or None,
            operation=operation or None,
            outcome=outcome,
            failure_kind=failure_kind or None,
            since=since,
            until=until,
            offset=offset,
            limit=limit,
        )
        config = source.config()
        page = source.store(config).runs(query)
        states = access.run_states([(row.dag_id, row.run_id) for row in page.rows if row.dag_id])
        return {
            "total": page.total,
            "offset": query.offset,
            "limit": query.limit,
            "runs": [
                {
                    **run_json(row, config.budgets),
                    "state": states.get((row.dag_id or "", row.run_id)),
                }
                for row in page.rows
            ],
            "dags": sorted(dags),
            "choices": {
                "agents": list(FORMAT_NAMES),
                "failure_kinds": [kind.value for kind in FailureKind],
            },
        }

    @app.get("/api/run")
    def run(dag_id: str, run_id: str, user: Any = signed_in) -> dict[str, Any]:
        require_dag(user, dag_id)
        config = source.config()
        store = source.store(config)
        tree = run_tree(
            dag_id,
            run_id,
            store.by_trace(run_id),
            store.events(run_id),
            ui_url=access.ui_url,
        )
        tree["state"] = access.run_states([(dag_id, run_id)]).get((dag_id, run_id))
        return tree

    @app.post("/api/patterns/test")
    async def patterns_test(request: Request) -> dict[str, Any]:
        body = await bounded_json_body(request, MAX_TEST_BODY_BYTES)
        try:
            answer: dict[str, Any] = await run_in_threadpool(tester.answer_request, body)
        except tester.PatternTestError as exc:
            raise HTTPException(exc.status, exc.detail()) from None
        return answer

    @app.get("/api/patterns/rules")
    def patterns_rules() -> dict[str, Any]:
        return tester.live_rules_text()

    @app.get("/api/health")
    def health(
        user: Any = signed_in,
        dag_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        bucket: Bucket = "day",
    ) -> dict[str, Any]:
        dags = readable(user)
        if dag_id:
            require_dag(user, dag_id)
        end = aware(until) if until is not None else datetime.now(UTC)
        start = aware(since) if since is not None else end - HEALTH_DEFAULT_WINDOW
        if start > end:
            raise HTTPException(400, "since is after until: give a since before until")
        if bucket == "hour" and end - start > HEALTH_MAX_HOURLY:
            raise HTTPException(
                400, "bucket=hour covers at most 31 days: use bucket=day or a shorter window"
            )
        config = source.config()
        query = HealthQuery(
            dag_ids=dags,
            dag_id=dag_id or None,
            since=start,
            until=end,
            bucket=bucket,
            alert=config.alert,
        )
        found = source.store(config).health(query)
        return health_json(found, since=start, until=end, dag_id=dag_id or None) | {
            "dags": sorted(dags)
        }

    @app.exception_handler(HTTPException)
    async def refused(request: Request, error: HTTPException) -> Response:
        page = request.url.path.rstrip("/") == str(request.scope.get("root_path", "")).rstrip("/")
        if page and error.status_code == 401 and access.login_url is not None:
            return RedirectResponse(access.login_url(str(request.url)), status_code=303)
        return JSONResponse({"detail": error.detail}, error.status_code, headers=error.headers)

    return app
